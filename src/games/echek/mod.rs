//! Echek n°1, by Léandre Proust: six pieces a side and no board. Every piece in play must fit in
//! one 4x4 window, which floats with them; pieces never capture; each colour stays in one
//! connected group; each piece has an ability; a king surrounded on all eight sides (by pieces
//! or by the limit) loses. See docs/rules/echek.md.

use crate::board::{
    ALL_DIRECTIONS, Cell, DIAGONAL, Grid, KNIGHT, ORTHOGONAL, Slide, Sq, leaps, slide,
};
use crate::engine::{
    Event, Game, GameRng, GameView, Outcome, ParseError, RuleError, Seat, SetupError, ToAct, Viewer,
};
use crate::games::chess::{Color, Role, color_of, seat_of, two_seats};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The side of the window every piece must fit in.
pub const WINDOW: i16 = 4;

/// Turns with no piece put in play and no queen leaving before the game is drawn (fifty each).
pub const QUIET_TURNS: u32 = 100;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

/// Echek has no options; the struct refuses unknown ones by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EchekOptions {}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Put a piece from the supply in play. A pawn may then step (`then`); a bishop sends
    /// another piece back to its owner's supply (`back`).
    Put {
        role: Role,
        at: Sq,
        then: Option<Sq>,
        back: Option<Sq>,
    },
    Move {
        from: Sq,
        to: Sq,
    },
    /// The rook's ability: exchange the rook and the king (once per game).
    Swap,
    /// Only when nothing else is possible.
    Pass,
}

/// The last action, for highlighting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastAction {
    pub text: String,
    pub squares: Vec<Sq>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Echek {
    #[serde(with = "crate::board::sq_map")]
    pieces: BTreeMap<Sq, Piece>,
    /// Each colour's supply (White first).
    supply: [Vec<Role>; 2],
    swap_used: [bool; 2],
    turn: Color,
    /// Turns since a piece was put in play or a queen left.
    quiet: u32,
    /// Every position so far (after each turn), for threefold repetition.
    history: Vec<String>,
    last: Option<LastAction>,
    outcome: Option<Outcome>,
}

const SUPPLY: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// The squares a piece may stand on: everything is open; the window is checked afterwards.
struct Open<'a>(&'a BTreeMap<Sq, Piece>);

impl Grid for Open<'_> {
    type Side = Color;
    fn cell(&self, sq: Sq) -> Cell<Color> {
        match self.0.get(&sq) {
            Some(p) => Cell::Piece(p.color),
            None => Cell::Empty,
        }
    }
}

/// The smallest box around the pieces: (lowest corner, highest corner).
fn bounds(pieces: &BTreeMap<Sq, Piece>) -> (Sq, Sq) {
    let mut keys = pieces.keys();
    let first = *keys.next().expect("the kings are always in play");
    keys.fold((first, first), |(lo, hi), s| {
        (
            Sq::new(lo.x.min(s.x), lo.y.min(s.y)),
            Sq::new(hi.x.max(s.x), hi.y.max(s.y)),
        )
    })
}

/// True when every piece fits in one 4x4 window.
pub fn fits(pieces: &BTreeMap<Sq, Piece>) -> bool {
    let (lo, hi) = bounds(pieces);
    hi.x - lo.x < WINDOW && hi.y - lo.y < WINDOW
}

/// The squares some 4x4 window holding every piece could cover: (lowest, highest corner).
/// Beyond them lies the limit.
pub fn area(pieces: &BTreeMap<Sq, Piece>) -> (Sq, Sq) {
    let (lo, hi) = bounds(pieces);
    (
        Sq::new(hi.x - (WINDOW - 1), hi.y - (WINDOW - 1)),
        Sq::new(lo.x + (WINDOW - 1), lo.y + (WINDOW - 1)),
    )
}

fn inside(area: (Sq, Sq), sq: Sq) -> bool {
    (area.0.x..=area.1.x).contains(&sq.x) && (area.0.y..=area.1.y).contains(&sq.y)
}

