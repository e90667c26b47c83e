//! The FIDE Dutch Swiss system (handbook C.04.3) for two-player games, pure.
//!
//! Players are ranked by score, then by start number. Score brackets are paired from the top
//! down; the players a bracket cannot pair float down into the next one. In each bracket
//! deckmate looks for the pairing that best meets the criteria in the handbook's order:
//! - absolute: no rematch of a game played over the board (C1); the pairing-allocated bye
//!   never to a player who had it or won by forfeit (C2); two players who are not topscorers
//!   and must both have the same colour never meet (C3);
//! - completion: whoever is left below can still be paired (C4);
//! - quality, in this order: fewest downfloaters (C5); the smallest score differences, compared
//!   from the largest down, a downfloater counting against one point below the bracket's lowest
//!   score (C6); topscorers and their opponents kept to a colour difference of at most 2 and
//!   no three of a colour in a row (C8, C9); most colour preferences met, then most strong
//!   ones (C10, C11); no one floating down, or up, in the same direction as in the previous
//!   round, then two rounds before (C12 to C15).
//!
//! Among pairings equally good by every criterion, the handbook takes the first in its order of
//! transpositions, which pairs the top half of a bracket against the bottom half (1-5, 2-6...)
//! and floats the lowest players. deckmate searches in that order too, so it keeps the same
//! pairing whenever one exists that has nothing to improve. Where the handbook's exchanges
//! and deckmate's search order differ (brackets where the best pairing must move players across
//! the halves), the two may choose different, equally good, pairings. The score differences of
//! repeated floaters (C16 to C19) and the look-ahead of C7 are not weighed. A bracket whose
//! search exceeds [`SEARCH_LIMIT`] steps keeps the best pairing found so far.
//!
//! Colours follow the allocation rules: both preferences when they agree, else the stronger
//! one (the wider colour difference between two absolute ones), else alternating from the
//! last round in which the two had different colours, else the higher ranked player's. With no
//! preference at all, the higher ranked player gets the initial colour when their start number
//! is odd. Games not played (byes, forfeits, absences) count for neither colours nor rematches;
//! a player who does not play a round counts as having floated down in it.

use super::{Number, Pairing, Round};
use std::cmp::Ordering;

/// The colour of a two-player game's seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// What a player had in one earlier round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Past {
    /// A game played over the board.
    Played {
        opponent: Number,
        colour: Colour,
        halves: u32,
    },
    /// The pairing-allocated bye.
    Bye { halves: u32 },
    /// A game won because the opponent did not play it.
    ForfeitWin { halves: u32 },
    /// Any other round without a game: a forfeit lost, an announced absence, a round before
    /// the player joined.
    Absent { halves: u32 },
}

impl Past {
    pub fn halves(self) -> u32 {
        match self {
            Past::Played { halves, .. }
            | Past::Bye { halves }
            | Past::ForfeitWin { halves }
            | Past::Absent { halves } => halves,
        }
    }
}

/// A player of the tournament, with one entry a round so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub number: Number,
    pub history: Vec<Past>,
    /// False for a player who withdrew or is absent from the round being paired.
    pub present: bool,
}

/// A tournament to pair the next round of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// The number of rounds the tournament will have (topscorers exist only in the last).
    pub rounds: u32,
    /// The colour of the first player in round 1.
    pub initial: Colour,
    pub entrants: Vec<Entrant>,
}

impl Tournament {
    /// The round these pairings are for.
    pub fn round(&self) -> u32 {
        let played = self.entrants.iter().map(|e| e.history.len()).max();
        played.unwrap_or(0) as u32 + 1
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DutchError {
    #[error("player {0} is listed twice")]
    Duplicate(Number),
    #[error(
        "round {round} cannot be paired: the players left have all met, or none of them may \
         take the bye"
    )]
    Impossible { round: u32 },
}

/// Search steps allowed in one bracket before the best pairing found is kept.
pub const SEARCH_LIMIT: u64 = 2_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Float {
    None,
    Down,
    Up,
}

