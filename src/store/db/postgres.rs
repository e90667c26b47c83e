//! The PostgreSQL side of [`super::Connection`]: tokio-postgres driven by a small runtime of
//! the session's own on the calling thread (so it is called only from the table's thread or a
//! blocking task, never from the async runtime), prepared statements cached by their text, the
//! store's `?1` parameters rewritten as `$1`, and [`Value`] bound and read by the column's type.
//!
//! Statements whose answer nobody waits for (a transaction's BEGIN, savepoints, and writes the
//! store sends with `execute_later`) are queued and sent in one pipeline with the next statement
//! that is waited for, or with the COMMIT: a move's change costs three round trips to the server
//! instead of a dozen, and the write lock is held that much shorter.

use super::{DbError, Result, Row, Value};
use bytes::BytesMut;
use std::collections::HashMap;
use std::error::Error;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use tokio_postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};
use tokio_postgres::{Client, NoTls, Statement};

/// The advisory lock every write transaction takes first: writes are serialised across
/// processes, as SQLite's file lock serialises them ("dmwr" in ASCII).
pub const WRITE_LOCK: i64 = 0x646d_7772;

pub(super) struct PgConn {
    /// Kept to open more sessions; it may hold a password, so it is never shown.
    url: String,
    /// Always Some until dropped (see `Drop`).
    session: Option<Session>,
    read_only: bool,
    statements: HashMap<String, Statement>,
    /// Statements to send with the next one whose answer is awaited (see the module's note).
    queued: Vec<Job>,
    /// The open transaction's BEGIN is still in `queued`: nothing of it reached the server.
    begin_queued: bool,
    /// A call met the session closed (the server ended it, the network failed): the client
    /// may not know it yet, as its connection is driven only while a call waits.
    lost: bool,
    /// A queued statement of the open transaction failed: it may not commit.
    spoiled: bool,
    /// How many times a call waited for the server (for tests and benchmarks).
    pub(super) round_trips: u64,
    pub(super) in_transaction: bool,
}

/// A session: the client, and the runtime that drives its connection while a call waits.
struct Session {
    client: Client,
    runtime: tokio::runtime::Runtime,
}

/// One statement to send.
enum Job {
    Execute(Statement, Vec<Value>),
    Query(Statement, Vec<Value>),
    /// Statements without parameters, in the simple protocol.
    Batch(String),
}

/// What the server answered a [`Job`].
enum Answer {
    Count(u64),
    Rows(Vec<tokio_postgres::Row>),
    Done,
}

impl Job {
    async fn run(&self, client: &Client) -> Result<Answer, tokio_postgres::Error> {
        match self {
            Job::Execute(statement, values) => {
                let params = parameters(values);
                client.execute(statement, &params).await.map(Answer::Count)
            }
            Job::Query(statement, values) => {
                let params = parameters(values);
                client.query(statement, &params).await.map(Answer::Rows)
            }
            Job::Batch(sql) => client.batch_execute(sql).await.map(|()| Answer::Done),
        }
    }
}

fn parameters(values: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    values.iter().map(|v| v as _).collect()
}

