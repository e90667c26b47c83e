//! End to end, `/admin`: a substitute, an adjudicated result and a cancelled match, each
//! announced in the match's thread and kept in the admin log; the server's settings (channels
//! for /play, a default clock, typed moves off, a cooldown) applied; and every admin command
//! refused to a member without Manage Server, with nothing changed.

use super::fake_discord::bot::assert_settled;
use crate::fake_discord::bot::{CHANNEL, content, ephemeral, start_bot_on, two_player_match};
use crate::fake_discord::{FakeDiscord, GUILD_ID, Recorded, user};
use deckmate::store::Store;
use deckmate::table::{Table, TableHandle};
use serde_json::{Value, json};
use std::time::Duration;

/// Manage Server, as Discord sends a member's permissions.
const MANAGE_SERVER: &str = "32";
const OTHER_CHANNEL: &str = "700000000000000009";

/// `/admin <sub> ...` from `who` with `permissions`; returns the interaction's id.
fn admin(
    fake: &FakeDiscord,
    who: &Value,
    channel: &str,
    sub: &str,
    options: Value,
    users: &[&Value],
    permissions: &str,
) -> String {
    let resolved: serde_json::Map<String, Value> = users
        .iter()
        .map(|u| (u["id"].as_str().unwrap().to_string(), (*u).clone()))
        .collect();
    fake.command_with(
        who,
        channel,
        "admin",
        json!([{"name": sub, "type": 1, "options": options}]),
        json!({ "users": resolved }),
        permissions,
    )
}

/// The bot's private answer to interaction `id`.
async fn private_answer(fake: &FakeDiscord, after: usize, id: &str) -> String {
    let reply = fake.reply_to(after, id).await;
    assert!(ephemeral(&reply), "answered privately: {reply:?}");
    content(&reply)
}

/// The message the bot posted in `thread` after the first `after` requests.
async fn posted_in(fake: &FakeDiscord, after: usize, thread: &str) -> Recorded {
    let path = format!("/channels/{thread}/messages");
    fake.wait_for(after, "a message in the thread", |r| {
        r.method == "POST" && r.path.ends_with(&path)
    })
    .await
}

