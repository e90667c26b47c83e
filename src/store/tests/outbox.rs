//! The outbox's rows: of each destination only the earliest pending post is due, a post
//! failing for a while is tried again after a growing wait, and one refused for good is
//! recorded and blocks nothing; on PostgreSQL, a post one process took is not sent by another
//! until its lease ends.

use crate::store::Engine;
use crate::store::outbox::{Destination, MAX_ATTEMPTS, NewPost, POST_LEASE, PostState, backoff};
use crate::store::testing::ScratchDb;

fn post(to: Destination, due: i64) -> NewPost {
    NewPost {
        match_id: None,
        league_id: None,
        destination: to,
        kind: "board".into(),
        payload: "{}".into(),
        version: None,
        due,
    }
}

fn ids(posts: &[crate::store::outbox::Post]) -> Vec<i64> {
    posts.iter().map(|p| p.id).collect()
}

#[test]
fn a_post_is_pending_until_marked_and_a_later_one_never_overtakes_it() {
    let mut store = crate::store::testing::scratch();
    let a = Destination::Channel("1".into());
    let b = Destination::User("2".into());
    let a1 = store.owe(&post(a.clone(), 0), 0).unwrap();
    let a2 = store.owe(&post(a.clone(), 0), 0).unwrap();
    let b1 = store.owe(&post(b, 0), 0).unwrap();
    assert_eq!(ids(&store.due_posts(0, 10).unwrap()), vec![a1, b1]);
    assert_eq!(store.post(a1).unwrap().unwrap().state, PostState::Pending);
    // Failing for a while, a1 holds a2 back; b goes on.
    store.post_retry(a1, 0, "503", None).unwrap();
    assert_eq!(ids(&store.due_posts(0, 10).unwrap()), vec![b1]);
    assert_eq!(store.next_post_due().unwrap(), Some(0));
    assert!(store.post_sent(b1, 1).unwrap());
    assert!(!store.post_sent(b1, 1).unwrap(), "sent once");
    assert_eq!(store.next_post_due().unwrap(), Some(backoff(1)));
    assert_eq!(ids(&store.due_posts(backoff(1), 10).unwrap()), vec![a1]);
    store.post_sent(a1, backoff(1)).unwrap();
    assert_eq!(ids(&store.due_posts(backoff(1), 10).unwrap()), vec![a2]);
    assert_eq!(ids(&store.unsent_posts().unwrap()), vec![a2]);
}

#[test]
fn the_wait_between_tries_doubles_up_to_an_hour_and_honours_retry_after() {
    assert_eq!(
        (1..=4).map(backoff).collect::<Vec<_>>(),
        vec![5, 10, 20, 40]
    );
    assert_eq!(backoff(12), 3600);
    assert_eq!(backoff(u32::MAX), 3600);
    let mut store = crate::store::testing::scratch();
    let id = store.owe(&post(Destination::Match(3), 100), 100).unwrap();
    store.post_retry(id, 100, "503", None).unwrap();
    store.post_retry(id, 105, "503", None).unwrap();
    let stored = store.post(id).unwrap().unwrap();
    assert_eq!((stored.attempts, stored.next_attempt), (2, 115));
    assert_eq!(stored.last_error.as_deref(), Some("503"));
    store.post_retry(id, 115, "429", Some(600)).unwrap();
    assert_eq!(store.post(id).unwrap().unwrap().next_attempt, 715);
}

#[test]
fn a_post_refused_for_good_is_recorded_and_blocks_nothing() {
    let mut store = crate::store::testing::scratch();
    let to = Destination::Channel("5".into());
    let first = store.owe(&post(to.clone(), 0), 0).unwrap();
    let second = store.owe(&post(to, 0), 0).unwrap();
    store
        .post_failed(first, 1, "403 Missing Access (50001)")
        .unwrap();
    let failed = store.post(first).unwrap().unwrap();
    assert_eq!(failed.state, PostState::Failed);
    assert_eq!(
        failed.last_error.as_deref(),
        Some("403 Missing Access (50001)")
    );
    assert!(!store.post_sent(first, 2).unwrap(), "never sent after");
    assert_eq!(ids(&store.due_posts(2, 10).unwrap()), vec![second]);
}

