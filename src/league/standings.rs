//! Standings: points, and tiebreaks in the order a league chooses.
//!
//! A round gives each player a game over the board (points and an opponent) or an unplayed
//! result: a bye (one point, or half for a player who said they were unavailable), or a
//! forfeit (1X for the player who turned up, 0F for the one who did not). As in the FIDE
//! tiebreak regulations (C.07, 2023), an unplayed round counts for the tiebreaks as a game
//! against a virtual opponent whose final score equals the player's own:
//! - **Buchholz**: the sum of the opponents' final scores (the virtual opponent's for an
//!   unplayed round).
//! - **Median Buchholz**: Buchholz less the highest and the lowest of those scores.
//! - **Sonneborn-Berger**: the sum, over rounds, of the points scored times that round's
//!   opponent's final score.
//! - **Cumulative**: the sum of the running scores after each round, a point received without
//!   playing counted as if it came in the last round.
//! - **Direct encounter**: among players level on points, the points they scored against one
//!   another, when each of them met every other; otherwise it does not separate them (0).
//! - **Wins**: games won over the board.
//!
//! Scores are kept in half points (integers), so ties compare exactly.

use super::Number;
pub use crate::engine::Scoring;
use std::collections::BTreeMap;

/// What one player got from one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A game over the board against `opponent`, worth `halves` half points (2, 1 or 0).
    Played { opponent: Number, halves: u32 },
    /// No game: a bye, a half-point bye, a forfeit won (2) or lost (0).
    Unplayed { halves: u32 },
}

/// A tiebreak, in the order a league lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    Buchholz,
    MedianBuchholz,
    SonnebornBerger,
    Cumulative,
    DirectEncounter,
    Wins,
}

impl Tiebreak {
    /// A value of this tiebreak in words: points for those counted in half points, a decimal
    /// for Sonneborn-Berger (kept in quarters), a count for wins.
    pub fn show(self, value: u32) -> String {
        match self {
            Tiebreak::Wins => value.to_string(),
            Tiebreak::SonnebornBerger => format!("{}", f64::from(value) / 4.0),
            _ => points(value),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::Buchholz => "Buchholz",
            Tiebreak::MedianBuchholz => "Median Buchholz",
            Tiebreak::SonnebornBerger => "Sonneborn-Berger",
            Tiebreak::Cumulative => "Cumulative",
            Tiebreak::DirectEncounter => "Direct encounter",
            Tiebreak::Wins => "Wins",
        }
    }
}

/// Reads tiebreak names in order, separated by commas: "buchholz, median-buchholz,
/// sonneborn-berger, cumulative, direct-encounter, wins".
pub fn parse_tiebreaks(text: &str) -> Result<Vec<Tiebreak>, String> {
    text.split(',')
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .map(|t| {
            let id = t.to_lowercase().replace(['-', ' '], "_");
            serde_json::from_value(serde_json::Value::String(id))
                .map_err(|_| format!("unknown tiebreak {t}"))
        })
        .collect()
}

/// The results so far: each player's entry for each round played.
#[derive(Clone, Debug, Default)]
pub struct Results {
    rounds: u32,
    entries: BTreeMap<Number, BTreeMap<u32, Entry>>,
    /// Whom each forfeit was against, (player, round) -> opponent, for the crosstable.
    forfeited: BTreeMap<(Number, u32), Number>,
    scoring: Scoring,
}

impl Scoring {
    /// A game's default scoring, as its rules declare it ([`crate::engine::Game::SCORING`]).
    pub fn for_game(game: crate::games::GameKind) -> Scoring {
        game.scoring()
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub rank: usize,
    pub player: Number,
    /// Points, in half points.
    pub halves: u32,
    /// The league's tiebreaks in its order; halves too, except Sonneborn-Berger (quarters,
    /// as points times points) and wins (a count).
    pub tiebreaks: Vec<u32>,
}

impl Results {
    /// A tournament of players 1..=`players`.
    pub fn new(players: Number) -> Self {
        Results {
            rounds: 0,
            entries: (1..=players).map(|p| (p, BTreeMap::new())).collect(),
            forfeited: BTreeMap::new(),
            scoring: Scoring::STANDARD,
        }
    }

    fn put(&mut self, round: u32, player: Number, entry: Entry) {
        self.rounds = self.rounds.max(round);
        self.entries.entry(player).or_default().insert(round, entry);
    }

