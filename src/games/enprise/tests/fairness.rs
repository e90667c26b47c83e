//! The computer sees only what its seat has seen: the fairness twin on random games of the
//! hidden En Prise variants, and in Memory, the plans it was shown kept in every deal.

use super::*;
use crate::ai::testing::check_fair_choices;
use crate::engine::testing::Config;

#[test]
fn the_computers_choice_never_depends_on_a_battleplan_card_it_cannot_see() {
    for (variant, seats) in [
        (Variant::Blind, 3),
        (Variant::Casino, 3),
        (Variant::Casino, 2),
    ] {
        let mut config = Config::new(options(variant), seats, 0..2);
        config.perturb_hidden = Some(reshuffle_hidden);
        config.max_actions = 100;
        let compared = check_fair_choices(&config, 4);
        assert!(compared > 5, "{variant:?}: {compared}");
    }
}

/// Memory shows every plan to everyone before turning them face down, so a computer seat
/// remembers them all: its deals change no card, though its view shows them face down.
#[test]
fn in_memory_the_computer_remembers_the_plans_it_was_shown() {
    let mut rng = GameRng::from_seed(4);
    let mut g = EnPrise::new(&options(Variant::Memory), 3, &mut rng).unwrap();
    for seat in Seat::all(3) {
        g.apply(seat, &Action::Ready, &mut rng).unwrap();
    }
    assert!(!matches!(g.phase, Phase::Memorise { .. }));
    for seat in Seat::all(3) {
        assert!(
            (0..g.plans[1].len()).all(|i| !g.card_visible(Seat(1), i, Viewer::Seat(seat))),
            "the plans are face down for everyone"
        );
        for seed in 0..10 {
            let dealt = g.determinize(seat, &mut GameRng::from_seed(seed));
            assert_eq!(dealt.plans, g.plans, "{seat} remembers every plan");
        }
        let twin = reshuffle_hidden(&g, seat, &mut GameRng::from_seed(1));
        assert!(
            twin.is_some_and(|t| t.plans != g.plans),
            "its view alone could not tell the plans from others"
        );
    }
}
