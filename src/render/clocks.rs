//! The clocks of a timed match, drawn as a band under its board: each player's name and the
//! time they have left, the running clock (theirs to act) in gold with a dot before it.

use super::{BLACK_PIECE, COIN, FRAME, LABEL, disc, fill, text, text_width};
use image::RgbImage;

/// One player's clock as the picture shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockFace {
    /// Who (a player's name; long names are cut).
    pub label: String,
    /// The time left, already in words ("1d 4h").
    pub left: String,
    /// This clock is running: its player must act.
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
    format!("{label} {}", face.left)
}

/// `board` with a band of `clocks` added under it (as many lines as they need); the board
/// unchanged when there are none.
pub fn with_clocks(board: RgbImage, clocks: &[ClockFace]) -> RgbImage {
    if clocks.is_empty() {
        return board;
    }
    let width = board.width();
    // Lay the entries out in lines that fit the picture's width.
    let mut lines: Vec<Vec<(&ClockFace, String, f32)>> = vec![vec![]];
    let mut used = GAP;
    for face in clocks {
        let text = entry(face);
        let w = text_width(SIZE, &text) + if face.running { 18.0 } else { 0.0 };
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && used + w + GAP > width as f32 {
            lines.push(vec![]);
            used = GAP;
        }
        lines.last_mut().expect("one line").push((face, text, w));
        used += w + GAP;
    }
    let band = LINE * lines.len() as u32 + 8;
    let mut img = RgbImage::new(width, board.height() + band);
    image::imageops::replace(&mut img, &board, 0, 0);
    fill(&mut img, 0, board.height(), width, band, FRAME);
    for (row, line) in lines.iter().enumerate() {
        let baseline = (board.height() + 4 + LINE * row as u32) as f32 + 24.0;
        let mut x = GAP;
        for (face, label, w) in line {
            let color = if face.running { COIN } else { LABEL };
            if face.running {
                disc(
                    &mut img,
                    x as u32 + 6,
                    baseline as u32 - 7,
                    6,
                    COIN,
                    BLACK_PIECE,
                );
                x += 18.0;
            }
            text(&mut img, x, baseline, SIZE, label, color);
            x += w - if face.running { 18.0 } else { 0.0 } + GAP;
        }
    }
    img
}
