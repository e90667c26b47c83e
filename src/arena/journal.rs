//! An arena's journal: every finished game is appended to a file as it ends, so a run that is
//! stopped (a killed process, a machine switched off) starts again where it was with the same
//! command. The first line names the arena; a journal written for another one is refused. The
//! number of games is not part of that name, so a run may be lengthened later.

use super::{ArenaConfig, Played};
use std::fs::{File, OpenOptions};
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// An open journal, appended to from every worker.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

/// The games a journal already holds: game number, A's score and the thinking times.
pub type Earlier = Vec<(usize, Played)>;

/// What the first line of a journal for `config` says.
pub fn header(config: &ArenaConfig) -> String {
    let mut options: Vec<String> = config
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    options.sort();
    format!(
        "deckmate arena {} players={} a={} b={} seed={} options=[{}] movetime={}ms",
        config.kind.name(),
        config.seats,
        config.a,
        config.b,
        config.seed,
        options.join(","),
        config.movetime.as_millis()
    )
}

impl Journal {
    /// Opens (or creates) the journal at `path` for `config`, with the games it already holds
    /// below `config.games`. A line cut short by a stop mid-write is the last one, and is
    /// dropped (its game is played again); any other line that does not read is an error.
    pub fn open(path: &Path, config: &ArenaConfig) -> Result<(Journal, Earlier), String> {
        let shown = path.display();
        let expected = header(config);
        let mut earlier = Vec::new();
        let mut keep = 0u64;
        let mut fresh = true;
        match std::fs::read(path) {
            Ok(bytes) => {
                let mut lines = bytes.split_inclusive(|&b| b == b'\n').peekable();
                if let Some(first) = lines.next() {
                    fresh = false;
                    let text = String::from_utf8_lossy(first);
                    if text.trim_end_matches('\n') != expected {
                        return Err(format!(
                            "{shown} is the journal of another arena:\n  it holds: {}\n  \
                             this one:  {expected}",
                            crate::engine::echo(text.trim_end())
                        ));
                    }
                    keep += first.len() as u64;
                }
                let mut number = 1;
                while let Some(line) = lines.next() {
                    number += 1;
                    let last = lines.peek().is_none();
                    let text = String::from_utf8_lossy(line);
                    match text.strip_suffix('\n').and_then(parse_line) {
                        Some(game) => {
                            if game.0 < config.games && !earlier.iter().any(|(g, _)| *g == game.0) {
                                earlier.push(game);
                            }
                            keep += line.len() as u64;
                        }
                        None if last => {}
                        None => {
                            return Err(format!(
                                "{shown}, line {number}: not a game's result: {}",
                                crate::engine::echo(text.trim_end())
                            ));
                        }
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot read {shown}: {e}")),
        }
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
        // A line cut short is cut off, so the next game starts a line of its own.
        file.set_len(keep)
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
        let journal = Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        };
        if fresh {
            journal.append(&format!("{expected}\n"))?;
        }
        Ok((journal, earlier))
    }

    /// Appends game `game`'s result; a game that could not be played is not kept, so it is
    /// played again next time.
    pub fn record(&self, game: usize, played: &Played) -> Result<(), String> {
        let (Ok(score), thinking) = played else {
            return Ok(());
        };
        let thinking: Vec<String> = thinking.iter().map(u64::to_string).collect();
        self.append(&format!(
            "game {game} score {score} thinking {}\n",
            thinking.join(",")
        ))
    }

    fn append(&self, line: &str) -> Result<(), String> {
        let mut file = self
            .file
            .lock()
            .map_err(|_| format!("{} is no longer writable", self.path.display()))?;
        file.seek(std::io::SeekFrom::End(0))
            .and_then(|_| file.write_all(line.as_bytes()))
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

/// `game N score S thinking T1,T2,...` (no times when no computer moved).
fn parse_line(line: &str) -> Option<(usize, Played)> {
    let mut words = line.split(' ');
    let (Some("game"), Some(game), Some("score"), Some(score), Some("thinking")) = (
        words.next(),
        words.next(),
        words.next(),
        words.next(),
        words.next(),
    ) else {
        return None;
    };
    let times = words.next().unwrap_or("");
    if words.next().is_some() {
        return None;
    }
    let score: f64 = score.parse().ok()?;
    if ![0.0, 0.5, 1.0].contains(&score) {
        return None;
    }
    let thinking = if times.is_empty() {
        vec![]
    } else {
        times
            .split(',')
            .map(|t| t.parse().ok())
            .collect::<Option<Vec<u64>>>()?
    };
    Some((game.parse().ok()?, (Ok(score), thinking)))
}
