//! Time controls for slow play, and each seat's clock under one. Pure: the time is passed in.
//!
//! - `none`: no clock.
//! - Per move (`3d`, `12h`): the same time for every move, reset after each (correspondence
//!   chess as lichess plays it).
//! - Bank (`10d+1d`, `10d+1d max 20d`): a reserve that runs down while the seat must act, plus a
//!   fixed time added after each move, never above the cap (the starting reserve unless given).
//!
//! A clock runs only while its seat must act; a seat asked to act again at once (a turn of
//! several steps) keeps its clock running: the move is over when the turn passes.

use super::units::{DAY, HOUR, Instant, MINUTE, span};
use crate::engine::echo;
use serde::{Deserialize, Serialize};

/// The most time an opponent may give at once.
pub const MAX_GIFT: i64 = 7 * DAY;

/// The shortest and longest time a control may give.
const SHORTEST: i64 = MINUTE;
const LONGEST: i64 = 60 * DAY;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControl {
    #[default]
    None,
    PerMove {
        seconds: i64,
    },
    Bank {
        reserve: i64,
        increment: i64,
        cap: i64,
    },
}

/// The seat whose turn it was before a change and is after it, in games where another seat
/// may answer inside a turn (see [`TimeControl::pass_turn`]); none elsewhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Owner {
    pub before: Option<usize>,
    pub after: Option<usize>,
}

/// One seat's clock: the time it has left, and since when it has been running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatClock {
    pub remaining: i64,
    pub running_since: Option<Instant>,
}

impl SeatClock {
    /// When this clock runs out, if it is running.
    pub fn deadline(&self) -> Option<Instant> {
        self.running_since.map(|since| since + self.remaining)
    }

    /// The time left at `now` (a held clock, running from a later time, has all it keeps).
    pub fn left(&self, now: Instant) -> i64 {
        match self.running_since {
            Some(since) => self.remaining - (now - since).max(0),
            None => self.remaining,
        }
    }
}

/// The longest time read at all (ten years); a time control and a gift have lower limits.
pub const LONGEST_DURATION: i64 = 3650 * DAY;

/// The units a duration is written in, largest first.
const UNITS: [(char, i64); 4] = [('d', DAY), ('h', HOUR), ('m', MINUTE), ('s', 1)];

/// Reads a duration, the one reader of times that players write: numbers each followed by a
/// unit (d, h, m or s), the largest first, each unit once: "30s", "90m", "1h30m", "2d3h",
/// "1d 12h". Case and spaces do not matter. Whole seconds, more than none and at most
/// [`LONGEST_DURATION`]; anything else is refused with the reason.
pub fn read_duration(text: &str) -> Result<i64, String> {
    let shown = echo(text);
    let bad = || format!("cannot read the time \"{shown}\": write it like 30s, 90m, 1h30m or 2d3h");
    let too_long = || {
        format!(
            "the time \"{shown}\" is too long: at most {} days",
            LONGEST_DURATION / DAY
        )
    };
    let known = |c: char| c.is_ascii_digit() || c.is_whitespace() || unit_at(c).is_some();
    if !text.chars().all(known) {
        return Err(bad());
    }
    let mut total = 0i64;
    let mut number: Option<i64> = None;
    // The units still allowed: each one after the last unit used.
    let mut next_unit = 0;
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        if let Some(digit) = c.to_digit(10) {
            let n = number.unwrap_or(0);
            // Past the longest time, the number can only be refused: stop before overflow.
            number = Some(if n > LONGEST_DURATION {
                n
            } else {
                n * 10 + i64::from(digit)
            });
            continue;
        }
        let Some(at) = unit_at(c) else {
            return Err(bad());
        };
        let Some(n) = number.take() else {
            return Err(format!(
                "cannot read the time \"{shown}\": put a number before each unit, like 2d3h"
            ));
        };
        if at < next_unit {
            return Err(format!(
                "cannot read the time \"{shown}\": write each unit once, the largest first, \
                 like 1d12h or 1h30m"
            ));
        }
        next_unit = at + 1;
        total = n
            .checked_mul(UNITS[at].1)
            .and_then(|part| total.checked_add(part))
            .filter(|&t| t <= LONGEST_DURATION)
            .ok_or_else(too_long)?;
    }
    match (number, total) {
        (Some(n), _) => Err(format!(
            "cannot read the time \"{shown}\": say the unit of {}, like {0}m or {0}h",
            n.min(LONGEST_DURATION)
        )),
        (None, 0) if next_unit == 0 => Err(bad()),
        (None, 0) => Err(format!(
            "the time \"{shown}\" is no time at all: write it like 30s, 90m or 2d3h"
        )),
        (None, total) => Ok(total),
    }
}

