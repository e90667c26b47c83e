//! Snipe Chess, played on a forest of Snipe Hunt cards: a 5x5 grid of 2x2 cards (10x10 spaces).
//! Each side has a king and four pawns, placed one per card on its home row of cards. Pieces
//! slide like rooks through their own colour but never through trees or the opponent, and never
//! capture; a piece that ends its move on a rotation space lets its player turn cards (a king up
//! to three, a pawn one), pieces turning with them. A king with no free neighbouring space
//! loses. See docs/rules/snipe.md.

pub mod deck;
pub mod ending;
mod notation;
mod refusal;
mod setup;

use crate::board::{Cell, Grid, ORTHOGONAL, Slide, Sq, slide};
use crate::engine::{
    Event, Game, GameRng, GameView, Outcome, ParseError, RuleError, Seat, SetupError, Showcase,
    ToAct, Viewer,
};
use crate::games::chess::{Color, Role, color_of, seat_of, two_seats};
use deck::{Space, Spaces, clockwise, forest};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Cards along each side of the forest.
pub const CARDS: i16 = 5;
/// Spaces along each side of the forest.
pub const SIZE: i16 = 2 * CARDS;
/// Pawns each side places.
pub const PAWNS: usize = 4;
/// Turns (both players together) after which the game is drawn.
pub const TURN_LIMIT: u32 = 300;
/// Deals tried before giving up on finding a forest both sides can set up on.
const DEALS: usize = 100;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

/// A card's place in the forest: column and row of cards, from White's left-hand near corner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CardAt {
    pub cx: i16,
    pub cy: i16,
}

impl CardAt {
    pub fn of(sq: Sq) -> CardAt {
        CardAt {
            cx: sq.x.div_euclid(2),
            cy: sq.y.div_euclid(2),
        }
    }

    /// The card's lower-left space (from White's side): how actions name it.
    pub fn corner(self) -> Sq {
        Sq::new(2 * self.cx, 2 * self.cy)
    }

    pub fn squares(self) -> [Sq; 4] {
        let c = self.corner();
        [
            c,
            Sq::new(c.x + 1, c.y),
            Sq::new(c.x, c.y + 1),
            Sq::new(c.x + 1, c.y + 1),
        ]
    }

    pub fn all() -> impl Iterator<Item = CardAt> {
        (0..CARDS).flat_map(|cy| (0..CARDS).map(move |cx| CardAt { cx, cy }))
    }

    /// Where `sq` (on this card) goes when the card turns a quarter clockwise.
    fn clockwise(self, sq: Sq) -> Sq {
        let c = self.corner();
        let (dx, dy) = (sq.x - c.x, sq.y - c.y);
        // Seen from above with y growing up: (0,1) -> (1,1) -> (1,0) -> (0,0) -> (0,1).
        let (nx, ny) = (dy, 1 - dx);
        Sq::new(c.x + nx, c.y + ny)
    }
}

/// How a card turns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    Clockwise,
    Anticlockwise,
    Half,
}

impl Turn {
    fn quarters(self) -> u8 {
        match self {
            Turn::Clockwise => 1,
            Turn::Half => 2,
            Turn::Anticlockwise => 3,
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            Turn::Clockwise => "clockwise",
            Turn::Anticlockwise => "anticlockwise",
            Turn::Half => "by 180 degrees",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Setup: put the king or a pawn on a card of your home row.
    Place {
        role: Role,
        at: Sq,
    },
    Move {
        from: Sq,
        to: Sq,
    },
    /// After ending a move on a rotation space.
    Rotate {
        card: CardAt,
        turn: Turn,
    },
    /// The feather rule: after the king lands on a feather, exchange an empty card for one of
    /// the unused cards (`with` indexes the playable deck).
    Replace {
        card: CardAt,
        with: u8,
    },
    /// End the turn without (further) rotating or replacing.
    Done,
}

/// Variant switches, all off by default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SnipeOptions {
    /// Place both sides' pieces at random instead of placing them by hand.
    pub auto: bool,
    /// A king trapped by the opponent gets one last chance per game: a pawn onto a rotation
    /// space, then a rotation that frees the king.
    pub last_chance: bool,
    /// A king landing on a snipe feather may exchange an empty card for an unused one.
    pub feather: bool,
}

/// One card as it lies in the forest.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Dealt {
    /// Index into the playable deck ([`deck::forest`]).
    pub card: u8,
    /// Quarter turns clockwise from the card as printed.
    pub quarters: u8,
    /// Its spaces as they lie now, top row (further from White) first.
    pub spaces: Spaces,
}

