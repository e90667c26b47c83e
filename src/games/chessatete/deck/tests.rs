//! Tests of the card catalogue, deck lists and the deck-building criteria.

use super::*;

fn read_list_deck(text: &str) -> Result<Vec<(String, usize)>, String> {
    read_list(text, DECK_MOST)
}

fn count(deck: &[(usize, usize)], group: Group) -> usize {
    let cards = &catalogue().cards;
    deck.iter()
        .filter(|(i, _)| cards[*i].group() == group)
        .map(|(_, n)| n)
        .sum()
}

#[test]
fn the_classic_deck_meets_the_criteria_and_the_published_figures() {
    let cat = catalogue();
    let deck = &cat.classic;
    assert_eq!(deck.iter().map(|(_, n)| n).sum::<usize>(), DECK_SIZE);
    for (group, wanted, _) in CRITERIA {
        assert_eq!(count(deck, group), wanted, "{group:?}");
    }
    let hp = |name: &str| match cat.cards[cat.find(name).unwrap()].kind {
        CardKind::Piece { hp, .. } => hp,
        _ => panic!("{name} is not a piece"),
    };
    assert_eq!(
        [hp("Queen"), hp("Knight"), hp("Bishop"), hp("Rook")],
        [4, 2, 2, 2]
    );
    // Pawns: eight names, two of each, most with one hit point.
    let pawns: Vec<(usize, usize)> = deck
        .iter()
        .copied()
        .filter(|(i, _)| cat.cards[*i].group() == Group::Pawn)
        .collect();
    assert_eq!(pawns.len(), 8);
    assert!(pawns.iter().all(|(_, n)| *n == 2), "matching pairs");
    let one_hp = pawns
        .iter()
        .filter(|(i, _)| matches!(cat.cards[*i].kind, CardKind::Piece { hp: 1, .. }))
        .count();
    assert!(one_hp >= 6, "most pawns have 1 hit point: {one_hp}");
    let powers: Vec<u8> = deck
        .iter()
        .filter_map(|(i, _)| match cat.cards[*i].kind {
            CardKind::Combat { power, .. } => Some(power),
            _ => None,
        })
        .collect();
    assert_eq!(powers.iter().min(), Some(&2));
    assert_eq!(powers.iter().max(), Some(&12));
    let any_one_of = deck.iter().any(|(i, _)| {
        matches!(&cat.cards[*i].kind, CardKind::Combat { needs, .. }
            if needs.iter().any(|slot| slot.len() > 1))
    });
    assert!(
        any_one_of,
        "some combat cards take any one of several pieces"
    );
    let timings: Vec<Timing> = deck
        .iter()
        .filter_map(|(i, _)| match cat.cards[*i].kind {
            CardKind::Action { timing, .. } => Some(timing),
            _ => None,
        })
        .collect();
    for t in [Timing::Instant, Timing::Ongoing, Timing::OutOfTurn] {
        assert!(timings.contains(&t), "{t:?}");
    }
}

#[test]
fn deck_lists_read_with_counts_in_any_place() {
    let list = read_list_deck("King, Queen\n4 Knight; 4x Bishop + Rook x4, queens-gambit").unwrap();
    assert_eq!(
        list,
        [
            ("King".to_string(), 1),
            ("Queen".to_string(), 1),
            ("Knight".to_string(), 4),
            ("Bishop".to_string(), 4),
            ("Rook".to_string(), 4),
            ("queens-gambit".to_string(), 1),
        ]
    );
    assert_eq!(
        catalogue().find("queens-gambit"),
        catalogue().find("Queen's Gambit")
    );
    assert_eq!(read_list_deck(" , ").unwrap_err(), "the deck list is empty");
    assert_eq!(
        read_list_deck("0 Knight").unwrap_err(),
        "\"0 Knight\": write how many copies before the name, like 4 Knight"
    );
    assert_eq!(
        read_list_deck("King, 0 Knight, Queen, Rook x0").unwrap_err(),
        "\"0 Knight\": write how many copies before the name, like 4 Knight; \"Rook x0\": \
         write how many copies before the name, like 4 Knight",
        "every bad entry at once"
    );
}

