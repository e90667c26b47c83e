//! The connection layer alone: parameters rewritten for PostgreSQL, values converted both ways,
//! and (with a test server) the same statements giving the same rows on both engines.

use super::postgres::dollar_parameters;
use super::*;
use crate::store::testing;

#[test]
fn parameters_are_numbered_for_postgres_outside_quotes_and_comments() {
    assert_eq!(
        dollar_parameters("SELECT ?1, ?12 FROM t WHERE a = ?2"),
        "SELECT $1, $12 FROM t WHERE a = $2"
    );
    assert_eq!(dollar_parameters("VALUES (?, ?)"), "VALUES ($1, $2)");
    assert_eq!(
        dollar_parameters("SELECT '?1', \"a?\" -- what?\n, ?3"),
        "SELECT '?1', \"a?\" -- what?\n, $3"
    );
}

#[test]
fn columns_convert_to_what_they_hold_and_say_what_else_they_found() {
    let row = Row {
        values: vec![
            Value::Int(300),
            Value::Text("x".into()),
            Value::Null,
            Value::Int(-1),
        ],
    };
    assert_eq!(row.get::<_, i64>(0).unwrap(), 300);
    assert_eq!(row.get::<_, u16>(0).unwrap(), 300);
    assert_eq!(row.get::<_, String>(1).unwrap(), "x");
    assert_eq!(row.get::<_, Option<i64>>(2).unwrap(), None);
    assert!(row.get::<_, bool>(0).unwrap());
    let wrong = row.get::<_, i64>(1).unwrap_err().to_string();
    assert_eq!(wrong, "column 1: expected an integer, found text");
    let range = row.get::<_, u8>(0).unwrap_err().to_string();
    assert_eq!(range, "column 0: 300 is out of range for u8");
    assert!(row.get::<_, u32>(3).is_err(), "a negative count is refused");
    let missing = row.get::<_, i64>(4).unwrap_err().to_string();
    assert_eq!(missing, "column 4: the row has 4 columns");
}

#[test]
fn parameters_bind_as_given() {
    let name = String::from("ann");
    let values = params![1i64, "text", name, None::<i64>, true, 2.5f64].into_values();
    assert_eq!(
        values,
        vec![
            Value::Int(1),
            Value::Text("text".into()),
            Value::Text("ann".into()),
            Value::Null,
            Value::Int(1),
            Value::Real(2.5),
        ]
    );
    assert_eq!(
        (7u32, "a").into_values(),
        vec![Value::Int(7), Value::Text("a".into())]
    );
    assert_eq!([3i64, 4].into_values(), vec![Value::Int(3), Value::Int(4)]);
}

