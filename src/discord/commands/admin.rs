//! `/admin`: a server's admins cancel a match, adjudicate its result, seat a substitute, set
//! the server's rules for the bot (where `/play` may be used, the default clock, whether typed
//! moves are read, a cooldown between challenges) and read the admin log. Discord shows the
//! command to members with Manage Server by default (adjustable in the server's integration
//! settings), and the bot checks that permission again on every use. Each ruling is announced
//! in the match's thread; every admin action is kept in the admin log.

use crate::discord::format::logs;
use crate::discord::format::options::{Switch, read_channels, read_cooldown};
use crate::discord::format::plain::plain;
use crate::discord::shared::admins::{admin_of, log_text, post_ruling, server_settings};
use crate::discord::shared::lookups::{ephemeral, match_here, player_of};
use crate::discord::shared::reply;
use crate::discord::{Context, Error};
use crate::store::{MatchId, ServerSettings};
use crate::table::admin::{Admin, REASON_LIMIT, Ruling};
use crate::table::clock::span;
use crate::table::time_control::TimeControl;
use crate::table::{Request, TableError};
use crate::web::paths::{Scope, absolute};
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// Server admins: rule on matches and set where and how the bot is used.
#[poise::command(
    slash_command,
    guild_only,
    default_member_permissions = "MANAGE_GUILD",
    subcommands("cancel", "adjudicate", "substitute", "server", "log")
)]
pub async fn admin(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The result an admin gives a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Verdict {
    #[name = "A win for the player named"]
    Win,
    #[name = "A draw"]
    Draw,
}

/// Cancel a match: it ends with no result.
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "Why (shown in the match's thread)"]
    #[max_length = 200]
    reason: String,
    #[description = "The match's number (default: this thread's match)"]
    #[rename = "match"]
    match_id: Option<i64>,
) -> Result<(), Error> {
    let Some(admin) = admin_of(ctx).await? else {
        return Ok(());
    };
    rule(ctx, admin, match_id, Ruling::Cancel, reason).await
}

/// Decide a match's result.
#[poise::command(slash_command, guild_only)]
pub async fn adjudicate(
    ctx: Context<'_>,
    #[description = "The result"] result: Verdict,
    #[description = "Why (shown in the match's thread)"]
    #[max_length = 200]
    reason: String,
    #[description = "The winner, for a win"] winner: Option<serenity::User>,
    #[description = "The match's number (default: this thread's match)"]
    #[rename = "match"]
    match_id: Option<i64>,
) -> Result<(), Error> {
    let Some(admin) = admin_of(ctx).await? else {
        return Ok(());
    };
    let ruling = match (result, winner) {
        (Verdict::Draw, None) => Ruling::Draw,
        (Verdict::Draw, Some(_)) => {
            return ephemeral(ctx, "A draw has no winner: leave `winner` empty.").await;
        }
        (Verdict::Win, None) => {
            return ephemeral(ctx, "Name the winner with `winner`.").await;
        }
        (Verdict::Win, Some(user)) => Ruling::Win(player_of(ctx.data(), &user).await?.id),
    };
    rule(ctx, admin, match_id, ruling, reason).await
}

/// Seat another member in place of a player; the match goes on from where it is.
#[poise::command(slash_command, guild_only)]
pub async fn substitute(
    ctx: Context<'_>,
    #[description = "The player who leaves"] out: serenity::User,
    #[description = "The member who takes their seat"]
    #[rename = "in"]
    into: serenity::User,
    #[description = "Why (shown in the match's thread)"]
    #[max_length = 200]
    reason: Option<String>,
    #[description = "The match's number (default: this thread's match)"]
    #[rename = "match"]
    match_id: Option<i64>,
) -> Result<(), Error> {
    let Some(admin) = admin_of(ctx).await? else {
        return Ok(());
    };
    if into.bot {
        return ephemeral(ctx, "A bot cannot take a seat.").await;
    }
    let out = player_of(ctx.data(), &out).await?.id;
    let into = player_of(ctx.data(), &into).await?.id;
    let ruling = Ruling::Substitute { out, into };
    rule(ctx, admin, match_id, ruling, reason.unwrap_or_default()).await
}

