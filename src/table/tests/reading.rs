//! The table's read-only twins: they read what the writer committed (their live-game cache
//! follows each new version), share its clock, and can change nothing: a write tried on one
//! is refused by its connection and leaves the store as it was.

use super::*;
use super::{START, create, temp_db, timed_table};
use crate::table::clock::SimClock;

/// A table on a new database `name` with a one-day chess match between p0 and p1, its twin,
/// and the clock they share.
fn with_twin(name: &str) -> (SimClock, Table, Table, MatchId) {
    let db = temp_db(name);
    let clock = SimClock::at(START);
    let mut table = timed_table(&db, &clock);
    let id = create(&mut table, GameKind::Chess, 2, &[], "1d").match_id;
    let twin = table.reader().unwrap().expect("a database file has a twin");
    (clock, table, twin, id)
}

#[test]
fn a_twin_reads_each_committed_version_and_shares_the_clock() {
    let (clock, mut table, mut twin, id) = with_twin("twin-reads");
    let p0 = table.store().local_player("p0").unwrap();
    let p1 = table.store().local_player("p1").unwrap();

    for (player, mv) in [(&p0, "e4"), (&p1, "e5"), (&p0, "Nf3")] {
        let before = twin.reading(|t| t.show(id)).unwrap();
        let played = table.act(id, player.id, None, mv).unwrap();
        let after = twin.reading(|t| t.show(id)).unwrap();
        assert_eq!(after.version, played.version);
        assert_eq!(after.version, before.version + 1);
        let shown = |u: &Update| format!("{:?}", u.public_view);
        assert_eq!(shown(&after), shown(&played));
        assert_eq!(shown(&after), shown(&table.show(id).unwrap()));
    }
    // The same clock: a clock's time left is the writer's.
    clock.advance(3600);
    assert_eq!(twin.now(), table.now());
    let timing = |t: &Table| format!("{:?}", t.show(id).unwrap().times);
    assert_eq!(twin.reading(|t| timing(t)), timing(&table));
}

#[test]
fn a_write_tried_on_a_twin_is_refused_and_changes_nothing() {
    let (_clock, mut table, mut twin, id) = with_twin("twin-writes");
    let p0 = table.store().local_player("p0").unwrap();
    let before = table.show(id).unwrap();

    let refused = twin.reading(|t| t.act(id, p0.id, None, "e4"));
    // Refused by the connection itself: SQLite's "readonly database", PostgreSQL's
    // "read-only transaction".
    let why = format!("{:?}", refused.unwrap_err())
        .to_lowercase()
        .replace('-', "");
    assert!(why.contains("readonly"), "{why}");
    let after = table.show(id).unwrap();
    assert_eq!(after.version, before.version);
    assert_eq!(
        format!("{:?}", after.public_view),
        format!("{:?}", before.public_view)
    );
    // The twin still reads, and the writer still writes.
    assert_eq!(
        twin.reading(|t| t.show(id)).unwrap().version,
        before.version
    );
    table.act(id, p0.id, None, "e4").unwrap();
    assert_eq!(
        twin.reading(|t| t.show(id)).unwrap().version,
        before.version + 1
    );
}

#[test]
fn a_store_in_memory_has_no_twin() {
    let table = Table::new(crate::store::Store::open_in_memory().unwrap());
    assert!(table.reader().unwrap().is_none());
}
