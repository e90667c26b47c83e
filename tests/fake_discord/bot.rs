//! Driving the real bot against the fake: starting it, opening a match, and reading what it
//! answered (text, privacy, buttons and menus, the board picture).

use super::{APP_ID, FakeDiscord, GUILD_ID, Recorded};
use deckmate::discord::ChatMode;
use deckmate::store::Store;
use deckmate::store::outbox::{Post, PostState};
use deckmate::table::{Table, TableHandle};
use poise::serenity_prelude as serenity;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The channel challenges are made in.
pub const CHANNEL: &str = "700000000000000001";

/// The bot token the tests' bot uses.
pub const BOT_TOKEN: &str = "MTAw.fake.token";

pub fn content(r: &Recorded) -> String {
    r.json["data"]["content"]
        .as_str()
        .or(r.json["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

pub fn ephemeral(r: &Recorded) -> bool {
    r.json["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0
}

/// The component rows of a reply (or of a posted message).
pub fn rows(r: &Recorded) -> &Value {
    if r.json["data"]["components"].is_array() {
        &r.json["data"]["components"]
    } else {
        &r.json["components"]
    }
}

/// The custom ids of a reply's (or a posted message's) buttons and menus.
pub fn custom_ids(r: &Recorded) -> Vec<String> {
    let mut ids = Vec::new();
    for row in rows(r).as_array().into_iter().flatten() {
        for c in row["components"].as_array().into_iter().flatten() {
            ids.push(c["custom_id"].as_str().unwrap_or_default().to_string());
        }
    }
    ids
}

pub fn png_size(r: &Recorded) -> (u32, u32) {
    let (_, bytes) = r
        .files
        .first()
        .unwrap_or_else(|| panic!("no file attached: {r:?}"));
    let img = image::load_from_memory(bytes).expect("the attachment is a PNG");
    (img.width(), img.height())
}

/// The real binary as a deployment runs it, against `fake`, with its database in `dir`.
pub fn bot_command(fake: &FakeDiscord, dir: &std::path::Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_deckmate"));
    command
        .arg("bot")
        .current_dir(dir)
        .env("DISCORD_TOKEN", BOT_TOKEN)
        .env("DEV_GUILD_ID", GUILD_ID)
        .env("DISCORD_API_URL", &fake.base)
        .env("DISCORD_API_CA", super::tls::CA)
        .env("DATABASE_PATH", dir.join("bot.db"));
    command
}

/// Starts the bot on an in-memory store, connected to `fake`; returns its table.
pub async fn start_bot(fake: &FakeDiscord) -> TableHandle {
    start_bot_with(fake, Store::open_in_memory().unwrap()).await
}

/// Starts the bot on `store`, connected to `fake`, and waits until it is ready; returns its
/// table, for a test to look into.
pub async fn start_bot_with(fake: &FakeDiscord, store: Store) -> TableHandle {
    start_stoppable_bot(fake, store).await.0
}

/// Starts the bot as [`start_bot_with`] does; also returns its shards, to stop it
/// (`shutdown_all`) as a restart would.
pub async fn start_stoppable_bot(
    fake: &FakeDiscord,
    store: Store,
) -> (TableHandle, std::sync::Arc<serenity::ShardManager>) {
    start_bot_on(fake, Table::new(store)).await
}

/// Starts the bot on `table` (one with a simulated clock, say) as [`start_stoppable_bot`] does,
/// reading every message in match threads.
pub async fn start_bot_on(
    fake: &FakeDiscord,
    table: Table,
) -> (TableHandle, std::sync::Arc<serenity::ShardManager>) {
    start_bot_reading(fake, table, ChatMode::All).await
}

/// [`start_bot_on`] reading the messages `chat` says.
pub async fn start_bot_reading(
    fake: &FakeDiscord,
    table: Table,
    chat: ChatMode,
) -> (TableHandle, std::sync::Arc<serenity::ShardManager>) {
    start_bot_pausing(fake, table, chat, 100).await
}

/// [`start_bot_reading`] with the computer pausing `pause_ms` before each of its moves.
pub async fn start_bot_pausing(
    fake: &FakeDiscord,
    table: Table,
    chat: ChatMode,
    pause_ms: u64,
) -> (TableHandle, std::sync::Arc<serenity::ShardManager>) {
    start_bot_configured(fake, table, chat, pause_ms, &[]).await
}

/// [`start_bot_on`] with PUBLIC_URL `public` (the address of web pages it links to).
pub async fn start_bot_linking(
    fake: &FakeDiscord,
    table: Table,
    public: &str,
) -> (TableHandle, std::sync::Arc<serenity::ShardManager>) {
    let extra = [("PUBLIC_URL", public.to_string())];
    start_bot_configured(fake, table, ChatMode::All, 100, &extra).await
}

/// [`start_bot_pausing`] with `extra` variables in its environment.
async fn start_bot_configured(
    fake: &FakeDiscord,
    table: Table,
    chat: ChatMode,
    pause_ms: u64,
    extra: &[(&str, String)],
) -> (TableHandle, std::sync::Arc<serenity::ShardManager>) {
    // The bot's own configuration path: the environment a deployment would set, pointing
    // DISCORD_API_URL at the fake (serenity's rate limiter on).
    let vars = [
        ("DISCORD_TOKEN", BOT_TOKEN.to_string()),
        ("DEV_GUILD_ID", GUILD_ID.to_string()),
        ("DISCORD_API_URL", fake.base.clone()),
        // The fake answers for discord.com with a certificate of its own (tls.rs).
        ("DISCORD_API_CA", super::tls::CA.to_string()),
        // The computer's pause before its move (short for tests).
        ("COMPUTER_PAUSE_MS", pause_ms.to_string()),
        (
            "MESSAGE_CONTENT",
            if chat == ChatMode::All { "on" } else { "off" }.to_string(),
        ),
    ];
    let config = deckmate::discord::BotConfig::from_vars(|name| {
        vars.iter()
            .chain(extra)
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    })
    .expect("the configuration reads");
    assert_eq!(config.chat, chat);
    let table = TableHandle::spawn(table);
    let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
    let mut client = deckmate::discord::client(&config, table.clone(), Some(ready_tx))
        .await
        .expect("the client builds");
    let shards = client.shard_manager.clone();
    tokio::spawn(async move {
        let _ = client.start().await;
    });
    tokio::time::timeout(Duration::from_secs(20), ready_rx)
        .await
        .expect("the bot becomes ready")
        .unwrap();
    (table, shards)
}

/// Opens a challenge to the game at `game.0` in /play's list (named `game.1`) with these
/// options and has bob accept it; returns the thread and the first board message.
pub async fn two_player_match(
    fake: &FakeDiscord,
    alice: &Value,
    bob: &Value,
    game: (u64, &str),
    options: &str,
    challenge: u64,
) -> (String, Recorded) {
    timed_match(fake, alice, bob, game, options, challenge, None).await
}

/// [`two_player_match`] with a clock (`time:` of /play), when given.
pub async fn timed_match(
    fake: &FakeDiscord,
    alice: &Value,
    bob: &Value,
    game: (u64, &str),
    options: &str,
    challenge: u64,
    time: Option<&str>,
) -> (String, Recorded) {
    let n = fake.requests().len();
    let mut args = vec![
        json!({"name": "game", "type": 4, "value": game.0}),
        json!({"name": "opponent", "type": 6, "value": bob["id"]}),
        json!({"name": "options", "type": 3, "value": options}),
    ];
    if let Some(time) = time {
        args.push(json!({"name": "time", "type": 3, "value": time}));
    }
    let id = fake.command(
        alice,
        CHANNEL,
        "play",
        Value::Array(args),
        json!({"users": {bob["id"].as_str().unwrap(): bob}}),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains(&format!("to {}", game.1)),
        "{reply:?}"
    );
    let n = fake.requests().len();
    fake.press(
        bob,
        CHANNEL,
        5000 + challenge,
        &format!("dm:chal:{challenge}:accept"),
    );
    let first = fake
        .wait_for(n, "the first board", |r| {
            r.method == "POST" && r.path.ends_with("/messages") && !r.files.is_empty()
        })
        .await;
    let thread = first.path.split('/').nth(4).unwrap().to_string();
    (thread, first)
}

/// What a reply offers: (custom id, menu value) for each menu option, (custom id, None) for
/// each button.
pub fn offered(r: &Recorded) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for row in rows(r).as_array().into_iter().flatten() {
        for c in row["components"].as_array().into_iter().flatten() {
            let id = c["custom_id"].as_str().unwrap_or_default().to_string();
            match c["options"].as_array() {
                Some(options) => out.extend(
                    options
                        .iter()
                        .map(|o| (id.clone(), Some(o["value"].as_str().unwrap().to_string()))),
                ),
                None => out.push((id, None)),
            }
        }
    }
    out
}

/// The action text of an offered button or menu option ("play Peasant"), or a group's prefix.
pub fn offered_text((id, value): &(String, Option<String>)) -> String {
    match value {
        Some(v) => v[1..].to_string(),
        None => id.splitn(5, ':').nth(4).unwrap_or_default().to_string(),
    }
}

/// Has `who` pick, from what `reply` offers, the first action that starts with one of
/// `wanted` (opening groups on the way); returns that action's text and the reply to it.
pub async fn choose(
    fake: &FakeDiscord,
    who: &Value,
    thread: &str,
    reply: Recorded,
    wanted: &[&str],
) -> (String, Recorded) {
    let mut reply = reply;
    loop {
        let options = offered(&reply);
        let pick = wanted
            .iter()
            .find_map(|w| {
                options.iter().find(|o| {
                    let text = offered_text(o);
                    text.starts_with(w)
                        || (o.1.as_deref().is_some_and(|v| v.starts_with('>'))
                            && w.starts_with(&text))
                })
            })
            .or(options.first())
            .unwrap_or_else(|| panic!("nothing offered: {reply:?}"))
            .clone();
        let n = fake.requests().len();
        let id = match &pick.1 {
            Some(value) => fake.select(who, thread, 9000, &pick.0, value),
            None => fake.press(who, thread, 9000, &pick.0),
        };
        let next = fake.reply_to(n, &id).await;
        if pick.1.as_deref().is_some_and(|v| v.starts_with('>')) {
            assert!(ephemeral(&next), "a group opens privately: {next:?}");
            reply = next;
            continue;
        }
        return (offered_text(&pick), next);
    }
}

/// The boards posted since request `n` (one a new game), once there are `count`.
pub async fn boards_since(fake: &FakeDiscord, n: usize, count: usize) -> Vec<Recorded> {
    let mut boards = Vec::new();
    for _ in 0..300 {
        boards = fake
            .requests()
            .into_iter()
            .skip(n)
            .filter(|r| r.method == "POST" && !r.files.is_empty())
            .collect();
        if boards.len() >= count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seen: Vec<String> = boards
        .iter()
        .map(|b| format!("{} {} {}", b.status, b.path, content(b)))
        .collect();
    assert_eq!(boards.len(), count, "boards posted: {seen:#?}");
    boards
}

/// A REST client to the fake as the bot builds its own (serenity's rate limiter on), for a
/// test that calls Discord's API itself.
pub async fn http(fake: &FakeDiscord) -> serenity::Http {
    let vars = [
        ("DISCORD_TOKEN", BOT_TOKEN.to_string()),
        ("DISCORD_API_URL", fake.base.clone()),
        ("DISCORD_API_CA", super::tls::CA.to_string()),
    ];
    let config = deckmate::discord::BotConfig::from_vars(|name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    })
    .expect("the configuration reads");
    deckmate::discord::rest::http(&config)
        .await
        .expect("the client builds")
}

/// Waits (a few seconds at most) until the bot's outbox holds no post unsent: everything the
/// table committed was announced and Discord accepted it (no post pending, none recorded as
/// refused). Panics listing what is left.
pub async fn assert_outbox_empty(table: &TableHandle) {
    let left = settled_outbox(table, &|_| false).await;
    assert!(
        left.is_empty(),
        "posts left unsent in the outbox: {left:#?}"
    );
}

/// Waits (a few seconds at most) until no post is pending but those `owed` matches; returns
/// those not sent (refused for good, or still pending).
async fn settled_outbox(table: &TableHandle, owed: &dyn Fn(&Post) -> bool) -> Vec<Post> {
    let mut left = Vec::new();
    for _ in 0..150 {
        left = table
            .call(|t| t.store().unsent_posts().expect("the outbox reads"))
            .await
            .expect("the table answers");
        if left
            .iter()
            .all(|p| p.state != PostState::Pending || owed(p))
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    left
}

/// The end of every end-to-end test that runs a bot: nothing the table committed is left
/// unannounced (the outbox holds no post pending or refused), Discord accepted every request
/// the bot made (no 4xx: the 429s serenity waits out are kept apart, and a 5xx is a passing
/// failure the outbox retries), and nothing the bot sent broke Discord's limits or its API
/// description (the fake checks those again when it is dropped).
pub async fn assert_settled(fake: &FakeDiscord, table: &TableHandle) {
    assert_settled_but(fake, table, |_| false).await;
}

/// [`assert_settled`] for a test that provokes refusals on purpose: a 4xx answer to a request
/// `meant` matches is expected, and a post the outbox recorded as refused is accepted only
/// when some such refusal was answered.
pub async fn assert_settled_but(
    fake: &FakeDiscord,
    table: &TableHandle,
    meant: impl Fn(&Recorded) -> bool,
) {
    assert_settled_owing(fake, table, meant, |_| false).await;
}

/// [`assert_settled_but`] where the posts `owed` matches may still be pending, as the test
/// meant (a board owed to a thread deleted on purpose, waiting out its lease).
pub async fn assert_settled_owing(
    fake: &FakeDiscord,
    table: &TableHandle,
    meant: impl Fn(&Recorded) -> bool,
    owed: impl Fn(&Post) -> bool,
) {
    let left = settled_outbox(table, &owed).await;
    let requests = fake.requests();
    let refused: Vec<String> = requests
        .iter()
        .filter(|r| (400..500).contains(&r.status) && !meant(r))
        .map(|r| format!("{} {} {} {}", r.status, r.method, r.path, r.json))
        .collect();
    assert!(
        refused.is_empty(),
        "Discord refused requests the test did not provoke:\n{}",
        refused.join("\n")
    );
    let provoked = requests
        .iter()
        .any(|r| (400..500).contains(&r.status) && meant(r));
    let unsent: Vec<_> = left
        .iter()
        .filter(|p| match p.state {
            PostState::Pending => !owed(p),
            _ => !provoked,
        })
        .collect();
    assert!(
        unsent.is_empty(),
        "posts left unsent in the outbox: {unsent:#?}"
    );
    let violations = fake.take_violations();
    assert!(
        violations.is_empty(),
        "requests Discord's limits or API description refuse:\n{}",
        violations.join("\n")
    );
}

/// The first message posted in the test channel since request `n` (the league's news, which
/// the outbox posts) whose content starts with `start`.
pub async fn news_since(fake: &FakeDiscord, n: usize, start: &str) -> String {
    let path = format!("/channels/{CHANNEL}/messages");
    let news = fake
        .wait_for(n, start, |r| {
            r.method == "POST" && r.path.ends_with(&path) && content(r).starts_with(start)
        })
        .await;
    content(&news)
}

/// `/league sub` with `options`, by `who` holding permissions `perms`, in the test channel.
pub fn league(fake: &FakeDiscord, who: &Value, sub: &str, options: Value, perms: &str) -> String {
    fake.command_with(
        who,
        CHANNEL,
        "league",
        json!([{"name": sub, "type": 1, "options": options}]),
        json!({}),
        perms,
    )
}

/// The options of a `/league` subcommand about the league "Autumn", then `extra` (a JSON
/// array of more options).
pub fn named(extra: Value) -> Value {
    let mut options = vec![json!({"name": "name", "type": 3, "value": "Autumn"})];
    if let Value::Array(more) = extra {
        options.extend(more);
    }
    Value::Array(options)
}

/// Waits (up to `secs`) for a request after `after` matching `pred`; Err names `what` when
/// none came.
pub async fn seen(
    fake: &FakeDiscord,
    after: usize,
    secs: u64,
    what: &str,
    pred: impl Fn(&Recorded) -> bool,
) -> Result<Recorded, String> {
    fake.first_from(after, Duration::from_secs(secs), pred)
        .await
        .ok_or_else(|| format!("never saw {what}"))
}

/// Whether a request answers interaction `id` as the user sees it: its callback (not a
/// deferral), or after a deferral an edit or follow-up through its webhook, accepted by
/// Discord. The paths are made once, so that a load test's many scans stay cheap.
pub fn answering(id: &str) -> impl Fn(&Recorded) -> bool + use<> {
    let callback = format!("/api/v10/interactions/{id}/");
    let hook = format!("/api/v10/webhooks/{APP_ID}/token-{id}");
    move |r: &Recorded| {
        r.status < 300
            && (r.path.starts_with(&callback) && !matches!(r.json["type"].as_u64(), Some(5 | 6))
                || r.path.starts_with(&hook) && r.method != "DELETE")
    }
}

/// The answer to interaction `id` as the user sees it (its callback, or after a deferral the
/// edit or follow-up that answered it); fails at once if Discord refused any part of it. None
/// when the bot never saw the interaction: Discord lost it with a session it could not resume
/// (as it does; the user sees "the application did not respond" and tries again).
pub async fn answer(fake: &FakeDiscord, after: usize, id: &str, what: &str) -> Option<Recorded> {
    let callback = format!("/api/v10/interactions/{id}/");
    let hook = format!("/api/v10/webhooks/{APP_ID}/token-{id}");
    let mine = |r: &Recorded| r.path.starts_with(&callback) || r.path.starts_with(&hook);
    let is_answer = answering(id);
    let start = Instant::now();
    loop {
        if let Some(refused) = fake.find_from(after, |r| mine(r) && r.status >= 400) {
            panic!("{what}: Discord refused an answer: {refused:?}");
        }
        let answered = fake.find_from(after, &is_answer);
        if let Some(r) = answered {
            return Some(r);
        }
        if start.elapsed() > LOST && fake.find_from(after, mine).is_none() {
            return None;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{what}: no answer to interaction {id}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How long an interaction may go unseen by the bot before it is taken as lost by Discord.
pub const LOST: Duration = Duration::from_secs(10);

/// Sends an interaction with `send` and waits for its answer; sent again (a new interaction,
/// as a user would) when Discord lost it. Counts each loss in `lost`.
pub async fn answered(
    fake: &FakeDiscord,
    what: &str,
    lost: &AtomicU64,
    mut send: impl FnMut() -> String,
) -> (String, Recorded) {
    for _ in 0..5 {
        let n = fake.request_count();
        let id = send();
        if let Some(r) = answer(fake, n, &id, what).await {
            return (id, r);
        }
        lost.fetch_add(1, Ordering::Relaxed);
    }
    panic!("{what}: lost five times over");
}
