//! FIDE chess on the game contract.
//!
//! Seat 1 plays White, seat 2 Black. Actions are moves, typed in SAN or UCI and shown in SAN.
//! Checkmate, stalemate, threefold repetition, the fifty-move rule and dead positions
//! (insufficient material) end the game automatically.

pub mod pgn;
mod position;
mod san;
pub mod search;
mod types;

pub use position::{
    Castling, Color, FenError, Move, PERFT_LIMIT, Piece, Position, Role, START_FEN, Special,
    Square, perft, rook_home,
};
pub use san::{parse_move, san, san_all};

use crate::engine::{
    Event, Game, GameRng, GameView, Level, ON_TIME, ON_TIME_NO_MATERIAL, OnTime, Outcome,
    ParseError, PgnStyle, RuleError, Seat, SetupError, ToAct, Viewer,
};
use serde::{Deserialize, Serialize};

pub fn seat_of(color: Color) -> Seat {
    Seat(color.index() as u8)
}

pub fn color_of(seat: Seat) -> Option<Color> {
    match seat.0 {
        0 => Some(Color::White),
        1 => Some(Color::Black),
        _ => None,
    }
}

/// Why a chess game ended by the FIDE rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Checkmate,
    Stalemate,
    DeadPosition,
    FiftyMoves,
    Threefold,
}

impl Ending {
    pub fn reason(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::DeadPosition => "dead position (insufficient material)",
            Ending::FiftyMoves => "the fifty-move rule",
            Ending::Threefold => "threefold repetition",
        }
    }

    /// The outcome when this ending is found with `pos` to move.
    pub fn outcome(self, pos: &Position) -> Outcome {
        match self {
            Ending::Checkmate => Outcome::winner(seat_of(pos.turn().other()), 2, self.reason()),
            _ => Outcome::draw(2, self.reason()),
        }
    }
}

/// The FIDE end conditions for the side to move, checked in this order: checkmate and stalemate
/// (a mate on the fiftieth move still wins), dead position, fifty moves (100 plies without a
/// capture or pawn move), threefold repetition. `history` holds the repetition keys since the
/// last irreversible move, the current position's included.
pub fn fide_ending(pos: &Position, history: &[u64], dead_positions: bool) -> Option<Ending> {
    if !pos.has_legal_move() {
        return Some(if pos.in_check() {
            Ending::Checkmate
        } else {
            Ending::Stalemate
        });
    }
    if dead_positions && pos.insufficient_material() {
        return Some(Ending::DeadPosition);
    }
    if pos.halfmoves() >= 100 {
        return Some(Ending::FiftyMoves);
    }
    if let Some(&current) = history.last()
        && history.iter().filter(|&&k| k == current).count() >= 3
    {
        return Some(Ending::Threefold);
    }
    None
}

/// An outcome in chess words: "White won by checkmate", "Draw by stalemate".
pub fn describe(outcome: &Outcome) -> String {
    crate::engine::describe_white_black(outcome)
}

/// The last move, for highlighting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastMove {
    pub from: Square,
    pub to: Square,
    pub san: String,
}

/// A piece as a viewer sees it; `marked` flags pieces a variant distinguishes (enthralled).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedPiece {
    pub square: Square,
    pub piece: Piece,
    pub marked: bool,
}

/// What a viewer sees of an 8x8 chess-like game. The renderer draws this, never the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    pub viewer: Viewer,
    /// The colour shown at the bottom: Black for Black's seat, White otherwise.
    pub bottom: Color,
    pub fen: String,
    pub pieces: Vec<PlacedPiece>,
    pub to_move: Color,
    pub last_move: Option<LastMove>,
    /// The square of a king in check.
    pub check: Option<Square>,
    pub outcome: Option<Outcome>,
    /// One line of game-specific status, such as what the player to move must also do.
    pub status: String,
}

impl BoardView {
    pub fn new(viewer: Viewer, pos: &Position, last_move: Option<LastMove>) -> Self {
        let bottom = match viewer {
            Viewer::Seat(seat) if color_of(seat) == Some(Color::Black) => Color::Black,
            _ => Color::White,
        };
        BoardView {
            viewer,
            bottom,
            fen: pos.fen(),
            pieces: pos
                .pieces()
                .map(|(square, piece)| PlacedPiece {
                    square,
                    piece,
                    marked: false,
                })
                .collect(),
            to_move: pos.turn(),
            last_move,
            check: pos.in_check().then(|| pos.king(pos.turn())),
            outcome: None,
            status: String::new(),
        }
    }
}

impl GameView for BoardView {
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn conclude(&mut self, outcome: &Outcome, status: String) {
        (self.outcome, self.status) = (Some(outcome.clone()), status);
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChessOptions {
    /// Start from this FEN instead of the usual position.
    pub fen: Option<String>,
}

/// A game of FIDE chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Chess {
    position: Position,
    /// Repetition keys since the last capture or pawn move, the current position's last.
    history: Vec<u64>,
    last_move: Option<LastMove>,
    outcome: Option<Outcome>,
}

impl Chess {
    pub fn from_position(position: Position) -> Self {
        let mut game = Chess {
            position,
            history: vec![position.repetition_key()],
            last_move: None,
            outcome: None,
        };
        game.outcome = fide_ending(&position, &game.history, true).map(|e| e.outcome(&position));
        game
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn check_turn(&self, seat: Seat) -> Result<(), RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        if color_of(seat) != Some(self.position.turn()) {
            return Err(RuleError::NotYourTurn);
        }
        Ok(())
    }
}

/// Checks a seat count of exactly two.
pub fn two_seats(game: &'static str, seats: usize) -> Result<(), SetupError> {
    if seats == 2 {
        Ok(())
    } else {
        Err(SetupError::SeatCount {
            game,
            min: 2,
            max: 2,
            got: seats,
        })
    }
}

impl Game for Chess {
    type Options = ChessOptions;
    type Action = Move;
    type View = BoardView;
    const NAME: &'static str = "Chess";
    const ID: &'static str = "chess";
    const SUMMARY: &'static str = "**Chess**: standard FIDE rules. Type moves in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI \
         (e2e4). Checkmate wins; stalemate, threefold repetition, the fifty-move rule and dead \
         positions draw automatically. Use /draw to offer a draw and /resign to resign.";
    const SEATS: (usize, usize) = (2, 2);
    const PGN: Option<PgnStyle> = Some(PgnStyle {
        variant: None,
        extra_steps: &[],
    });
    const NOTATION: &'static str = "moves in algebraic notation (SAN) or UCI:
  e4, Nf3, exd5, Bxf7+, O-O, O-O-O, e8=Q     or     e2e4, g1f3, e7e8q
  capital letters name pieces (K Q R B N), small letters files; x, + and # are optional";

