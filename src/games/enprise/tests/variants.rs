//! En Prise variant scenarios: Open, Blind, Memory, Casino and Alliance.

use super::*;

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
            peek: Some(Peek::Next),
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
            memory_seconds: Some(30),
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
fn memory_a_player_out_of_time_while_memorising_is_passed_over() {
    // White runs out of time while the plans are on show; when the others are ready, Black
    // (not the eliminated White) begins.
    for (white_ready_first, seats) in [(false, 3), (true, 3), (false, 4)] {
        let mut g =
            EnPrise::new(&options(Variant::Memory), seats, &mut GameRng::from_seed(5)).unwrap();
        if white_ready_first {
            play(&mut g, Seat(0), "ready");
        }
        assert_eq!(
            g.on_time(Seat(0)),
            None,
            "three or more: put out, play goes on"
        );
        let events = g.time_out(Seat(0));
        assert!(
            events[0].text.contains("White ran out of time"),
            "{events:?}"
        );
        assert_eq!(g.on_time(Seat(0)), None, "out already: nothing more");
        assert!(g.time_out(Seat(0)).is_empty(), "put out once");
        for seat in 1..seats {
            play(&mut g, Seat(seat as u8), "ready");
        }
        assert_eq!(g.to_act(), ToAct::one(Seat(1)), "seats {seats}");
        assert!(!texts(&g, Seat(1)).is_empty(), "Black has a turn to play");
        assert_eq!(g.eliminated.len(), 1);
    }
}

#[test]
fn memory_a_revealed_card_that_cannot_be_placed_stays_face_up_and_the_player_moves() {
    // White is in check; only a pawn could block it, and the next card is a knight.
    let mut g = position(
        2,
        options(Variant::Memory),
        &checked_by_a_rook(),
        &["NP", "P"],
    );
    assert_eq!(texts(&g, Seat(0)).last().unwrap(), "place");
    let events = play(&mut g, Seat(0), "place");
    assert!(
        events[1].contains("cannot be placed and stays face-up"),
        "{events:?}"
    );
    assert_eq!(g.phase, Phase::Turn);
    assert!(g.plans[0][0].shown);
    assert_eq!(visible_cards(&seat_view(&g, 1), 0), 1);
    assert_eq!(texts(&g, Seat(0)), vec!["K 0,0 to 0,1", "K 0,0 to 1,1"]);
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
    // In check: only the pawn can block (onto 1,0); the knight there would give check.
    let mut g = position(
        2,
        options(Variant::Casino),
        &checked_by_a_rook(),
        &["NP", "P"],
    );
    play(&mut g, Seat(0), "place");
    let events = play(&mut g, Seat(1), "card 1");
    assert!(events[1].contains("Black picks again"), "{events:?}");
    assert_eq!(
        texts(&g, Seat(1)),
        vec!["card 2"],
        "the shown knight cannot be picked again now"
    );
    play(&mut g, Seat(1), "card 2");
    assert_eq!(texts(&g, Seat(0)), vec!["P@1,0"]);
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
        "the pawn on 0,2 belongs to your partner Red: partners never capture each other"
    );
    // A placement next to a partner's king is fine; next to an opponent's it is not.
    assert!(texts(&g, Seat(0)).contains(&"P@5,3".to_string()));
    assert!(!texts(&g, Seat(0)).contains(&"P@5,0".to_string()));
    // Black and Blue go out: White and Red win.
    let mut events = vec![];
    g.eliminate(Seat(1), Out::Checkmate { by: vec![Seat(0)] }, &mut events);
    assert_eq!(
        g.chooser_for(Seat(0)),
        Seat(3),
        "the next opponent, not the partner"
    );
    g.eliminate(Seat(3), Out::Stalemate, &mut events);
    assert!(g.check_end(&mut events));
    assert_eq!(
        g.to_act(),
        ToAct::Over(Outcome::team_win(
            vec![Seat(0), Seat(2)],
            vec![Seat(1), Seat(3)],
            "stalemate"
        ))
    );
    assert_eq!(
        events.last().unwrap().text,
        "Game over: White and Red won: Blue was stalemated; earlier, Black was checkmated by White"
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
    let mut g = knight_waiting_for_a_square();
    assert!(g.board.in_check(Seat(1), g.sides()));
    assert!(!texts(&g, Seat(0)).contains(&"N@4,2".to_string()));
    g.board.set(sq(6, 0), None);
    assert!(!texts(&g, Seat(0)).contains(&"N@4,2".to_string()));
}
