//! The transposition table: a fixed number of slots, each remembering one searched position
//! (by its 64-bit key) with the depth searched, the score and what kind of bound it is, and the
//! best move found. A new result replaces the old one in its slot unless the old one is of
//! another position searched deeper (replace by depth, with the current position always
//! welcome).

use super::{MATE_BOUND, Move, Role, Square};

/// What a stored score says about the position's true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (a move was too good: beta cut-off).
    Lower,
    /// The true score is at most this (no move reached alpha).
    Upper,
}

#[derive(Copy, Clone, Debug)]
pub struct Entry {
    key: u64,
    /// The best move, packed (0: none).
    mv: u16,
    score: i32,
    depth: u8,
    bound: Bound,
}

impl Entry {
    pub fn best(&self) -> Option<Move> {
        unpack(self.mv)
    }

    pub fn depth(&self) -> i32 {
        i32::from(self.depth)
    }

    pub fn bound(&self) -> Bound {
        self.bound
    }

    /// The stored score seen from `ply` plies below the root (mate scores count from there).
    pub fn score(&self, ply: usize) -> i32 {
        from_tt(self.score, ply)
    }
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: 0,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
};

pub struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of 2^`bits` slots.
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits;
        Table {
            slots: vec![EMPTY; size],
            mask: size - 1,
        }
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.slots[key as usize & self.mask];
        (entry.key == key && (entry.mv != 0 || entry.depth > 0)).then_some(entry)
    }

    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound, ply: usize) {
        let slot = &mut self.slots[key as usize & self.mask];
        let depth = depth.clamp(0, i32::from(u8::MAX)) as u8;
        if slot.key != key && slot.depth > depth.saturating_add(2) {
            return;
        }
        let mv = match mv {
            Some(mv) => pack(mv),
            // Keep the move an earlier search of this same position found.
            None if slot.key == key => slot.mv,
            None => 0,
        };
        *slot = Entry {
            key,
            mv,
            score: to_tt(score, ply),
            depth,
            bound,
        };
    }
}

/// Mate scores are stored as distances from the stored position, not from the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

const PROMOTIONS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// from (6 bits), to (6 bits), promotion (3 bits: 0 none, 1-4 knight to queen). A move never
/// goes from a square to itself, so 0 is no move.
pub fn pack(mv: Move) -> u16 {
    let promo = mv
        .promotion
        .and_then(|role| PROMOTIONS.iter().position(|&r| r == role))
        .map_or(0, |i| i as u16 + 1);
    mv.from.index() as u16 | (mv.to.index() as u16) << 6 | promo << 12
}

pub fn unpack(code: u16) -> Option<Move> {
    let from = usize::from(code & 63);
    let to = usize::from((code >> 6) & 63);
    if from == to {
        return None;
    }
    let promotion = match (code >> 12) & 7 {
        0 => None,
        n => Some(*PROMOTIONS.get(usize::from(n) - 1)?),
    };
    Some(Move {
        from: Square::from_index(from),
        to: Square::from_index(to),
        promotion,
    })
}
