//! Chess-à-Tête cards: every card's effect.

use super::*;

fn count(cards: &[CardId], name: &str) -> usize {
    cards.iter().filter(|&&c| c == id(name)).count()
}

#[test]
fn peasant_draws_one_then_two_with_its_match() {
    let mut g = battle(&["Peasant", "Peasant", "Spy"], &[], &[], &[]);
    play(&mut g, "Peasant");
    assert_eq!(g.sides[0].hand.len(), 3, "one played, one drawn");
    assert_eq!(g.sides[0].deck.len(), 9);
    play(&mut g, "Peasant");
    assert_eq!(g.sides[0].hand.len(), 4, "one played, two drawn");
    assert_eq!(g.sides[0].deck.len(), 7);
}

#[test]
fn support_adds_power_when_mobilised_and_more_as_a_pair() {
    let mut g = battle(
        &["Pawn Storm"],
        &["Support", "Peasant"],
        &["Spy"],
        &["Queen", "Rook"],
    );
    let events = play(&mut g, "attack Pawn Storm with Support, Peasant");
    assert!(events[0].contains("(power 4)"), "{events:?}");
    let mut g = battle(
        &["Pawn Storm"],
        &["Support", "Support"],
        &["Spy"],
        &["Queen", "Rook"],
    );
    let events = play(&mut g, "attack Pawn Storm with Support, Support");
    assert!(events[0].contains("(power 7)"), "3 + 2 + 2: {events:?}");

    // A defence counts Support too: Pawn Storm (3) answers a 4 only when it mobilises Support.
    let mut g = battle(
        &["Cavalry Charge"],
        &["Knight", "Peasant"],
        &["Pawn Storm"],
        &["Support", "Peasant", "Peasant"],
    );
    play(&mut g, "attack Cavalry Charge");
    assert_eq!(
        refused(&g, "defend Pawn Storm with Peasant, Peasant"),
        "Pawn Storm with Peasant, Peasant has power 3; a defence needs 4 or more"
    );
    let events = play(&mut g, "defend Pawn Storm with Peasant, Support");
    assert!(events[0].contains("(power 4)"), "{events:?}");
    assert!(
        events.contains(
            &"Stalemate (equal power): both sides lose the pieces they mobilised".to_string()
        ),
        "{events:?}"
    );
}

#[test]
fn squire_adds_power_to_the_next_attack_this_turn() {
    let mut g = battle(
        &["Squire", "Squire", "Pawn Storm"],
        &[],
        &["Spy"],
        &["Queen"],
    );
    play(&mut g, "Squire");
    assert_eq!(g.budget.turn_power, 1);
    play(&mut g, "Squire");
    assert_eq!(
        g.budget.turn_power, 4,
        "+1, then +3 with its match on the board"
    );
    let events = play(&mut g, "attack Pawn Storm with Squire, Squire");
    assert!(events[0].contains("(power 7)"), "{events:?}");
    assert_eq!(g.budget.turn_power, 0, "spent on the attack");
}

#[test]
fn scout_and_spy_show_cards_to_their_player_only() {
    let mut g = battle(&["Scout", "Scout", "Spy"], &[], &["Fork", "Block"], &[]);
    g.sides[0].deck = ids(&["Rook", "Knight", "Queen"]);
    let events = play_events(&mut g, "Scout");
    let peek = events
        .iter()
        .find(|e| e.text.starts_with("The top"))
        .unwrap();
    assert_eq!(peek.audience, crate::engine::Audience::Only(Seat(0)));
    assert_eq!(peek.text, "The top of your deck: Queen, Knight");
    let events = play_events(&mut g, "Scout");
    let peek = events
        .iter()
        .find(|e| e.text.starts_with("Black's hand"))
        .unwrap();
    assert_eq!(peek.audience, crate::engine::Audience::Only(Seat(0)));
    assert_eq!(peek.text, "Black's hand: Fork, Block");
    let events = play_events(&mut g, "Spy");
    assert!(events.iter().any(|e| e.text == "Black's hand: Fork, Block"));
    let seen = g.view(Viewer::Seat(Seat(1)));
    assert!(
        seen.last
            .iter()
            .all(|l| !l.contains("hand:") && !l.contains("top of")),
        "{:?}",
        seen.last
    );
}

