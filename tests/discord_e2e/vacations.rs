//! End to end, away and back: `/vacation start` announces itself in the match thread and holds
//! the clock; a player who asked for turn messages by direct message gets one when the match
//! comes to them.

use super::fake_discord::bot::assert_settled;
use crate::fake_discord::bot::{content, ephemeral, start_bot_on, timed_match};
use crate::fake_discord::{FakeDiscord, user};
use deckmate::engine::Seat;
use deckmate::store::Store;
use deckmate::table::clock::{DAY, SimClock};
use deckmate::table::{Table, TableHandle};
use serde_json::json;

const START: i64 = 1_800_000_000;

async fn bot_on_a_simulated_clock() -> (FakeDiscord, SimClock, TableHandle) {
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(START);
    let table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let (table, _) = start_bot_on(&fake, table).await;
    (fake, clock, table)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_is_announced_in_the_thread_and_holds_the_clock() {
    let (fake, clock, table) = bot_on_a_simulated_clock().await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, Some("1d")).await;
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        crate::fake_discord::bot::CHANNEL,
        "vacation",
        json!([{"name": "start", "type": 1, "options": [{"name": "days", "type": 4, "value": 2}]}]),
        json!({}),
    );
    let path = format!("/channels/{thread}/messages");
    let told = fake
        .wait_for(n, "the vacation in the thread", |r| {
            r.method == "POST" && r.path.ends_with(&path) && content(r).contains("vacation")
        })
        .await;
    let until = START + 2 * DAY;
    assert_eq!(
        content(&told),
        format!(
            "alice is on vacation for 2 days: their clock waits until they are back. Back <t:{until}:R>.\nTime runs out: <@100000000000000001> <t:{}:R>.",
            until + DAY
        )
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(ephemeral(&reply), "{reply:?}");
    assert!(
        content(&reply).contains("12 of 14 vacation days left"),
        "{reply:?}"
    );
    // A day later alice has not lost on time.
    clock.advance(DAY);
    let shown = table.call(|t| t.show(1)).await.unwrap().unwrap();
    assert_eq!(shown.outcome, None);
    assert_eq!(shown.clocks, vec![(Seat(0), until + DAY)]);
    // Too many days are refused with the reason.
    let n = fake.requests().len();
    let id = fake.command(
        &bob,
        crate::fake_discord::bot::CHANNEL,
        "vacation",
        json!([{"name": "start", "type": 1, "options": [{"name": "days", "type": 4, "value": 15}]}]),
        json!({}),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("from 1 to 14, not 15"),
        "{reply:?}"
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_asked_for_it_is_told_of_their_turn_by_direct_message() {
    let (fake, _clock, _table) = bot_on_a_simulated_clock().await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, Some("1d")).await;
    let n = fake.requests().len();
    let id = fake.command(
        &bob,
        crate::fake_discord::bot::CHANNEL,
        "settings",
        json!([{"name": "me", "type": 1, "options": [{"name": "dm", "type": 5, "value": true}]}]),
        json!({}),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(content(&reply).contains("by direct message"), "{reply:?}");
    let n = fake.requests().len();
    fake.move_command(&alice, &thread, "e4");
    let dm = fake
        .wait_for(n, "bob's turn message", |r| {
            r.method == "POST" && content(r).starts_with("Your turn in match #1")
        })
        .await;
    assert!(!dm.path.contains(&thread), "a direct message: {dm:?}");
    assert_eq!(
        content(&dm),
        format!(
            "Your turn in match #1 (Chess) in <#{thread}>: White plays e4. Time runs out <t:{}:R>.",
            START + DAY
        )
    );
    // alice did not ask: her turn comes without one.
    let n = fake.requests().len();
    fake.move_command(&bob, &thread, "e5");
    fake.wait_for(n, "the board after e5", |r| {
        r.method == "PATCH" || (r.method == "POST" && !r.files.is_empty())
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        fake.requests()
            .iter()
            .skip(n)
            .all(|r| !content(r).starts_with("Your turn")),
        "no message for alice"
    );
    assert_settled(&fake, &_table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_may_have_their_own_view_sent_on_each_turn() {
    let (fake, _clock, _table) = bot_on_a_simulated_clock().await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, None).await;
    let n = fake.requests().len();
    let id = fake.command(
        &bob,
        crate::fake_discord::bot::CHANNEL,
        "settings",
        json!([{"name": "me", "type": 1, "options": [{"name": "view", "type": 5, "value": true}]}]),
        json!({}),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("Your own view comes by direct message"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    fake.move_command(&alice, &thread, "e4");
    let dm = fake
        .wait_for(n, "bob's view", |r| {
            r.method == "POST" && content(r).starts_with("Your turn in match #1")
        })
        .await;
    assert_eq!(dm.files.len(), 1, "{dm:?}");
    assert!(!dm.path.contains(&thread));
    assert_settled(&fake, &_table).await;
}
