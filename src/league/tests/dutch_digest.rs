//! The Dutch pairings of hundreds of generated Swiss tournaments, held fixed: each case's
//! pairing (or refusal) is hashed and compared with the digest recorded in
//! `tests/fixtures/dutch/digests.txt`, so a change to the pairing code that changes any of
//! these pairings fails here, naming the cases.
//!
//! The tournaments are made without the pairing under test (a greedy Swiss: players sorted
//! by score and paired with the next one they have not met), with draws, forfeits, absences
//! and byes, from 1 to 9 rounds played, and the next round is paired: sizes 4 to 120, plus a
//! few of 200 to 300 players. The fixture was written by the pairing code as it stood before
//! it was made faster; to write it again (only for a deliberate change of the pairings):
//! `DUTCH_DIGEST_WRITE=1 <test binary> league::tests::dutch_digest::record --ignored`.

use super::Number;
use crate::league::dutch::{Colour, Entrant, Past, Tournament, pair};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

/// A tournament of `n` players with `played` rounds played, made by a greedy Swiss.
pub(super) fn generated(seed: u64, n: u32, played: u32) -> Tournament {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut entrants: Vec<Entrant> = (1..=n)
        .map(|number| Entrant {
            number,
            history: Vec::new(),
            present: true,
        })
        .collect();
    for _ in 0..played {
        let score = |e: &Entrant| e.history.iter().map(|p| p.halves()).sum::<u32>();
        let mut order: Vec<usize> = (0..entrants.len())
            .filter(|_| !rng.random_bool(0.04))
            .collect();
        // By score, then a little disorder among equals.
        let keys: Vec<(u32, u32)> = entrants
            .iter()
            .map(|e| (score(e), rng.random_range(0..4) * 1000 + e.number))
            .collect();
        order.sort_by(|&a, &b| keys[b].0.cmp(&keys[a].0).then(keys[a].1.cmp(&keys[b].1)));
        let mut next: Vec<Option<Past>> = vec![None; entrants.len()];
        let mut waiting: Vec<usize> = order;
        while let Some(a) = (!waiting.is_empty()).then(|| waiting.remove(0)) {
            let met = |x: usize, y: usize| {
                entrants[x].history.iter().any(|p| {
                    matches!(p, Past::Played { opponent, .. } if *opponent == entrants[y].number)
                })
            };
            let Some(at) = waiting.iter().position(|&b| !met(a, b)) else {
                let had_bye = entrants[a]
                    .history
                    .iter()
                    .any(|p| matches!(p, Past::Bye { .. }));
                next[a] = Some(if had_bye {
                    Past::Absent { halves: 0 }
                } else {
                    Past::Bye { halves: 2 }
                });
                continue;
            };
            let b = waiting.remove(at);
            let whites = |x: usize| {
                entrants[x]
                    .history
                    .iter()
                    .map(|p| match p {
                        Past::Played { colour, .. } => {
                            if *colour == Colour::White {
                                1
                            } else {
                                -1
                            }
                        }
                        _ => 0,
                    })
                    .sum::<i32>()
            };
            let (w, bl) = match whites(a).cmp(&whites(b)) {
                std::cmp::Ordering::Less => (a, b),
                std::cmp::Ordering::Greater => (b, a),
                std::cmp::Ordering::Equal if rng.random_bool(0.5) => (a, b),
                std::cmp::Ordering::Equal => (b, a),
            };
            let roll = rng.random_range(0..100);
            let (pw, pb) = match roll {
                0..2 => (
                    Past::ForfeitWin { halves: 2 },
                    Past::ForfeitLoss { halves: 0 },
                ),
                2..4 => (
                    Past::ForfeitLoss { halves: 0 },
                    Past::ForfeitWin { halves: 2 },
                ),
                _ => {
                    let white = [2, 2, 2, 1, 1, 0, 0][roll % 7];
                    let played = |opponent, colour, halves| Past::Played {
                        opponent,
                        colour,
                        halves,
                    };
                    (
                        played(entrants[bl].number, Colour::White, white),
                        played(entrants[w].number, Colour::Black, 2 - white),
                    )
                }
            };
            next[w] = Some(pw);
            next[bl] = Some(pb);
        }
        for (e, past) in entrants.iter_mut().zip(next) {
            let absent = Past::Absent {
                halves: rng.random_range(0..=1),
            };
            e.history.push(past.unwrap_or(absent));
        }
    }
    for e in &mut entrants {
        e.present = !rng.random_bool(0.05);
    }
    Tournament {
        rounds: played + rng.random_range(1..=3),
        initial: if rng.random_bool(0.5) {
            Colour::White
        } else {
            Colour::Black
        },
        entrants,
        lenient_bye: rng.random_bool(0.1),
    }
}

