//! Playing a caller's request on a match and answering with the board: shared by the move
//! commands and by typed moves in threads and DMs.

use crate::discord::format::boards::{board_reply, confirmation, private_lines};
use crate::discord::format::notices::{changed_message, channel_of};
use crate::discord::format::{logs, plain};
use crate::discord::shared::links;
use crate::discord::shared::lookups::{NOT_A_MATCH, ephemeral, match_here, player_of, refuse};
use crate::discord::shared::reply::answer;
use crate::discord::shared::{outbox, reply};
use crate::discord::{Context, Data, Error};
use crate::store::{MatchId, Player, PlayerId};
use crate::table::{Request, Table, TableError, Update};
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// Logs a table call of this command that did not go through; returns what the caller is told.
pub(crate) fn refused(ctx: Context<'_>, match_id: Option<MatchId>, error: &TableError) -> String {
    logs::refused(&ctx.invocation_string(), ctx.author().id, match_id, error)
}

/// Logs a command the table applied (at debug), or one Discord delivered again, which the
/// table recognised by its key and applied only once (at info).
pub(crate) fn log_applied(ctx: Context<'_>, match_id: MatchId, update: &Update) {
    let request = logs::redact(&ctx.invocation_string(), &[]);
    let user = ctx.author().id;
    if update.repeated {
        tracing::info!(
            match_id,
            %user,
            %request,
            "an interaction arrived again; it was applied once"
        );
    } else {
        tracing::debug!(match_id, version = update.version, %user, %request, "a command was applied");
    }
}

/// Runs `work` for the caller on this thread's match, then shows everyone the board, or tells
/// the caller privately why not.
pub(crate) async fn board_after(
    ctx: Context<'_>,
    work: impl FnOnce(&mut Table, MatchId, PlayerId, Request) -> Result<Update, TableError>
    + Send
    + 'static,
) -> Result<(), Error> {
    reply::defer(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        return refuse(ctx, NOT_A_MATCH).await;
    };
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    // The interaction's id keys the request: Discord delivering it again changes nothing.
    let key = format!("interaction:{}", ctx.id());
    let call = move |t: &mut Table| {
        let request = Request {
            key: Some(&key),
            ..Request::default()
        };
        work(t, id, player, request)
    };
    match ctx.data().table.call(call).await? {
        Ok(update) if update.repeated => {
            // Discord delivered this interaction again: it was applied once. The same answer
            // is given (Discord keeps whichever arrives first and refuses the other), without
            // the private lines and timer that went with the first.
            log_applied(ctx, id, &update);
            let reply = board_reply(&update).await?;
            answer(
                ctx,
                links::reply_with_finished(reply, ctx.data(), &update).await,
            )
            .await?;
            Ok(())
        }
        Ok(update) => {
            log_applied(ctx, id, &update);
            let reply = board_reply(&update).await?;
            answer(
                ctx,
                links::reply_with_finished(reply, ctx.data(), &update).await,
            )
            .await?;
            outbox::delivered(&ctx.data().table, &update).await;
            if let Some(text) = private_lines(&update, player) {
                ephemeral(ctx, text).await?;
            }
            Ok(())
        }
        Err(TableError::Confirm {
            warning,
            action,
            version,
        }) => {
            let (text, buttons) = confirmation(id, version, &warning, &action);
            reply::private(
                ctx,
                CreateReply::default().content(text).components(buttons),
            )
            .await
        }
        Err(e) => ephemeral(ctx, refused(ctx, Some(id), &e)).await,
    }
}

/// Plays `text` in match `id` for `player`, keyed by the message it came in: a message
/// delivered twice is applied once (the second answer is marked `repeated`).
pub(crate) async fn act_on_message(
    data: &Data,
    msg: &serenity::Message,
    id: MatchId,
    player: crate::store::PlayerId,
    text: String,
) -> Result<Result<Update, TableError>, Error> {
    let key = format!("message:{}", msg.id);
    Ok(data
        .table
        .call(move |t| {
            let request = Request {
                key: Some(&key),
                ..Request::default()
            };
            t.act(id, player, request, &text)
        })
        .await?)
}

/// A move made away from the match's thread (a DM, or a button in one): the board goes to the
/// thread (the next player's turn message follows from the outbox once it is there). Returns
/// what to tell the mover.
pub(crate) async fn played_elsewhere(
    http: &serenity::Http,
    (table, pages): (&crate::table::TableHandle, Option<&str>),
    update: &Update,
    player: &Player,
) -> String {
    let public = plain::plain_lines(&update.public);
    let mut told = format!("Match #{}: {}", update.match_id, public.join(" "));
    if let Some(thread) = channel_of(&update.place) {
        match thread
            .send_message(
                http,
                links::with_finished(changed_message(update).await, table, pages, update).await,
            )
            .await
        {
            Ok(_) => {
                outbox::delivered(table, update).await;
                told.push_str(&format!(" The board is in <#{thread}>."));
            }
            Err(e) => {
                tracing::error!(
                    match_id = update.match_id,
                    error = %logs::chain(&e),
                    "a board could not be posted in its thread"
                );
                outbox::undelivered(table, update).await;
            }
        }
    }
    if let Some(private) = private_lines(update, player.id) {
        told.push('\n');
        told.push_str(&private);
    }
    told
}
