//! Answering slash commands in time. A command whose work may take a while (anything that
//! waits for the table or draws a picture) defers first, so Discord shows "thinking…" instead
//! of failing after three seconds, then answers by editing that deferred reply. A private
//! answer after a public deferral (a refusal, which must never show in the channel) removes
//! the "thinking…" message and is sent privately instead.

use crate::discord::format::logs;
use crate::discord::{Context, Error};
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// A deferred reply still waiting for its answer (kept in poise's invocation data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// Everyone sees "thinking…".
    Public,
    /// Only the caller sees it.
    Private,
}

async fn set(ctx: Context<'_>, pending: Option<Pending>) {
    ctx.set_invocation_data(pending).await;
}

/// The deferral waiting for its answer, if any; the caller now answers it.
async fn take(ctx: Context<'_>) -> Option<Pending> {
    ctx.invocation_data::<Option<Pending>>()
        .await
        .and_then(|mut pending| pending.take())
}

/// Whether Discord was answered already (every command is deferred before it runs, see
/// [`crate::discord::shared::acknowledge`]): deferring again changes nothing.
fn acknowledged(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(app) => app
            .has_sent_initial_response
            .load(std::sync::atomic::Ordering::SeqCst),
        poise::Context::Prefix(_) => false,
    }
}

/// Defers: the answer will be public (a private one is sent apart, see [`private`]).
pub(crate) async fn defer(ctx: Context<'_>) -> Result<(), Error> {
    if acknowledged(ctx) {
        return Ok(());
    }
    ctx.defer().await?;
    set(ctx, Some(Pending::Public)).await;
    Ok(())
}

/// Defers: every answer will be private.
pub(crate) async fn defer_private(ctx: Context<'_>) -> Result<(), Error> {
    if acknowledged(ctx) {
        return Ok(());
    }
    ctx.defer_ephemeral().await?;
    set(ctx, Some(Pending::Private)).await;
    Ok(())
}

/// Edits the deferred reply into `reply`; returns the message it became.
async fn edit(
    ctx: Context<'_>,
    reply: CreateReply,
    pending: Pending,
) -> Result<Option<serenity::Message>, Error> {
    edit_pinging(ctx, reply, pending, true).await
}

/// [`edit`]; unless `ping`, the mentions in it notify nobody.
async fn edit_pinging(
    ctx: Context<'_>,
    reply: CreateReply,
    pending: Pending,
    ping: bool,
) -> Result<Option<serenity::Message>, Error> {
    let poise::Context::Application(app) = ctx else {
        ctx.send(reply).await?;
        return Ok(None);
    };
    // poise's defaults (mentions notify nobody unless the reply says whom) are applied here:
    // serenity gives an edit of the answer none of its own.
    let mut edit = ctx
        .reply_builder(reply.clone())
        .to_slash_initial_response_edit(serenity::EditInteractionResponse::new());
    if !ping {
        edit = edit.allowed_mentions(serenity::CreateAllowedMentions::new());
    }
    match app.interaction.edit_response(ctx.http(), edit).await {
        Ok(message) => Ok(Some(message)),
        Err(e) if expired(&e) => match pending {
            Pending::Public => post_instead(ctx, reply, ping).await,
            Pending::Private => {
                lost(ctx);
                Ok(None)
            }
        },
        Err(e) => Err(e.into()),
    }
}

/// [`answer`] for a read (`/board`): it may name players, and pings none of them.
pub(crate) async fn answer_quietly(ctx: Context<'_>, reply: CreateReply) -> Result<(), Error> {
    let reply = reply.allowed_mentions(serenity::CreateAllowedMentions::new());
    match take(ctx).await {
        Some(pending) => {
            edit_pinging(ctx, reply, pending, false).await?;
        }
        None => {
            follow(ctx, reply, false).await?;
        }
    }
    Ok(())
}

/// Answers with `reply`: into the deferred reply if there is one (public or private as it
/// was deferred), otherwise as a reply or follow-up. Returns the message when Discord gave it.
pub(crate) async fn answer(
    ctx: Context<'_>,
    reply: CreateReply,
) -> Result<Option<serenity::Message>, Error> {
    if let Some(pending) = take(ctx).await {
        return edit(ctx, reply, pending).await;
    }
    follow(ctx, reply, true).await
}

/// Sends `reply` as a public reply or follow-up; one that comes after Discord's 15 minutes is
/// posted in the channel instead.
async fn follow(
    ctx: Context<'_>,
    reply: CreateReply,
    ping: bool,
) -> Result<Option<serenity::Message>, Error> {
    match ctx.send(reply.clone()).await {
        Ok(_) => Ok(None),
        Err(e) if expired(&e) => post_instead(ctx, reply, ping).await,
        Err(e) => Err(e.into()),
    }
}

/// Answers with `reply` for the caller's eyes only, whatever was deferred. After Discord's 15
/// minutes there is no private way left: the answer is logged as lost.
pub(crate) async fn private(ctx: Context<'_>, reply: CreateReply) -> Result<(), Error> {
    match take(ctx).await {
        Some(Pending::Private) => {
            edit(ctx, reply, Pending::Private).await?;
            return Ok(());
        }
        Some(Pending::Public) => {
            // A public "thinking…" cannot turn private: it goes, and a private follow-up
            // takes its place.
            if let poise::Context::Application(app) = ctx {
                match app.interaction.delete_response(ctx.http()).await {
                    Err(e) if expired(&e) => {
                        lost(ctx);
                        return Ok(());
                    }
                    done => done?,
                }
            }
        }
        None => {}
    }
    match ctx.send(reply.ephemeral(true)).await {
        Err(e) if expired(&e) => lost(ctx),
        done => {
            done?;
        }
    }
    Ok(())
}

/// Discord's code for an interaction webhook that no longer exists (15 minutes are over).
pub const UNKNOWN_WEBHOOK: isize = 10015;
/// Discord's code for an interaction answered too late (after three seconds).
pub const UNKNOWN_INTERACTION: isize = 10062;

/// Whether `error` is Discord saying the interaction can no longer be answered.
pub fn expired(error: &serenity::Error) -> bool {
    matches!(
        error,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))
            if [UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION].contains(&response.error.code)
    )
}

/// Posts a public answer whose interaction expired in the command's channel instead; unless
/// `ping`, its mentions notify nobody.
pub async fn post_instead(
    ctx: Context<'_>,
    reply: CreateReply,
    ping: bool,
) -> Result<Option<serenity::Message>, Error> {
    let channel = ctx.channel_id();
    tracing::info!(
        user = %ctx.author().id,
        request = %logs::redact(&ctx.invocation_string(), &[]),
        %channel,
        "an answer came after its interaction expired; it is posted in the channel instead"
    );
    // The reference is not used: the reply is not marked as one.
    let unused = serenity::MessageReference::from((channel, serenity::MessageId::new(1)));
    let mut message = reply.to_prefix(unused);
    if !ping {
        message = message.allowed_mentions(serenity::CreateAllowedMentions::new());
    }
    Ok(Some(channel.send_message(ctx.http(), message).await?))
}

/// Logs a private answer that came after its interaction expired: there is no private way
/// left to give it.
pub fn lost(ctx: Context<'_>) {
    tracing::warn!(
        user = %ctx.author().id,
        request = %logs::redact(&ctx.invocation_string(), &[]),
        "a private answer came after its interaction expired; it could not be given"
    );
}
