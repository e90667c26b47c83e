//! A league's pages: its seasons, and a season in full (standings with every tiebreak, a
//! round robin's crosstable, each round's boards with links to their games, byes, forfeits,
//! absences and withdrawals, the schedule and the next deadline, the TRF download).

use super::layout::{frame, when};
use crate::league::standings::points;
use crate::store::leagues::{Format, League, PairingRow, Season, SeasonStatus};
use crate::table::leagues::{bye_words, describe};
use crate::table::public::SeasonView;
use crate::web::paths::Scope;
use maud::{Markup, html};

fn status_words(status: SeasonStatus) -> &'static str {
    match status {
        SeasonStatus::Registration => "open for registration",
        SeasonStatus::Running => "running",
        SeasonStatus::Finished => "finished",
    }
}

/// Whether a season of `league` has a TRF16 file: Swiss and round robins, not pods.
pub fn has_trf(league: &League) -> bool {
    league.new.format != Format::Pods
}

/// A league's page: what it is and its seasons.
pub fn league_page(scope: &Scope, league: &League, seasons: &[Season]) -> Markup {
    let name = &league.new.name;
    let body = html! {
        h1 { (name) }
        p.meta { (describe(league)) }
        h2 { "Seasons" }
        ul {
            @for s in seasons {
                li {
                    a href=(scope.season(name, s.number)) { "Season " (s.number) }
                    " · " (status_words(s.status))
                }
            }
        }
    };
    frame(name, Some(scope), &[], None, body)
}

/// A season's page.
pub fn season_page(scope: &Scope, view: &SeasonView) -> Markup {
    let name = &view.league.new.name;
    let number = view.season.number;
    let title = format!("{name}, season {number}");
    let crumbs = [(scope.league(name), name.clone())];
    let running = view.season.status == SeasonStatus::Running;
    let body = html! {
        h1 { (title) }
        p.meta { (describe(&view.league)) }
        p {
            "This season is " (status_words(view.season.status)) "."
            @if let Some(round) = view.rounds.iter().find(|r| !r.closed) {
                " Round " (round.number) " ends on " (when(round.deadline)) "."
            }
            @if has_trf(&view.league) && view.season.status != SeasonStatus::Registration {
                " " a href=(scope.trf(name, number)) download { "Download the TRF16 file" } "."
            }
        }
        @if view.seasons.len() > 1 {
            p { "Other seasons: "
                @for n in view.seasons.iter().filter(|n| **n != number) {
                    a href=(scope.season(name, *n)) { (n) } " "
                }
            }
        }
        (standings(scope, view))
        (crosstable(view))
        (rounds(scope, view))
        (registrations(scope, view))
    };
    frame(&title, Some(scope), &crumbs, running.then_some(300), body)
}

fn standings(scope: &Scope, view: &SeasonView) -> Markup {
    html! {
        h2 { "Standings" }
        @if view.standings.is_empty() {
            p.muted { "The standings begin with the first round." }
        } @else {
            div.scroll { table.standings {
                thead { tr {
                    th.num { "#" } th { "Player" } th.num { "Points" }
                    @for t in &view.tiebreaks { th.num { (t.name()) } }
                } }
                tbody {
                    @for (line, player) in &view.standings {
                        tr {
                            td.num { (line.rank) }
                            td { a href=(scope.player(player.id)) { (player.name) } }
                            td.num { (points(line.halves)) }
                            @for (t, value) in view.tiebreaks.iter().zip(&line.tiebreaks) {
                                td.num { (t.show(*value)) }
                            }
                        }
                    }
                }
            } }
        }
    }
}

fn crosstable(view: &SeasonView) -> Markup {
    let Some(grid) = &view.crosstable else {
        return html! {};
    };
    html! {
        h2 { "Crosstable" }
        div.scroll { table.cross {
            thead { tr {
                th.num { "#" } th { "Player" }
                @for i in 1..=grid.len() { th { (i) } }
                th.num { "Points" }
            } }
            tbody {
                @for (i, ((line, player), row)) in view.standings.iter().zip(grid).enumerate() {
                    tr {
                        td.num { (i + 1) }
                        td { (player.name) }
                        @for cell in row { td { (cell) } }
                        td.num { (points(line.halves)) }
                    }
                }
            }
        } }
    }
}

/// A board's result as its row shows it: the result, "being played" with its game, or open.
fn state(row: &PairingRow) -> String {
    match (&row.result, row.match_id) {
        (Some(result), _) => result.replace("1/2", "½"),
        (None, Some(_)) => "being played".into(),
        (None, None) => "not begun".into(),
    }
}

fn rounds(scope: &Scope, view: &SeasonView) -> Markup {
    html! {
        h2 { "Rounds" }
        @if view.rounds.is_empty() {
            p.muted { "No round has started yet." }
        }
        @for round in view.rounds.iter().rev() {
            h3 id=(format!("round-{}", round.number)) { "Round " (round.number) }
            p.meta {
                (when(round.starts_at)) " to " (when(round.deadline))
                @if round.closed { " · closed" } @else { " · running" }
            }
            div.scroll { table.pairings {
                tbody {
                    @for row in view.boards.iter().filter(|b| b.round == round.number) {
                        (board(scope, view, row))
                    }
                }
            } }
            @let away: Vec<&str> = view.absences.iter()
                .filter(|(_, r)| *r == round.number)
                .map(|(p, _)| view.name(*p)).collect();
            @if !away.is_empty() {
                p.meta { "Announced absent: " (away.join(", ")) }
            }
        }
    }
}

fn board(scope: &Scope, view: &SeasonView, row: &PairingRow) -> Markup {
    let game = html! {
        @if let Some(id) = row.match_id {
            a href=(scope.game(id)) { "match #" (id) }
        }
    };
    if !row.table.is_empty() {
        return html! {
            tr {
                td.num { "Table " (row.board) }
                td colspan="3" {
                    @for (i, seat) in row.table.iter().enumerate() {
                        @if i > 0 { ", " }
                        a href=(scope.player(seat.player)) { (view.name(seat.player)) }
                        @if let Some(halves) = seat.points { " " (points(halves)) }
                        @if seat.forfeit { " (forfeit)" }
                    }
                }
                td { (game) }
            }
        };
    }
    let white = html! { a href=(scope.player(row.white)) { (view.name(row.white)) } };
    match row.black {
        Some(black) => html! {
            tr {
                td.num { "Board " (row.board) }
                td { (white) }
                td.result { (state(row)) }
                td { a href=(scope.player(black)) { (view.name(black)) } }
                td { (game) }
            }
        },
        None => html! {
            tr {
                td.num { "Board " (row.board) }
                td { (white) }
                td colspan="3" { (bye_words(row.result.as_deref())) }
            }
        },
    }
}

fn registrations(scope: &Scope, view: &SeasonView) -> Markup {
    html! {
        h2 { "Players" }
        ul.plain {
            @for (player, status) in &view.registrations {
                li {
                    a href=(scope.player(player.id)) { (player.name) }
                    @match status.as_str() {
                        "withdrawn" => " · withdrew",
                        "dropped" => " · dropped after forfeits",
                        _ => "",
                    }
                }
            }
        }
    }
}
