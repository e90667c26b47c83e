//! Discord's world changing under the bot. Removed from a server (GUILD_DELETE that is not an
//! outage): the server's matches are held and its leagues suspended until the bot is back
//! (GUILD_CREATE). A match's thread deleted (THREAD_DELETE, or CHANNEL_DELETE of the thread or
//! of the channel holding it): the match is held and its players told by direct message;
//! `/board` in any channel of the server then reopens it in a new thread.

use crate::discord::format::{logs, plain};
use crate::discord::shared::dm_memory;
use crate::discord::{Data, Error};
use poise::serenity_prelude as serenity;

/// Handles the gateway events about servers and channels; failures are logged.
pub async fn on_event(ctx: &serenity::Context, event: &serenity::FullEvent, data: &Data) {
    let done = match event {
        serenity::FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            let guild = incomplete.id.to_string();
            data.table
                .call(move |t| t.server_removed(&guild).map(|_| ()))
                .await
                .map_err(Error::from)
                .and_then(|r| r.map_err(Error::from))
        }
        serenity::FullEvent::GuildCreate { guild, .. } => {
            let guild = guild.id.to_string();
            data.table
                .call(move |t| t.server_back(&guild).map(|_| ()))
                .await
                .map_err(Error::from)
                .and_then(|r| r.map_err(Error::from))
        }
        serenity::FullEvent::ThreadDelete { thread, .. } => {
            channel_gone(ctx, data, thread.id, thread.guild_id).await
        }
        serenity::FullEvent::ChannelDelete { channel, .. } => {
            channel_gone(ctx, data, channel.id, channel.guild_id).await
        }
        _ => Ok(()),
    };
    if let Err(e) = done {
        tracing::error!(error = %logs::chain(&*e), "a change of Discord's world could not be handled");
    }
}

/// A channel was deleted: each match played there is held, and its players told.
async fn channel_gone(
    ctx: &serenity::Context,
    data: &Data,
    channel: serenity::ChannelId,
    guild: serenity::GuildId,
) -> Result<(), Error> {
    let gone = channel.to_string();
    let held = data.table.call(move |t| t.thread_deleted(&gone)).await??;
    for update in held {
        tracing::info!(match_id = update.match_id, %channel, "a match's thread was deleted; its clocks are held");
        let server = guild.name(&ctx.cache).map_or_else(
            || "its server".to_string(),
            |name| format!("the server {}", plain::plain(&name)),
        );
        let text = format!(
            "The thread of your match #{} ({}) was deleted, so its clocks are held. Use /board in any channel of {server} to reopen it.",
            update.match_id,
            update.game.name()
        );
        for (_, player, _) in &update.seat_views {
            let Some(user) = player
                .discord_id
                .as_deref()
                .and_then(|id| id.parse::<u64>().ok())
                .filter(|id| *id != 0)
            else {
                continue;
            };
            let message = serenity::CreateMessage::new().content(text.clone());
            if let Err(e) =
                dm_memory::send(&ctx.http, &data.table, serenity::UserId::new(user), message).await
            {
                tracing::info!(match_id = update.match_id, error = %e, "a player could not be told their thread was deleted");
            }
        }
    }
    Ok(())
}
