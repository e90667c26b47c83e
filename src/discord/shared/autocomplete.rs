//! Autocomplete answers within Discord's three seconds and writes nothing: it reads on a
//! read-only twin of the table ([`crate::table::Reads`]), never waiting for the
//! table thread, or, for a store kept in memory (which no second connection can see), asks
//! the table for a read; either way it gives up in time. A user the bot has not met has no actions to offer; their name is
//! recorded when they run a command.

use crate::discord::format::{limits, logs};
use crate::discord::shared::autocomplete;
use crate::discord::{Context, Data, Error};
use crate::store::{MatchId, PlayerId};
use crate::table::{Table, TableError};
use poise::serenity_prelude as serenity;
use std::time::Duration;

/// How long autocomplete looks before answering with what it has (nothing): well inside
/// Discord's three seconds.
pub const LOOK_FOR: Duration = Duration::from_millis(1500);

/// `user`'s legal actions in the match of thread `channel` (none outside a match thread, or
/// when the answer does not come in time).
pub async fn legal_actions(
    data: &Data,
    channel: serenity::ChannelId,
    user: serenity::UserId,
) -> Vec<String> {
    let (thread, user) = (channel.to_string(), user.to_string());
    let read = data.reads.read(move |t| legal(t, &thread, &user));
    let found = match tokio::time::timeout(LOOK_FOR, read).await {
        Ok(Ok(found)) => found,
        Ok(Err(_)) | Err(_) => Ok(vec![]),
    };
    found.unwrap_or_else(|e| {
        tracing::debug!(error = %logs::chain(&e), "autocomplete found nothing to offer");
        vec![]
    })
}

/// The legal actions of the player with Discord id `user` in the match of `thread`: reads only.
fn legal(t: &mut Table, thread: &str, user: &str) -> Result<Vec<String>, TableError> {
    let found: Option<(MatchId, PlayerId)> = match t.store().match_in_thread(thread)? {
        Some(id) => t.store().discord_player_id(user)?.map(|p| (id, p)),
        None => None,
    };
    match found {
        Some((id, player)) => t.legal(id, player),
        None => Ok(vec![]),
    }
}

pub(crate) async fn autocomplete_action(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let choices = legal_here(ctx, partial).await.unwrap_or_default();
    serenity::CreateAutocompleteResponse::new().set_choices(autocomplete_choices(choices))
}

/// Autocomplete entries within Discord's limits: at most 25, none longer than 100 characters
/// (an action longer than that cannot be offered whole, so it is left for typing).
pub fn autocomplete_choices(actions: Vec<String>) -> Vec<serenity::AutocompleteChoice> {
    actions
        .into_iter()
        .filter(|a| !a.is_empty() && a.chars().count() <= limits::CHOICE_TEXT)
        .take(limits::CHOICES)
        .map(serenity::AutocompleteChoice::from)
        .collect()
}

/// The caller's legal actions in this thread that contain `partial`, at most 25; read without
/// waiting for the table and without writing (see [`crate::discord::shared::autocomplete`]).
pub(crate) async fn legal_here(ctx: Context<'_>, partial: &str) -> Result<Vec<String>, Error> {
    let legal = autocomplete::legal_actions(ctx.data(), ctx.channel_id(), ctx.author().id).await;
    Ok(filter_actions(legal, partial))
}

/// Keeps the actions containing `partial` (ignoring case), those starting with it first, at
/// most 25 (Discord's limit).
pub fn filter_actions(legal: Vec<String>, partial: &str) -> Vec<String> {
    let wanted = partial.trim().to_lowercase();
    let (mut starts, mut contains): (Vec<String>, Vec<String>) = legal
        .into_iter()
        .filter(|a| a.to_lowercase().contains(&wanted))
        .partition(|a| a.to_lowercase().starts_with(&wanted));
    starts.append(&mut contains);
    starts.truncate(25);
    starts
}
