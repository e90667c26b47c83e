//! The scheduler under load (issue 17): 10,000 chess matches under a one-day clock on a real
//! SQLite file, created a second apart on a simulated clock. Prints how long finding the next
//! deadline and a tick with nothing due take (both read the partial index of pending deadlines,
//! never every match: the query plans are printed), then how long firing 1,000 due time-outs
//! takes, then criterion's estimates of the two reads.

use criterion::Criterion;
use deckmate::games::GameKind;
use deckmate::store::{Place, Store};
use deckmate::table::Table;
use deckmate::table::clock::{DAY, SimClock};
use deckmate::table::time_control::TimeControl;
use std::hint::black_box;
use std::time::Instant;

const MATCHES: usize = 10_000;
const DUE: usize = 1_000;
const START: i64 = 1_800_000_000;

fn main() {
    let dir = std::env::temp_dir().join(format!("deckmate-scheduler-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let clock = SimClock::at(START);
    let mut table = Table::with_clock(Store::open(dir.join("bench.db")).unwrap(), clock.clone());
    let players = [
        table.store().local_player("alice").unwrap(),
        table.store().local_player("bob").unwrap(),
    ];
    let day = TimeControl::parse("1d").unwrap();
    let started = Instant::now();
    for seed in 0..MATCHES {
        table
            .create_timed(
                GameKind::Chess,
                &[],
                &players,
                seed as u64,
                &Place::default(),
                day,
            )
            .unwrap();
        clock.advance(1);
    }
    let pending: i64 = table
        .store()
        .connection()
        .query_row(
            "SELECT COUNT(*) FROM deadlines WHERE fired_at IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    println!(
        "{MATCHES} matches under a 1-day clock created in {:.1?}: {pending} pending deadlines",
        started.elapsed()
    );
    for (what, sql) in [
        (
            "next deadline",
            "SELECT MIN(due_at) FROM deadlines WHERE fired_at IS NULL",
        ),
        (
            "due deadlines",
            "SELECT id FROM deadlines WHERE fired_at IS NULL AND due_at <= 0 ORDER BY due_at, id LIMIT 10",
        ),
    ] {
        let conn = table.store().connection();
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let plan: Vec<String> = stmt
            .query_map([], |r| r.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        println!("query plan, {what}: {}", plan.join("; "));
    }

    let time = |what: &str, runs: u32, f: &mut dyn FnMut()| {
        let started = Instant::now();
        for _ in 0..runs {
            f();
        }
        println!("{what}: {:.1?} each", started.elapsed() / runs);
    };
    time("next deadline, 10,000 matches pending", 1_000, &mut || {
        black_box(table.next_deadline().unwrap());
    });
    time("a tick with nothing due", 1_000, &mut || {
        black_box(table.fire_due(DUE).into_result().unwrap());
    });

    // Every match's reminders (at half and 80% of its day), then the first DUE time-outs: the
    // clock moves to the time-out of match DUE (created DUE - 1 seconds after the first).
    clock.set(START + DAY * 4 / 5 + MATCHES as i64);
    let started = Instant::now();
    let reminders = table.fire_due(usize::MAX >> 1).into_result().unwrap().len();
    println!("{reminders} reminders fired in {:.1?}", started.elapsed());
    clock.set(START + DAY + DUE as i64 - 1);
    let started = Instant::now();
    let fired = table.fire_due(DUE).into_result().unwrap();
    let elapsed = started.elapsed();
    assert_eq!(fired.len(), DUE, "every due time-out fires");
    println!("{DUE} due time-outs fired (each a finished match) in {elapsed:.1?}");
    assert!(
        table.fire_due(DUE).into_result().unwrap().is_empty(),
        "and only once"
    );

    let mut c = Criterion::default().configure_from_args();
    c.bench_function("next deadline (10k matches pending)", |b| {
        b.iter(|| table.next_deadline().unwrap())
    });
    c.bench_function("tick with nothing due (10k matches pending)", |b| {
        b.iter(|| table.fire_due(DUE).into_result().unwrap())
    });
    c.final_summary();
}
