//! Kinds read from text, and any game played and refused through its text.

use super::*;

#[test]
fn kinds_parse_by_id_or_name_and_refuse_others() {
    assert_eq!("chess".parse(), Ok(GameKind::Chess));
    assert_eq!(" Enthralling Chess ".parse(), Ok(GameKind::Enthralling));
    let err = "checkers".parse::<GameKind>().unwrap_err();
    assert_eq!(
        err,
        "unknown game \"checkers\"; choose one of: chess, enthralling, enprise, echek, snipe, chessatete"
    );
}

#[test]
fn any_game_plays_text_and_refuses_without_change() {
    let mut rng = GameRng::from_seed(3);
    let mut game = GameKind::Chess.start(&[], 2, &mut rng).unwrap();
    assert_eq!(game.legal_actions(Seat(0)).len(), 20);
    let played = game.play(Seat(0), "e2e4", &mut rng).unwrap();
    assert_eq!(played.canonical, "e4");
    assert_eq!(played.events[0].text, "White plays e4");
    let before = serde_json::to_string(&game).unwrap();
    let err = game.play(Seat(0), "d4", &mut rng).unwrap_err();
    assert_eq!(err.to_string(), "it is not your turn");
    let err = game.play(Seat(1), "e4", &mut rng).unwrap_err();
    assert_eq!(err.to_string(), "no pawn of yours can reach e4");
    let err = game.play(Seat(1), "e9", &mut rng).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot read \"e9\": that is not a move: try e4, Nf3, exd5, O-O, e8=Q or e2e4"
    );
    assert_eq!(before, serde_json::to_string(&game).unwrap());
    let restored: AnyGame = serde_json::from_str(&before).unwrap();
    assert_eq!(restored.kind(), GameKind::Chess);
}

#[test]
fn options_and_seat_counts_are_checked_per_game() {
    let mut rng = GameRng::from_seed(3);
    let pair = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
    assert!(
        GameKind::Enthralling
            .start(&pair("unable_to_enthrall_loses", "true"), 2, &mut rng)
            .is_ok()
    );
    let err = GameKind::Enthralling
        .start(&pair("fen", "x"), 2, &mut rng)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown option fen for Enthralling Chess; options: promoted_enthrallable, unable_to_enthrall_loses"
    );
    let err = GameKind::Chess.start(&[], 4, &mut rng).unwrap_err();
    assert!(matches!(err, SetupError::SeatCount { got: 4, .. }));
}
