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
//! thread does all database work. It runs on an SQLite file by default, or on a PostgreSQL
//! server when opened with a `postgres://` URL ([`Store::open_url`]); the SQL is written once
//! for both (see [`db`]).

use crate::games::GameKind;
use db::Connection;
use rusqlite::ErrorCode;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

mod admin;
pub mod challenges;
mod computers;
mod console;
pub mod db;
mod deadlines;
mod health;
pub mod league_rulings;
pub mod leagues;
mod matches;
mod migrations;
mod model;
pub mod outbox;
mod players;
pub mod public;
mod read;
mod read_only;
mod settings;
pub mod testing;
mod tx;
mod vacations;
mod world;

pub use admin::{AdminEntry, ServerSettings};
pub use computers::{ComputerSeat, computer_name};
pub use console::SessionLine;
pub use db::Engine;
pub use deadlines::{Deadline, DeadlineKind, NewDeadline};
pub use health::Health;
use matches::{insert_match, set_timing};
pub use migrations::{MIGRATIONS, POSTGRES_MIGRATIONS};
pub use settings::{Settings, Zone};
pub use tx::Level;
pub use vacations::{VACATION_DAYS, Vacation, VacationError};
pub use world::HoldReason;

pub use challenges::{
    Accepted, Challenge, ChallengeError, ChallengeId, ChallengeSeat, ChallengeStatus, NewChallenge,
};

pub use model::{
    Applied, Change, MatchId, MatchSummary, Place, Player, PlayerId, Snapshot, Status, StoreError,
    StoredAction, StoredMatch, Timing,
};

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
    /// A path that is a `postgres://` URL opens that PostgreSQL database instead (as the
    /// console's `--db` and `deckmate league --db` allow).
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        if let Some(url) = path.as_ref().to_str().filter(|p| is_postgres_url(p)) {
            return Self::open_postgres(url);
        }
        Self::setup(rusqlite::Connection::open(path)?)
    }

    pub fn open_in_memory() -> Result<Store, StoreError> {
        Self::setup(rusqlite::Connection::open_in_memory()?)
    }

    /// Connects to a PostgreSQL database and brings its schema up to date.
    /// It may be called from async code: the blocking client then works on a thread of its
    /// own until the store is open.
    pub fn open_postgres(url: &str) -> Result<Store, StoreError> {
        db::off_runtime(|| {
            let mut store = Store {
                conn: Connection::postgres(url)?,
            };
            store.migrate(MIGRATIONS.len())?;
            Ok(store)
        })
    }

    /// Which engine the store runs on.
    pub fn engine(&self) -> Engine {
        self.conn.engine()
    }

    fn setup(conn: rusqlite::Connection) -> Result<Store, StoreError> {
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
        let mut store = Store {
            conn: Connection::sqlite(conn),
        };
        store.migrate(MIGRATIONS.len())?;
        Ok(store)
    }

    /// Direct access for tests and maintenance tools.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }
}

#[cfg(test)]
mod tests;

/// A `postgres://` or `postgresql://` URL, rather than a file path.
pub fn is_postgres_url(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}
