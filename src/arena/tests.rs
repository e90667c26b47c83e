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
