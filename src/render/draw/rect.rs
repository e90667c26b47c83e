//! A rectangle of pixels.

/// A rectangle of pixels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl Rect {
    /// The same rectangle shrunk by `by` on every side.
    pub fn inset(self, by: u32) -> Rect {
        Rect {
            x: self.x + by,
            y: self.y + by,
            w: self.w.saturating_sub(2 * by),
            h: self.h.saturating_sub(2 * by),
        }
    }

    /// The same rectangle grown by `by` on every side.
    pub fn outset(self, by: u32) -> Rect {
        Rect {
            x: self.x - by,
            y: self.y - by,
            w: self.w + 2 * by,
            h: self.h + 2 * by,
        }
    }

    pub fn centre(self) -> (u32, u32) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }
}
