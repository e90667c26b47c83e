//! Squares on a sparse grid and chess-style movement over it.
//!
//! A [`Grid`] answers one question, what is at a square: nothing (a gap: no square there, a tree,
//! the edge of the board), an empty square, or a piece of some side. Movement is described as
//! data: [`Slide`] rules along direction sets and [`leaps`] by offsets. The same functions serve
//! chess on its 8x8 board, En Prise on a board that grows from cards in any direction, Echek with
//! no board at all, and Snipe Chess's forest with trees.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A square. Coordinates may be negative: boards may grow in any direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Sq {
    pub x: i16,
    pub y: i16,
}

impl Sq {
    pub const fn new(x: i16, y: i16) -> Self {
        Sq { x, y }
    }

    pub const fn offset(self, by: Offset) -> Self {
        Sq {
            x: self.x + by.dx as i16,
            y: self.y + by.dy as i16,
        }
    }

    /// Chebyshev distance: king steps between two squares.
    pub fn king_distance(self, other: Sq) -> u16 {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }

    /// True when the squares share a side or a corner.
    pub fn touches(self, other: Sq) -> bool {
        self != other && self.king_distance(other) == 1
    }
}

impl Sq {
    /// The square as `x,y` (`-2,1`), the notation of boards that grow in any direction.
    pub fn xy(self) -> String {
        format!("{},{}", self.x, self.y)
    }

    /// Reads `x,y` (each an optional minus and up to four digits) at the start of `text`;
    /// returns the square and the rest.
    pub fn parse_xy(text: &str) -> Option<(Sq, &str)> {
        fn number(s: &str) -> Option<(i16, &str)> {
            let (neg, body) = match s.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, s),
            };
            let end = body
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(body.len());
            if end == 0 || end > 4 {
                return None;
            }
            let n: i16 = body[..end].parse().ok()?;
            Some((if neg { -n } else { n }, &body[end..]))
        }
        let (x, rest) = number(text)?;
        let rest = rest.strip_prefix(',')?;
        let (y, rest) = number(rest)?;
        Some((Sq::new(x, y), rest))
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// Serde for maps keyed by square: JSON keys must be strings, so the map is written as a list
/// of (square, value) pairs. Use with `#[serde(with = "crate::board::sq_map")]`.
pub mod sq_map {
    use super::Sq;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::BTreeMap;

    pub fn serialize<T: Serialize, S: Serializer>(
        map: &BTreeMap<Sq, T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(map.iter())
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<Sq, T>, D::Error> {
        let list: Vec<(Sq, T)> = Vec::deserialize(d)?;
        Ok(list.into_iter().collect())
    }
}

/// A step between squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Offset {
    pub dx: i8,
    pub dy: i8,
}

const fn o(dx: i8, dy: i8) -> Offset {
    Offset { dx, dy }
}

/// Rook directions.
pub const ORTHOGONAL: [Offset; 4] = [o(1, 0), o(-1, 0), o(0, 1), o(0, -1)];
/// Bishop directions.
pub const DIAGONAL: [Offset; 4] = [o(1, 1), o(1, -1), o(-1, 1), o(-1, -1)];
/// Queen and king directions.
pub const ALL_DIRECTIONS: [Offset; 8] = [
    o(1, 0),
    o(-1, 0),
    o(0, 1),
    o(0, -1),
    o(1, 1),
    o(1, -1),
    o(-1, 1),
    o(-1, -1),
];
/// Knight leaps.
pub const KNIGHT: [Offset; 8] = [
    o(1, 2),
    o(2, 1),
    o(2, -1),
    o(1, -2),
    o(-1, -2),
    o(-2, -1),
    o(-2, 1),
    o(-1, 2),
];

/// What stands at a square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cell<S> {
    /// No square: off the board, a hole, a tree. Nothing moves onto or through it.
    Gap,
    Empty,
    Piece(S),
}

/// Anything pieces move over. `Side` says whose a piece is.
pub trait Grid {
    type Side: Copy + Eq;
    fn cell(&self, sq: Sq) -> Cell<Self::Side>;
}

/// How a sliding piece moves along one direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slide {
    /// At most this many steps (None: until something stops it).
    pub max_steps: Option<u16>,
    /// May slide over pieces of its own side (without stopping on them).
    pub pass_own: bool,
    /// May end on an opposing piece, capturing it. The slide ends there either way.
    pub capture: bool,
}

