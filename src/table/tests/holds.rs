//! Matches on hold, with a simulated clock: a server the bot was removed from keeps its
//! matches' clocks still and its league rounds open, and gives them back where they were when
//! the bot returns; a deleted thread holds its match until it is reopened elsewhere; a
//! vacation ending meanwhile does not release a hold.

use super::new_league;
use super::temp_db;
use super::*;
use super::{START, changes, timed_table};
use crate::store::HoldReason;
use crate::table::clock::{DAY, HOUR, SimClock};
use crate::table::scheduler::Fired;

fn place() -> Place {
    Place {
        guild_id: Some("g".into()),
        channel_id: Some("c".into()),
        thread_id: Some("t1".into()),
    }
}

/// A two-player chess match in server g, thread t1, with `time` on the clock.
fn guild_match(table: &mut Table, time: &str) -> Update {
    let players: Vec<Player> = (0..2)
        .map(|i| table.store().local_player(&format!("p{i}")).unwrap())
        .collect();
    table
        .create_timed(
            GameKind::Chess,
            &[],
            &players,
            7,
            &place(),
            time_control::TimeControl::parse(time).unwrap(),
        )
        .unwrap()
}

/// A league of four in server g (channel c), its first round started.
fn round_one_in_server(
    table: &mut Table,
    name: &str,
) -> (
    crate::store::leagues::League,
    crate::table::leagues::RoundStarted,
) {
    let mut new = new_league(name);
    new.guild_id = Some("g".into());
    new.channel_id = Some("c".into());
    let league = table.create_league(new).unwrap();
    for i in 1..=4 {
        let player = table.store().local_player(&format!("l{i}")).unwrap();
        table.join_league(&league, player.id).unwrap();
    }
    let started = table.start_round(&league).unwrap();
    (league, started)
}

#[test]
fn a_server_left_holds_its_clocks_and_they_run_again_from_where_they_were() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-server"), &clock);
    let created = guild_match(&mut table, "1d");
    let id = created.match_id;
    assert_eq!(created.clocks, vec![(Seat(0), START + DAY)]);
    clock.advance(6 * HOUR);
    let held = table.server_removed("g").unwrap();
    assert_eq!(held.matches, [id]);
    assert!(table.is_held(id).unwrap());
    // Removed again (a duplicated event): nothing more.
    assert!(table.server_removed("g").unwrap().matches.is_empty());
    // No time runs out shown, none fires, however long the bot is away.
    assert!(table.show(id).unwrap().clocks.is_empty());
    clock.advance(30 * DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    assert_eq!(
        table.show(id).unwrap().times,
        vec![(Seat(0), 18 * HOUR, true), (Seat(1), DAY, false)]
    );
    // Back: the 18 hours left run from now.
    let back = table.server_back("g").unwrap();
    assert_eq!(back.matches, [id]);
    assert!(!table.is_held(id).unwrap());
    let now = table.now();
    assert_eq!(
        table.show(id).unwrap().clocks,
        vec![(Seat(0), now + 18 * HOUR)]
    );
    // A server the bot was never removed from: nothing to do.
    assert_eq!(table.server_back("g").unwrap(), ServerHold::default());
    assert_eq!(table.server_back("other").unwrap(), ServerHold::default());
    clock.advance(18 * HOUR);
    let done = changes(table.fire_due(10).into_result().unwrap());
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].result.as_deref(), Some("Black won on time"));
}

#[test]
fn a_move_in_a_held_match_keeps_the_clocks_held() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-move"), &clock);
    let created = guild_match(&mut table, "1d");
    let id = created.match_id;
    let white = created.to_act[0].1.id;
    table.server_removed("g").unwrap();
    clock.advance(2 * HOUR);
    let moved = table.act(id, white, None, "e4").unwrap();
    assert!(
        moved.clocks.is_empty(),
        "Black's clock is held too: {moved:?}"
    );
    clock.advance(3 * DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    table.server_back("g").unwrap();
    let now = table.now();
    assert_eq!(table.show(id).unwrap().clocks, vec![(Seat(1), now + DAY)]);
}

#[test]
fn a_deleted_thread_holds_its_match_until_it_is_reopened() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-thread"), &clock);
    let created = guild_match(&mut table, "1d");
    let id = created.match_id;
    let white = created.to_act[0].1.id;
    clock.advance(HOUR);
    // Some other channel: nothing.
    assert!(table.thread_deleted("elsewhere").unwrap().is_empty());
    let told = table.thread_deleted("t1").unwrap();
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].match_id, id);
    assert!(table.thread_deleted("t1").unwrap().is_empty(), "told once");
    assert_eq!(table.lost_threads(white, "g").unwrap(), [id]);
    assert!(table.lost_threads(white, "h").unwrap().is_empty());
    clock.advance(5 * DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    let reopened = table.reopened(id, "c2", "t2").unwrap();
    assert_eq!(
        reopened.public,
        ["Match #1 goes on in this thread; its clocks run again."]
    );
    assert_eq!(reopened.place.thread_id.as_deref(), Some("t2"));
    assert_eq!(reopened.place.channel_id.as_deref(), Some("c2"));
    assert_eq!(reopened.clocks, vec![(Seat(0), table.now() + 23 * HOUR)]);
    assert!(table.lost_threads(white, "g").unwrap().is_empty());
    assert_eq!(table.store().match_in_thread("t2").unwrap(), Some(id));
}

