//! What a player learns of cards it cannot see (a peeked hand or deck, a card taken back in
//! public, a power piece fetched unnamed), that it keeps until the cards move on, and that a
//! computer player's deals ([`Game::determinize`]) keep while they deal the rest again.

use super::*;

fn sorted(mut cards: Vec<CardId>) -> Vec<CardId> {
    cards.sort_unstable();
    cards
}

/// The other hand in `seat`'s deals over 40 seeds.
fn dealt_hands(g: &ChessATete, seat: Seat) -> Vec<Vec<CardId>> {
    let them = 1 - usize::from(seat.0);
    (0..40)
        .map(|seed| {
            sorted(
                g.determinize(seat, &mut GameRng::from_seed(seed)).sides[them]
                    .hand
                    .clone(),
            )
        })
        .collect()
}

fn count(cards: &[CardId], name: &str) -> usize {
    cards.iter().filter(|&&c| c == id(name)).count()
}

#[test]
fn a_hand_looked_at_is_kept_in_every_deal_until_its_cards_leave_it() {
    let mut g = battle(&["Spy", "Peasant"], &[], &["Fork", "Block"], &[]);
    g.sides[1].deck = ids(&["Sentinel", "Sentinel", "Fork", "Siege", "Flank", "Ambush"]);
    let before = dealt_hands(&g, Seat(0));
    assert!(
        before.iter().any(|h| *h != sorted(ids(&["Fork", "Block"]))),
        "without a look, Black's hand is dealt from all its cards"
    );
    play(&mut g, "Spy");
    for hand in dealt_hands(&g, Seat(0)) {
        assert_eq!(hand, sorted(ids(&["Fork", "Block"])));
    }
    // Black draws five unknown cards, plays one, then burns a Fork: White still knows of the
    // Block.
    play(&mut g, "end");
    assert_eq!(g.sides[1].hand.len(), HAND);
    play(&mut g, "Sentinel");
    play(&mut g, "burn Fork");
    assert_eq!(g.seen[0].their_hand, ids(&["Block"]));
    for hand in dealt_hands(&g, Seat(0)) {
        assert_eq!(count(&hand, "Block"), 1, "{hand:?}");
    }
    // Black's own deals never needed White's look.
    assert_eq!(g.seen[1], Default::default());
}

#[test]
fn the_top_of_a_deck_looked_at_stays_in_place_until_drawn() {
    let mut g = battle(&["Scout", "Peasant"], &[], &[], &[]);
    g.sides[0].deck = ids(&["Rook", "Knight", "Bishop", "Sentinel", "Queen", "Peasant"]);
    play(&mut g, "Scout");
    assert_eq!(g.seen[0].deck_top, 2);
    let top = |g: &ChessATete, seed| {
        let deck = &g.determinize(Seat(0), &mut GameRng::from_seed(seed)).sides[0].deck;
        deck[deck.len() - 2..].to_vec()
    };
    for seed in 0..20 {
        assert_eq!(top(&g, seed), ids(&["Queen", "Peasant"]));
    }
    let rest: std::collections::BTreeSet<Vec<CardId>> = (0..20)
        .map(|seed| {
            g.determinize(Seat(0), &mut GameRng::from_seed(seed)).sides[0].deck[..4].to_vec()
        })
        .collect();
    assert!(rest.len() > 1, "the rest of the deck is dealt again");
    // Burning draws the Peasant: one known card is left on top.
    play(&mut g, "burn Peasant");
    assert_eq!(g.seen[0].deck_top, 1);
    let deck = &g.determinize(Seat(0), &mut GameRng::from_seed(3)).sides[0].deck;
    assert_eq!(deck.last(), Some(&id("Queen")));
}

#[test]
fn a_card_taken_back_in_public_is_in_the_hand_of_every_deal() {
    let mut g = battle(&["Medic", "Medic"], &[], &[], &[]);
    g.sides[0].graveyard = ids(&["Knight", "Peasant"]);
    g.sides[0].deck = ids(&["Sentinel"; 10]);
    play(&mut g, "play Medic on Peasant");
    play(&mut g, "play Medic on Knight");
    assert_eq!(
        sorted(g.seen[1].their_hand.clone()),
        sorted(ids(&["Knight", "Peasant"]))
    );
    for hand in dealt_hands(&g, Seat(1)) {
        assert_eq!(
            (count(&hand, "Knight"), count(&hand, "Peasant")),
            (1, 1),
            "{hand:?}"
        );
    }
}

#[test]
fn a_power_piece_fetched_unnamed_is_a_power_piece_in_every_deal() {
    let mut g = battle(&["Herald", "Peasant", "Peasant"], &[], &[], &[]);
    g.sides[0].deck = ids(&[
        "Peasant", "Peasant", "Peasant", "Rook", "Peasant", "Peasant",
    ]);
    play(&mut g, "Herald");
    assert_eq!(g.seen[1].their_power, 1);
    assert_eq!(g.seen[0].deck_top, 0, "the deck was shuffled");
    let power = |hand: &Vec<CardId>| {
        hand.iter()
            .filter(|&&c| super::super::knowledge::is_power(c))
            .count()
    };
    for hand in dealt_hands(&g, Seat(1)) {
        assert_eq!(power(&hand), 1, "{hand:?}");
    }
    let mut forgetful = g.clone();
    forgetful.seen = Default::default();
    assert!(
        dealt_hands(&forgetful, Seat(1))
            .iter()
            .any(|h| power(h) == 0),
        "without the knowledge, some deals leave the Rook in the deck"
    );
    // Once the Rook is played, Black knows of no power piece in White's hand.
    play(&mut g, "Rook");
    assert_eq!(g.seen[1].their_power, 0);
}

#[test]
fn cards_discarded_from_a_known_hand_leave_what_is_known_of_it() {
    let mut g = battle(
        &["Spy", "Saboteur", "Sabotage"],
        &[],
        &[
            "Fork", "Block", "Siege", "Flank", "Skirmish", "Ambush", "Spy",
        ],
        &[],
    );
    play(&mut g, "Spy");
    play(&mut g, "Saboteur");
    play(&mut g, "Sabotage");
    assert_eq!(g.sides[1].hand.len(), 4);
    assert_eq!(
        sorted(g.seen[0].their_hand.clone()),
        sorted(g.sides[1].hand.clone())
    );
}

#[test]
fn a_state_without_knowledge_is_saved_as_before() {
    let g = new_game();
    let text = serde_json::to_string(&g).unwrap();
    assert!(!text.contains("\"seen\""), "{text}");
    let mut h = battle(&["Spy"], &[], &["Fork"], &[]);
    play(&mut h, "Spy");
    let text = serde_json::to_string(&h).unwrap();
    let back: ChessATete = serde_json::from_str(&text).unwrap();
    assert_eq!(back.seen, h.seen);
    assert_eq!(back.seen[0].their_hand, ids(&["Fork"]));
}
