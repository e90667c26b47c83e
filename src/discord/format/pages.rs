//! Long lists a page at a time: `/admin log`, `/league pairings`, `/league standings` and
//! `/history` show one page within Discord's 2,000 characters, with Previous and Next buttons
//! whose custom ids carry the list and the page they open. A press reads the list again (it
//! may have grown) and puts that page in the message.

use crate::discord::format::limits;
use crate::store::MatchId;
use poise::serenity_prelude as serenity;

/// Room on a page for its lines, under the page's head line.
const ROOM: usize = limits::CONTENT - 200;

/// A list shown a page at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// This server's admin log.
    AdminLog,
    /// A league's pairings, by its name (in this server).
    Pairings(String),
    /// A league's standings, by its name.
    Standings(String),
    /// A match's actions.
    History(MatchId),
}

/// A press that opens page `page` (from 1) of `listing`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub listing: Listing,
    pub page: usize,
}

impl Turn {
    /// The custom id: the page first, the league's name (which may hold anything) last, cut to
    /// Discord's 100 characters (a league's name is at most 40).
    pub fn custom_id(&self) -> String {
        let page = self.page;
        let id = match &self.listing {
            Listing::AdminLog => format!("dm:page:{page}:log"),
            Listing::Pairings(name) => format!("dm:page:{page}:pair:{name}"),
            Listing::Standings(name) => format!("dm:page:{page}:rank:{name}"),
            Listing::History(id) => format!("dm:page:{page}:hist:{id}"),
        };
        limits::cut_bare(&id, 100)
    }

    pub fn parse(custom_id: &str) -> Option<Turn> {
        let rest = custom_id.strip_prefix("dm:page:")?;
        let (page, rest) = rest.split_once(':')?;
        let page = page.parse().ok().filter(|&p| p >= 1)?;
        let (kind, arg) = rest.split_once(':').unwrap_or((rest, ""));
        let listing = match kind {
            "log" => Listing::AdminLog,
            "pair" => Listing::Pairings(arg.to_string()),
            "rank" => Listing::Standings(arg.to_string()),
            "hist" => Listing::History(arg.parse().ok()?),
            _ => return None,
        };
        Some(Turn { listing, page })
    }
}

/// The pages `lines` make, each within [`ROOM`].
pub fn split(lines: &[String]) -> Vec<String> {
    limits::chunks(lines, ROOM)
}

/// Page `page` (from 1; past the end, the last) of `lines`: its text, `head` saying which
/// page of how many, and its buttons (none for a single page).
pub fn page(
    head: impl Fn(usize, usize) -> String,
    lines: &[String],
    page: usize,
    listing: &Listing,
) -> (String, Vec<serenity::CreateActionRow>) {
    let pages = split(lines);
    let count = pages.len();
    let page = page.clamp(1, count);
    let body = pages.get(page - 1).cloned().unwrap_or_default();
    let head = limits::cut(&head(page, count), 190);
    let text = match head.is_empty() {
        true => body,
        false => format!("{head}\n{body}"),
    };
    (text, buttons(listing, page, count))
}

/// Previous and Next for page `page` of `count` (none when there is one page).
pub fn buttons(listing: &Listing, page: usize, count: usize) -> Vec<serenity::CreateActionRow> {
    if count <= 1 {
        return vec![];
    }
    let to = |page: usize| {
        Turn {
            listing: listing.clone(),
            page,
        }
        .custom_id()
    };
    // Distinct ids even where a button is disabled.
    let previous = serenity::CreateButton::new(to(page.saturating_sub(1).max(1)))
        .label("Previous")
        .style(serenity::ButtonStyle::Secondary)
        .disabled(page <= 1);
    let next = serenity::CreateButton::new(to((page + 1).min(count).max(2)))
        .label(format!("Next ({page}/{count})"))
        .style(serenity::ButtonStyle::Secondary)
        .disabled(page >= count);
    vec![serenity::CreateActionRow::Buttons(vec![previous, next])]
}

#[cfg(test)]
mod tests;
