//! Link buttons to the public web pages, under the bot's PUBLIC_URL: a season's page under
//! `/league standings` and each pairing announced, a finished match's page under its last
//! board, a server's leaderboard under `/rating`. Only for a server whose admins turned its
//! pages on (`/admin server web:on`); a bot that serves no pages posts none.

use crate::games::GameKind;
use crate::store::MatchId;
use crate::store::leagues::League;
use crate::table::{Table, TableHandle, Update};
use crate::web::paths::{Scope, absolute};
use poise::serenity_prelude as serenity;

/// The longest address Discord takes for a link button.
pub(crate) const URL_LIMIT: usize = 512;

/// `url` when Discord takes it for a link button (a long league name percent-encoded can
/// make it too long, and a message with a button Discord refuses is refused whole).
fn fits(url: String) -> Option<String> {
    (url.len() <= URL_LIMIT).then_some(url)
}

/// A row of one link button to `url`.
pub(crate) fn row(url: String, label: &str) -> serenity::CreateActionRow {
    serenity::CreateActionRow::Buttons(vec![serenity::CreateButton::new_link(url).label(label)])
}

/// Whether server `guild`'s pages are on; a failed read counts as off.
fn published(t: &mut Table, guild: Option<&str>) -> bool {
    guild.is_some_and(|g| t.store().server_settings(g).is_ok_and(|s| s.web))
}

/// The address of `league`'s current season page, when its server publishes.
pub(crate) fn season(t: &mut Table, public: Option<&str>, league: &League) -> Option<String> {
    let public = public?;
    let guild = league.new.guild_id.as_deref();
    if !published(t, guild) {
        return None;
    }
    let season = t.store().season(league.id).ok()?;
    let path = Scope::of(guild).season(&league.new.name, season.number);
    // Room for the round's anchor a pairing adds.
    fits(absolute(public, &path)).filter(|url| url.len() + 10 <= URL_LIMIT)
}

/// The address of `game`'s leaderboard in server `guild`, when it publishes.
pub(crate) fn leaderboard(
    t: &mut Table,
    public: Option<&str>,
    guild: Option<&str>,
    game: GameKind,
) -> Option<String> {
    let public = public?;
    published(t, guild)
        .then(|| absolute(public, &Scope::of(guild).leaderboard(game)))
        .and_then(fits)
}

/// The address of match `id` (played in `guild`), when its server publishes.
fn match_page(t: &mut Table, public: &str, guild: Option<&str>, id: MatchId) -> Option<String> {
    published(t, guild)
        .then(|| absolute(public, &Scope::of(guild).game(id)))
        .and_then(fits)
}

/// A link button to `update`'s match page, when the match is over and its server publishes.
pub(crate) async fn finished(
    table: &TableHandle,
    public: Option<&str>,
    update: &Update,
) -> Option<serenity::CreateActionRow> {
    let public = public?.to_string();
    // Only a finished match's board links to its page.
    update.result.as_ref()?;
    let (guild, id) = (update.place.guild_id.clone(), update.match_id);
    let url = table
        .call_quietly(move |t| match_page(t, &public, guild.as_deref(), id))
        .await
        .ok()
        .flatten()?;
    Some(row(url, "Match page"))
}

/// `message` with `update`'s match page linked under it when [`finished`] gives one (a
/// finished match's board has no choices to replace).
pub(crate) async fn with_finished(
    message: serenity::CreateMessage,
    table: &TableHandle,
    public: Option<&str>,
    update: &Update,
) -> serenity::CreateMessage {
    match finished(table, public, update).await {
        Some(link) => message.components(vec![link]),
        None => message,
    }
}

/// A board's `reply` with `update`'s match page linked under it, as [`with_finished`].
pub(crate) async fn reply_with_finished(
    reply: poise::CreateReply,
    data: &crate::discord::Data,
    update: &Update,
) -> poise::CreateReply {
    match finished(&data.table, data.public_url.as_deref(), update).await {
        Some(link) => reply.components(vec![link]),
        None => reply,
    }
}
