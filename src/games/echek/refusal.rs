//! Why an Echek action is refused: one reason, the one that applies, in a player's words.

use super::{Action, Echek, Piece, fits, groups, moved, reach, sound};
use crate::board::{ORTHOGONAL, Sq};
use crate::engine::Game;
use crate::games::chess::{Color, Role};
use std::collections::BTreeMap;

/// Most squares a queen, rook or bishop may slide: the window floats with it.
const MAX_SLIDE: i16 = 2 * (super::WINDOW - 1);

/// "the black knight".
fn named(piece: Piece) -> String {
    format!(
        "the {} {}",
        piece.color.name().to_lowercase(),
        piece.role.name()
    )
}

/// How a piece moves, for a move off its pattern.
fn pattern(role: Role) -> &'static str {
    match role {
        Role::King => "a king moves one square in any direction",
        Role::Queen => "a queen moves along a row, a column or a diagonal",
        Role::Rook => "a rook moves along a row or a column",
        Role::Bishop => "a bishop moves along a diagonal",
        Role::Knight => "a knight moves one square straight and one diagonally, as in chess",
        Role::Pawn => "a pawn moves one square up, down, left or right",
    }
}

/// Whether `role` could go from `from` to `to` on an empty plane (ignoring the limit).
fn on_pattern(role: Role, from: Sq, to: Sq) -> bool {
    let (dx, dy) = ((to.x - from.x).abs(), (to.y - from.y).abs());
    match role {
        Role::King => dx.max(dy) == 1,
        Role::Pawn => dx + dy == 1,
        Role::Knight => (dx, dy) == (1, 2) || (dx, dy) == (2, 1),
        Role::Rook => dx == 0 || dy == 0,
        Role::Bishop => dx == dy,
        Role::Queen => dx == 0 || dy == 0 || dx == dy,
    }
}

impl Echek {
    /// Why `action` is not legal for `color` now.
    pub(super) fn why_illegal(&self, color: Color, action: &Action) -> String {
        match *action {
            Action::Pass => "you may pass only when you can do nothing else".into(),
            Action::Swap => {
                if self.swap_used[color.index()] {
                    "you have already exchanged your rook and king this game".into()
                } else {
                    "your rook is not in play".into()
                }
            }
            Action::Move { from, to } => self.why_not_moved(color, &self.pieces, from, to),
            Action::Put {
                role,
                at,
                then,
                back,
            } => self.why_not_put(color, role, at, then, back),
        }
    }

    /// Why the piece on `from` may not go to `to` among `pieces` (the pieces before the move).
    fn why_not_moved(
        &self,
        color: Color,
        pieces: &BTreeMap<Sq, Piece>,
        from: Sq,
        to: Sq,
    ) -> String {
        let Some(&piece) = pieces.get(&from) else {
            return format!("there is no piece on {}", from.xy());
        };
        let role = piece.role.name();
        if piece.color != color {
            return format!("{} on {} is not yours", named(piece), from.xy());
        }
        if from == to {
            return format!("the {role} is already on {}", to.xy());
        }
        if let Some(&there) = pieces.get(&to) {
            return format!(
                "{} stands on {}; pieces never capture",
                named(there),
                to.xy()
            );
        }
        if !on_pattern(piece.role, from, to) {
            return pattern(piece.role).into();
        }
        if matches!(piece.role, Role::Queen | Role::Rook | Role::Bishop) {
            let step = crate::board::Offset {
                dx: (to.x - from.x).signum() as i8,
                dy: (to.y - from.y).signum() as i8,
            };
            let mut sq = from.offset(step);
            while sq != to {
                if let Some(&p) = pieces.get(&sq).filter(|p| p.color != color) {
                    return format!(
                        "{} on {} is in the way; pieces slide past their own colour only",
                        named(p),
                        sq.xy()
                    );
                }
                sq = sq.offset(step);
            }
        }
        let after = moved(pieces, from, to);
        let far = (to.x - from.x).abs().max((to.y - from.y).abs()) > MAX_SLIDE;
        if far || !fits(&after) {
            return "that would leave the 4x4 limit".into();
        }
        if groups(&after, color) > groups(&self.pieces, color).max(1) {
            return "that would split your group: your pieces must keep touching, by a side or \
                    a corner"
                .into();
        }
        if !reach(pieces, from).contains(&to) {
            return format!("the {role} on {} cannot reach {}", from.xy(), to.xy());
        }
        "that is not possible now".into()
    }

