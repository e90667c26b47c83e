//! End to end, mentions only on purpose: players whose display names are 32 characters of
//! `@everyone`, a role's mention, `**` and backticks play a four-player En Prise match and a
//! league, an admin cancels a match for a reason written the same way; every message the bot
//! sends notifies nobody but the players it calls, and every name shows as plain text.

use crate::fake_discord::bot::assert_settled;
use crate::fake_discord::bot::{CHANNEL, boards_since, content, start_bot};
use crate::fake_discord::{FakeDiscord, Recorded, user};
use deckmate::discord::plain::plain;
use serde_json::{Value, json};
use std::collections::HashSet;

const MANAGE_SERVER: &str = "32";

/// Player `i`'s display name: the hostile pieces, from the `i`th on, to 32 characters.
fn hostile(i: usize) -> String {
    let pieces = ["@everyone", "<@&123>", "**", "`"];
    pieces
        .iter()
        .cycle()
        .skip(i)
        .flat_map(|p| p.chars())
        .take(32)
        .collect()
}

/// Whether `r` makes or changes a message, and the message it carries.
fn message_of(r: &Recorded) -> Option<&Value> {
    let parts: Vec<&str> = r.path.trim_start_matches("/api/v10/").split('/').collect();
    // An answer as `reply_to` shapes it: a callback's form around the message.
    let shaped = r.json["type"].is_u64() && r.json["data"].is_object();
    match (r.method.as_str(), parts.as_slice()) {
        ("POST", ["channels", _, "messages"])
        | ("PATCH", ["channels", _, "messages", _])
        | ("POST", ["webhooks", _, _])
        | ("PATCH", ["webhooks", _, _, "messages", _])
            if !shaped =>
        {
            Some(&r.json)
        }
        ("POST", ["interactions", _, _, "callback"])
        | ("POST", ["webhooks", _, _])
        | ("PATCH", ["webhooks", _, _, "messages", _])
            if !r.json["data"].is_null() =>
        {
            Some(&r.json["data"])
        }
        _ => None,
    }
}

/// The users a message may notify; fails the test when it may notify more than users
/// (everyone, roles, every user mentioned) or when its mentions are not limited at all.
fn notified(r: &Recorded) -> HashSet<String> {
    let m = message_of(r).unwrap();
    let allowed = &m["allowed_mentions"];
    assert!(
        allowed.is_object(),
        "no allowed_mentions: {} {} {m}",
        r.method,
        r.path
    );
    assert_eq!(
        allowed["parse"],
        json!([]),
        "{} {}: {allowed}",
        r.method,
        r.path
    );
    assert!(
        allowed["roles"].as_array().is_none_or(|r| r.is_empty()),
        "{allowed}"
    );
    allowed["users"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|u| u.as_str().unwrap().to_string())
        .collect()
}

fn ids(users: &[&Value]) -> HashSet<String> {
    users
        .iter()
        .map(|u| u["id"].as_str().unwrap().to_string())
        .collect()
}

