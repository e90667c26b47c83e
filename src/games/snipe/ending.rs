//! How a Snipe Chess turn ends and the game with it: trapped kings, the last chance, the draw
//! rules; the reasons an outcome stores, the result as players read it ([`describe`]), and the
//! warning for a legal action that completes a losing turn ([`warning`]).

use super::{Action, Phase, Snipe, TURN_LIMIT};
use crate::engine::{Event, Game, Outcome, Seat, describe_white_black};
use crate::games::chess::{Color, color_of, seat_of};

/// The winner closed in the loser's king.
pub const TRAPPED: &str = "trapping the king";
/// The loser closed in their own king (and only it).
pub const OWN_KING: &str = "the opponent closing in their own king";
/// The winner closed in both kings in one turn.
pub const BOTH_KINGS: &str = "trapping both kings at once";
/// Last chances lost: no pawn could reach a rotation space, or no turn of a card freed the king.
pub const NO_PAWN: &str = "trapping the king (no pawn could reach a rotation space)";
pub const NO_ROTATION: &str = "trapping the king (no turn of a card could free it)";
pub const REPETITION: &str = "threefold repetition";

/// The draw at the turn limit: "the 300-turn limit".
pub fn turn_limit() -> String {
    format!("the {TURN_LIMIT}-turn limit")
}

/// The winner and the loser of a won game.
fn sides(outcome: &Outcome) -> Option<(Color, Color)> {
    match outcome.winners() {
        [winner] => color_of(*winner).map(|w| (w, w.other())),
        _ => None,
    }
}

/// The outcome naming who did what: "Black won by trapping White's king", "White won: Black
/// closed in their own king", "White trapped both kings at once and won".
pub fn describe(outcome: &Outcome) -> String {
    let Some((w, l)) = sides(outcome) else {
        return describe_white_black(outcome);
    };
    match outcome.reason.as_str() {
        TRAPPED => format!("{w} won by trapping {l}'s king"),
        OWN_KING => format!("{w} won: {l} closed in their own king"),
        BOTH_KINGS => format!("{w} trapped both kings at once and won"),
        NO_PAWN => format!(
            "{w} won by trapping {l}'s king: no {} pawn could reach a rotation space for the \
             last chance",
            l.name().to_lowercase()
        ),
        NO_ROTATION => format!("{w} won by trapping {l}'s king: no turn of a card could free it"),
        _ => describe_white_black(outcome),
    }
}

/// Why `action` loses at once for the player in `seat`, if it does. The loss is judged when a
/// turn ends, so only an action that ends the turn can be warned: a move that gives no
/// rotation (or, in a last chance, after which no turn of a card can free the king), the last
/// card a piece may turn, `done`, a feather's card exchange. A move onto a rotation space is
/// not warned even if it closes in the mover's king: the cards still to turn may open it again.
pub fn warning(game: &Snipe, seat: Seat, action: &Action) -> Option<String> {
    let (_, outcome) = crate::engine::loses_at_once(game, seat, action)?;
    match (outcome.reason.as_str(), action) {
        (OWN_KING, Action::Done) => {
            Some("ending the turn now leaves your own king closed in, and loses".into())
        }
        (OWN_KING, _) => Some("this closes in your own king and loses".into()),
        (NO_ROTATION, _) => {
            Some("after this move no turn of a card can free your king, so it loses".into())
        }
        _ => None,
    }
}

impl Snipe {
    /// Ends `actor`'s turn: trapped kings (and the last chance), then the draw rules.
    pub(super) fn end_turn(&mut self, actor: Color, events: &mut Vec<Event>) {
        self.last_open = false;
        self.turns += 1;
        let (white, black) = (self.trapped(Color::White), self.trapped(Color::Black));
        let trapped = match (white, black) {
            (true, true) => {
                let outcome = Outcome::winner(seat_of(actor), 2, BOTH_KINGS);
                return self.finish(outcome, events);
            }
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            (false, false) => None,
        };
        if let Some(loser) = trapped {
            if loser == actor {
                let outcome = Outcome::winner(seat_of(actor.other()), 2, OWN_KING);
                return self.finish(outcome, events);
            }
            if !self.options.last_chance || self.last_chance_used[loser.index()] {
                let outcome = Outcome::winner(seat_of(actor), 2, TRAPPED);
                return self.finish(outcome, events);
            }
            self.last_chance_used[loser.index()] = true;
            self.turn = loser;
            self.phase = Phase::LastChance;
            events.push(Event::public(format!(
                "{}'s king is trapped: one last chance to free it with a pawn on a rotation space",
                loser.name()
            )));
            if self.moves(loser, true).is_empty() {
                let outcome = Outcome::winner(seat_of(actor), 2, NO_PAWN);
                self.finish(outcome, events);
            }
            return;
        }
        self.turn = actor.other();
        self.phase = Phase::Move;
        let key = self.position_key();
        self.history.push(key);
        if self.history.iter().filter(|k| **k == key).count() >= 3 {
            self.finish(Outcome::draw(2, REPETITION), events);
        } else if self.turns >= TURN_LIMIT {
            self.finish(Outcome::draw(2, turn_limit()), events);
        }
    }

    pub(super) fn finish(&mut self, outcome: Outcome, events: &mut Vec<Event>) {
        events.push(Event::public(format!(
            "Game over: {}",
            self.describe(&outcome)
        )));
        self.outcome = Some(outcome);
    }
}
