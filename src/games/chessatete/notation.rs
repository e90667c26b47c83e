//! The text of Chess-à-Tête actions: cards are named by their names (any case, punctuation
//! ignored).
//!
//! | action | text |
//! |---|---|
//! | put a piece card on your board | `play Knight` (or just `Knight`) |
//! | burn a card at the end of the turn | `burn Skirmish` |
//! | end the turn | `end` |

use super::{Action, ChessATete, card};
use crate::engine::{Game, ParseError, Seat};
use crate::games::chess::color_of;
use crate::games::chessatete::deck::catalogue;

pub(super) fn format(action: &Action) -> String {
    match *action {
        Action::Play(id) => format!("play {}", card(id).name),
        Action::Burn(id) => format!("burn {}", card(id).name),
        Action::End => "end".into(),
    }
}

pub(super) const FORMS: &str = "write play Knight, burn Skirmish, or end";

pub(super) fn parse(game: &ChessATete, seat: Seat, text: &str) -> Result<Action, ParseError> {
    let err = |reason: &str| ParseError::new(text, reason);
    let s = text.trim().to_lowercase();
    let words: Vec<&str> = s.split_whitespace().collect();
    let action = match words.as_slice() {
        [] => return Err(err(&format!("say what to do; {FORMS}"))),
        ["end"] | ["end", "turn"] | ["done"] | ["pass"] => Action::End,
        [verb, rest @ ..] if matches!(*verb, "play" | "burn") => {
            if rest.is_empty() {
                return Err(err(&format!("say which card: {verb} Knight")));
            }
            let name = rest.join(" ");
            let id = catalogue()
                .find(&name)
                .ok_or_else(|| err(&format!("there is no card called \"{name}\"")))?;
            if *verb == "play" {
                Action::Play(id as u16)
            } else {
                Action::Burn(id as u16)
            }
        }
        _ => match catalogue().find(&s) {
            Some(id) => Action::Play(id as u16),
            None => return Err(err(FORMS)),
        },
    };
    if game.outcome.is_some() {
        return Err(err("the game is over"));
    }
    let color = match color_of(seat) {
        Some(c) if c == game.turn => c,
        _ => return Err(err("it is not your turn")),
    };
    if game.legal_actions(seat).contains(&action) {
        Ok(action)
    } else {
        Err(err(&game.why_illegal(color, &action)))
    }
}
