//! En Prise rule scenarios: the board, placements, moves, kings, check, eliminations, the end.

use super::*;

#[test]
fn the_first_card_goes_at_the_origin_and_the_next_cards_touch_the_board() {
    for seats in 2..=4 {
        let mut g = position(seats, open(), &[], &["PNQ", "NPR", "BPQ", "RRP"]);
        assert_eq!(texts(&g, Seat(0)), vec!["P@0,0", "P@0,0 down"]);
        assert!(refused(&g, Seat(0), "P@1,0").contains("does not touch the board"));
        play(&mut g, Seat(0), "P@0,0 down");
        assert_eq!(
            g.board.get(sq(0, 0)),
            Some(None),
            "a face-down pawn is a vacant square"
        );
        // Black's next card is a knight: on any of the 8 squares around, or onto the vacant one.
        let legal = texts(&g, Seat(1));
        assert_eq!(legal.len(), 9, "{legal:?}");
        assert!(legal.contains(&"N@0,0".to_string()) && legal.contains(&"N@-1,-1".to_string()));
        assert!(refused(&g, Seat(1), "N@2,0").contains("does not touch the board"));
        assert!(refused(&g, Seat(1), "Q@1,0").contains("is a knight, not a queen"));
        assert!(refused(&g, Seat(1), "N@1,0 down").contains("only a pawn may go face-down"));
        play(&mut g, Seat(1), "N@1,1");
        assert_eq!(g.plans[1].len(), 2);
        assert_eq!(
            g.board.get(sq(1, 1)),
            Some(Some(Piece {
                owner: Seat(1),
                role: Role::Knight
            }))
        );
    }
}

#[test]
fn a_pawn_goes_face_up_onto_a_vacant_square_like_any_piece_in_every_variant() {
    let alliance = EnPriseOptions {
        alliance: true,
        ..open()
    };
    for opts in [
        open(),
        options(Variant::Blind),
        options(Variant::Memory),
        options(Variant::Casino),
        alliance,
    ] {
        let seats = if opts.alliance { 4 } else { 2 };
        let mut g = position(seats, opts.clone(), &[". wN"], &["PQ", "Q", "Q", "Q"]);
        if matches!(opts.variant, Variant::Memory | Variant::Casino) {
            play(&mut g, Seat(0), "place");
        }
        if opts.variant == Variant::Casino {
            play(&mut g, Seat(1), "card 1");
        }
        let legal = texts(&g, Seat(0));
        assert!(legal.contains(&"P@0,0".to_string()), "{opts:?}: {legal:?}");
        assert!(!legal.contains(&"P@0,0 down".to_string()), "{opts:?}");
        assert_eq!(
            refused(&g, Seat(0), "P@0,0 down"),
            "0,0 is already a vacant square; a face-down pawn makes a new one"
        );
        play(&mut g, Seat(0), "P@0,0");
        assert_eq!(
            g.board.len(),
            2,
            "placing onto a vacant square adds no square"
        );
        assert_eq!(
            g.board.get(sq(0, 0)),
            Some(Some(Piece {
                owner: Seat(0),
                role: Role::Pawn
            }))
        );
    }
    // Other pieces as before.
    let mut g = position(2, open(), &[". wN"], &["Q", "Q"]);
    play(&mut g, Seat(0), "Q@0,0");
    assert_eq!(g.board.len(), 2);
}

#[test]
fn moves_go_only_over_existing_squares_and_leave_a_vacant_square() {
    // A rook with a gap in its row, a vacant square and an enemy piece in its column.
    let mut g = position(2, open(), &["bN - -", ". - -", "wR . - ."], &["", ""]);
    let mut legal = texts(&g, Seat(0));
    legal.sort();
    assert_eq!(legal, vec!["R 0,0 to 0,1", "R 0,0 to 1,0", "R 0,0 x 0,2"]);
    assert_eq!(
        refused(&g, Seat(0), "R 0,0 to 3,0"),
        "there is no square at 2,0 on the way: pieces never cross a gap"
    );
    assert_eq!(
        refused(&g, Seat(0), "R 0,0 to 2,0"),
        "there is no square at 2,0: pieces move only over squares already on the table"
    );
    play(&mut g, Seat(0), "R 0,0 x 0,2");
    assert_eq!(g.board.len(), 5, "no square is lost");
    assert_eq!(
        g.board.get(sq(0, 0)),
        Some(None),
        "the start square is left vacant"
    );
    assert_eq!(
        g.board.get(sq(0, 2)).flatten().map(|p| p.role),
        Some(Role::Rook)
    );
    assert!(
        g.board.pieces().all(|(_, p)| p.owner == Seat(0)),
        "the knight is face-down"
    );
}