/// A player as the pairing sees them.
struct Player {
    number: Number,
    halves: u32,
    colours: Vec<Colour>,
    met: Vec<Number>,
    /// Floats of the previous round and the one before.
    floats: [Float; 2],
    bye_ok: bool,
    want: Option<Colour>,
    strength: Strength,
    /// Whites less blacks.
    difference: i32,
    topscorer: bool,
}

impl Player {
    fn streak_after(&self, colour: Colour) -> bool {
        let n = self.colours.len();
        n >= 2 && self.colours[n - 1] == colour && self.colours[n - 2] == colour
    }

    fn difference_after(&self, colour: Colour) -> i32 {
        self.difference + if colour == Colour::White { 1 } else { -1 }
    }
}

/// Pairs the next round of `tournament`.
pub fn pair(tournament: &Tournament) -> Result<Round, DutchError> {
    let round = tournament.round();
    let players = players(tournament)?;
    let n = players.len();
    let compatible: Vec<Vec<bool>> = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| a != b && may_meet(&players[a], &players[b]))
                .collect()
        })
        .collect();
    let everyone: Vec<usize> = (0..n).collect();
    let ctx = Context {
        players: &players,
        compatible: &compatible,
        initial: tournament.initial,
    };
    if !ctx.completes(&everyone) {
        return Err(DutchError::Impossible { round });
    }
    let mut result = Round::default();
    let mut movers: Vec<usize> = Vec::new();
    let mut next = 0;
    while next < n {
        let score = players[next].halves;
        let end = (next..n).find(|&i| players[i].halves != score).unwrap_or(n);
        let mut bracket = movers.clone();
        bracket.extend(next..end);
        let lower: Vec<usize> = (end..n).collect();
        let best = ctx
            .pair_bracket(&bracket, movers.len(), &lower)
            .ok_or(DutchError::Impossible { round })?;
        for (a, b, white) in best.pairs {
            let (w, k) = if white { (a, b) } else { (b, a) };
            result.games.push(Pairing {
                white: players[w].number,
                black: players[k].number,
            });
        }
        movers = best.floaters;
        movers.sort_unstable();
        next = end;
    }
    match movers.as_slice() {
        [] => {}
        [one] => result.bye = Some(players[*one].number),
        _ => return Err(DutchError::Impossible { round }),
    }
    Ok(result)
}

/// The present players, ranked by score then start number, with what the pairing needs.
fn players(tournament: &Tournament) -> Result<Vec<Player>, DutchError> {
    let round = tournament.round();
    let mut numbers: Vec<Number> = tournament.entrants.iter().map(|e| e.number).collect();
    numbers.sort_unstable();
    if let Some(w) = numbers.windows(2).find(|w| w[0] == w[1]) {
        return Err(DutchError::Duplicate(w[0]));
    }
    // Each entrant's score before each round, to tell floats apart.
    let before = |number: Number, r: usize| -> u32 {
        tournament
            .entrants
            .iter()
            .find(|e| e.number == number)
            .map_or(0, |e| e.history.iter().take(r).map(|p| p.halves()).sum())
    };
    let max_halves = 2 * (round - 1);
    let last_round = round == tournament.rounds;
    let mut players: Vec<Player> = tournament
        .entrants
        .iter()
        .filter(|e| e.present)
        .map(|e| {
            let mut colours = Vec::new();
            let mut met = Vec::new();
            let mut floats = Vec::new();
            for (r, past) in e.history.iter().enumerate() {
                floats.push(match *past {
                    Past::Played {
                        opponent, colour, ..
                    } => {
                        colours.push(colour);
                        met.push(opponent);
                        match before(e.number, r).cmp(&before(opponent, r)) {
                            Ordering::Greater => Float::Down,
                            Ordering::Less => Float::Up,
                            Ordering::Equal => Float::None,
                        }
                    }
                    _ => Float::Down,
                });
            }
            let float_back = |k: usize| {
                floats
                    .len()
                    .checked_sub(k)
                    .map_or(Float::None, |i| floats[i])
            };
            let halves = e.history.iter().map(|p| p.halves()).sum();
            let difference: i32 = colours
                .iter()
                .map(|c| if *c == Colour::White { 1 } else { -1 })
                .sum();
            let (want, strength) = preference(&colours, difference);
            Player {
                number: e.number,
                halves,
                floats: [float_back(1), float_back(2)],
                bye_ok: !e
                    .history
                    .iter()
                    .any(|p| matches!(p, Past::Bye { .. } | Past::ForfeitWin { .. })),
                want,
                strength,
                difference,
                topscorer: last_round && 2 * halves > max_halves,
                colours,
                met,
            }
        })
        .collect();
    players.sort_by(|a, b| b.halves.cmp(&a.halves).then(a.number.cmp(&b.number)));
    Ok(players)
}

