//! The load test: 10,000 active chess matches, seeded in the database, played by many simulated
//! users against the hostile fake Discord through the real binary: one process on SQLite, or
//! two processes (a shard each) on one PostgreSQL server. Moves come as `/move`, as a choice in
//! the board's menu and typed in the thread; some interactions arrive twice, some menus are
//! stale, about 5% of REST requests are answered 429 or 5xx, and one process is killed with
//! SIGKILL halfway through and started again. One match in fifty has a clock nobody plays
//! against, so its deadline fires while the others are played.
//!
//! Afterwards every acknowledged move is stored exactly once, in order (and so is a move the
//! killed process stored without answering); every match replays from its log to the state the
//! table shows; every clock ran out exactly once, announced once; every move was announced
//! once; the outbox is empty and Discord refused nothing the test did not provoke. It prints
//! the figures: moves acknowledged a second and the latency from interaction (or message) to
//! the answer showing the move, in steady play and overall.
//!
//! Ignored by default (minutes in a release build). `scripts/load-test` runs both set-ups:
//!
//! ```text
//! scripts/load-test                  # SQLite, then PostgreSQL (a throwaway server)
//! LOAD_MATCHES=1000 scripts/load-test
//! ```
//!
//! Without `DECKMATE_TEST_POSTGRES` the PostgreSQL case says so and does nothing.

use crate::fake_discord::bot::{CHANNEL, LOST, answering, bot_command, content};
use crate::fake_discord::{FakeDiscord, GUILD_ID, Recorded, user};
use deckmate::engine::{GameRng, Viewer};
use deckmate::games::GameKind;
use deckmate::store::outbox::PostState;
use deckmate::store::{Engine, MatchId, Place, Status, Store};
use deckmate::table::Table;
use deckmate::timing::control::TimeControl;
use serde_json::Value;
use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The openings played, no move text repeated within one.
const LINES: [[&str; 4]; 4] = [
    ["e4", "e5", "Nf3", "Nc6"],
    ["d4", "d5", "c4", "e6"],
    ["c4", "e5", "Nc3", "Nf6"],
    ["Nf3", "d5", "g3", "c5"],
];

/// Every `TIMED`th match has a clock of `CLOCK` seconds a move and is never played.
const TIMED: usize = 50;
const CLOCK: i64 = 90;

/// A number from the environment, or `default`.
fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// How a move is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    Slash,
    Menu,
    Typed,
}

/// One seeded match, as the test tracks it.
struct Game {
    k: usize,
    id: MatchId,
    thread: String,
    white: Value,
    black: Value,
    /// The moves stored, as the test knows them: acknowledged, or found stored after the
    /// process that took them died before answering.
    moves: Vec<String>,
    /// Every interaction sent for it (answered, lost, redelivered or stale).
    interactions: Vec<String>,
}

/// What every simulated user shares.
struct Run {
    /// The fakes the processes are connected to; match k is served by `fakes[k % len]`.
    fakes: Vec<Arc<FakeDiscord>>,
    database: String,
    acked: AtomicU64,
    /// (when it was sent, how long until the answer showed it).
    latencies: Mutex<Vec<(Instant, Duration)>>,
    /// Moves found stored without an answer (the killed process), and sends lost and sent
    /// again.
    unanswered: AtomicU64,
    resent: AtomicU64,
    redelivered: AtomicU64,
    stale: AtomicU64,
}

/// The answer to interaction `id` showing a move or refusing it, or None when none came within
/// `LOST` (the interaction died with a process, or Discord lost it).
async fn answer(fake: &FakeDiscord, after: usize, id: &str) -> Option<Recorded> {
    fake.first_from(after, LOST, answering(id)).await
}

/// Whether match `id`'s stored log holds `mv` as its action number `ply`.
async fn stored_as(database: &str, id: MatchId, ply: usize, mv: &str) -> bool {
    let database = database.to_string();
    let mv = mv.to_string();
    tokio::task::spawn_blocking(move || {
        let store = Store::open(&database).expect("the database opens");
        let stored = store.load(id).expect("the match reads");
        stored.actions.get(ply).is_some_and(|a| a.text == mv)
    })
    .await
    .unwrap()
}

