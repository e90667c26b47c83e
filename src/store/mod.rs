//! SQLite storage: players, matches, seats, the append-only action log and outcomes.
//!
//! A match is stored as its game, options, seed and log of canonical action texts; it is loaded
//! by replaying the log (see `table`). Every change to a match goes through [`Store::change`],
//! which bumps the match's version only if the caller saw the current one, in the same
//! transaction as the change itself: a stale or doubled submission is refused, never applied
//! twice.
//!
//! The store checks itself: the file with `PRAGMA quick_check` when it is opened, and each
//! match on load (its version, the length and numbering of its log and its outcome row must
//! agree). Every request that changes a match may carry a key ([`Change::Request`]) stored under
//! a unique constraint, so a redelivered request is recognised and applied no second time.
//!
//! The store is synchronous; async adapters reach it through `table::TableHandle`, whose own
//! thread does all SQLite work.

use crate::engine::{Outcome, Seat};
use crate::games::GameKind;
use read::read_match;
use rusqlite::types::Value;
use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};
use thiserror::Error;

mod admin;
pub mod challenges;
mod console;
mod deadlines;
pub mod league_rulings;
pub mod leagues;
mod migrations;
pub mod outbox;
mod read;
mod read_only;
mod settings;
mod tx;
mod vacations;
mod world;

pub use admin::{AdminEntry, ServerSettings};
pub use console::SessionLine;
pub use deadlines::{Deadline, DeadlineKind, NewDeadline};
pub use settings::{Settings, Zone};
pub use tx::Level;
pub use vacations::{VACATION_DAYS, Vacation, VacationError};
pub use world::HoldReason;

pub use challenges::{
    Accepted, Challenge, ChallengeError, ChallengeId, ChallengeSeat, ChallengeStatus, NewChallenge,
};

pub type MatchId = i64;
pub type PlayerId = i64;

pub use migrations::MIGRATIONS;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("there is no match #{0}")]
    NoSuchMatch(MatchId),
    #[error(
        "match #{id} has moved on (you saw version {expected}, it is at {actual}); look again and retry"
    )]
    Stale {
        id: MatchId,
        expected: u64,
        actual: u64,
    },
    #[error("match #{id} is {status}")]
    NotActive { id: MatchId, status: Status },
    #[error("match #{id} is damaged in storage: {detail}")]
    Corrupt { id: MatchId, detail: String },
    #[error(
        "the database was written by a newer deckmate (schema {found}, this build knows {known})"
    )]
    NewerSchema { found: u32, known: u32 },
    #[error("the database file is damaged: {0}")]
    Damaged(String),
    /// A request with this key was applied before.
    #[error("request {0} was already applied")]
    Duplicate(String),
}

impl StoreError {
    /// What went wrong, in a few words a user can act on ("the database is read-only"); the
    /// error itself keeps SQLite's detail for the log.
    pub fn short(&self) -> &'static str {
        let code = match self {
            StoreError::Sqlite(e) => e.sqlite_error_code(),
            StoreError::Damaged(_) => return "the database file is damaged",
            StoreError::Corrupt { .. } => return "the match is damaged in storage",
            StoreError::NewerSchema { .. } => return "the database is from a newer deckmate",
            _ => return "storage failed",
        };
        match code {
            Some(ErrorCode::ReadOnly) => "the database is read-only",
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
                "the database is locked by another program"
            }
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
                "the database file is damaged"
            }
            Some(ErrorCode::DiskFull) => "the disk is full",
            Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => {
                "the database file cannot be opened"
            }
            Some(ErrorCode::SystemIoFailure) => "the disk could not be read or written",
            _ => "storage failed",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Active,
    Finished,
    Aborted,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }

    fn parse(text: &str) -> Option<Status> {
        Some(match text {
            "active" => Status::Active,
            "finished" => Status::Finished,
            "aborted" => Status::Aborted,
            _ => return None,
        })
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub discord_id: Option<String>,
}

/// Where a match is played; all None for the console.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Place {
    pub guild_id: Option<String>,
    pub channel_id: Option<String>,
    pub thread_id: Option<String>,
}

