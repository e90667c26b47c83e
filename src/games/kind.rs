//! A kind of game as commands and storage name it: what it declares (through
//! [`GameKind::info`]), how it is read from text and how a match of it starts.

use super::{AnyGame, GameKind};
use crate::engine::{GameRng, PgnStyle, Scoring, Seat, SetupError, Showcase};
use std::fmt;
use std::str::FromStr;

impl GameKind {
    /// The short name used in commands and storage: "chess", "enthralling".
    pub fn id(self) -> &'static str {
        self.info().id()
    }

    /// The name players see.
    pub fn name(self) -> &'static str {
        self.info().name()
    }

    /// Smallest and largest number of seats.
    pub fn seats(self) -> (usize, usize) {
        self.info().seats()
    }

    /// How this game's actions are written, with examples ([`crate::engine::Game::NOTATION`]).
    pub fn notation(self) -> &'static str {
        self.info().notation()
    }

    /// The rules in one paragraph, for `/rules` ([`crate::engine::Game::SUMMARY`]).
    pub fn summary(self) -> &'static str {
        self.info().summary()
    }

    /// The revision of this game's rules that new matches are played under
    /// ([`crate::engine::Game::RULES`]).
    pub fn rules(self) -> u32 {
        self.info().rules()
    }

    /// What a league counts a win, a draw and a loss as by default.
    pub fn scoring(self) -> Scoring {
        self.info().scoring()
    }

    /// How a match is written as PGN; None for a game PGN readers do not know.
    pub fn pgn(self) -> Option<PgnStyle> {
        self.info().pgn()
    }

    /// Variants the picture gallery shows besides the default setup.
    pub fn showcase(self) -> &'static [Showcase] {
        self.info().showcase()
    }

    /// What the player in `seat` is called on the board ("White", "Red").
    pub fn seat_name(self, seat: Seat) -> String {
        self.info().seat_name(seat)
    }

    /// Starts a game from `key=value` options, under the current rules.
    pub fn start(
        self,
        options: &[(String, String)],
        seats: usize,
        rng: &mut GameRng,
    ) -> Result<AnyGame, SetupError> {
        self.start_under(options, seats, rng, self.rules())
    }

    /// Starts a game from `key=value` options, under revision `rules` of its rules (a stored
    /// match's own).
    pub fn start_under(
        self,
        options: &[(String, String)],
        seats: usize,
        rng: &mut GameRng,
        rules: u32,
    ) -> Result<AnyGame, SetupError> {
        let game = self.info().start(options, seats, rng)?;
        Ok(game.under_rules(rules))
    }
}

/// The first game of the registration list: what a newcomer is offered when nothing is chosen.
impl Default for GameKind {
    fn default() -> Self {
        GameKind::ALL[0]
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for GameKind {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let wanted = text.trim().to_ascii_lowercase();
        GameKind::REGISTERED
            .iter()
            .copied()
            .find(|k| k.id() == wanted || k.name().to_ascii_lowercase() == wanted)
            .ok_or_else(|| {
                let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.id()).collect();
                format!(
                    "unknown game \"{}\"; choose one of: {}",
                    text.trim(),
                    known.join(", ")
                )
            })
    }
}
