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

mod ending;
mod level;
mod outcome;
mod pgn;
mod rng;
mod scoring;

pub use ending::{ON_TIME, ON_TIME_NO_MATERIAL, OnTime, TIME_OUT, last_of};
pub use level::Level;
pub use outcome::{Outcome, describe_white_black};
pub use pgn::PgnStyle;
pub use rng::GameRng;
pub use scoring::Scoring;

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
    #[error("{game} is played by {}, not {got}", players(*min, *max))]
    SeatCount {
        game: &'static str,
        min: usize,
        max: usize,
        got: usize,
    },
    #[error("{0}")]
    Options(String),
}

fn players(min: usize, max: usize) -> String {
    if min == max {
        format!("{min} players")
    } else {
        format!("{min} to {max} players")
    }
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

/// A player's text was refused: either it could not be read as an action of this game
/// ([`ParseError::new`], shown as `cannot read "..."`), or it was understood and a rule forbids
/// it here ([`ParseError::refused`], shown as the rule alone: "no bishop of yours can reach b5").
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", self.message())]
pub struct ParseError {
    /// What the player typed, trimmed and cut to [`ECHO_LIMIT`] characters.
    pub input: String,
    pub reason: String,
    /// The text was read as an action; the reason is the rule that forbids it.
    pub understood: bool,
}

/// How many characters of a player's text a message repeats.
pub const ECHO_LIMIT: usize = 40;

/// `text` trimmed and, past [`ECHO_LIMIT`] characters, cut with an ellipsis; control
/// characters (a terminal's escape codes, text direction overrides) are written as escapes
/// (`\u{1b}`), never passed on raw.
pub fn echo(text: &str) -> String {
    let mut shown = String::new();
    for (count, c) in text.trim().chars().enumerate() {
        if count == ECHO_LIMIT {
            shown.push('…');
            break;
        }
        if c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        {
            shown.extend(c.escape_unicode());
        } else {
            shown.push(c);
        }
    }
    shown
}

impl ParseError {
    /// The text could not be read as an action.
    pub fn new(input: &str, reason: impl Into<String>) -> Self {
        ParseError {
            input: echo(input),
            reason: reason.into(),
            understood: false,
        }
    }

    /// The text was read as an action, and `reason` is the rule that forbids it now.
    pub fn refused(input: &str, reason: impl Into<String>) -> Self {
        ParseError {
            understood: true,
            ..ParseError::new(input, reason)
        }
    }

    fn message(&self) -> String {
        if self.understood {
            self.reason.clone()
        } else {
            format!("cannot read \"{}\": {}", self.input, self.reason)
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
    type View: GameView + Clone + Debug + Serialize + Send + Sync;

    /// The short name used in commands, storage and file names ("chess"): lower-case ASCII
    /// letters, the same as the game's name in the registration list (a test checks it).
    const ID: &'static str;
    /// The game's name as players see it.
    const NAME: &'static str;
    /// The smallest and largest number of seats.
    const SEATS: (usize, usize);
    /// How actions are written, for a player's `help`: a few lines with real examples, in the
    /// words of the game's rules page.
    const NOTATION: &'static str = "";
    /// The rules in one paragraph, for `/rules`: what the game is, how actions are typed (with
    /// examples) and how it is won. Markdown; the default names the game alone.
    const SUMMARY: &'static str = "";
    /// What a league counts a win, a draw and a loss as, unless it chooses otherwise.
    const SCORING: Scoring = Scoring::STANDARD;
    /// How the game is written as PGN; None for a game PGN readers do not know.
    const PGN: Option<PgnStyle> = None;
    /// Variants worth a picture of their own in `deckmate gallery`, beyond the default setup:
    /// a label, the number of seats and the options.
    const SHOWCASE: &'static [Showcase] = &[];
    /// Whether players are offered the game (`/play`, the console, `deckmate gallery`); false
    /// for a game only tests know.
    const OFFERED: bool = true;
    /// The revision of the rules new matches are played under, raised whenever a rule changes
    /// what is legal. A stored match keeps the revision it began with ([`Game::under_rules`]).
    const RULES: u32 = 1;

    /// This game, played under revision `rules` of its rules: an older revision for a match
    /// stored before a rule changed, so its log replays as it was played. Called right after
    /// [`Game::new`]. The default, for a game whose rules never changed, ignores it.
    fn under_rules(self, _rules: u32) -> Self {
        self
    }

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

    /// Whether a spectator's view may hide again what it once showed (En Prise Memory's plans,
    /// shown to be memorised, then turned face down): a replay of its earlier views would then
    /// tell what the players are meant to remember, so it is shown only once the match is over.
    /// The default: what a spectator saw stays seen.
    fn hides_what_it_showed(&self) -> bool {
        false
    }

    /// How the game ended, in the game's own words, naming who did what ("White won by
    /// checkmate", "Black closed in their own king: White won"). The default names seats 1 and
    /// 2 White and Black.
    fn describe(&self, outcome: &Outcome) -> String {
        outcome::describe_white_black(outcome)
    }

    /// Which group an action belongs to when a long list of actions is shown, one group a line
    /// (by piece, card or kind of action: "knight", "play", "rotate"). The default is the first
    /// word of the action's text.
    fn action_group(&self, action: &Self::Action) -> String {
        let text = self.format_action(action);
        text.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    }

    /// A warning for a legal action that loses the game on the spot for the seat playing it
    /// (closing in your own king): adapters ask the player to confirm before applying it.
    fn warning(&self, _seat: Seat, _action: &Self::Action) -> Option<String> {
        None
    }

    /// What the player in `seat` is called on the board: "White" and "Black" for the first
    /// two seats by default, "seat 3" after them.
    fn seat_name(seat: Seat) -> String {
        match seat.0 {
            0 => "White".into(),
            1 => "Black".into(),
            _ => seat.to_string(),
        }
    }

    /// The seats still playing: every seat, unless the game puts players out.
    fn live_seats(&self) -> Vec<Seat> {
        Seat::all(self.seat_count()).collect()
    }

    /// The outcome if `seat` resigns now, or why it may not. By default the seat finishes last
    /// and everyone else shares first place ([`last_of`]).
    fn resignation(&self, seat: Seat) -> Result<Outcome, String> {
        Ok(last_of(seat, self.seat_count(), "resignation"))
    }

    /// What happens when `seat` runs out of time. By default the game ends with the seat last
    /// and everyone else sharing first place ([`last_of`]).
    fn on_time(&self, seat: Seat) -> OnTime {
        OnTime::Finish(last_of(seat, self.seat_count(), ON_TIME))
    }

    /// Puts `seat` out for running out of time while play goes on, when [`Game::on_time`] said
    /// [`OnTime::Eliminate`]: what a replay does with a [`TIME_OUT`] entry of the log. None for
    /// a game that never puts a seat out on time.
    fn time_out(&mut self, _seat: Seat) -> Option<Vec<Event>> {
        None
    }

    /// The seat whose turn it is when others may answer inside it (Chess-à-Tête's defender):
    /// its clock pauses, not ends, while they answer. None where whoever must act owns the turn.
    fn turn_owner(&self) -> Option<Seat> {
        None
    }

    /// A state `seat` cannot tell apart from this one, with everything it cannot see dealt
    /// again at random from what it could be (the other hand, the unseen battleplans, the
    /// order of a deck): what a computer player searches instead of the real state, so it never
    /// uses a fact its seat does not know. The default, for a game with nothing hidden, is the
    /// state itself; a game that hides anything must override it (the fairness check of
    /// `engine::testing` fails otherwise).
    fn determinize(&self, _seat: Seat, _rng: &mut GameRng) -> Self {
        self.clone()
    }

    /// Each seat's chances in a game not yet over, from 0 to 1, for a computer player's
    /// playout cut short (material, mobility). None, the default, counts every seat even.
    fn evaluate(&self) -> Option<Vec<f64>> {
        None
    }

    /// A hash of everything that decides how this state goes on (the position, the seat to act,
    /// any rule state such as castling rights or a piece's history), for a search's
    /// transposition table: two states with the same key must have the same legal actions and
    /// futures. None, the default, gives the alpha-beta search (`ai::alphabeta`) no table.
    fn search_key(&self) -> Option<u64> {
        None
    }

    /// Whether `action` changes the balance at once (a capture, a promotion): what the
    /// alpha-beta search keeps playing past its depth before it trusts [`Game::evaluate`].
    /// False by default.
    fn is_noisy(&self, _action: &Self::Action) -> bool {
        false
    }

    /// Applies an action of [`Game::legal_actions`] for a search, which reads no events: the
    /// state after it must act, end, evaluate and key as after [`Game::apply`] (what only a
    /// picture shows, such as the last move's text, may be left out). The default is `apply`;
    /// a game whose `apply` spends most of its time checking and describing may skip both.
    fn apply_searched(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        rng: &mut GameRng,
    ) -> Result<(), RuleError> {
        self.apply(seat, action, rng).map(|_| ())
    }

    /// How promising `action` looks before searching it, higher first (a capture of a big
    /// piece by a small one): the order the alpha-beta search tries actions in. 0 by default.
    fn order_hint(&self, _action: &Self::Action) -> i32 {
        0
    }

    /// A search of the game's own, stronger than the generic one of src/ai (which every game
    /// has): the action `seat` plays at `level`, from `seed`, thinking until `stop` says the
    /// time is spent. Like the generic search it must use only what `seat` can see. None, the
    /// default, leaves the choice to the generic search.
    fn own_search(
        &self,
        _seat: Seat,
        _level: Level,
        _seed: u64,
        _stop: &dyn Fn() -> bool,
    ) -> Option<Self::Action> {
        None
    }

    /// Actions the server takes when nobody acts in time, and after how many seconds (the end
    /// of the memorising time in En Prise Memory). None by default.
    fn timeout(&self) -> Option<Timeout<Self::Action>> {
        None
    }
}

/// The server's move when nobody acts in time: after how many seconds, and the actions it
/// takes then for each seat ([`Game::timeout`]).
pub type Timeout<A> = (u32, Vec<(Seat, A)>);

/// A variant shown in the picture gallery: a label, the number of seats, and its options.
pub type Showcase = (&'static str, usize, &'static [(&'static str, &'static str)]);

/// What adapters ask of every game's view, whatever its fields.
pub trait GameView {
    /// How the game ended, once it has.
    fn outcome(&self) -> Option<&Outcome>;

    /// Marks the view as showing a match that ended outside the game's own rules (resignation,
    /// an agreed draw, a timeout, an abort): `outcome`, and `status` in place of whatever the
    /// game would say about the next move; nobody is shown as having something to do.
    fn conclude(&mut self, outcome: &Outcome, status: String);
}

/// When `seat` playing `action` ends the game at once with `seat` beaten (not first, not a
/// draw), tried on a copy: the game after it and the outcome. None otherwise, and for an
/// action refused now. Games build [`Game::warning`] on it.
pub fn loses_at_once<G: Game>(game: &G, seat: Seat, action: &G::Action) -> Option<(G, Outcome)> {
    let mut after = game.clone();
    after.apply(seat, action, &mut GameRng::from_seed(0)).ok()?;
    let outcome = after.to_act().outcome()?.clone();
    (!outcome.is_draw() && outcome.place_of(seat) != Some(0)).then_some((after, outcome))
}

/// Builds a game's options from `key=value` pairs, refusing unknown keys and bad values with a
/// message that names them ("unknown option foo for Chess; options: fen"). Values read as
/// booleans or integers when they look like one.
pub fn options_from_pairs<O: DeserializeOwned + Serialize + Default>(
    game: &str,
    pairs: &[(String, String)],
) -> Result<O, SetupError> {
    // The option names and the kind of value each takes, from the defaults.
    let defaults = match serde_json::to_value(O::default()) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let mut map = serde_json::Map::new();
    for (key, value) in pairs {
        let key = key.trim().to_ascii_lowercase().replace('-', "_");
        let value = value.trim();
        let Some(default) = defaults.get(&key) else {
            let known: Vec<&str> = defaults.keys().map(String::as_str).collect();
            return Err(SetupError::Options(if known.is_empty() {
                format!("{game} takes no options (got {})", echo(&key))
            } else {
                format!(
                    "unknown option {} for {game}; options: {}",
                    echo(&key),
                    known.join(", ")
                )
            }));
        };
        let json = if let Ok(b) = value.parse::<bool>() {
            serde_json::Value::Bool(b)
        } else if let Ok(n) = value.parse::<i64>() {
            serde_json::Value::from(n)
        } else {
            serde_json::Value::String(value.to_string())
        };
        // A value of the wrong kind is named with the kind the option takes.
        let wanted = match default {
            serde_json::Value::Bool(_) if !json.is_boolean() => Some("true or false"),
            serde_json::Value::Number(_) if !json.is_number() => Some("a whole number"),
            _ => None,
        };
        if let Some(wanted) = wanted {
            return Err(SetupError::Options(format!(
                "option {key} takes {wanted}, not \"{}\"",
                echo(value)
            )));
        }
        if map.insert(key.clone(), json).is_some() {
            return Err(SetupError::Options(format!("option {key} is given twice")));
        }
    }
    serde_json::from_value(serde_json::Value::Object(map.clone())).map_err(|e| {
        // Name the option at fault when one alone is refused; serde's words ("unknown variant
        // `x`, expected one of `a`, `b`") name the values it takes.
        let words = |e: serde_json::Error| e.to_string().replace('`', "");
        let alone = map.iter().find_map(|(key, value)| {
            let one = serde_json::Map::from_iter([(key.clone(), value.clone())]);
            serde_json::from_value::<O>(serde_json::Value::Object(one))
                .err()
                .map(|e| format!("option {key} for {game}: {}", words(e)))
        });
        SetupError::Options(
            alone.unwrap_or_else(|| format!("bad options for {game}: {}", words(e))),
        )
    })
}