/// A match's state as last saved: the game and its random source after `plies` actions, as
/// JSON the table reads back ([`Change::Snapshot`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub plies: u64,
    pub rules: u32,
    pub state: String,
    /// What the snapshot summarises, as the table computes it; None for one saved before
    /// snapshots were checked.
    pub digest: Option<String>,
}

/// What a request did when it was first applied ([`Store::request`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub match_id: MatchId,
    pub version: u64,
    /// JSON of the lines it produced, as the table stored them.
    pub lines: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    pub seat: Seat,
    pub text: String,
}

/// A match as stored, before its log is replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatch {
    pub id: MatchId,
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    pub seed: u64,
    pub status: Status,
    pub version: u64,
    /// The revision of the game's rules the match is played under.
    pub rules: u32,
    /// How many actions the log holds.
    pub plies: u64,
    /// Seat i is `players[i]`.
    pub players: Vec<Player>,
    /// The log from action `first_ply + 1` on: the whole log from [`Store::load`], none of it
    /// from [`Store::load_head`].
    pub actions: Vec<StoredAction>,
    pub first_ply: u64,
    pub outcome: Option<Outcome>,
    /// Seats that have agreed to a draw since the last action, in seat order.
    pub draw_votes: Vec<Seat>,
    pub place: Place,
    /// The time control as stored ("none", "3d"), and the seats' clocks (JSON), for the table.
    pub time_control: String,
    pub clocks: String,
}

/// A new match's clock: its time control, the seats' clocks (JSON) and its first deadlines.
#[derive(Clone, Copy, Debug)]
pub struct Timing<'a> {
    pub control: &'a str,
    pub clocks: &'a str,
    pub deadlines: &'a [NewDeadline],
}

/// One line of a player's match list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSummary {
    pub id: MatchId,
    pub game: GameKind,
    pub status: Status,
    pub version: u64,
    pub seat: Seat,
}