/// See or change this server's rules for the bot.
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)]
pub async fn server(
    ctx: Context<'_>,
    #[description = "Channels /play may be used in: mention them (#chess #games), or anywhere"]
    play_channels: Option<String>,
    #[description = "The clock of a /play that names none: 3d, 10d+1d, or none"] time: Option<
        String,
    >,
    #[description = "Read moves typed in match threads"] chat_moves: Option<bool>,
    #[description = "How long a member waits between two challenges: 10m, 1h, or off"]
    cooldown: Option<String>,
    #[description = "A role whose members may use /admin without Manage Server"]
    referee_role: Option<serenity::Role>,
    #[description = "No role may use /admin without Manage Server any more"]
    remove_referee_role: Option<bool>,
    #[description = "Matches against the computer may be rated (never, by default)"]
    computers_rated: Option<bool>,
    #[description = "Publish this server's leagues, matches and players on the bot's web pages"]
    web: Option<Switch>,
) -> Result<(), Error> {
    let Some(admin) = admin_of(ctx).await? else {
        return Ok(());
    };
    let play_channels = match play_channels.as_deref().map(read_channels).transpose() {
        Ok(channels) => channels,
        Err(why) => return ephemeral(ctx, why).await,
    };
    let time = match time.as_deref().map(TimeControl::parse).transpose() {
        Ok(time) => time.map(|t| t.text()),
        Err(why) => return ephemeral(ctx, format!("{why}.")).await,
    };
    let cooldown = match cooldown.as_deref().map(read_cooldown).transpose() {
        Ok(cooldown) => cooldown,
        Err(why) => return ephemeral(ctx, why).await,
    };
    let referee = match (referee_role, remove_referee_role) {
        (Some(_), Some(true)) => {
            return ephemeral(ctx, "Name a referee role or remove it, not both.").await;
        }
        (Some(role), _) => Some(Some(role.id.to_string())),
        (None, Some(true)) => Some(None),
        (None, _) => None,
    };
    let nothing = play_channels.is_none()
        && time.is_none()
        && chat_moves.is_none()
        && cooldown.is_none()
        && referee.is_none()
        && computers_rated.is_none()
        && web.is_none();
    let pages = |s: &ServerSettings| match (&ctx.data().public_url, s.web) {
        (Some(url), true) => format!(
            " Its pages: {}",
            absolute(url, &Scope::of(admin.guild.as_deref()).home())
        ),
        (None, true) => {
            " (the bot's operator has not given the pages' address, PUBLIC_URL, so no links are \
             posted)"
                .into()
        }
        (_, false) => String::new(),
    };
    if nothing {
        let settings = server_settings(ctx).await?;
        return ephemeral(ctx, format!("{}{}", describe(&settings), pages(&settings))).await;
    }
    let key = format!("interaction:{}", ctx.id());
    let guild = admin.guild.clone().unwrap_or_default();
    let (settings, _) = ctx
        .data()
        .table
        .call(move |t| {
            let at = t.now();
            let name = admin.name.clone();
            t.store()
                .change_server_settings(&guild, &key, admin.player, at, move |s| {
                    let mut changed = Vec::new();
                    let mut set = |what: &'static str, done: bool| {
                        if done {
                            changed.push(what);
                        }
                    };
                    set(
                        "channels for /play",
                        replace(&mut s.play_channels, play_channels),
                    );
                    set("default clock", replace(&mut s.time_control, time));
                    set("typed moves", replace(&mut s.chat_moves, chat_moves));
                    set("cooldown", replace(&mut s.cooldown, cooldown));
                    set("referee role", replace(&mut s.referee_role, referee));
                    set(
                        "rated computer matches",
                        replace(&mut s.computers_rated, computers_rated),
                    );
                    set("web pages", replace(&mut s.web, web.map(Switch::on)));
                    format!("{name} changed {}: {}", changed.join(", "), describe(s))
                })
        })
        .await??;
    ephemeral(
        ctx,
        format!("Saved. {}{}", describe(&settings), pages(&settings)),
    )
    .await
}

/// Puts `new` in `field` when there is one; whether it did.
fn replace<T>(field: &mut T, new: Option<T>) -> bool {
    new.map(|v| *field = v).is_some()
}

/// The latest admin actions on this server.
#[poise::command(slash_command, guild_only)]
pub async fn log(ctx: Context<'_>) -> Result<(), Error> {
    let Some(admin) = admin_of(ctx).await? else {
        return Ok(());
    };
    let (text, rows) = log_text(ctx.data(), admin.guild.unwrap_or_default(), 1).await?;
    reply::private(ctx, CreateReply::default().content(text).components(rows)).await
}

