//! The site's front page and a server's page: its leagues with their seasons, and its
//! leaderboards.

use super::layout::{frame, server_name};
use crate::games::GameKind;
use crate::store::leagues::{League, Season};
use crate::web::paths::Scope;
use maud::{Markup, html};

/// The front page: what this is, and the console's leagues when they are served.
pub fn home_page(local: bool) -> Markup {
    let body = html! {
        h1 { "deckmate" }
        p { "Leagues, matches and players of the Discord servers that publish them. \
             A server's pages are linked from its league announcements." }
        @if local {
            p { a href=(Scope::Local.home()) { "The local leagues" } }
        }
    };
    frame("Leagues", None, &[], None, body)
}

/// A server's page.
pub fn server_page(scope: &Scope, leagues: &[(League, Vec<Season>)], games: &[GameKind]) -> Markup {
    let title = server_name(scope);
    let body = html! {
        h1 { (title) }
        h2 { "Leagues" }
        @if leagues.is_empty() { p.muted { "No league here yet." } }
        ul {
            @for (league, seasons) in leagues {
                @let name = &league.new.name;
                li {
                    a href=(scope.league(name)) { (name) }
                    " (" (league.new.game.name()) ")"
                    @for s in seasons { " · " a href=(scope.season(name, s.number)) { "season " (s.number) } }
                }
            }
        }
        @if !games.is_empty() {
            h2 { "Leaderboards" }
            ul {
                @for game in games { li { a href=(scope.leaderboard(*game)) { (game.name()) } } }
            }
        }
    };
    frame(&title, Some(scope), &[], None, body)
}