/// The neighbours of `at` that are free: empty and within the area.
pub fn free_neighbours(pieces: &BTreeMap<Sq, Piece>, at: Sq) -> usize {
    let area = area(pieces);
    ALL_DIRECTIONS
        .iter()
        .map(|&d| at.offset(d))
        .filter(|&n| inside(area, n) && !pieces.contains_key(&n))
        .count()
}

/// How many groups `color`'s pieces form, touching by sides or corners.
fn groups(pieces: &BTreeMap<Sq, Piece>, color: Color) -> usize {
    let mut left: BTreeSet<Sq> = pieces
        .iter()
        .filter(|(_, p)| p.color == color)
        .map(|(&s, _)| s)
        .collect();
    let mut count = 0;
    while let Some(start) = left.pop_first() {
        count += 1;
        let mut stack = vec![start];
        while let Some(sq) = stack.pop() {
            for d in ALL_DIRECTIONS {
                if left.remove(&sq.offset(d)) {
                    stack.push(sq.offset(d));
                }
            }
        }
    }
    count
}

/// May the pieces go from `before` to `after`? Every piece must fit the window, and neither
/// colour may end in more groups than before (one group, unless a queen leaving split it).
fn sound(before: &BTreeMap<Sq, Piece>, after: &BTreeMap<Sq, Piece>) -> bool {
    fits(after)
        && [Color::White, Color::Black]
            .into_iter()
            .all(|c| groups(after, c) <= groups(before, c).max(1))
}

/// Squares the piece on `from` reaches by its pattern (empty squares only; no window check).
fn reach(pieces: &BTreeMap<Sq, Piece>, from: Sq) -> Vec<Sq> {
    let piece = pieces[&from];
    let grid = Open(pieces);
    // The window floats with the piece, so a slide may run up to twice its width less one;
    // whether the result fits is judged afterwards.
    let slider = Slide {
        max_steps: Some(2 * (WINDOW as u16 - 1)),
        pass_own: true,
        capture: false,
    };
    let step = Slide {
        max_steps: Some(1),
        pass_own: false,
        capture: false,
    };
    let mut out = Vec::new();
    let emit = |t: crate::board::Target| out.push(t.sq);
    match piece.role {
        Role::King => slide(&grid, from, piece.color, &ALL_DIRECTIONS, step, emit),
        Role::Queen => slide(&grid, from, piece.color, &ALL_DIRECTIONS, slider, emit),
        Role::Rook => slide(&grid, from, piece.color, &ORTHOGONAL, slider, emit),
        Role::Bishop => slide(&grid, from, piece.color, &DIAGONAL, slider, emit),
        Role::Knight => leaps(&grid, from, piece.color, &KNIGHT, false, emit),
        Role::Pawn => slide(&grid, from, piece.color, &ORTHOGONAL, step, emit),
    }
    out
}

fn moved(pieces: &BTreeMap<Sq, Piece>, from: Sq, to: Sq) -> BTreeMap<Sq, Piece> {
    let mut next = pieces.clone();
    let piece = next.remove(&from).expect("a piece to move");
    next.insert(to, piece);
    next
}

impl Echek {
    pub fn pieces(&self) -> &BTreeMap<Sq, Piece> {
        &self.pieces
    }

    pub fn supply(&self, color: Color) -> &[Role] {
        &self.supply[color.index()]
    }

    /// The square of `color`'s rook, if it is in play.
    fn rook(&self, color: Color) -> Option<Sq> {
        self.pieces
            .iter()
            .find(|(_, p)| p.color == color && p.role == Role::Rook)
            .map(|(&s, _)| s)
    }

    fn king(&self, color: Color) -> Sq {
        self.pieces
            .iter()
            .find(|(_, p)| p.color == color && p.role == Role::King)
            .map(|(&s, _)| s)
            .expect("kings never leave play")
    }

