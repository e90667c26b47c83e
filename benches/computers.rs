//! A person's move while the computer plays: the time from sending an action to the table to
//! its answer, through the table's handle as the Discord adapter sends it, with no computer
//! match running and then with 50 computer-against-computer matches of chess running on the
//! thinking threads (`table::thinking`, pausing not at all, so they think without a break).
//! Prints the median and 99th percentile of each, then criterion's estimate with the 50 running.

#[allow(dead_code)] // only the summary is used here
mod common;

use criterion::Criterion;
use deckmate::ai::Level;
use deckmate::engine::GameRng;
use deckmate::games::GameKind;
use deckmate::store::{Place, Player, Store};
use deckmate::table::thinking::{self, ThinkingConfig};
use deckmate::table::{Table, TableHandle};
use std::time::{Duration, Instant};

const PEOPLE_MATCHES: usize = 200;
const COMPUTER_MATCHES: usize = 50;
const SAMPLES: usize = 600;

/// A table on a fresh file with `PEOPLE_MATCHES` chess matches between two people, and
/// `COMPUTER_MATCHES` between two computer seats; the people and their match ids.
fn table() -> (Table, [Player; 2], Vec<i64>) {
    let dir = std::env::temp_dir().join(format!("deckmate-bench-cpu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut table = Table::new(Store::open(dir.join("bench.db")).unwrap());
    let alice = table.store().local_player("alice").unwrap();
    let bob = table.store().local_player("bob").unwrap();
    let place = Place::default();
    let people = (0..PEOPLE_MATCHES)
        .map(|n| {
            let players = [alice.clone(), bob.clone()];
            let update = table
                .create(GameKind::Chess, &[], &players, n as u64, &place)
                .unwrap();
            update.match_id
        })
        .collect();
    let white = table.store().computer_player(Level::Medium, 1).unwrap();
    let black = table.store().computer_player(Level::Medium, 2).unwrap();
    // The computer plays matches on Discord (a console plays its own): these have a server.
    let discord = Place {
        guild_id: Some("1".into()),
        channel_id: Some("2".into()),
        thread_id: Some("3".into()),
    };
    for n in 0..COMPUTER_MATCHES {
        table
            .create(
                GameKind::Chess,
                &[],
                &[white.clone(), black.clone()],
                n as u64,
                &discord,
            )
            .unwrap();
    }
    (table, [alice, bob], people)
}

/// One person's move in the next of `matches` (round robin) with a move left: a random legal
/// one; its time from sending to answer.
async fn one_move(
    handle: &TableHandle,
    people: &[Player; 2],
    matches: &[i64],
    next: &mut usize,
    rng: &mut GameRng,
) -> Duration {
    for _ in 0..matches.len() {
        *next = (*next + 1) % matches.len();
        let id = matches[*next];
        let ids = [people[0].id, people[1].id];
        let pick = rng.next_u64();
        let chosen = handle
            .call(move |t| {
                let shown = t.show(id).ok()?;
                let (seat, _) = shown.to_act.first()?;
                let player = ids[seat.index()];
                let legal = t.legal(id, player).ok()?;
                (!legal.is_empty())
                    .then(|| (player, legal[(pick % legal.len() as u64) as usize].clone()))
            })
            .await
            .unwrap();
        let Some((player, text)) = chosen else {
            continue;
        };
        let started = Instant::now();
        handle
            .call(move |t| t.act(id, player, None, &text).map(|_| ()))
            .await
            .unwrap()
            .expect("a legal move applies");
        return started.elapsed();
    }
    panic!("no match has a move left");
}

/// How many actions the computer's matches have played in all.
async fn computer_actions(handle: &TableHandle, first: i64) -> u64 {
    handle
        .call(move |t| {
            (first..first + COMPUTER_MATCHES as i64)
                .map(|id| t.history(id).map_or(0, |h| h.len() as u64))
                .sum()
        })
        .await
        .unwrap()
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let (table, people, matches) = table();
    let first_computer = matches.last().copied().unwrap_or(0) + 1;
    let handle = TableHandle::spawn(table);
    let mut rng = GameRng::from_seed(7);
    let mut next = 0;
    runtime.block_on(async {
        let mut quiet = Vec::new();
        for _ in 0..SAMPLES {
            quiet.push(one_move(&handle, &people, &matches, &mut next, &mut rng).await);
        }
        println!(
            "a person's move, no computer match running: {}",
            common::summary(quiet)
        );
        let config = ThinkingConfig {
            pause: Duration::ZERO,
            ..ThinkingConfig::default()
        };
        thinking::spawn(handle.clone(), config, thinking::everywhere());
        // Let every thinking thread get busy first.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let before = computer_actions(&handle, first_computer).await;
        let started = Instant::now();
        let mut busy = Vec::new();
        for _ in 0..SAMPLES {
            busy.push(one_move(&handle, &people, &matches, &mut next, &mut rng).await);
            // A person's pace is far slower than a loop's: a move every few milliseconds.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let played = computer_actions(&handle, first_computer).await - before;
        assert!(
            played > 0,
            "no computer move was made while measuring: is the machine busy with other work?"
        );
        println!(
            "a person's move, {COMPUTER_MATCHES} computer matches running on {} thinking \
             threads ({played} computer moves in {:.1} s): {}",
            config.threads,
            started.elapsed().as_secs_f64(),
            common::summary(busy)
        );
    });

    let mut c = Criterion::default().configure_from_args();
    c.bench_function(
        &format!("a person's move with {COMPUTER_MATCHES} computer matches running"),
        |b| {
            b.iter_custom(|iters| {
                runtime.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        total += one_move(&handle, &people, &matches, &mut next, &mut rng).await;
                    }
                    total
                })
            })
        },
    );
    c.final_summary();
}
