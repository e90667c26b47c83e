//! Matches waiting for their thread, with a simulated clock: an accepted challenge's match is
//! held, its thread owed in the acceptance's own transaction, until the thread is stored (its
//! clocks start then); a challenge's match whose thread cannot be made is called off, unrated
//! with no deadline left; a league board's is held for `/board`, the other boards untouched.

use super::new_league;
use super::temp_db;
use super::*;
use super::{START, changes, timed_table};
use crate::store::outbox::{Destination, Post, PostState};
use crate::store::{Accepted, ChallengeError, ChallengeId, HoldReason, NewChallenge};
use crate::table::clock::{DAY, SimClock};
use crate::table::outbox::Owed;

/// alice challenges bob to chess with a day a move, in channel c of server g (or nowhere).
fn challenge(table: &mut Table, channel: Option<&str>) -> (ChallengeId, Vec<Player>) {
    let players: Vec<Player> = [("101", "alice"), ("102", "bob")]
        .iter()
        .map(|(id, name)| table.store().discord_player(id, name).unwrap())
        .collect();
    let new = NewChallenge {
        game: GameKind::Chess,
        options: vec![],
        time_control: "1d".into(),
        seed: 42,
        players: players.iter().map(|p| p.id).collect(),
        guild_id: channel.map(|_| "g".into()),
        channel_id: channel.map(str::to_string),
        lasts: 900,
        rated: true,
    };
    let now = table.now();
    let c = table.store().create_challenge(&new, now).unwrap();
    (c.id, players)
}

/// Bob's acceptance, the last: the match it started.
fn accepted(table: &mut Table, id: ChallengeId, bob: &Player) -> MatchId {
    match table.accept_challenge(id, bob.id, Some("5000")).unwrap() {
        Accepted::Started { match_id, .. } => match_id,
        other => panic!("not started: {other:?}"),
    }
}

/// The posts owed and not sent, with what each owes.
fn owed(table: &mut Table) -> Vec<(Post, Owed)> {
    table
        .store()
        .unsent_posts()
        .unwrap()
        .into_iter()
        .map(|p| {
            let owed = Owed::parse(&p.payload).unwrap();
            (p, owed)
        })
        .collect()
}

#[test]
fn an_accepted_challenge_is_held_until_its_thread_is_stored_and_its_clocks_start_then() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("opening-held"), &clock);
    let (id, players) = challenge(&mut table, Some("c"));
    let match_id = accepted(&mut table, id, &players[1]);

    // Held, with its thread owed to its channel.
    assert_eq!(
        table.store().holds_of(match_id).unwrap(),
        [HoldReason::Opening]
    );
    assert!(
        table.show(match_id).unwrap().clocks.is_empty(),
        "no clock runs"
    );
    let posts = owed(&mut table);
    assert_eq!(posts.len(), 1, "{posts:#?}");
    assert_eq!(posts[0].0.destination, Destination::Match(match_id).key());
    assert_eq!(
        posts[0].1,
        Owed::OpenThread {
            match_id,
            from: Some("5000".into()),
            challenge: Some(id),
            round: None,
        }
    );

    // However long the thread takes, no time runs out.
    clock.advance(3 * DAY);
    assert!(changes(table.fire_due(10).into_result().unwrap()).is_empty());
    assert_eq!(
        table.show(match_id).unwrap().times,
        vec![(Seat(0), DAY, true), (Seat(1), DAY, false)]
    );
    // A press meanwhile is told the thread is still opening.
    let again = table.accept_challenge(id, players[1].id, Some("5000"));
    assert!(
        matches!(
            again,
            Err(ChallengeError::AlreadyStarted {
                thread_id: None,
                ..
            })
        ),
        "{again:?}"
    );

    // The thread is stored: the clock starts now, and the first board is owed.
    let opened = table.thread_opened(match_id, "t1", None).unwrap().unwrap();
    assert_eq!(opened.clocks, vec![(Seat(0), START + 4 * DAY)]);
    assert_eq!(opened.place.thread_id.as_deref(), Some("t1"));
    assert!(!table.is_held(match_id).unwrap());
    let boards: Vec<Owed> = owed(&mut table)
        .into_iter()
        .map(|(_, o)| o)
        .filter(|o| matches!(o, Owed::Board { .. }))
        .collect();
    assert_eq!(
        boards,
        [Owed::Board {
            match_id,
            version: opened.version,
            public: opened.public.clone(),
            turns: true,
        }]
    );
    // Stored once: a second report of a thread changes nothing.
    assert!(table.thread_opened(match_id, "t2", None).unwrap().is_none());
    let again = table.accept_challenge(id, players[1].id, Some("5000"));
    assert!(
        matches!(again, Err(ChallengeError::AlreadyStarted { thread_id: Some(ref t), .. }) if t == "t1"),
        "{again:?}"
    );
}

