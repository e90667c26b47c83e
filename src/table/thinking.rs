//! The computer's thinking, never on the table's thread nor on the async runtime: a loop on the
//! runtime finds the computer's turns ([`Table::computer_turns`]) whenever the table changes
//! (and every few seconds besides), and hands each to a pool of threads of its own, which copy
//! the position from the table, think within the level's time limit, wait out a short pause so
//! the move reads like a player's, and send the decision back through the table as a keyed
//! request ([`Table::computer_decides`]). The threads run at a lower priority than the rest of
//! the process, so a person's request never waits for the computer's thinking.
//!
//! Nothing of the thinking is stored: after a restart the loop finds the same turns and thinks
//! again, and a decision sent twice is applied once.

use super::computers::{ComputerTurn, Task, decide};
use super::{CallError, Table, TableError, TableHandle};
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How the computer thinks here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThinkingConfig {
    /// Threads that think (each search uses one).
    pub threads: usize,
    /// The least time between finding a turn and taking it, so a reply reads like a player's.
    pub pause: Duration,
    /// How often the loop looks for turns when nothing told it to.
    pub poll: Duration,
}

impl Default for ThinkingConfig {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        ThinkingConfig {
            threads: cores.saturating_sub(1).max(1),
            pause: Duration::from_millis(1500),
            poll: Duration::from_secs(2),
        }
    }
}

/// The least time between two looks for turns: a look reads every computer match on the
/// table's thread, so a burst of changes (each telling the loop) costs one look, not one each.
const LOOK_GAP: Duration = Duration::from_millis(200);

/// A turn that was thought about, and whether what the computer decided was taken (or found
/// out of date, which is as good); a turn that failed is not tried again at that version.
type Done = (ComputerTurn, bool);

/// Starts the loop and its threads; they end when the table stops.
pub fn spawn(table: TableHandle, config: ThinkingConfig) -> tokio::task::JoinHandle<()> {
    let (jobs, queue) = mpsc::channel::<ComputerTurn>();
    let queue = Arc::new(Mutex::new(queue));
    let (done_tx, done_rx) = tokio::sync::mpsc::unbounded_channel::<Done>();
    for n in 0..config.threads.max(1) {
        let (table, queue, done) = (table.clone(), queue.clone(), done_tx.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("deckmate-think-{n}"))
            .spawn(move || thinker(table, queue, done, config.pause));
        if let Err(e) = spawned {
            tracing::error!(error = %e, "a thinking thread could not start");
        }
    }
    tokio::spawn(run(table, jobs, done_rx, config.poll))
}

async fn run(
    table: TableHandle,
    jobs: mpsc::Sender<ComputerTurn>,
    mut done: tokio::sync::mpsc::UnboundedReceiver<Done>,
    poll: Duration,
) {
    let told = table.turns();
    // Turns handed to a thread and not yet back, and turns that failed (not tried again).
    let mut busy: HashSet<ComputerTurn> = HashSet::new();
    let mut failed: HashSet<ComputerTurn> = HashSet::new();
    let mut looked = tokio::time::Instant::now();
    loop {
        // Turns that came back meanwhile free their seats for the look.
        while let Ok((turn, ok)) = done.try_recv() {
            finished(&mut busy, &mut failed, turn, ok);
        }
        looked = tokio::time::Instant::now().max(looked + LOOK_GAP);
        tokio::time::sleep_until(looked).await;
        match table.call_quietly(|t| t.computer_turns()).await {
            Ok(Ok(turns)) => {
                for turn in turns {
                    if busy.contains(&turn) || failed.contains(&turn) {
                        continue;
                    }
                    busy.insert(turn.clone());
                    if jobs.send(turn).is_err() {
                        return;
                    }
                }
            }
            Ok(Err(e)) => {
                tracing::error!(error = %e, "the computer could not look for its turns");
            }
            Err(CallError::Panicked) => {}
            Err(CallError::Stopped) => return,
        }
        tokio::select! {
            _ = told.notified() => {}
            _ = tokio::time::sleep(poll) => {}
            back = done.recv() => match back {
                Some((turn, ok)) => finished(&mut busy, &mut failed, turn, ok),
                None => return,
            },
        }
    }
}

