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

    /// Move (16 bits), score (16), depth (8) and bound (2, 0 for an empty slot) in one word.
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.mv)
            | u64::from(self.score as i16 as u16) << 16
            | u64::from(self.depth) << 32
            | bound << 40
    }

    fn unpack(word: u64) -> Option<Entry> {
        let bound = match (word >> 40) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            mv: word as u16,
            score: i32::from((word >> 16) as u16 as i16),
            depth: (word >> 32) as u8,
            bound,
        })
    }
}

/// The table: per slot the position's key and its packed entry (all zero: empty, so a new
/// table costs nothing until used).
pub struct Table {
    slots: Vec<[u64; 2]>,
    mask: usize,
}

impl Table {
    /// A table of 2^`bits` slots of 16 bytes.
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits;
        Table {
            slots: vec![[0; 2]; size],
            mask: size - 1,
        }
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [stored, word] = self.slots[key as usize & self.mask];
        if stored != key {
            return None;
        }
        Entry::unpack(word)
    }

    pub fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let slot = &mut self.slots[key as usize & self.mask];
        let depth = depth.clamp(0, i32::from(u8::MAX)) as u8;
        let old = Entry::unpack(slot[1]);
        let same = slot[0] == key;
        if !same && old.is_some_and(|old| old.depth > depth.saturating_add(2)) {
            return;
        }
        let mv = match mv {
            Some(mv) => pack(mv),
            // Keep the move an earlier search of this same position found.
            None if same => old.map_or(0, |old| old.mv),
            None => 0,
        };
        let entry = Entry {
            mv,
            score: to_tt(score, ply),
            depth,
            bound,
        };
        *slot = [key, entry.pack()];
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
