//! Worked examples of the Dutch system: tournaments in the TRF16 format, each paired as the
//! reference engine bbpPairings pairs it (tests/fixtures/trf), the reader's refusals (each
//! naming the line at fault), and a fuzz test over damaged copies of the fixtures.

use crate::league::dutch::pair;
use crate::league::trf::{TrfError, read, write_pairs};
use proptest::prelude::*;
use std::path::PathBuf;

fn fixtures() -> Vec<(String, String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trf");
    let mut cases: Vec<(String, String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "trf").then(|| {
                let name = path.file_stem().unwrap().to_string_lossy().to_string();
                let trf = std::fs::read_to_string(&path).unwrap();
                let pairs = std::fs::read_to_string(path.with_extension("pairs")).unwrap();
                (name, trf, pairs)
            })
        })
        .collect();
    cases.sort();
    cases
}

/// A pairings file as a count and a sorted list of lines.
fn normal(pairs: &str) -> (String, Vec<String>) {
    let mut lines: Vec<String> = pairs
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect();
    let count = lines.remove(0);
    lines.sort();
    (count, lines)
}

fn paired(trf: &str) -> String {
    write_pairs(&pair(&read(trf).unwrap()).unwrap())
}

#[test]
fn every_reference_tournament_is_paired_as_the_reference_engine_pairs_it() {
    let cases = fixtures();
    assert_eq!(cases.len(), 12);
    for (name, trf, expected) in cases {
        assert_eq!(normal(&paired(&trf)), normal(&expected), "case {name}");
    }
}

#[test]
fn columns_are_counted_in_characters_so_accented_names_shift_nothing() {
    let (_, trf, expected) = fixtures().into_iter().find(|c| c.0 == "0003").unwrap();
    let accented: String = trf
        .lines()
        .map(|line| match line.starts_with("001") {
            true => {
                let chars: Vec<char> = line.chars().collect();
                let name: String = "Ödön Ürgüç-Åsa Þórsdóttir"
                    .chars()
                    .cycle()
                    .take(33)
                    .collect();
                chars[..14].iter().collect::<String>()
                    + &name
                    + &chars[47..].iter().collect::<String>()
            }
            false => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\r\n");
    assert_ne!(accented.len(), trf.len(), "the names take more bytes");
    assert_eq!(normal(&paired(&accented)), normal(&expected));
}

#[test]
fn the_pairings_file_counts_the_bye_and_lists_it_last() {
    let round = super::Round {
        games: vec![super::Pairing { white: 3, black: 1 }],
        bye: Some(2),
    };
    assert_eq!(write_pairs(&round), "2\n3 1\n2 0\n");
}

/// A player line: start number `n`, `points` in columns 81-84, then one block a round, each
/// as the file writes it after the two blank columns ("   2 w 1", "0000 - U").
fn player(n: u32, points: &str, rounds: &[&str]) -> String {
    let name = format!("Player {n}");
    let mut line = format!("001 {n:>4}      {name:<33} 2000{:28}{points:>4}{n:>5}", "");
    for round in rounds {
        line.push_str("  ");
        line.push_str(round);
    }
    line
}

/// `lines` joined into a file after a header line, ending with `XXR 5`.
fn file(lines: &[String]) -> String {
    format!("012 Test\n{}\nXXR 5\n", lines.join("\n"))
}

/// The reader's refusal of `text`, as the user reads it.
fn refusal(text: &str) -> String {
    read(text).unwrap_err().to_string()
}

/// Two players who met in round 1, player 1 winning with White.
fn two() -> Vec<String> {
    vec![
        player(1, "1.0", &["   2 w 1"]),
        player(2, "0.0", &["   1 b 0"]),
    ]
}

#[test]
fn the_test_files_are_well_formed() {
    let tournament = read(&file(&two())).unwrap();
    assert_eq!(tournament.entrants.len(), 2);
    assert_eq!(tournament.round(), 2);
    assert_eq!(tournament.rounds, 5);
}

#[test]
fn a_line_shifted_by_one_character_is_refused_not_misread() {
    let (_, trf, _) = fixtures().into_iter().find(|c| c.0 == "0002").unwrap();
    let trf = trf.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = trf.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("001    5"))
        .unwrap();
    let shift = |edit: &dyn Fn(&mut Vec<char>)| {
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let mut chars: Vec<char> = edited[at].chars().collect();
        edit(&mut chars);
        edited[at] = chars.into_iter().collect();
        refusal(&edited.join("\n"))
    };
    let right = shift(&|c| c.insert(30, ' '));
    assert_eq!(
        right,
        format!(
            "line {}: column 53 (after the rating) must be blank, found '3': are the columns \
             shifted?",
            at + 1
        )
    );
    let left = shift(&|c| {
        c.remove(30);
    });
    assert!(
        left.starts_with(&format!("line {}: column 48", at + 1)),
        "{left}"
    );
    let rounds_only = shift(&|c| c.insert(89, ' '));
    assert!(
        rounds_only.starts_with(&format!("line {}: round 1: column 96", at + 1)),
        "{rounds_only}"
    );
}

#[test]
fn inserting_or_deleting_any_character_of_a_player_line_is_refused_with_that_line() {
    let (_, trf, _) = fixtures().into_iter().find(|c| c.0 == "0006").unwrap();
    let trf = trf.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = trf.lines().collect();
    for (at, line) in lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("001"))
    {
        let chars: Vec<char> = line.chars().collect();
        let last = chars.iter().rposition(|c| *c != ' ').unwrap();
        for column in 4..=last {
            for inserted in [true, false] {
                let mut edited = chars.clone();
                if inserted {
                    edited.insert(column, ' ');
                } else {
                    edited.remove(column);
                }
                let mut text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                text[at] = edited.into_iter().collect();
                let said = refusal(&text.join("\n"));
                assert!(
                    said.starts_with(&format!("line {}: ", at + 1)),
                    "column {column}, inserted {inserted}: {said}"
                );
            }
        }
    }
}

