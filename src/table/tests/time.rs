//! Slow play with a simulated clock: losses and eliminations on time, reminders once (also
//! across a restart), a deadline that passed while the service was down, clocks that reset
//! after a move, and time given.

use super::temp_db;
use super::*;
use crate::table::clock::{DAY, HOUR, SimClock};

#[test]
fn the_player_to_act_loses_on_time_in_every_game() {
    for game in GameKind::ALL {
        let clock = SimClock::at(START);
        let mut table = timed_table(&temp_db(&format!("lose-{game}")), &clock);
        let created = create(&mut table, game, 2, &[], "1d");
        let id = created.match_id;
        let (late, _) = created.to_act[0].clone();
        assert_eq!(created.clocks, vec![(late, START + DAY)], "{game}");
        clock.advance(DAY - 1);
        assert!(
            changes(table.fire_due(100).into_result().unwrap()).is_empty(),
            "{game}: not yet"
        );
        clock.advance(1);
        let done = changes(table.fire_due(100).into_result().unwrap());
        assert_eq!(done.len(), 1, "{game}");
        let outcome = done[0].outcome.clone().unwrap();
        assert_eq!(outcome.winners(), &[Seat(1 - late.0)], "{game}");
        assert!(
            done[0].result.as_deref().unwrap().contains("time"),
            "{game}: {:?}",
            done[0].result
        );
        assert!(
            done[0].public[0].ends_with("ran out of time."),
            "{game}: {:?}",
            done[0].public
        );
        assert!(done[0].clocks.is_empty(), "{game}: the clocks stop");
        let stored = table.store().load(id).unwrap();
        assert_eq!(stored.status, Status::Finished, "{game}");
        // Fired once; what is left is archiving the thread a day after the end, once.
        assert_eq!(
            table.next_deadline().unwrap(),
            Some(START + DAY + DAY),
            "{game}"
        );
        clock.advance(10 * DAY);
        let left = table.fire_due(100).into_result().unwrap();
        assert!(
            matches!(left.as_slice(), [Fired::Archive { match_id, .. }] if *match_id == id),
            "{game}: {left:?}"
        );
        assert!(table.fire_due(100).into_result().unwrap().is_empty());
        assert_eq!(table.next_deadline().unwrap(), None, "{game}");
    }
}

#[test]
fn a_chess_player_out_of_time_draws_when_the_other_cannot_mate() {
    for (fen, drawn) in [
        ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", true),
        ("4k3/4p3/8/8/8/8/8/4KB2 b - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3NKB2 b - - 0 1", false),
    ] {
        let clock = SimClock::at(START);
        let mut table = timed_table(&temp_db("material"), &clock);
        create(&mut table, GameKind::Chess, 2, &[("fen", fen)], "2h");
        clock.advance(2 * HOUR);
        let done = changes(table.fire_due(10).into_result().unwrap());
        let outcome = done[0].outcome.clone().unwrap();
        assert_eq!(outcome.is_draw(), drawn, "{fen}: {outcome:?}");
    }
}

#[test]
fn in_en_prise_for_three_or_four_a_player_out_of_time_is_put_out_and_play_goes_on() {
    for seats in [3, 4] {
        let clock = SimClock::at(START);
        let path = temp_db(&format!("enprise-{seats}"));
        let mut table = timed_table(&path, &clock);
        let created = create(&mut table, GameKind::Enprise, seats, &[], "1d");
        let id = created.match_id;
        let (first, _) = created.to_act[0].clone();
        clock.advance(DAY);
        let done = changes(table.fire_due(10).into_result().unwrap());
        assert_eq!(done.len(), 1);
        let after = &done[0];
        assert!(after.outcome.is_none(), "{seats}: play goes on");
        assert!(
            after.public.iter().any(|l| l.contains("ran out of time")),
            "{:?}",
            after.public
        );
        let next = after.to_act[0].0;
        assert_ne!(next, first, "the turn passed on");
        assert_eq!(after.clocks, vec![(next, START + 2 * DAY)]);
        // The log records it, and a fresh replay (another process) agrees.
        let history = table.history(id).unwrap();
        assert_eq!(history.last().unwrap().2, crate::games::TIME_OUT);
        let fresh = timed_table(&path, &clock);
        let shown = fresh.show(id).unwrap();
        assert_eq!(shown.to_act, after.to_act);
        // A player who was put out cannot act.
        let out = &after.seat_views;
        assert_eq!(out.len(), seats);
    }
}

