//! End to end, acknowledge first: with the table thread held busy, every command (each
//! subcommand too), a button, a menu and autocomplete are answered within Discord's three
//! seconds, and the deferred answers follow once the table is free; an answer later than the
//! interaction's fifteen minutes is posted in the channel instead (public) or given up
//! (private).

use crate::fake_discord::bot::{
    CHANNEL, content, ephemeral, start_bot_on, start_bot_with, two_player_match,
};
use crate::fake_discord::bot::{assert_settled, assert_settled_but};
use crate::fake_discord::{DEFERRED_MESSAGE, DEFERRED_UPDATE, FakeDiscord, Recorded, user};
use deckmate::discord::acknowledge::{Ack, ack_of};
use deckmate::store::Store;
use deckmate::table::{Table, TableHandle};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const MANAGE_SERVER: &str = "32";

/// Holds the table thread busy (a job that waits) until the returned sender is used or dropped.
async fn block(table: &TableHandle) -> std::sync::mpsc::Sender<()> {
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let (started, busy) = tokio::sync::oneshot::channel();
    let table = table.clone();
    tokio::spawn(async move {
        let _ = table
            .call_quietly(move |_| {
                let _ = started.send(());
                let _ = wait.recv();
            })
            .await;
    });
    busy.await.expect("the table takes the job");
    release
}

/// The callback (first answer) to interaction `id` after request `after`, waiting for it.
async fn callback(fake: &FakeDiscord, after: usize, id: &str) -> Recorded {
    let path = format!("/api/v10/interactions/{id}/");
    fake.wait_for(after, &format!("the callback of {id}"), |r| {
        r.path.starts_with(&path)
    })
    .await
}

/// The user commands (leaves: a command with subcommands is never run itself) as
/// (qualified name, top-level name, subcommand).
fn leaves() -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    for c in deckmate::discord::commands() {
        if c.subcommands.is_empty() {
            out.push((c.qualified_name.to_string(), c.name.to_string(), None));
        }
        for s in &c.subcommands {
            assert!(s.subcommands.is_empty(), "no subcommand groups");
            let qualified = format!("{} {}", c.name, s.name);
            out.push((qualified, c.name.to_string(), Some(s.name.to_string())));
        }
    }
    out
}

/// A value Discord would send for a required option as the bot registered it, and the users
/// it names (for `resolved`).
fn value_for(option: &Value, someone: &Value) -> Value {
    let name = option["name"].as_str().unwrap();
    let value = match option["type"].as_u64().unwrap() {
        3 => json!(match name {
            "name" => "Autumn",
            "amount" => "1d",
            "result" => "1-0",
            "action" => "e4",
            _ => "because",
        }),
        4 => match option["choices"].as_array().and_then(|c| c.first()) {
            Some(choice) => choice["value"].clone(),
            // Registered as a number ("min_value": 1.0); sent as an integer.
            None => json!(option["min_value"].as_f64().map_or(1, |v| v as i64)),
        },
        5 => json!(false),
        6 => someone["id"].clone(),
        10 => json!(1.0),
        other => panic!("no test value for option {name} of type {other}"),
    };
    json!({"name": name, "type": option["type"], "value": value})
}

