//! The FIDE Dutch Swiss system (handbook C.04.3, 2025 revision) for two-player games, pure.
//!
//! deckmate pairs as the reference engine bbpPairings (v6) does. Players are ranked by score,
//! then by start number, and paired bracket by bracket from the top score down. Every
//! criterion of the handbook becomes a field of one wide edge weight, so that a matching of
//! greatest total weight (`matching.rs`) is the best pairing; how the weight is built and how
//! each bracket is settled is in `dutch_brackets.rs`. This file works out what the pairing
//! needs to know about each player, and the colours of the games chosen.
//!
//! - Rematches: only games played over the board count (C1). Forfeits and byes do not.
//! - The pairing-allocated bye (C2): never to a player who already had it, or who scored a
//!   win's points without playing (a forfeit win or a full-point bye).
//! - Colour preferences (A.6) from the games played only: absolute with a colour difference
//!   above 1 or the same colour twice running, strong with a difference of 1, mild otherwise.
//!   Two players with the same absolute preference never meet (C3) unless this is the last
//!   round and one of them is a topscorer (more than half the maximum score).
//! - Floats: a player who did not play a round but scored in it floated down in it; one who
//!   lost it without playing did not float.
//! - Colours (E.1 to E.5): both preferences when compatible; else the absolute one, the wider
//!   colour difference between two absolute ones; else the strong one; else alternate from the
//!   last round in which the two had different colours; else the higher ranked player's
//!   preference. With no preference on either side, the higher ranked player gets the initial
//!   colour when their rank (start number order) is odd.
//!
//! Not supported: accelerations, forbidden pairs, point systems other than 1-½-0.

use super::dutch_brackets;
use super::{Number, Pairing, Round};

/// The colour of a two-player game's seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// What a player had in one earlier round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Past {
    /// A game played over the board.
    Played {
        opponent: Number,
        colour: Colour,
        halves: u32,
    },
    /// The pairing-allocated bye.
    Bye { halves: u32 },
    /// A game won because the opponent did not play it.
    ForfeitWin { halves: u32 },
    /// A game lost because this player did not play it: they were paired, so unlike an
    /// absence it keeps them counted in the ranking of the tournament's players.
    ForfeitLoss { halves: u32 },
    /// Any other round without a game: an announced absence, a round before the player
    /// joined.
    Absent { halves: u32 },
}

impl Past {
    pub fn halves(self) -> u32 {
        match self {
            Past::Played { halves, .. }
            | Past::Bye { halves }
            | Past::ForfeitWin { halves }
            | Past::ForfeitLoss { halves }
            | Past::Absent { halves } => halves,
        }
    }
}

/// A player of the tournament, with one entry a round so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub number: Number,
    pub history: Vec<Past>,
    /// False for a player who withdrew or is absent from the round being paired.
    pub present: bool,
}

/// A tournament to pair the next round of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// The number of rounds the tournament will have (topscorers exist only in the last).
    pub rounds: u32,
    /// The colour of the first player in round 1.
    pub initial: Colour,
    pub entrants: Vec<Entrant>,
    /// A last resort, not in C.04.3: when true, only an earlier pairing-allocated bye rules
    /// a player out of the bye (not a forfeit win), for rounds the strict rule leaves with no
    /// pairing at all.
    pub lenient_bye: bool,
}

impl Tournament {
    /// The round these pairings are for.
    pub fn round(&self) -> u32 {
        let played = self.entrants.iter().map(|e| e.history.len()).max();
        played.unwrap_or(0) as u32 + 1
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DutchError {
    #[error("player {0} is listed twice")]
    Duplicate(Number),
    #[error(
        "round {round} cannot be paired: the players left have all met, or none of them may \
         take the bye"
    )]
    Impossible { round: u32 },
}

/// Which way a player floated in an earlier round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Float {
    Down,
    Up,
    None,
}

/// A player as the pairing sees them.
#[derive(Clone, Debug)]
pub(super) struct Player {
    pub number: Number,
    /// Position by start number among the players still in the tournament, from 0.
    pub rank: usize,
    pub halves: u32,
    pub played_games: u32,
    pub want: Option<Colour>,
    /// The colour difference, whichever way it leans.
    pub imbalance: u32,
    /// The colour of the last two games when they were the same.
    pub repeated: Option<Colour>,
    pub strong: bool,
    pub bye_ok: bool,
    /// Floats of the previous round and the one before.
    pub floats: [Float; 2],
    pub met: Vec<Number>,
    /// Colours of the games played, oldest first.
    pub colours: Vec<Colour>,
}

impl Player {
    pub fn absolute(&self) -> bool {
        self.imbalance > 1 || self.repeated.is_some()
    }

    /// Whether `self` ranks below `other` (lower score, or the same and a later rank).
    pub fn below(&self, other: &Player) -> bool {
        (self.halves, other.rank) < (other.halves, self.rank)
    }
}

/// Pairs the next round of `tournament`.
pub fn pair(tournament: &Tournament) -> Result<Round, DutchError> {
    let round = tournament.round();
    let players = players(tournament)?;
    let last_round = tournament.rounds > 0 && round >= tournament.rounds;
    let partners = dutch_brackets::pair_players(&players, round - 1, last_round)
        .ok_or(DutchError::Impossible { round })?;
    let mut result = Round::default();
    for (i, p) in players.iter().enumerate() {
        match partners[i] {
            Some(m) if p.number < players[m].number => {
                let colour = colour_of(p, &players[m], tournament.initial);
                let (white, black) = match colour {
                    Colour::White => (p.number, players[m].number),
                    Colour::Black => (players[m].number, p.number),
                };
                result.games.push(Pairing { white, black });
            }
            Some(_) => {}
            None if result.bye.is_none() => result.bye = Some(p.number),
            None => return Err(DutchError::Impossible { round }),
        }
    }
    Ok(result)
}