/// A player's colour preference from the colours of the games they played (A.6).
fn preference(colours: &[Colour], difference: i32) -> (Option<Colour>, Strength) {
    let Some(&last) = colours.last() else {
        return (None, Strength::None);
    };
    let streak = colours.len() >= 2 && colours[colours.len() - 2] == last;
    if !(-1..=1).contains(&difference) || streak {
        let want = if difference > 1 || (difference >= -1 && last == Colour::White) {
            Colour::Black
        } else {
            Colour::White
        };
        (Some(want), Strength::Absolute)
    } else if difference != 0 {
        let want = if difference > 0 {
            Colour::Black
        } else {
            Colour::White
        };
        (Some(want), Strength::Strong)
    } else {
        (Some(last.other()), Strength::Mild)
    }
}

/// The absolute criteria C1 and C3.
fn may_meet(a: &Player, b: &Player) -> bool {
    if a.met.contains(&b.number) {
        return false;
    }
    let both_absolute = a.strength == Strength::Absolute && b.strength == Strength::Absolute;
    !both_absolute || a.want != b.want || a.topscorer || b.topscorer
}

/// The colour the higher ranked `a` gets against `b` (the allocation rules E.1 to E.5).
fn allocate(a: &Player, b: &Player, initial: Colour) -> Colour {
    match (a.want, b.want) {
        (None, None) => {
            if a.number % 2 == 1 {
                initial
            } else {
                initial.other()
            }
        }
        (Some(x), None) => x,
        (None, Some(y)) => y.other(),
        (Some(x), Some(y)) if x != y => x,
        (Some(x), Some(_)) => {
            let stronger = match a.strength.cmp(&b.strength) {
                Ordering::Equal if a.strength == Strength::Absolute => {
                    a.difference.abs().cmp(&b.difference.abs())
                }
                other => other,
            };
            match stronger {
                Ordering::Greater => return x,
                Ordering::Less => return x.other(),
                Ordering::Equal => {}
            }
            let differing = a
                .colours
                .iter()
                .rev()
                .zip(b.colours.iter().rev())
                .find(|(p, q)| p != q);
            match differing {
                Some((p, _)) => p.other(),
                None => x,
            }
        }
    }
}

/// Positions of the quality criteria after the score differences in a cost vector.
const TOPSCORER_DIFFERENCE: usize = 0;
const TOPSCORER_STREAK: usize = 1;
const PREFERENCE: usize = 2;
const STRONG_PREFERENCE: usize = 3;
const DOWN_AGAIN: usize = 4;
const UP_AGAIN: usize = 5;
const DOWN_TWO_BACK: usize = 6;
const UP_TWO_BACK: usize = 7;
const CRITERIA: usize = 8;

/// A bracket's pairing: pairs (higher ranked first, and whether they have White) and the
/// players who float down.
#[derive(Clone)]
struct Candidate {
    pairs: Vec<(usize, usize, bool)>,
    floaters: Vec<usize>,
}

struct Context<'a> {
    players: &'a [Player],
    compatible: &'a [Vec<bool>],
    initial: Colour,
}

