//! Worked examples of the Dutch system: tournaments in the TRF16 format, each paired as the
//! reference engine bbpPairings pairs it (tests/fixtures/trf), and the reader's refusals.

use super::dutch::pair;
use super::trf::{TrfError, read, write_pairs};
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

#[test]
fn a_damaged_file_is_refused_with_its_line() {
    let line = |n: u32, rest: &str| format!("001 {n:>4}{:83}{rest}", "");
    let missing = format!("XXR 5\n{}\n", line(1, "   7 w 1"));
    assert_eq!(
        read(&missing).unwrap_err(),
        TrfError::UnknownOpponent {
            player: 1,
            round: 1,
            opponent: 7
        }
    );
    let twice = format!("{}\n{}\n", line(1, ""), line(1, ""));
    assert_eq!(read(&twice).unwrap_err(), TrfError::Duplicate(1));
    let bad = format!("{}\n{}\n", line(1, "   2 w ?"), line(2, "   1 b 0"));
    assert_eq!(
        read(&bad).unwrap_err().to_string(),
        "line 1: round 1: unknown result '?'"
    );
    assert_eq!(read("012 nobody\n").unwrap_err(), TrfError::NoPlayers);
    assert_eq!(
        read("XXR five\n").unwrap_err().to_string(),
        "line 1: XXR needs a number of rounds, not \"five\""
    );
}
