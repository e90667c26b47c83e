//! A player's page in one server (ratings per game with their history drawn as a chart,
//! recent matches, leagues) and the server's leaderboard in a game.

use super::layout::{frame, when};
use crate::games::GameKind;
use crate::table::public::PlayerView;
use crate::table::ratings::{HistoryPoint, RatingLine};
use crate::web::paths::Scope;
use maud::{Markup, html};

pub fn player_page(scope: &Scope, view: &PlayerView) -> Markup {
    let name = &view.player.name;
    let body = html! {
        h1 { (name) }
        h2 { "Ratings" }
        @if view.ratings.is_empty() {
            p.muted { "No rated game here yet." }
        }
        @for r in &view.ratings {
            h3 { a href=(scope.leaderboard(r.game)) { (r.game.name()) } }
            p {
                (rating(&r.line)) " after " (r.line.games) " game" @if r.line.games != 1 { "s" }
                @if r.line.provisional { " (provisional)" }
            }
            (chart(r.game, &r.history))
        }
        h2 { "Recent matches" }
        @if view.matches.is_empty() { p.muted { "None here yet." } }
        div.scroll { table.matches { tbody {
            @for m in &view.matches {
                tr {
                    td { a href=(scope.game(m.played.id)) { "#" (m.played.id) } }
                    td { (m.played.game.name()) }
                    td {
                        @for (i, p) in m.players.iter().enumerate() {
                            @if i > 0 { ", " }
                            @if p.id == view.player.id { strong { (p.name) } }
                            @else { a href=(scope.player(p.id)) { (p.name) } }
                        }
                    }
                    td { (m.result) }
                    td.muted { (when(m.played.updated_at)) }
                }
            }
        } } }
        @if !view.leagues.is_empty() {
            h2 { "Leagues" }
            ul {
                @for (league, season) in &view.leagues {
                    li { a href=(scope.season(league, *season)) { (league) ", season " (season) } }
                }
            }
        }
    };
    frame(name, Some(scope), &[], None, body)
}

/// A rating with its uncertainty: `1623 ± 85`.
fn rating(line: &RatingLine) -> String {
    format!("{:.0} ± {:.0}", line.rating, 2.0 * line.deviation)
}

/// The chart's size in its own units.
const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 160.0;
const PAD: f64 = 36.0;

/// A rating's history as an SVG line, oldest on the left, drawn by the server (no script).
pub fn chart(game: GameKind, history: &[HistoryPoint]) -> Markup {
    if history.len() < 2 {
        return html! {};
    }
    let (first, last) = (history[0].at, history[history.len() - 1].at);
    let low = history
        .iter()
        .map(|p| p.rating)
        .fold(f64::INFINITY, f64::min);
    let high = history
        .iter()
        .map(|p| p.rating)
        .fold(f64::NEG_INFINITY, f64::max);
    let (low, high) = if high - low < 20.0 {
        (low - 10.0, high + 10.0)
    } else {
        (low, high)
    };
    let x =
        |at: i64| PAD + (WIDTH - 2.0 * PAD) * (at - first) as f64 / (last - first).max(1) as f64;
    let y = |r: f64| HEIGHT - PAD / 2.0 - (HEIGHT - PAD) * (r - low) / (high - low);
    let points: Vec<String> = history
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.at), y(p.rating)))
        .collect();
    let label = format!(
        "{} rating from {} to {}",
        game.name(),
        when(first),
        when(last)
    );
    html! {
        svg.chart xmlns="http://www.w3.org/2000/svg" role="img" aria-label=(label)
            viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) {
            line x1=(PAD) y1=(y(high)) x2=(WIDTH - PAD) y2=(y(high)) {}
            line x1=(PAD) y1=(y(low)) x2=(WIDTH - PAD) y2=(y(low)) {}
            text x="2" y=(y(high) + 4.0) { (format!("{high:.0}")) }
            text x="2" y=(y(low) + 4.0) { (format!("{low:.0}")) }
            polyline points=(points.join(" ")) {}
        }
    }
}

/// The server's ratings in `game`, best first.
pub fn leaderboard_page(scope: &Scope, game: GameKind, lines: &[RatingLine]) -> Markup {
    let title = format!("{}: leaderboard", game.name());
    let body = html! {
        h1 { (title) }
        @if lines.is_empty() { p.muted { "No rated game here yet." } }
        div.scroll { table.leaderboard {
            thead { tr { th.num { "#" } th { "Player" } th.num { "Rating" } th.num { "Games" } } }
            tbody {
                @for (i, line) in lines.iter().enumerate() {
                    tr {
                        td.num { (i + 1) }
                        td { a href=(scope.player(line.player.id)) { (line.player.name) } }
                        td.num { (rating(line)) @if line.provisional { "?" } }
                        td.num { (line.games) }
                    }
                }
            }
        } }
        p.meta { "A question mark marks a provisional rating (few games so far)." }
    };
    frame(&title, Some(scope), &[], None, body)
}
