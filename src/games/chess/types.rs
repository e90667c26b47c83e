//! The words of chess: colours, roles, pieces, squares, moves and castling rights.

use crate::board::{Offset, Sq};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// Rank direction of this side's pawns.
    pub fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// This side's back rank, 0-based (0 for White, 7 for Black).
    pub fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    /// The rank its pawns start on, 0-based.
    pub fn pawn_rank(self) -> u8 {
        match self {
            Color::White => 1,
            Color::Black => 6,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// Upper-case letter as in SAN and FEN (pawn: 'P').
    pub fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    pub fn from_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Self {
        Piece { color, role }
    }

    /// FEN letter: upper case for White.
    pub fn fen_char(self) -> char {
        let c = self.role.letter();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The Unicode chess symbol (♔♕♖♗♘♙ for White, ♚♛♜♝♞♟ for Black).
    pub fn symbol(self) -> char {
        let base = match self.color {
            Color::White => 0x2654,
            Color::Black => 0x265A,
        };
        let offset = match self.role {
            Role::King => 0,
            Role::Queen => 1,
            Role::Rook => 2,
            Role::Bishop => 3,
            Role::Knight => 4,
            Role::Pawn => 5,
        };
        char::from_u32(base + offset).expect("chess symbols are valid chars")
    }
}

/// A square of the 8x8 board, a1 = 0 ... h8 = 63. Written and serialised as "e4".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Square(u8);

impl Square {
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    pub fn from_index(index: usize) -> Square {
        assert!(index < 64);
        Square(index as u8)
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// 0 for the a-file.
    pub fn file(self) -> u8 {
        self.0 % 8
    }

    /// 0 for the first rank.
    pub fn rank(self) -> u8 {
        self.0 / 8
    }

    pub fn file_char(self) -> char {
        char::from(b'a' + self.file())
    }

    pub fn rank_char(self) -> char {
        char::from(b'1' + self.rank())
    }

    pub fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The square on the movement core's grid.
    pub fn sq(self) -> Sq {
        Sq::new(i16::from(self.file()), i16::from(self.rank()))
    }

    pub fn from_sq(sq: Sq) -> Option<Square> {
        ((0..8).contains(&sq.x) && (0..8).contains(&sq.y))
            .then(|| Square::from_coords(sq.x as u8, sq.y as u8))
    }

    pub fn offset(self, by: Offset) -> Option<Square> {
        Square::from_sq(self.sq().offset(by))
    }

    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square::from_coords(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl From<Square> for String {
    fn from(sq: Square) -> String {
        sq.to_string()
    }
}

impl TryFrom<String> for Square {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        Square::parse(&text).ok_or_else(|| format!("{text:?} is not a square"))
    }
}

/// A move as from, to and promotion; castling is the king's two-square move (UCI style).
/// Written and serialised in UCI: "e2e4", "e7e8q", "e1g1".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

impl Move {
    pub fn new(from: Square, to: Square) -> Self {
        Move {
            from,
            to,
            promotion: None,
        }
    }

    pub fn uci(self) -> String {
        let mut s = format!("{}{}", self.from, self.to);
        if let Some(role) = self.promotion {
            s.push(role.letter().to_ascii_lowercase());
        }
        s
    }

    pub fn parse_uci(text: &str) -> Option<Move> {
        let text = text.trim();
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return None;
        }
        let from = Square::parse(&text[0..2])?;
        let to = Square::parse(&text[2..4])?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) => match Role::from_letter(c)? {
                Role::Pawn | Role::King => return None,
                role => Some(role),
            },
        };
        Some(Move {
            from,
            to,
            promotion,
        })
    }
}

impl From<Move> for String {
    fn from(mv: Move) -> String {
        mv.uci()
    }
}

impl TryFrom<String> for Move {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        Move::parse_uci(&text).ok_or_else(|| format!("{text:?} is not a UCI move"))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uci())
    }
}

/// What a move does beyond moving one piece, derived from the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Special {
    None,
    DoublePush,
    EnPassant { captured: Square },
    Castle { rook_from: Square, rook_to: Square },
}

/// Castling rights, one bit each: White short, White long, Black short, Black long.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Castling(u8);

impl Castling {
    pub const ALL: Castling = Castling(0b1111);

    fn bit(color: Color, king_side: bool) -> u8 {
        1 << (color.index() * 2 + usize::from(!king_side))
    }

    pub fn has(self, color: Color, king_side: bool) -> bool {
        self.0 & Self::bit(color, king_side) != 0
    }

    pub fn set(&mut self, color: Color, king_side: bool, on: bool) {
        if on {
            self.0 |= Self::bit(color, king_side);
        } else {
            self.0 &= !Self::bit(color, king_side);
        }
    }

    pub fn bits(self) -> u8 {
        self.0
    }
}

/// The home square of a rook whose castling right is (color, king_side).
pub fn rook_home(color: Color, king_side: bool) -> Square {
    Square::from_coords(if king_side { 7 } else { 0 }, color.back_rank())
}

/// The home square of `color`'s king.
pub(super) fn king_home(color: Color) -> Square {
    Square::from_coords(4, color.back_rank())
}
