//! `/league` and ratings in Discord. Admins (or the server's referee role) create a league and
//! start and close its rounds; players join, leave, say they cannot play a round, and read the
//! pairings and standings. Each round's games are announced in the league's channel, each in
//! a thread of its own. `/rating` and `/leaderboard` read the ratings of a game.

use super::admin::{admin_of, post_ruling};
use super::commands::{GameChoice, mention, player_of};
use super::pages::{self, Listing};
use super::plain::{plain, plain_lines};
use super::reply;
use super::{Context, Error, logs};
use super::{limits, pings};
use crate::league::standings::{Scoring, Tiebreak, parse_tiebreaks, points};
use crate::store::leagues::{Format, League, NewLeague};
use crate::table::TableError;
use crate::table::leagues::{LeagueError, RoundStarted, bye_words, default_tiebreaks};
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

/// What the caller is told when the league service refuses.
fn refusal(e: LeagueError) -> Result<String, Error> {
    match e {
        LeagueError::Table(e @ TableError::Storage(_)) => Err(e.into()),
        e => Ok(plain(&format!("{e}."))),
    }
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
    let started = on_league(ctx, name, |t, l| t.start_round(l)).await?;
    let started = match started {
        Ok(started) => started,
        Err(e) => return say(ctx, refusal(e)?, true).await,
    };
    say(
        ctx,
        format!(
            "Round {} is paired; it closes <t:{}:R>.",
            started.round, started.deadline
        ),
        false,
    )
    .await?;
    announce(ctx.http(), &ctx.data().table, ctx.channel_id(), started).await
}