/// What a change does besides bumping the version.
#[derive(Clone, Debug, PartialEq)]
pub enum Change<'a> {
    /// Appends an action to the log and clears any draw votes.
    Action {
        seat: Seat,
        text: &'a str,
    },
    /// Sets the seats that agree to a draw (empty: no offer stands).
    DrawVotes(&'a [Seat]),
    Finish(&'a Outcome),
    Abort,
    /// Saves the game's state after the change (replacing the previous snapshot).
    Snapshot(&'a Snapshot),
    /// Records the request that made the change under its key; the key used before makes the
    /// whole change fail with [`StoreError::Duplicate`], unless `replaces` names exactly the
    /// lines stored under it: a refusal this request supersedes (an action refused until its
    /// player confirmed it, and now confirmed).
    Request {
        key: &'a str,
        lines: &'a str,
        replaces: Option<&'a str>,
    },
    /// Sets the seats' clocks (JSON).
    Clocks(&'a str),
    /// Makes these the match's pending deadlines.
    Deadlines(&'a [NewDeadline]),
    /// Marks the deadline that caused the change as fired; one fired already makes the whole
    /// change fail with [`StoreError::Duplicate`].
    Claim {
        deadline: i64,
    },
    /// Gives `seat` to another player (a substitute an admin named).
    Reseat {
        seat: Seat,
        player: PlayerId,
    },
    /// Records an admin's action on the match in the server's admin log.
    Admin {
        admin: PlayerId,
        action: &'a str,
        detail: &'a str,
    },
    /// Writes a post the change owes to the outbox ([`outbox`]).
    Owe(&'a outbox::NewPost),
}

impl Change<'_> {
    /// A change checked before the version: a repeat of it is a duplicate, not a stale version.
    fn is_precondition(&self) -> bool {
        matches!(self, Change::Request { .. } | Change::Claim { .. })
    }
}

pub struct Store {
    conn: Connection,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        Self::setup(Connection::open(path)?)
    }

    pub fn open_in_memory() -> Result<Store, StoreError> {
        Self::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<Store, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // A damaged file is refused before anything is read from it or written to it.
        let verdict: Vec<String> = conn
            .prepare("PRAGMA quick_check(5)")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        if verdict != ["ok"] {
            return Err(StoreError::Damaged(verdict.join("; ")));
        }
        // Switching a new file to WAL needs a lock SQLite does not wait for: several processes
        // opening one new file at once retry for a while instead of failing.
        let mut tries = 0;
        loop {
            match conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0)) {
                Ok(_) => break,
                Err(e)
                    if tries < 500
                        && matches!(
                            e.sqlite_error_code(),
                            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
                        ) =>
                {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(e) => return Err(e.into()),
            }
        }
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = Store { conn };
        store.migrate(MIGRATIONS.len())?;
        Ok(store)
    }

    /// Applies migrations up to `target` (a count); returns how many ran now. Each one reads
    /// the schema version inside its own write transaction, so processes opening the same new
    /// file at once never run a migration twice. Foreign keys are off while they run (a
    /// migration may rebuild a table others refer to, as SQLite advises) and checked before
    /// each commits.
    pub fn migrate(&mut self, target: usize) -> Result<usize, StoreError> {
        self.conn.pragma_update(None, "foreign_keys", "OFF")?;
        let ran = self.run_migrations(target);
        self.conn.pragma_update(None, "foreign_keys", "ON")?;
        ran
    }

    fn run_migrations(&mut self, target: usize) -> Result<usize, StoreError> {
        let mut ran = 0;
        loop {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let current: u32 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            let current = current as usize;
            if current > MIGRATIONS.len() {
                return Err(StoreError::NewerSchema {
                    found: current as u32,
                    known: MIGRATIONS.len() as u32,
                });
            }
            if current >= target {
                return Ok(ran);
            }
            tx.execute_batch(MIGRATIONS[current].1)?;
            let broken: Option<String> = tx
                .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
                .optional()?;
            if let Some(table) = broken {
                return Err(StoreError::Damaged(format!(
                    "migration {} leaves rows of {table} pointing nowhere",
                    MIGRATIONS[current].0
                )));
            }
            tx.pragma_update(None, "user_version", (current + 1) as u32)?;
            tx.commit()?;
            ran += 1;
        }
    }

    pub fn schema_version(&self) -> Result<u32, StoreError> {
        Ok(self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// The player without a Discord account called `name`, if there is one (creating nobody).
    pub fn find_local_player(&self, name: &str) -> Result<Option<Player>, StoreError> {
        let id: Option<PlayerId> = self
            .conn
            .query_row(
                "SELECT id FROM players WHERE name = ?1 AND discord_id IS NULL",
                [name.trim()],
                |r| r.get(0),
            )
            .optional()?;
        Ok(id.map(|id| Player {
            id,
            name: name.trim().to_string(),
            discord_id: None,
        }))
    }

    /// The console player called `name`, created on first use.
    pub fn local_player(&mut self, name: &str) -> Result<Player, StoreError> {
        let name = name.trim();
        // One statement that creates or finds: two processes naming the same new player at
        // once both end up with the one row.
        self.conn.execute(
            "INSERT INTO players (name, created_at) VALUES (?1, ?2)
             ON CONFLICT (name) WHERE discord_id IS NULL DO NOTHING",
            params![name, now()],
        )?;
        let id = self.conn.query_row(
            "SELECT id FROM players WHERE name = ?1 AND discord_id IS NULL",
            [name],
            |r| r.get(0),
        )?;
        Ok(Player {
            id,
            name: name.to_string(),
            discord_id: None,
        })
    }

    /// The player with this id.
    pub fn player(&self, id: PlayerId) -> Result<Player, StoreError> {
        Ok(self.conn.query_row(
            "SELECT name, discord_id FROM players WHERE id = ?1",
            [id],
            |r| {
                Ok(Player {
                    id,
                    name: r.get(0)?,
                    discord_id: r.get(1)?,
                })
            },
        )?)
    }

    /// The player with this Discord id, created on first use; the name is kept current.
    pub fn discord_player(&mut self, discord_id: &str, name: &str) -> Result<Player, StoreError> {
        self.conn.execute(
            "INSERT INTO players (name, discord_id, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (discord_id) DO UPDATE SET name = excluded.name",
            params![name, discord_id, now()],
        )?;
        let id = self.conn.query_row(
            "SELECT id FROM players WHERE discord_id = ?1",
            [discord_id],
            |r| r.get(0),
        )?;
        Ok(Player {
            id,
            name: name.to_string(),
            discord_id: Some(discord_id.to_string()),
        })
    }

    /// Stores a new match played under revision `rules` of its game's rules, with no clock.
    pub fn create_match(
        &mut self,
        game: GameKind,
        options: &[(String, String)],
        seed: u64,
        players: &[PlayerId],
        place: &Place,
        rules: u32,
    ) -> Result<MatchId, StoreError> {
        self.create_timed_match(game, options, seed, players, place, rules, None)
    }

    /// [`Store::create_match`] with a clock: the time control, clocks and first deadlines are
    /// stored in the same transaction as the match.
    #[allow(clippy::too_many_arguments)]
    pub fn create_timed_match(
        &mut self,
        game: GameKind,
        options: &[(String, String)],
        seed: u64,
        players: &[PlayerId],
        place: &Place,
        rules: u32,
        timing: Option<Timing>,
    ) -> Result<MatchId, StoreError> {
        let tx = self.write()?;
        let id = insert_match(&tx, game, options, seed, players, place, rules, now())?;
        if let Some(timing) = timing {
            set_timing(&tx, id, &timing)?;
        }
        tx.commit()?;
        Ok(id)
    }

    pub fn set_thread(&mut self, id: MatchId, thread_id: &str) -> Result<(), StoreError> {
        let n = self.conn.execute(
            "UPDATE matches SET thread_id = ?1 WHERE id = ?2",
            params![thread_id, id],
        )?;
        if n == 0 {
            return Err(StoreError::NoSuchMatch(id));
        }
        Ok(())
    }

    /// Applies `changes` to match `id` in one transaction, if it is active and at `expected`
    /// version; returns the new version.
    pub fn change(
        &mut self,
        id: MatchId,
        expected: u64,
        changes: &[Change],
    ) -> Result<u64, StoreError> {
        let tx = self.write()?;
        let t = now();
        // The request's key first: a request delivered twice at once fails here as a
        // duplicate, not as a stale version.
        for change in changes.iter().filter(|c| c.is_precondition()) {
            apply_change(&tx, id, expected + 1, change, t)?;
        }
        let bumped = tx.execute(
            "UPDATE matches SET version = version + 1, updated_at = ?1
             WHERE id = ?2 AND version = ?3 AND status = 'active'",
            params![t, id, expected as i64],
        )?;
        if bumped == 0 {
            return Err(why_not(&tx, id, expected));
        }
        for change in changes.iter().filter(|c| !c.is_precondition()) {
            apply_change(&tx, id, expected + 1, change, t)?;
        }
        tx.commit()?;
        Ok(expected + 1)
    }

    /// Reads a match and its whole log as one consistent snapshot (a read transaction), so a
    /// change committed meanwhile is seen either whole or not at all.
    pub fn load(&self, id: MatchId) -> Result<StoredMatch, StoreError> {
        self.load_from(id, 0)
    }

    /// Reads a match without its log (`actions` is empty), checking the log still agrees
    /// with it.
    pub fn load_head(&self, id: MatchId) -> Result<StoredMatch, StoreError> {
        self.load_from(id, u64::MAX)
    }

    /// Reads a match and its log from action `first_ply + 1` on (nothing past its end).
    pub fn load_from(&self, id: MatchId, first_ply: u64) -> Result<StoredMatch, StoreError> {
        // Inside a transaction already open (see `tx`), its view is the consistent one.
        if !self.conn.is_autocommit() {
            return read_match(&self.conn, id, first_ply);
        }
        let tx = self.conn.unchecked_transaction()?;
        let found = read_match(&tx, id, first_ply);
        tx.finish()?;
        found
    }

    /// The match's latest snapshot, if one was saved and its row reads. A row that does not
    /// (a damaged file) is as good as none: the log decides, and the detail is logged.
    pub fn snapshot(&self, id: MatchId) -> Result<Option<Snapshot>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT plies, rules, state, digest FROM snapshots WHERE match_id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, Value>(0)?,
                        r.get::<_, Value>(1)?,
                        r.get::<_, Value>(2)?,
                        r.get::<_, Value>(3)?,
                    ))
                },
            )
            .optional()?;
        let Some(row) = row else {
            return Ok(None);
        };
        let snapshot = match row {
            (Value::Integer(plies), Value::Integer(rules), Value::Text(state), digest)
                if plies >= 0 && u32::try_from(rules).is_ok() =>
            {
                Some(Snapshot {
                    plies: plies as u64,
                    rules: rules as u32,
                    state,
                    digest: match digest {
                        Value::Text(digest) => Some(digest),
                        _ => None,
                    },
                })
            }
            _ => None,
        };
        if snapshot.is_none() {
            tracing::warn!(
                match_id = id,
                "a snapshot row does not read; the log is replayed"
            );
        }
        Ok(snapshot)
    }

    /// Records that the request `key` was refused for match `id` (`lines` says how), so the
    /// same request delivered again is recognised; the match itself is unchanged. A key
    /// recorded already stays as it was.
    pub fn refusal(&mut self, id: MatchId, key: &str, lines: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT OR IGNORE INTO requests (key, match_id, version, lines, created_at)
             SELECT ?1, id, version, ?2, ?3 FROM matches WHERE id = ?4",
            params![key, lines, now(), id],
        )?;
        Ok(())
    }

    /// What the request with this key did (or how it was refused), if it was seen.
    pub fn request(&self, key: &str) -> Result<Option<Applied>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT match_id, version, lines FROM requests WHERE key = ?1",
                [key],
                |r| {
                    Ok(Applied {
                        match_id: r.get(0)?,
                        version: r.get::<_, i64>(1)? as u64,
                        lines: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    /// The player's matches, newest first; only active ones if `active_only`.
    pub fn matches_of(
        &self,
        player: PlayerId,
        active_only: bool,
    ) -> Result<Vec<MatchSummary>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT m.id, m.game, m.status, m.version, s.seat FROM matches m
             JOIN seats s ON s.match_id = m.id
             WHERE s.player_id = ?1 AND (?2 = 0 OR m.status = 'active')
             ORDER BY m.id DESC",
        )?;
        let rows = stmt.query_map(params![player, active_only as i64], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?;
        rows.map(|row| {
            let (id, game, status, version, seat) = row?;
            let corrupt = |detail: String| StoreError::Corrupt { id, detail };
            Ok(MatchSummary {
                id,
                game: game.parse().map_err(corrupt)?,
                status: Status::parse(&status)
                    .ok_or_else(|| corrupt(format!("bad status {status:?}")))?,
                version: version as u64,
                seat: Seat(seat as u8),
            })
        })
        .collect()
    }

    /// Records a nudge in match `id` at `now`, unless one was recorded after `since`: true
    /// when this one was recorded.
    pub fn nudge(&mut self, id: MatchId, now: i64, since: i64) -> Result<bool, StoreError> {
        let n = self.conn.execute(
            "UPDATE matches SET nudged_at = ?1
             WHERE id = ?2 AND (nudged_at IS NULL OR nudged_at <= ?3)",
            params![now, id, since],
        )?;
        Ok(n == 1)
    }

    /// When match `id` was last nudged, if ever.
    pub fn nudged_at(&self, id: MatchId) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT nudged_at FROM matches WHERE id = ?1", [id], |r| {
                r.get::<_, Option<i64>>(0)
            })
            .optional()?
            .flatten())
    }

    /// Direct access for tests and maintenance tools.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }
}

