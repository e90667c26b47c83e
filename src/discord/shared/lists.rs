//! Long lists shown a page at a time: the admin log, a league's pairings and standings, a
//! player's match history. Each builds one page with its Previous/Next buttons, for the
//! command that first shows it and for the page buttons.

use crate::discord::format::logs::player_message;
use crate::discord::format::pages::{Listing, Turn};
use crate::discord::format::plain::{plain, plain_lines};
use crate::discord::format::{limits, pages};
use crate::discord::shared::admins;
use crate::discord::shared::press::Press;
use crate::discord::{Data, Error};
use crate::league::standings::{Tiebreak, points};
use crate::store::MatchId;
use crate::table::TableError;
use crate::table::leagues::LeagueError;
use poise::serenity_prelude as serenity;

/// A shown page: its text and its buttons; or what the caller is told instead.
pub(crate) type Shown = Result<(String, Vec<serenity::CreateActionRow>), String>;

/// Page `page` of the pairings of the league `name` of `guild`.
pub(crate) async fn pairings_page(
    data: &crate::discord::Data,
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
pub(crate) struct Standings {
    pub(crate) name: String,
    pub(crate) head: String,
    pub(crate) lines: Vec<String>,
    pub(crate) columns: Vec<String>,
    pub(crate) rows: Vec<Vec<String>>,
    pub(crate) crosstable: Option<Vec<String>>,
    /// The season's web page, when the server publishes its pages.
    pub(crate) page: Option<String>,
}

/// Reads the standings of the league `name` of `guild`.
pub(crate) async fn read_standings(
    data: &crate::discord::Data,
    guild: Option<String>,
    name: String,
) -> Result<Result<Standings, LeagueError>, Error> {
    let public = data.public_url.clone();
    Ok(data
        .table
        .call(move |t| -> Result<Standings, LeagueError> {
            let l = t.league(guild.as_deref(), &name)?;
            let page = crate::discord::shared::links::season(t, public.as_deref(), &l);
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
                page,
            })
        })
        .await?)
}

