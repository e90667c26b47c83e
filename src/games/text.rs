//! [`TextGame`]: the object-safe, text-level interface over [`Game`], written once for every
//! registered game. The table, the console, self-play and computer players drive any game
//! through it, actions as text, views as [`AnyView`].

use super::AnyView;
use super::registry::Registered;
use crate::ai::Level;
use crate::engine::{
    Event, Game, GameRng, OnTime, Outcome, ParseError, RuleError, Seat, TIME_OUT, Timeout, ToAct,
    Viewer,
};
use std::fmt::Debug;
use thiserror::Error;

/// An action given as text was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// An action that was applied: its canonical text (what logs show) and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub canonical: String,
    pub events: Vec<Event>,
}

/// In test builds only, an action text that makes any game panic while applying it: the
/// services above are tested to survive a bug in a game.
#[cfg(test)]
pub const PANIC_ACTION: &str = "test:panic";

/// Any game, actions as text. See [`Game`] for what each method means; this trait adds the
/// text around it (parsing, canonical forms, groups) and nothing else.
pub trait TextGame: Debug + Send + Sync {
    fn kind(&self) -> super::GameKind;

    fn seat_count(&self) -> usize;

    fn to_act(&self) -> ToAct;

    /// The canonical text of every legal action of `seat` (for autocomplete and `legal`).
    fn legal_actions(&self, seat: Seat) -> Vec<String>;

    /// [`TextGame::legal_actions`] in groups (by piece, card or kind of action), in the order
    /// first seen, for long lists.
    fn legal_groups(&self, seat: Seat) -> Vec<(String, Vec<String>)>;

    /// Whether the legal actions may give away what only their seat may see
    /// ([`Game::private_choices`]).
    fn private_choices(&self) -> bool;

    /// Whether a spectator's view may hide again what it showed ([`Game::hides_what_it_showed`]).
    fn hides_what_it_showed(&self) -> bool;

    /// The text of one legal action of `seat` chosen at random, or None if it has none.
    fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Option<String>;

    /// Whether `text` reads as an action of `seat` (legal or not): chat that merely mentions
    /// a move ("nice, Nf3 was great") does not.
    fn reads_as_action(&self, seat: Seat, text: &str) -> bool;

    /// Reads and applies an action typed by the player in `seat`. On error nothing changed.
    fn play(&mut self, seat: Seat, text: &str, rng: &mut GameRng) -> Result<Played, PlayError>;

    /// Applies an action of the log: a player's text, or [`TIME_OUT`].
    fn replay(&mut self, seat: Seat, text: &str, rng: &mut GameRng) -> Result<Played, PlayError>;

    fn view(&self, viewer: Viewer) -> AnyView;

    /// An outcome in the game's own words ("White won by checkmate").
    fn describe(&self, outcome: &Outcome) -> String;

    /// If `text` reads as a legal action of `seat` that loses the game on the spot for them,
    /// the warning to show before applying it ([`Game::warning`]) and the action's canonical
    /// text.
    fn warning(&self, seat: Seat, text: &str) -> Option<(String, String)>;

    /// The seats still playing ([`Game::live_seats`]).
    fn remaining_seats(&self) -> Vec<Seat>;

    /// The outcome if `seat` resigns now, or why it may not ([`Game::resignation`]).
    fn resignation(&self, seat: Seat) -> Result<Outcome, String>;

    /// What happens when `seat` runs out of time ([`Game::on_time`]).
    fn on_time(&self, seat: Seat) -> OnTime;

    /// [`Game::turn_owner`].
    fn turn_owner(&self) -> Option<Seat>;

    /// The server's actions when nobody acts in time, as text, and after how many seconds
    /// ([`Game::timeout`]).
    fn timeout(&self) -> Option<Timeout<String>>;

