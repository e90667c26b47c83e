//! `/league` and ratings in Discord. Admins (or the server's referee role) create a league and
//! start and close its rounds; players join, leave, say they cannot play a round, and read the
//! pairings and standings. Each round's games are announced in the league's channel, each in
//! a thread of its own (see [`crate::discord::shared::rounds`]). `/rating` and `/leaderboard`
//! read the ratings of a game.

use crate::discord::format::limits;
use crate::discord::format::options::GameChoice;
use crate::discord::format::plain::{plain, plain_lines};
use crate::discord::shared::admins::{admin_of, post_ruling};
use crate::discord::shared::links;
use crate::discord::shared::lists::{
    Standings, pairings_page, read_standings, refusal, standings_text,
};
use crate::discord::shared::lookups::player_of;
use crate::discord::shared::reply;
use crate::discord::{Context, Error};
use crate::league::standings::{Scoring, parse_tiebreaks};
use crate::store::leagues::{Format, League, NewLeague};
use crate::table::TableError;
use crate::table::leagues::{LeagueError, default_tiebreaks};
use crate::table::time_control::TimeControl;
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// Leagues: seasons of rounds, pairings and standings.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "join",
        "leave",
        "unavailable",
        "start",
        "close",
        "pairings",
        "standings",
        "result",
        "schedule",
        "repair",
        "substitute",
        "settings"
    )
)]
pub async fn league(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum FormatChoice {
    #[name = "Round robin"]
    RoundRobin,
    #[name = "Double round robin"]
    DoubleRoundRobin,
    #[name = "Swiss"]
    Swiss,
    #[name = "Swiss pods (tables of 3-4)"]
    Pods,
}

async fn say(ctx: Context<'_>, text: impl Into<String>, private: bool) -> Result<(), Error> {
    let reply = CreateReply::default().content(text);
    match private {
        true => reply::private(ctx, reply).await,
        false => reply::answer(ctx, reply).await.map(|_| ()),
    }
}

/// Says `lines`, in as many messages as Discord's limit on one needs.
async fn say_lines(ctx: Context<'_>, lines: &[String], private: bool) -> Result<(), Error> {
    for text in limits::chunks(lines, limits::CONTENT) {
        say(ctx, text, private).await?;
    }
    Ok(())
}

/// Runs `work` on the league called `name` of this server.
async fn on_league<R: Send + 'static>(
    ctx: Context<'_>,
    name: String,
    work: impl FnOnce(&mut crate::table::Table, &League) -> Result<R, LeagueError> + Send + 'static,
) -> Result<Result<R, LeagueError>, Error> {
    let guild = ctx.guild_id().map(|g| g.to_string());
    Ok(ctx
        .data()
        .table
        .call(move |t| {
            let league = t.league(guild.as_deref(), &name)?;
            work(t, &league)
        })
        .await?)
}

/// Create a league in this channel (admins).
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)] // a slash command's options
pub async fn create(
    ctx: Context<'_>,
    #[description = "The league's name"]
    #[max_length = 40]
    name: String,
    #[description = "The game"] game: GameChoice,
    #[description = "How rounds are paired (round robin by default)"] format: Option<FormatChoice>,
    #[description = "Each game's clock: 3d, 10d+1d, or none"] time: Option<String>,
    #[description = "Days from a round's start to its deadline (7 by default)"] round_days: Option<
        i64,
    >,
    #[description = "A Swiss league's number of rounds a season"]
    #[min = 1]
    #[max = 50]
    rounds: Option<u32>,
    #[description = "Points for a win, a draw and a loss, like 1,0.5,0 (En Prise: 1,0,0)"]
    #[max_length = 20]
    scoring: Option<String>,
) -> Result<(), Error> {
    if admin_of(ctx).await?.is_none() {
        return Ok(());
    }
    let format = match format {
        Some(FormatChoice::DoubleRoundRobin) => Format::DoubleRoundRobin,
        Some(FormatChoice::Swiss) => Format::Swiss,
        Some(FormatChoice::Pods) => Format::Pods,
        _ => Format::RoundRobin,
    };
    let scoring = match scoring.as_deref().map(Scoring::parse) {
        Some(Ok(scoring)) => scoring,
        Some(Err(why)) => return say(ctx, format!("{why}."), true).await,
        None => Scoring::for_game(game.kind()),
    };
    let time = time.unwrap_or_else(|| "none".into());
    if let Err(why) = TimeControl::parse(&time) {
        return say(ctx, format!("{why}."), true).await;
    }
    let new = NewLeague {
        guild_id: ctx.guild_id().map(|g| g.to_string()),
        channel_id: Some(ctx.channel_id().to_string()),
        name: name.trim().to_string(),
        game: game.kind(),
        options: vec![],
        time_control: time,
        format,
        rated: true,
        tiebreaks: serde_json::to_string(&default_tiebreaks(format)).expect("tiebreaks serialise"),
        round_days: round_days.unwrap_or(7).clamp(1, 60),
        forfeits_to_drop: 2,
        rounds,
        scoring,
    };
    let made = ctx.data().table.call(move |t| t.create_league(new)).await?;
    match made {
        Ok(league) => {
            let name = plain(&league.new.name);
            let text = format!(
                "League **{name}** ({}) is open: join with /league join name:{name}",
                league.new.game.name(),
            );
            say(ctx, text, false).await
        }
        Err(e) => say(ctx, refusal(e)?, true).await,
    }
}

