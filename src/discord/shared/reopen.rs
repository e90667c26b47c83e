//! Reopening a match whose thread was deleted: `/board` outside a thread opens a new one for
//! the caller's held match, here.

use crate::discord::format::boards::{choice_components, mention, update_text};
use crate::discord::format::{pictures, pings};
use crate::discord::shared::lookups::player_of;
use crate::discord::shared::{home, reply};
use crate::discord::{Context, Error};
use crate::store::MatchId;
use crate::table::Update;
use poise::serenity_prelude as serenity;

/// `/board` outside a match thread: a match of the caller's in this server whose thread was
/// deleted is reopened in a new thread of this channel. None when the caller has no such match
/// (the command answers as before).
pub(crate) async fn reopen_here(ctx: Context<'_>) -> Result<Option<()>, Error> {
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
        if let Some(reason) = home::problem(channel, actx.interaction.app_permissions) {
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

/// Opens a new thread for match `id` in the command's channel, moves the match there (its
/// clocks run again), posts its board, and only then lets its game timer run again; returns
/// the thread.
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
    let posted = post_board(ctx, thread.id, &update).await;
    // The game's timer (Memory's reveal) waited for the board: it runs again now, also when
    // the board could not be shown (the players then have /board in the thread).
    let shown = ctx.data().table.call(move |t| t.board_shown(id)).await?;
    posted?;
    shown?;
    Ok(thread.id)
}

/// Posts the board of a reopened match in its new `thread`, calling its players.
async fn post_board(
    ctx: Context<'_>,
    thread: serenity::ChannelId,
    update: &Update,
) -> Result<(), Error> {
    let pings: Vec<String> = update
        .seat_views
        .iter()
        .map(|(_, p, _)| mention(p))
        .collect();
    thread
        .send_message(
            ctx,
            serenity::CreateMessage::new()
                .content(format!("{}\n{}", pings.join(", "), update_text(update)))
                .add_file(pictures::board_file(update).await?)
                .components(choice_components(update))
                .allowed_mentions(pings::only(update.seat_views.iter().map(|(_, p, _)| p))),
        )
        .await?;
    Ok(())
}
