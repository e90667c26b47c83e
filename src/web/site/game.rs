//! A match's page: its players and result, the clocks, the board as a spectator sees it, the
//! moves (a card game's only once it is over), the replay and PGN. A match still being played
//! refreshes itself, so a page left open follows it.

use super::layout::{frame, span};
use crate::store::Status;
use crate::table::public::MatchView;
use crate::web::paths::Scope;
use maud::{Markup, html};

/// How often a running match's page reloads itself, in seconds.
pub const REFRESH: u32 = 20;

pub fn match_page(scope: &Scope, view: &MatchView) -> Markup {
    let id = view.shown.match_id;
    let game = view.shown.game;
    let title = format!("Match #{id}: {}", game.name());
    let href = scope.game(id);
    let mut crumbs = Vec::new();
    if let Some(b) = &view.board {
        crumbs.push((scope.league(&b.league), b.league.clone()));
        crumbs.push((
            format!("{}#round-{}", scope.season(&b.league, b.season), b.round),
            format!("Season {}, round {}", b.season, b.round),
        ));
    }
    let active = view.status == Status::Active;
    let result = match (&view.shown.result, view.status) {
        (Some(result), _) => result.clone(),
        (None, Status::Aborted) => "Cancelled.".into(),
        (None, _) => "Being played.".into(),
    };
    let body = html! {
        h1 { (title) }
        ul.plain.players {
            @for (seat, player) in view.players.iter().enumerate() {
                li {
                    a href=(scope.player(player.id)) { (player.name) }
                    @if let Some((_, left, running)) = view.shown.times.iter().find(|t| t.0.index() == seat) {
                        " · " (span(*left)) " left" @if *running { " (to move)" }
                    } @else if view.shown.to_act.iter().any(|(s, _)| s.index() == seat) {
                        " · to act"
                    }
                }
            }
        }
        p.result { strong { (result) } }
        p.meta {
            @if view.time_control != "none" && !view.time_control.is_empty() {
                "Clock: " (view.time_control) ". "
            }
            @if let Some(b) = &view.board {
                "League " (b.league) ", season " (b.season) ", round " (b.round) ", board " (b.board) "."
            }
        }
        img.board src=(format!("{href}/board.png?v={}", view.shown.version))
            alt=(format!("The board of match #{id} as a spectator sees it"));
        p {
            @if view.replay {
                a href=(format!("{href}/replay.gif?v={}", view.shown.version)) { "Replay (animated picture)" }
            } @else {
                span.muted { "The replay is shown once the match is over." }
            }
            @if view.pgn.is_some() {
                " · " a href=(format!("{href}/pgn")) download=(format!("match-{id}.pgn")) { "PGN" }
            }
        }
        h2 { "Moves" }
        @match &view.moves {
            None => p.muted { "The players hold cards no one else may see, so the moves are shown once the match is over." },
            Some(moves) if moves.is_empty() => p.muted { "No move yet." },
            Some(moves) => ol.moves {
                @for (_, player, action) in moves { li { (player) ": " (action) } }
            },
        }
    };
    frame(
        &title,
        Some(scope),
        &crumbs,
        active.then_some(REFRESH),
        body,
    )
}
