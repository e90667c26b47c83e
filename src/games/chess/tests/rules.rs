//! Chess rules: moves, SAN and UCI, every ending, FEN, perft counts and the generic checks.

use super::*;
use crate::engine::testing::{Config, check_game};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game(fen: &str) -> Chess {
    Chess::from_position(pos(fen))
}

/// Plays SAN or UCI moves for whoever is to move; panics on a refusal.
fn play(game: &mut Chess, moves: &str) {
    let mut rng = GameRng::from_seed(0);
    for text in moves.split_whitespace() {
        let seat = seat_of(game.position().turn());
        let mv = game
            .parse_action(seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(seat, &mv, &mut rng)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn parse_err(fen: &str, text: &str) -> String {
    let p = pos(fen);
    parse_move(&p, text).expect_err(text).to_string()
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// Published perft counts (chessprogramming.org "Perft Results"), depth 1 upwards.
const PERFT: &[(&str, &[u64])] = &[
    (
        START_FEN,
        &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
    ),
    (KIWIPETE, &[48, 2_039, 97_862, 4_085_603, 193_690_690]),
    (POSITION_3, &[14, 191, 2_812, 43_238, 674_624, 11_030_083]),
    (POSITION_4, &[6, 264, 9_467, 422_333, 15_833_292]),
    (POSITION_5, &[44, 1_486, 62_379, 2_103_487, 89_941_194]),
    (POSITION_6, &[46, 2_079, 89_890, 3_894_594, 164_075_551]),
];

fn check_perft(max_nodes: u64) {
    for (fen, counts) in PERFT {
        let p = pos(fen);
        for (depth, &expected) in counts.iter().enumerate() {
            if expected > max_nodes {
                break;
            }
            let depth = depth as u32 + 1;
            assert_eq!(perft(&p, depth), expected, "perft {depth} of {fen}");
        }
    }
}

#[test]
fn perft_matches_published_tables() {
    check_perft(250_000);
}

#[test]
#[ignore = "deep perft: cargo test --release -- --ignored"]
fn perft_deep() {
    check_perft(20_000_000);
}

#[test]
fn fen_round_trips() {
    for (fen, _) in PERFT {
        assert_eq!(pos(fen).fen(), *fen);
    }
    let after_e4 = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(
        after_e4.ep_square().map(|s| s.to_string()),
        Some("e3".into())
    );
}

#[test]
fn bad_fens_are_refused_with_reasons() {
    assert_eq!(
        Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
        Err(FenError::Kings)
    );
    assert_eq!(
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"),
        Err(FenError::BadBoard)
    );
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
        Err(FenError::BadSide)
    );
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/8/4KX2 w - - 0 1"),
        Err(FenError::BadPiece('X'))
    );
    assert_eq!(
        Position::from_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        Err(FenError::PawnOnEdge)
    );
    assert_eq!(
        Position::from_fen("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
        Err(FenError::OpponentInCheck)
    );
}

#[test]
fn castling_not_out_of_through_or_into_check() {
    let ok = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(parse_move(&ok, "O-O").is_ok());
    assert!(parse_move(&ok, "O-O-O").is_ok());
    assert_eq!(
        parse_move(&ok, "0-0").unwrap(),
        parse_move(&ok, "e1g1").unwrap()
    );

    // Out of check: the rook on e8 attacks e1.
    let out = "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    assert!(parse_err(out, "O-O").contains("in check"));
    // Through check: the rook on f8 attacks f1.
    let through = "5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    assert!(parse_err(through, "O-O").contains("pass through"));
    assert!(
        parse_move(&pos(through), "O-O-O").is_ok(),
        "the other side is fine"
    );
    // Into check: the rook on g8 attacks g1.
    let into = "6rk/7p/8/8/8/8/8/R3K2R w KQ - 0 1";
    assert!(parse_err(into, "O-O").contains("attacked"));
    // b1 may be attacked for the long castle; only the king's path matters.
    let b1_attacked = "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
    assert!(parse_move(&pos(b1_attacked), "O-O-O").is_ok());
    // Blocked.
    let blocked = "4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1";
    assert!(parse_err(blocked, "O-O-O").contains("between"));
}

#[test]
fn castling_rights_end_when_king_or_rook_moves_or_the_rook_is_taken() {
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "Rh2 Rh7 Rh1 Rh8");
    let c = g.position().castling();
    assert!(!c.has(Color::White, true) && c.has(Color::White, false));
    assert!(!c.has(Color::Black, true) && c.has(Color::Black, false));
    assert!(
        parse_move(g.position(), "O-O")
            .unwrap_err()
            .reason
            .contains("has moved or is gone")
    );

    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "Rxa8+");
    assert!(
        !g.position().castling().has(Color::Black, false),
        "rook taken"
    );
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "Kf1 Kd8 Ke1 Ke8");
    assert_eq!(g.position().castling().bits(), 0);
    // Castling moves the rook too.
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "O-O O-O-O");
    assert_eq!(g.position().fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
}

