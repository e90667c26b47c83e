use super::*;
use crate::engine::testing::{Config, check_game};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn setup(setup: Setup) -> Enthralling {
    Enthralling::from_setup(&setup, EnthrallingOptions::default()).unwrap()
}

fn new_game() -> Enthralling {
    Enthralling::new(
        &EnthrallingOptions::default(),
        2,
        &mut GameRng::from_seed(1),
    )
    .unwrap()
}

fn seat(game: &Enthralling) -> Seat {
    seat_of(game.position().turn())
}

/// Plays actions separated by "|" for whoever is to move; panics on a refusal.
fn play(game: &mut Enthralling, actions: &str) {
    for text in actions.split('|') {
        let s = seat(game);
        let turn = game
            .parse_action(s, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(s, &turn, &mut GameRng::from_seed(0))
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn refusal(game: &Enthralling, text: &str) -> String {
    let err = game.parse_action(seat(game), text).expect_err(text);
    err.reason
}

fn legal_texts(game: &Enthralling) -> Vec<String> {
    game.legal_actions(seat(game))
        .iter()
        .map(|t| game.format_action(t))
        .collect()
}

fn liberations(game: &Enthralling) -> Vec<Square> {
    let mut found: Vec<Square> = game
        .legal_actions(seat(game))
        .iter()
        .filter_map(|t| match t.then {
            Some(Extra::Liberate { at }) => Some(at),
            _ => None,
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

#[test]
fn the_first_three_moves_are_plain_chess() {
    let mut g = new_game();
    play(&mut g, "e4|e5|Nf3|Nc6");
    assert!(refusal(&g, "Bc4 enthrall Nc6 g1").contains("start with your fourth move"));
    assert!(g.legal_actions(Seat(0)).iter().all(|t| t.then.is_none()));
    assert!(
        g.view(Viewer::Spectator)
            .board
            .status
            .contains("1 plain move left")
    );
    play(&mut g, "Bc4|Bc5");

    // The fourth move must be followed by Enthrall or Liberate.
    let legal = g.legal_actions(Seat(0));
    assert!(!legal.is_empty() && legal.iter().all(|t| t.then.is_some()));
    assert!(g.view(Viewer::Spectator).must_enthrall_or_liberate);
    assert!(refusal(&g, "d3").contains("must also enthrall or liberate"));
    // Where the piece goes: a square where one of yours of its type started, and empty.
    assert!(refusal(&g, "d3 enthrall Nc6 c1").contains("where one of your knights started"));
    assert!(refusal(&g, "d3 enthrall Nc6 b1").contains("b1 is not empty"));
    assert!(
        refusal(&g, "O-O enthrall Nc6 g1").contains("g1 is not empty"),
        "the castled king stands there"
    );
    assert!(refusal(&g, "d3 enthrall Qd8 d1").contains("queen cannot be enthralled"));
    assert!(refusal(&g, "d3 enthrall Ke8 e1").contains("king cannot be enthralled"));
    assert!(refusal(&g, "d3 enthrall Bc4 f1").contains("already yours"));
    assert!(refusal(&g, "d3 liberate Nc6").contains("not one of your pieces held by Black"));

    play(&mut g, "d3 enthrall Nc6 g1");
    let view = g.view(Viewer::Spectator);
    let g1 = view
        .board
        .pieces
        .iter()
        .find(|p| p.square == sq("g1"))
        .unwrap();
    assert_eq!(g1.piece, Piece::new(Color::White, Role::Knight));
    assert!(g1.marked, "enthralled pieces are marked");
    assert_eq!(view.latest_enthralled, [Some(sq("g1")), None]);
    assert!(view.board.pieces.iter().filter(|p| p.marked).count() == 1);
    // Black's fourth move.
    assert!(g.legal_actions(Seat(1)).iter().all(|t| t.then.is_some()));
    assert!(refusal(&g, "d6 enthrall Ng1 g8").contains("enthralled before"));
}

#[test]
fn the_many_turns_with_extras_are_grouped_by_their_move() {
    let mut g = new_game();
    play(&mut g, "e4|e5|Nf3|Nc6|Bc4|Bc5");
    let legal = g.legal_actions(Seat(0));
    let mut groups: Vec<(String, usize)> = Vec::new();
    for turn in &legal {
        let group = g.action_group(turn);
        let text = g.format_action(turn);
        let (mv, _) = text.split_once(' ').unwrap();
        let mv = mv.trim_end_matches(['+', '#']);
        let extra = if text.contains(" enthrall ") {
            "enthrall"
        } else {
            "liberate"
        };
        assert_eq!(group, format!("{mv} then {extra}"), "{text}");
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, n)) => *n += 1,
            None => groups.push((group, 1)),
        }
    }
    let most = groups.iter().map(|(_, n)| *n).max().unwrap();
    assert!(
        legal.len() > 200 && groups.len() > 20 && most * 5 < legal.len(),
        "{} actions in {} groups, the largest {most}",
        legal.len(),
        groups.len()
    );
}

#[test]
fn actions_are_read_leniently_in_one_canonical_form() {
    let mut g = new_game();
    play(&mut g, "e4|e5|Nf3|Nc6|Bc4|Bc5");
    let canonical = g.parse_action(Seat(0), "d3 enthrall Nc6 g1").unwrap();
    assert_eq!(g.format_action(&canonical), "d3 enthrall Nc6 g1");
    for text in [
        "d3 en c6 g1",
        "d3, enthrall Nc6 -> g1",
        "d2d3 ENTHRALL nc6 to G1",
        "d3 ent Nc6 g1",
    ] {
        assert_eq!(g.parse_action(Seat(0), text), Ok(canonical), "{text}");
    }
    assert!(refusal(&g, "d3 enthrall Nc6").contains("two squares"));
    assert!(refusal(&g, "d3 enthrall Nc6 z9").contains("not a square"));
    assert!(refusal(&g, "enthrall Nc6 g1").contains("start with your move"));
    assert!(refusal(&g, "d5 enthrall Nc6 g1").contains("no pawn of yours can reach d5"));
    assert_eq!(
        g.parse_action(Seat(1), "d6").unwrap_err().reason,
        "it is not your turn"
    );
}

#[test]
fn an_enthralled_pawn_may_double_step_from_your_second_rank() {
    let mut g = new_game();
    play(&mut g, "e4|d5|exd5|Qxd5|Nc3|Qa5");
    play(&mut g, "Nf3 enthrall Pe7 e2|Nf6 enthrall Pa2 d7");
    let e2 = g.position().piece_at(sq("e2")).unwrap();
    assert_eq!(e2, Piece::new(Color::White, Role::Pawn));
    let double_step = g
        .legal_actions(Seat(0))
        .into_iter()
        .find(|t| t.mv == Move::parse_uci("e2e4").unwrap())
        .expect("the enthralled pawn may advance two squares");
    g.apply(Seat(0), &double_step, &mut GameRng::from_seed(0))
        .unwrap();
    let e4 = g.pieces().iter().find(|t| t.at == Some(sq("e4"))).unwrap();
    assert!(e4.enthralled && e4.owner == Color::Black && e4.origin == sq("e7"));
    assert_eq!(
        g.position().ep_square(),
        Some(sq("e3")),
        "and may be taken en passant"
    );
}

#[test]
fn a_king_may_not_castle_with_an_enthralled_rook() {
    let g = setup(Setup {
        fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        enthralled: &["h1"],
        ..Default::default()
    });
    assert!(refusal(&g, "O-O").contains("enthralled rook"));
    assert!(refusal(&g, "e1g1").contains("enthralled rook"));
    assert!(g.parse_action(Seat(0), "O-O-O").is_ok());
    assert!(!legal_texts(&g).contains(&"O-O".to_string()));
    assert!(legal_texts(&g).contains(&"O-O-O".to_string()));

    // In play, enthralling a rook from its home square ends that castling right.
    let mut g = setup(Setup {
        fen: "r3k3/8/8/8/8/8/8/R3K2R b KQq - 0 20",
        moves_made: [5, 5],
        ..Default::default()
    });
    play(&mut g, "Kd8 enthrall Rh1 h8");
    assert!(!g.position().castling().has(Color::White, true));
    assert!(refusal(&g, "O-O").contains("has moved or is gone"));
}

/// White holds Black's knight g1 (enthralled most recently) and bishop f1; Black holds White's
/// rook a8 (its latest) and knight b8. Black to move, both long past their third move.
fn held_pieces() -> Enthralling {
    setup(Setup {
        fen: "rn2k3/7p/8/8/8/8/P7/4KBN1 b - - 0 30",
        enthralled: &["f1", "g1", "a8", "b8"],
        latest: [Some("g1"), Some("a8")],
        moves_made: [20, 20],
        ..Default::default()
    })
}

#[test]
fn the_latest_enthralled_piece_cannot_be_liberated_until_another_is_enthralled() {
    let mut g = held_pieces();
    assert_eq!(liberations(&g), vec![sq("f1")]);
    assert!(refusal(&g, "h6 liberate Ng1").contains("enthralled most recently"));
    play(&mut g, "h6 liberate Bf1");
    assert_eq!(
        g.position().piece_at(sq("f1")),
        None,
        "liberated pieces leave the game"
    );
    assert_eq!(liberations(&g), vec![sq("b8")], "a8 is Black's latest");
    play(&mut g, "Ke2 liberate Nb8");
    // White's last turn was a Liberate, but its latest Enthrall is still the knight.
    assert!(liberations(&g).is_empty());
    play(&mut g, "h5 enthrall Pa2 a7");
    assert_eq!(
        liberations(&g),
        vec![sq("a8")],
        "the rook is no longer Black's latest"
    );
    play(&mut g, "Kd3 enthrall Ph5 h2");
    assert_eq!(
        liberations(&g),
        vec![sq("g1")],
        "now the knight may be liberated"
    );
}

#[test]
fn a_freshly_promoted_enthralled_pawn_is_safe_until_it_moves() {
    // Black holds White's pawn on b2.
    let mut g = setup(Setup {
        fen: "4k3/p7/8/8/8/8/1p4PP/4K3 b - - 0 40",
        enthralled: &["b2"],
        latest: [None, Some("b2")],
        moves_made: [20, 20],
        ..Default::default()
    });
    play(&mut g, "b1=N enthrall Ph2 h7");
    assert!(
        liberations(&g).is_empty(),
        "the new knight stands on its promotion square"
    );
    play(&mut g, "Kf2 enthrall Pa7 a2");
    play(&mut g, "Nc3 enthrall Pg2 g7");
    // The knight has moved; h7 (not Black's latest) may go too; g7 is Black's latest.
    assert_eq!(liberations(&g), vec![sq("c3"), sq("h7")]);
}

#[test]
fn enthrall_and_liberate_must_not_leave_your_king_in_check() {
    // Black's pawn on c3 shields White's king from the queen on a5; lifting it is legal only if
    // it is put back on the line, on d2.
    let g = setup(Setup {
        fen: "4k3/8/8/q7/8/2p5/7P/4K3 w - - 0 40",
        moves_made: [20, 20],
        ..Default::default()
    });
    let pawn_squares: Vec<Square> = g
        .legal_actions(Seat(0))
        .iter()
        .filter_map(|t| match t.then {
            Some(Extra::Enthrall { from, to }) if from == sq("c3") && t.mv.uci() == "h2h3" => {
                Some(to)
            }
            _ => None,
        })
        .collect();
    assert!(!pawn_squares.is_empty());
    assert!(
        pawn_squares.iter().all(|&s| s == sq("d2")),
        "{pawn_squares:?}"
    );
    assert!(refusal(&g, "h3 enthrall Pc3 a2").contains("leave your king in check"));
    assert!(g.parse_action(Seat(0), "h3 enthrall Pc3 d2").is_ok());
}

#[test]
fn reducing_the_opponent_to_a_lone_king_wins() {
    let fen = "4k3/8/8/3n4/8/8/8/3QK3 w - - 0 40";
    let mut g = setup(Setup {
        fen,
        moves_made: [10, 10],
        ..Default::default()
    });
    assert!(legal_texts(&g).contains(&"Qxd5".to_string()));
    play(&mut g, "Qxd5");
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.winners(), &[Seat(0)]);
    assert_eq!(outcome.reason, "reducing the opponent to a lone king");

    // Not during the first three moves: there it is plain chess.
    let mut g = setup(Setup {
        fen,
        moves_made: [1, 1],
        ..Default::default()
    });
    play(&mut g, "Qxd5");
    assert!(g.outcome().is_none());
}

#[test]
fn promoted_pawns_are_ignored_for_the_lone_king_while_they_cannot_be_enthralled() {
    let fen = "r3k3/8/8/3n4/8/8/8/3QK3 w - - 0 40";
    let board = Setup {
        fen,
        promoted: &["a8"],
        moves_made: [10, 10],
        ..Default::default()
    };
    let mut g = setup(board.clone());
    play(&mut g, "Qxd5");
    assert_eq!(g.outcome().unwrap().winners(), &[Seat(0)]);

    let options = EnthrallingOptions {
        promoted_enthrallable: true,
        ..Default::default()
    };
    let mut g = Enthralling::from_setup(&board, options).unwrap();
    assert!(refusal(&g, "Qxd5").contains("must also enthrall or liberate"));
    play(&mut g, "Qxd5 enthrall Ra8 a1");
    assert!(g.outcome().is_none());
}

#[test]
fn the_rule_sheet_example_enthralling_the_last_bishop_does_not_win_at_once() {
    // Black: king, a promoted queen and a bishop. White holds Black's knight on g1.
    let mut g = setup(Setup {
        fen: "4k3/1b6/8/7q/8/8/8/3QK1N1 w - - 0 40",
        enthralled: &["g1"],
        promoted: &["h5"],
        latest: [Some("g1"), None],
        moves_made: [10, 10],
    });
    play(&mut g, "Qd3 enthrall Bb7 c1");
    assert!(g.outcome().is_none(), "Black still gets a turn");
    play(&mut g, "Kf7 liberate Ng1");
    assert!(refusal(&g, "Qd4 liberate Bc1").contains("only the king left"));
    play(&mut g, "Qd4");
    assert_eq!(g.outcome().unwrap().winners(), &[Seat(0)]);
}

#[test]
fn unable_to_enthrall_or_liberate_draws_or_loses_with_the_option() {
    let board = Setup {
        fen: "3qk3/8/8/8/8/8/8/3QK3 w - - 0 40",
        moves_made: [10, 10],
        ..Default::default()
    };
    let mut g = setup(board.clone());
    assert!(g.legal_actions(Seat(0)).iter().all(|t| t.then.is_none()));
    play(&mut g, "Qd2");
    let outcome = g.outcome().unwrap();
    assert!(outcome.is_draw());
    assert_eq!(
        describe(outcome),
        "Draw by White being unable to enthrall or liberate"
    );

    let options = EnthrallingOptions {
        unable_to_enthrall_loses: true,
        ..Default::default()
    };
    let mut g = Enthralling::from_setup(&board, options).unwrap();
    play(&mut g, "Qd2");
    assert_eq!(
        describe(g.outcome().unwrap()),
        "Black won by White being unable to enthrall or liberate"
    );
}

#[test]
fn a_move_that_allows_no_enthrall_is_refused_while_another_would() {
    // Black's only enthrallable piece is the knight on d5. Capturing it leaves nothing to enthrall
    // but Black still has its queen: the capture must not be played while other moves allow an
    // Enthrall.
    let g = setup(Setup {
        fen: "3qk3/8/8/3n4/8/8/8/3QK3 w - - 0 40",
        moves_made: [10, 10],
        ..Default::default()
    });
    assert!(refusal(&g, "Qxd5").contains("could neither enthrall nor liberate"));
    assert!(g.parse_action(Seat(0), "Qd2 enthrall Nd5 g1").is_ok());
}

#[test]
fn checkmate_in_the_first_three_moves() {
    let mut g = new_game();
    play(&mut g, "f3|e5|g4|Qh4");
    assert_eq!(g.outcome().unwrap().reason, "checkmate");
    assert_eq!(g.outcome().unwrap().winners(), &[Seat(1)]);
    assert_eq!(
        g.view(Viewer::Spectator).board.last_move.unwrap().san,
        "Qh4#"
    );
}

#[test]
fn options_are_named_and_checked() {
    let options: EnthrallingOptions = crate::engine::options_from_pairs(
        "Enthralling Chess",
        &[
            ("promoted_enthrallable".into(), "true".into()),
            ("unable-to-enthrall-loses".into(), "true".into()),
        ],
    )
    .unwrap();
    assert!(options.promoted_enthrallable && options.unable_to_enthrall_loses);
    let err = crate::engine::options_from_pairs::<EnthrallingOptions>(
        "Enthralling Chess",
        &[("promoted_enthrallable".into(), "maybe".into())],
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "option promoted_enthrallable takes true or false, not \"maybe\""
    );
}

#[test]
fn random_games_keep_the_contract_and_end() {
    for options in [
        EnthrallingOptions::default(),
        EnthrallingOptions {
            promoted_enthrallable: true,
            unable_to_enthrall_loses: true,
        },
    ] {
        let mut config = Config::<Enthralling>::new(options, 2, 0..16);
        config.max_actions = 400;
        config.actions_checked_per_state = 12;
        let report = check_game(&config);
        assert_eq!(report.games, 16);
    }
}

#[test]
fn odd_text_is_refused_never_a_panic() {
    let mut g = new_game();
    play(&mut g, "e4|e5|Nf3|Nc6|Bc4|Bc5");
    let inputs = [
        "",
        " ",
        "é",
        "Nf3é",
        "ß",
        "Ñf3",
        "e4 enthrall ß é",
        "e4 liberate",
        "e4 li é",
        "d3 enthrall Né6 g1",
        "d3 enthrall Nc6 g1 extra",
        "O-O-O-O",
        "e8=",
        "=Q",
        "x",
        "++",
        "e2e4e5",
        "🙂",
        "d3 enthrall 🙂 g1",
        "d3 enthrall N🙂 g1",
        "Q",
        "Kxx",
        "a9",
        "i1",
        "d3 liberate Nc6 c6",
        "0000",
        "e1g1",
        "d3 en",
        "d3 li",
    ];
    for text in inputs {
        for seat in [Seat(0), Seat(1)] {
            let before = serde_json::to_string(&g).unwrap();
            if let Ok(turn) = g.parse_action(seat, text) {
                assert!(
                    g.legal_actions(seat).contains(&turn),
                    "{text} parsed to an illegal turn"
                );
            }
            assert_eq!(before, serde_json::to_string(&g).unwrap());
        }
    }
    let chess = chess::Chess::from_position(Position::default());
    for text in inputs {
        let _ = chess.parse_action(Seat(0), text);
    }
}

#[test]
fn a_mate_stands_even_when_nothing_could_follow_it() {
    // Rxe8 mates and takes Black's last piece that could be enthralled.
    let mut g = setup(Setup {
        fen: "4n2k/8/1q4P1/5N2/8/8/8/4R2K w - - 0 40",
        moves_made: [10, 10],
        ..Default::default()
    });
    assert!(legal_texts(&g).contains(&"Rxe8#".to_string()));
    play(&mut g, "Rxe8");
    let outcome = g.outcome().unwrap();
    assert_eq!(
        (outcome.reason.as_str(), outcome.winners()),
        ("checkmate", &[Seat(0)][..])
    );
}

#[test]
fn a_piece_letter_must_name_the_piece_on_that_square() {
    let g = held_pieces();
    assert_eq!(
        refusal(&g, "h6 liberate Rf1"),
        "the piece on f1 is a bishop, not a rook"
    );
    assert_eq!(
        refusal(&g, "h6 liberate Qf1"),
        "the piece on f1 is a bishop, not a queen"
    );
    let with_letter = g.parse_action(Seat(1), "h6 liberate Bf1").unwrap();
    assert_eq!(g.parse_action(Seat(1), "h6 liberate f1"), Ok(with_letter));
    assert_eq!(g.parse_action(Seat(1), "h6 lib f1"), Ok(with_letter));
    assert!(
        g.parse_action(Seat(1), "h6 lion f1").is_err(),
        "only the listed keywords"
    );
    assert!(
        g.parse_action(Seat(1), "h6 enthrall Pa2->a7").is_ok(),
        "an arrow inside a word"
    );
}

#[test]
fn a_promoted_pawn_held_enthralled_counts_for_the_lone_king() {
    // White holds Black's promoted pawn (a knight now) on c3; Black could liberate it.
    let g = setup(Setup {
        fen: "3qk3/8/8/8/8/2N5/8/4K3 b - - 0 40",
        enthralled: &["c3"],
        promoted: &["c3"],
        moves_made: [10, 10],
        ..Default::default()
    });
    assert!(refusal(&g, "Qd7").contains("must also enthrall or liberate"));
    assert!(g.parse_action(Seat(1), "Qd7 liberate Nc3").is_ok());
}

#[test]
fn formatting_a_turn_that_is_not_legal_does_not_panic() {
    let mut g = new_game();
    play(&mut g, "e4|e5|Nf3|Nc6|Bc4|Bc5");
    let bad = Turn {
        mv: Move::parse_uci("d2d3").unwrap(),
        then: Some(Extra::Enthrall {
            from: sq("e4"),
            to: sq("a1"),
        }),
    };
    assert!(g.format_action(&bad).starts_with("d3 enthrall"));
    assert!(g.apply(Seat(0), &bad, &mut GameRng::from_seed(0)).is_err());
}

#[test]
fn the_status_asks_for_an_enthrall_only_when_one_is_possible() {
    let mut g = held_pieces();
    assert_eq!(
        g.view(Viewer::Spectator).board.status,
        "Black to move, then enthrall or liberate"
    );
    play(&mut g, "h6 liberate Bf1");
    assert_eq!(
        g.view(Viewer::Spectator).last_extra,
        Some(Extra::Liberate { at: sq("f1") })
    );
    // White's only piece held by Black is Black's latest Enthrall, and Black's only piece was
    // enthralled before: nothing can follow White's move.
    let g = setup(Setup {
        fen: "1n2k3/8/8/8/8/8/P7/4K3 w - - 0 30",
        enthralled: &["b8"],
        latest: [None, Some("b8")],
        moves_made: [20, 20],
        ..Default::default()
    });
    assert!(legal_texts(&g).iter().all(|t| !t.contains(' ')));
    assert_eq!(
        g.view(Viewer::Spectator).board.status,
        "White to move; no move allows an enthrall or liberate, so this one ends the game"
    );
}
