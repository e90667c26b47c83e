//! Tic-tac-toe under the contract's generic checks, and as the registration list makes it:
//! a kind with an id, stored and read back, never offered to players.

use super::*;
use crate::engine::testing::{Config, check_game, play_text, refusal};
use crate::games::{AnyGame, GameKind, OnTime};

#[test]
fn tictactoe_passes_the_generic_checks() {
    let report = check_game(&Config::<TicTacToe>::new(
        TicTacToeOptions::default(),
        2,
        0..300,
    ));
    assert_eq!(report.games, 300);
    assert!(
        report.actions >= 300 * 5,
        "every game takes five marks or more"
    );
    assert!(
        report.outcomes.keys().any(|o| o.starts_with("draw")),
        "{:?}",
        report.outcomes
    );
    assert!(
        report.outcomes.keys().any(|o| o.contains("won")),
        "{:?}",
        report.outcomes
    );
}

#[test]
fn three_in_a_row_wins_and_a_full_board_draws() {
    let mut g =
        TicTacToe::new(&TicTacToeOptions::default(), 2, &mut GameRng::from_seed(0)).unwrap();
    for (seat, cell) in [(0, "a1"), (1, "a2"), (0, "b1"), (1, "b2")] {
        play_text(&mut g, Seat(seat), cell);
    }
    assert_eq!(refusal(&g, Seat(1), "c1"), "it is not your turn");
    assert_eq!(refusal(&g, Seat(0), "a2"), "a2 is taken");
    assert!(refusal(&g, Seat(0), "d4").contains("a cell is a1 to c3"));
    play_text(&mut g, Seat(0), "C1");
    assert_eq!(
        g.describe(g.to_act().outcome().unwrap()),
        "White won by three in a row"
    );
    assert_eq!(g.view(Viewer::Spectator).rows, ["...", "OO.", "XXX"]);

    let mut g =
        TicTacToe::new(&TicTacToeOptions::default(), 2, &mut GameRng::from_seed(0)).unwrap();
    let moves = ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"];
    for (i, cell) in moves.iter().enumerate() {
        play_text(&mut g, Seat((i % 2) as u8), cell);
    }
    assert!(g.to_act().outcome().unwrap().is_draw());
}

#[test]
fn the_registration_line_makes_a_kind_that_is_stored_by_its_id_and_never_offered() {
    let kind: GameKind = "tictactoe".parse().unwrap();
    assert_eq!(kind.name(), "Tic-tac-toe");
    assert_eq!(serde_json::to_value(kind).unwrap(), "tictactoe");
    assert!(GameKind::REGISTERED.contains(&kind));
    assert!(
        !GameKind::ALL.contains(&kind),
        "a test-only game is offered to nobody"
    );

    let mut game: AnyGame = kind.start(&[], 2, &mut GameRng::from_seed(1)).unwrap();
    assert_eq!(game.kind(), kind);
    game.play(Seat(0), "b2", &mut GameRng::from_seed(1))
        .unwrap();
    let stored = serde_json::to_string(&game).unwrap();
    assert!(stored.starts_with(r#"{"game":"tictactoe""#), "{stored}");
    let back: AnyGame = serde_json::from_str(&stored).unwrap();
    assert_eq!(back.legal_actions(Seat(1)).len(), 8);

    // The contract's defaults, correct for two seats.
    assert_eq!(
        game.resignation(Seat(1)),
        Ok(Outcome::winner(Seat(0), 2, "resignation"))
    );
    assert_eq!(
        game.on_time(Seat(0)),
        OnTime::Finish(Outcome::winner(Seat(1), 2, "time"))
    );
    assert_eq!(game.remaining_seats(), vec![Seat(0), Seat(1)]);
    assert_eq!(game.turn_owner(), None);
    assert_eq!(game.timeout(), None);
    assert_eq!(kind.pgn(), None);
    assert_eq!(kind.seat_name(Seat(1)), "Black");
}
