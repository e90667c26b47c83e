//! Answering slash commands in time. A command whose work may take a while (anything that
//! waits for the table or draws a picture) defers first, so Discord shows "thinking…" instead
//! of failing after three seconds, then answers by editing that deferred reply. A private
//! answer after a public deferral (a refusal, which must never show in the channel) removes
//! the "thinking…" message and is sent privately instead.

use super::{Context, Error, acknowledge};
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
/// [`super::acknowledge`]): deferring again changes nothing.
fn acknowledged(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(app) => app
            .has_sent_initial_response
            .load(std::sync::atomic::Ordering::SeqCst),
        poise::Context::Prefix(_) => false,
    }
}

/// Defers: the answer will be public (a private one is sent apart, see [`private`]).
pub(super) async fn defer(ctx: Context<'_>) -> Result<(), Error> {
    if acknowledged(ctx) {
        return Ok(());
    }
    ctx.defer().await?;
    set(ctx, Some(Pending::Public)).await;
    Ok(())
}

/// Defers: every answer will be private.
pub(super) async fn defer_private(ctx: Context<'_>) -> Result<(), Error> {
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
        Err(e) if acknowledge::expired(&e) => match pending {
            Pending::Public => acknowledge::post_instead(ctx, reply, ping).await,
            Pending::Private => {
                acknowledge::lost(ctx);
                Ok(None)
            }
        },
        Err(e) => Err(e.into()),
    }
}

/// [`answer`] for a read (`/board`): it may name players, and pings none of them.
pub(super) async fn answer_quietly(ctx: Context<'_>, reply: CreateReply) -> Result<(), Error> {
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
pub(super) async fn answer(
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
        Err(e) if acknowledge::expired(&e) => acknowledge::post_instead(ctx, reply, ping).await,
        Err(e) => Err(e.into()),
    }
}

/// Answers with `reply` for the caller's eyes only, whatever was deferred. After Discord's 15
/// minutes there is no private way left: the answer is logged as lost.
pub(super) async fn private(ctx: Context<'_>, reply: CreateReply) -> Result<(), Error> {
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
                    Err(e) if acknowledge::expired(&e) => {
                        acknowledge::lost(ctx);
                        return Ok(());
                    }
                    done => done?,
                }
            }
        }
        None => {}
    }
    match ctx.send(reply.ephemeral(true)).await {
        Err(e) if acknowledge::expired(&e) => acknowledge::lost(ctx),
        done => {
            done?;
        }
    }
    Ok(())
}
