//! Snipe Chess scenario tests for the end of the game: trapped kings, who closed them in and
//! how the result reads, the last chance, the warnings before a losing turn, and the draws.

use super::*;
use super::{OPEN, board, feather, open_forest, piece_at, play, refused, sq, texts};

// ---- the end ----

#[test]
fn trapping_the_king_wins() {
    let mut rows = [OPEN; 10];
    rows[8] = "T.........";
    let mut g = board(rows, "Ka1 kj10 pb5", SnipeOptions::default(), Color::Black);
    assert_eq!(g.free_neighbours(Color::White), Some(1));
    let events = play(&mut g, "pb5-b1");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(1)]);
    assert_eq!(
        events.last().unwrap(),
        "Game over: Black won by trapping White's king"
    );
}

#[test]
fn trapping_both_kings_at_once_wins_for_the_mover_and_trapping_your_own_loses() {
    let mut rows = [OPEN; 10];
    rows[8] = "T.T.......";
    rows[9] = "...T......";
    let mut g = board(rows, "Ka1 kc1 Pb5", SnipeOptions::default(), Color::White);
    let both = g.parse_action(Seat(0), "Pb5-b1").unwrap();
    assert_eq!(g.warning(Seat(0), &both), None, "it wins");
    let events = play(&mut g, "Pb5-b1");
    assert_eq!(
        events.last().unwrap(),
        "Game over: White trapped both kings at once and won"
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(0)]);
    assert_eq!(outcome.reason, ending::BOTH_KINGS);
    rows[9] = OPEN;
    let mut g = board(rows, "Ka1 kc1 Pb5", SnipeOptions::default(), Color::White);
    let own = g.parse_action(Seat(0), "Pb5-b1").unwrap();
    assert_eq!(
        g.warning(Seat(0), &own).as_deref(),
        Some("this closes in your own king and loses")
    );
    let elsewhere = g.parse_action(Seat(0), "Pb5-b4").unwrap();
    assert_eq!(g.warning(Seat(0), &elsewhere), None);
    let events = play(&mut g, "Pb5-b1");
    assert_eq!(
        events.last().unwrap(),
        "Game over: Black won: White closed in their own king"
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(1)], "White walled in its own king");
    assert_eq!(outcome.reason, ending::OWN_KING);
}

#[test]
fn a_rotation_that_traps_a_king_ends_the_game_after_the_turn() {
    // The black king on i10 breathes only through h10; a quarter turn of card g9 puts the
    // tree from g10 there.
    let mut rows = [OPEN; 10];
    rows[0] = "......T..T";
    rows[1] = "........T.";
    rows[6] = ".......R..";
    let mut g = board(rows, "Kh1 ki10", SnipeOptions::default(), Color::White);
    assert_eq!(g.free_neighbours(Color::Black), Some(1));
    play(&mut g, "Kh1-h4");
    play(&mut g, "rotate g9 cw");
    assert_eq!(g.space(sq("h10")), Some(Space::Tree));
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(0)),
        "not yet: the king may turn more cards"
    );
    assert!(g.trapped(Color::Black));
    assert_eq!(g.warning(Seat(0), &Action::Done), None, "it wins");
    let events = play(&mut g, "done");
    assert_eq!(
        events.last().unwrap(),
        "Game over: White won by trapping Black's king"
    );
}

