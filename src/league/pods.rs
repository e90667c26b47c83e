//! Swiss pods for games of three or four players (En Prise): each round the players are
//! seated at tables grouped by score, no one meeting a player they have already sat with when
//! that can be avoided, and the seat order balanced over the season.
//!
//! No published system pairs multi-player tables in a Swiss, so deckmate's rules are these:
//! - **Table sizes.** Tables of four; tables of three when the count needs them (6 = 3 + 3,
//!   7 = 4 + 3, 9 = 3 + 3 + 3). Five players sit at a table of three and one of two (En Prise
//!   is played by two as well); two players share one table; only a player alone in a round
//!   has a bye (one point).
//! - **Who sits together.** The players are ranked by score, then start number, and the
//!   tables filled from the top, four-player tables first. Among all ways to fill them the
//!   pods take, in this order: the fewest pairs of players who met before, the smallest score
//!   spread (each player's distance below their table's best score, summed), and then the
//!   first in rank order (the top four together, then the next four).
//! - **Seats.** At each table the seats go to whoever has sat in them least often, compared
//!   as a total over the table; between equally balanced orders the higher ranked player
//!   takes the earlier seat.
//! - The search is exact for a dozen or so players; in larger fields it keeps the best
//!   grouping found within [`SEARCH_LIMIT`] steps, then moves players between tables (swaps
//!   between two, rotations among three) while a move removes a repeated meeting or narrows
//!   the spread. That is not proven exact, but found no-repeat groupings where they exist in
//!   the fields tried.
//! - **Scoring.** A player scores a point for each player they finish ahead of (at a table
//!   of four: 3, 2, 1, 0), so a drawn En Prise game scores nothing for anyone, as its rule
//!   sheet says. Standings count points, then the league's tiebreaks as they apply to tables:
//!   wins (tables finished first alone, not by a forfeit), Buchholz (for each table, the
//!   table-mates' average final score; byes and absences add nothing), median Buchholz (the same less the highest and lowest tables), cumulative;
//!   Sonneborn-Berger and direct encounter separate no one at tables.

use super::Number;
use super::standings::{Standing, Tiebreak, rank};
use std::collections::BTreeMap;

/// Search steps allowed before the best grouping found is kept.
pub const SEARCH_LIMIT: u64 = 500_000;

/// A player as the pods see them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodPlayer {
    pub number: Number,
    /// Points so far, in the league's units.
    pub score: u32,
    /// Everyone they have sat at a table with.
    pub met: Vec<Number>,
    /// How many times they sat in each seat (index 0 for the first seat).
    pub seats: [u32; 4],
}

/// Each seat's half points from a finished table's places (best first, each a list of seat
/// indices): two for every player finished ahead of.
pub fn placement_points(seats: usize, places: &[Vec<usize>]) -> Vec<u32> {
    let mut points = vec![0; seats];
    let mut below = seats;
    for group in places {
        below -= group.len().min(below);
        for &seat in group {
            if let Some(p) = points.get_mut(seat) {
                *p = 2 * below as u32;
            }
        }
    }
    points
}

/// One round's result for a player: the half points, and the table-mates (none for a bye or
/// an absence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEntry {
    pub round: u32,
    pub player: Number,
    pub halves: u32,
    pub mates: Vec<Number>,
    /// Finished first, alone.
    pub won: bool,
}

