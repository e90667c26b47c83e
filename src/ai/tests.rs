//! The computer player on tic-tac-toe (small enough to know the right move) and on every
//! game: it wins what can be won, blocks what must be blocked, repeats itself for a seed, and
//! beats random play.

use super::*;
use crate::engine::{Outcome, Viewer};
use crate::games::tictactoe::{TicTacToe, TicTacToeOptions};
use crate::games::{AnyGame, GameKind};

fn tictactoe(marks: &[&str]) -> TicTacToe {
    let mut rng = GameRng::from_seed(0);
    let mut game = TicTacToe::new(&TicTacToeOptions::default(), 2, &mut rng).unwrap();
    for (i, cell) in marks.iter().enumerate() {
        let action = game.parse_action(Seat((i % 2) as u8), cell).unwrap();
        game.apply(Seat((i % 2) as u8), &action, &mut rng).unwrap();
    }
    game
}

fn chosen(game: &TicTacToe, seat: Seat, level: Level, seed: u64) -> String {
    game.format_action(&choose(game, seat, level, seed, &|| false).unwrap())
}

#[test]
fn rewards_rank_every_seat_and_share_ties() {
    assert_eq!(rewards(&Outcome::winner(Seat(1), 2, "mate"), 2), [0.0, 1.0]);
    assert_eq!(rewards(&Outcome::draw(2, "stalemate"), 2), [0.5, 0.5]);
    let four = Outcome::ranking(
        vec![vec![Seat(2)], vec![Seat(0), Seat(3)], vec![Seat(1)]],
        "last player standing",
    );
    assert_eq!(rewards(&four, 4), [0.5, 0.0, 1.0, 0.5]);
}

#[test]
fn the_computer_takes_a_win_and_blocks_a_loss_at_medium_and_hard() {
    for level in [Level::Medium, Level::Hard] {
        for seed in 0..5 {
            // X to play with a1 and b1 taken: c1 wins.
            let game = tictactoe(&["a1", "a3", "b1", "b3"]);
            assert_eq!(
                chosen(&game, Seat(0), level, seed),
                "c1",
                "{level} seed {seed}"
            );
            // O to play, X threatens c1 (a1, b1): O must block.
            let game = tictactoe(&["a1", "b2", "b1"]);
            assert_eq!(
                chosen(&game, Seat(1), level, seed),
                "c1",
                "{level} seed {seed}"
            );
        }
    }
}

#[test]
fn a_seed_gives_the_same_choice_and_nothing_to_do_gives_none() {
    let game = tictactoe(&["b2"]);
    for level in Level::ALL {
        assert_eq!(
            chosen(&game, Seat(1), level, 9),
            chosen(&game, Seat(1), level, 9),
            "{level}"
        );
    }
    assert_eq!(
        choose(&game, Seat(0), Level::Hard, 1, &|| false),
        None,
        "not X's turn"
    );
    let over = tictactoe(&["a1", "a2", "b1", "b2", "c1"]);
    assert_eq!(
        choose(&over, Seat(1), Level::Hard, 1, &|| false),
        None,
        "the game is over"
    );
}

#[test]
fn levels_read_by_name() {
    assert_eq!("HARD".parse(), Ok(Level::Hard));
    assert_eq!(Level::default(), Level::Medium);
    let refused = "grandmaster".parse::<Level>().unwrap_err();
    assert!(refused.contains("easy, medium or hard"), "{refused}");
}

/// One game of `kind` between the computer at `level` (seat `cpu`) and random play; the
/// computer's reward.
fn versus_random(kind: GameKind, seats: usize, cpu: Seat, level: Level, seed: u64) -> f64 {
    let mut rng = GameRng::from_seed(seed);
    let mut game: AnyGame = kind.start(&[], seats, &mut rng).unwrap();
    for turn in 0..3_000u64 {
        if let Some(outcome) = game.to_act().outcome() {
            return rewards(outcome, seats)[cpu.index()];
        }
        let seat = game.to_act().seats()[0];
        let text = if seat == cpu {
            game.computer_action(seat, level, seed * 10_000 + turn, &|| false)
        } else {
            game.random_action(seat, &mut rng)
        }
        .unwrap();
        game.play(seat, &text, &mut rng).unwrap();
    }
    0.5
}

