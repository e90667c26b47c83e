//! The FIDE tournament report format (TRF16), read as the reference pairing engines read it,
//! and their pairings file written back.
//!
//! A player is a `001` line whose fields sit in fixed columns, counted in characters so that
//! accented names do not shift them: the start number in columns 5-8 and, from column 92, ten
//! columns a round: the opponent's start number (4), the colour (`w`, `b` or `-`) and the
//! result. Results: `1 = 0` and `W D L` for games played, `+ -` for forfeits, `U` for the
//! pairing-allocated bye (1 point), `F H Z` for full-, half- and zero-point byes. `XXR` gives
//! the number of rounds and `XXC` the initial colour (`white1` or `black1`); without it the
//! initial colour is inferred from the first round with colours, as bbpPairings does. The
//! round to pair is the one after the last round
//! with a game or an allocated bye; `0000 - H`, `Z` or `F` in that round's columns marks a
//! player who will not play it. Lines may end in LF, CRLF or CR.

use super::dutch::{Colour, Entrant, Past, Tournament};
use super::{Number, Round};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TrfError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("no players (lines starting 001)")]
    NoPlayers,
    #[error("player {0} appears on two lines")]
    Duplicate(Number),
    #[error("player {player}, round {round}: opponent {opponent} is not a player")]
    UnknownOpponent {
        player: Number,
        round: u32,
        opponent: Number,
    },
}

/// One round's cell of a player line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    opponent: Number,
    colour: Option<Colour>,
    result: char,
}

impl Cell {
    /// Whether the round was paired (a game, a forfeit or the allocated bye).
    fn paired(&self) -> bool {
        self.opponent != 0 || self.result == 'U'
    }

    fn past(&self) -> Past {
        let halves = match self.result {
            '1' | 'W' | '+' | 'U' | 'F' => 2,
            '=' | 'D' | 'H' => 1,
            _ => 0,
        };
        match (self.opponent, self.colour, self.result) {
            (_, _, 'U') => Past::Bye { halves },
            (0, _, _) => Past::Absent { halves },
            (_, _, '+') => Past::ForfeitWin { halves },
            (_, _, '-') => Past::ForfeitLoss { halves },
            (opponent, Some(colour), '1' | 'W' | '=' | 'D' | '0' | 'L') => Past::Played {
                opponent,
                colour,
                halves,
            },
            _ => Past::Absent { halves },
        }
    }
}