impl Dealt {
    fn new(card: u8) -> Dealt {
        Dealt {
            card,
            quarters: 0,
            spaces: forest()[usize::from(card)].spaces,
        }
    }

    pub fn name(&self) -> &'static str {
        &forest()[usize::from(self.card)].name
    }

    fn space(&self, sq: Sq) -> Space {
        let (col, row) = (sq.x.rem_euclid(2), 1 - sq.y.rem_euclid(2));
        self.spaces[row as usize][col as usize]
    }

    fn turned(self, quarters: u8) -> Dealt {
        let mut spaces = self.spaces;
        for _ in 0..quarters {
            spaces = clockwise(spaces);
        }
        Dealt {
            quarters: (self.quarters + quarters) % 4,
            spaces,
            ..self
        }
    }
}

/// What the player to act is doing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Placing the pieces, White first, one at a time each.
    Setup,
    Move,
    /// A trapped king's last chance (option): a pawn must move onto a rotation space.
    LastChance,
    /// Rotating after a move onto a rotation space.
    Rotate {
        /// 90 or 180.
        angle: u16,
        /// Cards that may still turn this turn.
        left: u8,
        /// Cards already turned this turn (each turns once at most).
        turned: Vec<CardAt>,
        /// The last-chance rotation: it must free the king when one can.
        last_chance: bool,
    },
    /// The feather rule: replace an empty card or finish.
    Feather,
}

/// The last turn, for highlighting: its text, the squares moved between (following any
/// rotation) and the cards turned or replaced.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastTurn {
    pub text: String,
    pub squares: Vec<Sq>,
    pub cards: Vec<CardAt>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Snipe {
    options: SnipeOptions,
    /// The 25 cards, `[cy][cx]`.
    forest: [[Dealt; 5]; 5],
    /// The unused playable cards (the feather rule draws from them), in deck order.
    stock: Vec<u8>,
    #[serde(with = "crate::board::sq_map")]
    pieces: BTreeMap<Sq, Piece>,
    turn: Color,
    phase: Phase,
    last_chance_used: [bool; 2],
    /// Turns completed since the setup.
    turns: u32,
    /// A hash of every position at the end of a turn, for threefold repetition. Stored under
    /// a name of its own: snapshots from before the hash was computed this way lack it, so they
    /// do not load and the table replays the match's log instead, making every key afresh.
    #[serde(rename = "position_keys")]
    history: Vec<u64>,
    last: Option<LastTurn>,
    /// Whether `last` belongs to the turn under way (so later steps add to it).
    last_open: bool,
    outcome: Option<Outcome>,
}

/// FNV-1a over bytes, 64 bits.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The forest as the movement core sees it: trees and the edge are gaps.
struct Forest<'a>(&'a Snipe);

impl Grid for Forest<'_> {
    type Side = Color;
    fn cell(&self, sq: Sq) -> Cell<Color> {
        match self.0.space(sq) {
            None | Some(Space::Tree) => Cell::Gap,
            Some(_) => match self.0.pieces.get(&sq) {
                Some(p) => Cell::Piece(p.color),
                None => Cell::Empty,
            },
        }
    }
}

/// The row of cards nearest `color`.
fn home_row(color: Color) -> i16 {
    match color {
        Color::White => 0,
        Color::Black => CARDS - 1,
    }
}

fn on_board(sq: Sq) -> bool {
    (0..SIZE).contains(&sq.x) && (0..SIZE).contains(&sq.y)
}

fn is_rotation(space: Space) -> bool {
    matches!(space, Space::Rotate90 | Space::Rotate180)
}

