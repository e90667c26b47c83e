//! Writes the database fixture of a release (tests/fixtures/release-0.1/): one match of every
//! game in the middle of play, each with a snapshot and a log, and what each match shows next
//! (who acts and what they may do). A later release's tests open a copy of it and check that
//! every match still loads as stored and plays on.
//!
//! `cargo run --example release_fixture -- tests/fixtures/release-0.1`

use deckmate::games::GameKind;
use deckmate::store::{Place, Store};
use deckmate::table::Table;
use deckmate::table::clock::SimClock;
use deckmate::table::time_control::TimeControl;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The table's clock when the fixture is made.
const MADE_AT: i64 = 1_790_000_000;

/// A match to make: its game, its options, its players and how many actions to play.
type Made = (
    GameKind,
    &'static [(&'static str, &'static str)],
    &'static [&'static str],
    usize,
);

const MATCHES: [Made; 9] = [
    (GameKind::Chess, &[], &["ann", "bea"], 9),
    (GameKind::Enthralling, &[], &["ann", "bea"], 9),
    (GameKind::Enprise, &[], &["ann", "bea"], 10),
    (
        GameKind::Enprise,
        &[("variant", "memory")],
        &["ann", "bea", "cy"],
        7,
    ),
    (
        GameKind::Enprise,
        &[("variant", "blind")],
        &["ann", "bea", "cy", "dee"],
        9,
    ),
    (GameKind::Echek, &[], &["ann", "bea"], 9),
    (GameKind::Snipe, &[], &["ann", "bea"], 9),
    (GameKind::Chessatete, &[], &["ann", "bea"], 9),
    (GameKind::Chess, &[], &["cy", "dee"], 0),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).ok_or("give the folder to write")?);
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("deckmate.db");
    if db.exists() {
        std::fs::remove_file(&db)?;
    }
    let mut table = Table::with_clock(Store::open(&db)?, SimClock::at(MADE_AT));
    let mut expected = String::new();
    for (n, (game, options, names, actions)) in MATCHES.iter().enumerate() {
        let players = names
            .iter()
            .map(|name| table.store().local_player(name))
            .collect::<Result<Vec<_>, _>>()?;
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let time = match n % 2 {
            0 => TimeControl::parse("3d")?,
            _ => TimeControl::None,
        };
        let seed = 1000 + n as u64;
        let place = Place::default();
        let made = table.create_timed(*game, &options, &players, seed, &place, time)?;
        let id = made.match_id;
        for ply in 0..*actions {
            let shown = table.show(id)?;
            let Some((_, player)) = shown.to_act.first() else {
                break;
            };
            let legal = table.legal(id, player.id)?;
            let Some(text) = legal.get((ply * 7) % legal.len().max(1)) else {
                break;
            };
            table.act(id, player.id, None, text)?;
        }
        let shown = table.show(id)?;
        writeln!(
            expected,
            "match {id} {} version {}",
            game.id(),
            shown.version
        )?;
        for (seat, player) in &shown.to_act {
            let legal = table.legal(id, player.id)?;
            writeln!(
                expected,
                "  seat {} {}: {}",
                seat.0,
                player.name,
                legal.join(" | ")
            )?;
        }
    }
    std::fs::write(dir.join("expected.txt"), expected)?;
    println!("wrote {}", db.display());
    Ok(())
}
