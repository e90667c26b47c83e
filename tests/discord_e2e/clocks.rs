//! End to end, slow play: a match challenged with a clock (`/play ... time:1d`) shows when
//! time runs out, reminds its player in the thread, and ends on time, all on a simulated clock
//! the test moves.

use super::fake_discord::bot::assert_settled;
use crate::fake_discord::bot::{content, start_bot_on, timed_match};
use crate::fake_discord::{FakeDiscord, Recorded, user};
use deckmate::store::Store;
use deckmate::table::clock::{DAY, HOUR, SimClock};
use deckmate::table::{Table, TableHandle};

const START: i64 = 1_800_000_000;

/// A bot whose table runs on a simulated clock, the clock, and the table.
async fn bot_on_a_simulated_clock() -> (FakeDiscord, SimClock, TableHandle) {
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(START);
    let table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let (table, _) = start_bot_on(&fake, table).await;
    (fake, clock, table)
}

/// The next message the bot posts in `thread` whose text holds `words`.
async fn posted(fake: &FakeDiscord, after: usize, thread: &str, words: &str) -> Recorded {
    let path = format!("/channels/{thread}/messages");
    fake.wait_for(after, words, |r| {
        r.method == "POST" && r.path.ends_with(&path) && content(r).contains(words)
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_match_reminds_in_its_thread_and_ends_on_time() {
    let (fake, clock, table) = bot_on_a_simulated_clock().await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, first) = timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, Some("1d")).await;
    let text = content(&first);
    assert!(
        text.contains("Match #1: Chess for alice, bob (1 day a move)"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "<@100000000000000001> to play. Time runs out <t:{}:R>.",
            START + DAY
        )),
        "{text}"
    );

    // Half the day gone: alice is reminded in the thread.
    let n = fake.requests().len();
    clock.advance(12 * HOUR);
    table.call(|_| ()).await.unwrap(); // any call wakes the scheduler
    let reminder = posted(&fake, n, &thread, "reminder").await;
    assert_eq!(
        content(&reminder),
        format!(
            "<@100000000000000001> reminder: 12 hours left in match #1; your clock runs out <t:{}:R>.",
            START + DAY
        )
    );

    // The day is up: alice loses on time, and the final board is posted.
    let n = fake.requests().len();
    clock.advance(12 * HOUR);
    table.call(|_| ()).await.unwrap();
    let over = posted(&fake, n, &thread, "ran out of time").await;
    assert_eq!(
        content(&over),
        "alice ran out of time.\nGame over: Black won on time"
    );
    assert!(!over.files.is_empty(), "with the board");
    // Once: the 80% reminder fell due with the time-out and is not sent late.
    let later: Vec<Recorded> = fake.requests().into_iter().skip(n).collect();
    assert!(
        later.iter().all(|r| !content(r).contains("reminder")),
        "{later:?}"
    );

    // A bad clock is refused before anything is stored.
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        crate::fake_discord::bot::CHANNEL,
        "play",
        serde_json::json!([{"name": "game", "type": 4, "value": 0},
               {"name": "opponent", "type": 6, "value": bob["id"]},
               {"name": "time", "type": 3, "value": "soon"}]),
        serde_json::json!({"users": {bob["id"].as_str().unwrap(): bob}}),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("cannot read the time \"soon\""),
        "{reply:?}"
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_challenge_expires_through_the_scheduler() {
    let (fake, clock, table) = bot_on_a_simulated_clock().await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        crate::fake_discord::bot::CHANNEL,
        "play",
        serde_json::json!([{"name": "game", "type": 4, "value": 0},
               {"name": "opponent", "type": 6, "value": bob["id"]}]),
        serde_json::json!({"users": {bob["id"].as_str().unwrap(): bob}}),
    );
    fake.reply_to(n, &id).await;
    // Fifteen minutes later nobody has answered: the message says so and loses its buttons.
    let n = fake.requests().len();
    clock.advance(15 * 60);
    table.call(|_| ()).await.unwrap();
    let edited = fake
        .wait_for(n, "the expired challenge", |r| {
            r.method == "PATCH" && r.path.contains("/channels/") && content(r).contains("expired")
        })
        .await;
    assert!(
        content(&edited).starts_with("This challenge to Chess expired <t:"),
        "{edited:?}"
    );
    assert_eq!(edited.json["components"], serde_json::json!([]));
    let stored = table
        .call(|t| t.store().challenge(1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.status, deckmate::store::ChallengeStatus::Expired);
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_on_time_claim_the_opponent_may_wait_then_claim_the_win() {
    let (fake, clock, table) = bot_on_a_simulated_clock().await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = timed_match(
        &fake,
        &alice,
        &bob,
        (0, "Chess"),
        "on_time=claim",
        1,
        Some("1d"),
    )
    .await;
    let n = fake.requests().len();
    clock.advance(DAY);
    table.call(|_| ()).await.unwrap();
    let up = posted(&fake, n, &thread, "time is up").await;
    assert_eq!(
        crate::fake_discord::bot::custom_ids(&up),
        ["dm:claim:1", "dm:wait:1"]
    );
    // alice (the late one) cannot choose; bob waits.
    let n = fake.requests().len();
    let id = fake.press(&alice, &thread, 7000, "dm:wait:1");
    let refused = fake.reply_to(n, &id).await;
    assert!(
        content(&refused).contains("no opponent of yours is out of time"),
        "{refused:?}"
    );
    let n = fake.requests().len();
    let id = fake.press(&bob, &thread, 7000, "dm:wait:1");
    let waited = fake.reply_to(n, &id).await;
    assert!(
        content(&waited).starts_with("bob waits for alice's move"),
        "{waited:?}"
    );
    // Later bob claims with the command.
    let n = fake.requests().len();
    let id = fake.command(
        &bob,
        &thread,
        "time",
        serde_json::json!([{"name": "claim", "type": 1, "options": []}]),
        serde_json::json!({}),
    );
    let claimed = fake.reply_to(n, &id).await;
    assert!(
        content(&claimed).contains("alice ran out of time; bob claims the win."),
        "{claimed:?}"
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_s_thread_is_archived_a_day_later() {
    let (fake, clock, table) = bot_on_a_simulated_clock().await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, None).await;
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        &thread,
        "resign",
        serde_json::json!([]),
        serde_json::json!({}),
    );
    fake.reply_to(n, &id).await;
    let n = fake.requests().len();
    clock.advance(DAY);
    table.call(|_| ()).await.unwrap();
    let archived = fake
        .wait_for(n, "the thread archived", |r| {
            r.method == "PATCH" && r.path.ends_with(&format!("/channels/{thread}"))
        })
        .await;
    assert_eq!(archived.json["archived"], serde_json::json!(true));
    assert_eq!(archived.json["locked"], serde_json::json!(true));
    assert_settled(&fake, &table).await;
}