#[test]
fn en_passant_only_at_once_and_not_into_check() {
    let mut g = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut g, "d5");
    let mv = parse_move(g.position(), "exd6").unwrap();
    assert_eq!(san(g.position(), mv), "exd6");
    assert!(parse_move(g.position(), "exd6 e.p.").is_ok());
    let mut taken = g.clone();
    play(&mut taken, "exd6");
    assert_eq!(
        taken.position().piece_at(Square::parse("d5").unwrap()),
        None,
        "pawn removed"
    );
    play(&mut g, "Kf2 Kd7");
    assert!(
        parse_move(g.position(), "exd6").is_err(),
        "the chance has passed"
    );

    // Taking en passant would open the fifth rank to the rook: illegal.
    let pinned = "8/8/8/KPp4r/8/8/8/7k w - c6 0 1";
    assert!(parse_err(pinned, "bxc6").contains("leave your king in check"));
}

#[test]
fn promotion_to_each_piece() {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let promotions: Vec<String> = san_all(&p)
        .into_iter()
        .filter(|(m, _)| m.promotion.is_some())
        .map(|(_, s)| s)
        .collect();
    assert_eq!(promotions, vec!["e8=Q", "e8=R", "e8=B", "e8=N"]);
    assert_eq!(
        parse_move(&p, "e8=N").unwrap().promotion,
        Some(Role::Knight)
    );
    assert_eq!(parse_move(&p, "e8Q").unwrap().promotion, Some(Role::Queen));
    assert_eq!(parse_move(&p, "e7e8r").unwrap().promotion, Some(Role::Rook));
    assert!(parse_err("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8").contains("becomes"));
    assert!(parse_err("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8").contains("becomes"));
}

#[test]
fn fools_mate_is_checkmate() {
    let mut g = Chess::new(&ChessOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    play(&mut g, "f3 e5 g4");
    let mate = g.parse_action(Seat(1), "Qh4").unwrap();
    assert_eq!(g.format_action(&mate), "Qh4#");
    let events = g.apply(Seat(1), &mate, &mut GameRng::from_seed(1)).unwrap();
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.winners(), &[Seat(1)]);
    assert_eq!(outcome.reason, "checkmate");
    assert!(events.iter().any(|e| e.text.contains("Black plays Qh4#")));
    assert_eq!(g.to_act(), ToAct::Over(outcome.clone()));
    assert!(g.legal_actions(Seat(0)).is_empty());
    assert_eq!(
        g.apply(Seat(0), &mate, &mut GameRng::from_seed(1)),
        Err(RuleError::GameOver)
    );
}

#[test]
fn stalemate_is_a_draw() {
    let mut g = game("7k/8/6K1/5Q2/8/8/8/8 w - - 0 1");
    play(&mut g, "Qf7");
    let outcome = g.outcome().unwrap();
    assert!(outcome.is_draw());
    assert_eq!(outcome.reason, "stalemate");
}