/// Join a league's season.
#[poise::command(slash_command, guild_only)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
) -> Result<(), Error> {
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let done = on_league(ctx, name, move |t, l| t.join_league(l, player)).await?;
    match done {
        Ok(()) => say(ctx, format!("{} joined the league.", ctx.author()), false).await,
        Err(e) => say(ctx, refusal(e)?, true).await,
    }
}

/// Leave a league: you are paired no more (in a round robin your games left are forfeited).
#[poise::command(slash_command, guild_only)]
pub async fn leave(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
) -> Result<(), Error> {
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let done = on_league(ctx, name, move |t, l| t.leave_league(l, player)).await?;
    match done {
        Ok(()) => say(ctx, format!("{} left the league.", ctx.author()), false).await,
        Err(e) => say(ctx, refusal(e)?, true).await,
    }
}

/// Say you cannot play a round (half a point for it; none at pods tables).
#[poise::command(slash_command, guild_only)]
pub async fn unavailable(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
    #[description = "The round"] round: u32,
) -> Result<(), Error> {
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let done = on_league(ctx, name, move |t, l| t.unavailable(l, player, round)).await?;
    match done {
        Ok(()) => {
            say(
                ctx,
                format!("Noted: you will not play round {round}."),
                true,
            )
            .await
        }
        Err(e) => say(ctx, refusal(e)?, true).await,
    }
}

/// Pair and start the next round (admins).
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
) -> Result<(), Error> {
    if admin_of(ctx).await?.is_none() {
        return Ok(());
    }
    reply::defer(ctx).await?;
    let started = on_league(ctx, name, |t, l| {
        let started = t.start_round_told(l)?;
        Ok((started, l.new.channel_id.clone()))
    });
    let (started, channel) = match started.await? {
        Ok(started) => started,
        Err(e) => return say(ctx, refusal(e)?, true).await,
    };
    ctx.data().table.owed().notify_one();
    let text = format!(
        "Round {} is paired; it closes <t:{}:R>. {}",
        started.round,
        started.deadline,
        posted_in(channel, "Its pairings")
    );
    say(ctx, text, false).await
}

/// Where the outbox posts a league's news: "<what> are posted in <#channel>".
fn posted_in(channel: Option<String>, what: &str) -> String {
    match channel {
        Some(channel) => format!("{what} are posted in <#{channel}>."),
        None => format!("{what} are posted in the league's channel."),
    }
}

/// The answer to a close or re-pair delivered a second time.
const ALREADY_DONE: &str = "This request was already carried out; nothing changed.";

