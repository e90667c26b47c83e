//! The store on a real SQLite file: players, matches and their logs, leagues, migrations and
//! damaged rows.

use super::*;
use crate::engine::{Outcome, Seat};

fn temp_db(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("deckmate-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("test.db")
}

fn two_players(store: &mut Store) -> Vec<PlayerId> {
    vec![
        store.local_player("alice").unwrap().id,
        store.local_player("bob").unwrap().id,
    ]
}

fn new_match(store: &mut Store) -> MatchId {
    let players = two_players(store);
    store
        .create_match(GameKind::Chess, &[], 7, &players, &Place::default(), 1)
        .unwrap()
}

#[test]
fn migrations_apply_to_an_empty_file_and_are_idempotent() {
    let path = temp_db("empty");
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap() as usize, MIGRATIONS.len());
    let id = new_match(&mut store);
    drop(store);

    let mut again = Store::open(&path).unwrap();
    assert_eq!(
        again.migrate(MIGRATIONS.len()).unwrap(),
        0,
        "nothing left to run"
    );
    assert_eq!(again.load(id).unwrap().players.len(), 2, "data kept");

    let conn = again.connection();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    let fk: i64 = conn
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .unwrap();
    let sync: i64 = conn
        .query_row("PRAGMA synchronous", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        (mode.as_str(), fk, sync),
        ("wal", 1, 1),
        "WAL, foreign keys, NORMAL"
    );
}

#[test]
fn migrations_apply_from_every_earlier_version() {
    for start in 0..MIGRATIONS.len() {
        let path = temp_db(&format!("from-{start}"));
        let mut old = Store {
            conn: Connection::sqlite(rusqlite::Connection::open(&path).unwrap()),
        };
        assert_eq!(old.migrate(start).unwrap(), start);
        assert_eq!(old.schema_version().unwrap() as usize, start);
        drop(old);
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap() as usize, MIGRATIONS.len());
    }
}

#[test]
fn a_pending_draw_offer_survives_the_move_to_draw_votes() {
    let path = temp_db("draw-votes");
    let mut old = Store {
        conn: Connection::sqlite(rusqlite::Connection::open(&path).unwrap()),
    };
    old.migrate(1).unwrap();
    let t = 0;
    old.conn
        .execute_batch(&format!(
            "INSERT INTO players (id, name, created_at) VALUES (1, 'a', {t}), (2, 'b', {t});
             INSERT INTO matches (id, game, options, seed, status, draw_offer, created_at, updated_at)
                 VALUES (1, 'chess', '[]', 5, 'active', 1, {t}, {t}),
                        (2, 'chess', '[]', 5, 'active', NULL, {t}, {t});
             INSERT INTO seats VALUES (1, 0, 1), (1, 1, 2), (2, 0, 1), (2, 1, 2);"
        ))
        .unwrap();
    drop(old);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.load(1).unwrap().draw_votes, vec![Seat(1)]);
    assert!(store.load(2).unwrap().draw_votes.is_empty());
}

#[test]
fn a_newer_schema_is_refused_not_touched() {
    let path = temp_db("newer");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    match Store::open(&path) {
        Err(StoreError::NewerSchema { found: 99, .. }) => {}
        other => panic!("expected NewerSchema, got {:?}", other.err()),
    }
}

#[test]
fn players_are_found_again_by_name_or_discord_id() {
    let mut store = crate::store::testing::scratch();
    let a = store.local_player("alice").unwrap();
    assert_eq!(store.local_player(" alice ").unwrap().id, a.id);
    let d = store.discord_player("123", "alice").unwrap();
    assert_ne!(d.id, a.id, "a Discord user is not the console's alice");
    let renamed = store.discord_player("123", "Alice B").unwrap();
    assert_eq!(renamed.id, d.id);
}

