//! The arena: contestants read from text, a run that repeats for its seed, the computer
//! never beaten by random tic-tac-toe, and the summary's statistics.

use super::*;

fn tictactoe(a: &str, b: &str, games: usize) -> ArenaConfig {
    ArenaConfig {
        kind: "tictactoe".parse().unwrap(),
        a: a.parse().unwrap(),
        b: b.parse().unwrap(),
        games,
        seats: 2,
        seed: 4,
        options: vec![],
        movetime: Duration::from_millis(50),
    }
}

#[test]
fn contestants_read_as_random_or_cpu_at_a_level() {
    assert_eq!("random".parse(), Ok(Contestant::Random));
    assert_eq!("cpu".parse(), Ok(Contestant::Computer(Level::Medium)));
    assert_eq!("CPU:hard".parse(), Ok(Contestant::Computer(Level::Hard)));
    assert!(
        "cpu:god"
            .parse::<Contestant>()
            .unwrap_err()
            .contains("easy, medium or hard")
    );
    assert!(
        "human"
            .parse::<Contestant>()
            .unwrap_err()
            .contains("random, cpu")
    );
    assert_eq!(Contestant::Computer(Level::Easy).to_string(), "cpu:easy");
}

#[test]
fn the_computer_is_never_beaten_by_random_tictactoe_and_a_run_repeats() {
    let config = tictactoe("cpu:hard", "random", 16);
    let report = run(&config, |_| {});
    assert_eq!(report.games(), 16);
    assert_eq!(report.losses, 0, "{}", report.report(&config));
    assert!(report.wins >= 10, "{}", report.report(&config));
    let again = run(&config, |_| {});
    assert_eq!(again.scores, report.scores, "the same seed, the same games");
    let text = report.report(&config);
    assert!(
        text.contains("A = cpu:hard, B = random, 16 games"),
        "{text}"
    );
}

#[test]
fn scores_give_an_interval_and_an_elo_difference() {
    let report = ArenaReport {
        wins: 3,
        draws: 2,
        losses: 1,
        scores: vec![1.0, 1.0, 1.0, 0.5, 0.5, 0.0],
        errors: vec![],
        thinking: vec![],
    };
    let (mean, low, high) = report.score();
    assert!((mean - 4.0 / 6.0).abs() < 1e-9);
    assert!(low < mean && mean < high && high <= 1.0);
    let perfect = ArenaReport {
        wins: 10,
        scores: vec![1.0; 10],
        ..ArenaReport::default()
    };
    let (_, low, high) = perfect.score();
    assert!(
        low < 0.8 && high == 1.0,
        "ten wins of ten still leave doubt: {low}"
    );
    assert_eq!(report.decided(), 0.75);
    assert_eq!(elo(0.5), "+0");
    assert_eq!(elo(0.75), "+191");
    assert_eq!(elo(1.0), "+inf");
    assert_eq!(elo(0.0), "-inf");
}

#[test]
fn a_bad_option_is_reported_not_played() {
    let mut config = tictactoe("cpu:easy", "random", 2);
    config.options = vec![("board".into(), "4".into())];
    let report = run(&config, |_| {});
    assert_eq!(report.games(), 0);
    assert_eq!(report.errors.len(), 2, "{:?}", report.errors);
}

