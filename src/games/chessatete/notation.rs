//! The text of Chess-à-Tête actions: cards are named by their names (any case, punctuation
//! ignored).
//!
//! | action | text |
//! |---|---|
//! | put a piece card on your board | `play Knight` (or just `Knight`) |
//! | burn a card at the end of the turn | `burn Skirmish` |
//! | end the turn | `end` |
//! | attack | `attack Fork with Knight, Knight, Peasant` (`with ...` may go when only one set of pieces fits) |
//! | answer an attack | `defend Siege with Rook, Peasant, Peasant`, or `take` |
//! | absorb damage | `lose Bishop, Peasant` |
//!
//! Text that cannot be read (no card of that name, a verb with nothing after it, an attack
//! whose pieces must be named) is answered `cannot read`; text read as an action that a rule
//! forbids now is refused with that rule alone.

use super::{Action, CardId, ChessATete, Phase, card, combat, names};
use crate::engine::{Game, ParseError, Seat};
use crate::games::chess::color_of;
use crate::games::chessatete::deck::{Most, PieceKind, catalogue, read_list};

pub fn format(action: &Action) -> String {
    match *action {
        Action::Play(id) => format!("play {}", card(id).name),
        Action::PlayOn { card: id, target } => {
            format!("play {} on {}", card(id).name, card(target).name)
        }
        Action::Burn(id) => format!("burn {}", card(id).name),
        Action::End => "end".into(),
        Action::Attack { combat, ref pieces } => {
            format!("attack {} with {}", card(combat).name, names(pieces))
        }
        Action::Defend { combat, ref pieces } => {
            format!("defend {} with {}", card(combat).name, names(pieces))
        }
        Action::Take => "take".into(),
        Action::Lose(ref pieces) => format!("lose {}", names(pieces)),
    }
}

/// A card named in player text (as typed), or why not.
fn named(name: &str) -> Result<CardId, String> {
    catalogue()
        .find(name)
        .map(|i| i as CardId)
        .ok_or_else(|| catalogue().unknown(name))
}

/// The most pieces a list may name: a board full to every kind's limit.
const BOARD_MOST: Most = Most {
    count: super::limit(PieceKind::King)
        + super::limit(PieceKind::Queen)
        + super::limit(PieceKind::Knight)
        + super::limit(PieceKind::Bishop)
        + super::limit(PieceKind::Rook)
        + super::limit(PieceKind::Pawn),
    holder: "a board",
    things: "pieces",
    empty: "name the pieces: Knight, Knight, Peasant",
};

/// Pieces listed as `Knight, Knight, Peasant` (or `2 Knight, Peasant`), sorted. A list of more
/// pieces than a board holds is refused before any is counted out.
fn pieces(text: &str) -> Result<Vec<CardId>, String> {
    let mut out = Vec::new();
    for (name, n) in read_list(text, BOARD_MOST)? {
        if out.len() + n > BOARD_MOST.count {
            return Err(BOARD_MOST.refusal(text));
        }
        out.extend(std::iter::repeat_n(named(&name)?, n));
    }
    out.sort();
    Ok(out)
}

/// `text` split around the first ` word ` in any case: `Fork with Knight` around `with`.
fn split_word<'a>(text: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    // ASCII lower-casing keeps every byte where it was, so the positions hold in `text`.
    let at = text.to_ascii_lowercase().find(&format!(" {word} "))?;
    Some((&text[..at], &text[at + word.len() + 2..]))
}

/// `Fork with Knight, Knight, Peasant`, or `Fork` alone when one set of pieces fits.
fn combat_text(game: &ChessATete, verb: &str, rest: &str) -> Result<(CardId, Vec<CardId>), String> {
    let (name, list) = match split_word(rest, "with") {
        Some((name, list)) => (name, Some(list)),
        None => (rest, None),
    };
    let id = named(name)?;
    let chosen = match list {
        Some(list) => pieces(list)?,
        None => {
            let board = &game.side(game.actor()).board;
            match combat::mobilisations(id, board).as_slice() {
                [only] => only.clone(),
                [] => vec![],
                _ => {
                    return Err(format!(
                        "say which pieces: {verb} {} with ...",
                        card(id).name
                    ));
                }
            }
        }
    };
    Ok((id, chosen))
}

