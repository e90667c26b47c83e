//! A match written out: history pages, the console log with its replay command, and PGN read
//! back by the project's own SAN reader to the same final position.

use super::fixture;
use super::*;
use crate::engine::GameRng;
use crate::games::chess::pgn;

fn play(f: &mut Fixture, moves: &[&str]) {
    for (i, text) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { f.alice.id } else { f.bob.id };
        f.table.act(f.id, who, None, text).unwrap();
    }
}

use super::Fixture;

const SCHOLAR: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];

#[test]
fn history_comes_a_page_at_a_time() {
    let mut f = fixture(GameKind::Chess);
    play(&mut f, &SCHOLAR);
    let first = f.table.history_page(f.id, 1, 3).unwrap();
    assert_eq!((first.page, first.pages), (1, 3));
    assert_eq!(first.actions[0], (1, "alice".to_string(), "e4".to_string()));
    let last = f.table.history_page(f.id, 99, 3).unwrap();
    assert_eq!(last.page, 3, "a page past the end is the last");
    assert_eq!(
        last.actions,
        [(7, "alice".to_string(), "Qxf7#".to_string())]
    );
}

#[test]
fn the_log_says_how_to_replay_it_and_every_line_is_a_console_line() {
    let mut f = fixture(GameKind::Chess);
    play(&mut f, &SCHOLAR);
    let log = f.table.export_log(f.id).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[0], "# deckmate match #1: Chess for alice, bob");
    assert_eq!(lines[1], "# result: White won by checkmate");
    assert!(
        lines[2].starts_with("# replay: deckmate play chess --players alice,bob --seed "),
        "{}",
        lines[2]
    );
    assert_eq!(
        lines[3..],
        [
            "alice: e4",
            "bob: e5",
            "alice: Bc4",
            "bob: Nc6",
            "alice: Qh5",
            "bob: Nf6",
            "alice: Qxf7#"
        ]
    );
}

#[test]
fn the_pgn_of_a_chess_match_reads_back_to_the_same_final_position() {
    let mut f = fixture(GameKind::Chess);
    play(&mut f, &SCHOLAR);
    let pgn = f.table.export_pgn(f.id).unwrap().unwrap();
    assert!(
        pgn.contains("[White \"alice\"]") && pgn.contains("[Result \"1-0\"]"),
        "{pgn}"
    );
    assert!(pgn.trim_end().ends_with("4. Qxf7# 1-0"), "{pgn}");
    // Read back with the project's own PGN and SAN reader.
    let read = pgn::read(&pgn).unwrap();
    assert_eq!(read.tag("White"), Some("alice"));
    assert_eq!(read.result, "1-0");
    let loaded = f.table.load(f.id).unwrap();
    let crate::games::AnyGame::Chess(played) = &loaded.game else {
        unreachable!()
    };
    assert_eq!(pgn::replay(&read).unwrap().fen(), played.position().fen());
    // Games other than chess and Enthralling Chess have no PGN.
    let other = fixture(GameKind::Echek);
    assert_eq!(other.table.export_pgn(other.id).unwrap(), None);
}

#[test]
fn a_pgn_from_a_set_position_carries_its_fen_and_numbers_from_it() {
    let mut f = fixture(GameKind::Chess);
    let fen = "4k3/8/8/8/8/8/8/4K2R b K - 0 12";
    let players = [f.alice.clone(), f.bob.clone()];
    let id = f
        .table
        .create(
            GameKind::Chess,
            &[("fen".into(), fen.into())],
            &players,
            1,
            &Place::default(),
        )
        .unwrap()
        .match_id;
    f.table.act(id, f.bob.id, None, "Kd7").unwrap();
    f.table.act(id, f.alice.id, None, "O-O").unwrap();
    let pgn = f.table.export_pgn(id).unwrap().unwrap();
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert!(pgn.contains("12... Kd7 13. O-O *"), "{pgn}");
}

#[test]
fn an_enthralling_match_in_pgn_keeps_its_extra_steps_as_comments_and_replays_whole() {
    let mut f = fixture(GameKind::Enthralling);
    play(
        &mut f,
        &[
            "e4",
            "e5",
            "Nf3",
            "Nc6",
            "Bc4",
            "Bc5",
            "d3 enthrall Nc6 g1",
            "d6 enthrall Bc4 f8",
        ],
    );
    let text = f.table.export_pgn(f.id).unwrap().unwrap();
    assert!(text.contains("[Variant \"Enthralling Chess\"]"), "{text}");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.ends_with("4. d3 {enthrall Nc6 g1} 4... d6 {enthrall Bc4 f8} *"),
        "{text}"
    );
    // Read back, each move with its comment is one turn again.
    let read = pgn::read(&text).unwrap();
    let mut rng = GameRng::from_seed(0);
    let mut game = GameKind::Enthralling.start(&[], 2, &mut rng).unwrap();
    for (i, turn) in read.turns(&["enthrall", "liberate"]).iter().enumerate() {
        game.play(Seat((i % 2) as u8), turn, &mut rng).unwrap();
    }
    let loaded = f.table.load(f.id).unwrap();
    assert_eq!(
        serde_json::to_value(&game).unwrap(),
        serde_json::to_value(&loaded.game).unwrap()
    );
}

#[test]
fn a_pgn_written_by_another_program_is_read_to_its_final_positions() {
    // Written by python-chess (tests/fixtures/README.md says how): tags, comments, a glyph, a
    // variation, castling both ways, en passant, promotion, and two games in one file.
    let text = include_str!("../../../tests/fixtures/python-chess.pgn");
    let finals: Vec<&str> = include_str!("../../../tests/fixtures/python-chess.fen")
        .lines()
        .collect();
    let games = pgn::read_all(text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Black"), Some("Random, Beta"));
    assert_eq!(games[0].result, "1/2-1/2");
    assert_eq!(games[0].moves[9].comment.as_deref(), Some("The Najdorf."));
    assert_eq!(games[0].moves[10].san, "Bxa6", "the variation is skipped");
    for (game, fen) in games.iter().zip(finals) {
        assert_eq!(pgn::replay(game).unwrap().fen(), fen);
    }
}
