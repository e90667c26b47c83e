//! The game contract every deckmate game implements.
//!
//! A game is a pure state machine: [`Game::new`] builds the start from options, a seat count and
//! the server's seeded [`GameRng`]; [`Game::to_act`] says who must act now (or how the game
//! ended); [`Game::apply`] performs one action for one seat. A match is therefore fully described
//! by its options, seat count, seed and action log: replaying them reproduces the exact state.
//!
//! Players only ever see a [`Game::View`], built by allowlist for one [`Viewer`], and type actions
//! in one text notation per game ([`Game::parse_action`] / [`Game::format_action`]).
//!
//! Nothing here knows about Discord, SQLite, async or images.

pub mod testing;

mod outcome;
mod rng;

pub use outcome::Outcome;
pub use rng::GameRng;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::{self, Debug};
use thiserror::Error;

/// A player's place at the table, counted from 0 in turn order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// All seats of a table with `count` players, in turn order.
    pub fn all(count: usize) -> impl Iterator<Item = Seat> {
        (0..count).map(|i| Seat(i as u8))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0 + 1)
    }
}

/// Who is looking at the game: one seated player, or someone who holds no seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// Who must act now. Several seats may be asked at once (simultaneous choices), and the set can
/// change in the middle of a turn (a defender answering an attack).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToAct {
    Seats(Vec<Seat>),
    Over(Outcome),
}

impl ToAct {
    pub fn one(seat: Seat) -> Self {
        ToAct::Seats(vec![seat])
    }

    /// The seats that must act now; empty once the game is over.
    pub fn seats(&self) -> &[Seat] {
        match self {
            ToAct::Seats(seats) => seats,
            ToAct::Over(_) => &[],
        }
    }

    pub fn includes(&self, seat: Seat) -> bool {
        self.seats().contains(&seat)
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            ToAct::Over(outcome) => Some(outcome),
            ToAct::Seats(_) => None,
        }
    }
}

/// Who may read an [`Event`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    Everyone,
    Only(Seat),
}

/// Something that happened while an action was applied, in player-facing words
/// ("White plays Nf3", "Black enthralls the knight on b1 to g8").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub audience: Audience,
    pub text: String,
}

impl Event {
    pub fn public(text: impl Into<String>) -> Self {
        Event {
            audience: Audience::Everyone,
            text: text.into(),
        }
    }

    pub fn private(seat: Seat, text: impl Into<String>) -> Self {
        Event {
            audience: Audience::Only(seat),
            text: text.into(),
        }
    }
}

/// A game could not be set up with these options or this many seats.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("{game} is played by {min} to {max} players, not {got}")]
    SeatCount {
        game: &'static str,
        min: usize,
        max: usize,
        got: usize,
    },
    #[error("{0}")]
    Options(String),
}

/// An action was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("{0}")]
    Illegal(String),
}

/// A player's text could not be read as an action of this game in this position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot read \"{input}\": {reason}")]
pub struct ParseError {
    pub input: String,
    pub reason: String,
}

impl ParseError {
    pub fn new(input: &str, reason: impl Into<String>) -> Self {
        ParseError {
            input: input.trim().to_string(),
            reason: reason.into(),
        }
    }
}

/// The contract. Implementations are pure: no IO, no async, no clocks, no global randomness.
pub trait Game: Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// Variant switches. Unknown keys are refused when options are read from text.
    type Options: Clone + Debug + Default + Serialize + DeserializeOwned + Send + Sync;
    /// One thing a seat can do; has exactly one text form (see [`Game::format_action`]).
    type Action: Clone + Eq + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// What one viewer may see, built by allowlist.
    type View: Clone + Debug + Serialize + Send + Sync;

    /// The game's name as players see it.
    const NAME: &'static str;
    /// The smallest and largest number of seats.
    const SEATS: (usize, usize);

    /// The starting state. All randomness comes from `rng`.
    fn new(options: &Self::Options, seats: usize, rng: &mut GameRng) -> Result<Self, SetupError>;

    /// Number of seats at this table.
    fn seat_count(&self) -> usize;

    /// Which seats must act now, or how the game ended.
    fn to_act(&self) -> ToAct;

    /// Every action `seat` may take now; empty when the seat need not act.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// Applies one action. On error the state is left exactly as it was.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Event>, RuleError>;

    /// What `viewer` may see.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// Reads a player's text. Lenient where that cannot mislead (case, spacing, optional marks);
    /// the result is one of [`Game::legal_actions`] or a precise error.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Self::Action, ParseError>;

    /// The canonical text of an action in the current state: what autocomplete offers and what
    /// logs show. `parse_action(seat, &format_action(a)) == Ok(a)` for every legal `a`.
    fn format_action(&self, action: &Self::Action) -> String;

    /// Whether the actions of the seats to act may give away what others may not see (the
    /// cards in a hand, the next card of a hidden battleplan). Adapters then offer a player
    /// their choices privately instead of as buttons everyone sees. The generic checks hold a
    /// game that answers false to it: there, no seat can tell apart two states by the other
    /// seats' legal actions.
    fn private_choices(&self) -> bool {
        false
    }
}

/// Builds a game's options from `key=value` pairs, refusing unknown keys and bad values with a
/// message that names them. Values read as booleans or integers when they look like one.
pub fn options_from_pairs<O: DeserializeOwned>(
    pairs: &[(String, String)],
) -> Result<O, SetupError> {
    let mut map = serde_json::Map::new();
    for (key, value) in pairs {
        let key = key.trim().replace('-', "_");
        let value = value.trim();
        let json = if let Ok(b) = value.parse::<bool>() {
            serde_json::Value::Bool(b)
        } else if let Ok(n) = value.parse::<i64>() {
            serde_json::Value::from(n)
        } else {
            serde_json::Value::String(value.to_string())
        };
        if map.insert(key.clone(), json).is_some() {
            return Err(SetupError::Options(format!("option {key} is given twice")));
        }
    }
    serde_json::from_value(serde_json::Value::Object(map))
        .map_err(|e| SetupError::Options(format!("bad options: {e}")))
}