/// The search of one bracket.
struct Search<'a, 'c> {
    ctx: &'c Context<'a>,
    bracket: &'c [usize],
    movers: usize,
    lower: &'c [usize],
    /// Score differences are counted from the largest: index 1 + (largest - difference).
    largest: u32,
    floor: u32,
    taken: Vec<bool>,
    current: Candidate,
    cost: Vec<u32>,
    best: Option<(Vec<u32>, Candidate)>,
    steps: u64,
}

impl Context<'_> {
    /// Whether `set` can be paired completely, one bye-eligible player left out if odd.
    fn completes(&self, set: &[usize]) -> bool {
        let n = set.len();
        if n == 0 {
            return true;
        }
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if self.compatible[set[i]][set[j]] {
                    edges.push((i, j, 1));
                }
            }
        }
        let dummy = n;
        if n % 2 == 1 {
            for (i, &p) in set.iter().enumerate() {
                if self.players[p].bye_ok {
                    edges.push((i, dummy, 1));
                }
            }
        }
        let total = n + n % 2;
        if edges.is_empty() {
            return false;
        }
        let mates = mwmatching::Matching::new(edges).max_cardinality().solve();
        let matched = mates.iter().filter(|&&m| m != mwmatching::SENTINEL).count();
        matched == total
    }

    fn pair_bracket(&self, bracket: &[usize], movers: usize, lower: &[usize]) -> Option<Candidate> {
        let halves = bracket.iter().map(|&p| self.players[p].halves);
        let floor = halves.clone().min().unwrap_or(0);
        let top = halves.max().unwrap_or(0);
        let mut search = Search {
            ctx: self,
            bracket,
            movers,
            lower,
            largest: top - floor + 2,
            floor,
            taken: vec![false; bracket.len()],
            current: Candidate {
                pairs: Vec::new(),
                floaters: Vec::new(),
            },
            cost: vec![0; 2 + (top - floor + 2) as usize + CRITERIA],
            best: None,
            steps: 0,
        };
        search.step();
        search.best.map(|(_, c)| c)
    }
}

impl Search<'_, '_> {
    fn psd_index(&self, difference: u32) -> usize {
        1 + (self.largest - difference.min(self.largest)) as usize
    }

    fn criterion(&self, k: usize) -> usize {
        2 + self.largest as usize + k
    }

    /// Whether every completion of the current partial pairing is no better than the best.
    fn hopeless(&self) -> bool {
        let Some((best, _)) = &self.best else {
            return false;
        };
        let left: Vec<&Player> = (0..self.bracket.len())
            .filter(|&i| !self.taken[i])
            .map(|i| &self.ctx.players[self.bracket[i]])
            .collect();
        let floats = (left.len() % 2) as u32;
        let unmet = |strong: bool| {
            let counts = |c: Colour| {
                left.iter()
                    .filter(|p| p.want == Some(c) && (!strong || p.strength >= Strength::Strong))
                    .count() as u32
            };
            let (w, b) = (counts(Colour::White), counts(Colour::Black));
            let n = left.len() as u32;
            let excess = (2 * w.max(b)).saturating_sub(n).saturating_sub(floats);
            excess / 2
        };
        let mut bound = self.cost.clone();
        bound[0] += floats;
        let (p, s) = (
            self.criterion(PREFERENCE),
            self.criterion(STRONG_PREFERENCE),
        );
        bound[p] += unmet(false);
        bound[s] += unmet(true);
        bound >= *best
    }

    fn step(&mut self) {
        self.steps += 1;
        if self.steps > SEARCH_LIMIT && self.best.is_some() {
            return;
        }
        if self.hopeless() {
            return;
        }
        let Some(first) = (0..self.bracket.len()).find(|&i| !self.taken[i]) else {
            self.leaf();
            return;
        };
        self.taken[first] = true;
        for other in self.partners(first) {
            let (a, b) = (self.bracket[first], self.bracket[other]);
            if !self.ctx.compatible[a][b] {
                continue;
            }
            let (delta, white) = self.pair_cost(a, b);
            self.taken[other] = true;
            self.apply(&delta, true);
            self.current.pairs.push((a, b, white));
            self.step();
            self.current.pairs.pop();
            self.apply(&delta, false);
            self.taken[other] = false;
        }
        let last = self.lower.is_empty();
        let p = &self.ctx.players[self.bracket[first]];
        if !last || (self.current.floaters.is_empty() && p.bye_ok) {
            let delta = self.float_cost(self.bracket[first]);
            self.apply(&delta, true);
            self.current.floaters.push(self.bracket[first]);
            self.step();
            self.current.floaters.pop();
            self.apply(&delta, false);
        }
        self.taken[first] = false;
    }