#[test]
fn reminders_come_once_each_even_across_a_restart() {
    let clock = SimClock::at(START);
    let path = temp_db("reminders");
    let mut table = timed_table(&path, &clock);
    create(&mut table, GameKind::Chess, 2, &[], "5d");
    // Half the time gone: one reminder, with 2.5 days left.
    clock.advance(5 * DAY / 2);
    let fired = table.fire_due(10).into_result().unwrap();
    assert_eq!(reminders(&fired), [("p0".to_string(), 5 * DAY / 2)]);
    assert!(table.fire_due(10).into_result().unwrap().is_empty(), "once");
    // The service restarts: the reminder is not sent again.
    let mut table = timed_table(&path, &clock);
    assert!(
        table.fire_due(10).into_result().unwrap().is_empty(),
        "once, across a restart"
    );
    // 80% gone (which is also one day before the end): one more.
    clock.advance(3 * DAY / 2);
    assert_eq!(
        reminders(&table.fire_due(10).into_result().unwrap()),
        [("p0".to_string(), DAY)]
    );
    assert_eq!(table.next_deadline().unwrap(), Some(START + 5 * DAY));
}

#[test]
fn a_deadline_that_passed_while_the_service_was_down_fires_once_at_start_up() {
    let clock = SimClock::at(START);
    let path = temp_db("downtime");
    {
        let mut table = timed_table(&path, &clock);
        create(&mut table, GameKind::Chess, 2, &[], "1d");
    }
    // Down for a week; two services start on the file at once.
    clock.advance(7 * DAY);
    let mut first = timed_table(&path, &clock);
    let mut second = timed_table(&path, &clock);
    let a = first.fire_due(10).into_result().unwrap();
    let b = second.fire_due(10).into_result().unwrap();
    let results: Vec<Update> = changes(a).into_iter().chain(changes(b)).collect();
    assert_eq!(results.len(), 1, "the time-out fires once");
    assert_eq!(results[0].outcome.as_ref().unwrap().winners(), &[Seat(1)]);
    assert_eq!(first.history(1).unwrap().len(), 0);
}

#[test]
fn a_move_stops_its_clock_and_starts_the_next_and_time_can_be_given() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("moves"), &clock);
    let created = create(&mut table, GameKind::Chess, 2, &[], "2d");
    let id = created.match_id;
    let (white, black) = (
        created.to_act[0].1.id,
        table.store().local_player("p1").unwrap().id,
    );
    clock.advance(DAY + 12 * HOUR);
    let moved = table.act(id, white, None, "e4").unwrap();
    assert_eq!(
        moved.clocks,
        vec![(Seat(1), START + DAY + 12 * HOUR + 2 * DAY)]
    );
    // White's pending reminders and time-out are gone; Black's are set.
    let pending = table.store().deadlines_of(id).unwrap();
    assert!(
        pending.iter().all(|d| d.seat == Some(Seat(1))),
        "{pending:?}"
    );
    // White gives Black a day.
    let given = table.give_time(id, white, None, DAY).unwrap();
    assert_eq!(given.public, ["p0 gives p1 1 day more."]);
    assert_eq!(
        given.clocks,
        vec![(Seat(1), START + DAY + 12 * HOUR + 3 * DAY)]
    );
    // Black cannot give themselves time, and a match without a clock has none to give.
    let err = table.give_time(id, black, None, DAY).unwrap_err();
    assert!(err.to_string().contains("opponent who must act"), "{err}");
    clock.advance(3 * DAY - 1);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    clock.advance(1);
    assert_eq!(changes(table.fire_due(10).into_result().unwrap()).len(), 1);
}

#[test]
fn the_memory_reveal_keeps_its_remaining_time_across_a_restart() {
    let clock = SimClock::at(START);
    let path = temp_db("memory");
    let mut table = timed_table(&path, &clock);
    let created = create(
        &mut table,
        GameKind::Enprise,
        3,
        &[("variant", "memory")],
        "none",
    );
    assert_eq!(created.timeout, Some(60));
    clock.advance(40);
    assert!(table.fire_due(10).into_result().unwrap().is_empty());
    // The service restarts 40 seconds in: the reveal comes 20 seconds later, not 60.
    let mut table = timed_table(&path, &clock);
    clock.advance(19);
    assert!(table.fire_due(10).into_result().unwrap().is_empty());
    clock.advance(1);
    let done = changes(table.fire_due(10).into_result().unwrap());
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].public[0], "Time is up.");
    assert!(table.fire_due(10).into_result().unwrap().is_empty(), "once");
}

