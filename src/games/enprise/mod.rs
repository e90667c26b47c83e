//! En Prise: two to four players build the board from the cards of their battleplans while they
//! play chess on it. Kings are summoned mid-game; checkmated, stalemated or repeating players are
//! eliminated and the last one standing (or the last team, in an alliance) wins. Variants hide
//! the battleplans: Blind, Memory and Casino. See docs/rules/enprise.md.

mod board;
mod eval;
mod flow;
mod notation;
mod options;
mod refusal;

pub use board::{Board, Piece, Sides};
pub use options::{EnPriseOptions, MAX_MEMORY_SECONDS, MEMORY_SECONDS, Peek, Variant};

use crate::board::Sq;
use crate::engine::{
    Event, Game, GameRng, OnTime, Outcome, ParseError, RuleError, Scoring, Seat, SetupError,
    Showcase, Timeout, ToAct, Viewer,
};
use crate::games::chess::Role;
use serde::{Deserialize, Serialize};

/// The fifty-round rule: this many rounds with no card placed, no capture and no one
/// eliminated end the game in a draw.
pub const QUIET_ROUNDS: u32 = 50;

/// The colour of each seat.
pub const COLOURS: [&str; 4] = ["White", "Black", "Red", "Blue"];

pub fn colour(seat: Seat) -> &'static str {
    COLOURS[seat.index() % 4]
}

/// One card of a battleplan. `shown` marks a hidden card that has been turned face-up for
/// everyone (a card revealed for placing that could not be placed).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    pub role: Role,
    pub shown: bool,
}

/// One thing a seat can do.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Memory: done memorising the plans.
    Ready,
    /// Move a piece; captures when an opposing piece stands on `to`.
    Move {
        from: Sq,
        to: Sq,
    },
    /// Place the card to be placed (the next one, or the one revealed): face-up, or, for a
    /// pawn, face-down as a new vacant square.
    Place {
        at: Sq,
        face_down: bool,
    },
    /// Summon the king.
    King {
        at: Sq,
    },
    /// Memory and Casino: choose to place before the card is known.
    Draw,
    /// Casino: the chooser picks the placer's card by its position (from 1).
    Pick {
        card: usize,
    },
    /// After a king: a new vacant square made from the next card (Casino: the card the
    /// player picks by position).
    Escape {
        at: Sq,
        card: Option<usize>,
    },
    NoEscape,
}

/// Where the game stands within a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Memory: the plans are shown; waiting for these seats to be ready.
    Memorise {
        ready: Vec<bool>,
    },
    /// The current player chooses what to do.
    Turn,
    /// Casino: `chooser` picks which hidden card the current player must place.
    Choosing {
        chooser: Seat,
    },
    /// Memory and Casino: the card at this position of the plan was revealed and must be placed.
    Placing {
        card: usize,
    },
    /// The king was just placed; the player may add an escape square.
    Escape,
    Over(Outcome),
}

/// Why a player left the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Out {
    /// No legal turn with the king in check; `by` are the players whose pieces attacked it.
    Checkmate { by: Vec<Seat> },
    /// No legal turn, the king not in check.
    Stalemate,
    /// One piece moved back and forth six own turns in a row.
    Repetition,
    /// Made to summon the king, with no square where it would be safe.
    NoSafeSquare,
    /// Resigned (only when two players remain; the game itself never records it).
    Resignation,
    /// Ran out of time on the match's clock (the table records it).
    Time,
}