#[test]
fn sliders_pass_vacant_squares_only_and_pawns_never_move() {
    let g = position(2, open(), &["wB . bP . ."], &["", ""]);
    assert_eq!(
        texts(&g, Seat(0)),
        Vec::<String>::new(),
        "a bishop on a row has no move"
    );
    let g = position(2, open(), &["- - wQ", "- . -", "wP - -"], &["", ""]);
    assert_eq!(
        texts(&g, Seat(0)),
        vec!["Q 2,2 to 1,1"],
        "the pawn blocks, and never moves"
    );
    assert_eq!(
        refused(&g, Seat(0), "P 0,0 to 1,1"),
        "pawns never move in En Prise"
    );
}

#[test]
fn knights_jump_pieces_but_need_an_unbroken_l_path() {
    // From 0,0 to 1,2: paths (0,1),(0,2) or (1,0),(1,1).
    let through_pieces = position(2, open(), &["bP .", "bP -", "wN -"], &["", ""]);
    assert!(texts(&through_pieces, Seat(0)).contains(&"N 0,0 to 1,2".to_string()));
    let other_path = position(2, open(), &["- .", "- .", "wN ."], &["", ""]);
    assert!(texts(&other_path, Seat(0)).contains(&"N 0,0 to 1,2".to_string()));
    let broken = position(2, open(), &["- .", ". -", "wN ."], &["", ""]);
    assert_eq!(
        refused(&broken, Seat(0), "N 0,0 to 1,2"),
        "both L-shaped paths from 0,0 to 1,2 cross a gap in the board: a knight jumps over \
         pieces, but not over gaps"
    );
    // A knight gives check only along a path too.
    let g = position(2, open(), &["- bK", ". -", "wN ."], &["", ""]);
    assert!(!g.board.in_check(Seat(1), g.sides()));
    let g = position(2, open(), &[". bK", ". -", "wN ."], &["", ""]);
    assert!(g.board.in_check(Seat(1), g.sides()));
}

#[test]
fn a_king_may_be_summoned_once_six_vacant_squares_exist_and_then_everyone_must() {
    for seats in 2..=4 {
        let plans = ["QP", "RP", "BP", "NP"];
        let five = position(seats, open(), &[". . . . . wR"], &plans);
        assert!(
            refused(&five, Seat(0), "K@0,1").contains("at least 6 vacant squares (there are 5)")
        );
        let mut g = position(seats, open(), &[". . . . . . wR"], &plans);
        let events = play(&mut g, Seat(0), "K@0,1");
        assert!(events[0].contains("every opponent must summon their king on their next turn"));
        // The escape square comes from the next card, whatever it is: here the queen.
        assert_eq!(g.phase, Phase::Escape);
        play(&mut g, Seat(0), "escape -1,2");
        assert_eq!(g.plans[0], roles("P"), "the queen was given up");
        assert_eq!(g.board.get(sq(-1, 2)), Some(None));
        for s in 1..seats {
            let seat = Seat(s as u8);
            assert_eq!(g.current, seat);
            let legal = texts(&g, seat);
            assert!(
                !legal.is_empty() && legal.iter().all(|t| t.starts_with("K@")),
                "{legal:?}"
            );
            assert_eq!(
                refused(&g, seat, "@0,-1"),
                "White's king is on 0,1: you must summon yours this turn (K@x,y)"
            );
            let at = legal.last().unwrap().clone();
            play(&mut g, seat, &at);
            play(&mut g, seat, "no escape");
        }
        assert_eq!(g.current, Seat(0));
        assert!(g.king_in_hand.iter().all(|&k| !k));
    }
}