    /// The order in which `first` tries partners: a player moved down meets the residents
    /// from the top; a resident of the bracket meets the first of the lower half still free,
    /// then those below, then those above.
    fn partners(&self, first: usize) -> Vec<usize> {
        let free: Vec<usize> = (first + 1..self.bracket.len())
            .filter(|&i| !self.taken[i])
            .collect();
        if first < self.movers {
            let (movers, residents): (Vec<usize>, Vec<usize>) =
                free.into_iter().partition(|&i| i < self.movers);
            return residents.into_iter().chain(movers).collect();
        }
        // With `first` the bracket's free residents number free.len() + 1; the lower half
        // starts at half of that.
        let half = free.len().div_ceil(2).saturating_sub(1);
        let mut order: Vec<usize> = free[half..].to_vec();
        order.extend(free[..half].iter().rev());
        order
    }

    fn apply(&mut self, delta: &[(usize, u32)], add: bool) {
        for &(i, d) in delta {
            if add {
                self.cost[i] += d;
            } else {
                self.cost[i] -= d;
            }
        }
    }

    fn pair_cost(&self, a: usize, b: usize) -> (Vec<(usize, u32)>, bool) {
        let (pa, pb) = (&self.ctx.players[a], &self.ctx.players[b]);
        let colour = allocate(pa, pb, self.ctx.initial);
        let mut delta = Vec::new();
        let difference = pa.halves.abs_diff(pb.halves);
        if difference > 0 {
            delta.push((self.psd_index(difference), 1));
        }
        let topscorers = pa.topscorer || pb.topscorer;
        for (p, c) in [(pa, colour), (pb, colour.other())] {
            if topscorers && p.difference_after(c).abs() > 2 {
                delta.push((self.criterion(TOPSCORER_DIFFERENCE), 1));
            }
            if topscorers && p.streak_after(c) {
                delta.push((self.criterion(TOPSCORER_STREAK), 1));
            }
            if p.want.is_some_and(|w| w != c) {
                delta.push((self.criterion(PREFERENCE), 1));
                if p.strength >= Strength::Strong {
                    delta.push((self.criterion(STRONG_PREFERENCE), 1));
                }
            }
        }
        if difference > 0 {
            let up = if pa.halves < pb.halves { pa } else { pb };
            if up.floats[0] == Float::Up {
                delta.push((self.criterion(UP_AGAIN), 1));
            }
            if up.floats[1] == Float::Up {
                delta.push((self.criterion(UP_TWO_BACK), 1));
            }
        }
        (delta, colour == Colour::White)
    }

    fn float_cost(&self, p: usize) -> Vec<(usize, u32)> {
        let player = &self.ctx.players[p];
        let mut delta = vec![(0, 1)];
        delta.push((self.psd_index(player.halves + 2 - self.floor), 1));
        if player.floats[0] == Float::Down {
            delta.push((self.criterion(DOWN_AGAIN), 1));
        }
        if player.floats[1] == Float::Down {
            delta.push((self.criterion(DOWN_TWO_BACK), 1));
        }
        delta
    }

    fn leaf(&mut self) {
        if self
            .best
            .as_ref()
            .is_some_and(|(best, _)| self.cost >= *best)
        {
            return;
        }
        let mut rest = self.current.floaters.clone();
        rest.extend_from_slice(self.lower);
        if self.ctx.completes(&rest) {
            self.best = Some((self.cost.clone(), self.current.clone()));
        }
    }
}
