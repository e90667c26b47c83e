//! The players of a match, drawn as a band under its board: each player's colour (a disc in
//! their pieces' colours), name and, in a timed match, the time they have left; whoever must
//! act is in gold with a gold dot before them.

use super::palette::{COIN, FRAME, LABEL};
use super::{disc, fill, text, text_width};
use crate::engine::Seat;
use image::RgbImage;

/// One player as the band shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockFace {
    pub seat: Seat,
    /// Who (a player's name; long names are cut).
    pub label: String,
    /// The time left, already in words ("1d 4h"), in a timed match.
    pub left: Option<String>,
    /// This player must act (their clock, if any, is running).
    pub running: bool,
}

/// Height of one line of clocks.
const LINE: u32 = 34;
const SIZE: f32 = 20.0;
const GAP: f32 = 28.0;
const LONGEST_NAME: usize = 14;

fn entry(face: &ClockFace) -> String {
    let mut label: String = face.label.chars().take(LONGEST_NAME).collect();
    if face.label.chars().count() > LONGEST_NAME {
        label.push('…');
    }
    match &face.left {
        Some(left) => format!("{label} {left}"),
        None => label,
    }
}

/// Room for the colour disc before a name, and for the gold dot of whoever must act.
const DISC: f32 = 24.0;
const DOT: f32 = 18.0;

/// A copy of `board` with spare room at its end for a band of two lines of clocks, so that
/// [`with_clocks`] grows it in place rather than copying it again.
pub fn copy_with_room(board: &RgbImage) -> RgbImage {
    let raw = board.as_raw();
    let mut pixels =
        Vec::with_capacity(raw.len() + (2 * LINE + 8) as usize * board.width() as usize * 3);
    pixels.extend_from_slice(raw);
    RgbImage::from_raw(board.width(), board.height(), pixels).expect("the same size")
}

/// `board` with a band of `clocks` added under it (as many lines as they need), each disc in
/// the colours `colours` gives a seat; the board unchanged when there are none.
pub fn with_clocks(
    board: RgbImage,
    clocks: &[ClockFace],
    colours: impl Fn(Seat) -> ([u8; 3], [u8; 3]),
) -> RgbImage {
    if clocks.is_empty() {
        return board;
    }
    let width = board.width();
    // Lay the entries out in lines that fit the picture's width.
    let mut lines: Vec<Vec<(&ClockFace, String, f32)>> = vec![vec![]];
    let mut used = GAP;
    for face in clocks {
        let text = entry(face);
        let w = text_width(SIZE, &text) + DISC + if face.running { DOT } else { 0.0 };
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && used + w + GAP > width as f32 {
            lines.push(vec![]);
            used = GAP;
        }
        lines.last_mut().expect("one line").push((face, text, w));
        used += w + GAP;
    }
    let band = LINE * lines.len() as u32 + 8;
    let height = board.height();
    // The band goes below the board, as wide: the board's pixels stay where they are and the
    // buffer only grows (copying them pixel by pixel took a sixth of a move's time).
    let mut pixels = board.into_raw();
    pixels.resize(width as usize * (height + band) as usize * 3, 0);
    let mut img =
        RgbImage::from_raw(width, height + band, pixels).expect("the size it was made for");
    fill(&mut img, 0, height, width, band, FRAME);
    for (row, line) in lines.iter().enumerate() {
        let baseline = (height + 4 + LINE * row as u32) as f32 + 24.0;
        let mut x = GAP;
        for (face, label, w) in line {
            let color = if face.running { COIN } else { LABEL };
            if face.running {
                disc(&mut img, x as u32 + 6, baseline as u32 - 7, 6, COIN, COIN);
                x += DOT;
            }
            let (body, lines) = colours(face.seat);
            disc(&mut img, x as u32 + 9, baseline as u32 - 7, 9, body, lines);
            x += DISC;
            text(&mut img, x, baseline, SIZE, label, color);
            x += w - DISC - if face.running { DOT } else { 0.0 } + GAP;
        }
    }
    img
}
