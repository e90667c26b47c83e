//! The schema migrations, in the order they run; a database's `PRAGMA user_version` is how
//! many of them it has had.

use super::{Store, StoreError};
use rusqlite::{OptionalExtension, TransactionBehavior};

/// The schema migrations, applied in order; `PRAGMA user_version` records how many ran.
pub const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_matches",
        include_str!("../../migrations/0001_matches.sql"),
    ),
    (
        "0002_draw_votes",
        include_str!("../../migrations/0002_draw_votes.sql"),
    ),
    (
        "0003_exactly_once",
        include_str!("../../migrations/0003_exactly_once.sql"),
    ),
    ("0004_time", include_str!("../../migrations/0004_time.sql")),
    (
        "0005_challenges",
        include_str!("../../migrations/0005_challenges.sql"),
    ),
    (
        "0006_settings",
        include_str!("../../migrations/0006_settings.sql"),
    ),
    (
        "0007_nudges",
        include_str!("../../migrations/0007_nudges.sql"),
    ),
    (
        "0008_vacations",
        include_str!("../../migrations/0008_vacations.sql"),
    ),
    (
        "0009_view_by_dm",
        include_str!("../../migrations/0009_view_by_dm.sql"),
    ),
    (
        "0010_admin",
        include_str!("../../migrations/0010_admin.sql"),
    ),
    (
        "0011_leagues",
        include_str!("../../migrations/0011_leagues.sql"),
    ),
    (
        "0012_swiss",
        include_str!("../../migrations/0012_swiss.sql"),
    ),
    (
        "0013_substitutes",
        include_str!("../../migrations/0013_substitutes.sql"),
    ),
    (
        "0014_checked_snapshots_and_console",
        include_str!("../../migrations/0014_checked_snapshots_and_console.sql"),
    ),
    (
        "0015_time_zone",
        include_str!("../../migrations/0015_time_zone.sql"),
    ),
    (
        "0016_outbox",
        include_str!("../../migrations/0016_outbox.sql"),
    ),
    (
        "0017_world",
        include_str!("../../migrations/0017_world.sql"),
    ),
    (
        "0018_openings",
        include_str!("../../migrations/0018_openings.sql"),
    ),
    (
        "0019_computers",
        include_str!("../../migrations/0019_computers.sql"),
    ),
];

impl Store {
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
}
