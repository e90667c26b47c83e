//! Playing a match by slash command in its thread: `/move` (with autocomplete), `/board`
//! (which also reopens a match whose thread was deleted), `/view`, `/resign` and `/draw`.
//! Player mistakes get a private, precise reply; internal failures are logged and answered
//! generically.

use crate::discord::format::boards::{board_reply, mention};
use crate::discord::format::ids::ButtonAction;
use crate::discord::format::plain::plain_lines;
use crate::discord::format::{pictures, pings};
use crate::discord::shared::acting::{board_after, log_applied, refused};
use crate::discord::shared::autocomplete::autocomplete_action;
use crate::discord::shared::links;
use crate::discord::shared::lookups::{NOT_A_MATCH, ephemeral, match_here, player_of, refuse};
use crate::discord::shared::reply::answer;
use crate::discord::shared::{dm_memory, outbox, reopen, reply};
use crate::discord::{Context, Error};
use crate::store::Player;
use crate::table::Request;
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// Play an action in this match (start typing to see the legal ones).
#[poise::command(slash_command, guild_only, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "Your action, for example e4, Nf3 or O-O"]
    #[autocomplete = "autocomplete_action"]
    action: String,
) -> Result<(), Error> {
    board_after(ctx, move |t, id, player, request| {
        t.act(id, player, request, &action)
    })
    .await
}

/// Show this match's board again (outside a thread: reopen a match whose thread was deleted).
#[poise::command(slash_command, guild_only)]
pub async fn board(ctx: Context<'_>) -> Result<(), Error> {
    reply::defer(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        // A match of the caller's whose thread was deleted reopens here.
        if reopen::reopen_here(ctx).await?.is_some() {
            return Ok(());
        }
        return refuse(ctx, NOT_A_MATCH).await;
    };
    match ctx.data().reads.read(move |t| t.show(id)).await? {
        Ok(update) => {
            // A read: it names who must act, and pings nobody.
            reply::answer_quietly(ctx, board_reply(&update).await?).await
        }
        Err(e) => ephemeral(ctx, refused(ctx, Some(id), &e)).await,
    }
}

/// See your own view of this match, privately (or by direct message).
#[poise::command(slash_command, guild_only)]
pub async fn view(
    ctx: Context<'_>,
    #[description = "Send it to you by direct message"] dm: Option<bool>,
) -> Result<(), Error> {
    reply::defer_private(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        return refuse(ctx, NOT_A_MATCH).await;
    };
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let view = match ctx
        .data()
        .reads
        .read(move |t| t.view_for(id, Some(player)))
        .await?
    {
        Ok(view) => view,
        Err(e) => return ephemeral(ctx, refused(ctx, Some(id), &e)).await,
    };
    let png = pictures::draw(view).await?;
    let file = || serenity::CreateAttachment::bytes(png.clone(), "view.png");
    let mut note = format!("Your view of match #{id}.");
    if dm.unwrap_or(false) {
        let message = serenity::CreateMessage::new()
            .content(note.clone())
            .add_file(file());
        let (table, user) = (&ctx.data().table, ctx.author().id);
        match dm_memory::try_again(ctx.http(), table, user, message).await {
            Ok(()) => return ephemeral(ctx, "Sent to you by direct message.").await,
            Err(e) => {
                tracing::info!(
                    match_id = id,
                    user = %ctx.author().id,
                    error = %e,
                    "a view could not be sent by direct message; shown privately instead"
                );
                note = format!(
                    "I could not send you a direct message (your DMs may be closed), so here it is privately. {note}"
                );
            }
        }
    }
    reply::private(ctx, CreateReply::default().content(note).attachment(file())).await
}

/// Resign this match.
#[poise::command(slash_command, guild_only)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    board_after(ctx, |t, id, player, request| t.resign(id, player, request)).await
}

/// Offer a draw (or accept the one on the table).
#[poise::command(slash_command, guild_only)]
pub async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    reply::defer(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        return refuse(ctx, NOT_A_MATCH).await;
    };
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let key = format!("interaction:{}", ctx.id());
    let update = match ctx
        .data()
        .table
        .call(move |t| {
            let request = Request {
                key: Some(&key),
                ..Request::default()
            };
            t.offer_draw(id, player, request)
        })
        .await?
    {
        Ok(update) => update,
        Err(e) => return ephemeral(ctx, refused(ctx, Some(id), &e)).await,
    };
    log_applied(ctx, id, &update);
    if update.result.is_some() {
        let reply = board_reply(&update).await?;
        answer(
            ctx,
            links::reply_with_finished(reply, ctx.data(), &update).await,
        )
        .await?;
        outbox::delivered(&ctx.data().table, &update).await;
        return Ok(());
    }
    let version = update.version;
    let others: Vec<&Player> = update
        .seat_views
        .iter()
        .filter(|(_, p, _)| p.id != player)
        .map(|(_, p, _)| p)
        .collect();
    let called: Vec<String> = others.iter().map(|p| mention(p)).collect();
    answer(
        ctx,
        CreateReply::default()
            .content(format!(
                "{}\n{}: accept or decline?",
                plain_lines(&update.public).join("\n"),
                called.join(", ")
            ))
            .allowed_mentions(pings::only(others.iter().copied()))
            .components(vec![serenity::CreateActionRow::Buttons(vec![
                serenity::CreateButton::new(
                    ButtonAction::AcceptDraw {
                        match_id: id,
                        version,
                    }
                    .custom_id(),
                )
                .label("Accept draw")
                .style(serenity::ButtonStyle::Success),
                serenity::CreateButton::new(
                    ButtonAction::DeclineDraw {
                        match_id: id,
                        version,
                    }
                    .custom_id(),
                )
                .label("Decline")
                .style(serenity::ButtonStyle::Secondary),
            ])]),
    )
    .await?;
    outbox::delivered(&ctx.data().table, &update).await;
    Ok(())
}
