//! The bracket-by-bracket Dutch pairing, as weighted matchings (handbook C.04.3, 2025).
//!
//! Every possible game gets one wide weight whose bit fields, from the most significant,
//! encode the criteria in the handbook's order, the way bbpPairings orders them:
//! the game is allowed at all (C1, C3) and whether its players may still take the bye (C2,
//! C4); the number of pairs in the current bracket and the scores paired there (C5, C6); the
//! same for the next bracket (the look-ahead of C7); the bye going to the player in the lowest
//! score group with the most games played (C9); colour criteria C10 to C13 (topscorers'
//! colour differences above 2 and same colour three times, preferences met, strong
//! preferences met); repeated floats of the previous round and the one before (C14 to C17);
//! then the scores of those repeated floaters (C18 to C21). The low bits are left free for the
//! order among equally good pairings: the fewest exchanges between S1 and S2, the smallest
//! difference of the exchanged players' numbers, then the highest players paired first
//! (the handbook's transpositions and exchanges, section D).
//!
//! The whole round is one graph: players of brackets not yet reached keep weights that only
//! ask for a complete pairing, so each bracket is settled knowing the rest can be paired.
//! Within a bracket, the moved-down players to pair are chosen from the top, then their
//! opponents, then which residents are exchanged, then each S1 player's opponent, each
//! choice fixed by raising one weight and solving again. A pair once chosen is frozen.
//! Accelerations and forbidden pairs are not supported.

use super::dutch::{Float, Player};
use super::matching::{Big, Matcher};
use std::collections::HashMap;

fn bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// Partners per player (indices into `players`, ranked), or None when no pairing exists.
pub(super) fn pair_players(
    players: &[Player],
    played: u32,
    last_round: bool,
) -> Option<Vec<Option<usize>>> {
    if players.is_empty() {
        return Some(Vec::new());
    }
    let layout = Layout::new(players, played);
    let need = layout.total + 8 + bits(players.len() as u64);
    match need.div_ceil(64) {
        0..=1 => Engine::<1>::new(players, played, last_round, layout).run(),
        2 => Engine::<2>::new(players, played, last_round, layout).run(),
        3 => Engine::<3>::new(players, played, last_round, layout).run(),
        4 => Engine::<4>::new(players, played, last_round, layout).run(),
        5..=6 => Engine::<6>::new(players, played, last_round, layout).run(),
        7..=8 => Engine::<8>::new(players, played, last_round, layout).run(),
        9..=10 => Engine::<10>::new(players, played, last_round, layout).run(),
        11..=12 => Engine::<12>::new(players, played, last_round, layout).run(),
        13..=16 => Engine::<16>::new(players, played, last_round, layout).run(),
        17..=32 => Engine::<32>::new(players, played, last_round, layout).run(),
        _ => Engine::<64>::new(players, played, last_round, layout).run(),
    }
}

/// Field widths of the weight: `s` holds a count of pairs, `groups` a value per score group.
struct Layout {
    s: u32,
    groups: u32,
    shift: HashMap<u32, u32>,
    total: u32,
}

impl Layout {
    fn new(players: &[Player], played: u32) -> Layout {
        let mut shift = HashMap::new();
        let (mut groups, mut largest) = (0, 0);
        let mut i = players.len();
        while i > 0 {
            let score = players[i - 1].halves;
            let mut size = 0;
            while i > 0 && players[i - 1].halves == score {
                size += 1;
                i -= 1;
            }
            shift.insert(score, groups);
            groups += bits(size);
            largest = largest.max(size);
        }
        let s = bits(largest);
        let mut total = 2 + 4 * s + 2 * groups + 4 * s + 3 * s + 1;
        if played >= 1 {
            total += 2 * s + 2 * groups;
        }
        if played >= 2 {
            total += 2 * s + 2 * groups;
        }
        Layout {
            s,
            groups,
            shift,
            total,
        }
    }
}

struct Engine<'a, const L: usize> {
    ps: &'a [Player],
    played: u32,
    last_round: bool,
    layout: Layout,
    bye_score: u32,
    single_bye: bool,
    unplayed_rank: HashMap<u32, u64>,
    matcher: Matcher<L>,
    top: Big<L>,
}

