//! The text of Snipe Chess actions. Squares are a1 to j10: files a-j from White's left, ranks
//! 1-10 from White's side. A card is named by any of its four spaces or by its name; the
//! canonical form uses its lower-left space.
//!
//! | action | text |
//! |---|---|
//! | place a piece (setup) | `K@c1`, `P@e2` |
//! | move | `Kc1-c4`, `Pe2-h2` |
//! | turn a card (after a move onto a rotation space) | `rotate c3 cw`, `rotate c3 ccw`, `rotate c3 180` |
//! | replace an empty card (feather rule) | `replace c3 with Meadow` |
//! | end the turn without (further) turning or replacing | `done` |

use super::{Action, CardAt, Phase, SIZE, Snipe, Turn, square};
use crate::board::Sq;
use crate::engine::{Game, ParseError, Seat};
use crate::games::chess::{Color, Role, color_of};
use crate::games::snipe::deck::{SET_ASIDE, forest};
use crate::games::xy::normalise;

pub(super) fn format(game: &Snipe, action: &Action) -> String {
    match *action {
        Action::Place { role, at } => format!("{}@{}", role.letter(), square(at)),
        Action::Move { from, to } => {
            let letter = game.pieces.get(&from).map_or('?', |p| p.role.letter());
            format!("{letter}{}-{}", square(from), square(to))
        }
        Action::Rotate { card, turn } => {
            let way = match turn {
                Turn::Clockwise => "cw",
                Turn::Anticlockwise => "ccw",
                Turn::Half => "180",
            };
            format!("rotate {} {way}", square(card.corner()))
        }
        Action::Replace { card, with } => format!(
            "replace {} with {}",
            square(card.corner()),
            forest()[usize::from(with)].name
        ),
        Action::Done => "done".into(),
    }
}

/// How actions are written, for a player's `help` (examples from docs/rules/snipe.md).
pub(super) const HELP: &str =
    "squares a1 to j10: files a-j from White's left, ranks 1-10 from White's side
  setup, one piece per card of your home row: K@c1, P@e2 (a bare e2 places a pawn)
  move along a rank or a file, through your own pieces only: Kc1-c4, Pe2-h2
  after a move onto a rotation space, turn a card named by any of its spaces:
    rotate c3 cw, rotate c3 ccw, rotate c3 180; done ends the turn early
  feather rule, after your king lands on a feather: replace c3 with Meadow, or done";

pub(super) const FORMS: &str = "write K@c1 to place a piece, Kc1-c4 to move, rotate c3 cw (ccw, 180) to \
                     turn a card, replace c3 with Meadow, or done";

/// Reads a square `a1`..`j10` at the start of `s`; returns it and the rest.
fn read_square(s: &str) -> Option<(Sq, &str)> {
    let mut chars = s.chars();
    let file = chars.next()?;
    if !('a'..='j').contains(&file) {
        return None;
    }
    let rest = &s[1..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let rank: i16 = rest[..end].parse().ok()?;
    if !(1..=SIZE).contains(&rank) {
        return None;
    }
    Some((Sq::new(file as i16 - 'a' as i16, rank - 1), &rest[end..]))
}

/// The squares in `s`, allowing spaces, dashes, `>` and `to` between them; None if anything
/// else is there.
fn squares(mut s: &str) -> Option<Vec<Sq>> {
    let mut out = Vec::new();
    loop {
        s = s.trim_start_matches([' ', '-', '>']);
        if let Some(rest) = s.strip_prefix("to ") {
            s = rest;
            continue;
        }
        if s.is_empty() {
            return Some(out);
        }
        let (sq, rest) = read_square(s)?;
        out.push(sq);
        s = rest;
    }
}

/// A square-like word that is not on the board (`k1`, `a11`, `a0`), to say so plainly.
fn off_board(s: &str) -> Option<String> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .map(|word| match word.as_bytes() {
            // A piece letter written against the square: "ka11".
            [b'k' | b'p', second, ..] if second.is_ascii_alphabetic() => &word[1..],
            _ => word,
        })
        .find(|word| {
            let mut chars = word.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && !chars.as_str().is_empty()
                && chars.all(|c| c.is_ascii_digit())
                && read_square(word).is_none_or(|(_, rest)| !rest.is_empty())
        })
        .map(|word| format!("{word} is off the board: files a to j, ranks 1 to 10"))
}

