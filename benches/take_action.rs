//! The take-action path (load and replay, authorise, apply, persist, render) against a
//! database file holding 10,000 matches. Prints the median and 99th percentile of single
//! actions, then runs criterion's estimate.

use criterion::Criterion;
use deckmate::engine::GameRng;
use deckmate::store::{PlayerId, Store};
use deckmate::table::Table;
use std::time::{Duration, Instant};

const MATCHES: i64 = 10_000;
const OPENING: [&str; 8] = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"];

/// A fresh database with MATCHES chess matches, each eight moves in, written in one transaction.
fn seeded_table() -> (Table, [PlayerId; 2]) {
    let dir = std::env::temp_dir().join(format!("deckmate-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut store = Store::open(dir.join("bench.db")).unwrap();
    let a = store.local_player("alice").unwrap().id;
    let b = store.local_player("bob").unwrap().id;
    let conn = store.connection();
    conn.execute_batch("BEGIN").unwrap();
    for id in 1..=MATCHES {
        conn.execute(
            "INSERT INTO matches (id, game, options, seed, status, version, created_at, updated_at)
             VALUES (?1, 'chess', '[]', ?1, 'active', ?2, 0, 0)",
            (id, OPENING.len() as i64),
        )
        .unwrap();
        for (seat, player) in [(0, a), (1, b)] {
            conn.execute("INSERT INTO seats VALUES (?1, ?2, ?3)", (id, seat, player))
                .unwrap();
        }
        for (ply, text) in OPENING.iter().enumerate() {
            conn.execute(
                "INSERT INTO actions VALUES (?1, ?2, ?3, ?4, 0)",
                (id, ply as i64 + 1, (ply % 2) as i64, text),
            )
            .unwrap();
        }
    }
    conn.execute_batch("COMMIT").unwrap();
    (Table::new(store), [a, b])
}

/// Times one action in the next match (round robin) that still has one to play.
fn one_action(
    table: &mut Table,
    players: [PlayerId; 2],
    id: &mut i64,
    rng: &mut GameRng,
) -> Duration {
    loop {
        *id = *id % MATCHES + 1;
        if let Some((player, text)) = next_action(table, players, *id, rng) {
            let started = Instant::now();
            table
                .act(*id, player, None, &text)
                .expect("a legal action applies");
            return started.elapsed();
        }
    }
}

/// The next action for match `id`: whoever is to move plays a random legal action.
fn next_action(
    table: &Table,
    players: [PlayerId; 2],
    id: i64,
    rng: &mut GameRng,
) -> Option<(PlayerId, String)> {
    let shown = table.show(id).ok()?;
    let (seat, _) = shown.to_act.first()?;
    let player = players[seat.index()];
    let legal = table.legal(id, player).ok()?;
    (!legal.is_empty()).then(|| (player, legal[rng.below(legal.len())].clone()))
}

fn main() {
    let (mut table, players) = seeded_table();
    let mut rng = GameRng::from_seed(3);
    let mut samples = Vec::new();
    let mut id = 0;
    while samples.len() < 2_000 {
        samples.push(one_action(&mut table, players, &mut id, &mut rng));
    }
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q) as usize];
    println!(
        "take action with {MATCHES} stored matches, {} samples: median {:?}, p99 {:?}, max {:?}",
        samples.len(),
        at(0.5),
        at(0.99),
        samples.last().unwrap()
    );

    let mut c = Criterion::default().configure_from_args();
    c.bench_function("take action (10k matches)", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| one_action(&mut table, players, &mut id, &mut rng))
                .sum()
        })
    });
    c.final_summary();
}
