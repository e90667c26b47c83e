//! The local console: plays real matches through the table service in a terminal, or from a
//! script on standard input. Each input line is `NAME: COMMAND`; see [`HELP`].

use crate::engine::{GameRng, Seat};
use crate::games::chess::{BoardView, Color};
use crate::games::chessatete::ChessATeteView;
use crate::games::echek::EchekView;
use crate::games::enprise::{EnPriseView, SquareView};
use crate::games::snipe::{self, SnipeView};
use crate::games::{AnyView, GameKind};
use crate::store::{MatchId, Place, Player, Store, StoreError};
use crate::table::{Table, TableError, Update};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use thiserror::Error;

pub const HELP: &str = "commands, one per line as NAME: COMMAND —
  move <action>   play an action (for example: alice: move e4)
  legal           list the actions you may take now
  view            show what you may see of the game
  board           show the board (and write its picture with --out)
  resign          resign (two-player games)
  draw offer|accept|decline
  history         list the actions so far
blank lines and lines starting with # are skipped";

#[derive(Clone, Debug)]
pub struct ConsoleConfig {
    pub game: GameKind,
    /// Players in seat order; may be empty when resuming with `match_id`.
    pub players: Vec<String>,
    pub seed: Option<u64>,
    pub options: Vec<(String, String)>,
    /// The database file; None keeps the match in memory.
    pub db: Option<PathBuf>,
    /// Where to write a numbered PNG of the board after every action.
    pub out: Option<PathBuf>,
    /// Resume this stored match instead of starting one.
    pub match_id: Option<MatchId>,
    /// Print a prompt before reading each line (on a terminal).
    pub prompt: bool,
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
    out: Option<PathBuf>,
    /// A running timer (En Prise Memory): when it ends, and the version it was set for.
    timer: Option<(Instant, u64)>,
}

