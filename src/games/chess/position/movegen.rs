//! Move generation: the moves the pieces' patterns allow, attacks on a square, castling, and
//! which moves are legal (those that leave the mover's king safe).

use super::{Color, Move, Piece, Position, Role, Square};
use crate::board::{self, DIAGONAL, KNIGHT, ORTHOGONAL, Offset, Slide};
use crate::games::chess::types::king_home;

impl Position {
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
}
