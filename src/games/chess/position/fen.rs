//! Positions read from and written as FEN, with the checks a position from outside must pass.

use super::{Castling, Color, Piece, Position, Role, Square, rook_home};
use crate::games::chess::types::king_home;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("a FEN needs at least the board and the side to move")]
    TooShort,
    #[error("a FEN has at most six fields: board, side, castling, en passant and two counters")]
    TooLong,
    #[error("the board must have 8 ranks of 8 squares")]
    BadBoard,
    #[error("unknown piece letter {0:?}")]
    BadPiece(char),
    #[error("side to move must be w or b")]
    BadSide,
    #[error("bad castling field {0:?}")]
    BadCastling(String),
    #[error("bad en passant square {0:?}")]
    BadEnPassant(String),
    #[error("bad move counter {0:?}")]
    BadCounter(String),
    #[error("each side needs exactly one king")]
    Kings,
    #[error("pawns cannot stand on the first or last rank")]
    PawnOnEdge,
    #[error("{0} has more than 16 pieces")]
    TooManyPieces(Color),
    #[error("{0} has more than 8 pawns")]
    TooManyPawns(Color),
    #[error("{0} has more promoted pieces than pawns missing")]
    TooManyPromoted(Color),
    #[error("the side not to move is in check")]
    OpponentInCheck,
}

