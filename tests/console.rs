//! The console binary as a user (or a script) drives it.

use deckmate::engine::{GameRng, Seat, ToAct};
use deckmate::games::{AnyGame, GameKind};
use deckmate::store::Store;
use deckmate::table::Table;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("deckmate-console-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn play(args: &[&str], script: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckmate"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn fools_mate_through_the_console_with_one_png_per_action() {
    let dir = temp_dir("fools");
    let pngs = dir.join("out");
    let script = "# Fool's mate, with three mistakes along the way\n\
                  alice: move f3\n\
                  \n\
                  bob: move e5\n\
                  alice: move e5\n\
                  bob: move g5\n\
                  carol: move g4\n\
                  alice: move g4\n\
                  bob: move Qh4\n";
    let out = play(
        &[
            "chess",
            "--players",
            "alice,bob",
            "--seed",
            "1",
            "--out",
            pngs.to_str().unwrap(),
        ],
        script,
    );
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        errors,
        vec![
            "error: no pawn of yours can reach e5",
            "error: it is not your turn: waiting for alice",
            "error: carol is not playing in match #1 (players: alice, bob)",
        ]
    );
    assert_eq!(text.lines().last(), Some("result: Black won by checkmate"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&pngs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [0, 1, 2, 3, 4].map(|v| format!("memory-1-{v:04}.png")),
        "the start, then one picture per action"
    );
    for file in files {
        let img = image::open(&file).unwrap();
        // The 768 x 776 board and the band naming its players.
        assert_eq!(
            (img.width(), img.height()),
            (768, 818),
            "{}",
            file.display()
        );
    }
}

#[test]
fn every_command_answers() {
    let script = "alice: legal\nbob: legal\nalice: move e4\nbob: view\nbob: board\nalice: history\n\
                  bob: draw offer\nalice: draw decline\nbob: fly\nnonsense\nbob: move\nalice: help\n\
                  bob: resign\nalice: move d4\n";
    let out = play(
        &["enthralling", "--players", "alice,bob", "--seed", "2"],
        script,
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    for expected in [
        "legal (20):\n  knight (4): Nc3, Na3, Nh3, Nf3\n  pawn (16): a3, a4,",
        "legal: nothing now; waiting for alice",
        "White plays e4",
        "8 | r n b q k b n r",
        "1 | R N B Q K B N R",
        "  1. alice: e4",
        "bob offers a draw.",
        "alice declines the draw.",
        "error: cannot read \"fly\": that is not a move",
        "error: cannot read \"nonsense\": that is not a move",
        "error: say which action, for example: move e4",
        "  <action>        play an action",
        "Enthralling Chess actions:\n  a chess move (e4, Nf3, O-O, e2e4); from your fourth move on, followed by",
        "bob resigns.",
        "result: White won by resignation",
        "error: match #1 is over (White won by resignation)",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
}

/// A legal chess game from the library, as console lines.
fn long_script(plies: usize) -> Vec<String> {
    let mut rng = GameRng::from_seed(11);
    let mut chooser = GameRng::from_seed(12);
    let mut game = GameKind::Chess.start(&[], 2, &mut rng).unwrap();
    let mut lines = Vec::new();
    while lines.len() < plies {
        let ToAct::Seats(seats) = game.to_act() else {
            break;
        };
        let seat = seats[0];
        let text = game.random_action(seat, &mut chooser).unwrap();
        let played = game.play(seat, &text, &mut rng).unwrap();
        let name = if seat == Seat(0) { "alice" } else { "bob" };
        lines.push(format!("{name}: move {}", played.canonical));
    }
    lines
}

#[test]
fn a_killed_console_resumes_with_every_acknowledged_action() {
    let dir = temp_dir("kill");
    killed_and_resumed(dir.join("matches.db").to_str().unwrap());
}

/// The same on PostgreSQL, when a test server is named (`scripts/test-postgres` names one).
#[test]
fn a_killed_console_on_postgres_resumes_with_every_acknowledged_action() {
    let Some(url) = deckmate::store::testing::postgres_url() else {
        eprintln!("no PostgreSQL test server named: skipped");
        return;
    };
    killed_and_resumed(&deckmate::store::testing::scratch_schema(&url).unwrap());
}

/// Plays 40 acknowledged moves of a long game in a console on `db` (a file or a PostgreSQL
/// URL), feeds more, kills the process with SIGKILL, and checks that every acknowledged move
/// is stored, the stored match replays to the same position, and play goes on.
fn killed_and_resumed(db: &str) {
    let script = long_script(120);
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckmate"))
        .args([
            "play",
            "chess",
            "--players",
            "alice,bob",
            "--seed",
            "4",
            "--db",
            db,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(lines.next().unwrap().unwrap().starts_with("match #1"));
    let mut acknowledged = 0;
    for line in &script[..40] {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        loop {
            let out = lines.next().unwrap().unwrap();
            assert!(!out.starts_with("error"), "{line}: {out}");
            if out.contains(" plays ") {
                acknowledged += 1;
                break;
            }
        }
    }
    // Keep feeding without waiting, and kill the process in the middle of it.
    for line in &script[40..] {
        let _ = writeln!(stdin, "{line}");
    }
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    assert_eq!(acknowledged, 40);

    let table = Table::new(Store::open(db).unwrap());
    let history = table.history(1).unwrap();
    assert!(
        history.len() >= acknowledged,
        "{} stored, {acknowledged} acknowledged",
        history.len()
    );
    for (i, (_, who, text)) in history.iter().enumerate() {
        assert_eq!(format!("{who}: move {text}"), script[i], "action {}", i + 1);
    }
    // The stored match, replayed by the service, equals an independent replay of the log.
    let mut rng = GameRng::from_seed(4);
    let mut replay = GameKind::Chess.start(&[], 2, &mut rng).unwrap();
    for (i, (_, _, text)) in history.iter().enumerate() {
        replay.play(Seat((i % 2) as u8), text, &mut rng).unwrap();
    }
    let shown = table.show(1).unwrap();
    assert_eq!(
        serde_json::to_string(&shown.public_view).unwrap(),
        serde_json::to_string(&replay.view(deckmate::engine::Viewer::Spectator)).unwrap()
    );
    drop(table);

    // And play goes on from where it stopped.
    let rest: String = script[history.len()..]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    let out = play(&["chess", "--db", db, "--match", "1"], &rest);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("error:"), "{text}");
    let table = Table::new(Store::open(db).unwrap());
    assert_eq!(table.history(1).unwrap().len(), script.len());
}

#[test]
fn resuming_needs_the_database_and_the_right_game() {
    let out = play(&["chess", "--match", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--match needs --db"));

    let dir = temp_dir("resume");
    let db = dir.join("m.db");
    let db = db.to_str().unwrap();
    assert!(
        play(&["chess", "--players", "a,b", "--db", db], "a: move e4\n")
            .status
            .success()
    );
    let out = play(&["enthralling", "--db", db, "--match", "1"], "");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("match #1 is Chess, not Enthralling Chess")
    );
    let out = play(&["chess", "--db", db, "--match", "7"], "");
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no match #7"));
    let out = play(
        &["chess", "--db", db, "--match", "1", "--players", "b,a"],
        "",
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("match #1 is played by a,b, not b,a"));
    let out = play(
        &["chess", "--db", db, "--match", "1"],
        "b: move e5\nb: history\n",
    );
    assert!(stdout(&out).contains("  2. b: e5"), "{}", stdout(&out));
    let out = play(&["chess", "--players", "solo"], "");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Chess is played by 2 players, not 1"));
}

#[test]
fn en_prise_for_three_with_the_memory_timer_running_out() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckmate"))
        .args([
            "play",
            "enprise",
            "--players",
            "alice,bob,carol",
            "--seed",
            "4",
            "--option",
            "variant=memory",
            "--option",
            "memory_seconds=1",
            "--clock",
            "real",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    let mut read_until = |needle: &str, seen: &mut Vec<String>| {
        for line in lines.by_ref() {
            let line = line.unwrap();
            let found = line.contains(needle);
            seen.push(line);
            if found {
                return;
            }
        }
        panic!("no line with {needle:?} in:\n{}", seen.join("\n"));
    };
    read_until("to move: alice, bob, carol", &mut seen);
    writeln!(stdin, "bob: move ready").unwrap();
    writeln!(stdin, "alice: view").unwrap();
    read_until("Memorise the battleplans", &mut seen);
    // Nobody else says ready: the timer turns the plans face-down.
    read_until("Time is up.", &mut seen);
    read_until("to move: alice", &mut seen);
    writeln!(stdin, "alice: legal").unwrap();
    writeln!(stdin, "alice: move place").unwrap();
    writeln!(stdin, "carol: view").unwrap();
    drop(stdin);
    for line in lines {
        seen.push(line.unwrap());
    }
    assert!(child.wait().unwrap().success());
    let text = seen.join("\n");
    assert!(
        text.contains("match #1: En Prise — alice (White) vs bob (Black) vs carol (Red)"),
        "{text}"
    );
    assert!(
        text.contains("The battleplans are turned face-down"),
        "{text}"
    );
    assert!(text.contains("legal (1): place"), "{text}");
    assert!(
        text.contains("White chooses to place: the next card is a"),
        "{text}"
    );
    // Carol's view after the reveal: White's next card is shown, everything else hidden.
    let carol_view: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("White chooses to place"))
        .filter(|l| l.starts_with("White: plan [") || l.starts_with("Red: plan ["))
        .collect();
    assert_eq!(carol_view.len(), 2, "{text}");
    assert!(
        !carol_view[0].starts_with("White: plan [?"),
        "{carol_view:?}"
    );
    assert!(
        carol_view[1].starts_with("Red: plan [? ? ?"),
        "{carol_view:?}"
    );
}

#[test]
fn en_prise_plays_in_the_console_with_a_picture_per_action() {
    let dir = temp_dir("enprise");
    let pngs = dir.join("out");
    let out = play(
        &[
            "enprise",
            "--players",
            "ann,ben",
            "--seed",
            "2",
            "--out",
            pngs.to_str().unwrap(),
        ],
        "ann: legal\nann: move Z@0,0\nann: move @5,5\nben: move @0,1\nann: move @0,0\n\
         ben: move @0,1\nann: board\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("error: cannot read \"Z@0,0\": \"z\" is not a piece letter"),
        "{text}"
    );
    assert!(
        text.contains("error: 5,5 does not touch the board"),
        "{text}"
    );
    assert!(
        text.contains("error: it is not your turn: waiting for ann"),
        "{text}"
    );
    assert!(text.contains("White places a bishop at 0,0"), "{text}");
    assert!(text.contains("Black places a pawn at 0,1"), "{text}");
    assert!(text.contains("  1 | bP"), "the board as text: {text}");
    assert!(text.contains("  0 | wB"), "the board as text: {text}");
    let written = std::fs::read_dir(&pngs).unwrap().count();
    assert_eq!(
        written, 3,
        "the start and one picture per version (board redraws the current one)"
    );
}

#[test]
fn echek_plays_in_the_console() {
    let out = play(
        &["echek", "--players", "ann,ben", "--seed", "1"],
        "ann: move N@1,1\nann: move N@1,0\nben: move B@1,1 return 1,0\nben: move P@-1,1 to -1,2\nann: view\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("error: 1,1 is beside the black king: no piece may be put above, below, left or right of the opposing king"),
        "{text}"
    );
    assert!(text.contains("White puts a knight on 1,0"), "{text}");
    assert!(
        text.contains(
            "Black puts a bishop on 1,1 and sends the white knight on 1,0 back to its supply"
        ),
        "{text}"
    );
    assert!(
        text.contains("White: supply [Q R B N P], king on 0,0 with"),
        "{text}"
    );
    assert!(text.contains("Black: supply [Q R N P]"), "{text}");
}

#[test]
fn snipe_sets_up_and_plays_in_the_console() {
    // The same seed deals the same forest here and in the console, so the script can be written
    // from the first legal action of each turn.
    let mut rng = GameRng::from_seed(4);
    let mut game = GameKind::Snipe.start(&[], 2, &mut rng).unwrap();
    let mut script = String::from("ann: move K@e5\nben: move K@e10\n");
    let mut played = Vec::new();
    while played.len() < 11 {
        let seat = game.to_act().seats()[0];
        let text = game.legal_actions(seat)[0].clone();
        game.play(seat, &text, &mut rng).unwrap();
        script.push_str(&format!("{}: move {text}\n", ["ann", "ben"][seat.index()]));
        played.push(text);
    }
    script.push_str("ann: view\n");
    let out = play(&["snipe", "--players", "ann,ben", "--seed", "4"], &script);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(
            "error: e5 is not on your home row of cards (ranks 1 and 2): place your pieces there"
        ),
        "{text}"
    );
    assert!(
        text.contains("error: it is not your turn: waiting for ann"),
        "{text}"
    );
    let king = &played[0];
    assert!(king.starts_with("K@"), "{played:?}");
    assert!(
        text.contains(&format!("White places the king on {}", &king[2..])),
        "{text}"
    );
    let first_move = &played[10];
    assert!(
        first_move.contains('-'),
        "the eleventh action moves: {played:?}"
    );
    assert!(text.contains("     a b   c d   e f   g h   i j"), "{text}");
    assert!(text.contains("\n    -----+-----+"), "{text}");
    let deckmate::games::AnyView::Snipe(view) = game.view(deckmate::engine::Viewer::Spectator)
    else {
        panic!("a Snipe view");
    };
    let white = &view.kings[0];
    let line = format!(
        "White king on {}: {} free",
        deckmate::games::snipe::square(white.at),
        white.free
    );
    assert!(text.contains(&line), "{line} in {text}");
    assert!(text.contains("(K P White, k p Black; T tree"), "{text}");
}

#[test]
fn chess_a_tete_shows_a_hand_to_its_owner_only() {
    let mut rng = GameRng::from_seed(3);
    let game = GameKind::Chessatete.start(&[], 2, &mut rng).unwrap();
    let first = game.legal_actions(Seat(0))[0].clone();
    let out = play(
        &["chessatete", "--players", "ann,ben", "--seed", "3"],
        &format!("ann: view\nben: view\nben: move end\nann: move end\nann: move {first}\n"),
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert_eq!(
        text.matches("your hand:").count(),
        2,
        "ann's view shows her hand and ben's his: {text}"
    );
    let after = &text[text.find("White plays").unwrap()..];
    assert!(
        !after.contains("your hand:"),
        "the board shown to everyone after a play holds no hand: {after}"
    );
    assert!(text.contains("White board (7 hit points): King"), "{text}");
    assert!(
        text.contains("error: it is not your turn: waiting for ann"),
        "{text}"
    );
    assert!(
        text.contains("error: play at least one card before ending the turn"),
        "{text}"
    );
    let card = first.strip_prefix("play ").unwrap();
    assert!(text.contains(&format!("White plays {card}")), "{text}");
}

/// The first seed below 500 whose Chess-à-Tête deal (with these options) passes `wanted`, which
/// may play on the game with the deal's random source.
fn chess_a_tete_deal(
    options: &[(String, String)],
    wanted: impl Fn(&mut AnyGame, &mut GameRng) -> bool,
) -> u64 {
    (0..500u64)
        .find(|&seed| {
            let mut rng = GameRng::from_seed(seed);
            let mut game = GameKind::Chessatete.start(options, 2, &mut rng).unwrap();
            wanted(&mut game, &mut rng)
        })
        .expect("some deal fits the test")
}

/// Runs `script` in the console on a Chess-à-Tête match of ann and ben dealt from `seed`.
fn play_chess_a_tete(seed: u64, options: &[(String, String)], script: &str) -> Output {
    let mut args = vec![
        "chessatete".to_string(),
        "--players".into(),
        "ann,ben".into(),
        "--seed".into(),
        seed.to_string(),
    ];
    for (key, value) in options {
        args.push("--option".into());
        args.push(format!("{key}={value}"));
    }
    play(&args.iter().map(String::as_str).collect::<Vec<_>>(), script)
}

#[test]
fn chess_a_tete_spy_shows_the_hand_to_its_player_only() {
    // A deal where White can play Spy at once.
    let seed = chess_a_tete_deal(&[], |game, _| {
        game.legal_actions(Seat(0))
            .contains(&"play Spy".to_string())
    });
    let out = play_chess_a_tete(seed, &[], "ann: move play Spy\n");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("White plays Spy"), "{text}");
    let peek = text
        .lines()
        .find(|l| l.starts_with("(for ann only) Black's hand: "))
        .unwrap_or_else(|| panic!("the peek, marked for ann: {text}"));
    assert_eq!(peek.split(", ").count(), 7, "{peek}");
}

#[test]
fn actions_that_list_cards_are_shown_one_a_line() {
    // Decks of Peasants and Pawn Storms: a deal where White can put two Peasants down and then
    // attack with both.
    let deck = "King, Queen, 14 Pawn Storm, Checkmate, 10 Reinforcements, 16 Peasant, 12 Knight";
    let options = [
        ("white_deck".to_string(), deck.to_string()),
        ("black_deck".to_string(), deck.to_string()),
    ];
    let seed = chess_a_tete_deal(&options, |game, rng| {
        (0..2).all(|_| game.play(Seat(0), "play Peasant", rng).is_ok())
            && game
                .legal_actions(Seat(0))
                .contains(&"attack Pawn Storm with Peasant, Peasant".to_string())
    });
    let out = play_chess_a_tete(
        seed,
        &options,
        "ann: move play Peasant\nann: move play Peasant\nann: legal\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    // Grouped one group a line; in a group of actions that hold commas, "|" separates them.
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("legal ("))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .collect();
    let attack = listed
        .iter()
        .find(|l| l.contains("attack Pawn Storm with Peasant, Peasant"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!attack.contains("play Knight"), "{attack}");
    assert!(listed.iter().any(|l| l.ends_with(": end")), "{listed:?}");
}

/// Runs `deckmate` with `args` (no `play` added) and `input` as raw bytes on standard input.
fn run_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckmate"))
        .args(args)
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_newcomer_plays_bare_moves_with_the_board_after_each() {
    // No arguments, no token: a chess match between white and black at this keyboard.
    let out = run_bytes(&[], b"e4\ne5\nlegal\nhelp\nWHITE: Nf3\nBlack: legal\n");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "match #1: Chess — white (White) vs black (Black)");
    // The board at the start, before anyone moves, then after every action.
    assert_eq!(lines[1], "8 | r n b q k b n r");
    assert_eq!(text.matches("8 | r n b q k b n r").count(), 4, "{text}");
    assert!(
        text.contains("White plays e4\n8 | r n b q k b n r"),
        "{text}"
    );
    assert!(text.contains("Black plays e5"), "{text}");
    assert!(
        text.contains("White plays Nf3"),
        "names are matched in any case: {text}"
    );
    // legal, bare: for white, the one player to act, grouped by piece with counts.
    assert!(text.contains("legal (29):\n"), "{text}");
    for group in [
        "  pawn (14): a3, a4, b3, b4, c3, c4, d3, d4, f3, f4, g3, g4, h3, h4",
        "  knight (5): Nc3, Na3, Nh3, Ne2, Nf3",
        "  king (1): Ke2",
    ] {
        assert!(text.contains(group), "{group} in {text}");
    }
    // help gives chess notation with examples, not just the commands.
    assert!(
        text.contains("Chess actions:\n  moves in algebraic notation"),
        "{text}"
    );
    assert!(text.contains("e4, Nf3, exd5, Bxf7+, O-O"), "{text}");
    assert!(!text.contains("error:"), "{text}");
}

#[test]
fn bare_commands_need_one_player_to_act_and_names_must_be_typeable() {
    // En Prise Memory: everyone must say ready at once, so a bare line must say who.
    let out = play(
        &[
            "enprise",
            "--players",
            "ann,ben",
            "--seed",
            "4",
            "--option",
            "variant=memory",
        ],
        "ready\nAnn: ready\nben: ready\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "error: ann, ben must all act now: say who, as NAME: COMMAND (for example \"ann: ready\")"
        ),
        "{text}"
    );
    assert!(text.contains("to move: ben"), "Ann's ready counted: {text}");
    for (players, why) in [
        (
            "#a,b",
            "\"#a\" cannot be a player name: names cannot contain ':' or start with '#'",
        ),
        (
            "alice,ALICE",
            "\"ALICE\" is named twice; give each player a different name",
        ),
        (
            "a\u{7}b,c",
            "\"a\\u{7}b\" cannot be a player name: it holds a control character",
        ),
        (
            "abcdefghijklmnopqrstuvwxyzabcdefghij,b",
            "\"abcdefghijklmnopqrstuvwxyzabcdefghij\" is too long for a player name (at most 32 characters)",
        ),
    ] {
        let out = play(&["chess", "--players", players], "");
        assert!(!out.status.success(), "{players}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim(), format!("error: {why}"), "{players}");
    }
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_play_goes_on() {
    let out = run_bytes(
        &["play", "chess", "--players", "a,b"],
        b"a: e4\nb: \xff\xfe e5\nb: e5\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("error: that line is not UTF-8 text; nothing was done\nBlack plays e5"),
        "{text}"
    );
}

#[test]
fn pictures_never_overwrite_another_match_and_show_the_end() {
    let dir = temp_dir("pictures");
    let out_dir = dir.join("boards");
    let boards = out_dir.to_str().unwrap();
    let names = || {
        let mut names: Vec<String> = std::fs::read_dir(&out_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    // Two matches kept in memory, one after the other: both are match #1, the second writes
    // its own files.
    for _ in 0..2 {
        let out = play(
            &["chess", "--players", "a,b", "--out", boards],
            "a: e4\nb: resign\n",
        );
        assert!(stdout(&out).contains("result: White won by resignation"));
    }
    let expected: Vec<String> = ["memory-1", "memory-2"]
        .iter()
        .flat_map(|m| (0..3).map(move |v| format!("{m}-{v:04}.png")))
        .collect();
    assert_eq!(names(), expected, "the start, e4, and the resignation");
    // The final picture shows the match over: it differs from the one before it.
    let before = std::fs::read(out_dir.join("memory-2-0001.png")).unwrap();
    let last = std::fs::read(out_dir.join("memory-2-0002.png")).unwrap();
    assert_ne!(before, last);
    // A stored match is named by its database and number.
    let db = dir.join("games.db");
    let out = play(
        &[
            "chess",
            "--players",
            "a,b",
            "--db",
            db.to_str().unwrap(),
            "--out",
            boards,
        ],
        "a: e4\nb: draw offer\na: draw accept\n",
    );
    assert!(
        stdout(&out).contains("result: Draw by agreement"),
        "{}",
        stdout(&out)
    );
    let stored: Vec<String> = names()
        .into_iter()
        .filter(|n| n.starts_with("games-"))
        .collect();
    assert_eq!(
        stored,
        [0, 1, 2, 3].map(|v| format!("games-match-1-{v:04}.png"))
    );
}

/// A script of `game` from `seed` that plays random actions up to one that loses on the spot for
/// its player (as [`AnyGame::warning`] says), and that action with its player's name and the
/// warning; None if no such action comes within 400 actions.
fn script_to_a_losing_action(
    game: GameKind,
    seed: u64,
    names: &[&str],
) -> Option<(Vec<String>, String, String)> {
    let mut rng = GameRng::from_seed(seed);
    let mut chooser = GameRng::from_seed(seed + 1000);
    let mut g = game.start(&[], names.len(), &mut rng).unwrap();
    let mut lines = Vec::new();
    for _ in 0..400 {
        let ToAct::Seats(seats) = g.to_act() else {
            return None;
        };
        let seat = seats[0];
        let name = names[seat.index()];
        // Prefer a losing action when one is offered, so one turns up soon.
        let legal = g.legal_actions(seat);
        if let Some((text, warning)) = legal
            .iter()
            .find_map(|t| g.warning(seat, t).map(|(w, _)| (t.clone(), w)))
        {
            return Some((lines, format!("{name}: {text}"), warning));
        }
        let text = g.random_action(seat, &mut chooser).unwrap();
        g.play(seat, &text, &mut rng).unwrap();
        lines.push(format!("{name}: {text}"));
    }
    None
}

#[test]
fn an_action_that_loses_on_the_spot_is_played_only_when_sent_again() {
    for game in [GameKind::Echek, GameKind::Snipe] {
        let (mut lines, losing, warning) = (1..200)
            .find_map(|seed| {
                script_to_a_losing_action(game, seed, &["ann", "ben"]).map(|s| (seed, s))
            })
            .map(|(seed, (lines, losing, warning))| {
                let mut all = vec![format!("#seed {seed}")];
                all.extend(lines);
                (all, losing, warning)
            })
            .unwrap_or_else(|| panic!("{game}: no losing action in 200 seeds"));
        let seed: String = lines[0].trim_start_matches("#seed ").to_string();
        lines.push(losing.clone());
        lines.push(losing.clone());
        let dir = temp_dir(&format!("losing-{game}"));
        let db = dir.join("games.db");
        let db = db.to_str().unwrap();
        let script = lines.join("\n") + "\n";
        let out = play(
            &[
                game.id(),
                "--players",
                "ann,ben",
                "--seed",
                &seed,
                "--db",
                db,
                "--session",
                "s1",
            ],
            &script,
        );
        let text = stdout(&out);
        assert!(!text.contains("error:"), "{game}: {text}");
        let asked: Vec<&str> = text.lines().filter(|l| l.starts_with("warning:")).collect();
        assert_eq!(asked.len(), 1, "{game}: asked once: {text}");
        assert!(
            asked[0].ends_with(&format!("{warning}; send it again to confirm")),
            "{game}: {}",
            asked[0]
        );
        // The second time it is played, and its player lost.
        let result = text.lines().last().unwrap();
        assert!(result.starts_with("result: "), "{game}: {text}");
        let (mover, other) = if losing.starts_with("ann") {
            ("White", "Black")
        } else {
            ("Black", "White")
        };
        assert!(
            !result.contains(&format!("{mover} won")) && result.contains(other),
            "{game}: {losing} lost for its player: {result}"
        );
        // The script fed again in the same session: the warned line is refused as before, the
        // confirmed one was played before, and nothing changes.
        let plies = Table::new(Store::open(db).unwrap())
            .history(1)
            .unwrap()
            .len();
        let again = play(
            &[game.id(), "--db", db, "--match", "1", "--session", "s1"],
            &script,
        );
        let again = stdout(&again);
        let count = lines.len();
        assert!(
            again.contains(&format!(
                "send it again to confirm (line {} of session s1 was refused before",
                count - 1
            )) && again.contains(&format!("(line {count} of session s1 was played before")),
            "{game}: {again}"
        );
        let table = Table::new(Store::open(db).unwrap());
        assert_eq!(table.history(1).unwrap().len(), plies, "{game}: {again}");
    }
}

#[test]
fn a_script_fed_again_in_the_same_session_changes_nothing() {
    let dir = temp_dir("session");
    let db = dir.join("games.db");
    let db = db.to_str().unwrap();
    let script = "a: e4\nb: e5\nb: draw offer\na: draw decline\na: Nf3\na: d4\n";
    let first = play(
        &["chess", "--players", "a,b", "--db", db, "--session", "s1"],
        script,
    );
    assert!(
        stdout(&first).contains("White plays Nf3"),
        "{}",
        stdout(&first)
    );
    // The same lines again, resuming the match in the same session (a script re-run after a
    // crash): every change was made before, so none is made again.
    let again = play(
        &["chess", "--db", db, "--match", "1", "--session", "s1"],
        script,
    );
    let text = stdout(&again);
    assert!(again.status.success(), "{text}");
    for line in 1..=5 {
        assert!(
            text.contains(&format!(
                "(line {line} of session s1 was played before; nothing changed)"
            )),
            "{text}"
        );
    }
    assert!(!text.contains("plays"), "{text}");
    // Line 6 was refused (b is to move), and is refused again, though it is no longer new.
    let refused: Vec<&str> = text.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(
        refused,
        ["error: it is not your turn: waiting for b \
             (line 6 of session s1 was refused before; nothing changed)"],
        "{text}"
    );
    let table = Table::new(Store::open(db).unwrap());
    assert_eq!(table.history(1).unwrap().len(), 3);
    // Another session makes new requests: this line is read as a move of its own (and refused,
    // since after Nf3 it is b's turn).
    let other = play(
        &["chess", "--db", db, "--match", "1", "--session", "s2"],
        "a: Nc3\n",
    );
    assert!(
        stdout(&other).contains("error: it is not your turn: waiting for b"),
        "{}",
        stdout(&other)
    );
}

/// A chess match between ann and ben with two days a move, fed `script` on the simulated clock.
fn timed_chess(script: &str) -> Output {
    play(
        &[
            "chess",
            "--players",
            "ann,ben",
            "--time",
            "2d",
            "--seed",
            "1",
        ],
        script,
    )
}

#[test]
fn a_timed_match_runs_on_the_simulated_clock_with_reminders_and_a_loss_on_time() {
    let script = "e4\nwait 12h\nwait 30h\nann: give 1d\nwait 2d\nwait 1d\n";
    let out = timed_chess(script);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let expected = [
        "match #1: Chess — ann (White) vs ben (Black)",
        "to move: ann (2 days left)",
        "White plays e4",
        "to move: ben (2 days left)",
        "(12 hours later)",
        // Half of ben's two days gone (also one day before the end), then 80%.
        "reminder: ben, 1 day left in match #1",
        "reminder: ben, 9 hours 36 minutes left in match #1",
        "(1 day 6 hours later)",
        "ann gives ben 1 day more.",
        "to move: ben (1 day 6 hours left)",
        // The reminders still ahead after the gift: a day before the end, and at 80%.
        "reminder: ben, 1 day left in match #1",
        "reminder: ben, 14 hours 24 minutes left in match #1",
        "ben ran out of time.",
        "result: White won on time",
        "(2 days later)",
        "(1 day later)",
    ];
    assert_eq!(lines, expected, "{text}");
    // Without a simulated clock, wait is refused; a bad time control is refused at once.
    let real = play(
        &["chess", "--players", "a,b", "--clock", "real"],
        "wait 1h\n",
    );
    assert!(
        stdout(&real).contains("error: wait moves the simulated clock"),
        "{}",
        stdout(&real)
    );
    let bad = play(&["chess", "--players", "a,b", "--time", "3x"], "");
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("write it like 30s, 90m, 1h30m or 2d3h"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

#[test]
fn with_on_time_claim_the_opponent_claims_the_win() {
    let out = play(
        &[
            "chess",
            "--players",
            "ann,ben",
            "--time",
            "1d",
            "--option",
            "on_time=claim",
        ],
        "wait 1d\nben: claim\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("time up: ann in match #1; ben may claim the win (claim), or wait\n")
            && text
                .ends_with("ann ran out of time; ben claims the win.\nresult: Black won on time\n"),
        "{text}"
    );
}

#[test]
fn players_choose_reminders_and_quiet_hours() {
    let script = "ann: quiet 22-7 +2\nann: quiet 22:30-06:15 UTC-05:30\nann: quiet 25-7\n\
                  ann: reminders off\nben: nudge\nben: nudge\nwait 2d\n";
    let out = timed_chess(script);
    let text = stdout(&out);
    assert!(
        text.contains("ann: quiet from 22:00 to 07:00 in UTC+2:00")
            && text.contains("ann: quiet from 22:30 to 06:15 in UTC-5:30")
            && text.contains("error: cannot read the quiet hours \"25-7\"")
            && text.contains("ann: reminders off")
            && text.contains("nudge: ann, ben is waiting for your move in match #1")
            && text.contains("error: match #1 was nudged just now; nudge again in 12 hours"),
        "{text}"
    );
    // With reminders off, two days pass without one, and then ann's clock runs out.
    assert!(!text.contains("reminder:"), "{text}");
    assert!(
        text.contains("ann ran out of time.\nresult: Black won on time"),
        "{text}"
    );
}

#[test]
fn quiet_hours_take_a_named_time_zone_and_an_unknown_one_is_refused() {
    let script = "ann: quiet 22-7 Europe/Paris\nann: quiet 22-7 europe/pariss\n\
                  ben: quiet 23:30-6 america/new_york\n";
    let text = stdout(&timed_chess(script));
    assert!(
        text.contains("ann: quiet from 22:00 to 07:00 in Europe/Paris\n")
            && text.contains(
                "error: unknown time zone \"europe/pariss\": write a name like Europe/Paris \
                 or America/New_York, or an offset like +2\n"
            )
            && text.contains("ben: quiet from 23:30 to 06:00 in America/New_York\n"),
        "{text}"
    );
}

#[test]
fn wait_reads_every_duration_and_refuses_huge_ones() {
    let script = "wait 30s\nwait 1h30m\nwait 99999999999999999999d\nwait 30\nwait 0h\n\
                  wait 2d3h\n";
    let out = timed_chess(script);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    for line in [
        "(30 seconds later)",
        "(1 hour 30 minutes later)",
        "error: the time \"99999999999999999999d\" is too long: at most 3650 days",
        "error: cannot read the time \"30\": say the unit of 30, like 30m or 30h",
        "error: the time \"0h\" is no time at all",
        "(2 days 3 hours later)",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

#[test]
fn a_clock_at_zero_reads_out_of_time_and_the_console_prints_no_discord_markup() {
    let out = play(
        &[
            "chess",
            "--players",
            "ann,ben",
            "--time",
            "1d",
            "--option",
            "on_time=claim",
        ],
        "wait 1d\nboard\nben: vacation 3\nben: vacation 3\n",
    );
    let text = stdout(&out);
    assert!(text.contains("to move: ann (out of time)\n"), "{text}");
    assert!(
        text.contains("error: you are on vacation already, until ")
            && text.contains(" UTC (in 3 days); end it first to declare another"),
        "{text}"
    );
    for broken in ["<t:", "now left", "no time left", "won by time"] {
        assert!(!text.contains(broken), "{broken}\n{text}");
    }
}

#[test]
fn four_processes_create_matches_and_move_on_one_file_at_once() {
    let dir = temp_dir("four");
    let db = dir.join("shared.db");
    let db = db.to_str().unwrap().to_string();
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d4", "exd4",
    ];
    // All four start on a file that does not exist yet (so they race to create the schema),
    // share one player name (so they race to create that player) and play ten moves each.
    let children: Vec<_> = (0..4)
        .map(|i| {
            let script: String = moves
                .iter()
                .enumerate()
                .map(|(n, m)| {
                    let who = if n % 2 == 0 {
                        "alice".to_string()
                    } else {
                        format!("rival{i}")
                    };
                    format!("{who}: {m}\n")
                })
                .collect();
            let players = format!("alice,rival{i}");
            let mut child = Command::new(env!("CARGO_BIN_EXE_deckmate"))
                .args(["play", "chess", "--players", &players, "--db", &db])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(script.as_bytes())
                .unwrap();
            child
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let text = stdout(&out);
        assert!(
            out.status.success() && !text.contains("error:"),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut table = Table::new(Store::open(&db).unwrap());
    let alice = table.store().local_player("alice").unwrap();
    let ids: Vec<i64> = table
        .store()
        .matches_of(alice.id, false)
        .unwrap()
        .iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(ids.len(), 4, "one alice, in four matches");
    for id in ids {
        let history: Vec<String> = table
            .history(id)
            .unwrap()
            .into_iter()
            .map(|h| h.2)
            .collect();
        assert_eq!(history, moves, "match {id}: every move once, in order");
    }
}

#[test]
fn a_vacation_holds_the_clock_and_a_move_ends_it() {
    let script = "e4\nben: vacation 3\nben: vacation\nwait 1d\nben: e5\nben: vacation\n\
                  ann: vacation 15\nann: vacation end\n";
    let out = timed_chess(script);
    let text = stdout(&out);
    let expected = [
        "match #1: ben is on vacation for 3 days: their clock waits until they are back.",
        // The console's simulated clock starts at the real time: the year is this one.
        "ben: on vacation for 3 days more; 11 of 14 vacation days left in 2",
        "(1 day later)",
        "ben is back from vacation: their clocks run again.",
        "ben: not on vacation; ",
        "error: a vacation lasts whole days, from 1 to 14, not 15",
        "error: you are not on vacation",
    ];
    let mut from = 0;
    for line in expected {
        let at = text[from..]
            .find(line)
            .unwrap_or_else(|| panic!("{line:?} missing, in order, from:\n{text}"));
        from += at + line.len();
    }
    assert!(!text.contains("ran out of time"), "{text}");
}

#[test]
fn an_exported_log_replays_to_the_same_end() {
    let script = "e4\ne5\nBc4\nNc6\nQh5\nNf6\nQxf7#\nexport\n";
    let out = play(&["chess", "--players", "ann,ben", "--seed", "5"], script);
    let text = stdout(&out);
    let log: String = text
        .lines()
        .skip_while(|l| !l.starts_with("# deckmate match"))
        .map(|l| format!("{l}\n"))
        .collect();
    let replay = log
        .lines()
        .find_map(|l| l.strip_prefix("# replay: "))
        .unwrap_or_else(|| panic!("no replay line in:\n{text}"));
    assert_eq!(
        replay,
        "deckmate play chess --players ann,ben --seed 5 < this-file"
    );
    let again = play(&["chess", "--players", "ann,ben", "--seed", "5"], &log);
    let replayed = stdout(&again);
    assert!(
        replayed.contains("result: White won by checkmate"),
        "{replayed}"
    );
    let pgn = play(&["chess", "--players", "ann,ben"], "e4\nexport pgn\n");
    assert!(
        stdout(&pgn).contains("[White \"ann\"]") && stdout(&pgn).contains("1. e4 *"),
        "{}",
        stdout(&pgn)
    );
}

#[test]
fn a_stored_match_is_written_as_an_animated_replay() {
    let dir = temp_dir("replay");
    let db = dir.join("m.db");
    let db = db.to_str().unwrap();
    let script = "a: move f3\nb: move e5\na: move g4\nb: move Qh4#\n";
    assert!(
        play(&["chess", "--players", "a,b", "--db", db], script)
            .status
            .success()
    );
    let gif = dir.join("m.gif");
    let replay = |id: &str| {
        Command::new(env!("CARGO_BIN_EXE_deckmate"))
            .args(["replay", "--db", db, "--match", id, "--out"])
            .arg(&gif)
            .output()
            .unwrap()
    };
    let out = replay("1");
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("Match #1: 5 frames, "), "{said}");
    let bytes = std::fs::read(&gif).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    let out = replay("9");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no match #9"));
}
