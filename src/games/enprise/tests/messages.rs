//! What En Prise says: outcomes naming who went out and how, one refusal reason that applies,
//! options refused at set-up, the notation help, action groups and the repetition warning.

use super::*;
use crate::games::GameKind;

#[test]
fn a_two_player_checkmate_names_the_mated_player_and_the_winner() {
    let mut g = mate_in_one(2);
    g.current = Seat(1);
    let events = play(&mut g, Seat(1), "N 3,3 to 1,2");
    assert_eq!(
        events[events.len() - 2..],
        [
            "White is out of the game (checkmated by Black); their pieces turn face-down",
            "Game over: Black won: White was checkmated by Black",
        ]
    );
    let view = g.view(Viewer::Spectator);
    assert_eq!(
        view.status,
        "Game over: Black won: White was checkmated by Black"
    );
    assert_eq!(view.players[0].out.as_deref(), Some("checkmated by Black"));
}

#[test]
fn results_in_three_players_name_every_elimination_the_decisive_one_first() {
    // White is stalemated by Red's pawn; Black and Red play on.
    let mut g = position(
        3,
        open(),
        &["- - - - - bR", ". . . rK", "wP wP . .", "wK wP . bK"],
        &["", "P", "P"],
    );
    g.current = Seat(2);
    play(&mut g, Seat(2), "P@4,2");
    assert_eq!(
        g.describe(&Outcome::draw(3, "agreement")),
        "Draw between Black and Red by agreement; earlier, White was stalemated"
    );
    let resigned = g.resignation(Seat(2)).unwrap();
    assert_eq!(
        g.describe(&resigned),
        "Black won: Red resigned; earlier, White was stalemated"
    );
    // With nobody out, a draw is just a draw.
    let fresh = position(3, open(), &["wK . . bK"], &["P", "P", "P"]);
    assert_eq!(
        fresh.describe(&Outcome::draw(3, "agreement")),
        "Draw by agreement"
    );
    assert_eq!(
        fresh.describe(&Outcome::draw(3, "no checkmate is possible any more")),
        "Draw: no checkmate is possible any more"
    );
}

#[test]
fn a_player_who_cannot_summon_the_king_safely_is_named_as_mated_on_the_way_into_battle() {
    // Every square where Black's king could go touches White's king or is in the queen's reach.
    let mut g = position(2, open(), &["wK wQ"], &["", "P"]);
    let mut events = vec![];
    g.end_turn(&mut events, false);
    let texts: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Black is out of the game (no safe square for the king); their pieces turn face-down",
            "Game over: White won: Black was checkmated on the way into battle (no safe square \
             for the king)",
        ]
    );
}

#[test]
fn alliance_results_name_the_team_and_each_player_out() {
    let alliance = EnPriseOptions {
        alliance: true,
        ..open()
    };
    let mut g = position(
        4,
        alliance,
        &["wK . . rK", ". . . .", "bK . . uK"],
        &["Q", "Q", "Q", "Q"],
    );
    let mut events = vec![];
    g.eliminate(
        Seat(1),
        Out::Checkmate {
            by: vec![Seat(0), Seat(2)],
        },
        &mut events,
    );
    assert_eq!(
        g.describe(&Outcome::draw(4, "no checkmate is possible any more")),
        "Draw between White, Red and Blue: no checkmate is possible any more; earlier, Black was \
         checkmated by White and Red"
    );
    g.eliminate(Seat(2), Out::Repetition, &mut events);
    g.eliminate(Seat(3), Out::Stalemate, &mut events);
    assert!(g.check_end(&mut events));
    assert_eq!(
        events.last().unwrap().text,
        "Game over: White and Red won: Blue was stalemated; earlier, Black was checkmated by \
         White and Red, then Red was out by repetition"
    );
}

#[test]
fn the_last_action_keeps_the_pieces_it_put_out_as_they_stood() {
    // Two players: the mated king stays in the last picture, in check, with its pawns.
    let mut g = mate_in_one(2);
    g.current = Seat(1);
    play(&mut g, Seat(1), "N 3,3 to 1,2");
    assert_eq!(
        g.board.get(sq(0, 0)),
        Some(None),
        "the cards are turned over"
    );
    let last = g.view(Viewer::Spectator).last.unwrap();
    assert_eq!(last.squares, vec![sq(3, 3), sq(1, 2)], "the mating move");
    let white = |role| Piece {
        owner: Seat(0),
        role,
    };
    assert_eq!(
        last.fallen,
        vec![
            Fallen {
                at: sq(0, 0),
                piece: white(Role::King),
                check: true
            },
            Fallen {
                at: sq(0, 1),
                piece: white(Role::Pawn),
                check: false
            },
            Fallen {
                at: sq(1, 0),
                piece: white(Role::Pawn),
                check: false
            },
            Fallen {
                at: sq(1, 1),
                piece: white(Role::Pawn),
                check: false
            },
        ]
    );
    // Three players: White goes out at the start of its turn, after Red's placement; the next
    // action is a new picture without them.
    let mut g = mate_in_one(3);
    g.current = Seat(1);
    play(&mut g, Seat(1), "N 3,3 to 1,2");
    assert!(g.last.as_ref().unwrap().fallen.is_empty(), "not out yet");
    play(&mut g, Seat(2), "P@14,1");
    let last = g.last.clone().unwrap();
    assert_eq!(last.text, "Red places a pawn at 14,1");
    assert_eq!(last.fallen.len(), 4);
    assert!(last.fallen.iter().any(|f| f.check && f.at == sq(0, 0)));
    play(&mut g, Seat(1), "P@3,3");
    assert!(g.last.as_ref().unwrap().fallen.is_empty());
}