#[test]
fn the_channel_of_match_threads_deleted_holds_each_of_its_matches() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-channel"), &clock);
    let first = guild_match(&mut table, "1d").match_id;
    let second = guild_match(&mut table, "1d").match_id;
    let told = table.thread_deleted("c").unwrap();
    let ids: Vec<MatchId> = told.iter().map(|u| u.match_id).collect();
    assert_eq!(ids, [first, second]);
}

#[test]
fn a_vacation_ending_while_the_server_is_gone_leaves_the_clock_held() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-vacation"), &clock);
    let created = guild_match(&mut table, "1d");
    let id = created.match_id;
    let white = created.to_act[0].1.id;
    clock.advance(4 * HOUR);
    table.start_vacation(white, 2).unwrap();
    clock.advance(HOUR);
    table.server_removed("g").unwrap();
    clock.advance(HOUR);
    table.end_vacation(white).unwrap();
    assert!(table.show(id).unwrap().clocks.is_empty(), "still held");
    clock.advance(3 * DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    table.server_back("g").unwrap();
    // The 20 hours White had when the vacation began.
    let now = table.now();
    assert_eq!(
        table.show(id).unwrap().clocks,
        vec![(Seat(0), now + 20 * HOUR)]
    );
}

#[test]
fn a_thread_and_a_server_both_gone_need_both_back() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-both"), &clock);
    let id = guild_match(&mut table, "1d").match_id;
    table.thread_deleted("t1").unwrap();
    table.server_removed("g").unwrap();
    assert_eq!(
        table.store().holds_of(id).unwrap(),
        [HoldReason::Server, HoldReason::Thread]
    );
    table.server_back("g").unwrap();
    assert!(table.is_held(id).unwrap(), "its thread is still gone");
    table.reopened(id, "c", "t9").unwrap();
    assert!(!table.is_held(id).unwrap());
}

#[test]
fn a_league_of_a_server_left_is_suspended_and_its_round_closes_as_much_later() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-league"), &clock);
    let (league, started) = round_one_in_server(&mut table, "held");
    let deadline = started.deadline;
    clock.advance(DAY);
    table.server_removed("g").unwrap();
    let leagues = |fired: Vec<Fired>| {
        fired
            .into_iter()
            .filter(|f| matches!(f, Fired::League { .. } | Fired::RoundReminder { .. }))
            .count()
    };
    clock.set(deadline + 10 * DAY);
    assert_eq!(leagues(table.fire_due(50).into_result().unwrap()), 0);
    assert_eq!(table.next_deadline().unwrap(), None, "nothing to wake for");
    let season = table.store().season(league.id).unwrap();
    assert!(!table.store().rounds(season.id).unwrap()[0].closed);
    // Back: the round closes as much later as the server was gone.
    table.server_back("g").unwrap();
    let rounds = table.store().rounds(season.id).unwrap();
    let gone = deadline + 10 * DAY - (START + DAY);
    assert_eq!(rounds[0].deadline, deadline + gone);
    assert_eq!(leagues(table.fire_due(50).into_result().unwrap()), 0);
}

#[test]
fn a_league_game_whose_thread_is_gone_is_not_forfeited_when_its_round_closes() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-league-thread"), &clock);
    let (league, started) = round_one_in_server(&mut table, "threads");
    let season = table.store().season(league.id).unwrap();
    let games: Vec<MatchId> = table
        .store()
        .pairings(season.id)
        .unwrap()
        .iter()
        .filter_map(|p| p.match_id)
        .collect();
    assert_eq!(games.len(), 2);
    // Both threads made (the outbox's sender reports them): their clocks run.
    for (id, thread) in games.iter().zip(["t1", "t2"]) {
        table.thread_opened(*id, thread, None).unwrap().unwrap();
    }
    // Neither game begun; the first one's thread is deleted.
    assert_eq!(table.thread_deleted("t1").unwrap().len(), 1);
    clock.set(started.deadline + HOUR);
    table.fire_due(50).into_result().unwrap();
    let results: Vec<(MatchId, Option<String>)> = table
        .store()
        .pairings(season.id)
        .unwrap()
        .into_iter()
        .filter_map(|p| Some((p.match_id?, p.result)))
        .collect();
    assert!(table.store().rounds(season.id).unwrap()[0].closed);
    assert_eq!(
        results.iter().find(|(id, _)| *id == games[0]).unwrap().1,
        None
    );
    assert_eq!(
        results
            .iter()
            .find(|(id, _)| *id == games[1])
            .unwrap()
            .1
            .as_deref(),
        Some("0F-1X")
    );
}

