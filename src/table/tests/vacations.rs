//! Vacations with a simulated clock: clocks held and announced, a clock that starts while its
//! player is away waiting for them, a move ending the vacation early, no loss or claim on time
//! meanwhile, and the yearly limit.

use super::temp_db;
use super::*;
use super::{START, changes, create, timed_table};
use crate::table::clock::{DAY, HOUR, SimClock};

#[test]
fn a_vacation_holds_the_clock_and_it_runs_again_when_the_vacation_ends() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("vacation-hold"), &clock);
    let created = create(&mut table, GameKind::Chess, 2, &[], "2d");
    let id = created.match_id;
    let white = created.to_act[0].1.id;
    clock.advance(12 * HOUR);
    let away = table.start_vacation(white, 3).unwrap();
    assert_eq!(away.vacation.ends_at, START + 12 * HOUR + 3 * DAY);
    assert_eq!(away.used.0, 3);
    assert_eq!(away.matches.len(), 1);
    let told = &away.matches[0];
    assert!(
        told.public[0] == "p0 is on vacation for 3 days: their clock waits until they are back.",
        "{:?}",
        told.public
    );
    // 1.5 days were left; they run from the end of the vacation.
    let end = START + 12 * HOUR + 3 * DAY + 36 * HOUR;
    assert_eq!(told.clocks, vec![(Seat(0), end)]);
    assert_eq!(table.show(id).unwrap().clocks, vec![(Seat(0), end)]);
    // The old deadline passes: nothing happens (no loss, no claim).
    clock.set(START + 2 * DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    clock.set(end - 1);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    clock.set(end);
    let done = changes(table.fire_due(10).into_result().unwrap());
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].result.as_deref(), Some("Black won on time"));
}

#[test]
fn a_move_ends_the_vacation_early_and_every_held_clock_runs_again() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("vacation-back"), &clock);
    let first = create(&mut table, GameKind::Chess, 2, &[], "2d");
    let second = create(&mut table, GameKind::Echek, 2, &[], "2d");
    let white = first.to_act[0].1.id;
    table.start_vacation(white, 5).unwrap();
    clock.advance(DAY + HOUR);
    let moved = table.act(first.match_id, white, None, "e4").unwrap();
    assert_eq!(
        moved.public.last().unwrap(),
        "p0 is back from vacation: their clocks run again."
    );
    let now = table.now();
    assert_eq!(table.store().vacation(white, now).unwrap(), None);
    // Two days begun: two count.
    assert_eq!(table.store().vacation_days_used(white, now).unwrap().0, 2);
    // The other match's clock runs from now, with all its time.
    let other = table.show(second.match_id).unwrap();
    assert_eq!(other.clocks, vec![(Seat(0), START + DAY + HOUR + 2 * DAY)]);
    let err = table.end_vacation(white).unwrap_err();
    assert_eq!(err.to_string(), "you are not on vacation");
}

#[test]
fn a_clock_that_starts_while_its_player_is_away_waits_for_them() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("vacation-wait"), &clock);
    let created = create(&mut table, GameKind::Chess, 2, &[], "1d");
    let id = created.match_id;
    let white = created.to_act[0].1.id;
    let black = table.store().local_player("p1").unwrap().id;
    let away = table.start_vacation(black, 2).unwrap();
    assert_eq!(
        away.matches[0].clocks,
        vec![(Seat(0), START + DAY)],
        "White's clock is not Black's"
    );
    clock.advance(HOUR);
    let moved = table.act(id, white, None, "e4").unwrap();
    assert_eq!(moved.clocks, vec![(Seat(1), START + 2 * DAY + DAY)]);
    // White may not claim, nor give time to an absent Black to no purpose: the clock waits.
    clock.set(START + 2 * DAY + HOUR);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    assert!(table.claim_win(id, white, None).is_err());
}

#[test]
fn no_match_is_lost_on_time_while_its_player_is_on_vacation() {
    // A vacation stored without its clocks held (as if the process stopped in between): the
    // time-out holds the clock instead of ending the match.
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("vacation-backstop"), &clock);
    let created = create(
        &mut table,
        GameKind::Chess,
        2,
        &[("on_time", "claim")],
        "1d",
    );
    let id = created.match_id;
    let white = created.to_act[0].1.id;
    let black = table.store().local_player("p1").unwrap().id;
    clock.advance(12 * HOUR);
    table
        .store()
        .start_vacation(white, START + 12 * HOUR, 2)
        .unwrap();
    clock.set(START + DAY);
    let fired = table.fire_due(10).into_result().unwrap();
    assert!(fired.is_empty(), "{fired:?}");
    assert!(table.claim_win(id, black, None).is_err());
    assert_eq!(
        table.show(id).unwrap().clocks,
        vec![(Seat(0), START + 12 * HOUR + 2 * DAY)],
        "the clock stopped at the time-out and waits for the vacation's end"
    );
}

#[test]
fn vacations_are_limited_to_fourteen_days_a_year() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("vacation-limit"), &clock);
    let created = create(&mut table, GameKind::Chess, 2, &[], "1d");
    let white = created.to_act[0].1.id;
    table.start_vacation(white, 10).unwrap();
    let err = table.start_vacation(white, 1).unwrap_err();
    assert!(err.to_string().contains("on vacation already"), "{err}");
    clock.advance(10 * DAY);
    let err = table.start_vacation(white, 5).unwrap_err();
    assert!(err.to_string().contains("4 vacation day(s) left"), "{err}");
    let err = table.start_vacation(white, 0).unwrap_err();
    assert!(err.to_string().contains("from 1 to 14"), "{err}");
    table.start_vacation(white, 4).unwrap();
}

#[test]
fn a_vacation_with_a_match_without_a_clock_holds_nothing_and_fails_nothing() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("vacation-untimed"), &clock);
    let created = create(&mut table, GameKind::Chess, 2, &[], "none");
    let white = created.to_act[0].1.id;
    let away = table.start_vacation(white, 2).unwrap();
    assert_eq!(away.used.0, 2);
    assert!(table.show(created.match_id).unwrap().clocks.is_empty());
}