    /// Squares where `color` may put a piece: empty, touching a piece of its colour, not beside
    /// the opposing king (side squares), and keeping every piece in one window.
    fn put_squares(&self, color: Color) -> Vec<Sq> {
        let enemy_king = self.king(color.other());
        let beside: Vec<Sq> = ORTHOGONAL.iter().map(|&d| enemy_king.offset(d)).collect();
        let mut out = BTreeSet::new();
        for (&sq, p) in &self.pieces {
            if p.color != color {
                continue;
            }
            for d in ALL_DIRECTIONS {
                let n = sq.offset(d);
                if !self.pieces.contains_key(&n) && !beside.contains(&n) {
                    out.insert(n);
                }
            }
        }
        out.into_iter()
            .filter(|&n| {
                let mut next = self.pieces.clone();
                next.insert(
                    n,
                    Piece {
                        color,
                        role: Role::Pawn,
                    },
                );
                fits(&next)
            })
            .collect()
    }

    fn legal(&self, color: Color) -> Vec<Action> {
        if self.outcome.is_some() {
            return vec![];
        }
        let mut out = Vec::new();
        let mut roles: Vec<Role> = self.supply[color.index()].clone();
        roles.dedup();
        let squares = self.put_squares(color);
        for &role in &roles {
            for &at in &squares {
                let mut placed = self.pieces.clone();
                placed.insert(at, Piece { color, role });
                match role {
                    Role::Pawn => {
                        out.push(Action::Put {
                            role,
                            at,
                            then: None,
                            back: None,
                        });
                        for to in reach(&placed, at) {
                            if sound(&self.pieces, &moved(&placed, at, to)) {
                                out.push(Action::Put {
                                    role,
                                    at,
                                    then: Some(to),
                                    back: None,
                                });
                            }
                        }
                    }
                    Role::Bishop => {
                        let backs: Vec<Sq> = placed
                            .iter()
                            .filter(|&(&s, p)| s != at && p.role != Role::King)
                            .map(|(&s, _)| s)
                            .filter(|s| {
                                let mut after = placed.clone();
                                after.remove(s);
                                sound(&self.pieces, &after)
                            })
                            .collect();
                        if backs.is_empty() {
                            out.push(Action::Put {
                                role,
                                at,
                                then: None,
                                back: None,
                            });
                        }
                        out.extend(backs.into_iter().map(|b| Action::Put {
                            role,
                            at,
                            then: None,
                            back: Some(b),
                        }));
                    }
                    _ => out.push(Action::Put {
                        role,
                        at,
                        then: None,
                        back: None,
                    }),
                }
            }
        }
        for (&from, p) in &self.pieces {
            if p.color != color {
                continue;
            }
            for to in reach(&self.pieces, from) {
                if sound(&self.pieces, &moved(&self.pieces, from, to)) {
                    out.push(Action::Move { from, to });
                }
            }
        }
        if self.rook(color).is_some() && !self.swap_used[color.index()] {
            out.push(Action::Swap);
        }
        if out.is_empty() {
            out.push(Action::Pass);
        }
        out
    }

    fn position_key(&self) -> String {
        serde_json::to_string(&(
            &self.pieces.iter().collect::<Vec<_>>(),
            &self.supply,
            self.swap_used,
            self.turn,
        ))
        .expect("a position serialises")
    }

    /// Ends the turn of `actor`: surrounded kings, surrounded queens, then the draw rules.
    fn end_turn(&mut self, actor: Color, fresh: bool, events: &mut Vec<Event>) {
        let surrounded = |c: Color| free_neighbours(&self.pieces, self.king(c)) == 0;
        let (white, black) = (surrounded(Color::White), surrounded(Color::Black));
        let lost = match (white, black) {
            (true, true) => Some((actor, ending::BOTH_KINGS)),
            (true, false) | (false, true) => {
                let loser = if white { Color::White } else { Color::Black };
                let reason = if loser == actor {
                    ending::OWN_KING
                } else {
                    ending::SURROUNDED
                };
                Some((loser, reason))
            }
            (false, false) => None,
        };
        if let Some((loser, reason)) = lost {
            self.finish(Outcome::winner(seat_of(loser.other()), 2, reason), events);
            return;
        }
        let mut fresh = fresh;
        let queens: Vec<Sq> = self
            .pieces
            .iter()
            .filter(|(_, p)| p.role == Role::Queen)
            .map(|(&s, _)| s)
            .filter(|&s| free_neighbours(&self.pieces, s) == 0)
            .collect();
        for sq in queens {
            let queen = self.pieces.remove(&sq).expect("a queen");
            fresh = true;
            events.push(Event::public(format!(
                "The {} queen on {} is surrounded and leaves the game",
                queen.color.name().to_lowercase(),
                sq.xy()
            )));
        }
        self.quiet = if fresh { 0 } else { self.quiet + 1 };
        self.turn = actor.other();
        let key = self.position_key();
        self.history.push(key.clone());
        let repeats = self.history.iter().filter(|k| **k == key).count();
        let stuck = |c: Color| self.legal(c) == vec![Action::Pass];
        if stuck(self.turn) && stuck(actor) {
            self.finish(Outcome::draw(2, ending::STUCK), events);
        } else if repeats >= 3 {
            self.finish(Outcome::draw(2, ending::REPETITION), events);
        } else if self.quiet >= QUIET_TURNS {
            self.finish(Outcome::draw(2, ending::QUIET), events);
        }
    }