/// Polls every future in the order given until all are done. tokio-postgres sends a request
/// when its future is first polled, so the statements reach the server in this order, one
/// after another without waiting (a pipeline). A future that fails on its first poll failed
/// before it was sent (a value its column cannot take, a closed connection): the ones after it
/// are never sent, so a COMMIT behind a write that never reached the server is not sent
/// either. Their places stay None.
async fn in_order<T, F>(futures: Vec<F>) -> Vec<Option<F::Output>>
where
    F: Future<Output = Result<T, tokio_postgres::Error>>,
{
    let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    let mut polled = vec![false; futures.len()];
    let mut limit = futures.len();
    std::future::poll_fn(|cx| {
        let mut waiting = false;
        let mut i = 0;
        while i < limit {
            if outputs[i].is_none() {
                let first = !std::mem::replace(&mut polled[i], true);
                match futures[i].as_mut().poll(cx) {
                    Poll::Ready(answer) => {
                        if first && answer.is_err() {
                            limit = i + 1;
                        }
                        outputs[i] = Some(answer);
                    }
                    Poll::Pending => waiting = true,
                }
            }
            i += 1;
        }
        if waiting {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outputs
}

impl PgConn {
    /// Connects; a `read_only` session refuses every write.
    pub(super) fn connect(url: &str, read_only: bool) -> Result<PgConn> {
        Ok(PgConn {
            url: url.to_string(),
            session: Some(open_session(url, read_only)?),
            read_only,
            statements: HashMap::new(),
            queued: Vec::new(),
            begin_queued: false,
            lost: false,
            spoiled: false,
            round_trips: 0,
            in_transaction: false,
        })
    }

    /// Sends the queued statements and then `jobs`, in one pipeline, off the async runtime if
    /// this thread drives one; the answers to `jobs`, or the first error of them all.
    fn send(&mut self, jobs: Vec<Job>) -> Result<Vec<Answer>> {
        self.reopen_if_lost()?;
        let mut all = std::mem::take(&mut self.queued);
        self.begin_queued = false;
        let skip = all.len();
        all.extend(jobs);
        self.round_trips += 1;
        let session = self
            .session
            .as_ref()
            .expect("the session is open until dropped");
        let answers = off_runtime(|| {
            session.runtime.block_on(in_order(
                all.iter().map(|j| j.run(&session.client)).collect(),
            ))
        });
        let mut out = Vec::with_capacity(answers.len() - skip);
        for (i, answer) in answers.into_iter().enumerate() {
            match answer {
                Some(Ok(answer)) if i >= skip => out.push(answer),
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    self.lost |= ends_session(&e);
                    // A queued statement failed, reported to whoever sent it along: no
                    // savepoint rolled back later may pass for a recovery, the transaction
                    // is not committed.
                    self.spoiled |= i < skip && self.in_transaction;
                    return Err(e.into());
                }
                None => unreachable!("a job is left unsent only after one that failed"),
            }
        }
        Ok(out)
    }

    /// Sends the queued statements and `job`; `job`'s answer.
    fn send_one(&mut self, job: Job) -> Result<Answer> {
        let mut answers = self.send(vec![job])?;
        Ok(answers.pop().expect("one job, one answer"))
    }

    /// Opens the session again if it was lost and no transaction was open on it; the
    /// statements prepared on the lost one go with it.
    fn reopen_if_lost(&mut self) -> Result<()> {
        let closed = self.lost || self.session.as_ref().is_none_or(|s| s.client.is_closed());
        if closed && !self.in_transaction {
            tracing::warn!("the connection to PostgreSQL was lost; connecting again");
            let fresh = open_session(&self.url, self.read_only)?;
            if let Some(old) = self.session.replace(fresh) {
                discard(old);
            }
            self.lost = false;
            self.statements.clear();
            self.queued.clear();
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
        // A prepare goes at once, so what is queued goes first (a rollback to a savepoint, say,
        // without which the prepare would meet an aborted transaction).
        if !self.queued.is_empty() {
            self.send(Vec::new())?;
        }
        let session = self
            .session
            .as_ref()
            .expect("the session is open until dropped");
        let text = dollar_parameters(sql);
        self.round_trips += 1;
        let stmt = off_runtime(|| session.runtime.block_on(session.client.prepare(&text)))
            .inspect_err(|e| self.lost |= ends_session(e))?;
        self.statements.insert(sql.to_string(), stmt.clone());
        Ok(stmt)
    }

    pub(super) fn execute(&mut self, sql: &str, values: &[Value]) -> Result<usize> {
        let job = Job::Execute(self.statement(sql)?, values.to_vec());
        match self.send_one(job)? {
            Answer::Count(n) => Ok(n as usize),
            _ => unreachable!("an execute answers a count"),
        }
    }

    /// Queues a write whose count nobody reads, to go with the next statement awaited (in a
    /// transaction; outside one it runs at once). Its failure fails that statement, or the
    /// COMMIT, so a statement sent later is one whose failure is the whole transaction's.
    pub(super) fn execute_later(&mut self, sql: &str, values: &[Value]) -> Result<()> {
        if !self.in_transaction {
            return self.execute(sql, values).map(drop);
        }
        let job = Job::Execute(self.statement(sql)?, values.to_vec());
        self.queued.push(job);
        Ok(())
    }

    pub(super) fn query(&mut self, sql: &str, values: &[Value]) -> Result<Vec<Row>> {
        let mut answers = self.query_many(&[(sql, values.to_vec())])?;
        Ok(answers.pop().unwrap_or_default())
    }

    /// Several queries in one pipeline (with whatever was queued); each one's rows.
    pub(super) fn query_many(&mut self, queries: &[(&str, Vec<Value>)]) -> Result<Vec<Vec<Row>>> {
        let jobs = queries
            .iter()
            .map(|(sql, values)| Ok(Job::Query(self.statement(sql)?, values.clone())))
            .collect::<Result<Vec<_>>>()?;
        self.send(jobs)?
            .into_iter()
            .map(|answer| match answer {
                Answer::Rows(rows) => rows.iter().map(row_of).collect(),
                _ => unreachable!("a query answers rows"),
            })
            .collect()
    }

    pub(super) fn execute_batch(&mut self, sql: &str) -> Result<()> {
        self.send_one(Job::Batch(sql.to_string())).map(drop)
    }

    /// Queues statements that steer the open transaction (a savepoint), to go with the next
    /// statement awaited.
    pub(super) fn control_later(&mut self, sql: &str) {
        self.queued.push(Job::Batch(sql.to_string()));
    }

    /// Opens the outermost transaction with `sql`, queued to go with its first statement (a
    /// lock wait cancelled or a timeout fails that statement; the caller then rolls back).
    pub(super) fn begin(&mut self, sql: &str) -> Result<()> {
        self.reopen_if_lost()?;
        self.queued.push(Job::Batch(sql.to_string()));
        self.begin_queued = true;
        self.spoiled = false;
        self.in_transaction = true;
        Ok(())
    }

    /// Ends the outermost transaction. PostgreSQL answers COMMIT in a transaction that a
    /// failed statement spoiled by rolling back without an error; a probe first makes that a
    /// failure the caller sees, and the transaction is rolled back. A transaction none of
    /// whose statements was sent ends without a word to the server.
    pub(super) fn end(&mut self, commit: bool) -> Result<()> {
        let lost = self.lost || self.session.as_ref().is_none_or(|s| s.client.is_closed());
        let spoiled = std::mem::take(&mut self.spoiled);
        self.in_transaction = false;
        if !commit || lost || spoiled {
            let sent = !self.begin_queued;
            self.queued.clear();
            self.begin_queued = false;
            // A lost session's transaction is gone with it; the next call reconnects.
            let rolled_back = match sent && !lost {
                true => self.execute_batch("ROLLBACK"),
                false => Ok(()),
            };
            return match (commit, lost) {
                (false, _) => rolled_back,
                (true, true) => Err(DbError::Lost),
                (true, false) => Err(DbError::Spoiled),
            };
        }
        if let Err(e) = self.execute_batch("SELECT 1; COMMIT") {
            let _ = self.execute_batch("ROLLBACK");
            self.spoiled = false;
            return Err(e);
        }
        Ok(())
    }
}

fn row_of(row: &tokio_postgres::Row) -> Result<Row> {
    let values = (0..row.len())
        .map(|i| row.try_get::<_, Value>(i))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Row { values })
}

/// The error ends the session: it is closed, its socket failed, or the server is ending it
/// (an administrator, a shutdown: SQLSTATE class 57P) or reports a connection exception (08).
fn ends_session(e: &tokio_postgres::Error) -> bool {
    let code = e.code().map(|c| c.code());
    e.is_closed()
        || code.is_some_and(|c| c.starts_with("57P") || c.starts_with("08"))
        || e.source().is_some_and(|s| s.is::<std::io::Error>())
}

/// A session on the server at `url`; a `read_only` one refuses every write.
fn open_session(url: &str, read_only: bool) -> Result<Session> {
    off_runtime(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(DbError::Runtime)?;
        let (client, connection) = runtime.block_on(tokio_postgres::connect(url, NoTls))?;
        // The connection runs whenever a call waits on the runtime; its end (the server
        // closed it) shows as a closed client on the next call.
        runtime.spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!("the connection to PostgreSQL ended: {e}");
            }
        });
        // Warnings about nothing to commit and the like are not the store's business.
        let mut setup = String::from("SET client_min_messages = error");
        if read_only {
            setup.push_str("; SET default_transaction_read_only = on");
        }
        runtime.block_on(client.batch_execute(&setup))?;
        Ok(Session { client, runtime })
    })
}

impl Drop for PgConn {
    /// A runtime may not be dropped on a thread that drives another (a store dropped in async
    /// code): see `discard`.
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            discard(session);
        }
    }
}

/// Closes a session: on a thread of its own when this thread drives a runtime, else here.
fn discard(session: Session) {
    match tokio::runtime::Handle::try_current() {
        Ok(_) => drop(std::thread::spawn(move || drop(session))),
        Err(_) => drop(session),
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
