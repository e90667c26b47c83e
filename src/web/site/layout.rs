//! What every public page shares: the frame (head, header with the way back, footer), the
//! style sheet, and how times and points are written. Every value goes through maud, which
//! escapes it: a name like `<script>` is shown as text.

use crate::web::paths::Scope;
use maud::{DOCTYPE, Markup, html};

/// The pages' one style sheet, served at [`STYLE_PATH`].
pub const STYLE: &str = include_str!("../../../assets/web/style.css");
/// Where the style sheet is served.
pub const STYLE_PATH: &str = "/style.css";

/// A page: its title, the way back to the server's page (`scope`, with `crumbs` between), and
/// its body. A page of something still moving refreshes itself every `refresh` seconds.
pub fn frame(
    title: &str,
    scope: Option<&Scope>,
    crumbs: &[(String, String)],
    refresh: Option<u32>,
    body: Markup,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                @if let Some(seconds) = refresh {
                    meta http-equiv="refresh" content=(seconds);
                }
                title { (title) " · deckmate" }
                // No icon to fetch: a browser asks for /favicon.ico otherwise.
                link rel="icon" href="data:,";
                link rel="stylesheet" href=(STYLE_PATH);
            }
            body {
                header {
                    a.brand href="/" { "deckmate" }
                    @if let Some(scope) = scope {
                        nav.crumbs {
                            a href=(scope.home()) { (server_name(scope)) }
                            @for (href, text) in crumbs {
                                " › " a href=(href) { (text) }
                            }
                        }
                    }
                }
                main { (body) }
                footer { "Served by deckmate. Times are UTC." }
            }
        }
    }
}

/// How a server is named on its pages (the bot knows its id, not its name).
pub fn server_name(scope: &Scope) -> String {
    match scope {
        Scope::Server(id) => format!("Server {id}"),
        Scope::Local => "Local leagues".into(),
    }
}

/// A time (seconds since 1970) as `2026-11-28 14:05`, in UTC.
pub fn when(at: i64) -> String {
    match jiff::Timestamp::from_second(at) {
        Ok(t) => t.strftime("%Y-%m-%d %H:%M").to_string(),
        Err(_) => "?".into(),
    }
}

/// Seconds as `2d 3h`, `5h 10m`, `4m 05s`.
pub fn span(seconds: i64) -> String {
    let s = seconds.max(0);
    let (d, h, m, sec) = (s / 86_400, s % 86_400 / 3600, s % 3600 / 60, s % 60);
    match (d, h) {
        (0, 0) => format!("{m}m {sec:02}s"),
        (0, _) => format!("{h}h {m:02}m"),
        _ => format!("{d}d {h}h"),
    }
}
