//! Maximum-weight matching in general graphs, with weights wider than any machine integer,
//! kept up to date as edge weights change.
//!
//! The Dutch pairing (see `dutch.rs`) packs every pairing criterion of a bracket into one edge
//! weight, each criterion in its own field of bits, the most important highest; a matching of
//! greatest total weight is then the best pairing. Those weights need hundreds of bits, so this
//! module brings its own unsigned fixed-width integer [`Big`] and its own implementation of
//! Edmonds' blossom algorithm with dual variables (the primal-dual method in the form
//! popularised by Galil, O(n³) from scratch). All dual variables are kept doubled so that every
//! quantity stays a non-negative integer; the unsigned arithmetic never goes below zero.
//!
//! The pairing solves one graph hundreds of times, changing the weights at a few vertices in
//! between, so [`Matcher`] keeps the matching, the dual variables and the blossoms from one
//! solve to the next (the way bbpPairings does). Before the weights at a vertex change, the
//! vertex is freed: its matched edge is dropped, the blossoms holding it are dissolved (their
//! dual moved onto their vertices, so no edge becomes infeasible), and its dual is raised
//! above any edge, so that every weight may then change. Solving again starts from there:
//! free vertices may now have different duals, and a search tree ends when it reaches another
//! free vertex, a free vertex whose dual is already zero, or when a vertex in it reaches dual
//! zero (the path to it is then flipped, leaving that vertex free). Each freed vertex costs
//! one such search, O(n²) at worst, instead of a whole solve.
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

    #[inline]
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }

    #[inline]
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

    #[inline]
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
    #[inline]
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

    #[inline]
    pub fn double(self) -> Self {
        self.shifted(1)
    }

    /// Whether the value fits in `bits` bits.
    pub fn fits(bits: u32) -> bool {
        bits as usize <= 64 * L
    }
}

/// "No vertex / no edge".
pub(super) const NONE: usize = usize::MAX;

/// A maximum-weight matching over `n` vertices, updated as weights change.
///
/// Edges are named by directed codes `from * n + to`; the code's "endpoint" is `to`, and
/// its reverse names the same edge from the other side (the endpoints `2k` and `2k + 1` of
/// the textbook formulation). Indices below `n` are vertices, from `n` up blossoms.
pub struct Matcher<const L: usize> {
    pub(super) n: usize,
    /// Twice each edge's weight, row by row; zero for no edge.
    pub(super) weight2: Vec<Big<L>>,
    /// Whether each edge exists (its weight is not zero).
    edge: Vec<bool>,
    /// An even dual above any twice-weight: a freed vertex's dual.
    huge: Big<L>,
    /// The code of each vertex's matched edge, pointing away from it; NONE when free.
    pub(super) mate: Vec<usize>,
    pub(super) label: Vec<u8>,
    pub(super) label_end: Vec<usize>,
    pub(super) in_blossom: Vec<usize>,
    pub(super) parent: Vec<usize>,
    pub(super) children: Vec<Vec<usize>>,
    pub(super) base: Vec<usize>,
    pub(super) ends: Vec<Vec<usize>>,
    pub(super) best_edge: Vec<usize>,
    /// The slack of `best_edge`, valid between changes of the duals.
    pub(super) best_slack: Vec<Big<L>>,
    /// Outer blossoms made since their least-slack edge was last looked for.
    pub(super) stale: Vec<bool>,
    pub(super) unused: Vec<usize>,
    pub(super) dual: Vec<Big<L>>,
    /// Tight edges found in the current stage, by code (both directions set).
    pub(super) allowed: Vec<bool>,
    pub(super) allowed_list: Vec<usize>,
    pub(super) queue: Vec<usize>,
    /// Vertices freed since the last solve.
    freed: Vec<usize>,
}

impl<const L: usize> Matcher<L> {
    /// `n` vertices and no edges; weights may go up to `max_weight`.
    pub fn new(n: usize, max_weight: Big<L>) -> Self {
        let huge = max_weight.add_u64(1).double();
        let mut base: Vec<usize> = (0..n).collect();
        base.extend(std::iter::repeat_n(NONE, n));
        Matcher {
            n,
            weight2: vec![Big::ZERO; n * n],
            edge: vec![false; n * n],
            huge,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            base,
            ends: vec![Vec::new(); 2 * n],
            best_edge: vec![NONE; 2 * n],
            best_slack: vec![Big::ZERO; 2 * n],
            stale: vec![false; 2 * n],
            unused: (n..2 * n).collect(),
            dual: vec![Big::ZERO; 2 * n],
            allowed: vec![false; n * n],
            allowed_list: Vec::new(),
            queue: Vec::new(),
            freed: Vec::new(),
        }
    }

    /// The weight of the edge `a`-`b` (zero: no edge).
    pub fn weight(&self, a: usize, b: usize) -> Big<L> {
        self.weight2[a * self.n + b].half()
    }