#[test]
fn a_losing_turn_is_warned_at_the_action_that_ends_it() {
    // The king slides through its own pawn onto the rotation space h4, where trees (g4, i4,
    // h5) and that pawn close it in; it may still turn three cards.
    let mut rows = [OPEN; 10];
    rows[5] = ".......T..";
    rows[6] = "......TRT.";
    let mut g = board(rows, "Kh1 Ph3 kj10", SnipeOptions::default(), Color::White);
    let onto = g.parse_action(Seat(0), "Kh1-h4").unwrap();
    assert_eq!(g.warning(Seat(0), &onto), None, "the turn goes on");
    play(&mut g, "Kh1-h4");
    assert!(g.trapped(Color::White));
    assert_eq!(
        g.warning(Seat(0), &Action::Done).as_deref(),
        Some("ending the turn now leaves your own king closed in, and loses")
    );
    let read = |g: &Snipe, text: &str| g.parse_action(Seat(0), text).unwrap();
    assert_eq!(g.warning(Seat(0), &read(&g, "rotate a1 cw")), None);
    play(&mut g, "rotate a1 cw");
    play(&mut g, "rotate c1 cw");
    assert_eq!(
        g.warning(Seat(0), &read(&g, "rotate e1 cw")).as_deref(),
        Some("this closes in your own king and loses"),
        "the third card ends the turn"
    );
    // Turning the king's own card puts it on h3, free again.
    assert_eq!(g.warning(Seat(0), &read(&g, "rotate g3 cw")), None);
    play(&mut g, "rotate g3 cw");
    assert_eq!(piece_at(&g, "h3"), Some((Color::White, Role::King)));
    assert_eq!(g.to_act(), ToAct::one(Seat(1)), "the game goes on");
}

#[test]
fn every_ending_reads_in_the_games_words() {
    let g = open_forest("Ke1 ke10");
    let cases = [
        (
            Outcome::winner(Seat(1), 2, ending::TRAPPED),
            "Black won by trapping White's king",
        ),
        (
            Outcome::winner(Seat(1), 2, ending::OWN_KING),
            "Black won: White closed in their own king",
        ),
        (
            Outcome::winner(Seat(0), 2, ending::BOTH_KINGS),
            "White trapped both kings at once and won",
        ),
        (
            Outcome::winner(Seat(0), 2, ending::NO_PAWN),
            "White won by trapping Black's king: no black pawn could reach a rotation space \
             for the last chance",
        ),
        (
            Outcome::winner(Seat(1), 2, ending::NO_ROTATION),
            "Black won by trapping White's king: no turn of a card could free it",
        ),
        (
            Outcome::draw(2, ending::REPETITION),
            "Draw by threefold repetition",
        ),
        (
            Outcome::draw(2, ending::turn_limit()),
            "Draw by the 300-turn limit",
        ),
        (
            Outcome::winner(Seat(0), 2, "resignation"),
            "White won by resignation",
        ),
    ];
    for (outcome, words) in cases {
        assert_eq!(g.describe(&outcome), words);
    }
}

fn last_chance() -> SnipeOptions {
    SnipeOptions {
        last_chance: true,
        ..SnipeOptions::default()
    }
}

#[test]
fn the_last_chance_option_lets_a_trapped_king_be_freed_once() {
    let mut rows = [OPEN; 10];
    rows[5] = "....R.....";
    rows[8] = "T.........";
    let mut g = board(rows, "Ka1 Pe1 kj10 pb5 pa8", last_chance(), Color::Black);
    let events = play(&mut g, "pb5-b1");
    assert!(events.last().unwrap().contains("last chance"), "{events:?}");
    assert_eq!(g.turns, 1, "the trapping turn counts");
    assert_eq!(g.to_act(), ToAct::one(Seat(0)));
    assert_eq!(texts(&g), ["Pe1-e5"], "only a pawn onto a rotation space");
    assert_eq!(
        refused(&g, "Pe1-e3"),
        "e3 is not a rotation space, and your last chance is a pawn move onto one"
    );
    assert_eq!(
        refused(&g, "Ka1-a2"),
        "your king is trapped: your last chance is a pawn move onto a rotation space"
    );
    play(&mut g, "Pe1-e5");
    assert_eq!(
        g.view(Viewer::Spectator).status,
        "White must turn a card so that the king is free again"
    );
    assert_eq!(
        texts(&g),
        ["rotate a1 cw", "rotate a1 ccw"],
        "only turns that free the king"
    );
    assert_eq!(
        refused(&g, "done"),
        "your king is still trapped: a turn of a card that frees it must be taken, for example \
         rotate a1 cw"
    );
    assert_eq!(
        refused(&g, "rotate c1 cw"),
        "that turn does not free your king; choose one that does"
    );
    play(&mut g, "rotate a1 cw");
    assert_eq!(piece_at(&g, "a2"), Some((Color::White, Role::King)));
    assert_eq!(g.turns, 2, "and so does the last chance");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)), "the game goes on");
    // Trapped again: no second chance.
    assert_eq!(g.free_neighbours(Color::White), Some(1));
    play(&mut g, "pa8-a3");
    assert_eq!(g.to_act().outcome().unwrap().winners(), [Seat(1)]);
}

