//! Maximum-weight matching in general graphs, with weights wider than any machine integer.
//!
//! The Dutch pairing (see `dutch.rs`) packs every pairing criterion of a bracket into one edge
//! weight, each criterion in its own field of bits, the most important highest; a matching of
//! greatest total weight is then the best pairing. Those weights need hundreds of bits, so this
//! module brings its own unsigned fixed-width integer [`Big`] and its own implementation of
//! Edmonds' blossom algorithm with dual variables (the primal-dual method in the form
//! popularised by Galil, O(n³)). All dual variables are kept doubled so that every quantity
//! stays a non-negative integer; the unsigned arithmetic never goes below zero.
//!
//! Only edges of non-zero weight exist. The matching returned has the greatest total weight;
//! it need not be of maximum cardinality (callers make cardinality the weight's top field).

use std::cmp::Ordering;

/// An unsigned integer of `L` 64-bit limbs, least significant first, with wrapping arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Big<const L: usize>(pub [u64; L]);

impl<const L: usize> Default for Big<L> {
    fn default() -> Self {
        Big([0; L])
    }
}

impl<const L: usize> Ord for Big<L> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..L).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Big<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> Big<L> {
    pub const ZERO: Self = Big([0; L]);

    pub fn from_u64(v: u64) -> Self {
        let mut b = Self::ZERO;
        b.0[0] = v;
        b
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }

    pub fn plus(self, o: Self) -> Self {
        let mut r = Self::ZERO;
        let mut carry = false;
        for i in 0..L {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            r.0[i] = s2;
            carry = c1 || c2;
        }
        r
    }

    pub fn minus(self, o: Self) -> Self {
        let mut r = Self::ZERO;
        let mut borrow = false;
        for i in 0..L {
            let (s1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (s2, b2) = s1.overflowing_sub(borrow as u64);
            r.0[i] = s2;
            borrow = b1 || b2;
        }
        r
    }

    pub fn add_u64(self, v: u64) -> Self {
        self.plus(Self::from_u64(v))
    }

    pub fn sub_u64(self, v: u64) -> Self {
        self.minus(Self::from_u64(v))
    }

    pub fn shifted(self, bits: u32) -> Self {
        let (limbs, rest) = ((bits / 64) as usize, bits % 64);
        let mut r = Self::ZERO;
        for i in (limbs..L).rev() {
            let mut v = self.0[i - limbs] << rest;
            if rest > 0 && i > limbs {
                v |= self.0[i - limbs - 1] >> (64 - rest);
            }
            r.0[i] = v;
        }
        r
    }

    /// Half, rounded down.
    pub fn half(self) -> Self {
        let mut r = Self::ZERO;
        for i in 0..L {
            r.0[i] = self.0[i] >> 1;
            if i + 1 < L {
                r.0[i] |= self.0[i + 1] << 63;
            }
        }
        r
    }

    pub fn double(self) -> Self {
        self.shifted(1)
    }

    /// Whether the value fits in `bits` bits.
    pub fn fits(bits: u32) -> bool {
        bits as usize <= 64 * L
    }
}

const NONE: usize = usize::MAX;

/// The state of one run of the blossom algorithm. Endpoint `2k` of edge `k` is its first
/// vertex and `2k + 1` its second; `mate[v]` is the endpoint at the far side of v's matched
/// edge. Indices below `n` are vertices, from `n` up non-trivial blossoms.
struct Blossoms<'a, const L: usize> {
    n: usize,
    edges: &'a [(usize, usize, Big<L>)],
    endpoint: Vec<usize>,
    neighbours: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    label_end: Vec<usize>,
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    base: Vec<usize>,
    ends: Vec<Vec<usize>>,
    best_edge: Vec<usize>,
    best_edges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<Big<L>>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
}

fn at(list: &[usize], j: isize) -> usize {
    let len = list.len() as isize;
    list[(((j % len) + len) % len) as usize]
}

