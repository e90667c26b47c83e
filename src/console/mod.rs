//! The local console: plays real matches through the table service in a terminal, or from a
//! script on standard input. Each input line is `NAME: COMMAND`, or a bare command for the one
//! player who must act; see [`HELP`].

mod args;
pub mod gallery;
pub mod league;
mod pipe;
#[cfg(test)]
mod tests;
mod text;
mod time;

pub use args::GameParser;
pub use pipe::QuietPipe;
pub use text::text_view;

use crate::ai::Level;
use crate::engine::{GameRng, echo};
use crate::games::GameKind;
use crate::store::{MatchId, Place, Player, SessionLine, Store, StoreError};
use crate::table::clock::{Clock, SimClock, SystemClock, time_left};
use crate::table::time_control::TimeControl;
use crate::table::{Request, Table, TableError, Update};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;
use thiserror::Error;

pub const HELP: &str =
    "commands, one per line, as NAME: COMMAND or, for the one player to act, bare —
  <action>        play an action (alice: e4, or just e4); move <action> works too
  legal           list the actions you may take now
  view            show what you may see of the game
  board           show the board (and write its picture with --out)
  resign          resign (two-player games)
  draw offer|accept|decline
  history         list the actions so far
  export [pgn]    print the match as a log the console replays (or as PGN, for the games PGN readers know)
  give 1d         give the opponent who must act more time (a match with a clock)
  claim           claim the win over an opponent out of time (with --option on_time=claim)
  nudge           remind the player to act that it is their turn (once per 12 hours)
  reminders on|off
  quiet 22-7 +2   quiet hours (22:00 to 07:00 at UTC+2, or in a named zone with its summer time:
                  quiet 22-7 Europe/Paris): reminders wait until they end; quiet off
  vacation 3      pause your clocks for 3 days (14 a year; a move ends it); vacation end; vacation
  wait 30h        (bare; simulated clock) move the clock on: what falls due meanwhile happens
blank lines and lines starting with # are skipped";

/// The console's own commands; any other first word starts an action.
const COMMANDS: [&str; 15] = [
    "move",
    "legal",
    "view",
    "board",
    "resign",
    "draw",
    "history",
    "export",
    "help",
    "give",
    "reminders",
    "quiet",
    "nudge",
    "claim",
    "vacation",
];

/// The longest player name the console accepts.
const NAME_LIMIT: usize = 32;

#[derive(Clone, Debug)]
pub struct ConsoleConfig {
    pub game: GameKind,
    /// Players in seat order; may be empty when resuming with `match_id`.
    pub players: Vec<String>,
    pub seed: Option<u64>,
    pub options: Vec<(String, String)>,
    /// The database file; None keeps the match in memory.
    pub db: Option<PathBuf>,
    /// Where to write a PNG of the board at the start and after every action.
    pub out: Option<PathBuf>,
    /// Resume this stored match instead of starting one.
    pub match_id: Option<MatchId>,
    /// Print a prompt naming who must act before reading each line (on a terminal).
    pub prompt: bool,
    /// Print the board as text at the start and after every action.
    pub show_board: bool,
    /// Names this run for request keys: each line's change is keyed by the session and the
    /// line's number, so the same script fed again with the same session changes nothing it
    /// already did. None: a new session each run.
    pub session: Option<String>,
    /// The match's time control (for a new match).
    pub time: TimeControl,
    /// Run on a simulated clock that only `wait` lines move, instead of the real one.
    pub simulated: bool,
}

