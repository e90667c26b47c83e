//! End to end against a Discord that pushes back: 429s waited out by serenity's rate limiter
//! (on, against the fake's address), server errors survived, permissions refused (and /play
//! naming the one it lacks), closed DMs failing at the send, deleted messages and threads, and
//! a gateway that reconnects, drops, invalidates its session and sends events twice or out of
//! order.

use crate::fake_discord::bot::{CHANNEL, content, http, start_bot, start_bot_on, two_player_match};
use crate::fake_discord::bot::{assert_settled, assert_settled_but};
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
/// but for poise's question for the application's owners at start-up (which the fake does not
/// answer, and the bot does without). An interaction the gateway sends twice is answered once.
fn all_accepted(fake: &FakeDiscord) {
    let refused: Vec<String> = fake
        .requests()
        .iter()
        .filter(|r| r.status >= 300)
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
    let table = start_bot(&fake).await;
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
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_survives_server_errors_and_answers_once_they_stop() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    // Every other request answered 502 or 503: serenity does not retry those, so some answers
    // are lost (the outbox's part); the bot goes on.
    fake.hostile.server_errors.store(true, Ordering::Relaxed);
    fake.hostile.error_every.store(2, Ordering::Relaxed);
    fake.hostile
        .callbacks_spared
        .store(false, Ordering::Relaxed);
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
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_names_the_permission_it_lacks_and_a_channel_without_threads() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    fake.hostile
        .set_permissions(CHANNEL, bits::NEEDED & !bits::CREATE_PUBLIC_THREADS);
    let n = fake.requests().len();
    let id = play_in(&fake, &alice, &bob, CHANNEL);
    let reply = fake.reply_to(n, &id).await;
    assert_eq!(
        content(&reply),
        "I can't start a match here: I need Create Public Threads in this channel. A server \
         admin can grant it in the channel's permissions."
    );
    fake.hostile.set_permissions(
        CHANNEL,
        bits::NEEDED & !bits::ATTACH_FILES & !bits::SEND_MESSAGES_IN_THREADS,
    );
    let n = fake.requests().len();
    let id = play_in(&fake, &alice, &bob, CHANNEL);
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("I need Send Messages in Threads and Attach Files"),
        "{reply:?}"
    );
    // Channels that cannot hold a match's thread.
    for (place, kind, words) in [
        (
            "700000000000000070",
            kinds::GUILD_VOICE,
            "this is a voice channel",
        ),
        (
            "700000000000000071",
            kinds::PUBLIC_THREAD,
            "this is a thread",
        ),
    ] {
        fake.hostile.set_kind(place, kind);
        let n = fake.requests().len();
        let id = play_in(&fake, &alice, &bob, place);
        let reply = fake.reply_to(n, &id).await;
        assert!(content(&reply).contains(words), "{reply:?}");
    }
    // Nothing was stored or opened: no challenge was posted, no thread made.
    assert!(
        fake.requests()
            .iter()
            .all(|r| !content(r).contains("challenges") && !r.path.ends_with("/threads")),
        "{:?}",
        fake.requests()
    );
    // With every permission back, /play works.
    fake.hostile.set_permissions(CHANNEL, bits::NEEDED);
    let n = fake.requests().len();
    let id = play_in(&fake, &alice, &bob, CHANNEL);
    let reply = fake.reply_to(n, &id).await;
    assert!(content(&reply).contains("to Chess"), "{reply:?}");
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_refuses_what_the_bots_permissions_do_not_allow() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake).await;
    fake.hostile.limit_every.store(0, Ordering::Relaxed);
    let refused = |e: serenity::Error| e.to_string();
    // No Send Messages in the channel.
    fake.hostile
        .set_permissions(CHANNEL, bits::NEEDED & !bits::SEND_MESSAGES);
    let e = http
        .send_message(channel(CHANNEL), vec![], &message_body("hello"))
        .await
        .unwrap_err();
    assert!(refused(e).contains("Missing Permissions"));
    // A thread: Send Messages in Threads is what counts there, and the parent's are its own.
    let thread = "700000000000000080";
    fake.hostile.thread_made(thread, CHANNEL);
    http.send_message(channel(thread), vec![], &message_body("in the thread"))
        .await
        .expect("Send Messages in Threads is enough");
    fake.hostile
        .set_permissions(CHANNEL, bits::NEEDED & !bits::SEND_MESSAGES_IN_THREADS);
    assert!(
        http.send_message(channel(thread), vec![], &message_body("again"))
            .await
            .is_err()
    );
    // No Attach Files: a file is refused, text is not.
    fake.hostile
        .set_permissions(CHANNEL, bits::NEEDED & !bits::ATTACH_FILES);
    let file = serenity::CreateAttachment::bytes(vec![1, 2, 3], "a.png");
    assert!(
        http.send_message(channel(CHANNEL), vec![file], &message_body("a file"))
            .await
            .is_err()
    );
    let posted = http
        .send_message(channel(CHANNEL), vec![], &message_body("text"))
        .await
        .expect("text needs no Attach Files");
    // No Add Reactions; no Manage Threads to archive.
    fake.hostile.set_permissions(
        CHANNEL,
        bits::NEEDED & !bits::ADD_REACTIONS & !bits::MANAGE_THREADS,
    );
    let reaction = serenity::ReactionType::Unicode("❌".into());
    assert!(
        http.create_reaction(channel(CHANNEL), posted.id, &reaction)
            .await
            .is_err()
    );
    let e = http
        .edit_thread(
            channel(thread),
            &json!({"archived": true, "locked": true}),
            None,
        )
        .await
        .unwrap_err();
    assert!(refused(e).contains("Missing Permissions"));
    let codes: Vec<u16> = fake.requests().iter().map(|r| r.status).collect();
    assert_eq!(codes, [403, 200, 403, 403, 200, 403, 403]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_dm_fails_at_the_send_and_the_reminder_goes_to_the_thread() {
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(1_800_000_000);
    let table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let (table, _) = start_bot_on(&fake, table).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) =
        crate::fake_discord::bot::timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, Some("1d"))
            .await;
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        &thread,
        "settings",
        json!([{"name": "me", "type": 1, "options": [{"name": "dm", "type": 5, "value": true}]}]),
        json!({}),
    );
    fake.reply_to(n, &id).await;
    fake.hostile.close_dms("100000000000000001", true);
    let n = fake.requests().len();
    clock.advance(12 * HOUR);
    table.call(|_| ()).await.unwrap();
    let path = format!("/channels/{thread}/messages");
    let reminder = fake
        .wait_for(n, "the reminder in the thread", |r| {
            r.path.ends_with(&path) && content(r).contains("reminder")
        })
        .await;
    assert!(content(&reminder).starts_with("<@100000000000000001> reminder: 12 hours left"));
    let since: Vec<Recorded> = fake.requests().into_iter().skip(n).collect();
    let opened = since
        .iter()
        .find(|r| r.path.ends_with("/users/@me/channels"))
        .expect("the DM channel opened");
    assert_eq!(opened.status, 200, "opening a closed DM succeeds");
    let refused = since
        .iter()
        .find(|r| r.status == 403 && content(r).contains("reminder"))
        .expect("the DM refused at the send");
    assert!(!refused.path.ends_with(&path));
    // The reminder by direct message was refused on purpose: alice's DMs are closed.
    assert_settled_but(&fake, &table, |r| {
        r.status == 403 && content(r).contains("reminder")
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleted_messages_and_channels_are_refused_as_discord_does() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake).await;
    fake.hostile.limit_every.store(0, Ordering::Relaxed);
    let posted = http
        .send_message(channel(CHANNEL), vec![], &message_body("soon gone"))
        .await
        .unwrap();
    fake.delete_message(CHANNEL, &posted.id.to_string());
    let edit = http
        .edit_message(channel(CHANNEL), posted.id, &message_body("edited"), vec![])
        .await
        .unwrap_err();
    assert!(edit.to_string().contains("Unknown Message"), "{edit}");
    let reaction = serenity::ReactionType::Unicode("❌".into());
    assert!(
        http.create_reaction(channel(CHANNEL), posted.id, &reaction)
            .await
            .is_err()
    );
    let reply = |fail: Option<bool>| {
        let mut body = json!({"content": "a reply",
                              "message_reference": {"message_id": posted.id.to_string()}});
        if let Some(fail) = fail {
            body["message_reference"]["fail_if_not_exists"] = json!(fail);
        }
        body
    };
    assert!(
        http.send_message(channel(CHANNEL), vec![], &reply(None))
            .await
            .is_err()
    );
    assert!(
        http.send_message(channel(CHANNEL), vec![], &reply(Some(true)))
            .await
            .is_err()
    );
    http.send_message(channel(CHANNEL), vec![], &reply(Some(false)))
        .await
        .expect("posted without the reference");
    let codes: Vec<u16> = fake.requests().iter().map(|r| r.status).collect();
    assert_eq!(codes, [200, 404, 404, 400, 400, 200]);
    assert!(fake.requests()[5].json["message_reference"].is_null());
    // A deleted channel: 404 Unknown Channel.
    fake.delete_channel(CHANNEL);
    let gone = http
        .send_message(channel(CHANNEL), vec![], &message_body("anyone?"))
        .await
        .unwrap_err();
    assert!(gone.to_string().contains("Unknown Channel"), "{gone}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_message_was_deleted_is_answered_all_the_same() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    // The move is played and its board posted, as a plain message.
    let n = fake.requests().len();
    fake.say_and_delete(&alice, &thread, "e4");
    let board = board_in(&fake, n, &thread).await;
    assert_eq!(board.status, 200, "{board:?}");
    assert!(board.json["message_reference"].is_null());
    // A refused move whose message is gone: the mark on it fails, the reason still goes by DM.
    let n = fake.requests().len();
    fake.say_and_delete(&bob, &thread, "Ke2");
    let why = fake
        .wait_for(n, "the reason by DM", |r| {
            r.method == "POST" && content(r).contains("Match #1") && r.status == 200
        })
        .await;
    assert!(!why.path.contains(&thread), "{why:?}");
    let marked = fake
        .requests()
        .into_iter()
        .skip(n)
        .find(|r| r.path.contains("/reactions/"))
        .expect("the mark was tried");
    assert_eq!(marked.status, 404);
    // The mark on the deleted message was refused on purpose.
    assert_settled_but(&fake, &table, |r| {
        r.status == 404 && r.path.contains("/reactions/")
    })
    .await;
}
