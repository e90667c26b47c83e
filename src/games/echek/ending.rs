//! How an Echek game ends, in words: the reasons an outcome stores, the result as players read
//! it ([`describe`]), and the warning for a legal action that loses on the spot ([`warning`]).

use super::{Action, Echek};
use crate::engine::{Outcome, Seat, describe_white_black};
use crate::games::chess::{Color, color_of};

/// The winner surrounded the loser's king.
pub const SURROUNDED: &str = "surrounding the king";
/// The loser surrounded their own king (and only it).
pub const OWN_KING: &str = "the opponent closing in their own king";
/// The loser surrounded both kings with one action.
pub const BOTH_KINGS: &str = "the opponent surrounding both kings at once";
/// Draws.
pub const STUCK: &str = "neither player can act";
pub const REPETITION: &str = "threefold repetition";
pub const QUIET: &str = "fifty turns each without a piece put in play or a queen leaving";

/// The winner and the loser of a won game.
fn sides(outcome: &Outcome) -> Option<(Color, Color)> {
    match outcome.winners() {
        [winner] => color_of(*winner).map(|w| (w, w.other())),
        _ => None,
    }
}

/// The outcome naming who did what: "White won by surrounding Black's king", "White won:
/// Black closed in their own king", "Black surrounded both kings at once and lost".
pub fn describe(outcome: &Outcome) -> String {
    match (sides(outcome), outcome.reason.as_str()) {
        (Some((w, l)), SURROUNDED) => format!("{w} won by surrounding {l}'s king"),
        (Some((w, l)), OWN_KING) => format!("{w} won: {l} closed in their own king"),
        (Some((_, l)), BOTH_KINGS) => format!("{l} surrounded both kings at once and lost"),
        (None, STUCK) if outcome.is_draw() => "Draw: neither player can act".into(),
        _ => describe_white_black(outcome),
    }
}

/// Why `action` loses at once for the player in `seat`, if it does: it surrounds their own
/// king, or both kings. None for any other action (including one that is not legal now).
pub fn warning(game: &Echek, seat: Seat, action: &Action) -> Option<String> {
    let color = color_of(seat)?;
    let (after, outcome) = crate::engine::loses_at_once(game, seat, action)?;
    match (outcome.reason.as_str(), action) {
        (OWN_KING, Action::Swap) => Some(format!(
            "this puts your king on {}, closed in on every side, and loses",
            after.king(color).xy()
        )),
        (OWN_KING, _) => Some("this closes in your own king and loses".into()),
        (BOTH_KINGS, _) => {
            Some("this surrounds both kings at once, and the player who does that loses".into())
        }
        _ => None,
    }
}