/// Inserts a new match and its seats inside `tx` (a caller's transaction), created at `t`.
#[allow(clippy::too_many_arguments)]
fn insert_match(
    tx: &Connection,
    game: GameKind,
    options: &[(String, String)],
    seed: u64,
    players: &[PlayerId],
    place: &Place,
    rules: u32,
    t: i64,
) -> Result<MatchId, StoreError> {
    let options = serde_json::to_string(options).expect("pairs serialise");
    tx.execute(
        "INSERT INTO matches (game, options, seed, status, guild_id, channel_id, thread_id,
                              created_at, updated_at, rules)
         VALUES (?1, ?2, ?3, 'active', ?4, ?5, ?6, ?7, ?7, ?8)",
        params![
            game.id(),
            options,
            seed as i64,
            place.guild_id,
            place.channel_id,
            place.thread_id,
            t,
            rules
        ],
    )?;
    let id = tx.last_insert_rowid();
    for (seat, player) in players.iter().enumerate() {
        tx.execute(
            "INSERT INTO seats (match_id, seat, player_id) VALUES (?1, ?2, ?3)",
            params![id, seat as i64, player],
        )?;
    }
    Ok(id)
}

/// Gives a match being created its clock: time control, clocks and first deadlines.
fn set_timing(tx: &Connection, id: MatchId, timing: &Timing) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE matches SET time_control = ?1, clocks = ?2 WHERE id = ?3",
        params![timing.control, timing.clocks, id],
    )?;
    deadlines::replace(tx, id, timing.deadlines)
}