/// Failures that stop the console before play (bad arguments, unusable database).
#[derive(Debug, Error)]
pub enum ConsoleError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Table(#[from] TableError),
    #[error("{0}")]
    Usage(String),
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

pub struct Console {
    table: Table,
    id: MatchId,
    players: Vec<Player>,
    /// The computer's level in each seat it plays (`--players ann,cpu:hard`), by seat.
    computers: Vec<Option<Level>>,
    /// Where pictures go, and the start of their file names (unique to this match).
    pictures: Option<(PathBuf, String)>,
    show_board: bool,
    /// The simulated clock, when the console runs on one (`wait` moves it).
    sim: Option<SimClock>,
    /// An action that loses on the spot, refused once with a warning: the same player sending
    /// the same action again plays it.
    pending: Option<(usize, String)>,
    /// This run's session, and the number of the line being run: together the key of the
    /// request the line makes.
    session: String,
    /// The session was named (`--session`): its lines are checked against what their numbers
    /// held before.
    named_session: bool,
    line_number: u64,
}

/// The most moves the computer makes in a row before the console reads a line again (a
/// match of computers only is played a stretch at a time).
const MOST_COMPUTER_MOVES: usize = 500;

/// `cpu` (medium) or `cpu:LEVEL` in `--players`: the computer at that level (or why the level
/// is unknown); None for a person's name.
fn computer_entry(entry: &str) -> Option<Result<Level, ConsoleError>> {
    let entry = entry.trim().to_ascii_lowercase();
    match entry.split_once(':') {
        None if entry == "cpu" => Some(Ok(Level::default())),
        Some(("cpu", level)) => Some(level.parse().map_err(ConsoleError::Usage)),
        _ => None,
    }
}

/// The computer's name at a table: `cpu-hard`, then `cpu-hard-2` and on for more of them.
fn computer_name(level: Level, earlier: &[String]) -> String {
    (1..)
        .map(|n| crate::store::computer_name(level, n))
        .find(|name| !earlier.iter().any(|e| e.eq_ignore_ascii_case(name)))
        .unwrap_or_else(|| crate::store::computer_name(level, 1))
}

/// The level of a seat named as the computer's (`cpu-hard`, `cpu-easy-2`), else None.
fn computer_level(name: &str) -> Option<Level> {
    let name = name.to_ascii_lowercase();
    let rest = name.strip_prefix("cpu-")?;
    let level = rest.split('-').next()?;
    let suffix_ok = rest[level.len()..]
        .strip_prefix('-')
        .is_none_or(|n| n.parse::<u32>().is_ok_and(|n| n >= 2));
    level.parse().ok().filter(|_| suffix_ok)
}

/// Why a player name is refused, if it is: one that could not be typed back as `NAME:`.
pub(crate) fn bad_name(name: &str, earlier: &[String]) -> Option<String> {
    let shown = echo(&name.escape_debug().to_string());
    if name.is_empty() {
        Some("a player name cannot be empty".into())
    } else if name.chars().count() > NAME_LIMIT {
        Some(format!(
            "\"{shown}\" is too long for a player name (at most {NAME_LIMIT} characters)"
        ))
    } else if name.chars().any(char::is_control) {
        Some(format!(
            "\"{shown}\" cannot be a player name: it holds a control character"
        ))
    } else if name.contains(':') || name.starts_with('#') {
        Some(format!(
            "\"{shown}\" cannot be a player name: names cannot contain ':' or start with '#'"
        ))
    } else if earlier.iter().any(|n| n.eq_ignore_ascii_case(name)) {
        Some(format!(
            "\"{shown}\" is named twice; give each player a different name"
        ))
    } else {
        None
    }
}

impl Console {
    /// Opens the store and starts (or resumes) the match; returns the console and its opening
    /// lines.
    pub fn start(config: &ConsoleConfig) -> Result<(Console, Vec<String>), ConsoleError> {
        let store = match &config.db {
            Some(path) => Store::open(path)?,
            None => Store::open_in_memory()?,
        };
        // A match resumed on the simulated clock goes on at the time its last run reached.
        let resumed_at = match (config.simulated, config.match_id) {
            (true, Some(id)) => store.console_clock(id)?,
            _ => None,
        };
        let sim = config
            .simulated
            .then(|| SimClock::at(resumed_at.unwrap_or_else(|| SystemClock.now())));
        let mut table = match &sim {
            Some(clock) => Table::with_clock(store, clock.clone()),
            None => Table::with_clock(store, SystemClock),
        };
        if let Some(out) = &config.out {
            std::fs::create_dir_all(out).map_err(|source| ConsoleError::Io {
                path: out.display().to_string(),
                source,
            })?;
        }
        let mut given: Vec<String> = Vec::new();
        for entry in &config.players {
            let name = match computer_entry(entry) {
                Some(level) => computer_name(level?, &given),
                None => entry.trim().to_string(),
            };
            if computer_entry(entry).is_none()
                && let Some(level) = computer_level(&name)
            {
                return Err(ConsoleError::Usage(format!(
                    "\"{name}\" is a name the computer plays under; write cpu:{level} for a \
                     computer seat, or choose another name"
                )));
            }
            given.push(name);
        }
        let (id, update) = match config.match_id {
            Some(id) => {
                let update = table.show(id)?;
                if update.game != config.game {
                    return Err(ConsoleError::Usage(format!(
                        "match #{id} is {}, not {}",
                        update.game.name(),
                        config.game.name()
                    )));
                }
                (id, update)
            }
            None => {
                if given.is_empty() {
                    return Err(ConsoleError::Usage(
                        "name the players with --players NAME,NAME".into(),
                    ));
                }
                for (i, name) in given.iter().enumerate() {
                    if let Some(why) = bad_name(name, &given[..i]) {
                        return Err(ConsoleError::Usage(why));
                    }
                }
                let mut players = Vec::new();
                for name in &given {
                    players.push(table.store().local_player(name)?);
                }
                let seed = config.seed.unwrap_or_else(random_seed);
                let update = table.create_timed(
                    config.game,
                    &config.options,
                    &players,
                    seed,
                    &Place::default(),
                    config.time,
                )?;
                (update.match_id, update)
            }
        };
        let players: Vec<Player> = update
            .seat_views
            .iter()
            .map(|(_, p, _)| p.clone())
            .collect();
        // Resuming with --players: they must be the match's players, in seat order.
        if config.match_id.is_some() && !given.is_empty() {
            let stored: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
            let same = stored.len() == given.len()
                && stored
                    .iter()
                    .zip(&given)
                    .all(|(a, b)| a.eq_ignore_ascii_case(b));
            if !same {
                return Err(ConsoleError::Usage(format!(
                    "match #{id} is played by {}, not {}",
                    stored.join(","),
                    given.join(",")
                )));
            }
        }
        let pictures = config
            .out
            .as_ref()
            .map(|out| (out.clone(), picture_prefix(out, config.db.as_deref(), id)));
        if let Some(clock) = &sim {
            table.store().set_console_clock(id, clock.now())?;
        }
        let computers = players.iter().map(|p| computer_level(&p.name)).collect();
        let mut console = Console {
            table,
            id,
            players,
            computers,
            pictures,
            show_board: config.show_board,
            sim,
            pending: None,
            session: config
                .session
                .clone()
                .unwrap_or_else(|| format!("{:016x}", random_seed())),
            named_session: config.session.is_some(),
            line_number: 0,
        };
        let mut lines = vec![format!(
            "match #{id}: {} — {}",
            update.game.name(),
            seat_list(&update)
        )];
        if let Err(e) = console.write_png(&update) {
            lines.push(format!("error: {e}"));
        }
        if console.show_board {
            lines.extend(text_view(&update.public_view));
        }
        lines.extend(status_lines(&update, console.table.now()));
        lines.extend(console.computer_turns());
        Ok((console, lines))
    }

    /// The computer's moves while a seat it plays must act, each printed as its line and what
    /// followed, keyed under the line that led to them so a script fed again repeats none.
    fn computer_turns(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        for n in 1..=MOST_COMPUTER_MOVES {
            let Ok(waiting) = self.table.waiting_for(self.id) else {
                break;
            };
            let Some(index) = (0..self.players.len())
                .find(|&i| self.computers[i].is_some() && waiting.contains(&self.players[i].name))
            else {
                break;
            };
            let level = self.computers[index].unwrap_or_default();
            let started = std::time::Instant::now();
            let limit = level.time_limit();
            let stop = || started.elapsed() >= limit;
            let player = self.players[index].id;
            let text = match self.table.computer_action(self.id, player, level, &stop) {
                Ok(Some(text)) => text,
                Ok(None) => break,
                Err(e) => {
                    lines.push(format!("error: {e}"));
                    break;
                }
            };
            lines.push(format!("{}: {text}", self.players[index].name));
            let key = format!("{}:cpu{n}", self.key());
            match self.act_keyed(index, &text, &key) {
                Ok(more) => lines.extend(more),
                Err(message) => {
                    lines.push(format!("error: {message}"));
                    break;
                }
            }
        }
        lines
    }

    pub fn match_id(&self) -> MatchId {
        self.id
    }

    /// The prompt for the next line: who must act, or that the match is over.
    pub fn prompt(&self) -> String {
        match self.table.waiting_for(self.id) {
            Ok(names) if names.is_empty() => "match over> ".into(),
            Ok(names) => format!("{} to act> ", names.join(", ")),
            Err(_) => "> ".into(),
        }
    }

    /// Runs one input line; returns the lines to print. Errors come back as one `error:` line.
    pub fn line(&mut self, line: &str) -> Vec<String> {
        // Whatever a message repeats of the line, no control character reaches the terminal.
        let shown = |c: char| match c.is_control() && c != '\n' {
            true => c.escape_unicode().to_string(),
            false => c.to_string(),
        };
        let mut lines = self.run_line(line);
        lines.extend(self.computer_turns());
        lines
            .into_iter()
            .map(|out| out.chars().map(shown).collect())
            .collect()
    }

    fn run_line(&mut self, line: &str) -> Vec<String> {
        self.line_number += 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return vec![];
        }
        if let Err(refused) = self.same_line_as_before(line) {
            return vec![format!("error: {refused}")];
        }
        let waited = line
            .split_once(char::is_whitespace)
            .filter(|(verb, _)| verb.eq_ignore_ascii_case("wait"))
            .map(|(_, rest)| self.wait(rest.trim()));
        match waited.unwrap_or_else(|| self.command(line)) {
            Ok(lines) => lines,
            Err(message) => vec![format!("error: {message}")],
        }
    }

    /// The player a line speaks for, and the command: `NAME: COMMAND`, or a bare command for
    /// the one player who must act.
    fn speaker<'a>(&self, line: &'a str) -> Result<(usize, &'a str), String> {
        if let Some((name, command)) = line.split_once(':') {
            let name = name.trim();
            let index = self
                .players
                .iter()
                .position(|p| p.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| {
                    let names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
                    format!(
                        "{} is not playing in match #{} (players: {})",
                        echo(name),
                        self.id,
                        names.join(", ")
                    )
                })?;
            if self.computers.get(index).is_some_and(Option::is_some) {
                return Err(format!(
                    "{} is the computer: it makes its own moves",
                    self.players[index].name
                ));
            }
            return Ok((index, command.trim()));
        }
        let waiting = self.table.waiting_for(self.id).map_err(|e| e.to_string())?;
        let index_of = |name: &String| self.players.iter().position(|p| &p.name == name);
        let mut acting: Vec<usize> = waiting.iter().filter_map(index_of).collect();
        acting.dedup();
        let computer = |i: usize| self.computers.get(i).is_some_and(Option::is_some);
        let people: Vec<usize> = (0..self.players.len()).filter(|&i| !computer(i)).collect();
        let verb = line.split_whitespace().next().unwrap_or("");
        let reading = ["help", "view", "board", "export"]
            .iter()
            .any(|v| verb.eq_ignore_ascii_case(v));
        match acting.as_slice() {
            // The computer's turn: a command without a name is the one person's, never the
            // computer's; with several people, only a reading command needs no name.
            [one] if computer(*one) => match people.as_slice() {
                [person] => Ok((*person, line)),
                [first, ..] if reading => Ok((*first, line)),
                _ => Err(format!(
                    "{} is the computer, and it is its turn: it makes its own moves (to act \
                     for a player, say NAME: COMMAND)",
                    self.players[*one].name
                )),
            },
            [one] => Ok((*one, line)),
            // Nobody must act (the match is over): reading commands still work.
            [] => Ok((people.first().copied().unwrap_or(0), line)),
            several => {
                let names: Vec<&str> = several
                    .iter()
                    .map(|&i| self.players[i].name.as_str())
                    .collect();
                Err(format!(
                    "{} must all act now: say who, as NAME: COMMAND (for example \"{}: {}\")",
                    names.join(", "),
                    names[0],
                    echo(line)
                ))
            }
        }
    }

    fn command(&mut self, line: &str) -> Result<Vec<String>, String> {
        let (index, command) = self.speaker(line)?;
        let (verb, rest) = command
            .split_once(char::is_whitespace)
            .map_or((command, ""), |(v, r)| (v, r.trim()));
        let verb = verb.to_ascii_lowercase();
        if verb == "help" {
            return Ok(self.help());
        }
        let player = self.players[index].clone();
        let (line_number, session) = (self.line_number, self.session.clone());
        let err = |e: TableError| told(e, line_number, &session);
        let id = self.id;
        let key = self.key();
        let request = Request {
            key: Some(&key),
            ..Request::default()
        };
        if !COMMANDS.contains(&verb.as_str()) {
            // A bare action ("e4", "ready", "play Knight").
            return self.act(index, command);
        }
        if verb != "move" {
            self.pending = None;
        }
        match verb.as_str() {
            "move" => {
                if rest.is_empty() {
                    return Err("say which action, for example: move e4".into());
                }
                self.act(index, rest)
            }
            "legal" => self.legal(&player),
            "reminders" | "quiet" | "claim" | "nudge" | "give" | "vacation" => self
                .slow_play(&verb, rest, &player, request)
                .map_err(|e| match e {
                    time::Refusal::Table(e) => err(e),
                    time::Refusal::Said(why) => why,
                }),
            "view" => {
                let view = self.table.view_for(id, Some(player.id)).map_err(&err)?;
                Ok(text_view(&view))
            }
            "board" => {
                let update = self.table.show(id).map_err(&err)?;
                self.write_png(&update)?;
                let mut lines = text_view(&update.public_view);
                lines.extend(status_lines(&update, self.table.now()));
                Ok(lines)
            }
            "resign" => {
                let update = self.table.resign(id, player.id, request).map_err(&err)?;
                Ok(self.after_change(&update))
            }
            "draw" => {
                let update = match rest.to_ascii_lowercase().as_str() {
                    "offer" => self.table.offer_draw(id, player.id, request),
                    "accept" => self.table.accept_draw(id, player.id, request),
                    "decline" => self.table.decline_draw(id, player.id, request),
                    _ => return Err("say draw offer, draw accept or draw decline".into()),
                }
                .map_err(&err)?;
                Ok(self.after_change(&update))
            }
            "export" => match rest.to_ascii_lowercase().as_str() {
                "" => Ok(self
                    .table
                    .export_log(id)
                    .map_err(&err)?
                    .lines()
                    .map(String::from)
                    .collect()),
                "pgn" => match self.table.export_pgn(id).map_err(&err)? {
                    Some(pgn) => Ok(pgn.lines().map(String::from).collect()),
                    None => {
                        let known: Vec<&str> = GameKind::ALL
                            .into_iter()
                            .filter(|game| game.pgn().is_some())
                            .map(GameKind::name)
                            .collect();
                        Err(format!(
                            "PGN is for {}; say export for this game's log",
                            known.join(" and ")
                        ))
                    }
                },
                _ => Err("say export, or export pgn".into()),
            },
            _ => {
                let history = self.table.history(id).map_err(&err)?;
                if history.is_empty() {
                    return Ok(vec!["history: no actions yet".into()]);
                }
                Ok(history
                    .into_iter()
                    .map(|(n, who, text)| format!("{n:>3}. {who}: {text}"))
                    .collect())
            }
        }
    }

    /// Plays `text` for the player at `index`. An action that loses on the spot is refused
    /// once with its warning; sent again by the same player, it is played.
    fn act(&mut self, index: usize, text: &str) -> Result<Vec<String>, String> {
        let key = self.key();
        self.act_keyed(index, text, &key)
    }

    fn act_keyed(&mut self, index: usize, text: &str, key: &str) -> Result<Vec<String>, String> {
        let player = self.players[index].id;
        let request = Request {
            key: Some(key),
            ..Request::default()
        };
        let result = match self.table.act(self.id, player, request, text) {
            Err(TableError::Confirm {
                warning, action, ..
            }) => {
                if self.pending.as_ref() == Some(&(index, action.clone())) {
                    let confirmed = Request {
                        confirmed: true,
                        ..request
                    };
                    self.table.act(self.id, player, confirmed, text)
                } else {
                    self.pending = Some((index, action.clone()));
                    return Ok(vec![format!(
                        "warning: {action}: {warning}; send it again to confirm"
                    )]);
                }
            }
            other => other,
        };
        self.pending = None;
        let update = result.map_err(|e| told(e, self.line_number, &self.session))?;
        Ok(self.after_change(&update))
    }

    /// In a named session, the line must be the one its number held when the session ran
    /// before (a script fed again); a line that differs is refused, since its number's request
    /// may already have done something else.
    fn same_line_as_before(&mut self, line: &str) -> Result<(), String> {
        if !self.named_session {
            return Ok(());
        }
        let held = self
            .table
            .store()
            .session_line(&self.session, self.id, self.line_number, line)
            .map_err(|e| e.to_string())?;
        match held {
            SessionLine::Same => Ok(()),
            SessionLine::Different(before) => Err(format!(
                "line {} of session {} was \"{}\" when the session ran before, not \"{}\"; \
                 nothing was done (a changed script needs a new --session)",
                self.line_number,
                self.session,
                echo(&before),
                echo(line)
            )),
        }
    }

    /// The key of the request the current line makes.
    fn key(&self) -> String {
        format!("console:{}:{}:{}", self.session, self.id, self.line_number)
    }

    /// `legal`: one line for a short list; for a long one (or actions that hold commas), one
    /// group a line with its count.
    fn legal(&self, player: &Player) -> Result<Vec<String>, String> {
        let groups = self
            .table
            .legal_groups(self.id, player.id)
            .map_err(|e| e.to_string())?;
        let count: usize = groups.iter().map(|(_, g)| g.len()).sum();
        if count == 0 {
            let waiting = self.table.waiting_for(self.id).map_err(|e| e.to_string())?;
            return Ok(vec![if waiting.is_empty() {
                "legal: nothing, the match is over".to_string()
            } else {
                format!("legal: nothing now; waiting for {}", waiting.join(", "))
            }]);
        }
        let all: Vec<&String> = groups.iter().flat_map(|(_, g)| g).collect();
        if count <= 12 && !all.iter().any(|a| a.contains(',')) {
            let texts: Vec<&str> = all.iter().map(|a| a.as_str()).collect();
            return Ok(vec![format!("legal ({count}): {}", texts.join(", "))]);
        }
        let mut lines = vec![format!("legal ({count}):")];
        for (group, texts) in groups {
            let separator = if texts.iter().any(|t| t.contains(',')) {
                " | "
            } else {
                ", "
            };
            let label = if group.is_empty() { "other" } else { &group };
            lines.push(format!(
                "  {label} ({}): {}",
                texts.len(),
                texts.join(separator)
            ));
        }
        Ok(lines)
    }

    /// `help`: the commands, then how this game's actions are written.
    fn help(&self) -> Vec<String> {
        let game = self.table.show(self.id).map(|u| u.game);
        let mut lines: Vec<String> = HELP.lines().map(str::to_string).collect();
        if let Ok(game) = game {
            let notation = game.notation();
            if !notation.is_empty() {
                lines.push(format!("{} actions:", game.name()));
                lines.extend(notation.lines().map(|l| format!("  {}", l.trim_start())));
            }
            lines.push(format!(
                "type legal for every action you may take now; docs/rules/{}.md has the rules",
                game.id()
            ));
        }
        lines
    }

    /// The lines after the match changed: what happened, the board (when shown) and who acts
    /// next; the picture is written too.
    fn after_change(&self, update: &Update) -> Vec<String> {
        if update.repeated {
            return vec![format!(
                "(line {} of session {} was played before; nothing changed)",
                self.line_number, self.session
            )];
        }
        let mut lines: Vec<String> = update
            .public
            .iter()
            .filter(|l| !l.starts_with("Game over"))
            .cloned()
            .collect();
        // Lines for one seat (a peek at cards): the console is shared, so they are marked.
        for (seat, text) in &update.private {
            let name = update
                .seat_views
                .iter()
                .find(|(s, _, _)| s == seat)
                .map_or("?", |(_, p, _)| p.name.as_str());
            lines.push(format!("(for {name} only) {text}"));
        }
        if let Err(e) = self.write_png(update) {
            lines.push(format!(
                "error: the action was stored, but its picture was not written: {e}"
            ));
        }
        if self.show_board {
            lines.extend(text_view(&update.public_view));
        }
        lines.extend(status_lines(update, self.table.now()));
        lines
    }

    /// Writes `<out>/<prefix>-<version>.png`: the board at this version.
    fn write_png(&self, update: &Update) -> Result<(), String> {
        let Some((out, prefix)) = &self.pictures else {
            return Ok(());
        };
        let path = out.join(format!("{prefix}-{:04}.png", update.version));
        std::fs::write(&path, update.board_png())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// What a refusal says; one given before to this very line (a script fed again) says so.
fn told(e: TableError, line_number: u64, session: &str) -> String {
    match e {
        TableError::Refused(why) => format!(
            "{why} (line {line_number} of session {session} was refused before; nothing changed)"
        ),
        e => e.to_string(),
    }
}

/// The start of this match's picture file names: `match-<id>` for a match in a database
/// (`<file>-match-<id>` when the database is not deckmate's default name), and for a match
/// kept in memory, `memory-<n>` with an `n` no picture in `out` uses yet, so a new match never
/// overwrites an old one's pictures.
fn picture_prefix(out: &Path, db: Option<&Path>, id: MatchId) -> String {
    match db {
        Some(db) => {
            let stem = db
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let stem: String = stem
                .chars()
                .map(|c| {
                    if c.is_alphanumeric() || c == '-' || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            format!("{stem}-match-{id}")
        }
        None => {
            let taken = |n: u32| {
                let start = format!("memory-{n}-");
                std::fs::read_dir(out).is_ok_and(|entries| {
                    entries
                        .flatten()
                        .any(|e| e.file_name().to_string_lossy().starts_with(&start))
                })
            };
            let n = (1..).find(|&n| !taken(n)).unwrap_or(1);
            format!("memory-{n}")
        }
    }
}

fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    GameRng::from_seed(nanos ^ u64::from(std::process::id())).next_u64()
}

fn seat_list(update: &Update) -> String {
    update
        .seat_views
        .iter()
        .map(|(seat, player, _)| format!("{} ({})", player.name, update.game.seat_name(*seat)))
        .collect::<Vec<_>>()
        .join(" vs ")
}

/// "to move: bob", with the time each has left when the match has a clock ("to move: bob (2
/// days left)"), or the `result:` line.
fn status_lines(update: &Update, now: i64) -> Vec<String> {
    match &update.result {
        Some(result) => vec![format!("result: {result}")],
        None => {
            let names: Vec<String> = update
                .to_act
                .iter()
                .map(
                    |(seat, p)| match update.clocks.iter().find(|(s, _)| s == seat) {
                        Some((_, end)) => format!("{} ({})", p.name, time_left(end - now)),
                        None => p.name.clone(),
                    },
                )
                .collect();
            vec![format!("to move: {}", names.join(", "))]
        }
    }
}

/// Where the console's lines come from.
pub enum Input {
    /// A script (or any reader): lines as they come, with no editing.
    Script(Box<dyn BufRead + Send>),
    /// A person at a terminal: a line editor with history (arrows, Ctrl-R, Ctrl-A/E), showing
    /// the prompt itself.
    Terminal,
}

/// A line read: its text, None when it is not UTF-8; an error ends the reading.
type ReadLine = std::io::Result<Option<String>>;

/// Reads lines on their own thread, so that a running timer (En Prise Memory) fires while
/// nobody types. A terminal's line editor shows each prompt it is sent; a script's lines are
/// read ahead.
fn spawn_reader(input: Input) -> (mpsc::Receiver<ReadLine>, Option<mpsc::Sender<String>>) {
    let (lines_tx, lines) = mpsc::channel();
    match input {
        Input::Script(mut input) => {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                loop {
                    bytes.clear();
                    let line = match input.read_until(b'\n', &mut bytes) {
                        Ok(0) => break,
                        Ok(_) => Ok(String::from_utf8(bytes.clone()).ok()),
                        Err(e) => Err(e),
                    };
                    let failed = line.is_err();
                    if lines_tx.send(line).is_err() || failed {
                        break;
                    }
                }
            });
            (lines, None)
        }
        Input::Terminal => {
            let (prompts_tx, prompts) = mpsc::channel::<String>();
            std::thread::spawn(move || {
                let mut editor = match rustyline::DefaultEditor::new() {
                    Ok(editor) => editor,
                    Err(e) => {
                        let _ = lines_tx.send(Err(std::io::Error::other(e)));
                        return;
                    }
                };
                for prompt in prompts {
                    let line = match editor.readline(&prompt) {
                        Ok(line) => {
                            let _ = editor.add_history_entry(line.as_str());
                            Ok(Some(line))
                        }
                        // Ctrl-C drops the line being typed, as in a shell.
                        Err(rustyline::error::ReadlineError::Interrupted) => {
                            Ok(Some(String::new()))
                        }
                        Err(rustyline::error::ReadlineError::Eof) => break,
                        Err(e) => Err(std::io::Error::other(e)),
                    };
                    let failed = line.is_err();
                    if lines_tx.send(line).is_err() || failed {
                        break;
                    }
                }
            });
            (lines, Some(prompts_tx))
        }
    }
}

