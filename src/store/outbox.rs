//! The outbox: posts the bot owes Discord, as rows. A row is written in the same transaction as
//! the change that owes it (inside [`Store::change`] through [`super::Change::Owe`], or inside a
//! transaction the table opened with [`Store::begin`]), and stays `pending` until the sender
//! marks it `sent` (Discord accepted it) or `failed` (Discord refused it for good). Rows to one
//! destination are sent in the order they were written: only the earliest pending row of a
//! destination is ever due ([`Store::due_posts`]).

use super::db::{Connection, OptionalExtension, Row, ToValue, Value, params};
use super::{MatchId, Store, StoreError};

/// How many times a post is tried before it is given up as failed for good.
pub const MAX_ATTEMPTS: u32 = 30;

/// How long a post taken for sending ([`Store::take_due_posts`]) is kept from the other
/// processes on PostgreSQL, in seconds: a sender that dies mid-send leaves it to them then.
pub const POST_LEASE: i64 = 120;

/// The longest wait between two tries of one post, in seconds.
pub const LONGEST_BACKOFF: i64 = 3600;

/// The wait after the `attempts`-th failed try: 5 s, doubling, at most an hour.
pub fn backoff(attempts: u32) -> i64 {
    (5i64 << attempts.saturating_sub(1).min(20)).min(LONGEST_BACKOFF)
}

/// Where a post goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// The match's thread (else its channel), looked up when the post is sent.
    Match(MatchId),
    /// A channel or thread, by its Discord id.
    Channel(String),
    /// A user's direct messages, by their Discord id.
    User(String),
}

impl Destination {
    /// The text stored: `match:<id>`, `channel:<id>` or `user:<id>`.
    pub fn key(&self) -> String {
        match self {
            Destination::Match(id) => format!("match:{id}"),
            Destination::Channel(id) => format!("channel:{id}"),
            Destination::User(id) => format!("user:{id}"),
        }
    }

    /// The destination a stored text names, if it names one.
    pub fn parse(text: &str) -> Option<Destination> {
        let (kind, id) = text.split_once(':')?;
        Some(match kind {
            "match" => Destination::Match(id.parse().ok()?),
            "channel" => Destination::Channel(id.to_string()),
            "user" => Destination::User(id.to_string()),
            _ => return None,
        })
    }
}

/// Where a post stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PostState {
    Pending,
    Sent,
    /// Refused for good, or given up after [`MAX_ATTEMPTS`]: `last_error` says why.
    Failed,
    /// Refused for good (or given up) and dealt with: what the refusal means was done (a
    /// match whose thread cannot be made called off, its players told); `last_error` says why.
    Handled,
}

impl PostState {
    fn parse(text: &str) -> PostState {
        match text {
            "sent" => PostState::Sent,
            "failed" => PostState::Failed,
            "handled" => PostState::Handled,
            _ => PostState::Pending,
        }
    }
}

/// A post to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPost {
    pub match_id: Option<MatchId>,
    pub league_id: Option<i64>,
    pub destination: Destination,
    /// What the payload is ("board", "reminder", ...): the sender's switch.
    pub kind: String,
    /// What the sender needs to compose the post (JSON).
    pub payload: String,
    /// The match version a board post shows.
    pub version: Option<u64>,
    /// When it may first be sent: now, or a lease ahead while an interaction answers with it.
    pub due: i64,
}

/// A post as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Post {
    pub id: i64,
    pub match_id: Option<MatchId>,
    pub league_id: Option<i64>,
    /// The stored destination text (see [`Destination::parse`]).
    pub destination: String,
    pub kind: String,
    pub payload: String,
    pub version: Option<u64>,
    pub created_at: i64,
    pub attempts: u32,
    pub next_attempt: i64,
    pub state: PostState,
    pub last_error: Option<String>,
}

const COLUMNS: &str = "id, match_id, league_id, destination, kind, payload, version, created_at,
     attempts, next_attempt, state, last_error";

fn post(row: &Row) -> super::db::Result<Post> {
    Ok(Post {
        id: row.get(0)?,
        match_id: row.get(1)?,
        league_id: row.get(2)?,
        destination: row.get(3)?,
        kind: row.get(4)?,
        payload: row.get(5)?,
        version: row.get::<_, Option<i64>>(6)?.map(|v| v as u64),
        created_at: row.get(7)?,
        attempts: row.get::<_, i64>(8)? as u32,
        next_attempt: row.get(9)?,
        state: PostState::parse(&row.get::<_, String>(10)?),
        last_error: row.get(11)?,
    })
}

/// Writes `new` inside `conn`'s open transaction (or alone), created at `now`.
pub(super) fn insert(conn: &Connection, new: &NewPost, now: i64) -> Result<i64, StoreError> {
    let sql = format!("{INSERT} RETURNING id");
    Ok(conn.query_row(&sql, insert_values(new, now), |r| r.get(0))?)
}

