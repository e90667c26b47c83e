//! Live games: loading a match costs the same at its tenth action and its thousandth.
//!
//! A bounded cache keeps the games of recently played matches in memory, each tagged with the
//! stored version it reflects, so a request on a live match replays nothing. A match that is
//! not in the cache (or has moved on, perhaps in another process) starts from its latest
//! snapshot and replays only the actions after it; without a usable snapshot (none yet, another
//! rules revision, unreadable, or not matching the log) it replays its whole log. The log stays
//! the truth.
//!
//! A snapshot carries a digest of what it claims to summarise: its match, its number of
//! actions, its rules revision, the log's last action it took in, and its own state text. A
//! snapshot whose digest does not match the match and the log as stored (one copied from
//! another match, damaged, or left behind by an older log) is not used.

use super::TableError;
use crate::engine::{GameRng, Seat};
use crate::games::AnyGame;
use crate::store::{MatchId, Snapshot, Store, StoredAction, StoredMatch};
use std::collections::HashMap;

/// How many matches the cache keeps; the least recently used one leaves first.
pub const CACHE_CAPACITY: usize = 512;

/// A game with the random source as its actions left it (the next action continues it).
#[derive(Clone)]
pub(super) struct Live {
    pub game: AnyGame,
    pub rng: GameRng,
}

/// The state of a match after `plies` actions, as a snapshot stores it.
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    game: AnyGame,
    rng: GameRng,
}

/// A stored snapshot's state written again by this version (None if it does not read): the
/// same text as stored while the games' stored forms are unchanged.
#[cfg(test)]
pub(super) fn resaved(state: &str) -> Option<String> {
    let saved: Saved = serde_json::from_str(state).ok()?;
    serde_json::to_string(&saved).ok()
}

/// Match `id`'s game as its whole log replays it, written as a snapshot stores it.
#[cfg(test)]
pub(super) fn replayed_state(store: &Store, id: MatchId) -> Result<String, TableError> {
    let full = store.load(id)?;
    let live = replay(&full, None, &full.actions)?;
    let saved = SavedRef {
        game: &live.game,
        rng: &live.rng,
    };
    Ok(serde_json::to_string(&saved).expect("game states serialise"))
}

pub(super) struct Cache {
    entries: HashMap<MatchId, Entry>,
    capacity: usize,
    clock: u64,
}

struct Entry {
    version: u64,
    plies: u64,
    live: Live,
    used: u64,
}

impl Cache {
    pub fn new(capacity: usize) -> Self {
        Cache {
            entries: HashMap::new(),
            capacity: capacity.max(1),
            clock: 0,
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The live game of match `id` at this version, if the cache has it.
    fn get(&mut self, id: MatchId, version: u64, plies: u64) -> Option<Live> {
        self.clock += 1;
        let clock = self.clock;
        let entry = self.entries.get_mut(&id)?;
        if entry.version != version || entry.plies != plies {
            return None;
        }
        entry.used = clock;
        Some(entry.live.clone())
    }

    pub fn put(&mut self, id: MatchId, version: u64, plies: u64, live: Live) {
        self.clock += 1;
        if !self.entries.contains_key(&id)
            && self.entries.len() >= self.capacity
            && let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(&id, _)| id)
        {
            self.entries.remove(&oldest);
        }
        self.entries.insert(
            id,
            Entry {
                version,
                plies,
                live,
                used: self.clock,
            },
        );
    }

    pub fn forget(&mut self, id: MatchId) {
        self.entries.remove(&id);
    }
}

/// The snapshot to store for match `id` after `plies` actions, the last of them `last`.
pub(super) fn snapshot(
    live: &Live,
    id: MatchId,
    plies: u64,
    rules: u32,
    last: Option<(Seat, &str)>,
) -> Snapshot {
    let saved = SavedRef {
        game: &live.game,
        rng: &live.rng,
    };
    let state = serde_json::to_string(&saved).expect("game states serialise");
    Snapshot {
        plies,
        rules,
        digest: Some(digest(id, plies, rules, last, &state)),
        state,
    }
}

/// The digest a snapshot of match `id` after `plies` actions (the last of them `last`) with
/// this state text carries.
pub(super) fn digest(
    id: MatchId,
    plies: u64,
    rules: u32,
    last: Option<(Seat, &str)>,
    state: &str,
) -> String {
    let mut hasher = crc32fast::Hasher::new();
    let (seat, text) = last.map_or((-1, ""), |(seat, text)| (i32::from(seat.0), text));
    let head = format!("{id}\n{plies}\n{rules}\n{seat}\n{}\n", text.len());
    hasher.update(head.as_bytes());
    hasher.update(text.as_bytes());
    hasher.update(state.as_bytes());
    format!("crc32:{:08x}", hasher.finalize())
}

#[derive(serde::Serialize)]
struct SavedRef<'a> {
    game: &'a AnyGame,
    rng: &'a GameRng,
}

