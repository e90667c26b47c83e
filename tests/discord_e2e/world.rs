//! Discord's world changing under the bot, end to end: removed from the server and back, a
//! match's thread or its channel deleted and the match reopened by /board, a member who left
//! the server playing from direct messages.

use crate::fake_discord::bot::{CHANNEL, content, start_bot_on, timed_match, two_player_match};
use crate::fake_discord::bot::{assert_settled, assert_settled_but};
use crate::fake_discord::{FakeDiscord, GUILD_ID, Recorded, user};
use deckmate::store::Store;
use deckmate::table::{Table, TableHandle};
use serde_json::{Value, json};
use std::time::Duration;

/// Waits (up to 10 s) until `check` says yes of the bot's table.
pub async fn until(
    table: &TableHandle,
    what: &str,
    check: impl Fn(&mut Table) -> bool + Send + Clone + 'static,
) {
    for _ in 0..500 {
        let check = check.clone();
        if table.call(move |t| check(t)).await.unwrap() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never: {what}");
}

fn held(id: i64) -> impl Fn(&mut Table) -> bool + Send + Clone + 'static {
    move |t: &mut Table| t.is_held(id).unwrap()
}

/// The server as GUILD_CREATE gives it (the bot added back).
pub fn guild_create() -> Value {
    let mut guild = json!({
        "id": GUILD_ID, "name": "chess club", "icon": null, "icon_hash": null,
        "description": null, "home_header": null, "splash": null, "discovery_splash": null,
        "features": [], "banner": null, "owner_id": "100000000000000009", "application_id": null,
        "region": "us-east", "afk_channel_id": null, "afk_timeout": 300,
        "system_channel_id": null, "system_channel_flags": 0, "widget_enabled": false,
        "widget_channel_id": null, "verification_level": 0, "roles": [],
        "default_message_notifications": 0, "mfa_level": 0, "explicit_content_filter": 0
    });
    let more = json!({
        "max_presences": null, "max_members": 500000, "max_stage_video_channel_users": 50,
        "max_video_channel_users": 25, "vanity_url_code": null, "premium_tier": 0,
        "premium_subscription_count": 0, "preferred_locale": "en-US", "rules_channel_id": null,
        "safety_alerts_channel_id": null, "public_updates_channel_id": null,
        "premium_progress_bar_enabled": false, "nsfw": false, "nsfw_level": 0, "emojis": [],
        "stickers": [], "incidents_data": null
    });
    // What GUILD_CREATE adds to the guild object.
    let create = json!({
        "joined_at": "2026-01-02T00:00:00.000000+00:00", "large": false, "member_count": 3,
        "voice_states": [], "members": [], "channels": [], "threads": [], "presences": [],
        "stage_instances": [], "guild_scheduled_events": [], "unavailable": false
    });
    for part in [more, create] {
        for (k, v) in part.as_object().unwrap() {
            guild[k] = v.clone();
        }
    }
    guild
}

/// A text channel of the server, as CHANNEL_DELETE gives it.
fn text_channel(id: &str) -> Value {
    json!({
        "id": id, "type": 0, "flags": 0, "guild_id": GUILD_ID, "name": "general",
        "position": 0, "parent_id": null, "permission_overwrites": [], "nsfw": false,
        "topic": null, "last_message_id": null, "rate_limit_per_user": 0
    })
}

