//! Tests of the gallery's sample games: the end pictures show games that are over.

use super::*;

#[test]
fn every_sample_game_is_played_until_it_is_over() {
    for game in GameKind::ALL {
        let (fewest, most) = game.seats();
        for seats in fewest..=most {
            let views = sample_game(game, seats, &[]).unwrap();
            let (start, _) = &views[0];
            let (spectator, first_seat) = &views[views.len() - 1];
            assert!(!start.is_over(), "{game} for {seats}: over at the start");
            assert!(
                spectator.is_over() && first_seat.is_over(),
                "{game} for {seats}: the end picture shows a game still going after {} actions",
                views.len() - 1
            );
        }
    }
}

#[test]
fn a_long_replay_is_spread_evenly_keeping_the_first_and_the_last() {
    assert_eq!(spread((0..10).collect::<Vec<_>>(), 4), [0, 3, 6, 9]);
    assert_eq!(spread((0..3).collect::<Vec<_>>(), 4), [0, 1, 2]);
    let long = spread((0..1000).collect::<Vec<_>>(), REPLAY_FRAMES);
    assert_eq!(long.len(), REPLAY_FRAMES);
    assert_eq!((long[0], long[REPLAY_FRAMES - 1]), (0, 999));
    assert!(
        long.windows(2).all(|w| (6..=7).contains(&(w[1] - w[0]))),
        "{long:?}"
    );
}
