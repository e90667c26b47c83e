//! End to end through an unsteady gateway: the bot reconnects when asked (op 7), when the
//! connection drops and when its session is invalidated (op 9, resumable or not), gets on
//! RESUME the events it missed, applies an event sent twice or out of order once, and takes
//! GUILD_DELETE, CHANNEL_DELETE and THREAD_DELETE in its stride, going on taking typed moves
//! and commands throughout.

use crate::fake_discord::bot::{CHANNEL, content, start_bot, two_player_match};
use crate::fake_discord::bot::{assert_settled, assert_settled_owing};
use crate::fake_discord::{FakeDiscord, Recorded, user};
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// `who` types `text` in `thread`; returns the board the bot answers with.
async fn typed(fake: &FakeDiscord, who: &Value, thread: &str, text: &str) -> Recorded {
    let n = fake.requests().len();
    fake.say(who, thread, text, &[]);
    let path = format!("/channels/{thread}/messages");
    let board = fake
        .wait_for(n, text, |r| {
            r.method == "POST" && r.path.ends_with(&path) && !r.files.is_empty()
        })
        .await;
    assert!(content(&board).contains(text), "{board:?}");
    board
}

/// The boards posted in `thread` after the first `after` requests, once things settled.
async fn boards_after(fake: &FakeDiscord, after: usize, thread: &str) -> Vec<Recorded> {
    tokio::time::sleep(Duration::from_millis(600)).await;
    let path = format!("/channels/{thread}/messages");
    fake.requests()
        .into_iter()
        .skip(after)
        .filter(|r| r.method == "POST" && r.path.ends_with(&path) && !r.files.is_empty())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_reconnects_resumes_and_reidentifies_and_plays_on() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    let gw = &fake.gateway;

    gw.reconnect();
    gw.wait(&gw.resumed, 1, "resumed after op 7").await;
    typed(&fake, &alice, &thread, "e4").await;

    gw.drop_connection();
    gw.wait(&gw.resumed, 2, "resumed after a drop").await;
    typed(&fake, &bob, &thread, "e5").await;

    gw.invalid_session(true);
    gw.wait(&gw.resumed, 3, "resumed after a resumable op 9")
        .await;
    typed(&fake, &alice, &thread, "Nf3").await;

    gw.invalid_session(false);
    gw.wait(&gw.identified, 2, "identified again after op 9")
        .await;
    typed(&fake, &bob, &thread, "Nc6").await;

    // An event lost with the connection comes again on RESUME, and is played.
    gw.lose_next_event();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let n = fake.requests().len();
    fake.say(&alice, &thread, "Bc4", &[]);
    gw.wait(&gw.resumed, 4, "resumed after losing an event")
        .await;
    let boards = boards_after(&fake, n, &thread).await;
    assert_eq!(boards.len(), 1, "{boards:?}");
    assert!(content(&boards[0]).contains("Bc4"));
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_sent_twice_or_out_of_order_is_applied_once() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    let gw = &fake.gateway;
    gw.reorder_every.store(0, Ordering::Relaxed);
    gw.duplicate_every.store(1, Ordering::Relaxed);
    gw.duplicate_interactions.store(true, Ordering::Relaxed);

    // A typed move delivered twice: one board.
    let n = fake.requests().len();
    fake.say(&alice, &thread, "e4", &[]);
    let boards = boards_after(&fake, n, &thread).await;
    assert_eq!(boards.len(), 1, "{boards:?}");

    // A /move delivered twice: answered once, played once.
    let n = fake.requests().len();
    let id = fake.move_command(&bob, &thread, "e5");
    let reply = fake.reply_to(n, &id).await;
    assert!(content(&reply).contains("e5"), "{reply:?}");
    tokio::time::sleep(Duration::from_millis(600)).await;
    let callback = format!("/api/v10/interactions/{id}/");
    let answers: Vec<Recorded> = fake
        .requests()
        .into_iter()
        .skip(n)
        .filter(|r| r.path.starts_with(&callback))
        .collect();
    // The second delivery is dropped before it is answered: one answer, the move played once.
    assert_eq!(answers.len(), 1, "answered once: {answers:?}");
    assert!(answers.iter().all(|r| r.status < 300), "{answers:?}");
    let boards = boards_after(&fake, n, &thread).await;
    assert!(
        boards.is_empty(),
        "/move answers in the interaction: {boards:?}"
    );

    // A move and a chat line sent the wrong way round: the move is played once.
    gw.duplicate_every.store(0, Ordering::Relaxed);
    gw.reorder_every.store(2, Ordering::Relaxed);
    let n = fake.requests().len();
    fake.say(&alice, &thread, "Nf3", &[]);
    fake.say(&bob, &thread, "good move", &[]);
    let boards = boards_after(&fake, n, &thread).await;
    assert_eq!(boards.len(), 1, "{boards:?}");
    assert!(content(&boards[0]).contains("Nf3"));
    let refused: Vec<Recorded> = fake
        .requests()
        .into_iter()
        .filter(|r| r.status >= 400)
        .filter(|r| !r.path.ends_with("/oauth2/applications/@me"))
        .collect();
    assert!(refused.is_empty(), "{refused:?}");
    // Interactions were delivered twice on purpose: no second answer was even tried.
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_channels_and_threads_deleted_leave_the_bot_serving() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    fake.remove_from_guild("900000000000000077", false);
    fake.remove_from_guild("900000000000000078", true);
    fake.delete_channel("700000000000000060");
    fake.delete_channel(&thread);
    // Anything posted in the deleted thread is refused 404 Unknown Channel.
    let n = fake.requests().len();
    fake.say(&alice, &thread, "e4", &[]);
    let refused = fake
        .wait_for(n, "a post in the deleted thread", |r| {
            r.path.ends_with(&format!("/channels/{thread}/messages"))
        })
        .await;
    assert_eq!(refused.status, 404);
    // The bot goes on: a new challenge elsewhere is answered.
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        CHANNEL,
        "play",
        json!([{"name": "game", "type": 4, "value": 0},
               {"name": "opponent", "type": 6, "value": bob["id"]}]),
        json!({"users": {bob["id"].as_str().unwrap(): bob}}),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(content(&reply).contains("to Chess"), "{reply:?}");
    // Requests to the deleted thread were refused on purpose; the board of the move typed
    // there is owed to it still (the outbox tries it when its lease ends, and is refused).
    assert_settled_owing(
        &fake,
        &table,
        |r| r.status == 404,
        |p| p.match_id == Some(1) && p.kind == "board",
    )
    .await;
}