/// Announces a started round in the league's `channel`: each game on a line of its own (each
/// match's thread and first board are owed to the outbox, which makes them).
pub(super) async fn announce(
    http: &serenity::Http,
    table: &crate::table::TableHandle,
    channel: serenity::ChannelId,
    started: RoundStarted,
) -> Result<(), Error> {
    let RoundStarted {
        round, pairings, ..
    } = started;
    let rows = pairings.clone();
    let names = table
        .call(move |t| {
            rows.iter()
                .map(|p| {
                    let ids: Vec<_> = match p.table.is_empty() {
                        true => std::iter::once(p.white).chain(p.black).collect(),
                        false => p.table.iter().map(|s| s.player).collect(),
                    };
                    ids.iter().map(|&id| t.store().player(id)).collect()
                })
                .collect::<Result<Vec<Vec<_>>, crate::store::StoreError>>()
        })
        .await??;
    for (p, seated) in pairings.iter().zip(&names) {
        let everyone: Vec<String> = seated.iter().map(mention).collect();
        let line = match (seated.as_slice(), &p.result) {
            ([alone], result) => format!(
                "Round {round}: {} has {}.",
                mention(alone),
                bye_words(result.as_deref())
            ),
            ([white, black], Some(result)) => format!(
                "Round {round}, board {}: {} vs {}: {result}.",
                p.board,
                mention(white),
                mention(black)
            ),
            ([white, black], None) if p.table.is_empty() => format!(
                "Round {round}, board {}: {} (White) vs {} (Black).",
                p.board,
                mention(white),
                mention(black)
            ),
            _ => format!(
                "Round {round}, table {}, in seat order: {}.",
                p.board,
                everyone.join(", ")
            ),
        };
        let line = serenity::CreateMessage::new()
            .content(line)
            .allowed_mentions(pings::only(seated));
        // Each game's thread is made by the outbox's sender (threads.rs), one post per board.
        channel.send_message(http, line).await?;
    }
    Ok(())
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
    let closed = on_league(ctx, name, move |t, l| t.close_round_once(l, Some(&key)));
    match closed.await? {
        Ok(Some(lines)) => say_lines(ctx, &plain_lines(&lines), false).await,
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

/// A shown page: its text and its buttons; or what the caller is told instead.
type Shown = Result<(String, Vec<serenity::CreateActionRow>), String>;

/// Page `page` of the pairings of the league `name` of `guild`.
pub(super) async fn pairings_page(
    data: &super::Data,
    guild: Option<String>,
    name: String,
    page: usize,
) -> Result<Shown, Error> {
    let listing = Listing::Pairings(name.clone());
    let lines = data
        .table
        .call(move |t| {
            let league = t.league(guild.as_deref(), &name)?;
            t.pairing_lines(&league, None)
        })
        .await?;
    Ok(match lines {
        Ok(lines) if lines.is_empty() => Err("No round has started yet.".into()),
        Ok(lines) => {
            let head = |p: usize, n: usize| match n {
                1 => String::new(),
                n => format!("Pairings, page {p} of {n}:"),
            };
            Ok(pages::page(head, &plain_lines(&lines), page, &listing))
        }
        Err(e) => Err(refusal(e)?),
    })
}

/// A league's standings as the table reads them: the head line, a line a player, the same as
/// rows (with their columns) for the picture, and a round robin's crosstable.
struct Standings {
    name: String,
    head: String,
    lines: Vec<String>,
    columns: Vec<String>,
    rows: Vec<Vec<String>>,
    crosstable: Option<Vec<String>>,
}

/// Reads the standings of the league `name` of `guild`.
async fn read_standings(
    data: &super::Data,
    guild: Option<String>,
    name: String,
) -> Result<Result<Standings, LeagueError>, Error> {
    Ok(data
        .table
        .call(move |t| -> Result<Standings, LeagueError> {
            let l = t.league(guild.as_deref(), &name)?;
            let order: Vec<Tiebreak> = serde_json::from_str(&l.new.tiebreaks).unwrap_or_default();
            let standings = t.league_standings(&l)?;
            let crosstable = t.league_crosstable(&l)?;
            let heads: Vec<&str> = order.iter().map(|t| t.name()).collect();
            let head = format!(
                "**{}** standings (points; {})",
                plain(&l.new.name),
                heads.join(", ")
            );
            let (mut lines, mut rows) = (Vec::new(), Vec::new());
            for (s, player) in &standings {
                let breaks: Vec<String> = order
                    .iter()
                    .zip(&s.tiebreaks)
                    .map(|(t, v)| t.show(*v))
                    .collect();
                lines.push(format!(
                    "{}. {}: {} ({})",
                    s.rank,
                    plain(&player.name),
                    points(s.halves),
                    breaks.join(", ")
                ));
                let mut row = vec![format!("{}. {}", s.rank, player.name), points(s.halves)];
                row.extend(breaks);
                rows.push(row);
            }
            let mut columns = vec!["Player".to_string(), "Points".to_string()];
            columns.extend(heads.iter().map(|h| h.to_string()));
            Ok(Standings {
                name: l.new.name.clone(),
                head,
                lines,
                columns,
                rows,
                crosstable,
            })
        })
        .await?)
}

/// Page `page` of `standings`: its text (with the crosstable when there is one page and it
/// fits) and its buttons.
fn standings_text(standings: &Standings, page: usize) -> (String, Vec<serenity::CreateActionRow>) {
    let listing = Listing::Standings(standings.name.clone());
    let head = |p: usize, n: usize| match n {
        1 => standings.head.clone(),
        n => format!("{}, page {p} of {n}", standings.head),
    };
    let (mut text, rows) = pages::page(head, &standings.lines, page, &listing);
    // A round robin's crosstable, when it fits in the message.
    if let (Some(grid), true) = (&standings.crosstable, rows.is_empty()) {
        // A name's backtick would close the block early; its @everyone stays words.
        let grid = grid.join("\n").replace('`', "'").replace('@', "@\u{200B}");
        let block = format!("\n```\n{grid}\n```");
        if text.chars().count() + block.chars().count() <= limits::CONTENT {
            text.push_str(&block);
        }
    }
    (text, rows)
}

/// Page `page` of the standings of the league `name` of `guild`.
pub(super) async fn standings_page(
    data: &super::Data,
    guild: Option<String>,
    name: String,
    page: usize,
) -> Result<Shown, Error> {
    Ok(match read_standings(data, guild, name).await? {
        Ok(standings) => Ok(standings_text(&standings, page)),
        Err(e) => Err(refusal(e)?),
    })
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
    let png = tokio::task::spawn_blocking(move || {
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
    let (lines, past) = ctx
        .data()
        .table
        .call(move |t| -> Result<_, TableError> {
            let past = match history {
                Some(true) => t.rating_history(kind, None, id)?,
                _ => vec![],
            };
            Ok((t.ratings(kind, None)?, past))
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
    say(ctx, text, true).await
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
    let again = on_league(ctx, name, move |t, l| t.repair_round(l, Some(&key)));
    let started = match again.await? {
        Ok(Some(started)) => started,
        Ok(None) => return say(ctx, ALREADY_DONE, true).await,
        Err(e) => return say(ctx, refusal(e)?, true).await,
    };
    let text = format!(
        "Round {} is paired again; its earlier games are called off. It closes <t:{}:R>.",
        started.round, started.deadline
    );
    say(ctx, text, false).await?;
    // The old games' threads say why they stop.
    for (id, place) in &started.called_off {
        let Some(thread) = super::scheduler::channel_of(place) else {
            continue;
        };
        let line = format!(
            "Round {} was paired again: match #{id} is called off.",
            started.round
        );
        if let Err(e) = thread.say(ctx.http(), line).await {
            tracing::warn!(match_id = id, error = %logs::chain(&e), "a called-off match's thread could not be told");
        }
    }
    announce(ctx.http(), &ctx.data().table, ctx.channel_id(), started).await
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