#[test]
fn a_challenge_made_in_no_channel_starts_its_clocks_at_once() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("opening-nowhere"), &clock);
    let (id, players) = challenge(&mut table, None);
    let match_id = accepted(&mut table, id, &players[1]);
    assert!(!table.is_held(match_id).unwrap());
    assert_eq!(
        table.show(match_id).unwrap().clocks,
        vec![(Seat(0), START + DAY)]
    );
    assert!(owed(&mut table).is_empty());
}

#[test]
fn the_thread_is_owed_in_the_acceptances_own_transaction() {
    let clock = SimClock::at(START);
    let path = temp_file("opening-atomic");
    let mut table = Table::with_clock(Store::open(&path).unwrap(), clock.clone());
    let (id, players) = challenge(&mut table, Some("c"));
    // The outbox refuses every row for a while: the acceptance fails as a whole.
    let other = rusqlite::Connection::open(&path).unwrap();
    other
        .execute_batch(
            "CREATE TRIGGER no_posts BEFORE INSERT ON outbox
             BEGIN SELECT RAISE(ABORT, 'the outbox is full'); END;",
        )
        .unwrap();
    let refused = table.accept_challenge(id, players[1].id, Some("5000"));
    assert!(
        matches!(refused, Err(ChallengeError::Store(_))),
        "{refused:?}"
    );
    let count = |sql: &str| -> i64 { other.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT COUNT(*) FROM matches"), 0, "no match");
    assert_eq!(count("SELECT COUNT(*) FROM match_holds"), 0, "no hold");
    assert_eq!(count("SELECT COUNT(*) FROM outbox"), 0, "no post");
    let stored = table.store().challenge(id).unwrap();
    assert!(stored.match_id.is_none());
    assert!(
        stored.seats[1].accepted_at.is_none(),
        "bob's acceptance undone"
    );

    // The outbox takes rows again: the same press now starts the match, with its post.
    other.execute_batch("DROP TRIGGER no_posts").unwrap();
    let match_id = accepted(&mut table, id, &players[1]);
    assert_eq!(count("SELECT COUNT(*) FROM matches"), 1);
    let posts = owed(&mut table);
    assert!(
        matches!(posts.as_slice(), [(_, Owed::OpenThread { match_id: m, .. })] if *m == match_id),
        "{posts:#?}"
    );
}

#[test]
fn a_challenges_match_whose_thread_cannot_be_made_is_called_off_unrated_with_no_deadline() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("opening-called-off"), &clock);
    let (id, players) = challenge(&mut table, Some("c"));
    let match_id = accepted(&mut table, id, &players[1]);
    let post = owed(&mut table).remove(0).0;
    let reason = "the bot lacks Create Public Threads in <#c>";
    let done = table
        .opening_failed(match_id, Some(id), post.id, reason)
        .unwrap();
    assert_eq!(done, NoThread::CalledOff);

    let head = table.store().load_head(match_id).unwrap();
    assert_eq!(head.status, Status::Aborted, "no result");
    assert!(!table.store().rated(match_id).unwrap(), "unrated");
    assert_eq!(table.store().next_deadline_of(match_id).unwrap(), None);
    assert!(table.store().holds_of(match_id).unwrap().is_empty());
    // The thread's post is dealt with; each player and the challenge's channel are owed why.
    let handled = table.store().post(post.id).unwrap().unwrap();
    assert_eq!(handled.state, PostState::Handled);
    assert_eq!(handled.last_error.as_deref(), Some(reason));
    let mut told: Vec<String> = owed(&mut table)
        .into_iter()
        .map(|(p, o)| {
            assert!(
                matches!(&o, Owed::NoThread { called_off: true, reason: r, .. } if r == reason),
                "{o:?}"
            );
            p.destination
        })
        .collect();
    told.sort();
    assert_eq!(told, ["channel:c", "user:101", "user:102"]);

    // Nothing fires for it later, and nothing brings it back.
    clock.advance(30 * DAY);
    assert!(table.fire_due(10).into_result().unwrap().is_empty());
    assert!(table.thread_opened(match_id, "t1", None).unwrap().is_none());
    let again = table.accept_challenge(id, players[1].id, Some("5000"));
    assert!(
        matches!(again, Err(ChallengeError::CalledOff { match_id: m, .. }) if m == match_id),
        "{again:?}"
    );
}

