//! The bot's log lines, caught during a test: a tokio runtime whose threads all log to one
//! buffer, so tests running side by side in this binary never mix their lines. The lines are
//! formatted as the bot formats them but NOT passed through its redacting writer: a secret in
//! an event shows up here. Also a database file for a test, and the check that no line holds
//! a secret.

use super::bot::BOT_TOKEN;
use std::cell::RefCell;
use std::io::{self, Write};
use std::sync::{Arc, Mutex};
use tracing::dispatcher::{self, DefaultGuard, Dispatch};
use tracing_subscriber::EnvFilter;

thread_local! {
    static GUARD: RefCell<Option<DefaultGuard>> = const { RefCell::new(None) };
}

/// What was logged.
#[derive(Clone, Default)]
pub struct Logs(Arc<Mutex<Vec<u8>>>);

impl Logs {
    pub fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The lines containing every one of `words`.
    pub fn with(&self, words: &[&str]) -> Vec<String> {
        self.lines()
            .into_iter()
            .filter(|l| words.iter().all(|w| l.contains(w)))
            .collect()
    }

    /// Waits (up to 10 s) for a line containing every one of `words`.
    pub async fn wait_for(&self, words: &[&str]) -> String {
        self.wait_for_lines(words, 1).await.remove(0)
    }

    /// Waits (up to 10 s) until `count` lines contain every one of `words`; returns them all.
    pub async fn wait_for_lines(&self, words: &[&str], count: usize) -> Vec<String> {
        for _ in 0..1000 {
            let found = self.with(words);
            if found.len() >= count {
                return found;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!(
            "fewer than {count} log lines with {words:?}; logged:\n{}",
            self.lines().join("\n")
        );
    }
}

impl Write for Logs {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A runtime whose worker and blocking threads log at `filter` (RUST_LOG's syntax) to the
/// returned [`Logs`]; the caller's thread does too while the guard lives (for `block_on`).
pub fn runtime_with_logs(filter: &str) -> (tokio::runtime::Runtime, Logs, DefaultGuard) {
    let logs = Logs::default();
    let sink = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::new(filter))
        .with_writer(move || sink.clone())
        .finish();
    let dispatch = Dispatch::new(subscriber);
    let for_threads = dispatch.clone();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .on_thread_start(move || {
            let guard = dispatcher::set_default(&for_threads);
            GUARD.with(|g| *g.borrow_mut() = Some(guard));
        })
        .on_thread_stop(|| {
            GUARD.with(|g| g.borrow_mut().take());
        })
        .build()
        .unwrap();
    let guard = dispatcher::set_default(&dispatch);
    (runtime, logs, guard)
}

/// A database file for one test, removed (with its WAL files) afterwards.
pub struct TempDb(pub std::path::PathBuf);

impl TempDb {
    pub fn new(name: &str) -> TempDb {
        let path =
            std::env::temp_dir().join(format!("deckmate-e2e-{name}-{}.db", std::process::id()));
        let db = TempDb(path);
        db.remove();
        db
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut file = self.0.clone().into_os_string();
            file.push(suffix);
            let _ = std::fs::remove_file(file);
        }
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        self.remove();
    }
}

/// No log line holds the bot token or an interaction token (the fake issues `token-<id>`).
pub fn assert_no_secret(logs: &Logs) {
    let lines = logs.lines();
    assert!(!lines.is_empty(), "something was logged");
    for line in lines {
        assert!(
            !line.contains(BOT_TOKEN) && !line.contains("token-"),
            "a secret in the log: {line}"
        );
    }
}
