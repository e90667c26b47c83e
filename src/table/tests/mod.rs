//! The table service's tests, a file a subject (matches, time, leagues, the outbox, holds,
//! the release fixture, …). This file holds only the fixtures they share: a temporary database,
//! a scripted match, a table on a simulated clock, and a league to play.

use super::clock::SimClock;
use super::leagues::DEFAULT_TIEBREAKS;
use super::*;
use crate::store::leagues::{Format, NewLeague};
use crate::store::testing::{ScratchDb, allow_inserts, refuse_inserts, scratch};

mod admin;
mod basics;
mod computers;
mod deadlines;
mod export;
mod holds;
mod league_rounds;
mod leagues;
mod live;
mod openings;
mod outbox;
mod pods;
mod reading;
mod release;
mod replays;
mod substitutes;
mod swiss;
mod time;
mod vacations;

/// A new scratch database: a file, or a schema on the PostgreSQL test server (see
/// `store::testing`).
pub(super) fn temp_db(name: &str) -> ScratchDb {
    ScratchDb::new(&format!("table-{name}"))
}

/// A new SQLite file, for the tests that need the file itself (a damaged one, a copy).
pub(super) fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("deckmate-table-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("test.db")
}

/// A table on an in-memory store with one match of `game` between alice and bob.
pub(super) struct Fixture {
    pub table: Table,
    pub alice: Player,
    pub bob: Player,
    pub id: MatchId,
}

pub(super) fn fixture(game: GameKind) -> Fixture {
    let mut store = scratch();
    let alice = store.local_player("alice").unwrap();
    let bob = store.local_player("bob").unwrap();
    let mut table = Table::new(store);
    let created = table
        .create(
            game,
            &[],
            &[alice.clone(), bob.clone()],
            5,
            &Place::default(),
        )
        .unwrap();
    Fixture {
        id: created.match_id,
        table,
        alice,
        bob,
    }
}

pub(super) const START: i64 = 1_800_000_000;

pub(super) fn timed_table(db: &ScratchDb, clock: &SimClock) -> Table {
    Table::with_clock(db.open(), clock.clone())
}

fn players(table: &mut Table, count: usize) -> Vec<Player> {
    (0..count)
        .map(|i| table.store().local_player(&format!("p{i}")).unwrap())
        .collect()
}

pub(super) fn create(
    table: &mut Table,
    game: GameKind,
    seats: usize,
    options: &[(&str, &str)],
    time: &str,
) -> Update {
    let players = players(table, seats);
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    table
        .create_timed(
            game,
            &options,
            &players,
            7,
            &Place::default(),
            TimeControl::parse(time).unwrap(),
        )
        .unwrap()
}

/// `player`'s quiet hours: 10:00 to 14:00 UTC.
pub(super) fn quiet_from_10_to_14(table: &mut Table, player: PlayerId) {
    let quiet = crate::store::Settings {
        quiet: Some((10 * 60, 14 * 60)),
        ..Default::default()
    };
    table.store().set_settings(player, &quiet).unwrap();
}

pub(super) fn changes(fired: Vec<Fired>) -> Vec<Update> {
    fired
        .into_iter()
        .filter_map(|f| match f {
            Fired::Changed(u) => Some(*u),
            _ => None,
        })
        .collect()
}

pub(super) fn reminders(fired: &[Fired]) -> Vec<(String, i64)> {
    fired
        .iter()
        .filter_map(|f| match f {
            Fired::Reminder(r) => Some((r.player.name.clone(), r.left)),
            _ => None,
        })
        .collect()
}

pub(super) const SCHOLAR: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];
const FOOL: [&str; 4] = ["f3", "e5", "g4", "Qh4#"];

pub(super) fn new_league(name: &str) -> NewLeague {
    NewLeague {
        guild_id: None,
        channel_id: None,
        name: name.into(),
        game: GameKind::Chess,
        options: vec![],
        time_control: "none".into(),
        format: Format::RoundRobin,
        rated: true,
        tiebreaks: serde_json::to_string(&DEFAULT_TIEBREAKS).unwrap(),
        round_days: 7,
        forfeits_to_drop: 2,
        rounds: None,
        scoring: crate::league::standings::Scoring::STANDARD,
    }
}

/// Plays `moves` in the match of `round`'s game between `white` and `black`.
pub(super) fn play_out(
    table: &mut Table,
    started: &crate::table::leagues::RoundStarted,
    white: &Player,
    moves: &[&str],
) {
    let pairing = started
        .pairings
        .iter()
        .find(|p| p.white == white.id)
        .unwrap();
    let id = pairing.match_id.unwrap();
    let black = pairing.black.unwrap();
    for (i, text) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { white.id } else { black };
        table.act(id, who, None, text).unwrap();
    }
}
