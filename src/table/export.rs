//! A match written out: its history a page at a time, a text log that the console replays
//! (`deckmate play ... < log`: every line is `NAME: action`, and the header lines start with
//! `#`, which the console skips), and PGN for chess and Enthralling Chess.

use super::{Table, TableError};
use crate::engine::Outcome;
use crate::games::TIME_OUT;
use crate::games::chess::pgn::{PgnGame, PgnMove};
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

    /// Match `id` as PGN, for the games that declare a PGN form ([`crate::engine::Game::PGN`]);
    /// None for the others. A turn's extra step (Enthralling Chess's `enthrall`) is written as a
    /// comment after its move, `4. d3 {enthrall Nc6 g1}`, under the game's `Variant` tag: any
    /// PGN reader reads the file (comments are skipped), and deckmate's own replays it whole.
    pub fn export_pgn(&self, id: MatchId) -> Result<Option<String>, TableError> {
        let stored = self.store.load(id)?;
        let Some(style) = stored.game.pgn() else {
            return Ok(None);
        };
        let result = pgn_result(stored.outcome.as_ref(), stored.status);
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), format!("deckmate match #{id}")),
            ("Site".into(), "Discord".into()),
            ("White".into(), stored.players[0].name.clone()),
            ("Black".into(), stored.players[1].name.clone()),
            ("Result".into(), result.into()),
        ];
        if let Some(variant) = style.variant {
            tags.push(("Variant".into(), variant.into()));
        }
        if let Some((_, fen)) = stored.options.iter().find(|(k, _)| k == "fen") {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), fen.clone()));
        }
        let moves = stored
            .actions
            .iter()
            .map(|action| {
                let (san, comment) = style.split(&action.text);
                PgnMove { san, comment }
            })
            .collect();
        let game = PgnGame {
            tags,
            moves,
            result: result.into(),
        };
        Ok(Some(game.write()))
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
