//! Each game's picture, a file a game: what it shows of its view and how it is laid out, drawn
//! with the shared pieces of `render/draw/`.

pub mod chess;
pub mod chessatete;
pub mod echek;
pub mod enprise;
pub mod enthralling;
pub mod snipe;
