//! Discord's world changing under the bot. Removed from a server (GUILD_DELETE that is not an
//! outage): the server's matches are held and its leagues suspended until the bot is back
//! (GUILD_CREATE). A match's thread deleted (THREAD_DELETE, or CHANNEL_DELETE of the thread or
//! of the channel holding it): the match is held and its players told by direct message;
//! `/board` in any channel of the server then reopens it in a new thread.

use super::commands::{choice_components, mention, player_of, update_text};
use super::{Context, Data, Error, logs, pictures, reply};
use crate::store::MatchId;
use crate::table::Update;
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
            |name| format!("the server {}", super::plain::plain(&name)),
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
                super::dm_memory::send(&ctx.http, &data.table, serenity::UserId::new(user), message)
                    .await
            {
                tracing::info!(match_id = update.match_id, error = %e, "a player could not be told their thread was deleted");
            }
        }
    }
    Ok(())
}

/// `/board` outside a match thread: a match of the caller's in this server whose thread was
/// deleted is reopened in a new thread of this channel. None when the caller has no such match
/// (the command answers as before).
pub(super) async fn reopen_here(ctx: Context<'_>) -> Result<Option<()>, Error> {
    let Some(guild) = ctx.guild_id().map(|g| g.to_string()) else {
        return Ok(None);
    };
    let player = player_of(ctx.data(), ctx.author()).await?;
    let player_id = player.id;
    let lost = ctx
        .data()
        .table
        .call(move |t| t.lost_threads(player_id, &guild))
        .await??;
    let Some(&id) = lost.first() else {
        return Ok(None);
    };
    // The new thread needs a channel that can hold it and the bot's permissions there, as
    // for /play.
    if let poise::Context::Application(actx) = ctx {
        let channel = actx.interaction.channel.as_ref().map(|c| c.kind);
        if let Some(reason) = super::home::problem(channel, actx.interaction.app_permissions) {
            reply::answer(
                ctx,
                poise::CreateReply::default()
                    .content(reason)
                    .ephemeral(true),
            )
            .await?;
            return Ok(Some(()));
        }
    }
    let thread = reopen(ctx, id).await?;
    let mut text = format!("Match #{id} goes on in <#{thread}>.");
    if lost.len() > 1 {
        text.push_str(
            " Another of your matches lost its thread too: use /board again to reopen it.",
        );
    }
    reply::answer(ctx, poise::CreateReply::default().content(text)).await?;
    Ok(Some(()))
}

/// Opens a new thread for match `id` in the command's channel, moves the match there, posts its
/// board and lets its clocks run again; returns the thread.
async fn reopen(ctx: Context<'_>, id: MatchId) -> Result<serenity::ChannelId, Error> {
    let channel = ctx.channel_id();
    let show = ctx.data().table.call(move |t| t.show(id)).await??;
    let names: Vec<String> = show
        .seat_views
        .iter()
        .map(|(_, p, _)| p.name.clone())
        .collect();
    let starter = channel
        .send_message(
            ctx,
            serenity::CreateMessage::new().content(format!(
                "Match #{id} ({}) lost its thread; it goes on in a new one.",
                show.game.name()
            )),
        )
        .await?;
    let name: String = format!("{}: {}", show.game.name(), names.join(" vs "))
        .chars()
        .take(100)
        .collect();
    let thread = channel
        .create_thread_from_message(
            ctx,
            starter.id,
            serenity::CreateThread::new(name).kind(serenity::ChannelType::PublicThread),
        )
        .await?;
    let (channel_id, thread_id) = (channel.to_string(), thread.id.to_string());
    let update: Update = ctx
        .data()
        .table
        .call(move |t| t.reopened(id, &channel_id, &thread_id))
        .await??;
    tracing::info!(match_id = id, thread = %thread.id, by = %ctx.author().id, "a match was reopened in a new thread");
    let pings: Vec<String> = update
        .seat_views
        .iter()
        .map(|(_, p, _)| mention(p))
        .collect();
    thread
        .id
        .send_message(
            ctx,
            serenity::CreateMessage::new()
                .content(format!("{}\n{}", pings.join(", "), update_text(&update)))
                .add_file(pictures::board_file(&update).await?)
                .components(choice_components(&update))
                .allowed_mentions(super::pings::only(
                    update.seat_views.iter().map(|(_, p, _)| p),
                )),
        )
        .await?;
    Ok(thread.id)
}