    /// Why `color` may not put `role` on `at` (with the pawn's step `then` or the bishop's
    /// `back`).
    fn why_not_put(
        &self,
        color: Color,
        role: Role,
        at: Sq,
        then: Option<Sq>,
        back: Option<Sq>,
    ) -> String {
        if !self.supply[color.index()].contains(&role) {
            let in_play = self
                .pieces
                .values()
                .any(|p| p.color == color && p.role == role);
            return match role {
                Role::King => "your king is always in play; put a piece from your supply".into(),
                _ if in_play => format!("your {} is already in play", role.name()),
                Role::Queen => "your queen has left the game for good".into(),
                _ => format!("there is no {} in your supply", role.name()),
            };
        }
        if then.is_some() && role != Role::Pawn {
            return "only a pawn moves as it comes into play".into();
        }
        if back.is_some() && role != Role::Bishop {
            return "only a bishop sends a piece back as it comes into play".into();
        }
        if !self.put_squares(color).contains(&at) {
            if let Some(&there) = self.pieces.get(&at) {
                return format!("{} stands on {}", named(there), at.xy());
            }
            let king = self.king(color.other());
            if ORTHOGONAL.iter().any(|&d| king.offset(d) == at) {
                return format!(
                    "{} is beside the {} king: no piece may be put above, below, left or right \
                     of the opposing king",
                    at.xy(),
                    color.other().name().to_lowercase()
                );
            }
            let touches = self
                .pieces
                .iter()
                .any(|(s, p)| p.color == color && s.touches(at));
            if !touches {
                return format!(
                    "{} does not touch a piece of yours (by a side or a corner)",
                    at.xy()
                );
            }
            return "that would leave the 4x4 limit".into();
        }
        let mut placed = self.pieces.clone();
        placed.insert(at, Piece { color, role });
        match (role, then, back) {
            (Role::Pawn, Some(to), _) => match self.why_not_moved(color, &placed, at, to) {
                // The step is judged against the pieces before the turn (the pawn is new).
                reason if reason.starts_with("that would") => {
                    reason.replacen("that would", "the pawn's step would", 1)
                }
                reason => reason,
            },
            (Role::Bishop, _, None) => {
                let example = self
                    .legal(color)
                    .into_iter()
                    .find(|a| matches!(a, Action::Put { role: Role::Bishop, at: a_at, .. } if *a_at == at))
                    .map(|a| self.format_action(&a));
                match example {
                    Some(example) => format!(
                        "the bishop must send a piece back to its owner's supply: for example \
                         {example}"
                    ),
                    None => "the bishop must send a piece back to its owner's supply".into(),
                }
            }
            (Role::Bishop, _, Some(b)) => {
                let Some(&piece) = placed.get(&b) else {
                    return format!("there is no piece on {} to send back", b.xy());
                };
                if b == at {
                    return "the bishop cannot send itself back".into();
                }
                if piece.role == Role::King {
                    return "a king is never sent back".into();
                }
                let mut after = placed.clone();
                after.remove(&b);
                let split = [color, color.other()]
                    .into_iter()
                    .find(|&c| groups(&after, c) > groups(&self.pieces, c).max(1));
                match split {
                    Some(c) if c == color => format!(
                        "sending back {} on {} would split your group",
                        named(piece),
                        b.xy()
                    ),
                    Some(c) => format!(
                        "sending back {} on {} would split {}'s group",
                        named(piece),
                        b.xy(),
                        c.name()
                    ),
                    None if !sound(&self.pieces, &after) => "that would leave the 4x4 limit".into(),
                    None => "that is not possible now".into(),
                }
            }
            _ => "that is not possible now".into(),
        }
    }
}