impl<const L: usize> Blossoms<'_, L> {
    fn slack(&self, k: usize) -> Big<L> {
        let (i, j, w) = self.edges[k];
        self.dual[i].plus(self.dual[j]).minus(w.double())
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.children[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.in_blossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.label_end[w] = p;
        self.label_end[b] = p;
        self.best_edge[w] = NONE;
        self.best_edge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.base[b];
            let m = self.mate[base];
            self.assign_label(self.endpoint[m], 1, m ^ 1);
        }
    }

    /// Traces back from v and w to find a new blossom's base, or NONE for an augmenting path.
    fn scan(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.in_blossom[v];
            if self.label[b] & 4 != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.label_end[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.label_end[b]];
                b = self.in_blossom[v];
                v = self.endpoint[self.label_end[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let b = self.unused.pop().expect("a free blossom slot");
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut ends = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            ends.push(self.label_end[bv]);
            v = self.endpoint[self.label_end[bv]];
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        ends.reverse();
        ends.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            ends.push(self.label_end[bw] ^ 1);
            w = self.endpoint[self.label_end[bw]];
            bw = self.in_blossom[w];
        }
        self.children[b] = path.clone();
        self.ends[b] = ends;
        self.label[b] = 1;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = Big::ZERO;
        for leaf in self.leaves_of(b) {
            if self.label[self.in_blossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        let mut best_to = vec![NONE; 2 * self.n];
        for &sub in &path {
            let lists: Vec<Vec<usize>> = match self.best_edges[sub].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(sub)
                    .into_iter()
                    .map(|leaf| self.neighbours[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.in_blossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.in_blossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (best_to[bj] == NONE || self.slack(k) < self.slack(best_to[bj]))
                    {
                        best_to[bj] = k;
                    }
                }
            }
            self.best_edge[sub] = NONE;
        }
        let list: Vec<usize> = best_to.into_iter().filter(|&k| k != NONE).collect();
        self.best_edge[b] = NONE;
        for &k in &list {
            if self.best_edge[b] == NONE || self.slack(k) < self.slack(self.best_edge[b]) {
                self.best_edge[b] = k;
            }
        }
        self.best_edges[b] = Some(list);
    }

    fn expand(&mut self, b: usize, end_stage: bool) {
        for s in self.children[b].clone() {
            self.parent[s] = NONE;
            if s < self.n {
                self.in_blossom[s] = s;
            } else if end_stage && self.dual[s].is_zero() {
                self.expand(s, end_stage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.in_blossom[leaf] = s;
                }
            }
        }
        if !end_stage && self.label[b] == 2 {
            let children = self.children[b].clone();
            let ends = self.ends[b].clone();
            let entry = self.in_blossom[self.endpoint[self.label_end[b] ^ 1]];
            let mut j = children.iter().position(|&c| c == entry).unwrap() as isize;
            let (step, trick): (isize, usize) = if j & 1 == 1 {
                j -= children.len() as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.label_end[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = at(&ends, j - trick as isize) ^ trick ^ 1;
                self.label[self.endpoint[q]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowed[at(&ends, j - trick as isize) / 2] = true;
                j += step;
                p = at(&ends, j - trick as isize) ^ trick;
                self.allowed[p / 2] = true;
                j += step;
            }
            let bv = at(&children, j);
            let x = self.endpoint[p ^ 1];
            self.label[x] = 2;
            self.label[bv] = 2;
            self.label_end[x] = p;
            self.label_end[bv] = p;
            self.best_edge[bv] = NONE;
            j += step;
            while at(&children, j) != entry {
                let bv = at(&children, j);
                if self.label[bv] == 1 {
                    j += step;
                    continue;
                }
                let found = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = found {
                    self.label[v] = 0;
                    let m = self.mate[self.base[bv]];
                    self.label[self.endpoint[m]] = 0;
                    self.assign_label(v, 2, self.label_end[v]);
                }
                j += step;
            }
        }
        self.label[b] = 0;
        self.label_end[b] = NONE;
        self.children[b] = Vec::new();
        self.ends[b] = Vec::new();
        self.base[b] = NONE;
        self.best_edges[b] = None;
        self.best_edge[b] = NONE;
        self.unused.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let children = self.children[b].clone();
        let ends = self.ends[b].clone();
        let i = children.iter().position(|&c| c == t).unwrap();
        let mut j = i as isize;
        let (step, trick): (isize, usize) = if i & 1 == 1 {
            j -= children.len() as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += step;
            let t = at(&children, j);
            let p = at(&ends, j - trick as isize) ^ trick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += step;
            let t = at(&children, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let mut c = children[i..].to_vec();
        c.extend_from_slice(&children[..i]);
        let mut e = ends[i..].to_vec();
        e.extend_from_slice(&ends[..i]);
        self.base[b] = self.base[c[0]];
        self.children[b] = c;
        self.ends[b] = e;
    }

    fn augment(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.label_end[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.label_end[bs]];
                let bt = self.in_blossom[t];
                s = self.endpoint[self.label_end[bt]];
                let j = self.endpoint[self.label_end[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
        }
    }

    fn run(&mut self) {
        let n = self.n;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.best_edge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.best_edges[b] = None;
            }
            self.allowed.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.in_blossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    for idx in 0..self.neighbours[v].len() {
                        let p = self.neighbours[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.in_blossom[v] == self.in_blossom[w] {
                            continue;
                        }
                        let mut kslack = Big::ZERO;
                        if !self.allowed[k] {
                            kslack = self.slack(k);
                            if kslack.is_zero() {
                                self.allowed[k] = true;
                            }
                        }
                        if self.allowed[k] {
                            if self.label[self.in_blossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.in_blossom[w]] == 1 {
                                let base = self.scan(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.label_end[w] = p ^ 1;
                            }
                        } else if self.label[self.in_blossom[w]] == 1 {
                            let b = self.in_blossom[v];
                            if self.best_edge[b] == NONE || kslack < self.slack(self.best_edge[b]) {
                                self.best_edge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.best_edge[w] == NONE || kslack < self.slack(self.best_edge[w]))
                        {
                            self.best_edge[w] = k;
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with the edges allowed so far: change the duals.
                let mut kind = 1;
                let mut delta = *self.dual[..n].iter().min().unwrap();
                let mut edge = NONE;
                let mut blossom = NONE;
                for v in 0..n {
                    if self.label[self.in_blossom[v]] == 0 && self.best_edge[v] != NONE {
                        let d = self.slack(self.best_edge[v]);
                        if d < delta {
                            delta = d;
                            kind = 2;
                            edge = self.best_edge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] == NONE && self.label[b] == 1 && self.best_edge[b] != NONE {
                        let d = self.slack(self.best_edge[b]).half();
                        if d < delta {
                            delta = d;
                            kind = 3;
                            edge = self.best_edge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE
                        && self.parent[b] == NONE
                        && self.label[b] == 2
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        kind = 4;
                        blossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.in_blossom[v]] {
                        1 => self.dual[v] = self.dual[v].minus(delta),
                        2 => self.dual[v] = self.dual[v].plus(delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE && self.parent[b] == NONE {
                        match self.label[b] {
                            1 => self.dual[b] = self.dual[b].plus(delta),
                            2 => self.dual[b] = self.dual[b].minus(delta),
                            _ => {}
                        }
                    }
                }
                match kind {
                    1 => break,
                    2 => {
                        self.allowed[edge] = true;
                        let (mut i, j, _) = self.edges[edge];
                        if self.label[self.in_blossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowed[edge] = true;
                        self.queue.push(self.edges[edge].0);
                    }
                    _ => self.expand(blossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b].is_zero()
                {
                    self.expand(b, true);
                }
            }
        }
    }
}

/// A matching of greatest total weight among the `n` vertices, given edges `(u, v, weight)`
/// with u ≠ v and no pair listed twice: for each vertex, its mate if it has one.
pub fn max_weight_matching<const L: usize>(
    n: usize,
    edges: &[(usize, usize, Big<L>)],
) -> Vec<Option<usize>> {
    let edges: Vec<(usize, usize, Big<L>)> =
        edges.iter().copied().filter(|e| !e.2.is_zero()).collect();
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    let top = edges.iter().map(|e| e.2).max().unwrap();
    let mut endpoint = Vec::with_capacity(2 * edges.len());
    let mut neighbours = vec![Vec::new(); n];
    for (k, &(i, j, _)) in edges.iter().enumerate() {
        endpoint.push(i);
        endpoint.push(j);
        neighbours[i].push(2 * k + 1);
        neighbours[j].push(2 * k);
    }
    let mut dual = vec![top; n];
    dual.extend(std::iter::repeat_n(Big::ZERO, n));
    let mut base: Vec<usize> = (0..n).collect();
    base.extend(std::iter::repeat_n(NONE, n));
    let mut state = Blossoms {
        n,
        edges: &edges,
        endpoint,
        neighbours,
        mate: vec![NONE; n],
        label: vec![0; 2 * n],
        label_end: vec![NONE; 2 * n],
        in_blossom: (0..n).collect(),
        parent: vec![NONE; 2 * n],
        children: vec![Vec::new(); 2 * n],
        base,
        ends: vec![Vec::new(); 2 * n],
        best_edge: vec![NONE; 2 * n],
        best_edges: vec![None; 2 * n],
        unused: (n..2 * n).collect(),
        dual,
        allowed: vec![false; edges.len()],
        queue: Vec::new(),
    };
    state.run();
    let endpoint = &state.endpoint;
    state
        .mate
        .iter()
        .map(|&m| (m != NONE).then(|| endpoint[m]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    type W = Big<2>;

    fn brute(n: usize, edges: &[(usize, usize, u64)]) -> u64 {
        fn go(v: usize, n: usize, used: &mut Vec<bool>, w: &[Vec<u64>]) -> u64 {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, n, used, w);
            }
            used[v] = true;
            let mut best = go(v + 1, n, used, w);
            for u in v + 1..n {
                if !used[u] && w[v][u] > 0 {
                    used[u] = true;
                    best = best.max(w[v][u] + go(v + 1, n, used, w));
                    used[u] = false;
                }
            }
            used[v] = false;
            best
        }
        let mut w = vec![vec![0; n]; n];
        for &(a, b, x) in edges {
            w[a][b] = x;
            w[b][a] = x;
        }
        go(0, n, &mut vec![false; n], &w)
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
        let mut seed = 12345u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..3000 {
            let n = 1 + (rand() % 10) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rand() % 3 != 0 {
                        let w = if round % 2 == 0 {
                            1 + rand() % 20
                        } else {
                            1 + rand() % 3
                        };
                        edges.push((a, b, w));
                    }
                }
            }
            let big: Vec<(usize, usize, W)> = edges
                .iter()
                .map(|&(a, b, w)| (a, b, W::from_u64(w).shifted(70)))
                .collect();
            let mates = max_weight_matching(n, &big);
            let mut total = 0;
            for (v, m) in mates.iter().enumerate() {
                if let Some(u) = *m {
                    assert_eq!(mates[u], Some(v));
                    if v < u {
                        total += edges.iter().find(|e| e.0 == v && e.1 == u).unwrap().2;
                    }
                }
            }
            assert_eq!(total, brute(n, &edges), "round {round}: {edges:?}");
        }
    }
}