/// The standings of a pods league from its players and results, with `order`'s tiebreaks.
pub fn standings(players: &[Number], entries: &[TableEntry], order: &[Tiebreak]) -> Vec<Standing> {
    let mut by_player: BTreeMap<Number, Vec<&TableEntry>> =
        players.iter().map(|&p| (p, Vec::new())).collect();
    for e in entries {
        by_player.entry(e.player).or_default().push(e);
    }
    let total = |p: Number| -> u32 {
        by_player
            .get(&p)
            .map_or(0, |es| es.iter().map(|e| e.halves).sum())
    };
    // Each table's worth for Buchholz: the mates' average final score, kept in sixths (one,
    // two or three mates divide it exactly) until the sum is rounded down once. A round sat
    // out (a bye, an absence) counts as a table of mates with the player's own final score,
    // as FIDE counts an unplayed round against a virtual opponent.
    let strengths = |es: &[&TableEntry]| -> Vec<u32> {
        es.iter()
            .map(|e| match e.mates.len() {
                0 => 6 * total(e.player),
                n => 6 * e.mates.iter().map(|&m| total(m)).sum::<u32>() / n as u32,
            })
            .collect()
    };
    let mut lines: Vec<Standing> = by_player
        .iter()
        .map(|(&player, es)| {
            let tiebreaks = order
                .iter()
                .map(|t| match t {
                    Tiebreak::Wins => es.iter().filter(|e| e.won).count() as u32,
                    Tiebreak::Buchholz => strengths(es).iter().sum::<u32>() / 6,
                    Tiebreak::MedianBuchholz => {
                        let mut s = strengths(es);
                        s.sort_unstable();
                        match s.len() {
                            0..=2 => 0,
                            n => s[1..n - 1].iter().sum::<u32>() / 6,
                        }
                    }
                    Tiebreak::Cumulative => {
                        let mut rounds: Vec<&&TableEntry> = es.iter().collect();
                        rounds.sort_by_key(|e| e.round);
                        let mut running = 0;
                        rounds
                            .iter()
                            .map(|e| {
                                running += e.halves;
                                running
                            })
                            .sum()
                    }
                    Tiebreak::SonnebornBerger | Tiebreak::DirectEncounter => 0,
                })
                .collect();
            Standing {
                rank: 0,
                player,
                halves: total(player),
                tiebreaks,
            }
        })
        .collect();
    rank(&mut lines);
    lines
}

/// The sizes of a round's tables for `players` players, largest first.
pub fn table_sizes(players: usize) -> Vec<usize> {
    match players {
        0 | 1 => vec![],
        2 => vec![2],
        5 => vec![3, 2],
        n => {
            let threes = (4 - n % 4) % 4;
            let fours = (n - 3 * threes) / 4;
            let mut sizes = vec![4; fours];
            sizes.extend(std::iter::repeat_n(3, threes));
            sizes
        }
    }
}

/// Seats the players for a round: each table lists its players in seat order. A single
/// player left alone sits nowhere (the caller scores it as a bye).
pub fn pods(players: &[PodPlayer]) -> Vec<Vec<Number>> {
    let mut ranked: Vec<&PodPlayer> = players.iter().collect();
    ranked.sort_by(|a, b| b.score.cmp(&a.score).then(a.number.cmp(&b.number)));
    let sizes = table_sizes(ranked.len());
    let mut search = Search {
        players: &ranked,
        sizes: &sizes,
        taken: vec![false; ranked.len()],
        tables: Vec::new(),
        cost: (0, 0),
        best: None,
        steps: 0,
    };
    search.fill(0, Vec::new());
    let mut tables = search.best.map(|(_, t)| t).unwrap_or_default();
    improve(&ranked, &mut tables);
    tables
        .into_iter()
        .map(|table| seat(&table.iter().map(|&i| ranked[i]).collect::<Vec<_>>()))
        .collect()
}

/// A grouping's cost: repeated meetings, then score spread (each player's distance below
/// their table's best score).
fn cost(players: &[&PodPlayer], tables: &Tables) -> (u32, u32) {
    let mut repeats = 0;
    let mut spread = 0;
    for table in tables {
        let best = table.iter().map(|&i| players[i].score).max().unwrap_or(0);
        for (k, &i) in table.iter().enumerate() {
            spread += best - players[i].score;
            let met = &players[i].met;
            repeats += table[k + 1..]
                .iter()
                .filter(|&&j| met.contains(&players[j].number))
                .count() as u32;
        }
    }
    (repeats, spread)
}

