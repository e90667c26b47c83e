//! `/metrics` over a real socket, on a real database (an SQLite file, or a schema on the test
//! server): the gauges say what the store holds, and a scrape is answered while the table's
//! thread is busy.

use super::text;
use crate::games::GameKind;
use crate::store::testing::ScratchDb;
use crate::store::{Health, Place};
use crate::table::clock::{DAY, SimClock};
use crate::table::time_control::TimeControl;
use crate::table::{Reads, Table, TableHandle};
use std::collections::HashMap;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const START: i64 = 1_800_000_000;

/// The gauges of `body`, by name.
fn gauges(body: &str) -> HashMap<String, i64> {
    body.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (name, value) = l.split_once(' ').expect("a name and a value");
            (name.to_string(), value.parse().expect("a whole number"))
        })
        .collect()
}

#[test]
fn the_text_names_each_gauge_once_with_its_help_and_type() {
    let health = Health {
        posts_pending: 3,
        posts_due: 2,
        posts_failed: 4,
        oldest_post: Some(START - 30),
        deadlines_due: 1,
        earliest_due: Some(START - 5),
        matches_active: 7,
    };
    let body = text(&health, START);
    let found = gauges(&body);
    let expected = [
        ("deckmate_outbox_pending", 3),
        ("deckmate_outbox_due", 2),
        ("deckmate_outbox_oldest_seconds", 30),
        ("deckmate_outbox_failed", 4),
        ("deckmate_deadlines_due", 1),
        ("deckmate_deadline_lag_seconds", 5),
        ("deckmate_matches_active", 7),
    ];
    assert_eq!(found.len(), expected.len(), "{body}");
    for (name, value) in expected {
        assert_eq!(found[name], value, "{body}");
        assert!(body.contains(&format!("# TYPE {name} gauge\n")), "{body}");
        assert!(body.contains(&format!("# HELP {name} ")), "{body}");
    }
    // Nothing pending and nothing due: ages are 0, not the time since 1970.
    let idle = gauges(&text(&Health::default(), START));
    assert_eq!(idle["deckmate_outbox_oldest_seconds"], 0);
    assert_eq!(idle["deckmate_deadline_lag_seconds"], 0);
}

/// GETs `path` from `address`; the status line and the body.
async fn get(address: std::net::SocketAddr, path: &str) -> (String, String) {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    (
        head.lines().next().unwrap_or("").to_string(),
        body.to_string(),
    )
}