#[test]
fn hard_tictactoe_never_loses_to_random_play() {
    let kind: GameKind = "tictactoe".parse().unwrap();
    for seed in 0..20 {
        let cpu = Seat((seed % 2) as u8);
        let reward = versus_random(kind, 2, cpu, Level::Hard, seed);
        assert!(reward >= 0.5, "seed {seed}: the computer lost as {cpu}");
    }
}

#[test]
fn the_computer_plays_every_offered_game_to_a_legal_end() {
    for kind in GameKind::ALL {
        let reward = versus_random(kind, kind.seats().0, Seat(0), Level::Easy, 3);
        assert!((0.0..=1.0).contains(&reward), "{kind}");
    }
    // Its choice is always one of the seat's legal actions.
    let game = GameKind::Chess
        .start(&[], 2, &mut GameRng::from_seed(1))
        .unwrap();
    let text = game
        .computer_action(Seat(0), Level::Easy, 5, &|| false)
        .unwrap();
    assert!(game.legal_actions(Seat(0)).contains(&text), "{text}");
    let _ = game.view(Viewer::Seat(Seat(0)));
}

#[test]
fn a_search_seed_never_repeats_the_parts_it_is_made_of() {
    assert_ne!(seed_from(&[0]), 0);
    assert_ne!(seed_from(&[1, 0, 0]), seed_from(&[1, 0, 1]));
    assert_eq!(seed_from(&[7, 3]), seed_from(&[7, 3]));
}

#[test]
fn a_recapture_in_the_middle_of_an_exchange_is_scored_as_made() {
    use crate::games::chess::{Chess, Position};
    // White has just taken Black's queen on d8; Black takes back with the king.
    let fen = "rnbQkbnr/ppp2ppp/8/4p3/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 3";
    let game = Chess::from_position(Position::from_fen(fen).unwrap());
    let before = chances(&game, Seat(1), 1);
    assert!(before < 0.05, "a queen down before the recapture: {before}");
    let choice = think(&game, Seat(1), Level::Medium, 1, &|| false).unwrap();
    assert!(
        choice.score.unwrap() > 0.3,
        "scored after its recapture, {}: {}",
        game.format_action(&choice.action),
        choice.score.unwrap()
    );
}

#[test]
fn a_move_that_mates_is_a_win_however_far_behind_the_board_looks() {
    use crate::games::chess::{Chess, Position};
    // White has a rook against three queens, and mates on the back rank.
    let fen = "6k1/5ppp/8/8/8/8/qqq5/4R1K1 w - - 0 1";
    let game = Chess::from_position(Position::from_fen(fen).unwrap());
    assert!(chances(&game, Seat(0), 1) < 0.03, "hopeless on material");
    let choice = think(&game, Seat(0), Level::Hard, 1, &|| false).unwrap();
    assert_eq!(game.format_action(&choice.action), "Re8#");
    assert_eq!(
        choice.score,
        Some(1.0),
        "a won game, so never a resignation"
    );
}

#[test]
fn a_search_cut_short_gives_no_opinion_of_its_own() {
    // One iteration scores its choice 0 or 1 by a single playout: too little to resign on.
    // Tic-tac-toe has no evaluation, so there is no opinion at all.
    for seed in 0..20 {
        let choice = think(&tictactoe(&[]), Seat(0), Level::Hard, seed, &|| true).unwrap();
        assert!(choice.visits < JUDGED_AFTER);
        assert_eq!(choice.score, None, "seed {seed}");
    }
    let full = think(&tictactoe(&[]), Seat(0), Level::Hard, 1, &|| false).unwrap();
    assert!(
        full.visits >= JUDGED_AFTER && full.score.is_some(),
        "{full:?}"
    );
    // En Prise has an evaluation: a search cut short gives it, of the position after the
    // chosen action.
    let mut rng = GameRng::from_seed(2);
    let game = crate::games::enprise::EnPrise::new(&Default::default(), 2, &mut rng).unwrap();
    let seat = game.to_act().seats()[0];
    for seed in 0..5 {
        let choice = think(&game, seat, Level::Hard, seed, &|| true).unwrap();
        assert!(choice.score.is_some());
        assert_eq!(
            choice.score,
            chances_after(&game, seat, &choice.action, seed),
            "seed {seed}"
        );
    }
}
