//! Moves typed as messages in a match thread. A message from a player who must act that reads
//! as an action of theirs is played, exactly once (the message id keys the request), and
//! answered by the new board as a reply; anything else is ordinary chat and left alone.
//!
//! Two ways to read messages: with the Message Content intent every message in a match thread
//! is read ([`ChatMode::All`]); without it Discord still delivers the text of messages that
//! mention the bot (`@deckmate e4`), and only those are read ([`ChatMode::Mentions`]).
//!
//! A refused typed action never shows its text or its reason in the thread (in a card game
//! that could give away a hand): the bot reacts to the message and tells the reason by direct
//! message, or says in the thread, without the reason, that it could not.

use crate::discord::config::ChatMode;
use crate::discord::events::{chat, direct};
use crate::discord::format::boards::{confirmation, mention, private_lines};
use crate::discord::format::logs::player_message;
use crate::discord::format::{logs, notices, pings};
use crate::discord::shared::acting::act_on_message;
use crate::discord::shared::lookups::{match_here, player_of};
use crate::discord::shared::{dm_memory, links, outbox};
use crate::discord::{Data, Error};
use crate::store::{MatchId, Player};
use crate::table::{TableError, Update};
use poise::serenity_prelude as serenity;

/// The reaction put on a typed action that was refused.
const REFUSED: char = '❌';

/// `content` without a leading mention of the bot, if it starts with one.
fn after_mention(content: &str, me: serenity::UserId) -> Option<&str> {
    let content = content.trim_start();
    [format!("<@{me}>"), format!("<@!{me}>")]
        .iter()
        .find_map(|m| content.strip_prefix(m.as_str()))
        .map(str::trim)
}

/// A message arrived: played if it is a move, else left alone. Failures are logged.
pub async fn on_message(ctx: &serenity::Context, msg: &serenity::Message, data: &Data) {
    if msg.author.bot {
        return;
    }
    if msg.guild_id.is_none() {
        return direct::on_direct_message(ctx, msg, data).await;
    }
    let me = ctx.cache.current_user().id;
    let mentioned = after_mention(&msg.content, me);
    let text = match (mentioned, data.chat) {
        (Some(text), _) => text,
        (None, ChatMode::All) => msg.content.trim(),
        (None, ChatMode::Mentions) => return,
    };
    let addressed = mentioned.is_some();
    if let Err(e) = typed_move(ctx, msg, data, text.to_string(), addressed).await {
        tracing::error!(
            message = %msg.id,
            channel = %msg.channel_id,
            error = %logs::chain(&*e),
            "a typed move could not be handled"
        );
    }
    // Handled (or not a move): a restart reads the thread from after it.
    chat::saw(data, msg).await;
}

async fn typed_move(
    ctx: &serenity::Context,
    msg: &serenity::Message,
    data: &Data,
    text: String,
    addressed: bool,
) -> Result<(), Error> {
    let Some(id) = match_here(data, msg.channel_id).await? else {
        return Ok(());
    };
    if let Some(guild) = msg.guild_id.map(|g| g.to_string()) {
        let read = data
            .table
            .call(move |t| t.store().server_settings(&guild))
            .await??
            .chat_moves;
        if !read {
            // This server's admins turned typed moves off: chat stays chat, and a message
            // addressed to the bot is told where moves go.
            if addressed {
                let hint = "Typed moves are turned off on this server: use /move here, or send \
                            me the move by direct message.";
                msg.reply(&ctx.http, hint).await?;
            }
            return Ok(());
        }
    }
    let player = player_of(data, &msg.author).await?;
    let said = text.clone();
    let player_id = player.id;
    let meant = data
        .table
        .call(move |t| t.reads_as_action(id, player_id, &said))
        .await??;
    if !meant {
        return Ok(()); // Chat.
    }
    match act_on_message(data, msg, id, player_id, text).await? {
        // Delivered again: it was answered the first time.
        Ok(update) if update.repeated => Ok(()),
        Ok(update) => played(ctx, msg, data, &player, &update).await,
        Err(TableError::Refused(_)) => Ok(()),
        Err(TableError::Confirm {
            warning,
            action,
            version,
        }) => {
            let (text, buttons) = confirmation(id, version, &warning, &action);
            let message = serenity::CreateMessage::new()
                .content(format!("Match #{id}: {text}"))
                .components(buttons);
            refused(ctx, data, msg, &player, id, message).await
        }
        Err(e) => {
            tracing::info!(match_id = id, message = %msg.id, reason = %e, "a typed move was refused");
            let text = format!("Match #{id}: {}", player_message(&e));
            refused(
                ctx,
                data,
                msg,
                &player,
                id,
                serenity::CreateMessage::new().content(text),
            )
            .await
        }
    }
}

