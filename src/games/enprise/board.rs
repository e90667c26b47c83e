//! The growing board: cards on a sparse grid, each a vacant square (face-down) or a piece
//! (face-up), and how pieces move and attack over it.

use crate::board::{
    ALL_DIRECTIONS, Cell, DIAGONAL, Grid, KNIGHT, ORTHOGONAL, Offset, Slide, Sq, first_piece,
    leaps, slide,
};
use crate::engine::Seat;
use crate::games::chess::Role;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A face-up card: whose piece and which.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub owner: Seat,
    pub role: Role,
}

/// The cards on the table. A square that exists holds `None` (a vacant square, card face-down)
/// or `Some(piece)`. Squares are never removed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Board {
    #[serde(with = "crate::board::sq_map")]
    squares: BTreeMap<Sq, Option<Piece>>,
}

/// Which pieces stand together: in an alliance, seats 1 and 3 (indices 0 and 2) against 2 and 4.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sides {
    pub alliance: bool,
}

impl Sides {
    pub fn team(self, seat: Seat) -> u8 {
        if self.alliance { seat.0 % 2 } else { seat.0 }
    }

    pub fn opposed(self, a: Seat, b: Seat) -> bool {
        self.team(a) != self.team(b)
    }
}

/// The board seen by the movement core: a piece's side is its team, so allies block each other
/// like own pieces and are never captured.
struct TeamGrid<'a> {
    board: &'a Board,
    sides: Sides,
}

impl Grid for TeamGrid<'_> {
    type Side = u8;
    fn cell(&self, sq: Sq) -> Cell<u8> {
        match self.board.squares.get(&sq) {
            None => Cell::Gap,
            Some(None) => Cell::Empty,
            Some(Some(p)) => Cell::Piece(self.sides.team(p.owner)),
        }
    }
}

/// The two squares a knight passes over on one of its L paths (the corner and the one before).
fn knight_paths(step: Offset) -> [[Sq; 2]; 2] {
    let (dx, dy) = (i16::from(step.dx), i16::from(step.dy));
    let (sx, sy) = (dx.signum(), dy.signum());
    if dx.abs() == 2 {
        // Two along x then one along y, or one along y then two along x.
        [
            [Sq::new(sx, 0), Sq::new(dx, 0)],
            [Sq::new(0, sy), Sq::new(sx, sy)],
        ]
    } else {
        [
            [Sq::new(0, sy), Sq::new(0, dy)],
            [Sq::new(sx, 0), Sq::new(sx, sy)],
        ]
    }
}

impl Board {
    pub fn get(&self, sq: Sq) -> Option<Option<Piece>> {
        self.squares.get(&sq).copied()
    }

    pub fn exists(&self, sq: Sq) -> bool {
        self.squares.contains_key(&sq)
    }

    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    pub fn len(&self) -> usize {
        self.squares.len()
    }

    pub fn set(&mut self, sq: Sq, content: Option<Piece>) {
        self.squares.insert(sq, content);
    }

    /// Takes a square away again: only to undo a trial placement.
    pub(super) fn remove(&mut self, sq: Sq) {
        self.squares.remove(&sq);
    }

