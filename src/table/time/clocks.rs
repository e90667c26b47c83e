//! Clocks in the table: a match's time control and its seats' clocks move with every change
//! (in the same transaction), and so do its deadlines: each running clock's time-out and
//! reminders, and the game's own timer (Memory's reveal). See [`crate::table::scheduler`] for what
//! happens when a deadline falls due.

use crate::engine::Seat;
use crate::games::AnyGame;
use crate::store::{DeadlineKind, MatchId, NewDeadline, StoredMatch};
use crate::table::clock::Instant;
use crate::table::time_control::{Owner, SeatClock, TimeControl};
use crate::table::{Loaded, TableError};

/// How long after its end a match's thread is archived.
pub const ARCHIVE_AFTER: i64 = crate::table::clock::DAY;

/// The match option that decides what running out of time does: `on_time=lose` (the default:
/// the game ends) or `on_time=claim` (the opponents may claim the win, or wait).
pub const ON_TIME_OPTION: &str = "on_time";

/// Whether `options` ask for claims on time; the options without it are the game's own.
pub fn split_options(
    options: &[(String, String)],
) -> Result<(bool, Vec<(String, String)>), TableError> {
    let mut claim = false;
    let mut game = Vec::new();
    for (key, value) in options {
        if key.eq_ignore_ascii_case(ON_TIME_OPTION) {
            claim = match value.to_ascii_lowercase().as_str() {
                "claim" => true,
                "lose" => false,
                _ => {
                    return Err(TableError::Setup(crate::engine::SetupError::Options(
                        format!(
                            "on_time is lose (the game ends) or claim (the opponent may claim the win), not {value}"
                        ),
                    )));
                }
            };
        } else {
            game.push((key.clone(), value.clone()));
        }
    }
    Ok((claim, game))
}

/// A match's time control and clocks, read from its stored row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    pub control: TimeControl,
    pub clocks: Vec<SeatClock>,
}

impl Timing {
    pub(in crate::table) fn of(stored: &StoredMatch) -> Result<Timing, TableError> {
        let corrupt = |detail: String| TableError::Corrupt {
            id: stored.id,
            detail,
        };
        let control = TimeControl::parse(&stored.time_control)
            .map_err(|e| corrupt(format!("its time control cannot be read: {e}")))?;
        let clocks: Vec<SeatClock> = if control.is_none() {
            vec![]
        } else {
            serde_json::from_str(&stored.clocks)
                .map_err(|e| corrupt(format!("its clocks cannot be read: {e}")))?
        };
        if !control.is_none() && clocks.len() != stored.players.len() {
            return Err(corrupt(format!(
                "it has {} clocks for {} seats",
                clocks.len(),
                stored.players.len()
            )));
        }
        Ok(Timing { control, clocks })
    }

    pub(in crate::table) fn clocks_json(&self) -> String {
        serde_json::to_string(&self.clocks).expect("clocks serialise")
    }

    /// The time `seat` has left at `now`, if the match has a clock.
    pub fn left(&self, seat: Seat, now: Instant) -> Option<i64> {
        self.clocks.get(seat.index()).map(|c| c.left(now))
    }

    /// When `seat`'s clock runs out, if it is running.
    pub fn deadline(&self, seat: Seat) -> Option<Instant> {
        self.clocks.get(seat.index()).and_then(SeatClock::deadline)
    }
}

/// The seats that must act in `game`, none once `over`.
fn acting(game: &AnyGame, over: bool) -> Vec<usize> {
    if over {
        return vec![];
    }
    game.to_act().seats().iter().map(|s| s.index()).collect()
}

/// The clocks after a change to a match at `now` (`game` as the change leaves it, `over` when
/// it ends the match), and the match's pending deadlines then (`version` is the version the
/// change gives it). None when the match has no clock and no game timer, before or after.
pub(in crate::table) fn after_change(
    before: &Loaded,
    game: &AnyGame,
    over: bool,
    version: u64,
    moment: &Moment,
) -> Result<Option<(Timing, Vec<NewDeadline>)>, TableError> {
    let now = moment.now;
    let mut timing = Timing::of(&before.stored)?;
    let timer = !over && game.timeout().is_some();
    if !over && timing.control.is_none() && !timer && before.game.timeout().is_none() {
        return Ok(None);
    }
    let owner = Owner {
        before: before.game.turn_owner().map(|s| s.index()),
        after: game.turn_owner().filter(|_| !over).map(|s| s.index()),
    };
    timing
        .control
        .pass_turn(&mut timing.clocks, &acting(game, over), owner, now);
    hold(&mut timing, &moment.away, moment.now);
    let deadlines = deadlines(&timing, game, over, version, moment);
    Ok(Some((timing, deadlines)))
}

