//! Counts read from player text (deck lists in the options, pieces named in an action) are
//! bounded as they are read: nothing wraps round, nothing huge is built.

use super::*;

#[test]
fn a_deck_count_past_a_whole_deck_is_refused_as_read() {
    let classic: Vec<String> = catalogue()
        .classic
        .iter()
        .map(|(i, n)| format!("{n} {}", catalogue().cards[*i].name))
        .collect();
    let classic = classic.join(", ");
    // Unbounded, the first wrapped the power pieces' total round to exactly 12 and then asked
    // for a deck of 2^64 cards; the second wrapped the pawns round to 0.
    for (changes, entry) in [
        (
            [
                ("4 Knight", "18446744073709551615 Knight"),
                ("4 Bishop", "9 Bishop"),
            ],
            "18446744073709551615 Knight",
        ),
        (
            [("2 Peasant", "18446744073709551602 Peasant"), ("", "")],
            "18446744073709551602 Peasant",
        ),
        (
            [("4 Knight", "Knight x99999999999999999999999"), ("", "")],
            "Knight x99999999999999999999999",
        ),
        ([("4 Knight", "56 Knight"), ("", "")], "56 Knight"),
    ] {
        let mut list = classic.clone();
        for (from, to) in changes.into_iter().filter(|(from, _)| !from.is_empty()) {
            list = list.replacen(from, to, 1);
        }
        let options = ChessATeteOptions {
            white_deck: Some(list),
            black_deck: None,
        };
        let err = ChessATete::new(&options, 2, &mut GameRng::from_seed(1)).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("White's deck: a deck holds at most 55 cards; \"{entry}\" asks for more")
        );
    }
    // A whole deck of one card is read, and refused by the criteria.
    let options = ChessATeteOptions {
        white_deck: Some(classic.replacen("4 Knight", "55 Knight", 1)),
        black_deck: None,
    };
    let err = ChessATete::new(&options, 2, &mut GameRng::from_seed(1)).unwrap_err();
    assert!(err.to_string().contains("this one has 63"), "{err}");
}

#[test]
fn a_list_of_pieces_past_a_full_board_is_refused_as_read() {
    let g = new_game();
    for (text, list) in [
        (
            "attack Fork with 18446744073709551615 Knight",
            "18446744073709551615 Knight",
        ),
        ("lose 17 Peasant", "17 Peasant"),
        (
            "defend Siege with Rook x99999999999999999999999",
            "Rook x99999999999999999999999",
        ),
        ("lose 9 Peasant, 8 Knight", "9 Peasant, 8 Knight"),
    ] {
        assert_eq!(
            refused(&g, text),
            format!("a board holds at most 16 pieces; \"{list}\" asks for more"),
            "{text}"
        );
    }
    assert_eq!(
        refused(&g, "lose ,"),
        "name the pieces: Knight, Knight, Peasant"
    );
}
