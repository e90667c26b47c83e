//! The computer sees only what its seat sees: the fairness twin on random games of every
//! hidden En Prise variant.

use super::*;
use crate::ai::testing::check_fair_choices;
use crate::engine::testing::Config;

#[test]
fn the_computers_choice_never_depends_on_a_battleplan_card_it_cannot_see() {
    for (variant, seats) in [
        (Variant::Blind, 3),
        (Variant::Memory, 2),
        (Variant::Casino, 3),
    ] {
        let mut config = Config::new(options(variant), seats, 0..2);
        config.perturb_hidden = Some(reshuffle_hidden);
        config.max_actions = 100;
        let compared = check_fair_choices(&config, 4);
        assert!(compared > 5, "{variant:?}: {compared}");
    }
}
