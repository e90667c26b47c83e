//! Chess-à-Tête's cards: the catalogue (deckmate's own classic edition, read from
//! assets/chessatete_classic.json and checked at first use), deck lists, and the deck-building
//! criteria from the rule sheet, with one message per breach.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// What a piece card is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    King,
    Queen,
    Knight,
    Bishop,
    Rook,
    Pawn,
}

impl PieceKind {
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Queen => "queen",
            PieceKind::Knight => "knight",
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::Pawn => "pawn",
        }
    }

    fn from_word(word: &str) -> Option<PieceKind> {
        [
            PieceKind::King,
            PieceKind::Queen,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Pawn,
        ]
        .into_iter()
        .find(|k| k.name() == word)
    }
}

/// When an action card may be played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// On your turn; its effect happens at once.
    Instant,
    /// On your turn; it stays in play and its effect lasts until it is removed.
    Ongoing,
    /// Also outside your turn, in answer to the opponent.
    OutOfTurn,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recall {
    Pawn,
    Piece,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FetchTo {
    Hand,
    Board,
}

/// What a pawn ability or an action card does (the card text says it in words).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    Draw(u8),
    /// While the pawn is on the board, a combat card mobilising it has this much more power.
    MobilisedPower(u8),
    /// The next combat card this turn has this much more power.
    TurnPower(u8),
    PeekDeck(u8),
    PeekHand,
    Recall(Recall),
    DiscardRandom(u8),
    FetchPower(FetchTo),
    CancelAttack,
    DefendPower(u8),
    Revive,
    RemoveOngoing,
    PawnHp(u8),
    CombatPower(u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ability {
    pub text: String,
    pub effect: Effect,
}

/// What must hold for the checkmate card to win.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditions {
    /// Your queen is on your board.
    pub own_queen: bool,
    /// At least this many power pieces on your board.
    pub own_power_pieces: u8,
    /// Whether the opponent's queen may be on their board.
    pub opponent_queen: bool,
}

/// One slot of a combat card's requirements: any one of these pieces.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Need {
    /// Any piece of this kind.
    Kind(PieceKind),
    /// A pawn of this name.
    Pawn(String),
}

