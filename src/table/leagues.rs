//! The league service: leagues created, players registered, rounds paired and started (each
//! game a match with the league's game, options and clock), rounds closed with their results
//! (a game never begun or lost on time is a forfeit; a player who forfeits too often is
//! dropped), and standings with the league's tiebreaks. Console and Discord share it.
//!
//! Decisions where the issue is silent:
//! - Start numbers follow the order of registration.
//! - A player who withdraws (or is dropped) forfeits their remaining games; their bye is worth
//!   nothing.
//! - In a round robin a player who announced they cannot play a round forfeits that game but
//!   scores half a point (the announced absence), and their opponent wins by forfeit.
//! - At a round's close, a game not begun is forfeited by White (who had to move first); a game
//!   in progress stays open and counts when it ends.

use super::{Table, TableError, Update};
use crate::engine::Outcome;
use crate::games::ON_TIME;
use crate::league::berger;
use crate::league::dutch::{self, Colour, Past};
use crate::league::pods::{self, PodPlayer, TableEntry};
use crate::league::standings::{Results, Standing, Tiebreak};
use crate::store::leagues::{
    Format, League, NewLeague, PairingRow, Registration, RoundRow, SeasonStatus, TableSeat,
};
use crate::store::{Place, Player, PlayerId, Status, StoreError};
use crate::table::time_control::TimeControl;
use std::collections::HashMap;
use thiserror::Error;

const DAY: i64 = 86_400;

/// How long before a round's deadline the players of unfinished games are reminded.
pub const ROUND_NOTICE: i64 = DAY;

#[derive(Debug, Error)]
pub enum LeagueError {
    #[error("there is no league called {0} here")]
    NoSuchLeague(String),
    #[error("a league called {0} already exists here")]
    NameTaken(String),
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Table(#[from] TableError),
}

impl From<StoreError> for LeagueError {
    fn from(e: StoreError) -> Self {
        LeagueError::Table(e.into())
    }
}

fn refused(text: impl Into<String>) -> LeagueError {
    LeagueError::Refused(text.into())
}

/// A round just started: its pairings and the matches created for them.
#[derive(Clone, Debug)]
pub struct RoundStarted {
    pub round: u32,
    pub deadline: i64,
    pub pairings: Vec<PairingRow>,
    pub matches: Vec<Update>,
}

/// The tiebreaks a round robin uses when it names none.
pub const DEFAULT_TIEBREAKS: [Tiebreak; 3] = [
    Tiebreak::DirectEncounter,
    Tiebreak::SonnebornBerger,
    Tiebreak::Wins,
];

/// The tiebreaks a Swiss league uses when it names none: in a Swiss the opponents differ,
/// so their strength (Buchholz) separates players first.
pub const SWISS_TIEBREAKS: [Tiebreak; 4] = [
    Tiebreak::MedianBuchholz,
    Tiebreak::Buchholz,
    Tiebreak::SonnebornBerger,
    Tiebreak::Wins,
];

/// The tiebreaks a pods league uses when it names none.
pub const PODS_TIEBREAKS: [Tiebreak; 3] =
    [Tiebreak::Wins, Tiebreak::Buchholz, Tiebreak::Cumulative];

/// The tiebreaks a league of `format` uses when it names none.
pub fn default_tiebreaks(format: Format) -> Vec<Tiebreak> {
    match format {
        Format::Swiss => SWISS_TIEBREAKS.to_vec(),
        Format::Pods => PODS_TIEBREAKS.to_vec(),
        _ => DEFAULT_TIEBREAKS.to_vec(),
    }
}

/// The most rounds a Swiss season may have.
pub const MAX_SWISS_ROUNDS: u32 = 50;

impl Table {
    /// Creates a league (and its first season, open for registration).
    pub fn create_league(&mut self, new: NewLeague) -> Result<League, LeagueError> {
        if new.name.trim().is_empty() || new.name.chars().count() > 40 {
            return Err(refused("a league's name is 1 to 40 characters"));
        }
        TimeControl::parse(&new.time_control).map_err(refused)?;
        serde_json::from_str::<Vec<Tiebreak>>(&new.tiebreaks)
            .map_err(|e| refused(format!("unknown tiebreak: {e}")))?;
        Table::check_start(new.game, &new.options, 2, 1).map_err(|e| refused(e.to_string()))?;
        if new.format == Format::Pods {
            let most = new.game.seats().1;
            if most < 3 {
                return Err(refused(format!(
                    "pods seat three or four at a table; {} is for two",
                    new.game.name()
                )));
            }
            Table::check_start(new.game, &new.options, most.min(4), 1)
                .map_err(|e| refused(e.to_string()))?;
        }
        match (new.format, new.rounds) {
            (Format::Swiss | Format::Pods, Some(1..=MAX_SWISS_ROUNDS)) => {}
            (Format::Swiss | Format::Pods, _) => {
                return Err(refused(format!(
                    "a Swiss league needs its number of rounds, 1 to {MAX_SWISS_ROUNDS}"
                )));
            }
            (_, Some(_)) => {
                return Err(refused(
                    "a round robin's rounds follow from its players; leave rounds out",
                ));
            }
            (_, None) => {}
        }
        if self
            .store
            .league_named(new.guild_id.as_deref(), &new.name)?
            .is_some()
        {
            return Err(LeagueError::NameTaken(new.name));
        }
        let now = self.now();
        Ok(self.store.create_league(&new, now)?)
    }