#[test]
fn threefold_repetition_counts_positions_not_moves() {
    let mut g = Chess::new(&ChessOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    play(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert!(
        g.outcome().is_none(),
        "the start position has occurred twice so far"
    );
    play(&mut g, "Ng8");
    assert_eq!(g.outcome().unwrap().reason, "threefold repetition");

    // An en passant square that no pawn can use does not make the position different.
    let after_e4 = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let same = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(after_e4.repetition_key(), same.repetition_key());
    // One that can be used does.
    let usable = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    let gone = pos("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    assert_ne!(usable.repetition_key(), gone.repetition_key());
    // Castling rights are part of the position.
    assert_ne!(
        pos("r3k3/8/8/8/8/8/8/4K3 w q - 0 1").repetition_key(),
        pos("r3k3/8/8/8/8/8/8/4K3 w - - 0 1").repetition_key()
    );
}

#[test]
fn fifty_moves_draw_but_mate_on_the_last_move_wins() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    play(&mut g, "Ra2");
    assert_eq!(g.outcome().unwrap().reason, "the fifty-move rule");

    let mut g = game("6k1/5ppp/8/8/8/8/8/R3K3 w - - 99 80");
    play(&mut g, "Ra8");
    let outcome = g.outcome().unwrap();
    assert_eq!(
        (outcome.reason.as_str(), outcome.winners()),
        ("checkmate", &[Seat(0)][..])
    );

    let mut g = game("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80");
    play(&mut g, "e4");
    assert!(g.outcome().is_none(), "a pawn move resets the count");
}

#[test]
fn dead_positions_are_drawn() {
    let dead = [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 b - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
    ];
    for fen in dead {
        assert!(pos(fen).insufficient_material(), "{fen}");
        assert_eq!(game(fen).outcome().unwrap().reason, ENDING_DEAD, "{fen}");
    }
    let alive = [
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", // bishops on both colours
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    ];
    for fen in alive {
        assert!(!pos(fen).insufficient_material(), "{fen}");
    }
    let mut g = game("4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1");
    play(&mut g, "Kxd2");
    assert_eq!(g.outcome().unwrap().reason, ENDING_DEAD);
}

const ENDING_DEAD: &str = "dead position (insufficient material)";

#[test]
fn san_disambiguates_and_marks_checks() {
    // Knights on b1 and f3 can both reach d2: file letters.
    let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let names: Vec<String> = san_all(&p).into_iter().map(|(_, s)| s).collect();
    assert!(
        names.contains(&"Nbd2".into()) && names.contains(&"Nfd2".into()),
        "{names:?}"
    );
    // Rooks on a1 and a5: rank digits.
    let p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    let names: Vec<String> = san_all(&p).into_iter().map(|(_, s)| s).collect();
    assert!(
        names.contains(&"R1a3".into()) && names.contains(&"R5a3".into()),
        "{names:?}"
    );
    // Queens on h4, e4 and h1 all reach e1: file and rank.
    let p = pos("8/8/1k6/8/4Q2Q/8/8/2K4Q w - - 0 1");
    let names: Vec<String> = san_all(&p).into_iter().map(|(_, s)| s).collect();
    assert!(names.contains(&"Qh4e1".into()), "{names:?}");
    // Captures and checks.
    let p = pos("4k3/8/8/3p4/4P3/8/8/R3K3 w - - 0 1");
    let names: Vec<String> = san_all(&p).into_iter().map(|(_, s)| s).collect();
    assert!(
        names.contains(&"exd5".into()) && names.contains(&"Ra8+".into()),
        "{names:?}"
    );
}

#[test]
fn moves_are_read_leniently_but_never_wrongly() {
    let start = Position::default();
    let nf3 = Move::parse_uci("g1f3").unwrap();
    for text in ["Nf3", "g1f3", "Ng1f3", "Ng1-f3", "nf3", " Nf3+ ", "Nf3!?"] {
        assert_eq!(parse_move(&start, text), Ok(nf3), "{text}");
    }
    // A rank-disambiguated piece move is SAN even though it looks like UCI in capitals.
    let rooks = pos("R7/8/8/8/8/8/6k1/R3K3 w - - 0 1");
    assert_eq!(
        parse_move(&rooks, "R8a5").map(|m| m.uci()),
        Ok("a8a5".into())
    );
    assert_eq!(
        parse_move(&rooks, "R1a5").map(|m| m.uci()),
        Ok("a1a5".into())
    );
    let capture = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(
        parse_move(&capture, "ed5").map(|m| m.uci()),
        Ok("e4d5".into())
    );
    // "d5" is a push, never a capture that forgot its file.
    assert!(parse_move(&capture, "d5").is_err());
    assert!(parse_move(&capture, "xd5").is_err());
    // Castling is O-O or O-O-O in SAN; a two-square king move written as Kg1 is refused.
    let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(
        parse_move(&castle, "Kg1")
            .unwrap_err()
            .reason
            .contains("no king of yours can reach g1")
    );
    assert!(parse_move(&castle, "Kc1").is_err());
    assert_eq!(
        parse_move(&castle, "e1g1"),
        parse_move(&castle, "O-O"),
        "UCI castles"
    );
    // A lower-case b is the b-file, never the bishop.
    let both = pos("4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1");
    assert_eq!(parse_move(&both, "bc4").map(|m| m.uci()), Ok("b3c4".into()));
    assert_eq!(parse_move(&both, "Bc4").map(|m| m.uci()), Ok("f1c4".into()));
    assert_eq!(
        parse_move(&both, "bxc4").map(|m| m.uci()),
        Ok("b3c4".into())
    );
}

#[test]
fn refusals_say_why() {
    let start = START_FEN;
    assert_eq!(parse_err(start, "Nf6"), "no knight of yours can reach f6");
    assert_eq!(parse_err(start, "e5"), "no pawn of yours can reach e5");
    assert_eq!(
        parse_err(start, "hello"),
        "cannot read \"hello\": that is not a move: try e4, Nf3, exd5, O-O, e8=Q or e2e4"
    );
    assert!(parse_err(start, "").contains("type a move"));
    assert!(parse_err(start, "e7e5").contains("not yours"));
    assert!(parse_err(start, "e3e4").contains("no piece on e3"));
    assert_eq!(
        parse_err("4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1", "Nc3"),
        "2 of your knights can reach c3: say which, Nbc3 or Ndc3"
    );
    // A pinned knight.
    assert!(
        parse_err("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3").contains("leave your king in check")
    );
    // In check, a move that ignores it.
    assert!(parse_err("4r1k1/8/8/8/8/8/8/N3K3 w - - 0 1", "Nb3").contains("out of check"));
}

#[test]
fn apply_refuses_out_of_turn_and_illegal_moves_without_change() {
    let mut g = Chess::new(&ChessOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    let before = serde_json::to_string(&g).unwrap();
    let e4 = Move::parse_uci("e2e4").unwrap();
    let mut rng = GameRng::from_seed(1);
    assert_eq!(g.apply(Seat(1), &e4, &mut rng), Err(RuleError::NotYourTurn));
    let bad = Move::parse_uci("e2e5").unwrap();
    assert_eq!(
        g.apply(Seat(0), &bad, &mut rng),
        Err(RuleError::Illegal("no pawn of yours can reach e5".into()))
    );
    assert_eq!(before, serde_json::to_string(&g).unwrap());
    assert!(
        g.parse_action(Seat(1), "e5")
            .unwrap_err()
            .reason
            .contains("not your turn")
    );
}

#[test]
fn huge_move_counters_saturate_instead_of_overflowing() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 4294967295 4294967295";
    let options = ChessOptions {
        fen: Some(fen.into()),
    };
    // The counters saturate, and a start already drawn by the fifty-move rule is refused.
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(pos.fullmoves(), u32::MAX);
    let g = Chess::from_position(pos);
    assert_eq!(g.outcome().unwrap().reason, "the fifty-move rule");
    let err = Chess::new(&options, 2, &mut GameRng::from_seed(0)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the fen position is already over (Draw by the fifty-move rule); give one with a move to play"
    );
    let mut g = game("4k3/8/8/8/8/8/4P3/4K3 b - - 0 4294967295");
    play(&mut g, "Kd7");
    assert_eq!(g.position().fullmoves(), u32::MAX);
    assert!(g.outcome().is_none());
}

#[test]
fn options_and_seats() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
    let opts: ChessOptions =
        crate::engine::options_from_pairs("Chess", &[("fen".into(), fen.into())]).unwrap();
    let g = Chess::new(&opts, 2, &mut GameRng::from_seed(0)).unwrap();
    assert_eq!(g.position().fen(), fen);
    let err = crate::engine::options_from_pairs::<ChessOptions>(
        "Chess",
        &[("colour".into(), "x".into())],
    );
    assert_eq!(
        err.unwrap_err().to_string(),
        "unknown option colour for Chess; options: fen"
    );
    let err = Chess::new(&ChessOptions::default(), 3, &mut GameRng::from_seed(0)).unwrap_err();
    assert_eq!(err.to_string(), "Chess is played by 2 players, not 3");
    let bad = ChessOptions {
        fen: Some("nonsense".into()),
    };
    assert!(Chess::new(&bad, 2, &mut GameRng::from_seed(0)).is_err());
}

#[test]
fn views_orient_and_mark_check() {
    let mut g = Chess::new(&ChessOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    play(&mut g, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7");
    let white = g.view(Viewer::Seat(Seat(0)));
    let black = g.view(Viewer::Seat(Seat(1)));
    let spectator = g.view(Viewer::Spectator);
    assert_eq!(
        (white.bottom, black.bottom, spectator.bottom),
        (Color::White, Color::Black, Color::White)
    );
    assert_eq!(black.check, Square::parse("e8"), "the mated king is marked");
    assert_eq!(white.last_move.as_ref().unwrap().san, "Qxf7#");
    assert_eq!(white.pieces.len(), 31);
    assert!(
        white.status.contains("White won by checkmate"),
        "{}",
        white.status
    );

    let mut g = Chess::new(&ChessOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    play(&mut g, "e4 f5 Qh5+");
    assert_eq!(g.view(Viewer::Spectator).check, Square::parse("e8"));
}

#[test]
fn random_games_keep_the_contract() {
    let mut config = Config::<Chess>::new(ChessOptions::default(), 2, 0..24);
    config.max_actions = 6_000;
    config.actions_checked_per_state = 12;
    let report = check_game(&config);
    assert_eq!(report.games, 24);
    assert!(report.actions > 24 * 20, "{report:?}");
}

#[test]
fn an_en_passant_out_of_time_says_so() {
    // Black's d-pawn made its double step, then both sides moved on: exd6 is too late.
    let mut g = game(START_FEN);
    play(&mut g, "e4 a6 e5 d5 a3 a5");
    assert_eq!(
        parse_err(&g.position().fen(), "exd6"),
        "en passant is only possible right after the double step"
    );
    // Right after the double step it is played.
    let mut g = game(START_FEN);
    play(&mut g, "e4 a6 e5 d5 exd6");
    assert_eq!(g.position().piece_at(Square::parse("d5").unwrap()), None);
}

#[test]
fn a_finished_position_is_refused_as_a_start() {
    for (fen, result) in [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "Black won by checkmate",
        ),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Draw by stalemate"),
        (
            "7k/8/6K1/8/8/8/8/8 w - - 0 1",
            "Draw by dead position (insufficient material)",
        ),
    ] {
        let options = ChessOptions {
            fen: Some(fen.into()),
        };
        let err = Chess::new(&options, 2, &mut GameRng::from_seed(0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("the fen position is already over ({result}); give one with a move to play")
        );
    }
}

#[test]
fn extra_fields_repeated_rights_and_impossible_material_are_refused() {
    let refused = |fen: &str| Position::from_fen(fen).unwrap_err();
    assert_eq!(
        refused("4k3/8/8/8/8/8/8/4K3 w - - 0 1 more"),
        FenError::TooLong
    );
    assert_eq!(
        refused("r3k2r/8/8/8/8/8/8/R3K2R w KKq - 0 1"),
        FenError::BadCastling("KKq".into())
    );
    assert_eq!(
        refused("QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/k1K5 b - - 0 1"),
        FenError::TooManyPieces(Color::White)
    );
    assert_eq!(
        refused("4k3/8/PPPPPPPP/P7/8/8/8/4K3 w - - 0 1"),
        FenError::TooManyPawns(Color::White)
    );
    assert_eq!(
        refused("4k3/8/8/8/8/PPPPPPPP/8/QQ2K3 w - - 0 1"),
        FenError::TooManyPromoted(Color::White)
    );
    assert_eq!(
        refused("qq2k3/pppppppp/8/8/8/8/8/4K3 b - - 0 1"),
        FenError::TooManyPromoted(Color::Black)
    );
    assert_eq!(
        FenError::TooManyPromoted(Color::Black).to_string(),
        "Black has more promoted pieces than pawns missing"
    );
    // Eight promoted queens are possible once every pawn is gone.
    assert!(Position::from_fen("QQQQQQQQ/8/8/8/8/8/8/k1K5 b - - 0 1").is_ok());
}

#[test]
fn an_en_passant_square_no_pawn_could_have_skipped_is_dropped() {
    let sq = |s: &str| Square::parse(s).unwrap();
    // A knight stands on e3: no pawn crossed it, and d4xe3 takes the knight alone.
    let p = pos("4k3/8/8/8/3pP3/4N3/8/4K3 b - e3 0 1");
    assert_eq!(p.ep_square(), None);
    assert_eq!(p.fen(), "4k3/8/8/8/3pP3/4N3/8/4K3 b - - 0 1");
    let after = p.play_unchecked(Move::new(sq("d4"), sq("e3")));
    assert_eq!(
        after.piece_at(sq("e4")),
        Some(Piece::new(Color::White, Role::Pawn))
    );
    // A bishop stands on e2, where the pawn would have started.
    let q = pos("4k3/8/8/8/3pP3/8/4B3/4K3 b - e3 0 1");
    assert_eq!(q.ep_square(), None);
    // A real double step keeps it.
    let r = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert_eq!(r.ep_square(), Some(sq("e3")));
}

#[test]
fn a_result_tag_that_is_no_result_is_not_written_as_a_move() {
    let game = pgn::read("[Result \"won\"]\n\n1. e4 e5\n").unwrap();
    assert_eq!(game.result, "*");
    let back = pgn::read(&game.write()).unwrap();
    assert_eq!(back.moves.len(), 2);
    assert_eq!(back.result, "*");
}

#[test]
fn a_huge_move_number_in_the_fen_tag_is_written_without_overflow() {
    let san = |s: &str| pgn::PgnMove {
        san: s.into(),
        comment: None,
    };
    let game = pgn::PgnGame {
        tags: vec![(
            "FEN".into(),
            format!("4k3/8/8/8/8/8/8/4K3 b - - 0 {}", usize::MAX),
        )],
        moves: vec![san("Kd7"), san("Kd2"), san("Ke7")],
        result: "*".into(),
    };
    let text = game.write();
    assert!(
        text.contains(&format!("{}... Kd7 {}. Kd2 Ke7", usize::MAX, usize::MAX)),
        "{text}"
    );
}

#[test]
fn a_playout_cut_short_is_scored_by_material() {
    let even = Chess::new(&ChessOptions::default(), 2, &mut GameRng::from_seed(0)).unwrap();
    assert_eq!(even.evaluate(), Some(vec![0.5, 0.5]));
    let options = ChessOptions {
        fen: Some("4k3/8/8/8/8/8/8/3QK3 w - - 0 1".into()),
    };
    let queen_up = Chess::new(&options, 2, &mut GameRng::from_seed(0)).unwrap();
    let chances = queen_up.evaluate().unwrap();
    assert!(
        chances[0] > 0.95 && (chances[0] + chances[1] - 1.0).abs() < 1e-9,
        "{chances:?}"
    );
}
