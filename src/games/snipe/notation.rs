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

use super::{Action, CardAt, SIZE, Snipe, Turn, square};
use crate::board::Sq;
use crate::engine::{Game, ParseError, Seat};
use crate::games::chess::{Color, Role, color_of};
use crate::games::snipe::deck::forest;
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

/// A card named by one of its spaces or by its name (among the cards on the board).
fn card(game: &Snipe, text: &str) -> Result<CardAt, String> {
    let text = text.trim();
    if let Some(sq) = squares(text).filter(|v| v.len() == 1) {
        return Ok(CardAt::of(sq[0]));
    }
    CardAt::all()
        .find(|&c| normalise(game.card(c).name()) == text)
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

fn read(game: &Snipe, text: &str) -> Result<Read, String> {
    let s = normalise(text);
    match s.as_str() {
        "" => return Err(format!("say what to do; {FORMS}")),
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
        let (what, way) = rest
            .rsplit_once(' ')
            .ok_or("write rotate c3 cw, ccw or 180")?;
        let turn = match way {
            "cw" | "clockwise" | "right" | "90" => Turn::Clockwise,
            "ccw" | "acw" | "anticlockwise" | "counterclockwise" | "left" | "-90" => {
                Turn::Anticlockwise
            }
            "180" | "half" => Turn::Half,
            _ => return Err(format!("\"{way}\" is not a way to turn: cw, ccw or 180")),
        };
        let card = card(game, what)?;
        return Ok(Read::Action(Action::Rotate { card, turn }));
    }
    if let Some(rest) = word("replace").or_else(|| word("swap")) {
        let (what, with) = [" with ", " for ", " by "]
            .iter()
            .find_map(|sep| rest.split_once(sep))
            .ok_or("write replace c3 with Meadow")?;
        let card = card(game, what)?;
        let with = forest()
            .iter()
            .position(|c| normalise(&c.name) == with.trim())
            .ok_or_else(|| format!("there is no card called \"{}\"", with.trim()))?;
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
    let found = squares(rest.trim_start_matches('@')).ok_or(FORMS)?;
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
        _ => Err(FORMS.into()),
    }
}

pub(super) fn parse(game: &Snipe, seat: Seat, text: &str) -> Result<Action, ParseError> {
    let err = |reason: &str| ParseError::new(text, reason);
    let read = read(game, text).map_err(|r| err(&r))?;
    if game.outcome.is_some() {
        return Err(err("the game is over"));
    }
    let color: Color = match color_of(seat) {
        Some(c) if c == game.turn => c,
        _ => return Err(err("it is not your turn")),
    };
    let action = match read {
        Read::Action(a) => a,
        Read::Lettered(a, letter) => {
            if let Action::Move { from, .. } = a
                && let Some(p) = game.pieces.get(&from)
                && p.role != letter
            {
                return Err(err(&format!(
                    "the piece on {} is a {}, not a {}",
                    square(from),
                    p.role.name(),
                    letter.name()
                )));
            }
            a
        }
        Read::Unlettered(at) => {
            let left = game.to_place(color);
            match left.first() {
                Some(&role) if left.iter().all(|&r| r == role) => Action::Place { role, at },
                Some(_) => return Err(err("say which piece: K@c1 or P@c1")),
                None => return Err(err(FORMS)),
            }
        }
    };
    if game.legal_actions(seat).contains(&action) {
        Ok(action)
    } else {
        Err(err(&game.why_illegal(color, &action)))
    }
}
