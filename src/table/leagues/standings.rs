//! League standings and what is shown of a season: the pairings in words, standings with
//! the league's tiebreaks (two-player results counted with its scoring, or pods tables'
//! placement points), and a round robin's crosstable.

use super::{LeagueError, default_tiebreaks, settled};
use crate::league::pods::{self, TableEntry};
use crate::league::standings::{Results, Standing, Tiebreak, points};
use crate::store::leagues::{Format, League, PairingRow, Registration, Season};
use crate::store::{Player, PlayerId};
use crate::table::Table;
use std::collections::HashMap;

impl Table {
    /// The season's pairings in words, a line a board (only round `only`, if given), with
    /// the results of matches that ended since taken in first: "Round 1, board 2: ann - bob:
    /// 1-0", "Round 1, table 1: ann 3, bob 0, cy 1, dee 2", "Round 2, board 3: cy: the bye
    /// (one point)".
    pub fn pairing_lines(
        &mut self,
        league: &League,
        only: Option<u32>,
    ) -> Result<Vec<String>, LeagueError> {
        self.sync_results(league)?;
        let season = self.store.season(league.id)?;
        let mut lines = Vec::new();
        for p in self.store.pairings(season.id)? {
            if only.is_some_and(|r| r != p.round) {
                continue;
            }
            let state = match (&p.result, p.match_id) {
                (Some(r), _) => r.clone(),
                (None, Some(id)) => format!("match #{id}"),
                (None, None) => "open".into(),
            };
            let white = self.store.player(p.white)?.name;
            let line = if !p.table.is_empty() {
                let mut seats = Vec::new();
                for s in &p.table {
                    let name = self.store.player(s.player)?.name;
                    seats.push(match s.points {
                        Some(halves) => format!("{name} {}", points(halves)),
                        None => name,
                    });
                }
                let state = match settled(&p) {
                    true => String::new(),
                    false => format!(": {state}"),
                };
                format!(
                    "Round {}, table {}: {}{state}",
                    p.round,
                    p.board,
                    seats.join(", ")
                )
            } else if let Some(black) = p.black {
                let black = self.store.player(black)?.name;
                format!(
                    "Round {}, board {}: {white} - {black}: {state}",
                    p.round, p.board
                )
            } else {
                let words = bye_words(p.result.as_deref());
                format!("Round {}, board {}: {white}: {words}", p.round, p.board)
            };
            lines.push(line);
        }
        Ok(lines)
    }

    /// A round robin's crosstable as lines of text, players in standings order (None for a
    /// Swiss or pods league, whose players do not all meet).
    pub fn league_crosstable(
        &mut self,
        league: &League,
    ) -> Result<Option<Vec<String>>, LeagueError> {
        let standings = self.league_standings(league)?;
        let season = self.store.season(league.id)?;
        let Some(grid) = self.season_crosstable(league, &season, &standings)? else {
            return Ok(None);
        };
        let width = standings
            .iter()
            .map(|(_, p)| p.name.chars().count())
            .max()
            .unwrap_or(0);
        let cell = grid
            .iter()
            .flatten()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(1);
        let mut lines = vec![format!(
            "{:>3}  {:width$}  {}  Points",
            "",
            "",
            (1..=grid.len())
                .map(|i| format!("{i:>cell$}"))
                .collect::<Vec<_>>()
                .join(" ")
        )];
        for (i, ((s, player), row)) in standings.iter().zip(&grid).enumerate() {
            let cells: Vec<String> = row.iter().map(|c| format!("{c:>cell$}")).collect();
            let pad = width - player.name.chars().count();
            lines.push(format!(
                "{:>3}  {}{}  {}  {}",
                i + 1,
                player.name,
                " ".repeat(pad),
                cells.join(" "),
                points(s.halves)
            ));
        }
        Ok(Some(lines))
    }

    /// A round robin season's crosstable: a row a player in the order of `standings` (the
    /// season's), a cell for each of them in the same order (None for a Swiss or pods league).
    pub fn season_crosstable(
        &self,
        league: &League,
        season: &Season,
        standings: &[(Standing, Player)],
    ) -> Result<Option<Vec<Vec<String>>>, LeagueError> {
        if !matches!(
            league.new.format,
            Format::RoundRobin | Format::DoubleRoundRobin
        ) {
            return Ok(None);
        }
        let number = start_numbers(&self.store.registrations(season.id)?);
        let away = self.store.unavailable(season.id)?;
        let results = two_player_results(&self.settled_pairings(season.id)?, &number, &away);
        let order: Vec<u32> = standings.iter().map(|(s, _)| s.player).collect();
        Ok(Some(results.crosstable(&order)))
    }

    /// The standings of the league's season: each line with its player.
    pub fn league_standings(
        &mut self,
        league: &League,
    ) -> Result<Vec<(Standing, Player)>, LeagueError> {
        self.sync_results(league)?;
        let season = self.store.season(league.id)?;
        self.season_standings(league, &season)
    }

