//! The forest deck: deckmate's own 36 cards of 2x2 spaces, read from assets/snipe_forest.json
//! and checked when first used.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// One space of a forest card.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Space {
    Open,
    Tree,
    /// Rotate a card by 90 degrees, either way.
    Rotate90,
    /// Rotate a card by 180 degrees.
    Rotate180,
    /// A shortcut flag: plays as open.
    Flag,
    /// A snipe feather: plays as open unless the feather rule is on.
    Feather,
}

impl Space {
    /// Reads a letter of the deck file (the inverse of [`Space::letter`]).
    pub fn from_letter(c: char) -> Option<Space> {
        Some(match c {
            '.' => Space::Open,
            'T' => Space::Tree,
            'R' => Space::Rotate90,
            'U' => Space::Rotate180,
            'F' => Space::Flag,
            'S' => Space::Feather,
            _ => return None,
        })
    }

    pub fn is_tree(self) -> bool {
        self == Space::Tree
    }

    /// The letter used in the deck file and the console picture.
    pub fn letter(self) -> char {
        match self {
            Space::Open => '.',
            Space::Tree => 'T',
            Space::Rotate90 => 'R',
            Space::Rotate180 => 'U',
            Space::Flag => 'F',
            Space::Feather => 'S',
        }
    }
}

/// A card's four spaces, `[row][column]`, top row first.
pub type Spaces = [[Space; 2]; 2];

/// A forest card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForestCard {
    pub name: String,
    pub spaces: Spaces,
    /// Set aside for Snipe Chess (the Ranger Station, Deep Woods and Spooky Woods).
    pub set_aside: bool,
}

/// The card's spaces turned a quarter turn clockwise.
pub fn clockwise(s: Spaces) -> Spaces {
    [[s[1][0], s[0][0]], [s[1][1], s[0][1]]]
}

#[derive(Deserialize)]
struct File {
    cards: Vec<RawCard>,
}

#[derive(Deserialize)]
struct RawCard {
    name: String,
    spaces: Vec<String>,
    #[serde(default)]
    set_aside: bool,
}

/// The cards Snipe Chess removes from the Snipe Hunt deck.
pub const SET_ASIDE: [&str; 3] = ["Ranger Station", "Deep Woods", "Spooky Woods"];

const DATA: &str = include_str!("../../../assets/snipe_forest.json");

/// Reads and checks a deck file: 36 cards, three of them set aside, 2x2 spaces each, no card
/// all trees, names unique.
pub fn parse(text: &str) -> Result<Vec<ForestCard>, String> {
    let file: File = serde_json::from_str(text).map_err(|e| format!("bad deck file: {e}"))?;
    let mut cards = Vec::new();
    for raw in file.cards {
        let rows: Vec<Vec<Space>> = raw
            .spaces
            .iter()
            .map(|row| {
                row.chars()
                    .map(Space::from_letter)
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| format!("{}: unknown space letter", raw.name))?;
        if rows.len() != 2 || rows.iter().any(|r| r.len() != 2) {
            return Err(format!("{}: a card is 2 rows of 2 spaces", raw.name));
        }
        let spaces = [[rows[0][0], rows[0][1]], [rows[1][0], rows[1][1]]];
        if spaces.iter().flatten().all(|s| s.is_tree()) {
            return Err(format!(
                "{}: a card needs a space that is not a tree",
                raw.name
            ));
        }
        if cards.iter().any(|c: &ForestCard| c.name == raw.name) {
            return Err(format!("{}: two cards share this name", raw.name));
        }
        cards.push(ForestCard {
            name: raw.name,
            spaces,
            set_aside: raw.set_aside,
        });
    }
    let aside: Vec<&str> = cards
        .iter()
        .filter(|c| c.set_aside)
        .map(|c| c.name.as_str())
        .collect();
    if cards.len() != 36 || aside != SET_ASIDE {
        return Err(format!(
            "the deck has 36 cards with the Ranger Station, Deep Woods and Spooky Woods set aside; \
             found {} cards, set aside: {aside:?}",
            cards.len()
        ));
    }
    Ok(cards)
}

/// The 33 cards Snipe Chess deals from.
pub fn forest() -> &'static [ForestCard] {
    static DECK: OnceLock<Vec<ForestCard>> = OnceLock::new();
    DECK.get_or_init(|| {
        parse(DATA)
            .expect("the shipped deck is valid (tested)")
            .into_iter()
            .filter(|c| !c.set_aside)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_deck_has_33_playable_cards_with_a_spread_of_layouts() {
        let all = parse(DATA).unwrap();
        assert_eq!(all.len(), 36);
        let forest = forest();
        assert_eq!(forest.len(), 33);
        let count = |f: &dyn Fn(&Spaces) -> bool| forest.iter().filter(|c| f(&c.spaces)).count();
        let has = |s: &Spaces, k: Space| s.iter().flatten().any(|&x| x == k);
        let trees = |s: &Spaces| s.iter().flatten().filter(|x| x.is_tree()).count();
        let rotating = count(&|s| has(s, Space::Rotate90) || has(s, Space::Rotate180));
        assert!((7..=10).contains(&rotating), "about a quarter: {rotating}");
        assert!(count(&|s| has(s, Space::Rotate90)) >= 4);
        assert!(count(&|s| has(s, Space::Rotate180)) >= 2);
        assert!(count(&|s| trees(s) == 0) >= 6, "open cards");
        assert!(count(&|s| trees(s) == 3) >= 4, "dead ends");
        let hedge = |s: &Spaces| {
            trees(s) == 2
                && ((s[0][0].is_tree() == s[0][1].is_tree())
                    || (s[0][0].is_tree() == s[1][0].is_tree()))
        };
        assert!(count(&hedge) >= 4, "straight hedges");
        assert!(count(&|s| has(s, Space::Feather)) >= 2);
        assert!(count(&|s| has(s, Space::Flag)) >= 2);
    }

    #[test]
    fn four_quarter_turns_are_no_turn() {
        let s = forest()[20].spaces;
        let turned = clockwise(s);
        assert_eq!(turned[0][1], s[0][0], "top-left goes to top-right");
        assert_eq!(turned[1][1], s[0][1], "top-right goes to bottom-right");
        assert_eq!(clockwise(clockwise(clockwise(clockwise(s)))), s);
    }

    #[test]
    fn bad_decks_are_refused_with_the_reason() {
        let one = |spaces: &str| format!(r#"{{"cards": [{{"name": "X", "spaces": {spaces}}}]}}"#);
        assert!(
            parse(&one(r#"["..", "..", ".."]"#))
                .unwrap_err()
                .contains("2 rows of 2")
        );
        assert!(
            parse(&one(r#"["TT", "TT"]"#))
                .unwrap_err()
                .contains("not a tree")
        );
        assert!(
            parse(&one(r#"["?.", ".."]"#))
                .unwrap_err()
                .contains("unknown space")
        );
        assert!(
            parse(&one(r#"["..", ".."]"#))
                .unwrap_err()
                .contains("found 1 cards")
        );
    }
}