    /// The league called `name` where it runs.
    pub fn league(&self, guild: Option<&str>, name: &str) -> Result<League, LeagueError> {
        self.store
            .league_named(guild, name)?
            .ok_or_else(|| LeagueError::NoSuchLeague(name.to_string()))
    }

    /// Registers `player` for the league's season open for registration; after a finished
    /// season, the first to join opens the next one.
    pub fn join_league(&mut self, league: &League, player: PlayerId) -> Result<(), LeagueError> {
        let mut season = self.store.season(league.id)?;
        if season.status == SeasonStatus::Finished {
            let now = self.now();
            self.store.new_season(league.id, now)?;
            season = self.store.season(league.id)?;
        }
        if season.status != SeasonStatus::Registration {
            return Err(refused(format!(
                "season {} of {} has begun; registration opens with the next season",
                season.number, league.new.name
            )));
        }
        let now = self.now();
        if !self.store.register(season.id, player, now)? {
            return Err(refused("you are already registered"));
        }
        Ok(())
    }

    /// Withdraws `player`: before the season starts they are simply no longer registered;
    /// once it runs, their remaining games are forfeited.
    pub fn leave_league(&mut self, league: &League, player: PlayerId) -> Result<(), LeagueError> {
        let season = self.store.season(league.id)?;
        if !self
            .store
            .set_registration(season.id, player, "withdrawn")?
        {
            return Err(refused("you are not playing in this league"));
        }
        Ok(())
    }

    /// Records that `player` cannot play `round` (a round not yet started).
    pub fn unavailable(
        &mut self,
        league: &League,
        player: PlayerId,
        round: u32,
    ) -> Result<(), LeagueError> {
        let season = self.store.season(league.id)?;
        let registered = self
            .store
            .registrations(season.id)?
            .iter()
            .any(|r| r.player == player && r.status == "active");
        if !registered {
            return Err(refused("you are not playing in this league"));
        }
        let started = self.store.rounds(season.id)?.len() as u32;
        if round <= started {
            return Err(refused(format!(
                "round {round} has already started; say so before a round begins"
            )));
        }
        if season.rounds.is_some_and(|rounds| round > rounds) {
            return Err(refused(format!("this season has no round {round}")));
        }
        self.store.set_unavailable(season.id, player, round)?;
        Ok(())
    }

