//! `/admin`: a server's admins cancel a match, adjudicate its result, seat a substitute, set
//! the server's rules for the bot (where `/play` may be used, the default clock, whether typed
//! moves are read, a cooldown between challenges) and read the admin log. Discord shows the
//! command to members with Manage Server by default (adjustable in the server's integration
//! settings), and the bot checks that permission again on every use. Each ruling is announced
//! in the match's thread; every admin action is kept in the admin log.

use super::commands::{match_here, player_of};
use super::pages;
use super::plain::plain;
use super::reply;
use super::scheduler::{changed_message, channel_of};
use super::{Context, Error, logs};
use crate::store::{MatchId, ServerSettings};
use crate::table::admin::{Admin, REASON_LIMIT, Ruling};
use crate::table::clock::span;
use crate::table::time_control::{TimeControl, read_duration};
use crate::table::{Request, TableError, Update};
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// The longest cooldown a server may ask for between two challenges.
const COOLDOWN_LIMIT: i64 = 7 * 24 * 3600;

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
            return private(ctx, "A draw has no winner: leave `winner` empty.").await;
        }
        (Verdict::Win, None) => {
            return private(ctx, "Name the winner with `winner`.").await;
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
        return private(ctx, "A bot cannot take a seat.").await;
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
) -> Result<(), Error> {
    let Some(admin) = admin_of(ctx).await? else {
        return Ok(());
    };
    let play_channels = match play_channels.as_deref().map(read_channels).transpose() {
        Ok(channels) => channels,
        Err(why) => return private(ctx, why).await,
    };
    let time = match time.as_deref().map(TimeControl::parse).transpose() {
        Ok(time) => time.map(|t| t.text()),
        Err(why) => return private(ctx, format!("{why}.")).await,
    };
    let cooldown = match cooldown.as_deref().map(read_cooldown).transpose() {
        Ok(cooldown) => cooldown,
        Err(why) => return private(ctx, why).await,
    };
    let referee = match (referee_role, remove_referee_role) {
        (Some(_), Some(true)) => {
            return private(ctx, "Name a referee role or remove it, not both.").await;
        }
        (Some(role), _) => Some(Some(role.id.to_string())),
        (None, Some(true)) => Some(None),
        (None, _) => None,
    };
    let nothing = play_channels.is_none()
        && time.is_none()
        && chat_moves.is_none()
        && cooldown.is_none()
        && referee.is_none();
    if nothing {
        let settings = server_settings(ctx).await?;
        return private(ctx, describe(&settings)).await;
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
                    format!("{name} changed {}: {}", changed.join(", "), describe(s))
                })
        })
        .await??;
    private(ctx, format!("Saved. {}", describe(&settings))).await
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

/// The most admin actions `/admin log` reads back, newest first, a page at a time.
const LOG_ENTRIES: usize = 100;

/// Page `page` of this server's admin log, with its buttons.
async fn log_text(
    data: &super::Data,
    guild: String,
    page: usize,
) -> Result<(String, Vec<serenity::CreateActionRow>), Error> {
    let entries = data
        .table
        .call(move |t| t.store().admin_log(&guild, LOG_ENTRIES))
        .await??;
    if entries.is_empty() {
        let text = "No admin action has been taken on this server yet.".to_string();
        return Ok((text, vec![]));
    }
    let lines: Vec<String> = entries
        .iter()
        .map(|e| {
            let on = e
                .match_id
                .map_or(String::new(), |id| format!(" match #{id}:"));
            format!("<t:{}:f>{on} {}", e.at, plain(&e.detail))
        })
        .collect();
    let head = |p: usize, n: usize| match n {
        1 => String::new(),
        n => format!("Admin log, newest first, page {p} of {n}:"),
    };
    Ok(pages::page(head, &lines, page, &pages::Listing::AdminLog))
}

/// A page of the admin log for a press of its buttons: only for a member who may rule.
pub(super) async fn log_page(
    data: &super::Data,
    guild: Option<String>,
    permissions: Option<serenity::Permissions>,
    roles: &[String],
    page: usize,
) -> Result<Result<(String, Vec<serenity::CreateActionRow>), String>, Error> {
    let Some(guild) = guild else {
        return Ok(Err(NOT_AN_ADMIN.into()));
    };
    let server = guild.clone();
    let referee = data
        .table
        .call(move |t| t.store().server_settings(&server))
        .await??
        .referee_role;
    if !may_rule(permissions, roles, referee.as_deref()) {
        return Ok(Err(NOT_AN_ADMIN.into()));
    }
    Ok(Ok(log_text(data, guild, page).await?))
}

/// What a member who may not use /admin is told.
const NOT_AN_ADMIN: &str = "Only members with the Manage Server permission (or the server's \
                            referee role) can use /admin.";

/// This server's settings (the defaults outside a server).
pub(super) async fn server_settings(ctx: Context<'_>) -> Result<ServerSettings, Error> {
    let Some(guild) = ctx.guild_id() else {
        return Ok(ServerSettings::default());
    };
    let guild = guild.to_string();
    Ok(ctx
        .data()
        .table
        .call(move |t| t.store().server_settings(&guild))
        .await??)
}

