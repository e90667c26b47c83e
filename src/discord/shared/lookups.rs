//! Lookups every command needs (the caller as a player, the match of this thread) and the
//! private answers for a caller's mistake.

use crate::discord::format::logs;
use crate::discord::shared::reply;
use crate::discord::{Context, Data, Error};
use crate::store::{MatchId, Player};
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// Refuses a command for a reason of the caller's (a bad option, the wrong channel): logged at
/// debug, told privately.
pub(crate) async fn refuse(ctx: Context<'_>, reason: impl Into<String>) -> Result<(), Error> {
    let reason = reason.into();
    tracing::debug!(
        user = %ctx.author().id,
        request = %logs::redact(&ctx.invocation_string(), &[]),
        %reason,
        "a command was refused"
    );
    ephemeral(ctx, reason).await
}

/// Tells the caller `text` privately (also after a public deferral).
pub(crate) async fn ephemeral(ctx: Context<'_>, text: impl Into<String>) -> Result<(), Error> {
    reply::private(ctx, CreateReply::default().content(text)).await
}

/// The player `user` is, recorded under the name they show now: most calls meet someone
/// already recorded under that name, which is a read, off the table's thread.
pub(crate) async fn player_of(data: &Data, user: &serenity::User) -> Result<Player, Error> {
    let (id, name) = (user.id.to_string(), user.display_name().to_string());
    let discord_id = id.clone();
    let known = data
        .reads
        .read(move |t| t.store().known_discord_player(&discord_id))
        .await;
    match known {
        Ok(Ok(Some(player))) if player.name == name => return Ok(player),
        Ok(Ok(_)) => {}
        // The writer may still answer: the read is logged and the write tried.
        Ok(Err(e)) => {
            tracing::warn!(error = %logs::chain(&e), "a player could not be read; recording them instead")
        }
        Err(e) => tracing::warn!(error = %e, "a player could not be read; recording them instead"),
    }
    Ok(data
        .table
        .call(move |t| t.store().discord_player(&id, &name))
        .await??)
}

/// The match played in this channel (a match thread), or a message saying where to go.
pub(crate) async fn match_here(
    data: &Data,
    channel: serenity::ChannelId,
) -> Result<Option<MatchId>, Error> {
    let thread = channel.to_string();
    Ok(data
        .reads
        .read(move |t| t.store().match_in_thread(&thread))
        .await??)
}

pub(crate) const NOT_A_MATCH: &str =
    "This channel is not a match thread. Use this command in your match's thread (see /games).";
