//! Board pictures: a game's view -> PNG bytes. Only views are drawn, never game states, so a
//! picture cannot show what its viewer may not see.
//!
//! Rendering is CPU work: the table renders on its own thread (`table::TableHandle`), never on
//! the async runtime.
//!
//! Layout: this file matches over the games once, in [`picture`]; `games/` holds each game's picture, a file a
//! game; `draw/` the drawing they share; `replay.rs` animates a match's views into a GIF and
//! `standings.rs` draws a league's table.

use crate::games::AnyView;
use draw::clocks;
use games::Picture;
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

/// The picture of any game's view.
fn draw(view: &AnyView) -> RgbImage {
    picture(view).draw()
}

/// The colours (fill, outline) of a seat's pieces.
fn seat_colours(view: &AnyView, seat: crate::engine::Seat) -> ([u8; 3], [u8; 3]) {
    picture(view).seat_colours(seat)
}

/// What a player's private reply shows: the part of their own view only they may see, as a
/// picture sized to read at Discord's preview size (a Chess-à-Tête hand); otherwise, and for
/// other games, their whole view ([`render`]).
pub fn private_picture(view: &AnyView) -> Vec<u8> {
    match picture(view).private_part() {
        Some(img) => encode_png(&img),
        None => render(view),
    }
}

/// Any game's view as its [`Picture`]: one arm a game, each drawn by its file in `games/`.
fn picture(view: &AnyView) -> &dyn Picture {
    match view {
        AnyView::Chess(v) => v,
        AnyView::Enthralling(v) => v,
        AnyView::Enprise(v) => v,
        AnyView::Echek(v) => v,
        AnyView::Snipe(v) => v,
        AnyView::Chessatete(v) => v,
        #[cfg(test)]
        AnyView::Tictactoe(v) => v,
    }
}

mod draw;
mod games;
pub mod replay;
pub mod standings;

#[cfg(test)]
mod tests;
