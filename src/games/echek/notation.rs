//! The text of Echek actions. Squares are `x,y`, counted from the white king's starting square
//! (0,0; the black king starts on 0,1), negative to the left and below.
//!
//! | action | text |
//! |---|---|
//! | put a piece in play | `N@1,1` |
//! | put a pawn in play and step at once | `P@1,1 to 1,2` |
//! | put a bishop in play, sending a piece back | `B@1,1 return 0,2` |
//! | move | `Q 0,0 to 2,2` |
//! | exchange rook and king (once per game) | `swap` |
//! | nothing else is possible | `pass` |

use super::{Action, Echek};
use crate::engine::{Game, ParseError, Seat};
use crate::games::chess::{Role, color_of};
use crate::games::xy::{MoveText, normalise, only_square, read_move, role_letter};

pub(super) fn format(game: &Echek, action: &Action) -> String {
    match *action {
        Action::Swap => "swap".into(),
        Action::Pass => "pass".into(),
        Action::Put {
            role,
            at,
            then,
            back,
        } => {
            let mut text = format!("{}@{}", role.letter(), at.xy());
            if let Some(to) = then {
                text.push_str(&format!(" to {}", to.xy()));
            }
            if let Some(b) = back {
                text.push_str(&format!(" return {}", b.xy()));
            }
            text
        }
        Action::Move { from, to } => {
            let letter = game.pieces.get(&from).map_or('?', |p| p.role.letter());
            format!("{letter} {} to {}", from.xy(), to.xy())
        }
    }
}

/// How actions are written, for a player's `help` (examples from docs/rules/echek.md).
pub(super) const HELP: &str =
    "squares are x,y from the white king's first square, 0,0 (x to the right, y up): -1,2
  put a piece from your supply in play: N@1,-1
  put the pawn and step at once: P@1,1 to 1,2 (or just P@1,1)
  put the bishop, sending a piece back: B@1,1 return 0,2
  move a piece, named by its letter (K Q R B N P): Q 0,0 to 2,2 (also Q 0,0-2,2)
  exchange rook and king, once a game: swap
  only when nothing else is possible: pass";

const FORMS: &str = "write N@1,1 to put a piece in play (P@1,1 to 1,2 for a pawn that steps, \
                     B@1,1 return 0,2 for a bishop), Q 0,0 to 2,2 to move, swap, or pass";

fn read(text: &str) -> Result<(Action, Option<Role>), ParseError> {
    let s = normalise(text);
    let err = |reason: &str| ParseError::new(text, reason);
    match s.as_str() {
        "" => return Err(err(&format!("say what to do; {FORMS}"))),
        "swap" | "exchange" => return Ok((Action::Swap, None)),
        "pass" => return Ok((Action::Pass, None)),
        _ => {}
    }
    if let Some((head, tail)) = s.split_once('@') {
        let role = match head.trim().chars().collect::<Vec<_>>().as_slice() {
            [c] => role_letter(*c).map_err(|r| err(&r))?,
            [] => return Err(err("say which piece: N@1,1")),
            _ => return Err(err(FORMS)),
        };
        let (sq, rest) = match tail.trim().split_once(' ') {
            Some((sq, rest)) => (sq, Some(rest)),
            None => (tail.trim(), None),
        };
        let at = only_square(sq).ok_or_else(|| err("write the square as x,y: N@1,-1"))?;
        let (mut then, mut back) = (None, None);
        if let Some(rest) = rest {
            let second = |word: &str| rest.strip_prefix(word).and_then(only_square);
            // After a space, "-1,2" is a square (the step's target), not a dash and 1,2.
            if let Some(to) = only_square(rest) {
                then = Some(to);
            } else if let Some(to) = ["to ", "-", "> ", ">"].iter().find_map(|w| second(w)) {
                then = Some(to);
            } else if let Some(b) = ["return ", "back ", "send "].iter().find_map(|w| second(w)) {
                back = Some(b);
            } else {
                return Err(err(FORMS));
            }
        }
        return Ok((
            Action::Put {
                role,
                at,
                then,
                back,
            },
            None,
        ));
    }
    match read_move(&s) {
        Ok((letter, from, to)) => Ok((Action::Move { from, to }, letter)),
        Err(MoveText::NotAMove) => Err(err(FORMS)),
        Err(MoveText::BadLetter(reason)) => Err(err(&reason)),
    }
}

pub(super) fn parse(game: &Echek, seat: Seat, text: &str) -> Result<Action, ParseError> {
    let (action, letter) = read(text)?;
    if game.outcome.is_some() {
        return Err(ParseError::refused(text, "the game is over"));
    }
    let color = match color_of(seat) {
        Some(c) if c == game.turn => c,
        _ => return Err(ParseError::refused(text, "it is not your turn")),
    };
    if let (Some(letter), Action::Move { from, .. }) = (letter, &action)
        && let Some(p) = game.pieces.get(from)
        && p.role != letter
    {
        return Err(ParseError::refused(
            text,
            format!(
                "the piece on {} is a {}, not a {}",
                from.xy(),
                p.role.name(),
                letter.name()
            ),
        ));
    }
    if game.legal_actions(seat).contains(&action) {
        Ok(action)
    } else {
        Err(ParseError::refused(text, game.why_illegal(color, &action)))
    }
}
