//! How a game ended, for 2 to 4 players.

use super::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The final standing of every seat as places, best first. Seats sharing a place tied.
///
/// One shape covers every ending: a winner (`[[w], [rest]]`), a draw (`[[everyone]]`), a ranking
/// by elimination (`[[last standing], [out third], [out second], [out first]]`) and a team win
/// (`[[a, c], [b, d]]`). Rating systems take places directly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub places: Vec<Vec<Seat>>,
    /// Why it ended, in player-facing words: "checkmate", "stalemate", "threefold repetition".
    pub reason: String,
}

impl Outcome {
    /// `winner` first; every other seat of `seats` shares second place.
    pub fn winner(winner: Seat, seats: usize, reason: impl Into<String>) -> Self {
        let rest: Vec<Seat> = Seat::all(seats).filter(|&s| s != winner).collect();
        Outcome {
            places: vec![vec![winner], rest],
            reason: reason.into(),
        }
    }

    /// Every seat shares first place.
    pub fn draw(seats: usize, reason: impl Into<String>) -> Self {
        Outcome {
            places: vec![Seat::all(seats).collect()],
            reason: reason.into(),
        }
    }

    /// Places given best first (for example the last player standing, then the players in the
    /// reverse order of their elimination).
    pub fn ranking(places: Vec<Vec<Seat>>, reason: impl Into<String>) -> Self {
        Outcome {
            places,
            reason: reason.into(),
        }
    }

    /// One team wins, the others share second place.
    pub fn team_win(team: Vec<Seat>, others: Vec<Seat>, reason: impl Into<String>) -> Self {
        Outcome {
            places: vec![team, others],
            reason: reason.into(),
        }
    }

    pub fn is_draw(&self) -> bool {
        self.places.len() == 1
    }

    /// The seats in first place; empty for a draw.
    pub fn winners(&self) -> &[Seat] {
        if self.is_draw() { &[] } else { &self.places[0] }
    }

    /// The place of `seat`, 0 being first, or None if the seat is not listed.
    pub fn place_of(&self, seat: Seat) -> Option<usize> {
        self.places.iter().position(|p| p.contains(&seat))
    }
}

/// How a win came about after "won": "by checkmate", and "on time" for the loss on time
/// (whose reason is "time"), the one wording every game and place uses.
fn how(reason: &str) -> String {
    if reason == "time" {
        "on time".into()
    } else {
        format!("by {reason}")
    }
}

/// The outcome of a two-seat game whose seats are White and Black: "White won by checkmate",
/// "Draw by stalemate". Other shapes fall back to seat numbers.
pub fn describe_white_black(outcome: &Outcome) -> String {
    let colour = |seat: Seat| match seat.0 {
        0 => Some("White"),
        1 => Some("Black"),
        _ => None,
    };
    match outcome.winners() {
        [seat] => match colour(*seat) {
            Some(colour) => format!("{colour} won {}", how(&outcome.reason)),
            None => outcome.to_string(),
        },
        _ if outcome.is_draw() => format!("Draw by {}", outcome.reason),
        _ => outcome.to_string(),
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_draw() {
            return write!(f, "draw by {}", self.reason);
        }
        let names: Vec<String> = self.winners().iter().map(Seat::to_string).collect();
        write!(f, "{} won {}", names.join(" and "), how(&self.reason))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_on_time_reads_won_on_time_in_every_form() {
        let white = Outcome::winner(Seat(0), 2, "time");
        assert_eq!(describe_white_black(&white), "White won on time");
        assert_eq!(
            describe_white_black(&Outcome::winner(Seat(1), 2, "time")),
            "Black won on time"
        );
        assert_eq!(white.to_string(), "seat 1 won on time");
        assert_eq!(
            describe_white_black(&Outcome::winner(Seat(0), 2, "checkmate")),
            "White won by checkmate"
        );
    }

    #[test]
    fn shapes_of_outcomes() {
        let win = Outcome::winner(Seat(1), 3, "checkmate");
        assert_eq!(win.winners(), &[Seat(1)]);
        assert_eq!(win.place_of(Seat(0)), Some(1));
        assert_eq!(win.place_of(Seat(2)), Some(1));
        assert!(!win.is_draw());

        let draw = Outcome::draw(2, "stalemate");
        assert!(draw.is_draw());
        assert!(draw.winners().is_empty());
        assert_eq!(draw.place_of(Seat(1)), Some(0));
        assert_eq!(draw.to_string(), "draw by stalemate");

        let ranking = Outcome::ranking(
            vec![vec![Seat(2)], vec![Seat(0)], vec![Seat(3)], vec![Seat(1)]],
            "last player standing",
        );
        assert_eq!(ranking.place_of(Seat(1)), Some(3));

        let teams = Outcome::team_win(vec![Seat(0), Seat(2)], vec![Seat(1), Seat(3)], "alliance");
        assert_eq!(teams.winners(), &[Seat(0), Seat(2)]);
        assert_eq!(teams.to_string(), "seat 1 and seat 3 won by alliance");
    }
}
