//! Ratings from the stored results: Glicko-2 for two-player games, all of a rating period's
//! games at once (a period is a week, Monday to Monday UTC), and Weng-Lin for En Prise tables
//! of three or four, match by match. Per server or across every server; a leaderboard lists
//! established ratings first.

use super::{Table, TableError};
use crate::games::GameKind;
use crate::league::ratings::{Glicko, Openskill, after_table};
use crate::store::leagues::RatedResult;
use crate::store::{Player, PlayerId};
use std::collections::BTreeMap;

/// A rating period: one week, from Monday 00:00 UTC (the epoch was a Thursday).
pub const PERIOD: i64 = 7 * 86_400;
const MONDAY_OFFSET: i64 = 3 * 86_400;

/// A player's rating in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingLine {
    pub player: Player,
    /// The rating to show and rank by (Glicko-2's rating, or Weng-Lin's ordinal).
    pub rating: f64,
    /// Glicko-2's deviation or Weng-Lin's uncertainty.
    pub deviation: f64,
    pub provisional: bool,
    pub games: u32,
}

/// The Glicko-2 rating period (a week from Monday, UTC) that `at` falls in.
pub fn period_of(at: i64) -> i64 {
    (at + MONDAY_OFFSET).div_euclid(PERIOD)
}

/// One point of a player's rating history: after the rating period (Glicko-2) or the match
/// (Weng-Lin) that ended at `at`.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    /// The end of the period, or when the match finished.
    pub at: i64,
    pub rating: f64,
    pub deviation: f64,
    /// Games counted so far.
    pub games: u32,
}

/// Glicko-2 ratings after two-player `results` (white, black, White's score, when), up to the
/// period of `now`: each player with their games played.
pub fn glicko_ratings(
    results: &[(PlayerId, PlayerId, f64, i64)],
    now: i64,
) -> BTreeMap<PlayerId, (Glicko, u32)> {
    glicko_periods(results, now, |_, _, _| {})
}

/// [`glicko_ratings`], telling `played` each period's end, who played in it and the ratings
/// after it.
fn glicko_periods(
    results: &[(PlayerId, PlayerId, f64, i64)],
    now: i64,
    mut played: impl FnMut(i64, &[PlayerId], &BTreeMap<PlayerId, (Glicko, u32)>),
) -> BTreeMap<PlayerId, (Glicko, u32)> {
    let mut ratings: BTreeMap<PlayerId, (Glicko, u32)> = BTreeMap::new();
    let Some(first) = results.first().map(|r| period_of(r.3)) else {
        return ratings;
    };
    let last = period_of(now).max(results.last().map_or(first, |r| period_of(r.3)));
    let mut next = 0;
    for period in first..=last {
        let mut games: BTreeMap<PlayerId, Vec<(PlayerId, f64)>> = BTreeMap::new();
        while let Some(&(white, black, score, at)) = results.get(next) {
            if period_of(at) != period {
                break;
            }
            games.entry(white).or_default().push((black, score));
            games.entry(black).or_default().push((white, 1.0 - score));
            next += 1;
        }
        // Everyone is rated against the ratings the period began with.
        let before = ratings.clone();
        let rating = |p: &PlayerId| before.get(p).map_or(Glicko::default(), |r| r.0);
        for (player, played) in &games {
            let against: Vec<(Glicko, f64)> = played.iter().map(|(o, s)| (rating(o), *s)).collect();
            let count = before.get(player).map_or(0, |r| r.1) + played.len() as u32;
            ratings.insert(*player, (rating(player).after_period(&against), count));
        }
        for (player, (rating, _)) in ratings.iter_mut() {
            if !games.contains_key(player) {
                *rating = rating.after_period(&[]);
            }
        }
        if !games.is_empty() {
            let who: Vec<PlayerId> = games.keys().copied().collect();
            played((period + 1) * PERIOD - MONDAY_OFFSET, &who, &ratings);
        }
    }
    ratings
}

/// Weng-Lin ratings after multi-player `results`, match by match, telling `played` each
/// match and the ratings after it.
fn openskill_matches(
    results: &[RatedResult],
    mut played: impl FnMut(&RatedResult, &BTreeMap<PlayerId, (Openskill, u32)>),
) -> BTreeMap<PlayerId, (Openskill, u32)> {
    let mut ratings = BTreeMap::new();
    for result in results {
        openskill_step(&mut ratings, result);
        played(result, &ratings);
    }
    ratings
}

/// Weng-Lin ratings after multi-player `results`, match by match.
pub fn openskill_ratings(results: &[RatedResult]) -> BTreeMap<PlayerId, (Openskill, u32)> {
    openskill_matches(results, |_, _| {})
}

fn openskill_step(ratings: &mut BTreeMap<PlayerId, (Openskill, u32)>, result: &RatedResult) {
    let table: Vec<(Openskill, usize)> = result
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| {
            let place = result
                .places
                .iter()
                .position(|group| group.contains(&seat))
                .unwrap_or(result.places.len());
            (ratings.get(p).map_or(Openskill::default(), |r| r.0), place)
        })
        .collect();
    for (p, after) in result.players.iter().zip(after_table(&table)) {
        let games = ratings.get(p).map_or(0, |r| r.1) + 1;
        ratings.insert(*p, (after, games));
    }
}

/// Two-player results as Glicko-2 reads them: White, Black, White's score, when.
fn duels(two: &[RatedResult]) -> Vec<(PlayerId, PlayerId, f64, i64)> {
    two.iter()
        .map(|r| {
            let score = match r.places.first().map(Vec::as_slice) {
                Some([0]) => 1.0,
                Some([1]) => 0.0,
                _ => 0.5,
            };
            (r.players[0], r.players[1], score, r.finished_at)
        })
        .collect()
}

