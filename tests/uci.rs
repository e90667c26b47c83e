//! `deckmate uci` driven as chess programs drive it (the traffic python-chess sends when it
//! plays a game), through the built binary's standard input and output.

use deckmate::games::chess::{Color, Ending, Move, Position, fide_ending};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The engine as a child process, its output lines arriving on a channel.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deckmate"))
            .arg("uci")
            .current_dir(std::env::temp_dir())
            .env_remove("DISCORD_TOKEN")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads");
        self.stdin.flush().expect("flush");
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn wait_for(&mut self, prefix: &str, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(e) => panic!("no {prefix:?} within {within:?} ({e}); saw {seen:#?}"),
            }
        }
    }

    /// Sends `quit` and checks the engine ends, successfully, soon.
    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(Instant::now() < deadline, "quit did not end the engine");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn bestmove(lines: &[String]) -> Move {
    let last = lines.last().expect("a line");
    let text = last
        .strip_prefix("bestmove ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("not a bestmove: {last}"));
    Move::parse_uci(text).unwrap_or_else(|| panic!("not a move: {text}"))
}

/// A small seeded generator for the opponent's moves.
fn next_random(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

#[test]
fn a_whole_game_as_python_chess_plays_it() {
    let mut engine = Engine::start();
    engine.send("uci");
    let hello = engine.wait_for("uciok", Duration::from_secs(10));
    assert!(hello.iter().any(|l| l == "id name deckmate"), "{hello:?}");
    assert!(
        hello.iter().any(|l| l.starts_with("option name Skill")),
        "{hello:?}"
    );
    engine.send("setoption name Skill value hard");
    engine.send("ucinewgame");
    engine.send("isready");
    engine.wait_for("readyok", Duration::from_secs(10));

    let mut pos = Position::default();
    let mut history = vec![pos.repetition_key()];
    let mut moves: Vec<String> = Vec::new();
    let mut seed = 12345u64;
    let (mut wtime, mut btime) = (3_000u64, 3_000u64);
    let mut plies = 0;
    while fide_ending(&pos, &history, true).is_none() && plies < 80 {
        let mv = if plies % 2 == 0 {
            let position = if moves.is_empty() {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            };
            engine.send(&position);
            engine.send(&format!("go wtime {wtime} btime {btime} winc 20 binc 20"));
            let started = Instant::now();
            let lines = engine.wait_for("bestmove", Duration::from_secs(10));
            let spent = started.elapsed().as_millis() as u64;
            wtime = (wtime + 20).saturating_sub(spent).max(100);
            assert!(
                lines.iter().any(|l| l.starts_with("info depth")),
                "{lines:?}"
            );
            bestmove(&lines)
        } else {
            let legal = pos.legal_moves();
            btime = btime.saturating_sub(1);
            legal[next_random(&mut seed) as usize % legal.len()]
        };
        assert!(pos.is_legal(mv), "{mv} is illegal in {}", pos.fen());
        let next = pos.play_unchecked(mv);
        if next.halfmoves() == 0 {
            history.clear();
        }
        history.push(next.repetition_key());
        pos = next;
        moves.push(mv.uci());
        plies += 1;
    }
    // Against random replies the engine mates.
    let ending = fide_ending(&pos, &history, true);
    println!("{plies} plies, {ending:?}: {}", moves.join(" "));
    assert_eq!(ending, Some(Ending::Checkmate), "{}", moves.join(" "));
    assert_eq!(pos.turn(), Color::Black, "White (the engine) mated");
    engine.quit();
}

#[test]
fn go_infinite_answers_isready_and_stops_on_stop() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.wait_for("uciok", Duration::from_secs(10));
    engine.send("position startpos moves d2d4 d7d5");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let lines = engine.wait_for("readyok", Duration::from_secs(5));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    let started = Instant::now();
    engine.send("stop");
    let lines = engine.wait_for("bestmove", Duration::from_secs(5));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "stop took {:?}",
        started.elapsed()
    );
    let pos = Position::default()
        .play_unchecked(Move::parse_uci("d2d4").unwrap())
        .play_unchecked(Move::parse_uci("d7d5").unwrap());
    assert!(pos.is_legal(bestmove(&lines)));
    engine.quit();
}

#[test]
fn garbage_and_an_illegal_move_do_not_kill_it() {
    let mut engine = Engine::start();
    engine.send("hello engine");
    engine.send("go movetime banana");
    engine.send("position startpos moves e2e4 e2e4");
    engine.send("position fen 8/8/8 w");
    engine.send("setoption name Skill value");
    engine.send("isready");
    let lines = engine.wait_for("readyok", Duration::from_secs(10));
    let infos = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .count();
    assert!(infos >= 4, "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("illegal move \"e2e4\"")),
        "{lines:#?}"
    );
    // The position is the one after 1.e4: Black answers.
    engine.send("go depth 2");
    let lines = engine.wait_for("bestmove", Duration::from_secs(10));
    let after_e4 = Position::default().play_unchecked(Move::parse_uci("e2e4").unwrap());
    assert!(after_e4.is_legal(bestmove(&lines)));
    engine.quit();
}

#[test]
fn quit_ends_it_while_it_thinks() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    engine.quit();
}
