//! Interactions Discord delivers again. After a RESUME (and now and then besides) the gateway
//! may send an event twice; an interaction answered once cannot be answered again (Discord
//! refuses with 40060, "Interaction has already been acknowledged"). The bot keeps the ids of
//! the interactions it took lately and drops one it sees again before it is acknowledged.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

/// How many interaction ids are remembered: Discord replays a RESUME's missed events within
/// minutes, far fewer than this many interactions apart.
pub const REMEMBERED: usize = 4096;

/// The ids of the last [`REMEMBERED`] (or `capacity`) interactions taken, oldest first out.
pub struct Recent {
    capacity: usize,
    seen: Mutex<Seen>,
}

#[derive(Default)]
struct Seen {
    ids: HashSet<u64>,
    order: VecDeque<u64>,
}

impl Default for Recent {
    fn default() -> Self {
        Recent::with_capacity(REMEMBERED)
    }
}

impl Recent {
    /// A set that remembers the last `capacity` ids (at least one).
    pub fn with_capacity(capacity: usize) -> Self {
        Recent {
            capacity: capacity.max(1),
            seen: Mutex::default(),
        }
    }

    /// Takes interaction `id`: true the first time, false when it was taken lately (a
    /// redelivery, to drop). Two deliveries at once: exactly one is first.
    pub fn first_time(&self, id: u64) -> bool {
        let mut seen = self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !seen.ids.insert(id) {
            return false;
        }
        seen.order.push_back(id);
        while seen.order.len() > self.capacity {
            if let Some(oldest) = seen.order.pop_front() {
                seen.ids.remove(&oldest);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests;