/// White to play: bishop, queen and king on the board, a knight next in the plan; Black's king
/// on 4,3 and rook on 4,1.
fn crowded() -> EnPrise {
    position(
        2,
        open(),
        &["wQ bP . . bK", "bP . . . .", ". wB - . bR", "wK . . . ."],
        &["NP", "P"],
    )
}

#[test]
fn every_refusal_of_understood_text_names_the_one_rule_that_applies() {
    let g = crowded();
    assert!(!g.board.in_check(Seat(0), g.sides()) && !g.board.in_check(Seat(1), g.sides()));
    let cases = [
        // moves
        ("B 1,1 to 1,2", "a bishop moves along a diagonal"),
        (
            "B 1,1 to 5,5",
            "there is no square at 5,5: pieces move only over squares already on the table",
        ),
        ("R 4,1 to 3,1", "the rook on 4,1 is Black's, not yours"),
        (
            "3,1 to 3,2",
            "3,1 is a vacant square: there is no piece there",
        ),
        ("9,9 to 3,2", "there is no square at 9,9"),
        ("K 0,0 to 2,2", "a king moves one square at a time"),
        ("K 0,0 to 1,1", "your own bishop stands on 1,1"),
        (
            "Q 0,3 to 2,3",
            "the queen's way to 2,3 is blocked by Black's pawn on 1,3",
        ),
        (
            "Q 0,3 to 0,1",
            "the queen's way to 0,1 is blocked by Black's pawn on 0,2",
        ),
        (
            "Q 0,3 to 2,0",
            "a queen moves along a row, a column or a diagonal",
        ),
        ("N 1,1 to 2,2", "the piece on 1,1 is a bishop, not a knight"),
        // the knight to place
        ("N@6,6", "6,6 does not touch the board"),
        ("N@1,1", "1,1 is taken: your own bishop stands there"),
        ("N@4,1", "4,1 is taken: Black's rook stands there"),
        ("N@3,3", "a new piece may not touch Black's king on 4,3"),
        (
            "N@2,2",
            "a new piece may not give check: a knight on 2,2 would check Black's king on 4,3",
        ),
        (
            "N@0,-1 down",
            "only a pawn may go face-down; your card is a knight",
        ),
        ("Q@2,1", "the card you place now is a knight, not a queen"),
        // things that are not for now
        ("K@2,2", "your king is already on the board, on 0,0"),
        (
            "escape 2,1",
            "an escape square can be added only right after summoning your king",
        ),
        (
            "no escape",
            "an escape square can be added only right after summoning your king",
        ),
        (
            "place",
            "in the open variant you place your next card directly, for example N@x,y",
        ),
        ("card 2", "there is no card to pick now"),
        (
            "ready",
            "ready is for the Memory variant, to end the time the plans are on show",
        ),
    ];
    for (text, reason) in cases {
        assert_eq!(refused(&g, Seat(0), text), reason, "{text}");
    }
    assert_eq!(refused(&g, Seat(1), "R 4,1 to 3,1"), "it is not your turn");
    // Text that cannot be read at all says how actions are written.
    for text in ["hello", "escape", "N@1,1 up"] {
        assert!(
            unreadable(&g, Seat(0), text).starts_with("write N@2,1 to place"),
            "{text}"
        );
    }
    for (text, reason) in [
        ("N@1", "write the square as x,y, for example N@2,-1"),
        (
            "card x",
            "say which card by its position, for example card 3",
        ),
        ("Z@1,1", "\"z\" is not a piece letter (K Q R B N P)"),
    ] {
        assert_eq!(unreadable(&g, Seat(0), text), reason);
    }
}

