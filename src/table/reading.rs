//! Read-only twins of the table, for answers that only read (boards, views, listings,
//! autocomplete, metrics): each has its own connection to the same database (a SQLite WAL
//! reader, or a read-only PostgreSQL session), its own live-game cache and the table's clock,
//! so reads never queue behind the writer's thread ([`Reads`]). Each read sees one snapshot
//! of the database, and a read that tries to write is refused by the connection itself.

use super::handle::panic_text;
use super::{CallError, Table, TableHandle};
use crate::store::StoreError;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

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
        }))
    }

    /// Runs `read` inside one read transaction, so that everything it reads agrees with one
    /// committed state of the database (another process, or the writer's thread, may commit
    /// meanwhile). The transaction is rolled back: a read changes nothing.
    pub fn reading<R>(&mut self, read: impl FnOnce(&mut Table) -> R) -> R {
        let connection = self.store.connection();
        if !connection.is_autocommit() {
            // Left open by a read that panicked: nothing to keep.
            let _ = connection.end(false);
        }
        let began = connection.begin_read();
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
}

/// How many twins read side by side.
const TWINS: usize = 2;

/// Reads off the writer, for async callers (the bot's answers that only read, the metrics):
/// each runs on one of the table's read-only twins on the runtime's blocking threads, so it
/// never queues behind moves, deadlines or a league round on the table's thread, and a move
/// never queues behind it. A store kept in memory has no twin: its reads go to the table.
#[derive(Clone)]
pub struct Reads {
    table: TableHandle,
    twins: Option<Arc<Vec<Mutex<Table>>>>,
}

impl Reads {
    /// Reads through `table`'s thread only (a store kept in memory).
    pub fn through(table: TableHandle) -> Reads {
        Reads { table, twins: None }
    }

    /// Reads on twins of the table behind `table` when its store can have them.
    pub async fn of(table: TableHandle) -> Reads {
        let twins = table
            .call_quietly(|t| {
                let mut twins = Vec::new();
                for _ in 0..TWINS {
                    match t.reader() {
                        Ok(Some(twin)) => twins.push(Mutex::new(twin)),
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
        Reads {
            table,
            twins: (!twins.is_empty()).then(|| Arc::new(twins)),
        }
    }

    /// Whether reads run off the table's thread.
    pub fn off_the_writer(&self) -> bool {
        self.twins.is_some()
    }

    /// Runs `read` on a free twin (in one read transaction), or on the table's thread when
    /// there is none. A read that panics fails alone, as a table call does.
    pub async fn read<R: Send + 'static>(
        &self,
        read: impl FnOnce(&mut Table) -> R + Send + 'static,
    ) -> Result<R, CallError> {
        let Some(twins) = self.twins.clone() else {
            return self.table.call(read).await;
        };
        let done = tokio::task::spawn_blocking(move || {
            let mut twin = free(&twins);
            match catch_unwind(AssertUnwindSafe(|| twin.reading(read))) {
                Ok(found) => Ok(found),
                Err(payload) => {
                    tracing::error!(
                        panic = panic_text(&*payload),
                        "a read panicked; it changed nothing"
                    );
                    twin.forget_live_games();
                    Err(CallError::Panicked)
                }
            }
        })
        .await;
        done.unwrap_or(Err(CallError::Panicked))
    }
}

/// A twin nobody is reading with, or else the first one once it is free.
fn free(twins: &[Mutex<Table>]) -> MutexGuard<'_, Table> {
    for twin in twins {
        if let Ok(free) = twin.try_lock() {
            return free;
        }
    }
    // Reads catch their panics, so a poisoned lock guards nothing half-done.
    twins[0].lock().unwrap_or_else(PoisonError::into_inner)
}