/// A table on `db` at `clock` with one one-day chess match in a thread, e4 played.
fn one_timed_match(db: &ScratchDb, clock: &SimClock) -> Table {
    let mut table = Table::with_clock(db.open(), clock.clone());
    let alice = table
        .store()
        .discord_player("100000000000000001", "alice")
        .unwrap();
    let bob = table
        .store()
        .discord_player("100000000000000002", "bob")
        .unwrap();
    let place = Place {
        guild_id: Some("600000000000000001".into()),
        channel_id: Some("700000000000000001".into()),
        thread_id: Some("710000000000000001".into()),
    };
    let control = TimeControl::parse("1d").unwrap();
    let made = table
        .create_timed(
            GameKind::Chess,
            &[],
            &[alice.clone(), bob],
            1,
            &place,
            control,
        )
        .unwrap();
    table.act(made.match_id, alice.id, None, "e4").unwrap();
    table
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_reads_the_store_off_the_tables_thread() {
    let db = ScratchDb::new("metrics");
    // The store stamps rows it writes with the wall clock; the simulated one starts there.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let clock = SimClock::at(now);
    let mut table = one_timed_match(&db, &clock);
    // Black's day runs out an hour ago; nothing has fired it.
    clock.advance(DAY + 3600);
    let pending = table.store().unsent_posts().unwrap().len() as i64;
    assert!(pending > 0, "the move's board is owed");
    let table = TableHandle::spawn(table);
    let reads = Reads::of(table.clone(), 1).await;
    assert!(
        reads.off_the_writer(),
        "a database file has read-only twins"
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(super::serve(listener, reads));

    let (status, body) = get(address, "/metrics").await;
    assert_eq!(status, "HTTP/1.1 200 OK", "{body}");
    let found = gauges(&body);
    assert_eq!(found["deckmate_matches_active"], 1, "{body}");
    assert_eq!(found["deckmate_outbox_pending"], pending, "{body}");
    let oldest = found["deckmate_outbox_oldest_seconds"];
    assert!((DAY + 3600..DAY + 3660).contains(&oldest), "{body}");
    let due = table
        .call(move |t| t.store().due_deadlines(now + DAY + 3600, 100).unwrap())
        .await
        .unwrap();
    assert!(!due.is_empty());
    assert_eq!(found["deckmate_deadlines_due"], due.len() as i64, "{body}");
    let earliest = due.iter().map(|d| d.due_at).min().unwrap();
    assert_eq!(
        found["deckmate_deadline_lag_seconds"],
        now + DAY + 3600 - earliest,
        "{body}"
    );

    // The table's thread is busy (a long league step, say): the scrape does not wait for it.
    let (busy, release) = std::sync::mpsc::channel::<()>();
    let writer = table.clone();
    let blocked = tokio::spawn(async move {
        writer
            .call(move |_| {
                let _ = release.recv_timeout(Duration::from_secs(30));
            })
            .await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let scrape = tokio::time::timeout(Duration::from_secs(10), get(address, "/metrics")).await;
    busy.send(()).unwrap();
    let (status, _) = scrape.expect("answered while the table's thread was busy");
    assert_eq!(status, "HTTP/1.1 200 OK");
    blocked.await.unwrap().unwrap();

    // Only /metrics is served.
    let (status, _) = get(address, "/admin").await;
    assert_eq!(status, "HTTP/1.1 404 Not Found");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_already_taken_is_refused_by_name() {
    let taken = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = taken.local_addr().unwrap();
    let table = TableHandle::spawn(Table::new(crate::store::Store::open_in_memory().unwrap()));
    let refused = super::start(address, table).await.unwrap_err().to_string();
    assert!(
        refused.starts_with(&format!("METRICS_ADDR {address} cannot be served: ")),
        "{refused}"
    );
}

/// A server of `/metrics` on a store kept in memory, and its address.
async fn serving() -> std::net::SocketAddr {
    let table = TableHandle::spawn(Table::new(crate::store::Store::open_in_memory().unwrap()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(super::serve(listener, Reads::through(table)));
    address
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_limit_are_closed_and_those_within_it_served() {
    let address = serving().await;
    let limits = super::LIMITS;
    // A connection from 127.0.0.`n` (the whole of 127/8 is this host's).
    let from = |n: u8| async move {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(([127, 0, 0, n], 0).into()).unwrap();
        socket.connect(address).await.unwrap()
    };
    // Closed without an answer.
    let refused = |mut stream: tokio::net::TcpStream| async move {
        let mut buffer = [0u8; 64];
        let read = tokio::time::timeout(Duration::from_secs(3), stream.read(&mut buffer)).await;
        assert!(
            matches!(read, Ok(Ok(0)) | Ok(Err(_))),
            "closed without an answer: {read:?}"
        );
    };
    // One address holds its share (sending nothing); one more from it is closed at once.
    let mut held = Vec::new();
    for _ in 0..limits.per_client {
        held.push(from(1).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    refused(from(1).await).await;
    // Other addresses fill the rest; past the whole limit, a new address is closed too.
    let mut n = 2;
    while held.len() < limits.connections {
        for _ in 0..limits.per_client.min(limits.connections - held.len()) {
            held.push(from(n).await);
        }
        n += 1;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    refused(from(n).await).await;
    // A connection within the limit is still answered.
    let first = &mut held[0];
    let request = "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n";
    first.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    first.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    assert!(answer.contains("deckmate_matches_active 0"), "{answer}");
}

#[tokio::test(start_paused = true)]
async fn a_client_that_never_sends_its_request_is_dropped_after_the_head_time() {
    let address = serving().await;
    let mut idle = tokio::net::TcpStream::connect(address).await.unwrap();
    let started = tokio::time::Instant::now();
    let mut buffer = [0u8; 64];
    let read = idle.read(&mut buffer).await;
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    let waited = started.elapsed();
    assert!(
        (super::LIMITS.head_time..super::LIMITS.connection_time).contains(&waited),
        "closed after {waited:?}"
    );
}
