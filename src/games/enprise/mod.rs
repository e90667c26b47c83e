//! En Prise: two to four players build the board from the cards of their battleplans while they
//! play chess on it. Kings are summoned mid-game; checkmated, stalemated or repeating players are
//! eliminated and the last one standing (or the last team, in an alliance) wins. Variants hide
//! the battleplans: Blind, Memory and Casino. See docs/rules/enprise.md.

mod board;
mod notation;

pub use board::{Board, Piece, Sides};

use crate::board::Sq;
use crate::engine::{
    Event, Game, GameRng, Outcome, ParseError, RuleError, Seat, SetupError, ToAct, Viewer,
};
use crate::games::chess::Role;
use serde::{Deserialize, Serialize};

/// How the battleplans are shown.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Every plan face-up for everyone.
    #[default]
    Open,
    /// Plans hidden from opponents; the owner sees them as `peek` says.
    Blind,
    /// Every plan shown to all for `memory_seconds`, then hidden from everyone.
    Memory,
    /// Plans hidden from everyone; the opponent to the placer's left picks the card.
    Casino,
}

/// What the owner of a blind plan sees.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Peek {
    #[default]
    Plan,
    Next,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EnPriseOptions {
    pub variant: Variant,
    /// Four players in two teams: seats 1 and 3 against seats 2 and 4.
    pub alliance: bool,
    /// Blind only: the owner sees the whole plan, or only the next card.
    pub peek: Peek,
    /// Memory only: how long the plans are shown at the start.
    pub memory_seconds: u32,
}

impl Default for EnPriseOptions {
    fn default() -> Self {
        EnPriseOptions {
            variant: Variant::Open,
            alliance: false,
            peek: Peek::Plan,
            memory_seconds: 60,
        }
    }
}

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

/// How a player left the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Elimination {
    pub seat: Seat,
    pub reason: String,
}

