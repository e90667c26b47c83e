//! The computer's thinking, never on the table's thread nor on the async runtime: a loop on the
//! runtime finds the computer's turns ([`Table::computer_turns`]) whenever the table changes
//! (and every few seconds besides), and hands each to a pool of threads of its own, which copy
//! the position from the table and think within the level's time limit. The loop then waits
//! out what is left of a short pause since it found the turn, so the move reads like a
//! player's (without holding a thread), and sends the decision through the table as a keyed
//! request ([`Table::computer_decides`]). The threads run at a lower priority than the rest of
//! the process, so a person's request never waits for the computer's thinking.
//!
//! Nothing of the thinking is stored: after a restart the loop finds the same turns and thinks
//! again, and a decision sent twice is applied once.

use super::computers::{ComputerTurn, Decision, Task, decide};
use super::{CallError, Table, TableError, TableHandle};
use std::collections::{HashMap, HashSet};
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

/// What a thinking thread sends back to the loop.
enum Back {
    /// The computer decided: the loop takes it once the pause since the turn was found is over.
    Decided(ComputerTurn, Decision),
    /// Nothing to take (the match moved on); the seat is free again.
    Nothing(ComputerTurn),
    /// Its thinking failed (a bug, logged): a random legal action is taken instead, so the
    /// match never waits on the computer for good.
    Stuck(ComputerTurn),
    /// It failed: a bug, logged; the turn is not tried again at this version.
    Failed(ComputerTurn),
}

/// Starts the loop and its threads; they end when the table stops.
pub fn spawn(
    table: TableHandle,
    config: ThinkingConfig,
    serves: Serves,
) -> tokio::task::JoinHandle<()> {
    let (jobs, queue) = mpsc::channel::<ComputerTurn>();
    let queue = Arc::new(Mutex::new(queue));
    let (back_tx, back_rx) = tokio::sync::mpsc::unbounded_channel::<Back>();
    // Mixed into every search's seed, so a reply cannot be worked out ahead from the match
    // alone; exactly-once does not need the same seed again after a restart (the key does it).
    let secret = crate::engine::GameRng::from_seed(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id()),
    )
    .next_u64();
    for n in 0..config.threads.max(1) {
        let (table, queue, back) = (table.clone(), queue.clone(), back_tx.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("deckmate-think-{n}"))
            .spawn(move || thinker(table, queue, back, secret));
        if let Err(e) = spawned {
            tracing::error!(error = %e, "a thinking thread could not start");
        }
    }
    tokio::spawn(run(table, jobs, back_tx, back_rx, config, serves))
}

/// Which servers' computer matches this process thinks for, by server id: several processes
/// on one database each take their own servers (the bot's shards), so no two think about
/// one turn.
pub type Serves = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// Every server's: one process serves them all.
pub fn everywhere() -> Serves {
    Arc::new(|_| true)
}

