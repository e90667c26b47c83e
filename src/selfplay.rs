//! Random legal games played to the end through the same text path the adapters use: list the
//! legal actions, pick one, submit its text, apply.

use crate::engine::{GameRng, Seat, ToAct};
use crate::games::GameKind;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A game that has not ended after this many actions counts as an error.
pub const MAX_ACTIONS: usize = 20_000;

#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub kind: GameKind,
    pub games: usize,
    pub seed: u64,
    pub players: usize,
    pub options: Vec<(String, String)>,
}

#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: usize,
    pub finished: usize,
    /// Outcome text ("White won by checkmate") and how many games ended so.
    pub outcomes: BTreeMap<String, usize>,
    pub actions: usize,
    pub elapsed: Duration,
    /// One line per game that failed: its seed and what went wrong.
    pub errors: Vec<String>,
}

impl Summary {
    pub fn ok(&self) -> bool {
        self.errors.is_empty() && self.finished == self.games
    }

    pub fn report(&self) -> String {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        let mut out = format!(
            "games finished: {}/{}\naverage length: {:.1} actions\nactions per second: {:.0}\n",
            self.finished,
            self.games,
            self.actions as f64 / self.games.max(1) as f64,
            self.actions as f64 / secs,
        );
        out.push_str("outcomes:\n");
        for (outcome, count) in &self.outcomes {
            out.push_str(&format!("  {count:>6}  {outcome}\n"));
        }
        for error in &self.errors {
            out.push_str(&format!("error: {error}\n"));
        }
        out
    }
}

/// Plays `config.games` games with seeds `seed, seed+1, ...`; calls `progress(done)` after each.
pub fn run(config: &SelfplayConfig, mut progress: impl FnMut(usize)) -> Summary {
    let started = Instant::now();
    let mut summary = Summary {
        games: config.games,
        ..Summary::default()
    };
    for i in 0..config.games {
        let seed = config.seed.wrapping_add(i as u64);
        match play_one(config, seed) {
            Ok((outcome, actions)) => {
                summary.finished += 1;
                summary.actions += actions;
                *summary.outcomes.entry(outcome).or_default() += 1;
            }
            Err(e) => summary.errors.push(format!("seed {seed}: {e}")),
        }
        progress(i + 1);
    }
    summary.elapsed = started.elapsed();
    summary
}

fn play_one(config: &SelfplayConfig, seed: u64) -> Result<(String, usize), String> {
    let mut rng = GameRng::from_seed(seed);
    let mut chooser = GameRng::from_seed(seed ^ 0x5eed_5eed_5eed_5eed);
    let mut game = config
        .kind
        .start(&config.options, config.players, &mut rng)
        .map_err(|e| e.to_string())?;
    for actions in 0..=MAX_ACTIONS {
        let seats: Vec<Seat> = match game.to_act() {
            ToAct::Over(outcome) => return Ok((game.describe(&outcome), actions)),
            ToAct::Seats(seats) => seats,
        };
        let seat = *seats
            .get(chooser.below(seats.len().max(1)))
            .ok_or("no seat to act")?;
        let text = game
            .random_action(seat, &mut chooser)
            .ok_or_else(|| format!("{seat} must act but has no legal action"))?;
        game.play(seat, &text, &mut rng)
            .map_err(|e| format!("after {actions} actions, {seat} played \"{text}\": {e}"))?;
    }
    Err(format!("no end after {MAX_ACTIONS} actions"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_ends_and_the_summary_adds_up() {
        for kind in GameKind::ALL {
            let config = SelfplayConfig {
                kind,
                games: 5,
                seed: 11,
                players: kind.seats().0,
                options: vec![],
            };
            let mut ticks = vec![];
            let summary = run(&config, |done| ticks.push(done));
            assert!(summary.ok(), "{}", summary.report());
            assert_eq!(ticks, vec![1, 2, 3, 4, 5]);
            assert_eq!(summary.outcomes.values().sum::<usize>(), 5);
            assert!(summary.actions >= 5 * 2, "{}", summary.report());
            assert!(summary.report().contains("games finished: 5/5"));
        }
    }

    #[test]
    fn setup_errors_are_reported_per_game() {
        let config = SelfplayConfig {
            kind: GameKind::Chess,
            games: 2,
            seed: 1,
            players: 3,
            options: vec![],
        };
        let summary = run(&config, |_| {});
        assert!(!summary.ok());
        assert_eq!(summary.errors.len(), 2);
        assert!(summary.errors[0].contains("played by 2 players, not 3"));
    }
}
