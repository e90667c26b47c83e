//! A season written as a TRF16 file, the FIDE tournament report format that pairing programs
//! read (the reader, with the column layout, is [`super::trf`]): an `012` line with the
//! event's name, `XXR` with the rounds, `XXC` with the first player's colour, and a `001` line
//! a player with their results a round. What this writes, [`super::trf::read`] reads back.

use super::Number;
use super::dutch::Colour;

/// One round of a player's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// A game over the board; `halves` is what this player scored (2, 1, 0).
    Game {
        opponent: Number,
        colour: Colour,
        halves: u32,
    },
    /// A game not played: won (`+`) or lost (`-`) by forfeit against `opponent`.
    Forfeit { opponent: Number, won: bool },
    /// The pairing-allocated bye (`U`, a point).
    Bye,
    /// A round without a game for `halves` half points (`F` 2, `H` 1, `Z` 0): an announced
    /// absence, a round before the player joined, or one after they left.
    Out { halves: u32 },
}

impl Played {
    /// Half points this round gave.
    pub fn halves(self) -> u32 {
        match self {
            Played::Game { halves, .. } | Played::Out { halves } => halves,
            Played::Forfeit { won, .. } => 2 * u32::from(won),
            Played::Bye => 2,
        }
    }

    /// The ten columns of this round: two blanks, then `0012 w 1`.
    fn cell(self) -> String {
        let (opponent, colour, result) = match self {
            Played::Game {
                opponent,
                colour,
                halves,
            } => {
                let result = ['0', '=', '1'][halves.min(2) as usize];
                let colour = match colour {
                    Colour::White => 'w',
                    Colour::Black => 'b',
                };
                (opponent, colour, result)
            }
            Played::Forfeit { opponent, won } => (opponent, '-', if won { '+' } else { '-' }),
            Played::Bye => (0, '-', 'U'),
            Played::Out { halves } => (0, '-', ['Z', 'H', 'F'][halves.min(2) as usize]),
        };
        format!("  {opponent:04} {colour} {result}")
    }
}

/// A player as their `001` line gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub number: Number,
    pub name: String,
    pub rank: Option<u32>,
    /// One a round played so far.
    pub rounds: Vec<Played>,
    /// Set when the player will not play the next round (announced away: `H` for the half
    /// point a Swiss gives; withdrawn: `Z`): written in that round's columns.
    pub next: Option<Played>,
}

/// The name's columns: 33 characters, control characters made spaces.
fn name_field(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(33)
        .collect();
    format!("{clean:<33}")
}

/// Half points as the file writes points: 5 is `2.5`.
fn points(halves: u32) -> String {
    format!("{}.{}", halves / 2, if halves % 2 == 1 { 5 } else { 0 })
}

/// The file for a tournament called `event` of `rounds` rounds whose first player had White
/// in round 1 when `white1`.
pub fn write(event: &str, rounds: u32, white1: bool, entries: &[Entry]) -> String {
    let event: String = event.chars().filter(|c| !c.is_control()).collect();
    let mut out = format!(
        "012 {event}\nXXR {rounds}\nXXC {}\n",
        if white1 { "white1" } else { "black1" }
    );
    for e in entries {
        let total: u32 = e.rounds.iter().map(|r| r.halves()).sum();
        let rank = e.rank.map_or(String::new(), |r| r.to_string());
        // Columns 1-91: 001, start number, sex, title, name, rating, federation, FIDE
        // number, birth date, points, rank; the blank ones left blank.
        out.push_str(&format!(
            "001 {:>4}      {} {:4} {:3} {:11} {:10} {:>4} {:>4}",
            e.number,
            name_field(&e.name),
            "",
            "",
            "",
            "",
            points(total),
            rank
        ));
        for round in e.rounds.iter().chain(&e.next) {
            out.push_str(&round.cell());
        }
        out.push('\n');
    }
    out
}