    fn finish(&mut self, outcome: Outcome, events: &mut Vec<Event>) {
        events.push(Event::public(format!(
            "Game over: {}",
            self.describe(&outcome)
        )));
        self.outcome = Some(outcome);
    }
}

impl Game for Echek {
    type Options = EchekOptions;
    type Action = Action;
    type View = EchekView;

    const NAME: &'static str = "Echek n°1";
    const ID: &'static str = "echek";
    const SUMMARY: &'static str = "**Echek n°1**: six pieces a side, no board: every piece must fit in one 4x4 window, \
         and each colour stays one group (touching by sides or corners). Each turn, put a \
         piece from your supply next to your own (`N@1,1`; never beside the enemy king), or \
         move one (`Q 0,0 to 2,2`); nothing is ever captured. Queen: leaves when surrounded. \
         Rook: once, `swap` it with your king. Bishop: sends a piece back to its supply as it \
         arrives (`B@1,1 return 0,2`). Pawn: may step as it arrives (`P@1,1 to 1,2`). Surround \
         the enemy king on all eight sides (pieces or the limit) to win.";
    const SEATS: (usize, usize) = (2, 2);
    const NOTATION: &'static str = notation::HELP;

    fn new(_: &EchekOptions, seats: usize, _: &mut GameRng) -> Result<Self, SetupError> {
        two_seats(Self::NAME, seats)?;
        let king = |color| Piece {
            color,
            role: Role::King,
        };
        let pieces = BTreeMap::from([
            (Sq::new(0, 0), king(Color::White)),
            (Sq::new(0, 1), king(Color::Black)),
        ]);
        let mut game = Echek {
            pieces,
            supply: [SUPPLY.to_vec(), SUPPLY.to_vec()],
            swap_used: [false; 2],
            turn: Color::White,
            quiet: 0,
            history: vec![],
            last: None,
            outcome: None,
        };
        game.history.push(game.position_key());
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
        match color_of(seat) {
            Some(c) if c == self.turn => self.legal(c),
            _ => vec![],
        }
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
        let mut events = Vec::new();
        let text = self.describe_action(color, action);
        let (fresh, squares) = match *action {
            Action::Put {
                role,
                at,
                then,
                back,
            } => {
                let supply = &mut self.supply[color.index()];
                let i = supply.iter().position(|&r| r == role).expect("in supply");
                supply.remove(i);
                self.pieces.insert(at, Piece { color, role });
                let mut squares = vec![at];
                if let Some(to) = then {
                    self.pieces = moved(&self.pieces, at, to);
                    squares.push(to);
                }
                if let Some(b) = back {
                    let piece = self.pieces.remove(&b).expect("a piece to send back");
                    self.supply[piece.color.index()].push(piece.role);
                    self.supply[piece.color.index()]
                        .sort_by_key(|r| SUPPLY.iter().position(|s| s == r));
                    squares.push(b);
                }
                (true, squares)
            }
            Action::Move { from, to } => {
                self.pieces = moved(&self.pieces, from, to);
                (false, vec![from, to])
            }
            Action::Swap => {
                let king = self.king(color);
                let rook = self.rook(color).expect("a rook in play");
                let (k, r) = (self.pieces[&king], self.pieces[&rook]);
                self.pieces.insert(king, r);
                self.pieces.insert(rook, k);
                self.swap_used[color.index()] = true;
                (false, vec![king, rook])
            }
            Action::Pass => (false, vec![]),
        };
        events.push(Event::public(format!("{who} {text}")));
        self.last = Some(LastAction {
            text: format!("{who} {text}"),
            squares,
        });
        self.end_turn(color, fresh, &mut events);
        Ok(events)
    }

