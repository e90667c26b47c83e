//! Scratch stores for tests, on either engine: SQLite in memory, or, when the environment names
//! a PostgreSQL server in `DECKMATE_TEST_POSTGRES` (a `postgres://` URL whose user may create
//! schemas), a new empty schema on it for each store, so tests running at once never meet.
//! `.ci/run` starts a throwaway server and runs the store, table, scheduler and league tests a
//! second time with it; without the variable they run on SQLite alone.

use super::{Store, StoreError};
use std::sync::atomic::{AtomicU32, Ordering};

/// The variable naming the PostgreSQL server tests may use.
pub const POSTGRES_VARIABLE: &str = "DECKMATE_TEST_POSTGRES";

/// The PostgreSQL server tests may use, if the environment names one.
pub fn postgres_url() -> Option<String> {
    std::env::var(POSTGRES_VARIABLE)
        .ok()
        .filter(|u| super::is_postgres_url(u))
}

/// A new empty store: a fresh PostgreSQL schema when [`POSTGRES_VARIABLE`] is set, else an
/// SQLite database in memory.
pub fn scratch() -> Store {
    match postgres_url() {
        Some(url) => scratch_postgres(&url).expect("a scratch schema on the test server"),
        None => Store::open_in_memory().expect("an SQLite store in memory"),
    }
}

/// The URL of a new empty schema on the server at `url`: connections to it see only that
/// schema (it is first on their `search_path`).
pub fn scratch_schema(url: &str) -> Result<String, StoreError> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let schema = format!(
        "t{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let admin = super::db::Connection::postgres(url)?;
    admin.execute_batch(&format!("CREATE SCHEMA {schema}"))?;
    let joiner = if url.contains('?') { '&' } else { '?' };
    Ok(format!("{url}{joiner}options=-csearch_path%3D{schema}"))
}

/// A store on a new empty schema of the server at `url`.
pub fn scratch_postgres(url: &str) -> Result<Store, StoreError> {
    Store::open_postgres(&scratch_schema(url)?)
}
