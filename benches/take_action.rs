//! The take-action path (load, authorise, apply, persist with a snapshot, views) against a
//! database file holding 10,000 matches, played in turn. Prints the median and 99th percentile
//! of single actions, then runs criterion's estimate. The board picture is not part of the
//! table's path (the adapter that posts it draws it, off the table thread); a third printed case
//! adds it, for the whole cost of a move that is shown.
//!
//! Two cases. Hot: the acting table chooses the action itself (`show`, `legal`), which leaves
//! the match in its cache, as when a player looks at the board and then plays. Cold: a second
//! table on the same file chooses, so the acting table meets each match afresh (10,000 matches
//! in turn overflow its cache) and loads it from its snapshot.
//!
//! On SQLite by default; with `DECKMATE_BENCH_POSTGRES=postgres://…` on a new schema of that
//! PostgreSQL server instead (the figures in docs/deploy.md compare the two).

mod common;

use common::Timed;
use criterion::Criterion;
use deckmate::engine::GameRng;
use deckmate::store::{PlayerId, Store};
use deckmate::table::Table;
use std::hint::black_box;
use std::time::{Duration, Instant};

const MATCHES: i64 = 10_000;
const OPENING: [&str; 8] = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"];

/// A fresh database with MATCHES chess matches, each eight moves in, written in one transaction;
/// the table on it and the database's location (a file, or a PostgreSQL URL).
fn seeded_table() -> (Table, [PlayerId; 2], String) {
    let location = match std::env::var("DECKMATE_BENCH_POSTGRES") {
        Ok(url) => deckmate::store::testing::scratch_schema(&url).unwrap(),
        Err(_) => {
            let dir = std::env::temp_dir().join(format!("deckmate-bench-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            dir.join("bench.db").to_string_lossy().into_owned()
        }
    };
    let mut store = Store::open(&location).unwrap();
    let a = store.local_player("alice").unwrap().id;
    let b = store.local_player("bob").unwrap().id;
    let conn = store.connection();
    conn.execute_batch("BEGIN").unwrap();
    for id in 1..=MATCHES {
        conn.execute(
            "INSERT INTO matches (id, game, options, seed, status, version, plies, created_at,
                                  updated_at)
             VALUES (?1, 'chess', '[]', ?1, 'active', ?2, ?2, 0, 0)",
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
    (Table::new(store), [a, b], location)
}

/// Times one action in the next match (round robin) that still has one to play, chosen by
/// `chooser` (the acting table itself when None); also into `timed` when given.
fn one_action(
    table: &mut Table,
    chooser: Option<&Table>,
    players: [PlayerId; 2],
    id: &mut i64,
    rng: &mut GameRng,
    timed: Option<&mut Timed>,
    draw: bool,
) -> Duration {
    for _ in 0..MATCHES {
        *id = *id % MATCHES + 1;
        if let Some((player, text)) = next_action(chooser.unwrap_or(table), players, *id, rng) {
            let mut act = || {
                let started = Instant::now();
                let update = table
                    .act(*id, player, None, &text)
                    .expect("a legal action applies");
                if draw {
                    black_box(update.board_png());
                }
                started.elapsed()
            };
            return match timed {
                Some(timed) => timed.time(act),
                None => act(),
            };
        }
    }
    panic!("no stored match has an action left to play");
}

/// The next action for match `id`: whoever is to move plays a random legal action.
fn next_action(
    table: &Table,
    players: [PlayerId; 2],
    id: i64,
    rng: &mut GameRng,
) -> Option<(PlayerId, String)> {
    let shown = table.show(id).expect("a stored match loads");
    let (seat, _) = shown.to_act.first()?;
    let player = players[seat.index()];
    let legal = table
        .legal(id, player)
        .expect("a seated player's actions are listed");
    (!legal.is_empty()).then(|| (player, legal[rng.below(legal.len())].clone()))
}

fn main() {
    let (mut table, players, path) = seeded_table();
    let chooser = Table::new(Store::open(&path).unwrap());
    let mut rng = GameRng::from_seed(3);
    let mut id = 0;
    let cases = [
        ("hot", None, false),
        ("cold", Some(&chooser), false),
        ("hot, picture drawn too", None, true),
    ];
    for (case, chooser, draw) in cases {
        let mut timed = Timed::default();
        for _ in 0..2_000 {
            one_action(
                &mut table,
                chooser,
                players,
                &mut id,
                &mut rng,
                Some(&mut timed),
                draw,
            );
        }
        timed.report(&format!(
            "take action with {MATCHES} stored matches, {case}"
        ));
    }

    let mut c = Criterion::default().configure_from_args();
    for (case, chooser) in [("hot", None), ("cold", Some(&chooser))] {
        c.bench_function(&format!("take action (10k matches, {case})"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        one_action(&mut table, chooser, players, &mut id, &mut rng, None, false)
                    })
                    .sum()
            })
        });
    }
    c.final_summary();
}
