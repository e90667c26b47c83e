//! The PostgreSQL side of [`super::Connection`]: a blocking client (the `postgres` crate, which
//! runs its own small runtime, so it is called only from the table's thread and never from the
//! async runtime), prepared statements cached by their text, the store's `?1` parameters
//! rewritten as `$1`, and [`Value`] bound and read by the column's type.

use super::{Result, Row, Value};
use bytes::BytesMut;
use postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};
use postgres::{Client, NoTls, Statement};
use std::collections::HashMap;
use std::error::Error;

/// The advisory lock every write transaction takes first: writes are serialised across
/// processes, as SQLite's file lock serialises them ("dmwr" in ASCII).
pub const WRITE_LOCK: i64 = 0x646d_7772;

pub(super) struct PgConn {
    /// Kept to open more sessions; it may hold a password, so it is never shown.
    url: String,
    /// Always Some until dropped (see `Drop`).
    client: Option<Client>,
    read_only: bool,
    statements: HashMap<String, Statement>,
    pub(super) in_transaction: bool,
}

impl PgConn {
    /// Connects; a `read_only` session refuses every write.
    pub(super) fn connect(url: &str, read_only: bool) -> Result<PgConn> {
        Ok(PgConn {
            url: url.to_string(),
            client: Some(open_client(url, read_only)?),
            read_only,
            statements: HashMap::new(),
            in_transaction: false,
        })
    }

    /// Runs `f` on the client, off the async runtime if this thread drives one. A connection
    /// the server or the network closed is opened again first, when no transaction was open
    /// on it (one that was is lost with it: its call fails, and the next one reconnects).
    fn with<T: Send>(&mut self, f: impl FnOnce(&mut Client) -> T + Send) -> Result<T> {
        self.reopen_if_lost()?;
        let client = self
            .client
            .as_mut()
            .expect("the client is open until dropped");
        Ok(off_runtime(|| f(client)))
    }

    /// Opens the session again if it was lost and no transaction was open on it; the
    /// statements prepared on the lost one go with it.
    fn reopen_if_lost(&mut self) -> Result<()> {
        let closed = self.client.as_ref().is_none_or(Client::is_closed);
        if closed && !self.in_transaction {
            tracing::warn!("the connection to PostgreSQL was lost; connecting again");
            self.client = Some(open_client(&self.url, self.read_only)?);
            self.statements.clear();
        }
        Ok(())
    }

    pub(super) fn url(&self) -> &str {
        &self.url
    }

    fn statement(&mut self, sql: &str) -> Result<Statement> {
        self.reopen_if_lost()?;
        if let Some(stmt) = self.statements.get(sql) {
            return Ok(stmt.clone());
        }
        let stmt = self.with(|c| c.prepare(&dollar_parameters(sql)))??;
        self.statements.insert(sql.to_string(), stmt.clone());
        Ok(stmt)
    }

    pub(super) fn execute(&mut self, sql: &str, values: &[Value]) -> Result<usize> {
        let stmt = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v as _).collect();
        Ok(self.with(|c| c.execute(&stmt, &params))?? as usize)
    }

    pub(super) fn query(&mut self, sql: &str, values: &[Value]) -> Result<Vec<Row>> {
        let stmt = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v as _).collect();
        let rows = self.with(|c| c.query(&stmt, &params))??;
        rows.iter()
            .map(|row| {
                let values = (0..row.len())
                    .map(|i| row.try_get::<_, Value>(i))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Row { values })
            })
            .collect()
    }

    pub(super) fn execute_batch(&mut self, sql: &str) -> Result<()> {
        Ok(self.with(|c| c.batch_execute(sql))??)
    }

    /// Opens the outermost transaction with `sql`. One that fails half-way (the lock wait
    /// cancelled, a timeout) is rolled back, so the connection is left with none open.
    pub(super) fn begin(&mut self, sql: &str) -> Result<()> {
        if let Err(e) = self.with(|c| c.batch_execute(sql))? {
            let _ = self.with(|c| c.batch_execute("ROLLBACK"));
            return Err(e.into());
        }
        self.in_transaction = true;
        Ok(())
    }

    /// Ends the outermost transaction. PostgreSQL answers COMMIT in a transaction that a
    /// failed statement spoiled by rolling back without an error; a probe first makes that a
    /// failure the caller sees, and the transaction is rolled back.
    pub(super) fn end(&mut self, commit: bool) -> Result<()> {
        self.in_transaction = false;
        if !commit {
            return Ok(self.with(|c| c.batch_execute("ROLLBACK"))??);
        }
        if let Err(e) = self.with(|c| c.batch_execute("SELECT 1; COMMIT"))? {
            let _ = self.with(|c| c.batch_execute("ROLLBACK"));
            return Err(e.into());
        }
        Ok(())
    }
}

