//! `deckmate uci`: plain chess over the Universal Chess Interface, so chess programs
//! (cutechess-cli, python-chess, lichess-bot, GUIs) can play the engine of
//! [`crate::games::chess::search`].
//!
//! The protocol loop reads commands from its input while a search thinks on a thread of its
//! own, so `stop`, `isready` and `quit` are answered at once. A line it cannot use is answered
//! with `info string ...` and the loop goes on: nothing from the input can stop it but `quit`
//! or the end of the input.

use crate::engine::Level;
use crate::games::chess::search::{self, Limits, MAX_DEPTH, Report, Score};
use crate::games::chess::{Move, Position};
use std::io::{self, BufRead, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

/// The longest line read; the rest of a longer line is skipped.
const MAX_LINE: usize = 64 * 1024;
/// The longest time a `go` may ask for, in milliseconds (about 11 days).
const MAX_MILLIS: u64 = 1_000_000_000;
/// What a move's time allocation leaves for the answer to travel.
const OVERHEAD_MS: u64 = 30;

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub movetime: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: u64,
    pub binc: u64,
    pub movestogo: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
}

impl Go {
    /// Reads the words after `go`. Unknown words and unreadable numbers are reported and
    /// skipped; numbers are bounded (a negative time counts as none left).
    pub fn parse(words: &[&str]) -> (Go, Vec<String>) {
        let mut go = Go::default();
        let mut complaints = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let word = words[i];
            let number = |i: usize| -> Option<u64> {
                let text = words.get(i + 1)?;
                match text.parse::<i64>() {
                    Ok(n) => Some((n.max(0) as u64).min(MAX_MILLIS)),
                    Err(_) => None,
                }
            };
            let takes_number = matches!(
                word,
                "movetime"
                    | "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "movestogo"
                    | "depth"
                    | "nodes"
                    | "mate"
            );
            if takes_number {
                match number(i) {
                    Some(n) => match word {
                        "movetime" => go.movetime = Some(n),
                        "wtime" => go.wtime = Some(n),
                        "btime" => go.btime = Some(n),
                        "winc" => go.winc = n,
                        "binc" => go.binc = n,
                        "movestogo" => go.movestogo = Some(n.max(1)),
                        "depth" => go.depth = Some((n as u32).clamp(1, MAX_DEPTH)),
                        "nodes" => go.nodes = Some(n.max(1)),
                        // Mate in n: searched like any other position, to the end.
                        _ => {}
                    },
                    None => complaints.push(format!("go {word} needs a number")),
                }
                i += 2;
                continue;
            }
            match word {
                "infinite" | "ponder" => go.infinite = true,
                "searchmoves" => {
                    complaints.push("go searchmoves is not supported; searching every move".into())
                }
                other => {
                    if Move::parse_uci(other).is_none() {
                        complaints.push(format!("go: unknown word {}", shown(other)));
                    }
                }
            }
            i += 1;
        }
        (go, complaints)
    }

    /// How long to think with `white` to move, or None to think until `stop` (or the depth or
    /// node limit). Given a clock: the time left over the moves to go (30 when not said) plus
    /// most of the increment, never more than half the time left, less a margin.
    pub fn budget(&self, white: bool, level: Level) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        if let Some(ms) = self.movetime {
            return Some(Duration::from_millis(
                ms.saturating_sub(OVERHEAD_MS / 3).max(1),
            ));
        }
        let (left, inc) = if white {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        match left {
            Some(left) => {
                let share = left / self.movestogo.unwrap_or(30) + inc * 4 / 5;
                let cap = (left / 2).saturating_sub(OVERHEAD_MS);
                Some(Duration::from_millis(share.min(cap).max(5)))
            }
            None if self.depth.is_some() || self.nodes.is_some() => None,
            None => Some(level.time_limit()),
        }
    }
}

/// The engine's state between commands.
struct Engine {
    pos: Position,
    /// Repetition keys since the last capture or pawn move, the current position's last.
    history: Vec<u64>,
    level: Level,
}

impl Engine {
    fn new() -> Engine {
        let pos = Position::default();
        Engine {
            pos,
            history: vec![pos.repetition_key()],
            level: Level::Hard,
        }
    }

