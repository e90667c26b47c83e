//! Slow-play commands: `/time give` (give the opponent to act more time), `/nudge` (ping the
//! player to act, once per 12 hours per match) and `/settings me` (reminders on or off, quiet
//! hours in your time zone, reminders by direct message).

use crate::discord::format::plain::plain;
use crate::discord::shared::acting::board_after;
use crate::discord::shared::dm_memory;
use crate::discord::shared::lookups::{NOT_A_MATCH, ephemeral, match_here, player_of};
use crate::discord::{Context, Error};
use crate::store::Settings;
use crate::table::time_control::read_duration;

/// The match's clock.
#[poise::command(slash_command, guild_only, subcommands("give", "claim"))]
pub async fn time(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Give the opponent who must act more time on their clock.
#[poise::command(slash_command, guild_only)]
pub async fn give(
    ctx: Context<'_>,
    #[description = "How much: 1d, 12h, 90m (up to 7 days)"] amount: String,
) -> Result<(), Error> {
    let seconds = match read_duration(&amount) {
        Ok(seconds) => seconds,
        Err(why) => {
            let text = format!("Say how much time, like 1d, 12h or 90m: {why}.");
            return ephemeral(ctx, text).await;
        }
    };
    board_after(ctx, move |t, id, player, request| {
        t.give_time(id, player, request, seconds)
    })
    .await
}

/// Claim the win over an opponent out of time (a match played with on_time=claim).
#[poise::command(slash_command, guild_only)]
pub async fn claim(ctx: Context<'_>) -> Result<(), Error> {
    board_after(ctx, move |t, id, player, request| {
        t.claim_win(id, player, request)
    })
    .await
}

/// Remind the player who must act that it is their turn (once per 12 hours per match).
#[poise::command(slash_command, guild_only)]
pub async fn nudge(ctx: Context<'_>) -> Result<(), Error> {
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        return ephemeral(ctx, NOT_A_MATCH).await;
    };
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    match ctx.data().table.call(move |t| t.nudge(id, player)).await? {
        Ok(waiting) => {
            // The nudge itself is owed to the thread, written with the nudge.
            ctx.data().table.owed().notify_one();
            let names: Vec<String> = waiting.iter().map(|p| plain(&p.name)).collect();
            let text = format!("Nudged: {} is pinged here.", names.join(", "));
            ephemeral(ctx, text).await
        }
        Err(e) => ephemeral(ctx, format!("{e}.")).await,
    }
}

/// Your settings for slow play.
#[poise::command(slash_command, subcommands("me"))]
pub async fn settings(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// See or change your reminders, quiet hours and turn messages.
#[poise::command(slash_command)]
pub async fn me(
    ctx: Context<'_>,
    #[description = "Remind me when my time runs low"] reminders: Option<bool>,
    #[description = "Quiet hours: 22-7, 22:30-07:00, or off"] quiet: Option<String>,
    #[description = "My time zone: Europe/Paris, America/New_York (summer time included), or +2"]
    zone: Option<String>,
    #[description = "Tell me of my turns and remind me by direct message"] dm: Option<bool>,
    #[description = "With each turn, send me my own view (hand, battleplan) by direct message"]
    view: Option<bool>,
) -> Result<(), Error> {
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let changed =
        [reminders, dm, view].iter().any(Option::is_some) || quiet.is_some() || zone.is_some();
    let asked_dms = dm == Some(true) || view == Some(true);
    let result = ctx
        .data()
        .table
        .call(move |t| -> Result<Settings, String> {
            let store = t.store();
            let mut settings = store.settings(player).map_err(|e| e.short().to_string())?;
            if let Some(on) = reminders {
                settings.reminders = on;
            }
            if let Some(on) = dm {
                settings.dm_on_turn = on;
            }
            if let Some(on) = view {
                settings.view_by_dm = on;
            }
            if let Some(zone) = &zone {
                settings.zone = Settings::read_zone(zone)?;
            }
            match quiet.as_deref().map(str::trim) {
                None => {}
                Some(off) if off.eq_ignore_ascii_case("off") => settings.quiet = None,
                Some(hours) => settings.quiet = Some(Settings::read_quiet(hours)?),
            }
            store
                .set_settings(player, &settings)
                .map_err(|e| e.short().to_string())?;
            Ok(settings)
        })
        .await?;
    let mut text = match result {
        Ok(settings) => describe(&settings),
        Err(why) => why,
    };
    let (table, user) = (&ctx.data().table, ctx.author().id);
    let closed = dm_memory::closed(table, user).await;
    // A change of settings tries their DMs again when they were closed, or when turn
    // messages by DM were just asked for: one that gets through opens them again.
    if changed && (closed || asked_dms) {
        let hello = poise::serenity_prelude::CreateMessage::new()
            .content("Your settings changed; I send your turn messages and reminders here.");
        let _ = dm_memory::try_again(ctx.http(), table, user, hello).await;
    }
    if dm_memory::closed(table, user).await {
        text.push('\n');
        text.push_str(dm_memory::CLOSED_LINE);
    }
    ephemeral(ctx, text).await
}

/// Settings in words.
pub fn describe(s: &Settings) -> String {
    let hm = |m: u16| format!("{:02}:{:02}", m / 60, m % 60);
    let quiet = match s.quiet {
        Some((start, end)) => format!("quiet from {} to {}", hm(start), hm(end)),
        None => "no quiet hours".into(),
    };
    let view = match s.view_by_dm {
        true => " Your own view comes by direct message on each of your turns.",
        false => "",
    };
    format!(
        "Reminders {}; {quiet}; time zone {}.{view}",
        match (s.reminders, s.dm_on_turn) {
            (false, _) => "off",
            (true, true) => "on, by direct message",
            (true, false) => "on, in the match thread",
        },
        s.zone,
    )
}
