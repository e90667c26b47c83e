//! One module per game, pure rules. [`GameKind`] names them and [`AnyGame`] runs any of them
//! through text actions, which is how the adapters (console, Discord) and `selfplay` drive games.

pub mod chess;
pub mod chessatete;
pub mod echek;
pub mod enprise;
pub mod enthralling;
pub mod snipe;
pub mod xy;

use crate::engine::{
    Event, Game, GameRng, Outcome, ParseError, RuleError, Seat, SetupError, ToAct, Viewer,
    options_from_pairs,
};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

use chess::{Chess, Color};
use chessatete::ChessATete;
use echek::Echek;
use enprise::EnPrise;
use enthralling::Enthralling;
use snipe::Snipe;

/// The games deckmate hosts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    Chess,
    Enthralling,
    Enprise,
    Echek,
    Snipe,
    Chessatete,
}

impl GameKind {
    pub const ALL: [GameKind; 6] = [
        GameKind::Chess,
        GameKind::Enthralling,
        GameKind::Enprise,
        GameKind::Echek,
        GameKind::Snipe,
        GameKind::Chessatete,
    ];

    /// The short name used in commands and storage: "chess", "enthralling".
    pub fn id(self) -> &'static str {
        match self {
            GameKind::Chess => "chess",
            GameKind::Enthralling => "enthralling",
            GameKind::Enprise => "enprise",
            GameKind::Echek => "echek",
            GameKind::Snipe => "snipe",
            GameKind::Chessatete => "chessatete",
        }
    }

    /// The name players see.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Chess => Chess::NAME,
            GameKind::Enthralling => Enthralling::NAME,
            GameKind::Enprise => EnPrise::NAME,
            GameKind::Echek => Echek::NAME,
            GameKind::Snipe => Snipe::NAME,
            GameKind::Chessatete => ChessATete::NAME,
        }
    }

    /// Smallest and largest number of seats.
    pub fn seats(self) -> (usize, usize) {
        match self {
            GameKind::Chess => Chess::SEATS,
            GameKind::Enthralling => Enthralling::SEATS,
            GameKind::Enprise => EnPrise::SEATS,
            GameKind::Echek => Echek::SEATS,
            GameKind::Snipe => Snipe::SEATS,
            GameKind::Chessatete => ChessATete::SEATS,
        }
    }

    /// How this game's actions are written, with examples ([`Game::NOTATION`]).
    pub fn notation(self) -> &'static str {
        match self {
            GameKind::Chess => Chess::NOTATION,
            GameKind::Enthralling => Enthralling::NOTATION,
            GameKind::Enprise => EnPrise::NOTATION,
            GameKind::Echek => Echek::NOTATION,
            GameKind::Snipe => Snipe::NOTATION,
            GameKind::Chessatete => ChessATete::NOTATION,
        }
    }

    /// The revision of this game's rules that new matches are played under ([`Game::RULES`]).
    pub fn rules(self) -> u32 {
        match self {
            GameKind::Chess => Chess::RULES,
            GameKind::Enthralling => Enthralling::RULES,
            GameKind::Enprise => EnPrise::RULES,
            GameKind::Echek => Echek::RULES,
            GameKind::Snipe => Snipe::RULES,
            GameKind::Chessatete => ChessATete::RULES,
        }
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
        let game = self.start_latest(options, seats, rng)?;
        Ok(game.under_rules(rules))
    }

    fn start_latest(
        self,
        options: &[(String, String)],
        seats: usize,
        rng: &mut GameRng,
    ) -> Result<AnyGame, SetupError> {
        Ok(match self {
            GameKind::Chess => AnyGame::Chess(Chess::new(
                &options_from_pairs(Chess::NAME, options)?,
                seats,
                rng,
            )?),
            GameKind::Enthralling => AnyGame::Enthralling(Enthralling::new(
                &options_from_pairs(Enthralling::NAME, options)?,
                seats,
                rng,
            )?),
            GameKind::Enprise => AnyGame::Enprise(EnPrise::new(
                &options_from_pairs(EnPrise::NAME, options)?,
                seats,
                rng,
            )?),
            GameKind::Echek => AnyGame::Echek(Echek::new(
                &options_from_pairs(Echek::NAME, options)?,
                seats,
                rng,
            )?),
            GameKind::Snipe => AnyGame::Snipe(Snipe::new(
                &options_from_pairs(Snipe::NAME, options)?,
                seats,
                rng,
            )?),
            GameKind::Chessatete => AnyGame::Chessatete(ChessATete::new(
                &options_from_pairs(ChessATete::NAME, options)?,
                seats,
                rng,
            )?),
        })
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
        GameKind::ALL
            .into_iter()
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

/// An action given as text was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// What one viewer sees of any game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum AnyView {
    Chess(chess::BoardView),
    Enthralling(enthralling::EnthrallingView),
    Enprise(enprise::EnPriseView),
    Echek(echek::EchekView),
    Snipe(snipe::SnipeView),
    Chessatete(chessatete::ChessATeteView),
}

