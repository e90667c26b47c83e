//! The store's connection to its database: an SQLite file (the default, nothing to install) or
//! a PostgreSQL server (several processes on several hosts). The store writes its SQL once, in
//! the subset both engines speak (`?1` parameters, `ON CONFLICT`, `RETURNING`); this module
//! binds the values, reads the rows and runs the transactions for whichever engine it holds.
//!
//! Write transactions are serialised on both engines: SQLite's `BEGIN IMMEDIATE` takes the
//! file's write lock, and on PostgreSQL every write transaction first takes one advisory lock
//! ([`postgres::WRITE_LOCK`]), so a store method that reads and then writes sees no other
//! process's write in between, exactly as on SQLite. Reads outside a transaction never wait.

mod postgres;
mod value;

#[cfg(test)]
mod tests;

pub use postgres::{may_block, off_runtime};
pub(crate) use value::params;
pub use value::{ColumnIndex, FromValue, Params, Row, ToValue, Value};

use postgres::PgConn;
use std::cell::RefCell;
use thiserror::Error;

/// The database engine a connection talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

#[derive(Debug, Error)]
pub enum DbError {
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("PostgreSQL: {}", postgres_detail(.0))]
    Postgres(#[from] tokio_postgres::Error),
    #[error("PostgreSQL's client could not start its runtime: {0}")]
    Runtime(std::io::Error),
    #[error(
        "the connection to PostgreSQL was lost with the transaction open; nothing of it was kept"
    )]
    Lost,
    #[error(
        "a write sent along with a later statement failed (reported then); nothing of the transaction was kept"
    )]
    Spoiled,
    #[error("the query returned no row")]
    NoRows,
    #[error("column {index}: {detail}")]
    Column { index: usize, detail: String },
}

pub type Result<T, E = DbError> = std::result::Result<T, E>;

impl DbError {
    /// SQLite's error code, for an SQLite error.
    pub fn sqlite_error_code(&self) -> Option<rusqlite::ErrorCode> {
        match self {
            DbError::Sqlite(e) => e.sqlite_error_code(),
            _ => None,
        }
    }

    /// PostgreSQL's SQLSTATE, for an error the server reported.
    pub fn sqlstate(&self) -> Option<&str> {
        match self {
            DbError::Postgres(e) => e.code().map(|c| c.code()),
            _ => None,
        }
    }

    /// The connection to the server is gone (PostgreSQL).
    pub fn is_disconnected(&self) -> bool {
        matches!(self, DbError::Postgres(e) if e.is_closed())
    }
}

/// A database URL fit for a log: its password (in the user part or a `password=` parameter)
/// replaced by `***`.
pub fn redact_url(url: &str) -> String {
    let mut out = url.to_string();
    // The user part ends at the first `@` (as the client reads it), so a password may hold
    // `/`, `?` or `#`.
    if let Some(scheme_end) = out.find("://") {
        let rest = scheme_end + 3;
        if let Some(at) = out[rest..].find('@')
            && let Some(colon) = out[rest..rest + at].find(':')
        {
            out.replace_range(rest + colon + 1..rest + at, "***");
        }
    }
    if let Some(query) = out.find('?') {
        let (head, params) = out.split_at(query + 1);
        let params: Vec<String> = params
            .split('&')
            .map(|p| match p.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                _ => p.to_string(),
            })
            .collect();
        out = format!("{head}{}", params.join("&"));
    }
    out
}

/// What the server said (its message, SQLSTATE and detail), or the client's own error.
fn postgres_detail(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => {
            let mut text = format!("{} ({})", db.message(), db.code().code());
            if let Some(detail) = db.detail() {
                text.push_str(": ");
                text.push_str(detail);
            }
            text
        }
        None => {
            let source = std::error::Error::source(e).map(|s| format!(": {s}"));
            format!("{e}{}", source.unwrap_or_default())
        }
    }
}

/// `query_row(..).optional()`: no row is `None`, as with rusqlite.
pub trait OptionalExtension<T> {
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExtension<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(value) => Ok(Some(value)),
            Err(DbError::NoRows) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

enum Inner {
    Sqlite(rusqlite::Connection),
    Postgres(Box<RefCell<PgConn>>),
}

/// A connection to SQLite or PostgreSQL, with the calls the store makes.
pub struct Connection {
    inner: Inner,
}

impl Connection {
    pub fn sqlite(conn: rusqlite::Connection) -> Connection {
        // Every statement the store runs stays prepared: rusqlite keeps 16 by default, fewer
        // than one move uses, so a move prepared most of its statements again each time.
        conn.set_prepared_statement_cache_capacity(STATEMENTS);
        Connection {
            inner: Inner::Sqlite(conn),
        }
    }

    /// Connects to the PostgreSQL server a `postgres://` URL names.
    pub fn postgres(url: &str) -> Result<Connection> {
        Ok(Connection {
            inner: Inner::Postgres(Box::new(RefCell::new(PgConn::connect(url, false)?))),
        })
    }