fn dm_with(r: &Recorded, text: &str) -> bool {
    r.method == "POST" && r.path.ends_with("/messages") && content(r).contains(text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removed_from_the_server_its_matches_wait_until_the_bot_is_back() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, Some("1d")).await;
    until(&table, "the match is stored", |t| t.store().load(1).is_ok()).await;

    // An outage is not a removal: nothing is held.
    fake.send_raw_event("GUILD_DELETE", json!({"id": GUILD_ID, "unavailable": true}));
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(!table.call(|t| t.is_held(1)).await.unwrap().unwrap());
    // Removed: the match is held.
    fake.send_raw_event("GUILD_DELETE", json!({"id": GUILD_ID}));
    until(&table, "the match held", held(1)).await;
    let stored = table
        .call(|t| t.store().is_guild_removed(GUILD_ID))
        .await
        .unwrap();
    assert!(stored.unwrap());
    let shown = table.call(|t| t.show(1)).await.unwrap().unwrap();
    assert!(
        shown.clocks.is_empty(),
        "no clock runs out: {:?}",
        shown.clocks
    );

    // Back in the server: the clocks run again.
    fake.send_raw_event("GUILD_CREATE", guild_create());
    until(&table, "the match running again", |t| {
        !t.is_held(1).unwrap()
    })
    .await;
    let shown = table.call(|t| t.show(1)).await.unwrap().unwrap();
    assert_eq!(
        shown.clocks.len(),
        1,
        "White's clock runs: {:?}",
        shown.clocks
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_thread_holds_its_match_and_board_reopens_it_anywhere() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let carol = user("100000000000000003", "carol");
    let (thread, _) = timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, Some("1d")).await;
    until(&table, "the thread stored", |t| {
        t.store().load(1).unwrap().place.thread_id.is_some()
    })
    .await;

    let n = fake.requests().len();
    fake.send_raw_event(
        "THREAD_DELETE",
        json!({"id": thread, "guild_id": GUILD_ID, "parent_id": CHANNEL, "type": 11}),
    );
    until(&table, "the match held", held(1)).await;
    // Both players are told by direct message, once each.
    let told = "The thread of your match #1 (Chess) was deleted";
    for _ in 0..500 {
        if fake
            .requests()
            .iter()
            .skip(n)
            .filter(|r| dm_with(r, told))
            .count()
            >= 2
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let dms: Vec<Recorded> = fake
        .requests()
        .into_iter()
        .skip(n)
        .filter(|r| dm_with(r, told))
        .collect();
    assert_eq!(dms.len(), 2, "{dms:?}");
    assert!(
        content(&dms[0]).ends_with("Use /board in any channel of its server to reopen it."),
        "{dms:?}"
    );
    let mut opened: Vec<String> = fake
        .requests()
        .iter()
        .skip(n)
        .filter(|r| r.path == "/api/v10/users/@me/channels")
        .map(|r| {
            r.json["recipient_id"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    opened.sort();
    assert_eq!(opened, ["100000000000000001", "100000000000000002"]);
    // Deleted again (a duplicated event): nobody is told twice.
    let n = fake.requests().len();
    fake.send_raw_event(
        "THREAD_DELETE",
        json!({"id": thread, "guild_id": GUILD_ID, "parent_id": CHANNEL, "type": 11}),
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!fake.requests().iter().skip(n).any(|r| dm_with(r, told)));

    // A stranger's /board outside a thread is refused as before.
    let n = fake.requests().len();
    let id = fake.command(&carol, "700000000000000002", "board", json!([]), json!({}));
    let reply = fake.reply_to(n, &id).await;
    assert!(content(&reply).contains("not a match thread"), "{reply:?}");

    // Bob's /board in another channel reopens it there.
    let elsewhere = "700000000000000002";
    let n = fake.requests().len();
    let id = fake.command(&bob, elsewhere, "board", json!([]), json!({}));
    let reply = fake.reply_to(n, &id).await;
    let created = fake
        .wait_for(n, "a new thread", |r| {
            r.method == "POST"
                && r.path
                    .starts_with(&format!("/api/v10/channels/{elsewhere}/messages/"))
                && r.path.ends_with("/threads")
        })
        .await;
    assert_eq!(created.json["name"], "Chess: alice vs bob");
    let board = fake
        .wait_for(n, "the board in the new thread", |r| {
            r.method == "POST" && r.path.ends_with("/messages") && !r.files.is_empty()
        })
        .await;
    let new_thread = board.path.split('/').nth(4).unwrap().to_string();
    assert_ne!(new_thread, thread);
    assert_eq!(
        content(&reply),
        format!("Match #1 goes on in <#{new_thread}>.")
    );
    assert!(
        content(&board).contains("Match #1 goes on in this thread; its clocks run again.")
            && content(&board).contains("<@100000000000000001> to play"),
        "{}",
        content(&board)
    );
    until(&table, "the match running again", |t| {
        !t.is_held(1).unwrap()
    })
    .await;
    let place = table
        .call(|t| t.store().load(1))
        .await
        .unwrap()
        .unwrap()
        .place;
    assert_eq!(place.thread_id.as_deref(), Some(new_thread.as_str()));
    assert_eq!(place.channel_id.as_deref(), Some(elsewhere));

    // Play goes on in the new thread.
    let n = fake.requests().len();
    fake.say(&alice, &new_thread, "e4", &[]);
    let moved = fake
        .wait_for(n, "the move's board", |r| {
            r.path
                .ends_with(&format!("/channels/{new_thread}/messages"))
                && !r.files.is_empty()
        })
        .await;
    assert!(content(&moved).contains("White plays e4"), "{moved:?}");
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_channel_of_match_threads_deleted_holds_its_matches() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    until(&table, "the thread stored", |t| {
        t.store().load(1).unwrap().place.thread_id.is_some()
    })
    .await;
    // Another channel goes: nothing.
    fake.send_raw_event("CHANNEL_DELETE", text_channel("700000000000000005"));
    fake.send_raw_event("CHANNEL_DELETE", text_channel(CHANNEL));
    until(&table, "the match held", held(1)).await;
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_who_left_the_server_still_plays_by_direct_message() {
    const DM: &str = "600000000000000001";
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    fake.send_raw_event(
        "GUILD_MEMBER_REMOVE",
        json!({"guild_id": GUILD_ID, "user": alice}),
    );
    let n = fake.requests().len();
    fake.say_in_dm(&alice, DM, "e4");
    let told = fake
        .wait_for(n, "the answer in the DM", |r| {
            r.method == "POST" && r.path == format!("/api/v10/channels/{DM}/messages")
        })
        .await;
    assert_eq!(
        content(&told),
        format!("Match #1: White plays e4 The board is in <#{thread}>.")
    );
    let board = fake
        .wait_for(n, "the board in the thread", |r| {
            r.path.ends_with(&format!("/channels/{thread}/messages")) && !r.files.is_empty()
        })
        .await;
    assert!(
        content(&board).contains("<@100000000000000002> to play"),
        "{board:?}"
    );
    assert_settled(&fake, &table).await;
}

/// The boards posted in `thread` after request `n`.
fn boards_in(fake: &FakeDiscord, n: usize, thread: &str) -> Vec<Recorded> {
    fake.requests()
        .into_iter()
        .skip(n)
        .filter(|r| {
            r.method == "POST"
                && r.path == format!("/api/v10/channels/{thread}/messages")
                && !r.files.is_empty()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_typed_while_the_bot_was_down_are_played_in_order_once() {
    let db = crate::fake_discord::logs::TempDb::new("world-catch-up");
    let fake = FakeDiscord::start().await;
    let (_, shards) =
        crate::fake_discord::bot::start_stoppable_bot(&fake, Store::open(&db.0).unwrap()).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    // One move while the bot is up.
    let n = fake.requests().len();
    fake.say(&alice, &thread, "e4", &[]);
    fake.wait_for(n, "e4 answered", |r| content(r).contains("White plays e4"))
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    shards.shutdown_all().await;

    // The bot is down: bob answers, alice chats and moves, bob moves.
    fake.say_offline(&bob, &thread, "e5");
    fake.say_offline(&alice, &thread, "good game so far");
    fake.say_offline(&alice, &thread, "Nf3");
    fake.say_offline(&bob, &thread, "Nc6");

    // Back up: the three moves are played in order and announced, once each.
    let n = fake.requests().len();
    let (table, shards) =
        crate::fake_discord::bot::start_stoppable_bot(&fake, Store::open(&db.0).unwrap()).await;
    for _ in 0..500 {
        if boards_in(&fake, n, &thread).len() >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let boards: Vec<String> = boards_in(&fake, n, &thread).iter().map(content).collect();
    assert_eq!(boards.len(), 3, "{boards:?}");
    assert!(boards[0].contains("Black plays e5"), "{boards:?}");
    assert!(boards[1].contains("White plays Nf3"), "{boards:?}");
    assert!(boards[2].contains("Black plays Nc6"), "{boards:?}");
    let stored = table.call(|t| t.store().load(1)).await.unwrap().unwrap();
    let actions: Vec<&str> = stored.actions.iter().map(|a| a.text.as_str()).collect();
    assert_eq!(actions, ["e4", "e5", "Nf3", "Nc6"]);
    // The thread was read from after the last message seen, e4.
    assert!(
        fake.requests()
            .iter()
            .skip(n)
            .any(|r| r.method == "GET" && r.path == format!("/api/v10/channels/{thread}/messages")),
        "the thread was read"
    );

    // Another restart: nothing is played or announced again.
    shards.shutdown_all().await;
    let n = fake.requests().len();
    let (table, _) =
        crate::fake_discord::bot::start_stoppable_bot(&fake, Store::open(&db.0).unwrap()).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(boards_in(&fake, n, &thread).is_empty());
    let stored = table.call(|t| t.store().load(1)).await.unwrap().unwrap();
    assert_eq!(stored.actions.len(), 4);
    assert_settled(&fake, &table).await;
}

fn settings_me(fake: &FakeDiscord, who: &Value, options: Value) -> String {
    fake.command(
        who,
        CHANNEL,
        "settings",
        json!([{"name": "me", "type": 1, "options": options}]),
        json!({}),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_dms_are_remembered_until_a_direct_message_gets_through() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;

    // Alice asks for turn messages by DM, but her DMs are closed: /settings me says so.
    fake.dm_fails
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let n = fake.requests().len();
    let id = settings_me(
        &fake,
        &alice,
        json!([{"name": "dm", "type": 5, "value": true}]),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).ends_with("Your DMs are closed to me; I post in the match thread instead."),
        "{reply:?}"
    );
    let closed = table
        .call(|t| t.store().dms_closed("100000000000000001"))
        .await
        .unwrap();
    assert!(closed.unwrap());

    // Turns come to her: her DMs are not tried again, turn after turn.
    let dm_tries = |after: usize| {
        fake.requests()
            .iter()
            .skip(after)
            .filter(|r| r.path == "/api/v10/users/@me/channels")
            .filter(|r| r.json["recipient_id"] == "100000000000000001")
            .count()
    };
    let n = fake.requests().len();
    for (who, text) in [(&alice, "e4"), (&bob, "e5"), (&alice, "Nf3"), (&bob, "Nc6")] {
        let m = fake.requests().len();
        fake.say(who, &thread, text, &[]);
        fake.wait_for(m, "the move's board", |r| {
            r.path.ends_with(&format!("/channels/{thread}/messages")) && !r.files.is_empty()
        })
        .await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(dm_tries(n), 0, "no DM tried while they are closed");

    // Her DMs open again: the next change of settings gets through and forgets it.
    fake.dm_fails
        .store(false, std::sync::atomic::Ordering::Relaxed);
    let n = fake.requests().len();
    let id = settings_me(
        &fake,
        &alice,
        json!([{"name": "reminders", "type": 5, "value": true}]),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(!content(&reply).contains("closed"), "{reply:?}");
    assert_eq!(dm_tries(n), 1);
    let closed = table
        .call(|t| t.store().dms_closed("100000000000000001"))
        .await
        .unwrap();
    assert!(!closed.unwrap());
    // The direct messages sent while alice's were closed were refused on purpose.
    assert_settled_but(&fake, &table, |r| {
        r.status == 403 && !r.path.contains(CHANNEL)
    })
    .await;
}
