//! Why an En Prise action is refused: one reason, the rule that applies, in a player's words,
//! naming the pieces and squares involved ("Red's rook on 1,0 attacks that square").

use super::{Action, Blocked, Board, EnPrise, Phase, Piece, Variant, colour, sq_text};
use crate::board::{Offset, Sq};
use crate::engine::{RuleError, Seat};
use crate::games::chess::Role;

/// "Black's rook", or "your own rook" when it is `seat`'s.
fn whose(piece: Piece, seat: Seat) -> String {
    if piece.owner == seat {
        format!("your own {}", piece.role.name())
    } else {
        format!("{}'s {}", colour(piece.owner), piece.role.name())
    }
}

impl EnPrise {
    pub(super) fn refuse(text: impl Into<String>) -> RuleError {
        RuleError::Illegal(text.into())
    }

    /// Why `action` is not legal for `seat` now, `seat` being to act: the one rule that forbids
    /// it. Never names a card `seat` may not see.
    pub(super) fn why_illegal(&self, seat: Seat, action: &Action) -> String {
        let current = self.name(self.current);
        let cards = self.plans[self.current.index()].len();
        match (action, &self.phase) {
            (Action::Ready, Phase::Memorise { .. }) => "you are already ready".into(),
            (Action::Ready, _) if self.options.variant != Variant::Memory => {
                "ready is for the Memory variant, to end the time the plans are on show".into()
            }
            (Action::Ready, _) => "the plans are no longer on show".into(),
            (_, Phase::Memorise { .. }) => {
                "the plans are on show: say ready when you have memorised them".into()
            }
            (Action::Pick { card }, Phase::Choosing { .. }) => match card.checked_sub(1) {
                Some(i) if i < cards => {
                    let role = self.plans[self.current.index()][i].role;
                    format!(
                        "card {card} is the face-up {}, which cannot be placed anywhere now: \
                         pick another card",
                        role.name()
                    )
                }
                _ => {
                    format!("pick one of {current}'s cards by its position, card 1 to card {cards}")
                }
            },
            (_, Phase::Choosing { chooser }) if *chooser == seat => {
                format!("pick which card {current} places: card 1 to card {cards}")
            }
            (_, Phase::Choosing { chooser }) => format!(
                "{} must first pick which card {current} places",
                self.name(*chooser)
            ),
            (Action::Move { .. } | Action::King { .. } | Action::Draw, Phase::Placing { card }) => {
                let role = self.plans[seat.index()][*card].role;
                format!(
                    "place the revealed {} first, for example {}@x,y",
                    role.name(),
                    role.letter()
                )
            }
            (Action::Escape { .. } | Action::NoEscape, p) if *p != Phase::Escape => {
                "an escape square can be added only right after summoning your king".into()
            }
            (Action::Escape { at, card }, Phase::Escape) => {
                self.why_escape_illegal(seat, *at, *card)
            }
            (_, Phase::Escape) => {
                "your king is summoned: add an escape square (escape x,y) or say no escape".into()
            }
            (Action::Pick { .. }, _) => "there is no card to pick now".into(),
            (_, _) if self.must_summon(seat) && !matches!(action, Action::King { .. }) => {
                self.must_summon_text(seat)
            }
            (Action::Move { from, to }, _) => self.why_move_illegal(seat, *from, *to),
            (Action::King { at }, _) => self.why_king_illegal(seat, *at),
            (Action::Draw, _) => self.why_draw_illegal(seat),
            (Action::Place { .. }, Phase::Turn) if self.plans[seat.index()].is_empty() => {
                "your battleplan is empty: move a piece".into()
            }
            (Action::Place { .. }, Phase::Turn) if self.needs_declaration(seat) => {
                "you choose to place before your card is revealed: say place".into()
            }
            (Action::Place { at, face_down }, _) => self.why_place_illegal(seat, *at, *face_down),
            (Action::Escape { .. } | Action::NoEscape, _) => "that is not possible now".into(),
        }
    }

    /// The player must summon their king this turn: who made them.
    fn must_summon_text(&self, seat: Seat) -> String {
        match self.opposing_kings(seat).first() {
            Some((owner, at)) => format!(
                "{}'s king is on {}: you must summon yours this turn (K@x,y)",
                self.name(*owner),
                sq_text(*at)
            ),
            None => "you must summon your king this turn (K@x,y)".into(),
        }
    }

