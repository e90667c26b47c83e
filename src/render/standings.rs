//! A league's standings as a picture: a title, a header row, and one row a player, with
//! alternating bands so a row is easy to follow across.

use super::draw::{fill, text, text_width};
use super::encode_png;
use image::RgbImage;

const SIZE: f32 = 20.0;
pub(super) const ROW: u32 = 34;
pub(super) const PAD: u32 = 14;
pub(super) const BACKGROUND: [u8; 3] = [250, 248, 240];
pub(super) const BAND: [u8; 3] = [236, 232, 218];
pub(super) const HEAD: [u8; 3] = [60, 72, 88];
const INK: [u8; 3] = [30, 30, 30];
const HEAD_INK: [u8; 3] = [250, 250, 250];

/// The standings table as a PNG: `title` above, `heads` for the columns, then `rows` (each as
/// many cells as there are heads). The first column is aligned left, the others right.
pub fn standings_png(title: &str, heads: &[String], rows: &[Vec<String>]) -> Vec<u8> {
    let widths: Vec<u32> = (0..heads.len())
        .map(|c| {
            let cells = rows.iter().filter_map(|r| r.get(c)).chain([&heads[c]]);
            cells
                .map(|t| text_width(SIZE, t).ceil() as u32)
                .max()
                .unwrap_or(0)
                + 2 * PAD
        })
        .collect();
    let width = widths
        .iter()
        .sum::<u32>()
        .max(text_width(SIZE * 1.2, title) as u32 + 2 * PAD);
    let height = ROW * (rows.len() as u32 + 2) + PAD;
    let mut img = RgbImage::from_pixel(width, height, image::Rgb(BACKGROUND));
    let baseline = |row: u32| (row * ROW) as f32 + ROW as f32 * 0.7;
    text(&mut img, PAD as f32, baseline(0), SIZE * 1.2, title, INK);
    fill(&mut img, 0, ROW, width, ROW, HEAD);
    let line = |img: &mut RgbImage, row: u32, cells: &[String], ink: [u8; 3]| {
        let mut x = 0;
        for (c, cell) in cells.iter().enumerate() {
            let w = widths.get(c).copied().unwrap_or(0);
            let left = match c {
                0 => x + PAD,
                _ => x + w - PAD - text_width(SIZE, cell).ceil() as u32,
            };
            text(img, left as f32, baseline(row), SIZE, cell, ink);
            x += w;
        }
    };
    line(&mut img, 1, heads, HEAD_INK);
    for (i, row) in rows.iter().enumerate() {
        let at = i as u32 + 2;
        if i % 2 == 1 {
            fill(&mut img, 0, at * ROW, width, ROW, BAND);
        }
        line(&mut img, at, row, INK);
    }
    encode_png(&img)
}