    /// `position startpos|fen <fields> [moves ...]`: the position, then as many of the moves
    /// as are legal; the first illegal move and those after it are refused (the position stays
    /// after the moves before it).
    fn set_position(&mut self, words: &[&str]) -> Vec<String> {
        let (base, rest) = match words.first() {
            Some(&"startpos") => (Ok(Position::default()), &words[1..]),
            Some(&"fen") => {
                let fields = words[1..]
                    .iter()
                    .take_while(|w| **w != "moves")
                    .take(6)
                    .count();
                let fen = words[1..1 + fields].join(" ");
                let rest = &words[1 + fields..];
                (
                    Position::from_fen(&fen).map_err(|e| format!("bad FEN {}: {e}", shown(&fen))),
                    rest,
                )
            }
            _ => (Err("position needs startpos or fen".to_string()), words),
        };
        let pos = match base {
            Ok(pos) => pos,
            Err(complaint) => return vec![format!("{complaint}; the position is unchanged")],
        };
        let moves = match rest.first() {
            None => &[][..],
            Some(&"moves") => &rest[1..],
            Some(other) => {
                return vec![format!(
                    "position: expected moves, got {}; the position is unchanged",
                    shown(other)
                )];
            }
        };
        self.pos = pos;
        self.history = vec![pos.repetition_key()];
        for text in moves {
            let mv = Move::parse_uci(text).filter(|&mv| self.pos.is_legal(mv));
            let Some(mv) = mv else {
                return vec![format!(
                    "illegal move {} in {}; the position is the one before it",
                    shown(text),
                    self.pos.fen()
                )];
            };
            let next = self.pos.play_unchecked(mv);
            if next.halfmoves() == 0 {
                self.history.clear();
            }
            self.history.push(next.repetition_key());
            self.pos = next;
        }
        Vec::new()
    }
}

/// A word from the input as shown back, shortened.
fn shown(text: &str) -> String {
    format!("\"{}\"", crate::engine::echo(text))
}

/// A running search: its stop flag and thread.
struct Thinking<'scope> {
    stop: &'scope AtomicBool,
    handle: ScopedJoinHandle<'scope, ()>,
}

/// Runs the UCI protocol: commands from `input`, answers to `output`, until `quit` or the end
/// of the input (a search still running is stopped and answered first).
pub fn run(input: impl BufRead + Send, output: impl Write + Send) -> io::Result<()> {
    let out = Mutex::new(output);
    // Searches run one at a time (a new one waits for the last to answer), so they share a
    // stop flag.
    let flag = AtomicBool::new(false);
    let mut input = input;
    thread::scope(|scope| {
        let mut engine = Engine::new();
        let mut thinking: Option<Thinking> = None;
        let mut serve = || -> io::Result<()> {
            while let Some(line) = read_line(&mut input)? {
                let words: Vec<&str> = line.split_whitespace().collect();
                let Some((&command, args)) = words.split_first() else {
                    continue;
                };
                if thinking.as_ref().is_some_and(|t| t.handle.is_finished()) {
                    finish(&mut thinking);
                }
                match command {
                    "uci" => say(
                        &out,
                        &[
                            "id name deckmate",
                            "id author the deckmate developers",
                            "option name Skill type combo default hard var easy var medium var hard",
                            "uciok",
                        ],
                    )?,
                    "isready" => say(&out, &["readyok"])?,
                    "ucinewgame" => {
                        stop(&mut thinking);
                        engine = Engine {
                            level: engine.level,
                            ..Engine::new()
                        };
                    }
                    "position" => {
                        stop(&mut thinking);
                        let complaints = engine.set_position(args);
                        tell(&out, &complaints)?;
                    }
                    "setoption" => {
                        let complaint = set_option(&mut engine, args);
                        tell(&out, &complaint.into_iter().collect::<Vec<_>>())?;
                    }
                    "go" => {
                        // A search still running is stopped and answers first.
                        stop(&mut thinking);
                        let (go, complaints) = Go::parse(args);
                        tell(&out, &complaints)?;
                        flag.store(false, Ordering::SeqCst);
                        thinking = Some(start_search(scope, &out, &flag, &engine, go));
                    }
                    "stop" => stop(&mut thinking),
                    "quit" => break,
                    "debug" | "register" | "ponderhit" => {}
                    other => tell(&out, &[format!("unknown command {}", shown(other))])?,
                }
            }
            Ok(())
        };
        // Also when reading or writing failed: a search left running would never be joined.
        let result = serve();
        stop(&mut thinking);
        result
    })
}

/// Reads one line (without its end), at most [`MAX_LINE`] bytes of it, with any bytes that
/// are not UTF-8 replaced. None at the end of the input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    let read = io::Read::take(&mut *input, MAX_LINE as u64).read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') && bytes.len() >= MAX_LINE {
        // Skip the rest of an overlong line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = io::Read::take(&mut *input, MAX_LINE as u64).read_until(b'\n', &mut rest)?;
            if n == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