    pub fn iter(&self) -> impl Iterator<Item = (Sq, Option<Piece>)> + '_ {
        self.squares.iter().map(|(&sq, &p)| (sq, p))
    }

    pub fn pieces(&self) -> impl Iterator<Item = (Sq, Piece)> + '_ {
        self.squares
            .iter()
            .filter_map(|(&sq, p)| p.map(|p| (sq, p)))
    }

    pub fn vacant(&self) -> impl Iterator<Item = Sq> + '_ {
        self.squares
            .iter()
            .filter(|(_, p)| p.is_none())
            .map(|(&sq, _)| sq)
    }

    pub fn vacant_count(&self) -> usize {
        self.vacant().count()
    }

    pub fn king_of(&self, seat: Seat) -> Option<Sq> {
        self.pieces()
            .find(|(_, p)| p.owner == seat && p.role == Role::King)
            .map(|(sq, _)| sq)
    }

    /// Squares where a new card may go: touching the board by a side or a corner. On an empty
    /// table, only the origin.
    pub fn frontier(&self) -> BTreeSet<Sq> {
        if self.squares.is_empty() {
            return BTreeSet::from([Sq::new(0, 0)]);
        }
        let mut out = BTreeSet::new();
        for &sq in self.squares.keys() {
            for dir in ALL_DIRECTIONS {
                let next = sq.offset(dir);
                if !self.squares.contains_key(&next) {
                    out.insert(next);
                }
            }
        }
        out
    }

    /// True when a knight may go from `from` by `step`: one of its two L paths runs over
    /// squares that exist (whatever stands on them).
    pub(super) fn knight_path_exists(&self, from: Sq, step: Offset) -> bool {
        knight_paths(step).iter().any(|path| {
            path.iter()
                .all(|d| self.exists(Sq::new(from.x + d.x, from.y + d.y)))
        })
    }

    /// Squares the piece on `from` may move to (own-king safety not checked). Pawns never
    /// move; kings are never captured.
    pub fn targets(&self, from: Sq, sides: Sides) -> Vec<Sq> {
        let Some(Some(piece)) = self.get(from) else {
            return vec![];
        };
        let grid = TeamGrid { board: self, sides };
        let team = sides.team(piece.owner);
        let mut out = Vec::new();
        let mut emit = |t: crate::board::Target| {
            let is_king = matches!(self.get(t.sq), Some(Some(p)) if p.role == Role::King);
            if !is_king {
                out.push(t.sq);
            }
        };
        match piece.role {
            Role::Pawn => {}
            Role::King => slide(&grid, from, team, &ALL_DIRECTIONS, Slide::STEP, &mut emit),
            Role::Queen => slide(&grid, from, team, &ALL_DIRECTIONS, Slide::CHESS, &mut emit),
            Role::Rook => slide(&grid, from, team, &ORTHOGONAL, Slide::CHESS, &mut emit),
            Role::Bishop => slide(&grid, from, team, &DIAGONAL, Slide::CHESS, &mut emit),
            Role::Knight => {
                for step in KNIGHT {
                    if self.knight_path_exists(from, step) {
                        leaps(&grid, from, team, &[step], true, &mut emit);
                    }
                }
            }
        }
        out
    }

    /// True when the piece `piece` standing on `at` attacks `target` (pawns attack nothing).
    pub fn piece_attacks(&self, at: Sq, piece: Piece, target: Sq) -> bool {
        let (dx, dy) = (target.x - at.x, target.y - at.y);
        if dx == 0 && dy == 0 {
            return false;
        }
        let straight = dx == 0 || dy == 0;
        let diagonal = dx.abs() == dy.abs();
        let line = |max: Option<u16>| {
            let dir = Offset {
                dx: dx.signum() as i8,
                dy: dy.signum() as i8,
            };
            let grid = TeamGrid {
                board: self,
                sides: Sides { alliance: false },
            };
            // Walk from the target back towards the piece: the piece must be the first met.
            let back = Offset {
                dx: -dir.dx,
                dy: -dir.dy,
            };
            first_piece(&grid, target, back, max).is_some_and(|(sq, _)| sq == at)
        };
        match piece.role {
            Role::Pawn => false,
            Role::King => dx.abs() <= 1 && dy.abs() <= 1,
            Role::Queen => (straight || diagonal) && line(None),
            Role::Rook => straight && line(None),
            Role::Bishop => diagonal && line(None),
            Role::Knight => {
                let step = KNIGHT
                    .into_iter()
                    .find(|s| i16::from(s.dx) == dx && i16::from(s.dy) == dy);
                step.is_some_and(|s| self.knight_path_exists(at, s))
            }
        }
    }

    /// True when some piece opposed to `seat` attacks `sq` (the square need not hold anything).
    pub fn attacked(&self, sq: Sq, seat: Seat, sides: Sides) -> bool {
        self.attacked_by(sq, sides, |owner| sides.opposed(owner, seat))
    }

    /// True when a piece whose owner passes `by` attacks `sq`.
    pub fn attacked_by(&self, sq: Sq, sides: Sides, by: impl Fn(Seat) -> bool) -> bool {
        self.attacker(sq, sides, by).is_some()
    }

    /// A piece whose owner passes `by` and that attacks `sq`, with its square (the first found:
    /// along the lines, then by a knight's leap).
    pub fn attacker(&self, sq: Sq, sides: Sides, by: impl Fn(Seat) -> bool) -> Option<(Sq, Piece)> {
        let grid = TeamGrid { board: self, sides };
        for dir in ALL_DIRECTIONS {
            let diagonal = dir.dx != 0 && dir.dy != 0;
            if let Some((at, _)) = first_piece(&grid, sq, dir, None) {
                let Some(Some(p)) = self.get(at) else {
                    continue;
                };
                if !by(p.owner) {
                    continue;
                }
                let near = at.king_distance(sq) == 1;
                let hits = match p.role {
                    Role::Queen => true,
                    Role::Rook => !diagonal,
                    Role::Bishop => diagonal,
                    Role::King => near,
                    Role::Knight | Role::Pawn => false,
                };
                if hits {
                    return Some((at, p));
                }
            }
        }
        KNIGHT.into_iter().find_map(|step| {
            let from = sq.offset(step);
            match self.get(from) {
                Some(Some(p))
                    if p.role == Role::Knight
                        && by(p.owner)
                        && self.knight_path_exists(
                            from,
                            Offset {
                                dx: -step.dx,
                                dy: -step.dy,
                            },
                        ) =>
                {
                    Some((from, p))
                }
                _ => None,
            }
        })
    }

    /// True when `seat`'s king stands on the board and is attacked.
    pub fn in_check(&self, seat: Seat, sides: Sides) -> bool {
        self.king_of(seat)
            .is_some_and(|k| self.attacked(k, seat, sides))
    }

    /// Turns every piece of `seat` face-down; returns them as they stood.
    pub fn clear(&mut self, seat: Seat) -> Vec<(Sq, Piece)> {
        let mut cleared = Vec::new();
        for (&sq, content) in self.squares.iter_mut() {
            if let Some(p) = content.filter(|p| p.owner == seat) {
                cleared.push((sq, p));
                *content = None;
            }
        }
        cleared
    }

    /// The smallest and largest x and y of the squares, or None on an empty table.
    pub fn bounds(&self) -> Option<(Sq, Sq)> {
        let mut it = self.squares.keys();
        let first = *it.next()?;
        let (mut lo, mut hi) = (first, first);
        for sq in it {
            lo = Sq::new(lo.x.min(sq.x), lo.y.min(sq.y));
            hi = Sq::new(hi.x.max(sq.x), hi.y.max(sq.y));
        }
        Some((lo, hi))
    }
}