#[test]
fn a_king_is_never_placed_in_check_nor_next_to_an_opposing_king() {
    let mut g = position(2, open(), &["wR . . . . . .", ". . . . . . wK"], &["", "P"]);
    g.current = Seat(1);
    assert!(g.must_summon(Seat(1)));
    let legal = texts(&g, Seat(1));
    assert!(legal.iter().all(|t| t.starts_with("K@")));
    assert!(legal.contains(&"K@3,0".to_string()) && legal.contains(&"K@3,-1".to_string()));
    // The rook's row and column (a new square there extends the line), and next to the king.
    for bad in ["K@3,1", "K@0,0", "K@0,2"] {
        assert_eq!(
            refused(&g, Seat(1), bad),
            "White's rook on 0,1 attacks that square",
            "{bad}"
        );
    }
    for bad in ["K@7,1", "K@5,0", "K@7,0", "K@6,-1"] {
        assert_eq!(
            refused(&g, Seat(1), bad),
            "your king may not touch White's king on 6,0",
            "{bad}"
        );
    }
}

#[test]
fn once_kings_are_summoned_a_new_piece_may_not_touch_or_check_an_opposing_king() {
    let g = position(
        2,
        open(),
        &[". . . . bK", ". . . . .", "wK . . . ."],
        &["R", ""],
    );
    // A rook touching the black king, or on its row or column with a clear line, is refused.
    for bad in ["R@3,2", "R@4,1", "R@5,1"] {
        assert_eq!(
            refused(&g, Seat(0), bad),
            "a new piece may not touch Black's king on 4,2",
            "{bad}"
        );
    }
    for (bad, at) in [("R@0,2", "0,2"), ("R@4,0", "4,0")] {
        assert_eq!(
            refused(&g, Seat(0), bad),
            format!(
                "a new piece may not give check: a rook on {at} would check Black's king on 4,2"
            )
        );
    }
    assert!(texts(&g, Seat(0)).contains(&"R@1,1".to_string()));
    // Vacant squares are not pieces: a face-down pawn may touch the king.
    let g = position(
        2,
        open(),
        &[". . . . bK", ". . . . .", "wK . . . ."],
        &["P", ""],
    );
    assert!(texts(&g, Seat(0)).contains(&"P@5,2 down".to_string()));
    assert!(
        !texts(&g, Seat(0)).contains(&"P@5,2".to_string()),
        "a face-up pawn may not"
    );
}

#[test]
fn no_turn_ends_with_ones_own_king_in_check() {
    // The white king on 0,0 is attacked by the black rook on 0,2 over the vacant 0,1.
    let g = position(2, open(), &["bR . -", ". wR -", "wK . ."], &["N", ""]);
    let mut legal = texts(&g, Seat(0));
    legal.sort();
    assert_eq!(legal, vec!["K 0,0 to 1,0", "N@0,1", "R 1,1 to 0,1"]);
    for text in ["R 1,1 to 1,2", "N@2,1"] {
        assert_eq!(
            refused(&g, Seat(0), text),
            "your king on 0,0 would be in check from Black's rook on 0,2"
        );
    }
    assert_eq!(
        refused(&g, Seat(0), "K 0,0 to 0,1"),
        "Black's rook on 0,2 attacks that square"
    );
}

#[test]
fn checkmate_is_declared_at_the_start_of_the_mated_players_turn() {
    for seats in 2..=4 {
        let mut g = mate_in_one(seats);
        g.current = Seat(1);
        let events = play(&mut g, Seat(1), "N 3,3 to 1,2");
        assert!(
            events.contains(&"White is in check".to_string()),
            "{events:?}"
        );
        if seats == 2 {
            assert!(
                events
                    .iter()
                    .any(|e| e.contains("White is out of the game (checkmated by Black)")),
                "{events:?}"
            );
            assert_eq!(
                g.to_act(),
                ToAct::Over(Outcome::ranking(
                    vec![vec![Seat(1)], vec![Seat(0)]],
                    "checkmate"
                ))
            );
        } else {
            // The next player could break the mate first; White is still in the game.
            assert!(g.is_alive(Seat(0)));
            assert_eq!(g.current, Seat(2));
            // Nobody does: at the start of White's turn, it is out.
            for s in 2..seats {
                let seat = Seat(s as u8);
                let at = format!("P@{},1", 10 + 2 * s);
                play(&mut g, seat, &at);
            }
            assert!(!g.is_alive(Seat(0)));
            assert_eq!(g.current, Seat(1));
            assert!(
                g.board.pieces().all(|(_, p)| p.owner != Seat(0)),
                "White's pieces are gone"
            );
            assert!(g.plans[0].is_empty(), "and its battleplan discarded");
        }
    }
}

