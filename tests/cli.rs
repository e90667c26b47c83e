//! The `deckmate` binary as a user runs it.

use std::process::{Command, Output};

/// Runs the binary without any Discord settings, in a folder with no .env file.
fn deckmate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckmate"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .env_remove("DISCORD_TOKEN")
        .env_remove("DEV_GUILD_ID")
        .output()
        .expect("the binary runs")
}

#[test]
fn the_bot_without_a_token_says_what_to_do() {
    let started = std::time::Instant::now();
    let out = deckmate(&["bot"]);
    assert!(started.elapsed().as_secs() < 5);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for needle in ["DISCORD_TOKEN", ".env.example", "deckmate play"] {
        assert!(err.contains(needle), "{needle} missing: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

fn last_line(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn perft_prints_the_published_node_count_last() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4",
            "197281",
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "3",
            "97862",
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "4", "43238"),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "3",
            "9467",
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "3",
            "62379",
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "3",
            "89890",
        ),
    ];
    for (fen, depth, expected) in cases {
        let out = deckmate(&["perft", fen, depth]);
        assert!(out.status.success(), "{fen}");
        assert_eq!(last_line(&out), expected, "perft {depth} of {fen}");
    }
}

#[test]
fn perft_divide_lists_each_move_and_the_total() {
    let out = deckmate(&["perft", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "1", "--divide"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("e2e4: 1") && text.contains("e1d1: 1"),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.ends_with(": 1")).count(),
        6,
        "{text}"
    );
    assert_eq!(last_line(&out), "6");
}

#[test]
fn perft_refuses_a_bad_fen_clearly() {
    let out = deckmate(&["perft", "8/8/8/8 w - - 0 1", "2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad FEN: the board must have 8 ranks of 8 squares"),
        "{err}"
    );
}