impl Slide {
    /// Chess sliders: any distance, blocked by every piece, capturing the first opposing one.
    pub const CHESS: Slide = Slide {
        max_steps: None,
        pass_own: false,
        capture: true,
    };
    /// A chess king's step or a single step in general.
    pub const STEP: Slide = Slide {
        max_steps: Some(1),
        pass_own: false,
        capture: true,
    };
}

/// A square a piece may reach, and whether it captures there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub sq: Sq,
    pub captures: bool,
}

/// Calls `emit` for every square reachable from `from` by sliding along each of `dirs`.
///
/// A slide stops before a gap, before an own piece unless `pass_own`, and at the first opposing
/// piece (which is a target only if `capture`). On a grid with no gaps a slide needs
/// `max_steps`, or it would never end.
pub fn slide<G: Grid>(
    grid: &G,
    from: Sq,
    side: G::Side,
    dirs: &[Offset],
    rule: Slide,
    mut emit: impl FnMut(Target),
) {
    for &dir in dirs {
        let mut sq = from;
        let mut steps = 0u16;
        while rule.max_steps.is_none_or(|max| steps < max) {
            sq = sq.offset(dir);
            steps += 1;
            match grid.cell(sq) {
                Cell::Gap => break,
                Cell::Empty => emit(Target {
                    sq,
                    captures: false,
                }),
                Cell::Piece(owner) if owner == side => {
                    if !rule.pass_own {
                        break;
                    }
                }
                Cell::Piece(_) => {
                    if rule.capture {
                        emit(Target { sq, captures: true });
                    }
                    break;
                }
            }
        }
    }
}

/// Calls `emit` for every landing square of a leap by one of `offsets`: any square that exists
/// and is empty, or holds an opposing piece when `capture`.
pub fn leaps<G: Grid>(
    grid: &G,
    from: Sq,
    side: G::Side,
    offsets: &[Offset],
    capture: bool,
    mut emit: impl FnMut(Target),
) {
    for &step in offsets {
        let sq = from.offset(step);
        match grid.cell(sq) {
            Cell::Empty => emit(Target {
                sq,
                captures: false,
            }),
            Cell::Piece(owner) if capture && owner != side => emit(Target { sq, captures: true }),
            Cell::Gap | Cell::Piece(_) => {}
        }
    }
}