impl Need {
    pub fn describe(&self) -> String {
        match self {
            Need::Kind(kind) => kind.name().to_string(),
            Need::Pawn(name) => name.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    /// The King, the Queen, the power pieces and the pawns. Pawns have their two abilities.
    Piece {
        piece: PieceKind,
        hp: u8,
        abilities: Option<(Ability, Ability)>,
    },
    Combat {
        power: u8,
        /// Each slot is filled by one piece on your board, any one of the slot's list.
        needs: Vec<Vec<Need>>,
    },
    Checkmate {
        conditions: Conditions,
    },
    Action {
        timing: Timing,
        effect: Effect,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    pub name: String,
    pub kind: CardKind,
    /// The card's text in the players' words (empty for plain pieces).
    pub text: String,
}

impl Card {
    /// The sheet's six groups, for the deck-building criteria.
    pub fn group(&self) -> Group {
        match &self.kind {
            CardKind::Piece { piece, .. } => match piece {
                PieceKind::King | PieceKind::Queen => Group::Royal,
                PieceKind::Pawn => Group::Pawn,
                _ => Group::Power,
            },
            CardKind::Combat { .. } => Group::Combat,
            CardKind::Checkmate { .. } => Group::Checkmate,
            CardKind::Action { .. } => Group::Action,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    Royal,
    Combat,
    Checkmate,
    Action,
    Pawn,
    Power,
}

/// The deck-building criteria: how many cards of each group a deck holds.
pub const CRITERIA: [(Group, usize, &str); 6] = [
    (Group::Royal, 2, "royal pieces (one King, one Queen)"),
    (Group::Combat, 14, "combat cards"),
    (Group::Checkmate, 1, "checkmate card"),
    (Group::Action, 10, "action cards"),
    (Group::Pawn, 16, "pawns"),
    (
        Group::Power,
        12,
        "power pieces (knights, bishops and rooks)",
    ),
];

/// Cards in a deck: 55 (the King starts on the board, the rest are shuffled).
pub const DECK_SIZE: usize = 55;

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum RawCard {
    Royal {
        name: String,
        piece: PieceKind,
        hp: u8,
        #[serde(default)]
        text: String,
    },
    Power {
        name: String,
        piece: PieceKind,
        hp: u8,
    },
    Pawn {
        name: String,
        hp: u8,
        first: Ability,
        second: Ability,
    },
    Combat {
        name: String,
        power: u8,
        needs: Vec<Vec<String>>,
    },
    Checkmate {
        name: String,
        text: String,
        conditions: Conditions,
    },
    Action {
        name: String,
        timing: Timing,
        text: String,
        effect: Effect,
    },
}

#[derive(Deserialize)]
struct File {
    cards: Vec<RawCard>,
    classic: Vec<(String, usize)>,
}

/// A name as players may type it: letters and digits only, lower case ("Queen's Gambit",
/// "queens-gambit" and "QUEENSGAMBIT" are one name).
pub fn loose(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The cards every deck draws from, and the classic deck.
#[derive(Clone, Debug)]
pub struct Catalogue {
    pub cards: Vec<Card>,
    /// The default deck: indexes into `cards` with copies.
    pub classic: Vec<(usize, usize)>,
}

impl Catalogue {
    /// The card called `name` (any case, punctuation ignored).
    pub fn find(&self, name: &str) -> Option<usize> {
        let wanted = loose(name);
        self.cards.iter().position(|c| loose(&c.name) == wanted)
    }

    /// The card `name` most likely meant, when a slip of a letter or two explains it (at most
    /// one slip for every three letters typed, so short words suggest nothing far-fetched).
    pub fn closest(&self, name: &str) -> Option<&str> {
        let wanted = loose(name);
        let typed = wanted.chars().count();
        // No card name is near this long: comparing would only cost time.
        if typed > 40 {
            return None;
        }
        self.cards
            .iter()
            .map(|c| (edits(&loose(&c.name), &wanted), c.name.as_str()))
            .filter(|&(d, _)| d > 0 && d * 3 <= typed)
            .min_by_key(|&(d, _)| d)
            .map(|(_, card)| card)
    }

    /// Why `name` names no card, with the closest card's name when there is one:
    /// `there is no card called "Knigt" (did you mean Knight?)`.
    pub fn unknown(&self, name: &str) -> String {
        match self.closest(name) {
            Some(card) => {
                format!(
                    "there is no card called \"{}\" (did you mean {card}?)",
                    crate::engine::echo(name)
                )
            }
            None => format!("there is no card called \"{}\"", crate::engine::echo(name)),
        }
    }
}

/// The fewest single-letter insertions, deletions or substitutions that turn `a` into `b`.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

fn piece(name: String, piece: PieceKind, hp: u8, text: String) -> Card {
    Card {
        name,
        kind: CardKind::Piece {
            piece,
            hp,
            abilities: None,
        },
        text,
    }
}

/// Reads and checks a catalogue file: unique names, royal pieces that are a king and a queen,
/// power pieces that are knights, bishops or rooks, combat power 2 to 12 with requirements that
/// name piece kinds or pawns of the catalogue (never the King), and a classic deck that meets
/// the criteria.
pub fn parse(text: &str) -> Result<Catalogue, String> {
    let file: File = serde_json::from_str(text).map_err(|e| format!("bad card file: {e}"))?;
    let mut cards = Vec::new();
    let mut raw_needs = Vec::new();
    for raw in file.cards {
        let card = match raw {
            RawCard::Royal {
                name,
                piece: kind,
                hp,
                text,
            } => {
                if !matches!(kind, PieceKind::King | PieceKind::Queen) {
                    return Err(format!("{name}: a royal piece is a king or a queen"));
                }
                piece(name, kind, hp, text)
            }
            RawCard::Power {
                name,
                piece: kind,
                hp,
            } => {
                if !matches!(
                    kind,
                    PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook
                ) {
                    return Err(format!(
                        "{name}: a power piece is a knight, a bishop or a rook"
                    ));
                }
                piece(name, kind, hp, String::new())
            }
            RawCard::Pawn {
                name,
                hp,
                first,
                second,
            } => {
                let text = format!("First: {} Second: {}", first.text, second.text);
                Card {
                    name,
                    kind: CardKind::Piece {
                        piece: PieceKind::Pawn,
                        hp,
                        abilities: Some((first, second)),
                    },
                    text,
                }
            }
            RawCard::Combat { name, power, needs } => {
                if !(2..=12).contains(&power) {
                    return Err(format!(
                        "{name}: combat power runs from 2 to 12, not {power}"
                    ));
                }
                if needs.is_empty() || needs.iter().any(Vec::is_empty) {
                    return Err(format!(
                        "{name}: every requirement names at least one piece"
                    ));
                }
                raw_needs.push((cards.len(), needs));
                Card {
                    name,
                    kind: CardKind::Combat {
                        power,
                        needs: vec![],
                    },
                    text: String::new(),
                }
            }
            RawCard::Checkmate {
                name,
                text,
                conditions,
            } => Card {
                name,
                kind: CardKind::Checkmate { conditions },
                text,
            },
            RawCard::Action {
                name,
                timing,
                text,
                effect,
            } => Card {
                name,
                kind: CardKind::Action { timing, effect },
                text,
            },
        };
        if cards
            .iter()
            .any(|c: &Card| loose(&c.name) == loose(&card.name))
        {
            return Err(format!("{}: two cards share this name", card.name));
        }
        if let CardKind::Piece { hp: 0, .. } = card.kind {
            return Err(format!("{}: a piece has at least one hit point", card.name));
        }
        cards.push(card);
    }
    // Requirements may name pawns, so they are read once every card is known.
    for (at, needs) in raw_needs {
        let mut slots = Vec::new();
        for slot in needs {
            let mut options = Vec::new();
            for word in slot {
                let need = match PieceKind::from_word(&word) {
                    Some(PieceKind::King) => {
                        return Err(format!(
                            "{}: the King is never mobilised for combat",
                            cards[at].name
                        ));
                    }
                    Some(kind) => Need::Kind(kind),
                    None => match cards.iter().find(|c| c.name == word) {
                        Some(Card {
                            kind:
                                CardKind::Piece {
                                    piece: PieceKind::Pawn,
                                    ..
                                },
                            ..
                        }) => Need::Pawn(word),
                        _ => {
                            return Err(format!(
                                "{}: \"{word}\" is neither a piece kind nor a pawn card",
                                cards[at].name
                            ));
                        }
                    },
                };
                options.push(need);
            }
            slots.push(options);
        }
        if let CardKind::Combat { needs, .. } = &mut cards[at].kind {
            *needs = slots;
        }
    }
    let mut catalogue = Catalogue {
        cards,
        classic: vec![],
    };
    let classic = check_deck(&catalogue, &file.classic)
        .map_err(|breaches| format!("the classic deck: {}", breaches.join("; ")))?;
    catalogue.classic = classic;
    Ok(catalogue)
}

const DATA: &str = include_str!("../../../assets/chessatete_classic.json");

/// deckmate's classic edition.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| parse(DATA).expect("the shipped cards are valid (tested)"))
}

/// Reads a deck list a player brings: entries separated by commas, semicolons, `+` or new
/// lines, each a card name with an optional count before it (`4 Knight`, `4x Knight`,
/// `Knight x4`, `Block`). Returns (name, copies) in the order given.
pub fn read_list(text: &str) -> Result<Vec<(String, usize)>, String> {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for entry in text.split([',', ';', '+', '\n']) {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let count = |w: &str| {
            let w = w
                .trim_start_matches(['x', 'X'])
                .trim_end_matches(['x', 'X']);
            w.parse::<usize>().ok()
        };
        let words: Vec<&str> = entry.split_whitespace().collect();
        let (copies, name) = match (words.first(), words.last()) {
            (Some(first), _) if words.len() > 1 && count(first).is_some() => {
                (count(first), words[1..].join(" "))
            }
            (_, Some(last)) if words.len() > 1 && count(last).is_some() => {
                (count(last), words[..words.len() - 1].join(" "))
            }
            _ => (Some(1), entry.to_string()),
        };
        match copies.filter(|&n| n > 0) {
            Some(copies) => out.push((name, copies)),
            None => bad.push(format!(
                "\"{entry}\": write how many copies before the name, like 4 Knight"
            )),
        }
    }
    if !bad.is_empty() {
        return Err(bad.join("; "));
    }
    if out.is_empty() {
        return Err("the deck list is empty".into());
    }
    Ok(out)
}

/// Checks a deck list against the criteria; on success the deck as (card index, copies).
/// Every breach gets its own message: unknown cards, then each group's count, then the
/// King's and the Queen's (which replace the royal pieces' total when either is wrong).
pub fn check_deck(
    catalogue: &Catalogue,
    list: &[(String, usize)],
) -> Result<Vec<(usize, usize)>, Vec<String>> {
    let mut breaches = Vec::new();
    let mut deck: BTreeMap<usize, usize> = BTreeMap::new();
    for (name, copies) in list {
        match catalogue.find(name) {
            Some(i) => *deck.entry(i).or_default() += copies,
            None => breaches.push(catalogue.unknown(name)),
        }
    }
    let counted = if breaches.is_empty() {
        ""
    } else {
        " among the cards found"
    };
    // One King and one Queen: a wrong count of either is named on its own, in place of the
    // royal pieces' total.
    let mut royal = Vec::new();
    for kind in [PieceKind::King, PieceKind::Queen] {
        let have: usize = deck
            .iter()
            .filter(|(i, _)| {
                matches!(catalogue.cards[**i].kind, CardKind::Piece { piece, .. } if piece == kind)
            })
            .map(|(_, n)| n)
            .sum();
        if have != 1 {
            royal.push(format!(
                "a deck has exactly one {}, this one has {have}",
                kind.name()
            ));
        }
    }
    for (group, wanted, words) in CRITERIA {
        if group == Group::Royal && !royal.is_empty() {
            continue;
        }
        let have: usize = deck
            .iter()
            .filter(|(i, _)| catalogue.cards[**i].group() == group)
            .map(|(_, n)| n)
            .sum();
        if have != wanted {
            breaches.push(format!(
                "a deck has {wanted} {words}, this one has {have}{counted}"
            ));
        }
    }
    breaches.extend(royal);
    if breaches.is_empty() {
        Ok(deck.into_iter().collect())
    } else {
        Err(breaches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let list = read_list("King, Queen\n4 Knight; 4x Bishop + Rook x4, queens-gambit").unwrap();
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
        assert_eq!(read_list(" , ").unwrap_err(), "the deck list is empty");
        assert_eq!(
            read_list("0 Knight").unwrap_err(),
            "\"0 Knight\": write how many copies before the name, like 4 Knight"
        );
        assert_eq!(
            read_list("King, 0 Knight, Queen, Rook x0").unwrap_err(),
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
                r#"{"name": "Blast", "kind": "combat", "power": 13, "needs": [["pawn"]]}"#
                    .to_string(),
                "Blast: combat power runs from 2 to 12, not 13",
            ),
            (
                format!(
                    r#"{king}, {{"name": "Coup", "kind": "combat", "power": 5, "needs": [["king"]]}}"#
                ),
                "Coup: the King is never mobilised for combat",
            ),
            (
                r#"{"name": "Raid", "kind": "combat", "power": 5, "needs": [["Dragon"]]}"#
                    .to_string(),
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
}