/// The statements the store relies on, run on one engine; what they return, as text.
fn exercise(conn: &Connection) -> Vec<String> {
    conn.execute_batch(
        "CREATE TABLE things (id BIGINT PRIMARY KEY, name TEXT NOT NULL UNIQUE, size BIGINT,
         data BYTEA)",
    )
    .ok();
    let mut seen = Vec::new();
    conn.begin_write().unwrap();
    for (id, name) in [(1i64, "ann"), (2, "bob")] {
        let n = conn
            .execute(
                "INSERT INTO things (id, name, size) VALUES (?1, ?2, ?3)",
                params![id, name, Some(id * 10)],
            )
            .unwrap();
        seen.push(format!("inserted {n}"));
    }
    let ignored = conn
        .execute(
            "INSERT INTO things (id, name) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING",
            params![3i64, "ann"],
        )
        .unwrap();
    seen.push(format!("ignored {ignored}"));
    // A savepoint undone leaves the transaction around it as it was.
    conn.savepoint().unwrap();
    conn.execute("DELETE FROM things", []).unwrap();
    conn.end_savepoint(false).unwrap();
    // A statement that fails inside a savepoint does not spoil the transaction.
    conn.savepoint().unwrap();
    let clash = conn.execute(
        "INSERT INTO things (id, name) VALUES (?1, ?2)",
        params![1i64, "again"],
    );
    seen.push(format!("clash refused: {}", clash.is_err()));
    conn.end_savepoint(false).unwrap();
    conn.end(true).unwrap();
    let rows = conn
        .query_all(
            "SELECT id, name, size, data FROM things WHERE id >= ?1 ORDER BY id",
            [1i64],
            |r| {
                Ok(format!(
                    "{} {} {:?} {:?}",
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                    r.get::<_, Option<Vec<u8>>>(3)?
                ))
            },
        )
        .unwrap();
    seen.extend(rows);
    let missing = conn
        .query_row("SELECT name FROM things WHERE id = ?1", [9i64], |r| {
            r.get::<_, String>(0)
        })
        .optional()
        .unwrap();
    seen.push(format!("missing {missing:?}"));
    let counted: i64 = conn
        .query_row("SELECT COUNT(*) FROM things", [], |r| r.get(0))
        .unwrap();
    seen.push(format!("count {counted}"));
    let returned: i64 = conn
        .query_row(
            "INSERT INTO things (id, name) VALUES (?1, ?2) RETURNING id",
            params![5i64, "cy"],
            |r| r.get(0),
        )
        .unwrap();
    seen.push(format!("returned {returned}"));
    // Dropped without commit: undone.
    conn.begin_write().unwrap();
    conn.execute("DELETE FROM things WHERE id = 5", []).unwrap();
    conn.end(false).unwrap();
    seen.push(format!("autocommit {}", conn.is_autocommit()));
    let after: i64 = conn
        .query_row("SELECT COUNT(*) FROM things", [], |r| r.get(0))
        .unwrap();
    seen.push(format!("count {after}"));
    seen
}

#[test]
fn the_same_statements_give_the_same_rows_on_both_engines() {
    let sqlite = Connection::sqlite(rusqlite::Connection::open_in_memory().unwrap());
    let on_sqlite = exercise(&sqlite);
    assert_eq!(
        on_sqlite,
        [
            "inserted 1",
            "inserted 1",
            "ignored 0",
            "clash refused: true",
            "1 ann Some(10) None",
            "2 bob Some(20) None",
            "missing None",
            "count 2",
            "returned 5",
            "autocommit true",
            "count 3",
        ]
    );
    let Some(url) = testing::postgres_url() else {
        eprintln!(
            "no PostgreSQL server named in {}: SQLite only",
            testing::POSTGRES_VARIABLE
        );
        return;
    };
    let postgres = Connection::postgres(&testing::scratch_schema(&url).unwrap()).unwrap();
    assert_eq!(exercise(&postgres), on_sqlite);
}

#[test]
fn a_url_shown_in_a_log_keeps_no_password() {
    assert_eq!(
        redact_url("postgres://bot:pa:ss@db:5432/deckmate"),
        "postgres://bot:***@db:5432/deckmate"
    );
    assert_eq!(
        redact_url("postgresql://db/deckmate?user=bot&password=hunter2&sslmode=require"),
        "postgresql://db/deckmate?user=bot&password=***&sslmode=require"
    );
    assert_eq!(
        redact_url("postgres://bot:ab/c?d@db/deckmate"),
        "postgres://bot:***@db/deckmate"
    );
    assert_eq!(
        redact_url("postgres://bot@/deckmate?host=/run/pg"),
        "postgres://bot@/deckmate?host=/run/pg"
    );
}

/// A connection to a new schema of the test server holding one table, `t (id BIGINT PRIMARY
/// KEY)`, and that schema's URL; None (said on stderr) without a test server.
fn table_t() -> Option<(String, Connection)> {
    let Some(url) = testing::postgres_url() else {
        eprintln!(
            "no PostgreSQL server named in {}: skipped",
            testing::POSTGRES_VARIABLE
        );
        return None;
    };
    let url = testing::scratch_schema(&url).unwrap();
    let conn = Connection::postgres(&url).unwrap();
    conn.execute_batch("CREATE TABLE t (id BIGINT PRIMARY KEY)")
        .unwrap();
    Some((url, conn))
}