fn say(out: &Mutex<impl Write>, lines: &[&str]) -> io::Result<()> {
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// Reports complaints as `info string` lines.
fn tell(out: &Mutex<impl Write>, complaints: &[String]) -> io::Result<()> {
    let lines: Vec<String> = complaints
        .iter()
        .map(|c| format!("info string {c}"))
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    say(out, &lines)
}

/// Stops the running search, if any, and waits for its `bestmove`.
fn stop(thinking: &mut Option<Thinking>) {
    if let Some(t) = thinking.as_ref() {
        t.stop.store(true, Ordering::SeqCst);
    }
    finish(thinking);
}

fn finish(thinking: &mut Option<Thinking>) {
    if let Some(t) = thinking.take() {
        let _ = t.handle.join();
    }
}

/// `setoption name Skill value easy|medium|hard`.
fn set_option(engine: &mut Engine, words: &[&str]) -> Option<String> {
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let name_at = lower.iter().position(|w| w == "name");
    let value_at = lower.iter().position(|w| w == "value");
    let (Some(n), Some(v)) = (name_at, value_at) else {
        return Some("setoption needs: name Skill value easy|medium|hard".into());
    };
    let name = lower.get(n + 1..v).map(|w| w.join(" ")).unwrap_or_default();
    if name != "skill" {
        return Some(format!("unknown option {}", shown(&name)));
    }
    let value = lower[v + 1..].join(" ");
    match value.parse::<Level>() {
        Ok(level) => {
            engine.level = level;
            None
        }
        Err(e) => Some(e),
    }
}

/// Starts thinking on a thread of its own; it prints `info` lines and then `bestmove`.
fn start_search<'scope, 'env, W: Write + Send>(
    scope: &'scope Scope<'scope, 'env>,
    out: &'scope Mutex<W>,
    flag: &'scope AtomicBool,
    engine: &Engine,
    go: Go,
) -> Thinking<'scope> {
    let pos = engine.pos;
    let history = engine.history.clone();
    let level = engine.level;
    let handle = scope.spawn(move || {
        let started = Instant::now();
        let budget = go.budget(pos.turn() == crate::games::chess::Color::White, level);
        let stop = || flag.load(Ordering::SeqCst) || budget.is_some_and(|b| started.elapsed() >= b);
        let best = think(&pos, &history, level, &go, &stop, &mut |report| {
            let _ = say(out, &[&info_line(report, started.elapsed())]);
        });
        if go.infinite {
            // The answer waits for `stop`, as the protocol asks.
            while !flag.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(2));
            }
        }
        let answer = match best {
            Some(mv) => format!("bestmove {mv}"),
            None => "bestmove 0000".to_string(),
        };
        let _ = say(out, &[&answer]);
    });
    Thinking { stop: flag, handle }
}

/// The move at `level`: `hard` searches as `go` allows, `medium` four plies at most, `easy`
/// plays [`search::choose`]'s easy move (seeded by the position, so it repeats itself).
fn think(
    pos: &Position,
    history: &[u64],
    level: Level,
    go: &Go,
    stop: &dyn Fn() -> bool,
    info: &mut dyn FnMut(&Report),
) -> Option<Move> {
    let limits = match level {
        Level::Easy => return search::choose(pos, history, level, pos.repetition_key(), stop),
        Level::Medium => Limits {
            depth: Some(
                go.depth
                    .unwrap_or(search::MEDIUM_DEPTH)
                    .min(search::MEDIUM_DEPTH),
            ),
            nodes: Some(
                go.nodes
                    .unwrap_or(search::MEDIUM_NODES)
                    .min(search::MEDIUM_NODES),
            ),
        },
        Level::Hard => Limits {
            depth: go.depth,
            nodes: go.nodes,
        },
    };
    search::search(pos, history, &limits, stop, info).map(|r| r.best)
}

/// `info depth 7 score cp 35 nodes 81234 nps 512000 time 158 pv e2e4 e7e5 ...`
pub fn info_line(report: &Report, elapsed: Duration) -> String {
    let score = match report.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let ms = elapsed.as_millis().max(1) as u64;
    let pv: Vec<String> = report.pv.iter().map(|m| m.uci()).collect();
    format!(
        "info depth {} score {score} nodes {} nps {} time {ms} pv {}",
        report.depth,
        report.nodes,
        report.nodes * 1000 / ms,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests;
