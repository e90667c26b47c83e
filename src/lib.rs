//! deckmate: chess-variant card games for Discord and the terminal.
//!
//! Layers, from the bottom: [`engine`] (the game contract), [`board`] (movement on sparse
//! grids), [`games`] (pure rules, one module per game), and tools over them such as
//! [`selfplay`].
//!
//! A match is its game, options, seat count, seed and the actions played; adapters drive any
//! game through text:
//!
//! ```
//! use deckmate::engine::{GameRng, Seat, ToAct};
//! use deckmate::games::GameKind;
//!
//! let mut rng = GameRng::from_seed(42);
//! let mut game = GameKind::Chess.start(&[], 2, &mut rng).unwrap();
//! for (seat, text) in [(0, "f3"), (1, "e5"), (0, "g2g4")] {
//!     game.play(Seat(seat), text, &mut rng).unwrap();
//! }
//! // Moves out of turn, and moves that are not legal, are refused with a reason.
//! let refused = game.play(Seat(0), "e4", &mut rng).unwrap_err();
//! assert_eq!(refused.to_string(), "it is not your turn");
//!
//! let played = game.play(Seat(1), "Qh4", &mut rng).unwrap();
//! assert_eq!(played.canonical, "Qh4#");
//! let ToAct::Over(outcome) = game.to_act() else { panic!("mate ends the game") };
//! assert_eq!(game.describe(&outcome), "Black won by checkmate");
//! ```

pub mod ai;
pub mod arena;
pub mod board;
pub mod console;
pub mod discord;
pub mod engine;
#[cfg(test)]
mod fuzzing;
pub mod games;
pub mod league;
pub mod render;
pub mod selfplay;
pub mod store;
pub mod table;
pub mod timing;
pub mod uci;
pub mod web;