/// A card's name as players may type it: any case, with or without apostrophes.
fn loose(name: &str) -> String {
    normalise(name).replace('\'', "")
}

/// A card named by one of its spaces or by its name (among the cards on the board).
fn card(game: &Snipe, text: &str) -> Result<CardAt, String> {
    let text = text.trim();
    if let Some(sq) = squares(text).filter(|v| v.len() == 1) {
        return Ok(CardAt::of(sq[0]));
    }
    if let Some(why) = off_board(text) {
        return Err(why);
    }
    CardAt::all()
        .find(|&c| loose(game.card(c).name()) == loose(text))
        .ok_or_else(|| format!("no card in the forest is called or stands on \"{text}\""))
}

/// What was read, before checking it against the position.
enum Read {
    Action(Action),
    /// A piece letter was given for a move or a placement (checked against the piece).
    Lettered(Action, Role),
    /// One square and no letter in the setup: the piece is chosen from what is left.
    Unlettered(Sq),
}

/// Reads `text`. Refusals are unreadable text, except a set-aside card named for the feather
/// rule: that is understood, and refused by the rules.
fn read(game: &Snipe, text: &str) -> Result<Read, ParseError> {
    let unreadable = |reason: String| ParseError::new(text, reason);
    let s = normalise(text);
    match s.as_str() {
        "" => return Err(unreadable(format!("say what to do; {FORMS}"))),
        "done" | "end" | "end turn" | "skip" | "no" | "pass" | "finish" => {
            return Ok(Read::Action(Action::Done));
        }
        _ => {}
    }
    let word = |w: &str| {
        s.strip_prefix(w)
            .filter(|r| r.starts_with(' '))
            .map(str::trim)
    };
    if let Some(rest) = word("rotate")
        .or_else(|| word("turn"))
        .or_else(|| word("rot"))
    {
        let way = |w: &str| match w {
            "cw" | "clockwise" | "right" | "90" => Some(Turn::Clockwise),
            "ccw" | "acw" | "anticlockwise" | "anti-clockwise" | "counterclockwise"
            | "counter-clockwise" | "left" | "-90" | "270" => Some(Turn::Anticlockwise),
            "180" | "half" => Some(Turn::Half),
            _ => None,
        };
        let (what, turn) = match rest.rsplit_once(' ') {
            Some((what, w)) if way(w).is_some() => (what, way(w)),
            _ => (rest, None),
        };
        let card = match card(game, what) {
            Ok(card) => card,
            Err(why) => {
                // "rotate c3 sideways": a card, then a word that is no way to turn.
                if let Some((front, w)) = rest.rsplit_once(' ')
                    && card(game, front).is_ok()
                {
                    return Err(unreadable(format!(
                        "\"{w}\" is not a way to turn: cw, ccw or 180"
                    )));
                }
                return Err(unreadable(why));
            }
        };
        // On a 180 space there is one way to turn, so it may go unsaid. Outside a rotation
        // step the way does not matter: the turn is refused for the step it is in.
        let turn = match (turn, &game.phase) {
            (Some(turn), _) => turn,
            (None, Phase::Rotate { angle: 180, .. }) => Turn::Half,
            (None, Phase::Rotate { .. }) => {
                return Err(unreadable(
                    "say which way: rotate c3 cw or rotate c3 ccw".into(),
                ));
            }
            (None, _) => Turn::Clockwise,
        };
        return Ok(Read::Action(Action::Rotate { card, turn }));
    }
    if let Some(rest) = word("replace").or_else(|| word("swap")) {
        let (what, with) = [" with ", " for ", " by "]
            .iter()
            .find_map(|sep| rest.split_once(sep))
            .ok_or_else(|| unreadable("write replace c3 with Meadow".into()))?;
        let card = card(game, what).map_err(unreadable)?;
        let wanted = loose(with);
        let with = match forest().iter().position(|c| loose(&c.name) == wanted) {
            Some(i) => i,
            None => {
                return Err(match SET_ASIDE.iter().find(|n| loose(n) == wanted) {
                    Some(name) => ParseError::refused(
                        text,
                        format!(
                            "the {name} is set aside in Snipe Chess; choose one of the unused \
                             cards"
                        ),
                    ),
                    None => unreadable(format!("there is no card called \"{}\"", with.trim())),
                });
            }
        };
        return Ok(Read::Action(Action::Replace {
            card,
            with: with as u8,
        }));
    }
    let (role, rest) = if let Some(rest) = ["king", "k"].iter().find_map(|w| s.strip_prefix(w)) {
        (Some(Role::King), rest)
    } else if let Some(rest) = ["pawn", "p"].iter().find_map(|w| s.strip_prefix(w)) {
        (Some(Role::Pawn), rest)
    } else {
        (None, s.as_str())
    };
    let rest = rest.trim_start();
    let placing = rest.starts_with('@');
    let found = squares(rest.trim_start_matches('@'))
        .ok_or_else(|| unreadable(off_board(&s).unwrap_or_else(|| FORMS.into())))?;
    match (found.as_slice(), role) {
        ([at], Some(role)) => Ok(Read::Lettered(Action::Place { role, at: *at }, role)),
        ([at], None) => Ok(Read::Unlettered(*at)),
        ([from, to], _) if !placing => {
            let action = Action::Move {
                from: *from,
                to: *to,
            };
            Ok(match role {
                Some(role) => Read::Lettered(action, role),
                None => Read::Action(action),
            })
        }
        _ => Err(unreadable(FORMS.into())),
    }
}

