//! An arena's journal: every finished game is appended to a file as it ends, so a run that is
//! stopped (a killed process, a machine switched off) starts again where it was with the same
//! command. The first line names the arena; a journal written for another one is refused. The
//! number of games is not part of that name, so a run may be lengthened later; nor is the
//! build, so a journal is for one build of the computer's play: a changed search wants a new
//! file.

use super::{ArenaConfig, Played};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
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
        "deckmate arena {} rules={} players={} a={} b={} seed={} options=[{}] movetime={}ms",
        config.kind.name(),
        config.kind.rules(),
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
    /// below `config.games`. The file is locked while the journal is open, so two runs cannot
    /// share one. Only the last line may lack its line end: that is a write cut short, and it
    /// is dropped (its game is played again); any other line that does not read is an error.
    pub fn open(path: &Path, config: &ArenaConfig) -> Result<(Journal, Earlier), String> {
        let shown = path.display();
        let cannot = |e: std::io::Error| format!("cannot use {shown}: {e}");
        let expected = header(config);
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(cannot)?;
        file.try_lock().map_err(|e| match e {
            std::fs::TryLockError::WouldBlock => {
                format!("{shown} is the journal of an arena that is still running")
            }
            std::fs::TryLockError::Error(e) => cannot(e),
        })?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(cannot)?;
        let mut lines = bytes.split_inclusive(|&b| b == b'\n').peekable();
        let mut earlier = Vec::new();
        let mut keep = 0u64;
        let mut fresh = true;
        if let Some(first) = lines.next() {
            let text = String::from_utf8_lossy(first);
            match text.strip_suffix('\n') {
                Some(line) if line == expected => {
                    fresh = false;
                    keep = first.len() as u64;
                }
                // The header itself cut short: the journal is begun again.
                None if expected.starts_with(&*text) => {}
                _ => {
                    return Err(format!(
                        "{shown} is the journal of another arena:\n  it holds: {:?}\n  \
                         this one:  {expected:?}",
                        text.trim_end_matches('\n')
                    ));
                }
            }
        }
        let mut seen = vec![false; config.games];
        let mut number = 1;
        while let Some(line) = lines.next() {
            number += 1;
            let text = String::from_utf8_lossy(line);
            match text.strip_suffix('\n').map(parse_line) {
                Some(Some(game)) => {
                    if let Some(seen) = seen.get_mut(game.0)
                        && !*seen
                    {
                        *seen = true;
                        earlier.push(game);
                    }
                    keep += line.len() as u64;
                }
                None if lines.peek().is_none() => {}
                _ => {
                    return Err(format!(
                        "{shown}, line {number}: not a game's result: {:?}",
                        text.trim_end_matches('\n')
                    ));
                }
            }
        }
        // A line cut short is cut off, so the next game starts a line of its own.
        file.set_len(keep).map_err(cannot)?;
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

    /// Appends `line` and waits for it to reach the disk; a write that fails part-way is
    /// taken back, so the file never holds half a line followed by more.
    fn append(&self, line: &str) -> Result<(), String> {
        let mut file = self
            .file
            .lock()
            .map_err(|_| format!("{} is no longer writable", self.path.display()))?;
        let end = file
            .seek(SeekFrom::End(0))
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))?;
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|e| {
                let _ = file.set_len(end);
                format!("cannot write {}: {e}", self.path.display())
            })
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
