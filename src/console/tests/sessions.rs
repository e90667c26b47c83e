//! Console tests run in process: a simulated clock moves the console's own match only, and
//! keeps its time across runs; a named session recognises a script fed again line by line.

use super::*;
use crate::store::Status;

#[test]
fn a_simulated_wait_decides_no_other_match_on_a_shared_database() {
    let db = temp_db("shared");
    let (mut first, _) = Console::start(&config(&db, "1d", None)).unwrap();
    let (second, _) = Console::start(&config(&db, "1d", None)).unwrap();
    let (first_id, second_id) = (first.match_id(), second.match_id());
    drop(second);
    let lines = run_lines(&mut first, "wait 30h");
    assert!(
        lines.iter().any(|l| l == "result: Black won on time"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains(&format!("#{second_id}"))),
        "{lines:?}"
    );
    let store = Store::open(&db).unwrap();
    assert_eq!(store.load_head(first_id).unwrap().status, Status::Finished);
    let other = store.load_head(second_id).unwrap();
    assert_eq!(
        other.status,
        Status::Active,
        "the other match's clock is its own"
    );
    assert!(!store.deadlines_of(second_id).unwrap().is_empty());
}

#[test]
fn simulated_time_and_fired_reminders_survive_a_resume() {
    let db = temp_db("resume");
    let (mut console, _) = Console::start(&config(&db, "1d", None)).unwrap();
    let id = console.match_id();
    let lines = run_lines(&mut console, "wait 20h");
    let reminders = lines.iter().filter(|l| l.starts_with("reminder:")).count();
    assert!(reminders > 0, "{lines:?}");
    drop(console);
    let (mut console, opening) = Console::start(&config(&db, "1d", Some(id))).unwrap();
    assert_eq!(
        opening.last().unwrap(),
        "to move: ann (4 hours left)",
        "{opening:?}"
    );
    let lines = run_lines(&mut console, "wait 5h");
    assert!(
        !lines.iter().any(|l| l.starts_with("reminder:")),
        "sent once: {lines:?}"
    );
    assert!(
        lines.iter().any(|l| l == "result: Black won on time"),
        "{lines:?}"
    );
}

#[test]
fn a_vacation_on_the_simulated_clock_is_kept_across_a_resume() {
    let db = temp_db("vacation");
    let (mut console, _) = Console::start(&config(&db, "1d", None)).unwrap();
    let id = console.match_id();
    run_lines(&mut console, "ann: vacation 3\nwait 3d\nwait 1h");
    drop(console);
    let (_, opening) = Console::start(&config(&db, "1d", Some(id))).unwrap();
    assert_eq!(
        opening.last().unwrap(),
        "to move: ann (23 hours left)",
        "{opening:?}"
    );
}

#[test]
fn a_named_session_refuses_a_line_that_differs_from_what_its_number_held() {
    let db = temp_db("session");
    let named = |resume| ConsoleConfig {
        session: Some("s1".into()),
        ..config(&db, "none", resume)
    };
    let (mut console, _) = Console::start(&named(None)).unwrap();
    let id = console.match_id();
    run_lines(&mut console, "ann: e4\nben: e5\n");
    drop(console);
    // The script corrected: its first line changed, its second did not.
    let (mut console, _) = Console::start(&named(Some(id))).unwrap();
    let lines = run_lines(&mut console, "ann: d4\nben: e5\nann: Nf3\n");
    assert_eq!(
        lines[0],
        "error: line 1 of session s1 was \"ann: e4\" when the session ran before, not \
         \"ann: d4\"; nothing was done (a changed script needs a new --session)"
    );
    assert_eq!(
        lines[1],
        "(line 2 of session s1 was played before; nothing changed)"
    );
    assert!(lines.contains(&"White plays Nf3".to_string()), "{lines:?}");
    let table = Table::new(Store::open(&db).unwrap());
    let played: Vec<String> = table
        .history(id)
        .unwrap()
        .into_iter()
        .map(|(_, _, t)| t)
        .collect();
    assert_eq!(played, ["e4", "e5", "Nf3"]);
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Words a console line is made of: commands, actions of several games, names, numbers
    /// far out of range, markup and control characters.
    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(vec![
                "move",
                "legal",
                "view",
                "board",
                "resign",
                "draw",
                "offer",
                "accept",
                "decline",
                "history",
                "export",
                "pgn",
                "help",
                "give",
                "reminders",
                "on",
                "off",
                "quiet",
                "nudge",
                "claim",
                "vacation",
                "end",
                "wait",
                "e4",
                "e5",
                "Nf3",
                "O-O",
                "e8=Q",
                "ready",
                "play",
                "Knight",
                "attack",
                "with",
                "ann:",
                "ben:",
                "ANN:",
                "nobody:",
                "#",
                ":",
                "30h",
                "2d3h",
                "0s",
                "-1d",
                "22-7",
                "+2",
                "Europe/Paris",
                "18446744073709551615",
                "99999999999999999999d",
                "1e309",
                "<@&1>",
                "@everyone",
                "**",
                "`",
                "\u{0}",
                "\u{1b}[2J",
                "\u{202e}",
                "é",
                "",
            ])
            .prop_map(str::to_string),
            "[ -~]{0,12}",
            any::<String>().prop_map(|s| s.chars().take(12).collect()),
        ]
    }

    fn line() -> impl Strategy<Value = String> {
        prop::collection::vec(word(), 0..5).prop_map(|words| words.join(" "))
    }

    proptest! {
        #![proptest_config(crate::fuzzing::config(24))]

        /// Any line is answered, never panics, and a refused line changes nothing stored.
        #[test]
        fn fuzz_console_lines_are_answered_and_refusals_change_nothing(
            game in prop::sample::select(GameKind::ALL.to_vec()),
            lines in prop::collection::vec(line(), 1..12),
        ) {
            let db = temp_db(&format!("fuzz-{}", game.id()));
            let players: Vec<String> = ["ann", "ben", "cy", "dee"][..game.seats().0]
                .iter()
                .map(|name| name.to_string())
                .collect();
            let config = ConsoleConfig {
                game,
                players,
                time: TimeControl::parse("1d").unwrap(),
                ..config(&db, "1d", None)
            };
            let (mut console, _) = Console::start(&config).unwrap();
            // A refusal is kept under its request's key by design (a redelivered line is
            // refused alike), so the requests table may grow; nothing else may change.
            let stored = || dump_except(&db, &["requests"]);
            for line in &lines {
                let before = stored();
                let answer = console.line(line);
                for shown in &answer {
                    prop_assert!(
                        !shown.chars().any(|c| c.is_control() && c != '\n'),
                        "{:?} answered with a control character: {:?}", line, shown
                    );
                    prop_assert!(!shown.contains("<t:"), "Discord markup in the console: {:?}", shown);
                }
                let refused = answer.len() == 1 && answer[0].starts_with("error:");
                if refused {
                    prop_assert!(answer[0].len() > "error: ".len());
                    prop_assert_eq!(stored(), before, "{:?} was refused yet changed what is stored", line);
                }
            }
        }
    }
}

