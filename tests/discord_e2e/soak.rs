//! The soak test: 200 chess matches, two players each, four moves each (by /move, by the
//! board's menu and typed in the thread, in turn), played side by side against the hostile
//! fake with about 5% of REST requests answered 429 or 5xx and the gateway dropped, told to
//! reconnect or its session invalidated every few seconds. Afterwards every move the fake saw
//! acknowledged is stored exactly once and announced exactly once in its match's thread, every
//! match has its thread, the outbox is empty and Discord refused nothing but the injected
//! 429s. Ignored by default (a few minutes in a debug build); run it with
//!
//! ```text
//! DISCORD_API_SPEC=/path/to/openapi.json cargo test --test discord_e2e soak -- --ignored --nocapture
//! ```
//!
//! (`SOAK_MATCHES=20` plays fewer matches, for a quick look.) It prints its figures: matches,
//! moves, requests, 429s, 5xx, gateway drops, wall time.

use crate::fake_discord::bot::{
    CHANNEL, answered, assert_settled, content, custom_ids, seen, start_bot,
};
use crate::fake_discord::{FakeDiscord, Recorded, user};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Matches played side by side: enough to keep two cores busy, few enough that an answer
/// stays within Discord's three seconds.
const AT_ONCE: usize = 6;

/// The openings played, four plies each, no move text repeated within one.
const LINES: [[&str; 4]; 4] = [
    ["e4", "e5", "Nf3", "Nc6"],
    ["d4", "d5", "c4", "e6"],
    ["c4", "e5", "Nc3", "Nf6"],
    ["Nf3", "d5", "g3", "c5"],
];

/// How a move is made.
#[derive(Clone, Copy, Debug)]
enum Input {
    Slash,
    Menu,
    Typed,
}

/// What a match left: its thread, its number, its moves as acknowledged, and the interactions
/// that carried them.
struct Played {
    thread: String,
    match_id: i64,
    moves: Vec<String>,
    interactions: Vec<String>,
}

