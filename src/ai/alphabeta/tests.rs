//! The alpha-beta search on tic-tac-toe, small enough to search to the end: it never loses to
//! any opponent, takes a win, blocks a loss, prefers the nearest win, repeats itself for a seed
//! and lets the seed break ties, and keeps its first iteration whatever the clock says.

use super::*;
use crate::games::tictactoe::{TicTacToe, TicTacToeOptions};

/// Deep enough to reach every ending of tic-tac-toe.
const PERFECT: Limits = Limits {
    depth: 9,
    nodes: u64::MAX,
    quiescence: 0,
    noise: 0,
    table_bits: 4,
};

fn tictactoe(marks: &[&str]) -> TicTacToe {
    let mut rng = GameRng::from_seed(0);
    let mut game = TicTacToe::new(&TicTacToeOptions::default(), 2, &mut rng).unwrap();
    for (i, cell) in marks.iter().enumerate() {
        let seat = Seat((i % 2) as u8);
        let action = game.parse_action(seat, cell).unwrap();
        game.apply(seat, &action, &mut rng).unwrap();
    }
    game
}

fn seat_to_act(game: &TicTacToe) -> Seat {
    game.to_act().seats()[0]
}

fn best(game: &TicTacToe, limits: &Limits, seed: u64) -> Found<usize> {
    search(game, seat_to_act(game), limits, seed, &|| false).unwrap()
}

fn cell(game: &TicTacToe, found: &Found<usize>) -> String {
    game.format_action(&found.action)
}

/// Plays every line where `me` follows the search and the other seat tries everything;
/// panics at a loss for `me`. The number of endings reached.
fn never_loses(game: &TicTacToe, me: Seat, seed: u64) -> usize {
    if let Some(outcome) = game.to_act().outcome() {
        assert!(
            rewards(outcome, 2)[me.index()] >= 0.5,
            "{me} lost: {game:?}"
        );
        return 1;
    }
    let seat = seat_to_act(game);
    let choices = if seat == me {
        vec![best(game, &PERFECT, seed).action]
    } else {
        game.legal_actions(seat)
    };
    choices
        .iter()
        .map(|action| {
            let mut next = game.clone();
            next.apply(seat, action, &mut GameRng::from_seed(0))
                .unwrap();
            never_loses(&next, me, seed)
        })
        .sum()
}

#[test]
fn perfect_tictactoe_never_loses_to_any_opponent() {
    let start = tictactoe(&[]);
    for seed in 0..2 {
        assert!(never_loses(&start, Seat(0), seed) > 50, "as X, seed {seed}");
        assert!(
            never_loses(&start, Seat(1), seed) > 100,
            "as O, seed {seed}"
        );
    }
}

#[test]
fn it_takes_a_win_blocks_a_loss_and_knows_the_score() {
    for seed in 0..5 {
        // X to play with a1 and b1 taken: c1 wins at once.
        let game = tictactoe(&["a1", "a3", "b1", "b3"]);
        let found = best(&game, &PERFECT, seed);
        assert_eq!(cell(&game, &found), "c1", "seed {seed}");
        assert_eq!(found.score, WIN - 1, "a win in one ply");
        // O to play; X threatens c1 (a1, b1): O must block, and then draws at best.
        let game = tictactoe(&["a1", "b2", "b1"]);
        let found = best(&game, &PERFECT, seed);
        assert_eq!(cell(&game, &found), "c1", "seed {seed}");
        assert_eq!(found.score, 0, "a draw with best play");
        // O (b1, b2) threatens b3; X (a1, c3) has no win yet and must block.
        let game = tictactoe(&["a1", "b1", "c3", "b2"]);
        let found = best(&game, &PERFECT, seed);
        assert_eq!(
            cell(&game, &found),
            "b3",
            "X must block b3 first, seed {seed}"
        );
    }
}

#[test]
fn a_forced_loss_is_scored_by_its_distance() {
    // X (a1, c3, c1) against O (b2, a3, b1), X to play: c2 wins at once.
    let game = tictactoe(&["a1", "b2", "c3", "a3", "c1", "b1"]);
    assert_eq!(cell(&game, &best(&game, &PERFECT, 0)), "c2");
    // A ply earlier O is to play against the two threats b1 and c2: whatever O does, X wins
    // on the next ply, two plies from the root.
    let game = tictactoe(&["a1", "b2", "c3", "a3", "c1"]);
    assert_eq!(best(&game, &PERFECT, 0).score, -(WIN - 2));
}

#[test]
fn a_seed_repeats_its_choice_and_breaks_ties() {
    let empty = tictactoe(&[]);
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let once = best(&empty, &PERFECT, seed);
        assert_eq!(once, best(&empty, &PERFECT, seed), "seed {seed}");
        assert_eq!(once.score, 0, "tic-tac-toe is a draw");
        firsts.insert(cell(&empty, &once));
    }
    assert!(firsts.len() > 1, "every seed opened {firsts:?}");
}

#[test]
fn the_first_iteration_always_completes_and_later_ones_obey_the_clock_and_the_budget() {
    let empty = tictactoe(&[]);
    let stopped = search(&empty, Seat(0), &PERFECT, 1, &|| true).unwrap();
    assert_eq!(stopped.depth, 1, "stopped at once, it still has depth 1");
    let small = Limits {
        nodes: 300,
        ..PERFECT
    };
    let budgeted = search(&empty, Seat(0), &small, 1, &|| false).unwrap();
    assert!(
        (1..9).contains(&budgeted.depth) && budgeted.nodes <= 300,
        "{budgeted:?}"
    );
    let full = best(&empty, &PERFECT, 1);
    assert!(full.depth > budgeted.depth, "{full:?}");
    // Nothing to do: no action.
    assert_eq!(search(&empty, Seat(1), &PERFECT, 1, &|| false), None);
}

#[test]
fn noise_makes_a_weak_level_miss_quiet_moves_but_never_a_win() {
    let noisy = Limits {
        depth: 1,
        noise: 500,
        ..PERFECT
    };
    // Without an evaluation every quiet cell scores 0, so noise alone picks among them...
    let empty = tictactoe(&[]);
    let picks: std::collections::BTreeSet<String> = (0..12)
        .map(|seed| cell(&empty, &best(&empty, &noisy, seed)))
        .collect();
    assert!(picks.len() > 2, "{picks:?}");
    // ...but a win is never traded for noise.
    let game = tictactoe(&["a1", "a3", "b1", "b3"]);
    for seed in 0..12 {
        assert_eq!(cell(&game, &best(&game, &noisy, seed)), "c1", "seed {seed}");
    }
}

#[test]
fn a_chance_reads_as_centipawns() {
    assert_eq!(score_of_chance(0.5), 0);
    // Chess's material chance for three pawns up.
    let three_pawns = 1.0 / (1.0 + 10f64.powf(-3.0 / 4.0));
    assert_eq!(score_of_chance(three_pawns), 300);
    assert_eq!(score_of_chance(1.0 - three_pawns), -300);
    assert!(score_of_chance(1.0) < DECIDED && score_of_chance(1.0) > 5_000);
    assert_eq!(score_of_chance(f64::NAN), 0);
}