/// Moves players between tables while a move makes the grouping cheaper: a swap between two
/// tables, or a rotation among three. For large fields, where the search stopped at its
/// limit, this removes repeated meetings it left.
fn improve(players: &[&PodPlayer], tables: &mut Tables) {
    let mut current = cost(players, tables);
    // Places (table, seat) moved in a cycle: each takes the next one's player.
    let mut try_cycle = |tables: &mut Tables, places: &[(usize, usize)]| -> bool {
        let before: Vec<usize> = places.iter().map(|&(t, s)| tables[t][s]).collect();
        for (k, &(t, s)) in places.iter().enumerate() {
            tables[t][s] = before[(k + 1) % places.len()];
        }
        let tried = cost(players, tables);
        if tried < current {
            current = tried;
            return true;
        }
        for (k, &(t, s)) in places.iter().enumerate() {
            tables[t][s] = before[k];
        }
        false
    };
    let n = tables.len();
    let mut better = true;
    while better {
        better = false;
        for a in 0..n {
            for b in a + 1..n {
                for x in 0..tables[a].len() {
                    for y in 0..tables[b].len() {
                        better |= try_cycle(tables, &[(a, x), (b, y)]);
                    }
                }
            }
        }
        if better || n < 3 {
            continue;
        }
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    for x in 0..tables[a].len() {
                        for y in 0..tables[b].len() {
                            for z in 0..tables[c].len() {
                                better |= try_cycle(tables, &[(a, x), (b, y), (c, z)]);
                                better |= try_cycle(tables, &[(a, x), (c, z), (b, y)]);
                            }
                        }
                    }
                }
            }
        }
    }
    for table in tables.iter_mut() {
        table.sort_unstable();
    }
}

/// Tables of indices into the ranked players.
type Tables = Vec<Vec<usize>>;

struct Search<'a> {
    players: &'a [&'a PodPlayer],
    sizes: &'a [usize],
    taken: Vec<bool>,
    tables: Vec<Vec<usize>>,
    /// Repeated meetings, then score spread.
    cost: (u32, u32),
    best: Option<((u32, u32), Tables)>,
    steps: u64,
}

impl Search<'_> {
    /// Fills the table being built (`table`, indices in rank order), then the next ones.
    fn fill(&mut self, from: usize, table: Vec<usize>) {
        self.steps += 1;
        if self.steps > SEARCH_LIMIT && self.best.is_some() {
            return;
        }
        if self
            .best
            .as_ref()
            .is_some_and(|(best, _)| self.cost >= *best)
        {
            return;
        }
        let Some(&size) = self.sizes.get(self.tables.len()) else {
            self.best = Some((self.cost, self.tables.clone()));
            return;
        };
        if table.len() == size {
            self.tables.push(table);
            self.fill(0, Vec::new());
            self.tables.pop();
            return;
        }
        // A table starts with the best ranked player left; the others follow in rank order.
        let start = if table.is_empty() {
            match self.taken.iter().position(|t| !t) {
                Some(first) => first,
                None => return,
            }
        } else {
            from
        };
        let last = if table.is_empty() {
            start + 1
        } else {
            self.players.len()
        };
        for i in start..last {
            if self.taken[i] {
                continue;
            }
            let player = self.players[i];
            let repeats = table
                .iter()
                .filter(|&&j| player.met.contains(&self.players[j].number))
                .count() as u32;
            let spread = table
                .first()
                .map_or(0, |&top| self.players[top].score - player.score);
            let before = self.cost;
            self.cost = (before.0 + repeats, before.1 + spread);
            self.taken[i] = true;
            let mut next = table.clone();
            next.push(i);
            self.fill(i + 1, next);
            self.taken[i] = false;
            self.cost = before;
        }
    }
}

/// The seat order for one table: the least use of each player's seats, then rank order.
fn seat(table: &[&PodPlayer]) -> Vec<Number> {
    let n = table.len();
    let mut order: Vec<usize> = (0..n).collect();
    let mut best: Option<(u32, Vec<usize>)> = None;
    loop {
        let used: u32 = order
            .iter()
            .enumerate()
            .map(|(seat, &p)| table[p].seats[seat])
            .sum();
        if best.as_ref().is_none_or(|(b, _)| used < *b) {
            best = Some((used, order.clone()));
        }
        if !next_permutation(&mut order) {
            break;
        }
    }
    let order = best.map(|(_, o)| o).unwrap_or_default();
    order.iter().map(|&p| table[p].number).collect()
}

