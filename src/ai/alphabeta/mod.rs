//! Negamax alpha-beta search, written once against the game contract for two-seat games of
//! perfect information with no chance in their rules (chess, Enthralling Chess, tic-tac-toe). A
//! game opts in from its [`Game::own_search`] with its own [`Limits`] per level.
//!
//! - **Iterative deepening**: depth 1, 2, 3... up to [`Limits::depth`]; the best action of the
//!   last completed depth is played. Depth 1 always completes; after it the caller's `stop`
//!   (its clock) is polled every few hundred nodes, and [`Limits::nodes`] caps the work, so a
//!   search without a clock still ends and gives the same answer for the same seed.
//! - **Transposition table** keyed by [`Game::search_key`] (none when the game gives no key):
//!   scores with their bound and the best action, tried first when the state comes back.
//! - **Quiescence**: past the depth, only [`Game::is_noisy`] actions (captures) are followed,
//!   at most [`Limits::quiescence`] plies, and the seat to act may stand on the evaluation.
//! - **Principal variation search**: after the first action that reaches alpha, the others
//!   are tried with a null window and searched again only when they beat it.
//! - **Move ordering**: the table's action, then noisy actions, then the two killer actions of
//!   the ply (quiet actions that cut off a sibling), each group by [`Game::order_hint`].
//! - **Scores** are for the seat to act, in centipawn-like units: a leaf's
//!   [`Game::evaluate`] chance `p` becomes `400·log10(p / (1 − p))` (chess's material chance
//!   `1 / (1 + 10^(−pawns / 4))` gives back its centipawns exactly; no evaluation is 0). An
//!   ending scores [`WIN`] less the plies to reach it for the winner (so the nearest win and
//!   the farthest loss are preferred), its negation for the loser and 0 for a draw, by the
//!   seat's reward ([`super::rewards`]).
//! - **Seed**: the root's actions are shuffled by it before ordering, so ties go to a seeded
//!   choice; with [`Limits::noise`] every root action also gets a seeded bonus of up to that
//!   many points either way (a weaker level's deliberate mistakes), and the root is searched
//!   with a full window so every action's score is exact.
//!
//! The search applies actions with [`Game::apply_searched`] (by default [`Game::apply`]) on a
//! clone per node. The table ignores how a
//! state was reached, so a repetition rule can be misjudged through it (a known limit of
//! transposition tables); the game's own `to_act` still ends the game on a repetition it sees.

use super::rewards;
use crate::engine::{Game, GameRng, Outcome, Seat, ToAct};
use std::cmp::Reverse;

/// The score of winning at once; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Deeper than any search goes; scores beyond `WIN - 2 * MAX_PLY` are wins or losses.
const MAX_PLY: i32 = 1_000;
const DECIDED: i32 = WIN - 2 * MAX_PLY;
const INFINITY: i32 = 2 * WIN;
/// How many nodes pass between two looks at the caller's clock.
const POLL: u64 = 256;

/// How far and how long a search may go, and how weakly it chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies (actions); at least 1.
    pub depth: u32,
    /// Nodes after which an iteration past the first is abandoned.
    pub nodes: u64,
    /// How many plies of noisy actions are followed past the depth.
    pub quiescence: u32,
    /// Up to how many points, either way, are added to each root action's score (0: none).
    pub noise: i32,
    /// The transposition table holds `2^table_bits` entries.
    pub table_bits: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: 64,
            nodes: 1_000_000,
            quiescence: 4,
            noise: 0,
            table_bits: 16,
        }
    }
}

