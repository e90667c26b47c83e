//! What the table owes the outbox: a fired deadline writes its post in its own transaction (a
//! rollback leaves neither), a move owes its board under a lease until an interaction shows
//! it and then its turn messages, and a match played nowhere on Discord owes nothing.

use super::START;
use super::*;
use crate::store::outbox::PostState;
use crate::table::clock::{DAY, SimClock};
use crate::table::outbox::{LEASE, Owed};
use crate::table::time_control::TimeControl;

/// A table on a simulated clock with a chess match (1 day a move) in a Discord thread, or
/// nowhere on Discord when `thread` is None.
fn table_with_match(clock: &SimClock, thread: Option<&str>) -> (Table, MatchId, Player) {
    let mut table = Table::with_clock(scratch(), clock.clone());
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

/// The posts owed and not sent, as (kind, destination, what).
fn owed_now(table: &mut Table) -> Vec<(String, String, Owed)> {
    let posts = table.store().unsent_posts().unwrap();
    posts
        .into_iter()
        .map(|p| {
            let owed = Owed::parse(&p.payload).unwrap();
            (p.kind, p.destination, owed)
        })
        .collect()
}

#[test]
fn a_vacation_owes_its_line_to_each_discord_match_in_its_own_transaction() {
    let clock = SimClock::at(START);
    let (mut table, id, alice) = table_with_match(&clock, Some("77"));
    // A second match of alice's, played on the console: told nowhere on Discord.
    let carol = table.store().local_player("carol").unwrap();
    let time = TimeControl::parse("1d").unwrap();
    let place = Place::default();
    let players = [alice.clone(), carol];
    table
        .create_timed(GameKind::Chess, &[], &players, 2, &place, time)
        .unwrap();
    table.start_vacation(alice.id, 2).unwrap();
    let owed = owed_now(&mut table);
    assert_eq!(owed.len(), 1, "{owed:#?}");
    let (kind, destination, what) = &owed[0];
    assert_eq!(
        (kind.as_str(), destination.clone()),
        ("vacation", format!("match:{id}"))
    );
    assert_eq!(
        *what,
        Owed::Vacation {
            match_id: id,
            line: "alice is on vacation for 2 days: their clock waits until they are back.".into(),
            back: Some(START + 2 * DAY),
        }
    );
    // Refused (on vacation already): nothing more owed, nothing changed.
    assert!(table.start_vacation(alice.id, 1).is_err());
    assert_eq!(owed_now(&mut table).len(), 1);
    // Back by hand: told too.
    table.end_vacation(alice.id).unwrap();
    let owed = owed_now(&mut table);
    assert_eq!(owed.len(), 2);
    assert!(
        matches!(&owed[1].2, Owed::Vacation { line, back: None, .. } if line.contains("is back")),
        "{owed:#?}"
    );
}

#[test]
fn a_player_back_by_moving_is_told_in_their_other_matches_and_in_the_moves_own_lines() {
    let clock = SimClock::at(START);
    let (mut table, first, alice) = table_with_match(&clock, Some("77"));
    let bob = table.store().discord_player("2", "bob").unwrap();
    let place = Place {
        guild_id: Some("9".into()),
        channel_id: Some("8".into()),
        thread_id: Some("78".into()),
    };
    let time = TimeControl::parse("1d").unwrap();
    let second = table
        .create_timed(GameKind::Chess, &[], &[alice.clone(), bob], 2, &place, time)
        .unwrap()
        .match_id;
    table.start_vacation(alice.id, 3).unwrap();
    let before = owed_now(&mut table).len();
    let moved = table.act(first, alice.id, None, "e4").unwrap();
    assert_eq!(
        moved.public.last().unwrap(),
        "alice is back from vacation: their clocks run again."
    );
    let told: Vec<MatchId> = owed_now(&mut table)[before..]
        .iter()
        .filter_map(|(_, _, o)| match o {
            Owed::Vacation { match_id, .. } => Some(*match_id),
            _ => None,
        })
        .collect();
    assert_eq!(
        told,
        [second],
        "the match moved in says it in its own lines"
    );
}

#[test]
fn a_nudge_owes_its_ping_and_a_refused_nudge_owes_nothing() {
    let clock = SimClock::at(START);
    let (mut table, id, alice) = table_with_match(&clock, Some("77"));
    let bob = table.store().discord_player("2", "bob").unwrap();
    // alice is to move: she cannot nudge herself.
    assert!(table.nudge(id, alice.id).is_err());
    assert!(owed_now(&mut table).is_empty());
    let waiting = table.nudge(id, bob.id).unwrap();
    assert_eq!(waiting, std::slice::from_ref(&alice));
    let owed = owed_now(&mut table);
    assert_eq!(
        owed,
        [(
            "nudge".to_string(),
            format!("match:{id}"),
            Owed::Nudge {
                match_id: id,
                from: bob.clone(),
                waiting: vec![alice],
            }
        )]
    );
    // Within 12 hours: refused, and nothing more owed.
    clock.advance(3600);
    assert!(table.nudge(id, bob.id).is_err());
    assert_eq!(owed_now(&mut table).len(), 1);
}

#[test]
fn a_round_started_closed_or_paired_again_on_discord_owes_its_news_and_one_post_a_board() {
    use super::new_league;
    use crate::table::leagues::LeagueError;
    let clock = SimClock::at(START);
    let mut table = Table::with_clock(scratch(), clock.clone());
    let mut new = new_league("Owed");
    new.guild_id = Some("9".into());
    new.channel_id = Some("8".into());
    let league = table.create_league(new).unwrap();
    for (id, name) in [("1", "a"), ("2", "b"), ("3", "c"), ("4", "d")] {
        let player = table.store().discord_player(id, name).unwrap().id;
        table.join_league(&league, player).unwrap();
    }
    let news = |table: &mut Table| -> Vec<Owed> {
        owed_now(table)
            .into_iter()
            .filter(|(_, to, _)| to == "channel:8")
            .map(|(_, _, o)| o)
            .collect()
    };
    let started = table.start_round_told(&league).unwrap();
    let matches: Vec<Option<MatchId>> = started.pairings.iter().map(|p| p.match_id).collect();
    assert_eq!(
        news(&mut table),
        [
            Owed::Round {
                league: league.id,
                closed: vec![],
                started: Some((1, started.deadline)),
            },
            Owed::Pairing {
                league: league.id,
                round: 1,
                board: 1,
                match_id: matches[0],
            },
            Owed::Pairing {
                league: league.id,
                round: 1,
                board: 2,
                match_id: matches[1],
            },
        ]
    );
    // Each board is announced as stored now, its players in seat order.
    let (row, seated) = table
        .pairing_to_announce(league.id, 1, 2, matches[1])
        .unwrap()
        .unwrap();
    assert_eq!(row.match_id, matches[1]);
    assert_eq!(seated.len(), 2);
    // Paired again: the old games' threads are told, the new boards owed; an old board's
    // post finds nothing to announce.
    let count = news(&mut table).len();
    let again = table.repair_round_told(&league, "k1").unwrap().unwrap();
    assert_eq!(again.called_off.len(), 2);
    let notes: Vec<Owed> = owed_now(&mut table)
        .into_iter()
        .filter(|(kind, _, _)| kind == "note")
        .map(|(_, _, o)| o)
        .collect();
    assert_eq!(
        notes[0],
        Owed::Note {
            match_id: matches[0],
            lines: vec![format!(
                "Round 1 was paired again: match #{} is called off.",
                matches[0].unwrap()
            )],
        }
    );
    // The old boards' posts are dropped: the new round's news and its two boards are owed.
    assert_eq!(news(&mut table).len(), count - 2 + 3);
    assert_eq!(
        table
            .pairing_to_announce(league.id, 1, 2, matches[1])
            .unwrap(),
        None
    );
    // Asked twice under one key: done once, owing nothing more.
    assert!(table.repair_round_told(&league, "k1").unwrap().is_none());
    assert_eq!(news(&mut table).len(), count - 2 + 3);
    // Closed: the lines it decided.
    let closed = table.close_round_told(&league, "k2").unwrap().unwrap();
    let last = news(&mut table).pop().unwrap();
    assert_eq!(
        last,
        Owed::Round {
            league: league.id,
            closed: closed.clone(),
            started: None,
        }
    );
    assert!(table.close_round_told(&league, "k2").unwrap().is_none());
    assert_eq!(news(&mut table).last(), Some(&last));
    // Refused (no round running): nothing owed.
    let before = owed_now(&mut table).len();
    let refused = table.close_round_told(&league, "k3");
    assert!(
        matches!(refused, Err(LeagueError::Refused(_))),
        "{refused:?}"
    );
    assert_eq!(owed_now(&mut table).len(), before);
}

#[test]
fn a_substitution_owes_the_newcomers_turn_message_and_an_adjudication_none() {
    use crate::table::admin::{Admin, Ruling};
    let clock = SimClock::at(START);
    let (mut table, id, alice) = table_with_match(&clock, Some("77"));
    let frank = table.store().discord_player("6", "frank").unwrap();
    let referee = table.store().discord_player("7", "ref").unwrap();
    let admin = Admin {
        player: referee.id,
        name: referee.name,
        guild: Some("9".into()),
    };
    let swap = Ruling::Substitute {
        out: alice.id,
        into: frank.id,
    };
    let seated = table.rule(id, &admin, swap, "", None).unwrap();
    let kinds: Vec<(String, Owed)> = owed_now(&mut table)
        .into_iter()
        .map(|(kind, _, owed)| (kind, owed))
        .collect();
    assert_eq!(kinds.len(), 2, "{kinds:#?}");
    assert_eq!(kinds[0].0, "board");
    assert_eq!(
        kinds[1].1,
        Owed::Turns {
            match_id: id,
            version: seated.version,
            public: seated.public.clone(),
            mover: None,
        },
        "frank, now to act, is told after the board"
    );
    // An adjudication ends the match: its board is owed, and no turn message.
    table.delivered(id, seated.version).unwrap();
    let before = owed_now(&mut table).len();
    table.rule(id, &admin, Ruling::Draw, "", None).unwrap();
    let after: Vec<String> = owed_now(&mut table)[before..]
        .iter()
        .map(|(kind, _, _)| kind.clone())
        .collect();
    assert_eq!(after, ["board"]);
}

#[test]
fn a_round_paired_again_before_its_boards_were_posted_announces_each_board_once() {
    use super::new_league;
    let clock = SimClock::at(START);
    let mut table = Table::with_clock(scratch(), clock.clone());
    let mut new = new_league("Odd");
    new.guild_id = Some("9".into());
    new.channel_id = Some("8".into());
    let league = table.create_league(new).unwrap();
    // Three players: one of them has a bye, a board with no match.
    for (id, name) in [("1", "a"), ("2", "b"), ("3", "c")] {
        let player = table.store().discord_player(id, name).unwrap().id;
        table.join_league(&league, player).unwrap();
    }
    let started = table.start_round_told(&league).unwrap();
    assert!(started.pairings.iter().any(|p| p.match_id.is_none()));
    // Paired again while the channel refused every post: nothing of round 1 was sent yet.
    let again = table.repair_round_told(&league, "k1").unwrap().unwrap();
    // What the sender would announce of every post still owed: each board of the round as it
    // is now, once.
    let mut announced = Vec::new();
    for (_, _, owed) in owed_now(&mut table) {
        if let Owed::Pairing {
            league: l,
            round,
            board,
            match_id,
        } = owed
            && let Some((row, _)) = table
                .pairing_to_announce(l, round, board, match_id)
                .unwrap()
        {
            announced.push((row.board, row.match_id));
        }
    }
    let boards: Vec<_> = again
        .pairings
        .iter()
        .map(|p| (p.board, p.match_id))
        .collect();
    assert_eq!(
        announced, boards,
        "each board of the round paired again, once"
    );
}
