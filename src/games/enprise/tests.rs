use super::*;
use crate::engine::testing::{Config, check_game};

/// Another order of every card `seat` cannot see: a state `seat` must not tell apart.
fn reshuffle_hidden(game: &EnPrise, seat: Seat, rng: &mut GameRng) -> Option<EnPrise> {
    let mut other = game.clone();
    let mut changed = false;
    for owner in Seat::all(game.seats) {
        let hidden: Vec<usize> = (0..game.plans[owner.index()].len())
            .filter(|&i| !game.card_visible(owner, i, Viewer::Seat(seat)))
            .collect();
        let mut roles: Vec<Role> = hidden
            .iter()
            .map(|&i| game.plans[owner.index()][i].role)
            .collect();
        rng.shuffle(&mut roles);
        for (&i, role) in hidden.iter().zip(roles) {
            changed |= other.plans[owner.index()][i].role != role;
            other.plans[owner.index()][i].role = role;
        }
    }
    changed.then_some(other)
}

fn options(variant: Variant) -> EnPriseOptions {
    EnPriseOptions {
        variant,
        ..EnPriseOptions::default()
    }
}

fn run(options: EnPriseOptions, seats: usize, seeds: std::ops::Range<u64>) {
    let mut config = Config::new(options.clone(), seats, seeds.clone());
    config.actions_checked_per_state = 6;
    config.perturb_hidden = Some(reshuffle_hidden);
    let report = check_game(&config);
    assert_eq!(report.games, seeds.count());
    if options.variant != Variant::Open {
        assert!(report.leak_checks > 0, "{options:?}: no leak check ran");
    }
}

#[test]
fn random_games_keep_the_contract_for_every_seat_count() {
    for seats in 2..=4 {
        run(EnPriseOptions::default(), seats, 0..3);
    }
}

#[test]
fn random_games_keep_the_contract_in_every_variant() {
    for variant in [Variant::Blind, Variant::Memory, Variant::Casino] {
        for seats in 2..=4 {
            run(options(variant), seats, 10..12);
        }
    }
    let next_only = EnPriseOptions {
        variant: Variant::Blind,
        peek: Peek::Next,
        ..EnPriseOptions::default()
    };
    run(next_only, 3, 20..22);
    for variant in [Variant::Open, Variant::Blind, Variant::Casino] {
        let alliance = EnPriseOptions {
            alliance: true,
            ..options(variant)
        };
        run(alliance, 4, 30..32);
    }
}

// ---- scenarios ------------------------------------------------------------------------------

fn roles(letters: &str) -> Vec<Card> {
    letters
        .chars()
        .map(|c| Card {
            role: Role::from_letter(c).unwrap(),
            shown: false,
        })
        .collect()
}

/// A game with `seats` players whose board is drawn in `rows` (top row first, the bottom-left
/// token at 0,0; tokens: `.` vacant square, `-` no square, `wK` `bQ` `rN` `uP`: a piece of
/// White, Black, Red or Blue). Plans are set to `plans` (letters, next card first); kings on
/// the board are out of hand.
fn position(seats: usize, opts: EnPriseOptions, rows: &[&str], plans: &[&str]) -> EnPrise {
    let mut g = EnPrise::new(&opts, seats, &mut GameRng::from_seed(7)).unwrap();
    g.phase = Phase::Turn;
    let height = rows.len() as i16;
    for (r, row) in rows.iter().enumerate() {
        for (x, token) in row.split_whitespace().enumerate() {
            let sq = Sq::new(x as i16, height - 1 - r as i16);
            match token {
                "-" => {}
                "." => g.board.set(sq, None),
                t => {
                    let mut ch = t.chars();
                    let owner = match ch.next().unwrap() {
                        'w' => Seat(0),
                        'b' => Seat(1),
                        'r' => Seat(2),
                        'u' => Seat(3),
                        c => panic!("bad owner {c}"),
                    };
                    let role = Role::from_letter(ch.next().unwrap()).unwrap();
                    g.board.set(sq, Some(Piece { owner, role }));
                    if role == Role::King {
                        g.king_in_hand[owner.index()] = false;
                        g.kings_summoned = true;
                    }
                }
            }
        }
    }
    for (i, plan) in plans.iter().take(seats).enumerate() {
        g.plans[i] = roles(plan);
    }
    g
}

