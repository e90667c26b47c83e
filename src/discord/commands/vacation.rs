//! `/vacation start days:N`, `/vacation end` and `/vacation status`: a player pauses every
//! clock of theirs for whole days (14 a year), and each of their matches' threads is told
//! (through the outbox, by the table).

use crate::discord::format::logs;
use crate::discord::shared::lookups::{ephemeral, player_of};
use crate::discord::shared::reply;
use crate::discord::{Context, Error};
use crate::store::VACATION_DAYS;
use crate::table::{Away, TableError};

/// Pause your clocks while you are away.
#[poise::command(slash_command, subcommands("start", "end", "status"))]
pub async fn vacation(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Go on vacation now: your clocks wait, in every match, until it ends.
#[poise::command(slash_command)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "For how many whole days (14 a year in all)"]
    #[min = 1]
    #[max = 14]
    days: i64,
) -> Result<(), Error> {
    reply::defer_private(ctx).await?;
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let result = ctx
        .data()
        .table
        .call(move |t| t.start_vacation(player, days))
        .await?;
    let away = match result {
        Ok(away) => away,
        Err(e) => return ephemeral(ctx, refusal(&e)).await,
    };
    ctx.data().table.owed().notify_one();
    let text = format!(
        "You are on vacation until <t:{}:f>; your clocks wait in {} match(es). Moving in any match ends it early. {}",
        away.vacation.ends_at,
        away.matches.len(),
        days_left(&away)
    );
    ephemeral(ctx, text).await
}

/// Come back from vacation now: your clocks run again.
#[poise::command(slash_command)]
pub async fn end(ctx: Context<'_>) -> Result<(), Error> {
    reply::defer_private(ctx).await?;
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let result = ctx
        .data()
        .table
        .call(move |t| t.end_vacation(player))
        .await?;
    let away = match result {
        Ok(away) => away,
        Err(e) => return ephemeral(ctx, refusal(&e)).await,
    };
    ctx.data().table.owed().notify_one();
    let text = format!(
        "Welcome back: your clocks run again in {} match(es). {}",
        away.matches.len(),
        days_left(&away)
    );
    ephemeral(ctx, text).await
}

/// Whether you are on vacation, and the days you have left this year.
#[poise::command(slash_command)]
pub async fn status(ctx: Context<'_>) -> Result<(), Error> {
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let (away, (used, year)) = ctx
        .data()
        .table
        .call(move |t| {
            let now = t.now();
            let store = t.store();
            Ok::<_, crate::store::StoreError>((
                store.vacation(player, now)?,
                store.vacation_days_used(player, now)?,
            ))
        })
        .await??;
    let now_text = match away {
        Some(v) => format!("You are on vacation until <t:{}:f>.", v.ends_at),
        None => "You are not on vacation.".into(),
    };
    let left = (VACATION_DAYS - used).max(0);
    ephemeral(
        ctx,
        format!("{now_text} You have {left} of {VACATION_DAYS} vacation days left in {year}."),
    )
    .await
}

fn refusal(e: &TableError) -> String {
    match e {
        TableError::Illegal(why) => format!("{}.", capitalised(why)),
        other => logs::player_message(other),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn days_left(away: &Away) -> String {
    let (used, year) = away.used;
    format!(
        "{} of {VACATION_DAYS} vacation days left in {year}.",
        (VACATION_DAYS - used).max(0)
    )
}
