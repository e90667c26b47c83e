//! Notices the bot posts on its own: a changed match's board, a clock running out, a
//! reminder; and where a match is played.

use crate::discord::format::boards::{choice_components, mention, update_text};
use crate::discord::format::{ids, limits, logs, pictures, pings, plain};
use crate::table::clock::span;
use crate::table::{Reminder, TimeUp, Update};
use poise::serenity_prelude as serenity;

/// The channel a match is played in: its thread, else its channel.
pub(crate) fn channel_of(place: &crate::store::Place) -> Option<serenity::ChannelId> {
    place
        .thread_id
        .as_deref()
        .or(place.channel_id.as_deref())
        .and_then(|id| id.parse().ok())
        .map(serenity::ChannelId::new)
}

/// A match's own thread, if it has one (none while it waits for one, or after it was lost).
pub(crate) fn thread_of(place: &crate::store::Place) -> Option<serenity::ChannelId> {
    place
        .thread_id
        .as_deref()
        .and_then(|id| id.parse().ok())
        .filter(|&id: &u64| id != 0)
        .map(serenity::ChannelId::new)
}

/// A player's time is up where the opponents may claim the win: a button to claim it.
pub(crate) fn time_up_message(up: &TimeUp) -> serenity::CreateMessage {
    let opponents: Vec<String> = up.opponents.iter().map(mention).collect();
    let claim = serenity::CreateButton::new(
        ids::ButtonAction::ClaimWin {
            match_id: up.match_id,
        }
        .custom_id(),
    )
    .label("Claim the win")
    .style(serenity::ButtonStyle::Primary);
    let wait = serenity::CreateButton::new(
        ids::ButtonAction::WaitOnTime {
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
pub(crate) async fn changed_message(update: &Update) -> serenity::CreateMessage {
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

/// A vacation's `line` in one of its player's matches (`update`, as it is now), with when it
/// ends (`back`, if it began) and when the match's clocks run out.
pub(crate) fn vacation_text(update: &Update, line: &str, back: Option<i64>) -> String {
    let mut text = plain::plain(line);
    if let Some(back) = back {
        text.push_str(&format!(" Back <t:{back}:R>."));
    }
    let times: Vec<String> = update
        .clocks
        .iter()
        .filter_map(|(seat, at)| {
            let (_, player) = update.to_act.iter().find(|(s, _)| s == seat)?;
            Some(format!("{} <t:{at}:R>", mention(player)))
        })
        .collect();
    if !times.is_empty() {
        text.push_str(&format!("\nTime runs out: {}.", times.join(", ")));
    }
    limits::cut(&text, limits::CONTENT)
}