/// PostgreSQL's own ways to fail, met: a COMMIT after a failed statement is an error (not a
/// silent rollback), a transaction whose lock wait is cancelled leaves none open, and a
/// session the server ends is opened again on the next call.
#[test]
fn postgres_failures_leave_the_connection_usable_and_never_pass_for_success() {
    let Some((url, conn)) = table_t() else {
        return;
    };
    conn.begin_write().unwrap();
    conn.execute("INSERT INTO t (id) VALUES (1)", []).unwrap();
    assert!(conn.execute("INSERT INTO t (id) VALUES (1)", []).is_err());
    let commit = conn.end(true);
    assert!(
        commit.is_err(),
        "a spoiled transaction does not commit quietly"
    );
    assert!(conn.is_autocommit());
    let count = |c: &Connection| -> i64 {
        c.query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(count(&conn), 0, "nothing of it was kept");

    // Another session holds the write lock; this one's wait is cut short by a timeout, which
    // fails the transaction's first statement (its BEGIN goes with it), and the rollback
    // leaves none open.
    let holder = Connection::postgres(&url).unwrap();
    holder.begin_write().unwrap();
    holder.execute("SELECT 1", []).unwrap();
    conn.execute_batch("SET lock_timeout = '100ms'").unwrap();
    conn.begin_write().unwrap();
    let waited = conn
        .execute("INSERT INTO t (id) VALUES (3)", [])
        .unwrap_err();
    assert_eq!(
        waited.sqlstate(),
        Some("55P03"),
        "lock_not_available: {waited}"
    );
    conn.end(false).unwrap();
    assert!(conn.is_autocommit());
    holder.end(false).unwrap();
    conn.begin_write().unwrap();
    conn.execute("INSERT INTO t (id) VALUES (2)", []).unwrap();
    conn.end(true).unwrap();
    assert_eq!(count(&conn), 1);

    // The server ends this session (a restart, a failover): the next call reconnects.
    end_session(&conn, &holder);
    // The first call may meet the closed session; the one after it is on a new one.
    let _ = conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0));
    assert_eq!(count(&conn), 1);
}

/// On PostgreSQL a transaction's BEGIN, its savepoints and its `execute_later` writes go to the
/// server with the next statement awaited: in order (a query sees the writes before it), in
/// one round trip, and a queued write that fails fails the transaction whole.
#[test]
fn postgres_sends_what_nobody_awaits_with_the_next_statement() {
    let Some((_, conn)) = table_t() else {
        return;
    };
    let insert = "INSERT INTO t (id) VALUES (?1)";
    let count = "SELECT COUNT(*) FROM t";
    let count_of = |c: &Connection| -> i64 { c.query_row(count, [], |r| r.get(0)).unwrap() };
    // Prepare both statements, so only the transaction's own round trips are counted.
    conn.execute(insert, [0]).unwrap();
    assert_eq!(count_of(&conn), 1);

    let before = conn.round_trips();
    conn.begin_write().unwrap();
    conn.savepoint().unwrap();
    conn.execute_later(insert, [1]).unwrap();
    conn.execute_later(insert, [2]).unwrap();
    conn.end_savepoint(true).unwrap();
    assert_eq!(conn.round_trips(), before, "nothing was sent yet");
    assert_eq!(
        count_of(&conn),
        3,
        "the query sees the writes queued before it"
    );
    assert_eq!(
        conn.round_trips(),
        before + 1,
        "BEGIN, writes and query in one"
    );
    conn.execute_later(insert, [3]).unwrap();
    conn.end(true).unwrap();
    assert_eq!(
        conn.round_trips(),
        before + 2,
        "the last write went with the COMMIT"
    );
    assert_eq!(count_of(&conn), 4);

    // A queued write that fails (a key already there) fails the COMMIT; nothing is kept.
    conn.begin_write().unwrap();
    conn.execute_later(insert, [5]).unwrap();
    conn.execute_later(insert, [1]).unwrap();
    let refused = conn.end(true).unwrap_err();
    assert_eq!(
        refused.sqlstate(),
        Some("23505"),
        "unique_violation: {refused}"
    );
    assert!(conn.is_autocommit());
    assert_eq!(count_of(&conn), 4, "the write before it was undone too");

    // A transaction rolled back before anything of it was sent costs no round trip.
    let before = conn.round_trips();
    conn.begin_write().unwrap();
    conn.savepoint().unwrap();
    conn.end(false).unwrap();
    assert_eq!(conn.round_trips(), before);
    assert!(conn.is_autocommit());
    assert_eq!(count_of(&conn), 4);

    // Outside a transaction a later write is made at once.
    conn.execute_later(insert, [6]).unwrap();
    assert_eq!(count_of(&conn), 5);
}