#[test]
fn a_player_paired_with_himself_is_refused() {
    let lines = vec![player(1, "1.0", &["   1 w 1"]), player(2, "0.0", &[])];
    assert_eq!(
        refusal(&file(&lines)),
        "line 2: round 1: player 1 is paired with himself"
    );
}

#[test]
fn the_two_records_of_a_game_must_agree() {
    let mut colours = two();
    colours[1] = player(2, "0.0", &["   1 w 0"]);
    assert_eq!(
        refusal(&file(&colours)),
        "lines 2 and 3: round 1: the colours disagree: player 1 has '0002 w 1', player 2 has \
         '0001 w 0'"
    );
    let mut results = two();
    results[1] = player(2, "1.0", &["   1 b 1"]);
    assert_eq!(
        refusal(&file(&results)),
        "lines 2 and 3: round 1: the results disagree: player 1 has '0002 w 1', player 2 has \
         '0001 b 1'"
    );
    let mut missing = two();
    missing[1] = player(2, "0.0", &[]);
    assert_eq!(
        refusal(&file(&missing)),
        "lines 2 and 3: round 1: player 1 has opponent 2, but player 2 has no round 1"
    );
    let mut elsewhere = two();
    elsewhere[1] = player(2, "0.0", &["   3 b 0"]);
    elsewhere.push(player(3, "1.0", &["   2 w 1"]));
    assert_eq!(
        refusal(&file(&elsewhere)),
        "lines 2 and 3: round 1: player 1 has opponent 2, but player 2 has opponent 3"
    );
    let forfeit = vec![
        player(1, "1.0", &["   2 b +"]),
        player(2, "0.0", &["   1 w -"]),
    ];
    assert!(
        read(&file(&forfeit)).is_ok(),
        "a forfeit is recorded + and -"
    );
    let mut both_forfeit = forfeit.clone();
    both_forfeit[1] = player(2, "1.0", &["   1 w +"]);
    assert!(refusal(&file(&both_forfeit)).contains("the results disagree"));
}