mod fuzz_league {
    use super::*;
    use crate::console::league::{LeagueAction, run_league};
    use clap::Parser;
    use proptest::prelude::*;

    /// `deckmate league NAME ...` as the binary reads it.
    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        action: LeagueAction,
    }

    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => prop::sample::select(vec![
                "create", "join", "leave", "unavailable", "substitute", "start", "close",
                "repair", "settings", "record", "pairings", "standings", "--game", "chess",
                "enprise", "snipe", "--format", "swiss", "pods", "round-robin",
                "double-round-robin", "--rounds", "--time", "3d", "10d+1d", "none",
                "--round-days", "--forfeits-to-drop", "--rated", "true", "--scoring", "1,0.5,0",
                "3,1,0", "--tiebreaks", "buchholz,wins", "sonneborn-berger", "--option",
                "variant=casino", "ann", "ben", "cy", "dee", "eve", "director", "0", "1", "2",
                "-1", "18446744073709551615", "4294967296", "1-0", "0-1", "1/2-1/2", "1X-0F",
                "0F-0F", "open", "2-0", "", " ", "@everyone", "<@&1>", "\u{1b}[2J",
            ])
            .prop_map(str::to_string),
            1 => "[ -~]{0,10}",
        ]
    }

    proptest! {
        #![proptest_config(crate::fuzzing::config(12))]

        /// Any league command is carried out or refused with a message, never panics, and a
        /// refused one leaves the database exactly as it was.
        #[test]
        fn fuzz_league_commands_are_carried_out_or_refused_with_nothing_changed(
            commands in prop::collection::vec(prop::collection::vec(word(), 0..6), 1..8),
        ) {
            let db = temp_db("fuzz-league");
            let mut out = Vec::new();
            for setup in [&["create", "--game", "chess"][..], &["join", "ann", "ben", "cy"]] {
                let action = Cli::try_parse_from(std::iter::once("league").chain(setup.iter().copied()))
                    .unwrap()
                    .action;
                run_league(&db, "L", action, &mut out).unwrap();
            }
            for words in &commands {
                let args = std::iter::once("league").chain(words.iter().map(String::as_str));
                let Ok(cli) = Cli::try_parse_from(args) else {
                    continue;
                };
                // A name a command registers (join, the newcomer of substitute) is recorded as
                // a player even when the registration is refused; nothing else may change.
                let stored = || dump_except(&db, &["players", "sqlite_sequence"]);
                let before = stored();
                if let Err(why) = run_league(&db, "L", cli.action, &mut out) {
                    prop_assert!(!why.trim().is_empty());
                    prop_assert!(!why.contains('\u{1b}'), "{:?}", why);
                    prop_assert_eq!(stored(), before, "{:?} was refused ({}) yet changed the database", words, why);
                }
            }
        }
    }
}
