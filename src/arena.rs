//! `deckmate arena`: two contestants (the computer at a level, or random play) play a game
//! against each other, seats rotating, and the result is summed up with a 95% confidence
//! interval and an Elo difference. With 3 or 4 players, contestant A holds one seat and B the
//! others. Games run on every core, each from its own seed, so a run repeats exactly (unless
//! a contestant is an outside chess engine, `uci.rs`, whose thinking is its own). A journal
//! (`journal.rs`) keeps each game as it ends, so a stopped run goes on where it was.

mod journal;
mod uci;

pub use journal::{Earlier, Journal};
pub use uci::{UciEngine, UciSpec};

use crate::ai::Level;
use crate::engine::{Game, GameRng, Seat};
use crate::games::GameKind;
use crate::games::chess::{Chess, Move, Position, seat_of};
use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Who plays a seat in the arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contestant {
    /// A random legal action each time.
    Random,
    /// The computer player at a level.
    Computer(Level),
    /// A chess engine spoken to over UCI (chess only).
    Uci(UciSpec),
}

impl FromStr for Contestant {
    type Err = String;
    /// `random`, `cpu` (medium), `cpu:easy|medium|hard`, or `uci:COMMAND` (its options are
    /// added by the caller).
    fn from_str(text: &str) -> Result<Contestant, String> {
        let text = text.trim();
        if let Some((prefix, command)) = text.split_once(':')
            && prefix.eq_ignore_ascii_case("uci")
        {
            if command.trim().is_empty() {
                return Err("uci: needs the engine's command, as in uci:stockfish".into());
            }
            return Ok(Contestant::Uci(UciSpec {
                command: command.trim().to_string(),
                options: vec![],
            }));
        }
        let text = text.to_ascii_lowercase();
        match text.split_once(':') {
            None if text == "random" => Ok(Contestant::Random),
            None if text == "cpu" => Ok(Contestant::Computer(Level::default())),
            Some(("cpu", level)) => Ok(Contestant::Computer(level.parse()?)),
            _ => Err(format!(
                "a contestant is random, cpu, cpu:easy|medium|hard or uci:COMMAND, not \"{}\"",
                crate::engine::echo(&text)
            )),
        }
    }
}

impl fmt::Display for Contestant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contestant::Random => f.write_str("random"),
            Contestant::Computer(level) => write!(f, "cpu:{level}"),
            Contestant::Uci(spec) => {
                write!(f, "uci:{}", spec.command)?;
                for (key, value) in &spec.options {
                    write!(f, " [{key}={value}]")?;
                }
                Ok(())
            }
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub kind: GameKind,
    pub a: Contestant,
    pub b: Contestant,
    pub games: usize,
    pub seats: usize,
    pub seed: u64,
    pub options: Vec<(String, String)>,
    /// What a UCI engine contestant is given to think each move.
    pub movetime: Duration,
}

/// A's results: a win is finishing first, alone or with partners (an En Prise alliance's team
/// win), a draw every seat sharing first place.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArenaReport {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// A's score in each game (1, ½ or 0), in game order.
    pub scores: Vec<f64>,
    /// Games that could not be played, with why (a bad option, say).
    pub errors: Vec<String>,
    /// How long each computer move took to choose, in milliseconds, in no set order.
    pub thinking: Vec<u64>,
}

/// The most actions a game may take before it is scored a draw.
const MOST_ACTIONS: u64 = 5_000;