    /// Pairs and starts the league's next round (starting the season first if it was open
    /// for registration): a match for every game, byes and forfeits scored at once.
    pub fn start_round(&mut self, league: &League) -> Result<RoundStarted, LeagueError> {
        let mut season = self.store.season(league.id)?;
        let cycles = match league.new.format {
            Format::DoubleRoundRobin => 2,
            _ => 1,
        };
        if season.status == SeasonStatus::Finished {
            return Err(refused(format!("season {} is over", season.number)));
        }
        if season.status == SeasonStatus::Registration {
            let players: Vec<Registration> = self.store.registrations(season.id)?;
            if players.len() < 2 {
                return Err(refused(format!(
                    "a season needs at least 2 players; {} registered",
                    players.len()
                )));
            }
            let numbers: Vec<(PlayerId, u32)> = players
                .iter()
                .enumerate()
                .map(|(i, r)| (r.player, i as u32 + 1))
                .collect();
            let rounds = match league.new.rounds {
                Some(rounds) if matches!(league.new.format, Format::Swiss | Format::Pods) => rounds,
                _ => berger::rounds(players.len() as u32, cycles).len() as u32,
            };
            self.store.start_season(season.id, &numbers, rounds)?;
            season = self.store.season(league.id)?;
        }
        let played = self.store.rounds(season.id)?;
        if let Some(last) = played.last().filter(|r| !r.closed) {
            return Err(refused(format!(
                "round {} is still running; close it first",
                last.number
            )));
        }
        let round = played.len() as u32 + 1;
        let total = season.rounds.unwrap_or(0);
        if round > total {
            return Err(refused(format!("all {total} rounds have been played")));
        }
        let registrations = self.store.registrations(season.id)?;
        let away: Vec<PlayerId> = self
            .store
            .unavailable(season.id)?
            .into_iter()
            .filter(|(_, r)| *r == round)
            .map(|(p, _)| p)
            .collect();
        let plan = match league.new.format {
            Format::Swiss => {
                let stored = self.store.pairings(season.id)?;
                swiss_plan(&registrations, &stored, &away, round, total)?
            }
            Format::Pods => {
                let stored = self.store.pairings(season.id)?;
                pods_plan(&registrations, &stored, &away)
            }
            _ => berger_plan(&registrations, &away, round, cycles),
        };
        let now = self.now();
        let time = TimeControl::parse(&league.new.time_control).map_err(refused)?;
        let place = Place {
            guild_id: league.new.guild_id.clone(),
            channel_id: league.new.channel_id.clone(),
            thread_id: None,
        };
        let mut pairings = Vec::new();
        let mut matches = Vec::new();
        for (i, board) in plan.into_iter().enumerate() {
            let mut row = PairingRow {
                round,
                board: i as u32 + 1,
                white: board.seats[0],
                black: board.seats.get(1).copied(),
                match_id: None,
                result: board.result.map(String::from),
                table: vec![],
            };
            if board.table {
                row.table = board
                    .seats
                    .iter()
                    .map(|&player| TableSeat {
                        player,
                        points: None,
                        forfeit: false,
                    })
                    .collect();
            }
            if board.result.is_none() && board.seats.len() >= 2 {
                let players = board
                    .seats
                    .iter()
                    .map(|&p| self.store.player(p))
                    .collect::<Result<Vec<Player>, StoreError>>()?;
                let seed = seed_of(league.id, season.number, round, row.board);
                let opts = &league.new.options;
                let update =
                    self.create_timed(league.new.game, opts, &players, seed, &place, time)?;
                row.match_id = Some(update.match_id);
                if !league.new.rated {
                    self.store.set_rated(update.match_id, false)?;
                }
                matches.push(update);
            }
            pairings.push(row);
        }
        let deadline = now + league.new.round_days * DAY;
        let row = RoundRow {
            number: round,
            starts_at: now,
            deadline,
            closed: false,
        };
        if let Err(e) = self.store.add_round(season.id, row, &pairings) {
            // The round is not stored: the matches made for it would belong to nothing.
            for update in &matches {
                let undone = self.store.change(
                    update.match_id,
                    update.version,
                    &[crate::store::Change::Abort],
                );
                if let Err(undo) = undone {
                    tracing::error!(match_id = update.match_id, error = %undo, "a match of an unstored round could not be called off");
                }
            }
            return Err(e.into());
        }
        Ok(RoundStarted {
            round,
            deadline,
            pairings,
            matches,
        })
    }

