//! Painting pixels: blending, filling and washing rectangles, borders, discs and the turn marker.

use super::Rect;
use super::zoomed;
use image::{Pixel, Rgb, RgbImage};

/// The marker of the player whose turn it is.
const GOLD: [u8; 3] = [236, 196, 70];

pub fn blend(px: &mut Rgb<u8>, color: [u8; 3], alpha: u8) {
    let a = u16::from(alpha);
    for (c, &new) in px.0.iter_mut().zip(&color) {
        *c = ((u16::from(*c) * (255 - a) + u16::from(new) * a) / 255) as u8;
    }
}

pub fn fill(img: &mut RgbImage, x0: u32, y0: u32, w: u32, h: u32, color: [u8; 3]) {
    for_each_pixel(img, x0, y0, w, h, |px| px.copy_from_slice(&color));
}

/// Applies `paint` to each pixel (3 bytes) of the rectangle, clipped to the picture.
pub fn for_each_pixel(
    img: &mut RgbImage,
    x0: u32,
    y0: u32,
    w: u32,
    h: u32,
    mut paint: impl FnMut(&mut [u8]),
) {
    let width = img.width() as usize;
    let x1 = (x0 + w).min(img.width()) as usize;
    let y1 = (y0 + h).min(img.height()) as usize;
    let x0 = x0 as usize;
    if x0 >= x1 {
        return;
    }
    for y in y0 as usize..y1 {
        let row = &mut (**img)[(y * width + x0) * 3..(y * width + x1) * 3];
        row.chunks_exact_mut(3).for_each(&mut paint);
    }
}

/// A filled disc with a 2 px border, anti-aliased at the edge.
pub fn disc(img: &mut RgbImage, cx: u32, cy: u32, r: u32, color: [u8; 3], border: [u8; 3]) {
    let r = r as f32;
    for y in cy.saturating_sub(r as u32 + 1)..=cy + r as u32 + 1 {
        for x in cx.saturating_sub(r as u32 + 1)..=cx + r as u32 + 1 {
            if x >= img.width() || y >= img.height() {
                continue;
            }
            let d = ((x as f32 - cx as f32).powi(2) + (y as f32 - cy as f32).powi(2)).sqrt();
            let edge = (r + 0.5 - d).clamp(0.0, 1.0);
            if edge <= 0.0 {
                continue;
            }
            let c = if d > r - 2.0 { border } else { color };
            blend(img.get_pixel_mut(x, y), c, (edge * 255.0) as u8);
        }
    }
}

/// A border `thick` pixels wide just inside `r`.
pub fn border(img: &mut RgbImage, r: Rect, thick: u32, color: [u8; 3]) {
    fill(img, r.x, r.y, r.w, thick, color);
    fill(img, r.x, r.y + r.h - thick, r.w, thick, color);
    fill(img, r.x, r.y, thick, r.h, color);
    fill(img, r.x + r.w - thick, r.y, thick, r.h, color);
}

/// Blends `color` over `r`.
pub fn wash(img: &mut RgbImage, r: Rect, color: [u8; 3], alpha: u8) {
    for_each_pixel(img, r.x, r.y, r.w, r.h, |px| {
        blend(Rgb::from_slice_mut(px), color, alpha)
    });
}

/// A small right-pointing triangle with its left edge at `x`, centred on `cy`, 15 pixels
/// tall at `zoom` 1.
pub fn marker(img: &mut RgbImage, x: u32, cy: u32, zoom: f32) {
    let half = zoomed(zoom, 7);
    for dy in 0..=half {
        let len = (half - dy) * zoomed(zoom, 11) / half + 1;
        fill(img, x, cy - dy, len, 1, GOLD);
        fill(img, x, cy + dy, len, 1, GOLD);
    }
}