fn open() -> EnPriseOptions {
    EnPriseOptions::default()
}

fn sq(x: i16, y: i16) -> Sq {
    Sq::new(x, y)
}

/// Plays `text` for `seat`, panicking with the reason if refused.
fn play(g: &mut EnPrise, seat: Seat, text: &str) -> Vec<String> {
    let action = g
        .parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(seat, &action, &mut GameRng::from_seed(1))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .into_iter()
        .map(|e| e.text)
        .collect()
}

/// The reason `text` is refused for `seat`; the state must be unchanged.
fn refused(g: &EnPrise, seat: Seat, text: &str) -> String {
    let before = serde_json::to_string(g).unwrap();
    let reason = match g.parse_action(seat, text) {
        Err(e) => e.reason,
        Ok(action) => {
            let mut copy = g.clone();
            match copy.apply(seat, &action, &mut GameRng::from_seed(1)) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("{text} was allowed"),
            }
        }
    };
    assert_eq!(before, serde_json::to_string(g).unwrap());
    reason
}

fn texts(g: &EnPrise, seat: Seat) -> Vec<String> {
    g.legal_actions(seat)
        .iter()
        .map(|a| g.format_action(a))
        .collect()
}

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
fn a_pawn_never_goes_onto_a_vacant_square_and_pieces_may() {
    let g = position(2, open(), &[". wN"], &["P", "Q"]);
    assert!(refused(&g, Seat(0), "P@0,0").contains("cannot go onto the vacant square"));
    let mut g = position(2, open(), &[". wN"], &["Q", "Q"]);
    play(&mut g, Seat(0), "Q@0,0");
    assert_eq!(
        g.board.len(),
        2,
        "placing onto a vacant square adds no square"
    );
}

