//! Console tests, a file a subject: sessions and the simulated clock (`sessions`), and the
//! test-only seventh game played end to end (`seventh_game`). This file holds only the
//! fixtures they share.

use super::*;

mod computer;
mod sessions;
mod seventh_game;

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "deckmate-console-unit-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.db")
}

/// A chess console on `db`: a new match between ann and ben with `time` on the simulated
/// clock, or match `resume` when given.
fn config(db: &Path, time: &str, resume: Option<MatchId>) -> ConsoleConfig {
    ConsoleConfig {
        game: GameKind::Chess,
        players: match resume {
            Some(_) => vec![],
            None => vec!["ann".into(), "ben".into()],
        },
        seed: Some(1),
        options: vec![],
        db: Some(db.to_path_buf()),
        out: None,
        match_id: resume,
        prompt: false,
        show_board: false,
        session: None,
        time: TimeControl::parse(time).unwrap(),
        simulated: true,
    }
}

fn run_lines(console: &mut Console, script: &str) -> Vec<String> {
    script.lines().flat_map(|line| console.line(line)).collect()
}

/// Every row of every table of the database at `db` but those named in `skip`, as text: to
/// tell whether anything stored changed.
fn dump_except(db: &Path, skip: &[&str]) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut tables = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap();
    let tables: Vec<String> = tables
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut text = String::new();
    for table in tables.into_iter().filter(|t| !skip.contains(&t.as_str())) {
        let mut rows = conn.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
        let columns = rows.column_count();
        let rows: Vec<String> = rows
            .query_map([], |r| {
                let values: Vec<rusqlite::types::Value> =
                    (0..columns).map(|i| r.get(i)).collect::<Result<_, _>>()?;
                Ok(format!("{values:?}"))
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        text.push_str(&format!("{table}: {}\n", rows.join("\n  ")));
    }
    text
}