impl Snipe {
    pub fn pieces(&self) -> &BTreeMap<Sq, Piece> {
        &self.pieces
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn card(&self, at: CardAt) -> &Dealt {
        &self.forest[at.cy as usize][at.cx as usize]
    }

    fn card_mut(&mut self, at: CardAt) -> &mut Dealt {
        &mut self.forest[at.cy as usize][at.cx as usize]
    }

    /// The space at `sq`, or None off the board.
    pub fn space(&self, sq: Sq) -> Option<Space> {
        on_board(sq).then(|| self.card(CardAt::of(sq)).space(sq))
    }

    fn open(&self, sq: Sq) -> bool {
        self.space(sq).is_some_and(|s| !s.is_tree())
    }

    fn king(&self, color: Color) -> Option<Sq> {
        self.pieces
            .iter()
            .find(|(_, p)| p.color == color && p.role == Role::King)
            .map(|(&s, _)| s)
    }

    /// Neighbouring spaces of `color`'s king that are on the board, not trees and empty.
    pub fn free_neighbours(&self, color: Color) -> Option<usize> {
        let king = self.king(color)?;
        Some(
            ORTHOGONAL
                .iter()
                .map(|&d| king.offset(d))
                .filter(|&n| self.open(n) && !self.pieces.contains_key(&n))
                .count(),
        )
    }

    fn trapped(&self, color: Color) -> bool {
        self.free_neighbours(color) == Some(0)
    }

    /// Squares the piece on `from` can slide to.
    fn reach(&self, from: Sq) -> Vec<Sq> {
        let color = self.pieces[&from].color;
        let rule = Slide {
            max_steps: None,
            pass_own: true,
            capture: false,
        };
        let mut out = Vec::new();
        slide(&Forest(self), from, color, &ORTHOGONAL, rule, |t| {
            out.push(t.sq)
        });
        out
    }

    fn moves(&self, color: Color, pawns_to_rotation: bool) -> Vec<Action> {
        let mut out = Vec::new();
        for (&from, p) in &self.pieces {
            if p.color != color || (pawns_to_rotation && p.role != Role::Pawn) {
                continue;
            }
            for to in self.reach(from) {
                if !pawns_to_rotation || self.space(to).is_some_and(is_rotation) {
                    out.push(Action::Move { from, to });
                }
            }
        }
        out
    }

    /// The rotations open in a rotation step, before the last-chance filter.
    fn rotations(&self, angle: u16, turned: &[CardAt]) -> Vec<Action> {
        let turns: &[Turn] = if angle == 180 {
            &[Turn::Half]
        } else {
            &[Turn::Clockwise, Turn::Anticlockwise]
        };
        CardAt::all()
            .filter(|c| !turned.contains(c))
            .flat_map(|card| turns.iter().map(move |&turn| Action::Rotate { card, turn }))
            .collect()
    }

    /// The rotations after which `color`'s king is free.
    fn freeing(&self, color: Color, rotations: Vec<Action>) -> Vec<Action> {
        rotations
            .into_iter()
            .filter(|a| {
                let Action::Rotate { card, turn } = *a else {
                    return false;
                };
                let mut after = self.clone();
                after.rotate(card, turn);
                !after.trapped(color)
            })
            .collect()
    }

    fn legal(&self, color: Color) -> Vec<Action> {
        if self.outcome.is_some() || color != self.turn {
            return vec![];
        }
        match &self.phase {
            Phase::Setup => self.placements(color),
            Phase::Move => self.moves(color, false),
            Phase::LastChance => self.moves(color, true),
            Phase::Rotate {
                angle,
                turned,
                last_chance,
                ..
            } => {
                let all = self.rotations(*angle, turned);
                if *last_chance && self.trapped(color) {
                    self.freeing(color, all)
                } else {
                    let mut all = all;
                    all.push(Action::Done);
                    all
                }
            }
            Phase::Feather => {
                let mut out: Vec<Action> = CardAt::all()
                    .filter(|&c| !self.card_has_piece(&self.pieces, c))
                    .flat_map(|card| {
                        self.stock
                            .iter()
                            .map(move |&with| Action::Replace { card, with })
                    })
                    .collect();
                out.push(Action::Done);
                out
            }
        }
    }

    /// Turns a card, and the pieces on it.
    fn rotate(&mut self, card: CardAt, turn: Turn) {
        let q = turn.quarters();
        *self.card_mut(card) = self.card(card).turned(q);
        let on: Vec<(Sq, Piece)> = card
            .squares()
            .iter()
            .filter_map(|s| self.pieces.remove(s).map(|p| (*s, p)))
            .collect();
        for (mut sq, p) in on {
            for _ in 0..q {
                sq = card.clockwise(sq);
            }
            self.pieces.insert(sq, p);
        }
        if let Some(last) = self.last.as_mut().filter(|_| self.last_open) {
            for sq in last.squares.iter_mut().filter(|s| CardAt::of(**s) == card) {
                for _ in 0..q {
                    *sq = card.clockwise(*sq);
                }
            }
        }
    }

    /// The position as a 64-bit FNV-1a hash (stable across runs, small enough to keep one per
    /// turn): the spaces as they lie, the pieces, the player to move, and what else can change
    /// the game from here: which cards lie where and the unused cards under the feather rule
    /// (a replaced card comes back into play), the chances used under the last-chance rule. A
    /// card turned to look the same is the same position. The search makes one each turn of
    /// every playout, so it hashes the fields' bytes as they are, without formatting them.
    fn position_key(&self) -> u64 {
        let mut key = Fnv::default();
        for space in self
            .forest
            .iter()
            .flatten()
            .flat_map(|d| d.spaces.iter().flatten())
        {
            key.write(&[*space as u8]);
        }
        if self.options.feather {
            for dealt in self.forest.iter().flatten() {
                key.write(&[dealt.card]);
            }
            key.write(&(self.stock.len() as u32).to_le_bytes());
            key.write(&self.stock);
        }
        if self.options.last_chance {
            key.write(&self.last_chance_used.map(u8::from));
        }
        for (sq, piece) in &self.pieces {
            key.write(&sq.x.to_le_bytes());
            key.write(&sq.y.to_le_bytes());
            key.write(&[piece.color as u8, piece.role as u8]);
        }
        key.write(&[self.turn as u8]);
        key.0
    }

    /// "moves the king from c1 to c4" (after the colour's name).
    fn describe_action(&self, action: &Action) -> String {
        match *action {
            Action::Place { role, at } => format!("places the {} on {}", role.name(), square(at)),
            Action::Move { from, to } => format!(
                "moves the {} from {} to {}",
                self.pieces[&from].role.name(),
                square(from),
                square(to)
            ),
            Action::Rotate { card, turn } => format!(
                "turns {} ({}) {}",
                self.card(card).name(),
                square(card.corner()),
                turn.words()
            ),
            Action::Replace { card, with } => format!(
                "replaces {} ({}) with {}",
                self.card(card).name(),
                square(card.corner()),
                forest()[usize::from(with)].name
            ),
            Action::Done => "ends the turn".into(),
        }
    }

    /// What the player to act is asked to do, in words.
    fn step(&self) -> String {
        let who = self.turn.name();
        match &self.phase {
            Phase::Setup => format!("{who} to place a piece on their home row"),
            Phase::Move => format!("{who} to move"),
            Phase::LastChance => {
                format!("{who}'s king is trapped: last chance, a pawn onto a rotation space")
            }
            Phase::Rotate {
                last_chance: true, ..
            } if self.trapped(self.turn) => {
                format!("{who} must turn a card so that the king is free again")
            }
            Phase::Rotate { angle, left, .. } => {
                let cards = if *left == 1 { "card" } else { "cards" };
                format!("{who} may turn up to {left} more {cards} by {angle} degrees, or done")
            }
            Phase::Feather => {
                format!("{who} may replace an empty card with an unused one, or done")
            }
        }
    }
}

impl Game for Snipe {
    type Options = SnipeOptions;
    type Action = Action;
    type View = SnipeView;