    /// Closes the running round: results taken from finished matches, games never begun
    /// forfeited, and players with too many forfeits dropped. Returns what happened, in words.
    pub fn close_round(&mut self, league: &League) -> Result<Vec<String>, LeagueError> {
        let season = self.store.season(league.id)?;
        let Some(open) = self
            .store
            .rounds(season.id)?
            .into_iter()
            .rfind(|r| !r.closed)
        else {
            return Err(refused("no round is running"));
        };
        self.sync_results(league)?;
        let mut lines = Vec::new();
        for p in self.store.pairings(season.id)? {
            if p.round != open.number || settled(&p) {
                continue;
            }
            let Some(id) = p.match_id else { continue };
            let stored = self.store.load_head(id)?;
            if stored.status == Status::Active && stored.plies == 0 {
                if p.table.is_empty() {
                    self.store
                        .set_pairing_result(season.id, p.round, p.board, Some("0F-1X"))?;
                } else {
                    // The first seat never moved: everyone else finishes ahead of them.
                    let points: Vec<u32> =
                        (0..p.table.len()).map(|i| 2 * u32::from(i > 0)).collect();
                    self.store.set_table_result(
                        season.id,
                        p.round,
                        p.board,
                        Some(&points),
                        Some(0),
                    )?;
                }
                let name = self.store.player(p.white)?.name;
                lines.push(format!("{name} never began match #{id}: a forfeit."));
            }
        }
        let limit = league.new.forfeits_to_drop;
        if limit > 0 {
            let away = self.store.unavailable(season.id)?;
            let pairings = self.store.pairings(season.id)?;
            for r in self.store.registrations(season.id)? {
                if r.status != "active" {
                    continue;
                }
                let forfeits = pairings
                    .iter()
                    .filter(|p| !away.contains(&(r.player, p.round)))
                    .filter(|p| match p.result.as_deref() {
                        Some("0F-1X") => p.white == r.player,
                        Some("1X-0F") => p.black == Some(r.player),
                        Some("0F-0F") => p.white == r.player || p.black == Some(r.player),
                        _ => p.table.iter().any(|s| s.player == r.player && s.forfeit),
                    })
                    .count() as u32;
                if forfeits >= limit {
                    self.store
                        .set_registration(season.id, r.player, "dropped")?;
                    let name = self.store.player(r.player)?.name;
                    lines.push(format!(
                        "{name} is dropped from the league after {forfeits} forfeits."
                    ));
                }
            }
        }
        let last = Some(open.number) == season.rounds;
        self.store.close_round(season.id, open.number, last)?;
        lines.insert(0, format!("Round {} is closed.", open.number));
        if last {
            lines.push(format!("Season {} is over.", season.number));
        }
        Ok(lines)
    }

    /// Sets a game's result by hand (a director's decision): `1-0`, `0-1`, `1/2-1/2`, `1X-0F`,
    /// `0F-1X` or `0F-0F`; `open` clears it.
    pub fn record_result(
        &mut self,
        league: &League,
        round: u32,
        board: u32,
        result: &str,
    ) -> Result<(), LeagueError> {
        const RESULTS: [&str; 6] = ["1-0", "0-1", "1/2-1/2", "1X-0F", "0F-1X", "0F-0F"];
        let result = result.trim().replace('½', "1/2");
        let result = match result.as_str() {
            "open" => None,
            r if RESULTS.contains(&r) => Some(r),
            _ => {
                return Err(refused(format!(
                    "a result is one of {} (or open)",
                    RESULTS.join(", ")
                )));
            }
        };
        let season = self.store.season(league.id)?;
        let found = self
            .store
            .pairings(season.id)?
            .into_iter()
            .find(|p| p.round == round && p.board == board);
        match found {
            None => Err(refused(format!("round {round} has no board {board}"))),
            Some(p) if p.black.is_none() => Err(refused("a bye has no result to set")),
            Some(_) => {
                self.store
                    .set_pairing_result(season.id, round, board, result)?;
                Ok(())
            }
        }
    }

    /// Takes the results of the season's finished matches into their pairings.
    pub fn sync_results(&mut self, league: &League) -> Result<(), LeagueError> {
        let season = self.store.season(league.id)?;
        for p in self.store.pairings(season.id)? {
            let Some(id) = p.match_id.filter(|_| !settled(&p)) else {
                continue;
            };
            let stored = self.store.load_head(id)?;
            if let (Status::Finished, Some(outcome)) = (stored.status, &stored.outcome) {
                if p.table.is_empty() {
                    let result = result_of(outcome);
                    self.store
                        .set_pairing_result(season.id, p.round, p.board, Some(result))?;
                } else {
                    let places: Vec<Vec<usize>> = outcome
                        .places
                        .iter()
                        .map(|group| group.iter().map(|seat| usize::from(seat.0)).collect())
                        .collect();
                    let points = pods::placement_points(p.table.len(), &places);
                    self.store.set_table_result(
                        season.id,
                        p.round,
                        p.board,
                        Some(&points),
                        None,
                    )?;
                }
            }
        }
        Ok(())
    }