/// The last thing done, for highlighting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastAction {
    pub seat: Seat,
    pub text: String,
    pub squares: Vec<Sq>,
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
            Variant::Blind => own && (self.options.peek == Peek::Plan || index == 0),
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
        for (from, piece) in own {
            for to in self.board.targets(from, sides) {
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
    /// or, for a face-up non-pawn, a vacant square. `scratch` is a copy of the board, used for
    /// the trial and left as it was.
    fn placement_ok(
        &self,
        scratch: &mut Board,
        seat: Seat,
        role: Role,
        at: Sq,
        face_down: bool,
    ) -> bool {
        let before = scratch.get(at);
        let piece = Piece { owner: seat, role };
        scratch.set(at, (!face_down).then_some(piece));
        let ok = self.placement_ok_on(scratch, seat, piece, at, face_down);
        match before {
            Some(content) => scratch.set(at, content),
            None => scratch.remove(at),
        }
        ok
    }

    /// The rules for a placement, on the board after it.
    fn placement_ok_on(
        &self,
        after: &Board,
        seat: Seat,
        piece: Piece,
        at: Sq,
        face_down: bool,
    ) -> bool {
        let sides = self.sides();
        if after.in_check(seat, sides) {
            return false;
        }
        if face_down || !self.kings_summoned {
            return true;
        }
        // A new piece may not touch an opposing king nor put one in check (by itself, or by
        // completing a knight's path over the new square).
        let ours = |owner: Seat| !sides.opposed(owner, seat);
        self.opposing_kings(seat).into_iter().all(|(_, king)| {
            !at.touches(king)
                && !after.piece_attacks(at, piece, king)
                && (self.board.attacked_by(king, sides, ours)
                    || !after.attacked_by(king, sides, ours))
        })
    }

    /// Every placement of a card of this role for `seat`.
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
        if role != Role::Pawn {
            for at in self.board.vacant() {
                if self.placement_ok(&mut scratch, seat, role, at, false) {
                    out.push(Action::Place {
                        at,
                        face_down: false,
                    });
                }
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

    // ---- flow -----------------------------------------------------------------------------

    fn name(&self, seat: Seat) -> &'static str {
        colour(seat)
    }

    /// Ends the current player's turn and starts the next live player's, eliminating those
    /// who cannot play, until someone can or the game is over.
    fn end_turn(&mut self, events: &mut Vec<Event>, eventful: bool) {
        self.turns += 1;
        if eventful {
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        for (owner, _) in self.opposing_kings(self.current) {
            if self.board.in_check(owner, self.sides()) {
                events.push(Event::public(format!("{} is in check", self.name(owner))));
            }
        }
        let next = self.next_live(self.current);
        self.begin_turn(next, events);
    }

    fn begin_turn(&mut self, mut seat: Seat, events: &mut Vec<Event>) {
        loop {
            if self.check_end(events) {
                return;
            }
            if !self.alive[seat.index()] {
                seat = self.next_live(seat);
                continue;
            }
            self.current = seat;
            if self.can_complete_turn(seat) {
                self.phase = Phase::Turn;
                return;
            }
            let reason = if self.must_summon(seat) {
                "cannot summon the king without it being in check"
            } else if self.board.in_check(seat, self.sides()) {
                "checkmate"
            } else {
                "stalemate"
            };
            self.eliminate(seat, reason, events);
            seat = self.next_live(seat);
        }
    }

    fn eliminate(&mut self, seat: Seat, reason: &str, events: &mut Vec<Event>) {
        self.alive[seat.index()] = false;
        self.board.clear(seat);
        self.plans[seat.index()].clear();
        self.king_in_hand[seat.index()] = false;
        self.streaks[seat.index()].clear();
        self.quiet = 0;
        self.eliminated.push(Elimination {
            seat,
            reason: reason.to_string(),
        });
        events.push(Event::public(format!(
            "{} is out of the game ({reason}); their pieces turn face-down",
            self.name(seat)
        )));
    }

    /// Ends the game when one player (or one team) is left, or when it is drawn.
    fn check_end(&mut self, events: &mut Vec<Event>) -> bool {
        if matches!(self.phase, Phase::Over(_)) {
            return true;
        }
        let sides = self.sides();
        let live: Vec<Seat> = self.live().collect();
        let teams: std::collections::BTreeSet<u8> = live.iter().map(|&s| sides.team(s)).collect();
        let outcome = if teams.len() <= 1 {
            let reason = self
                .eliminated
                .last()
                .map_or("default".to_string(), |e| e.reason.clone());
            Some(self.win_outcome(&live, &reason))
        } else if !self.mate_possible() {
            Some(Outcome::draw(
                self.seats,
                "no checkmate is possible any more",
            ))
        } else if self.quiet >= QUIET_ROUNDS * live.len() as u32 {
            Some(Outcome::draw(
                self.seats,
                "fifty rounds without a card placed, a capture or an elimination",
            ))
        } else {
            None
        };
        let Some(outcome) = outcome else {
            return false;
        };
        events.push(Event::public(format!("Game over: {}", describe(&outcome))));
        self.phase = Phase::Over(outcome);
        true
    }

    /// Places best first: the winners, then the eliminated, last out first.
    fn win_outcome(&self, winners: &[Seat], reason: &str) -> Outcome {
        if self.options.alliance {
            let team = self.sides().team(winners[0]);
            let (won, lost): (Vec<Seat>, Vec<Seat>) =
                Seat::all(self.seats).partition(|&s| self.sides().team(s) == team);
            return Outcome::team_win(won, lost, reason);
        }
        let mut places = vec![winners.to_vec()];
        places.extend(self.eliminated.iter().rev().map(|e| vec![e.seat]));
        Outcome::ranking(places, reason)
    }

    /// A checkmate stays possible while some live player has a piece that can give check (on the
    /// board or still in the battleplan). Kings alone never mate; pawns never check.
    fn mate_possible(&self) -> bool {
        let checker = |r: Role| !matches!(r, Role::King | Role::Pawn);
        self.live().any(|s| {
            self.plans[s.index()].iter().any(|c| checker(c.role))
                || self
                    .board
                    .pieces()
                    .any(|(_, p)| p.owner == s && checker(p.role))
        })
    }

    /// Records a move for the repetition rule; true when the player has now shuttled one piece
    /// between two squares six own moves in a row.
    fn repeats(&mut self, seat: Seat, from: Sq, to: Sq) -> bool {
        let streak = &mut self.streaks[seat.index()];
        streak.push((from, to));
        if streak.len() > 6 {
            streak.remove(0);
        }
        let (a, b) = streak[0];
        streak.len() == 6
            && streak
                .iter()
                .enumerate()
                .all(|(i, &m)| m == if i % 2 == 0 { (a, b) } else { (b, a) })
    }

    /// The resignation of `seat`: allowed only when two players remain.
    pub fn resignation(&self, seat: Seat) -> Result<Outcome, String> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err("the game is over".into());
        }
        if !self.alive[seat.index()] {
            return Err("you are already out of the game".into());
        }
        let live: Vec<Seat> = self.live().collect();
        if live.len() != 2 {
            return Err(format!(
                "resigning is possible only when two players remain; {} are still playing",
                live.len()
            ));
        }
        let mut copy = self.clone();
        copy.alive[seat.index()] = false;
        copy.eliminated.push(Elimination {
            seat,
            reason: "resignation".into(),
        });
        let winner: Vec<Seat> = copy.live().collect();
        Ok(copy.win_outcome(&winner, "resignation"))
    }

    fn refuse(text: impl Into<String>) -> RuleError {
        RuleError::Illegal(text.into())
    }

    /// Why `action` is not legal for `seat` now: a precise message.
    fn why_illegal(&self, seat: Seat, action: &Action) -> String {
        match (action, &self.phase) {
            (Action::Ready, _) => "the plans are no longer on show".into(),
            (_, Phase::Memorise { .. }) => {
                "the plans are on show: say ready when you have memorised them".into()
            }
            (Action::Pick { .. }, Phase::Choosing { .. }) => format!(
                "pick one of {}'s cards by its position, card 1 to card {}",
                self.name(self.current),
                self.plans[self.current.index()].len()
            ),
            (_, Phase::Choosing { chooser }) if *chooser == seat => format!(
                "pick which card {} places: card 1 to card {}",
                self.name(self.current),
                self.plans[self.current.index()].len()
            ),
            (_, Phase::Choosing { chooser }) => format!(
                "{} must first pick which card {} places",
                self.name(*chooser),
                self.name(self.current)
            ),
            (Action::Move { .. } | Action::King { .. } | Action::Draw, Phase::Placing { card }) => {
                let role = self.plans[seat.index()][*card].role;
                format!(
                    "place the revealed {} first, for example {}@x,y",
                    role.name(),
                    role.letter()
                )
            }
            (Action::Escape { .. } | Action::NoEscape, p) if *p != Phase::Escape => {
                "an escape square can be added only right after placing your king".into()
            }
            (Action::Escape { at, card }, Phase::Escape) => {
                self.why_escape_illegal(seat, *at, *card)
            }
            (_, Phase::Escape) => "add an escape square (escape X,Y) or say no escape".into(),
            (Action::Pick { .. }, _) => "there is no card to pick now".into(),
            (Action::Move { from, to }, _) => self.why_move_illegal(seat, *from, *to),
            (Action::King { .. }, _) => self.why_king_illegal(seat),
            (Action::Draw, _) => match self.options.variant {
                Variant::Memory | Variant::Casino if self.plans[seat.index()].is_empty() => {
                    "your battleplan is empty".into()
                }
                Variant::Memory | Variant::Casino if self.must_summon(seat) => {
                    "you must summon your king this turn".into()
                }
                Variant::Memory | Variant::Casino => "none of your cards can be placed now".into(),
                _ => "in this variant you place your next card directly (for example N@1,0)".into(),
            },
            (Action::Place { .. }, _) if self.must_summon(seat) => {
                "the kings are summoned: you must place your king this turn".into()
            }
            (Action::Place { .. }, Phase::Turn) if self.plans[seat.index()].is_empty() => {
                "your battleplan is empty; move a piece".into()
            }
            (Action::Place { .. }, Phase::Turn) if self.needs_declaration(seat) => {
                "choose to place before the card is revealed: say place".into()
            }
            (Action::Place { at, face_down }, _) => self.why_place_illegal(seat, *at, *face_down),
            _ => "that is not possible now".into(),
        }
    }

    fn why_escape_illegal(&self, seat: Seat, at: Sq, card: Option<usize>) -> String {
        let casino = self.options.variant == Variant::Casino;
        let cards = self.plans[seat.index()].len();
        match card {
            None if casino => {
                return format!(
                    "say which card to give up: escape {} card 1 to {cards}",
                    sq_text(at)
                );
            }
            Some(_) if !casino => {
                return "the escape square always takes your next card; leave out the card number"
                    .into();
            }
            Some(n) if n > cards => {
                return format!("you have {cards} cards; pick card 1 to {cards}");
            }
            _ => {}
        }
        if self.board.exists(at) {
            return format!(
                "{} already exists; an escape square is a new square",
                sq_text(at)
            );
        }
        if !self.board.frontier().contains(&at) {
            return format!("{} does not touch the board", sq_text(at));
        }
        "that escape square would leave your king in check".into()
    }

    fn why_move_illegal(&self, seat: Seat, from: Sq, to: Sq) -> String {
        if self.must_summon(seat) {
            return "the kings are summoned: you must place your king this turn".into();
        }
        let (f, t) = (sq_text(from), sq_text(to));
        let piece = match self.board.get(from) {
            None => return format!("there is no square at {f}"),
            Some(None) => return format!("{f} is a vacant square"),
            Some(Some(p)) if p.owner != seat => {
                return format!("the {} on {f} is not yours", p.role.name());
            }
            Some(Some(p)) => p,
        };
        if piece.role == Role::Pawn {
            return "pawns never move in En Prise".into();
        }
        if !self.board.exists(to) {
            return format!("there is no square at {t}; pieces move only over existing squares");
        }
        if let Some(Some(target)) = self.board.get(to) {
            if target.role == Role::King {
                return "kings are never captured".into();
            }
            if !self.sides().opposed(target.owner, seat) {
                return format!("you cannot capture an allied piece on {t}");
            }
        }
        if !self.board.targets(from, self.sides()).contains(&to) {
            return format!("the {} on {f} cannot reach {t}", piece.role.name());
        }
        "that move would leave your king in check".into()
    }

    fn why_king_illegal(&self, seat: Seat) -> String {
        if !self.king_in_hand[seat.index()] {
            return "your king is already on the board".into();
        }
        if !self.must_summon(seat) && self.board.vacant_count() < 6 {
            return format!(
                "a king may be summoned once there are at least 6 vacant squares (there are {})",
                self.board.vacant_count()
            );
        }
        "your king cannot go there: a new square must touch the board, and the king may not be \
         in check, touch an opposing king or leave a check"
            .into()
    }

    fn why_place_illegal(&self, seat: Seat, at: Sq, face_down: bool) -> String {
        let role = match self.card_to_place(seat) {
            Some(role) => role,
            None => return "you have no card to place".into(),
        };
        let s = sq_text(at);
        if face_down && role != Role::Pawn {
            return format!(
                "only a pawn may go face-down; your card is a {}",
                role.name()
            );
        }
        match self.board.get(at) {
            Some(Some(_)) => return format!("{s} is already occupied"),
            Some(None) if role == Role::Pawn => {
                return format!(
                    "a pawn cannot go onto the vacant square {s}; it must make a new square"
                );
            }
            Some(None) if face_down => return format!("{s} already exists"),
            None if !self.board.frontier().contains(&at) => {
                return format!("{s} does not touch the board");
            }
            _ => {}
        }
        let sides = self.sides();
        let mut board = self.board.clone();
        board.set(at, (!face_down).then_some(Piece { owner: seat, role }));
        if board.in_check(seat, sides) {
            return "that would leave your king in check".into();
        }
        "once kings are summoned, a new piece may not touch an opposing king or give check".into()
    }

    /// The role of the card `seat` would place now, if known to the rules.
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
    const SEATS: (usize, usize) = (2, 4);

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
        if options.alliance && seats != 4 {
            return Err(SetupError::Options(format!(
                "an alliance needs four players, not {seats}"
            )));
        }
        if options.variant == Variant::Memory && !(1..=3600).contains(&options.memory_seconds) {
            return Err(SetupError::Options(
                "memory_seconds must be between 1 and 3600".into(),
            ));
        }
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
        let mut events = Vec::new();
        let who = self.name(seat);
        match *action {
            Action::Ready => {
                let Phase::Memorise { ready } = &mut self.phase else {
                    unreachable!("checked legal")
                };
                ready[seat.index()] = true;
                if ready.iter().all(|&r| r) {
                    self.phase = Phase::Turn;
                    events.push(Event::public(
                        "The battleplans are turned face-down. White to play.",
                    ));
                }
            }
            Action::Move { from, to } => {
                let piece = self
                    .board
                    .get(from)
                    .flatten()
                    .expect("legal move has a piece");
                let captured = self.board.get(to).flatten();
                self.board.set(to, Some(piece));
                self.board.set(from, None);
                let text = match captured {
                    Some(c) => format!(
                        "{who}'s {} on {} takes {}'s {} on {}",
                        piece.role.name(),
                        sq_text(from),
                        self.name(c.owner),
                        c.role.name(),
                        sq_text(to)
                    ),
                    None => format!(
                        "{who} moves the {} from {} to {}",
                        piece.role.name(),
                        sq_text(from),
                        sq_text(to)
                    ),
                };
                events.push(Event::public(text.clone()));
                self.last = Some(LastAction {
                    seat,
                    text,
                    squares: vec![from, to],
                });
                if self.repeats(seat, from, to) {
                    self.eliminate(seat, "repetition", &mut events);
                }
                self.end_turn(&mut events, captured.is_some());
            }
            Action::Place { at, face_down } => {
                let index = match self.phase {
                    Phase::Placing { card } => card,
                    _ => 0,
                };
                let card = self.plans[seat.index()].remove(index);
                let piece = Piece {
                    owner: seat,
                    role: card.role,
                };
                self.board.set(at, (!face_down).then_some(piece));
                let text = if face_down {
                    format!(
                        "{who} places a pawn face-down: a new vacant square at {}",
                        sq_text(at)
                    )
                } else {
                    format!("{who} places {} at {}", article(card.role), sq_text(at))
                };
                events.push(Event::public(text.clone()));
                self.last = Some(LastAction {
                    seat,
                    text,
                    squares: vec![at],
                });
                self.streaks[seat.index()].clear();
                self.end_turn(&mut events, true);
            }
            Action::King { at } => {
                self.board.set(
                    at,
                    Some(Piece {
                        owner: seat,
                        role: Role::King,
                    }),
                );
                self.king_in_hand[seat.index()] = false;
                let first = !self.kings_summoned;
                self.kings_summoned = true;
                let text = format!("{who} summons the king to {}", sq_text(at));
                events.push(Event::public(if first {
                    format!("{text}: every opponent must summon their king on their next turn")
                } else {
                    text.clone()
                }));
                self.last = Some(LastAction {
                    seat,
                    text,
                    squares: vec![at],
                });
                self.streaks[seat.index()].clear();
                if self.escapes(seat).len() > 1 {
                    self.phase = Phase::Escape;
                } else {
                    self.end_turn(&mut events, true);
                }
            }
            Action::Escape { at, card } => {
                let index = card.map_or(0, |c| c - 1);
                let card = self.plans[seat.index()].remove(index);
                self.board.set(at, None);
                let text = format!(
                    "{who} adds an escape square at {} (giving up {})",
                    sq_text(at),
                    article(card.role)
                );
                events.push(Event::public(text.clone()));
                if let Some(last) = &mut self.last {
                    last.squares.push(at);
                    last.text = format!("{}; {}", last.text, text);
                }
                self.end_turn(&mut events, true);
            }
            Action::NoEscape => {
                events.push(Event::public(format!("{who} adds no escape square")));
                self.end_turn(&mut events, true);
            }
            Action::Draw => match self.options.variant {
                Variant::Casino => {
                    let chooser = self.chooser_for(seat);
                    events.push(Event::public(format!(
                        "{who} will place a card; {} picks which",
                        self.name(chooser)
                    )));
                    self.phase = Phase::Choosing { chooser };
                }
                _ => {
                    self.plans[seat.index()][0].shown = true;
                    let role = self.plans[seat.index()][0].role;
                    events.push(Event::public(format!(
                        "{who} chooses to place: the next card is {}",
                        article(role)
                    )));
                    self.reveal_for_placing(seat, 0, &mut events);
                }
            },
            Action::Pick { card } => {
                let owner = self.current;
                let index = card - 1;
                self.plans[owner.index()][index].shown = true;
                let role = self.plans[owner.index()][index].role;
                events.push(Event::public(format!(
                    "{who} picks card {card} of {}'s battleplan: {}",
                    self.name(owner),
                    article(role)
                )));
                self.reveal_for_placing(owner, index, &mut events);
            }
        }
        Ok(events)
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

    fn describe(&self, outcome: &Outcome) -> String {
        describe(outcome)
    }
}

impl EnPrise {
    /// Memory: after the memorising time, everyone still looking is made ready.
    pub fn timeout(&self) -> Option<(u32, Vec<(Seat, Action)>)> {
        let Phase::Memorise { ready } = &self.phase else {
            return None;
        };
        let acts = Seat::all(self.seats)
            .filter(|s| !ready[s.index()])
            .map(|s| (s, Action::Ready))
            .collect();
        Some((self.options.memory_seconds, acts))
    }

    /// A card has been revealed for placing: place it next, or, when it cannot be placed, it
    /// stays face-up and the turn goes on without it.
    fn reveal_for_placing(&mut self, seat: Seat, index: usize, events: &mut Vec<Event>) {
        let role = self.plans[seat.index()][index].role;
        if self.can_place(seat, role) {
            self.phase = Phase::Placing { card: index };
            return;
        }
        match self.options.variant {
            Variant::Casino => {
                let chooser = self.chooser_for(seat);
                events.push(Event::public(format!(
                    "The {} cannot be placed and stays face-up; {} picks again",
                    role.name(),
                    self.name(chooser)
                )));
                self.phase = Phase::Choosing { chooser };
            }
            _ => {
                events.push(Event::public(format!(
                    "The {} cannot be placed and stays face-up; {} must move or summon the king instead",
                    role.name(),
                    self.name(seat)
                )));
                self.phase = Phase::Turn;
            }
        }
    }
}

mod view;
pub use view::{EnPriseView, PhaseView, PlanView, PlayerView, SquareView, describe};

#[cfg(test)]
mod tests;