#[test]
fn changes_need_the_current_version_and_apply_once() {
    let mut store = crate::store::testing::scratch();
    let id = new_match(&mut store);
    let e4 = Change::Action {
        seat: Seat(0),
        text: "e4",
    };
    assert_eq!(store.change(id, 0, std::slice::from_ref(&e4)).unwrap(), 1);
    // The same submission again (a double click) carries the old version.
    match store.change(id, 0, &[e4]) {
        Err(StoreError::Stale {
            expected: 0,
            actual: 1,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    let m = store.load(id).unwrap();
    assert_eq!(m.version, 1);
    assert_eq!(
        m.actions,
        vec![StoredAction {
            seat: Seat(0),
            text: "e4".into()
        }]
    );
    assert!(matches!(
        store.change(999, 0, &[]),
        Err(StoreError::NoSuchMatch(999))
    ));
}

#[test]
fn draw_offers_lapse_with_the_next_action_and_finish_records_the_outcome() {
    let mut store = crate::store::testing::scratch();
    let id = new_match(&mut store);
    store
        .change(id, 0, &[Change::DrawVotes(&[Seat(0), Seat(1)])])
        .unwrap();
    assert_eq!(store.load(id).unwrap().draw_votes, vec![Seat(0), Seat(1)]);
    store
        .change(
            id,
            1,
            &[Change::Action {
                seat: Seat(0),
                text: "e4",
            }],
        )
        .unwrap();
    assert!(store.load(id).unwrap().draw_votes.is_empty());

    let outcome = Outcome::winner(Seat(1), 2, "resignation");
    store.change(id, 2, &[Change::Finish(&outcome)]).unwrap();
    let m = store.load(id).unwrap();
    assert_eq!((m.status, m.outcome), (Status::Finished, Some(outcome)));
    match store.change(id, 3, &[]) {
        Err(StoreError::NotActive {
            status: Status::Finished,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    let players = two_players(&mut store);
    assert!(store.matches_of(players[0], true).unwrap().is_empty());
    let all = store.matches_of(players[0], false).unwrap();
    assert_eq!(
        (all.len(), all[0].status, all[0].seat),
        (1, Status::Finished, Seat(0))
    );
}

#[test]
fn a_match_is_found_by_its_thread() {
    let mut store = crate::store::testing::scratch();
    let id = new_match(&mut store);
    assert_eq!(store.match_in_thread("555").unwrap(), None);
    store.set_thread(id, "555").unwrap();
    assert_eq!(store.match_in_thread("555").unwrap(), Some(id));
    assert_eq!(
        store.load(id).unwrap().place.thread_id.as_deref(),
        Some("555")
    );
    assert!(matches!(
        store.set_thread(999, "1"),
        Err(StoreError::NoSuchMatch(999))
    ));
}

#[test]
fn the_action_log_is_append_only() {
    let mut store = crate::store::testing::scratch();
    let id = new_match(&mut store);
    store
        .change(
            id,
            0,
            &[Change::Action {
                seat: Seat(0),
                text: "e4",
            }],
        )
        .unwrap();
    let conn = store.connection();
    let err = conn
        .execute("UPDATE actions SET action = 'd4'", [])
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
    let err = conn.execute("DELETE FROM actions", []).unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
}

#[test]
fn damaged_rows_are_reported_clearly() {
    let mut store = crate::store::testing::scratch();
    let id = new_match(&mut store);
    let conn = store.connection();
    conn.execute("UPDATE matches SET game = 'checkers' WHERE id = ?1", [id])
        .unwrap();
    let err = store.load(id).unwrap_err().to_string();
    assert!(
        err.contains(&format!("match #{id} is damaged")) && err.contains("checkers"),
        "{err}"
    );

    // A gap: the match has taken two actions and the log holds only the second.
    let id = new_match(&mut store);
    let conn = store.connection();
    conn.execute_batch(&format!(
        "UPDATE matches SET plies = 2, version = 2 WHERE id = {id};
         INSERT INTO actions (match_id, ply, seat, action, created_at) VALUES ({id}, 2, 0, 'e4', 0);"
    ))
    .unwrap();
    let err = store.load(id).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "match #{id} is damaged in storage: the log holds 1 actions numbered up to 2, but the match has taken 2"
        )
    );

    let id = new_match(&mut store);
    let conn = store.connection();
    conn.execute_batch(&format!(
        "UPDATE matches SET plies = 1, version = 1 WHERE id = {id};
         INSERT INTO actions (match_id, ply, seat, action, created_at) VALUES ({id}, 1, 7, 'e4', 0);"
    ))
    .unwrap();
    let err = store.load(id).unwrap_err().to_string();
    assert!(err.contains("names seat 7"), "{err}");

    let id = new_match(&mut store);
    store
        .connection()
        .execute(
            "UPDATE matches SET options = 'nonsense' WHERE id = ?1",
            [id],
        )
        .unwrap();
    assert!(
        store
            .load(id)
            .unwrap_err()
            .to_string()
            .contains("bad options")
    );
}

#[test]
fn a_log_shorter_than_the_match_or_a_result_out_of_place_is_damage() {
    let mut store = crate::store::testing::scratch();
    let id = new_match(&mut store);
    for text in ["e4", "e5", "Nf3"] {
        let version = store.load_head(id).unwrap().version;
        store
            .change(
                id,
                version,
                &[Change::Action {
                    seat: Seat(0),
                    text,
                }],
            )
            .unwrap();
    }
    assert_eq!(store.load(id).unwrap().plies, 3);
    // The log lost its last rows (as a damaged file can): the match says three, the log one.
    store
        .connection()
        .execute_batch(&format!(
            "DROP TRIGGER actions_no_delete{}; DELETE FROM actions WHERE match_id = {id} AND ply > 1;",
            match store.engine() {
                Engine::Sqlite => "",
                Engine::Postgres => " ON actions",
            }
        ))
        .unwrap();
    for err in [store.load(id), store.load_head(id)].map(|r| r.unwrap_err().to_string()) {
        assert!(
            err.ends_with("the log holds 1 actions numbered up to 1, but the match has taken 3"),
            "{err}"
        );
    }
    // A finished match must have its result, and an active one none.
    let id = new_match(&mut store);
    store
        .connection()
        .execute("UPDATE matches SET status = 'finished' WHERE id = ?1", [id])
        .unwrap();
    let err = store.load_head(id).unwrap_err().to_string();
    assert!(
        err.ends_with("it is finished but its result is missing"),
        "{err}"
    );
    let id = new_match(&mut store);
    store
        .connection()
        .execute(
            "INSERT INTO outcomes (match_id, places, reason, finished_at) VALUES (?1, '[[0],[1]]', 'x', 0)",
            [id],
        )
        .unwrap();
    let err = store.load_head(id).unwrap_err().to_string();
    assert!(err.ends_with("it is active but has a result"), "{err}");
}

#[test]
fn a_damaged_file_is_refused_when_opened_and_left_as_it_was() {
    let path = temp_db("damaged");
    let mut store = Store::open(&path).unwrap();
    new_match(&mut store);
    drop(store);
    // Overwrite the middle of the file (the table pages) with noise.
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() >= 8192, "{}", bytes.len());
    for b in &mut bytes[4096..8192] {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).unwrap();
    let err = match Store::open(&path) {
        Ok(_) => panic!("a damaged file was opened"),
        Err(e) => e,
    };
    assert_eq!(err.short(), "the database file is damaged", "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing was written");
}

#[test]
fn storage_failures_have_a_short_form_for_users() {
    let path = temp_db("read-only");
    let mut store = Store::open(&path).unwrap();
    let id = new_match(&mut store);
    drop(store);
    let conn =
        rusqlite::Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let read_only = Store {
        conn: Connection::sqlite(conn),
    };
    let mut read_only = read_only;
    let err = read_only
        .change(
            id,
            0,
            &[Change::Action {
                seat: Seat(0),
                text: "e4",
            }],
        )
        .unwrap_err();
    assert_eq!(err.short(), "the database is read-only", "{err}");
    // Another connection holding the write lock: the change waits, then says who holds it.
    let mut store = Store::open(&path).unwrap();
    store
        .connection()
        .as_sqlite()
        .unwrap()
        .busy_timeout(std::time::Duration::from_millis(50))
        .unwrap();
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let err = store
        .change(
            id,
            0,
            &[Change::Action {
                seat: Seat(0),
                text: "e4",
            }],
        )
        .unwrap_err();
    assert_eq!(
        err.short(),
        "the database is locked by another program",
        "{err}"
    );
    holder.execute_batch("ROLLBACK").unwrap();
    assert_eq!(
        store
            .change(
                id,
                0,
                &[Change::Action {
                    seat: Seat(0),
                    text: "e4"
                }]
            )
            .unwrap(),
        1
    );
}

#[test]
fn leagues_and_their_seasons_survive_the_rebuild_that_allows_swiss() {
    let path = temp_db("swiss-rebuild");
    let mut old = Store {
        conn: Connection::sqlite(rusqlite::Connection::open(&path).unwrap()),
    };
    old.migrate(11).unwrap();
    old.conn
        .execute_batch(
            "INSERT INTO leagues (id, name, game, format, tiebreaks, created_at)
                 VALUES (4, 'Autumn', 'chess', 'round_robin', '[]', 0);
             INSERT INTO seasons (id, league_id, number, created_at) VALUES (9, 4, 1, 0);",
        )
        .unwrap();
    drop(old);
    let mut store = Store::open(&path).unwrap();
    let league = store.league_named(None, "Autumn").unwrap().unwrap();
    assert_eq!((league.id, league.new.rounds), (4, None));
    assert_eq!(
        league.new.scoring,
        crate::league::standings::Scoring::STANDARD
    );
    assert_eq!(store.season(4).unwrap().id, 9);
    // The rebuilt table keeps its constraints: seasons still point at leagues, a name is
    // unique, and a Swiss league's rounds are checked.
    let orphan = store.connection().execute(
        "INSERT INTO seasons (league_id, number, created_at) VALUES (77, 1, 0)",
        [],
    );
    assert!(orphan.is_err(), "a season of no league is refused");
    let twice = store.connection().execute(
        "INSERT INTO leagues (name, game, format, tiebreaks, created_at)
             VALUES ('Autumn', 'chess', 'swiss', '[]', 0)",
        [],
    );
    assert!(twice.is_err(), "the name stays unique");
    let rounds = store.connection().execute(
        "INSERT INTO leagues (name, game, format, tiebreaks, created_at, rounds)
             VALUES ('Winter', 'chess', 'swiss', '[]', 0, 99)",
        [],
    );
    assert!(rounds.is_err(), "99 rounds are refused");
    let mut fresh = league.new.clone();
    fresh.name = "Winter".into();
    fresh.format = crate::store::leagues::Format::Swiss;
    fresh.rounds = Some(5);
    let made = store.create_league(&fresh, 0).unwrap();
    assert_eq!(store.league_named(None, "Winter").unwrap(), Some(made));
}

/// A move's change as the table makes it (its request's key, the action, a snapshot, clocks,
/// deadlines and the posts it owes, inside the table's transaction) keeps everything, and on
/// PostgreSQL costs three round trips: the key with the BEGIN and the write lock, the version
/// check, then everything else with the COMMIT. Loading the match back costs two.
#[test]
fn a_moves_change_keeps_everything_in_few_round_trips() {
    let mut store = crate::store::testing::scratch();
    let id = new_match(&mut store);
    let post = |version: u64| crate::store::outbox::NewPost {
        match_id: Some(id),
        league_id: None,
        destination: crate::store::outbox::Destination::Match(id),
        kind: "board".into(),
        payload: "{}".into(),
        version: Some(version),
        due: 10,
    };
    let play = |store: &mut Store, version: u64, text: &str, key: &str| {
        let snapshot = Snapshot {
            plies: version + 1,
            rules: 1,
            state: format!("after {text}"),
            digest: None,
        };
        let deadlines = [NewDeadline {
            kind: DeadlineKind::Timeout,
            due_at: 1_000 + version as i64,
            seat: Some(Seat((version % 2) as u8)),
            payload: 0,
        }];
        let (board, turns) = (post(version + 1), post(version + 1));
        let before = store.connection().round_trips();
        let level = store.begin().unwrap();
        let changes = [
            Change::Request {
                key,
                lines: "[]",
                replaces: None,
            },
            Change::Action {
                seat: Seat((version % 2) as u8),
                text,
            },
            Change::Snapshot(&snapshot),
            Change::Clocks("[1,2]"),
            Change::Deadlines(&deadlines),
            Change::Owe(&board),
            Change::Owe(&turns),
        ];
        assert_eq!(store.change(id, version, &changes).unwrap(), version + 1);
        store.commit(level).unwrap();
        store.connection().round_trips() - before
    };
    // The first move prepares its statements; the second is the one measured.
    play(&mut store, 0, "e4", "k1");
    let trips = play(&mut store, 1, "e5", "k2");
    if store.engine() == Engine::Postgres {
        assert_eq!(trips, 3, "round trips of one move");
    }
    // The first load prepares its statements; the second is the one measured.
    store.load(id).unwrap();
    let before = store.connection().round_trips();
    let stored = store.load(id).unwrap();
    if store.engine() == Engine::Postgres {
        // Its five reads in one, then the end of its read transaction.
        assert_eq!(
            store.connection().round_trips() - before,
            2,
            "round trips of a load"
        );
    }
    assert_eq!((stored.version, stored.plies), (2, 2));
    assert_eq!(stored.actions.len(), 2);
    let snapshot = store.snapshot(id).unwrap().unwrap();
    assert_eq!((snapshot.plies, snapshot.state.as_str()), (2, "after e5"));
    let pending = store.deadlines_of(id).unwrap();
    assert_eq!(
        pending.len(),
        1,
        "the first move's deadline was replaced: {pending:?}"
    );
    assert_eq!(pending[0].due_at, 1_001);
    assert_eq!(
        store.due_posts(10, 10).unwrap().len(),
        1,
        "one destination's head"
    );
    assert!(store.request("k2").unwrap().is_some());
    // The same key again is refused as a duplicate, and nothing of it is kept.
    let snapshot = Snapshot {
        plies: 3,
        rules: 1,
        state: "x".into(),
        digest: None,
    };
    let again = store.change(
        id,
        2,
        &[
            Change::Request {
                key: "k2",
                lines: "[]",
                replaces: None,
            },
            Change::Action {
                seat: Seat(0),
                text: "Nf3",
            },
            Change::Snapshot(&snapshot),
        ],
    );
    assert!(matches!(again, Err(StoreError::Duplicate(_))), "{again:?}");
    assert_eq!(store.load(id).unwrap().plies, 2);
    assert_eq!(store.snapshot(id).unwrap().unwrap().state, "after e5");
}
