//! The console and time: the scheduler's deadlines fired on the real clock, or on a
//! simulated one that `wait 30h` moves; what they did, as lines; and the slow-play commands
//! (reminders, quiet hours, claim, nudge, give, vacation).

use super::Console;
use crate::engine::echo;
use crate::store::{Player, Settings, VACATION_DAYS, Zone};
use crate::table::clock::{Clock, span};
use crate::table::time_control::read_duration;
use crate::table::{Fired, Request, TableError};
use std::time::{Duration, Instant};

impl Console {
    /// When the scheduler next has something to do, on the real clock (a simulated clock
    /// moves only with `wait`).
    pub fn next_due(&self) -> Option<Instant> {
        if self.sim.is_some() {
            return None;
        }
        let due = self.table.next_deadline_of(self.id).ok().flatten()?;
        let wait = (due - self.table.now()).max(0) as u64;
        Some(Instant::now() + Duration::from_secs(wait))
    }

    /// Fires what the console's match has due now (never another match's deadlines, even on
    /// a shared database); returns the lines to print: reminders, and what a clock running out
    /// or the game's own timer did.
    pub fn fire(&mut self) -> Vec<String> {
        let (mut lines, trouble) = self.fire_and_report();
        if let Some(e) = trouble {
            lines.push(format!("error: {e}"));
        }
        lines
    }

    /// [`Console::fire`], with what kept a deadline from firing apart from the lines.
    fn fire_and_report(&mut self) -> (Vec<String>, Option<TableError>) {
        let firing = self.table.fire_due_of(self.id, 1_000);
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
                // The console has no threads to archive.
                Fired::Archive { .. } => {}
                Fired::RoundReminder {
                    league,
                    round,
                    games,
                    ..
                } => lines.push(format!(
                    "league {}: round {round} closes in a day; {} games still open",
                    league.new.name,
                    games.len()
                )),
                Fired::League {
                    league,
                    closed,
                    started,
                } => {
                    let name = &league.new.name;
                    lines.extend(closed.iter().map(|l| format!("league {name}: {l}")));
                    if let Some(started) = started {
                        lines.push(format!("league {name}: round {} started", started.round));
                    }
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
        (lines, firing.trouble)
    }

    /// `wait 30h`: moves the simulated clock on, firing each deadline at its time.
    pub(super) fn wait(&mut self, text: &str) -> Result<Vec<String>, String> {
        let Some(clock) = self.sim.clone() else {
            return Err(
                "wait moves the simulated clock; start the console with --clock simulated".into(),
            );
        };
        let seconds = read_duration(text)?;
        let until = clock.now() + seconds;
        let mut lines = Vec::new();
        let store_time = |console: &mut Console, now| {
            console
                .table
                .store()
                .set_console_clock(console.id, now)
                .map_err(|e| e.to_string())
        };
        while let Some(due) = self
            .table
            .next_deadline_of(self.id)
            .map_err(|e| e.to_string())?
        {
            if due > until {
                break;
            }
            clock.set(due);
            let (fired, trouble) = self.fire_and_report();
            lines.extend(fired);
            store_time(self, due)?;
            if let Some(e) = trouble {
                // The deadline is still pending: say why, rather than try it again and again.
                lines.push(format!("error: {e}; the clock stopped where it fell due"));
                return Ok(lines);
            }
        }
        clock.set(until);
        store_time(self, until)?;
        lines.push(format!("({} later)", span(seconds)));
        Ok(lines)
    }
}

/// Why a slow-play command did nothing: the table's refusal, or the console's own words.
pub(super) enum Refusal {
    Table(TableError),
    Said(String),
}

impl From<String> for Refusal {
    fn from(why: String) -> Self {
        Refusal::Said(why)
    }
}

impl From<&str> for Refusal {
    fn from(why: &str) -> Self {
        Refusal::Said(why.to_string())
    }
}

impl From<TableError> for Refusal {
    fn from(e: TableError) -> Self {
        Refusal::Table(e)
    }
}

impl From<crate::store::StoreError> for Refusal {
    fn from(e: crate::store::StoreError) -> Self {
        Refusal::Said(e.to_string())
    }
}

impl Console {
    /// `reminders on|off`, `quiet 22-7 [+2|Europe/Paris]|off`, `claim`, `nudge`, `give 1d`, and
    /// `vacation 3` / `vacation end` / `vacation` (what is left this year), for `player`.
    pub(super) fn slow_play(
        &mut self,
        verb: &str,
        rest: &str,
        player: &Player,
        request: Request,
    ) -> Result<Vec<String>, Refusal> {
        let id = self.id;
        match verb {
            "reminders" | "quiet" => {
                let store = self.table.store();
                let mut settings = store.settings(player.id)?;
                let said = if verb == "reminders" {
                    settings.reminders = match rest.to_ascii_lowercase().as_str() {
                        "on" => true,
                        "off" => false,
                        _ => return Err("say reminders on or reminders off".into()),
                    };
                    format!("{}: reminders {}", player.name, rest.to_ascii_lowercase())
                } else if rest.eq_ignore_ascii_case("off") {
                    settings.quiet = None;
                    format!("{}: no quiet hours", player.name)
                } else {
                    let (quiet, zone) = quiet_hours(rest)?;
                    settings.quiet = Some(quiet);
                    let said = format!(
                        "{}: quiet from {:02}:{:02} to {:02}:{:02} in {zone}",
                        player.name,
                        quiet.0 / 60,
                        quiet.0 % 60,
                        quiet.1 / 60,
                        quiet.1 % 60,
                    );
                    settings.zone = zone;
                    said
                };
                store.set_settings(player.id, &settings)?;
                Ok(vec![said])
            }
            "claim" => {
                let update = self.table.claim_win(id, player.id, request)?;
                Ok(self.after_change(&update))
            }
            "nudge" => {
                let waiting = self.table.nudge(id, player.id)?;
                let names: Vec<&str> = waiting.iter().map(|p| p.name.as_str()).collect();
                Ok(vec![format!(
                    "nudge: {}, {} is waiting for your move in match #{id}",
                    names.join(", "),
                    player.name
                )])
            }
            "give" => {
                let seconds = read_duration(rest)
                    .map_err(|why| format!("say how much time, for example give 1d: {why}"))?;
                let update = self.table.give_time(id, player.id, request, seconds)?;
                Ok(self.after_change(&update))
            }
            _ => self.vacation(rest, player),
        }
    }

