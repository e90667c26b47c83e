//! Snipe Chess rules: setup, moves through the forest, rotations, refusals and the generic
//! checks.

use super::*;
use crate::engine::testing::{self, Config, check_game};

/// Why `text` cannot be read as an action at all.
pub(super) fn unreadable(g: &Snipe, text: &str) -> String {
    let reason = testing::refusal(g, seat_of(g.turn), text);
    let understood = g
        .parse_action(seat_of(g.turn), text)
        .unwrap_err()
        .understood;
    assert!(!understood, "{text} should not be read: {reason}");
    reason
}

/// Where the piece on `from` may go, as squares.
pub(super) fn targets(g: &Snipe, from: &str) -> Vec<String> {
    let mut out: Vec<String> = g
        .legal(g.turn)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { from: f, to } if f == sq(from) => Some(square(to)),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

#[test]
fn random_games_keep_the_contract() {
    for options in [
        SnipeOptions::default(),
        SnipeOptions {
            last_chance: true,
            ..SnipeOptions::default()
        },
        SnipeOptions {
            auto: true,
            last_chance: true,
            feather: true,
        },
    ] {
        let mut config = Config::<Snipe>::new(options, 2, 0..10);
        config.actions_checked_per_state = 8;
        let report = check_game(&config);
        assert_eq!(report.games, 10);
    }
}

#[test]
fn squares_are_named_a1_to_j10_and_cards_by_their_lower_left_space() {
    assert_eq!(square(Sq::new(0, 0)), "a1");
    assert_eq!(square(Sq::new(9, 9)), "j10");
    assert_eq!(CardAt::of(sq("d6")), CardAt { cx: 1, cy: 2 });
    assert_eq!(square(CardAt::of(sq("d6")).corner()), "c5");
    let card = CardAt { cx: 0, cy: 0 };
    // A quarter turn clockwise, seen from above with White at the bottom.
    let turn = |s: &str| square(card.clockwise(sq(s)));
    assert_eq!(
        [turn("a1"), turn("a2"), turn("b2"), turn("b1")],
        ["a2", "b2", "b1", "a1"]
    );
}

// ---- setup ----

/// A forest for the setup tests. White's home row (ranks 1-2): j1 is a dead corner (j2 and i1
/// are trees); c1 breathes only through b1 (c2 and d1 are trees), and b1's card has a second
/// open space, a1.
fn setup_forest() -> Snipe {
    let mut rows = [OPEN; 10];
    rows[8] = "TTT......T";
    rows[9] = "...T....T.";
    let mut g = board(rows, "", SnipeOptions::default(), Color::White);
    g.phase = Phase::Setup;
    g.history.clear();
    g
}

#[test]
fn the_setup_alternates_white_first_one_piece_per_home_card() {
    let mut g = setup_forest();
    assert_eq!(g.to_act(), ToAct::one(Seat(0)));
    let legal = texts(&g);
    assert!(legal.iter().all(|t| {
        let rank: i16 = t[3..].parse().unwrap();
        rank <= 2
    }));
    assert!(legal.contains(&"K@e1".to_string()) && legal.contains(&"P@e1".to_string()));
    assert!(refused(&g, "K@e3").contains("home row of cards (ranks 1 and 2)"));
    assert_eq!(refused(&g, "K@a2"), "a2 is a tree");
    assert_eq!(
        unreadable(&g, "K@k1"),
        "k1 is off the board: files a to j, ranks 1 to 10"
    );
    assert_eq!(
        unreadable(&g, "Ka11"),
        "a11 is off the board: files a to j, ranks 1 to 10"
    );
    play(&mut g, "K@e1");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)), "Black places next");
    assert!(refused(&g, "K@e1").contains("home row of cards (ranks 9 and 10)"));
    play(&mut g, "k@e10");
    assert_eq!(
        refused(&g, "P@f2"),
        "that card already holds your king on e1; one piece per card"
    );
    assert_eq!(refused(&g, "K@g1"), "your king is already placed");
    play(&mut g, "g1");
    assert_eq!(
        piece_at(&g, "g1"),
        Some((Color::White, Role::Pawn)),
        "only pawns left, so a bare square places one"
    );
    for (black, white) in [("P@a10", "P@a1"), ("P@c10", "P@c1"), ("P@g10", "P@i2")] {
        play(&mut g, black);
        play(&mut g, white);
    }
    assert_eq!(g.phase, Phase::Setup, "Black's last pawn is still to come");
    play(&mut g, "P@i9");
    assert_eq!(g.phase, Phase::Move);
    assert_eq!(g.to_act(), ToAct::one(Seat(0)), "White moves first");
    for color in [Color::White, Color::Black] {
        for cx in 0..CARDS {
            let card = CardAt {
                cx,
                cy: home_row(color),
            };
            let on = card
                .squares()
                .iter()
                .filter(|s| g.pieces.get(s).is_some_and(|p| p.color == color))
                .count();
            assert_eq!(on, 1, "one piece on each home card");
        }
    }
}

