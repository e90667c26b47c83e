//! A king's badge: the number of its free neighbours on a disc (Echek and Snipe).

use super::palette::WHITE_PIECE;
use super::{Rect, centred, disc};
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