#[test]
fn a_post_failing_every_time_is_given_up_after_its_last_try() {
    let mut store = crate::store::testing::scratch();
    let id = store.owe(&post(Destination::Match(1), 0), 0).unwrap();
    let mut state = PostState::Pending;
    let mut tries = 0;
    while state == PostState::Pending {
        state = store.post_retry(id, 0, "503", None).unwrap();
        tries += 1;
        assert!(tries <= MAX_ATTEMPTS, "never given up");
    }
    assert_eq!(state, PostState::Failed);
    assert!(store.due_posts(i64::MAX, 10).unwrap().is_empty());
}

#[test]
fn a_destination_reads_back_as_written() {
    for to in [
        Destination::Match(12),
        Destination::Channel("34".into()),
        Destination::User("56".into()),
    ] {
        assert_eq!(Destination::parse(&to.key()), Some(to));
    }
    assert_eq!(Destination::parse("elsewhere:1"), None);
    assert_eq!(Destination::parse("match:x"), None);
}

#[test]
fn a_board_whose_own_post_failed_is_due_at_once_not_when_its_lease_ends() {
    let mut store = crate::store::testing::scratch();
    let board = |version: u64, due: i64| NewPost {
        match_id: Some(1),
        version: Some(version),
        ..post(Destination::Match(1), due)
    };
    let leased = store.owe(&board(3, 130), 100).unwrap();
    let other = store.owe(&board(4, 130), 100).unwrap();
    assert!(store.due_posts(110, 10).unwrap().is_empty(), "leased");
    assert_eq!(store.board_due(1, 3, 110).unwrap(), 1);
    assert_eq!(ids(&store.due_posts(110, 10).unwrap()), [leased]);
    assert_eq!(
        store.post(other).unwrap().unwrap().next_attempt,
        130,
        "another version waits"
    );
    // A board already sent, or one due sooner, is left as it is.
    store.post_sent(leased, 111).unwrap();
    assert_eq!(store.board_due(1, 3, 112).unwrap(), 0);
    assert_eq!(store.post(leased).unwrap().unwrap().state, PostState::Sent);
    assert_eq!(store.board_due(1, 4, 140).unwrap(), 0, "due already");
}

#[test]
fn a_post_one_process_took_waits_for_its_lease_before_another_sends_it() {
    let db = ScratchDb::new("outbox-lease");
    let mut first = db.open();
    let mut second = db.open();
    let owed: Vec<i64> = (0..10)
        .map(|i| {
            let to = Destination::Channel(i.to_string());
            first.owe(&post(to, 0), 0).unwrap()
        })
        .collect();
    let taken = first.take_due_posts(5, 100).unwrap();
    assert_eq!(ids(&taken), owed);
    let also = second.take_due_posts(5, 100).unwrap();
    if first.engine() == Engine::Sqlite {
        // One process on one file: what is due is due.
        assert_eq!(ids(&also), owed);
        return;
    }
    assert!(also.is_empty(), "taken by the first process: {also:?}");
    // The first sends three and dies: the rest are the second's once the lease ends.
    for id in &owed[..3] {
        assert!(first.post_sent(*id, 6).unwrap());
    }
    drop(first);
    assert!(
        second
            .take_due_posts(5 + POST_LEASE - 1, 100)
            .unwrap()
            .is_empty()
    );
    let left = second.take_due_posts(5 + POST_LEASE, 100).unwrap();
    assert_eq!(ids(&left), owed[3..]);
    // One taken but not sent (its destination busy) is given back at once.
    second.release_posts(&[owed[4]], 5 + POST_LEASE).unwrap();
    let again = second.take_due_posts(5 + POST_LEASE, 100).unwrap();
    assert_eq!(ids(&again), [owed[4]]);
    // A retry replaces the lease with its own wait.
    second
        .post_retry(owed[3], 5 + POST_LEASE, "503", None)
        .unwrap();
    assert_eq!(
        second.post(owed[3]).unwrap().unwrap().next_attempt,
        5 + POST_LEASE + backoff(1)
    );
}