    /// For PostgreSQL, a second session on the same database whose transactions are
    /// read-only; None for SQLite (see `Store::reader`).
    pub fn read_only_twin(&self) -> Result<Option<Connection>> {
        match &self.inner {
            Inner::Sqlite(_) => Ok(None),
            Inner::Postgres(c) => {
                let twin = PgConn::connect(c.borrow().url(), true)?;
                Ok(Some(Connection {
                    inner: Inner::Postgres(Box::new(RefCell::new(twin))),
                }))
            }
        }
    }

    pub fn engine(&self) -> Engine {
        match self.inner {
            Inner::Sqlite(_) => Engine::Sqlite,
            Inner::Postgres(_) => Engine::Postgres,
        }
    }

    /// The SQLite connection underneath, if that is the engine.
    pub fn as_sqlite(&self) -> Option<&rusqlite::Connection> {
        match &self.inner {
            Inner::Sqlite(c) => Some(c),
            Inner::Postgres(_) => None,
        }
    }

    /// Runs one statement; returns how many rows it changed.
    pub fn execute(&self, sql: &str, params: impl Params) -> Result<usize> {
        let values = params.into_values();
        match &self.inner {
            Inner::Sqlite(c) => Ok(c.prepare_cached(sql)?.execute(sqlite_params(&values))?),
            Inner::Postgres(c) => c.borrow_mut().execute(sql, &values),
        }
    }

    /// Runs statements separated by `;`, without parameters.
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        match &self.inner {
            Inner::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Inner::Postgres(c) => c.borrow_mut().execute_batch(sql),
        }
    }

    /// Runs a write whose count nobody reads. On PostgreSQL, inside a transaction, it is sent
    /// with the next statement whose answer is awaited (or the COMMIT), saving a round trip;
    /// its failure then fails that statement and so the transaction. Use it only for writes
    /// whose failure is the whole transaction's, never for one whose error the caller handles.
    pub fn execute_later(&self, sql: &str, params: impl Params) -> Result<()> {
        let values = params.into_values();
        match &self.inner {
            Inner::Sqlite(c) => {
                c.prepare_cached(sql)?.execute(sqlite_params(&values))?;
                Ok(())
            }
            Inner::Postgres(c) => c.borrow_mut().execute_later(sql, &values),
        }
    }

    /// How many times this connection waited for its server (PostgreSQL; 0 for SQLite).
    pub fn round_trips(&self) -> u64 {
        match &self.inner {
            Inner::Sqlite(_) => 0,
            Inner::Postgres(c) => c.borrow().round_trips,
        }
    }

    /// Runs several queries and returns each one's rows, in order: on PostgreSQL they go to
    /// the server together, in one round trip.
    pub fn query_many(&self, queries: &[(&str, Vec<Value>)]) -> Result<Vec<Vec<Row>>> {
        match &self.inner {
            Inner::Sqlite(c) => queries
                .iter()
                .map(|(sql, values)| {
                    let mut stmt = c.prepare_cached(sql)?;
                    let width = stmt.column_count();
                    let mut rows = stmt.query(sqlite_params(values))?;
                    let mut out = Vec::new();
                    while let Some(row) = rows.next()? {
                        out.push(sqlite_row(row, width)?);
                    }
                    Ok(out)
                })
                .collect(),
            Inner::Postgres(c) => c.borrow_mut().query_many(queries),
        }
    }

    /// All rows of a query, each mapped by `f`.
    pub fn query_all<T>(
        &self,
        sql: &str,
        params: impl Params,
        mut f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        let rows = self.query_many(&[(sql, params.into_values())])?;
        rows.iter().flatten().map(&mut f).collect()
    }