impl AnyView {
    /// Marks the view as showing a match that ended outside the game's own rules (resignation,
    /// an agreed draw, a timeout, an abort): `outcome` and the status `Game over: <result>`
    /// replace whatever the game would say about the next move.
    pub fn conclude(&mut self, outcome: &Outcome, result: &str) {
        let status = format!("Game over: {result}");
        let outcome = Some(outcome.clone());
        match self {
            AnyView::Chess(v) => (v.outcome, v.status) = (outcome, status),
            AnyView::Enthralling(v) => {
                (v.board.outcome, v.board.status) = (outcome, status);
                v.must_enthrall_or_liberate = false;
            }
            AnyView::Enprise(v) => {
                (v.outcome, v.status) = (outcome, status);
                v.to_act.clear();
            }
            AnyView::Echek(v) => (v.outcome, v.status) = (outcome, status),
            AnyView::Snipe(v) => (v.outcome, v.status) = (outcome, status),
            AnyView::Chessatete(v) => (v.outcome, v.status) = (outcome, status),
        }
    }

    /// Whether the view shows a finished game.
    pub fn is_over(&self) -> bool {
        match self {
            AnyView::Chess(v) => v.outcome.is_some(),
            AnyView::Enthralling(v) => v.board.outcome.is_some(),
            AnyView::Enprise(v) => v.outcome.is_some(),
            AnyView::Echek(v) => v.outcome.is_some(),
            AnyView::Snipe(v) => v.outcome.is_some(),
            AnyView::Chessatete(v) => v.outcome.is_some(),
        }
    }
}

/// A game of any kind, driven by text actions.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum AnyGame {
    Chess(Chess),
    Enthralling(Enthralling),
    Enprise(EnPrise),
    Echek(Echek),
    Snipe(Snipe),
    Chessatete(ChessATete),
}

macro_rules! into_any {
    ($($game:ident => $variant:ident),*) => {
        $(impl From<$game> for AnyGame {
            fn from(game: $game) -> AnyGame {
                AnyGame::$variant(game)
            }
        })*
    };
}

into_any!(
    Chess => Chess,
    Enthralling => Enthralling,
    EnPrise => Enprise,
    Echek => Echek,
    Snipe => Snipe,
    ChessATete => Chessatete
);

/// Calls `$body` with `$g` bound to the inner game, whatever its kind.
macro_rules! each_game {
    ($value:expr, $g:ident => $body:expr) => {
        match $value {
            AnyGame::Chess($g) => $body,
            AnyGame::Enthralling($g) => $body,
            AnyGame::Enprise($g) => $body,
            AnyGame::Echek($g) => $body,
            AnyGame::Snipe($g) => $body,
            AnyGame::Chessatete($g) => $body,
        }
    };
}

fn legal_texts<G: Game>(game: &G, seat: Seat) -> Vec<String> {
    game.legal_actions(seat)
        .iter()
        .map(|a| game.format_action(a))
        .collect()
}

/// The legal actions of `seat` in groups (by piece, card or kind), in the order first seen.
fn grouped_texts<G: Game>(game: &G, seat: Seat) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for action in game.legal_actions(seat) {
        let group = game.action_group(&action);
        let text = game.format_action(&action);
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, texts)) => texts.push(text),
            None => groups.push((group, vec![text])),
        }
    }
    groups
}