#[test]
fn a_bare_square_in_the_setup_is_answered_about_that_square() {
    let mut g = setup_forest();
    assert_eq!(
        refused(&g, "e9"),
        "e9 is not on your home row of cards (ranks 1 and 2): place your pieces there"
    );
    assert_eq!(refused(&g, "a2"), "a2 is a tree");
    assert_eq!(unreadable(&g, "e1"), "say which piece: K@e1 or P@e1");
    play(&mut g, "K@e1");
    assert_eq!(unreadable(&g, "e10"), "say which piece: K@e10 or P@e10");
}

#[test]
fn a_king_is_never_set_up_without_a_free_neighbour() {
    let mut g = setup_forest();
    assert_eq!(
        refused(&g, "K@j1"),
        "your king would have no free space beside it"
    );
    play(&mut g, "K@c1");
    play(&mut g, "k@a10");
    assert_eq!(refused(&g, "P@b2"), "b2 is a tree");
    assert_eq!(
        refused(&g, "P@b1"),
        "that would leave your king no free space beside it"
    );
    assert!(texts(&g).contains(&"P@a1".to_string()));
}

#[test]
fn the_auto_option_places_every_piece_at_random() {
    let auto = SnipeOptions {
        auto: true,
        ..SnipeOptions::default()
    };
    let mut layouts = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let g = Snipe::new(&auto, 2, &mut GameRng::from_seed(seed)).unwrap();
        assert_eq!(g.phase, Phase::Move);
        assert_eq!(g.pieces.len(), 10);
        for color in [Color::White, Color::Black] {
            assert!(g.free_neighbours(color).unwrap() > 0);
            for cx in 0..CARDS {
                let card = CardAt {
                    cx,
                    cy: home_row(color),
                };
                let n = card
                    .squares()
                    .iter()
                    .filter(|s| g.pieces.get(s).is_some_and(|p| p.color == color))
                    .count();
                assert_eq!(n, 1);
            }
        }
        layouts.insert(format!("{:?}", g.pieces));
    }
    assert_eq!(layouts.len(), 20, "different seeds, different setups");
    let manual = Snipe::new(&SnipeOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    assert_eq!(manual.phase, Phase::Setup);
    assert!(manual.pieces.is_empty());
}

#[test]
fn a_forest_nobody_can_set_up_on_is_dealt_again() {
    // Black's home row: every open space is a dead end (trees around, edge above).
    let mut rows = [OPEN; 10];
    rows[0] = ".T.T.T.T.T";
    rows[1] = "TTTTTTTTTT";
    let g = board(rows, "", SnipeOptions::default(), Color::White);
    let empty = BTreeMap::new();
    assert!(!g.setup_possible(Color::Black, &empty));
    assert!(g.setup_possible(Color::White, &empty));
    for seed in 0..200 {
        let g = Snipe::new(&SnipeOptions::default(), 2, &mut GameRng::from_seed(seed)).unwrap();
        assert!(g.setup_possible(Color::White, &empty) && g.setup_possible(Color::Black, &empty));
        let mut cards: Vec<u8> = g.forest.iter().flatten().map(|d| d.card).collect();
        cards.extend(&g.stock);
        cards.sort();
        assert_eq!(cards, (0..33).collect::<Vec<u8>>(), "25 dealt, 8 unused");
    }
}

// ---- moves ----

