//! The chess board picture (Chess, and Enthralling Chess with its marks): squares, coordinates,
//! pieces, the last move and check, coins on enthralled pieces, and the status line.

use crate::games::chess::{BoardView, Color, Square};
use crate::render::draw::clocks;
use crate::render::draw::palette::{
    BLACK_PIECE, CHECK, COIN, DARK, EXTRA, FRAME, LABEL, LAST_MOVE, LIGHT, WHITE_PIECE,
};
use crate::render::draw::{
    HEIGHT, MARGIN, Rect, SQUARE, STATUS, WIDTH, disc, draw_piece, fill, ink, text, text_width,
    wash,
};
use image::{Rgb, RgbImage};
use std::sync::OnceLock;

/// Blends `color` over the square whose top-left pixel is (`x`, `y`).
fn tint(img: &mut RgbImage, x: u32, y: u32, color: [u8; 3], alpha: u8) {
    let square = Rect {
        x,
        y,
        w: SQUARE,
        h: SQUARE,
    };
    wash(img, square, color, alpha);
}

/// The top-left pixel of `sq` as seen with `bottom` nearest the viewer.
pub fn corner(sq: Square, bottom: Color) -> (u32, u32) {
    let (col, row) = match bottom {
        Color::White => (u32::from(sq.file()), 7 - u32::from(sq.rank())),
        Color::Black => (7 - u32::from(sq.file()), u32::from(sq.rank())),
    };
    (MARGIN + col * SQUARE, STATUS + row * SQUARE)
}

/// Draws an 8x8 board view. `marked` pieces get a coin; `rings` get a coin with a dark ring
/// (Enthralling Chess: the latest enthralled pieces, immune to Liberation).
pub fn draw_board(view: &BoardView, rings: &[Square]) -> RgbImage {
    draw_board_marked(view, rings, &[])
}

/// [`draw_board`], with `extra` squares washed in violet (the last Enthrall's landing square
/// or the square a Liberation emptied).
pub fn draw_board_marked(view: &BoardView, rings: &[Square], extra: &[Square]) -> RgbImage {
    let bottom = view.bottom;
    let mut img = clocks::copy_with_room(empty_board(bottom));
    if let Some(last) = &view.last_move {
        for sq in [last.from, last.to] {
            let (x, y) = corner(sq, bottom);
            tint(&mut img, x, y, LAST_MOVE, 140);
        }
    }
    for &sq in extra {
        let (x, y) = corner(sq, bottom);
        tint(&mut img, x, y, EXTRA, 150);
    }
    if let Some(sq) = view.check {
        let (x, y) = corner(sq, bottom);
        tint(&mut img, x, y, CHECK, 150);
    }
    for placed in &view.pieces {
        let (x, y) = corner(placed.square, bottom);
        draw_piece(
            &mut img,
            placed.piece.role,
            x,
            y,
            SQUARE,
            ink(placed.piece.color),
        );
        if placed.marked {
            coin(&mut img, x, y, rings.contains(&placed.square));
        }
    }
    // Status line: a dot of the colour to move, then the game's status text.
    let dot = if view.outcome.is_some() {
        LABEL
    } else if view.to_move == Color::White {
        WHITE_PIECE
    } else {
        BLACK_PIECE
    };
    disc(&mut img, MARGIN + 8, STATUS / 2, 8, dot, LABEL);
    let status_end = text(
        &mut img,
        (MARGIN + 24) as f32,
        27.0,
        20.0,
        &view.status,
        LABEL,
    ) + (MARGIN + 24) as f32;
    // The last move in words at the right, when the status leaves room for it.
    if let Some(last) = &view.last_move {
        let words = format!("Last: {}", last.san);
        let x = (WIDTH - MARGIN) as f32 - text_width(LAST_SIZE, &words);
        if x > status_end + 24.0 {
            text(&mut img, x, 27.0, LAST_SIZE, &words, LAST_WORDS);
        }
    }
    img
}

/// The last move's words in the status band: size and colour.
const LAST_SIZE: f32 = 18.0;
pub const LAST_WORDS: [u8; 3] = [176, 170, 160];

/// The board with no piece or highlight, seen with `bottom` nearest the viewer: squares and
/// coordinates, drawn once per side and copied for each picture.
fn empty_board(bottom: Color) -> &'static RgbImage {
    static BOARDS: OnceLock<[RgbImage; 2]> = OnceLock::new();
    let boards = BOARDS.get_or_init(|| {
        [Color::White, Color::Black].map(|bottom| {
            let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, Rgb(FRAME));
            for sq in Square::all() {
                let (x, y) = corner(sq, bottom);
                let colour = if sq.is_light() { LIGHT } else { DARK };
                fill(&mut img, x, y, SQUARE, SQUARE, colour);
            }
            // Coordinates: rank numbers on the left, file letters below.
            for i in 0..8u8 {
                let file = if bottom == Color::White { i } else { 7 - i };
                let rank = if bottom == Color::White { 7 - i } else { i };
                let letter = char::from(b'a' + file).to_string();
                let digit = char::from(b'1' + rank).to_string();
                let cx = MARGIN + u32::from(i) * SQUARE + SQUARE / 2;
                let w = text_width(20.0, &letter);
                text(
                    &mut img,
                    cx as f32 - w / 2.0,
                    (STATUS + 8 * SQUARE + 23) as f32,
                    20.0,
                    &letter,
                    LABEL,
                );
                let cy = STATUS + u32::from(i) * SQUARE + SQUARE / 2;
                let w = text_width(20.0, &digit);
                text(
                    &mut img,
                    (MARGIN as f32 - w) / 2.0,
                    cy as f32 + 7.0,
                    20.0,
                    &digit,
                    LABEL,
                );
            }
            img
        })
    });
    &boards[usize::from(bottom == Color::Black)]
}

/// A gold coin in the square's lower right corner; `ring` adds a dark ring.
fn coin(img: &mut RgbImage, x0: u32, y0: u32, ring: bool) {
    let (cx, cy, r) = (x0 + SQUARE - 16, y0 + SQUARE - 16, 11);
    disc(img, cx, cy, r, COIN, BLACK_PIECE);
    if ring {
        disc(img, cx, cy, 5, BLACK_PIECE, BLACK_PIECE);
    }
}

impl super::Picture for BoardView {
    fn draw(&self) -> RgbImage {
        draw_board(self, &[])
    }
}
