//! A FIDE chess position: the board, the side to move, castling rights, the en passant square and
//! the move clocks. Moves are generated on the shared movement core ([`crate::board`]) and made by
//! copy; legality is "does not leave the mover's king attacked".
//!
//! Reading and writing FEN is in `fen`, move generation and legality in `movegen`, perft in
//! `perft`.

mod fen;
mod hash;
mod movegen;
mod perft;

pub use super::types::{Castling, Color, Move, Piece, Role, Special, Square, rook_home};
pub use fen::{FenError, START_FEN};
pub use perft::{PERFT_LIMIT, perft};

use crate::board::{Cell, Grid, Sq};
use crate::games::chess::types::king_home;
use serde::{Deserialize, Serialize};

/// A legal chess position. Serialised as its FEN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Position {
    board: [Option<Piece>; 64],
    turn: Color,
    castling: Castling,
    /// The square a pawn skipped with its double step on the last move, if any.
    ep: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    kings: [Square; 2],
}

impl Grid for Position {
    type Side = Color;
    fn cell(&self, sq: Sq) -> Cell<Color> {
        match Square::from_sq(sq) {
            None => Cell::Gap,
            Some(s) => match self.board[s.index()] {
                None => Cell::Empty,
                Some(p) => Cell::Piece(p.color),
            },
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::from_fen(START_FEN).expect("the start position is valid")
    }
}

impl Position {
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn castling(&self) -> Castling {
        self.castling
    }

    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.board[sq.index()].map(|p| (sq, p)))
    }

    pub fn in_check(&self) -> bool {
        self.attacked_by(self.king(self.turn), self.turn.other())
    }

    /// What `mv` does besides moving its piece. Assumes `mv` is pseudo-legal here.
    pub fn special(&self, mv: Move) -> Special {
        let Some(piece) = self.board[mv.from.index()] else {
            return Special::None;
        };
        match piece.role {
            Role::Pawn if mv.from.rank().abs_diff(mv.to.rank()) == 2 => Special::DoublePush,
            Role::Pawn if Some(mv.to) == self.ep && mv.from.file() != mv.to.file() => {
                Special::EnPassant {
                    captured: Square::from_coords(mv.to.file(), mv.from.rank()),
                }
            }
            Role::King if mv.from.file().abs_diff(mv.to.file()) == 2 => {
                let king_side = mv.to.file() > mv.from.file();
                let rank = mv.from.rank();
                Special::Castle {
                    rook_from: rook_home(piece.color, king_side),
                    rook_to: Square::from_coords(if king_side { 5 } else { 3 }, rank),
                }
            }
            _ => Special::None,
        }
    }

    /// The square of the piece `mv` captures, if any.
    pub fn captured_square(&self, mv: Move) -> Option<Square> {
        match self.special(mv) {
            Special::EnPassant { captured } => Some(captured),
            Special::Castle { .. } => None,
            _ => self.board[mv.to.index()].map(|_| mv.to),
        }
    }

    pub fn is_capture(&self, mv: Move) -> bool {
        self.captured_square(mv).is_some()
    }

    /// The position after a pseudo-legal move, without checking that it is legal.
    pub fn play_unchecked(&self, mv: Move) -> Position {
        let mut next = *self;
        let piece = self.board[mv.from.index()].expect("a piece on the from square");
        let special = self.special(mv);
        let capture = self.captured_square(mv);
        if let Some(sq) = capture {
            next.board[sq.index()] = None;
        }
        next.board[mv.from.index()] = None;
        next.board[mv.to.index()] = Some(match mv.promotion {
            Some(role) => Piece::new(piece.color, role),
            None => piece,
        });
        if let Special::Castle { rook_from, rook_to } = special {
            next.board[rook_to.index()] = next.board[rook_from.index()].take();
        }
        if piece.role == Role::King {
            next.kings[piece.color.index()] = mv.to;
        }
        next.ep = match special {
            Special::DoublePush => Some(Square::from_coords(
                mv.from.file(),
                (mv.from.rank() + mv.to.rank()) / 2,
            )),
            _ => None,
        };
        next.clear_rights_touching(mv.from);
        next.clear_rights_touching(mv.to);
        next.halfmoves = if piece.role == Role::Pawn || capture.is_some() {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        if self.turn == Color::Black {
            next.fullmoves = next.fullmoves.saturating_add(1);
        }
        next.turn = self.turn.other();
        next
    }

    /// Castling rights end when anything moves from, or arrives on, a king or rook home square.
    fn clear_rights_touching(&mut self, sq: Square) {
        for color in [Color::White, Color::Black] {
            for king_side in [true, false] {
                if sq == rook_home(color, king_side) || sq == king_home(color) {
                    self.castling.set(color, king_side, false);
                }
            }
        }
    }

    /// Whether `color` has the material to checkmate at all: a pawn, a rook or a queen, or two
    /// minor pieces. A lone king, or a king and one minor piece, cannot (the rule a loss on
    /// time follows: the side without it draws instead of winning).
    pub fn can_mate(&self, color: Color) -> bool {
        let mut minors = 0;
        for (_, piece) in self.pieces().filter(|(_, p)| p.color == color) {
            match piece.role {
                Role::King => {}
                Role::Bishop | Role::Knight => minors += 1,
                _ => return true,
            }
        }
        minors >= 2
    }

    /// No sequence of legal moves can mate: K v K, K+minor v K, or only bishops besides the kings
    /// and all of them on squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        let mut minors = 0;
        let mut bishop_colors = [false, false];
        let mut knights = 0;
        for (sq, piece) in self.pieces() {
            match piece.role {
                Role::King => {}
                Role::Bishop => {
                    minors += 1;
                    bishop_colors[usize::from(sq.is_light())] = true;
                }
                Role::Knight => {
                    minors += 1;
                    knights += 1;
                }
                _ => return false,
            }
        }
        minors <= 1 || (knights == 0 && !(bishop_colors[0] && bishop_colors[1]))
    }

    /// Identifies the position for repetition: pieces, side to move, castling rights, and the
    /// en passant square only when an en passant capture is actually legal (as FIDE counts it).
    pub fn repetition_key(&self) -> u64 {
        let mut key = 0u64;
        for (sq, piece) in self.pieces() {
            let kind = piece.color.index() * 6 + piece.role as usize;
            key ^= zobrist(kind * 64 + sq.index());
        }
        if self.turn == Color::Black {
            key ^= zobrist(768);
        }
        key ^= zobrist(769 + usize::from(self.castling.bits()));
        if let Some(ep) = self.ep
            && self.ep_counts(ep)
        {
            key ^= zobrist(785 + usize::from(ep.file()));
        }
        key
    }

    /// Puts `piece` on an empty square or removes what stands there (for variants that add and
    /// remove pieces between moves). Kings cannot be added or removed. Anything leaving or
    /// arriving on a king or rook home square ends that castling right, as a move would.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let old = self.board[sq.index()];
        assert!(
            old.is_none_or(|p| p.role != Role::King) && piece.is_none_or(|p| p.role != Role::King),
            "kings are not added or removed"
        );
        self.board[sq.index()] = piece;
        self.clear_rights_touching(sq);
    }

    /// Restarts the fifty-move count (for variant actions as irreversible as a capture).
    pub fn reset_halfmoves(&mut self) {
        self.halfmoves = 0;
    }
}

impl From<Position> for String {
    fn from(pos: Position) -> String {
        pos.fen()
    }
}

impl TryFrom<String> for Position {
    type Error = FenError;
    fn try_from(fen: String) -> Result<Self, FenError> {
        Position::from_stored_fen(&fen)
    }
}

/// Fixed pseudo-random numbers for hashing positions (SplitMix64 of the index).
fn zobrist(index: usize) -> u64 {
    let mut z = (index as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
