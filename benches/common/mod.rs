//! Timing shared by the benches that print percentiles: the wall-clock time of each call, and
//! the same time less what the thread spent waiting for a core (the run-queue delay the kernel
//! counts in /proc/thread-self/schedstat). The cores are shared with other builds, so the
//! second figure shows what a call costs when it is not pushed off its core.

use std::time::{Duration, Instant};

/// This thread's total run-queue delay so far; None where the kernel does not report it.
fn run_delay() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// The times of repeated calls.
#[derive(Default)]
pub struct Timed {
    wall: Vec<Duration>,
    /// Wall time less the run-queue delay, when the kernel reports it.
    working: Vec<Duration>,
    /// Calls that waited for a core at all.
    waited: usize,
}

impl Timed {
    /// Times one call of `f`.
    pub fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let delay = run_delay();
        let started = Instant::now();
        let out = f();
        let wall = started.elapsed();
        if let (Some(before), Some(after)) = (delay, run_delay()) {
            let waited = after.saturating_sub(before);
            self.waited += usize::from(!waited.is_zero());
            self.working.push(wall.saturating_sub(waited));
        }
        self.wall.push(wall);
        out
    }

    /// Prints the wall-clock summary, then the one without run-queue waits.
    pub fn report(self, what: &str) {
        println!("{what}: wall {}", summary(self.wall));
        if !self.working.is_empty() {
            println!(
                "{:width$}  less waits for a core ({} calls waited): {}",
                "",
                self.waited,
                summary(self.working),
                width = what.len()
            );
        }
    }
}

/// Median, p99 and max of `samples`, as one line.
pub fn summary(mut samples: Vec<Duration>) -> String {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    format!(
        "median {:>9.3?}  p99 {:>9.3?}  max {:>9.3?}  ({} samples)",
        at(0.5),
        at(0.99),
        samples.last().unwrap(),
        samples.len()
    )
}
