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
    assert_eq!(g.seen[0].deck_top, ids(&["Queen", "Peasant"]));
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
    assert_eq!(g.seen[0].deck_top, ids(&["Queen"]));
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
    let mut g = battle(&["Scout", "Herald", "Peasant"], &[], &[], &[]);
    g.sides[0].deck = ids(&[
        "Peasant", "Peasant", "Peasant", "Rook", "Peasant", "Peasant",
    ]);
    play(&mut g, "Scout");
    assert_eq!(g.seen[0].deck_top.len(), 2);
    play(&mut g, "Herald");
    assert_eq!(g.seen[1].their_power, 1);
    assert!(g.seen[0].deck_top.is_empty(), "the deck was shuffled");
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
fn a_deck_found_without_power_pieces_leaves_them_all_in_the_hand() {
    let mut g = battle(&["Herald", "Knight", "Bishop", "Peasant"], &[], &[], &[]);
    g.sides[0].deck = ids(&["Peasant"; 6]);
    let knights = |g: &ChessATete| {
        dealt_hands(g, Seat(1))
            .iter()
            .filter(|h| count(h, "Knight") == 1 && count(h, "Bishop") == 1)
            .count()
    };
    play(&mut g, "Herald");
    assert!(g.seen[1].their_deck_unpowered);
    assert_eq!(
        knights(&g),
        40,
        "the Knight and Bishop are in every deal's hand"
    );
    let mut forgetful = g.clone();
    forgetful.seen = Default::default();
    assert!(knights(&forgetful) < 40, "else it is dealt anywhere");
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
fn a_hand_is_learnt_whatever_order_it_is_held_in() {
    let learnt = |hand: &[&str]| {
        let mut g = battle(&["Spy"], &[], hand, &[]);
        play(&mut g, "Spy");
        g.seen[0].clone()
    };
    assert_eq!(
        learnt(&["Fork", "Block", "Siege"]),
        learnt(&["Siege", "Fork", "Block"])
    );
}

#[test]
fn a_look_at_a_short_deck_learns_what_there_is() {
    let mut g = battle(&["Scout", "Peasant"], &[], &[], &[]);
    g.sides[0].deck = ids(&["Rook"]);
    play(&mut g, "Scout");
    assert_eq!(g.seen[0].deck_top, ids(&["Rook"]));
}

#[test]
fn a_card_played_is_crossed_off_what_was_named_before_an_unnamed_power_piece() {
    let mut g = battle(&["Medic", "Herald", "Peasant"], &["Medic"], &[], &[]);
    g.sides[0].graveyard = ids(&["Knight"]);
    g.sides[0].deck = ids(&["Peasant", "Bishop", "Peasant"]);
    play(&mut g, "play Medic on Knight");
    play(&mut g, "Herald");
    let known = |g: &ChessATete| (g.seen[1].their_hand.clone(), g.seen[1].their_power);
    assert_eq!(known(&g), (ids(&["Knight"]), 1));
    play(&mut g, "Knight");
    assert_eq!(known(&g), (vec![], 1));
}

/// Whatever is recorded as learnt holds of the real cards after every action of random games:
/// the known cards are in the other hand, with as many power pieces besides them, and the top
/// of the deck looked at is still on top.
#[test]
fn what_is_learnt_stays_true_through_random_games() {
    let mut learnt = 0;
    for seed in 0..60 {
        let mut rng = GameRng::from_seed(seed);
        let mut g = ChessATete::new(&ChessATeteOptions::default(), 2, &mut rng).unwrap();
        while g.to_act().outcome().is_none() {
            for me in [Color::White, Color::Black] {
                let seen = &g.seen[me.index()];
                let mut rest = g.side(me.other()).hand.clone();
                for known in &seen.their_hand {
                    let Some(at) = rest.iter().position(|c| c == known) else {
                        panic!("seed {seed}: {known} is not in the hand");
                    };
                    rest.remove(at);
                }
                let power = rest
                    .iter()
                    .filter(|&&c| super::super::knowledge::is_power(c))
                    .count();
                assert!(
                    power >= usize::from(seen.their_power),
                    "seed {seed}: power pieces"
                );
                assert!(
                    g.side(me).deck.ends_with(&seen.deck_top),
                    "seed {seed}: the deck's top"
                );
                let deck = &g.side(me.other()).deck;
                assert!(
                    !seen.their_deck_unpowered
                        || !deck.iter().any(|&c| super::super::knowledge::is_power(c)),
                    "seed {seed}: a power piece in a deck said to have none"
                );
                learnt += usize::from(*seen != Default::default());
            }
            let seat = seat_of(g.actor());
            let legal = g.legal_actions(seat);
            let pick = legal[rng.below(legal.len())].clone();
            g.apply(seat, &pick, &mut rng).unwrap();
        }
    }
    assert!(learnt > 100, "{learnt}");
}

#[test]
fn what_the_other_player_looked_at_is_dealt_too() {
    let mut g = battle(&["Peasant"], &[], &["Scout"], &[]);
    let mut deck = ids(&["Rook", "Knight", "Bishop", "Queen", "Peasant"]);
    deck.extend(ids(&["Sentinel"; 6]));
    g.sides[1].deck = deck;
    play(&mut g, "Peasant");
    play(&mut g, "end");
    play(&mut g, "Scout");
    assert_eq!(g.seen[1].deck_top.len(), 2);
    for seed in 0..20 {
        let dealt = g.determinize(Seat(0), &mut GameRng::from_seed(seed));
        let deck = &dealt.sides[1].deck;
        assert_eq!(
            dealt.seen[1].deck_top,
            deck[deck.len() - 2..],
            "seed {seed}"
        );
    }
}

#[test]
fn a_state_saved_before_knowledge_was_kept_does_not_load() {
    let mut g = battle(&["Spy"], &[], &["Fork"], &[]);
    play(&mut g, "Spy");
    let text = serde_json::to_string(&g).unwrap();
    let back: ChessATete = serde_json::from_str(&text).unwrap();
    assert_eq!(back.seen, g.seen);
    assert_eq!(back.seen[0].their_hand, ids(&["Fork"]));
    // Without it, the table replays the match's log, which learns everything again.
    let mut old: serde_json::Value = serde_json::to_value(new_game()).unwrap();
    old.as_object_mut().unwrap().remove("seen");
    assert!(serde_json::from_value::<ChessATete>(old).is_err());
}