#[test]
fn refusals_in_the_middle_of_a_turn_and_after_the_end_say_what_is_wanted() {
    // A discovered check: the new square would complete White's knight's path to Black's king.
    let g = knight_waiting_for_a_square();
    assert_eq!(
        refused(&g, Seat(0), "N@4,2"),
        "a new piece may not give check: a card on 4,2 would let your own knight on 3,2 check \
         Black's king on 4,0"
    );
    // The escape step.
    let mut g = position(2, open(), &[". . . . . . wR"], &["QP", "P"]);
    play(&mut g, Seat(0), "K@0,1");
    assert_eq!(
        refused(&g, Seat(0), "R 6,0 to 5,0"),
        "your king is summoned: add an escape square (escape x,y) or say no escape"
    );
    assert_eq!(
        refused(&g, Seat(0), "escape 0,0"),
        "0,0 already exists; an escape square is a new square"
    );
    // Black must summon now, and is told whose king makes it so.
    play(&mut g, Seat(0), "no escape");
    assert_eq!(
        refused(&g, Seat(1), "P@7,0"),
        "White's king is on 0,1: you must summon yours this turn (K@x,y)"
    );
    assert_eq!(
        refused(&g, Seat(1), "K@6,0"),
        "6,0 is taken: White's rook stands there"
    );
    // Once the game is over, the text is still understood but refused.
    let mut g = mate_in_one(2);
    g.current = Seat(1);
    play(&mut g, Seat(1), "N 3,3 to 1,2");
    assert_eq!(refused(&g, Seat(1), "N 1,2 to 3,3"), "the game is over");
}

#[test]
fn memory_and_casino_refusals_name_only_cards_already_shown() {
    // Memory: the revealed knight could not be placed and stays face-up.
    let mut g = position(
        2,
        options(Variant::Memory),
        &checked_by_a_rook(),
        &["NP", "P"],
    );
    play(&mut g, Seat(0), "place");
    assert_eq!(
        refused(&g, Seat(0), "place"),
        "your next card, the face-up knight, cannot be placed anywhere now: move a piece or \
         summon your king"
    );
    // Casino: a shown card that cannot be placed is named as such.
    let mut g = position(
        2,
        options(Variant::Casino),
        &checked_by_a_rook(),
        &["NP", "P"],
    );
    play(&mut g, Seat(0), "place");
    play(&mut g, Seat(1), "card 1");
    assert_eq!(
        refused(&g, Seat(1), "card 1"),
        "card 1 is the face-up knight, which cannot be placed anywhere now: pick another card"
    );
    assert_eq!(
        refused(&g, Seat(1), "card 0"),
        "pick one of White's cards by its position, card 1 to card 2"
    );
    let mut g = position(
        2,
        options(Variant::Casino),
        &[". . . . . . wR"],
        &["QNP", "P"],
    );
    play(&mut g, Seat(0), "K@0,1");
    assert_eq!(
        refused(&g, Seat(0), "escape -1,2"),
        "say which card to give up for it: escape -1,2 card 1 to escape -1,2 card 3"
    );
    assert_eq!(
        refused(&g, Seat(0), "escape -1,2 card 4"),
        "you have 3 cards: pick card 1 to card 3"
    );
}

/// The set-up refusal for these options and seats, through the text options players give.
fn setup_error(pairs: &[(&str, &str)], seats: usize) -> String {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    match GameKind::Enprise.start(&pairs, seats, &mut GameRng::from_seed(1)) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{pairs:?} for {seats} accepted"),
    }
}

/// Options as `key=value` pairs, a number of players, and the set-up refusal expected.
type SetupCase = (&'static [(&'static str, &'static str)], usize, &'static str);

#[test]
fn options_that_do_not_fit_the_variant_or_the_players_are_refused_at_setup() {
    let cases: [SetupCase; 9] = [
        (
            &[("peek", "next")],
            2,
            "peek is for variant=blind only (it says how much of their own hidden plan a player \
             sees); this match is variant=open",
        ),
        (
            &[("variant", "casino"), ("peek", "plan")],
            3,
            "peek is for variant=blind only (it says how much of their own hidden plan a player \
             sees); this match is variant=casino",
        ),
        (
            &[("variant", "blind"), ("memory_seconds", "30")],
            2,
            "memory_seconds is for variant=memory only (how long the plans are shown); this match \
             is variant=blind",
        ),
        (
            &[("variant", "memory"), ("memory_seconds", "0")],
            2,
            "memory_seconds must be between 1 and 3600, not 0",
        ),
        (
            &[("variant", "memory"), ("memory_seconds", "4000")],
            2,
            "memory_seconds must be between 1 and 3600, not 4000",
        ),
        (
            &[("variant", "memory"), ("memory_seconds", "soon")],
            2,
            "option memory_seconds for En Prise: takes a whole number of seconds from 1 to 3600, \
             not \"soon\"",
        ),
        (
            &[("alliance", "true")],
            3,
            "alliance=true needs four players (two teams of two), not 3",
        ),
        (
            &[("alliance", "true"), ("variant", "memory")],
            2,
            "alliance=true needs four players (two teams of two), not 2",
        ),
        (&[], 5, "En Prise is played by 2 to 4 players, not 5"),
    ];
    for (pairs, seats, message) in cases {
        assert_eq!(setup_error(pairs, seats), message, "{pairs:?}");
    }
    assert!(
        setup_error(&[("variant", "roulette")], 2)
            .starts_with("option variant for En Prise: unknown variant roulette, expected one of")
    );
    for (pairs, seats) in [
        (&[][..], 2),
        (&[("variant", "blind"), ("peek", "next")][..], 3),
        (&[("variant", "blind"), ("peek", "plan")][..], 2),
        (&[("variant", "memory"), ("memory_seconds", "30")][..], 2),
        (&[("variant", "casino"), ("alliance", "true")][..], 4),
        (&[("alliance", "false")][..], 3),
    ] {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert!(
            GameKind::Enprise
                .start(&pairs, seats, &mut GameRng::from_seed(1))
                .is_ok(),
            "{pairs:?}"
        );
    }
}