    /// The standings of the league's season: each line with its player.
    pub fn league_standings(
        &mut self,
        league: &League,
    ) -> Result<Vec<(Standing, Player)>, LeagueError> {
        self.sync_results(league)?;
        let season = self.store.season(league.id)?;
        let registrations = self.store.registrations(season.id)?;
        let number: HashMap<PlayerId, u32> = registrations
            .iter()
            .filter_map(|r| Some((r.player, r.number?)))
            .collect();
        let away = self.store.unavailable(season.id)?;
        let order: Vec<Tiebreak> = serde_json::from_str(&league.new.tiebreaks)
            .unwrap_or(default_tiebreaks(league.new.format));
        let by_number: HashMap<u32, PlayerId> = number.iter().map(|(p, n)| (*n, *p)).collect();
        let with_players = |table: &Table, lines: Vec<Standing>| {
            lines
                .into_iter()
                .map(|s| Ok((s.clone(), table.store.player(by_number[&s.player])?)))
                .collect::<Result<Vec<_>, LeagueError>>()
        };
        let pairings = self.store.pairings(season.id)?;
        if league.new.format == Format::Pods {
            let numbers: Vec<u32> = by_number.keys().copied().collect();
            let entries = table_entries(&pairings, &number);
            return with_players(self, pods::standings(&numbers, &entries, &order));
        }
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
        with_players(self, results.standings(&order))
    }
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
                won: halves == best && best > 0 && leaders == 1,
            });
        }
    }
    entries
}

/// Whether a board's result is in: a game's result, or every seat's points at a table.
fn settled(p: &PairingRow) -> bool {
    p.result.is_some() || (!p.table.is_empty() && p.table.iter().all(|s| s.points.is_some()))
}

/// A finished two-player match's result for the league: a loss on time counts as a forfeit.
fn result_of(outcome: &Outcome) -> &'static str {
    let on_time = outcome.reason == ON_TIME;
    match outcome.winners() {
        _ if outcome.is_draw() => "1/2-1/2",
        [w] if w.0 == 0 && on_time => "1X-0F",
        [w] if w.0 == 0 => "1-0",
        _ if on_time => "0F-1X",
        _ => "0-1",
    }
}

/// A match's seed from where it sits in the league: the same league, season, round and board
/// give the same deal.
fn seed_of(league: i64, season: u32, round: u32, board: u32) -> u64 {
    let mut rng = crate::engine::GameRng::from_seed(
        (league as u64) << 32 ^ u64::from(season) << 20 ^ u64::from(round) << 8 ^ u64::from(board),
    );
    rng.next_u64()
}

/// One board of a round: its players in seat order (one for a bye), the result already known
/// (a forfeit, a bye; None for a game to play), and whether it is a pods table.
struct Board {
    seats: Vec<PlayerId>,
    result: Option<&'static str>,
    table: bool,
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

type Plan = Vec<Board>;

/// A round robin's round from the Berger tables: a player who cannot play (withdrawn, or
/// announced away) forfeits their game.
fn berger_plan(registrations: &[Registration], away: &[PlayerId], round: u32, cycles: u32) -> Plan {
    let by_number: HashMap<u32, &Registration> = registrations
        .iter()
        .filter_map(|r| Some((r.number?, r)))
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

/// A Swiss round, paired by the Dutch system from the results so far: the active players
/// present are paired, one may get the bye (a point), and each active player who announced
/// they are away gets a half-point bye. Withdrawn and dropped players are not paired.
fn swiss_plan(
    registrations: &[Registration],
    stored: &[PairingRow],
    away: &[PlayerId],
    round: u32,
    rounds: u32,
) -> Result<Plan, LeagueError> {
    let tournament = swiss_tournament(registrations, stored, away, round, rounds);
    let player_of: HashMap<u32, PlayerId> = registrations
        .iter()
        .filter_map(|r| Some((r.number?, r.player)))
        .collect();
    let paired = dutch::pair(&tournament).map_err(|e| refused(e.to_string()))?;
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
fn pods_plan(registrations: &[Registration], stored: &[PairingRow], away: &[PlayerId]) -> Plan {
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
pub(crate) fn swiss_tournament(
    registrations: &[Registration],
    stored: &[PairingRow],
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Seat;

    #[test]
    fn a_loss_on_time_is_a_forfeit_and_other_endings_are_results() {
        assert_eq!(result_of(&Outcome::winner(Seat(0), 2, "checkmate")), "1-0");
        assert_eq!(result_of(&Outcome::winner(Seat(1), 2, "checkmate")), "0-1");
        assert_eq!(result_of(&Outcome::winner(Seat(0), 2, ON_TIME)), "1X-0F");
        assert_eq!(result_of(&Outcome::winner(Seat(1), 2, ON_TIME)), "0F-1X");
        assert_eq!(result_of(&Outcome::draw(2, "agreement")), "1/2-1/2");
        // The same place in the league deals the same game; another board another.
        assert_eq!(seed_of(1, 1, 2, 3), seed_of(1, 1, 2, 3));
        assert_ne!(seed_of(1, 1, 2, 3), seed_of(1, 1, 2, 4));
    }
}