#[test]
fn medic_recalls_a_pawn_then_any_piece() {
    let mut g = battle(&["Medic", "Medic"], &[], &[], &[]);
    g.sides[0].graveyard = ids(&["Knight", "Peasant"]);
    assert_eq!(
        refused(&g, "play Medic"),
        "say which card Medic takes: play Medic on Peasant"
    );
    assert_eq!(
        refused(&g, "play Medic on Knight"),
        "this Medic takes back only a pawn (a Medic played while another is on your board \
         takes back any piece)"
    );
    play(&mut g, "play Medic on Peasant");
    assert_eq!(count(&g.sides[0].hand, "Peasant"), 1);
    play(&mut g, "play Medic on Knight");
    assert_eq!(
        count(&g.sides[0].hand, "Knight"),
        1,
        "the second Medic takes any piece"
    );
    assert!(g.sides[0].graveyard.is_empty());
    // With nothing to recall, a Medic is simply played.
    let mut g = battle(&["Medic"], &[], &[], &[]);
    assert_eq!(texts(&g)[0], "play Medic");
    play(&mut g, "Medic");
}

#[test]
fn saboteur_and_sabotage_make_the_opponent_discard_at_random() {
    let mut g = battle(
        &["Saboteur", "Saboteur", "Sabotage"],
        &[],
        &[
            "Fork", "Block", "Spy", "Siege", "Flank", "Skirmish", "Ambush",
        ],
        &[],
    );
    play(&mut g, "Saboteur");
    assert_eq!(g.sides[1].hand.len(), 6);
    play(&mut g, "Saboteur");
    assert_eq!(
        g.sides[1].hand.len(),
        4,
        "two more with its match on the board"
    );
    play(&mut g, "Sabotage");
    assert_eq!(g.sides[1].hand.len(), 2);
    assert_eq!(
        g.sides[1].graveyard.len(),
        5,
        "the discarded cards are public"
    );
    // Every turn begins with seven cards in hand: Black makes the discards good from the deck.
    let events = play(&mut g, "end");
    assert_eq!(
        events.last().unwrap(),
        "Black begins the turn by drawing 5 cards back to seven"
    );
    assert_eq!((g.sides[1].hand.len(), g.sides[1].deck.len()), (HAND, 5));
}

#[test]
fn a_player_who_cannot_begin_the_turn_with_seven_cards_loses() {
    let mut g = battle(&["Sabotage"], &[], &["Fork"; 7], &[]);
    g.sides[1].deck = ids(&["Spy"]);
    play(&mut g, "Sabotage");
    let events = play(&mut g, "end");
    assert!(
        events.contains(&"Black cannot draw back to seven cards".to_string()),
        "{events:?}"
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(
        (outcome.winners(), outcome.reason.as_str()),
        (&[Seat(0)][..], "exhausting the opponent's deck")
    );
}

#[test]
fn two_turns_in_a_row_without_a_card_played_or_burned_draw_the_game() {
    // Neither side can fill Fork's lines or play anything else.
    let stuck = || {
        let mut g = battle(&["Fork"; 7], &[], &["Fork"; 7], &[]);
        g.sides[0].deck = ids(&["Fork"; 5]);
        g.sides[1].deck = ids(&["Fork"; 5]);
        g
    };
    let mut g = stuck();
    assert_eq!(texts(&g), ["burn Fork", "end"]);
    play(&mut g, "end");
    assert!(
        g.to_act().outcome().is_none(),
        "one idle turn is not enough"
    );
    let events = play(&mut g, "end");
    assert!(
        events.contains(&"Two turns in a row without a card played or burned".to_string()),
        "{events:?}"
    );
    assert_eq!(
        g.to_act().outcome().cloned(),
        Some(Outcome::draw(2, "two turns in a row without a card played"))
    );
    // A burn in between starts the count again.
    let mut g = stuck();
    play(&mut g, "end");
    play(&mut g, "burn Fork");
    play(&mut g, "end");
    play(&mut g, "end");
    assert!(g.to_act().outcome().is_none());
}

#[test]
fn empty_decks_and_hands_are_said_plainly() {
    let mut g = battle(&["Scout", "Peasant", "Spy", "Squire"], &[], &[], &[]);
    g.sides[0].deck.clear();
    let said = |events: Vec<Event>| -> Vec<String> { events.into_iter().map(|e| e.text).collect() };
    assert!(
        said(play_events(&mut g, "Scout"))
            .contains(&"Your deck is empty: there is nothing to look at".to_string())
    );
    assert!(
        said(play_events(&mut g, "Peasant"))
            .contains(&"White's deck is empty: no card drawn".to_string())
    );
    assert!(said(play_events(&mut g, "Spy")).contains(&"Black's hand is empty".to_string()));
    let mut g = battle(&["Saboteur"], &[], &[], &[]);
    assert_eq!(
        play(&mut g, "Saboteur").last().unwrap(),
        "Black has no card to discard"
    );

    // A Squire after the turn's attack has no combat card left to strengthen.
    let mut g = battle(&["Skirmish", "Squire"], &["Peasant"], &[], &[]);
    play(&mut g, "attack Skirmish");
    play(&mut g, "take");
    assert_eq!(
        play(&mut g, "Squire").last().unwrap(),
        "White has already attacked this turn: the +1 power goes unused"
    );
    assert_eq!(g.budget.turn_power, 0);
}

#[test]
fn herald_fetches_the_first_power_piece_into_the_hand_then_onto_the_board() {
    let mut g = battle(&["Herald", "Herald"], &[], &[], &[]);
    g.sides[0].deck = ids(&["Sentinel", "Rook", "Peasant", "Bishop", "Peasant"]);
    let events = play_events(&mut g, "Herald");
    assert!(
        events.iter().any(|e| e.text == "You take a Bishop"
            && e.audience == crate::engine::Audience::Only(Seat(0)))
    );
    assert_eq!(count(&g.sides[0].hand, "Bishop"), 1);
    assert_eq!(g.sides[0].deck.len(), 4);
    play(&mut g, "Herald");
    assert_eq!(
        count(&g.sides[0].board, "Rook"),
        1,
        "the second Herald puts it on the board"
    );
    assert_eq!(g.sides[0].deck.len(), 3);
}

#[test]
fn sentinel_has_two_hit_points_peeks_then_draws() {
    let mut g = battle(&["Sentinel", "Sentinel"], &[], &[], &[]);
    g.sides[0].deck = ids(&["Rook", "Queen"]);
    let events = play_events(&mut g, "Sentinel");
    assert!(
        events
            .iter()
            .any(|e| e.text == "The top of your deck: Queen")
    );
    assert_eq!(g.view(Viewer::Spectator).sides[0].board_hp, 7 + 2);
    play(&mut g, "Sentinel");
    assert_eq!(count(&g.sides[0].hand, "Queen"), 1);
}

#[test]
fn block_cancels_an_attack() {
    let mut g = battle(
        &["Fork"],
        &["Knight", "Knight", "Peasant"],
        &["Block"],
        &["Rook"],
    );
    play(&mut g, "attack Fork");
    assert!(texts(&g).contains(&"play Block".into()));
    let events = play(&mut g, "play Block");
    assert!(events.contains(&"The attack is cancelled: no piece is lost".to_string()));
    assert_eq!(
        g.sides[0].board,
        ids(&["King", "Knight", "Knight", "Peasant"])
    );
    assert_eq!(g.sides[1].board, ids(&["King", "Rook"]));
    assert!(g.sides[0].graveyard.contains(&id("Fork")));
    assert!(g.sides[1].graveyard.contains(&id("Block")));
    assert_eq!(
        g.sides[1].hand.len(),
        HAND,
        "drew back after playing out of turn"
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(0)));
}

