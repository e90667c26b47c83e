//! A chess engine for the computer player: iterative deepening over an alpha-beta search
//! (`alphabeta`) with a transposition table (`tt`) and a static evaluation (`eval`), and the
//! three levels of play built on it ([`choose`]).
//!
//! Pure: no clock, no IO, no threads. Time enters only through the `stop` callback, asked every
//! 1024 nodes, so the same position and limits give the same move unless `stop` fires.

mod alphabeta;
mod eval;
mod tt;

pub use eval::evaluate;

use super::{Color, Move, Position, Role, Square};
use crate::engine::{GameRng, Level};
use alphabeta::{MAX_PLY, Searcher};

/// The score of being mated now; a mate `n` plies from the root scores `MATE - n`.
const MATE: i32 = 30_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// No window is wider than this.
const INFINITY: i32 = MATE + 1;

/// The deepest iteration the search starts.
pub const MAX_DEPTH: u32 = 64;

/// Where a search stops besides its `stop` callback: None is unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The last iteration's depth in plies (at most [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (depth 1 always completes).
    pub nodes: Option<u64>,
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Hundredths of a pawn.
    Centipawns(i32),
    /// Mate in this many moves; negative when the side to move is the one mated.
    Mate(i32),
}

impl Score {
    fn from_internal(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score < -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Centipawns(score)
        }
    }
}

/// What a completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub best: Move,
    pub score: Score,
    /// The iteration's depth in plies.
    pub depth: u32,
    /// Nodes searched so far, all iterations together.
    pub nodes: u64,
    /// The principal variation, `best` first.
    pub pv: Vec<Move>,
}

/// The transposition table of a full search: 2^20 slots (16 MB).
const TT_BITS: u32 = 20;

/// Searches `pos` (its repetition `history`, current last) until `limits` or `stop`; calls
/// `info` after each completed depth. None only when there is no legal move.
pub fn search(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    stop: &dyn Fn() -> bool,
    info: &mut dyn FnMut(&Report),
) -> Option<Report> {
    search_with_table(pos, history, limits, TT_BITS, stop, info)
}

fn search_with_table(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    tt_bits: u32,
    stop: &dyn Fn() -> bool,
    info: &mut dyn FnMut(&Report),
) -> Option<Report> {
    let legal = pos.legal_moves();
    let first = *legal.first()?;
    let key = pos.repetition_key();
    let mut searcher = Searcher::new(history, tt_bits, limits.nodes.unwrap_or(u64::MAX), stop);
    if history.last() != Some(&key) {
        searcher.push_key(key);
    }
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut last: Option<Report> = None;
    for depth in 1..=max_depth {
        searcher.may_stop = depth > 1;
        searcher.root_best = None;
        let score = searcher.negamax(pos, key, depth as i32, -INFINITY, INFINITY, 0, false);
        if searcher.stopped {
            break;
        }
        let best = searcher.root_best.unwrap_or(first);
        let report = Report {
            best,
            score: Score::from_internal(score),
            depth,
            nodes: searcher.nodes,
            pv: principal_variation(pos, key, best, &searcher, depth),
        };
        info(&report);
        let mate_found =
            matches!(report.score, Score::Mate(n) if n > 0 && (2 * n - 1) as u32 <= depth);
        last = Some(report);
        if mate_found || searcher.nodes >= limits.nodes.unwrap_or(u64::MAX) || stop() {
            break;
        }
        searcher.age_history();
    }
    last
}