#[test]
fn reminders_wait_for_quiet_hours_and_are_not_sent_to_a_player_who_turned_them_off() {
    // The match starts at a UTC midnight.
    let midnight = START - START % DAY + DAY;
    let clock = SimClock::at(midnight);
    let mut table = timed_table(&temp_db("quiet"), &clock);
    let created = create(&mut table, GameKind::Chess, 2, &[], "1d");
    let white = created.to_act[0].1.id;
    // White's quiet hours: 10:00 to 14:00 UTC; the half-time reminder falls at 12:00.
    quiet_from_10_to_14(&mut table, white);
    clock.advance(12 * HOUR);
    assert!(
        table.fire_due(10).into_result().unwrap().is_empty(),
        "quiet: it waits"
    );
    clock.advance(2 * HOUR - 1);
    assert!(table.fire_due(10).into_result().unwrap().is_empty());
    clock.advance(1);
    let fired = table.fire_due(10).into_result().unwrap();
    assert_eq!(
        reminders(&fired),
        [("p0".to_string(), 10 * HOUR)],
        "sent at 14:00"
    );
    // Reminders off: the 80% reminder is dropped, the time-out still comes.
    table
        .store()
        .set_settings(
            white,
            &crate::store::Settings {
                reminders: false,
                ..Default::default()
            },
        )
        .unwrap();
    clock.advance(6 * HOUR);
    assert!(table.fire_due(10).into_result().unwrap().is_empty());
    clock.advance(4 * HOUR);
    assert_eq!(changes(table.fire_due(10).into_result().unwrap()).len(), 1);
}

#[test]
fn an_opponent_may_nudge_the_player_to_act_once_every_twelve_hours() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("nudge"), &clock);
    let created = create(&mut table, GameKind::Chess, 2, &[], "none");
    let id = created.match_id;
    let white = created.to_act[0].1.clone();
    let black = table.store().local_player("p1").unwrap();
    let err = table.nudge(id, white.id).unwrap_err();
    assert!(err.to_string().contains("it is your move"), "{err}");
    assert_eq!(
        table.nudge(id, black.id).unwrap(),
        std::slice::from_ref(&white)
    );
    clock.advance(11 * HOUR);
    let err = table.nudge(id, black.id).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("match #{id} was nudged 11 hours ago; nudge again in 1 hour")
    );
    clock.advance(HOUR);
    assert_eq!(table.nudge(id, black.id).unwrap(), [white]);
}

#[test]
fn with_on_time_claim_the_opponent_may_claim_the_win_or_play_goes_on() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("claim"), &clock);
    let created = create(
        &mut table,
        GameKind::Chess,
        2,
        &[("on_time", "claim")],
        "1d",
    );
    let id = created.match_id;
    let white = created.to_act[0].1.clone();
    let black = table.store().local_player("p1").unwrap();
    let early = table.claim_win(id, black.id, None).unwrap_err();
    assert!(
        early
            .to_string()
            .contains("no opponent of yours is out of time"),
        "{early}"
    );
    clock.advance(DAY);
    let fired = table.fire_due(10).into_result().unwrap();
    let up: Vec<&super::TimeUp> = fired
        .iter()
        .filter_map(|f| match f {
            Fired::TimeUp(up) => Some(up),
            _ => None,
        })
        .collect();
    assert_eq!(up.len(), 1);
    assert_eq!(
        (&up[0].player, &up[0].opponents[..]),
        (&white, std::slice::from_ref(&black))
    );
    assert_eq!(table.show(id).unwrap().outcome, None, "the game goes on");
    // Black may choose to wait; White may not (it is White who is late).
    assert_eq!(
        table.wait_on_time(id, black.id).unwrap(),
        "p1 waits for p0's move; the win can still be claimed (/time claim) while p0 is out of time."
    );
    assert!(table.wait_on_time(id, white.id).is_err());
    // White moves late: the clock is full again for the next move, and there is nothing to
    // claim until it runs out again.
    table.act(id, white.id, None, "e4").unwrap();
    table.act(id, black.id, None, "e5").unwrap();
    assert!(table.claim_win(id, black.id, None).is_err());
    clock.advance(DAY);
    assert_eq!(table.fire_due(10).into_result().unwrap().len(), 1);
    let claimed = table.claim_win(id, black.id, None).unwrap();
    assert_eq!(claimed.public[0], "p0 ran out of time; p1 claims the win.");
    assert_eq!(claimed.result.as_deref(), Some("Black won on time"));
    // A bad value is refused at the start.
    let players = players(&mut table, 2);
    let err = table
        .create_timed(
            GameKind::Chess,
            &[("on_time".into(), "maybe".into())],
            &players,
            1,
            &Place::default(),
            TimeControl::parse("1d").unwrap(),
        )
        .unwrap_err();
    assert!(err.to_string().contains("on_time is lose"), "{err}");
}