#[test]
fn pieces_slide_through_their_own_colour_but_not_trees_or_the_opponent() {
    let mut rows = [OPEN; 10];
    rows[5] = "..T.......";
    let g = board(
        rows,
        "Pc3 Kc4 Pe3 pg3 kj10",
        SnipeOptions::default(),
        Color::White,
    );
    assert_eq!(targets(&g, "c3"), ["a3", "b3", "c1", "c2", "d3", "f3"]);
    assert_eq!(refused(&g, "Pc3-c6"), "a tree on c5 blocks the way");
    assert_eq!(
        refused(&g, "Pc3-g3"),
        "the opponent's pawn on g3 blocks the way; nothing is captured"
    );
    assert_eq!(
        refused(&g, "Pc3-h3"),
        "the opponent's pawn on g3 blocks the way"
    );
    assert_eq!(
        refused(&g, "Pc3-e3"),
        "your pawn stands on e3; pieces pass their own colour but do not stop on it"
    );
    assert_eq!(
        refused(&g, "Pc3-d4"),
        "pieces move in a straight line along a rank or a file, never diagonally"
    );
    assert_eq!(
        refused(&g, "Pc3-c3"),
        "the pawn is already on c3; move at least one space"
    );
    assert_eq!(refused(&g, "Pg3-g4"), "the pawn on g3 is not yours");
    assert_eq!(
        refused(&g, "Kc3-c2"),
        "the piece on c3 is a pawn, not a king"
    );
    assert_eq!(refused(&g, "Ph3-h4"), "there is no piece on h3");
    assert_eq!(refused(&g, "done"), "you must move a piece");
    let mut g = g;
    play(&mut g, "c3 to f3");
    assert_eq!(piece_at(&g, "f3"), Some((Color::White, Role::Pawn)));
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
    assert_eq!(g.last.as_ref().unwrap().squares, [sq("c3"), sq("f3")]);
}

// ---- rotations ----

#[test]
fn a_pawn_on_a_90_degree_space_turns_one_card_and_its_pieces_turn_with_it() {
    let mut rows = [OPEN; 10];
    rows[4] = "T...R.....";
    let mut g = board(
        rows,
        "Pe3 pb6 Ka1 kj10",
        SnipeOptions::default(),
        Color::White,
    );
    assert_eq!(g.space(sq("e6")), Some(Space::Rotate90));
    play(&mut g, "Pe3-e6");
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(0)),
        "still White: the rotation step"
    );
    let legal = texts(&g);
    assert!(legal.contains(&"rotate a5 cw".into()) && legal.contains(&"rotate a5 ccw".into()));
    assert!(legal.contains(&"done".into()));
    assert!(!legal.iter().any(|t| t.ends_with("180")));
    assert_eq!(
        refused(&g, "rotate a5 180"),
        "this rotation space turns cards by 90 degrees: write rotate a5 cw or ccw"
    );
    // Named by any of its spaces: b6 is on the card at a5.
    play(&mut g, "rotate b6 clockwise");
    assert_eq!(
        g.space(sq("b6")),
        Some(Space::Tree),
        "top-left went top-right"
    );
    assert_eq!(g.space(sq("a6")), Some(Space::Open));
    assert_eq!(
        piece_at(&g, "b5"),
        Some((Color::Black, Role::Pawn)),
        "top-right went bottom-right"
    );
    assert_eq!(piece_at(&g, "b6"), None);
    assert_eq!(g.card(CardAt { cx: 0, cy: 2 }).quarters, 1);
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(1)),
        "a pawn turns one card, then the turn ends"
    );
    assert_eq!(g.last.as_ref().unwrap().cards, [CardAt { cx: 0, cy: 2 }]);
}

