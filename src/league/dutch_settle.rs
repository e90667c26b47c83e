//! Settling one Dutch bracket once its weights are in place (handbook C.04.3, sections B
//! and D, as bbpPairings orders the choices).
//!
//! First the moved-down players to be paired are chosen, highest first among those of equal
//! score, then each one's opponent, the highest resident possible. The rest of the bracket
//! (the remainder) is split into S1 (as many players as it has pairs) and S2; among the
//! equally good pairings the one with the fewest exchanges is taken, the S1 players given away
//! being the lowest possible and the S2 players taken in being the highest possible. Last,
//! each S1 player in turn is given the highest S2 player that still allows the best pairing.

use super::{BracketState, Engine};
use crate::league::matching::Big;

impl<const L: usize> Engine<'_, L> {
    /// Settles the bracket; returns it and the final matching of the round graph.
    pub(super) fn bracket(
        &mut self,
        st: BracketState,
        matched: &mut [bool],
    ) -> (Vec<usize>, Vec<usize>) {
        let BracketState {
            bracket,
            sgb,
            nsgb,
            sgbv,
            nsgbv,
        } = st;
        let ps = self.ps;
        let size = bracket.len();
        // base[larger][smaller], positions in the bracket.
        let mut base = vec![vec![Big::<L>::ZERO; size]; size];
        for larger in sgb..size {
            for smaller in 0..larger {
                let w = self.edge(
                    &ps[bracket[smaller]],
                    &ps[bracket[larger]],
                    larger < nsgb,
                    larger >= nsgb,
                );
                base[larger][smaller] = w;
                self.set(bracket[larger], bracket[smaller], w);
            }
        }
        let s = self.layout.s;
        // The weight with the exchange preferences of the remainder.
        let ranked =
            |base: &Vec<Vec<Big<L>>>, smaller: usize, larger: usize, index: usize, pairs: usize| {
                let w = base[larger][smaller];
                if w.is_zero() {
                    return w;
                }
                let addend = Big::<L>::from_u64((index < pairs) as u64)
                    .shifted(2 * s)
                    .sub_u64(index as u64)
                    .shifted(1);
                w.plus(addend)
            };
        let here = |v: usize| v >= sgbv && v < nsgbv;
        let mut stable = self.solve();

        // Which moved-down players are paired.
        let (mut score, mut remaining, mut remaining_matched) = (0, 0, 0);
        for pi in 0..sgb {
            if pi == 0 || ps[bracket[pi]].halves < score {
                score = ps[bracket[pi]].halves;
                remaining = 0;
                remaining_matched = 0;
                let mut m = pi;
                while m < size && ps[bracket[m]].halves >= score {
                    remaining += 1;
                    if here(stable[bracket[m]]) {
                        remaining_matched += 1;
                    }
                    m += 1;
                }
            }
            if remaining_matched == 0 {
                continue;
            }
            let pv = bracket[pi];
            if remaining <= remaining_matched {
                matched[pv] = true;
                continue;
            }
            remaining -= 1;
            if !here(stable[pv]) {
                for oi in sgb..nsgb {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        self.set(pv, bracket[oi], w.add_u64(1));
                    }
                }
                stable = self.solve();
            }
            if here(stable[pv]) {
                matched[pv] = true;
                remaining_matched -= 1;
                for oi in sgb..nsgb {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        self.set(pv, bracket[oi], w.add_u64((nsgb - sgb) as u64 + 1));
                    }
                }
            }
        }

        // Their opponents.
        for pi in 0..sgb {
            let pv = bracket[pi];
            if !matched[pv] {
                continue;
            }
            let mut addend = size as u64;
            for oi in (sgb..nsgb).rev() {
                let ov = bracket[oi];
                if matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    self.set(pv, ov, w.add_u64(addend));
                    addend += 1;
                }
            }
            stable = self.solve();
            let mv = stable[pv];
            matched[mv] = true;
            self.freeze(pv, mv);
        }

        // The remainder: S1 is its first `pairs` players.
        let mut rem = Vec::new();
        let mut pairs = 0;
        for (pi, &pv) in bracket.iter().enumerate().take(nsgb).skip(sgb) {
            if stable[pv] < sgbv {
                continue;
            }
            rem.push(pi);
            if stable[pv] < pv {
                pairs += 1;
            }
        }
        for (oq, &oi) in rem.iter().enumerate() {
            for (pr, &pi) in rem[..oq].iter().enumerate() {
                let w = ranked(&base, pi, oi, pr, pairs);
                self.set(bracket[pi], bracket[oi], w);
            }
        }
        stable = self.solve();
        let in_s1_pair = |stable: &Vec<usize>, v: usize| stable[v] > v && stable[v] < nsgbv;
        let exchanges = rem[..pairs]
            .iter()
            .filter(|&&pi| !in_s1_pair(&stable, bracket[pi]))
            .count();

        // The S1 players given away: the lowest possible.
        let mut left = exchanges;
        let mut it = pairs;
        while it > 0 && left > 0 {
            let from = it;
            it -= 1;
            let pr = it;
            let pi = rem[it];
            let pv = bracket[pi];
            if in_s1_pair(&stable, pv) {
                for &oi in &rem[from..] {
                    let w = ranked(&base, pi, oi, pr, pairs);
                    if !w.is_zero() {
                        self.set(pv, bracket[oi], w.sub_u64(1));
                    }
                }
                stable = self.solve();
            }
            let exchange = !in_s1_pair(&stable, pv);
            left -= exchange as usize;
            for &oi in &rem[it + 1..] {
                if exchange {
                    base[oi][pi] = Big::ZERO;
                }
                let w = ranked(&base, pi, oi, pr, pairs);
                self.set(pv, bracket[oi], w);
            }
        }

        // The S2 players taken into S1: the highest possible.
        let mut left = exchanges;
        for (index, it) in (pairs..rem.len())
            .enumerate()
            .map(|(k, it)| (pairs + k, it))
        {
            if left <= 1 {
                break;
            }
            let pi = rem[it];
            let pv = bracket[pi];
            let already = in_s1_pair(&stable, pv);
            if !already {
                for &oi in &rem[it + 1..] {
                    let w = ranked(&base, pi, oi, index, pairs);
                    if !w.is_zero() {
                        self.set(pv, bracket[oi], w.add_u64(1));
                    }
                }
                stable = self.solve();
            }
            if in_s1_pair(&stable, pv) {
                left -= 1;
                for &oi in &rem[..it] {
                    base[pi][oi] = Big::ZERO;
                    self.set(pv, bracket[oi], Big::ZERO);
                }
                for oi in nsgb..size {
                    base[oi][pi] = Big::ZERO;
                    self.set(pv, bracket[oi], Big::ZERO);
                }
            }
            if !already {
                for &oi in &rem[it + 1..] {
                    let w = ranked(&base, pi, oi, index, pairs);
                    self.set(pv, bracket[oi], w);
                }
            }
        }

        // Fix who is in S1 and who in S2, dropping the exchange preferences.
        for a in 0..rem.len() {
            let pv = bracket[rem[a]];
            for &ob in &rem[a + 1..] {
                let ov = bracket[ob];
                if !in_s1_pair(&stable, pv) || in_s1_pair(&stable, ov) {
                    base[ob][rem[a]] = Big::ZERO;
                }
                self.set(pv, ov, base[ob][rem[a]]);
            }
        }

        // Each S1 player's opponent, the highest possible.
        for &pi in &rem {
            let pv = bracket[pi];
            if !in_s1_pair(&stable, pv) {
                continue;
            }
            let mut addend = 0u64;
            for &oi in rem.iter().rev() {
                let ov = bracket[oi];
                if oi <= pi || matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    self.set(pv, ov, w.add_u64(addend));
                }
                addend += 1;
            }
            stable = self.solve();
            let mv = stable[pv];
            matched[pv] = true;
            matched[mv] = true;
            self.freeze(pv, mv);
        }
        (bracket, stable)
    }
}