/// PostgreSQL: processes claiming the outbox at once each take a post once, a destination's
/// posts in their order, and a claim does not wait for another process's write lock.
#[test]
fn processes_claiming_at_once_take_each_post_once_and_wait_for_no_write_lock() {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};
    let db = ScratchDb::new("outbox-claims");
    let mut store = db.open();
    if store.engine() == Engine::Sqlite {
        // One process on one file: nothing to claim from another (the lease test says so).
        return;
    }
    let destinations = 25;
    let owed: Vec<(i64, usize)> = (0..100)
        .map(|i| {
            let to = Destination::Channel((i % destinations).to_string());
            (store.owe(&post(to, 0), 0).unwrap(), i % destinations)
        })
        .collect();
    // While another process's move holds the write lock, a claim goes ahead. (PostgreSQL's
    // lock is taken with the transaction's first statement; opening a store takes it too.)
    let mut claimer = db.open();
    store.connection().begin_write().unwrap();
    let _: i64 = store
        .connection()
        .query_row("SELECT 1", [], |r| r.get(0))
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let first = {
        std::thread::spawn(move || {
            let posts = claimer.take_due_posts(5, 3).unwrap();
            let before: Vec<i64> = posts.iter().map(|p| p.next_attempt).collect();
            tx.send((ids(&posts), before)).unwrap();
        })
    };
    let claimed = rx.recv_timeout(std::time::Duration::from_secs(10));
    store.connection().end(true).unwrap();
    first.join().unwrap();
    let (claimed, before) = claimed.expect("a claim does not wait for the write lock");
    assert_eq!(claimed, [owed[0].0, owed[1].0, owed[2].0]);
    assert_eq!(before, [0, 0, 0], "returned as they were before the lease");
    // Those three are leased: whoever took them sends them.
    let mut sender = db.open();
    for id in &claimed {
        assert!(sender.post_sent(*id, 6).unwrap());
    }
    // Each post's predecessor to the same destination must be sent before it is taken.
    let previous: Arc<HashMap<i64, i64>> = Arc::new(
        owed.iter()
            .filter_map(|&(id, d)| {
                let before = owed
                    .iter()
                    .filter(|o| o.1 == d && o.0 < id)
                    .map(|o| o.0)
                    .max();
                before.map(|b| (id, b))
            })
            .collect(),
    );
    let sent = Arc::new(Mutex::new(std::collections::HashSet::<i64>::from_iter(
        claimed.iter().copied(),
    )));
    let order = Arc::new(AtomicU64::new(0));
    let taken = Arc::new(Mutex::new(
        claimed.iter().map(|&id| (id, 0u64)).collect::<Vec<_>>(),
    ));
    let claimers: Vec<_> = (0..4)
        .map(|_| {
            let (db, order, taken) = (db.clone(), order.clone(), taken.clone());
            let (previous, sent) = (previous.clone(), sent.clone());
            std::thread::spawn(move || {
                let mut store = db.open();
                let mut idle = 0;
                while idle < 20 {
                    let posts = store.take_due_posts(5, 7).unwrap();
                    idle = if posts.is_empty() { idle + 1 } else { 0 };
                    for p in posts {
                        let at = order.fetch_add(1, Ordering::SeqCst) + 1;
                        taken.lock().unwrap().push((p.id, at));
                        if let Some(before) = previous.get(&p.id) {
                            let done = sent.lock().unwrap().contains(before);
                            assert!(done, "post {} taken before {before} was sent", p.id);
                        }
                        assert!(store.post_sent(p.id, 6).unwrap(), "post {} sent once", p.id);
                        sent.lock().unwrap().insert(p.id);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            })
        })
        .collect();
    for c in claimers {
        c.join().unwrap();
    }
    let taken = taken.lock().unwrap().clone();
    let mut got: Vec<i64> = taken.iter().map(|t| t.0).collect();
    got.sort();
    let mut want: Vec<i64> = owed.iter().map(|o| o.0).collect();
    want.sort();
    assert_eq!(
        got, want,
        "every post taken exactly once, under another's write lock"
    );
    let when: HashMap<i64, u64> = taken.into_iter().collect();
    for d in 0..destinations {
        let mine: Vec<u64> = owed
            .iter()
            .filter(|o| o.1 == d)
            .map(|o| when[&o.0])
            .collect();
        assert!(mine.is_sorted(), "destination {d}: sent in order {mine:?}");
    }
}
