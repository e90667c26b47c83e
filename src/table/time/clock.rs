//! Where the table's time comes from: a [`Clock`] it is given. The bot uses the system's clock;
//! tests, console scripts and benchmarks use a [`SimClock`] that only moves when told, so weeks
//! of slow play run in milliseconds.

pub use crate::timing::units::{DAY, HOUR, Instant, MINUTE, plain_time, span, time_left};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// The time now, in whole seconds since the Unix epoch.
pub trait Clock: Send + Sync {
    fn now(&self) -> Instant;
}

/// The system's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    }
}

/// A clock that stands still until it is moved; clones share one time.
#[derive(Clone, Debug)]
pub struct SimClock(Arc<AtomicI64>);

impl SimClock {
    /// A clock showing `start`.
    pub fn at(start: Instant) -> SimClock {
        SimClock(Arc::new(AtomicI64::new(start)))
    }

    /// Moves the clock on by `seconds` (never back).
    pub fn advance(&self, seconds: i64) {
        self.0.fetch_add(seconds.max(0), Ordering::SeqCst);
    }

    /// Sets the clock to `at`, if that is not earlier than it shows.
    pub fn set(&self, at: Instant) {
        self.0.fetch_max(at, Ordering::SeqCst);
    }
}

impl Clock for SimClock {
    fn now(&self) -> Instant {
        self.0.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simulated_clock_moves_only_forward_and_clones_share_it() {
        let clock = SimClock::at(1_000);
        let other = clock.clone();
        clock.advance(30 * HOUR);
        assert_eq!(other.now(), 1_000 + 30 * HOUR);
        clock.set(0);
        clock.advance(-5);
        assert_eq!(clock.now(), 1_000 + 30 * HOUR);
    }
}
