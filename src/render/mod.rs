//! Board pictures: a game's view -> PNG bytes. Only views are drawn, never game states, so a
//! picture cannot show what its viewer may not see.
//!
//! Rendering is CPU work: the table renders on its own thread (`table::TableHandle`), never on
//! the async runtime.
//!
//! Layout: this file dispatches over the game kind; `games/` holds each game's picture, a file a
//! game; `draw/` the drawing they share; `replay.rs` animates a match's views into a GIF and
//! `standings.rs` draws a league's table.

use crate::games::AnyView;
use draw::clocks;
use draw::palette::{BLACK_PIECE, LABEL, WHITE_PIECE};
use games::{chess, chessatete, echek, enprise, enthralling, snipe};
use image::RgbImage;

pub use draw::clocks::ClockFace;
pub use draw::indexed::encode_png;
pub use draw::size::{HEIGHT, SQUARE, WIDTH};
pub use games::chess::draw_board;

/// The picture of any game's view, as PNG bytes.
pub fn render(view: &AnyView) -> Vec<u8> {
    encode_png(&draw(view))
}

/// A match's spectator views, from its start, as an animated GIF (see `replay.rs`).
pub fn render_replay(views: &[AnyView]) -> Vec<u8> {
    replay::animate(views, draw)
}

/// [`render`] with the match's players (and clocks) in a band under the board.
pub fn render_with_clocks(view: &AnyView, clocks: &[ClockFace]) -> Vec<u8> {
    encode_png(&clocks::with_clocks(draw(view), clocks, |seat| {
        seat_colours(view, seat)
    }))
}

/// The colours (fill, outline) of a seat's pieces.
fn seat_colours(view: &AnyView, seat: crate::engine::Seat) -> ([u8; 3], [u8; 3]) {
    match view {
        AnyView::Enprise(_) => enprise::army(seat),
        _ if seat.0 == 0 => (WHITE_PIECE, BLACK_PIECE),
        _ => (BLACK_PIECE, LABEL),
    }
}

/// The picture of any game's view: one arm a game, each drawn by its file in `games/`.
fn draw(view: &AnyView) -> RgbImage {
    match view {
        AnyView::Chess(board) => chess::draw_board(board, &[]),
        AnyView::Enthralling(v) => enthralling::draw(v),
        AnyView::Enprise(v) => enprise::draw(v),
        AnyView::Echek(v) => echek::draw(v),
        AnyView::Snipe(v) => snipe::draw(v),
        AnyView::Chessatete(v) => chessatete::draw(v),
    }
}

/// What a player's private reply shows: the part of their own view only they may see, as a
/// picture sized to read at Discord's preview size (a Chess-à-Tête hand); for other games,
/// their whole view ([`render`]).
pub fn private_picture(view: &AnyView) -> Vec<u8> {
    match view {
        AnyView::Chessatete(v) => match chessatete::draw_own_hand(v) {
            Some(img) => encode_png(&img),
            None => render(view),
        },
        _ => render(view),
    }
}

mod draw;
mod games;
pub mod replay;
pub mod standings;

#[cfg(test)]
mod tests;