/// Close the running round: results in, games never begun forfeited (admins).
#[poise::command(slash_command, guild_only)]
pub async fn close(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
) -> Result<(), Error> {
    if admin_of(ctx).await?.is_none() {
        return Ok(());
    }
    let key = format!("interaction:{}", ctx.id());
    let closed = on_league(ctx, name, move |t, l| {
        let closed = t.close_round_told(l, &key)?;
        Ok(closed.map(|lines| (lines, l.new.channel_id.clone())))
    });
    match closed.await? {
        Ok(Some((lines, channel))) => {
            ctx.data().table.owed().notify_one();
            let first = lines.first().map_or("The round is closed.", String::as_str);
            let text = format!("{} {}", plain(first), posted_in(channel, "Its results"));
            say(ctx, text, false).await
        }
        Ok(None) => say(ctx, ALREADY_DONE, true).await,
        Err(e) => say(ctx, refusal(e)?, true).await,
    }
}

/// Every round's pairings and results.
#[poise::command(slash_command, guild_only)]
pub async fn pairings(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
) -> Result<(), Error> {
    let guild = ctx.guild_id().map(|g| g.to_string());
    match pairings_page(ctx.data(), guild, name, 1).await? {
        Ok((text, rows)) => {
            let reply = CreateReply::default().content(text).components(rows);
            reply::private(ctx, reply).await
        }
        Err(text) => say(ctx, text, true).await,
    }
}

/// The standings, with the league's tiebreaks.
#[poise::command(slash_command, guild_only)]
pub async fn standings(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
) -> Result<(), Error> {
    let guild = ctx.guild_id().map(|g| g.to_string());
    let standings = match read_standings(ctx.data(), guild, name).await? {
        Ok(standings) => standings,
        Err(e) => return say(ctx, refusal(e)?, true).await,
    };
    let (text, buttons) = standings_text(&standings, 1);
    // The same table as a picture, drawn off the async threads.
    let title = format!("{}: standings", standings.name);
    let Standings { columns, rows, .. } = standings;
    let png = crate::discord::format::pictures::off_thread(move || {
        crate::render::standings::standings_png(&title, &columns, &rows)
    })
    .await?;
    let reply = CreateReply::default()
        .content(text)
        .components(buttons)
        .attachment(serenity::CreateAttachment::bytes(png, "standings.png"));
    reply::answer_quietly(ctx, reply).await
}

/// Your rating (or a player's) in a game.
#[poise::command(slash_command)]
pub async fn rating(
    ctx: Context<'_>,
    #[description = "The game"] game: GameChoice,
    #[description = "Whose (you by default)"] player: Option<serenity::User>,
    #[description = "Also the rating after each week played (each table in En Prise)"]
    history: Option<bool>,
) -> Result<(), Error> {
    let user = player.unwrap_or_else(|| ctx.author().clone());
    let id = player_of(ctx.data(), &user).await?.id;
    let kind = game.kind();
    let (public, guild) = (
        ctx.data().public_url.clone(),
        ctx.guild_id().map(|g| g.to_string()),
    );
    let (lines, past, page) = ctx
        .data()
        .table
        .call(move |t| -> Result<_, TableError> {
            let past = match history {
                Some(true) => t.rating_history(kind, None, id)?,
                _ => vec![],
            };
            let page = links::leaderboard(t, public.as_deref(), guild.as_deref(), kind);
            Ok((t.ratings(kind, None)?, past, page))
        })
        .await??;
    let mut text = match lines.iter().find(|l| l.player.id == id) {
        None => format!(
            "{} has no rated {} games yet.",
            plain(&user.name),
            kind.name()
        ),
        Some(l) => format!(
            "{} in {}: {:.0} ± {:.0} after {} game{}{}.",
            plain(&l.player.name),
            kind.name(),
            l.rating,
            l.deviation * 2.0,
            l.games,
            if l.games == 1 { "" } else { "s" },
            if l.provisional { " (provisional)" } else { "" }
        ),
    };
    // The latest ten points of the history, oldest first.
    for point in past.iter().skip(past.len().saturating_sub(10)) {
        text.push_str(&format!(
            "\n<t:{}:d>: {:.0} ± {:.0} after {} game{}",
            point.at,
            point.rating,
            point.deviation * 2.0,
            point.games,
            if point.games == 1 { "" } else { "s" }
        ));
    }
    match page {
        Some(url) => {
            let buttons = vec![links::row(url, "This server's leaderboard")];
            let reply = CreateReply::default().content(text).components(buttons);
            reply::private(ctx, reply).await
        }
        None => say(ctx, text, true).await,
    }
}

