//! Chess-à-Tête turns and hands: the start, the three actions of a turn, burning, drawing back
//! to seven, hidden hands, custom decks and card names.

use super::*;

#[test]
fn each_player_starts_with_the_king_on_the_board_and_seven_cards() {
    let g = new_game();
    for side in &g.sides {
        assert_eq!(side.board, ids(&["King"]));
        assert_eq!(side.hand.len(), HAND);
        assert_eq!(side.deck.len(), deck::DECK_SIZE - 1 - HAND);
        assert!(!side.hand.contains(&id("King")) && !side.deck.contains(&id("King")));
    }
    assert_eq!(g.to_act(), ToAct::one(Seat(0)), "White plays first");
    assert_ne!(
        g.sides[0].hand, g.sides[1].hand,
        "each deck is shuffled on its own"
    );
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.sides[0].board_hp, 7, "the King's hit points count");
}

#[test]
fn a_turn_is_up_to_three_actions_within_the_board_limits() {
    let mut g = white(
        &[
            "Knight",
            "Knight",
            "Pawn Storm",
            "Peasant",
            "Rook",
            "Queen",
            "Block",
        ],
        &["Knight"],
        &["Sentinel", "Sentinel", "Sentinel", "Sentinel"],
    );
    assert_eq!(
        refused(&g, "end"),
        "play at least one card before ending the turn"
    );
    assert_eq!(
        refused(&g, "burn Block"),
        "play at least one card before burning"
    );
    assert_eq!(
        refused(&g, "play Pawn Storm"),
        "Pawn Storm is a combat card, played to attack, and it needs two pawns on your board"
    );
    assert_eq!(
        refused(&g, "play Bishop"),
        "there is no Bishop in your hand"
    );
    play(&mut g, "play Knight");
    assert_eq!(
        refused(&g, "play Knight"),
        "your board already holds 2 knights (the limit)"
    );
    play(&mut g, "Queen");
    play(&mut g, "play rook");
    assert_eq!(
        refused(&g, "play Peasant"),
        "you have used your three actions this turn: end the turn"
    );
    assert_eq!(texts(&g), ["end"], "three actions used");
    let events = play(&mut g, "end");
    assert_eq!(events, ["White draws 3 cards and ends the turn"]);
    assert_eq!(g.sides[0].hand.len(), HAND);
    assert_eq!(g.sides[0].board.len(), 5);
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
    assert_eq!(
        g.view(Viewer::Spectator).sides[0].board_hp,
        7 + 2 + 2 + 4 + 2
    );
}

#[test]
fn burning_ends_the_playing_and_draws_a_card_each() {
    let mut g = white(
        &[
            "Peasant", "Block", "Skirmish", "Spy", "Fork", "Siege", "Flank",
        ],
        &[],
        &["Knight", "Rook", "Bishop", "Queen"],
    );
    play(&mut g, "play Peasant");
    let events = play(&mut g, "burn block");
    assert_eq!(events, ["White burns Block and draws a card"]);
    assert_eq!(g.sides[0].graveyard, ids(&["Block"]));
    assert!(g.sides[0].hand.contains(&id("Queen")), "the top card");
    assert_eq!(
        refused(&g, "play Queen"),
        "after burning you may only burn more cards or end the turn"
    );
    play(&mut g, "burn Skirmish");
    assert_eq!(texts(&g), ["end"]);
    play(&mut g, "end");
    assert_eq!(g.sides[0].deck, ids(&["Knight"]), "drew back to seven");
}

#[test]
fn a_hand_with_nothing_to_play_may_burn_or_end_at_once() {
    let mut g = white(
        &[
            "Block", "Skirmish", "Block", "Fork", "Siege", "Flank", "Ambush",
        ],
        &[],
        &["Knight", "Rook"],
    );
    let legal = texts(&g);
    assert!(legal.contains(&"end".into()) && legal.contains(&"burn Ambush".into()));
    assert_eq!(
        refused(&g, "play Block"),
        "Block is played when your opponent attacks you"
    );
    play(&mut g, "burn Ambush");
    play(&mut g, "end");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
}