    const NAME: &'static str = "Snipe Chess";
    const ID: &'static str = "snipe";
    const SUMMARY: &'static str = "**Snipe Chess**: a 10x10 forest of 2x2 cards. First each player places a king and \
         four pawns on their home row of cards, one per card (`K@c1`, `P@e2`; option \
         auto=true places them at random). Then move one piece any distance in a straight \
         line (`Kc1-c4`): through your own pieces but never onto them, never through trees \
         or the opponent; nothing is captured. End a move on a rotation space to turn cards, \
         pieces and all: a king up to three, a pawn one (`rotate c3 cw`, `ccw`, or `180` on a \
         180 space; `done` to stop). A king with no free space beside it (trees, pieces, \
         edge) loses. Options: last_chance=true, feather=true.";
    const SEATS: (usize, usize) = (2, 2);
    const NOTATION: &'static str = notation::HELP;
    const SHOWCASE: &'static [Showcase] = &[("feather", 2, &[("feather", "true")])];

    fn new(options: &SnipeOptions, seats: usize, rng: &mut GameRng) -> Result<Self, SetupError> {
        two_seats(Self::NAME, seats)?;
        let mut game = Snipe::deal(options, rng)?;
        if options.auto {
            while game.phase == Phase::Setup {
                let color = game.turn;
                let legal = game.placements(color);
                let Action::Place { role, at } = legal[rng.below(legal.len())] else {
                    unreachable!("only placements in the setup");
                };
                game.place(color, role, at);
            }
        }
        Ok(game)
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(o) => ToAct::Over(o.clone()),
            None => ToAct::one(seat_of(self.turn)),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        color_of(seat).map_or_else(Vec::new, |c| self.legal(c))
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        _: &mut GameRng,
    ) -> Result<Vec<Event>, RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        let color = match color_of(seat) {
            Some(c) if c == self.turn => c,
            _ => return Err(RuleError::NotYourTurn),
        };
        if !self.legal(color).contains(action) {
            return Err(RuleError::Illegal(self.why_illegal(color, action)));
        }
        let who = color.name();
        let text = format!("{who} {}", self.describe_action(action));
        let mut events = vec![Event::public(text.clone())];
        let note = |last: &mut Option<LastTurn>, open: bool, squares: &[Sq], card| {
            let turn = last.get_or_insert_with(LastTurn::default);
            if !open {
                *turn = LastTurn::default();
            }
            if !turn.text.is_empty() {
                turn.text.push_str("; ");
            }
            turn.text.push_str(&text);
            turn.squares.extend_from_slice(squares);
            turn.cards.extend(card);
        };
        match *action {
            Action::Place { role, at } => {
                note(&mut self.last, false, &[at], None);
                self.place(color, role, at);
            }
            Action::Move { from, to } => {
                note(&mut self.last, false, &[from, to], None);
                self.last_open = true;
                let piece = self.pieces.remove(&from).expect("a piece to move");
                self.pieces.insert(to, piece);
                let last_chance = self.phase == Phase::LastChance;
                match self.space(to).expect("on the board") {
                    Space::Rotate90 | Space::Rotate180 => {
                        let angle = if self.space(to) == Some(Space::Rotate90) {
                            90
                        } else {
                            180
                        };
                        self.phase = Phase::Rotate {
                            angle,
                            left: if piece.role == Role::King { 3 } else { 1 },
                            turned: vec![],
                            last_chance,
                        };
                        if last_chance && self.trapped(color) && self.legal(color).is_empty() {
                            // No turn of a card frees the king: the turn ends here. If the move
                            // closed in the other king as well, the mover wins (one turn, both
                            // kings); otherwise the last chance is lost.
                            if self.trapped(color.other()) {
                                self.end_turn(color, &mut events);
                            } else {
                                let outcome =
                                    Outcome::winner(seat_of(color.other()), 2, ending::NO_ROTATION);
                                self.finish(outcome, &mut events);
                            }
                        }
                    }
                    Space::Feather
                        if self.options.feather
                            && piece.role == Role::King
                            && !self.stock.is_empty() =>
                    {
                        self.phase = Phase::Feather;
                    }
                    _ => self.end_turn(color, &mut events),
                }
            }
            Action::Rotate { card, turn } => {
                note(&mut self.last, true, &[], Some(card));
                self.rotate(card, turn);
                let Phase::Rotate { left, turned, .. } = &mut self.phase else {
                    unreachable!("rotations only in the rotation step");
                };
                *left -= 1;
                turned.push(card);
                if *left == 0 {
                    self.end_turn(color, &mut events);
                }
            }
            Action::Replace { card, with } => {
                note(&mut self.last, true, &[], Some(card));
                let old = self.card(card).card;
                *self.card_mut(card) = Dealt::new(with);
                self.stock.retain(|&c| c != with);
                self.stock.push(old);
                self.stock.sort();
                self.end_turn(color, &mut events);
            }
            Action::Done => {
                note(&mut self.last, true, &[], None);
                self.end_turn(color, &mut events);
            }
        }
        Ok(events)
    }