fn admin_log(table: &TableHandle) -> Vec<(Option<i64>, String)> {
    let table = table.clone();
    let log = std::thread::spawn(move || {
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(table.call(|t| t.store().admin_log(GUILD_ID, 50).unwrap()))
    })
    .join()
    .unwrap()
    .unwrap();
    log.into_iter().map(|e| (e.match_id, e.action)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admins_substitute_adjudicate_and_cancel_and_strangers_cannot() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let carol = user("100000000000000003", "carol");
    let dave = user("100000000000000004", "dave");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    let n = fake.requests().len();
    fake.say(&alice, &thread, "e4", &[]);
    posted_in(&fake, n, &thread).await;

    // A member without Manage Server is refused every admin command, and nothing changes.
    let reason = json!({"name": "reason", "type": 3, "value": "because"});
    let attempts = [
        ("cancel", json!([reason])),
        (
            "adjudicate",
            json!([{"name": "result", "type": 4, "value": 1}, reason]),
        ),
        (
            "substitute",
            json!([{"name": "out", "type": 6, "value": bob["id"]},
                   {"name": "in", "type": 6, "value": carol["id"]}]),
        ),
        (
            "server",
            json!([{"name": "chat_moves", "type": 5, "value": false}]),
        ),
        ("log", json!([])),
    ];
    for (sub, options) in attempts {
        let n = fake.requests().len();
        let id = admin(&fake, &carol, &thread, sub, options, &[&bob, &carol], "0");
        let told = private_answer(&fake, n, &id).await;
        assert_eq!(
            told,
            "Only members with the Manage Server permission (or the server's referee role) \
             can use /admin.",
            "/admin {sub}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
        let posted: Vec<Recorded> = fake
            .requests()
            .into_iter()
            .skip(n)
            .filter(|r| r.method == "POST" && r.path.contains("/channels/"))
            .collect();
        assert!(posted.is_empty(), "/admin {sub} posted {posted:?}");
    }
    assert!(admin_log(&table).is_empty());

    // A substitute takes bob's seat and plays on by typing.
    let n = fake.requests().len();
    let options = json!([{"name": "out", "type": 6, "value": bob["id"]},
                         {"name": "in", "type": 6, "value": carol["id"]},
                         {"name": "reason", "type": 3, "value": "bob moved away"}]);
    let id = admin(
        &fake,
        &dave,
        &thread,
        "substitute",
        options,
        &[&bob, &carol],
        MANAGE_SERVER,
    );
    let announced = posted_in(&fake, n, &thread).await;
    assert!(
        content(&announced)
            .starts_with("dave (server admin) seated carol in place of bob: bob moved away."),
        "{}",
        content(&announced)
    );
    assert!(content(&announced).contains(&format!("<@{}> to play", carol["id"].as_str().unwrap())));
    let told = private_answer(&fake, n, &id).await;
    assert!(
        told.starts_with("Done. dave (server admin) seated carol"),
        "{told}"
    );
    let n = fake.requests().len();
    fake.say(&bob, &thread, "e5", &[]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        fake.requests()
            .iter()
            .skip(n)
            .all(|r| !r.path.contains(&thread)),
        "bob no longer plays"
    );
    fake.say(&carol, &thread, "e5", &[]);
    let played = posted_in(&fake, n, &thread).await;
    assert!(
        content(&played).contains("Black plays e5"),
        "{}",
        content(&played)
    );

    // Adjudicated: a win for alice, with the reason, shown in the thread.
    let n = fake.requests().len();
    let options = json!([{"name": "result", "type": 4, "value": 0},
                         {"name": "reason", "type": 3, "value": "carol's clock froze"},
                         {"name": "winner", "type": 6, "value": alice["id"]}]);
    let id = admin(
        &fake,
        &dave,
        &thread,
        "adjudicate",
        options,
        &[&alice],
        MANAGE_SERVER,
    );
    let announced = posted_in(&fake, n, &thread).await;
    assert!(
        content(&announced).contains(
            "Game over: White won by adjudication (dave (server admin): carol's clock froze)"
        ),
        "{}",
        content(&announced)
    );
    private_answer(&fake, n, &id).await;
    // Delivered again: applied once, announced once.
    let n = fake.requests().len();
    fake.redeliver(&id);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(
        fake.requests()
            .iter()
            .skip(n)
            .all(|r| !r.path.contains(&thread)),
        "announced once"
    );

    // A second match, cancelled from the channel by its number.
    let (second, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 2).await;
    let n = fake.requests().len();
    let options = json!([{"name": "reason", "type": 3, "value": "opened twice"},
                         {"name": "match", "type": 4, "value": 2}]);
    let id = admin(&fake, &dave, CHANNEL, "cancel", options, &[], MANAGE_SERVER);
    let announced = posted_in(&fake, n, &second).await;
    assert!(
        content(&announced).starts_with("dave (server admin) cancelled the match: opened twice."),
        "{}",
        content(&announced)
    );
    let told = private_answer(&fake, n, &id).await;
    assert!(
        told.contains(&format!("Announced in <#{second}>")),
        "{told}"
    );
    // No match to rule on: a clear answer.
    let n = fake.requests().len();
    let options = json!([{"name": "reason", "type": 3, "value": "x"}]);
    let id = admin(&fake, &dave, CHANNEL, "cancel", options, &[], MANAGE_SERVER);
    let told = private_answer(&fake, n, &id).await;
    assert!(told.starts_with("Name the match with `match`"), "{told}");

    assert_eq!(
        admin_log(&table),
        [
            (Some(2), "cancel".to_string()),
            (Some(1), "adjudicate".to_string()),
            (Some(1), "substitute".to_string())
        ]
    );
    let n = fake.requests().len();
    let id = admin(&fake, &dave, CHANNEL, "log", json!([]), &[], MANAGE_SERVER);
    let told = private_answer(&fake, n, &id).await;
    assert_eq!(told.lines().count(), 3, "{told}");
    assert!(
        told.lines()
            .next()
            .unwrap()
            .contains("match #2: dave (server admin) cancelled")
    );
    // An interaction was delivered again on purpose: it was not answered twice.
    assert_settled(&fake, &table).await;
}

/// `/play` from alice in `channel` against bob, with `time` if given; returns its id.
fn play(
    fake: &FakeDiscord,
    alice: &Value,
    bob: &Value,
    channel: &str,
    time: Option<&str>,
) -> String {
    let mut options = vec![
        json!({"name": "game", "type": 4, "value": 0}),
        json!({"name": "opponent", "type": 6, "value": bob["id"]}),
    ];
    if let Some(time) = time {
        options.push(json!({"name": "time", "type": 3, "value": time}));
    }
    fake.command(
        alice,
        channel,
        "play",
        Value::Array(options),
        json!({"users": {bob["id"].as_str().unwrap(): bob}}),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_settings_limit_play_set_its_clock_and_cooldown_and_turn_typed_moves_off() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let dave = user("100000000000000004", "dave");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;

    let n = fake.requests().len();
    let options = json!([
        {"name": "play_channels", "type": 3, "value": format!("<#{OTHER_CHANNEL}>")},
        {"name": "time", "type": 3, "value": "3d"},
        {"name": "chat_moves", "type": 5, "value": false},
        {"name": "cooldown", "type": 3, "value": "10m"}
    ]);
    let id = admin(&fake, &dave, CHANNEL, "server", options, &[], MANAGE_SERVER);
    let told = private_answer(&fake, n, &id).await;
    assert_eq!(
        told,
        format!(
            "Saved. On this server: /play may be used in <#{OTHER_CHANNEL}>; a clock of 3 days \
             a move unless the challenger names one; moves typed in match threads are not read \
             (slash commands and DMs still work); 10 minutes between two challenges from one \
             member; matches against the computer are never rated; no public web pages."
        )
    );
    assert_eq!(admin_log(&table), [(None, "settings".to_string())]);
    // Delivered again: applied once.
    fake.redeliver(&id);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(admin_log(&table), [(None, "settings".to_string())]);

    // /play elsewhere is refused, with where to go.
    let n = fake.requests().len();
    let id = play(&fake, &alice, &bob, CHANNEL, None);
    let told = private_answer(&fake, n, &id).await;
    assert_eq!(
        told,
        format!("On this server, /play is used in <#{OTHER_CHANNEL}>.")
    );
    // In its channel it works, with the server's clock (bob has not challenged yet; alice
    // has, and waits).
    let n = fake.requests().len();
    let id = play(&fake, &bob, &alice, OTHER_CHANNEL, None);
    let reply = fake.reply_to(n, &id).await;
    assert!(!ephemeral(&reply), "{reply:?}");
    assert!(
        content(&reply).contains("3 days a move"),
        "{}",
        content(&reply)
    );
    // A second challenge at once waits for the cooldown.
    let n = fake.requests().len();
    let id = play(&fake, &bob, &alice, OTHER_CHANNEL, Some("none"));
    let told = private_answer(&fake, n, &id).await;
    assert!(
        told.starts_with("This server asks members to wait between challenges"),
        "{told}"
    );

    // Typed moves are not read; /move still is.
    let n = fake.requests().len();
    fake.say(&alice, &thread, "e4", &[]);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(
        fake.requests()
            .iter()
            .skip(n)
            .all(|r| !r.path.contains(&thread)),
        "typed moves are off"
    );
    // Addressed to the bot, it says where moves go.
    let n = fake.requests().len();
    let me = FakeDiscord::bot_user();
    let text = format!("<@{}> e4", me["id"].as_str().unwrap());
    fake.say(&alice, &thread, &text, &[&me]);
    let hint = posted_in(&fake, n, &thread).await;
    assert!(
        content(&hint).starts_with("Typed moves are turned off on this server"),
        "{}",
        content(&hint)
    );
    let n = fake.requests().len();
    let id = fake.move_command(&alice, &thread, "e4");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("White plays e4"),
        "{}",
        content(&reply)
    );
    // An interaction was delivered again on purpose: it was not answered twice.
    assert_settled(&fake, &table).await;
}
