//! The arena's chess engine contestant: a program spoken to over the Universal Chess Interface
//! (`uci:stockfish`, `uci:deckmate uci`), so deckmate's engine can be measured against an
//! outside one with both seen the same way. The arena keeps the game with its own rules; an
//! engine only ever hears `position startpos moves ...` and `go movetime N`, and answers with
//! `bestmove`. A silent, crashed or lying engine stops that game: the arena reports it as an
//! error, with the reason, and leaves it out of the score.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How an engine is started and set up: its command line (split at spaces) and the `setoption`
/// pairs sent before each game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciSpec {
    pub command: String,
    pub options: Vec<(String, String)>,
}

/// How long an engine may take beyond its move time before it is given up on.
const GRACE: Duration = Duration::from_secs(10);

/// A running engine.
pub struct UciEngine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    name: String,
}

impl UciEngine {
    /// Starts the engine, waits for `uciok`, sends the options and waits for `readyok`.
    pub fn start(spec: &UciSpec) -> Result<UciEngine, String> {
        let mut words = spec.command.split_whitespace();
        let program = words.next().ok_or("a UCI engine needs a command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let input = child.stdin.take().ok_or("the engine has no input")?;
        let output = child.stdout.take().ok_or("the engine has no output")?;
        let (send, lines) = channel();
        // A reader thread, so a silent engine cannot hold the arena: lines are waited for
        // with a timeout. It ends when the engine's output closes.
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UciEngine {
            child,
            input,
            lines,
            name: program.to_string(),
        };
        // An engine that is gone before it hears a word ended before uciok, whichever of
        // the write or the read notices first.
        if engine.send("uci").is_err() {
            return Err(format!("{program} ended before uciok"));
        }
        for line in engine.until("uciok", GRACE)? {
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_string();
            }
        }
        for (key, value) in &spec.options {
            engine.send(&format!("setoption name {key} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// The name the engine gave (`id name`), or its program.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Tells the engine a new game begins.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// The engine's move, in UCI notation, after `moves` from the start, thinking `movetime`.
    pub fn best_move(&mut self, moves: &[String], movetime: Duration) -> Result<String, String> {
        let position = match moves.is_empty() {
            true => "position startpos".to_string(),
            false => format!("position startpos moves {}", moves.join(" ")),
        };
        self.send(&position)?;
        self.send(&format!("go movetime {}", movetime.as_millis()))?;
        let lines = self.until("bestmove", movetime + GRACE)?;
        let last = lines.last().map(String::as_str).unwrap_or_default();
        last.split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| format!("{} said {last:?} with no move", self.name))
    }

    fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.until("readyok", GRACE).map(|_| ())
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("{} stopped listening: {e}", self.name))
    }

    /// The lines up to and including the first that starts with `word`.
    fn until(&mut self, word: &str, within: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.split_whitespace().next() == Some(word);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{} gave no {word} in {within:?}", self.name));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{} ended before {word}", self.name));
                }
            }
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        // A moment to leave by itself, then it is stopped.
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
