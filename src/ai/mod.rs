//! The computer player: one search for every game, at three levels, that sees only what its
//! seat sees. Pure like the rules it plays: no clock, no IO; its randomness is a seed.
//!
//! A level is a budget of work and a deliberate weakness ([`search_budget`], or a game's own search: [`Game::own_search`]): `easy` thinks
//! little and now and then plays any legal action, `hard` spends its whole budget. The search
//! (`mcts.rs`) deals every hidden card again before each iteration
//! ([`crate::engine::Game::determinize`]), so it cannot use a fact its seat does not know.

pub mod alphabeta;
mod mcts;
#[cfg(test)]
pub mod testing;

pub use crate::engine::Level;
pub use mcts::{Budget, Choice, rewards, search};

use crate::engine::{Game, GameRng, Seat};

/// The generic search's budget at `level`, and how often (in hundredths) it plays a random
/// legal action instead of its choice.
pub fn search_budget(level: Level) -> (Budget, u32) {
    match level {
        Level::Easy => (
            Budget {
                steps: 2_000,
                playout: 40,
                exploration: 1.4,
            },
            30,
        ),
        Level::Medium => (
            Budget {
                steps: 20_000,
                playout: 80,
                exploration: 1.0,
            },
            0,
        ),
        Level::Hard => (
            Budget {
                steps: 100_000,
                playout: 80,
                exploration: 0.8,
            },
            0,
        ),
    }
}

/// A seed for the search made from `parts` (a match's id, its version, a seat) by SplitMix64
/// with a salt of its own, so it never equals a seed that dealt a game's cards.
pub fn seed_from(parts: &[u64]) -> u64 {
    let mut x: u64 = 0x5eed_c0de_0f0c_a11d;
    for part in parts {
        x ^= *part;
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x = z ^ (z >> 31);
    }
    x
}

/// The computer's action for `seat` at `level`, from `seed`; None when the seat has nothing to
/// do. The same position, seat, level and seed give the same action, unless `stop` (the
/// caller's clock: see [`Level::time_limit`]) cuts the search short.
pub fn choose<G: Game>(
    game: &G,
    seat: Seat,
    level: Level,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<G::Action> {
    think(game, seat, level, seed, stop).map(|choice| choice.action)
}

/// [`choose`], with how the computer rates its chances after that action (0 lost, 1 won): the
/// search's own score, or for a game's own search (and easy's random actions, and a search
/// that tried its choice fewer than [`JUDGED_AFTER`] times) the result of a game the action
/// ends, else [`Game::evaluate`] of the position after the action, seen as the seat sees it,
/// so a recapture in the middle of an exchange counts as made. No score when none of these
/// has an opinion (a game without an evaluation): the computer then neither resigns nor
/// offers a draw.
pub fn think<G: Game>(
    game: &G,
    seat: Seat,
    level: Level,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<Choice<G::Action>> {
    if let Some(action) = game.own_search(seat, level, seed, stop) {
        let score = chances_after(game, seat, &action, seed);
        return Some(Choice {
            action,
            score,
            visits: 0,
        });
    }
    let mut rng = GameRng::from_seed(seed);
    let (budget, blunders) = search_budget(level);
    if blunders > 0 && rng.below(100) < blunders as usize {
        let legal = game.legal_actions(seat);
        if legal.is_empty() {
            return None;
        }
        let action = legal[rng.below(legal.len())].clone();
        let score = chances_after(game, seat, &action, seed);
        return Some(Choice {
            action,
            score,
            visits: 0,
        });
    }
    let mut choice = search(game, seat, &budget, &mut rng, stop)?;
    // A search cut short before it tried its choice often has no opinion worth acting on
    // (resigning, say): the chances are then the game's evaluation after the action, if it
    // has one.
    if choice.visits < JUDGED_AFTER {
        choice.score = chances_after(game, seat, &choice.action, seed);
    }
    Some(choice)
}

/// How often the search must have tried its choice for its score to count as its chances.
pub const JUDGED_AFTER: u32 = 100;

/// [`evaluation`] once `seat` has played `action`, or the result of a game the action ends:
/// in a state the seat cannot tell apart from this one, so it uses nothing the seat cannot
/// see. None for a game without an evaluation that goes on.
fn chances_after<G: Game>(game: &G, seat: Seat, action: &G::Action, seed: u64) -> Option<f64> {
    let mut rng = GameRng::from_seed(seed ^ 0xc4a7_0b5e);
    let mut after = game.determinize(seat, &mut rng);
    if after.apply_searched(seat, action, &mut rng).is_err() {
        return evaluation(game, seat, seed);
    }
    // A game the action ends is judged by its result, not by what stands on the board.
    if let Some(outcome) = after.to_act().outcome() {
        return rewards(outcome, after.seat_count())
            .get(seat.index())
            .copied();
    }
    after
        .evaluate()
        .and_then(|values| values.get(seat.index()).copied())
}

/// How `seat` rates its chances in `game` without searching (0 lost, 1 won): the game's
/// [`Game::evaluate`] of a state the seat cannot tell apart from this one, so it uses nothing
/// the seat cannot see; 0.5 for a game without an evaluation.
pub fn chances<G: Game>(game: &G, seat: Seat, seed: u64) -> f64 {
    evaluation(game, seat, seed).unwrap_or(0.5)
}

/// [`chances`], None for a game without an evaluation.
pub fn evaluation<G: Game>(game: &G, seat: Seat, seed: u64) -> Option<f64> {
    let mut rng = GameRng::from_seed(seed ^ 0xc4a7_0b5e);
    game.determinize(seat, &mut rng)
        .evaluate()
        .and_then(|values| values.get(seat.index()).copied())
}

#[cfg(test)]
mod tests;