/// The cases: (seed, players, rounds played).
fn cases() -> Vec<(u64, u32, u32)> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut cases: Vec<(u64, u32, u32)> = (0..700)
        .map(|seed| (seed, rng.random_range(4..=120), rng.random_range(1..=9)))
        .collect();
    for seed in 1000..1008 {
        cases.push((seed, rng.random_range(200..=300), rng.random_range(1..=9)));
    }
    cases
}

/// The pairing's result as text: games and bye sorted, or the error.
fn outcome(t: &Tournament) -> String {
    match pair(t) {
        Ok(round) => {
            let mut games: Vec<(Number, Number)> =
                round.games.iter().map(|g| (g.white, g.black)).collect();
            games.sort_unstable();
            format!("{games:?} bye {:?}", round.bye)
        }
        Err(e) => format!("error: {e}"),
    }
}

/// FNV-1a, 64 bits.
fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dutch/digests.txt")
}

fn line(seed: u64, n: u32, played: u32) -> String {
    let t = generated(seed, n, played);
    format!("{seed} {n} {played} {:016x}", digest(&outcome(&t)))
}

#[test]
fn generated_tournaments_are_paired_as_recorded() {
    let text = std::fs::read_to_string(fixture()).unwrap();
    let recorded: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let cases = cases();
    assert_eq!(recorded.len(), cases.len());
    let differ: Vec<String> = cases
        .iter()
        .zip(&recorded)
        .filter_map(|(&(seed, n, played), want)| {
            let got = line(seed, n, played);
            (got != *want).then(|| format!("got {got}, recorded {want}"))
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{} cases differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn the_generated_tournaments_pair_and_vary() {
    // The fixture must test something: most cases pair, some refuse, byes and odd sizes occur.
    let outcomes: Vec<String> = cases()
        .iter()
        .filter(|c| c.1 <= 40)
        .map(|&(seed, n, played)| outcome(&generated(seed, n, played)))
        .collect();
    let paired = outcomes.iter().filter(|o| !o.starts_with("error")).count();
    assert!(
        paired * 4 > outcomes.len() * 3,
        "{paired} of {}",
        outcomes.len()
    );
    assert!(paired < outcomes.len(), "some rounds cannot be paired");
    assert!(outcomes.iter().any(|o| o.ends_with("bye None")));
    assert!(outcomes.iter().any(|o| o.contains("bye Some")));
}

#[test]
#[ignore = "writes the fixture; run only to record a deliberate change of the pairings"]
fn record() {
    if std::env::var("DUTCH_DIGEST_WRITE").is_err() {
        return;
    }
    let mut text = String::from(
        "# seed players rounds-played digest of the next round's pairing (league/tests/dutch_digest.rs)\n",
    );
    for (seed, n, played) in cases() {
        text += &line(seed, n, played);
        text.push('\n');
    }
    std::fs::create_dir_all(fixture().parent().unwrap()).unwrap();
    std::fs::write(fixture(), text).unwrap();
}

#[test]
#[ignore = "prints digests of more cases, to compare two versions of the pairing by hand"]
fn print_many() {
    let Ok(range) = std::env::var("DUTCH_DIGEST_RANGE") else {
        return;
    };
    let v: Vec<u64> = range.split(',').map(|x| x.parse().unwrap()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(v[0]);
    for seed in v[0]..v[1] {
        let n = rng.random_range(v[2] as u32..=v[3] as u32);
        let played = rng.random_range(1..=9);
        println!("{}", line(seed, n, played));
    }
}