pub(super) fn parse(game: &Snipe, seat: Seat, text: &str) -> Result<Action, ParseError> {
    let refused = |reason: &str| ParseError::refused(text, reason);
    let read = read(game, text)?;
    if game.outcome.is_some() {
        return Err(refused("the game is over"));
    }
    let color: Color = match color_of(seat) {
        Some(c) if c == game.turn => c,
        _ => return Err(refused("it is not your turn")),
    };
    let action = match read {
        Read::Action(a) => a,
        Read::Lettered(a, letter) => {
            if let Action::Move { from, .. } = a
                && let Some(p) = game.pieces.get(&from)
                && p.role != letter
            {
                return Err(refused(&format!(
                    "the piece on {} is a {}, not a {}",
                    square(from),
                    p.role.name(),
                    letter.name()
                )));
            }
            a
        }
        Read::Unlettered(_) if game.phase != Phase::Setup => {
            return Err(ParseError::new(
                text,
                "a move needs two squares, from and to: Kc1-c4",
            ));
        }
        Read::Unlettered(at) => {
            let mut left = game.to_place(color);
            left.dedup();
            let legal = game.legal_actions(seat);
            let fits = |role: Role| legal.contains(&Action::Place { role, at });
            match left.as_slice() {
                [] => {
                    let pawn = Action::Place {
                        role: Role::Pawn,
                        at,
                    };
                    return Err(refused(&game.why_illegal(color, &pawn)));
                }
                [role] => Action::Place { role: *role, at },
                // No piece may go there: why, about the square typed.
                [role, ..] if !left.iter().any(|&r| fits(r)) => {
                    return Err(refused(
                        &game.why_illegal(color, &Action::Place { role: *role, at }),
                    ));
                }
                _ => {
                    let at = square(at);
                    let forms: Vec<String> = left
                        .iter()
                        .map(|r| format!("{}@{at}", r.letter()))
                        .collect();
                    return Err(ParseError::new(
                        text,
                        format!("say which piece: {}", forms.join(" or ")),
                    ));
                }
            }
        }
    };
    if game.legal_actions(seat).contains(&action) {
        Ok(action)
    } else {
        Err(refused(&game.why_illegal(color, &action)))
    }
}
