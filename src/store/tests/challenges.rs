//! Tests of challenges in storage: ids never reused, acceptances from two connections at once,
//! one match from a doubled final Accept, expiry by the caller's time, and every refusal.

use super::*;
use crate::store::Status;
use crate::store::testing::ScratchDb;
use std::sync::{Arc, Barrier};

const T0: i64 = 1_000_000;
const LASTS: i64 = 900;

/// A new database to open from several connections (see `store::testing`).
fn temp_db(name: &str) -> ScratchDb {
    ScratchDb::new(&format!("challenges-{name}"))
}

/// alice, bob, carol, dave (Discord players).
fn players(store: &mut Store) -> Vec<Player> {
    ["alice", "bob", "carol", "dave"]
        .iter()
        .enumerate()
        .map(|(i, name)| store.discord_player(&format!("10{i}"), name).unwrap())
        .collect()
}

fn challenge_of(store: &mut Store, game: GameKind, seats: &[&Player]) -> Challenge {
    lasting(store, game, seats, LASTS)
}

fn lasting(store: &mut Store, game: GameKind, seats: &[&Player], lasts: i64) -> Challenge {
    let new = NewChallenge {
        game,
        options: vec![("variant".into(), "blind".into())],
        time_control: "none".into(),
        seed: 42,
        players: seats.iter().map(|p| p.id).collect(),
        guild_id: Some("g".into()),
        channel_id: Some("c".into()),
        lasts,
        // A casual match: the match made from it keeps that.
        rated: false,
    };
    store.create_challenge(&new, T0).unwrap()
}

