//! The league service: leagues created, players registered, rounds paired and started (each
//! game a match with the league's game, options and clock), rounds closed with their results
//! (a game never begun or lost on time is a forfeit; a player who forfeits too often is
//! dropped), and standings with the league's tiebreaks. Console and Discord share it.
//!
//! Decisions where the issue is silent:
//! - Start numbers follow the order of registration.
//! - In a round robin a player who withdraws (or is dropped) forfeits their remaining games;
//!   their bye is worth nothing. In a Swiss or pods league they are simply no longer paired.
//! - In a round robin a player who announced they cannot play a round forfeits that game but
//!   scores half a point (the announced absence), and their opponent wins by forfeit. In a
//!   Swiss they get a half-point bye; in pods they sit out for no points.
//! - At a round's close, a game not begun is forfeited by White (who had to move first); a
//!   pods table not begun is forfeited by the seats due to act (its first seat, or all of a
//!   game that opens with everyone acting), the others each finishing ahead of them. A game in
//!   progress stays open and counts when it ends.
//! - A game lost on time scores as a forfeit, as the issue asks; for Swiss pairings a game lost
//!   on time after both players moved still counts as played (no rematch, colours counted).
//! - A Swiss season has at most as many rounds as its field allows without rematches (one
//!   less than the players, or as many when they are odd); when no pairing of a round is
//!   possible any more, the season ends there.

pub use standings::{bye_words, tiebreaks_of};
mod plans;
mod rounds;
mod standings;
pub mod substitutes;
mod trf;

use super::{Table, TableError, Update};
use crate::engine::Outcome;
use crate::games::ON_TIME;
use crate::league::pods;
use crate::league::standings::{Scoring, Tiebreak};
use crate::store::leagues::{Format, League, NewLeague, PairingRow, SeasonId, SeasonStatus};
use crate::store::{Place, PlayerId, Status, StoreError};
use crate::table::time_control::TimeControl;
use thiserror::Error;

pub(super) const DAY: i64 = 86_400;

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

pub(super) fn refused(text: impl Into<String>) -> LeagueError {
    LeagueError::Refused(text.into())
}

/// A round just started: its pairings and the matches created for them.
#[derive(Clone, Debug)]
pub struct RoundStarted {
    pub round: u32,
    pub deadline: i64,
    pub pairings: Vec<PairingRow>,
    pub matches: Vec<Update>,
    /// The matches of a round paired again, called off, with where they were played.
    pub called_off: Vec<(crate::store::MatchId, Place)>,
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
        check_league(&new)?;
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

    /// Changes a league's settings. They apply from the next round; the number of rounds only
    /// while no season is running.
    pub fn change_league(
        &mut self,
        league: &League,
        change: LeagueChange,
    ) -> Result<League, LeagueError> {
        let mut new = league.new.clone();
        if let Some(rounds) = change.rounds {
            if self.store.season(league.id)?.status == SeasonStatus::Running {
                return Err(refused(
                    "a season's rounds are fixed once it starts; change them between seasons",
                ));
            }
            new.rounds = Some(rounds);
        }
        if let Some(time) = change.time_control {
            new.time_control = time.trim().to_string();
        }
        new.round_days = change.round_days.unwrap_or(new.round_days);
        new.forfeits_to_drop = change.forfeits_to_drop.unwrap_or(new.forfeits_to_drop);
        new.rated = change.rated.unwrap_or(new.rated);
        new.scoring = change.scoring.unwrap_or(new.scoring);
        if let Some(order) = change.tiebreaks {
            new.tiebreaks = serde_json::to_string(&order).expect("tiebreaks serialise");
        }
        check_league(&new)?;
        self.store.update_league(league.id, &new)?;
        Ok(League { id: league.id, new })
    }

    /// The league called `name` where it runs.
    pub fn league(&self, guild: Option<&str>, name: &str) -> Result<League, LeagueError> {
        self.store
            .league_named(guild, name)?
            .ok_or_else(|| LeagueError::NoSuchLeague(name.to_string()))
    }

    /// Registers `player` for the league's season open for registration (or, in a Swiss or
    /// pods league, a running season not past half its rounds); after a finished season, the
    /// first to join opens the next one.
    pub fn join_league(&mut self, league: &League, player: PlayerId) -> Result<(), LeagueError> {
        let mut season = self.store.season(league.id)?;
        if season.status == SeasonStatus::Finished {
            let now = self.now();
            self.store.new_season(league.id, now)?;
            season = self.store.season(league.id)?;
        }
        if season.status == SeasonStatus::Running
            && matches!(league.new.format, Format::Swiss | Format::Pods)
        {
            // A Swiss takes late players until half its rounds have started; they score
            // nothing for the rounds they missed.
            let started = self.store.rounds(season.id)?.len() as u32;
            let rounds = season.rounds.unwrap_or(0);
            if 2 * started > rounds {
                return Err(refused(format!(
                    "season {} of {} is past half its rounds; registration opens with the next \
                     season",
                    season.number, league.new.name
                )));
            }
            let now = self.now();
            return match self.store.register_late(season.id, player, now)? {
                Some(_) => Ok(()),
                None => Err(refused("you are already registered")),
            };
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
            Some(p) if !p.table.is_empty() => Err(refused(
                "a pods table's result comes from its match; an admin can adjudicate the match",
            )),
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
            match self.finished_result(&p)? {
                Some(Finished::Game(result)) => {
                    self.store
                        .set_pairing_result(season.id, p.round, p.board, Some(result))?;
                }
                Some(Finished::Table(points)) => {
                    self.store
                        .set_table_result(season.id, p.round, p.board, Some(&points), &[])?;
                }
                None => {}
            }
        }
        Ok(())
    }

