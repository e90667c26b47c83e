//! The test-only seventh game, tic-tac-toe, played from the console through the table service
//! into a real SQLite file, shown as text and as a picture, read back after a restart and
//! refused where it should be. Nothing outside its own files (and one arm each in the
//! console's text view and in render/) knows it.

use super::*;
use crate::store::Status;

fn tictactoe(db: &Path, out: Option<&Path>, resume: Option<MatchId>) -> ConsoleConfig {
    ConsoleConfig {
        game: "tictactoe".parse().unwrap(),
        out: out.map(Path::to_path_buf),
        show_board: true,
        ..config(db, "none", resume)
    }
}

#[test]
fn tictactoe_plays_through_the_console_the_table_the_store_and_a_picture() {
    let db = temp_db("tictactoe");
    let out = db.with_file_name("pictures");
    std::fs::create_dir_all(&out).unwrap();
    let (mut console, opening) = Console::start(&tictactoe(&db, Some(&out), None)).unwrap();
    let id = console.match_id();
    assert!(
        opening.iter().any(|l| l.contains("Tic-tac-toe")),
        "{opening:?}"
    );
    assert!(
        opening.iter().any(|l| l == "..."),
        "the empty board as text: {opening:?}"
    );

    let lines = run_lines(&mut console, "b2\na1\nb2\nben: c3\nc3");
    assert!(lines.iter().any(|l| l == ".X."), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("b2 is taken")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("turn")),
        "ben is refused: {lines:?}"
    );
    drop(console);

    // A restart reads the match back from the file and plays on to the end.
    let (mut console, _) = Console::start(&tictactoe(&db, Some(&out), Some(id))).unwrap();
    let lines = run_lines(&mut console, "a2\na3\nb1\nc1");
    assert!(lines.iter().any(|l| l == "OOX"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l == "result: White won by three in a row"),
        "{lines:?}"
    );
    drop(console);

    let store = Store::open(&db).unwrap();
    assert_eq!(store.load_head(id).unwrap().status, Status::Finished);
    let shown = Table::new(store).show(id).unwrap();
    assert_eq!(shown.game.id(), "tictactoe");
    assert!(shown.public_view.is_over());
    assert_eq!(text_view(&shown.public_view)[..3], ["X.X", "OX.", "OOX"]);

    // A picture a version, each a real PNG of the board.
    let mut pictures: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    pictures.sort();
    assert_eq!(pictures.len(), 8, "the start and seven marks: {pictures:?}");
    let last = image::open(pictures.last().unwrap()).unwrap().to_rgb8();
    assert!(last.width() >= 3 * 176 && last.height() >= 3 * 176);
}
