//! Information-set Monte Carlo tree search (single observer), written once for every game.
//!
//! Each iteration starts from a fresh [`Game::determinize`] of the position for the searching
//! seat: everything that seat cannot see is dealt again from what it could be. The tree is
//! shared across those deals and keyed by actions, so a branch is only followed where its
//! action is legal in this deal (UCB counts how often a child was available, as in Cowling,
//! Powley and Whitehouse's ISMCTS). For a perfect-information game the deal is the position
//! itself and this is plain UCT. Several seats may act at once: the tree lets the first of them
//! act, as a game accepts their actions in any order.
//!
//! Playouts pick random legal actions. One cut short by the budget is scored by
//! [`Game::evaluate`] (0.5 each by default). Every node keeps the reward of the seat that
//! moved into it, so 3 and 4 seats search as naturally as two.

use crate::engine::{Game, GameRng, Outcome, Seat};

/// How much a search may do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Actions the search may apply in all, tree and playouts together: the work, whatever
    /// the game, so a search takes about as long on any machine run.
    pub steps: u64,
    /// The longest playout, in actions; a longer one is scored by [`Game::evaluate`].
    pub playout: usize,
    /// UCB's exploration constant.
    pub exploration: f64,
}

struct Node<A> {
    /// The seat that moved into this node, and that its rewards count for.
    mover: Seat,
    action: Option<A>,
    visits: u32,
    /// How often this node's action was legal when its parent was visited.
    available: u32,
    reward: f64,
    children: Vec<usize>,
}

/// What the search found: the action it chose and how it scored it, from 0 (lost) to 1; no
/// score when it had nothing to compare (a single legal action).
#[derive(Clone, Debug)]
pub struct Choice<A> {
    pub action: A,
    pub score: Option<f64>,
    pub visits: u32,
}

/// Every seat's reward for an ending: 1 for finishing ahead of everyone, 0 behind everyone,
/// a half for each seat tied with; a two-player draw gives both 0.5.
pub fn rewards(outcome: &Outcome, seats: usize) -> Vec<f64> {
    let mut reward = vec![0.0; seats];
    if seats < 2 {
        return vec![1.0; seats];
    }
    let mut behind = seats;
    for place in &outcome.places {
        behind -= place.len();
        let tied = place.len() - 1;
        for seat in place {
            if let Some(r) = reward.get_mut(seat.index()) {
                *r = (behind as f64 + tied as f64 / 2.0) / (seats - 1) as f64;
            }
        }
    }
    reward
}