/// The first piece met looking from `from` along `dir` (not counting `from`), within
/// `max_steps`; None if a gap or the step limit comes first. Used for attack detection: a rook
/// on that line sees `from` exactly when it is the first piece met.
pub fn first_piece<G: Grid>(
    grid: &G,
    from: Sq,
    dir: Offset,
    max_steps: Option<u16>,
) -> Option<(Sq, G::Side)> {
    let mut sq = from;
    let mut steps = 0u16;
    while max_steps.is_none_or(|max| steps < max) {
        sq = sq.offset(dir);
        steps += 1;
        match grid.cell(sq) {
            Cell::Gap => return None,
            Cell::Empty => {}
            Cell::Piece(side) => return Some((sq, side)),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A sparse grid: only listed squares exist.
    struct Sparse {
        squares: BTreeMap<Sq, Option<u8>>,
    }

    impl Sparse {
        /// Rows top to bottom; '.' empty, ' ' gap, digits are pieces of that side.
        fn parse(rows: &[&str]) -> Self {
            let mut squares = BTreeMap::new();
            let height = rows.len() as i16;
            for (r, row) in rows.iter().enumerate() {
                for (x, ch) in row.chars().enumerate() {
                    let sq = Sq::new(x as i16, height - 1 - r as i16);
                    match ch {
                        '.' => {
                            squares.insert(sq, None);
                        }
                        ' ' => {}
                        d => {
                            squares.insert(sq, Some(d.to_digit(10).unwrap() as u8));
                        }
                    }
                }
            }
            Sparse { squares }
        }
    }

    impl Grid for Sparse {
        type Side = u8;
        fn cell(&self, sq: Sq) -> Cell<u8> {
            match self.squares.get(&sq) {
                None => Cell::Gap,
                Some(None) => Cell::Empty,
                Some(Some(side)) => Cell::Piece(*side),
            }
        }
    }

    fn collect(f: impl FnOnce(&mut dyn FnMut(Target))) -> Vec<(i16, i16, bool)> {
        let mut out = vec![];
        f(&mut |t: Target| out.push((t.sq.x, t.sq.y, t.captures)));
        out.sort();
        out
    }

    #[test]
    fn slides_stop_at_gaps_own_pieces_and_capture_the_first_enemy() {
        // y=0 row: x=0 mover, gap at x=3
        let grid = Sparse::parse(&["..1..", "0.. .2.."]);
        let from = Sq::new(0, 0);
        let east = collect(|e| slide(&grid, from, 0, &[o(1, 0)], Slide::CHESS, e));
        assert_eq!(
            east,
            vec![(1, 0, false), (2, 0, false)],
            "stops before the gap"
        );
        let diag = collect(|e| slide(&grid, from, 0, &[o(1, 1)], Slide::CHESS, e));
        assert_eq!(
            diag,
            vec![(1, 1, false)],
            "the grid ends after one diagonal step"
        );
        let north = collect(|e| slide(&grid, Sq::new(2, 0), 0, &[o(0, 1)], Slide::CHESS, e));
        assert_eq!(
            north,
            vec![(2, 1, true)],
            "captures the first opposing piece"
        );
        let quiet = Slide {
            capture: false,
            ..Slide::CHESS
        };
        let north = collect(|e| slide(&grid, Sq::new(2, 0), 0, &[o(0, 1)], quiet, e));
        assert!(north.is_empty(), "no capture when captures are off");
    }

    #[test]
    fn passing_own_pieces_is_a_switch() {
        let grid = Sparse::parse(&["0.0.1.."]);
        let pass = Slide {
            max_steps: None,
            pass_own: true,
            capture: false,
        };
        let east = collect(|e| slide(&grid, Sq::new(0, 0), 0, &[o(1, 0)], pass, e));
        assert_eq!(
            east,
            vec![(1, 0, false), (3, 0, false)],
            "over own, never over enemy"
        );
        let east = collect(|e| slide(&grid, Sq::new(0, 0), 0, &[o(1, 0)], Slide::CHESS, e));
        assert_eq!(east, vec![(1, 0, false)]);
    }

    #[test]
    fn step_limits_and_unbounded_grids() {
        struct Open;
        impl Grid for Open {
            type Side = u8;
            fn cell(&self, _: Sq) -> Cell<u8> {
                Cell::Empty
            }
        }
        let rule = Slide {
            max_steps: Some(3),
            ..Slide::CHESS
        };
        let all = collect(|e| slide(&Open, Sq::new(-5, -5), 0, &ALL_DIRECTIONS, rule, e));
        assert_eq!(all.len(), 24);
        assert!(all.contains(&(-8, -8, false)));
        assert_eq!(first_piece(&Open, Sq::new(0, 0), o(1, 0), Some(10)), None);
    }

    #[test]
    fn leaps_jump_over_anything_but_need_a_landing_square() {
        let grid = Sparse::parse(&[" .1", "000", "0.."]);
        let targets = collect(|e| leaps(&grid, Sq::new(0, 0), 0, &KNIGHT, true, e));
        assert_eq!(
            targets,
            vec![(1, 2, false)],
            "jumps own pieces, never lands on one"
        );
        let from_top = collect(|e| leaps(&grid, Sq::new(2, 2), 1, &KNIGHT, true, e));
        assert_eq!(from_top, vec![(0, 1, true), (1, 0, false)]);
        let grid = Sparse::parse(&[".1.", "...", "0.."]);
        let capture = collect(|e| leaps(&grid, Sq::new(0, 0), 0, &KNIGHT, true, e));
        assert_eq!(capture, vec![(1, 2, true), (2, 1, false)]);
        let quiet = collect(|e| leaps(&grid, Sq::new(0, 0), 0, &KNIGHT, false, e));
        assert_eq!(quiet, vec![(2, 1, false)]);
    }

    #[test]
    fn first_piece_sees_along_a_line_until_a_gap() {
        let grid = Sparse::parse(&["0..1 1"]);
        assert_eq!(grid.cell(Sq::new(3, 0)), Cell::Piece(1));
        assert_eq!(
            first_piece(&grid, Sq::new(0, 0), o(1, 0), None),
            Some((Sq::new(3, 0), 1))
        );
        assert_eq!(first_piece(&grid, Sq::new(0, 0), o(1, 0), Some(2)), None);
        assert_eq!(first_piece(&grid, Sq::new(3, 0), o(1, 0), None), None);
    }
}