#[test]
fn a_king_turns_up_to_three_different_cards_either_way_itself_included() {
    let mut rows = [OPEN; 10];
    rows[6] = ".......R..";
    rows[8] = ".T........";
    let mut g = board(rows, "Kh1 Pa1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Kh1-h4");
    assert!(matches!(
        g.phase,
        Phase::Rotate {
            left: 3,
            angle: 90,
            ..
        }
    ));
    // Anticlockwise: bottom-left to bottom-right, top-right to top-left.
    play(&mut g, "rotate a1 ccw");
    assert_eq!(piece_at(&g, "b1"), Some((Color::White, Role::Pawn)));
    assert_eq!(g.space(sq("a2")), Some(Space::Tree));
    assert_eq!(g.card(CardAt { cx: 0, cy: 0 }).quarters, 3);
    assert_eq!(
        refused(&g, "rotate b2 cw"),
        "the card at a1 has already turned this turn"
    );
    // The king's own card: h4 is its top-right space, which goes bottom-right (h3).
    play(&mut g, "rotate g3 cw");
    assert_eq!(piece_at(&g, "h3"), Some((Color::White, Role::King)));
    assert_eq!(
        g.space(sq("h3")),
        Some(Space::Rotate90),
        "the space turned too"
    );
    assert_eq!(
        g.last.as_ref().unwrap().squares,
        [sq("h1"), sq("h3")],
        "the last move follows the king"
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(0)), "one more card to go");
    play(&mut g, "rotate e5 cw");
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(1)),
        "three cards, and the turn ends"
    );
    assert_eq!(g.last.as_ref().unwrap().cards.len(), 3);
}

#[test]
fn a_king_may_stop_rotating_early() {
    let mut rows = [OPEN; 10];
    rows[6] = ".......R..";
    let mut g = board(rows, "Kh1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Kh1-h4");
    play(&mut g, "rotate a1 cw");
    play(&mut g, "done");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
    assert_eq!(g.phase, Phase::Move);
}

#[test]
fn a_180_degree_space_turns_a_card_half_way_round() {
    let mut rows = [OPEN; 10];
    rows[4] = "....U.....";
    rows[8] = "T.........";
    let mut g = board(
        rows,
        "Pe3 Pb1 Ka3 kj10",
        SnipeOptions::default(),
        Color::White,
    );
    play(&mut g, "Pe3-e6");
    assert!(texts(&g).iter().all(|t| t == "done" || t.ends_with(" 180")));
    assert_eq!(
        refused(&g, "rotate a1 cw"),
        "this rotation space turns cards by 180 degrees: write rotate a1 180"
    );
    play(&mut g, "rotate a1 180");
    assert_eq!(
        g.space(sq("b1")),
        Some(Space::Tree),
        "top-left went bottom-right"
    );
    assert_eq!(
        piece_at(&g, "a2"),
        Some((Color::White, Role::Pawn)),
        "bottom-right went top-left"
    );
    assert_eq!(g.card(CardAt { cx: 0, cy: 0 }).quarters, 2);
}

#[test]
fn a_piece_must_move_onto_the_rotation_space_to_rotate() {
    let mut rows = [OPEN; 10];
    rows[4] = "....R.....";
    let mut g = board(rows, "Pe6 Ka1 kj10", SnipeOptions::default(), Color::White);
    assert_eq!(g.space(sq("e6")), Some(Space::Rotate90));
    assert_eq!(
        refused(&g, "rotate a1 cw"),
        "a card turns only in the turn a piece moves onto a rotation space"
    );
    play(&mut g, "Pe6-e8");
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(1)),
        "moving off it gives no rotation"
    );
    play(&mut g, "kj10-j9");
    play(&mut g, "Pe8-e6");
    assert!(
        matches!(g.phase, Phase::Rotate { .. }),
        "moving back onto it does"
    );
}

