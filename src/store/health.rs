//! What an operator watches, read in one go: the outbox's depth and age, the deadlines due
//! and not yet fired (and so how late the scheduler runs), and the active matches. Read on a
//! read-only connection by the bot's metrics.

use super::db::params;
use super::{Store, StoreError};

/// The gauges of [`Store::health`], at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Health {
    /// Posts owed to Discord and not yet sent (waiting for a retry included).
    pub posts_pending: u64,
    /// Of those, the ones due now: what the sender should be sending.
    pub posts_due: u64,
    /// Posts Discord refused for good, ever: a rise means a missing permission or a deleted
    /// channel somewhere (each one's reason is in the outbox and the log).
    pub posts_failed: u64,
    /// When the oldest pending post was written (seconds since 1970).
    pub oldest_post: Option<i64>,
    /// Deadlines due at `now` or before and not yet fired.
    pub deadlines_due: u64,
    /// When the earliest of those fell due.
    pub earliest_due: Option<i64>,
    /// Matches being played.
    pub matches_active: u64,
}

impl Store {
    /// The gauges at `now` (seconds since 1970, by the table's clock).
    pub fn health(&self, now: i64) -> Result<Health, StoreError> {
        let count = |n: i64| n.max(0) as u64;
        let (posts_pending, oldest_post) = self.conn.query_row(
            "SELECT COUNT(*), MIN(created_at) FROM outbox WHERE state = 'pending'",
            [],
            |r| Ok((count(r.get(0)?), r.get(1)?)),
        )?;
        let posts_due = self.conn.query_row(
            "SELECT COUNT(*) FROM outbox WHERE state = 'pending' AND next_attempt <= ?1",
            params![now],
            |r| Ok(count(r.get(0)?)),
        )?;
        let posts_failed = self.conn.query_row(
            "SELECT COUNT(*) FROM outbox WHERE state = 'failed'",
            [],
            |r| Ok(count(r.get(0)?)),
        )?;
        let (deadlines_due, earliest_due) = self.conn.query_row(
            "SELECT COUNT(*), MIN(due_at) FROM deadlines WHERE fired_at IS NULL AND due_at <= ?1",
            params![now],
            |r| Ok((count(r.get(0)?), r.get(1)?)),
        )?;
        let matches_active = self.conn.query_row(
            "SELECT COUNT(*) FROM matches WHERE status = 'active'",
            [],
            |r| Ok(count(r.get(0)?)),
        )?;
        Ok(Health {
            posts_pending,
            posts_due,
            posts_failed,
            oldest_post,
            deadlines_due,
            earliest_due,
            matches_active,
        })
    }
}