    /// The standings of any season of the league, its finished matches' results taken in
    /// without writing them: each line with its player.
    pub fn season_standings(
        &self,
        league: &League,
        season: &Season,
    ) -> Result<Vec<(Standing, Player)>, LeagueError> {
        let number = start_numbers(&self.store.registrations(season.id)?);
        let away = self.store.unavailable(season.id)?;
        let order: Vec<Tiebreak> = tiebreaks_of(league);
        let by_number: HashMap<u32, PlayerId> = number.iter().map(|(p, n)| (*n, *p)).collect();
        let with_players = |table: &Table, lines: Vec<Standing>| {
            lines
                .into_iter()
                .map(|s| Ok((s.clone(), table.store.player(by_number[&s.player])?)))
                .collect::<Result<Vec<_>, LeagueError>>()
        };
        let pairings = self.settled_pairings(season.id)?;
        if league.new.format == Format::Pods {
            let numbers: Vec<u32> = by_number.keys().copied().collect();
            let entries = table_entries(&pairings, &number);
            return with_players(self, pods::standings(&numbers, &entries, &order));
        }
        let results = two_player_results(&pairings, &number, &away).scored(league.new.scoring);
        with_players(self, results.standings(&order))
    }
}

/// The tiebreaks the league's standings use, in order.
pub fn tiebreaks_of(league: &League) -> Vec<Tiebreak> {
    serde_json::from_str(&league.new.tiebreaks).unwrap_or(default_tiebreaks(league.new.format))
}

/// Each registered player's start number, once the season started.
fn start_numbers(registrations: &[Registration]) -> HashMap<PlayerId, u32> {
    registrations
        .iter()
        .filter_map(|r| Some((r.player, r.number?)))
        .collect()
}

/// A two-player season's results as the standings read them.
fn two_player_results(
    pairings: &[PairingRow],
    number: &HashMap<PlayerId, u32>,
    away: &[(PlayerId, u32)],
) -> Results {
    let mut results = Results::new(number.len() as u32);
    for p in pairings {
        let (Some(result), Some(&w)) = (p.result.as_deref(), number.get(&p.white)) else {
            continue;
        };
        let b = p.black.and_then(|b| number.get(&b).copied());
        match (result, b) {
            ("1-0", Some(b)) => results.game(p.round, w, b, 2),
            ("0-1", Some(b)) => results.game(p.round, w, b, 0),
            ("1/2-1/2", Some(b)) => results.game(p.round, w, b, 1),
            ("1X-0F", Some(b)) => results.forfeit(p.round, w, b, Some(w)),
            ("0F-1X", Some(b)) => results.forfeit(p.round, w, b, Some(b)),
            ("0F-0F", Some(b)) => results.forfeit(p.round, w, b, None),
            ("bye", _) => results.bye(p.round, w, 2),
            ("half-bye", _) => results.bye(p.round, w, 1),
            (_, _) => results.bye(p.round, w, 0),
        }
        // An announced absence is worth half a point instead of the forfeit.
        for player in [Some(p.white), p.black].into_iter().flatten() {
            if away.contains(&(player, p.round)) && result.contains('F') {
                results.bye(p.round, number[&player], 1);
            }
        }
    }
    results
}

/// A pods season's results as the pods standings read them: each table's points with the
/// table-mates, and byes.
fn table_entries(pairings: &[PairingRow], number: &HashMap<PlayerId, u32>) -> Vec<TableEntry> {
    let mut entries = Vec::new();
    for p in pairings {
        if p.table.is_empty() {
            let halves = if p.result.as_deref() == Some("bye") {
                2
            } else {
                0
            };
            if let Some(&player) = number.get(&p.white) {
                entries.push(TableEntry {
                    round: p.round,
                    player,
                    halves,
                    mates: vec![],
                    won: false,
                });
            }
            continue;
        }
        if !settled(p) {
            continue;
        }
        let best = p.table.iter().filter_map(|s| s.points).max().unwrap_or(0);
        let leaders = p.table.iter().filter(|s| s.points == Some(best)).count();
        let forfeited = p.table.iter().any(|s| s.forfeit);
        for seat in &p.table {
            let Some(&player) = number.get(&seat.player) else {
                continue;
            };
            let halves = seat.points.unwrap_or(0);
            entries.push(TableEntry {
                round: p.round,
                player,
                halves,
                mates: p
                    .table
                    .iter()
                    .filter(|s| s.player != seat.player)
                    .filter_map(|s| number.get(&s.player).copied())
                    .collect(),
                won: halves == best && best > 0 && leaders == 1 && !forfeited,
            });
        }
    }
    entries
}

/// A round without a game, in words.
pub fn bye_words(result: Option<&str>) -> &'static str {
    match result {
        Some("half-bye") => "a half-point bye (away this round)",
        Some("zero-bye") => "no game (no points)",
        _ => "the bye (one point)",
    }
}