#[test]
fn the_picture_of_a_timed_match_shows_each_clock_under_the_board() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("picture-clocks"), &clock);
    let timed = create(&mut table, GameKind::Chess, 2, &[], "1d");
    clock.advance(5 * HOUR);
    let shown = table.show(timed.match_id).unwrap();
    assert_eq!(
        shown.times,
        [(Seat(0), DAY - 5 * HOUR, true), (Seat(1), DAY, false)]
    );
    let untimed = create(&mut table, GameKind::Chess, 2, &[], "none");
    assert!(untimed.times.is_empty());
    let decode = |png: Vec<u8>| image::load_from_memory(&png).unwrap().to_rgb8();
    let plain = decode(untimed.board_png());
    let with = decode(shown.board_png());
    assert_eq!(
        plain.dimensions(),
        with.dimensions(),
        "a band of players in both"
    );
    let board = crate::render::HEIGHT;
    let band = |img: &image::RgbImage| -> Vec<[u8; 3]> {
        img.enumerate_pixels()
            .filter(|(_, y, _)| *y >= board)
            .map(|(_, _, p)| p.0)
            .collect()
    };
    assert_ne!(
        band(&plain),
        band(&with),
        "the timed band shows the time left"
    );
    // Whoever must act is written in gold in the band, with or without a clock.
    let gold = |img: &image::RgbImage| band(img).iter().filter(|p| **p == [212, 175, 55]).count();
    assert!(gold(&with) > 50, "{} gold pixels", gold(&with));
    assert!(gold(&plain) > 50, "{} gold pixels", gold(&plain));
    let finished = table
        .resign(timed.match_id, shown.to_act[0].1.id, None)
        .unwrap();
    assert!(finished.times.is_empty(), "no clocks once over");
    let over = decode(finished.board_png());
    assert_eq!(over.height(), plain.height(), "the players are still named");
    assert_eq!(gold(&over), 0, "no one to act");
}

#[test]
fn every_white_and_black_game_says_a_loss_on_time_the_same_way() {
    use crate::engine::{GameRng, Outcome, Seat};
    use crate::games::{GameKind, ON_TIME};
    // En Prise names the colour that ran out instead ("…: Red ran out of time").
    for kind in GameKind::ALL
        .into_iter()
        .filter(|k| *k != GameKind::Enprise)
    {
        let game = kind.start(&[], 2, &mut GameRng::from_seed(1)).unwrap();
        for (seat, words) in [(0, "White won on time"), (1, "Black won on time")] {
            let outcome = Outcome::winner(Seat(seat), 2, ON_TIME);
            assert_eq!(game.describe(&outcome), words, "{kind:?}");
        }
    }
}

/// The computer's clock runs out only while the bot is down or behind, so it never loses on
/// time: its deadline passes once, quietly, and it plays on; its opponent's clock still counts.
#[test]
fn the_computer_never_loses_on_time_and_its_opponent_still_can() {
    let clock = SimClock::at(START);
    let db = temp_db("computer-time");
    let mut table = timed_table(&db, &clock);
    let alice = table.store().local_player("alice").unwrap();
    let cpu = table
        .store()
        .computer_player(crate::ai::Level::Easy, 1)
        .unwrap();
    // A day a move, alice (White) against the computer, after alice's first move.
    let start = |table: &mut Table, options: &[(String, String)], seed: u64| {
        let players = [alice.clone(), cpu.clone()];
        let day = TimeControl::parse("1d").unwrap();
        let id = (table.create_timed(
            GameKind::Chess,
            options,
            &players,
            seed,
            &Place::default(),
            day,
        ))
        .unwrap()
        .match_id;
        table.act(id, alice.id, None, "e4").unwrap();
        id
    };
    let id = start(&mut table, &[], 7);
    // The bot is down for three days: the computer's day runs out.
    clock.advance(3 * DAY);
    assert!(changes(table.fire_due(100).into_result().unwrap()).is_empty());
    assert_eq!(table.store().load(id).unwrap().status, Status::Active);
    // Its time-out is spent, not left to fire again.
    let pending = table.store().deadlines_of(id).unwrap();
    assert!(
        pending
            .iter()
            .all(|d| d.kind != crate::store::DeadlineKind::Timeout),
        "{pending:?}"
    );
    table.act(id, cpu.id, None, "e5").unwrap();
    // Alice's day still counts.
    clock.advance(DAY);
    let done = changes(table.fire_due(100).into_result().unwrap());
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].outcome.clone().unwrap().winners(), &[Seat(1)]);
    // Where a player out of time may be claimed against (on_time=claim), the computer may not.
    let claim = [("on_time".to_string(), "claim".to_string())];
    let id = start(&mut table, &claim, 8);
    clock.advance(3 * DAY);
    table.fire_due(100).into_result().unwrap();
    let refused = table.claim_win(id, alice.id, None).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("no opponent of yours is out of time"),
        "{refused}"
    );
    assert_eq!(table.store().load(id).unwrap().status, Status::Active);
}
