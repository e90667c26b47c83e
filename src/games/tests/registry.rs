//! What the registration list generates: ids that are the stored names, the offered games,
//! and the contract's defaults as every registered game answers them.

use super::*;
use crate::engine::{OnTime, Outcome};

#[test]
fn every_registered_id_is_the_name_its_matches_are_stored_under() {
    for &kind in GameKind::REGISTERED {
        assert_eq!(serde_json::to_value(kind).unwrap(), kind.id(), "{kind:?}");
        let game = kind
            .start(&[], kind.seats().0, &mut GameRng::from_seed(1))
            .unwrap();
        let stored = serde_json::to_value(&game).unwrap();
        assert_eq!(stored["game"], kind.id(), "the tag of a stored {kind:?}");
        let view = serde_json::to_value(game.view(Viewer::Spectator)).unwrap();
        assert_eq!(view["game"], kind.id(), "the tag of a stored {kind:?} view");
        assert_eq!(game.kind(), kind);
        assert_eq!(kind.id().parse(), Ok(kind));
        assert!(
            kind.id().bytes().all(|b| b.is_ascii_lowercase()),
            "{kind:?}"
        );
    }
}

#[test]
fn the_offered_games_are_the_registered_ones_players_may_choose_in_list_order() {
    let offered: Vec<GameKind> = GameKind::REGISTERED
        .iter()
        .copied()
        .filter(|kind| GameKind::ALL.contains(kind))
        .collect();
    assert_eq!(offered, GameKind::ALL, "the list's order");
    assert_eq!(GameKind::default(), GameKind::ALL[0]);
    let hidden: Vec<&str> = GameKind::REGISTERED
        .iter()
        .filter(|kind| !GameKind::ALL.contains(kind))
        .map(|kind| kind.id())
        .collect();
    assert_eq!(hidden, ["tictactoe"], "only the test-only game is left out");
}

#[test]
fn the_defaults_for_resigning_and_time_rank_the_seat_last_at_any_table() {
    for &kind in GameKind::REGISTERED {
        let (fewest, most) = kind.seats();
        for seats in fewest..=most {
            let game = kind.start(&[], seats, &mut GameRng::from_seed(7)).unwrap();
            for seat in Seat::all(seats) {
                if let Ok(outcome) = game.resignation(seat) {
                    assert!(!outcome.is_draw(), "{kind:?}");
                    assert_ne!(outcome.place_of(seat), Some(0), "{kind:?} {seat}");
                }
                if let OnTime::Finish(outcome) = game.on_time(seat) {
                    assert_ne!(outcome.place_of(seat), Some(0), "{kind:?} {seat}");
                    let everyone: usize = outcome.places.iter().map(Vec::len).sum();
                    assert_eq!(everyone, seats, "{kind:?}: every seat is placed");
                }
            }
        }
    }
    let two = Outcome::winner(Seat(1), 2, "resignation");
    assert_eq!(
        GameKind::Echek
            .start(&[], 2, &mut GameRng::from_seed(1))
            .unwrap()
            .resignation(Seat(0)),
        Ok(two)
    );
}