/// Plays ply `ply` of game `g`; panics when the bot answers what it should not.
async fn play(run: &Run, g: &mut Game, ply: usize) {
    let mv = LINES[g.k % LINES.len()][ply];
    let (who, side) = match ply % 2 {
        0 => (g.white.clone(), "White"),
        _ => (g.black.clone(), "Black"),
    };
    let said = format!("{side} plays {mv}");
    let fake = &run.fakes[g.k % run.fakes.len()];
    let input = [Input::Slash, Input::Menu, Input::Typed][(g.k + ply) % 3];
    let what = format!("match #{} ply {ply} ({mv})", g.id);

    // Now and then a menu of the board before: refused, nothing changes.
    if input == Input::Menu && ply > 0 && g.k % 10 == 1 {
        let n = fake.request_count();
        let stale = format!("dm:choose:{}:{}", g.id, ply - 1);
        let id = fake.select(&who, &g.thread, 7_000_000, &stale, &format!("={mv}"));
        g.interactions.push(id.clone());
        if let Some(r) = answer(fake, n, &id).await {
            assert!(
                !content(&r).contains(&said),
                "{what}: a stale menu played: {r:?}"
            );
            run.stale.fetch_add(1, Ordering::Relaxed);
        }
    }

    for _ in 0..6 {
        let n = fake.request_count();
        let sent = Instant::now();
        let shown = match input {
            Input::Typed => {
                let path = format!("/channels/{}/messages", g.thread);
                let message = fake.say(&who, &g.thread, mv, &[]);
                // Typed moves are never lost: a restarted process reads what it missed.
                let shown = crate::fake_discord::bot::seen(fake, n, 300, &what, |r| {
                    r.status < 300 && r.path.ends_with(&path) && content(r).contains(&said)
                })
                .await;
                shown.unwrap_or_else(|e| {
                    let about: Vec<String> = fake
                        .requests()
                        .iter()
                        .filter(|r| r.path.contains(&g.thread))
                        .map(|r| {
                            let at = r.at.saturating_duration_since(sent);
                            format!("{at:.1?} {} {} {}", r.status, r.method, r.path)
                        })
                        .collect();
                    panic!("{e} (message {message}); requests about its thread: {about:#?}")
                })
            }
            Input::Slash | Input::Menu => {
                let id = match input {
                    Input::Slash => fake.move_command(&who, &g.thread, mv),
                    _ => {
                        let menu = format!("dm:choose:{}:{ply}", g.id);
                        fake.select(&who, &g.thread, 7_000_000, &menu, &format!("={mv}"))
                    }
                };
                g.interactions.push(id.clone());
                match answer(fake, n, &id).await {
                    Some(r) if content(&r).contains(&said) => {
                        if g.k % 20 == 3 {
                            // Discord delivers it again: applied and announced once.
                            fake.redeliver(&id);
                            run.redelivered.fetch_add(1, Ordering::Relaxed);
                        }
                        r
                    }
                    answered => {
                        // Refused (the move was stored by a process that died before it
                        // answered) or lost: the log says which.
                        if stored_as(&run.database, g.id, ply, mv).await {
                            run.unanswered.fetch_add(1, Ordering::Relaxed);
                            g.moves.push(mv.to_string());
                            return;
                        }
                        assert!(answered.is_none(), "{what}: refused: {answered:?}");
                        run.resent.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                }
            }
        };
        run.latencies
            .lock()
            .unwrap()
            .push((sent, shown.at.saturating_duration_since(sent)));
        run.acked.fetch_add(1, Ordering::Relaxed);
        g.moves.push(mv.to_string());
        return;
    }
    panic!("{what}: never answered");
}

/// Plays `plies` moves in each of `games`, a move in every match before the next move in any.
async fn user_loop(run: Arc<Run>, mut games: Vec<Game>, plies: usize) -> Vec<Game> {
    for ply in 0..plies {
        for g in games.iter_mut() {
            play(&run, g, ply).await;
        }
    }
    games
}

/// Seeds `matches` chess matches (every `TIMED`th with a clock), match k in server
/// `guilds[k % len]`, and returns them, the clocked ones apart.
fn seed(database: &str, matches: usize, guilds: &[String]) -> (Vec<Game>, Vec<Game>) {
    let mut table = Table::new(Store::open(database).expect("the database opens"));
    let users = (matches / 5).max(2);
    let user_of = |u: usize| user(&format!("3{:018}", u), &format!("u{u}"));
    let mut players = Vec::new();
    for u in 0..users {
        let who = user_of(u);
        let id = who["id"].as_str().unwrap().to_string();
        players.push(table.store().discord_player(&id, &format!("u{u}")).unwrap());
    }
    let (mut played, mut timed) = (Vec::new(), Vec::new());
    for k in 0..matches {
        let (w, b) = ((2 * k) % users, (2 * k + 1) % users);
        let thread = (710_000_000_000_000_000u64 + k as u64).to_string();
        let place = Place {
            guild_id: Some(guilds[k % guilds.len()].clone()),
            channel_id: Some(CHANNEL.to_string()),
            thread_id: Some(thread.clone()),
        };
        let clocked = k % TIMED == TIMED - 1;
        let time = match clocked {
            true => TimeControl::PerMove { seconds: CLOCK },
            false => TimeControl::None,
        };
        let pair = [players[w].clone(), players[b].clone()];
        let made = table
            .create_timed(GameKind::Chess, &[], &pair, k as u64, &place, time)
            .expect("a match is created");
        let game = Game {
            k,
            id: made.match_id,
            thread,
            white: user_of(w),
            black: user_of(b),
            moves: Vec::new(),
            interactions: Vec::new(),
        };
        match clocked {
            true => timed.push(game),
            false => played.push(game),
        }
    }
    // A database that grew to this size over weeks has its statistics (PostgreSQL's
    // autovacuum keeps them); tables filled in seconds have none until autovacuum's next
    // round, and until then the server plans their queries as for empty tables. Take them
    // for the tables just filled, as an operator does after a bulk load (not for those still
    // empty, whose statistics would say "empty" while the test fills them).
    if table.store().engine() == Engine::Postgres {
        let store = table.store();
        let analyze = "ANALYZE players, matches, seats, deadlines";
        store.connection().execute_batch(analyze).expect("ANALYZE");
    }
    (played, timed)
}

/// One bot process: how to start it again, and the running child.
struct Process {
    command: Box<dyn Fn() -> Command + Send + Sync>,
    child: Child,
}

impl Process {
    fn start(command: Box<dyn Fn() -> Command + Send + Sync>) -> Process {
        let child = command().spawn().expect("the binary runs");
        Process { command, child }
    }

    /// SIGKILL, and the same command again.
    fn kill_and_restart(&mut self) {
        self.child.kill().expect("the process is killed");
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_secs(1));
        self.child = (self.command)().spawn().expect("the binary runs again");
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `q`th quantile of sorted `d`, in milliseconds.
fn quantile(d: &[Duration], q: f64) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let i = ((d.len() as f64 * q).ceil() as usize).clamp(1, d.len()) - 1;
    d[i].as_secs_f64() * 1000.0
}

fn figures(label: &str, mut d: Vec<Duration>) -> String {
    d.sort();
    format!(
        "{label}: {} moves, median {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        d.len(),
        quantile(&d, 0.5),
        quantile(&d, 0.95),
        quantile(&d, 0.99),
        quantile(&d, 1.0)
    )
}

/// Runs the load test on `database` with `processes` bot processes (a shard each).
async fn load(engine: &str, database: String, processes: usize) {
    let matches = setting("LOAD_MATCHES", 10_000);
    let plies = setting("LOAD_PLIES", 2).min(4);
    let at_once = setting("LOAD_USERS", 64);
    let dir = std::env::temp_dir().join(format!("deckmate-load-{}-{engine}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    let started = Instant::now();
    // Discord routes a server's events to one shard: match k is in the server of shard
    // k % processes (a server whose id puts it there), and is played through that shard's
    // fake gateway.
    let base: u64 = GUILD_ID.parse().unwrap();
    let guilds: Vec<String> = (0..processes as u64)
        .map(|shard| {
            let on = |g: u64| (g >> 22) % processes as u64 == shard;
            let g = (0..).map(|i| base + (i << 22)).find(|&g| on(g)).unwrap();
            g.to_string()
        })
        .collect();
    let db = database.clone();
    let (games, timed) = tokio::task::spawn_blocking(move || seed(&db, matches, &guilds))
        .await
        .unwrap();
    let seeded = started.elapsed();

    let first = Arc::new(FakeDiscord::start().await);
    let mut fakes = vec![first.clone()];
    for _ in 1..processes {
        fakes.push(Arc::new(first.beside().await));
    }
    // Every request of the kind made here is checked against Discord's API description by
    // the other tests: this one spares the cores for the bot.
    first.spec_checks.store(false, Ordering::Relaxed);
    // About 5% of requests pushed back, as in the soak test; `LOAD_FAULTS=off` measures the
    // bot without them (Discord's own bucket limits still apply): a 429 or a 5xx costs the
    // move it meets its retry's wait, which is what the tail of the figures shows otherwise.
    let faults = std::env::var("LOAD_FAULTS").map_or(true, |v| v != "off");
    let (limit_every, error_every) = if faults { (40, 17) } else { (0, 0) };
    first
        .hostile
        .limit_every
        .store(limit_every, Ordering::Relaxed);
    first.hostile.server_errors.store(faults, Ordering::Relaxed);
    first
        .hostile
        .error_every
        .store(error_every, Ordering::Relaxed);

    let mut running = Vec::new();
    for (shard, fake) in fakes.iter().enumerate() {
        let (base, dir, database) = (fake.base.clone(), dir.clone(), database.clone());
        let fake_for = fake.clone();
        let log = dir.join(format!("bot-{shard}.log"));
        let command = move || {
            let mut c = bot_command(&fake_for, &dir);
            c.env("DISCORD_API_URL", &base)
                .env("MESSAGE_CONTENT", "on")
                .env("SHARDS", format!("{shard}-{shard}"))
                .env("SHARD_TOTAL", processes.to_string())
                .env(
                    "RUST_LOG",
                    std::env::var("LOAD_LOG").unwrap_or("warn".into()),
                )
                .stdout(Stdio::null())
                .stderr(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(&log)
                        .unwrap(),
                );
            if database.starts_with("postgres") {
                c.env("DATABASE_URL", &database);
            } else {
                c.env("DATABASE_PATH", &database);
            }
            c
        };
        running.push(Process::start(Box::new(command)));
    }
    for fake in &fakes {
        fake.gateway
            .wait(&fake.gateway.identified, 1, "identified")
            .await;
    }
    // The shard of the test server reads every match thread once at start (catch-up).
    let reads = |r: &Recorded| r.method == "GET" && r.path.ends_with("/messages");
    let wait_start = Instant::now();
    while first.count_from(0, reads) < matches && wait_start.elapsed() < Duration::from_secs(600) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let ready = wait_start.elapsed();

    let run = Arc::new(Run {
        fakes: fakes.clone(),
        database: database.clone(),
        acked: AtomicU64::new(0),
        latencies: Mutex::new(Vec::new()),
        unanswered: AtomicU64::new(0),
        resent: AtomicU64::new(0),
        redelivered: AtomicU64::new(0),
        stale: AtomicU64::new(0),
    });
    let total = (games.len() * plies) as u64;
    let mut shares: Vec<Vec<Game>> = (0..at_once).map(|_| Vec::new()).collect();
    for (i, g) in games.into_iter().enumerate() {
        shares[i % at_once].push(g);
    }
    let play_start = Instant::now();
    let mut users = tokio::task::JoinSet::new();
    for share in shares {
        users.spawn(user_loop(run.clone(), share, plies));
    }
    // Halfway, the first process is killed and started again.
    let killer = {
        let run = run.clone();
        let mut first_process = running.remove(0);
        tokio::spawn(async move {
            while run.acked.load(Ordering::Relaxed) < total / 2 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let at = Instant::now();
            tokio::task::spawn_blocking(move || {
                first_process.kill_and_restart();
                first_process
            })
            .await
            .map(|p| (at, p))
        })
    };
    let mut played = Vec::new();
    while let Some(done) = users.join_next().await {
        played.extend(done.expect("a user played through"));
    }
    let wall = play_start.elapsed();
    let (killed_at, restarted) = killer.await.unwrap().unwrap();
    running.insert(0, restarted);

    // Nothing owed is left: every lease run out, every retry sent, every clock run out.
    first.hostile.server_errors.store(false, Ordering::Relaxed);
    first.hostile.limit_every.store(0, Ordering::Relaxed);
    let check_db = database.clone();
    let timed_ids: Vec<MatchId> = timed.iter().map(|g| g.id).collect();
    let settle_start = Instant::now();
    loop {
        let (db, ids) = (check_db.clone(), timed_ids.clone());
        let (pending, clocks_left) = tokio::task::spawn_blocking(move || {
            let store = Store::open(&db).unwrap();
            let pending = store
                .unsent_posts()
                .unwrap()
                .iter()
                .filter(|p| p.state == PostState::Pending)
                .count();
            let left = ids
                .iter()
                .filter(|id| store.load_head(**id).unwrap().status == Status::Active)
                .count();
            (pending, left)
        })
        .await
        .unwrap();
        if pending == 0 && clocks_left == 0 {
            break;
        }
        assert!(
            settle_start.elapsed() < Duration::from_secs(400),
            "{pending} posts still owed, {clocks_left} clocks not run out"
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    drop(running);

    // Stored exactly once, in order; replayed, the log gives the state the table shows.
    let db = database.clone();
    let expected: Vec<(MatchId, Vec<String>)> =
        played.iter().map(|g| (g.id, g.moves.clone())).collect();
    tokio::task::spawn_blocking(move || {
        let mut table = Table::new(Store::open(&db).unwrap());
        for (id, moves) in expected {
            let stored = table.store().load(id).unwrap();
            let texts: Vec<&str> = stored.actions.iter().map(|a| a.text.as_str()).collect();
            assert_eq!(texts, moves, "match #{id}'s stored moves");
            let mut rng = GameRng::from_seed(stored.seed);
            let mut game = stored.game.start(&stored.options, 2, &mut rng).unwrap();
            for a in &stored.actions {
                game.play(a.seat, &a.text, &mut rng).unwrap();
            }
            let shown = table.show(id).unwrap();
            assert_eq!(
                game.view(Viewer::Spectator),
                shown.public_view,
                "match #{id} replays to what the table shows"
            );
        }
    })
    .await
    .unwrap();

    // Announced exactly once: each move in its thread or as the answer to one of its
    // interactions; each clock's end once in its thread.
    let requests = first.requests();
    let mut by_place: HashMap<String, usize> = HashMap::new();
    for (i, g) in played.iter().enumerate() {
        by_place.insert(g.thread.clone(), i);
        for id in &g.interactions {
            by_place.insert(id.clone(), i);
        }
    }
    let timed_threads: HashMap<&str, usize> = timed
        .iter()
        .enumerate()
        .map(|(i, g)| (g.thread.as_str(), i))
        .collect();
    let mut shown: HashMap<(usize, String), Vec<String>> = HashMap::new();
    let mut ends = vec![0; timed.len()];
    for r in requests.iter().filter(|r| r.status < 300) {
        let parts: Vec<&str> = r.path.split('/').collect();
        let place = match parts.as_slice() {
            [_, "api", "v10", "channels", thread, "messages"] => Some(thread.to_string()),
            [_, "api", "v10", "interactions", id, ..] => Some(id.to_string()),
            [_, "api", "v10", "webhooks", _, token, ..] => {
                token.strip_prefix("token-").map(str::to_string)
            }
            _ => None,
        };
        let Some(place) = place else { continue };
        let text = content(r);
        if let Some(&t) = timed_threads.get(place.as_str()) {
            ends[t] += usize::from(text.contains("on time"));
        }
        let Some(&i) = by_place.get(&place) else {
            continue;
        };
        for (ply, mv) in played[i].moves.iter().enumerate() {
            let said = format!("{} plays {mv}", ["White", "Black"][ply % 2]);
            if text.contains(&said) {
                let at = r.at.saturating_duration_since(play_start);
                let seen = format!("{:.1?} {} {} {}", at, r.status, r.method, r.path);
                shown.entry((i, said)).or_default().push(seen);
            }
        }
    }
    for (i, g) in played.iter().enumerate() {
        for (ply, mv) in g.moves.iter().enumerate() {
            let said = format!("{} plays {mv}", ["White", "Black"][ply % 2]);
            let times = shown.get(&(i, said.clone())).cloned().unwrap_or_default();
            assert_eq!(
                times.len(),
                1,
                "match #{}: {said} announced {} times (kill at {:.1?}): {times:#?}",
                g.id,
                times.len(),
                killed_at.saturating_duration_since(play_start)
            );
        }
    }
    for (g, n) in timed.iter().zip(&ends) {
        assert_eq!(
            *n, 1,
            "match #{}: its clock's end announced {n} times",
            g.id
        );
    }
    // Discord refused nothing but what the test provoked (none: stale menus are answered).
    let refused: Vec<String> = requests
        .iter()
        .filter(|r| (400..500).contains(&r.status))
        .map(|r| format!("{} {} {}", r.status, r.method, r.path))
        .collect();
    assert!(refused.is_empty(), "Discord refused: {refused:#?}");
    let violations = first.take_violations();
    assert!(violations.is_empty(), "{violations:#?}");

    let latencies = run.latencies.lock().unwrap().clone();
    let acked = latencies.len();
    // Steady play: the moves sent and answered before the kill.
    let steady: Vec<Duration> = latencies
        .iter()
        .filter(|(sent, d)| *sent + *d < killed_at)
        .map(|(_, d)| *d)
        .collect();
    let before = steady.len();
    let steady_secs = killed_at.duration_since(play_start).as_secs_f64();
    println!(
        "load ({engine}, {processes} process{}{}): {matches} matches ({} clocked), {} users at \
         once; seeded in {seeded:.1?}, ready (catch-up of every thread) in {ready:.1?}",
        if processes == 1 { "" } else { "es" },
        if faults {
            ""
        } else {
            ", no injected 429s or 5xx"
        },
        timed.len(),
        at_once
    );
    println!(
        "  {acked} moves acknowledged in {wall:.1?}: {:.0} a second overall, {:.0} a second \
         before the kill ({before} in {steady_secs:.1} s)",
        acked as f64 / wall.as_secs_f64(),
        before as f64 / steady_secs
    );
    println!("  {}", figures("steady", steady,));
    println!(
        "  {}",
        figures("overall", latencies.iter().map(|(_, d)| *d).collect())
    );
    println!(
        "  {} stored by the killed process without an answer, {} sends lost and sent again, \
         {} redelivered, {} stale menus refused; {} requests, {} 429s, {} 5xx; {} clocks ran out",
        run.unanswered.load(Ordering::Relaxed),
        run.resent.load(Ordering::Relaxed),
        run.redelivered.load(Ordering::Relaxed),
        run.stale.load(Ordering::Relaxed),
        requests.len(),
        first.hostile.limited.load(Ordering::Relaxed),
        first.hostile.errors.load(Ordering::Relaxed),
        timed.len()
    );
    // Which routes the 429s fell on (ids left out), the most first.
    let mut routes: HashMap<String, usize> = HashMap::new();
    let mut paths: HashMap<String, usize> = HashMap::new();
    for fake in &run.fakes {
        for r in fake.hostile.rate_limited.lock().unwrap().iter() {
            *paths.entry(format!("{} {}", r.method, r.path)).or_default() += 1;
            let route: Vec<&str> = r
                .path
                .split('/')
                .map(
                    |p| match p.bytes().all(|b| b.is_ascii_digit()) || p.starts_with("token-") {
                        true if !p.is_empty() => ":id",
                        _ => p,
                    },
                )
                .collect();
            *routes
                .entry(format!("{} {}", r.method, route.join("/")))
                .or_default() += 1;
        }
    }
    let mut routes: Vec<(String, usize)> = routes.into_iter().collect();
    routes.sort_by_key(|r| std::cmp::Reverse(r.1));
    println!("  429s by route: {:?}", &routes[..routes.len().min(4)]);
    let mut paths: Vec<(String, usize)> = paths.into_iter().collect();
    paths.sort_by_key(|r| std::cmp::Reverse(r.1));
    println!(
        "  429s on {} paths, the most on one: {:?}",
        paths.len(),
        &paths[..paths.len().min(3)]
    );
    assert_eq!(
        acked as u64 + run.unanswered.load(Ordering::Relaxed),
        total,
        "every move was played"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a load test of minutes: run scripts/load-test (see the file's opening comment)"]
async fn load_one_process_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("deckmate-load-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("load.db").to_string_lossy().into_owned();
    load("sqlite", file, 1).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a load test of minutes: run scripts/load-test (see the file's opening comment)"]
async fn load_two_processes_on_postgres() {
    let Some(url) = deckmate::store::testing::postgres_url() else {
        eprintln!("DECKMATE_TEST_POSTGRES is not set: no PostgreSQL load test");
        return;
    };
    let schema = deckmate::store::testing::scratch_schema(&url).unwrap();
    load("postgres", schema, 2).await;
}