/// Checks every message the bot sent after request `after`: it notifies only users it names
/// in its text and who are among `players`, and no raw hostile name appears in it.
fn check_all(fake: &FakeDiscord, after: usize, players: &HashSet<String>, names: &[String]) {
    for r in fake.requests().iter().skip(after) {
        if message_of(r).is_none() {
            continue;
        }
        let users = notified(r);
        let text = content(r);
        assert!(users.is_subset(players), "{users:?} in {text}");
        for u in &users {
            assert!(
                text.contains(&format!("<@{u}>")),
                "{u} notified, not named: {text}"
            );
        }
        for name in names {
            assert!(!text.contains(name.as_str()), "raw name {name:?} in {text}");
        }
        assert!(!text.contains("@everyone"), "{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_names_notify_nobody_and_show_as_plain_text() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let names: Vec<String> = (0..4).map(hostile).collect();
    assert!(names.iter().all(|n| n.chars().count() == 32));
    let players: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| user(&format!("10000000000000005{i}"), n))
        .collect();
    let referee = user("100000000000000059", "referee");
    let everyone: Vec<&Value> = players.iter().collect();
    let player_ids = ids(&everyone);

    // A four-player En Prise challenge: it calls the three invited, nobody else.
    let mut options = vec![json!({"name": "game", "type": 4, "value": 2})];
    let mut resolved = serde_json::Map::new();
    for (i, o) in players[1..].iter().enumerate() {
        let name = ["opponent", "opponent2", "opponent3"][i];
        options.push(json!({"name": name, "type": 6, "value": o["id"]}));
        resolved.insert(o["id"].as_str().unwrap().to_string(), o.clone());
    }
    let n = fake.requests().len();
    let id = fake.command(
        &players[0],
        CHANNEL,
        "play",
        Value::Array(options),
        json!({ "users": resolved }),
    );
    let posted = fake.reply_to(n, &id).await;
    let invited: Vec<&Value> = players[1..].iter().collect();
    assert_eq!(notified(&posted), ids(&invited), "{}", content(&posted));
    for p in &players[1..] {
        let n = fake.requests().len();
        let id = fake.press(p, CHANNEL, 5000, "dm:chal:1:accept");
        fake.reply_to(n, &id).await;
    }
    let board = fake
        .wait_for(0, "the first board", |r| {
            r.method == "POST" && r.path.ends_with("/messages") && !r.files.is_empty()
        })
        .await;
    let text = content(&board);
    let shown: Vec<String> = names.iter().map(|n| plain(n)).collect();
    assert!(
        text.contains(&format!("Match #1: En Prise for {}", shown.join(", "))),
        "{text}"
    );
    assert!(
        !notified(&board).is_empty(),
        "the players to act are called"
    );
    let thread = board.path.split('/').nth(4).unwrap().to_string();
    // The thread's name keeps within Discord's limit (four names of 32).
    let made = fake
        .wait_for(0, "the thread", |r| r.path.ends_with("/threads"))
        .await;
    assert_eq!(made.json["name"].as_str().unwrap().chars().count(), 100);

    // An admin cancels it for a reason written to ping.
    let reason = "@everyone **now** <@&123> `x` [link](https://example.com)";
    let n = fake.requests().len();
    let id = fake.command_with(
        &referee,
        &thread,
        "admin",
        json!([{"name": "cancel", "type": 1, "options": [
            {"name": "reason", "type": 3, "value": reason}]}]),
        json!({}),
        MANAGE_SERVER,
    );
    let told = content(&fake.reply_to(n, &id).await);
    assert!(told.contains(&plain(reason)), "{told}");
    let ruling = fake
        .wait_for(n, "the ruling in the thread", |r| {
            r.method == "POST" && r.path.contains(&thread)
        })
        .await;
    assert!(
        content(&ruling).contains(&plain(reason)),
        "{}",
        content(&ruling)
    );

    // A league among them, with a name written the same way.
    let league_name = "**@everyone** <@&123> `l`";
    let league = |who: &Value, sub: &str, extra: Value, perms: &str| {
        let mut options = vec![json!({"name": "name", "type": 3, "value": league_name})];
        options.extend(extra.as_array().cloned().unwrap_or_default());
        crate::fake_discord::bot::league(&fake, who, sub, Value::Array(options), perms)
    };
    let n = fake.requests().len();
    let id = league(
        &referee,
        "create",
        json!([{"name": "game", "type": 4, "value": 0}]),
        MANAGE_SERVER,
    );
    let made = content(&fake.reply_to(n, &id).await);
    assert!(made.contains(&plain(league_name)), "{made}");
    for p in &players {
        let n = fake.requests().len();
        let id = league(p, "join", json!([]), "0");
        fake.reply_to(n, &id).await;
    }
    let n = fake.requests().len();
    let id = league(&referee, "start", json!([]), MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    let boards = boards_since(&fake, n, 2).await;
    // Each game's line calls its two players, and only them (the lines and the games' threads
    // are posted side by side).
    let game_lines = || -> Vec<Recorded> {
        fake.requests()
            .into_iter()
            .skip(n)
            .filter(|r| r.path.ends_with(&format!("/channels/{CHANNEL}/messages")))
            .filter(|r| content(r).starts_with("Round 1, board"))
            .collect()
    };
    for _ in 0..200 {
        if game_lines().len() >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let lines = game_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        assert_eq!(notified(line).len(), 2, "{}", content(line));
    }
    assert_eq!(boards.len(), 2);
    for sub in ["pairings", "standings", "schedule", "settings"] {
        let n = fake.requests().len();
        let id = league(&players[0], sub, json!([]), "0");
        let said = content(&fake.reply_to(n, &id).await);
        assert!(!said.contains(league_name), "{sub}: {said}");
    }
    let n = fake.requests().len();
    let id = fake.command_with(
        &referee,
        CHANNEL,
        "admin",
        json!([{"name": "log", "type": 1, "options": []}]),
        json!({}),
        MANAGE_SERVER,
    );
    let log = content(&fake.reply_to(n, &id).await);
    assert!(log.contains(&plain(reason)), "{log}");

    check_all(&fake, 0, &player_ids, &names);
    assert!(fake.take_violations().is_empty());
    assert_settled(&fake, &table).await;
}

#[test]
fn the_fake_records_a_loud_mention_sent_without_allowed_mentions() {
    use crate::fake_discord::limits::loud_mentions;
    let quiet = json!({"parse": [], "users": ["1"], "roles": []});
    assert!(loud_mentions("@everyone <@&5>", &quiet).is_empty());
    assert_eq!(loud_mentions("hi @here", &Value::Null).len(), 1);
    assert_eq!(
        loud_mentions("<@&5>", &json!({"parse": ["roles"]})).len(),
        1
    );
    assert_eq!(
        loud_mentions("<@&5>", &json!({"parse": [], "roles": ["5"]})).len(),
        1
    );
    assert_eq!(
        loud_mentions("@everyone", &json!({"parse": ["everyone"]})).len(),
        1
    );
    assert!(loud_mentions("\\<@&5\\> @\u{200B}everyone", &Value::Null).is_empty());
}
