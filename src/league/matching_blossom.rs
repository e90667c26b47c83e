//! The stages of the blossom algorithm behind [`Matcher`](super::Matcher): labelling search
//! trees from the free vertices, growing, shrinking and expanding blossoms, changing the
//! duals, and augmenting (see `matching.rs` for the method and the invariants).
//!
//! Unlike the textbook form, free vertices may have different duals (vertices freed since the
//! last solve have large ones): only free vertices with a positive dual root a search tree;
//! a free vertex with dual zero is a valid end of an augmenting path; and when a vertex of a
//! tree reaches dual zero, the path from it to the root is flipped, leaving it free.

use super::{Big, Matcher, NONE};

fn at(list: &[usize], j: isize) -> usize {
    let len = list.len() as isize;
    list[(((j % len) + len) % len) as usize]
}

/// Which change of the duals ended a step.
enum Step {
    /// A vertex of a search tree reached dual zero.
    Zero(usize),
    /// An edge from a tree to a vertex outside every tree became tight.
    Reach(usize),
    /// An edge between two outer blossoms became tight.
    Join(usize),
    /// An inner blossom's dual reached zero.
    Expand(usize),
}

impl<const L: usize> Matcher<L> {
    fn allow(&mut self, k: usize) {
        if !self.allowed[k] {
            let back = self.flip(k);
            self.allowed[k] = true;
            self.allowed[back] = true;
            self.allowed_list.push(k);
        }
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
            self.assign_label(m % self.n, 1, self.flip(m));
        }
    }

    /// Traces back from v and w to find a new blossom's base, or NONE for an augmenting path.
    fn scan(&mut self, mut v: usize, mut w: usize) -> usize {
        let n = self.n;
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
                v = self.label_end[b] % n;
                b = self.in_blossom[v];
                v = self.label_end[b] % n;
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
        let n = self.n;
        let (mut v, mut w) = (k / n, k % n);
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
            v = self.label_end[bv] % n;
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        ends.reverse();
        ends.push(self.flip(k));
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            ends.push(self.flip(self.label_end[bw]));
            w = self.label_end[bw] % n;
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
        for &sub in &path {
            self.best_edge[sub] = NONE;
        }
        self.best_edge[b] = NONE;
        self.stale[b] = true;
    }

    fn expand(&mut self, b: usize, end_stage: bool) {
        let n = self.n;
        for s in self.children[b].clone() {
            self.parent[s] = NONE;
            if s < n {
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
            let entry = self.in_blossom[self.flip(self.label_end[b]) % n];
            let mut j = children.iter().position(|&c| c == entry).unwrap() as isize;
            let (step, trick): (isize, bool) = if j & 1 == 1 {
                j -= children.len() as isize;
                (1, false)
            } else {
                (-1, true)
            };
            let turned = |m: &Self, p: usize, t: bool| if t { m.flip(p) } else { p };
            let mut p = self.label_end[b];
            while j != 0 {
                let inner = self.flip(p) % n;
                self.label[inner] = 0;
                let q = self.flip(turned(self, at(&ends, j - trick as isize), trick));
                self.label[q % n] = 0;
                self.assign_label(inner, 2, p);
                self.allow(at(&ends, j - trick as isize));
                j += step;
                p = turned(self, at(&ends, j - trick as isize), trick);
                self.allow(p);
                j += step;
            }
            let bv = at(&children, j);
            let x = self.flip(p) % n;
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
                    self.label[m % n] = 0;
                    self.assign_label(v, 2, self.label_end[v]);
                }
                j += step;
            }
        }
        self.release(b);
    }

    /// Gives blossom slot `b` back, emptied, for a later blossom.
    pub(super) fn release(&mut self, b: usize) {
        self.label[b] = 0;
        self.label_end[b] = NONE;
        self.children[b] = Vec::new();
        self.ends[b] = Vec::new();
        self.base[b] = NONE;
        self.stale[b] = false;
        self.best_edge[b] = NONE;
        self.dual[b] = Big::ZERO;
        self.unused.push(b);
    }

    /// Swaps matched and unmatched edges along the even path inside blossom `b` from its
    /// base to `v`, making `v` the base of `b` and of every blossom inside it holding `v`.
    pub(super) fn augment_blossom(&mut self, b: usize, v: usize) {
        let n = self.n;
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= n {
            self.augment_blossom(t, v);
        }
        let children = self.children[b].clone();
        let ends = self.ends[b].clone();
        let i = children.iter().position(|&c| c == t).unwrap();
        let mut j = i as isize;
        let (step, trick): (isize, bool) = if i & 1 == 1 {
            j -= children.len() as isize;
            (1, false)
        } else {
            (-1, true)
        };
        while j != 0 {
            j += step;
            let t = at(&children, j);
            let e = at(&ends, j - trick as isize);
            let p = if trick { self.flip(e) } else { e };
            if t >= n {
                self.augment_blossom(t, p % n);
            }
            j += step;
            let t = at(&children, j);
            let back = self.flip(p);
            if t >= n {
                self.augment_blossom(t, back % n);
            }
            self.mate[p % n] = back;
            self.mate[back % n] = p;
        }
        let mut c = children[i..].to_vec();
        c.extend_from_slice(&children[..i]);
        let mut e = ends[i..].to_vec();
        e.extend_from_slice(&ends[..i]);
        self.base[b] = self.base[c[0]];
        self.children[b] = c;
        self.ends[b] = e;
    }

    /// Flips the alternating path from `s` up to the root of its tree, `s` taking the
    /// matched edge `p` (NONE: left free).
    fn flip_to_root(&mut self, mut s: usize, mut p: usize) {
        let n = self.n;
        loop {
            let bs = self.in_blossom[s];
            if bs >= n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.label_end[bs] == NONE {
                break;
            }
            let t = self.label_end[bs] % n;
            let bt = self.in_blossom[t];
            s = self.label_end[bt] % n;
            let j = self.flip(self.label_end[bt]) % n;
            if bt >= n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.label_end[bt];
            p = self.flip(self.label_end[bt]);
        }
    }

    /// Whether `w`'s top-level blossom is free (its base unmatched).
    fn free_blossom(&self, w: usize) -> bool {
        self.mate[self.base[self.in_blossom[w]]] == NONE
    }

    /// Augments along edge `k` from a tree to a free blossom outside every tree.
    fn augment_to_free(&mut self, k: usize) {
        let n = self.n;
        let (v, w) = (k / n, k % n);
        let bw = self.in_blossom[w];
        if bw >= n {
            self.augment_blossom(bw, w);
        }
        self.mate[w] = self.flip(k);
        self.flip_to_root(v, k);
    }

    /// Runs stages until no free vertex has a positive dual.
    pub(super) fn run(&mut self) {
        let n = self.n;
        loop {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.label_end.iter_mut().for_each(|e| *e = NONE);
            self.best_edge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.stale[b] = false;
            }
            for k in std::mem::take(&mut self.allowed_list) {
                let back = self.flip(k);
                self.allowed[k] = false;
                self.allowed[back] = false;
            }
            self.queue.clear();
            let mut roots = false;
            for v in 0..n {
                let b = self.in_blossom[v];
                if self.mate[v] == NONE
                    && self.base[b] == v
                    && self.label[b] == 0
                    && !self.dual[v].is_zero()
                {
                    self.assign_label(v, 1, NONE);
                    roots = true;
                }
            }
            if !roots {
                return;
            }
            self.stage();
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

    /// Grows the trees until one augmentation (or one flip to a vertex of dual zero).
    fn stage(&mut self) {
        let n = self.n;
        loop {
            while let Some(v) = self.queue.pop() {
                for w in 0..n {
                    let k = v * n + w;
                    if !self.exists(k) || self.in_blossom[v] == self.in_blossom[w] {
                        continue;
                    }
                    let mut kslack = Big::ZERO;
                    if !self.allowed[k] {
                        kslack = self.slack(k);
                        if kslack.is_zero() {
                            self.allow(k);
                        }
                    }
                    let bw = self.in_blossom[w];
                    if self.allowed[k] {
                        if self.label[bw] == 0 {
                            if self.free_blossom(w) {
                                self.augment_to_free(k);
                                return;
                            }
                            self.assign_label(w, 2, self.flip(k));
                        } else if self.label[bw] == 1 {
                            let base = self.scan(v, w);
                            if base != NONE {
                                self.add_blossom(base, k);
                            } else {
                                self.flip_to_root(v, k);
                                let back = self.flip(k);
                                self.flip_to_root(w, back);
                                return;
                            }
                        } else if self.label[w] == 0 {
                            self.label[w] = 2;
                            self.label_end[w] = self.flip(k);
                        }
                    } else if self.label[bw] == 1 {
                        let b = self.in_blossom[v];
                        if self.best_edge[b] == NONE || kslack < self.best_slack[b] {
                            self.best_edge[b] = k;
                            self.best_slack[b] = kslack;
                        }
                    } else if self.label[w] == 0
                        && (self.best_edge[w] == NONE || kslack < self.best_slack[w])
                    {
                        self.best_edge[w] = k;
                        self.best_slack[w] = kslack;
                    }
                }
            }
            match self.step() {
                Step::Zero(x) => {
                    self.flip_to_root(x, NONE);
                    return;
                }
                Step::Reach(k) => {
                    self.allow(k);
                    let (i, j) = (k / n, k % n);
                    let s = if self.label[self.in_blossom[i]] == 1 {
                        i
                    } else {
                        j
                    };
                    self.queue.push(s);
                }
                Step::Join(k) => {
                    self.allow(k);
                    self.queue.push(k / n);
                }
                Step::Expand(b) => self.expand(b, false),
            }
        }
    }

    /// Changes the duals by the most that keeps them feasible; says what stopped it.
    fn step(&mut self) -> Step {
        let n = self.n;
        let mut delta = Big::ZERO;
        let mut step = None;
        for v in 0..n {
            if self.label[self.in_blossom[v]] == 1 && (step.is_none() || self.dual[v] < delta) {
                delta = self.dual[v];
                step = Some(Step::Zero(v));
            }
        }
        for v in 0..n {
            if self.label[self.in_blossom[v]] == 0 && self.best_edge[v] != NONE {
                let d = self.best_slack[v];
                if d < delta {
                    delta = d;
                    step = Some(Step::Reach(self.best_edge[v]));
                }
            }
        }
        for b in n..2 * n {
            if self.stale[b] && self.parent[b] == NONE && self.label[b] == 1 {
                self.find_best_edge(b);
            }
        }
        for b in 0..2 * n {
            if self.parent[b] == NONE && self.label[b] == 1 && self.best_edge[b] != NONE {
                let d = self.best_slack[b];
                debug_assert!(
                    d.0[0] & 1 == 0,
                    "outer vertices share the parity of their duals"
                );
                let d = d.half();
                if d < delta {
                    delta = d;
                    step = Some(Step::Join(self.best_edge[b]));
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
                step = Some(Step::Expand(b));
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
        for b in 0..2 * n {
            if self.best_edge[b] != NONE {
                self.best_slack[b] = self.slack(self.best_edge[b]);
            }
        }
        step.expect("a search tree has a root")
    }

    /// The least-slack edge from outer blossom `b` to another outer blossom.
    fn find_best_edge(&mut self, b: usize) {
        let n = self.n;
        self.stale[b] = false;
        self.best_edge[b] = NONE;
        for leaf in self.leaves_of(b) {
            for u in 0..n {
                let k = leaf * n + u;
                let bu = self.in_blossom[u];
                if !self.exists(k) || bu == b || self.label[bu] != 1 {
                    continue;
                }
                let slack = self.slack(k);
                if self.best_edge[b] == NONE || slack < self.best_slack[b] {
                    self.best_edge[b] = k;
                    self.best_slack[b] = slack;
                }
            }
        }
    }
}