impl<'a, const L: usize> Engine<'a, L> {
    fn new(ps: &'a [Player], played: u32, last_round: bool, layout: Layout) -> Self {
        let n = ps.len();
        let top = Big::from_u64(1).shifted(layout.total + 1).sub_u64(1);
        Engine {
            ps,
            played,
            last_round,
            layout,
            bye_score: 0,
            single_bye: false,
            unplayed_rank: HashMap::new(),
            matcher: Matcher::new(n, top),
            top,
        }
    }

    fn set(&mut self, a: usize, b: usize, w: Big<L>) {
        self.matcher.set(a, b, w);
    }

    /// A matching of greatest weight: each vertex's mate, itself when unmatched.
    fn solve(&mut self) -> Vec<usize> {
        self.matcher.solve()
    }

    fn compatible(&self, a: &Player, b: &Player) -> bool {
        if a.met.contains(&b.number) {
            return false;
        }
        !a.absolute()
            || !b.absolute()
            || a.want != b.want
            || (self.last_round && (a.halves > self.played || b.halves > self.played))
    }

    fn bye_candidate(&self, p: &Player) -> bool {
        p.bye_ok && p.halves <= self.bye_score
    }

    fn shift_of(&self, p: &Player) -> u32 {
        self.layout.shift[&p.halves]
    }

    fn one_at(&self, p: &Player) -> Big<L> {
        Big::from_u64(1).shifted(self.shift_of(p))
    }

    /// The weight of `hi` (ranked higher) against `lo`, `lo` being in the current bracket or
    /// in the next one.
    fn edge(&self, hi: &Player, lo: &Player, current: bool, next: bool) -> Big<L> {
        if !self.compatible(hi, lo) {
            return Big::ZERO;
        }
        let (s, g) = (self.layout.s, self.layout.groups);
        let flag = |b: bool| Big::<L>::from_u64(b as u64);
        let mut w =
            Big::from_u64(1 + !self.bye_candidate(hi) as u64 + !self.bye_candidate(lo) as u64);
        w = w.shifted(s).plus(flag(current));
        w = w.shifted(g);
        if current {
            w = w.plus(self.one_at(hi));
        }
        w = w.shifted(s).plus(flag(next));
        w = w.shifted(g);
        if next {
            w = w.plus(self.one_at(hi));
        }
        w = w.shifted(2 * s);
        if self.single_bye {
            for p in [hi, lo] {
                if p.halves == self.bye_score {
                    w = w.add_u64(self.unplayed_rank[&p.played_games]);
                }
            }
        }
        // Colours: `lo` is the player, `hi` the opponent, as in the reference.
        let (p, o) = (lo, hi);
        let same = p.want == o.want;
        let c1 = p.imbalance <= 1 || o.imbalance <= 1 || !same;
        let c2 = !p.absolute()
            || !o.absolute()
            || !same
            || if p.imbalance == o.imbalance {
                p.repeated.is_none() || p.repeated != o.repeated
            } else {
                let side = if p.imbalance > o.imbalance { o } else { p };
                side.repeated != p.want.map(|c| c.other())
            };
        let c3 = !same || p.want.is_none();
        let mild = |x: &Player| !x.strong && !x.absolute();
        let c4 = mild(p) || mild(o) || (p.absolute() && o.absolute()) || !same;
        for c in [c1, c2, c3, c4] {
            w = w.shifted(s).plus(flag(current && c));
        }
        let lower_or_equal = hi.halves <= lo.halves;
        let up_against = hi.halves > lo.halves;
        for back in 0..2 {
            if self.played > back as u32 {
                w = w.shifted(s);
                if current {
                    w = w.plus(flag(lo.floats[back] == Float::Down));
                    w = w.plus(flag(lower_or_equal && hi.floats[back] == Float::Down));
                }
                w = w.shifted(s);
                if current {
                    w = w.plus(flag(!(up_against && lo.floats[back] == Float::Up)));
                }
            }
        }
        for back in 0..2 {
            if self.played > back as u32 {
                w = w.shifted(g);
                if current {
                    if lo.floats[back] == Float::Down {
                        w = w.plus(self.one_at(lo));
                    }
                    if hi.floats[back] == Float::Down {
                        w = w.plus(self.one_at(hi));
                    }
                }
                w = w.shifted(g);
                if current && !(lo.floats[back] == Float::Up && up_against) {
                    w = w.plus(self.one_at(hi));
                }
            }
        }
        w.shifted(3 * s + 1)
    }

