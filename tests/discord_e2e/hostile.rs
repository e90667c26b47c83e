//! End to end against a Discord that pushes back: 429s waited out by serenity's rate limiter
//! (on, against the fake's address), server errors survived, permissions refused (and /play
//! naming the one it lacks), closed DMs failing at the send, deleted messages and threads, and
//! a gateway that reconnects, drops, invalidates its session and sends events twice or out of
//! order.

use crate::fake_discord::bot::{CHANNEL, content, http, start_bot, start_bot_on, two_player_match};
use crate::fake_discord::hostile::{bits, kinds};
use crate::fake_discord::{FakeDiscord, Recorded, user};
use deckmate::store::Store;
use deckmate::table::Table;
use deckmate::table::clock::{HOUR, SimClock};
use poise::serenity_prelude as serenity;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn channel(id: &str) -> serenity::ChannelId {
    serenity::ChannelId::new(id.parse().unwrap())
}

/// The next board posted in `thread` after the first `after` requests.
async fn board_in(fake: &FakeDiscord, after: usize, thread: &str) -> Recorded {
    let path = format!("/channels/{thread}/messages");
    fake.wait_for(after, "a board in the thread", |r| {
        r.method == "POST" && r.path.ends_with(&path) && !r.files.is_empty()
    })
    .await
}

/// `/play` of chess against `bob` in `channel`; returns the interaction's id.
fn play_in(fake: &FakeDiscord, alice: &Value, bob: &Value, channel: &str) -> String {
    fake.command(
        alice,
        channel,
        "play",
        json!([{"name": "game", "type": 4, "value": 0},
               {"name": "opponent", "type": 6, "value": bob["id"]}]),
        json!({"users": {bob["id"].as_str().unwrap(): bob}}),
    )
}

/// Every request the bot made was accepted in the end (a 429 is waited out and sent again),
/// but for a second answer to an interaction the gateway sent twice (refused 400, 40060, and
/// harmless) and poise's question for the application's owners at start-up (which the fake
/// does not answer, and the bot does without).
fn all_accepted(fake: &FakeDiscord) {
    let refused: Vec<String> = fake
        .requests()
        .iter()
        .filter(|r| r.status >= 300 && !(r.status == 400 && r.path.ends_with("/callback")))
        .filter(|r| !r.path.ends_with("/oauth2/applications/@me"))
        .map(|r| format!("{} {} {}", r.method, r.path, r.status))
        .collect();
    assert!(refused.is_empty(), "refused: {refused:?}");
}

fn message_body(text: &str) -> Value {
    json!({"content": text})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limiter_reads_the_buckets_and_waits_out_429s() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake).await;
    // A bucket of 2 a second: the limiter waits before it is exceeded, with no 429.
    fake.hostile.limit_every.store(0, Ordering::Relaxed);
    fake.hostile.bucket_limit.store(2, Ordering::Relaxed);
    let start = Instant::now();
    for i in 0..5 {
        http.send_message(
            channel(CHANNEL),
            vec![],
            &message_body(&format!("post {i}")),
        )
        .await
        .expect("posted after waiting");
    }
    assert!(
        start.elapsed() >= Duration::from_millis(1900),
        "five posts at two a second take two windows: {:?}",
        start.elapsed()
    );
    assert_eq!(fake.requests().len(), 5);
    // Every other request refused 429 (some as global limits): each is waited out and sent
    // again, and the caller sees only the success.
    fake.hostile.bucket_limit.store(40, Ordering::Relaxed);
    fake.hostile.limit_every.store(2, Ordering::Relaxed);
    for i in 0..8 {
        http.send_message(
            channel(CHANNEL),
            vec![],
            &message_body(&format!("again {i}")),
        )
        .await
        .expect("posted after a 429");
    }
    assert_eq!(fake.requests().len(), 13);
    assert!(fake.hostile.limited.load(Ordering::Relaxed) >= 4);
    assert!(
        fake.hostile
            .rate_limited
            .lock()
            .unwrap()
            .iter()
            .all(|r| r.status == 429)
    );
    all_accepted(&fake);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_is_played_through_a_third_of_requests_refused_429() {
    let fake = FakeDiscord::start().await;
    fake.hostile.limit_every.store(3, Ordering::Relaxed);
    start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    for (who, text) in [(&alice, "e4"), (&bob, "e5"), (&alice, "Nf3"), (&bob, "Nc6")] {
        let n = fake.requests().len();
        fake.say(who, &thread, text, &[]);
        let board = board_in(&fake, n, &thread).await;
        assert!(content(&board).contains(text), "{board:?}");
    }
    assert!(fake.hostile.limited.load(Ordering::Relaxed) >= 5);
    all_accepted(&fake);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_survives_server_errors_and_answers_once_they_stop() {
    let fake = FakeDiscord::start().await;
    start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    // Every other request answered 502 or 503: serenity does not retry those, so some answers
    // are lost (the outbox's part); the bot goes on.
    fake.hostile.server_errors.store(true, Ordering::Relaxed);
    fake.hostile.error_every.store(2, Ordering::Relaxed);
    let n = fake.requests().len();
    for _ in 0..4 {
        play_in(&fake, &alice, &bob, CHANNEL);
    }
    fake.wait_for(n, "a server error", |r| r.status == 502 || r.status == 503)
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    fake.hostile.server_errors.store(false, Ordering::Relaxed);
    let n = fake.requests().len();
    let id = play_in(&fake, &alice, &bob, CHANNEL);
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("to Chess") || content(&reply).contains("challenge"),
        "{reply:?}"
    );
}