/// The options of command `top` (and `sub`) as registered, with every required one given.
fn required_options(registered: &[Value], top: &str, sub: Option<&str>, someone: &Value) -> Value {
    let command = registered
        .iter()
        .find(|c| c["name"] == top)
        .unwrap_or_else(|| panic!("/{top} is registered"));
    let empty = vec![];
    let mut options = command["options"].as_array().unwrap_or(&empty);
    if let Some(sub) = sub {
        let found = options.iter().find(|o| o["name"] == sub).unwrap();
        options = found["options"].as_array().unwrap_or(&empty);
    }
    let given: Vec<Value> = options
        .iter()
        .filter(|o| o["required"] == json!(true))
        .map(|o| value_for(o, someone))
        .collect();
    match sub {
        Some(sub) => json!([{"name": sub, "type": 1, "options": given}]),
        None => Value::Array(given),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_button_menu_and_autocomplete_is_answered_while_the_table_is_busy() {
    let fake = FakeDiscord::start().await;
    // A file, so autocomplete has a read-only connection of its own.
    let path = std::env::temp_dir().join(format!("deckmate-ack-{}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let table = start_bot_with(&fake, Store::open(&path).unwrap()).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    let registered = fake
        .wait_for(0, "command registration", |r| {
            r.method == "PUT" && r.path.ends_with("/commands")
        })
        .await;
    let registered = registered.json.as_array().unwrap().clone();
    let commands = leaves();
    assert!(commands.len() > 30, "{commands:?}");

    let release = block(&table).await;
    let n = fake.requests().len();
    let resolved = json!({"users": {bob["id"].as_str().unwrap(): bob}});
    let mut pushed = Vec::new();
    for (qualified, top, sub) in &commands {
        let options = required_options(&registered, top, sub.as_deref(), &bob);
        let id = fake.command_with(
            &alice,
            CHANNEL,
            top,
            options.clone(),
            resolved.clone(),
            MANAGE_SERVER,
        );
        pushed.push((qualified.clone(), id, options));
    }
    // A button, a menu choice and autocomplete, in the match's thread.
    let pressed = fake.press(&alice, &thread, 9000, "dm:act:1:0:e4");
    let chosen = fake.select(&bob, &thread, 9000, "dm:choose:1:0", "=e5");
    let completed = fake.autocomplete(&alice, &thread, "move", "action", "e");

    // Everything is answered while the table is still held.
    for (qualified, id, options) in &pushed {
        let answered = callback(&fake, n, id).await;
        assert_eq!(
            answered.status, 204,
            "/{qualified} answered in time: {answered:?}"
        );
        assert_eq!(answered.json["type"], DEFERRED_MESSAGE, "/{qualified}");
        let given: Vec<&str> = options
            .pointer("/0/options")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|o| o["name"].as_str())
            .collect();
        let private = ack_of(qualified, &given) == Some(Ack::Private);
        assert_eq!(
            ephemeral(&answered),
            private,
            "/{qualified} is deferred as privately as it answers"
        );
    }
    for id in [&pressed, &chosen] {
        let answered = callback(&fake, n, id).await;
        assert_eq!(answered.status, 204, "{answered:?}");
        assert_eq!(answered.json["type"], DEFERRED_UPDATE);
    }
    let offered = callback(&fake, n, &completed).await;
    assert_eq!(offered.status, 204, "{offered:?}");
    assert_eq!(offered.json["type"], 8);
    let choices: Vec<&str> = offered.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap())
        .collect();
    // Read through the read-only connection, the table being busy.
    assert!(choices.contains(&"e4"), "{choices:?}");
    // Answers that only read come while the table's thread is still held: /rules needs no
    // table, and /games and /history read on the table's read-only twins.
    for name in ["rules", "games", "history"] {
        let id = &pushed.iter().find(|(q, _, _)| q == name).unwrap().1;
        let token = format!("token-{id}");
        fake.wait_for(
            n,
            &format!("/{name} answered while the table is busy"),
            |r| r.path.starts_with("/api/v10/webhooks/") && r.path.contains(&token),
        )
        .await;
    }
    // A move needs the table: the button's board waits for it.
    let early_board = fake.count_from(n, |r| {
        r.path.ends_with(&format!("token-{pressed}")) && !r.files.is_empty()
    });
    assert_eq!(early_board, 0, "no move is shown before the table is free");

    release.send(()).unwrap();
    for (qualified, id, _) in &pushed {
        let answer = fake.reply_to(n, id).await;
        assert!(
            !content(&answer).is_empty() || !answer.files.is_empty(),
            "/{qualified} answered: {answer:?}"
        );
    }
    // The button played e4 for alice: its board follows.
    let board = fake
        .wait_for(n, "the board after the press", |r| {
            r.path.ends_with(&format!("token-{pressed}")) && !r.files.is_empty()
        })
        .await;
    assert!(content(&board).contains("e4"), "{}", content(&board));
    assert_settled(&fake, &table).await;
    drop(table);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_records_nobody() {
    let fake = FakeDiscord::start().await;
    let table = crate::fake_discord::bot::start_bot(&fake).await;
    let stranger = user("100000000000000009", "stranger");
    let n = fake.requests().len();
    let id = fake.autocomplete(&stranger, CHANNEL, "move", "action", "e");
    let offered = callback(&fake, n, &id).await;
    assert_eq!(offered.json["type"], 8);
    let known = table
        .call(|t| t.store().discord_player_id("100000000000000009"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(known, None, "autocomplete wrote nothing");
    assert_settled(&fake, &table).await;
}

use crate::fake_discord::bot::league;

fn autumn() -> Value {
    json!([{"name": "name", "type": 3, "value": "Autumn"}])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn league_close_with_the_table_busy_for_four_seconds_still_posts_its_lines() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let dave = user("100000000000000004", "dave");
    let n = fake.requests().len();
    let create = json!([{"name": "name", "type": 3, "value": "Autumn"},
                        {"name": "game", "type": 4, "value": 0}]);
    let id = league(&fake, &dave, "create", create, MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    for i in 0..4 {
        let p = user(&format!("10000000000000001{i}"), &format!("p{i}"));
        let n = fake.requests().len();
        let id = league(&fake, &p, "join", autumn(), "0");
        fake.reply_to(n, &id).await;
    }
    let n = fake.requests().len();
    let id = league(&fake, &dave, "start", autumn(), MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    // Both games' threads open and their clocks run (a game still waiting for its thread would
    // not be forfeited).
    crate::fake_discord::bot::boards_since(&fake, n, 2).await;

    let release = block(&table).await;
    let n = fake.requests().len();
    let pushed = Instant::now();
    let id = league(&fake, &dave, "close", autumn(), MANAGE_SERVER);
    let answered = callback(&fake, n, &id).await;
    assert_eq!(answered.status, 204, "acknowledged in time: {answered:?}");
    assert!(pushed.elapsed() < Duration::from_secs(3));
    tokio::time::sleep(Duration::from_secs(4)).await;
    release.send(()).unwrap();
    let closed = fake.reply_to(n, &id).await;
    assert!(!ephemeral(&closed));
    assert_eq!(
        content(&closed),
        format!("Round 1 is closed. Its results are posted in <#{CHANNEL}>.")
    );
    let lines = crate::fake_discord::bot::news_since(&fake, n, "Round 1 is closed.").await;
    assert!(
        lines.starts_with("Round 1 is closed.\n")
            && lines.contains("never began match #1")
            && lines.contains("never began match #2"),
        "{lines}"
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_acknowledgement_after_the_deadline_is_refused_as_discord_refuses_it() {
    let fake = FakeDiscord::start().await;
    let table = crate::fake_discord::bot::start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    // A deadline no bot can meet: the deferral comes too late and is refused, and so is the
    // answer that follows it (the interaction was never acknowledged).
    fake.deadlines.set_acknowledge(Some(Duration::ZERO));
    let n = fake.requests().len();
    let game = json!([{"name": "game", "type": 4, "value": 0}]);
    let id = fake.command(&alice, CHANNEL, "rules", game, json!({}));
    let late = callback(&fake, n, &id).await;
    assert_eq!(late.status, 404, "{late:?}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let accepted = fake
        .requests()
        .into_iter()
        .skip(n)
        .filter(|r| r.status < 300)
        .count();
    assert_eq!(accepted, 0, "nothing of a late interaction is accepted");
    // The late answers were refused on purpose.
    assert_settled_but(&fake, &table, |r| r.status == 404).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_answer_after_the_follow_up_expiry_is_posted_in_the_channel_a_private_one_is_not()
{
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let dave = user("100000000000000004", "dave");
    // Follow-ups expire half a second after the interaction; the table is busy for one.
    fake.deadlines
        .set_follow_ups(Some(Duration::from_millis(500)));
    let release = block(&table).await;
    let n = fake.requests().len();
    let create = json!([{"name": "name", "type": 3, "value": "Autumn"},
                        {"name": "game", "type": 4, "value": 0}]);
    let public = league(&fake, &dave, "create", create, MANAGE_SERVER);
    let private = fake.command_with(
        &dave,
        CHANNEL,
        "admin",
        json!([{"name": "log", "type": 1, "options": []}]),
        json!({}),
        MANAGE_SERVER,
    );
    assert_eq!(callback(&fake, n, &public).await.status, 204);
    assert_eq!(callback(&fake, n, &private).await.status, 204);
    tokio::time::sleep(Duration::from_secs(1)).await;
    release.send(()).unwrap();
    let posted = fake
        .wait_for(n, "the answer posted in the channel", |r| {
            r.method == "POST" && r.path == format!("/api/v10/channels/{CHANNEL}/messages")
        })
        .await;
    assert!(
        content(&posted).starts_with("League **Autumn** (Chess) is open"),
        "{posted:?}"
    );
    // The refused edit was tried first; the private answer went nowhere public.
    let requests = fake.requests();
    let expired = requests
        .iter()
        .skip(n)
        .filter(|r| r.path.contains("/webhooks/") && r.status == 404)
        .count();
    assert!(expired >= 2, "both answers were refused as expired");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let in_channel = fake
        .requests()
        .into_iter()
        .skip(n)
        .filter(|r| r.method == "POST" && r.path.ends_with(&format!("{CHANNEL}/messages")))
        .count();
    assert_eq!(in_channel, 1, "only the public answer is posted");
    // The private answer given after the follow-ups expired was refused on purpose.
    assert_settled_but(&fake, &table, |r| {
        r.status == 404 && r.path.contains("/webhooks/")
    })
    .await;
}