#[test]
fn in_three_player_games_another_player_may_break_a_checkmate() {
    let mut g = position(
        3,
        open(),
        &[
            ". rR . .",
            ". . . bN",
            ". . . .",
            "wP wP . .",
            "wK wP . bK . rK",
        ],
        &["P", "P", "P"],
    );
    g.current = Seat(1);
    play(&mut g, Seat(1), "N 3,3 to 1,2");
    assert_eq!(g.current, Seat(2));
    let mut broken = g.clone();
    play(&mut broken, Seat(2), "R 1,4 x 1,2");
    assert!(broken.is_alive(Seat(0)));
    assert_eq!(broken.current, Seat(0));
    play(&mut g, Seat(2), "P@6,1");
    assert!(
        !g.is_alive(Seat(0)),
        "left alone, White is mated at the start of its turn"
    );
}

#[test]
fn clearing_a_mated_player_can_leave_the_next_one_mated_too() {
    // Black's knight mates Red; Red's pawn on 1,4 shielded White's king from Black's rook.
    let mut g = position(
        3,
        open(),
        &[
            "wK rP . . bR",
            "wP wP . bN .",
            ". . . . .",
            "rP rP . . .",
            "rK rP . . bK",
        ],
        &["", "P", "P"],
    );
    g.current = Seat(1);
    let before = g.board.len();
    let events = play(&mut g, Seat(1), "N 3,3 to 2,1");
    assert!(
        events
            .iter()
            .any(|e| e.contains("Red is out of the game (checkmated by Black)")),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| e.contains("White is out of the game (checkmated by Black)")),
        "{events:?}"
    );
    assert_eq!(
        g.board.len(),
        before,
        "cleared pieces stay as vacant squares"
    );
    assert_eq!(
        g.to_act(),
        ToAct::Over(Outcome::ranking(
            vec![vec![Seat(1)], vec![Seat(0)], vec![Seat(2)]],
            "checkmate"
        ))
    );
    assert_eq!(
        g.describe(&g.to_act().outcome().unwrap().clone()),
        "Black won: White was checkmated by Black; earlier, Red was checkmated by Black"
    );
}

#[test]
fn a_stalemated_player_is_out() {
    // White has only pawns and an empty plan; its king is boxed but not in check.
    let mut g = position(
        3,
        open(),
        &["- - - - - bR", ". . . rK", "wP wP . .", "wK wP . bK"],
        &["", "P", "P"],
    );
    g.current = Seat(2);
    let events = play(&mut g, Seat(2), "P@4,2");
    assert!(
        events
            .iter()
            .any(|e| e.contains("White is out of the game (stalemated)")),
        "{events:?}"
    );
    assert_eq!(g.current, Seat(1));
}

#[test]
fn shuttling_one_piece_six_moves_in_a_row_is_repetition() {
    for seats in 2..=3 {
        let mut g = with_kings(
            position(
                seats,
                open(),
                &["- - - - bK", "wR . . . -", "wK . . . ."],
                &["", "PPPPPPPP"],
            ),
            seats,
        );
        for round in 0..6 {
            let text = if round % 2 == 0 {
                "R 0,1 to 1,1"
            } else {
                "R 1,1 to 0,1"
            };
            let events = play(&mut g, Seat(0), text);
            if round < 5 {
                assert!(g.is_alive(Seat(0)), "round {round}");
                play(&mut g, Seat(1), &format!("P@{},-1", round + 2));
                for s in 2..seats {
                    play(
                        &mut g,
                        Seat(s as u8),
                        &format!("P@{},{}", 10 + 2 * s, round + 1),
                    );
                }
            } else {
                assert!(
                    events
                        .iter()
                        .any(|e| e.contains("White is out of the game (repetition)")),
                    "{events:?}"
                );
            }
        }
        assert!(!g.is_alive(Seat(0)));
    }
    // A placement in between breaks the streak.
    let mut g = position(
        2,
        open(),
        &["- - - - bK", "wR . . . -", "wK . . . ."],
        &["PP", "PPPPPPPP"],
    );
    for round in 0..8 {
        let text = if g.board.get(sq(0, 1)).flatten().is_some() {
            "R 0,1 to 1,1"
        } else {
            "R 1,1 to 0,1"
        };
        if round == 3 {
            play(&mut g, Seat(0), "P@-1,1");
        } else {
            play(&mut g, Seat(0), text);
        }
        play(&mut g, Seat(1), &format!("P@{},-1", round + 2));
    }
    assert!(g.is_alive(Seat(0)));
}