#[test]
fn the_last_chance_is_lost_without_a_pawn_route_or_a_freeing_turn() {
    let mut rows = [OPEN; 10];
    rows[8] = "T.........";
    let mut g = board(rows, "Ka1 Pe1 kj10 pb5", last_chance(), Color::Black);
    let events = play(&mut g, "pb5-b1");
    assert_eq!(
        events.last().unwrap(),
        "Game over: Black won by trapping White's king: no white pawn could reach a rotation \
         space for the last chance"
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(1)]);
    assert_eq!(outcome.reason, ending::NO_PAWN);

    // The king on a1 is walled in whichever way its card turns.
    let mut rows = [OPEN; 10];
    rows[5] = "....R.....";
    rows[7] = "TT........";
    rows[8] = "T.T.......";
    rows[9] = ".TT.......";
    let mut g = board(rows, "Ka1 Pe1 kj10", last_chance(), Color::Black);
    assert!(g.trapped(Color::White));
    play(&mut g, "kj10-j9");
    let chance = g.parse_action(Seat(0), "Pe1-e5").unwrap();
    assert_eq!(
        g.warning(Seat(0), &chance).as_deref(),
        Some("after this move no turn of a card can free your king, so it loses")
    );
    let events = play(&mut g, "Pe1-e5");
    assert_eq!(
        events.last().unwrap(),
        "Game over: Black won by trapping White's king: no turn of a card could free it"
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.reason, ending::NO_ROTATION);
    assert_eq!(outcome.winners(), [Seat(1)]);
}

#[test]
fn a_last_chance_move_that_closes_in_the_other_king_too_wins() {
    // White's king on a1 cannot be freed by any turn of a card; the pawn's move onto i10 closes
    // in the black king on j10 as well: one turn, both kings, the mover wins.
    let mut rows = [OPEN; 10];
    rows[0] = "........R.";
    rows[1] = ".........T";
    rows[7] = "TT........";
    rows[8] = "T.T.......";
    rows[9] = ".TT.......";
    let mut g = board(rows, "Ka1 Pi1 kj10 pe10", last_chance(), Color::Black);
    play(&mut g, "pe10-e9");
    assert_eq!(texts(&g), ["Pi1-i10"]);
    let both = g.parse_action(Seat(0), "Pi1-i10").unwrap();
    assert_eq!(g.warning(Seat(0), &both), None, "it wins");
    let events = play(&mut g, "Pi1-i10");
    assert_eq!(
        events.last().unwrap(),
        "Game over: White trapped both kings at once and won"
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(0)]);
    assert_eq!(outcome.reason, "trapping both kings at once");
}

#[test]
fn without_the_option_a_trapped_king_loses_at_once() {
    let mut rows = [OPEN; 10];
    rows[5] = "....R.....";
    rows[8] = "T.........";
    let mut g = board(
        rows,
        "Ka1 Pe1 kj10 pb5",
        SnipeOptions::default(),
        Color::Black,
    );
    play(&mut g, "pb5-b1");
    assert_eq!(g.to_act().outcome().unwrap().winners(), [Seat(1)]);
}

// ---- draws ----

