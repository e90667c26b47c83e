//! The text of En Prise actions. Squares are `x,y` counted from the first card (0,0), x to the
//! right and y upwards, negative beyond it: a square's name never changes as the board grows.
//!
//! | action | text |
//! |---|---|
//! | place the next card face-up | `N@2,1` |
//! | place a pawn face-down (a new vacant square) | `P@2,1 down` |
//! | summon the king | `K@-1,3` |
//! | move | `Q 0,0 to 2,2` |
//! | capture | `Q 0,0 x 2,2` |
//! | choose to place, card unseen (Memory, Casino) | `place` |
//! | pick a card (Casino chooser) | `card 3` |
//! | escape square after the king | `escape 1,4` (Casino: `escape 1,4 card 2`), or `no escape` |
//! | done memorising (Memory) | `ready` |

use super::{Action, EnPrise, Phase, sq_text};
use crate::engine::{Game, ParseError, Seat, Viewer};
use crate::games::chess::Role;
use crate::games::xy::{self, MoveText, normalise, only_square};

pub(super) fn format(game: &EnPrise, action: &Action) -> String {
    match *action {
        Action::Ready => "ready".into(),
        Action::Draw => "place".into(),
        Action::NoEscape => "no escape".into(),
        Action::Pick { card } => format!("card {card}"),
        Action::King { at } => format!("K@{}", sq_text(at)),
        Action::Escape { at, card: None } => format!("escape {}", sq_text(at)),
        Action::Escape {
            at,
            card: Some(card),
        } => format!("escape {} card {card}", sq_text(at)),
        Action::Place { at, face_down } => {
            let letter = game.card_to_place(game.current).map_or('?', |r| r.letter());
            let down = if face_down { " down" } else { "" };
            format!("{letter}@{}{down}", sq_text(at))
        }
        Action::Move { from, to } => {
            let letter = match game.board.get(from) {
                Some(Some(p)) => p.role.letter(),
                _ => '?',
            };
            let sep = if matches!(game.board.get(to), Some(Some(_))) {
                "x"
            } else {
                "to"
            };
            format!("{letter} {} {sep} {}", sq_text(from), sq_text(to))
        }
    }
}

/// The text could not be read as an action.
fn err(text: &str, reason: impl Into<String>) -> ParseError {
    ParseError::new(text, reason)
}

/// The text was read as an action, and a rule forbids it now.
fn refused(text: &str, reason: impl Into<String>) -> ParseError {
    ParseError::refused(text, reason)
}

const FORMS: &str = "write N@2,1 to place, P@2,1 down for a face-down pawn, K@2,1 for the king, \
                     Q 0,0 to 2,2 to move, or place / card 3 / escape 2,1 / no escape / ready";

/// Reads the text into an action shape, before any rule is checked.
fn read(text: &str) -> Result<(Action, Option<Role>), ParseError> {
    let s = normalise(text);
    let bad = || err(text, FORMS);
    match s.as_str() {
        "" => return Err(err(text, "say what to do; ".to_string() + FORMS)),
        "ready" => return Ok((Action::Ready, None)),
        "place" | "draw" => return Ok((Action::Draw, None)),
        "no escape" | "noescape" | "no-escape" => return Ok((Action::NoEscape, None)),
        _ => {}
    }
    let number = |t: &str| t.trim().parse::<usize>().ok();
    if let Some(rest) = s.strip_prefix("card ").or_else(|| s.strip_prefix("pick ")) {
        let card = number(rest)
            .ok_or_else(|| err(text, "say which card by its position, for example card 3"))?;
        return Ok((Action::Pick { card }, None));
    }
    if let Some(rest) = s.strip_prefix("escape ") {
        let (at, card) = match rest.split_once(" card ") {
            Some((sq, n)) => (
                sq,
                Some(number(n).ok_or_else(|| {
                    err(
                        text,
                        "the card is given by its position, for example card 2",
                    )
                })?),
            ),
            None => (rest, None),
        };
        let at = only_square(at).ok_or_else(|| {
            err(
                text,
                "write the escape square as x,y, for example escape 2,1",
            )
        })?;
        return Ok((Action::Escape { at, card }, None));
    }
    // A placement: [letter]@x,y [down]
    if let Some((head, tail)) = s.split_once('@') {
        let head = head.trim();
        let letter = match head.chars().collect::<Vec<_>>().as_slice() {
            [] => None,
            [c] => Some(xy::role_letter(*c).map_err(|reason| err(text, reason))?),
            _ => return Err(bad()),
        };
        let (sq, down) = match tail.trim().split_once(' ') {
            Some((sq, "down" | "face-down" | "facedown" | "fd")) => (sq, true),
            Some(_) => return Err(bad()),
            None => (tail.trim(), false),
        };
        let at = only_square(sq)
            .ok_or_else(|| err(text, "write the square as x,y, for example N@2,-1"))?;
        if letter == Some(Role::King) {
            if down {
                return Err(refused(text, "a king is never placed face-down"));
            }
            return Ok((Action::King { at }, None));
        }
        return Ok((
            Action::Place {
                at,
                face_down: down,
            },
            letter,
        ));
    }
    match xy::read_move(&s) {
        Ok((letter, from, to)) => Ok((Action::Move { from, to }, letter)),
        Err(MoveText::NotAMove) => Err(bad()),
        Err(MoveText::BadLetter(reason)) => Err(err(text, reason)),
    }
}

pub(super) fn parse(game: &EnPrise, seat: Seat, text: &str) -> Result<Action, ParseError> {
    let (action, letter) = read(text)?;
    if matches!(game.phase, Phase::Over(_)) {
        return Err(refused(text, "the game is over"));
    }
    if !game.to_act().includes(seat) {
        return Err(refused(text, "it is not your turn"));
    }
    if let Some(letter) = letter {
        match action {
            Action::Move { from, .. } => {
                if let Some(Some(p)) = game.board.get(from)
                    && p.role != letter
                {
                    return Err(refused(
                        text,
                        format!(
                            "the piece on {} is a {}, not a {}",
                            sq_text(from),
                            p.role.name(),
                            letter.name()
                        ),
                    ));
                }
            }
            Action::Place { .. } => {
                // Only a card the player may see is compared, so no refusal names a hidden one.
                let index = match game.phase {
                    Phase::Placing { card } => Some(card),
                    Phase::Turn if !game.needs_declaration(seat) => Some(0),
                    _ => None,
                };
                if let Some(index) = index
                    && seat == game.current
                    && index < game.plans[seat.index()].len()
                    && game.card_visible(seat, index, Viewer::Seat(seat))
                    && let Some(role) = game.card_to_place(seat)
                    && role != letter
                {
                    return Err(refused(
                        text,
                        format!(
                            "the card you place now is a {}, not a {}",
                            role.name(),
                            letter.name()
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    if game.legal_actions(seat).contains(&action) {
        Ok(action)
    } else {
        Err(refused(text, game.why_illegal(seat, &action)))
    }
}

#[cfg(test)]
pub(super) fn read_for_test(text: &str) -> Option<Action> {
    read(text).ok().map(|(a, _)| a)
}