/// The present players, ranked by score then start number, with what the pairing needs.
fn players(tournament: &Tournament) -> Result<Vec<Player>, DutchError> {
    let mut by_number: Vec<&Entrant> = tournament.entrants.iter().collect();
    by_number.sort_by_key(|e| e.number);
    if let Some(w) = by_number.windows(2).find(|w| w[0].number == w[1].number) {
        return Err(DutchError::Duplicate(w[0].number));
    }
    // A player's score before round `r` (from 0).
    let before = |number: Number, r: usize| -> u32 {
        by_number
            .binary_search_by_key(&number, |e| e.number)
            .map_or(0, |i| {
                by_number[i]
                    .history
                    .iter()
                    .take(r)
                    .map(|p| p.halves())
                    .sum()
            })
    };
    // Ranks count the players still in the tournament: those present, and those absent now
    // who took part in an earlier round's pairing.
    let counted = by_number.iter().filter(|e| {
        e.present
            || e.history.iter().any(|p| {
                matches!(
                    p,
                    Past::Played { .. }
                        | Past::Bye { .. }
                        | Past::ForfeitWin { .. }
                        | Past::ForfeitLoss { .. }
                )
            })
    });
    let mut players: Vec<Player> = counted
        .enumerate()
        .filter(|(_, e)| e.present)
        .map(|(rank, e)| {
            let mut colours = Vec::new();
            let mut met = Vec::new();
            for past in &e.history {
                if let Past::Played {
                    opponent, colour, ..
                } = *past
                {
                    colours.push(colour);
                    met.push(opponent);
                }
            }
            let float = |back: usize| -> Float {
                let Some(r) = e.history.len().checked_sub(back) else {
                    return Float::None;
                };
                match e.history[r] {
                    Past::Played { opponent, .. } => {
                        let (mine, theirs) = (before(e.number, r), before(opponent, r));
                        if mine > theirs {
                            Float::Down
                        } else if mine < theirs {
                            Float::Up
                        } else {
                            Float::None
                        }
                    }
                    other if other.halves() > 0 => Float::Down,
                    _ => Float::None,
                }
            };
            let whites = colours.iter().filter(|c| **c == Colour::White).count() as u32;
            let blacks = colours.len() as u32 - whites;
            let lower = if whites > blacks {
                Colour::Black
            } else {
                Colour::White
            };
            let imbalance = whites.abs_diff(blacks);
            let n = colours.len();
            let twice = n >= 2 && colours[n - 1] == colours[n - 2];
            let want = if imbalance > 1 {
                Some(lower)
            } else if twice {
                Some(colours[n - 1].other())
            } else if imbalance > 0 {
                Some(lower)
            } else {
                colours.last().map(|c| c.other())
            };
            let repeated = twice.then(|| colours[n - 1]);
            let bye_ok = !e.history.iter().any(|p| match p {
                Past::Played { .. } => false,
                Past::Bye { .. } => true,
                _ if tournament.lenient_bye => false,
                other => other.halves() >= 2,
            });
            Player {
                number: e.number,
                rank,
                halves: e.history.iter().map(|p| p.halves()).sum(),
                played_games: n as u32,
                want,
                imbalance,
                repeated,
                strong: imbalance == 1 && !twice,
                bye_ok,
                floats: [float(1), float(2)],
                met,
                colours,
            }
        })
        .collect();
    players.sort_by(|a, b| b.halves.cmp(&a.halves).then(a.rank.cmp(&b.rank)));
    Ok(players)
}

/// The colour `p` gets against `q` (the allocation rules E.1 to E.5).
fn colour_of(p: &Player, q: &Player, initial: Colour) -> Colour {
    if let Some(c) = settled_colour(p, q) {
        return c;
    }
    let (higher, p_is_higher) = if p.below(q) { (q, false) } else { (p, true) };
    let higher_gets = match higher.want {
        Some(c) => c,
        None if higher.rank % 2 == 0 => initial,
        None => initial.other(),
    };
    if p_is_higher {
        higher_gets
    } else {
        higher_gets.other()
    }
}

/// The colour `p` gets against `q` as the preferences and histories decide it, if they do.
fn settled_colour(p: &Player, q: &Player) -> Option<Colour> {
    if p.want.is_none() || q.want.is_none() || p.want != q.want {
        return p.want.or(q.want.map(Colour::other));
    }
    let pw = p.want.unwrap();
    if p.absolute() && (p.imbalance > q.imbalance || !q.absolute()) {
        return Some(pw);
    }
    if q.absolute() && (q.imbalance > p.imbalance || !p.absolute()) {
        return Some(pw.other());
    }
    if p.strong && !q.strong {
        return Some(pw);
    }
    if q.strong && !p.strong {
        return Some(pw.other());
    }
    // Alternate from the latest round in which the two had different colours.
    p.colours
        .iter()
        .rev()
        .zip(q.colours.iter().rev())
        .find(|(a, b)| a != b)
        .map(|(_, b)| *b)
}
