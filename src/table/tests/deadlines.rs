//! Deadlines kept right while a match changes around them: the Memory reveal and a reminder
//! waiting for quiet hours survive a draw offer, reminders piled up by downtime are sent once,
//! time given to a player already out of time counts from now, and a turn's owner keeps their
//! clock (paused, not refilled) while another seat answers inside their turn (a Chess-à-Tête
//! defence, a Casino pick).

use super::temp_db;
use super::*;
use super::{START, changes, create, quiet_from_10_to_14, reminders, timed_table};
use crate::table::clock::{Clock, DAY, HOUR, SimClock};

#[test]
fn a_draw_offer_while_memorising_leaves_the_reveal_time_as_it_was() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("memory-offer"), &clock);
    let created = create(
        &mut table,
        GameKind::Enprise,
        3,
        &[("variant", "memory")],
        "none",
    );
    let id = created.match_id;
    let p1 = table.store().local_player("p1").unwrap();
    clock.advance(40);
    table.offer_draw(id, p1.id, None).unwrap();
    clock.advance(19);
    assert!(table.fire_due(10).into_result().unwrap().is_empty());
    clock.advance(1);
    let done = changes(table.fire_due(10).into_result().unwrap());
    assert_eq!(
        done.len(),
        1,
        "60 seconds after the start, not after the offer"
    );
    assert_eq!(done[0].public[0], "Time is up.");
}

#[test]
fn after_downtime_only_the_latest_reminder_of_a_clock_is_sent() {
    let clock = SimClock::at(START);
    let path = temp_db("downtime-reminders");
    {
        let mut table = timed_table(&path, &clock);
        create(&mut table, GameKind::Chess, 2, &[], "10d");
    }
    // Down past half (5 days) and 80% (8 days) and one day before the end (9 days).
    clock.advance(9 * DAY + HOUR);
    let mut table = timed_table(&path, &clock);
    let fired = table.fire_due(10).into_result().unwrap();
    assert_eq!(
        reminders(&fired),
        [("p0".to_string(), DAY - HOUR)],
        "one, the latest"
    );
    assert!(table.fire_due(10).into_result().unwrap().is_empty());
    clock.advance(DAY);
    assert_eq!(changes(table.fire_due(10).into_result().unwrap()).len(), 1);
}

#[test]
fn a_reminder_waiting_for_quiet_hours_survives_a_draw_offer() {
    let midnight = START - START % DAY + DAY;
    let clock = SimClock::at(midnight);
    let mut table = timed_table(&temp_db("quiet-offer"), &clock);
    let created = create(&mut table, GameKind::Chess, 2, &[], "1d");
    let id = created.match_id;
    let white = created.to_act[0].1.id;
    let black = table.store().local_player("p1").unwrap().id;
    quiet_from_10_to_14(&mut table, white);
    clock.advance(12 * HOUR);
    assert!(
        table.fire_due(10).into_result().unwrap().is_empty(),
        "quiet"
    );
    clock.advance(HOUR);
    table.offer_draw(id, black, None).unwrap();
    clock.advance(HOUR);
    let fired = table.fire_due(10).into_result().unwrap();
    assert_eq!(reminders(&fired), [("p0".to_string(), 10 * HOUR)]);
}

#[test]
fn time_given_to_a_player_already_out_of_time_counts_from_now() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("give-late"), &clock);
    let created = create(
        &mut table,
        GameKind::Chess,
        2,
        &[("on_time", "claim")],
        "1d",
    );
    let id = created.match_id;
    let black = table.store().local_player("p1").unwrap().id;
    clock.advance(DAY);
    assert_eq!(
        table.fire_due(10).into_result().unwrap().len(),
        1,
        "time up"
    );
    clock.advance(2 * DAY);
    let given = table.give_time(id, black, None, DAY).unwrap();
    assert_eq!(given.clocks, vec![(Seat(0), START + 4 * DAY)]);
    assert!(
        table.fire_due(10).into_result().unwrap().is_empty(),
        "no second time-up at once, and no stale reminders"
    );
    assert!(table.claim_win(id, black, None).is_err(), "in time again");
    clock.advance(DAY);
    let fired = table.fire_due(10).into_result().unwrap();
    assert!(
        fired.iter().any(|f| matches!(f, Fired::TimeUp(_))),
        "{fired:?}"
    );
}