async fn run(
    table: TableHandle,
    jobs: mpsc::Sender<ComputerTurn>,
    back_tx: tokio::sync::mpsc::UnboundedSender<Back>,
    mut back: tokio::sync::mpsc::UnboundedReceiver<Back>,
    config: ThinkingConfig,
    serves: Serves,
) {
    let told = table.turns();
    // Turns handed out and not yet finished (with when each was found), and turns that
    // failed (not tried again at that version).
    let mut busy: HashMap<ComputerTurn, tokio::time::Instant> = HashMap::new();
    let mut failed: HashSet<ComputerTurn> = HashSet::new();
    let mut looked = tokio::time::Instant::now();
    loop {
        while let Ok(came) = back.try_recv() {
            came_back(&table, &back_tx, &mut busy, &mut failed, came, config.pause);
        }
        looked = tokio::time::Instant::now().max(looked + LOOK_GAP);
        tokio::time::sleep_until(looked).await;
        match table.call_quietly(|t| t.computer_turns()).await {
            Ok(Ok(turns)) => {
                for turn in turns.into_iter().filter(|t| serves(&t.guild)) {
                    if busy.contains_key(&turn) || failed.contains(&turn) {
                        continue;
                    }
                    busy.insert(turn.clone(), tokio::time::Instant::now());
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
            _ = tokio::time::sleep(config.poll) => {}
            came = back.recv() => match came {
                Some(came) => came_back(&table, &back_tx, &mut busy, &mut failed, came, config.pause),
                None => return,
            },
        }
    }
}

/// A thinking thread's answer: a decision is taken after the pause, on a task of its own (the
/// seat stays busy until then); a failure is remembered.
fn came_back(
    table: &TableHandle,
    back: &tokio::sync::mpsc::UnboundedSender<Back>,
    busy: &mut HashMap<ComputerTurn, tokio::time::Instant>,
    failed: &mut HashSet<ComputerTurn>,
    came: Back,
    pause: Duration,
) {
    match came {
        Back::Decided(turn, decision) => {
            let found = busy
                .get(&turn)
                .copied()
                .unwrap_or_else(tokio::time::Instant::now);
            let (table, back) = (table.clone(), back.clone());
            tokio::spawn(async move {
                tokio::time::sleep_until(found + pause).await;
                let sent = turn.clone();
                let taken = table
                    .call(move |t: &mut Table| take(t, &sent, decision))
                    .await;
                let _ = back.send(match taken {
                    Ok(true) => Back::Nothing(turn),
                    Ok(false) | Err(CallError::Panicked) => Back::Failed(turn),
                    Err(CallError::Stopped) => return,
                });
            });
        }
        Back::Stuck(turn) => {
            let (table, back) = (table.clone(), back.clone());
            tokio::spawn(async move {
                let sent = turn.clone();
                let taken = table.call(move |t: &mut Table| unstick(t, &sent)).await;
                let _ = back.send(match taken {
                    Ok(true) => Back::Nothing(turn),
                    Ok(false) | Err(CallError::Panicked) => Back::Failed(turn),
                    Err(CallError::Stopped) => return,
                });
            });
        }
        Back::Nothing(turn) => {
            busy.remove(&turn);
        }
        Back::Failed(turn) => {
            busy.remove(&turn);
            // Bounded: a failure is a bug, logged; forget old ones eventually.
            if failed.len() > 10_000 {
                failed.clear();
            }
            failed.insert(turn);
        }
    }
}

/// Takes `decision` at `turn` on the table's thread; false when it failed for good (logged).
/// An action the game refuses (a bug) is replaced by a random legal one, so the match never
/// waits for the computer forever; a failure to store is tried again at the next look.
fn take(table: &mut Table, turn: &ComputerTurn, decision: Decision) -> bool {
    match table.computer_decides(turn, &decision) {
        Ok(_) => true,
        // Someone acted first, or the match ended: the loop looks again.
        Err(TableError::Stale(_) | TableError::Over { .. } | TableError::Aborted(_)) => true,
        Err(TableError::Storage(e)) => {
            tracing::warn!(match_id = turn.match_id, error = %e, "the computer's decision could not be stored; it is tried again");
            true
        }
        Err(e)
            if !matches!(
                decision,
                Decision::Play(_) | Decision::PlayAndOfferDraw(_) | Decision::PlayOfferDue(_)
            ) =>
        {
            tracing::error!(match_id = turn.match_id, seat = turn.seat.0, error = %e, "the computer's decision was refused; it does not try again at this version");
            false
        }
        Err(e) => {
            tracing::error!(match_id = turn.match_id, seat = turn.seat.0, error = %e, "the computer's move was refused; it plays a random legal action instead");
            fall_back(table, turn)
        }
    }
}

/// What the computer does when its thinking failed at `turn`: it declines a draw it was
/// asked about, or plays a random legal action. False when that failed too, or there was
/// nothing to play (logged): the turn is not tried again at this version.
pub(super) fn unstick(table: &mut Table, turn: &ComputerTurn) -> bool {
    let done = match turn.task {
        Task::AnswerDraw => table
            .computer_decides(turn, &Decision::DeclineDraw)
            .map(|_| true),
        Task::Act => table.computer_fallback(turn).map(|played| played.is_some()),
    };
    settled(
        done,
        turn,
        "the computer could not take a turn its thinking failed at",
    )
}

/// A random legal action at `turn` in place of the computer's own (see
/// [`Table::computer_fallback`]); false when that failed too (logged).
fn fall_back(table: &mut Table, turn: &ComputerTurn) -> bool {
    let done = table.computer_fallback(turn).map(|_| true);
    settled(done, turn, "the computer's random action was refused too")
}

/// Whether a stand-in for the computer's decision at `turn` is over with: done, or moot (the
/// match moved on) or to be tried again (a storage failure). Any other failure is logged as
/// `what`, and the turn is not tried again at this version.
fn settled(done: Result<bool, TableError>, turn: &ComputerTurn, what: &str) -> bool {
    match done {
        Ok(done) => done,
        Err(
            TableError::Stale(_)
            | TableError::Over { .. }
            | TableError::Aborted(_)
            | TableError::Storage(_),
        ) => true,
        Err(e) => {
            tracing::error!(match_id = turn.match_id, error = %e, "{what}; it does not try again at this version");
            false
        }
    }
}

/// One thinking thread: takes turns from `queue` until the loop ends.
fn thinker(
    table: TableHandle,
    queue: Arc<Mutex<mpsc::Receiver<ComputerTurn>>>,
    back: tokio::sync::mpsc::UnboundedSender<Back>,
    secret: u64,
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
        let came = match catch_unwind(AssertUnwindSafe(|| think(&table, &turn, secret))) {
            Ok(Ok(Some(decision))) => Back::Decided(turn, decision),
            Ok(Ok(None)) => Back::Nothing(turn),
            Ok(Err(TurnError::Stopped)) => return,
            Ok(Err(TurnError::Failed(why))) => {
                tracing::error!(match_id = turn.match_id, seat = turn.seat.0, error = %why, "the computer could not think; it plays a random legal action instead");
                Back::Stuck(turn)
            }
            Err(payload) => {
                tracing::error!(
                    match_id = turn.match_id,
                    panic = super::handle::panic_text(&*payload),
                    "the computer's thinking panicked; it plays a random legal action instead"
                );
                Back::Stuck(turn)
            }
        };
        if back.send(came).is_err() {
            return;
        }
    }
}

pub(super) enum TurnError {
    Stopped,
    Failed(String),
}

/// Thinks about `turn`: what the computer decides, None when the match moved on meanwhile
/// (or its position could not be read this time: the loop finds the turn again).
pub(super) fn think(
    table: &TableHandle,
    turn: &ComputerTurn,
    secret: u64,
) -> Result<Option<Decision>, TurnError> {
    let started = Instant::now();
    let wanted = turn.clone();
    let thinking = match table.call_blocking(move |t| t.computer_position(&wanted)) {
        Ok(Ok(Some(thinking))) => thinking,
        Ok(Ok(None)) => return Ok(None),
        // A passing failure to read: the turn is found again at the next look.
        Ok(Err(TableError::Storage(e))) => {
            tracing::warn!(match_id = turn.match_id, error = %e, "the computer could not read its position; it tries again");
            return Ok(None);
        }
        Ok(Err(e)) => return Err(TurnError::Failed(e.to_string())),
        Err(CallError::Stopped) => return Err(TurnError::Stopped),
        Err(CallError::Panicked) => {
            return Err(TurnError::Failed(
                "reading the computer's position panicked".into(),
            ));
        }
    };
    let deadline = started + turn.level.time_limit();
    let stop = || Instant::now() >= deadline;
    let seed = turn.seed() ^ secret;
    let (action, chances) = match turn.task {
        Task::Act => match thinking
            .game
            .computer_thought(turn.seat, turn.level, seed, &stop)
        {
            Some((action, chances)) => (Some(action), chances),
            // The game says the seat must act and offers it nothing: a bug.
            None => {
                return Err(TurnError::Failed(
                    "the seat to act has no legal action".into(),
                ));
            }
        },
        Task::AnswerDraw => (None, thinking.game.computer_chances(turn.seat, seed)),
    };
    Ok(decide(turn, &thinking, action, chances))
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