/// The best players of a game, on this server or everywhere.
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "The game"] game: GameChoice,
    #[description = "Every server, not only this one"] everywhere: Option<bool>,
) -> Result<(), Error> {
    let kind = game.kind();
    let guild = match everywhere.unwrap_or(false) {
        true => None,
        false => ctx.guild_id().map(|g| g.to_string()),
    };
    let lines = ctx
        .data()
        .table
        .call(move |t| t.ratings(kind, guild.as_deref()))
        .await??;
    if lines.is_empty() {
        return say(ctx, format!("No rated {} games yet.", kind.name()), true).await;
    }
    let mut text = format!("**{}** leaderboard\n", kind.name());
    for (i, l) in lines.iter().take(20).enumerate() {
        text.push_str(&format!(
            "{}. {}: {:.0}{} ({} game{})\n",
            i + 1,
            plain(&l.player.name),
            l.rating,
            if l.provisional { "?" } else { "" },
            l.games,
            if l.games == 1 { "" } else { "s" }
        ));
    }
    let text = limits::cut(&text, limits::CONTENT);
    reply::answer_quietly(ctx, CreateReply::default().content(text)).await
}

/// Set a game's result by hand (admins): 1-0, 0-1, 1/2-1/2, 1X-0F, 0F-1X, 0F-0F, or open.
#[poise::command(slash_command, guild_only)]
pub async fn result(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
    #[description = "The round"] round: u32,
    #[description = "The board"] board: u32,
    #[description = "1-0, 0-1, 1/2-1/2, 1X-0F, 0F-1X, 0F-0F, or open"]
    #[max_length = 10]
    result: String,
) -> Result<(), Error> {
    let Some(admin) = admin_of(ctx).await? else {
        return Ok(());
    };
    let set = result.clone();
    match on_league(ctx, name, move |t, l| {
        t.record_result(l, round, board, &set)
    })
    .await?
    {
        Ok(()) => {
            let text = format!(
                "Round {round}, board {board}: {} set the result to {}.",
                plain(&admin.name),
                plain(result.trim())
            );
            say(ctx, text, false).await
        }
        Err(e) => say(ctx, refusal(e)?, true).await,
    }
}

/// The season's rounds: when each started and when it closes.
#[poise::command(slash_command, guild_only)]
pub async fn schedule(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
) -> Result<(), Error> {
    let found = on_league(ctx, name, |t, l| {
        let season = t.store().season(l.id)?;
        Ok((l.new.clone(), season, t.store().rounds(season.id)?))
    })
    .await?;
    let (league, season, rounds) = match found {
        Ok(found) => found,
        Err(e) => return say(ctx, refusal(e)?, true).await,
    };
    let total = season
        .rounds
        .or(league.rounds)
        .map_or("rounds for everyone to meet".into(), |n| {
            format!("{n} rounds")
        });
    let mut lines = vec![format!(
        "**{}**, season {}: {total}, {} days each.",
        plain(&league.name),
        season.number,
        league.round_days
    )];
    for r in &rounds {
        let state = if r.closed { "closed" } else { "closes" };
        lines.push(format!(
            "Round {}: began <t:{}:d>, {state} <t:{}:f>.",
            r.number, r.starts_at, r.deadline
        ));
    }
    if rounds.is_empty() {
        lines.push("No round has started yet.".into());
    }
    say_lines(ctx, &lines, true).await
}

/// Pair the running round again, before any of its games has begun (admins).
#[poise::command(slash_command, guild_only)]
pub async fn repair(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
) -> Result<(), Error> {
    if admin_of(ctx).await?.is_none() {
        return Ok(());
    }
    reply::defer(ctx).await?;
    let key = format!("interaction:{}", ctx.id());
    let again = on_league(ctx, name, move |t, l| {
        let started = t.repair_round_told(l, &key)?;
        Ok(started.map(|started| (started, l.new.channel_id.clone())))
    });
    let (started, channel) = match again.await? {
        Ok(Some(started)) => started,
        Ok(None) => return say(ctx, ALREADY_DONE, true).await,
        Err(e) => return say(ctx, refusal(e)?, true).await,
    };
    // The old games' threads are told why they stop, and the new pairings posted, by the
    // outbox.
    ctx.data().table.owed().notify_one();
    let text = format!(
        "Round {} is paired again; its earlier games are called off. It closes <t:{}:R>. {}",
        started.round,
        started.deadline,
        posted_in(channel, "Its new pairings")
    );
    say(ctx, text, false).await
}

