//! Endings decided outside a game's own moves: a resignation and a clock run out. A game keeps
//! the defaults ([`crate::engine::Game::resignation`], [`crate::engine::Game::on_time`]) or
//! overrides them; these are the words and shapes they share.

use super::{Outcome, Seat};

/// The log's text for a seat that ran out of time and was put out while play went on (En Prise
/// with three or more players). No game reads it from a player: only a replay of the log does
/// ([`crate::engine::Game::time_out`]).
pub const TIME_OUT: &str = "!time";

/// The reason of an outcome decided by a clock, and of a draw because the side with time left
/// could not checkmate.
pub const ON_TIME: &str = "time";
pub const ON_TIME_NO_MATERIAL: &str = "time, with too little material left to checkmate";

/// What running out of time does to a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnTime {
    /// The game ends so: the seat loses, or draws when no opponent could still win.
    Finish(Outcome),
    /// The seat is put out and play goes on (recorded in the log as [`TIME_OUT`]).
    Eliminate,
}

/// `seat` finishes last and every other seat of a table of `seats` shares first place: the
/// default for a resignation or a loss on time, at any table size. With two seats it is the
/// other seat's win.
pub fn last_of(seat: Seat, seats: usize, reason: &str) -> Outcome {
    let others: Vec<Seat> = Seat::all(seats).filter(|&s| s != seat).collect();
    Outcome::ranking(vec![others, vec![seat]], reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_of_two_is_the_other_seats_win_and_of_more_a_shared_first_place() {
        for seat in [Seat(0), Seat(1)] {
            let other = Seat(1 - seat.0);
            assert_eq!(
                last_of(seat, 2, ON_TIME),
                Outcome::winner(other, 2, ON_TIME)
            );
        }
        let four = last_of(Seat(2), 4, "resignation");
        assert_eq!(four.winners(), &[Seat(0), Seat(1), Seat(3)]);
        assert_eq!(four.place_of(Seat(2)), Some(1));
        assert!(!four.is_draw());
    }
}