/// The move was played: the new board as a reply and the mover's private lines by direct
/// message; the next player's turn message follows from the outbox once the board is shown.
async fn played(
    ctx: &serenity::Context,
    msg: &serenity::Message,
    data: &Data,
    player: &Player,
    update: &Update,
) -> Result<(), Error> {
    tracing::info!(match_id = update.match_id, message = %msg.id, "a typed move was played");
    // A move whose message was deleted before this answer still gets its board, as a plain
    // message (Discord refuses a reply to a deleted message unless told not to fail).
    let mut reference = serenity::MessageReference::from(msg);
    reference.fail_if_not_exists = Some(false);
    let reply = notices::changed_message(update).await;
    let reply = links::with_finished(reply, &data.table, data.public_url.as_deref(), update)
        .await
        .reference_message(reference);
    if let Err(e) = msg.channel_id.send_message(&ctx.http, reply).await {
        outbox::undelivered(&data.table, update).await;
        return Err(e.into());
    }
    outbox::delivered(&data.table, update).await;
    if let Some(text) = private_lines(update, player.id) {
        let private =
            serenity::CreateMessage::new().content(format!("Match #{}: {text}", update.match_id));
        // Private lines never go to the thread: with DMs closed they are not sent.
        if let Err(e) = dm_memory::send(&ctx.http, &data.table, msg.author.id, private).await {
            tracing::info!(match_id = update.match_id, error = %e, "private lines could not go by direct message");
        }
    }
    Ok(())
}

/// A refused typed move: a reaction on the message, and `why` by direct message; in the
/// thread only that the reason could not be sent, when it could not.
async fn refused(
    ctx: &serenity::Context,
    data: &Data,
    msg: &serenity::Message,
    player: &Player,
    id: MatchId,
    why: serenity::CreateMessage,
) -> Result<(), Error> {
    // The message may be gone (deleted: 10008) or reactions not allowed: the reason is sent
    // all the same.
    if let Err(e) = msg.react(&ctx.http, REFUSED).await {
        tracing::info!(match_id = id, error = %logs::chain(&e), "a refused move's message could not be marked");
    }
    if let Err(e) = dm_memory::send(&ctx.http, &data.table, msg.author.id, why).await {
        tracing::info!(match_id = id, error = %e, "a refusal could not go by direct message");
        let text = format!(
            "{}: that move was not played, and I could not tell you why by direct message. Allow direct messages from this server, or use /move.",
            mention(player)
        );
        let told = serenity::CreateMessage::new()
            .content(text)
            .allowed_mentions(pings::only([player]));
        msg.channel_id.send_message(&ctx.http, told).await?;
    }
    Ok(())
}

/// Records that `msg` was read, when it was posted in a match thread.
pub(crate) async fn saw(data: &Data, msg: &serenity::Message) {
    let (thread, id) = (msg.channel_id.to_string(), msg.id.get());
    let recorded = data
        .table
        .call(move |t| -> Result<(), crate::store::StoreError> {
            if t.store().match_in_thread(&thread)?.is_some() {
                t.store().saw_message(&thread, id)?;
            }
            Ok(())
        })
        .await;
    if let Ok(Err(e)) = recorded {
        tracing::error!(message = %msg.id, error = %logs::chain(&e), "a message read could not be recorded");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_mention_of_the_bot_is_taken_off() {
        let me = serenity::UserId::new(42);
        assert_eq!(after_mention("<@42> e4", me), Some("e4"));
        assert_eq!(after_mention("  <@!42>   Nf3 ", me), Some("Nf3"));
        assert_eq!(after_mention("e4 <@42>", me), None);
        assert_eq!(after_mention("<@43> e4", me), None);
    }
}