#[test]
fn the_feather_option_lets_a_king_replace_an_empty_card() {
    let mut rows = [OPEN; 10];
    rows[6] = "..S.......";
    let mut g = board(rows, "Kc1 Pa5 kj10", feather(), Color::White);
    let unused = g.stock.clone();
    assert_eq!(unused.len(), 8);
    play(&mut g, "Kc1-c4");
    assert_eq!(g.phase, Phase::Feather);
    let name = |c: u8| forest()[usize::from(c)].name.clone();
    let legal = texts(&g);
    assert_eq!(
        legal.len(),
        (25 - 3) * 8 + 1,
        "every empty card (not c3, a5, i9) with every unused card, or done"
    );
    assert_eq!(
        refused(&g, &format!("replace c4 with {}", name(unused[0]))),
        "the card at c3 has a piece on it; only an empty card may be replaced"
    );
    let dealt = g.card(CardAt { cx: 2, cy: 2 }).card;
    assert_eq!(
        refused(&g, &format!("replace a1 with {}", name(dealt))),
        format!(
            "the {} lies in the forest already; only an unused card can come in",
            name(dealt)
        )
    );
    let old = g.card(CardAt { cx: 0, cy: 0 }).card;
    play(
        &mut g,
        &format!("replace a1 with {}", name(unused[0]).to_lowercase()),
    );
    assert_eq!(g.card(CardAt { cx: 0, cy: 0 }).card, unused[0]);
    assert_eq!(
        g.card(CardAt { cx: 0, cy: 0 }).spaces,
        forest()[usize::from(unused[0])].spaces
    );
    assert!(g.stock.contains(&old) && !g.stock.contains(&unused[0]));
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));

    // A pawn on a feather, or the option off: nothing happens.
    let mut g = board(rows, "Kc1 Pa4 kj10", feather(), Color::White);
    play(&mut g, "Pa4-c4");
    assert_eq!(g.phase, Phase::Move);
    let mut g = board(rows, "Kc1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Kc1-c4");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
}

#[test]
fn a_feather_turn_may_end_without_replacing() {
    let mut rows = [OPEN; 10];
    rows[6] = "..S.......";
    let mut g = board(rows, "Kc1 kj10", feather(), Color::White);
    let before = g.forest;
    play(&mut g, "Kc1-c4");
    play(&mut g, "done");
    assert_eq!(g.forest, before);
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
}

// ---- notation ----

#[test]
fn actions_read_leniently_and_refuse_precisely() {
    let g = open_forest("Ke1 Pc3 ke10");
    let read = |t: &str| g.format_action(&g.parse_action(Seat(0), t).unwrap());
    for text in [
        "Ke1-e4",
        "ke1 e4",
        "K e1 to e4",
        "e1-e4",
        "king e1 e4",
        "E1>E4",
    ] {
        assert_eq!(read(text), "Ke1-e4", "{text}");
    }
    assert_eq!(
        g.parse_action(Seat(0), "").unwrap_err().reason,
        format!("say what to do; {}", notation::FORMS)
    );
    assert_eq!(
        g.parse_action(Seat(0), "hello").unwrap_err().reason,
        notation::FORMS
    );
    assert_eq!(
        g.parse_action(Seat(1), "ke10-e9").unwrap_err().reason,
        "it is not your turn"
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate c3 sideways")
            .unwrap_err()
            .reason,
        "\"sideways\" is not a way to turn: cw, ccw or 180"
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate Nowhere cw")
            .unwrap_err()
            .reason,
        "no card in the forest is called or stands on \"nowhere\""
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate c3 cw").unwrap_err().reason,
        "a card turns only in the turn a piece moves onto a rotation space"
    );
    assert_eq!(
        g.parse_action(Seat(0), "Ke1-k1").unwrap_err().reason,
        "k1 is off the board: files a to j, ranks 1 to 10"
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate k5 cw").unwrap_err().reason,
        "k5 is off the board: files a to j, ranks 1 to 10"
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate c3").unwrap_err().reason,
        "a card turns only in the turn a piece moves onto a rotation space",
        "the way does not matter before a move onto a rotation space"
    );
    assert_eq!(
        g.parse_action(Seat(0), "replace c3 with Deep Woods")
            .unwrap_err()
            .reason,
        "the Deep Woods is set aside in Snipe Chess; choose one of the unused cards"
    );
    assert_eq!(
        g.parse_action(Seat(0), "replace c3 with Nowhere")
            .unwrap_err()
            .reason,
        "there is no card called \"nowhere\""
    );
    // A card may be named by its name.
    let mut rows = [OPEN; 10];
    rows[4] = "....R.....";
    let mut g = board(rows, "Pe3 Ka1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Pe3-e6");
    assert_eq!(
        unreadable(&g, "rotate c3"),
        "say which way: rotate c3 cw or rotate c3 ccw"
    );
    let name = g.card(CardAt { cx: 1, cy: 1 }).name().to_string();
    assert_eq!(
        g.format_action(
            &g.parse_action(Seat(0), &format!("turn {name} left"))
                .unwrap()
        ),
        "rotate c3 ccw"
    );
    let name = g.card(CardAt { cx: 1, cy: 1 }).name().replace('\'', "");
    assert_eq!(
        g.format_action(
            &g.parse_action(Seat(0), &format!("turn {name} counter-clockwise"))
                .unwrap()
        ),
        "rotate c3 ccw",
        "apostrophes may be left out"
    );
    // On a 180 space the direction may go unsaid.
    let mut rows = [OPEN; 10];
    rows[4] = "....U.....";
    let mut g = board(rows, "Pe3 Ka1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Pe3-e6");
    assert_eq!(
        g.format_action(&g.parse_action(Seat(0), "rotate c3").unwrap()),
        "rotate c3 180"
    );
}