/// What a pipeline must never do: commit after a write sent along with a later statement
/// failed (even when a savepoint rolled back afterwards seems to recover the transaction), send
/// the COMMIT behind a write that failed before it reached the server, or report a commit on a
/// session that was lost meanwhile as done.
#[test]
fn postgres_never_commits_what_failed_in_a_pipeline() {
    let Some((url, conn)) = table_t() else {
        return;
    };
    let insert = "INSERT INTO t (id) VALUES (?1)";
    let count_of = |c: &Connection| -> i64 {
        c.query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))
            .unwrap()
    };
    conn.execute(insert, [1]).unwrap();

    // Call A queues a write that will fail and returns Ok; call B, in the same transaction,
    // meets the failure, and its savepoint's rollback (named as A's was) would leave the
    // transaction usable again. It may not commit.
    conn.begin_write().unwrap();
    conn.execute_later(insert, [2]).unwrap();
    conn.savepoint().unwrap();
    conn.execute_later(insert, [1]).unwrap();
    conn.end_savepoint(true).unwrap();
    conn.savepoint().unwrap();
    assert!(
        conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))
            .is_err()
    );
    conn.end_savepoint(false).unwrap();
    let commit = conn.end(true).unwrap_err();
    assert!(matches!(commit, DbError::Spoiled), "{commit}");
    assert!(conn.is_autocommit());
    assert_eq!(count_of(&conn), 1, "nothing of it was kept");

    // A value its column cannot take fails before it is sent: the COMMIT behind it is not
    // sent, and the write before it is undone.
    conn.begin_write().unwrap();
    conn.execute_later(insert, [3]).unwrap();
    conn.execute_later(insert, ["three"]).unwrap();
    assert!(conn.end(true).is_err());
    assert!(conn.is_autocommit());
    assert_eq!(count_of(&conn), 1);

    // The server ends the session in the middle of a transaction: the commit is an error,
    // and the next transaction runs on a new session.
    let other = Connection::postgres(&url).unwrap();
    conn.begin_write().unwrap();
    conn.execute(insert, [4]).unwrap();
    end_session(&conn, &other);
    assert!(conn.execute(insert, [5]).is_err(), "the session is gone");
    let commit = conn.end(true).unwrap_err();
    assert!(matches!(commit, DbError::Lost), "{commit}");
    conn.begin_write().unwrap();
    conn.execute(insert, [6]).unwrap();
    conn.end(true).unwrap();
    assert_eq!(count_of(&other), 2, "the first row and the last");
}

/// The server ends `victim`'s session (as a restart or a failover would), asked by `by`, and
/// this returns once it is gone (the signal is asynchronous).
fn end_session(victim: &Connection, by: &Connection) {
    let pid: i32 = victim
        .query_row("SELECT pg_backend_pid()", [], |r| r.get(0))
        .unwrap();
    let ended: bool = by
        .query_row("SELECT pg_terminate_backend(?1)", [pid], |r| r.get(0))
        .unwrap();
    assert!(ended);
    let alive = |pid: i32| -> i64 {
        by.query_row(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?1",
            [pid],
            |r| r.get(0),
        )
        .unwrap()
    };
    while alive(pid) > 0 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
