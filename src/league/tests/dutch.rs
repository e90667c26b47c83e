//! The Dutch system on thousands of generated tournaments: every round is checked for the
//! absolute criteria (no rematch, the bye at most once and never after a forfeit win, no
//! colour run of three or difference above two outside the topscorers' last round) and, in
//! tournaments small enough to try every pairing, for score groups respected: the bye goes to
//! a player of the lowest score that allows a complete pairing, and then no pairing moves
//! fewer players out of the top score group. (Lower groups are not compared: the Dutch rules
//! weigh score differences in each bracket before the next bracket's floaters, so a lower
//! group may lose players a count-only comparison would keep.)

use crate::league::dutch::{Colour, Entrant, Past, Tournament, pair};
use crate::league::{Number, Round};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn halves(e: &Entrant) -> u32 {
    e.history.iter().map(|p| p.halves()).sum()
}

fn colours(e: &Entrant) -> Vec<Colour> {
    e.history
        .iter()
        .filter_map(|p| match p {
            Past::Played { colour, .. } => Some(*colour),
            _ => None,
        })
        .collect()
}

fn met(e: &Entrant, other: Number) -> bool {
    e.history
        .iter()
        .any(|p| matches!(p, Past::Played { opponent, .. } if *opponent == other))
}

fn bye_ok(e: &Entrant) -> bool {
    !e.history
        .iter()
        .any(|p| matches!(p, Past::Bye { .. } | Past::ForfeitWin { .. }))
}

/// The colour a player must have (an absolute preference), if any.
fn must_have(e: &Entrant) -> Option<Colour> {
    let c = colours(e);
    let diff: i32 = c
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum();
    let n = c.len();
    if diff > 1 {
        Some(Colour::Black)
    } else if diff < -1 {
        Some(Colour::White)
    } else if n >= 2 && c[n - 1] == c[n - 2] {
        Some(c[n - 1].other())
    } else {
        None
    }
}

fn topscorer(t: &Tournament, e: &Entrant) -> bool {
    t.round() == t.rounds && halves(e) > t.round() - 1
}

/// Checks one round's pairing against the absolute criteria.
fn check_round(t: &Tournament, round: &Round) {
    let entrant = |n: Number| t.entrants.iter().find(|e| e.number == n).unwrap();
    let present: Vec<Number> = t
        .entrants
        .iter()
        .filter(|e| e.present)
        .map(|e| e.number)
        .collect();
    let mut seen: Vec<Number> = round
        .games
        .iter()
        .flat_map(|g| [g.white, g.black])
        .chain(round.bye)
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, present, "everyone present is paired once: {round:?}");
    assert_eq!(round.bye.is_some(), present.len() % 2 == 1);
    if let Some(bye) = round.bye {
        assert!(
            bye_ok(entrant(bye)),
            "player {bye} had a bye or forfeit win: {t:?}"
        );
    }
    for g in &round.games {
        let (w, b) = (entrant(g.white), entrant(g.black));
        assert!(!met(w, g.black), "rematch {g:?} in {t:?}");
        if topscorer(t, w) || topscorer(t, b) {
            continue;
        }
        for (e, c) in [(w, Colour::White), (b, Colour::Black)] {
            let mut after = colours(e);
            after.push(c);
            let diff: i32 = after
                .iter()
                .map(|c| if *c == Colour::White { 1 } else { -1 })
                .sum();
            let n = after.len();
            let run = n >= 3 && after[n - 3..].iter().all(|x| *x == c);
            assert!(
                diff.abs() <= 2 && !run,
                "player {} colours {after:?}: {t:?}",
                e.number
            );
        }
    }
}

/// Players moved out of their score group, from the top score down: for each score, how many
/// players at or above it meet someone below it or take the bye.
fn crossings(t: &Tournament, pairs: &[(Number, Number)], bye: Option<Number>) -> Vec<u32> {
    let score = |n: Number| halves(t.entrants.iter().find(|e| e.number == n).unwrap());
    let mut scores: Vec<u32> = t
        .entrants
        .iter()
        .filter(|e| e.present)
        .map(halves)
        .collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    scores.dedup();
    scores
        .iter()
        .map(|&s| {
            let across = pairs
                .iter()
                .filter(|(a, b)| (score(*a) >= s) != (score(*b) >= s))
                .count();
            across as u32 + u32::from(bye.is_some_and(|b| score(b) >= s))
        })
        .collect()
}

/// What the exhaustive search does with each complete pairing and its bye.
type Visit<'v> = dyn FnMut(&[(Number, Number)], Option<Number>) + 'v;

/// A pairing's bye score, then the players moved out of the top group: smaller is better.
type Quality = (u32, u32);

fn quality(t: &Tournament, pairs: &[(Number, Number)], bye: Option<Number>) -> Quality {
    let score = |n: Number| halves(t.entrants.iter().find(|e| e.number == n).unwrap());
    let top = crossings(t, pairs, bye).first().copied().unwrap_or(0);
    (bye.map_or(0, score), top)
}