/// A three-player Memory match of En Prise in server g, thread t1: its reveal timer (60
/// seconds) runs from now.
fn memory_match(table: &mut Table) -> Update {
    let players: Vec<Player> = (0..3)
        .map(|i| table.store().local_player(&format!("m{i}")).unwrap())
        .collect();
    let created = table
        .create_timed(
            GameKind::Enprise,
            &[("variant".into(), "memory".into())],
            &players,
            7,
            &place(),
            time_control::TimeControl::None,
        )
        .unwrap();
    assert_eq!(created.timeout, Some(60));
    created
}

#[test]
fn memorys_reveal_waits_while_its_server_is_gone_and_keeps_the_time_it_had_left() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-memory-server"), &clock);
    let id = memory_match(&mut table).match_id;
    clock.advance(20);
    assert_eq!(table.server_removed("g").unwrap().matches, [id]);
    // Nothing fires however long the bot is away.
    clock.advance(DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    // Back: the 40 seconds it had left run from now.
    table.server_back("g").unwrap();
    clock.advance(39);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    clock.advance(1);
    let done = changes(table.fire_due(10).into_result().unwrap());
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].public[0], "Time is up.");
    assert!(table.fire_due(10).into_result().unwrap().is_empty(), "once");
}

#[test]
fn memorys_reveal_in_a_reopened_match_runs_again_only_once_its_board_is_shown() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-memory-thread"), &clock);
    let id = memory_match(&mut table).match_id;
    clock.advance(50);
    assert_eq!(table.thread_deleted("t1").unwrap().len(), 1);
    clock.advance(DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    // Reopened: the clocks run again, but the reveal waits for the players to see the board.
    table.reopened(id, "c2", "t2").unwrap();
    assert!(!table.is_held(id).unwrap());
    clock.advance(HOUR);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    table.board_shown(id).unwrap();
    // Shown again (a second /board): the time left is not given twice.
    clock.advance(4);
    table.board_shown(id).unwrap();
    clock.advance(5);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    clock.advance(1);
    let done = changes(table.fire_due(10).into_result().unwrap());
    assert_eq!(done.len(), 1, "the 10 seconds it had left");
    assert_eq!(done[0].public[0], "Time is up.");
}

#[test]
fn memorys_reveal_waits_for_both_a_thread_and_a_server_to_come_back() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-memory-both"), &clock);
    let id = memory_match(&mut table).match_id;
    clock.advance(30);
    table.thread_deleted("t1").unwrap();
    table.server_removed("g").unwrap();
    clock.advance(HOUR);
    table.reopened(id, "c2", "t2").unwrap();
    // Still held for its server: showing the board releases nothing.
    table.board_shown(id).unwrap();
    clock.advance(DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    table.server_back("g").unwrap();
    clock.advance(29);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    clock.advance(1);
    assert_eq!(changes(table.fire_due(10).into_result().unwrap()).len(), 1);
}

#[test]
fn a_reveal_timer_set_while_the_match_is_held_waits_for_the_release() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("hold-memory-act"), &clock);
    let id = memory_match(&mut table).match_id;
    table.server_removed("g").unwrap();
    // A player gets ready from their DMs while the server is gone: the timer starts again,
    // held, with its full time.
    let player = table.store().local_player("m1").unwrap().id;
    let ready = table.act(id, player, None, "ready").unwrap();
    assert_eq!(ready.timeout, Some(60));
    clock.advance(DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    table.server_back("g").unwrap();
    clock.advance(59);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    clock.advance(1);
    assert_eq!(changes(table.fire_due(10).into_result().unwrap()).len(), 1);
}

#[test]
fn memorys_reveal_of_a_match_reopened_just_before_a_restart_runs_again_when_the_bot_starts() {
    let clock = SimClock::at(START);
    let path = temp_db("hold-memory-restart");
    let mut table = timed_table(&path, &clock);
    let id = memory_match(&mut table).match_id;
    clock.advance(50);
    assert_eq!(table.thread_deleted("t1").unwrap().len(), 1);
    // Reopened, and the bot stopped before the board was shown: nobody says it was.
    table.reopened(id, "c2", "t2").unwrap();
    drop(table);
    let mut table = timed_table(&path, &clock);
    table.start_timers_waiting_for_boards().unwrap();
    clock.advance(9);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    clock.advance(1);
    let done = changes(table.fire_due(10).into_result().unwrap());
    assert_eq!(done.len(), 1, "the 10 seconds it had left, from the start");
    assert_eq!(done[0].public[0], "Time is up.");
    // Asked again (a second start): nothing more is given.
    table.start_timers_waiting_for_boards().unwrap();
    clock.advance(DAY);
    assert!(table.fire_due(10).into_result().unwrap().is_empty(), "once");
}
