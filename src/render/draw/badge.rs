//! A king's badge: the number of its free neighbours on a disc, and how a king short of room
//! or at the end of a game is marked (Echek and Snipe).

use super::palette::{CHECK, WHITE_PIECE};
use super::{Rect, centred, disc};
use crate::engine::Outcome;
use crate::games::chess::{Color, color_of};
use image::RgbImage;

/// A king's badge: its number of free neighbours on a disc of radius `r` with a white rim, in
/// the top-right corner of the king's square, `inset` pixels in from its edges. The number is
/// drawn large, to read at preview size.
pub struct Badge {
    pub r: u32,
    pub inset: u32,
}

impl Badge {
    /// The badge's centre on the square `cell`.
    pub fn centre(&self, cell: Rect) -> (u32, u32) {
        let at = self.r + self.inset;
        (cell.x + cell.w - at, cell.y + at)
    }

    /// Draws the number `n` in `ink` on a disc of `face` on the square `cell`.
    pub fn draw(&self, img: &mut RgbImage, cell: Rect, face: [u8; 3], ink: [u8; 3], n: usize) {
        let (cx, cy) = self.centre(cell);
        disc(img, cx, cy, self.r, face, WHITE_PIECE);
        let size = self.r as f32 * 1.4;
        centred(
            img,
            cx as f32,
            cy as f32 + size * 0.36,
            size,
            &n.to_string(),
            ink,
        );
    }
}

/// The green of the winner's king, frame and dot.
pub const WIN: [u8; 3] = [64, 168, 96];

/// The winner's colour in a finished two-seat game, if it was won.
pub fn winner(outcome: Option<&Outcome>) -> Option<Color> {
    match outcome?.winners() {
        [seat] => color_of(*seat),
        _ => None,
    }
}

/// How a king of `color` with `free` free neighbours is marked: the colour of its frame, wash
/// and badge, and the wash's strength (`deep` with no room at all, 110 otherwise). Once the
/// game is won, the winner's king is green and the loser's red; before, a king with `short`
/// free neighbours or fewer is red.
pub fn king_mark(
    winner: Option<Color>,
    color: Color,
    free: usize,
    short: usize,
    deep: u8,
) -> Option<([u8; 3], u8)> {
    let deep = if free == 0 { deep } else { 110 };
    match winner {
        Some(w) if w == color => Some((WIN, 150)),
        Some(_) => Some((CHECK, deep)),
        None => (free <= short).then_some((CHECK, deep)),
    }
}