    /// Freezes the pair `a`-`b`: no other edge of either remains.
    fn freeze(&mut self, a: usize, b: usize) {
        for u in 0..self.ps.len() {
            if u != a {
                let w = if u == b { self.top } else { Big::ZERO };
                self.set(a, u, w);
            }
            if u != b {
                let w = if u == a { self.top } else { Big::ZERO };
                self.set(b, u, w);
            }
        }
    }

    fn all_edges(&mut self) {
        let ps = self.ps;
        for p in 0..ps.len() {
            for o in 0..p {
                let w = self.edge(&ps[o], &ps[p], false, false);
                self.set(p, o, w);
            }
        }
    }

    /// Finds the bye's score and sets up the weights; None when no pairing exists.
    fn start(&mut self) -> Option<()> {
        let ps = self.ps;
        let n = ps.len();
        let odd = n % 2 == 1;
        if odd {
            let (s, g) = (self.layout.s, self.layout.groups);
            for p in 0..n {
                for o in 0..p {
                    let mut w = Big::ZERO;
                    if self.compatible(&ps[p], &ps[o]) {
                        w = Big::from_u64(1 + !ps[p].bye_ok as u64 + !ps[o].bye_ok as u64)
                            .shifted(g)
                            .add_u64((self.shift_of(&ps[p]) + self.shift_of(&ps[o])) as u64)
                            .shifted(s)
                            .add_u64((ps[p].halves >= ps[0].halves) as u64);
                    }
                    self.set(p, o, w);
                }
            }
        } else {
            self.all_edges();
        }
        let mates = self.solve();
        let single: Vec<usize> = (0..n).filter(|&v| mates[v] == v).collect();
        if single.len() > 1 || single.iter().any(|&v| !ps[v].bye_ok) {
            return None;
        }
        if odd {
            self.bye_score = ps[single[0]].halves;
            let top = ps[0].halves;
            self.single_bye = self.bye_score >= top
                && (0..n)
                    .take_while(|&v| ps[v].halves >= top)
                    .all(|v| ps[mates[v]].halves >= top);
            let mut counts: Vec<u32> = ps
                .iter()
                .filter(|p| p.halves == self.bye_score)
                .map(|p| p.played_games)
                .collect();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, c) in counts.into_iter().enumerate() {
                self.unplayed_rank.insert(c, rank as u64);
            }
            self.all_edges();
        }
        Some(())
    }

    fn run(mut self) -> Option<Vec<Option<usize>>> {
        self.start()?;
        let ps = self.ps;
        let n = ps.len();
        let mut next = ps.iter().take_while(|p| p.halves >= ps[0].halves).count();
        let mut bracket: Vec<usize> = (0..next).collect();
        let mut matched = vec![false; n];
        let mut partner: Vec<Option<usize>> = vec![None; n];
        let (mut sgb, mut sgbv) = (0usize, 0usize);
        while bracket.len() > 1 || next < n {
            let nsgb = bracket.len();
            let nsgbv = sgbv + (nsgb - sgb);
            let group_start = next;
            while next < n && ps[next].halves >= ps[group_start].halves {
                bracket.push(next);
                next += 1;
            }
            let state = BracketState {
                bracket,
                sgb,
                nsgb,
                sgbv,
                nsgbv,
            };
            let (bracket_back, stable) = self.bracket(state, &mut matched);
            bracket = bracket_back;
            let mut carried = Vec::new();
            sgb = 0;
            self.single_bye =
                n % 2 == 1 && group_start < n && self.bye_score >= ps[group_start].halves;
            for (i, &v) in bracket.iter().enumerate() {
                if i < nsgb && matched[v] {
                    partner[v] = Some(stable[v]);
                    partner[stable[v]] = Some(v);
                } else {
                    carried.push(v);
                    if i < nsgb {
                        sgb += 1;
                    }
                    if self.single_bye && ps[stable[v]].halves < ps[group_start].halves {
                        self.single_bye = false;
                    }
                }
            }
            bracket = carried;
            sgbv = nsgbv;
        }
        Some(partner)
    }
}

/// One bracket: `bracket[..sgb]` moved down, `bracket[sgb..nsgb]` its residents,
/// `bracket[nsgb..]` the next score group; `sgbv..nsgbv` are the residents' vertices.
struct BracketState {
    bracket: Vec<usize>,
    sgb: usize,
    nsgb: usize,
    sgbv: usize,
    nsgbv: usize,
}

#[path = "dutch_settle.rs"]
mod settle;