/// The caller as an admin of this server, or None once they are told they are not one.
pub(super) async fn admin_of(ctx: Context<'_>) -> Result<Option<Admin>, Error> {
    let member = ctx.author_member().await;
    let permissions = member.as_ref().and_then(|m| m.permissions);
    let roles: Vec<String> = member
        .as_ref()
        .map(|m| m.roles.iter().map(|r| r.to_string()).collect())
        .unwrap_or_default();
    let referee = server_settings(ctx).await?.referee_role;
    let Some(guild) = ctx
        .guild_id()
        .filter(|_| may_rule(permissions, &roles, referee.as_deref()))
    else {
        tracing::info!(user = %ctx.author().id, request = %logs::redact(&ctx.invocation_string(), &[]), "an admin command was refused to a member without Manage Server");
        private(
            ctx,
            "Only members with the Manage Server permission (or the server's referee role) \
             can use /admin.",
        )
        .await?;
        return Ok(None);
    };
    let player = player_of(ctx.data(), ctx.author()).await?;
    Ok(Some(Admin {
        player: player.id,
        name: player.name,
        guild: Some(guild.to_string()),
    }))
}

/// Whether a member with `permissions` (in the channel, as the interaction gives them) and
/// `roles` may use `/admin`: Manage Server or Administrator, or the server's referee role.
fn may_rule(
    permissions: Option<serenity::Permissions>,
    roles: &[String],
    referee: Option<&str>,
) -> bool {
    permissions.is_some_and(|p| p.manage_guild() || p.administrator())
        || referee.is_some_and(|role| roles.iter().any(|r| r == role))
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
                return private(ctx, text).await;
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
            return private(ctx, text).await;
        }
    };
    tracing::info!(match_id = id, admin = %ctx.author().id, line = %update.public[0], "an admin ruled on a match");
    let told = format!(
        "Done. {}{}",
        plain(&update.public[0]),
        post_ruling(ctx, &update).await
    );
    private(ctx, told).await
}

/// Posts a ruling's update in its match's thread and tells whose turn it is; what the admin
/// is told of it.
pub(super) async fn post_ruling(ctx: Context<'_>, update: &Update) -> String {
    let Some(thread) = channel_of(&update.place).filter(|_| !update.repeated) else {
        return String::new();
    };
    let http = &ctx.serenity_context().http;
    let told = match thread
        .send_message(http, changed_message(update).await)
        .await
    {
        Ok(_) => {
            super::outbox::delivered(&ctx.data().table, update).await;
            format!(" Announced in <#{thread}>.")
        }
        Err(e) => {
            tracing::error!(match_id = update.match_id, error = %logs::chain(&e), "a ruling could not be posted in its thread");
            super::outbox::undelivered(&ctx.data().table, update).await;
            " It could not be posted in the match's thread.".to_string()
        }
    };
    super::turns::tell_turns(http, &ctx.data().table, update, None).await;
    told
}

async fn private(ctx: Context<'_>, text: impl Into<String>) -> Result<(), Error> {
    reply::private(ctx, CreateReply::default().content(text)).await
}

/// Channel mentions (`<#123>`) or bare ids; "anywhere" (or "all", "off") for no limit.
pub(super) fn read_channels(text: &str) -> Result<Vec<String>, String> {
    let text = text.trim();
    if ["anywhere", "all", "any", "off", "none"].contains(&text.to_lowercase().as_str()) {
        return Ok(vec![]);
    }
    let mut channels = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ',') {
        if word.is_empty() {
            continue;
        }
        let id = word
            .strip_prefix("<#")
            .and_then(|w| w.strip_suffix('>'))
            .unwrap_or(word);
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!(
                "\"{}\" is not a channel: mention channels like #chess, or say anywhere",
                crate::engine::echo(word)
            ));
        }
        if !channels.contains(&id.to_string()) {
            channels.push(id.to_string());
        }
    }
    if channels.is_empty() {
        return Err("Mention at least one channel, or say anywhere.".into());
    }
    Ok(channels)
}

/// "10m", "1h", "2d" or off (0), up to [`COOLDOWN_LIMIT`].
pub(super) fn read_cooldown(text: &str) -> Result<i64, String> {
    let text = text.trim();
    if ["off", "none", "0"].contains(&text.to_lowercase().as_str()) {
        return Ok(0);
    }
    match read_duration(text) {
        Ok(seconds) if seconds <= COOLDOWN_LIMIT => Ok(seconds),
        Ok(_) => Err("A cooldown is at most 7 days.".into()),
        Err(why) => Err(format!("Say how long, like 10m, 1h or 1d, or off: {why}.")),
    }
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
    format!("On this server: {channels}; {time}; {chat}; {cooldown}{referee}.")
}

// The reason's limit in the command matches the table's.
const _: () = assert!(REASON_LIMIT == 200);

#[cfg(test)]
mod tests {
    use super::*;

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