/// Match `id` as stored (without its log) and its live game: from the cache, else from its
/// snapshot and the actions after it, else by replaying the whole log. The match and the
/// actions replayed are read together, so the game always matches the version returned, even
/// while another process changes the match.
pub(super) fn load(
    store: &Store,
    cache: &mut Cache,
    id: MatchId,
) -> Result<(StoredMatch, Live), TableError> {
    let head = store.load_head(id)?;
    if let Some(live) = cache.get(id, head.version, head.plies) {
        return Ok((head, live));
    }
    let (mut stored, live) = match from_snapshot(store, &head)? {
        Some(found) => found,
        None => {
            let full = store.load(id)?;
            let live = replay(&full, None, &full.actions)?;
            (full, live)
        }
    };
    stored.actions.clear();
    stored.first_ply = stored.plies;
    cache.put(id, stored.version, stored.plies, live.clone());
    Ok((stored, live))
}

/// The match read with the actions after its snapshot, and its game from the snapshot and
/// those actions, when the snapshot can be used.
fn from_snapshot(
    store: &Store,
    head: &StoredMatch,
) -> Result<Option<(StoredMatch, Live)>, TableError> {
    let Some(snapshot) = store.snapshot(head.id)? else {
        return Ok(None);
    };
    if snapshot.rules != head.rules || snapshot.plies > head.plies {
        return Ok(None);
    }
    let Some(claimed) = &snapshot.digest else {
        return Ok(None);
    };
    // The log from the action the snapshot says it took in last.
    let from = snapshot.plies.saturating_sub(1);
    let mut tail = store.load_from(head.id, from)?;
    if tail.first_ply != from {
        return Ok(None);
    }
    let last = match snapshot.plies {
        0 => None,
        _ => match tail.actions.first() {
            Some(action) => Some((action.seat, action.text.as_str())),
            None => return Ok(None),
        },
    };
    let expected = digest(
        head.id,
        snapshot.plies,
        snapshot.rules,
        last,
        &snapshot.state,
    );
    if *claimed != expected {
        tracing::warn!(
            match_id = head.id,
            plies = snapshot.plies,
            "a snapshot does not match the match's log; the log is replayed"
        );
        return Ok(None);
    }
    if snapshot.plies > 0 {
        tail.actions.remove(0);
        tail.first_ply = snapshot.plies;
    }
    let Ok(saved) = serde_json::from_str::<Saved>(&snapshot.state) else {
        return Ok(None);
    };
    if saved.game.kind() != head.game {
        return Ok(None);
    }
    let start = Live {
        game: saved.game,
        rng: saved.rng,
    };
    // A snapshot whose tail does not replay is not trusted: the whole log decides.
    match replay(&tail, Some(start), &tail.actions) {
        Ok(live) => Ok(Some((tail, live))),
        Err(_) => Ok(None),
    }
}

/// Replays `actions` (the ones after `first_ply`) onto `start`, or onto the match's set-up
/// state when `start` is None.
pub(super) fn replay(
    stored: &StoredMatch,
    start: Option<Live>,
    actions: &[StoredAction],
) -> Result<Live, TableError> {
    let corrupt = |detail: String| TableError::Corrupt {
        id: stored.id,
        detail,
    };
    let mut live = match start {
        Some(live) => live,
        None => {
            let mut rng = GameRng::from_seed(stored.seed);
            let (_, options) = super::clocks::split_options(&stored.options)?;
            let game = stored
                .game
                .start_under(&options, stored.players.len(), &mut rng, stored.rules)
                .map_err(|e| corrupt(format!("setup fails: {e}")))?;
            Live { game, rng }
        }
    };
    for (i, action) in actions.iter().enumerate() {
        live.game
            .replay(action.seat, &action.text, &mut live.rng)
            .map_err(|e| {
                corrupt(format!(
                    "stored action {} (\"{}\") cannot be replayed: {e}",
                    stored.first_ply as usize + i + 1,
                    action.text
                ))
            })?;
    }
    Ok(live)
}