#[test]
fn resigning_is_possible_only_when_two_players_remain() {
    let g = with_kings(
        position(3, open(), &["wR . . . bK", "wK . . . ."], &["P", "P"]),
        3,
    );
    assert_eq!(
        g.resignation(Seat(0)),
        Err("resigning is possible only when two players remain; 3 are still playing".into())
    );
    let mut g = g;
    let mut events = vec![];
    g.eliminate(Seat(2), Out::Checkmate { by: vec![Seat(1)] }, &mut events);
    assert_eq!(
        g.resignation(Seat(0)),
        Ok(Outcome::ranking(
            vec![vec![Seat(1)], vec![Seat(0)], vec![Seat(2)]],
            "resignation"
        ))
    );
    assert_eq!(
        g.resignation(Seat(2)),
        Err("you are already out of the game".into())
    );
}

#[test]
fn the_game_is_drawn_when_no_checkmate_is_possible_or_after_fifty_quiet_rounds() {
    let mut g = position(2, open(), &["wK . . . bK", ". . . . ."], &["P", ""]);
    let events = play(&mut g, Seat(0), "P@0,-1");
    assert_eq!(
        events.last().unwrap(),
        "Game over: Draw: no checkmate is possible any more"
    );
    assert!(g.to_act().outcome().unwrap().is_draw());

    let mut g = position(2, open(), &["wK . . . bK", "wR . . . ."], &["", ""]);
    g.quiet = QUIET_ROUNDS * 2 - 1;
    let events = play(&mut g, Seat(0), "R 0,0 to 1,0");
    assert!(
        events.last().unwrap().contains("fifty rounds"),
        "{events:?}"
    );
    let mut g = position(2, open(), &["wK . . . bK", "wR . . . ."], &["", ""]);
    g.quiet = QUIET_ROUNDS * 2 - 2;
    play(&mut g, Seat(0), "R 0,0 to 1,0");
    assert!(g.to_act().outcome().is_none(), "one turn short");
}

/// Every move that does not leave one's own king in check, found by trying each one: the
/// shortcut of `legal_moves` (a move off the king's lines cannot uncover it) must agree.
fn moves_tried_one_by_one(g: &EnPrise, seat: Seat) -> Vec<Action> {
    let sides = g.sides();
    let mut out = Vec::new();
    for (from, piece) in g.board.pieces().filter(|(_, p)| p.owner == seat) {
        for to in g.board.targets(from, sides) {
            let mut after = g.board.clone();
            after.set(to, Some(piece));
            after.set(from, None);
            if !after.in_check(seat, sides) {
                out.push(Action::Move { from, to });
            }
        }
    }
    out
}

#[test]
fn the_moves_offered_are_exactly_those_that_keep_ones_king_out_of_check() {
    let (mut compared, mut checked, mut refused) = (0, 0, 0);
    for (seats, alliance) in [(2, false), (3, false), (4, false), (4, true)] {
        let options = EnPriseOptions { alliance, ..open() };
        for seed in 0..6 {
            let mut rng = GameRng::from_seed(seed);
            let mut g = EnPrise::new(&options, seats, &mut rng).unwrap();
            for _ in 0..400 {
                if g.to_act().outcome().is_some() {
                    break;
                }
                for seat in Seat::all(seats) {
                    let tried = moves_tried_one_by_one(&g, seat);
                    assert_eq!(g.legal_moves(seat), tried, "seed {seed}, {seat}");
                    compared += 1;
                    let sides = g.sides();
                    checked += usize::from(g.board.in_check(seat, sides));
                    let targets: usize = (g.board.pieces())
                        .filter(|(_, p)| p.owner == seat)
                        .map(|(from, _)| g.board.targets(from, sides).len())
                        .sum();
                    refused += targets - tried.len();
                }
                let seat = g.to_act().seats()[0];
                let legal = g.legal_actions(seat);
                let action = legal[rng.below(legal.len())].clone();
                g.apply(seat, &action, &mut rng).unwrap();
            }
        }
    }
    // The cases the shortcut must not skip happened: kings in check, and moves refused.
    assert!(
        compared > 2_000 && checked > 50 && refused > 200,
        "{compared} {checked} {refused}"
    );
}
