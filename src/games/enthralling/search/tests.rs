//! The computer player on Enthralling Chess: it takes a free queen, sees a mate in one and the
//! lone-king win, keeps its king out of a mate in one, repeats itself for a seed, ends without
//! a clock at every level, beats random play; the search's shortcuts (the key, the quick
//! apply) agree with the rules.

use super::*;
use crate::engine::{Game, GameRng, ToAct};
use crate::games::chess::seat_of;
use crate::games::enthralling::{EnthrallingOptions, Setup};

fn setup(fen: &str, moves_made: [u32; 2]) -> Enthralling {
    Enthralling::from_setup(
        &Setup {
            fen,
            moves_made,
            ..Default::default()
        },
        EnthrallingOptions::default(),
    )
    .unwrap()
}

fn seat(game: &Enthralling) -> Seat {
    seat_of(game.position().turn())
}

/// Plays the texts, separated by "|", for whoever is to move.
fn played(texts: &str) -> Enthralling {
    let mut game = Enthralling::new(
        &EnthrallingOptions::default(),
        2,
        &mut GameRng::from_seed(0),
    )
    .unwrap();
    for text in texts.split('|') {
        let turn = game.parse_action(seat(&game), text).unwrap();
        game.apply(seat(&game), &turn, &mut GameRng::from_seed(0))
            .unwrap();
    }
    game
}

fn random_game(seed: u64, turns: usize) -> Enthralling {
    let mut rng = GameRng::from_seed(seed);
    let mut game = Enthralling::new(&EnthrallingOptions::default(), 2, &mut rng).unwrap();
    for _ in 0..turns {
        let Some(&seat) = game.to_act().seats().first() else {
            break;
        };
        let legal = game.legal_actions(seat);
        let pick = legal[rng.below(legal.len())];
        game.apply(seat, &pick, &mut rng).unwrap();
    }
    game
}

fn chosen(game: &Enthralling, level: Level, seed: u64) -> Turn {
    choose(game, seat(game), level, seed, &|| false).unwrap()
}

/// The game after `turn`.
fn after(game: &Enthralling, turn: &Turn) -> Enthralling {
    let mut next = game.clone();
    next.apply(seat(game), turn, &mut GameRng::from_seed(0))
        .unwrap();
    next
}

#[test]
fn every_level_takes_a_free_queen() {
    // Black's queen stands on e5, where White's knight takes it; enthralling has begun.
    let game = setup(
        "rnb1kbnr/pppp1ppp/8/4q3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 5",
        [3, 3],
    );
    for level in Level::ALL {
        let turn = chosen(&game, level, 7);
        assert_eq!(
            game.format_action(&turn).get(..4),
            Some("Nxe5"),
            "{level}: {}",
            game.format_action(&turn)
        );
    }
}

#[test]
fn every_level_mates_in_one_when_it_can() {
    // The scholar's mate, on White's fourth move: the mate must come with an Enthrall that
    // keeps it.
    let game = played("e4|e5|Bc4|Nc6|Qh5|Nf6");
    for level in Level::ALL {
        for seed in 0..2 {
            let next = after(&game, &chosen(&game, level, seed));
            let outcome = next.outcome().cloned();
            assert!(
                outcome
                    .as_ref()
                    .is_some_and(|o| o.winners() == [Seat(0)] && o.reason == "checkmate"),
                "{level} seed {seed}: {outcome:?}"
            );
        }
    }
}

#[test]
fn every_level_takes_the_lone_king_win() {
    // exd5 leaves Black a lone king: White wins with the move alone.
    let game = setup("4k3/8/8/3n4/4P3/8/8/R3K3 w - - 0 40", [10, 10]);
    for level in Level::ALL {
        let next = after(&game, &chosen(&game, level, 3));
        let outcome = next.outcome().cloned();
        assert!(
            outcome
                .as_ref()
                .is_some_and(|o| o.winners() == [Seat(0)]
                    && o.reason == "reducing the opponent to a lone king"),
            "{level}: {outcome:?}"
        );
    }
}

#[test]
fn medium_and_hard_keep_their_king_out_of_a_mate_in_one() {
    // Plain moves still (each side has made one): Black threatens Re1 mate on the back rank.
    let game = setup("4r1k1/5ppp/8/8/8/8/R4PPP/6K1 w - - 0 20", [1, 1]);
    for (level, seed) in [(Level::Medium, 0), (Level::Medium, 1), (Level::Hard, 0)] {
        let turn = chosen(&game, level, seed);
        let next = after(&game, &turn);
        let black = Seat(1);
        for reply in next.legal_actions(black) {
            let ended = after(&next, &reply);
            assert!(
                ended.outcome().is_none_or(|o| o.winners() != [black]),
                "{level} seed {seed}: {} allows {}",
                game.format_action(&turn),
                next.format_action(&reply)
            );
        }
    }
}

