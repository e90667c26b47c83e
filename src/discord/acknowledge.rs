//! Acknowledge first. Discord waits three seconds for the answer to an interaction, while the
//! one table thread may be busy (firing deadlines, pairing a round): so every slash command is
//! deferred before it runs ([`pre_command`], poise's hook), publicly or privately as its
//! answers are, and its later answers edit or follow that deferral (see [`super::reply`]).
//! Buttons and menus defer in [`super::buttons`]; autocomplete never waits for the table
//! ([`super::autocomplete`]). An answer later than Discord's fifteen minutes cannot use the
//! interaction any more: a public one is posted in the channel instead, a private one is
//! logged as lost.

use super::{Context, Error, logs, reply};
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// Who sees a command's "thinking…", and so its first answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ack {
    /// The channel sees it: the command's answer is public (a refusal still goes privately:
    /// the public "thinking…" is removed and a private message sent, see [`reply::private`]).
    Public,
    /// Only the caller sees it: every answer of the command is private.
    Private,
}

/// How the command `qualified` ("league close") is acknowledged, given the options it was sent
/// with; None for a name this table does not know (then [`Ack::Private`], which never shows
/// anything to the wrong people).
pub fn ack_of(qualified: &str, options: &[&str]) -> Option<Ack> {
    use Ack::{Private, Public};
    Some(match qualified {
        // Moves, boards and challenges are for the channel.
        "play" | "move" | "board" | "resign" | "draw" | "replay" | "time give" | "time claim"
        | "nudge" | "leaderboard" => Public,
        "league create" | "league join" | "league leave" | "league start" | "league close"
        | "league standings" | "league result" | "league repair" | "league substitute" => Public,
        // Showing a league's settings is for the caller; changing them is announced.
        "league settings" => match options.iter().any(|o| *o != "name") {
            true => Public,
            false => Private,
        },
        // A player's own view, lists and settings; every admin command.
        "view" | "games" | "history" | "export" | "rules" | "rating" | "settings me"
        | "vacation start" | "vacation end" | "vacation status" | "league unavailable"
        | "league pairings" | "league schedule" => Private,
        "admin cancel" | "admin adjudicate" | "admin substitute" | "admin server" | "admin log" => {
            Private
        }
        _ => return None,
    })
}

/// The names of the options a slash command was sent with (those of its subcommand).
fn options_given(ctx: Context<'_>) -> Vec<&str> {
    match ctx {
        poise::Context::Application(app) => app.args.iter().map(|o| o.name).collect(),
        poise::Context::Prefix(_) => vec![],
    }
}

/// Poise's `pre_command`: defers the command before any of its work.
pub async fn pre_command(ctx: Context<'_>) {
    let qualified = &ctx.command().qualified_name;
    let ack = ack_of(qualified, &options_given(ctx)).unwrap_or_else(|| {
        tracing::warn!(command = %qualified, "a command without an acknowledgement; deferred privately");
        Ack::Private
    });
    let deferred = match ack {
        Ack::Public => reply::defer(ctx).await,
        Ack::Private => reply::defer_private(ctx).await,
    };
    if let Err(e) = deferred {
        // The command still runs: its answer then fails the same way and is logged there.
        tracing::warn!(
            user = %ctx.author().id,
            request = %logs::redact(&ctx.invocation_string(), &[]),
            error = %logs::chain(&*e),
            "a command could not be acknowledged"
        );
    }
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

#[cfg(test)]
mod tests;
