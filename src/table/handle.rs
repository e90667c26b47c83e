//! The table for async adapters: one dedicated thread owns the [`Table`] (and so the SQLite
//! connection) and runs every call, so none of that work (SQLite, replays) ever runs on the
//! async runtime's threads. Calls are queued and run one at a time, in order, which also suits
//! SQLite's single writer.
//!
//! A call that panics (a bug) fails alone: the panic is caught and logged, the caller is told
//! [`CallError::Panicked`], the live-game cache is emptied so nothing the call half-changed in
//! memory is used again (an open transaction rolls back as it unwinds, so what is stored stays
//! as it was), and the thread goes on with the next call.

use super::Table;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, mpsc};
use thiserror::Error;
use tokio::sync::{Notify, oneshot};

type Job = Box<dyn FnOnce(&mut Table) + Send>;

/// A cloneable handle to the table thread.
#[derive(Clone)]
pub struct TableHandle {
    jobs: mpsc::Sender<Job>,
    /// Told after every call that may have changed a match (and so its deadlines), so that the
    /// scheduler loop can look again for the next deadline.
    changed: Arc<Notify>,
    /// Told after every call and every deadline fired: the outbox may have new posts.
    owed: Arc<Notify>,
    /// Told after every call and every deadline fired: the computer may have a turn.
    turns: Arc<Notify>,
}

/// Why a call to the table thread gave no answer.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CallError {
    /// The table thread has stopped (the handle outlived it).
    #[error("the table service has stopped")]
    Stopped,
    /// The call panicked: a bug, logged with its message; the call changed nothing stored.
    #[error("an internal error stopped this request; nothing was changed")]
    Panicked,
}

/// The text of a panic's payload, for the log.
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