    /// A game over the board; `white_halves` of the two points to White (2, 1 or 0).
    pub fn game(&mut self, round: u32, white: Number, black: Number, white_halves: u32) {
        let entry = |opponent, halves| Entry::Played { opponent, halves };
        self.put(round, white, entry(black, white_halves));
        self.put(round, black, entry(white, 2 - white_halves.min(2)));
    }

    /// A game not played: the player who turned up wins by forfeit; `None` when neither did.
    pub fn forfeit(&mut self, round: u32, a: Number, b: Number, present: Option<Number>) {
        for (p, opponent) in [(a, b), (b, a)] {
            let halves = if present == Some(p) { 2 } else { 0 };
            self.put(round, p, Entry::Unplayed { halves });
            self.forfeited.insert((p, round), opponent);
        }
    }

    /// A round without an opponent: `halves` 2 for a bye, 1 for an announced absence.
    pub fn bye(&mut self, round: u32, player: Number, halves: u32) {
        self.put(round, player, Entry::Unplayed { halves });
    }

    /// The same results counted with `scoring`.
    pub fn scored(mut self, scoring: Scoring) -> Self {
        self.scoring = scoring;
        self
    }

    /// A player's points so far, in half points.
    pub fn halves(&self, player: Number) -> u32 {
        self.entries.get(&player).map_or(0, |rounds| {
            rounds
                .values()
                .map(|e| match e {
                    Entry::Played { halves, .. } => self.scoring.of(true, *halves),
                    Entry::Unplayed { halves } => self.scoring.of(false, *halves),
                })
                .sum()
        })
    }

    /// The opponents' final scores round by round (a virtual opponent's for an unplayed or
    /// missing round), with the points scored in that round.
    fn rounds_of(&self, player: Number) -> Vec<(u32, u32)> {
        let own = self.halves(player);
        let rounds = &self.entries[&player];
        (1..=self.rounds)
            .map(|r| match rounds.get(&r) {
                Some(Entry::Played { opponent, halves }) => {
                    (self.halves(*opponent), self.scoring.of(true, *halves))
                }
                Some(Entry::Unplayed { halves }) => (own, self.scoring.of(false, *halves)),
                None => (own, 0),
            })
            .collect()
    }

    fn tiebreak(&self, player: Number, tiebreak: Tiebreak) -> u32 {
        let rounds = self.rounds_of(player);
        let opponents: Vec<u32> = rounds.iter().map(|(o, _)| *o).collect();
        match tiebreak {
            Tiebreak::Buchholz => opponents.iter().sum(),
            Tiebreak::MedianBuchholz => {
                let (min, max) = (opponents.iter().min(), opponents.iter().max());
                match (min, max) {
                    (Some(min), Some(max)) if opponents.len() > 2 => {
                        opponents.iter().sum::<u32>() - min - max
                    }
                    _ => 0,
                }
            }
            Tiebreak::SonnebornBerger => rounds.iter().map(|(o, h)| o * h).sum(),
            Tiebreak::Cumulative => {
                let entries = &self.entries[&player];
                let mut running = 0;
                let mut sum = 0;
                let mut unplayed = 0;
                for r in 1..=self.rounds {
                    match entries.get(&r) {
                        Some(Entry::Played { halves, .. }) => running += halves,
                        Some(Entry::Unplayed { halves }) => unplayed += halves,
                        None => {}
                    }
                    sum += running;
                }
                sum + unplayed
            }
            Tiebreak::Wins => self.entries[&player]
                .values()
                .filter(|e| matches!(e, Entry::Played { halves: 2, .. }))
                .count() as u32,
            Tiebreak::DirectEncounter => 0, // among the tied only: see `standings`
        }
    }

    /// The points `player` scored against the players of `group`.
    fn against(&self, player: Number, group: &[Number]) -> (u32, usize) {
        let mut points = 0;
        let mut met = 0;
        for entry in self.entries[&player].values() {
            if let Entry::Played { opponent, halves } = entry
                && group.contains(opponent)
            {
                points += halves;
                met += 1;
            }
        }
        (points, met)
    }