#[test]
fn a_player_who_cannot_draw_back_to_seven_loses() {
    let mut g = white(
        &["Knight", "Rook", "Block", "Spy", "Fork", "Siege", "Flank"],
        &[],
        &["Bishop"],
    );
    play(&mut g, "Knight");
    play(&mut g, "Rook");
    let events = play(&mut g, "end");
    assert_eq!(events[0], "White cannot draw back to seven cards");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(1)]);
    assert_eq!(outcome.reason, "exhausting the opponent's deck");
}

#[test]
fn a_hand_is_seen_by_its_owner_only() {
    let g = new_game();
    let mine = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(mine.sides[0].hand.as_ref().unwrap().len(), HAND);
    assert_eq!(mine.sides[1].hand, None);
    assert_eq!(mine.sides[1].hand_size, HAND);
    assert_eq!(mine.sides[1].deck_size, 47);
    let spectator = g.view(Viewer::Spectator);
    assert!(spectator.sides.iter().all(|s| s.hand.is_none()));
}

#[test]
fn a_custom_deck_is_used_and_a_bad_one_refused_with_each_breach() {
    let classic: Vec<String> = catalogue()
        .classic
        .iter()
        .map(|(i, n)| format!("{n} {}", catalogue().cards[*i].name))
        .collect();
    let custom = classic
        .join(", ")
        .replace("4 Knight", "6 Knight")
        .replace("4 Bishop", "2 Bishop");
    let options = ChessATeteOptions {
        white_deck: Some(custom),
        black_deck: None,
    };
    let g = ChessATete::new(&options, 2, &mut GameRng::from_seed(1)).unwrap();
    let all = |side: &Side| {
        side.hand
            .iter()
            .chain(&side.deck)
            .filter(|&&c| c == id("Knight"))
            .count()
    };
    assert_eq!(all(&g.sides[0]), 6);
    assert_eq!(all(&g.sides[1]), 4);
    let options = ChessATeteOptions {
        white_deck: None,
        black_deck: Some("King, 2 Queen, 40 Peasant".into()),
    };
    let err = ChessATete::new(&options, 2, &mut GameRng::from_seed(1)).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("Black's deck: a deck has 14 combat cards, this one has 0"),
        "{text}"
    );
    assert!(
        text.contains("a deck has 16 pawns, this one has 40"),
        "{text}"
    );
    assert!(
        text.contains("a deck has exactly one queen, this one has 2"),
        "{text}"
    );
    assert!(
        !text.contains("royal pieces"),
        "the Queen is named instead: {text}"
    );
    // Both decks wrong: both are reported.
    let options = ChessATeteOptions {
        white_deck: Some("King, Queen, 4 Knigt".into()),
        black_deck: Some("King, Queen, 0 Rook".into()),
    };
    let text = ChessATete::new(&options, 2, &mut GameRng::from_seed(1))
        .unwrap_err()
        .to_string();
    assert!(
        text.starts_with("White's deck: there is no card called \"Knigt\" (did you mean Knight?)"),
        "{text}"
    );
    assert!(
        text.contains(
            "; Black's deck: \"0 Rook\": write how many copies before the name, like 4 Knight"
        ),
        "{text}"
    );
}

#[test]
fn actions_read_by_card_name() {
    let g = white(&["Queen", "Rook"], &[], &[]);
    let read = |t: &str| g.format_action(&g.parse_action(Seat(0), t).unwrap());
    assert_eq!(read("QUEEN"), "play Queen");
    assert_eq!(read(" play   rook "), "play Rook");
    assert_eq!(
        g.parse_action(Seat(0), "play Dragon").unwrap_err().reason,
        "there is no card called \"Dragon\"",
        "echoed as typed"
    );
    assert_eq!(
        refused(&g, "Quen"),
        "there is no card called \"Quen\" (did you mean Queen?)"
    );
    assert_eq!(
        refused(&g, "burn Skirmsh"),
        "there is no card called \"Skirmsh\" (did you mean Skirmish?)"
    );
    assert_eq!(
        g.parse_action(Seat(0), "play").unwrap_err().reason,
        "say which card: play Knight"
    );
    assert_eq!(
        g.parse_action(Seat(1), "play Queen").unwrap_err().reason,
        "it is not your turn"
    );
    assert_eq!(
        g.parse_action(Seat(0), "").unwrap_err().reason,
        "say what to do; write play Knight, attack Fork with Knight, Knight, Peasant, burn Skirmish, \
         or end"
    );
}