/// A turn came back from its thread: its seat is free; one that failed is not tried again at
/// that version.
fn finished(
    busy: &mut HashSet<ComputerTurn>,
    failed: &mut HashSet<ComputerTurn>,
    turn: ComputerTurn,
    ok: bool,
) {
    busy.remove(&turn);
    if !ok {
        // Bounded: a failure is a bug, logged; forget old ones eventually.
        if failed.len() > 10_000 {
            failed.clear();
        }
        failed.insert(turn);
    }
}

/// One thinking thread: takes turns from `queue` until the loop ends.
fn thinker(
    table: TableHandle,
    queue: Arc<Mutex<mpsc::Receiver<ComputerTurn>>>,
    done: tokio::sync::mpsc::UnboundedSender<Done>,
    pause: Duration,
) {
    lower_priority();
    loop {
        let turn = match queue.lock() {
            Ok(queue) => match queue.recv() {
                Ok(turn) => turn,
                Err(_) => return,
            },
            Err(_) => return,
        };
        let ok = match catch_unwind(AssertUnwindSafe(|| take_turn(&table, &turn, pause))) {
            Ok(Ok(())) => true,
            Ok(Err(TurnError::Stopped)) => return,
            Ok(Err(TurnError::Failed(e))) => {
                tracing::error!(match_id = turn.match_id, seat = turn.seat.0, error = %e, "the computer's decision was refused; it does not try again at this version");
                false
            }
            Err(payload) => {
                tracing::error!(
                    match_id = turn.match_id,
                    panic = super::handle::panic_text(&*payload),
                    "the computer's thinking panicked; it does not try again at this version"
                );
                false
            }
        };
        if done.send((turn, ok)).is_err() {
            return;
        }
    }
}

enum TurnError {
    Stopped,
    Failed(TableError),
}

/// Thinks about `turn` and sends what the computer decided; Ok when it was taken or the match
/// moved on meanwhile.
fn take_turn(table: &TableHandle, turn: &ComputerTurn, pause: Duration) -> Result<(), TurnError> {
    let started = Instant::now();
    let wanted = turn.clone();
    let thinking = match table.call_blocking(move |t| t.computer_position(&wanted)) {
        Ok(Ok(Some(thinking))) => thinking,
        Ok(Ok(None)) => return Ok(()),
        Ok(Err(e)) => return Err(TurnError::Failed(e)),
        Err(CallError::Stopped) => return Err(TurnError::Stopped),
        Err(CallError::Panicked) => {
            return Err(TurnError::Failed(TableError::Internal(
                "reading the computer's position".into(),
            )));
        }
    };
    let deadline = started + turn.level.time_limit();
    let stop = || Instant::now() >= deadline;
    let seed = turn.seed();
    let (action, chances) = match turn.task {
        Task::Act => match thinking
            .game
            .computer_thought(turn.seat, turn.level, seed, &stop)
        {
            Some((action, chances)) => (Some(action), chances),
            None => return Ok(()),
        },
        Task::AnswerDraw => (None, thinking.game.computer_chances(turn.seat, seed)),
    };
    let Some(decision) = decide(turn, &thinking, action, chances) else {
        return Ok(());
    };
    if let Some(rest) = (started + pause).checked_duration_since(Instant::now()) {
        std::thread::sleep(rest);
    }
    let sent = turn.clone();
    match table.call_blocking(move |t: &mut Table| t.computer_decides(&sent, &decision)) {
        Ok(Ok(_)) => Ok(()),
        // Someone acted first, or the match ended: the loop looks again.
        Ok(Err(TableError::Stale(_) | TableError::Over { .. } | TableError::Aborted(_))) => Ok(()),
        Ok(Err(e)) => Err(TurnError::Failed(e)),
        Err(CallError::Stopped) => Err(TurnError::Stopped),
        Err(CallError::Panicked) => Err(TurnError::Failed(TableError::Internal(
            "the computer's decision".into(),
        ))),
    }
}

/// Lowers this thread's scheduling priority (Linux: a thread's own nice value), so thinking
/// yields to the table's thread and the runtime.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority with PRIO_PROCESS and a thread id changes only that thread's nice
        // value; it reads and writes no memory of ours.
        let result = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 10) };
        if result != 0 {
            tracing::debug!("a thinking thread keeps its priority");
        }
    }
}
