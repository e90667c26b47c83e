//! The scheduler loop: one task sleeps until the earliest deadline in the database (a clock
//! running out, a reminder, Memory's reveal), fires what is due through the table, and posts
//! what happened in each match's thread. It wakes early whenever the table was called (a move
//! may bring a deadline nearer), and at start-up fires what fell due while the bot was down.

use super::commands::{choice_components, mention, update_text};
use super::plain::plain_lines;
use super::{limits, logs, pictures, pings};
use crate::table::clock::span;
use crate::table::{CallError, Fired, Reminder, TableHandle, TimeUp, Update};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

/// How many deadlines one round fires at most; the loop goes round again at once if more are
/// due.
const BATCH: usize = 200;
/// The longest sleep: the loop looks again at least this often.
const LONGEST_SLEEP: i64 = 3600;

/// Starts the loop; it ends when the table stops.
pub fn spawn(table: TableHandle, http: Arc<serenity::Http>) {
    tokio::spawn(run(table, http));
}

async fn run(table: TableHandle, http: Arc<serenity::Http>) {
    let changed = table.changed();
    loop {
        let mut pause = None;
        match table.call_quietly(|t| t.fire_due(BATCH)).await {
            Ok(firing) => {
                for done in firing.fired {
                    // Each post runs as its own task, so a bug in one message (a panic) loses
                    // that message alone, never the loop.
                    let (http, table) = (http.clone(), table.clone());
                    if let Err(e) =
                        tokio::spawn(async move { post(&http, &table, done).await }).await
                    {
                        tracing::error!(error = %e, "posting what a deadline did panicked");
                    }
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

async fn post(http: &serenity::Http, table: &TableHandle, fired: Fired) {
    let (match_id, channel, message) = match fired {
        Fired::ChallengeExpired(challenge) => return expired(http, &challenge).await,
        Fired::League {
            league,
            closed,
            started,
        } => return league_moved_on(http, table, &league, closed, started).await,
        Fired::RoundReminder {
            round,
            deadline,
            games,
            ..
        } => {
            // Each open game's players, pinged in its own thread.
            for (match_id, place, players) in games {
                let Some(thread) = channel_of(&place) else {
                    continue;
                };
                let pings: Vec<String> = players.iter().map(mention).collect();
                let text = format!(
                    "{}: round {round} closes <t:{deadline}:R>. A game not begun by then is forfeited.",
                    pings.join(", ")
                );
                let text = serenity::CreateMessage::new()
                    .content(text)
                    .allowed_mentions(pings::only(&players));
                if let Err(e) = thread.send_message(http, text).await {
                    tracing::error!(match_id, error = %logs::chain(&e), "a round reminder could not be posted");
                }
            }
            return;
        }
        Fired::Archive { match_id, place } => return archive(http, match_id, &place).await,
        Fired::TimeUp(up) => (up.match_id, channel_of(&up.place), time_up_message(&up)),
        Fired::Reminder(reminder) => {
            let message = serenity::CreateMessage::new()
                .content(reminder_text(&reminder))
                .allowed_mentions(pings::only([&reminder.player]));
            // By direct message when asked for and their DMs take it; else in the thread,
            // with its ping.
            if reminder.direct
                && let Some(user) = reminder
                    .player
                    .discord_id
                    .as_deref()
                    .and_then(|id| id.parse::<u64>().ok())
                    .filter(|id| *id != 0)
            {
                let user = serenity::UserId::new(user);
                match super::dm_memory::send(http, table, user, message.clone()).await {
                    Ok(()) => return,
                    Err(e) => tracing::info!(
                        match_id = reminder.match_id,
                        error = %e,
                        "a reminder could not go by direct message; it goes to the thread"
                    ),
                }
            }
            (reminder.match_id, channel_of(&reminder.place), message)
        }
        Fired::Changed(update) => {
            // A time-out that passes the turn on (En Prise): the next player may want to know.
            super::turns::tell_turns(http, table, &update, None).await;
            (
                update.match_id,
                channel_of(&update.place),
                changed_message(&update).await,
            )
        }
    };
    let Some(channel) = channel else {
        tracing::debug!(match_id, "a deadline fired for a match with no channel");
        return;
    };
    if let Err(e) = channel.send_message(http, message).await {
        tracing::error!(
            match_id,
            %channel,
            error = %logs::chain(&e),
            "a deadline fired but its message could not be posted"
        );
    }
}

/// A player's time is up where the opponents may claim the win: a button to claim it.
fn time_up_message(up: &TimeUp) -> serenity::CreateMessage {
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

/// A day after its end, a match's thread is archived and locked: it stays readable, and its
/// history and export remain.
async fn archive(
    http: &serenity::Http,
    match_id: crate::store::MatchId,
    place: &crate::store::Place,
) {
    let Some(thread) = place
        .thread_id
        .as_deref()
        .and_then(|t| t.parse().ok())
        .map(serenity::ChannelId::new)
    else {
        return;
    };
    let edit = serenity::EditThread::new().archived(true).locked(true);
    if let Err(e) = thread.edit_thread(http, edit).await {
        tracing::info!(match_id, error = %logs::chain(&e), "a finished match's thread could not be archived");
    }
}

/// A challenge that expired: its message says so and loses its buttons.
async fn expired(http: &serenity::Http, c: &crate::store::Challenge) {
    let (Some(channel), Some(message)) = (
        c.channel_id.as_deref().and_then(|id| id.parse().ok()),
        c.message_id.as_deref().and_then(|id| id.parse().ok()),
    ) else {
        return;
    };
    let edit = serenity::EditMessage::new()
        .content(format!(
            "This challenge to {} expired <t:{}:R>: not everyone accepted in time. Start a new one with /play.",
            c.game.name(),
            c.expires_at
        ))
        .components(vec![]);
    let (channel, message) = (
        serenity::ChannelId::new(channel),
        serenity::MessageId::new(message),
    );
    if let Err(e) = channel.edit_message(http, message, edit).await {
        tracing::info!(
            challenge = c.id,
            error = %logs::chain(&e),
            "an expired challenge's message could not be edited"
        );
    }
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

/// A league's round closed at its deadline, and the next one started: both told in the
/// league's channel.
async fn league_moved_on(
    http: &serenity::Http,
    table: &TableHandle,
    league: &crate::store::leagues::League,
    closed: Vec<String>,
    started: Option<Box<crate::table::leagues::RoundStarted>>,
) {
    let Some(channel) = league
        .new
        .channel_id
        .as_deref()
        .and_then(|c| c.parse().ok())
        .map(serenity::ChannelId::new)
    else {
        return;
    };
    let mut lines = plain_lines(&closed);
    if let Some(started) = &started {
        lines.push(format!(
            "Round {} is paired; it closes <t:{}:R>.",
            started.round, started.deadline
        ));
    }
    if !lines.is_empty() {
        for text in limits::chunks(&lines, limits::CONTENT) {
            if let Err(e) = channel.say(http, text).await {
                tracing::error!(league = league.id, error = %logs::chain(&e), "a league's news could not be posted");
            }
        }
    }
    if let Some(started) = started
        && let Err(e) = super::league::announce(http, table, channel, *started).await
    {
        tracing::error!(league = league.id, error = %logs::chain(&*e), "a league's round could not be announced");
    }
}
