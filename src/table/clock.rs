//! Where the table's time comes from: a [`Clock`] it is given. The bot uses the system's clock;
//! tests, console scripts and benchmarks use a [`SimClock`] that only moves when told, so weeks
//! of slow play run in milliseconds.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// Seconds since the Unix epoch.
pub type Instant = i64;

pub const MINUTE: i64 = 60;
pub const HOUR: i64 = 60 * MINUTE;
pub const DAY: i64 = 24 * HOUR;

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

/// A span of time in words: "3 days", "1 day 4 hours", "5 hours", "20 minutes", "now".
pub fn span(seconds: i64) -> String {
    let seconds = seconds.max(0);
    let (days, hours, minutes) = (seconds / DAY, seconds % DAY / HOUR, seconds % HOUR / MINUTE);
    let unit = |n: i64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (days, hours, minutes) {
        (0, 0, 0) if seconds > 0 => unit(seconds, "second"),
        (0, 0, 0) => "now".into(),
        (0, 0, m) => unit(m, "minute"),
        (0, h, 0) => unit(h, "hour"),
        (0, h, m) => format!("{} {}", unit(h, "hour"), unit(m, "minute")),
        (d, 0, _) => unit(d, "day"),
        (d, h, _) => format!("{} {}", unit(d, "day"), unit(h, "hour")),
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

    #[test]
    fn spans_read_as_players_say_them() {
        assert_eq!(span(3 * DAY), "3 days");
        assert_eq!(span(DAY + 4 * HOUR + 59), "1 day 4 hours");
        assert_eq!(span(5 * HOUR), "5 hours");
        assert_eq!(span(HOUR + 20 * MINUTE), "1 hour 20 minutes");
        assert_eq!(span(45), "45 seconds");
        assert_eq!(span(-3), "now");
    }
}