fn why_not(tx: &Connection, id: MatchId, expected: u64) -> StoreError {
    let row = tx
        .query_row(
            "SELECT status, version FROM matches WHERE id = ?1",
            [id],
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
        )
        .optional();
    match row {
        Err(e) => e.into(),
        Ok(None) => StoreError::NoSuchMatch(id),
        Ok(Some((status, version))) => match Status::parse(&status) {
            Some(Status::Active) => StoreError::Stale {
                id,
                expected,
                actual: version as u64,
            },
            Some(status) => StoreError::NotActive { id, status },
            None => StoreError::Corrupt {
                id,
                detail: format!("bad status {status:?}"),
            },
        },
    }
}

fn apply_change(
    tx: &Connection,
    id: MatchId,
    version: u64,
    change: &Change,
    t: i64,
) -> Result<(), StoreError> {
    match change {
        Change::Action { seat, text } => {
            tx.execute(
                "UPDATE matches SET plies = plies + 1, draw_votes = NULL WHERE id = ?1",
                [id],
            )?;
            tx.execute(
                "INSERT INTO actions (match_id, ply, seat, action, created_at)
                 VALUES (?1, (SELECT plies FROM matches WHERE id = ?1), ?2, ?3, ?4)",
                params![id, seat.0, text, t],
            )?;
        }
        Change::Snapshot(snapshot) => {
            tx.execute(
                "INSERT INTO snapshots (match_id, plies, rules, state, digest)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (match_id) DO UPDATE
                 SET plies = excluded.plies, rules = excluded.rules, state = excluded.state,
                     digest = excluded.digest",
                params![
                    id,
                    snapshot.plies as i64,
                    snapshot.rules,
                    snapshot.state,
                    snapshot.digest
                ],
            )?;
        }
        Change::Request {
            key,
            lines,
            replaces,
        } => {
            if let Some(old) = replaces {
                tx.execute(
                    "DELETE FROM requests WHERE key = ?1 AND match_id = ?2 AND lines = ?3",
                    params![key, id, old],
                )?;
            }
            let inserted = tx.execute(
                "INSERT INTO requests (key, match_id, version, lines, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (key) DO NOTHING",
                params![key, id, version as i64, lines, t],
            )?;
            if inserted == 0 {
                return Err(StoreError::Duplicate(key.to_string()));
            }
        }
        Change::DrawVotes(seats) => {
            let bits = seats.iter().fold(0i64, |bits, s| bits | 1 << s.0);
            tx.execute(
                "UPDATE matches SET draw_votes = ?1 WHERE id = ?2",
                params![(bits != 0).then_some(bits), id],
            )?;
        }
        Change::Finish(outcome) => {
            let places = serde_json::to_string(&outcome.places).expect("places serialise");
            tx.execute(
                "INSERT INTO outcomes (match_id, places, reason, finished_at) VALUES (?1, ?2, ?3, ?4)",
                params![id, places, outcome.reason, t],
            )?;
            tx.execute(
                "UPDATE matches SET status = 'finished', draw_votes = NULL WHERE id = ?1",
                [id],
            )?;
        }
        Change::Abort => {
            tx.execute(
                "UPDATE matches SET status = 'aborted', draw_votes = NULL WHERE id = ?1",
                [id],
            )?;
        }
        Change::Clocks(clocks) => {
            tx.execute(
                "UPDATE matches SET clocks = ?1 WHERE id = ?2",
                params![clocks, id],
            )?;
        }
        Change::Deadlines(deadlines) => deadlines::replace(tx, id, deadlines)?,
        Change::Claim { deadline } => deadlines::claim(tx, *deadline, t)?,
        Change::Reseat { seat, player } => admin::reseat(tx, id, seat.0, *player)?,
        Change::Admin {
            admin,
            action,
            detail,
        } => admin::log_match(tx, id, *admin, action, detail, t)?,
        Change::Owe(post) => {
            outbox::insert(tx, post, t)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_outbox;
