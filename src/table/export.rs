//! A match written out: its history a page at a time, a text log that the console replays
//! (`deckmate play ... < log`: every line is `NAME: action`, and the header lines start with
//! `#`, which the console skips), and PGN for chess.

use super::{Table, TableError};
use crate::engine::Outcome;
use crate::games::{GameKind, TIME_OUT};
use crate::store::{MatchId, Status, StoredMatch};

/// One page of a match's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryPage {
    /// (number, player, action), the first action numbered 1.
    pub actions: Vec<(usize, String, String)>,
    /// This page (from 1) and how many there are (at least 1).
    pub page: usize,
    pub pages: usize,
}

/// A name the console reads back as one player: letters, digits, `-` and `_`.
fn console_name(name: &str, seat: usize, taken: &[String]) -> String {
    let mut clean: String = name
        .chars()
        .map(|c| match c.is_alphanumeric() || c == '-' || c == '_' {
            true => c,
            false => '_',
        })
        .take(24)
        .collect();
    if clean.trim_matches('_').is_empty() || taken.contains(&clean) {
        clean = format!("player{}", seat + 1);
    }
    clean
}

/// The PGN result token.
fn pgn_result(outcome: Option<&Outcome>, status: Status) -> &'static str {
    match (outcome, status) {
        (Some(o), _) if o.is_draw() => "1/2-1/2",
        (Some(o), _) if o.winners().first().is_some_and(|s| s.0 == 0) => "1-0",
        (Some(_), _) => "0-1",
        _ => "*",
    }
}

/// A PGN tag value: quotes and backslashes escaped.
fn tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl Table {
    /// Page `page` (from 1) of match `id`'s history, `per_page` actions a page.
    pub fn history_page(
        &self,
        id: MatchId,
        page: usize,
        per_page: usize,
    ) -> Result<HistoryPage, TableError> {
        let all = self.history(id)?;
        let per_page = per_page.max(1);
        let pages = all.len().div_ceil(per_page).max(1);
        let page = page.clamp(1, pages);
        let actions = all
            .into_iter()
            .skip((page - 1) * per_page)
            .take(per_page)
            .collect();
        Ok(HistoryPage {
            actions,
            page,
            pages,
        })
    }

    /// Match `id` as a text log the console replays, with a header saying how.
    pub fn export_log(&self, id: MatchId) -> Result<String, TableError> {
        let stored = self.store.load(id)?;
        let shown = self.show(id)?;
        let mut names: Vec<String> = Vec::new();
        for (i, p) in stored.players.iter().enumerate() {
            let name = console_name(&p.name, i, &names);
            names.push(name);
        }
        let mut out = format!(
            "# deckmate match #{id}: {} for {}\n",
            stored.game.name(),
            stored
                .players
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        if stored.time_control != "none" && !stored.time_control.is_empty() {
            out.push_str(&format!("# clock: {}\n", stored.time_control));
        }
        out.push_str(&format!(
            "# result: {}\n",
            shown.result.as_deref().unwrap_or("still being played")
        ));
        if stored.rules != stored.game.rules() {
            out.push_str(&format!(
                "# played under revision {} of the rules; today's rules are revision {}, so a replay may differ\n",
                stored.rules,
                stored.game.rules()
            ));
        }
        out.push_str(&format!(
            "# replay: {} < this-file\n",
            replay_command(&stored, &names)
        ));
        for action in &stored.actions {
            let name = &names[action.seat.index()];
            if action.text == TIME_OUT {
                out.push_str(&format!("# {name} ran out of time here\n"));
            } else {
                out.push_str(&format!("{name}: {}\n", action.text));
            }
        }
        Ok(out)
    }

    /// Match `id` as PGN, for chess; None for the other games.
    pub fn export_pgn(&self, id: MatchId) -> Result<Option<String>, TableError> {
        let stored = self.store.load(id)?;
        if stored.game != GameKind::Chess {
            return Ok(None);
        }
        let result = pgn_result(stored.outcome.as_ref(), stored.status);
        let mut out = String::new();
        for (name, value) in [
            ("Event", format!("deckmate match #{id}")),
            ("Site", "Discord".to_string()),
            ("White", stored.players[0].name.clone()),
            ("Black", stored.players[1].name.clone()),
            ("Result", result.to_string()),
        ] {
            out.push_str(&format!("[{name} \"{}\"]\n", tag(&value)));
        }
        if let Some((_, fen)) = stored.options.iter().find(|(k, _)| k == "fen") {
            out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", tag(fen)));
        }
        out.push('\n');
        // Move numbers from the start position's side and number.
        let (mut number, mut black) =
            stored
                .options
                .iter()
                .find(|(k, _)| k == "fen")
                .map_or((1, false), |(_, fen)| {
                    let fields: Vec<&str> = fen.split_whitespace().collect();
                    (
                        fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1),
                        fields.get(1) == Some(&"b"),
                    )
                });
        let mut line = String::new();
        if black {
            line.push_str(&format!("{number}... "));
        }
        for action in &stored.actions {
            if !black {
                line.push_str(&format!("{number}. "));
            }
            line.push_str(&action.text);
            line.push(' ');
            if black {
                number += 1;
            }
            black = !black;
        }
        line.push_str(result);
        out.push_str(&wrap(&line, 79));
        out.push('\n');
        Ok(Some(out))
    }
}

/// The console command that replays a match: its game, players, seed and options.
fn replay_command(stored: &StoredMatch, names: &[String]) -> String {
    let mut command = format!(
        "deckmate play {} --players {} --seed {}",
        stored.game.id(),
        names.join(","),
        stored.seed
    );
    if !stored.time_control.is_empty() && stored.time_control != "none" {
        command.push_str(&format!(" --time '{}'", stored.time_control));
    }
    for (key, value) in &stored.options {
        let pair = format!("{key}={value}");
        if pair.contains([' ', '"', '\'']) {
            command.push_str(&format!(" --option '{}'", pair.replace('\'', "'\\''")));
        } else {
            command.push_str(&format!(" --option {pair}"));
        }
    }
    command
}

/// `text` broken at spaces into lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out
}