#[test]
fn threefold_repetition_and_the_turn_limit_draw() {
    let mut g = open_forest("Ke1 ke10");
    for _ in 0..2 {
        for text in ["Ke1-e2", "ke10-e9", "Ke2-e1", "ke9-e10"] {
            assert!(g.to_act().outcome().is_none());
            play(&mut g, text);
        }
    }
    assert_eq!(g.to_act().outcome().unwrap().reason, "threefold repetition");

    let mut g = open_forest("Ke1 ke10");
    g.turns = TURN_LIMIT - 1;
    play(&mut g, "Ke1-e5");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert!(outcome.is_draw());
    assert_eq!(outcome.reason, ending::turn_limit());
    assert_eq!(
        g.view(Viewer::Spectator).status,
        "Game over: Draw by the 300-turn limit"
    );
}

#[test]
fn a_card_turned_to_look_the_same_is_the_same_position() {
    let mut rows = [OPEN; 10];
    rows[4] = "T.........";
    let mut g = board(rows, "Ke1 ke10", SnipeOptions::default(), Color::White);
    let before = g.position_key();
    g.rotate(CardAt { cx: 2, cy: 2 }, Turn::Clockwise);
    assert_eq!(
        g.position_key(),
        before,
        "an empty open card looks the same turned"
    );
    g.rotate(CardAt { cx: 0, cy: 2 }, Turn::Clockwise);
    assert_ne!(g.position_key(), before, "a tree moved");
    let mut f = board(rows, "Ke1 ke10", feather(), Color::White);
    let before = f.position_key();
    f.forest[2][2].card = f.stock[0];
    assert_ne!(
        f.position_key(),
        before,
        "under the feather rule which card lies where matters"
    );
}

#[test]
fn the_position_key_tells_apart_whatever_can_change_the_game() {
    let g = open_forest("Ke1 ke10 Pa2");
    let key = g.position_key();
    assert_eq!(g.clone().position_key(), key);
    let changed = |change: &dyn Fn(&mut Snipe)| {
        let mut other = g.clone();
        change(&mut other);
        other.position_key()
    };
    assert_ne!(changed(&|s| s.turn = Color::Black), key, "the side to move");
    let on_a2 = |color, role| {
        move |s: &mut Snipe| {
            s.pieces.insert(sq("a2"), Piece { color, role });
        }
    };
    let knight = on_a2(Color::White, Role::Knight);
    assert_ne!(changed(&knight), key, "a piece's kind");
    let black = on_a2(Color::Black, Role::Pawn);
    assert_ne!(changed(&black), key, "a piece's colour");
    let moved = |s: &mut Snipe| {
        let pawn = s.pieces.remove(&sq("a2")).unwrap();
        s.pieces.insert(sq("a3"), pawn);
    };
    assert_ne!(changed(&moved), key, "a piece's square");

    let l = board([OPEN; 10], "Ke1 ke10", last_chance(), Color::White);
    let mut used = l.clone();
    used.last_chance_used[1] = true;
    assert_ne!(used.position_key(), l.position_key(), "a last chance used");

    let f = board([OPEN; 10], "Ke1 ke10", feather(), Color::White);
    let mut drawn = f.clone();
    drawn.stock.pop();
    assert_ne!(drawn.position_key(), f.position_key(), "the unused cards");
}

#[test]
fn a_state_saved_with_keys_made_the_earlier_way_does_not_load() {
    let g = open_forest("Ke1 ke10");
    let mut saved = serde_json::to_value(&g).unwrap();
    let back: Snipe = serde_json::from_value(saved.clone()).unwrap();
    assert_eq!(back.history, g.history);
    // Before, the keys were a hash of the position's JSON text, kept as "history". Such a
    // snapshot must not load (the table then replays the log and makes every key afresh),
    // or a repetition across the change would go unseen.
    let fields = saved.as_object_mut().unwrap();
    let keys = fields.remove("position_keys").unwrap();
    fields.insert("history".into(), keys);
    assert!(serde_json::from_value::<Snipe>(saved).is_err());
}