    fn view(&self, viewer: Viewer) -> SnipeView {
        SnipeView {
            viewer,
            spaces: (0..SIZE)
                .map(|y| {
                    (0..SIZE)
                        .map(|x| self.space(Sq::new(x, y)).expect("on the board"))
                        .collect()
                })
                .collect(),
            cards: CardAt::all()
                .map(|at| {
                    let dealt = self.card(at);
                    CardView {
                        at,
                        name: dealt.name().to_string(),
                        quarters: dealt.quarters,
                    }
                })
                .collect(),
            stock: self
                .stock
                .iter()
                .map(|&c| forest()[usize::from(c)].name.clone())
                .collect(),
            pieces: self.pieces.iter().map(|(&s, &p)| (s, p)).collect(),
            kings: [Color::White, Color::Black]
                .into_iter()
                .filter_map(|color| {
                    Some(KingView {
                        color,
                        at: self.king(color)?,
                        free: self.free_neighbours(color)?,
                    })
                })
                .collect(),
            to_place: [Color::White, Color::Black].map(|c| self.to_place(c)),
            to_move: self.turn,
            phase: self.phase.clone(),
            step: self.step(),
            last: self.last.clone(),
            status: match &self.outcome {
                Some(o) => format!("Game over: {}", self.describe(o)),
                None => self.step(),
            },
            outcome: self.outcome.clone(),
            options: self.options.clone(),
            turns: self.turns,
        }
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ParseError> {
        notation::parse(self, seat, text)
    }

    fn format_action(&self, action: &Action) -> String {
        notation::format(self, action)
    }

    fn describe(&self, outcome: &Outcome) -> String {
        ending::describe(outcome)
    }

    fn warning(&self, seat: Seat, action: &Action) -> Option<String> {
        ending::warning(self, seat, action)
    }

    /// Placements by the piece placed ("place king"), moves by the piece that moves ("pawn
    /// c3"), then "rotate", "replace" and "done".
    fn action_group(&self, action: &Action) -> String {
        match action {
            Action::Place { role, .. } => format!("place {}", role.name()),
            Action::Move { from, .. } => match self.pieces.get(from) {
                Some(p) => format!("{} {}", p.role.name(), square(*from)),
                None => "move".into(),
            },
            Action::Rotate { .. } => "rotate".into(),
            Action::Replace { .. } => "replace".into(),
            Action::Done => "done".into(),
        }
    }
}

/// A square in Snipe Chess's notation: files a-j from White's left, ranks 1-10 from White's side.
pub fn square(sq: Sq) -> String {
    if on_board(sq) {
        format!("{}{}", char::from(b'a' + sq.x as u8), sq.y + 1)
    } else {
        sq.xy()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingView {
    pub color: Color,
    pub at: Sq,
    /// Free neighbouring spaces; none left loses.
    pub free: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardView {
    pub at: CardAt,
    pub name: String,
    /// Quarter turns clockwise from the card as printed.
    pub quarters: u8,
}

/// Everything in Snipe Chess is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnipeView {
    pub viewer: Viewer,
    /// `spaces[y][x]`, y = 0 on White's side (rank 1), x = 0 on file a.
    pub spaces: Vec<Vec<Space>>,
    /// The 25 cards, row by row from White's side.
    pub cards: Vec<CardView>,
    /// The unused cards, by name (the feather rule draws from them).
    pub stock: Vec<String>,
    pub pieces: Vec<(Sq, Piece)>,
    /// The kings in play (White first) and their free neighbours.
    pub kings: Vec<KingView>,
    /// Pieces each side still has to place (White first); empty after the setup.
    pub to_place: [Vec<Role>; 2],
    pub to_move: Color,
    pub phase: Phase,
    /// What the player to act is asked to do.
    pub step: String,
    pub last: Option<LastTurn>,
    pub status: String,
    pub outcome: Option<Outcome>,
    pub options: SnipeOptions,
    /// Turns completed since the setup.
    pub turns: u32,
}

#[cfg(test)]
mod tests;

impl GameView for SnipeView {
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn conclude(&mut self, outcome: &Outcome, status: String) {
        (self.outcome, self.status) = (Some(outcome.clone()), status);
    }
}