#[test]
fn a_team_win_counts_for_each_partner_and_a_shared_first_place_of_all_is_a_draw() {
    use crate::engine::Outcome;
    let places = |p: Vec<Vec<u8>>| Outcome {
        places: p
            .into_iter()
            .map(|place| place.into_iter().map(Seat).collect())
            .collect(),
        reason: "test".into(),
    };
    let alliance = places(vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(score_of(&alliance, Seat(0), 4), 1.0);
    assert_eq!(score_of(&alliance, Seat(2), 4), 1.0);
    assert_eq!(score_of(&alliance, Seat(1), 4), 0.0);
    let everyone = places(vec![vec![0, 1, 2]]);
    assert_eq!(score_of(&everyone, Seat(1), 3), 0.5);
    let two = places(vec![vec![1], vec![0]]);
    assert_eq!(score_of(&two, Seat(1), 2), 1.0);
    assert_eq!(score_of(&two, Seat(0), 2), 0.0);
    assert_eq!(score_of(&places(vec![vec![0, 1]]), Seat(0), 2), 0.5);
}

fn journal_path(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!(
        "deckmate-arena-{}-{name}.journal",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `config` on the journal at `path`, as `deckmate arena --journal` does.
fn run_journaled(config: &ArenaConfig, path: &std::path::Path) -> Result<ArenaReport, String> {
    let (journal, earlier) = Journal::open(path, config)?;
    Ok(run_from(
        config,
        earlier,
        |_| {},
        |game, played| journal.record(game, played),
    ))
}

#[test]
fn a_journaled_run_goes_on_where_it_stopped_and_ends_as_one_run_would() {
    let path = journal_path("resume");
    let whole = run(&tictactoe("cpu:medium", "random", 10), |_| {});
    let first = run_journaled(&tictactoe("cpu:medium", "random", 6), &path).unwrap();
    assert_eq!(first.scores, whole.scores[..6]);
    // Lengthened to 10: the 6 kept games are not played again.
    let games_played = std::sync::atomic::AtomicUsize::new(0);
    let config = tictactoe("cpu:medium", "random", 10);
    let (journal, earlier) = Journal::open(&path, &config).unwrap();
    assert_eq!(earlier.len(), 6);
    let again = run_from(
        &config,
        earlier,
        |_| {},
        |game, played| {
            games_played.fetch_add(1, Ordering::SeqCst);
            journal.record(game, played)
        },
    );
    assert_eq!(games_played.load(Ordering::SeqCst), 4);
    assert_eq!(again.scores, whole.scores);
    assert_eq!(
        again.thinking.len(),
        whole.thinking.len(),
        "every move's time is kept"
    );
    // While a run holds the journal, no other may use it.
    let err = Journal::open(&path, &config).err().unwrap();
    assert!(err.contains("still running"), "{err}");
    drop(journal);
    // Run once more: nothing is left to play.
    let (_, earlier) = Journal::open(&path, &config).unwrap();
    assert_eq!(earlier.len(), 10);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().count(),
        11,
        "a header and one line a game: {text}"
    );
    // Shortened to 4, it takes games 0 to 3 and keeps the others in the file.
    let (_, earlier) = Journal::open(&path, &tictactoe("cpu:medium", "random", 4)).unwrap();
    let mut games: Vec<usize> = earlier.iter().map(|(game, _)| *game).collect();
    games.sort_unstable();
    assert_eq!(games, [0, 1, 2, 3]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_journal_drops_a_line_cut_short_and_refuses_another_arena_or_a_damaged_line() {
    use std::io::Write;
    let path = journal_path("damaged");
    let config = tictactoe("cpu:easy", "random", 4);
    run_journaled(&config, &path).unwrap();
    let complete = std::fs::read_to_string(&path).unwrap();
    // A stop in the middle of a write leaves half a line: it is cut off and its game played
    // again.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(b"game 7 sco").unwrap();
    drop(file);
    let longer = tictactoe("cpu:easy", "random", 8);
    let (journal, earlier) = Journal::open(&path, &longer).unwrap();
    assert_eq!(earlier.len(), 4);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), complete);
    journal.record(7, &(Ok(1.0), vec![3, 4])).unwrap();
    // A game that could not be played is not written.
    let kept = std::fs::read_to_string(&path).unwrap();
    journal.record(6, &(Err("no".into()), vec![])).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), kept);
    drop(journal);
    let (_, earlier) = Journal::open(&path, &longer).unwrap();
    assert!(
        earlier
            .iter()
            .any(|(game, played)| *game == 7 && played.1 == [3, 4])
    );
    // Another arena's journal is refused, and left as it was.
    for other in [
        tictactoe("cpu:hard", "random", 8),
        ArenaConfig {
            seed: 5,
            ..longer.clone()
        },
        ArenaConfig {
            options: vec![("board".into(), "4".into())],
            ..longer.clone()
        },
    ] {
        let err = Journal::open(&path, &other).err().unwrap();
        assert!(err.contains("journal of another arena"), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), kept);
    // A damaged line is an error, not a lost game, whether or not it is the last, as long as
    // it was written whole.
    for damaged in [
        kept.replacen("game 1 score", "game 1 scare", 1),
        format!("{kept}game 5 score 2 thinking 1\n"),
        kept.replace('\n', "\r\n"),
    ] {
        std::fs::write(&path, &damaged).unwrap();
        let err = Journal::open(&path, &longer).err().unwrap();
        assert!(
            err.contains("not a game's result") || err.contains("another arena"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);
    }
    // A header cut short begins the journal again.
    let header = kept.lines().next().unwrap();
    std::fs::write(&path, &header[..20]).unwrap();
    let (_, earlier) = Journal::open(&path, &longer).unwrap();
    assert!(earlier.is_empty());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{header}\n")
    );
    let _ = std::fs::remove_file(&path);
}