impl TableHandle {
    /// Moves `table` onto its own thread. The thread ends when every handle is dropped.
    pub fn spawn(table: Table) -> TableHandle {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("deckmate-table".into())
            .spawn(move || {
                let mut table = table;
                for job in queue {
                    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| job(&mut table))) {
                        tracing::error!(
                            panic = panic_text(&*payload),
                            "a table call panicked; it changed nothing and the table goes on"
                        );
                        table.forget_live_games();
                    }
                }
            })
            .expect("the table thread starts");
        TableHandle {
            jobs,
            changed: Arc::new(Notify::new()),
            owed: Arc::new(Notify::new()),
            turns: Arc::new(Notify::new()),
        }
    }

    /// Notified after every [`TableHandle::call`]: a match may have new deadlines.
    pub fn changed(&self) -> Arc<Notify> {
        self.changed.clone()
    }

    /// Notified after every [`TableHandle::call`] (and by the scheduler after firing): the
    /// outbox may have posts to send.
    pub fn owed(&self) -> Arc<Notify> {
        self.owed.clone()
    }

    /// Notified after every [`TableHandle::call`] (and by the scheduler after firing): the
    /// computer may have a turn to take.
    pub fn turns(&self) -> Arc<Notify> {
        self.turns.clone()
    }

    /// Runs `work` on the table thread and waits for its result without blocking the runtime;
    /// then tells the scheduler loop ([`TableHandle::changed`]).
    pub async fn call<R: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Table) -> R + Send + 'static,
    ) -> Result<R, CallError> {
        let result = self.call_quietly(work).await;
        self.tell_all();
        result
    }

    /// Tells every loop that watches the table that something may have changed.
    pub fn tell_all(&self) {
        self.changed.notify_one();
        self.owed.notify_one();
        self.turns.notify_one();
    }

    /// [`TableHandle::call`] for a thread that is not the async runtime's (the computer's
    /// thinking threads): it blocks that thread until the answer comes.
    pub fn call_blocking<R: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Table) -> R + Send + 'static,
    ) -> Result<R, CallError> {
        let (reply, result) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |table| {
            let _ = reply.send(work(table));
        });
        self.jobs.send(job).map_err(|_| CallError::Stopped)?;
        let result = result.recv().map_err(|_| CallError::Panicked);
        self.tell_all();
        result
    }

    /// [`TableHandle::call`] without telling the scheduler loop (the loop's own calls).
    pub async fn call_quietly<R: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Table) -> R + Send + 'static,
    ) -> Result<R, CallError> {
        let (reply, result) = oneshot::channel();
        let job: Job = Box::new(move |table| {
            let _ = reply.send(work(table));
        });
        self.jobs.send(job).map_err(|_| CallError::Stopped)?;
        // The job drops its reply unsent only when it panicked (the thread lives on).
        result.await.map_err(|_| CallError::Panicked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::store::{Place, Store};
    use std::time::{Duration, Instant};

    fn handle() -> TableHandle {
        TableHandle::spawn(Table::new(Store::open_in_memory().unwrap()))
    }

    #[tokio::test(flavor = "current_thread")]
    async fn calls_run_off_the_runtime_thread_and_in_order() {
        let table = handle();
        let runtime_thread = std::thread::current().id();
        let (worker, update) = table
            .call(|t| {
                let alice = t.store().local_player("alice").unwrap();
                let bob = t.store().local_player("bob").unwrap();
                let update = t.create(GameKind::Chess, &[], &[alice, bob], 1, &Place::default());
                (std::thread::current().id(), update)
            })
            .await
            .unwrap();
        assert_ne!(worker, runtime_thread, "SQLite never runs on the runtime");
        let update = update.unwrap();
        assert_eq!(update.to_act.len(), 1);
        let alice = table
            .call(|t| t.store().local_player("alice").unwrap().id)
            .await
            .unwrap();
        let id = update.match_id;
        let played = table
            .call(move |t| t.act(id, alice, Some(0), "e4"))
            .await
            .unwrap();
        assert_eq!(played.unwrap().public, vec!["White plays e4"]);
        let stale = table
            .call(move |t| t.act(id, alice, Some(0), "d4"))
            .await
            .unwrap();
        assert!(stale.is_err());
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_call_that_panics_fails_alone_and_the_table_goes_on() {
        let table = handle();
        let (ids, alice) = table
            .call(|t| {
                let alice = t.store().local_player("alice").unwrap();
                let bob = t.store().local_player("bob").unwrap();
                let mut ids = Vec::new();
                for seed in [1, 2] {
                    let created = t.create(
                        GameKind::Chess,
                        &[],
                        &[alice.clone(), bob.clone()],
                        seed,
                        &Place::default(),
                    );
                    ids.push(created.unwrap().match_id);
                }
                t.act(ids[0], alice.id, None, "e4").unwrap();
                (ids, alice.id)
            })
            .await
            .unwrap();
        let (first, second) = (ids[0], ids[1]);
        let before = table
            .call(move |t| t.store().load(first).unwrap())
            .await
            .unwrap();
        let bob = table
            .call(|t| t.store().local_player("bob").unwrap().id)
            .await
            .unwrap();
        let panicked = table
            .call(move |t| t.act(first, bob, None, crate::games::PANIC_ACTION))
            .await;
        assert_eq!(panicked.unwrap_err(), CallError::Panicked);
        // The next call, on another match, is served; the match the panic touched is as stored.
        let played = table
            .call(move |t| t.act(second, alice, None, "d4"))
            .await
            .unwrap();
        assert_eq!(played.unwrap().public, vec!["White plays d4"]);
        let after = table
            .call(move |t| t.store().load(first).unwrap())
            .await
            .unwrap();
        assert_eq!(
            (after.version, after.actions.len()),
            (before.version, before.actions.len())
        );
        let played = table
            .call(move |t| t.act(first, bob, None, "e5"))
            .await
            .unwrap();
        assert_eq!(played.unwrap().public, vec!["Black plays e5"]);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_slow_call_does_not_stall_other_tasks() {
        let table = handle();
        // On a single-threaded runtime, a ticker keeps ticking while the table works for 300 ms.
        let ticker = tokio::spawn(async {
            let mut ticks = 0;
            let started = Instant::now();
            while started.elapsed() < Duration::from_millis(250) {
                tokio::time::sleep(Duration::from_millis(10)).await;
                ticks += 1;
            }
            ticks
        });
        table
            .call(|_| std::thread::sleep(Duration::from_millis(300)))
            .await
            .unwrap();
        let ticks = ticker.await.unwrap();
        assert!(ticks >= 10, "the runtime was blocked: {ticks} ticks");
    }
}
