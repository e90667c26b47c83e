//! A season as a TRF16 file, for its page's download: the closed rounds' results with each
//! player's start number, name, points and rank, and who will not play the next round, so a
//! pairing program given the file pairs that round of a Swiss as the league does.
//!
//! Written as the Swiss pairing reads the season (`plans::swiss_tournament`): a game lost on
//! time after both players moved is a game (its colours count, no rematch); other forfeits are
//! `+`/`-`; the pairing's bye is `U`, an announced absence `H` (the half point a Swiss gives)
//! and a round without a game `Z`. A game its round closed on, still being played, cannot be
//! written as a result: it is written as lost by both (`-`) until it ends.

use super::{LeagueError, Table};
use crate::league::dutch::Colour;
use crate::league::trf_write::{self, Entry, Played};
use crate::store::PlayerId;
use crate::store::leagues::{League, PairingRow};
use std::collections::{HashMap, HashSet};

impl Table {
    /// Season `number` of `league` as a TRF16 file; None when it has no such season or it has
    /// not started.
    pub fn season_trf(&self, league: &League, number: u32) -> Result<Option<String>, LeagueError> {
        let seasons = self.store.seasons_of(league.id)?;
        let Some(season) = seasons.into_iter().find(|s| s.number == number) else {
            return Ok(None);
        };
        let mut registrations = self.store.registrations(season.id)?;
        registrations.retain(|r| r.number.is_some());
        registrations.sort_by_key(|r| r.number);
        if registrations.is_empty() {
            return Ok(None);
        }
        let rounds = self.store.rounds(season.id)?;
        let closed = rounds.iter().take_while(|r| r.closed).count() as u32;
        let total = season
            .rounds
            .unwrap_or(rounds.len() as u32)
            .max(closed)
            .max(1);
        let pairings: Vec<PairingRow> = self
            .settled_pairings(season.id)?
            .into_iter()
            .filter(|p| p.round <= closed)
            .collect();
        let over_board = self.played_forfeits(&pairings)?;
        let number_of: HashMap<PlayerId, u32> = registrations
            .iter()
            .filter_map(|r| Some((r.player, r.number?)))
            .collect();
        let mut played: HashMap<PlayerId, Vec<Played>> = registrations
            .iter()
            .map(|r| (r.player, vec![Played::Out { halves: 0 }; closed as usize]))
            .collect();
        for p in &pairings {
            let slot = p.round as usize - 1;
            let mut put = |player: PlayerId, round: Played| {
                if let Some(rounds) = played.get_mut(&player) {
                    rounds[slot] = round;
                }
            };
            let Some(black) = p.black else {
                put(
                    p.white,
                    match p.result.as_deref() {
                        Some("bye") => Played::Bye,
                        Some("half-bye") => Played::Out { halves: 1 },
                        _ => Played::Out { halves: 0 },
                    },
                );
                continue;
            };
            let (w, b) = (
                number_of.get(&p.white).copied().unwrap_or(0),
                number_of.get(&black).copied().unwrap_or(0),
            );
            let game = |halves: u32| {
                (
                    Played::Game {
                        opponent: b,
                        colour: Colour::White,
                        halves,
                    },
                    Played::Game {
                        opponent: w,
                        colour: Colour::Black,
                        halves: 2 - halves,
                    },
                )
            };
            let forfeit = |white_won: bool, black_won: bool| {
                (
                    Played::Forfeit {
                        opponent: b,
                        won: white_won,
                    },
                    Played::Forfeit {
                        opponent: w,
                        won: black_won,
                    },
                )
            };
            let counted = over_board.contains(&(p.round, p.board));
            let (white, black_played) = match p.result.as_deref() {
                Some("1-0") => game(2),
                Some("1X-0F") if counted => game(2),
                Some("1/2-1/2") => game(1),
                Some("0-1") => game(0),
                Some("0F-1X") if counted => game(0),
                Some("1X-0F") => forfeit(true, false),
                Some("0F-1X") => forfeit(false, true),
                _ => forfeit(false, false),
            };
            put(p.white, white);
            put(black, black_played);
        }
        let next = closed + 1;
        let away: HashSet<PlayerId> = self
            .store
            .unavailable(season.id)?
            .into_iter()
            .filter(|(_, round)| *round == next)
            .map(|(p, _)| p)
            .collect();
        let rank: HashMap<u32, u32> = self
            .season_standings(league, &season)?
            .iter()
            .map(|(s, _)| (s.player, s.rank as u32))
            .collect();
        let mut entries = Vec::with_capacity(registrations.len());
        for r in &registrations {
            let number = r.number.unwrap_or(0);
            let sits_out = match () {
                _ if next > total => None,
                _ if r.status != "active" => Some(Played::Out { halves: 0 }),
                _ if away.contains(&r.player) => Some(Played::Out { halves: 1 }),
                _ => None,
            };
            entries.push(Entry {
                number,
                name: self.store.player(r.player)?.name,
                rank: rank.get(&number).copied(),
                rounds: played.remove(&r.player).unwrap_or_default(),
                next: sits_out,
            });
        }
        let event = format!("{}, season {number}", league.new.name);
        Ok(Some(trf_write::write(&event, total, true, &entries)))
    }

    /// The boards among `pairings` whose forfeit was a game over the board all the same: lost
    /// on time after both players moved.
    pub(super) fn played_forfeits(
        &self,
        pairings: &[PairingRow],
    ) -> Result<HashSet<(u32, u32)>, LeagueError> {
        let mut played = HashSet::new();
        for p in pairings {
            if let (Some(id), Some(result)) = (p.match_id, p.result.as_deref())
                && result.contains('F')
                && self.store.load_head(id)?.plies >= 2
            {
                played.insert((p.round, p.board));
            }
        }
        Ok(played)
    }
}
