//! The weighted matching (`matching.rs`) against an exhaustive search: solved once from
//! scratch, and kept up to date while the weights at a few vertices change between solves,
//! as the Dutch pairing changes them.

use crate::league::matching::{Big, Matcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type W = Big<2>;

/// The greatest total weight of any matching (weights in a symmetric matrix, 0: no edge).
fn brute(w: &[Vec<u64>]) -> u64 {
    fn go(v: usize, used: &mut Vec<bool>, w: &[Vec<u64>]) -> u64 {
        let n = w.len();
        if v == n {
            return 0;
        }
        if used[v] {
            return go(v + 1, used, w);
        }
        used[v] = true;
        let mut best = go(v + 1, used, w);
        for u in v + 1..n {
            if !used[u] && w[v][u] > 0 {
                used[u] = true;
                best = best.max(w[v][u] + go(v + 1, used, w));
                used[u] = false;
            }
        }
        used[v] = false;
        best
    }
    go(0, &mut vec![false; w.len()], w)
}

/// The total weight of the matching `mates`, checking it is one.
fn total(w: &[Vec<u64>], mates: &[usize]) -> u64 {
    let mut sum = 0;
    for (v, &m) in mates.iter().enumerate() {
        assert_eq!(mates[m], v, "mates agree");
        if m > v {
            assert!(w[v][m] > 0, "only edges are matched");
            sum += w[v][m];
        }
    }
    sum
}

/// Sets the weight of `a`-`b` in the symmetric matrix.
fn put(w: &mut [Vec<u64>], a: usize, b: usize, x: u64) {
    w[a][b] = x;
    w[b][a] = x;
}

fn big(x: u64) -> W {
    W::from_u64(x).shifted(70)
}

fn weight(rng: &mut ChaCha8Rng, round: usize) -> u64 {
    if rng.random_range(0..3) == 0 {
        0
    } else if round.is_multiple_of(2) {
        rng.random_range(1..=20)
    } else {
        rng.random_range(1..=3)
    }
}

#[test]
fn big_arithmetic() {
    let a = W::from_u64(u64::MAX).add_u64(1);
    assert_eq!(a.0, [0, 1]);
    assert_eq!(a.sub_u64(1).0, [u64::MAX, 0]);
    assert_eq!(W::from_u64(3).shifted(64).0, [0, 3]);
    assert_eq!(W::from_u64(3).shifted(63).0, [1 << 63, 1]);
    assert_eq!(a.half().0, [1 << 63, 0]);
    assert!(a > W::from_u64(u64::MAX));
}

#[test]
fn agrees_with_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(12345);
    for round in 0..3000 {
        let n = rng.random_range(1..=10);
        let mut w = vec![vec![0; n]; n];
        let mut m = Matcher::new(n, big(20));
        for a in 0..n {
            for b in a + 1..n {
                let x = weight(&mut rng, round);
                put(&mut w, a, b, x);
                m.set(b, a, big(x));
            }
        }
        assert_eq!(total(&w, &m.solve()), brute(&w), "round {round}: {w:?}");
    }
}

#[test]
fn stays_greatest_while_weights_change() {
    let mut rng = ChaCha8Rng::seed_from_u64(777);
    for round in 0..600 {
        let n = rng.random_range(2..=11);
        let mut w = vec![vec![0; n]; n];
        let mut m = Matcher::new(n, big(20));
        for _ in 0..12 {
            // Change all the edges of one to three vertices, or only some of them.
            for _ in 0..rng.random_range(1..=3) {
                let a = rng.random_range(0..n);
                for b in 0..n {
                    if b != a && rng.random_bool(0.7) {
                        let x = weight(&mut rng, round);
                        put(&mut w, a, b, x);
                        m.set(a, b, big(x));
                    }
                }
            }
            assert_eq!(total(&w, &m.solve()), brute(&w), "round {round}: {w:?}");
        }
    }
}

/// Checks the certificate of optimality: every edge's full slack (with the duals of the
/// blossoms holding both ends) is non-negative, matched edges are tight, free vertices have
/// dual zero. Returns a description of the first violation.
fn certificate<const L: usize>(m: &Matcher<L>) -> Result<(), String> {
    let n = m.n;
    let chain = |v: usize| {
        let mut out = vec![];
        let mut b = m.parent[v];
        while b != usize::MAX {
            out.push(b);
            b = m.parent[b];
        }
        out
    };
    for i in 0..n {
        if m.mate[i] == usize::MAX && !m.dual[i].is_zero() {
            return Err(format!("free vertex {i} has dual {:?}", m.dual[i]));
        }
        for j in 0..n {
            let w2 = m.weight2[i * n + j];
            if i == j || w2.is_zero() {
                continue;
            }
            let (ci, cj) = (chain(i), chain(j));
            let mut sum = m.dual[i].plus(m.dual[j]);
            for b in ci.iter().filter(|b| cj.contains(b)) {
                sum = sum.plus(m.dual[*b].double());
            }
            if sum < w2 {
                return Err(format!("edge {i}-{j} infeasible"));
            }
            if m.mate[i] != usize::MAX && m.mate[i] % n == j && sum != w2 {
                return Err(format!("matched edge {i}-{j} not tight"));
            }
        }
    }
    Ok(())
}

#[test]
fn the_duals_prove_the_matching_greatest() {
    let mut rng = ChaCha8Rng::seed_from_u64(778);
    for round in 0..300 {
        let n = rng.random_range(2..=9);
        let mut m = Matcher::new(n, big(20));
        for step in 0..10 {
            for _ in 0..rng.random_range(1..=3) {
                let a = rng.random_range(0..n);
                for b in 0..n {
                    if b != a && rng.random_bool(0.7) {
                        let x = weight(&mut rng, round);
                        m.set(a, b, big(x));
                    }
                }
            }
            m.solve();
            if let Err(e) = certificate(&m) {
                panic!("round {round} step {step}: {e}");
            }
        }
    }
}