    /// The first row of a query mapped by `f`, or [`DbError::NoRows`].
    pub fn query_row<T>(
        &self,
        sql: &str,
        params: impl Params,
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        let values = params.into_values();
        match &self.inner {
            // Only the first row is read.
            Inner::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let width = stmt.column_count();
                let mut rows = stmt.query(sqlite_params(&values))?;
                match rows.next()? {
                    Some(row) => f(&sqlite_row(row, width)?),
                    None => Err(DbError::NoRows),
                }
            }
            Inner::Postgres(c) => {
                let rows = c.borrow_mut().query(sql, &values)?;
                rows.first().map_or(Err(DbError::NoRows), f)
            }
        }
    }

    /// A statement to run with several parameter lists (kept for rusqlite's shape; both
    /// engines cache the prepared statement by its text).
    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        Ok(Statement {
            conn: self,
            sql: sql.to_string(),
        })
    }

    /// Same as [`Connection::prepare`].
    pub fn prepare_cached(&self, sql: &str) -> Result<Statement<'_>> {
        self.prepare(sql)
    }

    /// No transaction is open.
    pub fn is_autocommit(&self) -> bool {
        match &self.inner {
            Inner::Sqlite(c) => c.is_autocommit(),
            Inner::Postgres(c) => !c.borrow().in_transaction,
        }
    }

    /// Opens the outermost transaction, holding the write lock (see the module's note).
    pub fn begin_write(&self) -> Result<()> {
        match &self.inner {
            Inner::Sqlite(c) => sqlite_control(c, "BEGIN IMMEDIATE"),
            Inner::Postgres(c) => c.borrow_mut().begin(&format!(
                "BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_advisory_xact_lock({})",
                postgres::WRITE_LOCK
            )),
        }
    }

    /// Opens the outermost transaction for reads that must agree with each other (one
    /// snapshot of the database), taking no lock.
    pub fn begin_read(&self) -> Result<()> {
        match &self.inner {
            Inner::Sqlite(c) => sqlite_control(c, "BEGIN DEFERRED"),
            Inner::Postgres(c) => c
                .borrow_mut()
                .begin("BEGIN ISOLATION LEVEL REPEATABLE READ"),
        }
    }

    /// Ends the outermost transaction, keeping (`commit`) or undoing its changes.
    pub fn end(&self, commit: bool) -> Result<()> {
        match &self.inner {
            Inner::Sqlite(c) => sqlite_control(c, if commit { "COMMIT" } else { "ROLLBACK" }),
            Inner::Postgres(c) => c.borrow_mut().end(commit),
        }
    }

    /// Opens a savepoint inside the open transaction.
    pub fn savepoint(&self) -> Result<()> {
        self.control("SAVEPOINT atomically")
    }

    /// Releases the innermost savepoint into the transaction around it, keeping (`commit`) or
    /// undoing its changes.
    pub fn end_savepoint(&self, commit: bool) -> Result<()> {
        if !commit {
            self.control("ROLLBACK TO SAVEPOINT atomically")?;
        }
        self.control("RELEASE SAVEPOINT atomically")
    }

    /// Runs a statement that steers the open transaction (a savepoint): prepared once on
    /// SQLite, sent with the next statement awaited on PostgreSQL.
    fn control(&self, sql: &str) -> Result<()> {
        match &self.inner {
            Inner::Sqlite(c) => sqlite_control(c, sql),
            Inner::Postgres(c) => {
                c.borrow_mut().control_later(sql);
                Ok(())
            }
        }
    }
}

/// How many prepared statements an SQLite connection keeps.
const STATEMENTS: usize = 256;

/// Runs a transaction-control statement (BEGIN, COMMIT, a savepoint) on SQLite, prepared once.
fn sqlite_control(c: &rusqlite::Connection, sql: &str) -> Result<()> {
    c.prepare_cached(sql)?.execute([])?;
    Ok(())
}

/// A statement of [`Connection::prepare`].
pub struct Statement<'c> {
    conn: &'c Connection,
    sql: String,
}

impl Statement<'_> {
    /// All rows, each mapped by `f`, as an iterator of results (rusqlite's shape).
    pub fn query_map<T>(
        &mut self,
        params: impl Params,
        mut f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<std::vec::IntoIter<Result<T>>> {
        let rows = self.conn.query_all(&self.sql, params, |r| Ok(f(r)))?;
        Ok(rows.into_iter())
    }

    pub fn query_row<T>(
        &mut self,
        params: impl Params,
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        self.conn.query_row(&self.sql, params, f)
    }

    pub fn execute(&mut self, params: impl Params) -> Result<usize> {
        self.conn.execute(&self.sql, params)
    }

    /// The query returns at least one row.
    pub fn exists(&mut self, params: impl Params) -> Result<bool> {
        Ok(self
            .conn
            .query_row(&self.sql, params, |_| Ok(()))
            .optional()?
            .is_some())
    }
}

fn sqlite_params(
    values: &[Value],
) -> rusqlite::ParamsFromIter<impl Iterator<Item = rusqlite::types::Value> + '_> {
    rusqlite::params_from_iter(values.iter().map(|v| match v {
        Value::Null => rusqlite::types::Value::Null,
        Value::Int(i) => rusqlite::types::Value::Integer(*i),
        Value::Real(f) => rusqlite::types::Value::Real(*f),
        Value::Text(s) => rusqlite::types::Value::Text(s.clone()),
        Value::Blob(b) => rusqlite::types::Value::Blob(b.clone()),
    }))
}

fn sqlite_row(row: &rusqlite::Row, width: usize) -> Result<Row> {
    use rusqlite::types::ValueRef;
    let mut values = Vec::with_capacity(width);
    for i in 0..width {
        values.push(match row.get_ref(i)? {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Int(i),
            ValueRef::Real(f) => Value::Real(f),
            ValueRef::Text(t) => match std::str::from_utf8(t) {
                Ok(t) => Value::Text(t.to_string()),
                Err(e) => {
                    return Err(DbError::Column {
                        index: i,
                        detail: format!("text that is not UTF-8 ({e})"),
                    });
                }
            },
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        });
    }
    Ok(Row { values })
}