/// Steps `items` to the next permutation in lexicographic order; false after the last.
fn next_permutation(items: &mut [usize]) -> bool {
    let Some(i) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let j = (i..items.len())
        .rev()
        .find(|&j| items[j] > items[i - 1])
        .unwrap_or(i);
    items.swap(i - 1, j);
    items[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_place_is_worth_a_point_for_each_player_behind() {
        assert_eq!(
            placement_points(4, &[vec![2], vec![0], vec![1], vec![3]]),
            [4, 2, 6, 0]
        );
        assert_eq!(placement_points(3, &[vec![1], vec![0, 2]]), [0, 4, 0]);
        // A draw: no one is behind anyone.
        assert_eq!(placement_points(4, &[vec![0, 1, 2, 3]]), [0, 0, 0, 0]);
    }

    #[test]
    fn pods_standings_count_points_then_wins_and_table_strength() {
        let entry = |round, player, halves, mates: &[Number], won| TableEntry {
            round,
            player,
            halves,
            mates: mates.to_vec(),
            won,
        };
        let entries = [
            entry(1, 1, 6, &[2, 3, 4], true),
            entry(1, 2, 4, &[1, 3, 4], false),
            entry(1, 3, 2, &[1, 2, 4], false),
            entry(1, 4, 0, &[1, 2, 3], false),
            entry(2, 1, 0, &[2, 4], false),
            entry(2, 2, 2, &[1, 4], false),
            entry(2, 4, 4, &[1, 2], true),
            entry(2, 3, 2, &[], false),
        ];
        let order = [Tiebreak::Wins, Tiebreak::Buchholz];
        let lines = standings(&[1, 2, 3, 4], &entries, &order);
        let shown: Vec<(usize, Number, u32, Vec<u32>)> = lines
            .iter()
            .map(|l| (l.rank, l.player, l.halves, l.tiebreaks.clone()))
            .collect();
        // Totals: 1: 6, 2: 6, 3: 4, 4: 4. Buchholz of 1: (6+4+4)/3 + (6+4)/2 = 4 + 5 = 9;
        // of 4: (6+6+4)/3 + (6+6)/2 = 5 + 6 = 11; of 3, whose round 2 was a bye counted at
        // their own score: (6+6+4)/3 + 4 = 9.33, rounded down once.
        assert_eq!(
            shown,
            [
                (1, 1, 6, vec![1, 9]),
                (2, 2, 6, vec![0, 9]),
                (3, 4, 4, vec![1, 11]),
                (4, 3, 4, vec![0, 9]),
            ]
        );
    }

    #[test]
    fn tables_are_of_four_with_threes_when_the_count_needs_them() {
        let sizes: Vec<Vec<usize>> = (0..=12).map(table_sizes).collect();
        assert_eq!(
            sizes,
            [
                vec![],
                vec![],
                vec![2],
                vec![3],
                vec![4],
                vec![3, 2],
                vec![3, 3],
                vec![4, 3],
                vec![4, 4],
                vec![3, 3, 3],
                vec![4, 3, 3],
                vec![4, 4, 3],
                vec![4, 4, 4],
            ]
        );
        for n in 2..200 {
            assert_eq!(table_sizes(n).iter().sum::<usize>(), n);
        }
    }

    fn fresh(n: u32) -> Vec<PodPlayer> {
        (1..=n)
            .map(|number| PodPlayer {
                number,
                score: 0,
                met: vec![],
                seats: [0; 4],
            })
            .collect()
    }

    #[test]
    fn the_first_round_seats_players_in_rank_order() {
        assert_eq!(pods(&fresh(7)), [vec![1, 2, 3, 4], vec![5, 6, 7]]);
    }

    /// Whether some grouping of `players` into tables of the sizes has no repeated meeting.
    fn avoidable(players: &[PodPlayer], sizes: &[usize]) -> bool {
        let Some((&size, rest)) = sizes.split_first() else {
            return true;
        };
        let (first, others) = players.split_first().unwrap();
        let mut pick = vec![first];
        fn choose<'a>(
            pool: &'a [PodPlayer],
            need: usize,
            pick: &mut Vec<&'a PodPlayer>,
            done: &mut dyn FnMut(&[&'a PodPlayer]) -> bool,
        ) -> bool {
            if need == 0 {
                return done(pick);
            }
            for (i, p) in pool.iter().enumerate() {
                if pick.iter().any(|q| q.met.contains(&p.number)) {
                    continue;
                }
                pick.push(p);
                let found = choose(&pool[i + 1..], need - 1, pick, done);
                pick.pop();
                if found {
                    return true;
                }
            }
            false
        }
        choose(others, size - 1, &mut pick, &mut |chosen| {
            let left: Vec<PodPlayer> = players
                .iter()
                .filter(|p| !chosen.iter().any(|c| c.number == p.number))
                .cloned()
                .collect();
            avoidable(&left, rest)
        })
    }

    #[test]
    fn pods_never_repeat_a_meeting_that_could_be_avoided() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for _ in 0..300 {
            let n = rng.random_range(3..=12);
            let mut players = fresh(n);
            for _round in 0..rng.random_range(2..=6) {
                let tables = pods(&players);
                let repeats: usize = tables
                    .iter()
                    .map(|t| {
                        let p = |n: Number| players.iter().find(|x| x.number == n).unwrap();
                        t.iter()
                            .enumerate()
                            .flat_map(|(i, a)| t[i + 1..].iter().map(move |b| (*a, *b)))
                            .filter(|(a, b)| p(*a).met.contains(b))
                            .count()
                    })
                    .sum();
                let mut ranked = players.clone();
                ranked.sort_by(|a, b| b.score.cmp(&a.score).then(a.number.cmp(&b.number)));
                if avoidable(&ranked, &table_sizes(n as usize)) {
                    assert_eq!(repeats, 0, "{players:?} seated {tables:?}");
                }
                let mut seen: Vec<Number> = tables.iter().flatten().copied().collect();
                seen.sort_unstable();
                assert_eq!(seen, (1..=n).collect::<Vec<_>>());
                for table in &tables {
                    let winner = table[rng.random_range(0..table.len())];
                    for (seat, &number) in table.iter().enumerate() {
                        let player = players.iter_mut().find(|x| x.number == number).unwrap();
                        player.seats[seat] += 1;
                        player.score += u32::from(number == winner) * 2;
                        player.met.extend(table.iter().filter(|&&o| o != number));
                    }
                }
            }
        }
    }

    #[test]
    fn a_large_field_loses_the_repeats_the_search_left() {
        // Twenty-four players over four rounds with random winners: every round seats no one
        // with a player they met, which the result itself shows possible.
        let mut rng = ChaCha8Rng::seed_from_u64(24);
        let mut players = fresh(24);
        for round in 1..=4 {
            let tables = pods(&players);
            for table in &tables {
                for (i, a) in table.iter().enumerate() {
                    let met = &players[*a as usize - 1].met;
                    let again = table[i + 1..].iter().filter(|b| met.contains(b)).count();
                    assert_eq!(again, 0, "round {round}: {tables:?}");
                }
            }
            for table in &tables {
                let winner = table[rng.random_range(0..table.len())];
                for &number in table {
                    let player = &mut players[number as usize - 1];
                    player.score += u32::from(number == winner) * 2;
                    player.met.extend(table.iter().filter(|&&o| o != number));
                }
            }
        }
    }

    #[test]
    fn seats_rotate_so_no_one_keeps_the_same_seat() {
        // Four players at one table for four rounds: each sits in every seat once.
        let mut players = fresh(4);
        for _ in 0..4 {
            let tables = pods(&players);
            for (seat, &number) in tables[0].iter().enumerate() {
                players[number as usize - 1].seats[seat] += 1;
            }
        }
        assert!(
            players.iter().all(|p| p.seats == [1, 1, 1, 1]),
            "{players:?}"
        );
    }
}
