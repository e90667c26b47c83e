//! The searcher: negamax alpha-beta with a principal-variation window, a transposition table,
//! null-move pruning (verified, so zugzwang positions are not misjudged), late-move reductions,
//! check extension and a quiescence search over captures and promotions. Moves are tried in
//! the order: the table's move, captures by most valuable victim and least valuable attacker,
//! queen promotions, two killer moves per ply, then quiet moves by their history of cut-offs.

use super::eval::{evaluate, value};
use super::tt::{Bound, Table};
use super::{MATE, MATE_BOUND, Move, Position, Role};

/// The deepest the search goes below the root, extensions included.
pub const MAX_PLY: usize = 128;

/// How often (in nodes) the search asks whether to stop.
const POLL: u64 = 1024;

pub struct Searcher<'a> {
    pub tt: Table,
    /// Repetition keys: the game's history, then one per ply of the line being searched.
    keys: Vec<u64>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// Cut-offs by quiet moves, by from and to square.
    history: Vec<[i32; 64]>,
    pub nodes: u64,
    node_limit: u64,
    stop: &'a dyn Fn() -> bool,
    /// Whether the stop or the node limit may end the search (never during depth 1).
    pub may_stop: bool,
    pub stopped: bool,
    /// The best move at the root in the current iteration.
    pub root_best: Option<Move>,
}

/// A move with its ordering score.
struct Scored {
    mv: Move,
    order: i32,
}

impl<'a> Searcher<'a> {
    pub fn new(history: &[u64], tt_bits: u32, node_limit: u64, stop: &'a dyn Fn() -> bool) -> Self {
        Searcher {
            tt: Table::new(tt_bits),
            keys: history.to_vec(),
            killers: [[None; 2]; MAX_PLY],
            history: vec![[0; 64]; 64],
            nodes: 0,
            node_limit,
            stop,
            may_stop: false,
            stopped: false,
            root_best: None,
        }
    }

    pub fn push_key(&mut self, key: u64) {
        self.keys.push(key);
    }

    pub fn pop_key(&mut self) {
        self.keys.pop();
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if self.may_stop
            && self.nodes.is_multiple_of(POLL)
            && (self.nodes >= self.node_limit || (self.stop)())
        {
            self.stopped = true;
        }
    }

    /// Whether `key`, the position at the top of the key stack, already occurred since the
    /// last irreversible move (`halfmoves` plies back at most): a repetition scores as a draw.
    fn repeated(&self, key: u64, halfmoves: u32) -> bool {
        let len = self.keys.len();
        let reach = (halfmoves as usize).min(len.saturating_sub(1));
        (2..=reach)
            .step_by(2)
            .any(|back| self.keys[len - 1 - back] == key)
    }