impl Table {
    /// The ratings in `game` (in server `guild`, or everywhere), best first; provisional
    /// ratings after established ones.
    pub fn ratings(
        &self,
        game: GameKind,
        guild: Option<&str>,
    ) -> Result<Vec<RatingLine>, TableError> {
        let results = self.store.rated_results(game, guild)?;
        let (two, more): (Vec<RatedResult>, Vec<RatedResult>) =
            results.into_iter().partition(|r| r.players.len() == 2);
        let mut lines = Vec::new();
        for (player, (g, games)) in glicko_ratings(&duels(&two), self.now()) {
            lines.push(RatingLine {
                player: self.store.player(player)?,
                rating: g.rating,
                deviation: g.deviation,
                provisional: g.provisional(),
                games,
            });
        }
        for (player, (o, games)) in openskill_ratings(&more) {
            lines.push(RatingLine {
                player: self.store.player(player)?,
                rating: o.ordinal(),
                deviation: o.uncertainty,
                provisional: games < 5,
                games,
            });
        }
        lines.sort_by(|a, b| {
            a.provisional
                .cmp(&b.provisional)
                .then(b.rating.total_cmp(&a.rating))
        });
        Ok(lines)
    }

    /// `player`'s rating history in `game` (in server `guild`, or everywhere), oldest first:
    /// after each week they played (Glicko-2), or each table (Weng-Lin).
    pub fn rating_history(
        &self,
        game: GameKind,
        guild: Option<&str>,
        player: PlayerId,
    ) -> Result<Vec<HistoryPoint>, TableError> {
        let results = self.store.rated_results(game, guild)?;
        let (two, more): (Vec<RatedResult>, Vec<RatedResult>) =
            results.into_iter().partition(|r| r.players.len() == 2);
        let mut points = Vec::new();
        glicko_periods(&duels(&two), self.now(), |at, who, ratings| {
            if let (true, Some((g, games))) = (who.contains(&player), ratings.get(&player)) {
                points.push(HistoryPoint {
                    at,
                    rating: g.rating,
                    deviation: g.deviation,
                    games: *games,
                });
            }
        });
        openskill_matches(&more, |result, ratings| {
            if let (true, Some((o, games))) =
                (result.players.contains(&player), ratings.get(&player))
            {
                points.push(HistoryPoint {
                    at: result.finished_at,
                    rating: o.ordinal(),
                    deviation: o.uncertainty,
                    games: *games,
                });
            }
        });
        points.sort_by_key(|p| p.at);
        Ok(points)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_periods_games_count_together_and_idle_periods_widen_the_deviation() {
        let monday = 4 * 86_400 + PERIOD; // Monday 12 January 1970, 00:00 UTC
        assert_eq!(period_of(monday), period_of(monday + PERIOD - 1));
        assert_ne!(period_of(monday), period_of(monday - 1));
        // Week 1: 1 beats 2 and 3. Week 2: nothing. Week 3: 2 beats 3.
        let results = [
            (1, 2, 1.0, monday + 10),
            (1, 3, 1.0, monday + 20),
            (2, 3, 1.0, monday + 2 * PERIOD + 5),
        ];
        let week1 = glicko_ratings(&results[..2], monday + 30);
        // Both games against new players rated at once: the same as one period of two.
        let expected =
            Glicko::default().after_period(&[(Glicko::default(), 1.0), (Glicko::default(), 1.0)]);
        assert_eq!(week1[&1], (expected, 2));
        let later = glicko_ratings(&results, monday + 2 * PERIOD + 10);
        // 1 sat out weeks 2 and 3: rating kept, deviation wider.
        assert_eq!(later[&1].0.rating, expected.rating);
        let widened = expected.after_period(&[]).after_period(&[]);
        assert_eq!(later[&1].0.deviation, widened.deviation);
        assert_eq!((later[&2].1, later[&3].1), (2, 2));
        assert!(later[&2].0.rating > later[&3].0.rating);
    }

    #[test]
    fn the_history_has_a_point_for_each_week_played() {
        let monday = 4 * 86_400 + PERIOD;
        let results = [
            (1, 2, 1.0, monday + 10),
            (1, 3, 0.0, monday + 20),
            (2, 3, 1.0, monday + 2 * PERIOD + 5),
        ];
        let mut seen = Vec::new();
        let last = glicko_periods(&results, monday + 3 * PERIOD, |at, who, ratings| {
            seen.push((at, who.to_vec(), ratings.get(&2).map(|r| r.1)));
        });
        assert_eq!(
            seen,
            [
                (monday + PERIOD, vec![1, 2, 3], Some(1)),
                (monday + 3 * PERIOD, vec![2, 3], Some(2)),
            ]
        );
        assert_eq!(last, glicko_ratings(&results, monday + 3 * PERIOD));
    }

    #[test]
    fn a_table_of_four_rates_by_place() {
        let result = |players: Vec<PlayerId>, places: Vec<Vec<usize>>| RatedResult {
            match_id: 1,
            finished_at: 0,
            players,
            places,
        };
        let ratings = openskill_ratings(&[
            result(vec![1, 2, 3, 4], vec![vec![2], vec![0, 1, 3]]),
            result(vec![1, 2, 3, 4], vec![vec![2], vec![0], vec![1, 3]]),
        ]);
        assert!(ratings[&3].0.rating > ratings[&1].0.rating);
        assert!(ratings[&1].0.rating > ratings[&2].0.rating);
        assert_eq!(ratings[&4].1, 2);
    }
}