/// Runs the console over `input`, printing to `output`, until the input ends. A line that is
/// not UTF-8 text is refused like any bad line, and play goes on.
pub fn run(
    config: &ConsoleConfig,
    input: Input,
    mut output: impl Write,
) -> Result<(), ConsoleError> {
    let io = |source| ConsoleError::Io {
        path: "standard output".into(),
        source,
    };
    let (mut console, opening) = Console::start(config)?;
    for line in opening {
        writeln!(output, "{line}").map_err(io)?;
    }
    if config.prompt {
        writeln!(
            output,
            "type a move (e4) for the player to act, or NAME: COMMAND; \"help\" lists the commands; Ctrl-D ends"
        )
        .map_err(io)?;
    }
    let (lines, prompts) = spawn_reader(input);
    // Whether the line editor is showing a prompt and waiting for a line.
    let mut asked = false;
    loop {
        match &prompts {
            Some(prompts) if !asked => {
                output.flush().map_err(io)?;
                if prompts.send(console.prompt()).is_err() {
                    break;
                }
                asked = true;
            }
            Some(_) => {}
            None if config.prompt => {
                write!(output, "{}", console.prompt()).map_err(io)?;
                output.flush().map_err(io)?;
            }
            None => {}
        }
        let next = match console.next_due() {
            Some(at) => match lines.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    for out in console.fire() {
                        writeln!(output, "{out}").map_err(io)?;
                    }
                    output.flush().map_err(io)?;
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Ok(line) => line,
            },
            None => match lines.recv() {
                Err(_) => break,
                Ok(line) => line,
            },
        };
        asked = false;
        let line = next.map_err(|source| ConsoleError::Io {
            path: "standard input".into(),
            source,
        })?;
        let printed = match line {
            Some(line) => console.line(&line),
            None => vec!["error: that line is not UTF-8 text; nothing was done".to_string()],
        };
        for out in printed {
            writeln!(output, "{out}").map_err(io)?;
        }
        output.flush().map_err(io)?;
    }
    Ok(())
}

/// Writes match `id` of the database `db` as an animated GIF to `out`; what was written, in
/// words.
pub fn run_replay(db: &std::path::Path, id: i64, out: &std::path::Path) -> Result<String, String> {
    let url = db.to_str().filter(|d| crate::store::is_postgres_url(d));
    if url.is_none() && !db.exists() {
        return Err(format!("there is no database at {}", db.display()));
    }
    let store = crate::store::Store::open(db).map_err(|e| e.to_string())?;
    let table = Table::new(store);
    let views = table.replay_views(id).map_err(|e| e.to_string())?;
    let gif = crate::render::render_replay(&views);
    std::fs::write(out, &gif).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(format!(
        "Match #{id}: {} frames, {} KB, written to {}.",
        views.len(),
        gif.len().div_ceil(1024),
        out.display()
    ))
}