/// The forms of action that fit the moment, as examples.
pub(super) fn forms(game: &ChessATete) -> &'static str {
    match game.phase {
        Phase::Main => {
            "write play Knight, attack Fork with Knight, Knight, Peasant, burn Skirmish, or end"
        }
        Phase::Defend(_) if game.defend_bonus > 0 => {
            "write defend Castle Wall with Rook, Rook, Peasant"
        }
        Phase::Defend(_) => {
            "write defend Castle Wall with Rook, Rook, Peasant, take, or play Block"
        }
        Phase::Damage { .. } => "write lose Bishop, Peasant",
    }
}

/// Why a seat that need not act now is refused: whom the game waits for, and for what.
fn not_your_turn(game: &ChessATete) -> String {
    let defender = game.turn.other().name();
    match game.phase {
        Phase::Main => "it is not your turn".into(),
        Phase::Defend(_) => format!("it is not your turn: {defender} is answering the attack"),
        Phase::Damage { .. } => {
            format!("it is not your turn: {defender} is choosing the pieces to lose")
        }
    }
}

pub(super) fn parse(game: &ChessATete, seat: Seat, text: &str) -> Result<Action, ParseError> {
    let unreadable = |reason: &str| ParseError::new(text, reason);
    if game.outcome.is_some() {
        return Err(ParseError::refused(text, "the game is over"));
    }
    let color = match color_of(seat) {
        Some(c) if c == game.actor() => c,
        _ => return Err(ParseError::refused(text, not_your_turn(game))),
    };
    let typed = text.trim();
    let words: Vec<&str> = typed.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    // What follows the first word, as typed.
    let rest = words.get(1..).unwrap_or_default().join(" ");
    let action = match lower.as_slice() {
        [] => return Err(unreadable(&format!("say what to do; {}", forms(game)))),
        ["end"] | ["end", "turn"] | ["done"] | ["pass"] => Action::End,
        ["take"] | ["no"] | ["let", "through"] => Action::Take,
        ["attack"] => {
            return Err(unreadable(
                "say which combat card: attack Fork with Knight, Knight, Peasant",
            ));
        }
        ["defend"] => {
            return Err(unreadable(
                "say which combat card: defend Castle Wall with Rook, Rook, Peasant",
            ));
        }
        [verb @ ("attack" | "defend"), ..] => {
            let (combat, pieces) = combat_text(game, verb, &rest).map_err(|r| unreadable(&r))?;
            if *verb == "attack" {
                Action::Attack { combat, pieces }
            } else {
                Action::Defend { combat, pieces }
            }
        }
        ["lose"] => return Err(unreadable("say which pieces: lose Bishop, Peasant")),
        ["lose", ..] => Action::Lose(pieces(&rest).map_err(|r| unreadable(&r))?),
        [verb @ ("play" | "burn")] => {
            return Err(unreadable(&format!("say which card: {verb} Knight")));
        }
        [verb @ ("play" | "burn"), ..] => {
            let (name, target) = match split_word(&rest, "on") {
                Some((name, target)) if *verb == "play" => (name, Some(target)),
                _ => (rest.as_str(), None),
            };
            let id = named(name).map_err(|r| unreadable(&r))?;
            match (*verb, target) {
                ("play", Some(target)) => Action::PlayOn {
                    card: id,
                    target: named(target).map_err(|r| unreadable(&r))?,
                },
                ("play", None) => Action::Play(id),
                _ => Action::Burn(id),
            }
        }
        _ => match catalogue().find(typed) {
            Some(id) => Action::Play(id as u16),
            None if catalogue().closest(typed).is_some() => {
                return Err(unreadable(&catalogue().unknown(typed)));
            }
            None => return Err(unreadable(forms(game))),
        },
    };
    let legal = game.legal_actions(seat);
    if legal.contains(&action) {
        return Ok(action);
    }
    // A card that takes a target, named without one, is text that says too little.
    if let Action::Play(id) = action
        && legal
            .iter()
            .any(|a| matches!(a, Action::PlayOn { card, .. } if *card == id))
    {
        return Err(unreadable(&game.why_illegal(color, &action)));
    }
    Err(ParseError::refused(text, game.why_illegal(color, &action)))
}