/// Refuses material `color` cannot have: more than 16 pieces, more than 8 pawns, or more
/// pieces beyond the starting set (one queen, two rooks, bishops and knights) than pawns
/// missing to have promoted.
fn check_material(board: &[Option<Piece>; 64], color: Color) -> Result<(), FenError> {
    let count = |role: Role| {
        board
            .iter()
            .filter(|p| **p == Some(Piece::new(color, role)))
            .count()
    };
    let all = board.iter().flatten().filter(|p| p.color == color).count();
    let pawns = count(Role::Pawn);
    if all > 16 {
        return Err(FenError::TooManyPieces(color));
    }
    if pawns > 8 {
        return Err(FenError::TooManyPawns(color));
    }
    let promoted = count(Role::Queen).saturating_sub(1)
        + count(Role::Rook).saturating_sub(2)
        + count(Role::Bishop).saturating_sub(2)
        + count(Role::Knight).saturating_sub(2);
    if promoted > 8 - pawns {
        return Err(FenError::TooManyPromoted(color));
    }
    Ok(())
}

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// A position a player or a file gave: besides being readable and legal, its material
    /// must be what a game of chess can reach (at most 16 pieces and 8 pawns a side, and no
    /// more promoted pieces than pawns missing).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::read_fen(fen, true)
    }

    /// A position this program wrote (a stored state): material beyond chess's is allowed,
    /// since Enthralling Chess moves pieces from one side to the other.
    pub fn from_stored_fen(fen: &str) -> Result<Position, FenError> {
        Position::read_fen(fen, false)
    }

    fn read_fen(fen: &str, from_outside: bool) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(FenError::TooShort);
        }
        if fields.len() > 6 {
            return Err(FenError::TooLong);
        }
        let mut board = [None; 64];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::BadBoard);
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    if !(1..=8).contains(&n) {
                        return Err(FenError::BadBoard);
                    }
                    file += n as u8;
                } else {
                    let role = Role::from_letter(c).ok_or(FenError::BadPiece(c))?;
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    if file >= 8 {
                        return Err(FenError::BadBoard);
                    }
                    board[Square::from_coords(file, rank).index()] = Some(Piece::new(color, role));
                    file += 1;
                }
                if file > 8 {
                    return Err(FenError::BadBoard);
                }
            }
            if file != 8 {
                return Err(FenError::BadBoard);
            }
        }
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(FenError::BadSide),
        };
        let mut castling = Castling::default();
        let castling_field = fields.get(2).copied().unwrap_or("-");
        if castling_field != "-" {
            for c in castling_field.chars() {
                let (color, king_side) = match c {
                    'K' => (Color::White, true),
                    'Q' => (Color::White, false),
                    'k' => (Color::Black, true),
                    'q' => (Color::Black, false),
                    _ => return Err(FenError::BadCastling(castling_field.into())),
                };
                if castling.has(color, king_side) {
                    return Err(FenError::BadCastling(castling_field.into()));
                }
                castling.set(color, king_side, true);
            }
        }
        let ep = match fields.get(3).copied().unwrap_or("-") {
            "-" => None,
            text => {
                let sq = Square::parse(text).ok_or(FenError::BadEnPassant(text.into()))?;
                let expected_rank = if turn == Color::White { 5 } else { 2 };
                if sq.rank() != expected_rank {
                    return Err(FenError::BadEnPassant(text.into()));
                }
                Some(sq)
            }
        };
        let counter = |i: usize, default: u32| -> Result<u32, FenError> {
            match fields.get(i) {
                None => Ok(default),
                Some(t) => t.parse().map_err(|_| FenError::BadCounter((*t).into())),
            }
        };
        let halfmoves = counter(4, 0)?;
        let fullmoves = counter(5, 1)?.max(1);

        let mut kings = [None, None];
        for sq in Square::all() {
            let Some(piece) = board[sq.index()] else {
                continue;
            };
            if piece.role == Role::King && kings[piece.color.index()].replace(sq).is_some() {
                return Err(FenError::Kings);
            }
            if piece.role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
                return Err(FenError::PawnOnEdge);
            }
        }
        let (Some(white_king), Some(black_king)) = (kings[0], kings[1]) else {
            return Err(FenError::Kings);
        };
        if from_outside {
            for color in [Color::White, Color::Black] {
                check_material(&board, color)?;
            }
        }
        let mut pos = Position {
            board,
            turn,
            castling,
            ep,
            halfmoves,
            fullmoves,
            kings: [white_king, black_king],
        };
        // Rights the board cannot support are dropped rather than refused, as most tools do.
        for color in [Color::White, Color::Black] {
            for king_side in [true, false] {
                let rook = Piece::new(color, Role::Rook);
                let king = Piece::new(color, Role::King);
                if pos.board[rook_home(color, king_side).index()] != Some(rook)
                    || pos.board[king_home(color).index()] != Some(king)
                {
                    pos.castling.set(color, king_side, false);
                }
            }
        }
        // The pawn that made the double step stands beyond the square it skipped; in a chess
        // position given from outside, the square skipped and the one the pawn left are empty
        // too. (A stored Enthralling position may have a piece enthralled onto either.)
        if let Some(ep) = pos.ep {
            let (pawn_rank, start_rank) = if turn == Color::White { (4, 6) } else { (3, 1) };
            let pawn_sq = Square::from_coords(ep.file(), pawn_rank);
            let start_sq = Square::from_coords(ep.file(), start_rank);
            let emptied = pos.board[ep.index()].is_none() && pos.board[start_sq.index()].is_none();
            if pos.board[pawn_sq.index()] != Some(Piece::new(turn.other(), Role::Pawn))
                || (from_outside && !emptied)
            {
                pos.ep = None;
            }
        }
        if pos.attacked_by(pos.king(turn.other()), turn) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(pos)
    }

    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[Square::from_coords(file, rank).index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.turn == Color::White { 'w' } else { 'b' });
        s.push(' ');
        let before = s.len();
        for (c, color, king_side) in [
            ('K', Color::White, true),
            ('Q', Color::White, false),
            ('k', Color::Black, true),
            ('q', Color::Black, false),
        ] {
            if self.castling.has(color, king_side) {
                s.push(c);
            }
        }
        if s.len() == before {
            s.push('-');
        }
        match self.ep {
            Some(sq) => s.push_str(&format!(" {sq}")),
            None => s.push_str(" -"),
        }
        s.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        s
    }
}