/// Where unit letter `c` (either case) is in [`UNITS`].
fn unit_at(c: char) -> Option<usize> {
    let lower = c.to_ascii_lowercase();
    UNITS.iter().position(|&(letter, _)| letter == lower)
}

/// "3d", "1d12h", "90m", "1m30s": the shortest text [`read_duration`] reads back.
pub fn short(seconds: i64) -> String {
    let mut text = String::new();
    let mut rest = seconds;
    for (letter, unit) in UNITS {
        if rest >= unit {
            text.push_str(&format!("{}{letter}", rest / unit));
            rest %= unit;
        }
    }
    text
}

fn within(seconds: i64, what: &str) -> Result<i64, String> {
    if (SHORTEST..=LONGEST).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!(
            "{what} must be between {} and {}, not {}",
            span(SHORTEST),
            span(LONGEST),
            span(seconds)
        ))
    }
}

impl TimeControl {
    /// Reads a time control: `none`, `3d` (per move), `10d+1d` or `10d+1d max 20d` (bank).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let text = text.trim().to_ascii_lowercase();
        if text.is_empty() || text == "none" || text == "-" {
            return Ok(TimeControl::None);
        }
        let (main, cap) = match text.split_once("max") {
            Some((main, cap)) => (main.trim(), Some(cap.trim())),
            None => (text.as_str(), None),
        };
        match main.split_once('+') {
            None => {
                if cap.is_some() {
                    return Err("a cap (max) goes with a bank: write 10d+1d max 20d".into());
                }
                Ok(TimeControl::PerMove {
                    seconds: within(read_duration(main)?, "the time for a move")?,
                })
            }
            Some((reserve, increment)) => {
                let reserve = within(read_duration(reserve)?, "the reserve")?;
                let increment = within(read_duration(increment)?, "the time added per move")?;
                let cap = match cap {
                    Some(cap) => within(read_duration(cap)?, "the cap")?,
                    None => reserve,
                };
                if cap < reserve {
                    return Err(format!(
                        "the cap ({}) is below the reserve ({})",
                        span(cap),
                        span(reserve)
                    ));
                }
                Ok(TimeControl::Bank {
                    reserve,
                    increment,
                    cap,
                })
            }
        }
    }

    /// The text [`TimeControl::parse`] reads back: "none", "3d", "10d+1d max20d".
    pub fn text(&self) -> String {
        match *self {
            TimeControl::None => "none".into(),
            TimeControl::PerMove { seconds } => short(seconds),
            TimeControl::Bank {
                reserve,
                increment,
                cap,
            } if cap == reserve => format!("{}+{}", short(reserve), short(increment)),
            TimeControl::Bank {
                reserve,
                increment,
                cap,
            } => format!("{}+{} max {}", short(reserve), short(increment), short(cap)),
        }
    }

    /// In words: "3 days a move", "a 10-day reserve, plus 1 day a move (at most 20 days)".
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::None => "no clock".into(),
            TimeControl::PerMove { seconds } => format!("{} a move", span(seconds)),
            TimeControl::Bank {
                reserve,
                increment,
                cap,
            } => {
                let mut text = format!(
                    "{} in reserve, plus {} a move",
                    span(reserve),
                    span(increment)
                );
                if cap != reserve {
                    text.push_str(&format!(" (at most {})", span(cap)));
                }
                text
            }
        }
    }

    pub fn is_none(&self) -> bool {
        *self == TimeControl::None
    }

    /// Every seat's clock at the start, none running.
    pub fn start(&self, seats: usize) -> Vec<SeatClock> {
        let remaining = match *self {
            TimeControl::None => 0,
            TimeControl::PerMove { seconds } => seconds,
            TimeControl::Bank { reserve, .. } => reserve,
        };
        vec![
            SeatClock {
                remaining,
                running_since: None,
            };
            seats
        ]
    }

    /// The clocks after a change at `now`, when `acting` must act (none once the game is
    /// over) and `owner` is the seat whose turn it was before and is after the change (in games
    /// where another seat may answer inside a turn; None elsewhere).
    ///
    /// A seat that must act has its clock running; the turn's owner waiting for an answer has
    /// its clock paused with what it has left. A seat whose move is over (it acted, or its
    /// turn passed) stops: per move, its clock is full again; with a bank it keeps what it had
    /// left, plus the time a move adds when the move was its own turn (not an answer inside an
    /// opponent's). Returns whether anything changed.
    pub fn pass_turn(
        &self,
        clocks: &mut [SeatClock],
        acting: &[usize],
        owner: Owner,
        now: Instant,
    ) -> bool {
        if self.is_none() {
            return false;
        }
        let mut changed = false;
        for (seat, clock) in clocks.iter_mut().enumerate() {
            let must_act = acting.contains(&seat);
            let holds = must_act || owner.after == Some(seat);
            let held = clock.running_since.is_some() || owner.before == Some(seat);
            let before = *clock;
            if holds {
                if must_act && clock.running_since.is_none() {
                    clock.running_since = Some(now);
                } else if !must_act && clock.running_since.is_some() {
                    *clock = SeatClock {
                        remaining: clock.left(now),
                        running_since: None,
                    };
                }
            } else if held {
                let left = clock.left(now).max(0);
                let own_turn = owner.before.is_none_or(|o| o == seat);
                clock.remaining = match *self {
                    TimeControl::None => 0,
                    TimeControl::PerMove { seconds } => seconds,
                    TimeControl::Bank { increment, cap, .. } if own_turn => {
                        (left + increment).min(cap)
                    }
                    TimeControl::Bank { .. } => left,
                };
                clock.running_since = None;
            }
            changed |= *clock != before;
        }
        changed
    }

    /// When a running clock's player is reminded, as (time, what is left then): when half and
    /// when 80% of the time this move started with have gone, and one day before the end;
    /// only points after it started and before it runs out, each at most once. The same
    /// running clock always gives the same points, so recomputing them keeps those pending.
    pub fn reminders(&self, clock: &SeatClock) -> Vec<(Instant, i64)> {
        let (Some(since), Some(end)) = (clock.running_since, clock.deadline()) else {
            return vec![];
        };
        let budget = clock.remaining;
        let mut points: Vec<Instant> = vec![since + budget / 2, since + budget * 4 / 5, end - DAY];
        points.retain(|&at| at > since && at < end);
        points.sort_unstable();
        points.dedup();
        points.into_iter().map(|at| (at, end - at)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: Owner = Owner {
        before: None,
        after: None,
    };

    #[test]
    fn time_controls_read_and_write_back() {
        for (text, control) in [
            ("none", TimeControl::None),
            ("3d", TimeControl::PerMove { seconds: 3 * DAY }),
            ("1d12h", TimeControl::PerMove { seconds: 36 * HOUR }),
            (
                "10d+1d",
                TimeControl::Bank {
                    reserve: 10 * DAY,
                    increment: DAY,
                    cap: 10 * DAY,
                },
            ),
            (
                "10d+1d max 20d",
                TimeControl::Bank {
                    reserve: 10 * DAY,
                    increment: DAY,
                    cap: 20 * DAY,
                },
            ),
        ] {
            assert_eq!(TimeControl::parse(text), Ok(control), "{text}");
            assert_eq!(TimeControl::parse(&control.text()), Ok(control), "{text}");
        }
        assert_eq!(TimeControl::parse(" 36H ").unwrap().text(), "1d12h");
        assert_eq!(
            TimeControl::parse("10d+1d max 20d").unwrap().describe(),
            "10 days in reserve, plus 1 day a move (at most 20 days)"
        );
    }

    #[test]
    fn bad_time_controls_say_what_is_wrong() {
        for (text, words) in [
            ("3x", "write it like 30s, 90m, 1h30m or 2d3h"),
            ("d", "put a number before each unit"),
            ("30s", "between 1 minute and 60 days, not 30 seconds"),
            ("90d", "between 1 minute and 60 days"),
            ("5d max 9d", "goes with a bank"),
            ("10d+1d max 5d", "below the reserve"),
            ("99999999999999999d", "too long: at most 3650 days"),
            ("10d+", "cannot read the time \"\""),
        ] {
            let err = TimeControl::parse(text).unwrap_err();
            assert!(err.contains(words), "{text}: {err}");
        }
    }

    #[test]
    fn a_per_move_clock_resets_after_each_move_and_runs_only_for_the_seat_to_act() {
        let control = TimeControl::parse("2d").unwrap();
        let mut clocks = control.start(2);
        assert!(control.pass_turn(&mut clocks, &[0], NONE, 100));
        assert_eq!(clocks[0].deadline(), Some(100 + 2 * DAY));
        assert_eq!(clocks[1].deadline(), None);
        // White moves after a day; Black's clock starts, White's is full again.
        assert!(control.pass_turn(&mut clocks, &[1], NONE, 100 + DAY));
        assert_eq!(clocks[0].left(100 + 5 * DAY), 2 * DAY);
        assert_eq!(clocks[1].deadline(), Some(100 + 3 * DAY));
        // Black acts again at once (a turn of several steps): the clock keeps running.
        assert!(!control.pass_turn(&mut clocks, &[1], NONE, 100 + 2 * DAY));
        assert_eq!(clocks[1].deadline(), Some(100 + 3 * DAY));
        // The game ends: every clock stops.
        control.pass_turn(&mut clocks, &[], NONE, 100 + 2 * DAY);
        assert!(clocks.iter().all(|c| c.running_since.is_none()));
    }

    #[test]
    fn a_bank_keeps_what_is_left_adds_the_increment_and_is_capped() {
        let control = TimeControl::parse("3d+1d max 4d").unwrap();
        let mut clocks = control.start(2);
        control.pass_turn(&mut clocks, &[0], NONE, 0);
        control.pass_turn(&mut clocks, &[1], NONE, 2 * DAY);
        assert_eq!(clocks[0].remaining, 2 * DAY, "3d - 2d + 1d");
        control.pass_turn(&mut clocks, &[0], NONE, 2 * DAY + HOUR);
        assert_eq!(clocks[1].remaining, 4 * DAY - HOUR, "3d - 1h + 1d");
        control.pass_turn(&mut clocks, &[1], NONE, 2 * DAY + 2 * HOUR);
        control.pass_turn(&mut clocks, &[0], NONE, 2 * DAY + 2 * HOUR + MINUTE);
        assert_eq!(
            clocks[1].remaining,
            4 * DAY,
            "4d - 1h - 1m + 1d, capped at 4d"
        );
        // Simultaneous choices run every asked seat's clock.
        control.pass_turn(&mut clocks, &[0, 1], NONE, 3 * DAY);
        assert!(clocks.iter().all(|c| c.running_since.is_some()));
    }

    #[test]
    fn the_turn_owner_s_clock_pauses_while_the_defender_answers_inside_its_turn() {
        let white = Owner {
            before: Some(0),
            after: Some(0),
        };
        for control in ["2d", "3d+1d max 5d"] {
            let control = TimeControl::parse(control).unwrap();
            let mut clocks = control.start(2);
            control.pass_turn(&mut clocks, &[0], white, 0);
            // White attacks after 6 hours; Black answers inside White's turn.
            control.pass_turn(&mut clocks, &[1], white, 6 * HOUR);
            assert_eq!(clocks[0].running_since, None, "White's clock pauses");
            assert_eq!(
                clocks[0].remaining,
                control.start(1)[0].remaining - 6 * HOUR
            );
            assert_eq!(clocks[1].deadline(), Some(6 * HOUR + clocks[1].remaining));
            // Black answers after 2 hours; White goes on with what it had left.
            control.pass_turn(&mut clocks, &[0], white, 8 * HOUR);
            assert_eq!(
                clocks[0].deadline(),
                Some(8 * HOUR + control.start(1)[0].remaining - 6 * HOUR)
            );
            let black_after_answer = match control {
                TimeControl::Bank { reserve, .. } => reserve - 2 * HOUR,
                _ => 2 * DAY,
            };
            assert_eq!(
                clocks[1].remaining, black_after_answer,
                "no increment for an answer"
            );
            // White's turn ends: now the move is over, and Black's own turn begins.
            let passed = Owner {
                before: Some(0),
                after: Some(1),
            };
            control.pass_turn(&mut clocks, &[1], passed, 9 * HOUR);
            let white_after_turn = match control {
                TimeControl::Bank { reserve, .. } => reserve - 7 * HOUR + DAY,
                _ => 2 * DAY,
            };
            assert_eq!(clocks[0].remaining, white_after_turn);
            assert_eq!(clocks[0].running_since, None);
            // An answer that ends the attacker's turn: the paused owner's move is over too.
            control.pass_turn(&mut clocks, &[0], passed, 10 * HOUR);
            let to_white = Owner {
                before: Some(1),
                after: Some(0),
            };
            control.pass_turn(&mut clocks, &[0], to_white, 11 * HOUR);
            assert_eq!(clocks[1].running_since, None);
            assert!(clocks[1].remaining > 0);
            if let TimeControl::PerMove { seconds } = control {
                assert_eq!(clocks[1].remaining, seconds, "per move: full again");
            }
        }
    }

    #[test]
    fn reminders_come_at_half_at_80_percent_and_a_day_before_the_end() {
        let control = TimeControl::parse("5d").unwrap();
        let mut clocks = control.start(2);
        control.pass_turn(&mut clocks, &[0], NONE, 0);
        let at: Vec<(Instant, i64)> = control.reminders(&clocks[0]);
        assert_eq!(
            at,
            [(5 * DAY / 2, 5 * DAY / 2), (4 * DAY, DAY),],
            "80% and one day before coincide at 4 days"
        );
        // A day a move: half, 80%, and no "one day before" (that is the start).
        let control = TimeControl::parse("1d").unwrap();
        let mut clocks = control.start(2);
        control.pass_turn(&mut clocks, &[1], NONE, 0);
        let at: Vec<i64> = control.reminders(&clocks[1]).iter().map(|p| p.0).collect();
        assert_eq!(at, [12 * HOUR, DAY * 4 / 5]);
    }
}