    fn why_draw_illegal(&self, seat: Seat) -> String {
        let plan = &self.plans[seat.index()];
        let Some(next) = plan.first() else {
            return "your battleplan is empty: move a piece".into();
        };
        match self.options.variant {
            Variant::Open | Variant::Blind => format!(
                "in the {} variant you place your next card directly, for example {}@x,y",
                self.options.variant.name(),
                next.role.letter()
            ),
            Variant::Memory if self.can_place(seat, next.role) => format!(
                "your next card, a {}, is already face-up: place it directly, for example {}@x,y",
                next.role.name(),
                next.role.letter()
            ),
            Variant::Memory => format!(
                "your next card, the face-up {}, cannot be placed anywhere now: move a piece or \
                 summon your king",
                next.role.name()
            ),
            Variant::Casino => {
                "none of your remaining cards can be placed anywhere now: move a piece or summon \
                 your king"
                    .into()
            }
        }
    }

    fn why_escape_illegal(&self, seat: Seat, at: Sq, card: Option<usize>) -> String {
        let casino = self.options.variant == Variant::Casino;
        let cards = self.plans[seat.index()].len();
        let s = sq_text(at);
        match card {
            None if casino => {
                return format!(
                    "say which card to give up for it: escape {s} card 1 to escape {s} card {cards}"
                );
            }
            Some(_) if !casino => {
                return "the escape square always takes your next card; leave out the card number"
                    .into();
            }
            Some(n) if n == 0 || n > cards => {
                return format!("you have {cards} cards: pick card 1 to card {cards}");
            }
            _ => {}
        }
        if self.board.exists(at) {
            return format!("{s} already exists; an escape square is a new square");
        }
        if !self.board.frontier().contains(&at) {
            return format!("{s} does not touch the board");
        }
        let mut scratch = self.board.clone();
        match self.placement_problem(&mut scratch, seat, Role::Pawn, at, true) {
            Some(problem) => self.blocked_text(problem, seat, Role::Pawn, at, true),
            None => "that is not possible now".into(),
        }
    }

    fn why_move_illegal(&self, seat: Seat, from: Sq, to: Sq) -> String {
        let (f, t) = (sq_text(from), sq_text(to));
        let piece = match self.board.get(from) {
            None => return format!("there is no square at {f}"),
            Some(None) => return format!("{f} is a vacant square: there is no piece there"),
            Some(Some(p)) if p.owner != seat => {
                return format!(
                    "the {} on {f} is {}'s, not yours",
                    p.role.name(),
                    colour(p.owner)
                );
            }
            Some(Some(p)) => p,
        };
        let name = piece.role.name();
        if piece.role == Role::Pawn {
            return "pawns never move in En Prise".into();
        }
        if from == to {
            return format!("your {name} is already on {f}");
        }
        if !self.board.exists(to) {
            return format!(
                "there is no square at {t}: pieces move only over squares already on the table"
            );
        }
        if let Some(Some(target)) = self.board.get(to) {
            if target.owner == seat {
                return format!("your own {} stands on {t}", target.role.name());
            }
            if target.role == Role::King {
                return format!(
                    "kings are never captured: {}'s king on {t} can only be checked",
                    colour(target.owner)
                );
            }
            if !self.sides().opposed(target.owner, seat) {
                return format!(
                    "the {} on {t} belongs to your partner {}: partners never capture each other",
                    target.role.name(),
                    colour(target.owner)
                );
            }
        }
        if !self.board.targets(from, self.sides()).contains(&to) {
            return self.why_unreachable(seat, piece, from, to);
        }
        let mut after = self.board.clone();
        after.set(to, Some(piece));
        after.set(from, None);
        self.own_king_text(&after, seat, (piece.role == Role::King).then_some(to))
    }

    /// Why `piece` on `from` cannot go to `to` (an existing square not held by its side).
    fn why_unreachable(&self, seat: Seat, piece: Piece, from: Sq, to: Sq) -> String {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        let name = piece.role.name();
        let (straight, diagonal) = (dx == 0 || dy == 0, dx.abs() == dy.abs());
        match piece.role {
            Role::King => return "a king moves one square at a time".into(),
            Role::Knight if (dx.abs(), dy.abs()) != (1, 2) && (dx.abs(), dy.abs()) != (2, 1) => {
                return "a knight moves in an L: two squares one way, then one square across"
                    .into();
            }
            Role::Knight => {
                return format!(
                    "both L-shaped paths from {} to {} cross a gap in the board: a knight jumps \
                     over pieces, but not over gaps",
                    sq_text(from),
                    sq_text(to)
                );
            }
            Role::Rook if !straight => return "a rook moves along a row or a column".into(),
            Role::Bishop if !diagonal => return "a bishop moves along a diagonal".into(),
            Role::Queen if !straight && !diagonal => {
                return "a queen moves along a row, a column or a diagonal".into();
            }
            _ => {}
        }
        let step = Offset {
            dx: dx.signum() as i8,
            dy: dy.signum() as i8,
        };
        let mut sq = from.offset(step);
        while sq != to {
            match self.board.get(sq) {
                None => {
                    return format!(
                        "there is no square at {} on the way: pieces never cross a gap",
                        sq_text(sq)
                    );
                }
                Some(Some(p)) => {
                    return format!(
                        "the {name}'s way to {} is blocked by {} on {}",
                        sq_text(to),
                        whose(p, seat),
                        sq_text(sq)
                    );
                }
                Some(None) => sq = sq.offset(step),
            }
        }
        format!(
            "the {name} on {} cannot reach {}",
            sq_text(from),
            sq_text(to)
        )
    }