#[test]
fn colours_and_results_are_the_format_s_codes() {
    let colour = vec![
        player(1, "1.0", &["   2 x 1"]),
        player(2, "0.0", &["   1 b 0"]),
    ];
    assert_eq!(
        refusal(&file(&colour)),
        "line 2: round 1: colour must be w, b or -, found 'x'"
    );
    let upper = vec![
        player(1, "1.0", &["   2 W 1"]),
        player(2, "0.0", &["   1 b 0"]),
    ];
    assert!(refusal(&file(&upper)).contains("colour must be w, b or -, found 'W'"));
    let result = vec![
        player(1, "1.0", &["   2 w ?"]),
        player(2, "0.0", &["   1 b 0"]),
    ];
    assert_eq!(
        refusal(&file(&result)),
        "line 2: round 1: result must be one of 1 = 0 W D L + - U F H Z, found '?'"
    );
    let opponent = vec![
        player(1, "1.0", &["  x2 w 1"]),
        player(2, "0.0", &["   1 b 0"]),
    ];
    assert!(refusal(&file(&opponent)).starts_with("line 2: round 1: the opponent (columns 92-95)"));
}

#[test]
fn byes_have_no_opponent_and_no_colour_and_games_have_both() {
    let cases = [
        (
            "0000 w U",
            "line 2: round 1: a bye has no colour: write 0000 - U",
        ),
        (
            "0000 - 1",
            "line 2: round 1: the result '1' needs an opponent: 0000 (none) goes with a bye, U, \
             F, H or Z",
        ),
        (
            "   2 - 1",
            "line 2: round 1: a game played ('1') needs colour w or b, found '-'",
        ),
    ];
    for (block, said) in cases {
        let lines = vec![player(1, "1.0", &[block]), player(2, "0.0", &["0000 - Z"])];
        assert_eq!(refusal(&file(&lines)), said, "{block}");
    }
    let bye_with_opponent = vec![
        player(1, "1.0", &["   2 - U"]),
        player(2, "0.0", &["   1 - Z"]),
    ];
    assert_eq!(
        refusal(&file(&bye_with_opponent)),
        "line 2: round 1: a bye (U) has no opponent: write 0000 - U, not 2"
    );
}

#[test]
fn a_round_has_one_pairing_allocated_bye_at_most() {
    let lines = vec![
        player(1, "1.0", &["0000 - U"]),
        player(2, "1.0", &["0000 - U"]),
    ];
    assert_eq!(
        refusal(&file(&lines)),
        "lines 2 and 3: round 1: players 1 and 2 both have the pairing-allocated bye (U); a \
         round has one at most"
    );
}

#[test]
fn points_are_a_number_matching_the_results() {
    let mut letters = two();
    letters[0] = player(1, "abcd", &["   2 w 1"]);
    assert_eq!(
        refusal(&file(&letters)),
        "line 2: the points (columns 81-84) must be a number such as 2.5, found 'abcd'"
    );
    let mut wrong = two();
    wrong[1] = player(2, "0.5", &["   1 b 0"]);
    assert_eq!(
        refusal(&file(&wrong)),
        "line 3: the points (columns 81-84) are 0.5, but the results add up to 0.0 (1 for 1 W \
         + U F, ½ for = D H)"
    );
    // Whole points are as precise as the file is: 2½ may be written 2 or 3, not 4.
    let draws = |points: &str| {
        vec![
            player(1, points, &["   2 w =", "0000 - U", "0000 - F"]),
            player(2, "2.0", &["   1 b =", "0000 - H", "   3 w 1"]),
            player(3, "1.0", &["0000 - F", "0000 - Z", "   2 b 0"]),
        ]
    };
    for points in ["2.5", "2", "3", "2.50"] {
        assert!(read(&file(&draws(points))).is_ok(), "{points}");
    }
    assert!(refusal(&file(&draws("4"))).starts_with("line 2: the points"));
    assert!(refusal(&file(&draws("2.0"))).starts_with("line 2: the points"));
    // An announced bye in the round to pair may be counted or not.
    let ahead = |points: &str| {
        let mut lines = two();
        lines[1] = player(2, points, &["   1 b 0", "0000 - H"]);
        file(&lines)
    };
    assert!(read(&ahead("0.0")).is_ok());
    assert!(read(&ahead("0.5")).is_ok());
    assert!(refusal(&ahead("1.0")).starts_with("line 3: the points"));
}

