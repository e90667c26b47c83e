//! deckmate: chess-variant card games for Discord and the terminal.
//!
//! Layers, from the bottom: [`engine`] (the game contract), [`board`] (movement on sparse
//! grids), [`games`] (pure rules, one module per game), and tools over them such as
//! [`selfplay`].

pub mod board;
pub mod engine;
pub mod games;
pub mod selfplay;
