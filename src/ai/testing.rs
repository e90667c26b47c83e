//! The fairness twin of `engine::testing`'s view-leak check: in random games, two states the
//! acting seat cannot tell apart (built by the game's own perturbation of what that seat
//! cannot see) must give the computer's search the same choice for the same seed. A game that
//! hides anything and leaves [`crate::engine::Game::determinize`] at its default fails it.

use super::{Budget, search};
use crate::engine::testing::Config;
use crate::engine::{Game, GameRng};

/// Runs the twin on `config`'s seeds, checking every `every`-th state of each game; the number
/// of states compared. Panics with the seed and step at the first unfair choice.
pub fn check_fair_choices<G: Game>(config: &Config<G>, every: usize) -> usize {
    let perturb = config
        .perturb_hidden
        .expect("the fairness twin needs the game's perturbation of hidden information");
    let budget = Budget {
        steps: 600,
        playout: 30,
        exploration: 1.0,
    };
    let mut compared = 0;
    for seed in config.seeds.clone() {
        let mut rng = GameRng::from_seed(seed);
        let mut game = G::new(&config.options, config.seats, &mut rng).unwrap();
        for step in 0..config.max_actions {
            let Some(&seat) = game.to_act().seats().first() else {
                break;
            };
            if step % every == 0
                && let Some(twin) = perturb(&game, seat, &mut rng)
            {
                let choice = |state: &G| {
                    search(
                        state,
                        seat,
                        &budget,
                        &mut GameRng::from_seed(seed + step as u64),
                        &|| false,
                    )
                    .map(|c| state.format_action(&c.action))
                };
                assert_eq!(
                    choice(&game),
                    choice(&twin),
                    "seed {seed}, step {step}: the choice of {seat} depends on what it cannot see"
                );
                compared += 1;
            }
            let legal = game.legal_actions(seat);
            let pick = legal[rng.below(legal.len())].clone();
            game.apply(seat, &pick, &mut rng).unwrap();
        }
    }
    compared
}