/// Writes a post owed when its id is not needed: on PostgreSQL it goes to the server with the
/// transaction's next awaited statement or its COMMIT.
pub(super) fn insert_later(conn: &Connection, new: &NewPost, now: i64) -> Result<(), StoreError> {
    Ok(conn.execute_later(INSERT, insert_values(new, now))?)
}

const INSERT: &str = "INSERT INTO outbox (match_id, league_id, destination, kind, payload, version,
         created_at, next_attempt)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

fn insert_values(new: &NewPost, now: i64) -> Vec<Value> {
    vec![
        new.match_id.to_value(),
        new.league_id.to_value(),
        new.destination.key().to_value(),
        new.kind.to_value(),
        new.payload.to_value(),
        new.version.map(|v| v as i64).to_value(),
        now.to_value(),
        new.due.to_value(),
    ]
}

/// The earliest pending post of each destination: only these may be sent next.
const HEADS: &str = "state = 'pending' AND id IN
     (SELECT MIN(id) FROM outbox WHERE state = 'pending' GROUP BY destination)";

impl Store {
    /// Writes a post owed, created at `now`: inside the transaction the caller opened
    /// ([`Store::begin`]), so it is kept only if that commits. Owed outside any transaction,
    /// it is written in a write transaction of its own: posts are numbered in the order they
    /// are committed only while every one is written holding the write lock, and the claim of
    /// the next posts ([`Store::take_due_posts`]) relies on that order (on PostgreSQL, a post
    /// numbered before another still uncommitted would be sent first).
    pub fn owe(&mut self, new: &NewPost, now: i64) -> Result<i64, StoreError> {
        if !self.conn.is_autocommit() {
            return insert(&self.conn, new, now);
        }
        let tx = self.write()?;
        let id = insert(&tx, new, now)?;
        tx.commit()?;
        Ok(id)
    }

