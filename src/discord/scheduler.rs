//! The scheduler loop: one task sleeps until the earliest deadline in the database (a clock
//! running out, a reminder, Memory's reveal) and fires what is due through the table, which
//! writes what each deadline owes Discord to the outbox in the same transaction; the outbox's
//! sender ([`super::outbox`]) posts it. It wakes early whenever the table was called (a move
//! may bring a deadline nearer), and at start-up fires what fell due while the bot was down.

use super::commands::{choice_components, mention, update_text};
use super::{logs, pictures, pings};
use crate::table::clock::span;
use crate::table::{CallError, Reminder, TableHandle, TimeUp, Update};
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
pub fn spawn(table: TableHandle, http: Arc<serenity::Http>) {
    super::outbox::spawn(table.clone(), http);
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

/// The channel a match is played in: its thread, else its channel.
pub(super) fn channel_of(place: &crate::store::Place) -> Option<serenity::ChannelId> {
    place
        .thread_id
        .as_deref()
        .or(place.channel_id.as_deref())
        .and_then(|id| id.parse().ok())
        .map(serenity::ChannelId::new)
}

/// A player's time is up where the opponents may claim the win: a button to claim it.
pub(super) fn time_up_message(up: &TimeUp) -> serenity::CreateMessage {
    let opponents: Vec<String> = up.opponents.iter().map(mention).collect();
    let claim = serenity::CreateButton::new(
        super::ButtonAction::ClaimWin {
            match_id: up.match_id,
        }
        .custom_id(),
    )
    .label("Claim the win")
    .style(serenity::ButtonStyle::Primary);
    let wait = serenity::CreateButton::new(
        super::ButtonAction::WaitOnTime {
            match_id: up.match_id,
        }
        .custom_id(),
    )
    .label("Wait")
    .style(serenity::ButtonStyle::Secondary);
    serenity::CreateMessage::new()
        .content(format!(
            "{}'s time is up in match #{}. {}: claim the win, or wait for the move.",
            mention(&up.player),
            up.match_id,
            opponents.join(", ")
        ))
        .components(vec![serenity::CreateActionRow::Buttons(vec![claim, wait])])
        .allowed_mentions(pings::only(&up.opponents))
}

/// "<@…> reminder: 1 day left in match #3; your clock runs out <t:…:R>."
pub fn reminder_text(r: &Reminder) -> String {
    format!(
        "{} reminder: {} left in match #{}; your clock runs out <t:{}:R>.",
        mention(&r.player),
        span(r.left),
        r.match_id,
        r.deadline
    )
}

/// A match a deadline changed: what happened, its board and its choices.
pub(super) async fn changed_message(update: &Update) -> serenity::CreateMessage {
    let mut message = serenity::CreateMessage::new()
        .content(update_text(update))
        .components(choice_components(update))
        .allowed_mentions(pings::of_update(update));
    match pictures::board_file(update).await {
        Ok(board) => message = message.add_file(board),
        Err(e) => tracing::error!(
            match_id = update.match_id,
            error = %logs::chain(e.as_ref()),
            "a board could not be drawn; its message goes without it"
        ),
    }
    message
}