/// The best quality of any pairing that meets the absolute criteria.
fn best_quality(t: &Tournament) -> Option<Quality> {
    let players: Vec<&Entrant> = t.entrants.iter().filter(|e| e.present).collect();
    let allowed = |a: &Entrant, b: &Entrant| {
        let exempt = topscorer(t, a) || topscorer(t, b);
        !met(a, b.number) && (exempt || must_have(a).is_none() || must_have(a) != must_have(b))
    };
    let mut best: Option<Quality> = None;
    let mut pairs = Vec::new();
    fn walk<'a>(
        left: &[&'a Entrant],
        bye: Option<Number>,
        pairs: &mut Vec<(Number, Number)>,
        allowed: &dyn Fn(&Entrant, &Entrant) -> bool,
        done: &mut Visit,
    ) {
        let Some((first, rest)) = left.split_first() else {
            done(pairs, bye);
            return;
        };
        if rest.len() % 2 == 0 && bye.is_none() && bye_ok(first) {
            walk(rest, Some(first.number), pairs, allowed, done);
        }
        for (i, other) in rest.iter().enumerate() {
            if allowed(first, other) {
                let mut others = rest.to_vec();
                others.remove(i);
                pairs.push((first.number, other.number));
                walk(&others, bye, pairs, allowed, done);
                pairs.pop();
            }
        }
    }
    walk(&players, None, &mut pairs, &allowed, &mut |pairs, bye| {
        let c = quality(t, pairs, bye);
        if best.as_ref().is_none_or(|b| c < *b) {
            best = Some(c);
        }
    });
    best
}

/// Plays out `rounds` rounds of an `n`-player tournament with random results, absences and
/// forfeits, checking each pairing; `exhaustive` also compares score groups with every other
/// pairing.
fn tournament(rng: &mut ChaCha8Rng, n: u32, rounds: u32, exhaustive: bool) {
    let mut t = Tournament {
        rounds,
        initial: if rng.random_bool(0.5) {
            Colour::White
        } else {
            Colour::Black
        },
        lenient_bye: false,
        entrants: (1..=n)
            .map(|number| Entrant {
                number,
                history: vec![],
                present: true,
            })
            .collect(),
    };
    for _ in 0..rounds {
        for e in &mut t.entrants {
            e.present = !rng.random_bool(0.06);
        }
        let round = match pair(&t) {
            Ok(round) => round,
            // Late rounds of tiny tournaments can run out of opponents; then every pairing
            // must be impossible.
            Err(_) => {
                assert_eq!(best_quality(&t), None, "a pairing exists for {t:?}");
                return;
            }
        };
        check_round(&t, &round);
        if exhaustive {
            let pairs: Vec<(Number, Number)> =
                round.games.iter().map(|g| (g.white, g.black)).collect();
            let ours = quality(&t, &pairs, round.bye);
            assert_eq!(Some(ours), best_quality(&t), "{t:?} paired {round:?}");
        }
        let mut next: Vec<(Number, Past)> = Vec::new();
        for g in &round.games {
            let roll = rng.random_range(0..100);
            let (w, b) = match roll {
                0..3 => (
                    Past::ForfeitWin { halves: 2 },
                    Past::ForfeitLoss { halves: 0 },
                ),
                3..5 => (
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
                        played(g.black, Colour::White, white),
                        played(g.white, Colour::Black, 2 - white),
                    )
                }
            };
            next.push((g.white, w));
            next.push((g.black, b));
        }
        if let Some(bye) = round.bye {
            next.push((bye, Past::Bye { halves: 2 }));
        }
        for e in &mut t.entrants {
            let past = next
                .iter()
                .find(|(n, _)| *n == e.number)
                .map_or(Past::Absent { halves: 1 }, |(_, p)| *p);
            e.history.push(past);
        }
    }
}

#[test]
fn small_tournaments_respect_score_groups_and_the_absolute_criteria() {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    for _ in 0..1500 {
        let n = rng.random_range(3..=9);
        let rounds = rng.random_range(3..=7);
        tournament(&mut rng, n, rounds, true);
    }
}

#[test]
fn larger_tournaments_meet_the_absolute_criteria_every_round() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for _ in 0..600 {
        let n = rng.random_range(10..=40);
        let rounds = rng.random_range(5..=11);
        tournament(&mut rng, n, rounds, false);
    }
}

#[test]
fn when_forfeit_wins_leave_no_one_the_bye_the_lenient_rule_still_pairs() {
    let (win, loss, away) = (
        Past::ForfeitWin { halves: 2 },
        Past::ForfeitLoss { halves: 0 },
        Past::Absent { halves: 0 },
    );
    let entrant = |number, history: Vec<Past>| Entrant {
        number,
        history,
        present: true,
    };
    let mut t = Tournament {
        rounds: 5,
        initial: Colour::White,
        entrants: vec![
            entrant(1, vec![win, loss, away]),
            entrant(2, vec![loss, away, win]),
            entrant(3, vec![away, win, loss]),
        ],
        lenient_bye: false,
    };
    assert_eq!(
        pair(&t).unwrap_err().to_string(),
        "round 4 cannot be paired: the players left have all met, or none of them may take the bye"
    );
    t.lenient_bye = true;
    let round = pair(&t).unwrap();
    assert_eq!((round.games.len(), round.bye.is_some()), (1, true));
}