    /// The posts due by `now`, at most `limit`, oldest first: of each destination, its
    /// earliest pending post, if that one is due (a later post never overtakes it).
    pub fn due_posts(&self, now: i64, limit: usize) -> Result<Vec<Post>, StoreError> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {COLUMNS} FROM outbox WHERE {HEADS} AND next_attempt <= ?1
             ORDER BY id LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![now, limit as i64], post)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The due posts this process sends now, at most `limit`. On SQLite (one process) they
    /// are [`Store::due_posts`]. On PostgreSQL, where several processes share the outbox, one
    /// statement claims them: it locks the due heads no other process holds (`FOR UPDATE SKIP
    /// LOCKED`) and moves their next try [`POST_LEASE`] ahead, so no other process takes them
    /// meanwhile; the sender's verdict (sent, retry, failed) then replaces the lease, and a
    /// post whose sender died is due again when the lease ends. The claim takes no write lock
    /// (each row's own lock is enough), so it never waits for another process's move; a move
    /// changing a post the claim holds waits for that one statement. The posts are returned
    /// as they were before the lease.
    pub fn take_due_posts(&mut self, now: i64, limit: usize) -> Result<Vec<Post>, StoreError> {
        if self.engine() == super::Engine::Sqlite {
            return self.due_posts(now, limit);
        }
        Ok(self.conn.query_all(
            &format!(
                "WITH taken AS (SELECT {COLUMNS} FROM outbox WHERE {HEADS} AND next_attempt <= ?1
                                ORDER BY id LIMIT ?2 FOR UPDATE SKIP LOCKED),
                      leased AS (UPDATE outbox SET next_attempt = ?3
                                 WHERE id IN (SELECT id FROM taken))
                 SELECT {COLUMNS} FROM taken ORDER BY id"
            ),
            params![now, limit as i64, now + POST_LEASE],
            post,
        )?)
    }

    /// Gives back posts [`Store::take_due_posts`] took but this process does not send now:
    /// due at `now` again, for any process (nothing to do on SQLite, which leases nothing).
    pub fn release_posts(&mut self, ids: &[i64], now: i64) -> Result<(), StoreError> {
        if self.engine() == super::Engine::Sqlite {
            return Ok(());
        }
        let tx = self.write()?;
        for id in ids {
            tx.execute_later(
                "UPDATE outbox SET next_attempt = ?2
                 WHERE id = ?1 AND state = 'pending' AND next_attempt > ?2",
                params![id, now],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// When the earliest post that may be sent next falls due, if any is pending.
    pub fn next_post_due(&self) -> Result<Option<i64>, StoreError> {
        Ok(self.conn.query_row(
            &format!("SELECT MIN(next_attempt) FROM outbox WHERE {HEADS}"),
            [],
            |r| r.get(0),
        )?)
    }

    /// Every post not sent yet (pending, or failed with nothing done about it), oldest first.
    pub fn unsent_posts(&self) -> Result<Vec<Post>, StoreError> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {COLUMNS} FROM outbox WHERE state IN ('pending', 'failed') ORDER BY id"
        ))?;
        let rows = stmt.query_map([], post)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Post `id`, if there is one.
    pub fn post(&self, id: i64) -> Result<Option<Post>, StoreError> {
        Ok(self
            .conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM outbox WHERE id = ?1"),
                [id],
                post,
            )
            .optional()?)
    }

    /// Marks pending post `id` sent; false when it was not pending (sent already).
    pub fn post_sent(&mut self, id: i64, now: i64) -> Result<bool, StoreError> {
        let n = self.conn.execute(
            "UPDATE outbox SET state = 'sent', done_at = ?1, attempts = attempts + 1
             WHERE id = ?2 AND state = 'pending'",
            params![now, id],
        )?;
        Ok(n == 1)
    }

    /// Marks sent the pending board posts of match `id` at `version` (an interaction showed
    /// that board); returns how many.
    pub fn board_sent(&mut self, id: MatchId, version: u64, now: i64) -> Result<usize, StoreError> {
        Ok(self.conn.execute(
            "UPDATE outbox SET state = 'sent', done_at = ?1, attempts = attempts + 1
             WHERE match_id = ?2 AND version = ?3 AND kind = 'board' AND state = 'pending'",
            params![now, id, version as i64],
        )?)
    }

    /// Makes the pending board posts of match `id` at `version` due at `now` when they were
    /// due later (an interaction's lease): the board's own post failed, and the sender should
    /// not wait for the lease to end. Returns how many.
    pub fn board_due(&mut self, id: MatchId, version: u64, now: i64) -> Result<usize, StoreError> {
        Ok(self.conn.execute(
            "UPDATE outbox SET next_attempt = ?1
             WHERE match_id = ?2 AND version = ?3 AND kind = 'board' AND state = 'pending'
                 AND next_attempt > ?1",
            params![now, id, version as i64],
        )?)
    }

    /// Makes the pending posts of `kind` for match `id` due at `now` when they were due later
    /// (a lease that is no longer needed). Returns how many.
    pub fn match_posts_due(
        &mut self,
        id: MatchId,
        kind: &str,
        now: i64,
    ) -> Result<usize, StoreError> {
        Ok(self.conn.execute(
            "UPDATE outbox SET next_attempt = ?1
             WHERE match_id = ?2 AND kind = ?3 AND state = 'pending' AND next_attempt > ?1",
            params![now, id, kind],
        )?)
    }

    /// Post `id` failed for a while (`error`): tried again after the backoff, or later if
    /// Discord asked for a longer wait (`at_least`, in seconds); given up as failed for good
    /// after [`MAX_ATTEMPTS`]. Returns the post's state after.
    pub fn post_retry(
        &mut self,
        id: i64,
        now: i64,
        error: &str,
        at_least: Option<i64>,
    ) -> Result<PostState, StoreError> {
        let attempts: Option<i64> = self
            .conn
            .query_row(
                "SELECT attempts FROM outbox WHERE id = ?1 AND state = 'pending'",
                [id],
                |r| r.get(0),
            )
            .optional()?;
        let Some(attempts) = attempts else {
            return Ok(self.post(id)?.map_or(PostState::Failed, |p| p.state));
        };
        let attempts = attempts as u32 + 1;
        if attempts >= MAX_ATTEMPTS {
            let reason = format!("given up after {attempts} tries: {error}");
            self.post_failed(id, now, &reason)?;
            return Ok(PostState::Failed);
        }
        let wait = backoff(attempts).max(at_least.unwrap_or(0));
        self.conn.execute(
            "UPDATE outbox SET attempts = ?1, next_attempt = ?2, last_error = ?3
             WHERE id = ?4 AND state = 'pending'",
            params![attempts as i64, now + wait, error, id],
        )?;
        Ok(PostState::Pending)
    }

    /// Post `id` was refused for good (`error`): recorded, never tried again.
    pub fn post_failed(&mut self, id: i64, now: i64, error: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE outbox SET state = 'failed', done_at = ?1, attempts = attempts + 1,
                 last_error = ?2
             WHERE id = ?3 AND state = 'pending'",
            params![now, error, id],
        )?;
        Ok(())
    }

    /// Post `id`, refused for good (or given up: `error`), was dealt with: recorded as
    /// handled, never tried again. Works on a pending post and on one already marked failed.
    pub fn post_handled(&mut self, id: i64, now: i64, error: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE outbox SET state = 'handled', done_at = ?1, last_error = ?2
             WHERE id = ?3 AND state IN ('pending', 'failed')",
            params![now, error, id],
        )?;
        Ok(())
    }
}
