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

use super::{Action, CardId, ChessATete, Phase, card, combat, names};
use crate::engine::{Game, ParseError, Seat};
use crate::games::chess::color_of;
use crate::games::chessatete::deck::{catalogue, read_list};

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

/// A card named in player text, or why not.
fn named(name: &str) -> Result<CardId, String> {
    catalogue()
        .find(name)
        .map(|i| i as CardId)
        .ok_or_else(|| catalogue().unknown(name))
}

/// Pieces listed as `Knight, Knight, Peasant` (or `2 Knight, Peasant`), sorted.
fn pieces(text: &str) -> Result<Vec<CardId>, String> {
    let mut out = Vec::new();
    for (name, n) in read_list(text)? {
        out.extend(std::iter::repeat_n(named(&name)?, n));
    }
    out.sort();
    Ok(out)
}

/// `Fork with Knight, Knight, Peasant`, or `Fork` alone when one set of pieces fits.
fn combat_text(game: &ChessATete, verb: &str, rest: &str) -> Result<(CardId, Vec<CardId>), String> {
    let (name, list) = match rest.split_once(" with ") {
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

pub(super) fn parse(game: &ChessATete, seat: Seat, text: &str) -> Result<Action, ParseError> {
    let err = |reason: &str| ParseError::new(text, reason);
    if game.outcome.is_some() {
        return Err(err("the game is over"));
    }
    let color = match color_of(seat) {
        Some(c) if c == game.actor() => c,
        _ => return Err(err("it is not your turn")),
    };
    let s = text.trim().to_lowercase();
    let words: Vec<&str> = s.split_whitespace().collect();
    let action = match words.as_slice() {
        [] => return Err(err(&format!("say what to do; {}", forms(game)))),
        ["end"] | ["end", "turn"] | ["done"] | ["pass"] => Action::End,
        ["take"] | ["no"] | ["let", "through"] => Action::Take,
        [verb, rest @ ..] if matches!(*verb, "attack" | "defend") && !rest.is_empty() => {
            let (combat, pieces) = combat_text(game, verb, &rest.join(" ")).map_err(|r| err(&r))?;
            if *verb == "attack" {
                Action::Attack { combat, pieces }
            } else {
                Action::Defend { combat, pieces }
            }
        }
        ["lose", rest @ ..] if !rest.is_empty() => {
            Action::Lose(pieces(&rest.join(" ")).map_err(|r| err(&r))?)
        }
        [verb, rest @ ..] if matches!(*verb, "play" | "burn") => {
            if rest.is_empty() {
                return Err(err(&format!("say which card: {verb} Knight")));
            }
            let text = rest.join(" ");
            let (name, target) = match text.split_once(" on ") {
                Some((name, target)) if *verb == "play" => (name.to_string(), Some(target)),
                _ => (text.clone(), None),
            };
            let id = named(&name).map_err(|r| err(&r))?;
            match (*verb, target) {
                ("play", Some(target)) => Action::PlayOn {
                    card: id,
                    target: named(target).map_err(|r| err(&r))?,
                },
                ("play", None) => Action::Play(id),
                _ => Action::Burn(id),
            }
        }
        _ => match catalogue().find(&s) {
            Some(id) => Action::Play(id as u16),
            None if catalogue().closest(&s).is_some() => {
                return Err(err(&catalogue().unknown(&s)));
            }
            None => return Err(err(forms(game))),
        },
    };
    if game.legal_actions(seat).contains(&action) {
        Ok(action)
    } else {
        Err(err(&game.why_illegal(color, &action)))
    }
}