/// In a game where another seat answers inside a turn (a Chess-à-Tête defence, the card a
/// Casino chooser picks for the drawing player), the turn's owner keeps their clock, paused
/// and not refilled, while the answer is given.
#[test]
fn a_turn_s_owner_keeps_their_clock_while_another_answers_inside_it() {
    let games: [(GameKind, &[(&str, &str)]); 2] = [
        (GameKind::Chessatete, &[]),
        (GameKind::Enprise, &[("variant", "casino")]),
    ];
    for (game, options) in games {
        let clock = SimClock::at(START);
        let mut table = timed_table(&temp_db(&format!("owner-clock-{game}")), &clock);
        let created = create(&mut table, game, 2, options, "1d");
        let id = created.match_id;
        let ids: Vec<PlayerId> = (0..2)
            .map(|i| table.store().local_player(&format!("p{i}")).unwrap().id)
            .collect();
        let mut rng = crate::engine::GameRng::from_seed(11);
        let mut answers = 0;
        for _ in 0..300 {
            let loaded = table.load(id).unwrap();
            if loaded.stored.status != Status::Active {
                break;
            }
            let seat = loaded.game.to_act().seats()[0];
            let owner = loaded.game.turn_owner().unwrap_or(seat);
            let text = loaded.game.random_action(seat, &mut rng).unwrap();
            let before = Timing::of(&loaded.stored).unwrap();
            let left = before.left(owner, clock.now()).unwrap() - HOUR;
            clock.advance(HOUR);
            let after = match table.act(id, ids[seat.index()], None, &text) {
                Ok(after) => after,
                // A move that loses on the spot asks to be confirmed: enough of this game.
                Err(TableError::Confirm { .. }) => break,
                Err(e) => panic!("{game} {text}: {e}"),
            };
            let stored = table.store().load(id).unwrap();
            let timing = Timing::of(&stored).unwrap();
            let now_acting = after.to_act.first().map(|(s, _)| *s);
            let still_owner = table.load(id).unwrap().game.turn_owner();
            if seat == owner && still_owner == Some(owner) && now_acting != Some(owner) {
                // The owner waits for the answer: paused, with what it had left.
                answers += 1;
                assert_eq!(timing.clocks[owner.index()].running_since, None, "{game}");
                assert_eq!(
                    timing.left(owner, clock.now()),
                    Some(left),
                    "{game}: paused"
                );
            }
            if seat != owner && now_acting == Some(owner) {
                // The answer given: the owner's clock runs on from where it stopped.
                assert_eq!(
                    timing.deadline(owner),
                    Some(clock.now() + timing.clocks[owner.index()].remaining),
                    "{game}"
                );
                assert!(
                    timing.clocks[owner.index()].remaining < DAY,
                    "{game}: not refilled"
                );
            }
        }
        assert!(answers > 0, "{game}: the random game had nothing to answer");
    }
}

#[test]
fn a_deadline_whose_firing_panics_is_dropped_and_the_others_still_fire() {
    let clock = SimClock::at(START);
    let path = temp_db("panicking-deadline");
    let (broken, sound) = {
        let mut table = timed_table(&path, &clock);
        let broken = create(&mut table, GameKind::Chess, 2, &[], "1d").match_id;
        let sound = create(&mut table, GameKind::Chess, 2, &[], "1d").match_id;
        (broken, sound)
    };
    // A log whose next action makes the game panic when the match is loaded again.
    let mut table = timed_table(&path, &clock);
    table
        .store()
        .connection()
        .execute_batch(&format!(
            "INSERT INTO actions (match_id, ply, seat, action, created_at)
             VALUES ({broken}, 1, 0, '{}', 0);
             UPDATE matches SET plies = 1 WHERE id = {broken};
             DELETE FROM snapshots;",
            crate::games::PANIC_ACTION
        ))
        .unwrap();
    let stored = |table: &mut Table| table.store().load_head(broken).unwrap();
    let before = stored(&mut table);
    drop(table);
    let mut table = timed_table(&path, &clock);
    clock.advance(DAY + 1);
    let fired = table.fire_due(10).into_result().unwrap();
    let done = changes(fired);
    assert_eq!(done.len(), 1, "the sound match's clock ran out");
    assert_eq!(done[0].match_id, sound);
    assert!(done[0].result.is_some());
    let after = stored(&mut table);
    assert_eq!(
        (after.version, after.status),
        (before.version, before.status)
    );
    assert!(
        table.fire_due(10).into_result().unwrap().is_empty(),
        "the panicking deadline was dropped, not retried at every tick"
    );
}