    /// Season `season`'s pairings with the results of its finished matches taken in, as
    /// [`Table::sync_results`] stores them, without writing anything (a read-only twin reads
    /// this).
    pub fn settled_pairings(&self, season: SeasonId) -> Result<Vec<PairingRow>, LeagueError> {
        let mut pairings = self.store.pairings(season)?;
        for p in &mut pairings {
            match self.finished_result(p)? {
                Some(Finished::Game(result)) => p.result = Some(result.into()),
                Some(Finished::Table(points)) => {
                    for (seat, points) in p.table.iter_mut().zip(points) {
                        seat.points = Some(points);
                        seat.forfeit = false;
                    }
                }
                None => {}
            }
        }
        Ok(pairings)
    }

    /// The result a board's finished match gives it, when the board does not have it yet.
    fn finished_result(&self, p: &PairingRow) -> Result<Option<Finished>, LeagueError> {
        let Some(id) = p.match_id.filter(|_| !settled(p)) else {
            return Ok(None);
        };
        let stored = self.store.load_head(id)?;
        let (Status::Finished, Some(outcome)) = (stored.status, &stored.outcome) else {
            return Ok(None);
        };
        if p.table.is_empty() {
            return Ok(Some(Finished::Game(result_of(outcome))));
        }
        let places: Vec<Vec<usize>> = outcome
            .places
            .iter()
            .map(|group| group.iter().map(|seat| usize::from(seat.0)).collect())
            .collect();
        Ok(Some(Finished::Table(pods::placement_points(
            p.table.len(),
            &places,
        ))))
    }
}

/// What a finished match makes of its board: a game's result, or each seat's points.
enum Finished {
    Game(&'static str),
    Table(Vec<u32>),
}

/// Whether a board's result is in: a game's result, or every seat's points at a table.
pub(super) fn settled(p: &PairingRow) -> bool {
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
pub(super) fn seed_of(league: i64, season: u32, round: u32, board: u32) -> u64 {
    let mut rng = crate::engine::GameRng::from_seed(
        (league as u64) << 32 ^ u64::from(season) << 20 ^ u64::from(round) << 8 ^ u64::from(board),
    );
    rng.next_u64()
}

/// What a league must be: a name, a clock, tiebreaks, a game its format can seat, and rounds
/// for a Swiss.
fn check_league(new: &NewLeague) -> Result<(), LeagueError> {
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
    if !(1..=60).contains(&new.round_days) {
        return Err(refused("a round lasts 1 to 60 days"));
    }
    Ok(())
}

/// Settings an admin changes after creating a league; None leaves one as it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeagueChange {
    pub time_control: Option<String>,
    pub round_days: Option<i64>,
    pub forfeits_to_drop: Option<u32>,
    pub rated: Option<bool>,
    pub scoring: Option<Scoring>,
    pub tiebreaks: Option<Vec<Tiebreak>>,
    pub rounds: Option<u32>,
}

/// A league's settings in words.
pub fn describe(league: &League) -> String {
    let new = &league.new;
    let format = match new.format {
        Format::RoundRobin => "round robin".to_string(),
        Format::DoubleRoundRobin => "double round robin".to_string(),
        Format::Swiss => format!("Swiss, {} rounds", new.rounds.unwrap_or(0)),
        Format::Pods => format!("Swiss pods, {} rounds", new.rounds.unwrap_or(0)),
    };
    let order: Vec<Tiebreak> = serde_json::from_str(&new.tiebreaks).unwrap_or_default();
    let names: Vec<&str> = order.iter().map(|t| t.name()).collect();
    format!(
        "{} ({}): {format}; clock {}; {} days a round; dropped after {} forfeits{}; {}; \
         scoring {} (win, draw, loss); tiebreaks: {}.",
        new.name,
        new.game.name(),
        new.time_control,
        new.round_days,
        new.forfeits_to_drop,
        if new.forfeits_to_drop == 0 {
            " (never)"
        } else {
            ""
        },
        if new.rated { "rated" } else { "unrated" },
        new.scoring.show(),
        names.join(", ")
    )
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