    fn view(&self, viewer: Viewer) -> EchekView {
        let (lo, hi) = area(&self.pieces);
        let kings = [Color::White, Color::Black].map(|c| {
            let at = self.king(c);
            KingView {
                color: c,
                at,
                free: free_neighbours(&self.pieces, at),
            }
        });
        EchekView {
            viewer,
            pieces: self
                .pieces
                .iter()
                .map(|(&at, &piece)| (at, piece))
                .collect(),
            area: (lo, hi),
            bounds: bounds(&self.pieces),
            supply: self.supply.clone(),
            swap_used: self.swap_used,
            kings: kings.to_vec(),
            to_move: self.turn,
            last: self.last.clone(),
            status: match &self.outcome {
                Some(o) => format!("Game over: {}", self.describe(o)),
                None => format!("{} to play", self.turn.name()),
            },
            outcome: self.outcome.clone(),
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

    /// Puts by the piece put in play ("put knight"), moves by the piece that moves ("queen"),
    /// then "swap" and "pass".
    fn action_group(&self, action: &Action) -> String {
        match action {
            Action::Put { role, .. } => format!("put {}", role.name()),
            Action::Move { from, .. } => self
                .pieces
                .get(from)
                .map_or("move", |p| p.role.name())
                .to_string(),
            Action::Swap => "swap".into(),
            Action::Pass => "pass".into(),
        }
    }
}

impl Echek {
    /// "puts a knight on 1,1", "moves the queen from 0,0 to 2,2" (after the colour's name).
    fn describe_action(&self, color: Color, action: &Action) -> String {
        match *action {
            Action::Put {
                role,
                at,
                then,
                back,
            } => {
                let mut text = format!("puts a {} on {}", role.name(), at.xy());
                if let Some(to) = then {
                    text.push_str(&format!(", which steps to {}", to.xy()));
                }
                if let Some(b) = back {
                    let p = self.pieces[&b];
                    text.push_str(&format!(
                        " and sends the {} {} on {} back to its supply",
                        p.color.name().to_lowercase(),
                        p.role.name(),
                        b.xy()
                    ));
                }
                text
            }
            Action::Move { from, to } => format!(
                "moves the {} from {} to {}",
                self.pieces[&from].role.name(),
                from.xy(),
                to.xy()
            ),
            Action::Swap => format!(
                "exchanges rook and king ({} and {})",
                self.rook(color).map_or(String::new(), Sq::xy),
                self.king(color).xy()
            ),
            Action::Pass => "cannot act and passes".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingView {
    pub color: Color,
    pub at: Sq,
    /// Neighbouring squares still free (empty and within the limit); none left loses.
    pub free: usize,
}

/// Everything in Echek is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EchekView {
    pub viewer: Viewer,
    pub pieces: Vec<(Sq, Piece)>,
    /// The squares a window holding every piece could cover (lowest, highest corner).
    pub area: (Sq, Sq),
    /// The box around the pieces now (lowest, highest corner).
    pub bounds: (Sq, Sq),
    /// White's supply, then Black's.
    pub supply: [Vec<Role>; 2],
    pub swap_used: [bool; 2],
    pub kings: Vec<KingView>,
    pub to_move: Color,
    pub last: Option<LastAction>,
    pub status: String,
    pub outcome: Option<Outcome>,
}

pub mod ending;
mod notation;
mod refusal;

#[cfg(test)]
mod tests;

impl GameView for EchekView {
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn conclude(&mut self, outcome: &Outcome, status: String) {
        (self.outcome, self.status) = (Some(outcome.clone()), status);
    }
}