fn selfplay_1000(game: &str) {
    let out = deckmate(&["selfplay", game, "--games", "1000", "--seed", "7"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("games finished: 1000/1000"), "{text}");
    assert!(!text.contains("error:"), "{text}");
    let counted: usize = text
        .lines()
        .skip_while(|l| *l != "outcomes:")
        .skip(1)
        .filter_map(|l| l.split_whitespace().next()?.parse::<usize>().ok())
        .sum();
    assert_eq!(counted, 1000, "every game has an outcome: {text}");
}

#[test]
fn selfplay_chess_1000_games_all_end() {
    selfplay_1000("chess");
}

#[test]
fn selfplay_enthralling_1000_games_all_end() {
    selfplay_1000("enthralling");
}

#[test]
fn selfplay_with_options_and_bad_input() {
    let out = deckmate(&[
        "selfplay",
        "enthralling",
        "--games",
        "20",
        "--option",
        "unable_to_enthrall_loses=true",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("games finished: 20/20"), "{text}");
    assert!(
        !text.contains("Draw by White being unable"),
        "the option makes it a loss: {text}"
    );
    assert!(
        text.contains("won by White being unable") || text.contains("won by Black being unable"),
        "{text}"
    );

    let out = deckmate(&[
        "selfplay",
        "enthralling",
        "--games",
        "1",
        "--option",
        "colour=red",
    ]);
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("error: seed 1: unknown option colour for Enthralling Chess; options: promoted_enthrallable, unable_to_enthrall_loses"),
        "{text}"
    );

    let out = deckmate(&["selfplay", "checkers"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("choose one of: chess, enthralling"));

    let out = deckmate(&["selfplay", "chess", "--players", "3", "--games", "1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Chess is played by 2 players, not 3"));
}

#[test]
fn no_arguments_starts_a_local_chess_match() {
    let out = deckmate(&[]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("match #1: Chess — white (White) vs black (Black)"),
        "{text}"
    );
    let out = deckmate(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("play") && text.contains("selfplay") && text.contains("perft"),
        "{text}"
    );
}

#[test]
fn play_help_names_every_game_and_explains_every_flag() {
    let out = deckmate(&["play", "--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for game in [
        "chess",
        "enthralling",
        "enprise",
        "echek",
        "snipe",
        "chessatete",
    ] {
        assert!(text.contains(game), "{game} in {text}");
    }
    for flag in [
        "--players",
        "--seed",
        "--option",
        "--db",
        "--out",
        "--match",
        "--board",
    ] {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(flag))
            .unwrap_or_else(|| panic!("{flag} in {text}"));
        // Every flag says what it does, on its own line.
        let said = line.trim_start().trim_start_matches(flag);
        assert!(said.split_whitespace().count() >= 3, "{flag}: {line}");
    }
}

#[test]
fn perft_refuses_a_depth_that_would_run_for_hours() {
    let out = deckmate(&["perft", "8/8/8/8/8/8/8/K6k w - - 0 1", "7"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: perft goes to depth 6 at most"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// `deckmate league ARGS --db DB`: whether it succeeded, its output and its errors.
fn league(db: &str, args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["league"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", db]);
    let out = deckmate(&all);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    (out.status.success(), text, err)
}

#[test]
fn a_director_runs_a_league_from_the_command_line() {
    let db = std::env::temp_dir().join(format!("deckmate-cli-league-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let db = db.to_str().unwrap();
    let run = |args: &[&str]| league(db, args);
    let (ok, text, err) = run(&[
        "Club",
        "create",
        "--game",
        "chess",
        "--tiebreaks",
        "buchholz,wins",
    ]);
    assert!(ok, "{err}");
    assert_eq!(text, "League Club created; registration is open.\n");
    let (ok, _, err) = run(&["Club", "join", "ann", "ben", "cy"]);
    assert!(ok, "{err}");
    let (ok, text, _) = run(&["Club", "start"]);
    assert!(ok);
    assert!(text.starts_with("Round 1 started.\n"), "{text}");
    assert!(
        text.contains("Round 1, board 1: ben - cy: match #1"),
        "{text}"
    );
    assert!(text.contains("ann: the bye (one point)"), "{text}");
    // A game played out shows its result in the pairings.
    let (ok, text, _) = run(&["Club", "pairings"]);
    assert!(ok && text.contains("ben - cy: match #1"), "{text}");
    // A director's result, then the round closes.
    let (ok, _, err) = run(&["Club", "record", "1", "1", "0-1"]);
    assert!(ok, "{err}");
    let (ok, text, _) = run(&["Club", "close"]);
    assert!(ok);
    assert_eq!(text, "Round 1 is closed.\n");
    // Ben leaves; Dee plays the rest of his schedule.
    let (ok, text, err) = run(&["Club", "substitute", "ben", "dee"]);
    assert!(ok, "{err}");
    assert_eq!(text, "dee takes ben's place in Club (season 1).\n");
    let (ok, _, err) = run(&["Club", "substitute", "ben", "eve"]);
    assert!(
        !ok && err.contains("ben was already replaced by dee"),
        "{err}"
    );
    let (ok, text, _) = run(&["Club", "standings"]);
    assert!(ok);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "rank  player  points  Buchholz  Wins");
    assert!(
        lines[1].contains("ann  1") || lines[1].contains("cy  1"),
        "{text}"
    );
    assert!(lines[3].contains("ben  0"), "{text}");
    let (ok, text, _) = run(&["Club", "start"]);
    assert!(ok && text.contains("ann - dee: match #"), "{text}");
    // Mistakes are named.
    let (ok, _, err) = run(&["Club", "record", "1", "1", "2-0"]);
    assert!(!ok && err.contains("a result is one of"), "{err}");
    let (ok, _, err) = run(&["Nope", "standings"]);
    assert!(
        !ok && err.contains("there is no league called Nope"),
        "{err}"
    );
    // A whole season of random games.
    let (ok, text, err) = run(&["Sim", "create", "--game", "chess"]);
    assert!(ok, "{err}");
    let _ = text;
    let (ok, text, err) = run(&["Sim", "simulate", "--players", "4", "--seed", "2"]);
    assert!(ok, "{err}");
    assert!(
        text.contains("Round 3 is closed.\nSeason 1 is over.\n"),
        "{text}"
    );
    // The standings (a heading and four players), then the crosstable (four rows).
    let (standings, crosstable) = text.split_once("\n\n").unwrap();
    assert_eq!(
        standings.lines().filter(|l| l.contains("player")).count(),
        4 + 1,
        "{text}"
    );
    let rows: Vec<&str> = crosstable.lines().filter(|l| l.contains(" X")).collect();
    assert_eq!(rows.len(), 4, "{text}");
    let _ = std::fs::remove_file(db);
}

#[test]
fn pair_dutch_writes_the_reference_engines_pairings_file() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trf");
    let out = std::env::temp_dir().join(format!("deckmate-pairs-{}.txt", std::process::id()));
    let trf = fixtures.join("0007.trf");
    let ran = deckmate(&[
        "pair",
        "--dutch",
        trf.to_str().unwrap(),
        "-p",
        out.to_str().unwrap(),
    ]);
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let mut ours: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut reference: Vec<String> = std::fs::read_to_string(fixtures.join("0007.pairs"))
        .unwrap()
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    ours.sort();
    reference.sort();
    assert_eq!(ours, reference);

    // Without -p the pairs go to standard output; a file that is not TRF is refused.
    let printed = deckmate(&["pair", "--dutch", trf.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&printed.stdout),
        std::fs::read_to_string(&out).unwrap()
    );
    let refused = deckmate(&["pair", "--dutch", out.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("no players (lines starting 001)"), "{err}");
    let _ = std::fs::remove_file(out);
}

#[test]
fn the_gallery_pictures_every_game_at_every_table_size() {
    let dir = std::env::temp_dir().join(format!("deckmate-gallery-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = deckmate(&["gallery", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    // Six games, En Prise at 2, 3 and 4 players: eight tables, each with three stages seen two
    // ways and a replay; then five variants, each with two stages seen two ways.
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("76 pictures written to "), "{said}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(names.len(), 76);
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let magic: &[u8] = match name.ends_with(".gif") {
            true => b"GIF89a",
            false => b"\x89PNG",
        };
        assert!(bytes.starts_with(magic), "{name}");
    }
    assert!(names.contains(&"enprise-4p-middle-spectator.png".to_string()));
    assert!(names.contains(&"chessatete-2p-end-seat1.png".to_string()));
    assert!(names.contains(&"enprise-memory-2p-start-spectator.png".to_string()));
    assert!(names.contains(&"snipe-feather-2p-middle-seat1.png".to_string()));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn league_commands_refuse_bad_names_resume_a_simulation_and_end_quietly_into_head() {
    let db = std::env::temp_dir().join(format!("deckmate-cli-league2-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let db = db.to_str().unwrap();
    let run = |args: &[&str]| league(db, args);
    assert!(run(&["Sim", "create", "--game", "chess"]).0);
    let (ok, _, err) = run(&["Sim", "join"]);
    assert!(!ok && err.contains("<PLAYER>"), "{err}");
    let (ok, _, err) = run(&["Sim", "join", "ann", " "]);
    assert!(
        !ok && err.contains("a player name cannot be empty"),
        "{err}"
    );
    let (ok, _, err) = run(&["Sim", "join", "a\u{1b}[2Jb"]);
    assert!(!ok && err.contains("control character"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
    let (_, text, _) = run(&["Sim", "standings"]);
    assert!(!text.contains("ann"), "nobody was registered: {text}");
    // A simulation interrupted after it registered its first player, then one interrupted
    // with its first round running: each run goes on where the last stopped.
    assert!(run(&["Sim", "join", "player1"]).0);
    let (ok, text, err) = run(&["Sim", "simulate", "--players", "4", "--seed", "2"]);
    assert!(ok, "{err}");
    assert!(text.contains("Season 1 is over."), "{text}");
    assert!(run(&["Two", "create", "--game", "chess"]).0);
    assert!(run(&["Two", "join", "player1", "player2"]).0);
    assert!(run(&["Two", "start"]).0);
    let (ok, text, err) = run(&["Two", "simulate", "--players", "2", "--seed", "3"]);
    assert!(ok, "{err}");
    assert!(
        text.contains("Round 1 is closed.\nSeason 1 is over."),
        "{text}"
    );
    // A reader that stops early (`| head`) ends the command quietly.
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckmate"))
        .args(["league", "Sim", "standings", "--db", db])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_file(db);
}

#[test]
fn the_arena_plays_chess_against_an_engine_spoken_to_over_uci() {
    // deckmate's own UCI mode is the outside engine here: A, at 20 ms a move, against random.
    let engine = format!("uci:{} uci", env!("CARGO_BIN_EXE_deckmate"));
    let out = deckmate(&[
        "arena",
        "chess",
        "--a",
        &engine,
        "--a-option",
        "Skill=hard",
        "--b",
        "random",
        "--games",
        "2",
        "--movetime",
        "20",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("B = random, 2 games"), "{text}");
    assert!(text.contains("[Skill=hard]"), "{text}");
    assert!(text.contains("lost 0"), "{text}");
    // An outside engine plays chess from the start, at two seats: anything else is refused once.
    for (args, why) in [
        (vec!["arena", "enprise", "--a", &engine], "plays chess only"),
        (
            vec![
                "arena",
                "chess",
                "--b",
                &engine,
                "--option",
                "fen=8/8/8/8/8/8/8/K6k w - - 0 1",
            ],
            "--option is not for it",
        ),
    ] {
        let out = deckmate(&args);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(why), "{why}");
    }
}

#[test]
fn an_engine_that_lies_or_dies_stops_its_game_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("deckmate-uci-liar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let liar = dir.join("liar.sh");
    // Answers every question as an engine should, and then moves a pawn three squares.
    std::fs::write(
        &liar,
        "while read -r line; do case \"$line\" in \
         uci) echo 'id name Liar'; echo uciok;; \
         isready) echo readyok;; \
         go*) echo 'bestmove e2e5';; \
         quit) exit 0;; esac; done\n",
    )
    .unwrap();
    let liar = format!("uci:sh {}", liar.display());
    for (engine, reason) in [
        (liar.as_str(), "Liar played \"e2e5\", not a legal move"),
        ("uci:false", "false ended before uciok"),
        (
            "uci:no-such-engine-here",
            "cannot start no-such-engine-here",
        ),
    ] {
        // After the two plies played at random to open, the engine is asked, and fails.
        let out = deckmate(&[
            "arena", "chess", "--a", engine, "--b", "random", "--games", "2",
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(text.contains(reason), "{reason}: {text}");
    }
    // Options are for engines only.
    let out = deckmate(&["arena", "chess", "--a", "cpu", "--a-option", "Skill=hard"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--a-option is for a uci: contestant, not cpu:medium"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}
