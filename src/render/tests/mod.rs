//! The render tests, a file a subject: each game's picture, the replay GIF, the standings
//! picture and the PNG encoding. This file holds only the fixtures they share.

use super::*;
use crate::engine::{Game, GameRng, Seat, Viewer};
use crate::games::chess::{Chess, ChessOptions, Color, Square};
use crate::games::enthralling::{Enthralling, EnthrallingOptions};
use draw::palette::*;
use draw::{MARGIN, Rect, STATUS, blend, ink, text_width, wrap};
use games::chess::{LAST_WORDS, corner};
use games::{chessatete, echek, enprise, snipe};
use image::{Rgb, RgbImage};

mod chess_pictures;
mod chessatete_pictures;
mod echek_pictures;
mod enprise_pictures;
mod enthralling_pictures;
mod indexed;
mod replay;
mod snipe_pictures;
mod standings;

/// Pixels of `r` within a few levels of `color`.
fn count_in(img: &RgbImage, r: Rect, color: [u8; 3]) -> usize {
    let mut n = 0;
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            let p = img.get_pixel(x, y).0;
            if p.iter().zip(color).all(|(&a, b)| a.abs_diff(b) < 16) {
                n += 1;
            }
        }
    }
    n
}

fn chess_after(moves: &[&str]) -> Chess {
    let mut g = Chess::new(&ChessOptions::default(), 2, &mut GameRng::from_seed(0)).unwrap();
    for (i, m) in moves.iter().enumerate() {
        let seat = Seat((i % 2) as u8);
        let mv = g.parse_action(seat, m).unwrap();
        g.apply(seat, &mv, &mut GameRng::from_seed(0)).unwrap();
    }
    g
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// The pixel just inside a square's top-left corner, where no piece ink falls.
fn corner_pixel(img: &RgbImage, s: &str, bottom: Color) -> [u8; 3] {
    let (x, y) = corner(sq(s), bottom);
    img.get_pixel(x + 2, y + 2).0
}

/// How many pixels of the square are nearly `color`.
fn count_near(img: &RgbImage, s: &str, bottom: Color, color: [u8; 3]) -> usize {
    let (x0, y0) = corner(sq(s), bottom);
    let mut n = 0;
    for y in y0..y0 + SQUARE {
        for x in x0..x0 + SQUARE {
            let p = img.get_pixel(x, y).0;
            if p.iter().zip(color).all(|(&a, b)| a.abs_diff(b) < 16) {
                n += 1;
            }
        }
    }
    n
}

/// A frame's delay and area (left, top, width, height).
type Shown = (u16, (u16, u16, u16, u16));

/// Plays the GIF back: each frame's delay and area, and the picture on screen after it.
fn play_back(gif: &[u8]) -> Vec<(Shown, RgbImage)> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif).unwrap();
    let (w, h) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let palette = decoder.global_palette().unwrap().to_vec();
    let mut canvas = RgbImage::new(w, h);
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        for (i, &index) in frame.buffer.iter().enumerate() {
            if Some(index) == frame.transparent {
                continue;
            }
            let x = u32::from(frame.left) + i as u32 % u32::from(frame.width);
            let y = u32::from(frame.top) + i as u32 / u32::from(frame.width);
            let c = &palette[usize::from(index) * 3..usize::from(index) * 3 + 3];
            canvas.put_pixel(x, y, Rgb([c[0], c[1], c[2]]));
        }
        let area = (frame.left, frame.top, frame.width, frame.height);
        frames.push(((frame.delay, area), canvas.clone()));
    }
    frames
}
