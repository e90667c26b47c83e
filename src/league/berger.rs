//! Round robins by the FIDE Berger tables (Handbook C.05, Annex 1): every player meets every
//! other once (twice in a double round robin, colours reversed in the second cycle).
//!
//! For an even `n`, player `n` stays put and the others turn around it. In round `r` (from 1)
//! player `n` meets the player `p` with `2p ≡ r + 1 (mod n − 1)`, with White in even rounds and
//! Black in odd ones; the other boards pair `p + k` with `p − k` (counted round 1..n−1), the
//! player `i` of a pair `{i, j}` having White when `(j − i) mod (n − 1)` is odd. This gives the
//! handbook's tables board for board. An odd number of players uses the table of the next even
//! number, whose highest number is the bye. In a double round robin the first cycle's last two
//! rounds change places, as the handbook recommends.

use super::{Number, Pairing, Round};

/// The rounds of a round robin of `players` (at least 2), `cycles` times over (1: single, 2:
/// double).
pub fn rounds(players: Number, cycles: u32) -> Vec<Round> {
    assert!(players >= 2, "a round robin needs two players");
    let n = players + players % 2;
    let m = n - 1;
    // 1..=m, wrapping.
    let wrap = |x: i64| -> Number { (x - 1).rem_euclid(i64::from(m)) as Number + 1 };
    let mut single = Vec::new();
    for r in 1..=m {
        let p = (1..=m)
            .find(|&p| (2 * p) % m == (r + 1) % m)
            .expect("m is odd, so 2 has an inverse");
        let fixed = match r % 2 {
            0 => Pairing { white: n, black: p },
            _ => Pairing { white: p, black: n },
        };
        let mut games = vec![fixed];
        for k in 1..n / 2 {
            let (a, b) = (wrap(i64::from(p + k)), wrap(i64::from(p) - i64::from(k)));
            let a_white = (i64::from(b) - i64::from(a)).rem_euclid(i64::from(m)) % 2 == 1;
            games.push(match a_white {
                true => Pairing { white: a, black: b },
                false => Pairing { white: b, black: a },
            });
        }
        single.push(games);
    }
    let mut all = Vec::new();
    for cycle in 0..cycles {
        let mut order = single.clone();
        // The handbook's advice for a double round robin: the first cycle's last two rounds
        // change places, so nobody plays three games running with one colour at the turn.
        if cycles > 1 && cycle == 0 && order.len() >= 2 {
            let last = order.len() - 1;
            order.swap(last - 1, last);
        }
        for games in &order {
            let mut round = Round::default();
            for g in games {
                let g = match cycle % 2 {
                    0 => *g,
                    _ => Pairing {
                        white: g.black,
                        black: g.white,
                    },
                };
                if g.white > players {
                    round.bye = Some(g.black);
                } else if g.black > players {
                    round.bye = Some(g.white);
                } else {
                    round.games.push(g);
                }
            }
            all.push(round);
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A round written as the handbook writes it, for `n` (even) players: "1-6 2-5 3-4". The
    /// bye's game against the phantom `n` comes where the table has it: first.
    fn written(round: &Round, n: Number) -> String {
        let mut games: Vec<String> = round
            .games
            .iter()
            .map(|g| format!("{}-{}", g.white, g.black))
            .collect();
        if let Some(bye) = round.bye {
            games.insert(0, format!("{bye}/{n}"));
        }
        games.join(" ")
    }

    #[test]
    fn tables_for_3_to_16_players_are_the_handbooks() {
        let text = include_str!("berger_tables.txt");
        let mut tables: Vec<(Number, Vec<String>)> = Vec::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            if let Some(n) = line.strip_prefix("N=") {
                tables.push((n.parse().unwrap(), vec![]));
            } else if let Some((_, games)) = line.split_once(": ") {
                tables.last_mut().unwrap().1.push(games.to_string());
            }
        }
        let sizes: Vec<Number> = tables.iter().map(|t| t.0).collect();
        assert_eq!(sizes, [4, 6, 8, 10, 12, 14, 16]);
        for (n, table) in &tables {
            let ours: Vec<String> = rounds(*n, 1).iter().map(|r| written(r, *n)).collect();
            assert_eq!(&ours, table, "{n} players");
            // One fewer: the same table, the opponent of n having the bye.
            let theirs: Vec<String> = table
                .iter()
                .map(|round| {
                    let mut games: Vec<&str> = round.split(' ').collect();
                    let bye = games.remove(0);
                    let other = bye.split('-').find(|p| *p != n.to_string()).unwrap();
                    games.insert(0, other);
                    games.join(" ").replacen(other, &format!("{other}/{n}"), 1)
                })
                .collect();
            let ours: Vec<String> = rounds(n - 1, 1).iter().map(|r| written(r, *n)).collect();
            assert_eq!(ours, theirs, "{} players", n - 1);
        }
    }

    #[test]
    fn every_pair_meets_once_per_cycle_with_colours_balanced() {
        for players in 2..=16 {
            for cycles in 1..=2 {
                let rounds = rounds(players, cycles);
                let n = players + players % 2;
                assert_eq!(rounds.len() as u32, (n - 1) * cycles);
                let mut met = HashSet::new();
                let mut whites = vec![0i32; players as usize + 1];
                let mut byes = vec![0u32; players as usize + 1];
                for round in &rounds {
                    let mut seen = HashSet::new();
                    for g in &round.games {
                        assert!(seen.insert(g.white) && seen.insert(g.black));
                        met.insert((g.white, g.black));
                        whites[g.white as usize] += 1;
                        whites[g.black as usize] -= 1;
                    }
                    if let Some(bye) = round.bye {
                        assert!(seen.insert(bye));
                        byes[bye as usize] += 1;
                    }
                    assert_eq!(seen.len() as u32, players, "everyone is placed");
                }
                for a in 1..=players {
                    for b in 1..=players {
                        if a < b {
                            let games =
                                u32::from(met.contains(&(a, b))) + u32::from(met.contains(&(b, a)));
                            assert_eq!(games, cycles.min(2), "{a} and {b} of {players}");
                        }
                    }
                    // Never three games running with one colour, in two cycles either.
                    let colours: Vec<bool> = rounds
                        .iter()
                        .filter_map(|r| {
                            r.games
                                .iter()
                                .find_map(|g| match (g.white == a, g.black == a) {
                                    (true, _) => Some(true),
                                    (_, true) => Some(false),
                                    _ => None,
                                })
                        })
                        .collect();
                    assert!(
                        colours.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
                        "{a} of {players} in {cycles} cycles: {colours:?}"
                    );
                    // Whites and blacks differ by at most one in a single cycle, none in two.
                    let limit = if cycles == 2 { 0 } else { 1 };
                    assert!(whites[a as usize].abs() <= limit, "{a} of {players}");
                    assert_eq!(byes[a as usize], (players % 2) * cycles, "{a} of {players}");
                }
            }
        }
    }
}