    /// The refusal when `seat`'s king is in check on `after`. `king_to` is where the king
    /// itself would stand when it is the piece that moves or is summoned.
    fn own_king_text(&self, after: &Board, seat: Seat, king_to: Option<Sq>) -> String {
        let sides = self.sides();
        let Some(king) = after.king_of(seat) else {
            return "that would leave your king in check".into();
        };
        let attacker = after.attacker(king, sides, |owner| sides.opposed(owner, seat));
        match (attacker, king_to) {
            (Some((at, p)), Some(_)) => {
                format!("{} on {} attacks that square", whose(p, seat), sq_text(at))
            }
            (Some((at, p)), None) => format!(
                "your king on {} would be in check from {} on {}",
                sq_text(king),
                whose(p, seat),
                sq_text(at)
            ),
            (None, _) => "that would leave your king in check".into(),
        }
    }

    fn why_king_illegal(&self, seat: Seat, at: Sq) -> String {
        if !self.king_in_hand[seat.index()] {
            return match self.board.king_of(seat) {
                Some(k) => format!("your king is already on the board, on {}", sq_text(k)),
                None => "your king is no longer in your hand".into(),
            };
        }
        if !self.must_summon(seat) && self.board.vacant_count() < 6 {
            return format!(
                "a king may be summoned once there are at least 6 vacant squares (there are {})",
                self.board.vacant_count()
            );
        }
        self.why_square_refused(seat, Role::King, at, false)
    }

    fn why_place_illegal(&self, seat: Seat, at: Sq, face_down: bool) -> String {
        let Some(role) = self.card_to_place(seat) else {
            return "you have no card to place".into();
        };
        if face_down && role != Role::Pawn {
            return format!(
                "only a pawn may go face-down; your card is a {}",
                role.name()
            );
        }
        self.why_square_refused(seat, role, at, face_down)
    }

    /// Why a card of `role` may not go on `at`, face-up or face-down.
    fn why_square_refused(&self, seat: Seat, role: Role, at: Sq, face_down: bool) -> String {
        let s = sq_text(at);
        match self.board.get(at) {
            Some(Some(p)) => return format!("{s} is taken: {} stands there", whose(p, seat)),
            Some(None) if face_down => {
                return format!("{s} is already a vacant square; a face-down pawn makes a new one");
            }
            None if !self.board.frontier().contains(&at) => {
                return format!("{s} does not touch the board");
            }
            _ => {}
        }
        let mut scratch = self.board.clone();
        match self.placement_problem(&mut scratch, seat, role, at, face_down) {
            Some(problem) => self.blocked_text(problem, seat, role, at, face_down),
            None => "that is not possible now".into(),
        }
    }

    /// A placement rule broken by putting `role` on `at`, in words.
    fn blocked_text(
        &self,
        problem: Blocked,
        seat: Seat,
        role: Role,
        at: Sq,
        face_down: bool,
    ) -> String {
        let mut after = self.board.clone();
        let piece = Piece { owner: seat, role };
        after.set(at, (!face_down).then_some(piece));
        let king = role == Role::King;
        let new = if king { "your king" } else { "a new piece" };
        match problem {
            Blocked::OwnKing => self.own_king_text(&after, seat, king.then_some(at)),
            Blocked::Touches(owner, k) => format!(
                "{new} may not touch {}'s king on {}",
                self.name(owner),
                sq_text(k)
            ),
            Blocked::Checks(owner, k) => format!(
                "{new} may not give check: a {} on {} would check {}'s king on {}",
                role.name(),
                sq_text(at),
                self.name(owner),
                sq_text(k)
            ),
            Blocked::Opens(owner, k) => {
                let sides = self.sides();
                let ours = |o: Seat| !sides.opposed(o, seat);
                let by = after
                    .attacker(k, sides, ours)
                    .map_or("one of your pieces".to_string(), |(sq, p)| {
                        format!("{} on {}", whose(p, seat), sq_text(sq))
                    });
                format!(
                    "{new} may not give check: a card on {} would let {by} check {}'s king on {}",
                    sq_text(at),
                    self.name(owner),
                    sq_text(k)
                )
            }
        }
    }
}
