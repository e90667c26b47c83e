//! A season page of 64 players: a Swiss of seven rounds with every result in, stored in an
//! SQLite file, read on a read-only twin (standings with four tiebreaks, 224 boards, the
//! players) and drawn as HTML. The issue asks under 20 ms. Also the drawing alone, and the
//! page served again from memory (what a round's start under load mostly costs).

use criterion::Criterion;
use deckmate::games::GameKind;
use deckmate::league::standings::Scoring;
use deckmate::store::leagues::{Format, NewLeague};
use deckmate::table::Table;
use deckmate::table::leagues::SWISS_TIEBREAKS;
use deckmate::web::paths::Scope;
use std::hint::black_box;

const PLAYERS: u32 = 64;
const ROUNDS: u32 = 7;

/// A finished 64-player Swiss in `db`, its results drawn from `seed`.
fn season(db: &std::path::Path) -> deckmate::store::leagues::League {
    let mut table = Table::new(deckmate::store::Store::open(db).unwrap());
    let league = table
        .create_league(NewLeague {
            guild_id: None,
            channel_id: None,
            name: "Bench Open".into(),
            game: GameKind::Chess,
            options: vec![],
            time_control: "none".into(),
            format: Format::Swiss,
            rated: false,
            tiebreaks: serde_json::to_string(&SWISS_TIEBREAKS).unwrap(),
            round_days: 7,
            forfeits_to_drop: 0,
            rounds: Some(ROUNDS),
            scoring: Scoring::STANDARD,
        })
        .unwrap();
    for i in 1..=PLAYERS {
        let player = table.store().local_player(&format!("player {i}")).unwrap();
        table.join_league(&league, player.id).unwrap();
    }
    let results = ["1-0", "0-1", "1/2-1/2", "1-0", "0-1"];
    for round in 1..=ROUNDS {
        let started = table.start_round(&league).unwrap();
        for (i, p) in started.pairings.iter().enumerate() {
            if p.black.is_some() {
                let result = results[(i + round as usize) % results.len()];
                table
                    .record_result(&league, round, p.board, result)
                    .unwrap();
            }
        }
        table.close_round(&league).unwrap();
    }
    league
}

fn pages(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("deckmate-bench-web-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("season.db");
    let league = season(&db);
    let writer = Table::new(deckmate::store::Store::open(&db).unwrap());
    let mut twin = writer
        .reader()
        .unwrap()
        .expect("a file has read-only twins");
    let scope = Scope::Local;
    let html = |t: &mut Table| {
        t.reading(|t| {
            let view = t.season_view(&league, 1).unwrap().unwrap();
            deckmate::web::site::season_page(&scope, &view).into_string()
        })
    };
    let page = html(&mut twin);
    assert!(page.contains("player 64"), "the page names every player");
    println!("a 64-player season page: {} KB of HTML", page.len() / 1024);
    c.bench_function("season page, 64 players: read and drawn", |b| {
        b.iter(|| black_box(html(&mut twin)))
    });
    let view = twin.reading(|t| t.season_view(&league, 1).unwrap().unwrap());
    c.bench_function("season page, 64 players: drawn", |b| {
        b.iter(|| black_box(deckmate::web::site::season_page(&scope, &view).into_string()))
    });
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    pages(&mut c);
    c.final_summary();
}