// ---- one reason, the one that applies ----

#[test]
fn a_refusal_names_the_step_of_the_turn_and_what_may_be_done() {
    let g = setup_forest();
    assert_eq!(
        refused(&g, "Pa1-a3"),
        "the pieces are still being placed: place one, for example K@a1"
    );
    let mut rows = [OPEN; 10];
    rows[4] = "....R.....";
    rows[6] = "..S.......";
    let mut g = board(rows, "Pe3 Kc1 kj10", SnipeOptions::default(), Color::White);
    assert_eq!(
        refused(&g, "P@e2"),
        "every piece is placed: move one, for example Kc1-d1"
    );
    assert_eq!(
        refused(&g, "replace a1 with Meadow"),
        "replacing a card is the feather rule, which this game does not use"
    );
    g.options.feather = true;
    assert_eq!(
        refused(&g, "replace a1 with Meadow"),
        "a card is replaced only in the turn your king moves onto a snipe feather"
    );
    assert_eq!(
        unreadable(&g, "c1"),
        "a move needs two squares, from and to: Kc1-c4"
    );
    play(&mut g, "Pe3-e6");
    assert_eq!(
        refused(&g, "Kc1-c2"),
        "your piece is on a 90-degree rotation space: turn a card (rotate c3 cw) or end the \
         turn (done)"
    );
    play(&mut g, "done");
    play(&mut g, "kj10-j9");
    play(&mut g, "Kc1-c4");
    assert_eq!(g.phase, Phase::Feather);
    assert_eq!(
        refused(&g, "rotate a1 cw"),
        "your king is on a snipe feather: replace an empty card (replace c3 with Meadow) or \
         end the turn (done)"
    );
    assert_eq!(
        refused(&g, "Ke6-e7"),
        "the piece on e6 is a pawn, not a king"
    );
}

// ---- help for players ----

#[test]
fn legal_actions_group_by_piece_and_kind_and_the_help_is_short() {
    let g = setup_forest();
    let mut groups: Vec<String> = g
        .legal_actions(Seat(0))
        .iter()
        .map(|a| g.action_group(a))
        .collect();
    groups.dedup();
    assert_eq!(groups, ["place king", "place pawn"]);
    let mut rows = [OPEN; 10];
    rows[4] = "....R.....";
    let mut g = board(rows, "Pe3 Kc1 kj10", SnipeOptions::default(), Color::White);
    let mut groups: Vec<String> = g
        .legal_actions(Seat(0))
        .iter()
        .map(|a| g.action_group(a))
        .collect();
    groups.dedup();
    assert_eq!(groups, ["king c1", "pawn e3"]);
    play(&mut g, "Pe3-e6");
    let mut groups: Vec<String> = g
        .legal_actions(Seat(0))
        .iter()
        .map(|a| g.action_group(a))
        .collect();
    groups.dedup();
    assert_eq!(groups, ["rotate", "done"]);

    let lines: Vec<&str> = Snipe::NOTATION.lines().collect();
    assert!((2..=8).contains(&lines.len()), "{lines:?}");
    assert!(lines.iter().all(|l| l.len() < 100), "{lines:?}");
    for example in ["K@c1", "Kc1-c4", "rotate c3 cw", "replace c3 with Meadow"] {
        assert!(Snipe::NOTATION.contains(example), "{example}");
    }
}
