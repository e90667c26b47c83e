use super::*;

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
            conn: Connection::open(&path).unwrap(),
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
        conn: Connection::open(&path).unwrap(),
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
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    match Store::open(&path) {
        Err(StoreError::NewerSchema { found: 99, .. }) => {}
        other => panic!("expected NewerSchema, got {:?}", other.err()),
    }
}

#[test]
fn players_are_found_again_by_name_or_discord_id() {
    let mut store = Store::open_in_memory().unwrap();
    let a = store.local_player("alice").unwrap();
    assert_eq!(store.local_player(" alice ").unwrap().id, a.id);
    let d = store.discord_player("123", "alice").unwrap();
    assert_ne!(d.id, a.id, "a Discord user is not the console's alice");
    let renamed = store.discord_player("123", "Alice B").unwrap();
    assert_eq!(renamed.id, d.id);
}

#[test]
fn changes_need_the_current_version_and_apply_once() {
    let mut store = Store::open_in_memory().unwrap();
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
    let mut store = Store::open_in_memory().unwrap();
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
    let mut store = Store::open_in_memory().unwrap();
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
    let mut store = Store::open_in_memory().unwrap();
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
    let mut store = Store::open_in_memory().unwrap();
    let id = new_match(&mut store);
    let conn = store.connection();
    conn.execute("UPDATE matches SET game = 'checkers' WHERE id = ?1", [id])
        .unwrap();
    let err = store.load(id).unwrap_err().to_string();
    assert!(
        err.contains(&format!("match #{id} is damaged")) && err.contains("checkers"),
        "{err}"
    );

    let id = new_match(&mut store);
    let conn = store.connection();
    conn.execute(
        "INSERT INTO actions (match_id, ply, seat, action, created_at) VALUES (?1, 2, 0, 'e4', 0)",
        [id],
    )
    .unwrap();
    let err = store.load(id).unwrap_err().to_string();
    assert!(err.contains("action 1 is missing"), "{err}");

    let id = new_match(&mut store);
    let conn = store.connection();
    conn.execute(
        "INSERT INTO actions (match_id, ply, seat, action, created_at) VALUES (?1, 1, 7, 'e4', 0)",
        [id],
    )
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