#[test]
fn the_notation_help_is_short_and_its_examples_are_real() {
    let help = EnPrise::NOTATION;
    assert!(help.lines().count() <= 8, "{help}");
    assert!(help.lines().all(|l| l.chars().count() < 100), "{help}");
    let rules = include_str!("../../../../docs/rules/enprise.md");
    for example in [
        "N@2,1",
        "@2,1",
        "P@2,1 down",
        "Q 0,0 to 2,2",
        "Q 0,0 x 2,2",
        "K@-1,3",
        "escape 1,4",
        "escape 1,4 card 2",
        "no escape",
        "place",
        "card 3",
        "ready",
    ] {
        assert!(help.contains(example), "{example} not in the help");
        assert!(
            rules.contains(&format!("`{example}`")),
            "{example} not in the rules page"
        );
        assert!(
            notation::read_for_test(example).is_some(),
            "{example} unreadable"
        );
    }
}

/// The groups of `seat`'s legal actions, in the order first met.
fn groups(g: &EnPrise, seat: Seat) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for action in g.legal_actions(seat) {
        let group = g.action_group(&action);
        if !out.contains(&group) {
            out.push(group);
        }
    }
    out
}

#[test]
fn legal_actions_group_by_moving_piece_or_kind_of_action() {
    let mut g = position(
        2,
        open(),
        &[". . . . . . wQ", "wR - - - - - -"],
        &["PQ", "P"],
    );
    assert_eq!(
        groups(&g, Seat(0)),
        ["rook", "queen", "summon", "place", "face-down"]
    );
    let action = g.parse_action(Seat(0), "R 0,0 to 0,1").unwrap();
    assert_eq!(g.action_group(&action), "rook");
    play(&mut g, Seat(0), "K@-1,2");
    assert_eq!(groups(&g, Seat(0)), ["escape"]);
    let mut g = position(2, options(Variant::Casino), &[". wN"], &["PQ", "Q"]);
    assert_eq!(groups(&g, Seat(0)), ["place"]);
    play(&mut g, Seat(0), "place");
    assert_eq!(groups(&g, Seat(1)), ["card"]);
    let g = EnPrise::new(&options(Variant::Memory), 2, &mut GameRng::from_seed(1)).unwrap();
    assert_eq!(groups(&g, Seat(0)), ["ready"]);
}

#[test]
fn the_sixth_move_back_and_forth_is_warned_about_before_it_puts_the_player_out() {
    let mut g = position(
        2,
        open(),
        &["- - - - bK", "wR . . . -", "wK . . . ."],
        &["", "PPPPPPPP"],
    );
    for round in 0..6 {
        let text = if round % 2 == 0 {
            "R 0,1 to 1,1"
        } else {
            "R 1,1 to 0,1"
        };
        let action = g.parse_action(Seat(0), text).unwrap();
        let warning = g.warning(Seat(0), &action);
        if round < 5 {
            assert_eq!(warning, None, "round {round}");
            play(&mut g, Seat(0), text);
            play(&mut g, Seat(1), &format!("P@{},-1", round + 2));
        } else {
            assert_eq!(
                warning.as_deref(),
                Some(
                    "this is the sixth move in a row of this piece between 1,1 and 0,1: you go \
                     out of the game by repetition"
                )
            );
            let events = play(&mut g, Seat(0), text);
            assert_eq!(
                events.last().unwrap(),
                "Game over: Black won: White was out by repetition"
            );
        }
    }
    // Another piece's move is not warned about.
    let g = position(
        2,
        open(),
        &["- - - - bK", "wR . . . -", "wK . . . ."],
        &["", "P"],
    );
    let action = g.parse_action(Seat(0), "K 0,0 to 1,0").unwrap();
    assert_eq!(g.warning(Seat(0), &action), None);
}