#[test]
fn xxr_is_a_positive_number_above_the_rounds_played_and_xxc_a_known_colour() {
    let with = |extra: &str| format!("{}{extra}\n", file(&two()).replace("XXR 5\n", ""));
    assert_eq!(
        refusal(&with("XXR 0")),
        "line 4: XXR needs the number of rounds, a whole number above 0, found '0'"
    );
    assert_eq!(
        refusal(&with("XXR five")),
        "line 4: XXR needs the number of rounds, a whole number above 0, found 'five'"
    );
    assert_eq!(
        refusal(&with("XXR 1")),
        "line 4: XXR 1: all 1 rounds are played, none is left to pair"
    );
    assert!(refusal(&with("XXR 99999999999")).starts_with("line 4: XXR needs"));
    assert_eq!(
        refusal(&with("XXR 3\nXXR 4")),
        "lines 4 and 5: XXR is given twice"
    );
    let mut three = two();
    three[0] = player(1, "2.5", &["   2 w 1", "   2 b =", "   2 w 1"]);
    three[1] = player(2, "0.5", &["   1 b 0", "   1 w =", "   1 b 0"]);
    let few = format!("{}XXR 2\n", file(&three).replace("XXR 5\n", ""));
    assert_eq!(
        refusal(&few),
        "line 4: XXR 2 is fewer than the 3 rounds already played"
    );
    assert_eq!(
        refusal(&with("XXR 2\nXXC purple")),
        "line 5: XXC takes white1 or black1, found 'purple'"
    );
    assert!(refusal(&with("XXR 2\nXXC rank")).starts_with("line 5: XXC rank"));
    assert_eq!(
        refusal(&with("XXR 2\nXXC white1 black1")),
        "line 5: XXC gives both white1 and black1"
    );
    let black = read(&with("XXR 2\nXXC black1")).unwrap();
    assert_eq!(black.initial, crate::league::dutch::Colour::Black);
}

#[test]
fn start_numbers_are_known_and_given_once_from_1_up() {
    let unknown = vec![player(1, "1.0", &["   7 w 1"]), player(2, "0.0", &[])];
    assert_eq!(
        refusal(&file(&unknown)),
        "line 2: round 1: opponent 7 is not a player (no 001 line has that start number)"
    );
    let twice = vec![player(1, "0.0", &[]), player(1, "0.0", &[])];
    assert_eq!(
        refusal(&file(&twice)),
        "lines 2 and 3: start number 1 is on both"
    );
    let gap = vec![player(1, "0.0", &[]), player(3, "0.0", &[])];
    assert_eq!(
        refusal(&file(&gap)),
        "line 3: start number 3, but no player has start number 2: start numbers run from 1 to \
         the number of players"
    );
    let mut zero = two();
    zero[0] = zero[0].replacen("   1", "   0", 1);
    assert!(refusal(&file(&zero)).starts_with("line 2: the start number (columns 5-8)"));
    assert_eq!(read("012 nobody\n").unwrap_err(), TrfError::NoPlayers);
}

#[test]
fn a_round_cannot_follow_a_blank_one() {
    let lines = vec![
        player(1, "2.0", &["   2 w 1", "        ", "   2 b 1"]),
        player(2, "0.0", &["   1 b 0", "        ", "   1 w 0"]),
    ];
    assert_eq!(
        refusal(&file(&lines)),
        "line 2: round 3: round 2 is blank but a later round is filled: a round not played is \
         written 0000 - Z (or H, F)"
    );
}

#[test]
fn every_field_of_a_player_line_is_checked() {
    let base = two();
    let set = |from: usize, text: &str| {
        let mut chars: Vec<char> = base[0].chars().collect();
        for (i, c) in text.chars().enumerate() {
            chars[from - 1 + i] = c;
        }
        let mut lines = base.clone();
        lines[0] = chars.into_iter().collect();
        refusal(&file(&lines))
    };
    assert!(set(10, "x").starts_with("line 2: the sex (column 10)"));
    assert!(set(11, "1").starts_with("line 2: the title (columns 11-13)"));
    assert!(set(49, "2o00").starts_with("line 2: the rating (columns 49-52)"));
    assert!(set(54, "1").starts_with("line 2: the federation (columns 54-56)"));
    assert!(set(58, "12a").starts_with("line 2: the FIDE number (columns 58-68)"));
    assert!(set(70, "born").starts_with("line 2: the birth date (columns 70-79)"));
    assert!(set(86, "  x").starts_with("line 2: the rank (columns 86-89)"));
    let short = file(&["001    1      Someone".to_string()]);
    assert!(refusal(&short).starts_with("line 2: a player line reaches at least column 84"));
}