/// Seat a member in a player's place for the rest of the season (admins).
///
/// The substitute plays on the game left unfinished, and in a round robin the rest of the
/// schedule.
#[poise::command(slash_command, guild_only)]
pub async fn substitute(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
    #[description = "The player who leaves the season"] out: serenity::User,
    #[description = "The member who takes their place"]
    #[rename = "in"]
    into: serenity::User,
) -> Result<(), Error> {
    let Some(admin) = admin_of(ctx).await? else {
        return Ok(());
    };
    if into.bot {
        return say(ctx, "A bot cannot take a place in a league.", true).await;
    }
    reply::defer(ctx).await?;
    let (out, into) = (
        player_of(ctx.data(), &out).await?.id,
        player_of(ctx.data(), &into).await?.id,
    );
    let key = format!("interaction:{}", ctx.id());
    let seated = on_league(ctx, name, move |t, l| {
        t.substitute_in_league(l, out, into, &admin, &key)
    });
    let done = match seated.await? {
        Ok(Some(done)) => done,
        Ok(None) => return say(ctx, ALREADY_DONE, true).await,
        Err(e) => return say(ctx, refusal(e)?, true).await,
    };
    let mut lines = plain_lines(&done.lines);
    for update in &done.updates {
        let told = post_ruling(ctx, update).await;
        match lines.last_mut() {
            Some(last) => last.push_str(&told),
            None => lines.push(told),
        }
    }
    say_lines(ctx, &lines, false).await
}

/// Show a league's settings; admins change them (from the next round).
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)] // a slash command's options
pub async fn settings(
    ctx: Context<'_>,
    #[description = "The league"] name: String,
    #[description = "Each game's clock: 3d, 10d+1d, or none"] time: Option<String>,
    #[description = "Days from a round's start to its deadline"]
    #[min = 1]
    #[max = 60]
    round_days: Option<i64>,
    #[description = "Forfeits after which a player is dropped (0: never)"]
    #[max = 20]
    forfeits_to_drop: Option<u32>,
    #[description = "Whether its games count for ratings"] rated: Option<bool>,
    #[description = "Points for a win, a draw and a loss, like 1,0.5,0"]
    #[max_length = 20]
    scoring: Option<String>,
    #[description = "Tiebreaks in order: buchholz, median-buchholz, sonneborn-berger, ..."]
    #[max_length = 100]
    tiebreaks: Option<String>,
    #[description = "A Swiss league's rounds a season (between seasons)"]
    #[min = 1]
    #[max = 50]
    rounds: Option<u32>,
) -> Result<(), Error> {
    let scoring = match scoring.as_deref().map(Scoring::parse).transpose() {
        Ok(scoring) => scoring,
        Err(why) => return say(ctx, format!("{why}."), true).await,
    };
    let tiebreaks = match tiebreaks.as_deref().map(parse_tiebreaks).transpose() {
        Ok(order) => order,
        Err(why) => return say(ctx, format!("{why}."), true).await,
    };
    let change = crate::table::leagues::LeagueChange {
        time_control: time,
        round_days,
        forfeits_to_drop,
        rated,
        scoring,
        tiebreaks,
        rounds,
    };
    let changing = change != Default::default();
    if changing && admin_of(ctx).await?.is_none() {
        return Ok(());
    }
    let done = on_league(ctx, name, move |t, l| match changing {
        true => t.change_league(l, change),
        false => Ok(l.clone()),
    })
    .await?;
    match done {
        Ok(league) => {
            let said = plain(&crate::table::leagues::describe(&league));
            let text = if changing {
                format!("Settings changed, from the next round: {said}")
            } else {
                said
            };
            say(ctx, text, !changing).await
        }
        Err(e) => say(ctx, refusal(e)?, true).await,
    }
}
