//! The FIDE Dutch Swiss pairing at Swiss scale: round 5 of generated tournaments of 100, 200,
//! 500, 1,000 and 2,000 players. The four rounds before it are made by a greedy Swiss (players
//! sorted by score, each paired with the next one not met), with draws, forfeits, absences
//! and byes, so the input does not depend on the pairing measured. Each size is first timed
//! once and printed; then criterion measures the sizes up to 1,000 (few samples for the large
//! ones). 2,000 players take tens of seconds a pairing, so that size is only timed once.

use criterion::{Criterion, SamplingMode};
use deckmate::league::dutch::{Colour, Entrant, Past, Tournament, pair};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::{Duration, Instant};

const SIZES: [u32; 5] = [100, 200, 500, 1_000, 2_000];

/// Sizes above this are timed once, not sampled by criterion.
const SAMPLED: u32 = 1_000;

/// The colour balance of a player's games (whites less blacks).
fn balance(e: &Entrant) -> i32 {
    e.history
        .iter()
        .map(|p| match p {
            Past::Played {
                colour: Colour::White,
                ..
            } => 1,
            Past::Played { .. } => -1,
            _ => 0,
        })
        .sum()
}

/// A tournament of `n` players after `played` rounds of a greedy Swiss.
fn tournament(seed: u64, n: u32, played: u32) -> Tournament {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut entrants: Vec<Entrant> = (1..=n)
        .map(|number| Entrant {
            number,
            history: Vec::new(),
            present: true,
        })
        .collect();
    for _ in 0..played {
        let score: Vec<u32> = entrants
            .iter()
            .map(|e| e.history.iter().map(|p| p.halves()).sum())
            .collect();
        let mut waiting: Vec<usize> = (0..entrants.len())
            .filter(|_| !rng.random_bool(0.03))
            .collect();
        waiting.sort_by_key(|&i| (std::cmp::Reverse(score[i]), entrants[i].number));
        let mut next: Vec<Option<Past>> = vec![None; entrants.len()];
        while !waiting.is_empty() {
            let a = waiting.remove(0);
            let met = |b: usize| {
                entrants[a].history.iter().any(
                    |p| matches!(p, Past::Played { opponent, .. } if *opponent == entrants[b].number),
                )
            };
            let Some(at) = waiting.iter().position(|&b| !met(b)) else {
                next[a] = Some(Past::Bye { halves: 2 });
                continue;
            };
            let b = waiting.remove(at);
            let (w, bl) = if balance(&entrants[a]) <= balance(&entrants[b]) {
                (a, b)
            } else {
                (b, a)
            };
            let roll = rng.random_range(0..100);
            let (pw, pb) = if roll < 3 {
                (
                    Past::ForfeitWin { halves: 2 },
                    Past::ForfeitLoss { halves: 0 },
                )
            } else {
                let white = [2, 2, 2, 1, 1, 0, 0][roll % 7];
                (
                    Past::Played {
                        opponent: entrants[bl].number,
                        colour: Colour::White,
                        halves: white,
                    },
                    Past::Played {
                        opponent: entrants[w].number,
                        colour: Colour::Black,
                        halves: 2 - white,
                    },
                )
            };
            next[w] = Some(pw);
            next[bl] = Some(pb);
        }
        for (e, past) in entrants.iter_mut().zip(next) {
            e.history.push(past.unwrap_or(Past::Absent { halves: 0 }));
        }
    }
    for e in &mut entrants {
        e.present = !rng.random_bool(0.02);
    }
    Tournament {
        rounds: 9,
        initial: Colour::White,
        entrants,
        lenient_bye: false,
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("dutch_round_5");
    group.sampling_mode(SamplingMode::Flat);
    for n in SIZES {
        let t = tournament(u64::from(n), n, 4);
        let started = Instant::now();
        let round = pair(&t).expect("round 5 pairs");
        println!(
            "{n} players: {} games, paired once in {:?}",
            round.games.len(),
            started.elapsed()
        );
        if n > SAMPLED {
            continue;
        }
        let (samples, time) = if n <= 200 {
            (20, 3)
        } else if n <= 500 {
            (10, 5)
        } else {
            (10, 10)
        };
        group.sample_size(samples);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(time));
        group.bench_function(format!("{n} players"), |b| b.iter(|| pair(black_box(&t))));
    }
    group.finish();
    c.final_summary();
}
