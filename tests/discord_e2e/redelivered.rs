//! End to end, an interaction Discord delivers twice (as it may after a RESUME): the bot takes
//! it once and drops the second delivery before answering anything, so Discord never refuses
//! a second acknowledgement (40060) and nothing is applied or announced twice.

use crate::fake_discord::bot::{assert_settled, content, start_bot, two_player_match};
use crate::fake_discord::{APP_ID, FakeDiscord, Recorded, user};
use std::time::Duration;

/// Every request the bot made about interaction `id` (its callback and its webhook) after the
/// first `after` requests, once things settled.
async fn about(fake: &FakeDiscord, after: usize, id: &str) -> Vec<Recorded> {
    tokio::time::sleep(Duration::from_millis(800)).await;
    let callback = format!("/api/v10/interactions/{id}/");
    let hook = format!("/api/v10/webhooks/{APP_ID}/token-{id}");
    fake.requests()
        .into_iter()
        .skip(after)
        .filter(|r| r.path.starts_with(&callback) || r.path.starts_with(&hook))
        .collect()
}

fn callbacks(requests: &[Recorded]) -> Vec<u16> {
    requests
        .iter()
        .filter(|r| r.path.ends_with("/callback"))
        .map(|r| r.status)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_and_a_button_delivered_twice_are_acknowledged_and_applied_once() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;

    // /move delivered twice, the second time once the first was answered.
    let n = fake.requests().len();
    let id = fake.move_command(&alice, &thread, "e4");
    let reply = fake.reply_to(n, &id).await;
    assert!(content(&reply).contains("White plays e4"), "{reply:?}");
    fake.redeliver(&id);
    let seen = about(&fake, n, &id).await;
    assert_eq!(callbacks(&seen), [204], "acknowledged once: {seen:#?}");
    let edits = seen.iter().filter(|r| r.method == "PATCH").count();
    assert_eq!(edits, 1, "answered once: {seen:#?}");

    // A button delivered twice at once: one deferral, one board.
    let n = fake.requests().len();
    let id = fake.press(&bob, &thread, 9001, "dm:act:1:1:e5");
    fake.redeliver(&id);
    let reply = fake.reply_to(n, &id).await;
    assert!(content(&reply).contains("Black plays e5"), "{reply:?}");
    let seen = about(&fake, n, &id).await;
    assert_eq!(callbacks(&seen), [204], "acknowledged once: {seen:#?}");
    let boards = seen.iter().filter(|r| !r.files.is_empty()).count();
    assert_eq!(boards, 1, "one board: {seen:#?}");

    // Each applied once.
    let stored = table.call(|t| t.store().load(1)).await.unwrap().unwrap();
    let played: Vec<&str> = stored.actions.iter().map(|a| a.text.as_str()).collect();
    assert_eq!(played, ["e4", "e5"]);
    // No request refused: no second acknowledgement was even tried.
    assert_settled(&fake, &table).await;
}