#[test]
fn ambush_strengthens_the_defence_once_a_battle() {
    let mut g = battle(
        &["Fork"],
        &["Knight", "Knight", "Peasant"],
        &["Ambush", "Ambush", "Siege", "Block", "Crossfire"],
        &["Rook", "Peasant", "Peasant"],
    );
    play(&mut g, "attack Fork");
    assert_eq!(
        texts(&g),
        ["take", "play Block", "play Ambush"],
        "Siege's 6 is short of 7 without Ambush"
    );
    let events = play(&mut g, "play Ambush");
    assert_eq!(
        events.last().unwrap(),
        "Black draws 3 cards back toward seven",
        "a card played out of turn draws back at once"
    );
    assert_eq!(g.sides[1].hand.len(), HAND);
    // Ambush commits Black to a defence: no taking, no Block, no second Ambush.
    assert_eq!(texts(&g), ["defend Siege with Rook, Peasant, Peasant"]);
    assert_eq!(
        g.view(Viewer::Spectator).status,
        "Black to answer Fork (power 7): defend (after Ambush)"
    );
    for (text, reason) in [
        ("take", "you played Ambush: defend with a combat card"),
        ("play Block", "you played Ambush: defend with a combat card"),
        ("play Ambush", "Ambush is played once a battle"),
        (
            "defend",
            "say which combat card: defend Castle Wall with Rook, Rook, Peasant",
        ),
        // Crossfire would reach 8 with Ambush; the board is what it lacks.
        (
            "defend Crossfire with Rook, Peasant, Peasant",
            "Crossfire needs a bishop, a rook and a pawn on your board",
        ),
    ] {
        assert_eq!(refused(&g, text), reason, "{text}");
    }
    let events = play(&mut g, "defend Siege with Rook, Peasant, Peasant");
    assert!(events.iter().any(|e| e.contains("(power 8)")), "{events:?}");
    assert!(events.contains(&"White loses the battle".to_string()));
    assert_eq!(g.defend_bonus, 0);

    // With no combat card it could join, Ambush is not offered.
    let mut g = battle(
        &["Fork"],
        &["Knight", "Knight", "Peasant"],
        &["Ambush", "Skirmish", "Castle Wall"],
        &["Rook"],
    );
    play(&mut g, "attack Fork");
    assert_eq!(texts(&g), ["take"]);
    assert_eq!(
        refused(&g, "play Ambush"),
        "even with Ambush's +2, no combat card in your hand can defend against power 7 from \
         your board"
    );
}