/// Applies `ruling` to the match named (or this thread's), announces it in the match's thread
/// and tells the admin privately.
async fn rule(
    ctx: Context<'_>,
    admin: Admin,
    match_id: Option<i64>,
    ruling: Ruling,
    reason: String,
) -> Result<(), Error> {
    reply::defer_private(ctx).await?;
    let id: MatchId = match match_id {
        Some(id) => id,
        None => match match_here(ctx.data(), ctx.channel_id()).await? {
            Some(id) => id,
            None => {
                let text = "Name the match with `match` (its number, see /games), or use this \
                            command in its thread.";
                return ephemeral(ctx, text).await;
            }
        },
    };
    let key = format!("interaction:{}", ctx.id());
    let result = ctx
        .data()
        .table
        .call(move |t| {
            let request = Request {
                key: Some(&key),
                ..Request::default()
            };
            t.rule(id, &admin, ruling, &reason, request)
        })
        .await?;
    let update = match result {
        Ok(update) => update,
        Err(e @ TableError::Storage(_)) => return Err(e.into()),
        Err(e) => {
            let text = logs::refused(&ctx.invocation_string(), ctx.author().id, Some(id), &e);
            return ephemeral(ctx, text).await;
        }
    };
    tracing::info!(match_id = id, admin = %ctx.author().id, line = %update.public[0], "an admin ruled on a match");
    let told = format!(
        "Done. {}{}",
        plain(&update.public[0]),
        post_ruling(ctx, &update).await
    );
    ephemeral(ctx, told).await
}

/// A server's settings in words.
pub fn describe(s: &ServerSettings) -> String {
    let channels = match s.play_channels.as_slice() {
        [] => "/play may be used in any channel".to_string(),
        ids => {
            let ids: Vec<String> = ids.iter().map(|c| format!("<#{c}>")).collect();
            format!("/play may be used in {}", ids.join(", "))
        }
    };
    let time = match TimeControl::parse(&s.time_control) {
        Ok(TimeControl::None) | Err(_) => "no clock unless the challenger names one".to_string(),
        Ok(time) => format!(
            "a clock of {} unless the challenger names one",
            time.describe()
        ),
    };
    let chat = match s.chat_moves {
        true => "moves typed in match threads are read",
        false => "moves typed in match threads are not read (slash commands and DMs still work)",
    };
    let cooldown = match s.cooldown {
        0 => "no wait between challenges".to_string(),
        secs => format!("{} between two challenges from one member", span(secs)),
    };
    let referee = match &s.referee_role {
        Some(role) => format!("; members with <@&{role}> may use /admin"),
        None => String::new(),
    };
    let computers = match s.computers_rated {
        true => "matches against the computer may be rated",
        false => "matches against the computer are never rated",
    };
    let web = match s.web {
        true => "its leagues, matches and players are on the public web pages",
        false => "no public web pages",
    };
    format!("On this server: {channels}; {time}; {chat}; {cooldown}; {computers}; {web}{referee}.")
}

// The reason's limit in the command matches the table's.
const _: () = assert!(REASON_LIMIT == 200);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discord::shared::admins::may_rule;

    #[test]
    fn channels_are_read_from_mentions_or_ids_and_anywhere_clears_them() {
        assert_eq!(
            read_channels("<#12> <#34>, 56 <#12>").unwrap(),
            ["12", "34", "56"]
        );
        assert_eq!(read_channels("anywhere").unwrap(), Vec::<String>::new());
        let err = read_channels("#chess").unwrap_err();
        assert!(err.contains("\"#chess\" is not a channel"), "{err}");
    }

    #[test]
    fn manage_server_administrator_or_the_referee_role_may_rule() {
        let manage = Some(serenity::Permissions::MANAGE_GUILD);
        let admin = Some(serenity::Permissions::ADMINISTRATOR);
        let plain = Some(serenity::Permissions::SEND_MESSAGES);
        let td = ["7".to_string()];
        assert!(may_rule(manage, &[], None));
        assert!(may_rule(admin, &[], None));
        assert!(!may_rule(plain, &[], None));
        assert!(!may_rule(None, &td, None));
        assert!(may_rule(plain, &td, Some("7")));
        assert!(!may_rule(plain, &td, Some("8")));
    }

    #[test]
    fn cooldowns_are_read_as_lengths_of_time_up_to_a_week() {
        assert_eq!(read_cooldown("10m"), Ok(600));
        assert_eq!(read_cooldown("off"), Ok(0));
        assert!(read_cooldown("8d").unwrap_err().contains("at most 7 days"));
        assert!(read_cooldown("soon").unwrap_err().contains("\"soon\""));
    }
}