/// The time of a change, and what else its deadlines depend on.
#[derive(Clone, Debug, Default)]
pub(in crate::table) struct Moment {
    pub now: Instant,
    /// When the game's own timer (Memory's reveal) falls due, when it was set already (a
    /// change that took no action leaves it as it was); else it runs its full time from now.
    pub timer_due: Option<Instant>,
    /// For each seat, when the vacation its player is on ends, if they are on one.
    pub away: Vec<Option<Instant>>,
    /// The match is on hold (see holds.rs): a timer set now waits, its full time kept, until
    /// the hold is released.
    pub held: bool,
}

impl Moment {
    pub fn at(now: Instant) -> Moment {
        Moment {
            now,
            ..Moment::default()
        }
    }
}

/// Holds the running clocks of seats whose players are on vacation: each keeps what it has
/// left (never below nothing, so none runs out while its player is away) and runs again when
/// the vacation ends. Returns whether a clock changed.
pub(in crate::table) fn hold(timing: &mut Timing, away: &[Option<Instant>], now: Instant) -> bool {
    let mut changed = false;
    for (clock, until) in timing.clocks.iter_mut().zip(away) {
        if let (Some(since), Some(until)) = (clock.running_since, *until)
            && until > now
            && since < until
        {
            clock.remaining = clock.left(now).max(0);
            clock.running_since = Some(until);
            changed = true;
        }
    }
    changed
}

/// Starts again at `now` the running clocks held for a vacation (`seats`' players came back
/// early). Returns whether a clock changed.
pub(in crate::table) fn resume(timing: &mut Timing, seats: &[usize], now: Instant) -> bool {
    let mut changed = false;
    for &seat in seats {
        if let Some(clock) = timing.clocks.get_mut(seat)
            && clock
                .running_since
                .is_some_and(|since| since > now && since < crate::table::holds::HELD)
        {
            clock.running_since = Some(now);
            changed = true;
        }
    }
    changed
}

/// Clocks and deadlines of a new match, started at `now`.
pub(in crate::table) fn at_start(
    control: TimeControl,
    game: &AnyGame,
    moment: &Moment,
) -> (Timing, Vec<NewDeadline>) {
    let now = moment.now;
    let mut timing = Timing {
        clocks: if control.is_none() {
            vec![]
        } else {
            control.start(game.seat_count())
        },
        control,
    };
    let owner = Owner {
        before: None,
        after: game.turn_owner().map(|s| s.index()),
    };
    timing
        .control
        .pass_turn(&mut timing.clocks, &acting(game, false), owner, now);
    hold(&mut timing, &moment.away, now);
    let deadlines = deadlines(&timing, game, false, 0, moment);
    (timing, deadlines)
}

/// The pending deadlines of an active match whose clocks are as `timing` says.
pub(in crate::table) fn pending(
    timing: &Timing,
    game: &AnyGame,
    version: u64,
    moment: &Moment,
) -> Vec<NewDeadline> {
    deadlines(timing, game, false, version, moment)
}

/// The pending deadlines of a match: each running clock's time-out and reminders, and the
/// game's own timer.
fn deadlines(
    timing: &Timing,
    game: &AnyGame,
    over: bool,
    version: u64,
    moment: &Moment,
) -> Vec<NewDeadline> {
    let mut out = Vec::new();
    if over {
        // The match's thread is archived a day after the end.
        out.push(NewDeadline {
            kind: DeadlineKind::Archive,
            due_at: moment.now + ARCHIVE_AFTER,
            seat: None,
            payload: 0,
        });
        return out;
    }
    for (i, clock) in timing.clocks.iter().enumerate() {
        let Some(end) = clock.deadline() else {
            continue;
        };
        let seat = Some(Seat(i as u8));
        out.push(NewDeadline {
            kind: DeadlineKind::Timeout,
            due_at: end,
            seat,
            payload: 0,
        });
        for (due_at, left) in timing.control.reminders(clock) {
            out.push(NewDeadline {
                kind: DeadlineKind::Reminder,
                due_at,
                seat,
                payload: left,
            });
        }
    }
    if let Some((seconds, _)) = game.timeout() {
        let from = match moment.held {
            true => crate::table::holds::HELD,
            false => moment.now,
        };
        out.push(NewDeadline {
            kind: DeadlineKind::Expire,
            due_at: moment.timer_due.unwrap_or(from + i64::from(seconds)),
            seat: None,
            payload: version as i64,
        });
    }
    out
}

/// Why a match cannot be given time.
pub(in crate::table) fn check_give(id: MatchId, control: &TimeControl) -> Result<(), TableError> {
    if control.is_none() {
        return Err(TableError::Illegal(format!(
            "match #{id} has no clock; there is no time to give"
        )));
    }
    Ok(())
}
