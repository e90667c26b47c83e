//! A FIDE chess position: the board, the side to move, castling rights, the en passant square and
//! the move clocks. Moves are generated on the shared movement core ([`crate::board`]) and made by
//! copy; legality is "does not leave the mover's king attacked".

use crate::board::{self, Cell, DIAGONAL, Grid, KNIGHT, ORTHOGONAL, Offset, Slide, Sq};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

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

fn king_home(color: Color) -> Square {
    Square::from_coords(4, color.back_rank())
}

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

    /// Whether any piece of `by` attacks `target`.
    pub fn attacked_by(&self, target: Square, by: Color) -> bool {
        let at = target.sq();
        let is = |sq: Square, roles: &[Role]| {
            self.board[sq.index()].is_some_and(|p| p.color == by && roles.contains(&p.role))
        };
        let pawn_dy = -by.forward();
        for dx in [-1, 1] {
            if let Some(sq) = target.offset(Offset { dx, dy: pawn_dy })
                && is(sq, &[Role::Pawn])
            {
                return true;
            }
        }
        for &step in &KNIGHT {
            if let Some(sq) = target.offset(step)
                && is(sq, &[Role::Knight])
            {
                return true;
            }
        }
        for (dirs, roles) in [
            (&ORTHOGONAL, [Role::Rook, Role::Queen]),
            (&DIAGONAL, [Role::Bishop, Role::Queen]),
        ] {
            for &dir in dirs {
                if let Some((sq, color)) = board::first_piece(self, at, dir, None)
                    && color == by
                {
                    let sq = Square::from_sq(sq).expect("on the board");
                    let role = self.board[sq.index()].expect("a piece").role;
                    if roles.contains(&role) || (role == Role::King && sq.sq().touches(at)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Moves that follow the pieces' patterns, ignoring whether the king is left attacked
    /// (castling is checked fully: not out of, through or into check).
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        for (from, piece) in self.pieces() {
            if piece.color == self.turn {
                self.pseudo_moves_from(from, piece, out);
            }
        }
    }

    fn pseudo_moves_from(&self, from: Square, piece: Piece, out: &mut Vec<Move>) {
        let color = piece.color;
        let mut push = |t: board::Target| {
            out.push(Move::new(from, Square::from_sq(t.sq).expect("on board")));
        };
        match piece.role {
            Role::Pawn => self.pawn_moves(from, color, out),
            Role::Knight => board::leaps(self, from.sq(), color, &KNIGHT, true, &mut push),
            Role::Bishop => board::slide(self, from.sq(), color, &DIAGONAL, Slide::CHESS, push),
            Role::Rook => board::slide(self, from.sq(), color, &ORTHOGONAL, Slide::CHESS, push),
            Role::Queen => board::slide(
                self,
                from.sq(),
                color,
                &board::ALL_DIRECTIONS,
                Slide::CHESS,
                push,
            ),
            Role::King => {
                board::slide(
                    self,
                    from.sq(),
                    color,
                    &board::ALL_DIRECTIONS,
                    Slide::STEP,
                    push,
                );
                self.castling_moves(from, color, out);
            }
        }
    }

    fn pawn_moves(&self, from: Square, color: Color, out: &mut Vec<Move>) {
        let dy = color.forward();
        let last_rank = color.other().back_rank();
        let mut add = |to: Square| {
            if to.rank() == last_rank {
                for role in Role::PROMOTIONS {
                    out.push(Move {
                        from,
                        to,
                        promotion: Some(role),
                    });
                }
            } else {
                out.push(Move::new(from, to));
            }
        };
        if let Some(one) = from.offset(Offset { dx: 0, dy })
            && self.board[one.index()].is_none()
        {
            add(one);
            if from.rank() == color.pawn_rank()
                && let Some(two) = one.offset(Offset { dx: 0, dy })
                && self.board[two.index()].is_none()
            {
                add(two);
            }
        }
        for dx in [-1, 1] {
            if let Some(to) = from.offset(Offset { dx, dy }) {
                let enemy = self.board[to.index()].is_some_and(|p| p.color != color);
                if enemy || self.ep == Some(to) {
                    add(to);
                }
            }
        }
    }

    fn castling_moves(&self, from: Square, color: Color, out: &mut Vec<Move>) {
        if from != king_home(color) {
            return;
        }
        for king_side in [true, false] {
            if self.castling_blocker(color, king_side).is_none() {
                let file = if king_side { 6 } else { 2 };
                out.push(Move::new(
                    from,
                    Square::from_coords(file, color.back_rank()),
                ));
            }
        }
    }

    /// Why `color` cannot castle on that side now, or None if it can.
    pub fn castling_blocker(&self, color: Color, king_side: bool) -> Option<&'static str> {
        if !self.castling.has(color, king_side) {
            return Some("the king or that rook has moved or is gone");
        }
        let rank = color.back_rank();
        let between: &[u8] = if king_side { &[5, 6] } else { &[1, 2, 3] };
        if between
            .iter()
            .any(|&f| self.board[Square::from_coords(f, rank).index()].is_some())
        {
            return Some("there are pieces between the king and the rook");
        }
        let enemy = color.other();
        if self.attacked_by(king_home(color), enemy) {
            return Some("the king is in check");
        }
        let passes: &[u8] = if king_side { &[5, 6] } else { &[3, 2] };
        if passes
            .iter()
            .any(|&f| self.attacked_by(Square::from_coords(f, rank), enemy))
        {
            return Some("the king would pass through or land on an attacked square");
        }
        None
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

    /// Whether a pseudo-legal move keeps the mover's king safe.
    pub fn is_safe(&self, mv: Move) -> bool {
        let next = self.play_unchecked(mv);
        !next.attacked_by(next.king(self.turn), next.turn)
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(48);
        self.pseudo_moves(&mut moves);
        moves.retain(|&mv| self.is_safe(mv));
        moves
    }

    pub fn has_legal_move(&self) -> bool {
        let mut moves = Vec::with_capacity(48);
        self.pseudo_moves(&mut moves);
        moves.into_iter().any(|mv| self.is_safe(mv))
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        let mut moves = Vec::new();
        if let Some(piece) = self.board[mv.from.index()]
            && piece.color == self.turn
        {
            self.pseudo_moves_from(mv.from, piece, &mut moves);
        }
        moves.contains(&mv) && self.is_safe(mv)
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
        if let Some(ep) = self.ep {
            let can_take = self
                .legal_moves()
                .iter()
                .any(|&mv| mv.to == ep && matches!(self.special(mv), Special::EnPassant { .. }));
            if can_take {
                key ^= zobrist(785 + usize::from(ep.file()));
            }
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

/// The deepest perft the command line runs: deeper counts take hours (and the recursion is as
/// deep as the count).
pub const PERFT_LIMIT: u32 = 6;

/// Counts leaf nodes of the legal move tree to `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(&pos.play_unchecked(mv), depth - 1))
        .sum()
}