/// Reads a TRF16 file into the tournament whose next round is to be paired.
pub fn read(text: &str) -> Result<Tournament, TrfError> {
    let mut rounds = 0;
    let mut initial = None;
    let mut players: Vec<(Number, Vec<Option<Cell>>)> = Vec::new();
    for (index, line) in lines(text).enumerate() {
        let bad = |reason: String| TrfError::Line {
            line: index + 1,
            reason,
        };
        if let Some(rest) = line.strip_prefix("XXR") {
            rounds = rest.trim().parse().map_err(|_| {
                bad(format!(
                    "XXR needs a number of rounds, not {:?}",
                    rest.trim()
                ))
            })?;
        } else if let Some(rest) = line.strip_prefix("XXC") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            if words.contains(&"white1") {
                initial = Some(Colour::White);
            } else if words.contains(&"black1") {
                initial = Some(Colour::Black);
            }
        } else if line.starts_with("001") {
            let chars: Vec<char> = line.chars().collect();
            let field = |from: usize, to: usize| -> String {
                chars
                    .get(from - 1..to.min(chars.len()))
                    .map_or(String::new(), |c| c.iter().collect())
            };
            let number: Number = field(5, 8)
                .trim()
                .parse()
                .map_err(|_| bad(format!("no start number in columns 5-8: {:?}", field(5, 8))))?;
            let mut cells = Vec::new();
            let mut start = 92;
            while start <= chars.len() {
                let round = cells.len() + 1;
                let text = field(start, start + 7);
                if text.trim().is_empty() {
                    cells.push(None);
                } else {
                    let opponent = field(start, start + 3).trim().parse().map_err(|_| {
                        bad(format!("round {round}: no opponent number in {text:?}"))
                    })?;
                    let colour = match field(start + 5, start + 5).as_str() {
                        "w" | "W" => Some(Colour::White),
                        "b" | "B" => Some(Colour::Black),
                        _ => None,
                    };
                    let result = field(start + 7, start + 7).chars().next().unwrap_or(' ');
                    if !"10=WDL+-UFHZ ".contains(result) {
                        return Err(bad(format!("round {round}: unknown result {result:?}")));
                    }
                    cells.push(Some(Cell {
                        opponent,
                        colour,
                        result,
                    }));
                }
                start += 10;
            }
            if players.iter().any(|(n, _)| *n == number) {
                return Err(TrfError::Duplicate(number));
            }
            players.push((number, cells));
        }
    }
    if players.is_empty() {
        return Err(TrfError::NoPlayers);
    }
    for (number, cells) in &players {
        for (r, cell) in cells.iter().enumerate() {
            if let Some(c) = cell.filter(|c| c.opponent != 0)
                && !players.iter().any(|(n, _)| *n == c.opponent)
            {
                return Err(TrfError::UnknownOpponent {
                    player: *number,
                    round: r as u32 + 1,
                    opponent: c.opponent,
                });
            }
        }
    }
    let done = players
        .iter()
        .filter_map(|(_, cells)| cells.iter().rposition(|c| c.is_some_and(|c| c.paired())))
        .max()
        .map_or(0, |i| i + 1);
    let initial = initial.unwrap_or_else(|| initial_from_round_one(&players));
    let entrants = players
        .into_iter()
        .map(|(number, cells)| {
            let history = (0..done)
                .map(|r| {
                    cells
                        .get(r)
                        .copied()
                        .flatten()
                        .map_or(Past::Absent { halves: 0 }, |c| c.past())
                })
                .collect();
            let absent = cells.get(done).copied().flatten().is_some();
            Entrant {
                number,
                history,
                present: !absent,
            }
        })
        .collect();
    Ok(Tournament {
        rounds,
        initial,
        entrants,
        lenient_bye: false,
    })
}

/// The lines of a file ending in LF, CRLF or CR alone.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .flat_map(|line| line.strip_suffix('\r').unwrap_or(line).split('\r'))
}

/// The initial colour, as the first round with a colour shows it (as bbpPairings infers it):
/// counting, in start number order, the players who were paired in that round or before, the
/// first of them with a colour in that round had the initial colour if counted at an odd
/// place (1st, 3rd...), the other one if at an even place.
fn initial_from_round_one(players: &[(Number, Vec<Option<Cell>>)]) -> Colour {
    let coloured = |c: &Option<Cell>| c.is_some_and(|c| c.colour.is_some());
    let Some(first) = players
        .iter()
        .filter_map(|(_, cells)| cells.iter().position(coloured))
        .min()
    else {
        return Colour::White;
    };
    let mut sorted: Vec<&(Number, Vec<Option<Cell>>)> = players.iter().collect();
    sorted.sort_by_key(|(n, _)| *n);
    let mut place = 0;
    for (_, cells) in sorted {
        let paired = cells
            .iter()
            .take(first + 1)
            .any(|c| c.is_some_and(|c| c.paired()));
        if !paired {
            continue;
        }
        if let Some(colour) = cells.get(first).copied().flatten().and_then(|c| c.colour) {
            return if place % 2 == 0 {
                colour
            } else {
                colour.other()
            };
        }
        place += 1;
    }
    Colour::White
}

/// The pairings file the reference engines write: the number of pairs, then `white black`
/// start numbers a line, the bye as `player 0`.
pub fn write_pairs(round: &Round) -> String {
    let mut out = format!("{}\n", round.games.len() + usize::from(round.bye.is_some()));
    for game in &round.games {
        out.push_str(&format!("{} {}\n", game.white, game.black));
    }
    if let Some(bye) = round.bye {
        out.push_str(&format!("{bye} 0\n"));
    }
    out
}