#[test]
fn a_seed_repeats_the_choice_and_every_level_ends_without_a_clock() {
    let game = random_game(3, 12);
    for level in [Level::Easy, Level::Medium] {
        assert_eq!(chosen(&game, level, 5), chosen(&game, level, 5), "{level}");
    }
    // Hard ends on its own caps (depth, nodes); here with a smaller node cap, twice the same.
    let small = Limits {
        nodes: 20_000,
        ..limits(Level::Hard)
    };
    let once = alphabeta::search(&game, seat(&game), &small, 5, &|| false).unwrap();
    assert_eq!(
        Some(once.clone()),
        alphabeta::search(&game, seat(&game), &small, 5, &|| false)
    );
    assert!(once.depth >= 2, "{once:?}");
    let hard = alphabeta::search(&game, seat(&game), &limits(Level::Hard), 5, &|| false);
    assert!(hard.is_some_and(|found| found.depth >= once.depth));
    // A clock that has run out still gets the first iteration's choice.
    let rushed = alphabeta::search(&game, seat(&game), &limits(Level::Hard), 5, &|| true);
    assert_eq!(rushed.map(|found| found.depth), Some(1));
}

#[test]
fn even_easy_beats_random_play() {
    for game_number in 0..4u64 {
        let computer = Seat((game_number % 2) as u8);
        let mut rng = GameRng::from_seed(game_number);
        let mut game = Enthralling::new(&EnthrallingOptions::default(), 2, &mut rng).unwrap();
        let outcome = loop {
            let seat = match game.to_act() {
                ToAct::Over(outcome) => break outcome,
                ToAct::Seats(seats) => seats[0],
            };
            let turn = if seat == computer {
                chosen(&game, Level::Easy, rng.next_u64())
            } else {
                let legal = game.legal_actions(seat);
                legal[rng.below(legal.len())]
            };
            game.apply(seat, &turn, &mut rng).unwrap();
        };
        assert_eq!(
            outcome.winners(),
            [computer],
            "game {game_number}: {outcome:?}"
        );
    }
}

#[test]
fn the_quick_apply_and_the_key_agree_with_the_rules() {
    for seed in 0..4 {
        let mut rng = GameRng::from_seed(seed);
        let mut game = Enthralling::new(&EnthrallingOptions::default(), 2, &mut rng).unwrap();
        while let Some(&seat) = game.to_act().seats().first() {
            let legal = game.legal_actions(seat);
            let turn = legal[rng.below(legal.len())];
            let mut quick = game.clone();
            quick
                .apply_searched(seat, &turn, &mut GameRng::from_seed(0))
                .unwrap();
            game.apply(seat, &turn, &mut rng).unwrap();
            assert_eq!(quick.to_act(), game.to_act(), "seed {seed}");
            assert_eq!(key(&quick), key(&game), "seed {seed}");
            assert_eq!(centipawns(&quick), centipawns(&game), "seed {seed}");
            if let Some(&next) = game.to_act().seats().first() {
                assert_eq!(quick.legal_actions(next), game.legal_actions(next));
            }
        }
    }
    // Two orders of the same plain moves reach one key; the same board with a piece held
    // enthralled, or a turn later, does not.
    assert_eq!(key(&played("Nf3|Nf6|Nc3")), key(&played("Nc3|Nf6|Nf3")));
    let fen = "4k3/8/8/3n4/4P3/8/8/R3K3 w - - 0 40";
    let plain = setup(fen, [10, 10]);
    let held = Enthralling::from_setup(
        &Setup {
            fen,
            enthralled: &["d5"],
            moves_made: [10, 10],
            ..Default::default()
        },
        EnthrallingOptions::default(),
    )
    .unwrap();
    assert_ne!(key(&plain), key(&held));
    assert_ne!(key(&plain), key(&setup(fen, [2, 2])));
}

#[test]
fn the_evaluation_counts_what_each_army_holds() {
    let even = played("e4|e5");
    assert!(centipawns(&even).abs() < 60, "{}", centipawns(&even));
    // A queen up for White.
    let queen_up = setup(
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        [0, 0],
    );
    assert!(centipawns(&queen_up) > 800, "{}", centipawns(&queen_up));
    let chances = queen_up.evaluate().unwrap();
    assert!(chances[0] > 0.9 && (chances[0] + chances[1] - 1.0).abs() < 1e-9);
    // A knight Black holds counts for Black, less what White could get back by liberating it.
    let fen = "4k3/8/8/3n4/8/8/8/4K3 b - - 0 40";
    let own = setup(fen, [10, 10]);
    let held = Enthralling::from_setup(
        &Setup {
            fen,
            enthralled: &["d5"],
            moves_made: [10, 10],
            ..Default::default()
        },
        EnthrallingOptions::default(),
    )
    .unwrap();
    assert!(centipawns(&own) < -250, "{}", centipawns(&own));
    assert!(
        centipawns(&held) > centipawns(&own),
        "{}",
        centipawns(&held)
    );
    assert!(centipawns(&held) < -150, "{}", centipawns(&held));
}