/// Searches `game` for `seat` within `budget`, or until `stop` says so (asked between
/// iterations: the caller's clock, since this code reads none). None when `seat` has nothing
/// to do.
pub fn search<G: Game>(
    game: &G,
    seat: Seat,
    budget: &Budget,
    rng: &mut GameRng,
    stop: &dyn Fn() -> bool,
) -> Option<Choice<G::Action>> {
    let legal = game.legal_actions(seat);
    if legal.len() <= 1 {
        return legal.into_iter().next().map(|action| Choice {
            action,
            score: None,
            visits: 0,
        });
    }
    let seats = game.seat_count();
    let mut nodes: Vec<Node<G::Action>> = vec![Node {
        mover: seat,
        action: None,
        visits: 0,
        available: 0,
        reward: 0.0,
        children: vec![],
    }];
    let mut steps = 0u64;
    while steps < budget.steps && !(nodes[0].visits > 0 && stop()) {
        let mut state = game.determinize(seat, rng);
        let mut path = vec![0usize];
        let mut node = 0usize;
        // Selection and expansion.
        let ended = loop {
            let Some(actor) = state.to_act().seats().first().copied() else {
                break true;
            };
            // At the root the searching seat acts, whichever seat the game lists first.
            let actor = if node == 0 { seat } else { actor };
            let legal = state.legal_actions(actor);
            if legal.is_empty() {
                break true;
            }
            let children = nodes[node].children.clone();
            for &child in &children {
                if nodes[child]
                    .action
                    .as_ref()
                    .is_some_and(|a| legal.contains(a))
                {
                    nodes[child].available += 1;
                }
            }
            let untried: Vec<&G::Action> = legal
                .iter()
                .filter(|a| {
                    !children
                        .iter()
                        .any(|&c| nodes[c].action.as_ref() == Some(*a))
                })
                .collect();
            let (next, expanded) = if !untried.is_empty() {
                let action = untried[rng.below(untried.len())].clone();
                nodes.push(Node {
                    mover: actor,
                    action: Some(action),
                    visits: 0,
                    available: 1,
                    reward: 0.0,
                    children: vec![],
                });
                let id = nodes.len() - 1;
                nodes[node].children.push(id);
                (id, true)
            } else {
                let best = children
                    .iter()
                    .copied()
                    .filter(|&c| nodes[c].action.as_ref().is_some_and(|a| legal.contains(a)))
                    .max_by(|&a, &b| {
                        ucb(&nodes[a], budget.exploration)
                            .total_cmp(&ucb(&nodes[b], budget.exploration))
                    });
                match best {
                    Some(best) => (best, false),
                    None => break true,
                }
            };
            let Some(action) = nodes[next].action.clone() else {
                break true;
            };
            steps += 1;
            path.push(next);
            node = next;
            if state.apply(actor, &action, rng).is_err() {
                break true;
            }
            if expanded {
                break false;
            }
        };
        // Playout.
        let mut length = 0;
        let reward = if ended {
            final_rewards(&state, seats)
        } else {
            loop {
                if let Some(outcome) = state.to_act().outcome() {
                    break rewards(outcome, seats);
                }
                let Some(actor) = state.to_act().seats().first().copied() else {
                    break final_rewards(&state, seats);
                };
                if length >= budget.playout {
                    break state
                        .evaluate()
                        .unwrap_or_else(|| vec![1.0 / seats as f64; seats]);
                }
                let legal = state.legal_actions(actor);
                if legal.is_empty() {
                    break final_rewards(&state, seats);
                }
                let action = &legal[rng.below(legal.len())];
                steps += 1;
                length += 1;
                if state.apply(actor, action, rng).is_err() {
                    break final_rewards(&state, seats);
                }
            }
        };
        // Back-propagation: each node gains the reward of the seat that moved into it.
        for &id in &path {
            let n = &mut nodes[id];
            n.visits += 1;
            n.reward += reward.get(n.mover.index()).copied().unwrap_or(0.0);
        }
        steps += 1;
    }
    nodes[0]
        .children
        .iter()
        .max_by(|&&a, &&b| {
            let mean = |n: &Node<G::Action>| n.reward / f64::from(n.visits.max(1));
            (nodes[a].visits, mean(&nodes[a]))
                .partial_cmp(&(nodes[b].visits, mean(&nodes[b])))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .and_then(|&c| {
            let n = &nodes[c];
            n.action.clone().map(|action| Choice {
                action,
                score: Some(n.reward / f64::from(n.visits.max(1))),
                visits: n.visits,
            })
        })
}

/// A state with nobody left to act: its outcome's rewards, or 0.5 each, the mean reward of
/// any ending at any table size (an even share would make a 4-player search prefer finishing
/// third to an unknown line).
fn final_rewards<G: Game>(state: &G, seats: usize) -> Vec<f64> {
    match state.to_act().outcome() {
        Some(outcome) => rewards(outcome, seats),
        None => vec![0.5; seats],
    }
}

/// UCB1 with availability counts in place of the parent's visits.
fn ucb<A>(node: &Node<A>, exploration: f64) -> f64 {
    if node.visits == 0 {
        return f64::INFINITY;
    }
    let visits = f64::from(node.visits);
    node.reward / visits + exploration * (f64::from(node.available.max(1)).ln() / visits).sqrt()
}