#[test]
fn reinforcements_draw_two() {
    let mut g = battle(&["Reinforcements"], &[], &[], &[]);
    play(&mut g, "Reinforcements");
    assert_eq!(g.sides[0].hand.len(), 2);
    assert_eq!(g.sides[0].graveyard, ids(&["Reinforcements"]));
}

#[test]
fn resurrection_brings_a_piece_back_within_the_limits() {
    let mut g = battle(&["Resurrection"], &["Knight", "Knight"], &[], &[]);
    assert_eq!(
        refused(&g, "play Resurrection"),
        "your graveyard holds no piece for Resurrection to bring back"
    );
    g.sides[0].graveyard = ids(&["Knight", "Rook"]);
    assert_eq!(
        texts(&g)[0],
        "play Resurrection on Rook",
        "two knights already: only the rook"
    );
    play(&mut g, "play Resurrection on Rook");
    assert_eq!(count(&g.sides[0].board, "Rook"), 1);
}

#[test]
fn ongoing_cards_stay_in_play_until_demolished() {
    let mut g = battle(
        &["War Banner", "Fortress", "Skirmish"],
        &["Peasant"],
        &["Spy"],
        &["Rook"],
    );
    play(&mut g, "War Banner");
    play(&mut g, "Fortress");
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.sides[0].ongoing, ["War Banner", "Fortress"]);
    assert_eq!(view.sides[0].board_hp, 7 + 1 + 1, "Fortress: pawns +1");
    let events = play(&mut g, "attack Skirmish");
    assert!(events[0].contains("(power 3)"), "War Banner +1: {events:?}");
    play(&mut g, "take");
    // Demolish sends one of them to its owner's graveyard.
    play(&mut g, "end");
    g.sides[1].hand.push(id("Demolish"));
    let mut ways = texts(&g);
    ways.retain(|t| t.starts_with("play Demolish"));
    assert_eq!(
        ways,
        ["play Demolish on Fortress", "play Demolish on War Banner"]
    );
    play(&mut g, "play Demolish on War Banner");
    assert_eq!(g.sides[0].ongoing, ids(&["Fortress"]));
    assert!(g.sides[0].graveyard.contains(&id("War Banner")));
}

#[test]
fn fortress_makes_pawns_harder_to_destroy() {
    let mut g = battle(
        &["Cavalry Charge"],
        &["Knight", "Peasant"],
        &["Spy"],
        &["Peasant", "Peasant", "Peasant"],
    );
    g.sides[1].ongoing = ids(&["Fortress"]);
    play(&mut g, "attack Cavalry Charge");
    play(&mut g, "take");
    assert_eq!(
        g.sides[1].board,
        ids(&["King", "Peasant"]),
        "4 damage takes two pawns of 2 hit points"
    );
}

#[test]
fn checkmate_wins_when_its_conditions_hold_even_out_of_turn() {
    let mut g = battle(
        &["Checkmate"],
        &["Queen", "Knight", "Rook"],
        &[],
        &["Queen"],
    );
    assert_eq!(
        refused(&g, "play Checkmate"),
        "Checkmate needs 3 power pieces (knights, bishops, rooks) on your board, and you have 2"
    );
    g.sides[0].board.push(id("Bishop"));
    assert_eq!(
        refused(&g, "play Checkmate"),
        "Checkmate needs Black to have no Queen on their board"
    );
    g.sides[1].board = ids(&["King"]);
    play(&mut g, "play Checkmate");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(
        (outcome.winners(), outcome.reason.as_str()),
        (&[Seat(0)][..], "checkmate")
    );

    // Out of turn: in answer to an attack.
    let mut g = battle(
        &["Skirmish"],
        &["Peasant", "Queen"],
        &["Checkmate"],
        &["Queen", "Knight", "Bishop", "Rook"],
    );
    g.sides[0].board.retain(|&c| c != id("Queen"));
    play(&mut g, "attack Skirmish");
    play(&mut g, "play Checkmate");
    assert_eq!(g.to_act().outcome().unwrap().winners(), [Seat(1)]);
    assert_eq!(
        g.view(Viewer::Spectator).attack,
        None,
        "no attack waits any more"
    );
}