/// Plays match `k` from challenge to its fourth move; Err when its thread or first board never
/// came (the match is left there, and counted).
async fn play(fake: Arc<FakeDiscord>, k: usize, lost: Arc<AtomicU64>) -> Result<Played, String> {
    let white = user(&format!("2{:018}", 2 * k + 1), &format!("w{k}"));
    let black = user(&format!("2{:018}", 2 * k + 2), &format!("b{k}"));
    let mention = |u: &Value| format!("<@{}>", u["id"].as_str().unwrap_or_default());
    let mut interactions = Vec::new();

    // The challenge, then its acceptance.
    let what = format!("match {k}'s challenge");
    let (_, reply) = answered(&fake, &what, &lost, || {
        fake.command(
            &white,
            CHANNEL,
            "play",
            json!([{"name": "game", "type": 4, "value": 0},
                   {"name": "opponent", "type": 6, "value": black["id"]}]),
            json!({"users": {black["id"].as_str().unwrap(): black}}),
        )
    })
    .await;
    let accept = custom_ids(&reply)
        .into_iter()
        .find(|c| c.ends_with(":accept"))
        .unwrap_or_else(|| panic!("match {k}: no Accept button: {reply:?}"));
    let n = fake.request_count();
    let pressed = (6_000_000 + k).to_string();
    let what = format!("match {k}'s acceptance");
    answered(&fake, &what, &lost, || {
        fake.press(&black, CHANNEL, 6_000_000 + k as u64, &accept)
    })
    .await;
    // The thread opens (later, through the outbox, when Discord pushes back) and its first
    // board is posted there.
    seen(&fake, n, 40, &format!("match {k}'s thread"), |r| {
        r.status < 300 && r.path.ends_with(&format!("/messages/{pressed}/threads"))
    })
    .await?;
    let first = seen(&fake, n, 40, &format!("match {k}'s first board"), |r| {
        r.status < 300
            && r.method == "POST"
            && !r.files.is_empty()
            && !r.path.contains(CHANNEL)
            && content(r).contains(&format!("{} to play", mention(&white)))
    })
    .await?;
    let thread = first.path.split('/').nth(4).unwrap_or_default().to_string();
    let match_id: i64 = custom_ids(&first)
        .iter()
        .find_map(|c| {
            c.strip_prefix("dm:choose:")?
                .split(':')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("match {k}: no menu on the first board: {first:?}"));

    let line = LINES[k % LINES.len()];
    let mut moves = Vec::new();
    for (ply, mv) in line.iter().enumerate() {
        let (who, side) = match ply % 2 {
            0 => (&white, "White"),
            _ => (&black, "Black"),
        };
        let said = format!("{side} plays {mv}");
        let what = format!("match {k} ply {ply} ({mv})");
        let input = [Input::Slash, Input::Menu, Input::Typed][(k + ply) % 3];
        let n = fake.request_count();
        let shown = match input {
            Input::Slash => {
                let (id, shown) =
                    answered(&fake, &what, &lost, || fake.move_command(who, &thread, mv)).await;
                interactions.push(id);
                shown
            }
            Input::Menu => {
                let menu = format!("dm:choose:{match_id}:{ply}");
                let (id, shown) = answered(&fake, &what, &lost, || {
                    fake.select(who, &thread, 7_000_000 + k as u64, &menu, &format!("={mv}"))
                })
                .await;
                interactions.push(id);
                shown
            }
            Input::Typed => {
                fake.say(who, &thread, mv, &[]);
                // The reply, or (when it failed) the outbox's post once the lease is over.
                let path = format!("/channels/{thread}/messages");
                seen(&fake, n, 120, &what, |r| {
                    r.status < 300 && r.path.ends_with(&path) && content(r).contains(&said)
                })
                .await
                .unwrap_or_else(|e| panic!("{e}"))
            }
        };
        assert!(content(&shown).contains(&said), "{what}: {shown:?}");
        moves.push(mv.to_string());
    }
    Ok(Played {
        thread,
        match_id,
        moves,
        interactions,
    })
}

/// Drops the gateway every few seconds (now and then asking a reconnection, or invalidating
/// the session) until `stop`; returns how many times.
async fn unsteady(fake: Arc<FakeDiscord>, stop: Arc<AtomicBool>, drops: Arc<AtomicU64>) {
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_secs(3)).await;
        let n = drops.fetch_add(1, Ordering::Relaxed) + 1;
        match n % 6 {
            0 => fake.gateway.reconnect(),
            3 => fake.gateway.invalid_session(true),
            5 => fake.gateway.invalid_session(false),
            _ => fake.gateway.drop_connection(),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a soak of a few minutes: run with --ignored (see the file's opening comment)"]
async fn soak_200_matches_against_a_hostile_discord() {
    let matches: usize = std::env::var("SOAK_MATCHES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(200);
    let started = Instant::now();
    let fake = Arc::new(FakeDiscord::start().await);
    let table = start_bot(&fake).await;
    // About 5% of requests pushed back: one in 40 answered 429 (a quarter of those global),
    // and one in 17 of those that are not answers to interactions (about half of all) a 502 or
    // 503 (interaction callbacks and their webhooks are spared: Discord gives no second
    // chance to answer an interaction).
    fake.hostile.limit_every.store(40, Ordering::Relaxed);
    fake.hostile.server_errors.store(true, Ordering::Relaxed);
    fake.hostile.error_every.store(17, Ordering::Relaxed);
    let stop = Arc::new(AtomicBool::new(false));
    let drops = Arc::new(AtomicU64::new(0));
    let lost = Arc::new(AtomicU64::new(0));
    let chaos = tokio::spawn(unsteady(fake.clone(), stop.clone(), drops.clone()));

    let mut played = Vec::new();
    let mut homeless = Vec::new();
    let mut running = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < matches || !running.is_empty() {
        while next < matches && running.len() < AT_ONCE {
            running.spawn(play(fake.clone(), next, lost.clone()));
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            match done.expect("a match played through") {
                Ok(p) => played.push(p),
                Err(lost) => homeless.push(lost),
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let _ = chaos.await;
    // Nothing owed is left: every lease run out, every retry sent.
    fake.hostile.server_errors.store(false, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(35)).await;

    let requests = fake.requests();
    let mut moves = 0;
    for p in &played {
        // Stored exactly once, in the order acknowledged.
        let id = p.match_id;
        let stored = table
            .call(move |t| t.store().load(id))
            .await
            .unwrap()
            .unwrap();
        let actions: Vec<&str> = stored.actions.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(actions, p.moves, "match #{id}'s stored moves");
        // Its thread exists: created, still there, and the match's.
        let head = table
            .call(move |t| t.store().load_head(id))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(head.place.thread_id.as_deref(), Some(p.thread.as_str()));
        // Announced exactly once: one board a move, in the thread or as an interaction's
        // answer there.
        let in_thread = format!("/channels/{}/messages", p.thread);
        for (ply, mv) in p.moves.iter().enumerate() {
            let said = format!("{} plays {mv}", ["White", "Black"][ply % 2]);
            let shown: Vec<&Recorded> = requests
                .iter()
                .filter(|r| r.status < 300 && content(r).contains(&said))
                .filter(|r| {
                    r.path.ends_with(&in_thread)
                        || p.interactions.iter().any(|i| {
                            r.path.contains(&format!("/interactions/{i}/"))
                                || r.path.contains(&format!("/token-{i}"))
                        })
                })
                .collect();
            assert_eq!(shown.len(), 1, "match #{id}: {said} announced: {shown:#?}");
            moves += 1;
        }
    }
    let limited = fake.hostile.limited.load(Ordering::Relaxed);
    let errors = fake.hostile.errors.load(Ordering::Relaxed);
    let total = requests.len() as u64 + limited;
    println!(
        "soak: {matches} matches ({} without a home), {moves} moves, {total} requests, {limited} 429s ({:.1}%), \
         {errors} 5xx ({:.1}%), {} gateway drops ({} identified, {} resumed), {} interactions lost \
         with a session and sent again, {:.0?}",
        homeless.len(),
        100.0 * limited as f64 / total as f64,
        100.0 * errors as f64 / total as f64,
        drops.load(Ordering::Relaxed),
        fake.gateway.identified.load(Ordering::Relaxed),
        fake.gateway.resumed.load(Ordering::Relaxed),
        lost.load(Ordering::Relaxed),
        started.elapsed()
    );
    assert!(limited > 0 && errors > 0, "the fake pushed back");
    assert_settled(&fake, &table).await;
    assert!(
        homeless.is_empty(),
        "{} of {matches} matches never got their thread or first board: {homeless:?}",
        homeless.len()
    );
}
