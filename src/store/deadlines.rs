//! The deadlines the scheduler waits on, as rows: a match's deadlines are replaced in the same
//! transaction as the change that moves its clocks, and a deadline is claimed (marked fired) in
//! the same transaction as its effect, so it fires once, also across restarts.

use super::db::{Connection, OptionalExtension, ToValue, params};
use super::{MatchId, Store, StoreError};
use crate::engine::Seat;

/// What a deadline does when it falls due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlineKind {
    /// The seat's clock runs out.
    Timeout,
    /// The seat's player is reminded; `payload` is the time they have left then.
    Reminder,
    /// The game's own timer (Memory's reveal); `payload` is the version it was set for.
    Expire,
    /// A finished match's thread is archived.
    Archive,
}

impl DeadlineKind {
    fn as_str(self) -> &'static str {
        match self {
            DeadlineKind::Timeout => "timeout",
            DeadlineKind::Reminder => "reminder",
            DeadlineKind::Expire => "expire",
            DeadlineKind::Archive => "archive",
        }
    }

    fn parse(text: &str) -> Option<DeadlineKind> {
        Some(match text {
            "timeout" => DeadlineKind::Timeout,
            "reminder" => DeadlineKind::Reminder,
            "expire" => DeadlineKind::Expire,
            "archive" => DeadlineKind::Archive,
            _ => return None,
        })
    }
}

/// A deadline of a match, as the table computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewDeadline {
    pub kind: DeadlineKind,
    pub due_at: i64,
    pub seat: Option<Seat>,
    pub payload: i64,
}

impl NewDeadline {
    /// The row's identity: the same deadline computed again has the same key.
    fn key(&self, id: MatchId) -> String {
        let seat = self.seat.map_or(-1, |s| i64::from(s.0));
        format!(
            "match:{id}:{}:{seat}:{}:{}",
            self.kind.as_str(),
            self.due_at,
            self.payload
        )
    }
}

/// A stored deadline that has not fired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub id: i64,
    pub kind: DeadlineKind,
    pub due_at: i64,
    pub match_id: MatchId,
    pub seat: Option<Seat>,
    pub payload: i64,
}

/// Makes `deadlines` the match's pending deadlines: adds those not stored yet (one that fired
/// already is not added again) and drops the pending ones no longer wanted.
pub(super) fn replace(
    tx: &Connection,
    id: MatchId,
    deadlines: &[NewDeadline],
) -> Result<(), StoreError> {
    let keys: Vec<String> = deadlines.iter().map(|d| d.key(id)).collect();
    // One statement, whose answer nobody waits for: the pending ones not kept go.
    let kept: Vec<String> = (0..keys.len()).map(|i| format!("?{}", i + 2)).collect();
    let mut sql = String::from("DELETE FROM deadlines WHERE match_id = ?1 AND fired_at IS NULL");
    if !kept.is_empty() {
        sql.push_str(&format!(" AND key NOT IN ({})", kept.join(", ")));
    }
    let mut values = vec![id.to_value()];
    values.extend(keys.iter().map(ToValue::to_value));
    tx.execute_later(&sql, values)?;
    for (deadline, key) in deadlines.iter().zip(&keys) {
        tx.execute_later(
            "INSERT INTO deadlines (key, due_at, kind, match_id, seat, payload)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (key) DO NOTHING",
            params![
                key,
                deadline.due_at,
                deadline.kind.as_str(),
                id,
                deadline.seat.map(|s| s.0),
                deadline.payload
            ],
        )?;
    }
    Ok(())
}

/// Marks deadline `id` fired at `now`; one that fired already makes the whole change fail with
/// [`StoreError::Duplicate`].
pub(super) fn claim(tx: &Connection, id: i64, now: i64) -> Result<(), StoreError> {
    let claimed = tx.execute(
        "UPDATE deadlines SET fired_at = ?1 WHERE id = ?2 AND fired_at IS NULL",
        params![now, id],
    )?;
    if claimed == 0 {
        return Err(StoreError::Duplicate(format!("deadline {id}")));
    }
    Ok(())
}

impl Store {
    /// When the earliest pending deadline falls due, if any.
    pub fn next_deadline(&self) -> Result<Option<i64>, StoreError> {
        Ok(self.conn.query_row(
            "SELECT MIN(due_at) FROM deadlines WHERE fired_at IS NULL",
            [],
            |r| r.get(0),
        )?)
    }

    /// When match `id`'s earliest pending deadline falls due, if it has one.
    pub fn next_deadline_of(&self, id: MatchId) -> Result<Option<i64>, StoreError> {
        Ok(self.conn.query_row(
            "SELECT MIN(due_at) FROM deadlines WHERE fired_at IS NULL AND match_id = ?1",
            [id],
            |r| r.get(0),
        )?)
    }

    /// Match `id`'s pending deadlines due at `now` or before, earliest first, at most `limit`.
    pub fn due_deadlines_of(
        &self,
        id: MatchId,
        now: i64,
        limit: usize,
    ) -> Result<Vec<Deadline>, StoreError> {
        self.pending(
            "WHERE fired_at IS NULL AND match_id = ?1 AND due_at <= ?2 ORDER BY due_at, id
             LIMIT ?3",
            params![id, now, limit as i64],
        )
    }

