//! One module per game, pure rules, and the registration list that names them: a new game is
//! its folder, its `mod` line and its line in the list below. [`GameKind`] names the games, [`AnyGame`] holds a match
//! of any of them and is played through the text-level [`TextGame`], [`AnyView`] shows one.
//!
//! Layout: `registry.rs` turns the list into those types; `kind.rs` reads and starts a kind;
//! `text.rs` is the text-level interface; `xy.rs` the grid coordinates several games share.

pub mod chess;
pub mod chessatete;
pub mod echek;
pub mod enprise;
pub mod enthralling;
pub mod snipe;
#[cfg(test)]
pub mod tictactoe;

mod kind;
mod registry;
mod text;
pub mod xy;

use registry::register_games;

register_games! {
    Chess => chess::Chess,
    Enthralling => enthralling::Enthralling,
    Enprise => enprise::EnPrise,
    Echek => echek::Echek,
    Snipe => snipe::Snipe,
    Chessatete => chessatete::ChessATete,
    #[cfg(test)]
    Tictactoe => tictactoe::TicTacToe,
}

pub use crate::engine::{ON_TIME, ON_TIME_NO_MATERIAL, OnTime, TIME_OUT};
pub use registry::GameInfo;
#[cfg(test)]
pub use text::PANIC_ACTION;
pub use text::{PlayError, Played, TextGame};

use crate::engine::Outcome;
use std::ops::{Deref, DerefMut};

/// A match of any game is played through [`TextGame`]: `game.play(seat, "e4", rng)`.
impl Deref for AnyGame {
    type Target = dyn TextGame;
    fn deref(&self) -> &(dyn TextGame + 'static) {
        self.as_game()
    }
}

impl DerefMut for AnyGame {
    fn deref_mut(&mut self) -> &mut (dyn TextGame + 'static) {
        self.as_game_mut()
    }
}

impl AnyView {
    /// Marks the view as showing a match that ended outside the game's own rules (resignation,
    /// an agreed draw, a timeout, an abort): `outcome` and the status `Game over: <result>`
    /// replace whatever the game would say about the next move.
    pub fn conclude(&mut self, outcome: &Outcome, result: &str) {
        self.as_view_mut()
            .conclude(outcome, format!("Game over: {result}"));
    }

    /// Whether the view shows a finished game.
    pub fn is_over(&self) -> bool {
        self.as_view().outcome().is_some()
    }
}

#[cfg(test)]
mod tests;