fn match_count(store: &Store) -> i64 {
    store
        .connection()
        .query_row("SELECT COUNT(*) FROM matches", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_challenge_is_stored_with_the_challenger_accepted() {
    let mut store = crate::store::testing::scratch();
    let p = players(&mut store);
    let c = challenge_of(&mut store, GameKind::Enprise, &[&p[0], &p[1], &p[2]]);
    assert_eq!(c.status, ChallengeStatus::Open);
    assert_eq!((c.created_at, c.expires_at), (T0, T0 + LASTS));
    assert_eq!(c.time_control, "none");
    assert_eq!(c.seats[0].accepted_at, Some(T0));
    let waiting: Vec<&str> = c.waiting().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(waiting, ["bob", "carol"]);
    store.set_challenge_message(c.id, "555").unwrap();
    let again = store.challenge(c.id).unwrap();
    assert_eq!(again.message_id.as_deref(), Some("555"));
    assert_eq!(again.options, c.options);
    assert_eq!(again.challenger().name, "alice");
}

#[test]
fn a_challenger_may_sit_in_any_seat_and_a_damaged_seat_number_is_reported() {
    let mut store = crate::store::testing::scratch();
    let p = players(&mut store);
    let new = NewChallenge {
        game: GameKind::Chess,
        options: vec![],
        time_control: "none".into(),
        seed: 1,
        players: vec![p[1].id, p[0].id],
        guild_id: None,
        channel_id: None,
        lasts: LASTS,
        rated: false,
    };
    // Alice challenges from seat 2: she has accepted, Bob (seat 1) is awaited.
    let c = store.create_challenge_by(&new, 1, T0).unwrap();
    assert_eq!(c.challenger, 1);
    assert_eq!(c.challenger().name, "alice");
    let invited: Vec<&str> = c.invited().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(invited, ["bob"]);
    assert_eq!(c.seats[1].accepted_at, Some(T0));
    assert_eq!(c.seats[0].accepted_at, None);
    store
        .conn
        .execute("UPDATE challenges SET challenger = 7 WHERE id = ?1", [c.id])
        .unwrap();
    match store.challenge(c.id) {
        Err(ChallengeError::Corrupt { detail, .. }) => {
            assert_eq!(detail, "challenger in seat 7 of 2")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn ids_are_never_reused_after_a_delete_or_a_restart() {
    let path = temp_db("ids");
    let mut store = path.open();
    let p = players(&mut store);
    let first = challenge_of(&mut store, GameKind::Chess, &[&p[0], &p[1]]).id;
    let second = challenge_of(&mut store, GameKind::Chess, &[&p[0], &p[1]]).id;
    assert!(second > first);
    // The newest row goes away (a clean-up): a plain rowid would hand its id out again.
    store
        .connection()
        .execute("DELETE FROM challenges WHERE id = ?1", [second])
        .unwrap();
    drop(store);
    let mut store = path.open();
    let third = challenge_of(&mut store, GameKind::Chess, &[&p[0], &p[1]]).id;
    assert!(third > second, "{third} after {second}");
    assert!(matches!(
        store.challenge(second),
        Err(ChallengeError::NoSuchChallenge(id)) if id == second
    ));
}

#[test]
fn the_last_acceptance_creates_the_match_in_seat_order() {
    let mut store = crate::store::testing::scratch();
    let p = players(&mut store);
    let c = challenge_of(&mut store, GameKind::Enprise, &[&p[0], &p[1], &p[2]]);
    let Accepted::Waiting(after) = store.accept_challenge(c.id, p[2].id, T0 + 5, None).unwrap()
    else {
        panic!("bob has not accepted yet");
    };
    assert_eq!(after.seats[2].accepted_at, Some(T0 + 5));
    assert_eq!(match_count(&store), 0);
    let Accepted::Started {
        challenge,
        match_id,
    } = store.accept_challenge(c.id, p[1].id, T0 + 6, None).unwrap()
    else {
        panic!("everyone accepted");
    };
    assert_eq!(challenge.status, ChallengeStatus::Accepted);
    assert_eq!(challenge.match_id, Some(match_id));
    let stored = store.load(match_id).unwrap();
    let names: Vec<&str> = stored.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["alice", "bob", "carol"]);
    assert_eq!(
        (stored.game, stored.seed, stored.status),
        (GameKind::Enprise, 42, Status::Active)
    );
    assert_eq!(stored.options, c.options);
    assert_eq!(stored.place.channel_id.as_deref(), Some("c"));
    assert_eq!(stored.place.thread_id, None, "the adapter opens the thread");
    assert_eq!(stored.rules, GameKind::Enprise.rules());
    assert!(!store.rated(match_id).unwrap(), "as the challenge said");
}

#[test]
fn each_refusal_is_precise() {
    let mut store = crate::store::testing::scratch();
    let p = players(&mut store);
    let c = challenge_of(&mut store, GameKind::Enprise, &[&p[0], &p[1], &p[2]]);
    let t = T0 + 1;
    assert!(matches!(
        store.accept_challenge(999, p[1].id, t, None),
        Err(ChallengeError::NoSuchChallenge(999))
    ));
    assert!(matches!(
        store.accept_challenge(c.id, p[3].id, t, None),
        Err(ChallengeError::NotAddressed(id)) if id == c.id
    ));
    assert!(matches!(
        store.decline_challenge(c.id, p[3].id, t),
        Err(ChallengeError::NotAddressed(_))
    ));
    assert!(
        matches!(
            store.accept_challenge(c.id, p[0].id, t, None),
            Err(ChallengeError::AlreadyAccepted(_))
        ),
        "the challenger accepted by challenging"
    );
    store.accept_challenge(c.id, p[1].id, t, None).unwrap();
    assert!(matches!(
        store.accept_challenge(c.id, p[1].id, t, None),
        Err(ChallengeError::AlreadyAccepted(_))
    ));
    // Declined: nobody can answer it any more.
    let declined = store.decline_challenge(c.id, p[2].id, t).unwrap();
    assert_eq!(declined.status, ChallengeStatus::Declined);
    assert!(matches!(
        store.accept_challenge(c.id, p[2].id, t, None),
        Err(ChallengeError::Declined(_))
    ));
    assert!(matches!(
        store.decline_challenge(c.id, p[0].id, t),
        Err(ChallengeError::Declined(_))
    ));
    assert_eq!(match_count(&store), 0);

    // Accepted: the match it became, and its thread once the adapter set it.
    let c = challenge_of(&mut store, GameKind::Chess, &[&p[0], &p[1]]);
    let Accepted::Started { match_id, .. } =
        store.accept_challenge(c.id, p[1].id, t, None).unwrap()
    else {
        panic!("two players: one acceptance starts it");
    };
    match store.accept_challenge(c.id, p[1].id, t, None) {
        Err(ChallengeError::AlreadyStarted {
            match_id: m,
            thread_id: None,
            ..
        }) => assert_eq!(m, match_id),
        other => panic!("{other:?}"),
    }
    store.set_thread(match_id, "777").unwrap();
    for who in [&p[0], &p[3]] {
        match store.decline_challenge(c.id, who.id, t) {
            Err(ChallengeError::AlreadyStarted { thread_id, .. }) => {
                assert_eq!(thread_id.as_deref(), Some("777"))
            }
            other => panic!("{other:?}"),
        }
    }
    let text = ChallengeError::AlreadyStarted {
        id: c.id,
        match_id,
        thread_id: None,
    }
    .to_string();
    assert!(text.contains(&format!("match #{match_id}")), "{text}");
}

#[test]
fn challenges_expire_by_the_callers_time() {
    let mut store = crate::store::testing::scratch();
    let p = players(&mut store);
    let c = challenge_of(&mut store, GameKind::Enprise, &[&p[0], &p[1], &p[2]]);
    let end = T0 + LASTS;
    assert!(store.due_challenges(end - 1).unwrap().is_empty());
    store
        .accept_challenge(c.id, p[1].id, end - 1, None)
        .unwrap();
    // Its time is up: refused although nothing marked it expired yet.
    match store.accept_challenge(c.id, p[2].id, end, None) {
        Err(ChallengeError::Expired { id, at }) => assert_eq!((id, at), (c.id, end)),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        store.decline_challenge(c.id, p[2].id, end + 10),
        Err(ChallengeError::Expired { .. })
    ));
    assert_eq!(store.challenge(c.id).unwrap().status, ChallengeStatus::Open);
    // What a scheduler does: find the due ones, mark them.
    let later = lasting(&mut store, GameKind::Chess, &[&p[0], &p[3]], 2 * LASTS);
    assert_eq!(store.due_challenges(end).unwrap(), [c.id]);
    assert!(!store.expire_challenge(c.id, end - 1).unwrap(), "not yet");
    assert!(store.expire_challenge(c.id, end).unwrap());
    assert!(!store.expire_challenge(c.id, end).unwrap(), "once");
    assert!(matches!(
        store.expire_challenge(999, end),
        Err(ChallengeError::NoSuchChallenge(999))
    ));
    assert_eq!(
        store.challenge(c.id).unwrap().status,
        ChallengeStatus::Expired
    );
    assert!(store.due_challenges(end).unwrap().is_empty());
    assert_eq!(store.due_challenges(T0 + 2 * LASTS).unwrap(), [later.id]);
    assert!(matches!(
        store.accept_challenge(c.id, p[2].id, end - 100, None),
        Err(ChallengeError::Expired { .. })
    ));
    assert_eq!(match_count(&store), 0);
}

/// Work for one connection of [`at_once`].
type Work<R> = Box<dyn FnOnce(&mut Store) -> R + Send>;

/// Runs each `work` on its own connection to one database, released together by a barrier.
fn at_once<R: Send + 'static>(db: &ScratchDb, work: Vec<Work<R>>) -> Vec<R> {
    let barrier = Arc::new(Barrier::new(work.len()));
    let threads: Vec<_> = work
        .into_iter()
        .map(|w| {
            let (db, barrier) = (db.clone(), barrier.clone());
            std::thread::spawn(move || {
                let mut store = db.open();
                barrier.wait();
                w(&mut store)
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

#[test]
fn two_acceptances_at_once_both_count() {
    let path = temp_db("two-accepts");
    let mut store = path.open();
    let p = players(&mut store);
    for round in 0..10 {
        let c = challenge_of(&mut store, GameKind::Enprise, &[&p[0], &p[1], &p[2]]);
        let id = c.id;
        let accept = |player: PlayerId| -> Work<_> {
            Box::new(move |s: &mut Store| s.accept_challenge(id, player, T0 + 1, None))
        };
        let results = at_once(&path, vec![accept(p[1].id), accept(p[2].id)]);
        let started: Vec<MatchId> = results
            .iter()
            .filter_map(|r| match r {
                Ok(Accepted::Started { match_id, .. }) => Some(*match_id),
                Ok(Accepted::Waiting(_)) => None,
                Err(e) => panic!("round {round}: {e}"),
            })
            .collect();
        assert_eq!(started.len(), 1, "round {round}: {results:?}");
        let after = store.challenge(id).unwrap();
        assert!(after.waiting().is_empty(), "round {round}: both recorded");
        assert_eq!(after.match_id, Some(started[0]));
        assert_eq!(match_count(&store), round + 1);
    }
}

#[test]
fn a_final_accept_pressed_twice_at_once_creates_one_match() {
    let path = temp_db("double-accept");
    let mut store = path.open();
    let p = players(&mut store);
    for round in 0..10 {
        let c = challenge_of(&mut store, GameKind::Chess, &[&p[0], &p[1]]);
        let (id, bob) = (c.id, p[1].id);
        let accept = || -> Work<_> {
            Box::new(move |s: &mut Store| s.accept_challenge(id, bob, T0 + 1, None))
        };
        let results = at_once(&path, vec![accept(), accept(), accept()]);
        let mut started = Vec::new();
        let mut refused = Vec::new();
        for r in results {
            match r {
                Ok(Accepted::Started { match_id, .. }) => started.push(match_id),
                Err(ChallengeError::AlreadyStarted { match_id, .. }) => refused.push(match_id),
                other => panic!("round {round}: {other:?}"),
            }
        }
        assert_eq!(started.len(), 1, "round {round}");
        assert_eq!(refused, [started[0], started[0]], "round {round}");
        assert_eq!(match_count(&store), round + 1);
    }
}

/// The cap on matches against the computer is counted inside the write transaction, which
/// both engines serialise (SQLite's write lock, PostgreSQL's advisory lock): challenges sent at
/// once from three connections by someone one short of the cap let exactly one through. The
/// test holds the write lock while the three start, so all three are under way together (a
/// count taken before the lock would let all three through).
#[test]
fn challenges_to_the_computer_sent_at_once_never_pass_the_cap() {
    use crate::ai::Level;
    use crate::store::challenges::MOST_COMPUTER_MATCHES;
    let path = temp_db("computer-cap");
    let mut store = path.open();
    let cpu = store.computer_player(Level::Easy, 1).unwrap();
    for round in 0..4 {
        let me = store.discord_player(&format!("20{round}"), "eve").unwrap();
        for _ in 1..MOST_COMPUTER_MATCHES {
            challenge_of(&mut store, GameKind::Chess, &[&me, &cpu]);
        }
        let new = NewChallenge {
            game: GameKind::Chess,
            options: vec![],
            time_control: "none".into(),
            seed: 1,
            players: vec![me.id, cpu.id],
            guild_id: Some("g".into()),
            channel_id: Some("c".into()),
            lasts: LASTS,
            rated: false,
        };
        let (opened, go) = (Arc::new(Barrier::new(4)), Arc::new(Barrier::new(4)));
        let threads: Vec<_> = (0..3)
            .map(|_| {
                let (db, opened, go, new) = (path.clone(), opened.clone(), go.clone(), new.clone());
                std::thread::spawn(move || {
                    let mut store = db.open();
                    opened.wait();
                    go.wait();
                    store.create_challenge(&new, T0)
                })
            })
            .collect();
        opened.wait();
        store.connection().begin_write().unwrap();
        // PostgreSQL's lock is taken with the transaction's first statement.
        let _: i64 = store
            .connection()
            .query_row("SELECT 1", [], |r| r.get(0))
            .unwrap();
        go.wait();
        std::thread::sleep(std::time::Duration::from_millis(300));
        store.connection().end(true).unwrap();
        let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let passed = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(passed, 1, "round {round}: {results:?}");
        for r in &results {
            assert!(
                matches!(r, Ok(_) | Err(ChallengeError::ComputerMatches { .. })),
                "round {round}: {r:?}"
            );
        }
        let open: i64 = store
            .connection()
            .query_row(
                "SELECT COUNT(*) FROM challenge_seats WHERE player_id = ?1",
                [me.id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(open, MOST_COMPUTER_MATCHES as i64, "round {round}");
    }
}
