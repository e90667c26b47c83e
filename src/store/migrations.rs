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
    (
        "0020_registration_order",
        include_str!("../../migrations/0020_registration_order.sql"),
    ),
    (
        "0021_web_pages",
        include_str!("../../migrations/0021_web_pages.sql"),
    ),
    (
        "0022_lookups",
        include_str!("../../migrations/0022_lookups.sql"),
    ),
];

/// PostgreSQL's migrations, each with the schema version it leaves: PostgreSQL support began
/// at version 19, so a new PostgreSQL database starts from a baseline equal to SQLite's schema
/// at 19, and every later migration comes in both dialects (a test compares the schemas).
pub const POSTGRES_MIGRATIONS: &[(usize, &str, &str)] = &[
    (
        19,
        "0019_baseline",
        include_str!("../../migrations/postgres/0019_baseline.sql"),
    ),
    (
        20,
        "0020_registration_order",
        include_str!("../../migrations/postgres/0020_registration_order.sql"),
    ),
    (
        21,
        "0021_web_pages",
        include_str!("../../migrations/postgres/0021_web_pages.sql"),
    ),
    (
        22,
        "0022_lookups",
        include_str!("../../migrations/postgres/0022_lookups.sql"),
    ),
];

impl Store {
    /// Applies migrations up to `target` (a count); returns how many ran now. Each one reads
    /// the schema version inside its own write transaction, so processes opening the same new
    /// database at once never run a migration twice. On SQLite foreign keys are off while they
    /// run (a migration may rebuild a table others refer to, as SQLite advises) and checked
    /// before each commits.
    pub fn migrate(&mut self, target: usize) -> Result<usize, StoreError> {
        let Some(conn) = self.conn.as_sqlite() else {
            return self.migrate_postgres(target);
        };
        conn.pragma_update(None, "foreign_keys", "OFF")?;
        let ran = run_sqlite_migrations(conn, target);
        conn.pragma_update(None, "foreign_keys", "ON")?;
        ran
    }

    fn migrate_postgres(&mut self, target: usize) -> Result<usize, StoreError> {
        let mut ran = 0;
        loop {
            let tx = self.write()?;
            tx.execute_batch(
                "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)",
            )?;
            let current: Option<i64> =
                tx.query_row("SELECT MAX(version) FROM schema_version", [], |r| r.get(0))?;
            let current = current.unwrap_or(0) as usize;
            if current > MIGRATIONS.len() {
                return Err(StoreError::NewerSchema {
                    found: current as u32,
                    known: MIGRATIONS.len() as u32,
                });
            }
            let next = POSTGRES_MIGRATIONS
                .iter()
                .find(|(after, ..)| *after > current);
            let Some((after, _, sql)) = next.filter(|_| current < target) else {
                return Ok(ran);
            };
            tx.execute_batch(sql)?;
            tx.execute("DELETE FROM schema_version", [])?;
            tx.execute(
                "INSERT INTO schema_version (version) VALUES (?1)",
                [*after as i64],
            )?;
            tx.commit()?;
            ran += 1;
        }
    }

    pub fn schema_version(&self) -> Result<u32, StoreError> {
        Ok(match self.conn.as_sqlite() {
            Some(conn) => conn.query_row("PRAGMA user_version", [], |r| r.get(0))?,
            None => self.conn.query_row(
                "SELECT CAST(MAX(version) AS BIGINT) FROM schema_version",
                [],
                |r| r.get::<_, i64>(0).map(|v| v as u32),
            )?,
        })
    }
}

fn run_sqlite_migrations(conn: &rusqlite::Connection, target: usize) -> Result<usize, StoreError> {
    let mut ran = 0;
    loop {
        let tx = rusqlite::Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
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
