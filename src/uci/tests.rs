//! The protocol loop driven in memory: answers, refusals, and the search's commands.

use super::*;
use std::io::Cursor;

/// Runs `script` through the loop and returns what it wrote.
fn session(script: &str) -> String {
    let mut out = Vec::new();
    run(Cursor::new(script.as_bytes().to_vec()), &mut out).expect("no IO error");
    String::from_utf8(out).expect("UTF-8")
}

fn bestmove(output: &str) -> Option<Move> {
    output
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .next_back()
        .and_then(|m| Move::parse_uci(m.split_whitespace().next()?))
}

#[test]
fn uci_and_isready_are_answered() {
    let out = session("uci\nisready\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first(), Some(&"id name deckmate"));
    assert!(
        lines.contains(&"option name Skill type combo default hard var easy var medium var hard")
    );
    assert_eq!(&lines[lines.len() - 2..], &["uciok", "readyok"]);
}

#[test]
fn garbage_is_answered_with_info_strings_and_the_loop_goes_on() {
    let script = "\n   \nfoo bar\ngo wtime abc depth\nposition\nposition fen not a fen\nposition startpos moves e2e4 e7e5 e1e3 d2d4\nsetoption name Colour value red\nsetoption name Skill value grandmaster\n\u{fffd}\u{0}\x07\ngo depth 2\nisready\n";
    let out = session(script);
    assert!(out.contains("info string unknown command \"foo\""), "{out}");
    assert!(out.contains("info string go wtime needs a number"), "{out}");
    assert!(out.contains("info string illegal move \"e1e3\""), "{out}");
    assert!(out.contains("unknown option"), "{out}");
    assert!(out.contains("unknown level"), "{out}");
    assert!(out.lines().any(|l| l == "readyok"), "{out}");
    // The position kept the moves before the illegal one: White to move after 1.e4 e5.
    let after =
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").unwrap();
    let mv = bestmove(&out).expect("a bestmove");
    assert!(after.is_legal(mv), "{mv}");
}

#[test]
fn a_long_line_and_bad_bytes_do_not_stop_the_loop() {
    let mut script = vec![b'x'; MAX_LINE * 2 + 17];
    script.extend_from_slice(b"\n\xff\xfe position\nisready\n");
    let mut out = Vec::new();
    run(Cursor::new(script), &mut out).expect("no IO error");
    let out = String::from_utf8(out).unwrap();
    assert!(out.trim_end().ends_with("readyok"), "{out}");
    assert_eq!(out.matches("unknown command").count(), 2, "{out}");
}

#[test]
fn go_depth_prints_info_lines_then_a_legal_bestmove() {
    let out = session(
        "position fen r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3\ngo depth 3\n",
    );
    let infos: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(
        infos.len(),
        1,
        "mate in one ends the search at depth 1: {out}"
    );
    assert!(infos[0].contains("score mate 1"), "{out}");
    assert_eq!(bestmove(&out), Move::parse_uci("f3f7"));
}

#[test]
fn the_end_of_the_input_stops_an_infinite_search_with_an_answer() {
    let out = session("position startpos moves e2e4\ngo infinite\n");
    let pos = Position::default().play_unchecked(Move::parse_uci("e2e4").unwrap());
    assert!(bestmove(&out).is_some_and(|mv| pos.is_legal(mv)), "{out}");
}

#[test]
fn no_legal_move_answers_0000() {
    let out = session("position fen k7/1Q6/1K6/8/8/8/8/8 b - - 0 1\ngo movetime 50\nquit\n");
    assert!(out.contains("bestmove 0000"), "{out}");
}

#[test]
fn go_words_are_read_bounded() {
    let (go, complaints) = Go::parse(&[
        "wtime",
        "-5",
        "btime",
        "99999999999999999999",
        "winc",
        "100",
        "depth",
        "999",
        "movestogo",
        "0",
        "nodes",
        "0",
    ]);
    assert_eq!(go.wtime, Some(0));
    assert_eq!(go.btime, None, "an unreadable number is refused");
    assert_eq!(complaints.len(), 1);
    assert_eq!(go.depth, Some(MAX_DEPTH));
    assert_eq!(go.movestogo, Some(1));
    assert_eq!(go.nodes, Some(1));
    // Out of time: the least budget, not a panic.
    assert_eq!(go.budget(true, Level::Hard), Some(Duration::from_millis(5)));
}

#[test]
fn the_clock_is_shared_over_the_moves_to_go() {
    let (go, _) = Go::parse(&[
        "wtime", "60000", "btime", "30000", "winc", "1000", "binc", "0",
    ]);
    assert_eq!(
        go.budget(true, Level::Hard),
        Some(Duration::from_millis(2000 + 800))
    );
    assert_eq!(
        go.budget(false, Level::Hard),
        Some(Duration::from_millis(1000))
    );
    let (go, _) = Go::parse(&["btime", "100", "movestogo", "1"]);
    assert_eq!(
        go.budget(false, Level::Hard),
        Some(Duration::from_millis(20))
    );
    let (go, _) = Go::parse(&["movetime", "100"]);
    assert_eq!(
        go.budget(true, Level::Hard),
        Some(Duration::from_millis(90))
    );
    let (go, _) = Go::parse(&["infinite"]);
    assert_eq!(go.budget(true, Level::Hard), None);
    let (go, _) = Go::parse(&["depth", "5"]);
    assert_eq!(go.budget(true, Level::Hard), None);
    assert_eq!(
        Go::parse(&[]).0.budget(true, Level::Easy),
        Some(Level::Easy.time_limit())
    );
}

#[test]
fn skill_sets_the_level() {
    let mut engine = Engine::new();
    assert_eq!(
        set_option(&mut engine, &["name", "Skill", "value", "easy"]),
        None
    );
    assert_eq!(engine.level, Level::Easy);
    assert!(set_option(&mut engine, &["name", "Skill"]).is_some());
    assert_eq!(engine.level, Level::Easy);
}

/// An output that refuses every write, as a closed pipe does.
struct Closed;

impl Write for Closed {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_closed_output_ends_the_loop_and_its_infinite_search() {
    let input = Cursor::new(b"position startpos\ngo infinite\nisready\n".to_vec());
    let got = run(input, Closed);
    assert_eq!(got.map_err(|e| e.kind()), Err(io::ErrorKind::BrokenPipe));
}