impl Console {
    /// Opens the store and starts (or resumes) the match; returns the console and its opening
    /// lines.
    pub fn start(config: &ConsoleConfig) -> Result<(Console, Vec<String>), ConsoleError> {
        let store = match &config.db {
            Some(path) => Store::open(path)?,
            None => Store::open_in_memory()?,
        };
        let mut table = Table::new(store);
        if let Some(out) = &config.out {
            std::fs::create_dir_all(out).map_err(|source| ConsoleError::Io {
                path: out.display().to_string(),
                source,
            })?;
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
                if config.players.is_empty() {
                    return Err(ConsoleError::Usage(
                        "name the players with --players NAME,NAME".into(),
                    ));
                }
                let mut players = Vec::new();
                for name in &config.players {
                    let name = name.trim();
                    if name.is_empty() || name.contains(':') {
                        return Err(ConsoleError::Usage(format!(
                            "\"{name}\" cannot be a player name (empty, or contains ':')"
                        )));
                    }
                    players.push(table.store().local_player(name)?);
                }
                let seed = config.seed.unwrap_or_else(random_seed);
                let update = table.create(
                    config.game,
                    &config.options,
                    &players,
                    seed,
                    &Place::default(),
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
        if config.match_id.is_some() && !config.players.is_empty() {
            let stored: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
            let given: Vec<&str> = config.players.iter().map(|n| n.trim()).collect();
            if stored != given {
                return Err(ConsoleError::Usage(format!(
                    "match #{id} is played by {}, not {}",
                    stored.join(","),
                    given.join(",")
                )));
            }
        }
        let mut console = Console {
            table,
            id,
            players,
            out: config.out.clone(),
            timer: None,
        };
        console.note_timer(&update);
        let mut lines = vec![format!(
            "match #{id}: {} — {}",
            update.game.name(),
            seat_list(&update)
        )];
        lines.extend(status_lines(&update));
        Ok((console, lines))
    }

    pub fn match_id(&self) -> MatchId {
        self.id
    }

    /// When the running timer ends, if one runs.
    pub fn deadline(&self) -> Option<Instant> {
        self.timer.map(|(at, _)| at)
    }

    fn note_timer(&mut self, update: &Update) {
        self.timer = update.timeout.map(|seconds| {
            (
                Instant::now() + Duration::from_secs(u64::from(seconds)),
                update.version,
            )
        });
    }

    /// The timer has run out: the game's timeout actions are applied, unless the match moved
    /// on meanwhile. Returns the lines to print.
    pub fn expire(&mut self) -> Vec<String> {
        let Some((_, version)) = self.timer.take() else {
            return vec![];
        };
        match self.table.expire(self.id, version) {
            Ok(update) => {
                self.note_timer(&update);
                let mut lines = match self.write_png(&update) {
                    Ok(()) => vec![],
                    Err(e) => vec![format!("error: {e}")],
                };
                lines.extend(action_lines(&update));
                lines
            }
            Err(TableError::Stale(_)) => vec![],
            Err(e) => vec![format!("error: {e}")],
        }
    }

    /// Runs one input line; returns the lines to print. Errors come back as one `error:` line.
    pub fn line(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return vec![];
        }
        match self.command(line) {
            Ok(lines) => lines,
            Err(message) => vec![format!("error: {message}")],
        }
    }

    fn command(&mut self, line: &str) -> Result<Vec<String>, String> {
        let (name, command) = line.split_once(':').ok_or_else(|| {
            format!("expected NAME: COMMAND, got \"{line}\" (try \"alice: help\")")
        })?;
        let name = name.trim();
        let command = command.trim();
        let (verb, rest) = command
            .split_once(char::is_whitespace)
            .map_or((command, ""), |(v, r)| (v, r.trim()));
        if verb.eq_ignore_ascii_case("help") {
            return Ok(HELP.lines().map(str::to_string).collect());
        }
        let player = self
            .players
            .iter()
            .find(|p| p.name == name)
            .cloned()
            .ok_or_else(|| {
                let names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
                format!(
                    "{name} is not playing in match #{} (players: {})",
                    self.id,
                    names.join(", ")
                )
            })?;
        let err = |e: TableError| e.to_string();
        let id = self.id;
        match verb.to_ascii_lowercase().as_str() {
            "move" => {
                if rest.is_empty() {
                    return Err("say which action, for example: move e4".into());
                }
                let update = self.table.act(id, player.id, None, rest).map_err(err)?;
                self.note_timer(&update);
                self.write_png(&update)?;
                Ok(action_lines(&update))
            }
            "legal" => {
                let legal = self.table.legal(id, player.id).map_err(err)?;
                Ok(if legal.is_empty() {
                    vec!["legal: nothing to do now".to_string()]
                } else if legal.iter().any(|a| a.contains(',')) {
                    // Actions that list cards ("attack Fork with Knight, Knight, Peasant") would
                    // run together in one comma-separated line: one a line instead.
                    std::iter::once(format!("legal ({}):", legal.len()))
                        .chain(legal.iter().map(|a| format!("  {a}")))
                        .collect()
                } else {
                    vec![format!("legal ({}): {}", legal.len(), legal.join(", "))]
                })
            }
            "view" => {
                let view = self.table.view_for(id, Some(player.id)).map_err(err)?;
                Ok(text_view(&view))
            }
            "board" => {
                let update = self.table.show(id).map_err(err)?;
                self.write_png(&update)?;
                let mut lines = text_view(&update.public_view);
                lines.extend(status_lines(&update));
                Ok(lines)
            }
            "resign" => {
                let update = self.table.resign(id, player.id, None).map_err(err)?;
                Ok(action_lines(&update))
            }
            "draw" => {
                let update = match rest.to_ascii_lowercase().as_str() {
                    "offer" => self.table.offer_draw(id, player.id, None),
                    "accept" => self.table.accept_draw(id, player.id, None),
                    "decline" => self.table.decline_draw(id, player.id, None),
                    _ => return Err("say draw offer, draw accept or draw decline".into()),
                }
                .map_err(err)?;
                Ok(action_lines(&update))
            }
            "history" => {
                let history = self.table.history(id).map_err(err)?;
                if history.is_empty() {
                    return Ok(vec!["history: no actions yet".into()]);
                }
                Ok(history
                    .into_iter()
                    .map(|(n, who, text)| format!("{n:>3}. {who}: {text}"))
                    .collect())
            }
            other => Err(format!(
                "unknown command \"{other}\"; commands: move, legal, view, board, resign, draw, history, help"
            )),
        }
    }

    /// Writes `<out>/match-<id>-<version>.png` after an action.
    fn write_png(&self, update: &Update) -> Result<(), String> {
        let Some(out) = &self.out else {
            return Ok(());
        };
        let path = out.join(format!(
            "match-{}-{:04}.png",
            update.match_id, update.version
        ));
        std::fs::write(&path, &update.board_png)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
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
        .map(|(seat, player, view)| format!("{} ({})", player.name, seat_name(view, *seat)))
        .collect::<Vec<_>>()
        .join(" vs ")
}

fn seat_name(view: &AnyView, seat: Seat) -> String {
    match view {
        AnyView::Chess(_)
        | AnyView::Enthralling(_)
        | AnyView::Echek(_)
        | AnyView::Snipe(_)
        | AnyView::Chessatete(_) => if seat == Seat(0) { "White" } else { "Black" }.to_string(),
        AnyView::Enprise(_) => crate::games::enprise::colour(seat).to_string(),
    }
}

fn action_lines(update: &Update) -> Vec<String> {
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
    lines.extend(status_lines(update));
    lines
}

/// "to move: bob", or the `result:` line.
fn status_lines(update: &Update) -> Vec<String> {
    match &update.result {
        Some(result) => vec![format!("result: {result}")],
        None => {
            let names: Vec<&str> = update.to_act.iter().map(|(_, p)| p.name.as_str()).collect();
            vec![format!("to move: {}", names.join(", "))]
        }
    }
}

/// A view as text for the terminal.
pub fn text_view(view: &AnyView) -> Vec<String> {
    match view {
        AnyView::Chess(board) => text_board(board),
        AnyView::Enthralling(v) => {
            let mut lines = text_board(&v.board);
            lines.push("(* marks an enthralled piece)".into());
            lines
        }
        AnyView::Enprise(v) => text_enprise(v),
        AnyView::Echek(v) => text_echek(v),
        AnyView::Snipe(v) => text_snipe(v),
        AnyView::Chessatete(v) => text_chessatete(v),
    }
}

/// Both sides (Black first): board with its hit points, ongoing cards, counts, and the hand
/// for its owner; then the attack or damage under way, the last turn and what happens now.
fn text_chessatete(view: &ChessATeteView) -> Vec<String> {
    let mut lines = Vec::new();
    for side in view.sides.iter().rev() {
        lines.push(format!(
            "{} board ({} hit points): {}",
            side.color,
            side.board_hp,
            side.board.join(", ")
        ));
        if !side.ongoing.is_empty() {
            lines.push(format!("  in play: {}", side.ongoing.join(", ")));
        }
        lines.push(format!(
            "  hand {}, deck {}, graveyard {}{}",
            side.hand_size,
            side.deck_size,
            side.graveyard.len(),
            side.graveyard
                .last()
                .map_or(String::new(), |top| format!(" (top: {top})"))
        ));
        if let Some(hand) = &side.hand {
            lines.push(format!("  your hand: {}", hand.join(", ")));
        }
    }
    if let Some(attack) = &view.attack {
        lines.push(format!(
            "attack: {} (power {}) with {}",
            attack.combat,
            attack.power,
            attack.pieces.join(", ")
        ));
    }
    if !view.last.is_empty() {
        lines.push(format!("last: {}", view.last.join("; ")));
    }
    lines.push(view.status.clone());
    lines
}

/// The forest, rank 10 at the top, cards boxed by lines: pieces (upper case White, lower case
/// Black) over the space letters of the deck file; then kings, pieces to place, the unused cards
/// under the feather rule, the last turn and what happens now.
fn text_snipe(view: &SnipeView) -> Vec<String> {
    let size = view.spaces.len();
    let files: String = (0..size)
        .map(|x| {
            let sep = if x > 0 && x % 2 == 0 { "   " } else { " " };
            format!("{sep}{}", char::from(b'a' + x as u8))
        })
        .collect();
    let mut lines = vec![format!("    {files}")];
    for y in (0..size).rev() {
        let mut row = format!("{:>3} ", y + 1);
        for x in 0..size {
            if x > 0 && x % 2 == 0 {
                row.push_str(" |");
            }
            let piece = view
                .pieces
                .iter()
                .find(|(s, _)| s.x == x as i16 && s.y == y as i16);
            let c = match piece {
                Some((_, p)) if p.color == Color::White => p.role.letter(),
                Some((_, p)) => p.role.letter().to_ascii_lowercase(),
                None => view.spaces[y][x].letter(),
            };
            row.push(' ');
            row.push(c);
        }
        if y > 0 && y % 2 == 0 {
            // A line between rows of cards, crossing the card borders with +.
            let rule: String = row
                .chars()
                .enumerate()
                .map(|(i, c)| match c {
                    _ if i < 4 => ' ',
                    '|' => '+',
                    _ => '-',
                })
                .collect();
            lines.push(row);
            lines.push(rule);
        } else {
            lines.push(row);
        }
    }
    lines.push(
        "(K P White, k p Black; T tree, R turns a card 90 degrees, U 180, F flag, S feather)"
            .into(),
    );
    for king in &view.kings {
        lines.push(format!(
            "{} king on {}: {} free",
            king.color,
            snipe::square(king.at),
            king.free
        ));
    }
    for (color, left) in [Color::White, Color::Black].iter().zip(&view.to_place) {
        if !left.is_empty() {
            let letters: Vec<String> = left.iter().map(|r| r.letter().to_string()).collect();
            lines.push(format!("{color} to place: {}", letters.join(" ")));
        }
    }
    if view.options.feather {
        lines.push(format!("unused cards: {}", view.stock.join(", ")));
    }
    if let Some(last) = &view.last {
        lines.push(format!("last: {}", last.text));
    }
    lines.push(view.status.clone());
    lines
}

/// The area a window could still cover, pieces in it (upper case White, lower case Black), then
/// the supplies and each king's free neighbours.
fn text_echek(view: &EchekView) -> Vec<String> {
    let (lo, hi) = view.area;
    let mut lines = Vec::new();
    for y in (lo.y..=hi.y).rev() {
        let mut row = format!("{y:>3} |");
        for x in lo.x..=hi.x {
            let piece = view.pieces.iter().find(|(s, _)| s.x == x && s.y == y);
            row.push_str(&match piece {
                Some((_, p)) if p.color == Color::White => format!(" {}", p.role.letter()),
                Some((_, p)) => format!(" {}", p.role.letter().to_ascii_lowercase()),
                None => " .".to_string(),
            });
        }
        lines.push(row);
    }
    let xs: String = (lo.x..=hi.x).map(|x| format!("{x:>2}")).collect();
    lines.push(format!("    x{xs}"));
    lines.push("(upper case White, lower case Black; the area shown is where the 4x4 limit can still reach)".into());
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let supply: Vec<String> = view.supply[i]
            .iter()
            .map(|r| r.letter().to_string())
            .collect();
        let king = view.kings.iter().find(|k| k.color == color);
        lines.push(format!(
            "{color}: supply [{}]{}{}",
            supply.join(" "),
            king.map_or(String::new(), |k| format!(
                ", king on {} with {} free",
                k.at.xy(),
                k.free
            )),
            if view.swap_used[i] {
                ", rook swap used"
            } else {
                ""
            }
        ));
    }
    if let Some(last) = &view.last {
        lines.push(format!("last: {}", last.text));
    }
    lines.push(view.status.clone());
    lines
}

/// The growing board as a grid (x left to right, y top to bottom from high to low), then each
/// battleplan as the viewer may see it.
fn text_enprise(view: &EnPriseView) -> Vec<String> {
    let mut lines = Vec::new();
    let tag = |p: &crate::games::enprise::Piece| {
        let c = ['w', 'b', 'r', 'u'][p.owner.index() % 4];
        format!("{c}{}", p.role.letter())
    };
    let xs = view.squares.iter().map(|s| s.at.x);
    let ys = view.squares.iter().map(|s| s.at.y);
    if let (Some(x0), Some(x1), Some(y0), Some(y1)) =
        (xs.clone().min(), xs.max(), ys.clone().min(), ys.max())
    {
        let (lo, hi) = ((x0, y0), (x1, y1));
        for y in (lo.1..=hi.1).rev() {
            let mut row = format!("{y:>3} |");
            for x in lo.0..=hi.0 {
                let cell = view.squares.iter().find(|s| s.at.x == x && s.at.y == y);
                row.push_str(&match cell {
                    None => "   ".to_string(),
                    Some(SquareView { piece: None, .. }) => " ..".to_string(),
                    Some(SquareView { piece: Some(p), .. }) => format!(" {}", tag(p)),
                });
            }
            lines.push(row.trim_end().to_string());
        }
        let xs: String = (lo.0..=hi.0).map(|x| format!("{x:>3}")).collect();
        lines.push(format!("    x{xs}"));
        lines.push("(.. a vacant square; w b r u = White Black Red Blue)".into());
    } else {
        lines.push("the table is empty: the first card goes at 0,0".into());
    }
    for p in &view.players {
        let plan: Vec<String> = p
            .plan
            .cards
            .iter()
            .map(|c| c.map_or("?".to_string(), |r| r.letter().to_string()))
            .collect();
        let mut line = format!("{}: ", p.colour);
        if let Some(out) = &p.out {
            line.push_str(&format!("out ({out})"));
        } else {
            line.push_str(&format!(
                "plan [{}]{}",
                plan.join(" "),
                if p.king_in_hand { ", king in hand" } else { "" }
            ));
        }
        lines.push(line);
    }
    if let Some(last) = &view.last {
        lines.push(format!("last: {}", last.text));
    }
    lines.push(view.status.clone());
    lines
}

fn text_board(view: &BoardView) -> Vec<String> {
    let mut grid = vec![vec![". ".to_string(); 8]; 8];
    for placed in &view.pieces {
        let (f, r) = (placed.square.file() as usize, placed.square.rank() as usize);
        grid[r][f] = format!(
            "{}{}",
            placed.piece.fen_char(),
            if placed.marked { '*' } else { ' ' }
        );
    }
    let white = view.bottom == Color::White;
    let ranks: Vec<usize> = if white {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let files: Vec<usize> = if white {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let mut lines = Vec::new();
    for r in ranks {
        let row: String = files.iter().map(|&f| grid[r][f].as_str()).collect();
        lines.push(format!("{} | {}", r + 1, row.trim_end()));
    }
    let letters: String = files
        .iter()
        .map(|&f| format!("{} ", char::from(b'a' + f as u8)))
        .collect();
    lines.push(format!("    {}", letters.trim_end()));
    if let Some(last) = &view.last_move {
        lines.push(format!("last move: {}", last.san));
    }
    if let Some(sq) = view.check {
        lines.push(format!("check: the king on {sq} is attacked"));
    }
    lines.push(view.status.clone());
    lines
}

/// Runs the console over `input`, printing to `output`, until the input ends. Lines are read
/// on their own thread so that a running timer (En Prise Memory) fires while nobody types.
pub fn run(
    config: &ConsoleConfig,
    input: impl BufRead + Send + 'static,
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
        let first = console.players.first().map_or("NAME", |p| p.name.as_str());
        writeln!(
            output,
            "type \"{first}: help\" for the commands, or \"{first}: move e4\"; Ctrl-D ends; deckmate --help lists more"
        )
        .map_err(io)?;
    }
    let (lines_tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in input.lines() {
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    loop {
        if config.prompt {
            write!(output, "> ").map_err(io)?;
            output.flush().map_err(io)?;
        }
        let next = match console.deadline() {
            Some(at) => match lines.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    for out in console.expire() {
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
        let line = next.map_err(|source| ConsoleError::Io {
            path: "standard input".into(),
            source,
        })?;
        for out in console.line(&line) {
            writeln!(output, "{out}").map_err(io)?;
        }
        output.flush().map_err(io)?;
    }
    Ok(())
}