    /// A round robin's crosstable: for each player of `order`, a cell against each player of
    /// `order` ("X" against themselves): "1", "½", "0" for games played, "+" and "-" for
    /// forfeits won and lost, one mark a game (so "1½" after two games), empty before they
    /// meet.
    pub fn crosstable(&self, order: &[Number]) -> Vec<Vec<String>> {
        order
            .iter()
            .map(|&p| {
                order
                    .iter()
                    .map(|&q| {
                        if p == q {
                            return "X".to_string();
                        }
                        let rounds = self.entries.get(&p).into_iter().flatten();
                        rounds
                            .filter_map(|(round, entry)| match *entry {
                                Entry::Played { opponent, halves } if opponent == q => {
                                    Some(["0", "½", "1"][halves.min(2) as usize])
                                }
                                Entry::Unplayed { halves }
                                    if self.forfeited.get(&(p, *round)) == Some(&q) =>
                                {
                                    Some(if halves == 2 { "+" } else { "-" })
                                }
                                _ => None,
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }

    /// The standings: points first, then `order`'s tiebreaks, then start number. Players level
    /// on everything share a rank.
    pub fn standings(&self, order: &[Tiebreak]) -> Vec<Standing> {
        let players: Vec<Number> = self.entries.keys().copied().collect();
        let mut lines: Vec<Standing> = players
            .iter()
            .map(|&p| Standing {
                rank: 0,
                player: p,
                halves: self.halves(p),
                tiebreaks: order.iter().map(|&t| self.tiebreak(p, t)).collect(),
            })
            .collect();
        // Direct encounter within each group level on points, when all of it met.
        if let Some(at) = order.iter().position(|t| *t == Tiebreak::DirectEncounter) {
            let mut by_points: BTreeMap<u32, Vec<Number>> = BTreeMap::new();
            for line in &lines {
                by_points.entry(line.halves).or_default().push(line.player);
            }
            for group in by_points.values().filter(|g| g.len() > 1) {
                let scores: Vec<(u32, usize)> =
                    group.iter().map(|&p| self.against(p, group)).collect();
                let all_met = scores.iter().all(|(_, met)| *met >= group.len() - 1);
                for (&p, (points, _)) in group.iter().zip(&scores) {
                    let line = lines.iter_mut().find(|l| l.player == p).expect("listed");
                    line.tiebreaks[at] = if all_met { *points } else { 0 };
                }
            }
        }
        rank(&mut lines);
        lines
    }
}

/// Orders standings by points, then tiebreaks, then start number, and numbers the ranks;
/// players level on everything share a rank.
pub fn rank(lines: &mut [Standing]) {
    lines.sort_by(|a, b| {
        (b.halves, &b.tiebreaks)
            .cmp(&(a.halves, &a.tiebreaks))
            .then(a.player.cmp(&b.player))
    });
    for i in 0..lines.len() {
        lines[i].rank = match i {
            0 => 1,
            _ if (lines[i].halves, &lines[i].tiebreaks)
                == (lines[i - 1].halves, &lines[i - 1].tiebreaks) =>
            {
                lines[i - 1].rank
            }
            _ => i + 1,
        };
    }
}

/// Half points as a score: "2½", "3", "½".
pub fn points(halves: u32) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".into(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_league_scoring_counts_points_but_keeps_the_results() {
        let enprise = Scoring::parse("1,0,0").unwrap();
        let football = Scoring::parse("3, 1, 0").unwrap();
        assert_eq!(football.show(), "3,1,0");
        assert_eq!(Scoring::parse("1,½,0").unwrap(), Scoring::STANDARD);
        for bad in ["1,0.5", "0,1,0", "1,0.3,0", "a,b,c", "11,0,0"] {
            assert!(Scoring::parse(bad).is_err(), "{bad}");
        }
        let mut r = Results::new(3);
        r.game(1, 1, 2, 1); // a draw
        r.game(2, 3, 1, 0); // 1 wins with Black
        r.bye(2, 2, 2);
        let standard: Vec<u32> = (1..=3).map(|p| r.halves(p)).collect();
        assert_eq!(standard, [3, 3, 0]);
        let r = r.scored(enprise);
        let counted: Vec<u32> = (1..=3).map(|p| r.halves(p)).collect();
        assert_eq!(counted, [2, 2, 0], "a draw scores nothing, a bye a win");
        assert_eq!(r.crosstable(&[1, 2]), [vec!["X", "½"], vec!["½", "X"]]);
    }

    #[test]
    fn the_crosstable_shows_each_meeting_from_both_sides() {
        let mut r = Results::new(3);
        r.game(1, 1, 2, 2);
        r.forfeit(2, 3, 1, Some(1));
        r.game(3, 2, 3, 1);
        r.game(4, 2, 1, 1);
        let grid = r.crosstable(&[1, 2, 3]);
        assert_eq!(
            grid,
            [
                vec!["X", "1½", "+"],
                vec!["0½", "X", "½"],
                vec!["-", "½", "X"],
            ]
        );
    }

    /// Four players, three rounds: 1 beats 2 and 3, draws 4; 2 beats 3 and 4; 3 beats 4.
    fn round_robin_of_four() -> Results {
        let mut r = Results::new(4);
        r.game(1, 1, 4, 1);
        r.game(1, 2, 3, 2);
        r.game(2, 4, 3, 0);
        r.game(2, 1, 2, 2);
        r.game(3, 2, 4, 2);
        r.game(3, 3, 1, 0);
        r
    }

    #[test]
    fn points_and_every_tiebreak_by_hand() {
        let r = round_robin_of_four();
        // Scores: 1 has 2½ (5 halves), 2 has 2 (4), 3 has 1 (2), 4 has ½ (1).
        let all = [
            Tiebreak::Buchholz,
            Tiebreak::MedianBuchholz,
            Tiebreak::SonnebornBerger,
            Tiebreak::Cumulative,
            Tiebreak::Wins,
        ];
        let s = r.standings(&all);
        let order: Vec<Number> = s.iter().map(|l| l.player).collect();
        assert_eq!(order, [1, 2, 3, 4]);
        // Player 1 met 4 (1), 2 (4), 3 (2): Buchholz 7; median drops 1 and 4: 2.
        // Sonneborn-Berger: ½·1 + 1·4 + 1·2 in halves×halves = 1·1 + 2·4 + 2·2 = 13.
        // Cumulative: running 1, 3, 5 halves = 9. Wins: 2.
        assert_eq!(s[0].tiebreaks, [7, 2, 13, 9, 2]);
        assert_eq!(points(s[0].halves), "2½");
        assert_eq!(Tiebreak::SonnebornBerger.show(13), "3.25");
        assert_eq!(Tiebreak::Buchholz.show(7), "3½");
        assert_eq!(points(s[3].halves), "½");
    }

    #[test]
    fn unplayed_rounds_count_as_against_an_equal_virtual_opponent() {
        let mut r = Results::new(3);
        r.game(1, 1, 2, 2);
        r.bye(1, 3, 2);
        r.forfeit(2, 3, 1, Some(3)); // 1 did not turn up
        r.bye(2, 2, 1); // 2 said they were unavailable: half a point
        // 1: 1 point (2 halves); 2: ½ (1); 3: 2 points (4).
        assert_eq!((r.halves(1), r.halves(2), r.halves(3)), (2, 1, 4));
        let s = r.standings(&[Tiebreak::Buchholz, Tiebreak::Cumulative, Tiebreak::Wins]);
        let line = |p| s.iter().find(|l| l.player == p).unwrap();
        // 3 never played: both rounds against a virtual 4; cumulative counts both points last.
        assert_eq!(line(3).tiebreaks, [8, 4, 0]);
        // 1 met 2 (1), then a forfeit (virtual 2).
        assert_eq!(line(1).tiebreaks, [3, 4, 1]);
    }

    #[test]
    fn direct_encounter_separates_only_groups_that_all_met() {
        let mut r = Results::new(4);
        // 1 and 2 both finish on 1 point; 2 beat 1.
        r.game(1, 1, 2, 0);
        r.game(1, 3, 4, 1);
        r.game(2, 1, 4, 2);
        r.game(2, 2, 3, 0);
        let s = r.standings(&[Tiebreak::DirectEncounter]);
        assert_eq!(r.halves(1), r.halves(2));
        let at = |p| s.iter().position(|l| l.player == p).unwrap();
        assert!(at(2) < at(1), "{s:?}");
        // 3 (1½) is alone; 4 (½) too.
        assert_eq!(s[0].player, 3);
        // Level on everything: a shared rank.
        let mut level = Results::new(2);
        level.game(1, 1, 2, 1);
        let s = level.standings(&[Tiebreak::Buchholz]);
        assert_eq!((s[0].rank, s[1].rank), (1, 1));
    }
}