#[test]
fn moves_go_only_over_existing_squares_and_leave_a_vacant_square() {
    // A rook with a gap in its row, a vacant square and an enemy piece in its column.
    let mut g = position(2, open(), &["bN - -", ". - -", "wR . - ."], &["", ""]);
    let mut legal = texts(&g, Seat(0));
    legal.sort();
    assert_eq!(legal, vec!["R 0,0 to 0,1", "R 0,0 to 1,0", "R 0,0 x 0,2"]);
    assert!(refused(&g, Seat(0), "R 0,0 to 3,0").contains("cannot reach"));
    assert!(refused(&g, Seat(0), "R 0,0 to 2,0").contains("no square at 2,0"));
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
    assert!(refused(&broken, Seat(0), "N 0,0 to 1,2").contains("cannot reach"));
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
            assert!(refused(&g, seat, "@0,-1").contains("you must place your king"));
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
    for bad in [
        "K@3,1", "K@7,1", "K@0,0", "K@0,2", "K@5,0", "K@7,0", "K@6,-1",
    ] {
        assert!(
            refused(&g, Seat(1), bad).contains("cannot go there"),
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
    for bad in ["R@3,2", "R@4,1", "R@5,1", "R@0,2", "R@4,0"] {
        let reason = refused(&g, Seat(0), bad);
        assert!(
            reason.contains("may not touch an opposing king or give check"),
            "{bad}: {reason}"
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
    assert_eq!(
        refused(&g, Seat(0), "R 1,1 to 1,2"),
        "that move would leave your king in check"
    );
    assert_eq!(
        refused(&g, Seat(0), "N@2,1"),
        "that would leave your king in check"
    );
}

/// Rows of kings for the seats beyond the first two, far from the action.
fn with_kings(mut g: EnPrise, seats: usize) -> EnPrise {
    for s in 2..seats {
        let at = sq(10 + 2 * s as i16, 0);
        g.board.set(
            at,
            Some(Piece {
                owner: Seat(s as u8),
                role: Role::King,
            }),
        );
        g.king_in_hand[s] = false;
        g.plans[s] = roles("PPPPPPPP");
    }
    g
}

/// White's king boxed in the corner by its own pawns; Black's knight mates from 1,2.
fn mate_in_one(seats: usize) -> EnPrise {
    let g = position(
        seats,
        open(),
        &[". . . bN", ". . . .", "wP wP . .", "wK wP . bK"],
        &["P", "P"],
    );
    with_kings(g, seats)
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
                    .any(|e| e.contains("White is out of the game (checkmate)")),
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
        &["P", "P", "P"],
    );
    g.current = Seat(1);
    let before = g.board.len();
    let events = play(&mut g, Seat(1), "N 3,3 to 2,1");
    assert!(
        events
            .iter()
            .any(|e| e.contains("Red is out of the game (checkmate)")),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| e.contains("White is out of the game (checkmate)")),
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
        describe(&g.to_act().outcome().unwrap().clone()),
        "Black won by checkmate"
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
            .any(|e| e.contains("White is out of the game (stalemate)")),
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
    g.eliminate(Seat(2), "checkmate", &mut events);
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

// ---- variants -------------------------------------------------------------------------------

fn seat_view(g: &EnPrise, seat: u8) -> EnPriseView {
    g.view(Viewer::Seat(Seat(seat)))
}

fn visible_cards(view: &EnPriseView, owner: usize) -> usize {
    view.players[owner].plan.cards.iter().flatten().count()
}

#[test]
fn open_plans_are_seen_by_everyone() {
    for seats in 2..=4 {
        let g = EnPrise::new(&open(), seats, &mut GameRng::from_seed(3)).unwrap();
        for viewer in Seat::all(seats)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
        {
            let view = g.view(viewer);
            for owner in 0..seats {
                assert_eq!(visible_cards(&view, owner), 15);
                assert_eq!(view.players[owner].plan.remaining[0], (Role::Queen, 1));
            }
        }
    }
}

#[test]
fn blind_plans_are_hidden_from_opponents_and_shown_to_their_owner_as_chosen() {
    for seats in 2..=4 {
        let blind = options(Variant::Blind);
        let mut g = EnPrise::new(&blind, seats, &mut GameRng::from_seed(3)).unwrap();
        let view = seat_view(&g, 0);
        assert_eq!(
            visible_cards(&view, 0),
            15,
            "the owner peeks at the whole plan"
        );
        for owner in 1..seats {
            assert_eq!(visible_cards(&view, owner), 0, "opponents play blind");
            assert_eq!(
                view.players[owner].plan.cards.len(),
                15,
                "but see how many cards remain"
            );
        }
        assert_eq!(visible_cards(&g.view(Viewer::Spectator), 0), 0);
        // The owner places the next card directly; it is shown as it hits the board.
        let first = texts(&g, Seat(0))[0].clone();
        let events = play(&mut g, Seat(0), &first);
        assert!(events[0].starts_with("White places"), "{events:?}");
        assert_eq!(seat_view(&g, 1).squares.len(), 1);

        let next_only = EnPriseOptions {
            peek: Peek::Next,
            ..blind.clone()
        };
        let g = EnPrise::new(&next_only, seats, &mut GameRng::from_seed(3)).unwrap();
        let view = seat_view(&g, 0);
        assert_eq!(view.players[0].plan.cards[0], Some(g.plans[0][0].role));
        assert_eq!(visible_cards(&view, 0), 1, "only the next card");
    }
}

#[test]
fn memory_shows_every_plan_then_hides_them_from_everyone() {
    for seats in 2..=4 {
        let memory = EnPriseOptions {
            memory_seconds: 30,
            ..options(Variant::Memory)
        };
        let mut g = EnPrise::new(&memory, seats, &mut GameRng::from_seed(5)).unwrap();
        assert_eq!(g.to_act(), ToAct::Seats(Seat::all(seats).collect()));
        for viewer in Seat::all(seats)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
        {
            let view = g.view(viewer);
            assert!((0..seats).all(|o| visible_cards(&view, o) == 15));
            assert!(matches!(
                view.phase,
                PhaseView::Memorise { seconds: 30, .. }
            ));
        }
        assert_eq!(texts(&g, Seat(0)), vec!["ready"]);
        assert!(refused(&g, Seat(0), "P@0,0").contains("the plans are on show"));
        play(&mut g, Seat(1), "ready");
        let (secs, acts) = g.timeout().unwrap();
        assert_eq!(secs, 30);
        assert_eq!(acts.len(), seats - 1, "everyone not yet ready: {acts:?}");
        assert!(
            acts.iter()
                .all(|(s, a)| *s != Seat(1) && *a == Action::Ready)
        );
        for (seat, action) in acts {
            g.apply(seat, &action, &mut GameRng::from_seed(1)).unwrap();
        }
        assert_eq!(g.timeout(), None);
        assert_eq!(g.to_act(), ToAct::one(Seat(0)));
        for viewer in Seat::all(seats)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
        {
            let view = g.view(viewer);
            assert!(
                (0..seats).all(|o| visible_cards(&view, o) == 0),
                "hidden from all, owner too"
            );
        }
        // Place is chosen before the card is known.
        assert_eq!(texts(&g, Seat(0)), vec!["place"]);
        let first = g.plans[0][0].role;
        assert!(refused(&g, Seat(0), &format!("{}@0,0", first.letter())).contains("say place"));
        let events = play(&mut g, Seat(0), "place");
        assert_eq!(
            events[0],
            format!(
                "White chooses to place: the next card is a {}",
                first.name()
            )
        );
        assert_eq!(
            seat_view(&g, 1).players[0].plan.cards[0],
            Some(first),
            "revealed to all"
        );
        assert!(matches!(g.phase, Phase::Placing { card: 0 }));
        play(&mut g, Seat(0), &format!("{}@0,0", first.letter()));
        assert_eq!(g.plans[0].len(), 14);
    }
}

#[test]
fn memory_a_revealed_card_that_cannot_be_placed_stays_face_up_and_the_player_moves() {
    // White is in check along a row of vacant squares; a pawn cannot block it.
    let mut g = position(
        2,
        options(Variant::Memory),
        &["wK . . bR", ". . . . . bK"],
        &["PN", "P"],
    );
    g.kings_summoned = true;
    assert_eq!(texts(&g, Seat(0)).last().unwrap(), "place");
    let events = play(&mut g, Seat(0), "place");
    assert!(
        events[1].contains("cannot be placed and stays face-up"),
        "{events:?}"
    );
    assert_eq!(g.phase, Phase::Turn);
    assert!(g.plans[0][0].shown);
    assert_eq!(visible_cards(&seat_view(&g, 1), 0), 1);
    assert_eq!(texts(&g, Seat(0)), vec!["K 0,1 to 0,0", "K 0,1 to 1,0"]);
}

#[test]
fn casino_the_opponent_to_the_left_picks_the_card_and_the_player_places_it() {
    for seats in 2..=4 {
        let mut g =
            EnPrise::new(&options(Variant::Casino), seats, &mut GameRng::from_seed(9)).unwrap();
        assert!(
            (0..seats).all(|o| visible_cards(&seat_view(&g, o as u8), o) == 0),
            "face-down for all"
        );
        assert_eq!(texts(&g, Seat(0)), vec!["place"]);
        let events = play(&mut g, Seat(0), "place");
        assert_eq!(events[0], "White will place a card; Black picks which");
        assert_eq!(g.to_act(), ToAct::one(Seat(1)));
        assert!(g.legal_actions(Seat(0)).is_empty());
        let picks = texts(&g, Seat(1));
        assert_eq!(picks.len(), 15);
        assert_eq!(picks[2], "card 3");
        let third = g.plans[0][2].role;
        let events = play(&mut g, Seat(1), "card 3");
        assert_eq!(
            events[0],
            format!(
                "Black picks card 3 of White's battleplan: a {}",
                third.name()
            )
        );
        assert_eq!(g.to_act(), ToAct::one(Seat(0)));
        let placing = texts(&g, Seat(0));
        assert!(
            placing.iter().all(|t| t.starts_with(third.letter())),
            "{placing:?}"
        );
        play(&mut g, Seat(0), &placing[0]);
        assert_eq!(g.plans[0].len(), 14);
        assert_eq!(
            g.board.get(sq(0, 0)).flatten().map(|p| p.role),
            if placing[0].ends_with("down") {
                None
            } else {
                Some(third)
            }
        );
        assert_eq!(g.current, Seat(1));
    }
}

#[test]
fn casino_an_unplaceable_pick_is_shown_and_the_chooser_picks_again() {
    // In check along vacant squares: only the knight can block (onto 1,1), a pawn cannot.
    let mut g = position(
        2,
        options(Variant::Casino),
        &["wK . . bR", ". . . . . bK"],
        &["PN", "P"],
    );
    g.kings_summoned = true;
    play(&mut g, Seat(0), "place");
    let events = play(&mut g, Seat(1), "card 1");
    assert!(events[1].contains("Black picks again"), "{events:?}");
    assert_eq!(
        texts(&g, Seat(1)),
        vec!["card 2"],
        "the shown pawn cannot be picked again now"
    );
    play(&mut g, Seat(1), "card 2");
    let mut legal = texts(&g, Seat(0));
    legal.sort();
    assert_eq!(legal, vec!["N@1,1", "N@2,1"]);
}

#[test]
fn casino_the_player_chooses_the_escape_card() {
    let mut g = position(
        2,
        options(Variant::Casino),
        &[". . . . . . wR"],
        &["QNP", "P"],
    );
    play(&mut g, Seat(0), "K@0,1");
    let escapes = texts(&g, Seat(0));
    assert!(escapes.contains(&"escape -1,2 card 3".to_string()));
    assert!(!escapes.contains(&"escape -1,2".to_string()));
    let events = play(&mut g, Seat(0), "escape -1,2 card 2");
    assert!(events[0].contains("giving up a knight"), "{events:?}");
    assert_eq!(g.plans[0], roles("QP"));
}

#[test]
fn alliance_partners_never_capture_or_check_each_other_and_win_together() {
    let alliance = |variant| EnPriseOptions {
        alliance: true,
        ..options(variant)
    };
    assert!(matches!(
        EnPrise::new(&alliance(Variant::Open), 3, &mut GameRng::from_seed(1)),
        Err(SetupError::Options(_))
    ));
    // White (1) and Red (3) against Black (2) and Blue (4).
    let mut g = position(
        4,
        alliance(Variant::Open),
        &["wR . . . rK", "rP . . . .", "wK . . . uK", ". . bR . bK"],
        &["P", "P", "P", "P"],
    );
    assert!(
        !g.board.in_check(Seat(2), g.sides()),
        "the white rook does not check the red king"
    );
    assert!(!texts(&g, Seat(0)).iter().any(|t| t.contains(" x ")));
    assert_eq!(
        refused(&g, Seat(0), "R 0,3 x 0,2"),
        "you cannot capture an allied piece on 0,2"
    );
    // A placement next to a partner's king is fine; next to an opponent's it is not.
    assert!(texts(&g, Seat(0)).contains(&"P@5,3".to_string()));
    assert!(!texts(&g, Seat(0)).contains(&"P@5,0".to_string()));
    // Black and Blue go out: White and Red win.
    let mut events = vec![];
    g.eliminate(Seat(1), "checkmate", &mut events);
    assert_eq!(
        g.chooser_for(Seat(0)),
        Seat(3),
        "the next opponent, not the partner"
    );
    g.eliminate(Seat(3), "checkmate", &mut events);
    assert!(g.check_end(&mut events));
    assert_eq!(
        g.to_act(),
        ToAct::Over(Outcome::team_win(
            vec![Seat(0), Seat(2)],
            vec![Seat(1), Seat(3)],
            "checkmate"
        ))
    );
    assert_eq!(
        events.last().unwrap().text,
        "Game over: White and Red won by checkmate"
    );
    // Partners see each other's blind plans.
    let g = EnPrise::new(&alliance(Variant::Blind), 4, &mut GameRng::from_seed(1)).unwrap();
    let view = seat_view(&g, 0);
    assert_eq!(
        [0, 1, 2, 3].map(|o| visible_cards(&view, o)),
        [15, 0, 15, 0]
    );
}

#[test]
fn bad_options_and_seat_counts_are_refused() {
    let mut rng = GameRng::from_seed(1);
    assert!(matches!(
        EnPrise::new(&open(), 5, &mut rng),
        Err(SetupError::SeatCount { got: 5, .. })
    ));
    let zero = EnPriseOptions {
        memory_seconds: 0,
        ..options(Variant::Memory)
    };
    assert!(EnPrise::new(&zero, 2, &mut rng).is_err());
    let pairs = [("variant".to_string(), "roulette".to_string())];
    let err = crate::engine::options_from_pairs::<EnPriseOptions>("En Prise", &pairs).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("option variant for En Prise: unknown variant roulette, expected one of"),
        "{err}"
    );
}

#[test]
fn notation_reads_lenient_forms_and_refuses_precisely() {
    let g = position(2, open(), &["- - wQ", "- . -", "wP - -"], &["N", ""]);
    let q = |t: &str| g.parse_action(Seat(0), t);
    let expected = Action::Move {
        from: sq(2, 2),
        to: sq(1, 1),
    };
    for text in [
        "Q 2,2 to 1,1",
        "q 2,2-1,1",
        "2,2 1,1",
        "Q(2,2)->(1,1)",
        "Q 2, 2 to 1 ,1",
        "Q 2,2 x 1,1",
    ] {
        assert_eq!(q(text), Ok(expected.clone()), "{text}");
    }
    assert_eq!(
        q("n@-1,0"),
        Ok(Action::Place {
            at: sq(-1, 0),
            face_down: false
        })
    );
    assert_eq!(
        q("@-1,0"),
        Ok(Action::Place {
            at: sq(-1, 0),
            face_down: false
        })
    );
    assert!(
        q("N 2,2 to 1,1")
            .unwrap_err()
            .reason
            .contains("is a queen, not a knight")
    );
    assert!(
        q("Z@1,1")
            .unwrap_err()
            .reason
            .contains("not a piece letter")
    );
    assert!(q("hello").unwrap_err().reason.contains("N@2,1"));
    assert!(q("").unwrap_err().reason.starts_with("say what to do"));
    assert_eq!(
        g.parse_action(Seat(1), "K@5,5").unwrap_err().reason,
        "it is not your turn"
    );
    // A negative square after a space is a square; "-" right after the first is a separator.
    assert_eq!(
        only_square_for_test("0,0 -2,2"),
        Some((sq(0, 0), sq(-2, 2)))
    );
    assert_eq!(only_square_for_test("0,0-2,2"), Some((sq(0, 0), sq(2, 2))));
    assert_eq!(
        only_square_for_test("0,0--2,2"),
        Some((sq(0, 0), sq(-2, 2)))
    );
}

fn only_square_for_test(text: &str) -> Option<(Sq, Sq)> {
    match notation::read_for_test(text) {
        Some(Action::Move { from, to }) => Some((from, to)),
        _ => None,
    }
}

#[test]
fn no_refusal_names_a_hidden_card() {
    // Casino: the chooser types a placement; Memory: a placement in the escape step.
    let mut g = position(
        2,
        options(Variant::Casino),
        &[". . . . . . wR"],
        &["QNP", "NBP"],
    );
    play(&mut g, Seat(0), "place");
    let reason = refused(&g, Seat(1), "Q@-1,0");
    assert_eq!(reason, "pick which card White places: card 1 to card 3");
    assert_eq!(
        refused(&g, Seat(1), "card 9"),
        "pick one of White's cards by its position, card 1 to card 3"
    );
    let mut g = position(
        2,
        options(Variant::Memory),
        &[". . . . . . wR"],
        &["QNP", "NBP"],
    );
    play(&mut g, Seat(0), "K@0,1");
    let reason = refused(&g, Seat(0), "N@-1,0");
    assert!(
        !reason.contains("queen") && !reason.contains("knight"),
        "{reason}"
    );
    assert_eq!(
        refused(&g, Seat(0), "escape 5,5"),
        "5,5 does not touch the board"
    );
    assert_eq!(
        refused(&g, Seat(0), "escape 0,0"),
        "0,0 already exists; an escape square is a new square"
    );
    assert!(refused(&g, Seat(0), "escape -1,2 card 1").contains("leave out the card number"));
    // The revealed card must be placed before anything else.
    let mut g = position(
        2,
        options(Variant::Memory),
        &[". . . . . . wR"],
        &["QNP", "NBP"],
    );
    play(&mut g, Seat(0), "place");
    assert_eq!(
        refused(&g, Seat(0), "R 6,0 to 5,0"),
        "place the revealed queen first, for example Q@x,y"
    );
    assert_eq!(
        refused(&g, Seat(0), "R@-1,0"),
        "the card you place now is a queen, not a rook"
    );
}

#[test]
fn in_an_alliance_only_opponents_must_summon_at_once() {
    let alliance = EnPriseOptions {
        alliance: true,
        ..open()
    };
    let mut g = position(4, alliance, &[". . . . . . . wR"], &["P", "PP", "PP", "PP"]);
    play(&mut g, Seat(0), "K@0,1");
    play(&mut g, Seat(0), "no escape");
    assert!(
        texts(&g, Seat(1)).iter().all(|t| t.starts_with("K@")),
        "Black must"
    );
    play(&mut g, Seat(1), "K@3,-1");
    play(&mut g, Seat(1), "no escape");
    // Red is White's partner but Black's opponent: Black's king obliges it now.
    assert!(g.must_summon(Seat(2)));
    let mut g = position(
        4,
        EnPriseOptions {
            alliance: true,
            ..open()
        },
        &[". . . . . . . wR"],
        &["P", "PP", "PP", "PP"],
    );
    play(&mut g, Seat(0), "K@0,1");
    play(&mut g, Seat(0), "no escape");
    g.current = Seat(2);
    g.phase = Phase::Turn;
    assert!(
        !g.must_summon(Seat(2)),
        "White's partner is not forced by White's king"
    );
    assert!(texts(&g, Seat(2)).iter().any(|t| t.starts_with("P@")));
}

#[test]
fn a_placement_may_not_add_a_check_to_a_king_already_in_check() {
    // Red's rook checks Black's king; White's knight on 3,2 would reach 4,0 over the new 4,2.
    let mut g = position(
        3,
        open(),
        &[
            "- - - - - - -",
            ". . . . - . rK",
            "wK . . . . . .",
            "- - - - bK . rR",
        ],
        &["N", "P", "P"],
    );
    g.board.set(
        sq(3, 2),
        Some(Piece {
            owner: Seat(0),
            role: Role::Knight,
        }),
    );
    assert!(g.board.in_check(Seat(1), g.sides()));
    assert!(!texts(&g, Seat(0)).contains(&"N@4,2".to_string()));
    g.board.set(sq(6, 0), None);
    assert!(!texts(&g, Seat(0)).contains(&"N@4,2".to_string()));
}