impl Out {
    /// The outcome's short reason when this elimination ends the game.
    pub fn reason(&self) -> &'static str {
        match self {
            Out::Checkmate { .. } => "checkmate",
            Out::Stalemate => "stalemate",
            Out::Repetition => "repetition",
            Out::NoSafeSquare => "checkmate on the way into battle",
            Out::Resignation => "resignation",
            Out::Time => "time",
        }
    }

    /// What happened to the player, after their name: "was checkmated by Black".
    pub fn sentence(&self) -> String {
        match self {
            Out::Checkmate { by } if by.is_empty() => "was checkmated".into(),
            Out::Checkmate { by } => format!("was checkmated by {}", names(by)),
            Out::Stalemate => "was stalemated".into(),
            Out::Repetition => "was out by repetition".into(),
            Out::NoSafeSquare => {
                "was checkmated on the way into battle (no safe square for the king)".into()
            }
            Out::Resignation => "resigned".into(),
            Out::Time => "ran out of time".into(),
        }
    }

    /// The same in a few words, for a player's row: "checkmated by Black".
    pub fn short(&self) -> String {
        match self {
            Out::Checkmate { by } if by.is_empty() => "checkmated".into(),
            Out::Checkmate { by } => format!("checkmated by {}", names(by)),
            Out::Stalemate => "stalemated".into(),
            Out::Repetition => "repetition".into(),
            Out::NoSafeSquare => "no safe square for the king".into(),
            Out::Resignation => "resigned".into(),
            Out::Time => "out of time".into(),
        }
    }
}

/// Colours joined in plain words: "White", "White and Red", "White, Black and Red".
pub fn names(seats: &[Seat]) -> String {
    let names: Vec<&str> = seats.iter().map(|&s| colour(s)).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// How a player left the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Elimination {
    pub seat: Seat,
    pub out: Out,
}

/// A piece turned face-down when its player went out, as it stood just before.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fallen {
    pub at: Sq,
    pub piece: Piece,
    /// A king that was in check as it fell (the checkmated king).
    pub check: bool,
}

/// Why a placement on a square the card may reach is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Blocked {
    /// The player's own king would be in check.
    OwnKing,
    /// The new piece would touch this opponent's king, on this square.
    Touches(Seat, Sq),
    /// The new piece would itself check this opponent's king.
    Checks(Seat, Sq),
    /// The new square would open a way for one of the player's pieces to check this king.
    Opens(Seat, Sq),
}

/// The last thing done, for highlighting, and the pieces of the players it put out of the game
/// (so the picture can show the decisive position before they were turned over).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastAction {
    pub seat: Seat,
    pub text: String,
    pub squares: Vec<Sq>,
    #[serde(default)]
    pub fallen: Vec<Fallen>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EnPrise {
    options: EnPriseOptions,
    seats: usize,
    board: Board,
    /// Each seat's remaining battleplan, next card first. The king is held aside.
    plans: Vec<Vec<Card>>,
    king_in_hand: Vec<bool>,
    alive: Vec<bool>,
    eliminated: Vec<Elimination>,
    /// Set once the first king is on the board: every king still in hand must come next.
    kings_summoned: bool,
    current: Seat,
    phase: Phase,
    /// Each seat's consecutive moves (from, to) since its last other kind of turn, last six.
    streaks: Vec<Vec<(Sq, Sq)>>,
    /// Turns since the last placement, capture or elimination.
    quiet: u32,
    turns: u32,
    last: Option<LastAction>,
    /// The revision of the rules the match is played under ([`Game::RULES`]): 1 before a pawn
    /// could go face-up onto a vacant square.
    #[serde(default = "current_rules")]
    rules: u32,
}

fn current_rules() -> u32 {
    <EnPrise as Game>::RULES
}

const PLAN: [Role; 15] = [
    Role::Queen,
    Role::Rook,
    Role::Rook,
    Role::Bishop,
    Role::Bishop,
    Role::Knight,
    Role::Knight,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
];

fn article(role: Role) -> String {
    format!("a {}", role.name())
}

pub fn sq_text(sq: Sq) -> String {
    sq.xy()
}