fn random_text<G: Game>(game: &G, seat: Seat, rng: &mut GameRng) -> Option<String> {
    let legal = game.legal_actions(seat);
    (!legal.is_empty()).then(|| game.format_action(&legal[rng.below(legal.len())]))
}

fn apply_text<G: Game>(
    game: &mut G,
    seat: Seat,
    text: &str,
    rng: &mut GameRng,
) -> Result<Played, PlayError> {
    #[cfg(test)]
    if text == PANIC_ACTION {
        panic!("the test-only action {PANIC_ACTION} panics, as a bug in a game would");
    }
    let action = game.parse_action(seat, text)?;
    let canonical = game.format_action(&action);
    let events = game.apply(seat, &action, rng)?;
    Ok(Played { canonical, events })
}

/// In test builds only, an action text that makes any game panic while applying it: the
/// services above are tested to survive a bug in a game.
#[cfg(test)]
pub const PANIC_ACTION: &str = "test:panic";

/// The log's text for a seat that ran out of time and was put out while play went on (En Prise
/// with three or more players). No game reads it from a player: only a replay of the log does.
pub const TIME_OUT: &str = "!time";

/// The reason of an outcome decided by a clock, and of a draw because the side with time left
/// could not checkmate.
pub const ON_TIME: &str = "time";
pub const ON_TIME_NO_MATERIAL: &str = "time, with too little material left to checkmate";

/// What running out of time does to a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnTime {
    /// The game ends so: the seat loses, or draws when no opponent could still win.
    Finish(Outcome),
    /// The seat is put out and play goes on (recorded in the log as [`TIME_OUT`]).
    Eliminate,
}

/// An action that was applied: its canonical text (what logs show) and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub canonical: String,
    pub events: Vec<Event>,
}

