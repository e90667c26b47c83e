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
    super::db::off_runtime(|| {
        let admin = super::db::Connection::postgres(url)?;
        admin.execute_batch(&format!("CREATE SCHEMA {schema}"))
    })?;
    let joiner = if url.contains('?') { '&' } else { '?' };
    Ok(format!("{url}{joiner}options=-csearch_path%3D{schema}"))
}

/// A store on a new empty schema of the server at `url`.
pub fn scratch_postgres(url: &str) -> Result<Store, StoreError> {
    Store::open_postgres(&scratch_schema(url)?)
}

/// A scratch database that tests can open more than once (a restart): a new SQLite file under
/// the temporary directory, or a new schema on the test server.
#[derive(Clone, Debug)]
pub struct ScratchDb {
    location: String,
}

impl ScratchDb {
    /// A new empty database; `name` tells the file apart from other tests' (SQLite).
    pub fn new(name: &str) -> ScratchDb {
        let location = match postgres_url() {
            Some(url) => scratch_schema(&url).expect("a scratch schema on the test server"),
            None => {
                let dir = std::env::temp_dir()
                    .join(format!("deckmate-scratch-{}-{name}", std::process::id()));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).expect("a scratch directory");
                dir.join("test.db").to_string_lossy().into_owned()
            }
        };
        ScratchDb { location }
    }

    /// Opens it (again), as a restarted process would.
    pub fn open(&self) -> Store {
        Store::open(&self.location).expect("the scratch database opens")
    }

    /// Its file path or PostgreSQL URL, as `--db` and `DATABASE_URL` take it.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// Its file, when it is an SQLite database.
    pub fn file(&self) -> Option<&std::path::Path> {
        (!super::is_postgres_url(&self.location)).then(|| std::path::Path::new(&self.location))
    }
}

/// Makes `table` refuse new rows with `message` while `condition` (SQL, true if empty) holds,
/// as a full disk or a damaged table would: the engine's own error, raised by a trigger.
pub fn refuse_inserts(store: &Store, table: &str, condition: &str, message: &str) {
    let condition = if condition.is_empty() {
        "TRUE"
    } else {
        condition
    };
    let sql = match store.engine() {
        super::Engine::Sqlite => format!(
            "CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} WHEN {condition}
             BEGIN SELECT RAISE(ABORT, '{message}'); END;"
        ),
        super::Engine::Postgres => format!(
            "CREATE FUNCTION refuse_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF {condition} THEN RAISE EXCEPTION '{message}'; END IF; RETURN NEW; END $$;
             CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table}
                 FOR EACH ROW EXECUTE FUNCTION refuse_{table}();"
        ),
    };
    store
        .connection()
        .execute_batch(&sql)
        .expect("the trigger is made");
}

/// Undoes [`refuse_inserts`] on `table`.
pub fn allow_inserts(store: &Store, table: &str) {
    let sql = match store.engine() {
        super::Engine::Sqlite => format!("DROP TRIGGER refuse_{table}"),
        super::Engine::Postgres => format!("DROP TRIGGER refuse_{table} ON {table}"),
    };
    store
        .connection()
        .execute_batch(&sql)
        .expect("the trigger is dropped");
}
