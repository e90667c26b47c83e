//! What the table owes the outbox: a fired deadline writes its post in its own transaction (a
//! rollback leaves neither), a move owes its board under a lease until an interaction shows
//! it and then its turn messages, and a match played nowhere on Discord owes nothing.

use super::clock::{DAY, SimClock};
use super::outbox::{LEASE, Owed};
use super::tests_time::START;
use super::time_control::TimeControl;
use super::*;
use crate::store::outbox::PostState;

/// A table on a simulated clock with a chess match (1 day a move) in a Discord thread, or
/// nowhere on Discord when `thread` is None.
fn table_with_match(clock: &SimClock, thread: Option<&str>) -> (Table, MatchId, Player) {
    let mut table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let alice = table.store().discord_player("1", "alice").unwrap();
    let bob = table.store().discord_player("2", "bob").unwrap();
    let place = match thread {
        Some(thread) => Place {
            guild_id: Some("9".into()),
            channel_id: Some("8".into()),
            thread_id: Some(thread.into()),
        },
        None => Place::default(),
    };
    let time = TimeControl::parse("1d").unwrap();
    let created = table
        .create_timed(GameKind::Chess, &[], &[alice.clone(), bob], 1, &place, time)
        .unwrap();
    (table, created.match_id, alice)
}

#[test]
fn a_fired_deadline_owes_its_post_due_at_once() {
    let clock = SimClock::at(START);
    let (mut table, id, _) = table_with_match(&clock, Some("77"));
    assert!(table.store().unsent_posts().unwrap().is_empty());
    clock.advance(DAY + 1);
    let fired = table.fire_due(10).into_result().unwrap();
    assert_eq!(fired.len(), 1, "{fired:?}");
    let owed = table.store().unsent_posts().unwrap();
    assert_eq!(owed.len(), 1, "{owed:#?}");
    let post = &owed[0];
    assert_eq!(
        (post.kind.as_str(), post.destination.as_str(), post.state),
        ("board", format!("match:{id}").as_str(), PostState::Pending)
    );
    assert_eq!(post.next_attempt, START + DAY + 1, "due at once");
    match Owed::parse(&post.payload).unwrap() {
        Owed::Board { public, turns, .. } => {
            assert_eq!(
                public,
                vec!["alice ran out of time.", "Game over: Black won on time"]
            );
            assert!(turns);
        }
        other => panic!("{other:?}"),
    }
    // Fired once: nothing more is owed.
    assert!(table.fire_due(10).into_result().unwrap().is_empty());
    assert_eq!(table.store().unsent_posts().unwrap().len(), 1);
}

#[test]
fn a_firing_rolled_back_leaves_neither_its_change_nor_its_post() {
    let clock = SimClock::at(START);
    let (mut table, id, _) = table_with_match(&clock, Some("77"));
    clock.advance(DAY + 1);
    let failed = table.atomically(|t| {
        let fired = t.fire_due(10).into_result()?;
        assert_eq!(fired.len(), 1);
        assert_eq!(t.store().unsent_posts().unwrap().len(), 1);
        Err::<(), _>(TableError::Internal("the transaction fails after".into()))
    });
    assert!(failed.is_err());
    assert!(table.store().unsent_posts().unwrap().is_empty(), "no post");
    assert_eq!(table.store().load_head(id).unwrap().status, Status::Active);
    // The deadline is still pending: it fires, with its post, the next time.
    assert_eq!(table.fire_due(10).into_result().unwrap().len(), 1);
    assert_eq!(table.store().unsent_posts().unwrap().len(), 1);
    assert_eq!(
        table.store().load_head(id).unwrap().status,
        Status::Finished
    );
}

#[test]
fn a_move_owes_its_board_under_a_lease_until_it_is_shown_and_then_its_turn_messages() {
    let clock = SimClock::at(START);
    let (mut table, id, alice) = table_with_match(&clock, Some("77"));
    let update = table.act(id, alice.id, None, "e4").unwrap();
    let owed = table.store().unsent_posts().unwrap();
    let kinds: Vec<&str> = owed.iter().map(|p| p.kind.as_str()).collect();
    assert_eq!(kinds, ["board", "turns"], "{owed:#?}");
    assert_eq!(owed[0].next_attempt, START + LEASE);
    assert_eq!(owed[0].version, Some(update.version));
    assert_eq!(
        Owed::parse(&owed[1].payload).unwrap(),
        Owed::Turns {
            match_id: id,
            version: update.version,
            public: update.public.clone(),
            mover: Some(alice.id),
        }
    );
    // The turn messages are due at once, but wait behind the board in the match's line.
    assert_eq!(owed[1].next_attempt, START);
    assert!(table.store().due_posts(START, 10).unwrap().is_empty());
    let due = table.store().due_posts(START + LEASE, 10).unwrap();
    assert_eq!(
        due.iter().map(|p| p.kind.as_str()).collect::<Vec<_>>(),
        ["board"]
    );
    table.delivered(id, update.version).unwrap();
    let due = table.store().due_posts(START, 10).unwrap();
    assert_eq!(
        due.iter().map(|p| p.kind.as_str()).collect::<Vec<_>>(),
        ["turns"]
    );
}

#[test]
fn a_refused_move_owes_nothing() {
    let clock = SimClock::at(START);
    let (mut table, id, alice) = table_with_match(&clock, Some("77"));
    assert!(table.act(id, alice.id, None, "e5").is_err());
    let bob = table.store().discord_player("2", "bob").unwrap();
    assert!(table.act(id, bob.id, None, "e5").is_err(), "not bob's turn");
    assert!(table.store().unsent_posts().unwrap().is_empty());
}

#[test]
fn a_move_whose_board_was_not_shown_is_posted_as_it_was() {
    let clock = SimClock::at(START);
    let (mut table, id, alice) = table_with_match(&clock, Some("77"));
    let first = table.act(id, alice.id, None, "e4").unwrap();
    let (board, current) = table
        .owed_board(id, first.version, vec!["White plays e4".into()])
        .unwrap();
    assert!(current);
    assert_eq!(board.public, vec!["White plays e4"]);
    // The match moved on: the post's lines are still news, its board is no longer current.
    let bob = table.store().discord_player("2", "bob").unwrap();
    table.act(id, bob.id, None, "e5").unwrap();
    let (_, current) = table
        .owed_board(id, first.version, vec!["White plays e4".into()])
        .unwrap();
    assert!(!current);
}

#[test]
fn a_match_played_nowhere_on_discord_owes_nothing() {
    let clock = SimClock::at(START);
    let (mut table, id, alice) = table_with_match(&clock, None);
    table.act(id, alice.id, None, "e4").unwrap();
    clock.advance(DAY + 1);
    assert_eq!(table.fire_due(10).into_result().unwrap().len(), 1);
    assert!(table.store().unsent_posts().unwrap().is_empty());
}