impl AnyGame {
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Chess(_) => GameKind::Chess,
            AnyGame::Enthralling(_) => GameKind::Enthralling,
            AnyGame::Enprise(_) => GameKind::Enprise,
            AnyGame::Echek(_) => GameKind::Echek,
            AnyGame::Snipe(_) => GameKind::Snipe,
            AnyGame::Chessatete(_) => GameKind::Chessatete,
        }
    }

    pub fn seat_count(&self) -> usize {
        each_game!(self, g => g.seat_count())
    }

    /// The game under revision `rules` of its rules ([`Game::under_rules`]).
    fn under_rules(self, rules: u32) -> AnyGame {
        each_game!(self, g => g.under_rules(rules).into())
    }

    pub fn to_act(&self) -> ToAct {
        each_game!(self, g => g.to_act())
    }

    /// The canonical text of every legal action of `seat` (for autocomplete and `legal`).
    pub fn legal_actions(&self, seat: Seat) -> Vec<String> {
        each_game!(self, g => legal_texts(g, seat))
    }

    /// [`AnyGame::legal_actions`] in groups (by piece, card or kind of action), for long lists.
    pub fn legal_groups(&self, seat: Seat) -> Vec<(String, Vec<String>)> {
        each_game!(self, g => grouped_texts(g, seat))
    }

    /// Whether the legal actions may give away what only their seat may see
    /// ([`Game::private_choices`]).
    pub fn private_choices(&self) -> bool {
        each_game!(self, g => g.private_choices())
    }

    /// The text of one legal action of `seat` chosen at random, or None if it has none.
    pub fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Option<String> {
        each_game!(self, g => random_text(g, seat, rng))
    }

    /// Whether `text` reads as an action of `seat` (legal or not): chat that merely mentions
    /// a move ("nice, Nf3 was great") does not.
    pub fn reads_as_action(&self, seat: Seat, text: &str) -> bool {
        each_game!(self, g => match g.parse_action(seat, text) {
            Ok(_) => true,
            Err(e) => e.understood,
        })
    }

    /// Reads and applies an action typed by the player in `seat`. On error nothing changed.
    pub fn play(&mut self, seat: Seat, text: &str, rng: &mut GameRng) -> Result<Played, PlayError> {
        each_game!(self, g => apply_text(g, seat, text, rng))
    }

    pub fn view(&self, viewer: Viewer) -> AnyView {
        match self {
            AnyGame::Chess(g) => AnyView::Chess(g.view(viewer)),
            AnyGame::Enthralling(g) => AnyView::Enthralling(g.view(viewer)),
            AnyGame::Enprise(g) => AnyView::Enprise(g.view(viewer)),
            AnyGame::Echek(g) => AnyView::Echek(g.view(viewer)),
            AnyGame::Snipe(g) => AnyView::Snipe(g.view(viewer)),
            AnyGame::Chessatete(g) => AnyView::Chessatete(g.view(viewer)),
        }
    }

    /// An outcome in the game's own words ("White won by checkmate").
    pub fn describe(&self, outcome: &Outcome) -> String {
        each_game!(self, g => g.describe(outcome))
    }

    /// If `text` reads as a legal action of `seat` that loses the game on the spot for them,
    /// the warning to show before applying it ([`Game::warning`]) and the action's canonical
    /// text.
    pub fn warning(&self, seat: Seat, text: &str) -> Option<(String, String)> {
        each_game!(self, g => {
            let action = g.parse_action(seat, text).ok()?;
            g.warning(seat, &action).map(|w| (w, g.format_action(&action)))
        })
    }

    /// The seats still playing (all of them, except in games that eliminate players).
    pub fn remaining_seats(&self) -> Vec<Seat> {
        match self {
            AnyGame::Enprise(g) => g.live_seats(),
            _ => Seat::all(self.seat_count()).collect(),
        }
    }

    /// The outcome if `seat` resigns now, or why it may not.
    pub fn resignation(&self, seat: Seat) -> Result<Outcome, String> {
        match self {
            AnyGame::Chess(_)
            | AnyGame::Enthralling(_)
            | AnyGame::Echek(_)
            | AnyGame::Snipe(_)
            | AnyGame::Chessatete(_) => Ok(Outcome::winner(Seat(1 - seat.0), 2, "resignation")),
            AnyGame::Enprise(g) => g.resignation(seat),
        }
    }

    /// What happens when `seat` runs out of time. Two players: the other wins; in chess, a
    /// draw instead when the other has too little material to checkmate. En Prise with three or
    /// more players left: the seat is put out.
    pub fn on_time(&self, seat: Seat) -> OnTime {
        let other = Seat(1 - seat.0.min(1));
        let finish = match self {
            AnyGame::Enprise(g) => {
                return g.on_time(seat).map_or(OnTime::Eliminate, OnTime::Finish);
            }
            AnyGame::Chess(g) => {
                let colour = if other.0 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                if g.position().can_mate(colour) {
                    Outcome::winner(other, 2, ON_TIME)
                } else {
                    Outcome::draw(2, ON_TIME_NO_MATERIAL)
                }
            }
            _ => Outcome::winner(other, 2, ON_TIME),
        };
        OnTime::Finish(finish)
    }

    /// The seat whose turn it is when others may answer inside it (Chess-à-Tête's defender):
    /// its clock pauses, not ends, while they answer. None where whoever must act owns the turn.
    pub fn turn_owner(&self) -> Option<Seat> {
        match self {
            AnyGame::Chessatete(g) => g.turn_owner(),
            _ => None,
        }
    }

    /// Applies an action of the log: a player's text, or [`TIME_OUT`].
    pub fn replay(
        &mut self,
        seat: Seat,
        text: &str,
        rng: &mut GameRng,
    ) -> Result<Played, PlayError> {
        match (text, &mut *self) {
            (TIME_OUT, AnyGame::Enprise(g)) => Ok(Played {
                canonical: TIME_OUT.into(),
                events: g.time_out(seat),
            }),
            _ => self.play(seat, text, rng),
        }
    }

    /// Actions the server takes when nobody acts in time, and after how many seconds: the end
    /// of the memorising time in En Prise Memory. None for everything else.
    pub fn timeout(&self) -> Option<(u32, Vec<(Seat, String)>)> {
        match self {
            AnyGame::Enprise(g) => g.timeout().map(|(secs, acts)| {
                (
                    secs,
                    acts.into_iter()
                        .map(|(s, a)| (s, g.format_action(&a)))
                        .collect(),
                )
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
