//! The scheduler loop: one task sleeps until the earliest deadline in the database (a clock
//! running out, a reminder, Memory's reveal) and fires what is due through the table, which
//! writes what each deadline owes Discord to the outbox in the same transaction; the outbox's
//! sender ([`crate::discord::shared::outbox`]) posts it. It wakes early whenever the table was
//! called (a move may bring a deadline nearer), and at start-up fires what fell due while the
//! bot was down.

use crate::discord::format::logs;
use crate::discord::shared::outbox;
use crate::table::{CallError, TableHandle};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

/// How many deadlines one round fires at most; the loop goes round again at once if more are
/// due.
const BATCH: usize = 200;
/// The longest sleep: the loop looks again at least this often.
const LONGEST_SLEEP: i64 = 3600;

/// Starts the loop, and the outbox's sender beside it (which posts what the loop fires); both
/// end when the table stops.
pub fn spawn(table: TableHandle, http: Arc<serenity::Http>, public: Option<Arc<str>>) {
    outbox::spawn(table.clone(), http, public);
    tokio::spawn(run(table));
}

async fn run(table: TableHandle) {
    let changed = table.changed();
    loop {
        let mut pause = None;
        match table.call_quietly(|t| t.fire_due(BATCH)).await {
            Ok(firing) => {
                // What fired owes its posts to the outbox, written with it: the sender posts.
                if !firing.fired.is_empty() {
                    tracing::debug!(fired = firing.fired.len(), "deadlines fired");
                    table.owed().notify_one();
                    table.turns().notify_one();
                }
                match firing.trouble {
                    // Another process changed the match meanwhile: look again at once.
                    Some(crate::table::TableError::Stale(id)) => {
                        tracing::debug!(match_id = id, "a deadline raced with another change");
                    }
                    Some(e) => {
                        tracing::error!(error = %logs::chain(&e), "the scheduler could not fire its deadlines; it tries again in a minute");
                        pause = Some(60);
                    }
                    None => {}
                }
            }
            Err(CallError::Panicked) => pause = Some(60),
            Err(CallError::Stopped) => return,
        }
        let next = table
            .call_quietly(|t| t.next_deadline().map(|due| (due, t.now())))
            .await;
        let wait = match next {
            Ok(Ok((Some(due), now))) => (due - now).clamp(0, LONGEST_SLEEP),
            Ok(Ok((None, _))) => LONGEST_SLEEP,
            Ok(Err(e)) => {
                tracing::error!(error = %logs::chain(&e), "the scheduler could not read its next deadline");
                60
            }
            Err(CallError::Panicked) => 60,
            Err(CallError::Stopped) => return,
        };
        let wait = pause.unwrap_or(wait);
        if wait == 0 {
            continue;
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(wait as u64)) => {}
            _ = changed.notified() => {}
        }
    }
}