    fn new(options: &ChessOptions, seats: usize, _rng: &mut GameRng) -> Result<Self, SetupError> {
        two_seats(Self::NAME, seats)?;
        let position = match &options.fen {
            None => Position::default(),
            Some(fen) => Position::from_fen(fen)
                .map_err(|e| SetupError::Options(format!("bad fen option: {e}")))?,
        };
        let game = Chess::from_position(position);
        if let Some(outcome) = &game.outcome {
            return Err(SetupError::Options(format!(
                "the fen position is already over ({}); give one with a move to play",
                describe(outcome)
            )));
        }
        Ok(game)
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(seat_of(self.position.turn())),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Move> {
        match self.check_turn(seat) {
            Ok(()) => self.position.legal_moves(),
            Err(_) => Vec::new(),
        }
    }

    fn apply(
        &mut self,
        seat: Seat,
        mv: &Move,
        _rng: &mut GameRng,
    ) -> Result<Vec<Event>, RuleError> {
        self.check_turn(seat)?;
        let pos = &self.position;
        if !pos.is_legal(*mv) {
            let reason = match parse_move(pos, &mv.uci()) {
                Err(e) => e.reason,
                Ok(_) => format!("{mv} is not legal here"),
            };
            return Err(RuleError::Illegal(reason));
        }
        let san = san(pos, *mv);
        let mover = pos.turn();
        let next = pos.play_unchecked(*mv);
        if next.halfmoves() == 0 {
            self.history.clear();
        }
        self.history.push(next.repetition_key());
        self.position = next;
        self.last_move = Some(LastMove {
            from: mv.from,
            to: mv.to,
            san: san.clone(),
        });
        let mut events = vec![Event::public(format!("{mover} plays {san}"))];
        if let Some(ending) = fide_ending(&next, &self.history, true) {
            let outcome = ending.outcome(&next);
            events.push(Event::public(format!("Game over: {}", describe(&outcome))));
            self.outcome = Some(outcome);
        }
        Ok(events)
    }

    fn view(&self, viewer: Viewer) -> BoardView {
        let mut view = BoardView::new(viewer, &self.position, self.last_move.clone());
        view.outcome = self.outcome.clone();
        view.status = match &self.outcome {
            Some(outcome) => format!("Game over: {}", describe(outcome)),
            None => format!("{} to move", self.position.turn()),
        };
        view
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Move, ParseError> {
        if let Err(e) = self.check_turn(seat) {
            return Err(ParseError::refused(text, e.to_string()));
        }
        parse_move(&self.position, text)
    }

    fn action_group(&self, mv: &Move) -> String {
        self.position
            .piece_at(mv.from)
            .map_or_else(String::new, |p| p.role.name().to_string())
    }

    fn format_action(&self, mv: &Move) -> String {
        if self.position.is_legal(*mv) {
            san(&self.position, *mv)
        } else {
            mv.uci()
        }
    }

    /// For a computer's playout cut short: White's chances from the material on the board
    /// (pawn 1, knight and bishop 3, rook 5, queen 9), a logistic curve on the difference that
    /// gives about 0.91 to the side four pawns up.
    fn evaluate(&self) -> Option<Vec<f64>> {
        let balance: f64 = self
            .position
            .pieces()
            .map(|(_, piece)| {
                let value = match piece.role {
                    Role::Pawn => 1.0,
                    Role::Knight | Role::Bishop => 3.0,
                    Role::Rook => 5.0,
                    Role::Queen => 9.0,
                    Role::King => 0.0,
                };
                if piece.color == Color::White {
                    value
                } else {
                    -value
                }
            })
            .sum();
        let white = 1.0 / (1.0 + 10f64.powf(-balance / 4.0));
        Some(vec![white, 1.0 - white])
    }

    /// Chess has an alpha-beta engine of its own ([`search::choose`]): `hard` searches until
    /// stopped, `medium` four plies, `easy` two plies with deliberate mistakes.
    fn own_search(
        &self,
        seat: Seat,
        level: Level,
        seed: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<Move> {
        if self.outcome.is_some() || color_of(seat) != Some(self.position.turn()) {
            return None;
        }
        search::choose(&self.position, &self.history, level, seed, stop)
    }

    /// The other side wins on time, unless it has too little material left to checkmate by
    /// any series of legal moves: then it is a draw.
    fn on_time(&self, seat: Seat) -> OnTime {
        let other = Seat(1 - seat.0.min(1));
        let colour = if other.0 == 0 {
            Color::White
        } else {
            Color::Black
        };
        OnTime::Finish(if self.position.can_mate(colour) {
            Outcome::winner(other, 2, ON_TIME)
        } else {
            Outcome::draw(2, ON_TIME_NO_MATERIAL)
        })
    }
}

#[cfg(test)]
mod tests;
