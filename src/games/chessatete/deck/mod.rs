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

const DATA: &str = include_str!("../../../../assets/chessatete_classic.json");

/// deckmate's classic edition.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| parse(DATA).expect("the shipped cards are valid (tested)"))
}

/// The most copies a list may ask for, and of what: a count past it is refused as it is read,
/// before anything is counted up or built from it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Most {
    pub count: usize,
    /// What holds the cards: "a deck".
    pub holder: &'static str,
    /// What it holds: "cards".
    pub things: &'static str,
    /// Why a list that names nothing is refused.
    pub empty: &'static str,
}

impl Most {
    /// `a deck holds at most 55 cards; "18446744073709551615 Knight" asks for more`.
    pub fn refusal(&self, entry: &str) -> String {
        format!(
            "{} holds at most {} {}; \"{}\" asks for more",
            self.holder,
            self.count,
            self.things,
            crate::engine::echo(entry)
        )
    }
}

/// A deck: no entry of a deck list may ask for more cards than the criteria's whole deck.
pub const DECK_MOST: Most = Most {
    count: DECK_SIZE,
    holder: "a deck",
    things: "cards",
    empty: "the deck list is empty",
};

/// Reads a deck list a player brings: entries separated by commas, semicolons, `+` or new
/// lines, each a card name with an optional count before it (`4 Knight`, `4x Knight`,
/// `Knight x4`, `Block`). Returns (name, copies) in the order given. A count past
/// `most.count` (however many digits it has) is refused.
pub fn read_list(text: &str, most: Most) -> Result<Vec<(String, usize)>, String> {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for entry in text.split([',', ';', '+', '\n']) {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        // A count: digits, with an x before or after. Too many digits for a usize reads as
        // usize::MAX, which every bound refuses.
        let count = |w: &str| {
            let w = w
                .trim_start_matches(['x', 'X'])
                .trim_end_matches(['x', 'X']);
            (!w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
                .then(|| w.parse::<usize>().unwrap_or(usize::MAX))
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
            Some(copies) if copies > most.count => bad.push(most.refusal(entry)),
            Some(copies) => out.push((name, copies)),
            None => bad.push(format!(
                "\"{}\": write how many copies before the name, like 4 Knight",
                crate::engine::echo(entry)
            )),
        }
    }
    if !bad.is_empty() {
        return Err(bad.join("; "));
    }
    if out.is_empty() {
        return Err(most.empty.into());
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
            Some(i) => {
                let have = deck.entry(i).or_default();
                *have = have.saturating_add(*copies);
            }
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
            .fold(0, |sum: usize, (_, n)| sum.saturating_add(*n));
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
            .fold(0, |sum: usize, (_, n)| sum.saturating_add(*n));
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
mod tests;
