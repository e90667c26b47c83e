//! Text: the bundled font, glyphs rasterised once and kept, writing, measuring, cutting to a
//! width with an ellipsis, centring and wrapping.

use super::{Memo, blend, remembered};
use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use image::RgbImage;
use std::sync::{Arc, OnceLock};

/// The bundled font, parsed once.
fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(include_bytes!("../../../assets/fonts/DejaVuSans.ttf"))
            .expect("the bundled font parses")
    })
}

/// A rasterised glyph: coverage 0..=255 over a box placed relative to a square's corner.
struct Sprite {
    left: i32,
    top: i32,
    width: u32,
    alpha: Vec<u8>,
}

impl Sprite {
    fn draw(&self, img: &mut RgbImage, x0: u32, y0: u32, color: [u8; 3]) {
        if self.width == 0 {
            return;
        }
        for (i, &a) in self.alpha.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let x = x0 as i32 + self.left + (i as u32 % self.width) as i32;
            let y = y0 as i32 + self.top + (i as u32 / self.width) as i32;
            if x >= 0 && y >= 0 && (x as u32) < img.width() && (y as u32) < img.height() {
                blend(img.get_pixel_mut(x as u32, y as u32), color, a);
            }
        }
    }
}

/// Rasterises `c` at `size` px with its pen at (`pen_x`, `baseline`) from the box's corner.
fn sprite(c: char, size: f32, pen_x: f32, baseline: f32) -> Sprite {
    let font = font();
    let glyph = font
        .glyph_id(c)
        .with_scale_and_position(PxScale::from(size), point(pen_x, baseline));
    let Some(outlined) = font.outline_glyph(glyph) else {
        return Sprite {
            left: 0,
            top: 0,
            width: 0,
            alpha: vec![],
        };
    };
    let bounds = outlined.px_bounds();
    let width = bounds.width().ceil() as u32;
    let height = bounds.height().ceil() as u32;
    let mut alpha = vec![0u8; (width * height) as usize];
    outlined.draw(|x, y, coverage| {
        if x < width && y < height {
            alpha[(y * width + x) as usize] = (coverage.clamp(0.0, 1.0) * 255.0) as u8;
        }
    });
    Sprite {
        left: bounds.min.x.floor() as i32,
        top: bounds.min.y.floor() as i32,
        width,
        alpha,
    }
}

/// A glyph rasterised once per size and quarter-pixel position, and kept.
fn glyph(c: char, size: f32, frac_x: f32, frac_y: f32) -> Arc<Sprite> {
    static GLYPHS: Memo<(char, u32, u8, u8), Sprite> = OnceLock::new();
    let (qx, qy) = ((frac_x * 4.0) as u8, (frac_y * 4.0) as u8);
    remembered(&GLYPHS, (c, size.to_bits(), qx, qy), || {
        sprite(c, size, f32::from(qx) / 4.0, f32::from(qy) / 4.0)
    })
}

/// Writes `text` with its left end at `x` and baseline at `y`; returns the width used.
pub fn text(img: &mut RgbImage, x: f32, y: f32, size: f32, text: &str, color: [u8; 3]) -> f32 {
    let scaled = font().as_scaled(PxScale::from(size));
    let mut pen = x;
    for c in text.chars() {
        let id = font().glyph_id(c);
        let (px, py) = (pen.max(0.0), y.max(0.0));
        let (ix, iy) = (px.floor(), py.floor());
        glyph(c, size, px - ix, py - iy).draw(img, ix as u32, iy as u32, color);
        pen += scaled.h_advance(id);
    }
    pen - x
}

pub fn text_width(size: f32, text: &str) -> f32 {
    let scaled = font().as_scaled(PxScale::from(size));
    text.chars()
        .map(|c| scaled.h_advance(font().glyph_id(c)))
        .sum()
}

/// `s` cut with an ellipsis to fit in `max` pixels at `size`.
pub fn fit(s: &str, size: f32, max: f32) -> String {
    if text_width(size, s) <= max {
        return s.to_string();
    }
    let room = max - text_width(size, "…");
    let mut used = 0.0;
    let mut out = String::new();
    for c in s.chars() {
        used += text_width(size, c.encode_utf8(&mut [0; 4]));
        if used > room {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// Draws `s` centred on `cx` with its baseline at `y`.
pub fn centred(img: &mut RgbImage, cx: f32, y: f32, size: f32, s: &str, color: [u8; 3]) {
    text(img, cx - text_width(size, s) / 2.0, y, size, s, color);
}

/// `s` in lines no wider than `max`, broken between words (a word wider than a line alone is
/// broken where it must be).
pub fn wrap(s: &str, size: f32, max: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(size, &candidate) <= max {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // The word alone: split it if it still does not fit.
        for c in word.chars() {
            let mut longer = line.clone();
            longer.push(c);
            if !line.is_empty() && text_width(size, &longer) > max {
                lines.push(std::mem::replace(&mut line, c.to_string()));
            } else {
                line = longer;
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}