impl EnPrise {
    pub fn options(&self) -> &EnPriseOptions {
        &self.options
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn current(&self) -> Seat {
        self.current
    }

    pub fn plan(&self, seat: Seat) -> &[Card] {
        &self.plans[seat.index()]
    }

    pub fn is_alive(&self, seat: Seat) -> bool {
        self.alive[seat.index()]
    }

    pub fn sides(&self) -> Sides {
        Sides {
            alliance: self.options.alliance,
        }
    }

    /// Seats still in the game.
    pub fn live_seats(&self) -> Vec<Seat> {
        self.live().collect()
    }

    fn live(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::all(self.seats).filter(|s| self.alive[s.index()])
    }

    /// True when an opponent has summoned their king while `seat`'s is still in hand.
    fn must_summon(&self, seat: Seat) -> bool {
        self.king_in_hand[seat.index()] && !self.opposing_kings(seat).is_empty()
    }

    /// The next live seat after `seat` in turn order.
    fn next_live(&self, seat: Seat) -> Seat {
        (1..=self.seats)
            .map(|i| Seat(((seat.index() + i) % self.seats) as u8))
            .find(|&s| self.alive[s.index()])
            .unwrap_or(seat)
    }

    /// Casino: the opponent to the left of `seat` (the next live opponent in turn order).
    fn chooser_for(&self, seat: Seat) -> Seat {
        (1..self.seats)
            .map(|i| Seat(((seat.index() + i) % self.seats) as u8))
            .find(|&s| self.alive[s.index()] && self.sides().opposed(s, seat))
            .unwrap_or(seat)
    }

    /// True when the player must choose "place" before knowing which card comes.
    fn needs_declaration(&self, seat: Seat) -> bool {
        match self.options.variant {
            Variant::Casino => true,
            Variant::Memory => self.plans[seat.index()].first().is_some_and(|c| !c.shown),
            Variant::Open | Variant::Blind => false,
        }
    }

    /// May `viewer` see card `index` of `owner`'s plan?
    pub fn card_visible(&self, owner: Seat, index: usize, viewer: Viewer) -> bool {
        let card = &self.plans[owner.index()][index];
        if card.shown {
            return true;
        }
        let own = match viewer {
            Viewer::Seat(s) => {
                s == owner || (self.options.alliance && !self.sides().opposed(s, owner))
            }
            Viewer::Spectator => false,
        };
        match self.options.variant {
            Variant::Open => true,
            Variant::Memory => matches!(self.phase, Phase::Memorise { .. }),
            Variant::Casino => false,
            Variant::Blind => own && (self.options.peek() == Peek::Plan || index == 0),
        }
    }

    // ---- legality -------------------------------------------------------------------------

    fn legal_moves(&self, seat: Seat) -> Vec<Action> {
        let sides = self.sides();
        let mut board = self.board.clone();
        let mut out = Vec::new();
        let own: Vec<(Sq, Piece)> = self
            .board
            .pieces()
            .filter(|(_, p)| p.owner == seat)
            .collect();
        // A move can only uncover the king along a line through the square it leaves: when the
        // king is not in check and the piece leaving is neither the king nor on such a line,
        // the move is safe without trying it.
        let king = self.board.king_of(seat);
        let checked = king.is_some_and(|k| board.attacked(k, seat, sides));
        for (from, piece) in own {
            let may_uncover = checked
                || piece.role == Role::King
                || king.is_some_and(|k| {
                    let (dx, dy) = (from.x - k.x, from.y - k.y);
                    dx == 0 || dy == 0 || dx.abs() == dy.abs()
                });
            for to in self.board.targets(from, sides) {
                if king.is_none() || !may_uncover {
                    out.push(Action::Move { from, to });
                    continue;
                }
                let captured = board.get(to).flatten();
                board.set(to, Some(piece));
                board.set(from, None);
                if !board.in_check(seat, sides) {
                    out.push(Action::Move { from, to });
                }
                board.set(from, Some(piece));
                board.set(to, captured);
            }
        }
        out
    }

    /// The kings of `seat`'s opponents that stand on the board.
    fn opposing_kings(&self, seat: Seat) -> Vec<(Seat, Sq)> {
        let sides = self.sides();
        self.live()
            .filter(|&s| sides.opposed(s, seat))
            .filter_map(|s| self.board.king_of(s).map(|k| (s, k)))
            .collect()
    }

    /// May `seat` put `role` face-up (or a pawn face-down) on `at`? `at` is a frontier square
    /// or, face-up, a vacant square. `scratch` is a copy of the board, used for the trial and
    /// left as it was.
    fn placement_ok(
        &self,
        scratch: &mut Board,
        seat: Seat,
        role: Role,
        at: Sq,
        face_down: bool,
    ) -> bool {
        self.placement_problem(scratch, seat, role, at, face_down)
            .is_none()
    }

    /// Which rule forbids putting `role` on `at` (see [`EnPrise::placement_ok`]), if one does.
    fn placement_problem(
        &self,
        scratch: &mut Board,
        seat: Seat,
        role: Role,
        at: Sq,
        face_down: bool,
    ) -> Option<Blocked> {
        let before = scratch.get(at);
        let piece = Piece { owner: seat, role };
        scratch.set(at, (!face_down).then_some(piece));
        let problem = self.placement_problem_on(scratch, seat, piece, at, face_down);
        match before {
            Some(content) => scratch.set(at, content),
            None => scratch.remove(at),
        }
        problem
    }

    /// The rules for a placement, on the board after it.
    fn placement_problem_on(
        &self,
        after: &Board,
        seat: Seat,
        piece: Piece,
        at: Sq,
        face_down: bool,
    ) -> Option<Blocked> {
        let sides = self.sides();
        // A king next to an opposing king would also stand in its reach: say the rule itself.
        if piece.role == Role::King
            && let Some((owner, king)) = self
                .opposing_kings(seat)
                .into_iter()
                .find(|&(_, king)| at.touches(king))
        {
            return Some(Blocked::Touches(owner, king));
        }
        if after.in_check(seat, sides) {
            return Some(Blocked::OwnKing);
        }
        if face_down || !self.kings_summoned {
            return None;
        }
        // A new piece may not touch an opposing king nor put one in check (by itself, or by
        // completing a knight's path over the new square).
        let ours = |owner: Seat| !sides.opposed(owner, seat);
        self.opposing_kings(seat)
            .into_iter()
            .find_map(|(owner, king)| {
                if at.touches(king) {
                    Some(Blocked::Touches(owner, king))
                } else if after.piece_attacks(at, piece, king) {
                    Some(Blocked::Checks(owner, king))
                } else if !self.board.attacked_by(king, sides, ours)
                    && after.attacked_by(king, sides, ours)
                {
                    Some(Blocked::Opens(owner, king))
                } else {
                    None
                }
            })
    }

    /// Every placement of a card of this role for `seat`: face-up on a new square or on a
    /// vacant one, and for a pawn also face-down on a new square.
    fn placements(&self, seat: Seat, role: Role) -> Vec<Action> {
        let mut scratch = self.board.clone();
        let mut out = Vec::new();
        for at in self.board.frontier() {
            for face_down in [false, true] {
                if (!face_down || role == Role::Pawn)
                    && self.placement_ok(&mut scratch, seat, role, at, face_down)
                {
                    out.push(Action::Place { at, face_down });
                }
            }
        }
        let onto_vacant = role != Role::Pawn || self.rules >= 2;
        for at in self.board.vacant().filter(|_| onto_vacant) {
            if self.placement_ok(&mut scratch, seat, role, at, false) {
                out.push(Action::Place {
                    at,
                    face_down: false,
                });
            }
        }
        out
    }

    fn can_place(&self, seat: Seat, role: Role) -> bool {
        !self.placements(seat, role).is_empty()
    }

    fn king_placements(&self, seat: Seat) -> Vec<Action> {
        if !self.king_in_hand[seat.index()] {
            return vec![];
        }
        if !self.must_summon(seat) && self.board.vacant_count() < 6 {
            return vec![];
        }
        let mut squares: Vec<Sq> = self.board.frontier().into_iter().collect();
        squares.extend(self.board.vacant());
        squares.sort();
        let mut scratch = self.board.clone();
        squares
            .into_iter()
            .filter(|&at| self.placement_ok(&mut scratch, seat, Role::King, at, false))
            .map(|at| Action::King { at })
            .collect()
    }

    fn escapes(&self, seat: Seat) -> Vec<Action> {
        let plan = &self.plans[seat.index()];
        if plan.is_empty() {
            return vec![];
        }
        let cards: Vec<Option<usize>> = if self.options.variant == Variant::Casino {
            (1..=plan.len()).map(Some).collect()
        } else {
            vec![None]
        };
        let mut scratch = self.board.clone();
        let mut out = vec![Action::NoEscape];
        for at in self.board.frontier() {
            if self.placement_ok(&mut scratch, seat, Role::Pawn, at, true) {
                out.extend(cards.iter().map(|&card| Action::Escape { at, card }));
            }
        }
        out
    }

    /// What the card options are on a normal turn.
    fn card_actions(&self, seat: Seat) -> Vec<Action> {
        let plan = &self.plans[seat.index()];
        let Some(next) = plan.first() else {
            return vec![];
        };
        match self.options.variant {
            Variant::Casino => {
                // The remaining cards are known to all (every card that leaves is shown), so
                // whether any of them could be placed gives nothing away.
                let any = plan.iter().any(|c| self.can_place(seat, c.role));
                if any { vec![Action::Draw] } else { vec![] }
            }
            _ if self.needs_declaration(seat) => vec![Action::Draw],
            _ => self.placements(seat, next.role),
        }
    }

    /// Every action of `seat` on a normal turn.
    fn turn_actions(&self, seat: Seat) -> Vec<Action> {
        if self.must_summon(seat) {
            return self.king_placements(seat);
        }
        let mut out = self.legal_moves(seat);
        out.extend(self.king_placements(seat));
        out.extend(self.card_actions(seat));
        out
    }

    /// Could `seat` complete a turn at all (the server's full knowledge)?
    fn can_complete_turn(&self, seat: Seat) -> bool {
        if self.must_summon(seat) {
            return !self.king_placements(seat).is_empty();
        }
        if !self.legal_moves(seat).is_empty() || !self.king_placements(seat).is_empty() {
            return true;
        }
        let plan = &self.plans[seat.index()];
        match self.options.variant {
            Variant::Casino => plan.iter().any(|c| self.can_place(seat, c.role)),
            _ => plan.first().is_some_and(|c| self.can_place(seat, c.role)),
        }
    }

    /// Casino: positions the chooser may pick (not a shown card that cannot be placed now).
    fn picks(&self) -> Vec<Action> {
        let seat = self.current;
        self.plans[seat.index()]
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.shown || self.can_place(seat, c.role))
            .map(|(i, _)| Action::Pick { card: i + 1 })
            .collect()
    }