#[test]
fn a_custom_deck_is_checked_with_one_message_per_breach() {
    let cat = catalogue();
    let classic: Vec<(String, usize)> = cat
        .classic
        .iter()
        .map(|(i, n)| (cat.cards[*i].name.clone(), *n))
        .collect();
    // A legal variation: six knights and two bishops instead of four and four.
    let mut varied = classic.clone();
    for (name, n) in &mut varied {
        match name.as_str() {
            "Knight" => *n = 6,
            "Bishop" => *n = 2,
            _ => {}
        }
    }
    assert!(check_deck(cat, &varied).is_ok());
    // Three breaches at once, and a card that does not exist.
    let mut bad = classic.clone();
    for (name, n) in &mut bad {
        match name.as_str() {
            "Queen" => *n = 2,
            "Block" => *n = 1,
            "Knight" => *n = 5,
            _ => {}
        }
    }
    bad.push(("Dragon".into(), 1));
    bad.push(("Knigt".into(), 1));
    let breaches = check_deck(cat, &bad).unwrap_err();
    assert_eq!(
        breaches,
        [
            "there is no card called \"Dragon\"",
            "there is no card called \"Knigt\" (did you mean Knight?)",
            "a deck has 10 action cards, this one has 9 among the cards found",
            "a deck has 12 power pieces (knights, bishops and rooks), this one has 13 among \
             the cards found",
            "a deck has exactly one queen, this one has 2",
        ]
    );
}

#[test]
fn counts_past_a_deck_are_refused_and_totals_never_wrap() {
    assert_eq!(
        read_list_deck("King, 18446744073709551615 Knight").unwrap_err(),
        "a deck holds at most 55 cards; \"18446744073709551615 Knight\" asks for more"
    );
    assert_eq!(
        read_list_deck("99999999999999999999999x Rook").unwrap_err(),
        "a deck holds at most 55 cards; \"99999999999999999999999x Rook\" asks for more"
    );
    assert_eq!(
        read_list_deck("55 Rook").unwrap(),
        [("Rook".to_string(), 55)]
    );
    // Counts given straight to the check add up without wrapping round.
    let list = [
        ("Knight".to_string(), usize::MAX),
        ("Bishop".to_string(), 13),
        ("Peasant".to_string(), usize::MAX),
        ("Peasant".to_string(), 17),
    ];
    let breaches = check_deck(catalogue(), &list).unwrap_err();
    assert!(
        breaches.contains(&format!(
            "a deck has 12 power pieces (knights, bishops and rooks), this one has {}",
            usize::MAX
        )),
        "{breaches:?}"
    );
    assert!(
        breaches.contains(&format!("a deck has 16 pawns, this one has {}", usize::MAX)),
        "{breaches:?}"
    );
}

#[test]
fn a_slip_of_a_letter_or_two_suggests_the_card_and_short_words_suggest_nothing() {
    let cat = catalogue();
    for (typed, meant) in [
        ("Knigt", "Knight"),
        ("kngiht", "Knight"),
        ("Sabateur", "Saboteur"),
        ("Ressurection", "Resurrection"),
        ("queens gambet", "Queen's Gambit"),
    ] {
        assert_eq!(cat.closest(typed), Some(meant), "{typed}");
    }
    for typed in ["Toy", "Fox", "Side", "Sage", "Sp", "Knight", "dragon"] {
        assert_eq!(cat.closest(typed), None, "{typed}");
    }
}

#[test]
fn bad_card_files_are_refused_with_the_reason() {
    let file = |cards: &str| format!("{{\"cards\": [{cards}], \"classic\": []}}");
    let king = r#"{"name": "King", "kind": "royal", "piece": "king", "hp": 5}"#;
    let cases = [
        (
            r#"{"name": "Imp", "kind": "royal", "piece": "knight", "hp": 2}"#.to_string(),
            "Imp: a royal piece is a king or a queen",
        ),
        (
            r#"{"name": "Blast", "kind": "combat", "power": 13, "needs": [["pawn"]]}"#.to_string(),
            "Blast: combat power runs from 2 to 12, not 13",
        ),
        (
            format!(
                r#"{king}, {{"name": "Coup", "kind": "combat", "power": 5, "needs": [["king"]]}}"#
            ),
            "Coup: the King is never mobilised for combat",
        ),
        (
            r#"{"name": "Raid", "kind": "combat", "power": 5, "needs": [["Dragon"]]}"#.to_string(),
            "Raid: \"Dragon\" is neither a piece kind nor a pawn card",
        ),
        (format!("{king}, {king}"), "King: two cards share this name"),
        (
            r#"{"name": "Ghost", "kind": "power", "piece": "rook", "hp": 0}"#.to_string(),
            "Ghost: a piece has at least one hit point",
        ),
    ];
    for (cards, reason) in cases {
        assert_eq!(parse(&file(&cards)).unwrap_err(), reason, "{cards}");
    }
    let err = parse(&file(king)).unwrap_err();
    assert!(
        err.starts_with("the classic deck: a deck has 14 combat cards, this one has 0"),
        "{err}"
    );
}
