//! The tic-tac-toe picture (a game only tests know): three by three cells, an X as a white disc
//! and an O as a black one, the last mark's cell lit, and the status above.

use crate::games::tictactoe::TicTacToeView;
use crate::render::draw::paint::{disc, fill};
use crate::render::draw::palette::{
    BLACK_PIECE, DARK, FRAME, LABEL, LAST_MOVE, LIGHT, WHITE_PIECE,
};
use crate::render::draw::size::{MARGIN, SQUARE, STATUS};
use crate::render::draw::text::{fit, text};
use image::{Rgb, RgbImage};

/// A cell's side: a tic-tac-toe cell is as wide as two chess squares.
const CELL: u32 = SQUARE * 2;

/// Draws the picture of a tic-tac-toe view.
pub fn draw(view: &TicTacToeView) -> RgbImage {
    let side = MARGIN * 2 + CELL * 3;
    let mut img = RgbImage::from_pixel(side, STATUS + CELL * 3 + MARGIN, Rgb(FRAME));
    text(
        &mut img,
        MARGIN as f32,
        28.0,
        20.0,
        &fit(&view.status, 20.0, (CELL * 3) as f32),
        LABEL,
    );
    for (row, marks) in view.rows.iter().enumerate() {
        for (file, mark) in marks.chars().enumerate() {
            let (x, y) = (MARGIN + file as u32 * CELL, STATUS + row as u32 * CELL);
            let name = format!("{}{}", (b'a' + file as u8) as char, 3 - row);
            let ground = if view.last.as_deref() == Some(name.as_str()) {
                LAST_MOVE
            } else if (row + file) % 2 == 0 {
                LIGHT
            } else {
                DARK
            };
            fill(&mut img, x, y, CELL, CELL, ground);
            let colours = match mark {
                'X' => Some((WHITE_PIECE, BLACK_PIECE)),
                'O' => Some((BLACK_PIECE, LABEL)),
                _ => None,
            };
            if let Some((inside, rim)) = colours {
                disc(&mut img, x + CELL / 2, y + CELL / 2, CELL / 3, inside, rim);
            }
        }
    }
    img
}

impl super::Picture for TicTacToeView {
    fn draw(&self) -> RgbImage {
        draw(self)
    }
}