    fn card_to_place(&self, seat: Seat) -> Option<Role> {
        match self.phase {
            Phase::Placing { card } => self.plans[seat.index()].get(card).map(|c| c.role),
            _ => self.plans[seat.index()].first().map(|c| c.role),
        }
    }
}

impl Game for EnPrise {
    type Options = EnPriseOptions;
    type Action = Action;
    type View = EnPriseView;

    const NAME: &'static str = "En Prise";
    const ID: &'static str = "enprise";
    const SUMMARY: &'static str = "**En Prise** (2-4 players): build the board while you play. Each turn, place your \
         next battleplan card on a new square touching the board (`N@1,0`; a pawn may go \
         face-down as a vacant square: `P@1,0 down`; a piece may also go onto a vacant \
         square) or move a piece over existing squares (`Q 0,0 to 2,2`, capture `Q 0,0 x \
         2,2`). Pawns never move. Squares are x,y from the first card. Summon your king \
         (`K@x,y`) once 6 vacant squares exist; then everyone must. Checkmate, stalemate or \
         shuttling a piece six moves in a row puts a player out; the last one standing wins. \
         Variants: variant=blind|memory|casino, alliance=true (four players).";
    /// 2: a pawn may go face-up onto a vacant square.
    const RULES: u32 = 2;
    const SEATS: (usize, usize) = (2, 4);
    /// The rule sheet scores a draw as nothing for everyone.
    const SCORING: Scoring = Scoring::WINS_ONLY;
    const SHOWCASE: &'static [Showcase] = &[
        ("blind", 3, &[("variant", "blind")]),
        ("memory", 2, &[("variant", "memory")]),
        ("casino", 3, &[("variant", "casino")]),
        ("alliance", 4, &[("alliance", "true")]),
    ];
    const NOTATION: &'static str =
        "squares are x,y counted from the first card at 0,0: x to the right, y up (-1,2)
  place your next card: N@2,1 (or just @2,1); a pawn face-down, as a new vacant square: P@2,1 down
  move: Q 0,0 to 2,2; capture: Q 0,0 x 2,2
  summon your king: K@-1,3; then escape 1,4 (Casino: escape 1,4 card 2) or no escape
  Memory and Casino: place, to place a card unseen; Casino's chooser picks it: card 3
  Memory: ready, when you have memorised the plans";

    fn under_rules(mut self, rules: u32) -> Self {
        self.rules = rules;
        self
    }

    fn new(options: &EnPriseOptions, seats: usize, rng: &mut GameRng) -> Result<Self, SetupError> {
        let (min, max) = Self::SEATS;
        if !(min..=max).contains(&seats) {
            return Err(SetupError::SeatCount {
                game: Self::NAME,
                min,
                max,
                got: seats,
            });
        }
        options.check(seats)?;
        let plans = (0..seats)
            .map(|_| {
                let mut plan = PLAN;
                rng.shuffle(&mut plan);
                plan.iter()
                    .map(|&role| Card { role, shown: false })
                    .collect()
            })
            .collect();
        let phase = match options.variant {
            Variant::Memory => Phase::Memorise {
                ready: vec![false; seats],
            },
            _ => Phase::Turn,
        };
        Ok(EnPrise {
            options: options.clone(),
            seats,
            board: Board::default(),
            plans,
            king_in_hand: vec![true; seats],
            alive: vec![true; seats],
            eliminated: vec![],
            kings_summoned: false,
            current: Seat(0),
            phase,
            streaks: vec![vec![]; seats],
            quiet: 0,
            turns: 0,
            last: None,
            rules: Self::RULES,
        })
    }

    fn seat_count(&self) -> usize {
        self.seats
    }

    fn to_act(&self) -> ToAct {
        match &self.phase {
            Phase::Over(outcome) => ToAct::Over(outcome.clone()),
            Phase::Memorise { ready } => ToAct::Seats(
                Seat::all(self.seats)
                    .filter(|s| !ready[s.index()])
                    .collect(),
            ),
            Phase::Choosing { chooser } => ToAct::one(*chooser),
            Phase::Turn | Phase::Placing { .. } | Phase::Escape => ToAct::one(self.current),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        match &self.phase {
            Phase::Over(_) => vec![],
            Phase::Memorise { ready } => {
                if ready[seat.index()] {
                    vec![]
                } else {
                    vec![Action::Ready]
                }
            }
            _ if !self.to_act().includes(seat) => vec![],
            Phase::Choosing { .. } => self.picks(),
            Phase::Placing { card } => self.placements(seat, self.plans[seat.index()][*card].role),
            Phase::Escape => self.escapes(seat),
            Phase::Turn => self.turn_actions(seat),
        }
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        _rng: &mut GameRng,
    ) -> Result<Vec<Event>, RuleError> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err(RuleError::GameOver);
        }
        if !self.to_act().includes(seat) {
            return Err(RuleError::NotYourTurn);
        }
        if !self.legal_actions(seat).contains(action) {
            return Err(Self::refuse(self.why_illegal(seat, action)));
        }
        Ok(self.perform(seat, action))
    }

    fn view(&self, viewer: Viewer) -> EnPriseView {
        view::build(self, viewer)
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ParseError> {
        notation::parse(self, seat, text)
    }

    fn format_action(&self, action: &Action) -> String {
        notation::format(self, action)
    }

    /// In Blind, placing the next card names it before opponents may see it.
    fn private_choices(&self) -> bool {
        self.options.variant == Variant::Blind
    }

    /// In Memory, the plans are shown to be memorised, then turned face down.
    fn hides_what_it_showed(&self) -> bool {
        self.options.variant == Variant::Memory
    }

    fn describe(&self, outcome: &Outcome) -> String {
        describe(self, outcome)
    }

    /// Moves by the piece that moves ("queen", "king"); placements as "place" (face-up) and
    /// "face-down"; then "summon", "escape", "card" (Casino picks), "ready".
    fn action_group(&self, action: &Action) -> String {
        match action {
            Action::Move { from, .. } => match self.board.get(*from) {
                Some(Some(piece)) => piece.role.name().to_string(),
                _ => "move".into(),
            },
            Action::Place {
                face_down: false, ..
            }
            | Action::Draw => "place".into(),
            Action::Place {
                face_down: true, ..
            } => "face-down".into(),
            Action::King { .. } => "summon".into(),
            Action::Escape { .. } | Action::NoEscape => "escape".into(),
            Action::Pick { .. } => "card".into(),
            Action::Ready => "ready".into(),
        }
    }

    /// The sixth move of one piece back and forth puts its player out at once.
    fn warning(&self, seat: Seat, action: &Action) -> Option<String> {
        let Action::Move { from, to } = *action else {
            return None;
        };
        let mut copy = self.streaks[seat.index()].clone();
        flow::push_streak(&mut copy, from, to).then(|| {
            format!(
                "this is the sixth move in a row of this piece between {} and {}: you go out of \
                 the game by repetition",
                sq_text(from),
                sq_text(to)
            )
        })
    }

    /// Material on the board and in the plans, threatened pieces and king safety
    /// (`eval.rs`), for a computer player's playout cut short.
    fn evaluate(&self) -> Option<Vec<f64>> {
        Some(eval::chances(self))
    }

    /// Every battleplan card the seat has not seen, dealt again among the places it could be
    /// (each player's hidden cards stay that player's). In Memory every plan was shown to
    /// everyone at the start, so the seat remembers them all, face down or not.
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut other = self.clone();
        if self.options.variant == Variant::Memory {
            return other;
        }
        for owner in Seat::all(self.seats) {
            let hidden: Vec<usize> = (0..self.plans[owner.index()].len())
                .filter(|&i| !self.card_visible(owner, i, Viewer::Seat(seat)))
                .collect();
            let mut roles: Vec<Role> = hidden
                .iter()
                .map(|&i| self.plans[owner.index()][i].role)
                .collect();
            // Sorted before they are shuffled, so the deal depends only on what the seat knows.
            roles.sort_unstable();
            rng.shuffle(&mut roles);
            for (&i, role) in hidden.iter().zip(roles) {
                other.plans[owner.index()][i].role = role;
            }
        }
        other
    }

    fn seat_name(seat: Seat) -> String {
        colour(seat).into()
    }

    fn live_seats(&self) -> Vec<Seat> {
        EnPrise::live_seats(self)
    }

    /// Allowed only when two players remain ([`EnPrise::resignation`]).
    fn resignation(&self, seat: Seat) -> Result<Outcome, String> {
        EnPrise::resignation(self, seat)
    }

    /// With two players left the other wins; with more, the seat is put out and play goes on.
    fn on_time(&self, seat: Seat) -> OnTime {
        EnPrise::on_time(self, seat).map_or(OnTime::Eliminate, OnTime::Finish)
    }

    fn time_out(&mut self, seat: Seat) -> Option<Vec<Event>> {
        Some(EnPrise::time_out(self, seat))
    }

    /// Casino: while the chooser picks a card, the turn stays the drawing player's (the pick
    /// answers inside it), so that player's clock pauses rather than ends.
    fn turn_owner(&self) -> Option<Seat> {
        matches!(self.phase, Phase::Choosing { .. }).then_some(self.current)
    }

    /// Memory: the end of the memorising time makes everyone still looking ready.
    fn timeout(&self) -> Option<Timeout<Action>> {
        EnPrise::timeout(self)
    }
}

mod view;
pub use view::{EnPriseView, PhaseView, PlanView, PlayerView, SquareView, describe};

#[cfg(test)]
mod tests;
