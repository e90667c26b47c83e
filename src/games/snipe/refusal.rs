//! Why a Snipe Chess action is refused now: one reason, the one that applies, in a player's
//! words, with a real example of what may be done instead where that helps.

use super::{Action, CardAt, Phase, Snipe, Turn, home_row, on_board, square};
use crate::board::Sq;
use crate::engine::Game;
use crate::games::chess::{Color, Role};
use crate::games::snipe::deck::forest;

impl Snipe {
    /// The text of `color`'s first legal action, as an example.
    fn example(&self, color: Color) -> String {
        self.legal(color)
            .first()
            .map_or_else(String::new, |a| self.format_action(a))
    }

    /// `reason`, followed by an example of a legal action when there is one.
    fn with_example(&self, color: Color, reason: &str) -> String {
        match self.example(color) {
            example if example.is_empty() => reason.to_string(),
            example => format!("{reason}, for example {example}"),
        }
    }

    /// Why `action` is not legal for `color` now.
    pub(super) fn why_illegal(&self, color: Color, action: &Action) -> String {
        match (&self.phase, action) {
            (Phase::Setup, Action::Place { role, at }) => self.why_not_placed(color, *role, *at),
            (Phase::Setup, _) => {
                self.with_example(color, "the pieces are still being placed: place one")
            }
            (Phase::Move | Phase::LastChance, Action::Move { from, to }) => {
                self.why_not_moved(color, *from, *to)
            }
            (Phase::LastChance, _) => self.with_example(
                color,
                "your king is trapped: your last chance is a pawn move onto a rotation space",
            ),
            (Phase::Move, Action::Place { .. }) => {
                self.with_example(color, "every piece is placed: move one")
            }
            (Phase::Move, Action::Rotate { .. }) => {
                "a card turns only in the turn a piece moves onto a rotation space".into()
            }
            (Phase::Move, Action::Replace { .. }) if self.options.feather => {
                "a card is replaced only in the turn your king moves onto a snipe feather".into()
            }
            (Phase::Move, Action::Replace { .. }) => {
                "replacing a card is the feather rule, which this game does not use".into()
            }
            (Phase::Move, Action::Done) => "you must move a piece".into(),
            (
                Phase::Rotate {
                    angle,
                    turned,
                    last_chance,
                    ..
                },
                Action::Rotate { card, turn },
            ) => {
                if turned.contains(card) {
                    format!(
                        "the card at {} has already turned this turn",
                        square(card.corner())
                    )
                } else if (*angle == 180) != (*turn == Turn::Half) {
                    format!(
                        "this rotation space turns cards by {angle} degrees: write rotate {} {}",
                        square(card.corner()),
                        if *angle == 180 { "180" } else { "cw or ccw" }
                    )
                } else if *last_chance {
                    "that turn does not free your king; choose one that does".into()
                } else {
                    "that card cannot turn now".into()
                }
            }
            (Phase::Rotate { .. }, Action::Done) => self.with_example(
                color,
                "your king is still trapped: a turn of a card that frees it must be taken",
            ),
            (Phase::Rotate { angle, .. }, _) => format!(
                "your piece is on a {angle}-degree rotation space: turn a card (rotate c3 {}) \
                 or end the turn (done)",
                if *angle == 180 { "180" } else { "cw" }
            ),
            (Phase::Feather, Action::Replace { card, with }) => {
                if self.card_has_piece(&self.pieces, *card) {
                    format!(
                        "the card at {} has a piece on it; only an empty card may be replaced",
                        square(card.corner())
                    )
                } else if !self.stock.contains(with) {
                    format!(
                        "the {} lies in the forest already; only an unused card can come in",
                        forest()[usize::from(*with)].name
                    )
                } else {
                    "that card cannot be replaced now".into()
                }
            }
            (Phase::Feather, _) => "your king is on a snipe feather: replace an empty card \
                                    (replace c3 with Meadow) or end the turn (done)"
                .into(),
        }
    }

    /// Why `color` may not place `role` on `at` in the setup.
    fn why_not_placed(&self, color: Color, role: Role, at: Sq) -> String {
        if !self.to_place(color).contains(&role) {
            return match role {
                Role::King => "your king is already placed".into(),
                Role::Pawn => "your four pawns are already placed".into(),
                _ => "each side has a king and four pawns".into(),
            };
        }
        let Some(space) = self.space(at) else {
            return format!("{} is off the board", square(at));
        };
        let card = CardAt::of(at);
        if card.cy != home_row(color) {
            let ranks = match color {
                Color::White => "1 and 2",
                Color::Black => "9 and 10",
            };
            return format!(
                "{} is not on your home row of cards (ranks {ranks}): place your pieces there",
                square(at)
            );
        }
        if let Some(s) = card.squares().iter().find(|s| self.pieces.contains_key(s)) {
            return format!(
                "that card already holds your {} on {}; one piece per card",
                self.pieces[s].role.name(),
                square(*s)
            );
        }
        if space.is_tree() {
            return format!("{} is a tree", square(at));
        }
        match role {
            Role::King => "your king would have no free space beside it".into(),
            _ => "that would leave your king no free space beside it".into(),
        }
    }

    /// Why the piece on `from` may not move to `to` (in a move or a last chance).
    fn why_not_moved(&self, color: Color, from: Sq, to: Sq) -> String {
        let Some(piece) = self.pieces.get(&from) else {
            return format!("there is no piece on {}", square(from));
        };
        let name = piece.role.name();
        if piece.color != color {
            return format!("the {name} on {} is not yours", square(from));
        }
        if self.phase == Phase::LastChance && piece.role != Role::Pawn {
            return "your king is trapped: your last chance is a pawn move onto a rotation space"
                .into();
        }
        if from == to {
            return format!(
                "the {name} is already on {}; move at least one space",
                square(to)
            );
        }
        if !on_board(to) {
            return format!("{} is off the board", square(to));
        }
        if from.x != to.x && from.y != to.y {
            return "pieces move in a straight line along a rank or a file, never diagonally"
                .into();
        }
        let step = crate::board::Offset {
            dx: (to.x - from.x).signum() as i8,
            dy: (to.y - from.y).signum() as i8,
        };
        let mut sq = from;
        while sq != to {
            sq = sq.offset(step);
            if !self.open(sq) && sq == to {
                return format!("{} is a tree", square(sq));
            }
            if !self.open(sq) {
                return format!("a tree on {} blocks the way", square(sq));
            }
            if let Some(p) = self.pieces.get(&sq) {
                if p.color != color {
                    let ending = if sq == to {
                        "; nothing is captured"
                    } else {
                        ""
                    };
                    return format!(
                        "the opponent's {} on {} blocks the way{ending}",
                        p.role.name(),
                        square(sq)
                    );
                }
                if sq == to {
                    return format!(
                        "your {} stands on {}; pieces pass their own colour but do not stop on it",
                        p.role.name(),
                        square(sq)
                    );
                }
            }
        }
        if self.phase == Phase::LastChance {
            return format!(
                "{} is not a rotation space, and your last chance is a pawn move onto one",
                square(to)
            );
        }
        "that move is not possible now".into()
    }
}
