//! Tournament maths for leagues, pure: who plays whom in each round (round-robin Berger
//! tables), standings with tiebreaks from the results, and ratings. No IO, no clocks: the
//! table's league service stores what these decide.

pub mod berger;
pub mod dutch;
mod dutch_brackets;
pub mod matching;
pub mod pods;
pub mod ratings;
pub mod standings;
pub mod trf;
pub mod trf_write;

/// A player's start number in a tournament, from 1.
pub type Number = u32;

/// One game of a round: `white` plays `black` (seat 1 and seat 2 of a two-player game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pairing {
    pub white: Number,
    pub black: Number,
}

/// A round's pairings, and the player with no opponent (the bye), if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Pairing>,
    pub bye: Option<Number>,
}

#[cfg(test)]
mod tests;
