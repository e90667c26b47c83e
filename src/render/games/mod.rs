//! Each game's picture, a file a game: what it shows of its view and how it is laid out, drawn
//! with the shared pieces of `render/draw/`. A file makes its game's view a [`Picture`]; the
//! one match over the games is `render::picture`.

pub mod chess;
pub mod chessatete;
pub mod echek;
pub mod enprise;
pub mod enthralling;
pub mod snipe;
#[cfg(test)]
pub mod tictactoe;

use crate::engine::Seat;
use crate::render::draw::palette::{BLACK_PIECE, LABEL, WHITE_PIECE};
use image::RgbImage;

/// What `render/` asks of a game's view.
pub trait Picture {
    /// The whole picture of the view.
    fn draw(&self) -> RgbImage;

    /// The colours (fill, outline) of a seat's pieces, for the band of clocks: white for the
    /// first seat, black for the others unless the game says otherwise.
    fn seat_colours(&self, seat: Seat) -> ([u8; 3], [u8; 3]) {
        if seat.0 == 0 {
            (WHITE_PIECE, BLACK_PIECE)
        } else {
            (BLACK_PIECE, LABEL)
        }
    }

    /// The part of the view only its viewer may see, sized to read at Discord's preview size
    /// (a Chess-à-Tête hand), when the game has one and the view shows it.
    fn private_part(&self) -> Option<RgbImage> {
        None
    }
}