/// What the search chose: the action, its score for the seat, the deepest completed iteration
/// and the nodes visited in all.
#[derive(Clone, Debug, PartialEq)]
pub struct Found<A> {
    pub action: A,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// A seat's chance (0..1) as a score: `400·log10(p / (1 − p))`, chance 0.5 being 0 and each 400
/// points ten times the odds. Chances are clamped to 10⁻¹⁵ from 0 and 1 (about ±6,000).
pub fn score_of_chance(chance: f64) -> i32 {
    if chance.is_nan() {
        return 0;
    }
    let p = chance.clamp(1e-15, 1.0 - 1e-15);
    (400.0 * (p / (1.0 - p)).log10()).round() as i32
}

/// The score of an ending for `seat`, reached `ply` plies from the root.
fn ending_score(outcome: &Outcome, seats: usize, seat: Seat, ply: i32) -> i32 {
    let reward = rewards(outcome, seats)
        .get(seat.index())
        .copied()
        .unwrap_or(0.5);
    if reward > 0.5 {
        WIN - ply
    } else if reward < 0.5 {
        ply - WIN
    } else {
        0
    }
}

/// Win and loss scores are stored counted from the stored state, not from the root.
fn to_table(score: i32, ply: i32) -> i32 {
    if score > DECIDED {
        score + ply
    } else if score < -DECIDED {
        score - ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: i32) -> i32 {
    if score > DECIDED {
        score - ply
    } else if score < -DECIDED {
        score + ply
    } else {
        score
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The score is at least this (the search cut off).
    Lower,
    /// The score is at most this (nothing reached alpha).
    Upper,
}

#[derive(Clone, Debug)]
struct Entry<A> {
    key: u64,
    depth: i32,
    score: i32,
    bound: Bound,
    action: Option<A>,
}

struct Searcher<'a, G: Game> {
    limits: Limits,
    stop: &'a dyn Fn() -> bool,
    nodes: u64,
    /// Whether the clock and the node budget apply (not during the first iteration).
    may_abort: bool,
    /// Set once the budget is spent: every node then returns at once and the iteration is
    /// thrown away.
    aborted: bool,
    table: Vec<Option<Entry<G::Action>>>,
    /// Per ply, two quiet actions that cut off there lately.
    killers: Vec<[Option<G::Action>; 2]>,
    /// Handed to [`Game::apply_searched`]; the games searched draw nothing from it.
    rng: GameRng,
}

/// Searches `game` for `seat` within `limits`, from `seed`, until `stop` says the time is spent
/// (polled every few hundred nodes, never during depth 1). None when `seat` has nothing to do.
/// The game must have two seats and nothing hidden or random.
pub fn search<G: Game>(
    game: &G,
    seat: Seat,
    limits: &Limits,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<Found<G::Action>> {
    let mut actions = game.legal_actions(seat);
    if actions.is_empty() {
        return None;
    }
    let mut rng = GameRng::from_seed(seed);
    rng.shuffle(&mut actions);
    let noise = limits.noise.max(0);
    let mut root: Vec<(G::Action, i32)> = actions
        .into_iter()
        .map(|action| {
            let bonus = if noise > 0 {
                rng.below(2 * noise as usize + 1) as i32 - noise
            } else {
                0
            };
            (action, bonus)
        })
        .collect();
    root.sort_by_cached_key(|(action, _)| Reverse(first_order(game, action)));
    if root.len() == 1 {
        let (action, _) = root.swap_remove(0);
        return Some(Found {
            action,
            score: 0,
            depth: 0,
            nodes: 0,
        });
    }
    let mut searcher: Searcher<G> = Searcher {
        limits: *limits,
        stop,
        nodes: 0,
        may_abort: false,
        aborted: false,
        table: vec![None; 1usize << limits.table_bits.min(24)],
        killers: Vec::new(),
        rng: GameRng::from_seed(seed),
    };
    let mut found: Option<Found<G::Action>> = None;
    for depth in 1..=limits.depth.max(1) {
        searcher.may_abort = depth > 1;
        if searcher.may_abort && stop() {
            break;
        }
        let mut alpha = -INFINITY;
        // (score with the noise, score, index in `root`)
        let mut best: Option<(i32, i32, usize)> = None;
        for (i, (action, bonus)) in root.iter().enumerate() {
            let depth = depth as i32;
            let score = if noise > 0 {
                searcher.child_value(game, seat, action, depth, -INFINITY, INFINITY, 0)
            } else if best.is_some() {
                // Only asked whether it beats the best so far; searched in full if it does.
                match searcher.child_value(game, seat, action, depth, alpha, alpha + 1, 0) {
                    Some(score) if score > alpha && !searcher.aborted => {
                        searcher.child_value(game, seat, action, depth, alpha, INFINITY, 0)
                    }
                    other => other,
                }
            } else {
                searcher.child_value(game, seat, action, depth, alpha, INFINITY, 0)
            };
            let Some(score) = score else {
                continue;
            };
            if searcher.aborted {
                break;
            }
            let judged = if score.abs() > DECIDED {
                score
            } else {
                score + bonus
            };
            if best.is_none_or(|(b, _, _)| judged > b) {
                best = Some((judged, score, i));
            }
            alpha = alpha.max(score);
        }
        if searcher.aborted {
            break;
        }
        let Some((_, score, i)) = best else {
            break;
        };
        let chosen = root.remove(i);
        root.insert(0, chosen);
        found = Some(Found {
            action: root[0].0.clone(),
            score,
            depth,
            nodes: searcher.nodes,
        });
        if score.abs() > DECIDED {
            break; // a forced ending: searching deeper changes nothing
        }
    }
    found.map(|found| Found {
        nodes: searcher.nodes,
        ..found
    })
}

/// The order actions are first tried in: noisy ones first, then by the game's hint.
fn first_order<G: Game>(game: &G, action: &G::Action) -> (bool, i32) {
    (game.is_noisy(action), game.order_hint(action))
}

impl<G: Game> Searcher<'_, G> {
    /// Counts a node; whether the search must stop.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.may_abort
            && (self.nodes >= self.limits.nodes
                || (self.nodes.is_multiple_of(POLL) && (self.stop)()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The static score of `state` for `seat`.
    fn evaluate(state: &G, seat: Seat) -> i32 {
        state
            .evaluate()
            .and_then(|chances| chances.get(seat.index()).copied())
            .map_or(0, score_of_chance)
    }

    /// The value for `actor` of playing `action` in `state` (at `ply` from the root) and
    /// searching on `depth - 1` plies; None when the game refuses the action.
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &mut self,
        state: &G,
        actor: Seat,
        action: &G::Action,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> Option<i32> {
        let mut child = state.clone();
        child.apply_searched(actor, action, &mut self.rng).ok()?;
        Some(match child.to_act() {
            ToAct::Over(outcome) => ending_score(&outcome, child.seat_count(), actor, ply + 1),
            ToAct::Seats(seats) => match seats.first() {
                None => 0,
                Some(&next) if next == actor => {
                    self.value(&child, next, depth - 1, alpha, beta, ply + 1)
                }
                Some(&next) => -self.value(&child, next, depth - 1, -beta, -alpha, ply + 1),
            },
        })
    }

    /// The value of `state` for `actor`, the seat to act, searched `depth` plies deep (at 0 and
    /// below: quiescence, `-depth` plies into it), within the window `alpha..beta`.
    fn value(
        &mut self,
        state: &G,
        actor: Seat,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let quiescent = depth <= 0;
        let mut best = -INFINITY;
        if quiescent {
            let stand = Self::evaluate(state, actor);
            if stand >= beta || -depth >= self.limits.quiescence as i32 || ply >= MAX_PLY {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        } else if ply >= MAX_PLY {
            return Self::evaluate(state, actor);
        }
        let key = state.search_key();
        let mut table_action = None;
        if let Some(entry) = key.and_then(|key| self.probe(key)) {
            let score = from_table(entry.score, ply);
            if entry.depth >= depth {
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
            table_action = entry.action;
        }
        let mut actions = state.legal_actions(actor);
        if quiescent {
            actions.retain(|action| state.is_noisy(action));
        }
        self.order(state, &mut actions, table_action.as_ref(), ply);
        let start_alpha = alpha;
        let mut best_action = None;
        for action in &actions {
            // Principal variation search: once an action has reached alpha, the others are
            // first only asked whether they beat it (a null window), and searched again in
            // full when one does.
            let score = if best_action.is_some() && best > start_alpha && beta - alpha > 1 {
                match self.child_value(state, actor, action, depth, alpha, alpha + 1, ply) {
                    Some(score) if score > alpha && score < beta && !self.aborted => {
                        self.child_value(state, actor, action, depth, alpha, beta, ply)
                    }
                    other => other,
                }
            } else {
                self.child_value(state, actor, action, depth, alpha, beta, ply)
            };
            let Some(score) = score else {
                continue;
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_action = Some(action.clone());
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                if !quiescent && !state.is_noisy(action) {
                    self.remember_killer(ply, action);
                }
                break;
            }
        }
        if best == -INFINITY {
            // Nothing to play although the game goes on: judge the state as it stands.
            return Self::evaluate(state, actor);
        }
        if let Some(key) = key {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > start_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store(Entry {
                key,
                depth,
                score: to_table(best, ply),
                bound,
                action: best_action,
            });
        }
        best
    }

    /// The table's action first, then noisy actions, then the ply's killers, each group by the
    /// game's hint; the sort is stable, so the game's own order breaks ties.
    fn order(&self, state: &G, actions: &mut [G::Action], table: Option<&G::Action>, ply: i32) {
        let killers = self.killers.get(ply as usize);
        actions.sort_by_cached_key(|action| {
            let group = if table == Some(action) {
                3
            } else if state.is_noisy(action) {
                2
            } else if killers.is_some_and(|k| k.iter().any(|k| k.as_ref() == Some(action))) {
                1
            } else {
                0
            };
            Reverse((group, state.order_hint(action)))
        });
    }

    fn remember_killer(&mut self, ply: i32, action: &G::Action) {
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let slot = &mut self.killers[ply];
        if slot[0].as_ref() != Some(action) {
            slot[1] = slot[0].take();
            slot[0] = Some(action.clone());
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry<G::Action>> {
        self.table[self.slot(key)]
            .as_ref()
            .filter(|entry| entry.key == key)
            .cloned()
    }

    /// Keeps the newer entry, unless the older one is for the same state and searched deeper.
    fn store(&mut self, entry: Entry<G::Action>) {
        let slot = self.slot(entry.key);
        if let Some(old) = &self.table[slot]
            && old.key == entry.key
            && old.depth > entry.depth
        {
            return;
        }
        self.table[slot] = Some(entry);
    }
}

#[cfg(test)]
mod tests;