#[test]
fn a_league_boards_thread_that_cannot_be_made_holds_that_board_alone() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("opening-league"), &clock);
    let mut new = new_league("Openers");
    new.guild_id = Some("g".into());
    new.channel_id = Some("c".into());
    new.time_control = "1d".into();
    let league = table.create_league(new).unwrap();
    let players: Vec<Player> = (1..=4)
        .map(|i| {
            table
                .store()
                .discord_player(&format!("20{i}"), &format!("l{i}"))
                .unwrap()
        })
        .collect();
    for p in &players {
        table.join_league(&league, p.id).unwrap();
    }
    let started = table.start_round(&league).unwrap();
    let ids: Vec<MatchId> = started.matches.iter().map(|u| u.match_id).collect();
    assert_eq!(ids.len(), 2);
    // One thread owed per board, each to its own match (one failing blocks no other).
    let posts = owed(&mut table);
    let opening: Vec<(String, MatchId)> = posts
        .iter()
        .filter_map(|(p, o)| match o {
            Owed::OpenThread {
                match_id,
                round: Some(1),
                challenge: None,
                ..
            } => Some((p.destination.clone(), *match_id)),
            _ => None,
        })
        .collect();
    assert_eq!(
        opening,
        ids.iter()
            .map(|&id| (Destination::Match(id).key(), id))
            .collect::<Vec<_>>()
    );
    for &id in &ids {
        assert_eq!(table.store().holds_of(id).unwrap(), [HoldReason::Opening]);
    }

    // The first board's thread cannot be made; the second's is.
    let failed_post = posts
        .iter()
        .find(|(_, o)| matches!(o, Owed::OpenThread { match_id, .. } if *match_id == ids[0]))
        .unwrap()
        .0
        .id;
    let done = table
        .opening_failed(
            ids[0],
            None,
            failed_post,
            "the bot lacks Create Public Threads in <#c>",
        )
        .unwrap();
    assert_eq!(done, NoThread::Held);
    let opened = table.thread_opened(ids[1], "t2", None).unwrap().unwrap();
    assert_eq!(opened.clocks.len(), 1, "the second board's clock runs");

    // The first is held as a match whose thread was deleted: its players reopen it with
    // /board, and its clock starts then.
    assert_eq!(
        table.store().holds_of(ids[0]).unwrap(),
        [HoldReason::Thread]
    );
    assert_eq!(
        table.store().load_head(ids[0]).unwrap().status,
        Status::Active
    );
    let white = &table.show(ids[0]).unwrap().seat_views[0].1.clone();
    assert_eq!(table.lost_threads(white.id, "g").unwrap(), [ids[0]]);
    let dms: Vec<String> = owed(&mut table)
        .into_iter()
        .filter(|(_, o)| matches!(o, Owed::NoThread { called_off: false, match_id, .. } if *match_id == ids[0]))
        .map(|(p, _)| p.destination)
        .collect();
    assert_eq!(dms.len(), 2, "both its players are told: {dms:?}");
    clock.advance(DAY);
    let reopened = table.reopened(ids[0], "c", "t3").unwrap();
    assert_eq!(reopened.clocks, vec![(Seat(0), START + 2 * DAY)]);
}

#[test]
fn an_accepted_press_leases_the_thread_until_it_answered_and_the_opened_note_is_owed() {
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("opening-lease"), &clock);
    let (id, players) = challenge(&mut table, Some("c"));
    let match_id = accepted(&mut table, id, &players[1]);
    // Not due until the press has answered (or its lease ended): the press's answer comes
    // before the sender's note of where the match is.
    let due = |table: &mut Table| {
        table
            .store()
            .due_posts(START, 10)
            .unwrap()
            .iter()
            .map(|p| p.kind.clone())
            .collect::<Vec<_>>()
    };
    assert!(due(&mut table).is_empty());
    let posts = owed(&mut table);
    assert_eq!(posts[0].0.next_attempt, START + crate::table::outbox::LEASE);
    table.opening_answered(match_id).unwrap();
    assert_eq!(due(&mut table), ["open_thread"]);

    // The thread stored from the challenge's message owes that message its edit, to the
    // challenge's channel, in the same transaction.
    table.thread_opened(match_id, "t1", Some("5000")).unwrap();
    let notes: Vec<(String, Owed)> = owed(&mut table)
        .into_iter()
        .filter(|(p, _)| p.kind == "opened")
        .map(|(p, o)| (p.destination, o))
        .collect();
    assert_eq!(
        notes,
        [(
            Destination::Channel("c".into()).key(),
            Owed::Opened {
                match_id,
                message: "5000".into(),
                thread: "t1".into(),
            }
        )]
    );
    // A league board's thread (made from no message) owes no such edit.
    let mut table = timed_table(&temp_db("opening-no-message"), &clock);
    let (id, players) = challenge(&mut table, Some("c"));
    let match_id = accepted(&mut table, id, &players[1]);
    table.thread_opened(match_id, "t1", None).unwrap();
    assert!(owed(&mut table).iter().all(|(p, _)| p.kind != "opened"));
}