/// The line the search expects: `best`, then the table's best move in each following
/// position while it is legal, at most `depth` moves and never through a repeated position.
fn principal_variation(
    pos: &Position,
    key: u64,
    best: Move,
    searcher: &Searcher,
    depth: u32,
) -> Vec<Move> {
    let mut pv = vec![best];
    let mut seen = vec![key];
    let mut pos = *pos;
    let mut key = key;
    let mut mv = best;
    loop {
        let next = pos.play_unchecked(mv);
        key = pos.key_after(key, mv, &next);
        pos = next;
        if seen.contains(&key) || pv.len() >= depth as usize {
            break;
        }
        seen.push(key);
        match searcher.tt.probe(key).and_then(|e| e.best()) {
            Some(next_mv) if pos.is_legal(next_mv) => {
                pv.push(next_mv);
                mv = next_mv;
            }
            _ => break,
        }
    }
    pv
}

/// The most nodes a `hard` search takes when nobody stops it (about two seconds of a fast
/// machine; the callers' clock usually stops it first).
pub const HARD_NODES: u64 = 3_000_000;
/// `medium` searches four plies (and quiescence) with at most this many nodes.
pub const MEDIUM_DEPTH: u32 = 4;
pub const MEDIUM_NODES: u64 = 400_000;
/// `easy` looks two plies deep (and quiescence), then picks at random among the moves within
/// [`EASY_MARGIN`] centipawns of its best, and one time in [`EASY_BLUNDER`] any legal move.
pub const EASY_MARGIN: i32 = 150;
pub const EASY_BLUNDER: usize = 8;

/// The move the computer plays at `level` in `pos` (repetition `history`, current last),
/// from `seed`: `hard` searches until `stop` (or [`HARD_NODES`]), `medium` a few plies, `easy`
/// two plies with deliberate noise. None when there is no legal move. The same arguments give
/// the same move unless `stop` fires.
pub fn choose(
    pos: &Position,
    history: &[u64],
    level: Level,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<Move> {
    let mut quiet = |_: &Report| {};
    match level {
        Level::Hard => {
            let limits = Limits {
                depth: Some(MAX_DEPTH),
                nodes: Some(HARD_NODES),
            };
            search(pos, history, &limits, stop, &mut quiet).map(|r| r.best)
        }
        Level::Medium => {
            let limits = Limits {
                depth: Some(MEDIUM_DEPTH),
                nodes: Some(MEDIUM_NODES),
            };
            search_with_table(pos, history, &limits, 16, stop, &mut quiet).map(|r| r.best)
        }
        Level::Easy => easy_move(pos, history, seed, stop),
    }
}

/// `easy`: every legal move scored two plies deep, then a random one among the nearly best
/// (and, now and then, any move at all).
fn easy_move(pos: &Position, history: &[u64], seed: u64, stop: &dyn Fn() -> bool) -> Option<Move> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let mut rng = GameRng::from_seed(seed);
    if rng.below(EASY_BLUNDER) == 0 {
        return Some(legal[rng.below(legal.len())]);
    }
    let scores = root_scores(pos, history, 2, stop);
    let best = scores.iter().map(|&(_, s)| s).max()?;
    let near: Vec<Move> = scores
        .iter()
        .filter(|&&(_, s)| s >= best - EASY_MARGIN || (best > MATE_BOUND && s == best))
        .map(|&(mv, _)| mv)
        .collect();
    near.get(rng.below(near.len().max(1))).copied()
}

/// Every legal move of `pos` with its score searched `depth` plies deep (the move included),
/// with a full window, in the order the moves are generated.
fn root_scores(
    pos: &Position,
    history: &[u64],
    depth: i32,
    stop: &dyn Fn() -> bool,
) -> Vec<(Move, i32)> {
    let key = pos.repetition_key();
    let mut searcher = Searcher::new(history, 12, u64::MAX, stop);
    if history.last() != Some(&key) {
        searcher.push_key(key);
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let next = pos.play_unchecked(mv);
            let next_key = pos.key_after(key, mv, &next);
            searcher.push_key(next_key);
            let score = -searcher.negamax(&next, next_key, depth - 1, -INFINITY, INFINITY, 1, true);
            searcher.pop_key();
            (mv, score)
        })
        .collect()
}

#[cfg(test)]
mod tests;