/// Page `page` of `standings`: its text (with the crosstable when there is one page and it
/// fits) and its buttons.
pub(crate) fn standings_text(
    standings: &Standings,
    page: usize,
) -> (String, Vec<serenity::CreateActionRow>) {
    let listing = Listing::Standings(standings.name.clone());
    let head = |p: usize, n: usize| match n {
        1 => standings.head.clone(),
        n => format!("{}, page {p} of {n}", standings.head),
    };
    let (mut text, mut rows) = pages::page(head, &standings.lines, page, &listing);
    if let Some(url) = &standings.page {
        rows.push(crate::discord::shared::links::row(
            url.clone(),
            "Season page",
        ));
    }
    // A round robin's crosstable, when it fits in the message.
    if let (Some(grid), true) = (
        &standings.crosstable,
        rows.len() <= usize::from(standings.page.is_some()),
    ) {
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
pub(crate) async fn standings_page(
    data: &crate::discord::Data,
    guild: Option<String>,
    name: String,
    page: usize,
) -> Result<Shown, Error> {
    Ok(match read_standings(data, guild, name).await? {
        Ok(standings) => Ok(standings_text(&standings, page)),
        Err(e) => Err(refusal(e)?),
    })
}

/// Actions on one page of `/history`: with names and actions cut to [`NAME`] and [`ACTION`]
/// characters (a name's escapes may double it), a page is within Discord's limit.
pub(crate) const PER_PAGE: usize = 15;
pub(crate) const NAME: usize = 32;
pub(crate) const ACTION: usize = 40;

/// Discord's limit on a message, less room for the closing line.
pub(crate) const ROOM: usize = 1900;

/// Page `page` of match `id`'s actions, with buttons to the others; or why it is not shown.
pub(crate) async fn history_page(
    data: &crate::discord::Data,
    id: MatchId,
    page: usize,
) -> Result<Result<(String, Vec<serenity::CreateActionRow>), String>, Error> {
    let result = data
        .reads
        .read(move |t| {
            readable(t, id)?;
            t.history_page(id, page, PER_PAGE)
        })
        .await?;
    Ok(match result {
        Err(e) => Err(player_message(&e)),
        Ok(page) if page.actions.is_empty() => {
            Ok((format!("Match #{id}: no actions yet."), vec![]))
        }
        Ok(page) => {
            let mut text = format!("Match #{id}, page {} of {}:\n", page.page, page.pages);
            for (n, who, action) in &page.actions {
                let (who, action) = (limits::cut(who, NAME), limits::cut(action, ACTION));
                text.push_str(&format!("{n}. {}: {action}\n", plain(&who)));
            }
            let listing = pages::Listing::History(id);
            let rows = pages::buttons(&listing, page.page, page.pages);
            Ok((text.trim_end().to_string(), rows))
        }
    })
}

/// The list in words, newest first, cut to fit one message.
pub fn listing_text(
    list: &[crate::table::Listing],
    my_turn: bool,
    finished: bool,
    here: Option<&str>,
) -> String {
    let shown: Vec<&crate::table::Listing> =
        list.iter().filter(|l| !my_turn || l.your_turn).collect();
    if shown.is_empty() {
        return match (finished, my_turn) {
            (true, _) => "You have no finished matches yet.".into(),
            (false, true) => "It is not your turn in any match.".into(),
            (false, false) => "You have no active matches. Start one with /play.".into(),
        };
    }
    let mut text = String::new();
    for (i, l) in shown.iter().enumerate() {
        let line = line(l, here);
        if text.len() + line.len() > ROOM {
            text.push_str(&format!("… and {} more.", shown.len() - i));
            break;
        }
        text.push_str(&line);
        text.push('\n');
    }
    text.trim_end().to_string()
}

pub(crate) fn line(l: &crate::table::Listing, here: Option<&str>) -> String {
    // A thread of this server is a mention; of another server (or from a DM) a link.
    let place = match (&l.place.thread_id, &l.place.guild_id) {
        (Some(t), Some(g)) if Some(g.as_str()) == here => format!(" in <#{t}>"),
        (Some(t), Some(g)) => format!(" in https://discord.com/channels/{g}/{t}"),
        _ => String::new(),
    };
    let state = match (&l.result, l.your_turn) {
        (Some(result), _) => result.clone(),
        (None, true) => match l.deadline {
            Some(at) => format!("**your turn**, time runs out <t:{at}:R>"),
            None => "**your turn**".into(),
        },
        (None, false) => format!("waiting for {}", plain_lines(&l.waiting_for).join(", ")),
    };
    format!(
        "#{} {}{place}: {} — {state}",
        l.match_id,
        l.game.name(),
        plain_lines(&l.players).join(" vs ")
    )
}

/// Whether match `id`'s log may be shown: always once it is over; while it is played, only
/// when nothing in it is private (a hand of cards, a hidden battleplan).
pub(crate) fn readable(t: &crate::table::Table, id: MatchId) -> Result<(), TableError> {
    if !crate::table::public::log_is_public(&t.show(id)?) {
        return Err(TableError::Illegal(format!(
            "match #{id} holds cards only their players may see; its log is shown when it is over"
        )));
    }
    Ok(())
}

/// What the caller is told when the league service refuses.
pub(crate) fn refusal(e: LeagueError) -> Result<String, Error> {
    match e {
        LeagueError::Table(e @ TableError::Storage(_)) => Err(e.into()),
        e => Ok(plain(&format!("{e}."))),
    }
}

/// A press of Previous or Next: the list read again, the page put in the message.
pub(crate) async fn turn(
    ctx: &serenity::Context,
    press: &Press<'_>,
    data: &Data,
    turn: Turn,
) -> Result<(), Error> {
    press.defer(ctx).await?;
    let guild = press.guild_id.map(|g| g.to_string());
    let shown = match &turn.listing {
        Listing::AdminLog => {
            let permissions = press.member.as_ref().and_then(|m| m.permissions);
            let roles: Vec<String> = press
                .member
                .as_ref()
                .map(|m| m.roles.iter().map(|r| r.to_string()).collect())
                .unwrap_or_default();
            admins::log_page(data, guild, permissions, &roles, turn.page).await?
        }
        Listing::Pairings(name) => pairings_page(data, guild, name.clone(), turn.page).await?,
        Listing::Standings(name) => standings_page(data, guild, name.clone(), turn.page).await?,
        Listing::History(id) => history_page(data, *id, turn.page).await?,
    };
    match shown {
        Ok((text, rows)) => press.edit(ctx, text, Some(rows)).await,
        Err(reason) => press.tell(ctx, reason).await,
    }
}
