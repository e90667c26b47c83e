//! End to end, start-up that fails, fails: Discord refusing the command registration stops
//! the client with the reason (in process), and the real binary exits non-zero with the reason
//! on standard error, never the token; and a process given a range of shards identifies those
//! shards and no other.

use crate::fake_discord::bot::{BOT_TOKEN, bot_command};
use crate::fake_discord::{FakeDiscord, GUILD_ID};
use deckmate::discord::BotConfig;
use deckmate::store::Store;
use deckmate::table::{Table, TableHandle};
use std::sync::atomic::Ordering;
use std::time::Duration;

fn config(fake: &FakeDiscord) -> BotConfig {
    let vars = [
        ("DISCORD_TOKEN", BOT_TOKEN.to_string()),
        ("DEV_GUILD_ID", GUILD_ID.to_string()),
        ("DISCORD_API_URL", fake.base.clone()),
        ("DISCORD_API_CA", crate::fake_discord::tls::CA.to_string()),
    ];
    BotConfig::from_vars(|name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    })
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_registration_stops_the_client_with_the_reason() {
    let fake = FakeDiscord::start().await;
    fake.registration_fails.store(true, Ordering::Relaxed);
    let table = TableHandle::spawn(Table::new(Store::open_in_memory().unwrap()));
    let (ready, never) = tokio::sync::oneshot::channel();
    let mut client = deckmate::discord::client(&config(&fake), table, Some(ready))
        .await
        .unwrap();
    let stopped = tokio::time::timeout(
        Duration::from_secs(20),
        deckmate::discord::start(&mut client),
    )
    .await
    .expect("the client stops instead of staying online");
    let error = stopped.expect_err("start-up failed").to_string();
    assert!(
        error.contains("the commands could not be registered with Discord")
            && error.contains("Missing Access"),
        "{error}"
    );
    assert!(never.await.is_err(), "the bot never said it was ready");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_exits_non_zero_with_the_reason_when_registration_is_refused() {
    let fake = FakeDiscord::start().await;
    fake.registration_fails.store(true, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("deckmate-startup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let child = bot_command(&fake, &dir)
        .env("RUST_LOG", "debug")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pid = child.id();
    // Both pipes are read as the bot writes (its debug log is long).
    let waited = tokio::task::spawn_blocking(move || child.wait_with_output());
    let out = match tokio::time::timeout(Duration::from_secs(30), waited).await {
        Ok(out) => out.unwrap().unwrap(),
        Err(_) => {
            let _ = std::process::Command::new("kill")
                .arg(pid.to_string())
                .status();
            panic!("the bot stayed up after its registration was refused");
        }
    };
    let status = out.status;
    let err = String::from_utf8_lossy(&out.stderr);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(status.code(), Some(1), "{err}");
    // The reason is said on a line of its own (a shard's own log line may still come after
    // it while the process shuts down).
    assert!(
        err.lines().any(|line| line.starts_with("error:")
            && line.contains("the commands could not be registered with Discord")
            && line.contains("Missing Access")),
        "{err}"
    );
    assert!(
        !err.contains(BOT_TOKEN) && !said.contains(BOT_TOKEN),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_runs_the_shards_it_is_given_and_no_other() {
    let fake = FakeDiscord::start().await;
    let dir = std::env::temp_dir().join(format!("deckmate-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = bot_command(&fake, &dir)
        .env("SHARDS", "1-2")
        .env("SHARD_TOTAL", "4")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    // serenity waits a few seconds between two shards' IDENTIFY, as Discord asks.
    let deadline = std::time::Instant::now() + Duration::from_secs(40);
    let shards = loop {
        let shards = fake.gateway.shards.lock().unwrap().clone();
        if shards.len() >= 2 || std::time::Instant::now() > deadline {
            break shards;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // A moment more: no third shard comes.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let _ = child.kill();
    let _ = child.wait();
    let mut all = fake.gateway.shards.lock().unwrap().clone();
    all.sort();
    assert_eq!(shards.len(), 2, "{all:?}");
    assert_eq!(all, [[1, 4], [2, 4]]);
    let _ = std::fs::remove_dir_all(&dir);
}
