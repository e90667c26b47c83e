//! Helpers for the alpha-beta search (src/games/chess/search): the repetition key of the
//! position after a move, computed from the key before it by changing only what the move
//! changes (the search hashes millions of positions; the full [`Position::repetition_key`]
//! scans the board), and the "pass" of a null-move search.

use super::{Color, Move, Position, Role, Special, Square, zobrist};
use crate::board::Offset;

/// The hash number of `role` of `color` on `sq`, as [`Position::repetition_key`] uses it.
fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    zobrist((color.index() * 6 + role as usize) * 64 + sq.index())
}

impl Position {
    /// The repetition key of `next`, the position after the pseudo-legal move `mv` from this
    /// one, given `key`, this position's repetition key. Equal to `next.repetition_key()`.
    pub fn key_after(&self, key: u64, mv: Move, next: &Position) -> u64 {
        let Some(piece) = self.piece_at(mv.from) else {
            return next.repetition_key();
        };
        let mut key = key ^ zobrist(768);
        key ^= piece_key(piece.color, piece.role, mv.from);
        key ^= piece_key(piece.color, mv.promotion.unwrap_or(piece.role), mv.to);
        match self.special(mv) {
            Special::EnPassant { captured } => {
                key ^= piece_key(piece.color.other(), Role::Pawn, captured);
            }
            Special::Castle { rook_from, rook_to } => {
                key ^= piece_key(piece.color, Role::Rook, rook_from);
                key ^= piece_key(piece.color, Role::Rook, rook_to);
            }
            Special::None | Special::DoublePush => {
                if let Some(taken) = self.piece_at(mv.to) {
                    key ^= piece_key(taken.color, taken.role, mv.to);
                }
            }
        }
        if self.castling != next.castling {
            key ^= zobrist(769 + usize::from(self.castling.bits()));
            key ^= zobrist(769 + usize::from(next.castling.bits()));
        }
        if let Some(ep) = self.ep
            && self.ep_counts(ep)
        {
            key ^= zobrist(785 + usize::from(ep.file()));
        }
        if let Some(ep) = next.ep
            && next.ep_counts(ep)
        {
            key ^= zobrist(785 + usize::from(ep.file()));
        }
        key
    }

    /// Whether the side to move can legally take en passant on `ep` (only then does the en
    /// passant square count for repetition).
    pub(super) fn ep_counts(&self, ep: Square) -> bool {
        let back = -self.turn.forward();
        [-1, 1].into_iter().any(|dx| {
            ep.offset(Offset { dx, dy: back }).is_some_and(|from| {
                self.piece_at(from)
                    .is_some_and(|p| p.color == self.turn && p.role == Role::Pawn)
                    && self.is_safe(Move::new(from, ep))
            })
        })
    }

    /// The position with the other side to move and nothing else changed but the en passant
    /// square (gone) and the fifty-move count (one more), and its repetition key given this
    /// position's `key`: the null move of a search, never a move of the game.
    pub fn pass(&self, key: u64) -> (Position, u64) {
        let mut next = *self;
        next.turn = self.turn.other();
        next.ep = None;
        next.halfmoves = self.halfmoves.saturating_add(1);
        let mut next_key = key ^ zobrist(768);
        if let Some(ep) = self.ep
            && self.ep_counts(ep)
        {
            next_key ^= zobrist(785 + usize::from(ep.file()));
        }
        (next, next_key)
    }
}
