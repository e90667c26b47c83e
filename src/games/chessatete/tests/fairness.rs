//! The computer sees only what its seat sees: the fairness twin on random Chess-à-Tête games.

use super::*;
use crate::ai::testing::check_fair_choices;
use crate::engine::testing::Config;

#[test]
fn the_computers_choice_never_depends_on_the_other_hand_or_either_deck() {
    let mut config = Config::<ChessATete>::new(ChessATeteOptions::default(), 2, 0..3);
    config.perturb_hidden = Some(reshuffle_hidden);
    config.max_actions = 150;
    let compared = check_fair_choices(&config, 7);
    assert!(compared > 10, "{compared}");
}
