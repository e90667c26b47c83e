//! Read-only twins of the table, for answers that only read (boards, views, listings,
//! autocomplete, metrics): each has its own connection to the same database (a SQLite WAL
//! reader, or a read-only PostgreSQL session), its own live-game cache and the table's clock,
//! so reads never queue behind the writer's thread ([`Reads`]). Each read sees one snapshot
//! of the database, and a read that tries to write is refused by the connection itself.

use super::handle::panic_text;
use super::{CallError, Table, TableHandle};
use crate::store::StoreError;
use crate::store::db::may_block;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

impl Table {
    /// A read-only twin of this table on a connection of its own, sharing its clock; None for
    /// a store kept in memory, which no second connection can see.
    pub fn reader(&self) -> Result<Option<Table>, StoreError> {
        let Some(store) = self.store.reader()? else {
            return Ok(None);
        };
        Ok(Some(Table {
            store,
            cache: RefCell::new(super::live::Cache::new(self.cache.borrow().capacity())),
            clock: self.clock.clone(),
            idle_computers: RefCell::default(),
            pending_draws: RefCell::default(),
        }))
    }

    /// Runs `read` inside one read transaction, so that everything it reads agrees with one
    /// committed state of the database (another process, or the writer's thread, may commit
    /// meanwhile). The transaction is rolled back: a read changes nothing.
    pub fn reading<R>(&mut self, read: impl FnOnce(&mut Table) -> R) -> R {
        self.end_read();
        let began = self.store.connection().begin_read();
        if let Err(e) = &began {
            // Still worth answering: each statement then reads the latest committed state.
            tracing::warn!(error = %e, "a read transaction could not begin; reading without one");
        }
        let result = read(self);
        if began.is_ok()
            && let Err(e) = self.store.connection().end(false)
        {
            tracing::warn!(error = %e, "a read transaction could not end");
        }
        result
    }

    /// Ends a read transaction left open (by a read that panicked): nothing in it to keep.
    fn end_read(&self) {
        let connection = self.store.connection();
        if !connection.is_autocommit() {
            let _ = connection.end(false);
        }
    }
}

/// Reads off the writer, for async callers (the bot's answers that only read, the metrics):
/// each runs on one of the table's read-only twins on the runtime's blocking threads, so it
/// never queues behind moves, deadlines or a league round on the table's thread, and a move
/// never queues behind it. A store kept in memory has no twin: its reads go to the table.
#[derive(Clone)]
pub struct Reads {
    table: TableHandle,
    twins: Option<Arc<Pool>>,
}

/// The twins not reading now; a read waits for the first one free.
struct Pool {
    free: Mutex<Vec<Table>>,
    returned: Condvar,
}

impl Pool {
    fn take(&self) -> Table {
        // Reads catch their panics, so a poisoned lock guards nothing half-done.
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(twin) = free.pop() {
                return twin;
            }
            free = self
                .returned
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn give_back(&self, twin: Table) {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        free.push(twin);
        self.returned.notify_one();
    }
}

impl Reads {
    /// How many twins the bot reads on side by side.
    pub const TWINS: usize = 2;

    /// Reads through `table`'s thread only (a store kept in memory).
    pub fn through(table: TableHandle) -> Reads {
        Reads { table, twins: None }
    }

    /// Reads on `count` twins of the table behind `table`, when its store can have them
    /// (each is a connection of its own).
    pub async fn of(table: TableHandle, count: usize) -> Reads {
        let twins = table
            .call_quietly(move |t| {
                let mut twins = Vec::new();
                for _ in 0..count {
                    match t.reader() {
                        Ok(Some(twin)) => twins.push(twin),
                        Ok(None) => break,
                        Err(e) => {
                            tracing::warn!(error = %e, "a read-only connection could not be opened");
                            break;
                        }
                    }
                }
                twins
            })
            .await
            .unwrap_or_default();
        if twins.is_empty() {
            return Reads::through(table);
        }
        let pool = Pool {
            free: Mutex::new(twins),
            returned: Condvar::new(),
        };
        Reads {
            table,
            twins: Some(Arc::new(pool)),
        }
    }

    /// Whether reads run off the table's thread.
    pub fn off_the_writer(&self) -> bool {
        self.twins.is_some()
    }

    /// Runs `read` on a free twin (in one read transaction), or on the table's thread when
    /// there is none. A read that panics fails alone, as a table call does. A read whose
    /// caller stopped waiting (autocomplete past its time) before a twin was free is skipped.
    pub async fn read<R: Send + 'static>(
        &self,
        read: impl FnOnce(&mut Table) -> R + Send + 'static,
    ) -> Result<R, CallError> {
        let Some(pool) = self.twins.clone() else {
            return self.table.call(read).await;
        };
        // Dropped with this future: when the caller stops waiting, the task knows.
        let waiting = Waiting(Arc::new(AtomicBool::new(true)));
        let wanted = waiting.0.clone();
        let done = tokio::task::spawn_blocking(move || {
            let mut twin = pool.take();
            if !wanted.load(Ordering::Relaxed) {
                pool.give_back(twin);
                return Err(CallError::Stopped);
            }
            let result = may_block(|| catch_unwind(AssertUnwindSafe(|| twin.reading(read))));
            let result = result.map_err(|payload| {
                tracing::error!(
                    panic = panic_text(&*payload),
                    "a read panicked; it changed nothing"
                );
                // Its transaction is ended now, not at the twin's next read.
                twin.end_read();
                twin.forget_live_games();
                CallError::Panicked
            });
            pool.give_back(twin);
            result
        })
        .await;
        done.unwrap_or(Err(CallError::Panicked))
    }
}

/// Tells a read's blocking task, when dropped, that its caller no longer waits.
struct Waiting(Arc<AtomicBool>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}