/// What fired, as (kind, match) pairs in order: the same deadlines fired by one service or
/// by two give the same pairs.
fn fired_pairs(fired: &[Fired]) -> Vec<(&'static str, MatchId)> {
    let mut pairs: Vec<(&'static str, MatchId)> = fired
        .iter()
        .map(|f| match f {
            Fired::Changed(u) => ("changed", u.match_id),
            Fired::Reminder(r) => ("reminder", r.match_id),
            Fired::TimeUp(t) => ("time up", t.match_id),
            Fired::Archive { match_id, .. } => ("archive", *match_id),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    pairs.sort();
    pairs
}

/// How many deadlines due by `now` have not fired.
fn due_left(store: &Store, now: i64) -> i64 {
    store
        .connection()
        .query_row(
            "SELECT COUNT(*) FROM deadlines WHERE fired_at IS NULL AND due_at <= ?1",
            [now],
            |r| r.get(0),
        )
        .unwrap()
}

/// `table` fires what is due in batches of 25 until nothing due is left.
fn fire_all(table: &mut Table) -> Vec<Fired> {
    let mut fired = Vec::new();
    loop {
        fired.extend(table.fire_due(25).into_result().unwrap());
        let next = table.store().next_deadline().unwrap();
        if next.is_none_or(|due| due > table.now()) {
            return fired;
        }
    }
}

/// Two table services on one database (two processes, each with its own connection) fire the
/// same thousand due deadlines at once: each fires once, whichever service takes it, exactly
/// as one service alone fires them, and none is left behind. On PostgreSQL when a test server
/// is named, else on one SQLite file.
#[test]
fn two_tables_on_one_database_fire_a_thousand_due_deadlines_each_once() {
    const MATCHES: usize = 1000;
    let setup = |name: &str| {
        let clock = SimClock::at(START);
        let db = temp_db(name);
        let mut table = timed_table(&db, &clock);
        let ids: Vec<MatchId> = (0..MATCHES)
            .map(|_| create(&mut table, GameKind::Chess, 2, &[], "5m").match_id)
            .collect();
        clock.advance(DAY);
        (clock, db, table, ids)
    };
    // One service alone: what firing them all gives.
    let (_, _, mut alone, alone_ids) = setup("one-service");
    let expected = fired_pairs(&fire_all(&mut alone));
    let (clock, db, mut first, ids) = setup("two-services");
    assert_eq!(ids, alone_ids);
    let due = due_left(first.store(), clock.now());
    assert!(due >= MATCHES as i64, "{due} deadlines due");
    let second = timed_table(&db, &clock);
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let run = |mut table: Table| {
        let barrier = barrier.clone();
        std::thread::spawn(move || {
            barrier.wait();
            fire_all(&mut table)
        })
    };
    let threads = [run(first), run(second)];
    let fired: Vec<Vec<Fired>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    // How the work splits between them is the scheduler's affair (under load one may take it
    // all); what matters is that together they fire each deadline once.
    let both: Vec<Fired> = fired.into_iter().flatten().collect();
    assert_eq!(fired_pairs(&both), expected);
    let ended: Vec<MatchId> = expected
        .iter()
        .filter(|(kind, _)| *kind == "changed")
        .map(|(_, id)| *id)
        .collect();
    assert_eq!(ended, ids, "each match lost on time once");
    let store = db.open();
    assert_eq!(due_left(&store, clock.now()), 0);
    for id in ids {
        assert_eq!(store.load_head(id).unwrap().status, Status::Finished);
    }
}
