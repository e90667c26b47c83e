//! How a league round's boards are planned, per format: a round robin's from the Berger
//! tables, a Swiss round by the Dutch system from the results so far, a pods round by score.
//! The league service (`leagues.rs`) creates the matches and stores the boards.

use crate::league::berger;
use crate::league::dutch::{self, Colour, Past};
use crate::league::pods::{self, PodPlayer};
use crate::store::PlayerId;
use crate::store::leagues::{PairingRow, Registration};
use std::collections::{HashMap, HashSet};

/// One board of a round: its players in seat order (one for a bye), the result already known
/// (a forfeit, a bye; None for a game to play), and whether it is a pods table.
pub(super) struct Board {
    pub(super) seats: Vec<PlayerId>,
    pub(super) result: Option<&'static str>,
    pub(super) table: bool,
}

impl Board {
    fn game(white: PlayerId, black: PlayerId, result: Option<&'static str>) -> Board {
        Board {
            seats: vec![white, black],
            result,
            table: false,
        }
    }

    fn bye(player: PlayerId, result: &'static str) -> Board {
        Board {
            seats: vec![player],
            result: Some(result),
            table: false,
        }
    }
}

pub(super) type Plan = Vec<Board>;

/// A round robin's round from the Berger tables: a player who cannot play (withdrawn, or
/// announced away) forfeits their game. A substitute plays their predecessor's games.
pub(super) fn berger_plan(
    registrations: &[Registration],
    away: &[PlayerId],
    round: u32,
    cycles: u32,
) -> Plan {
    // Each start number of the table, held by its player or the last to replace them.
    let by_number: HashMap<u32, &Registration> = registrations
        .iter()
        .filter(|r| r.replaces.is_none())
        .filter_map(|r| Some((r.number?, holder(registrations, r))))
        .collect();
    let plays = |r: &Registration| r.status == "active" && !away.contains(&r.player);
    let table = berger::rounds(by_number.len() as u32, cycles);
    let planned = &table[(round - 1) as usize];
    let mut plan: Plan = planned
        .games
        .iter()
        .map(|game| {
            let (white, black) = (by_number[&game.white], by_number[&game.black]);
            let result = match (plays(white), plays(black)) {
                (true, true) => None,
                (false, true) => Some("0F-1X"),
                (true, false) => Some("1X-0F"),
                (false, false) => Some("0F-0F"),
            };
            Board::game(white.player, black.player, result)
        })
        .collect();
    if let Some(bye) = planned.bye {
        let r = by_number[&bye];
        let result = if r.status == "active" {
            "bye"
        } else {
            "zero-bye"
        };
        plan.push(Board::bye(r.player, result));
    }
    plan
}

/// Who holds `r`'s place: `r`'s player, or the last substitute seated in it.
fn holder<'a>(registrations: &'a [Registration], mut r: &'a Registration) -> &'a Registration {
    while let Some(next) = registrations.iter().find(|s| s.replaces == Some(r.player)) {
        r = next;
    }
    r
}

/// A Swiss round, paired by the Dutch system from the results so far: the active players
/// present are paired, one may get the bye (a point), and each active player who announced
/// they are away gets a half-point bye. Withdrawn and dropped players are not paired.
/// `played`: forfeits (by round and board) that were games over the board, lost on time.
pub(super) fn swiss_plan(
    registrations: &[Registration],
    stored: &[PairingRow],
    played: &HashSet<(u32, u32)>,
    away: &[PlayerId],
    round: u32,
    rounds: u32,
) -> Result<Plan, dutch::DutchError> {
    let mut tournament = swiss_tournament(registrations, stored, played, away, round, rounds);
    let player_of: HashMap<u32, PlayerId> = registrations
        .iter()
        .filter_map(|r| Some((r.number?, r.player)))
        .collect();
    // When forfeit wins have left no one the bye may go to, a player who won by forfeit may
    // take it rather than the season stop.
    let paired = match dutch::pair(&tournament) {
        Err(dutch::DutchError::Impossible { .. }) => {
            tournament.lenient_bye = true;
            dutch::pair(&tournament)?
        }
        other => other?,
    };
    let mut plan: Plan = paired
        .games
        .iter()
        .map(|g| Board::game(player_of[&g.white], player_of[&g.black], None))
        .collect();
    if let Some(bye) = paired.bye {
        plan.push(Board::bye(player_of[&bye], "bye"));
    }
    for r in registrations {
        if r.status == "active" && away.contains(&r.player) {
            plan.push(Board::bye(r.player, "half-bye"));
        }
    }
    Ok(plan)
}