    /// Sets the weight of the edge `a`-`b` (zero removes it); `a` is freed if it changes.
    pub fn set(&mut self, a: usize, b: usize, w: Big<L>) {
        let w2 = w.double();
        if self.weight2[a * self.n + b] == w2 {
            return;
        }
        self.free(a);
        self.weight2[a * self.n + b] = w2;
        self.weight2[b * self.n + a] = w2;
        self.edge[a * self.n + b] = !w2.is_zero();
        self.edge[b * self.n + a] = !w2.is_zero();
    }

    /// A matching of greatest weight: each vertex's mate, itself when unmatched.
    pub fn solve(&mut self) -> Vec<usize> {
        self.settle_freed();
        self.run();
        let n = self.n;
        (0..n)
            .map(|v| match self.mate[v] {
                NONE => v,
                p => p % n,
            })
            .collect()
    }

    pub(super) fn flip(&self, p: usize) -> usize {
        (p % self.n) * self.n + p / self.n
    }

    /// The full slack of an edge between two top-level blossoms.
    #[inline]
    pub(super) fn slack(&self, k: usize) -> Big<L> {
        let n = self.n;
        let (a, b, w) = (&self.dual[k / n].0, &self.dual[k % n].0, &self.weight2[k].0);
        let mut out = Big::ZERO;
        let (mut carry, mut borrow) = (false, false);
        for i in 0..L {
            let (s1, c1) = a[i].overflowing_add(b[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            carry = c1 || c2;
            let (d1, b1) = s2.overflowing_sub(w[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            borrow = b1 || b2;
            out.0[i] = d2;
        }
        out
    }

    /// Whether edge `k` exists (has a non-zero weight).
    #[inline]
    pub(super) fn exists(&self, k: usize) -> bool {
        self.edge[k]
    }

    pub(super) fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.children[b] {
                self.leaves(c, out);
            }
        }
    }

    pub(super) fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    /// Frees `v` so that the weights of its edges may change: drops the matched edge of its
    /// top-level blossom, makes `v` that blossom's base, dissolves every blossom holding it
    /// and raises its dual above any edge.
    fn free(&mut self, v: usize) {
        let b = self.in_blossom[v];
        let base = self.base[b];
        if self.mate[base] != NONE {
            let m = self.mate[base] % self.n;
            self.mate[m] = NONE;
            self.mate[base] = NONE;
            self.even_out(m);
        }
        if b >= self.n {
            self.augment_blossom(b, v);
            self.mate[v] = NONE;
            self.dissolve_around(v);
        }
        self.dual[v] = self.huge;
        self.freed.push(v);
    }

    /// Gives free vertex `m` (the base of its top-level blossom) an even dual, as every
    /// free vertex with a positive dual must have: searches from free vertices of different
    /// parities could meet half-way between two integers.
    fn even_out(&mut self, m: usize) {
        if self.dual[m].0[0] & 1 == 0 {
            return;
        }
        self.dissolve_around(m);
        if self.dual[m].0[0] & 1 == 1 {
            self.dual[m] = self.dual[m].add_u64(1);
        }
        self.freed.push(m);
    }

    /// Dissolves every blossom holding `v`, the base of each of them, from the top: each
    /// blossom's dual moves onto its vertices so no edge's slack goes negative, and the edges
    /// inside keep theirs.
    fn dissolve_around(&mut self, v: usize) {
        loop {
            let b = self.in_blossom[v];
            if b < self.n {
                return;
            }
            let z = self.dual[b];
            for leaf in self.leaves_of(b) {
                self.dual[leaf] = self.dual[leaf].plus(z);
            }
            for s in std::mem::take(&mut self.children[b]) {
                self.parent[s] = NONE;
                if s < self.n {
                    self.in_blossom[s] = s;
                } else {
                    for leaf in self.leaves_of(s) {
                        self.in_blossom[leaf] = s;
                    }
                }
            }
            self.release(b);
        }
    }

    /// Lowers each freed vertex's dual to the least that keeps its edges feasible (even, at
    /// least zero), then matches free vertices joined by a tight edge.
    fn settle_freed(&mut self) {
        let n = self.n;
        let mut freed = std::mem::take(&mut self.freed);
        freed.sort_unstable();
        freed.dedup();
        for &v in &freed {
            if self.mate[v] != NONE || self.in_blossom[v] != v {
                continue;
            }
            let mut need = Big::ZERO;
            for u in 0..n {
                let w2 = self.weight2[v * n + u];
                if !w2.is_zero() && w2 > self.dual[u] {
                    let d = w2.minus(self.dual[u]);
                    if d > need {
                        need = d;
                    }
                }
            }
            if need.0[0] & 1 == 1 {
                need = need.add_u64(1);
            }
            if need < self.dual[v] {
                self.dual[v] = need;
            }
        }
        for &v in &freed {
            if self.mate[v] != NONE || self.in_blossom[v] != v || self.dual[v].is_zero() {
                continue;
            }
            let tight = (0..n).find(|&u| {
                let k = v * n + u;
                self.edge[k]
                    && self.mate[u] == NONE
                    && self.in_blossom[u] == u
                    && self.slack(k).is_zero()
            });
            if let Some(u) = tight {
                self.mate[v] = v * n + u;
                self.mate[u] = u * n + v;
            }
        }
    }
}

#[path = "matching_blossom.rs"]
mod blossom;
