//! The console and time: the scheduler's deadlines fired on the real clock, or on a
//! simulated one that `wait 30h` moves; what they did, as lines; and quiet hours as typed.

use super::Console;
use crate::engine::echo;
use crate::store::Settings;
use crate::table::Fired;
use crate::table::clock::{Clock, span};
use crate::table::time_control::TimeControl;
use std::time::{Duration, Instant};

impl Console {
    /// When the scheduler next has something to do, on the real clock (a simulated clock
    /// moves only with `wait`).
    pub fn next_due(&self) -> Option<Instant> {
        if self.sim.is_some() {
            return None;
        }
        let due = self.table.next_deadline().ok().flatten()?;
        let wait = (due - self.table.now()).max(0) as u64;
        Some(Instant::now() + Duration::from_secs(wait))
    }

    /// Fires what the scheduler has due now; returns the lines to print: reminders, and
    /// what a clock running out or the game's own timer did.
    pub fn fire(&mut self) -> Vec<String> {
        let firing = self.table.fire_due(1_000);
        let mut lines = Vec::new();
        for done in firing.fired {
            match done {
                Fired::Reminder(r) => lines.push(format!(
                    "reminder: {}, {} left in match #{}",
                    r.player.name,
                    span(r.left),
                    r.match_id
                )),
                Fired::Changed(update) if update.match_id == self.id => {
                    lines.extend(self.after_change(&update));
                }
                Fired::TimeUp(up) => {
                    let names: Vec<&str> = up.opponents.iter().map(|p| p.name.as_str()).collect();
                    lines.push(format!(
                        "time up: {} in match #{}; {} may claim the win (claim), or wait",
                        up.player.name,
                        up.match_id,
                        names.join(", ")
                    ));
                }
                Fired::ChallengeExpired(c) => {
                    lines.push(format!("challenge #{} expired", c.id));
                }
                Fired::Changed(update) => {
                    for line in update.public.iter().chain(&update.result) {
                        lines.push(format!("match #{}: {line}", update.match_id));
                    }
                }
            }
        }
        if let Some(e) = firing.trouble {
            lines.push(format!("error: {e}"));
        }
        lines
    }

    /// `wait 30h`: moves the simulated clock on, firing each deadline at its time.
    pub(super) fn wait(&mut self, text: &str) -> Result<Vec<String>, String> {
        let Some(clock) = self.sim.clone() else {
            return Err(
                "wait moves the simulated clock; start the console with --clock simulated".into(),
            );
        };
        let seconds = TimeControl::parse(text)
            .ok()
            .and_then(|t| match t {
                TimeControl::PerMove { seconds } => Some(seconds),
                _ => None,
            })
            .ok_or_else(|| {
                format!(
                    "cannot read the time \"{}\": write it like 30h, 2d or 90m",
                    echo(text)
                )
            })?;
        let until = clock.now() + seconds;
        let mut lines = Vec::new();
        while let Some(due) = self.table.next_deadline().map_err(|e| e.to_string())? {
            if due > until {
                break;
            }
            clock.set(due);
            lines.extend(self.fire());
        }
        clock.set(until);
        lines.push(format!("({} later)", span(seconds)));
        Ok(lines)
    }
}

/// Reads quiet hours with an optional time zone: "22-7", "22:30-07:00 +2".
pub(super) fn quiet_hours(text: &str) -> Result<((u16, u16), i16), String> {
    let mut words = text.split_whitespace();
    let quiet = Settings::read_quiet(words.next().unwrap_or_default())?;
    let zone = match words.next() {
        Some(zone) => Settings::read_zone(zone)?,
        None => 0,
    };
    match words.next() {
        Some(extra) => Err(format!(
            "unexpected \"{}\" after the time zone",
            echo(extra)
        )),
        None => Ok((quiet, zone)),
    }
}