/// A pods round: the active players present seated at tables by score (a lone player has the
/// bye); a player who announced they are away sits out for no points.
pub(super) fn pods_plan(
    registrations: &[Registration],
    stored: &[PairingRow],
    away: &[PlayerId],
) -> Plan {
    let present: Vec<&Registration> = registrations
        .iter()
        .filter(|r| r.status == "active" && r.number.is_some() && !away.contains(&r.player))
        .collect();
    let players: Vec<PodPlayer> = present
        .iter()
        .map(|r| {
            let mut player = PodPlayer {
                number: r.number.unwrap_or(0),
                score: 0,
                met: vec![],
                seats: [0; 4],
            };
            for p in stored {
                if let Some(seat) = p.table.iter().position(|s| s.player == r.player) {
                    player.score += p.table[seat].points.unwrap_or(0);
                    player.seats[seat.min(3)] += 1;
                    let mates = p.table.iter().filter(|s| s.player != r.player);
                    player
                        .met
                        .extend(mates.filter_map(|s| number_of(registrations, s.player)));
                } else if p.white == r.player && p.result.as_deref() == Some("bye") {
                    player.score += 2;
                }
            }
            player
        })
        .collect();
    let player_of = |n: u32| {
        present
            .iter()
            .find(|r| r.number == Some(n))
            .map(|r| r.player)
    };
    let mut plan: Plan = pods::pods(&players)
        .into_iter()
        .map(|table| Board {
            seats: table.into_iter().filter_map(player_of).collect(),
            result: None,
            table: true,
        })
        .collect();
    if let [alone] = present.as_slice() {
        plan.push(Board::bye(alone.player, "bye"));
    }
    for r in registrations {
        if r.status == "active" && away.contains(&r.player) {
            plan.push(Board::bye(r.player, "zero-bye"));
        }
    }
    plan
}

fn number_of(registrations: &[Registration], player: PlayerId) -> Option<u32> {
    registrations.iter().find(|r| r.player == player)?.number
}

/// The Swiss tournament so far, as the Dutch system reads it: games played (a game still
/// running counts as played, for no points yet), forfeits and byes, and who plays `round`.
fn swiss_tournament(
    registrations: &[Registration],
    stored: &[PairingRow],
    played_forfeits: &HashSet<(u32, u32)>,
    away: &[PlayerId],
    round: u32,
    rounds: u32,
) -> dutch::Tournament {
    let number: HashMap<PlayerId, u32> = registrations
        .iter()
        .filter_map(|r| Some((r.player, r.number?)))
        .collect();
    let mut history: HashMap<PlayerId, Vec<Past>> = registrations
        .iter()
        .map(|r| {
            (
                r.player,
                vec![Past::Absent { halves: 0 }; round as usize - 1],
            )
        })
        .collect();
    for p in stored.iter().filter(|p| p.round < round) {
        let slot = p.round as usize - 1;
        let mut put = |player: PlayerId, past: Past| {
            if let Some(h) = history.get_mut(&player) {
                h[slot] = past;
            }
        };
        let lost = Past::ForfeitLoss { halves: 0 };
        let played = |opponent: PlayerId, colour, halves| Past::Played {
            opponent: number.get(&opponent).copied().unwrap_or(0),
            colour,
            halves,
        };
        match (p.black, p.result.as_deref()) {
            (None, Some("bye")) => put(p.white, Past::Bye { halves: 2 }),
            (None, Some("half-bye")) => put(p.white, Past::Absent { halves: 1 }),
            (None, _) => put(p.white, Past::Absent { halves: 0 }),
            (Some(b), result) => {
                let over_board = played_forfeits.contains(&(p.round, p.board));
                let result = match result {
                    Some("1X-0F") if over_board => Some("1-0"),
                    Some("0F-1X") if over_board => Some("0-1"),
                    other => other,
                };
                let (w_past, b_past) = match result {
                    Some("1X-0F") => (Past::ForfeitWin { halves: 2 }, lost),
                    Some("0F-1X") => (lost, Past::ForfeitWin { halves: 2 }),
                    Some("0F-0F") => (lost, lost),
                    other => {
                        let white = match other {
                            Some("1-0") => 2,
                            Some("1/2-1/2") => 1,
                            _ => 0,
                        };
                        let black = if other.is_some() { 2 - white } else { 0 };
                        (
                            played(b, Colour::White, white),
                            played(p.white, Colour::Black, black),
                        )
                    }
                };
                put(p.white, w_past);
                put(b, b_past);
            }
        }
    }
    let entrants = registrations
        .iter()
        .filter_map(|r| {
            Some(dutch::Entrant {
                number: r.number?,
                history: history.remove(&r.player).unwrap_or_default(),
                present: r.status == "active" && !away.contains(&r.player),
            })
        })
        .collect();
    dutch::Tournament {
        rounds,
        initial: Colour::White,
        entrants,
        lenient_bye: false,
    }
}
