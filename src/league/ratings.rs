//! Ratings, through the `skillratings` crate: Glicko-2 for two-player games, updated once per
//! rating period with all of the period's games at once (as Glickman describes), and Weng-Lin
//! (OpenSkill) for En Prise tables of three or four, updated from each table's placings.

use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2_rating_period};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};

/// A Glicko-2 rating is provisional until its deviation falls below this (as on lichess).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A two-player game's rating: Glicko-2's rating, deviation and volatility.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Glicko {
    /// A new player: 1500, deviation 350, volatility 0.06.
    fn default() -> Self {
        Glicko::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Glicko {
    fn from(r: Glicko2Rating) -> Self {
        Glicko {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Glicko> for Glicko2Rating {
    fn from(r: Glicko) -> Self {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl Glicko {
    /// Whether the rating is still provisional (too uncertain to rank by).
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating after a rating period in which the player scored `score` (1, ½ or 0) against
    /// each opponent, all games taken at once with the opponents' ratings from the period's
    /// start. A period without games only widens the deviation.
    pub fn after_period(&self, games: &[(Glicko, f64)]) -> Glicko {
        let results: Vec<(Glicko2Rating, Outcomes)> = games
            .iter()
            .map(|(opponent, score)| {
                let outcome = match score {
                    s if *s > 0.75 => Outcomes::WIN,
                    s if *s < 0.25 => Outcomes::LOSS,
                    _ => Outcomes::DRAW,
                };
                (Glicko2Rating::from(*opponent), outcome)
            })
            .collect();
        let me = Glicko2Rating::from(*self);
        match results.is_empty() {
            true => decay_deviation(&me).into(),
            false => glicko2_rating_period(&me, &results, &Glicko2Config::new()).into(),
        }
    }
}

/// A rating for games of three or four: Weng-Lin's mean and uncertainty.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Openskill {
    pub rating: f64,
    pub uncertainty: f64,
}

impl Default for Openskill {
    /// A new player: 25 ± 25/3.
    fn default() -> Self {
        let r = WengLinRating::new();
        Openskill {
            rating: r.rating,
            uncertainty: r.uncertainty,
        }
    }
}

impl Openskill {
    /// A conservative value to rank by: the mean less three uncertainties.
    pub fn ordinal(&self) -> f64 {
        self.rating - 3.0 * self.uncertainty
    }
}

/// Everyone's rating after one table: `table` holds each player's rating and place (0 first;
/// equal places tie).
pub fn after_table(table: &[(Openskill, usize)]) -> Vec<Openskill> {
    let teams: Vec<[WengLinRating; 1]> = table
        .iter()
        .map(|(r, _)| {
            [WengLinRating {
                rating: r.rating,
                uncertainty: r.uncertainty,
            }]
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(table)
        .map(|(team, (_, place))| (&team[..], MultiTeamOutcome::new(place + 1)))
        .collect();
    weng_lin_multi_team(&ranked, &WengLinConfig::new())
        .into_iter()
        .map(|team| Openskill {
            rating: team[0].rating,
            uncertainty: team[0].uncertainty,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glicko(rating: f64, deviation: f64) -> Glicko {
        Glicko {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example_is_reproduced_to_the_published_decimals() {
        // "Example of the Glicko-2 system": 1500 (RD 200) beats 1400 (30), loses to 1550 (100)
        // and to 1700 (300); tau 0.5. Published: r' 1464.06, RD' 151.52, sigma' 0.05999. The
        // paper rounds as it goes (mu' -0.2069 gives 1464.06); exact arithmetic gives 1464.05.
        let after = glicko(1500.0, 200.0).after_period(&[
            (glicko(1400.0, 30.0), 1.0),
            (glicko(1550.0, 100.0), 0.0),
            (glicko(1700.0, 300.0), 0.0),
        ]);
        assert!((after.rating - 1464.06).abs() < 0.02, "{after:?}");
        assert_eq!(format!("{:.2}", after.deviation), "151.52");
        // The paper cuts sigma' to five decimals.
        assert_eq!(format!("{:.5}", after.volatility - 0.000_005), "0.05999");
        let mu = (after.rating - 1500.0) / 173.7178;
        let phi = after.deviation / 173.7178;
        assert_eq!(
            (format!("{mu:.4}"), format!("{phi:.4}")),
            ("-0.2069".into(), "0.8722".into())
        );
    }

    #[test]
    fn an_idle_period_widens_the_deviation_and_new_players_are_provisional() {
        let settled = glicko(1800.0, 60.0);
        let idle = settled.after_period(&[]);
        assert_eq!(idle.rating, 1800.0);
        // phi' = sqrt(phi^2 + sigma^2), on Glicko's scale.
        let phi = (60.0f64 / 173.7178).hypot(0.06) * 173.7178;
        assert!((idle.deviation - phi).abs() < 1e-9);
        assert!(Glicko::default().provisional());
        assert!(!settled.provisional());
        // A draw between equals moves neither rating.
        let drawn = glicko(1500.0, 80.0).after_period(&[(glicko(1500.0, 80.0), 0.5)]);
        assert!((drawn.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn a_table_of_four_rewards_places_in_order_and_ties_alike() {
        let new = Openskill::default();
        let after = after_table(&[(new, 1), (new, 0), (new, 2), (new, 2)]);
        assert!(after[1].rating > after[0].rating);
        assert!(after[0].rating > after[2].rating);
        assert!(
            (after[2].rating - after[3].rating).abs() < 1e-9,
            "a shared place"
        );
        assert!(after.iter().all(|r| r.uncertainty < new.uncertainty));
        assert!(after[1].ordinal() > new.ordinal());
    }
}