#[test]
fn lines_for_features_the_pairing_lacks_are_refused() {
    let with = |extra: &str| format!("{}{extra}\n", file(&two()));
    assert_eq!(
        refusal(&with("XXA    1  1.0")),
        "line 5: XXA lines (accelerations) are not supported"
    );
    assert!(refusal(&with("BBW  3.0")).starts_with("line 5: BBW must be 1.0"));
    assert!(read(&with("BBW  1.0")).is_ok());
}

/// One damage done to a file.
#[derive(Clone, Debug)]
enum Damage {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
    DeleteLine(usize),
    DuplicateLine(usize),
    Huge(usize),
    Bytes(usize, String),
}

fn damage() -> impl Strategy<Value = Damage> {
    let chars = prop::sample::select(vec![
        ' ', '0', '1', '2', '9', '=', '+', '-', 'w', 'b', 'x', 'U', 'H', 'Z', 'F', '\n', '\r',
        '\t', 'é', '\u{0}',
    ]);
    prop_oneof![
        (any::<usize>(), chars.clone()).prop_map(|(at, c)| Damage::Replace(at, c)),
        (any::<usize>(), chars).prop_map(|(at, c)| Damage::Insert(at, c)),
        any::<usize>().prop_map(Damage::Delete),
        any::<usize>().prop_map(Damage::DeleteLine),
        any::<usize>().prop_map(Damage::DuplicateLine),
        any::<usize>().prop_map(Damage::Huge),
        (any::<usize>(), "\\PC{0,12}").prop_map(|(at, s)| Damage::Bytes(at, s)),
    ]
}

fn apply(text: &str, damage: &Damage) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = chars.len().max(1);
    let l = lines.len().max(1);
    match damage {
        Damage::Replace(at, c) => {
            if let Some(slot) = chars.get_mut(at % n) {
                *slot = *c;
            }
        }
        Damage::Insert(at, c) => chars.insert(at % n, *c),
        Damage::Delete(at) => {
            if at % n < chars.len() {
                chars.remove(at % n);
            }
        }
        Damage::Huge(at) => {
            for (i, c) in "99999".chars().enumerate() {
                if let Some(slot) = chars.get_mut((at % n + i).min(n - 1)) {
                    *slot = c;
                }
            }
        }
        Damage::Bytes(at, s) => {
            let at = at % n;
            chars.splice(at..at, s.chars());
        }
        Damage::DeleteLine(i) => {
            if i % l < lines.len() {
                lines.remove(i % l);
            }
            return lines.join("\n");
        }
        Damage::DuplicateLine(i) => {
            if let Some(line) = lines.get(i % l).cloned() {
                lines.insert(i % l, line);
            }
            return lines.join("\n");
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(crate::fuzzing::config(48))]

    /// A damaged reference file is refused with a message naming a line, or read and paired
    /// without a panic, each present player in at most one pair.
    #[test]
    fn fuzz_trf_damaged_files_are_refused_by_line_or_paired(
        which in 0usize..12,
        damages in prop::collection::vec(damage(), 1..4),
    ) {
        let cases = fixtures();
        let (_, trf, _) = &cases[which % cases.len()];
        let text = damages.iter().fold(trf.clone(), |text, d| apply(&text, d));
        match read(&text) {
            Err(TrfError::NoPlayers) => {}
            Err(e) => {
                let said = e.to_string();
                prop_assert!(said.starts_with("line ") || said.starts_with("lines "), "{}", said);
            }
            Ok(tournament) => {
                if let Ok(round) = pair(&tournament) {
                    let mut seen: Vec<u32> = round
                        .games
                        .iter()
                        .flat_map(|g| [g.white, g.black])
                        .chain(round.bye)
                        .collect();
                    let all = seen.len();
                    seen.sort();
                    seen.dedup();
                    prop_assert_eq!(seen.len(), all);
                }
            }
        }
    }
}
