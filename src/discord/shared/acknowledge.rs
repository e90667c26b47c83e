//! Acknowledge first. Discord waits three seconds for the answer to an interaction, while the
//! one table thread may be busy (firing deadlines, pairing a round): so every slash command is
//! deferred before it runs ([`pre_command`], poise's hook), publicly or privately as its
//! answers are, and its later answers edit or follow that deferral (see [`crate::discord::shared::reply`]).
//! Buttons and menus defer in [`crate::discord::events::buttons`]; autocomplete never waits for the table
//! ([`crate::discord::shared::autocomplete`]). An answer later than Discord's fifteen minutes cannot use the
//! interaction any more: a public one is posted in the channel instead, a private one is
//! logged as lost.

use crate::discord::Context;
use crate::discord::format::logs;
use crate::discord::shared::reply;

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
        | "leaderboard" => Public,
        "league create" | "league join" | "league leave" | "league start" | "league close"
        | "league standings" | "league result" | "league repair" | "league substitute" => Public,
        // Showing a league's settings is for the caller; changing them is announced.
        "league settings" => match options.iter().any(|o| *o != "name") {
            true => Public,
            false => Private,
        },
        // A player's own view, lists and settings; every admin command. A nudge's ping is
        // owed to the thread; its answer is for the caller.
        "nudge" | "view" | "games" | "history" | "export" | "rules" | "rating" | "settings me"
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

#[cfg(test)]
mod tests;