impl ArenaReport {
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// A's mean score, and its 95% confidence interval: Wilson's score interval, with a draw
    /// counted as half a win (it stays wide at 10 wins of 10, where a normal one shrinks to
    /// nothing).
    pub fn score(&self) -> (f64, f64, f64) {
        let n = self.scores.len() as f64;
        if n == 0.0 {
            return (0.5, 0.0, 1.0);
        }
        let p = self.scores.iter().sum::<f64>() / n;
        let z: f64 = 1.96;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
        (p, (centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// The share of decided games A won.
    pub fn decided(&self) -> f64 {
        let decided = self.wins + self.losses;
        if decided == 0 {
            0.5
        } else {
            self.wins as f64 / decided as f64
        }
    }

    pub fn report(&self, config: &ArenaConfig) -> String {
        let (score, low, high) = self.score();
        let mut text = format!(
            "{} ({} players): A = {}, B = {}, {} games\n\
             A won {}, drew {}, lost {} (won {:.1}% of decided games)\n\
             A's score {:.3} (95% CI {:.3} to {:.3}), Elo difference {} ({} to {}){}\n",
            config.kind.name(),
            config.seats,
            config.a,
            config.b,
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.decided(),
            score,
            low,
            high,
            elo(score),
            elo(low),
            elo(high),
            if config.seats > 2 {
                " (Elo compares two players: with more, read the wins)"
            } else {
                ""
            },
        );
        if !self.thinking.is_empty() {
            let mut thinking = self.thinking.clone();
            thinking.sort_unstable();
            let mean = thinking.iter().sum::<u64>() / thinking.len() as u64;
            let p99 = thinking[(thinking.len() * 99 / 100).min(thinking.len() - 1)];
            text.push_str(&format!(
                "computer moves: {}, thinking {mean} ms on average, {p99} ms at the 99th \
                 percentile, {} ms at most\n",
                thinking.len(),
                thinking[thinking.len() - 1]
            ));
        }
        for error in &self.errors {
            text.push_str(&format!("error: {error}\n"));
        }
        text
    }
}

/// The Elo difference that expects `score`, as text ("+inf" at 1).
pub fn elo(score: f64) -> String {
    if score >= 1.0 {
        "+inf".into()
    } else if score <= 0.0 {
        "-inf".into()
    } else {
        // Adding 0 turns -0 into 0, so an even score reads +0.
        format!("{:+.0}", -400.0 * (1.0 / score - 1.0).log10() + 0.0)
    }
}

impl ArenaConfig {
    /// Why this arena cannot be played, before any game is: an outside engine plays chess
    /// from the start position, at two seats.
    pub fn problem(&self) -> Option<String> {
        let uci = [&self.a, &self.b]
            .iter()
            .any(|c| matches!(c, Contestant::Uci(_)));
        if !uci {
            return None;
        }
        if self.kind != GameKind::Chess || self.seats != 2 {
            return Some("a uci: contestant plays chess only, at two seats".into());
        }
        if !self.options.is_empty() {
            return Some(
                "a uci: contestant plays from the start position: --option is not for it".into(),
            );
        }
        None
    }
}

/// Plays the arena on every core; `progress` hears how many games are done.
pub fn run(config: &ArenaConfig, progress: impl Fn(usize) + Sync) -> ArenaReport {
    run_from(config, Vec::new(), progress, |_, _| Ok(()))
}

/// [`run`], given the games already played (from a [`Journal`]), which are not played again;
/// `record` hears each game as it ends.
pub fn run_from(
    config: &ArenaConfig,
    earlier: Earlier,
    progress: impl Fn(usize) + Sync,
    record: impl Fn(usize, &Played) -> Result<(), String> + Sync,
) -> ArenaReport {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(earlier.len());
    let mut played = vec![false; config.games];
    for (game, _) in &earlier {
        if let Some(played) = played.get_mut(*game) {
            *played = true;
        }
    }
    if !earlier.is_empty() {
        progress(earlier.len());
    }
    let results: Mutex<Vec<(usize, Played)>> = Mutex::new(earlier);
    let unrecorded: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers.min(config.games.max(1)) {
            scope.spawn(|| {
                loop {
                    let game = next.fetch_add(1, Ordering::SeqCst);
                    if game >= config.games {
                        break;
                    }
                    if played[game] {
                        continue;
                    }
                    let result = play_one(config, game);
                    if let Err(e) = record(game, &result)
                        && let Ok(mut unrecorded) = unrecorded.lock()
                    {
                        unrecorded.push(e);
                    }
                    if let Ok(mut results) = results.lock() {
                        results.push((game, result));
                    }
                    progress(done.fetch_add(1, Ordering::SeqCst) + 1);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(game, _)| *game);
    let mut report = ArenaReport {
        errors: unrecorded.into_inner().unwrap_or_default(),
        ..ArenaReport::default()
    };
    for (game, (result, thinking)) in results {
        report.thinking.extend(thinking);
        match result {
            Ok(score) => {
                if score >= 1.0 {
                    report.wins += 1;
                } else if score > 0.0 {
                    report.draws += 1;
                } else {
                    report.losses += 1;
                }
                report.scores.push(score);
            }
            Err(e) => report.errors.push(format!("game {game}: {e}")),
        }
    }
    report
}

/// One game's score for A (or why it could not be played), and the milliseconds each computer
/// move took.
pub type Played = (Result<f64, String>, Vec<u64>);

/// Game number `game`: A sits in seat `game % seats`. A's score: 1 for first place (alone, or
/// shared with partners but not with every seat), ½ when every seat shares it, 0 otherwise.
fn play_one(config: &ArenaConfig, game: usize) -> Played {
    let mut thinking = Vec::new();
    let result = play_timed(config, game, &mut thinking);
    (result, thinking)
}

fn play_timed(config: &ArenaConfig, game: usize, thinking: &mut Vec<u64>) -> Result<f64, String> {
    let seed = game_seed(config, game);
    if [&config.a, &config.b]
        .iter()
        .any(|c| matches!(c, Contestant::Uci(_)))
    {
        return play_chess(config, game, seed, thinking);
    }
    let mut rng = GameRng::from_seed(seed);
    let mut state = config
        .kind
        .start(&config.options, config.seats, &mut rng)
        .map_err(|e| e.to_string())?;
    let a = Seat((game % config.seats) as u8);
    for turn in 0..MOST_ACTIONS {
        if let Some(outcome) = state.to_act().outcome() {
            return Ok(score_of(outcome, a, config.seats));
        }
        let Some(&seat) = state.to_act().seats().first() else {
            return Err("nobody may act in a game that is not over".into());
        };
        let contestant = if seat == a { &config.a } else { &config.b };
        let text = match *contestant {
            Contestant::Random => state.random_action(seat, &mut rng),
            Contestant::Computer(level) => {
                let started = Instant::now();
                let limit = level.time_limit();
                let stop = || started.elapsed() >= limit;
                let seed = crate::ai::seed_from(&[seed, turn]);
                let chosen = state.computer_action(seat, level, seed, &stop);
                thinking.push(started.elapsed().as_millis() as u64);
                chosen
            }
            Contestant::Uci(_) => return Err("a UCI engine plays chess only".into()),
        }
        .ok_or_else(|| format!("{seat} has no legal action"))?;
        state
            .play(seat, &text, &mut rng)
            .map_err(|e| format!("{seat} played {text}: {e}"))?;
    }
    Ok(0.5)
}

fn game_seed(config: &ArenaConfig, game: usize) -> u64 {
    config
        .seed
        .wrapping_mul(1_000_003)
        .wrapping_add(game as u64)
}

/// Plies played at random from the game's seed before the contestants take over, when one is
/// an outside engine: engines at a fixed move time would otherwise repeat the same game.
const OPENING_PLIES: u64 = 2;

/// A chess game where a contestant is an outside engine: the game kept with deckmate's rules
/// and told to each engine as the moves from the start.
fn play_chess(
    config: &ArenaConfig,
    game: usize,
    seed: u64,
    thinking: &mut Vec<u64>,
) -> Result<f64, String> {
    if let Some(problem) = config.problem() {
        return Err(problem);
    }
    let mut rng = GameRng::from_seed(seed);
    let a = Seat((game % 2) as u8);
    let contestant = |seat: Seat| if seat == a { &config.a } else { &config.b };
    let mut engines: Vec<Option<UciEngine>> = Vec::new();
    for seat in Seat::all(2) {
        engines.push(match contestant(seat) {
            Contestant::Uci(spec) => {
                let mut engine = UciEngine::start(spec)?;
                engine.new_game()?;
                Some(engine)
            }
            _ => None,
        });
    }
    let mut chess = Chess::from_position(Position::default());
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..MOST_ACTIONS {
        if let Some(outcome) = chess.outcome() {
            return Ok(score_of(outcome, a, 2));
        }
        let seat = seat_of(chess.position().turn());
        let legal = chess.position().legal_moves();
        let random = |rng: &mut GameRng| legal.get(rng.below(legal.len().max(1))).copied();
        let mv = match contestant(seat) {
            _ if ply < OPENING_PLIES => random(&mut rng),
            Contestant::Random => random(&mut rng),
            Contestant::Computer(level) => {
                let started = Instant::now();
                let limit = level.time_limit();
                let stop = || started.elapsed() >= limit;
                let chosen = crate::ai::choose(
                    &chess,
                    seat,
                    *level,
                    crate::ai::seed_from(&[seed, ply]),
                    &stop,
                );
                thinking.push(started.elapsed().as_millis() as u64);
                chosen
            }
            Contestant::Uci(_) => {
                let engine = engines[seat.index()]
                    .as_mut()
                    .ok_or("the engine was not started")?;
                let text = engine.best_move(&moves, config.movetime)?;
                let mv = Move::parse_uci(&text).filter(|&mv| chess.position().is_legal(mv));
                Some(mv.ok_or_else(|| {
                    format!(
                        "{} played {text:?}, not a legal move in {}",
                        engine.name(),
                        chess.position().fen()
                    )
                })?)
            }
        };
        let mv = mv.ok_or_else(|| format!("{seat} has no legal move"))?;
        chess
            .apply(seat, &mv, &mut rng)
            .map_err(|e| format!("{seat} played {}: {e}", mv.uci()))?;
        moves.push(mv.uci());
    }
    Ok(0.5)
}

/// A's score in a finished game of `seats` seats: 1 for first place (alone, or shared with
/// partners but not with every seat), ½ when every seat shares it, 0 otherwise.
pub fn score_of(outcome: &crate::engine::Outcome, a: Seat, seats: usize) -> f64 {
    match outcome.place_of(a) {
        Some(0) if outcome.places[0].len() < seats => 1.0,
        Some(0) => 0.5,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests;