    /// Pending deadlines due at `now` or before, earliest first, at most `limit`.
    pub fn due_deadlines(&self, now: i64, limit: usize) -> Result<Vec<Deadline>, StoreError> {
        self.pending(
            "WHERE fired_at IS NULL AND due_at <= ?1 ORDER BY due_at, id LIMIT ?2",
            params![now, limit as i64],
        )
    }

    /// The pending deadlines of match `id`, earliest first.
    pub fn deadlines_of(&self, id: MatchId) -> Result<Vec<Deadline>, StoreError> {
        self.pending(
            "WHERE fired_at IS NULL AND match_id = ?1 ORDER BY due_at, id",
            params![id],
        )
    }

    fn pending(
        &self,
        filter: &str,
        values: impl super::db::Params,
    ) -> Result<Vec<Deadline>, StoreError> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT id, kind, due_at, match_id, seat, payload FROM deadlines {filter}"
        ))?;
        let rows = stmt.query_map(values, |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, Option<i64>>(3)?,
                r.get::<_, Option<u8>>(4)?,
                r.get::<_, i64>(5)?,
            ))
        })?;
        let mut found = Vec::new();
        for row in rows {
            let (id, kind, due_at, match_id, seat, payload) = row?;
            let (Some(kind), Some(match_id)) = (DeadlineKind::parse(&kind), match_id) else {
                return Err(StoreError::Corrupt {
                    id: match_id.unwrap_or(0),
                    detail: format!("deadline {id} has an unknown kind {kind:?}"),
                });
            };
            found.push(Deadline {
                id,
                kind,
                due_at,
                match_id,
                seat: seat.map(Seat),
                payload,
            });
        }
        Ok(found)
    }

    /// Claims deadline `id` on its own (a reminder, whose effect is a message): true when
    /// this call claimed it, false when it had fired already.
    pub fn claim_deadline(&mut self, id: i64, now: i64) -> Result<bool, StoreError> {
        let tx = self.write()?;
        let claimed = match claim(&tx, id, now) {
            Ok(()) => true,
            Err(StoreError::Duplicate(_)) => false,
            Err(e) => return Err(e),
        };
        tx.commit()?;
        Ok(claimed)
    }

    /// Moves deadline `id` to `due_at` (a reminder waiting for quiet hours to end).
    pub fn postpone_deadline(&mut self, id: i64, due_at: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE deadlines SET due_at = ?1 WHERE id = ?2 AND fired_at IS NULL",
            params![due_at, id],
        )?;
        Ok(())
    }

    /// When deadline `id` fired, if it did.
    pub fn fired_at(&self, id: i64) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT fired_at FROM deadlines WHERE id = ?1", [id], |r| {
                r.get::<_, Option<i64>>(0)
            })
            .optional()?
            .flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scheduler's reads go through the partial index of pending deadlines, never a scan
    /// of every row, so a tick costs the same with ten matches or ten thousand.
    #[test]
    fn the_scheduler_reads_only_pending_rows_through_their_index() {
        // SQLite's own query plans.
        let store = Store::open_in_memory().unwrap();
        for sql in [
            "SELECT MIN(due_at) FROM deadlines WHERE fired_at IS NULL",
            "SELECT id FROM deadlines WHERE fired_at IS NULL AND due_at <= 5 ORDER BY due_at, id LIMIT 10",
        ] {
            let mut stmt = store
                .connection()
                .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
                .unwrap();
            let plan: Vec<String> = stmt
                .query_map([], |r| r.get::<_, String>(3))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            assert!(
                plan.iter()
                    .any(|step| step.contains("USING INDEX deadlines_due")),
                "{sql}: {plan:?}"
            );
            assert!(
                !plan.iter().any(|step| step.starts_with("SCAN")),
                "{sql}: {plan:?}"
            );
        }
    }

    #[test]
    fn a_deadline_is_claimed_once() {
        let mut store = crate::store::testing::scratch();
        let a = store.local_player("a").unwrap().id;
        let b = store.local_player("b").unwrap().id;
        let id = store
            .create_timed_match(
                crate::games::GameKind::Chess,
                &[],
                1,
                &[a, b],
                &crate::store::Place::default(),
                1,
                Some(crate::store::Timing {
                    control: "1d",
                    clocks: "[]",
                    deadlines: &[NewDeadline {
                        kind: DeadlineKind::Reminder,
                        due_at: 100,
                        seat: Some(Seat(0)),
                        payload: 50,
                    }],
                }),
            )
            .unwrap();
        assert_eq!(store.next_deadline().unwrap(), Some(100));
        assert!(store.due_deadlines(99, 10).unwrap().is_empty());
        let due = store.due_deadlines(100, 10).unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].match_id, id);
        assert!(store.claim_deadline(due[0].id, 100).unwrap());
        assert!(!store.claim_deadline(due[0].id, 101).unwrap(), "once");
        assert_eq!(store.fired_at(due[0].id).unwrap(), Some(100));
        assert_eq!(store.next_deadline().unwrap(), None);
    }
}