    fn vacation(&mut self, rest: &str, player: &Player) -> Result<Vec<String>, Refusal> {
        let away = match rest.to_ascii_lowercase().as_str() {
            "" => {
                let now = self.table.now();
                let store = self.table.store();
                let (used, year) = store.vacation_days_used(player.id, now)?;
                let on = match store.vacation(player.id, now)? {
                    Some(v) => format!("on vacation for {} more", span(v.ends_at - now)),
                    None => "not on vacation".into(),
                };
                return Ok(vec![format!(
                    "{}: {on}; {} of {VACATION_DAYS} vacation days left in {year}",
                    player.name,
                    (VACATION_DAYS - used).max(0)
                )]);
            }
            "end" => self.table.end_vacation(player.id)?,
            days => {
                let days: i64 = days.parse().map_err(|_| {
                    format!(
                        "say vacation 3 (days), vacation end, or vacation alone (not \"{}\")",
                        echo(rest)
                    )
                })?;
                self.table.start_vacation(player.id, days)?
            }
        };
        let mut lines = Vec::new();
        for update in &away.matches {
            for line in &update.public {
                lines.push(format!("match #{}: {line}", update.match_id));
            }
        }
        Ok(lines)
    }
}

/// Reads quiet hours with an optional time zone: "22-7", "22:30-07:00 +2",
/// "22-7 Europe/Paris"; no zone is UTC.
pub(super) fn quiet_hours(text: &str) -> Result<((u16, u16), Zone), String> {
    let mut words = text.split_whitespace();
    let quiet = Settings::read_quiet(words.next().unwrap_or_default())?;
    let zone = match words.next() {
        Some(zone) => Settings::read_zone(zone)?,
        None => Zone::default(),
    };
    match words.next() {
        Some(extra) => Err(format!(
            "unexpected \"{}\" after the time zone",
            echo(extra)
        )),
        None => Ok((quiet, zone)),
    }
}