    /// The computer's action for `seat` at `level` from `seed`, searching until `stop` says
    /// so ([`crate::ai::choose`]), as text; None when the seat has nothing to do.
    fn computer_action(
        &self,
        seat: Seat,
        level: Level,
        seed: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<String> {
        self.computer_thought(seat, level, seed, stop)
            .map(|(action, _)| action)
    }

    /// [`TextGame::computer_action`] with the computer's chances after it, 0 (lost) to 1 (won),
    /// None when it has no opinion (see [`crate::ai::think`]).
    fn computer_thought(
        &self,
        seat: Seat,
        level: Level,
        seed: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<(String, Option<f64>)>;

    /// How `seat` rates its chances without searching, 0 to 1 (see [`crate::ai::chances`]);
    /// None when the game has no evaluation.
    fn computer_chances(&self, seat: Seat, seed: u64) -> Option<f64>;

    /// The seats still in the game (see [`crate::engine::Game::live_seats`]).
    fn live_seats(&self) -> Vec<Seat>;
}

impl<G: Registered> TextGame for G {
    fn kind(&self) -> super::GameKind {
        G::KIND
    }

    fn seat_count(&self) -> usize {
        Game::seat_count(self)
    }

    fn to_act(&self) -> ToAct {
        Game::to_act(self)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        Game::legal_actions(self, seat)
            .iter()
            .map(|a| self.format_action(a))
            .collect()
    }

    fn legal_groups(&self, seat: Seat) -> Vec<(String, Vec<String>)> {
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for action in Game::legal_actions(self, seat) {
            let group = self.action_group(&action);
            let text = self.format_action(&action);
            match groups.iter_mut().find(|(g, _)| *g == group) {
                Some((_, texts)) => texts.push(text),
                None => groups.push((group, vec![text])),
            }
        }
        groups
    }

    fn private_choices(&self) -> bool {
        Game::private_choices(self)
    }

    fn hides_what_it_showed(&self) -> bool {
        Game::hides_what_it_showed(self)
    }

    fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Option<String> {
        let legal = Game::legal_actions(self, seat);
        (!legal.is_empty()).then(|| self.format_action(&legal[rng.below(legal.len())]))
    }

    fn reads_as_action(&self, seat: Seat, text: &str) -> bool {
        match self.parse_action(seat, text) {
            Ok(_) => true,
            Err(e) => e.understood,
        }
    }

    fn play(&mut self, seat: Seat, text: &str, rng: &mut GameRng) -> Result<Played, PlayError> {
        #[cfg(test)]
        if text == PANIC_ACTION {
            panic!("the test-only action {PANIC_ACTION} panics, as a bug in a game would");
        }
        let action = self.parse_action(seat, text)?;
        let canonical = self.format_action(&action);
        let events = self.apply(seat, &action, rng)?;
        Ok(Played { canonical, events })
    }

    fn replay(&mut self, seat: Seat, text: &str, rng: &mut GameRng) -> Result<Played, PlayError> {
        if text == TIME_OUT
            && let Some(events) = Game::time_out(self, seat)
        {
            return Ok(Played {
                canonical: TIME_OUT.into(),
                events,
            });
        }
        TextGame::play(self, seat, text, rng)
    }

    fn view(&self, viewer: Viewer) -> AnyView {
        G::any_view(Game::view(self, viewer))
    }

    fn describe(&self, outcome: &Outcome) -> String {
        Game::describe(self, outcome)
    }

    fn warning(&self, seat: Seat, text: &str) -> Option<(String, String)> {
        let action = self.parse_action(seat, text).ok()?;
        Game::warning(self, seat, &action).map(|w| (w, self.format_action(&action)))
    }

    fn remaining_seats(&self) -> Vec<Seat> {
        Game::live_seats(self)
    }

    fn resignation(&self, seat: Seat) -> Result<Outcome, String> {
        Game::resignation(self, seat)
    }

    fn on_time(&self, seat: Seat) -> OnTime {
        Game::on_time(self, seat)
    }

    fn turn_owner(&self) -> Option<Seat> {
        Game::turn_owner(self)
    }

    fn timeout(&self) -> Option<Timeout<String>> {
        Game::timeout(self).map(|(seconds, actions)| {
            let texts = actions
                .into_iter()
                .map(|(seat, action)| (seat, self.format_action(&action)))
                .collect();
            (seconds, texts)
        })
    }

    fn computer_thought(
        &self,
        seat: Seat,
        level: Level,
        seed: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<(String, Option<f64>)> {
        crate::ai::think(self, seat, level, seed, stop)
            .map(|choice| (self.format_action(&choice.action), choice.score))
    }

    fn computer_chances(&self, seat: Seat, seed: u64) -> Option<f64> {
        crate::ai::evaluation(self, seat, seed)
    }

    fn live_seats(&self) -> Vec<Seat> {
        Game::live_seats(self)
    }
}