/// A session on the server at `url`; a `read_only` one refuses every write.
fn open_client(url: &str, read_only: bool) -> Result<Client> {
    Ok(off_runtime(|| {
        let mut client = Client::connect(url, NoTls)?;
        // Warnings about nothing to commit and the like are not the store's business.
        client.batch_execute("SET client_min_messages = error")?;
        if read_only {
            client.batch_execute("SET default_transaction_read_only = on")?;
        }
        Ok::<_, postgres::Error>(client)
    })?)
}

impl Drop for PgConn {
    /// Closing the client blocks on its own runtime, which may not happen on a thread that
    /// drives another (a store dropped in async code): there it closes on a thread of its own.
    fn drop(&mut self) {
        if let Some(client) = self.client.take()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            std::thread::spawn(move || drop(client));
        }
    }
}

thread_local! {
    /// Set while this thread runs work the async runtime handed off to be blocked on (its
    /// blocking pool): the client may run here although the runtime is known.
    static MAY_BLOCK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, in which database calls may block this thread: for a task of the runtime's
/// blocking pool (`spawn_blocking`), where the client runs without a thread of its own.
pub fn may_block<T>(f: impl FnOnce() -> T) -> T {
    /// Puts the thread's mark back as it was, even when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            MAY_BLOCK.with(|b| b.set(self.0));
        }
    }
    let _restore = Restore(MAY_BLOCK.with(|b| b.replace(true)));
    f()
}

/// Runs `f` where the blocking client may run: here, or on a thread of its own when this
/// thread drives an async runtime (the client would panic on it).
pub fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if MAY_BLOCK.with(|b| b.get()) {
        return f();
    }
    match tokio::runtime::Handle::try_current() {
        Ok(_) => std::thread::scope(|s| s.spawn(f).join().expect("the database call panicked")),
        Err(_) => f(),
    }
}

/// The store's `?1`, `?2` parameters (and a bare `?`, numbered in order) as PostgreSQL's `$1`,
/// `$2`; quoted text, quoted names and comments are left alone.
pub(super) fn dollar_parameters(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut chars = sql.chars().peekable();
    let mut next = 1;
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                out.push(c);
                for q in chars.by_ref() {
                    out.push(q);
                    if q == c {
                        break;
                    }
                }
            }
            '-' if chars.peek() == Some(&'-') => {
                out.push(c);
                for q in chars.by_ref() {
                    out.push(q);
                    if q == '\n' {
                        break;
                    }
                }
            }
            '?' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                out.push('$');
                if digits.is_empty() {
                    out.push_str(&next.to_string());
                    next += 1;
                } else {
                    out.push_str(&digits);
                }
            }
            c => out.push(c),
        }
    }
    out
}

type BoxError = Box<dyn Error + Sync + Send>;

fn mismatch(value: &Value, ty: &Type) -> BoxError {
    format!("cannot store {value:?} in a column of type {ty}").into()
}

impl ToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        match (self, ty) {
            (Value::Null, _) => Ok(IsNull::Yes),
            (Value::Int(i), &Type::INT8) => i.to_sql(ty, out),
            (Value::Int(i), &Type::INT4) => i32::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::INT2) => i16::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::BOOL) => (*i != 0).to_sql(ty, out),
            (Value::Int(i), &Type::FLOAT8) => (*i as f64).to_sql(ty, out),
            (Value::Int(i), &Type::TEXT | &Type::VARCHAR) => i.to_string().to_sql(ty, out),
            (Value::Real(f), &Type::FLOAT8) => f.to_sql(ty, out),
            (Value::Real(f), &Type::FLOAT4) => (*f as f32).to_sql(ty, out),
            (Value::Text(s), &Type::TEXT | &Type::VARCHAR | &Type::BPCHAR | &Type::NAME) => {
                s.to_sql(ty, out)
            }
            (Value::Text(s), &Type::UNKNOWN) => s.as_str().to_sql(&Type::TEXT, out),
            (Value::Blob(b), &Type::BYTEA) => b.to_sql(ty, out),
            (value, ty) => Err(mismatch(value, ty)),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Value {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Value, BoxError> {
        Ok(match *ty {
            Type::INT8 => Value::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Value::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => Value::Int(i16::from_sql(ty, raw)?.into()),
            Type::BOOL => Value::Int(bool::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Real(f32::from_sql(ty, raw)?.into()),
            Type::BYTEA => Value::Blob(Vec::<u8>::from_sql(ty, raw)?),
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
                Value::Text(String::from_sql(ty, raw)?)
            }
            _ => return Err(format!("a column of type {ty} (cast it in the query)").into()),
        })
    }

    fn from_sql_null(_: &Type) -> Result<Value, BoxError> {
        Ok(Value::Null)
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}