    /// The score of `pos` (its key `key`, already on the key stack) searched `depth` plies deep
    /// within the window (`alpha`, `beta`), `ply` plies below the root. `null_ok`: whether a
    /// null move may be tried here.
    #[allow(clippy::too_many_arguments)]
    pub fn negamax(
        &mut self,
        pos: &Position,
        key: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        let root = ply == 0;
        if !root {
            if pos.halfmoves() >= 100 {
                let mated = pos.in_check() && !pos.has_legal_move();
                return if mated { -(MATE - ply as i32) } else { 0 };
            }
            if self.repeated(key, pos.halfmoves()) || pos.insufficient_material() {
                return 0;
            }
            // No line from here can beat a mate already found nearer the root.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = pos.in_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let pv_node = beta - alpha > 1;
        let entry = self.tt.probe(key);
        if let Some(entry) = entry
            && !root
            && !pv_node
            && entry.depth() >= depth
        {
            let score = entry.score(ply);
            let cut = match entry.bound() {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        if null_ok
            && !root
            && !in_check
            && !pv_node
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && has_pieces(pos)
            && evaluate(pos) >= beta
        {
            let reduction = 2 + depth / 6;
            let (passed, passed_key) = pos.pass(key);
            self.keys.push(passed_key);
            let score = -self.negamax(
                &passed,
                passed_key,
                depth - 1 - reduction,
                -beta,
                -beta + 1,
                ply + 1,
                false,
            );
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score >= beta {
                // Verify with a shallower real search: passing is not always the worst one
                // can do (zugzwang), and mate problems are full of it.
                let verified =
                    self.negamax(pos, key, depth - reduction, beta - 1, beta, ply, false);
                if self.stopped {
                    return 0;
                }
                if verified >= beta {
                    return verified;
                }
            }
        }

        let original_alpha = alpha;
        let tt_move = entry.and_then(|e| e.best());
        let mut moves = self.ordered_moves(pos, tt_move, ply, false);
        let mut best = -MATE;
        let mut best_move = None;
        let mut legal = 0;
        let us = pos.turn();
        for i in 0..moves.len() {
            let mv = pick(&mut moves, i);
            let next = pos.play_unchecked(mv);
            if next.attacked_by(next.king(us), next.turn()) {
                continue;
            }
            legal += 1;
            let next_key = pos.key_after(key, mv, &next);
            let quiet = mv.promotion.is_none() && !pos.is_capture(mv);
            self.keys.push(next_key);
            let score = if legal == 1 {
                -self.negamax(&next, next_key, depth - 1, -beta, -alpha, ply + 1, true)
            } else {
                let reduction = if depth >= 3
                    && legal > 3
                    && quiet
                    && !in_check
                    && !self.killers[ply].contains(&Some(mv))
                    && !next.in_check()
                {
                    if legal > 10 && depth >= 6 { 2 } else { 1 }
                } else {
                    0
                };
                let mut score = -self.negamax(
                    &next,
                    next_key,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.negamax(
                        &next,
                        next_key,
                        depth - 1,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        true,
                    );
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&next, next_key, depth - 1, -beta, -alpha, ply + 1, true);
                }
                score
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if root {
                    self.root_best = Some(mv);
                }
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if quiet {
                            self.remember_cutoff(mv, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        if legal == 0 {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, best, depth, bound, ply);
        best
    }

    /// Searches captures and promotions only (every move when in check) until the position is
    /// quiet, so that the evaluation never judges a position in the middle of an exchange.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let in_check = pos.in_check();
        let stand = if in_check { -MATE } else { evaluate(pos) };
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut moves = self.ordered_moves(pos, None, ply, !in_check);
        let us = pos.turn();
        let mut legal = 0;
        for i in 0..moves.len() {
            let mv = pick(&mut moves, i);
            let next = pos.play_unchecked(mv);
            if next.attacked_by(next.king(us), next.turn()) {
                continue;
            }
            legal += 1;
            if !in_check && mv.promotion.is_none() {
                // Delta pruning: even winning this piece for nothing would not reach alpha.
                let gain = pos
                    .piece_at(mv.to)
                    .map_or(value(Role::Pawn), |p| value(p.role));
                if stand + gain + 200 <= alpha {
                    continue;
                }
            }
            let score = -self.quiesce(&next, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return -(MATE - ply as i32);
        }
        best
    }

    /// The pseudo-legal moves of `pos` with their ordering scores (only captures and
    /// promotions to a queen when `noisy_only`).
    fn ordered_moves(
        &self,
        pos: &Position,
        tt_move: Option<Move>,
        ply: usize,
        noisy_only: bool,
    ) -> Vec<Scored> {
        let mut all = Vec::with_capacity(48);
        pos.pseudo_moves(&mut all);
        let killers = self.killers.get(ply).copied().unwrap_or_default();
        all.into_iter()
            .filter_map(|mv| {
                let victim = pos.captured_square(mv).and_then(|sq| pos.piece_at(sq));
                if noisy_only && victim.is_none() && mv.promotion != Some(Role::Queen) {
                    return None;
                }
                let attacker = pos.piece_at(mv.from).map_or(0, |p| value(p.role));
                let order = if Some(mv) == tt_move {
                    1_000_000
                } else if let Some(victim) = victim {
                    100_000 + value(victim.role) * 10 - attacker / 10
                        + mv.promotion.map_or(0, value)
                } else if let Some(role) = mv.promotion {
                    if role == Role::Queen { 90_000 } else { -10_000 }
                } else if killers[0] == Some(mv) {
                    80_000
                } else if killers[1] == Some(mv) {
                    79_000
                } else {
                    self.history[mv.from.index()][mv.to.index()]
                };
                Some(Scored { mv, order })
            })
            .collect()
    }

    fn remember_cutoff(&mut self, mv: Move, depth: i32, ply: usize) {
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(mv)
        {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = &mut self.history[mv.from.index()][mv.to.index()];
        *slot = (*slot + depth * depth).min(50_000);
    }

    /// Makes the next iteration prefer the moves that cut off in this one, but less.
    pub fn age_history(&mut self) {
        for row in &mut self.history {
            for cell in row.iter_mut() {
                *cell /= 2;
            }
        }
    }
}

/// Moves the best-ordered of `moves[i..]` to `i` and returns it (a selection sort done lazily:
/// after a cut-off the rest is never sorted).
fn pick(moves: &mut [Scored], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].order > moves[best].order {
            best = j;
        }
    }
    moves.swap(i, best);
    moves[i].mv
}

/// Whether the side to move has a piece besides pawns and the king (without one, passing may
/// well be better than any move, and null-move pruning is not tried).
fn has_pieces(pos: &Position) -> bool {
    pos.pieces()
        .any(|(_, p)| p.color == pos.turn() && !matches!(p.role, Role::Pawn | Role::King))
}
