//! Piece art: the project's own vector drawings of the six chess pieces, rasterised with
//! tiny-skia at whatever size a picture needs and kept in a cache, so every game (chess,
//! Enthralling, En Prise's four armies, Echek, Snipe) draws the same set at any scale.
//!
//! Each piece is a few layers drawn in a 100-unit box, painter's order:
//! - a *body* shape is filled in the army's colour and outlined in its edge colour;
//! - a *seam* is a line where two body shapes meet, drawn in the detail colour (on a dark
//!   piece it shows the joins, on a light one it falls on the outline);
//! - a *detail* line or *dot* (a bishop's cross, a knight's eye) is drawn in the detail colour.

use super::palette::{BLACK_DETAIL, BLACK_PIECE, WHITE_PIECE};
use super::{Memo, Rect, remembered};
use crate::games::chess::{Color, Role};
use image::RgbImage;
use std::sync::{Arc, OnceLock};
use tiny_skia::{FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, Stroke, Transform};

/// The colours one piece is drawn in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ink {
    pub fill: [u8; 3],
    pub edge: [u8; 3],
    pub detail: [u8; 3],
}

#[derive(Copy, Clone)]
enum Layer {
    Body(&'static str),
    Seam(&'static str),
    Detail(&'static str),
    Dot(&'static str),
}
use Layer::{Body, Detail, Dot, Seam};

const BASE: Layer = Body("R 22 84 56 8 3");
const BASE_SEAM: Layer = Seam("M 25 84 L 75 84");
const BAND: Layer = Body("R 28 76 44 8 2");
const BAND_SEAM: Layer = Seam("M 30 76 L 70 76");

/// The drawing of each role, in `Role::ALL` order.
fn design(role: Role) -> &'static [Layer] {
    match role {
        Role::Pawn => &[
            Body("M 25 91 L 75 91 C 75 79 65 71 59 62 L 41 62 C 35 71 25 79 25 91 Z"),
            Body("E 50 61 15 5.5"),
            Body("O 50 40 14"),
        ],
        Role::Knight => &[
            BASE,
            Body(
                "M 30 84 C 36 72 48 62 44 54 C 38 58 32 62 26 60 C 20 58 19 52 22 46 \
                 C 28 32 36 22 46 19 L 52 8 L 57 20 C 73 32 81 60 75 84 Z",
            ),
            BASE_SEAM,
            Detail("M 59 25 C 69 37 74 56 71 80"),
            Dot("O 40 32 3.2"),
            Dot("O 25.5 50 1.8"),
        ],
        Role::Bishop => &[
            BASE,
            Body("R 33 74 34 10 2"),
            Body("M 35 74 C 24 62 28 46 50 24 C 72 46 76 62 65 74 Z"),
            Body("O 50 17 6"),
            BASE_SEAM,
            Seam("M 36 74 L 64 74"),
            Detail("M 50 40 L 50 60 M 40 50 L 60 50"),
        ],
        Role::Rook => &[
            Body("R 20 82 60 10 2"),
            Body("R 27 74 46 8 1"),
            Body("M 33 74 L 36 38 L 64 38 L 67 74 Z"),
            Body(
                "M 26 38 L 26 12 L 36 12 L 36 20 L 45 20 L 45 12 L 55 12 L 55 20 \
                 L 64 20 L 64 12 L 74 12 L 74 38 Z",
            ),
            Seam("M 23 82 L 77 82"),
            Seam("M 29 74 L 71 74"),
            Seam("M 28 38 L 72 38"),
        ],
        Role::Queen => &[
            BASE,
            BAND,
            Body(
                "M 29 76 L 18 34 L 34 56 L 34 26 L 44 54 L 50 22 L 56 54 L 66 26 L 66 56 \
                 L 82 34 L 71 76 Z",
            ),
            Body("O 18 30 5"),
            Body("O 34 22 5"),
            Body("O 50 18 5"),
            Body("O 66 22 5"),
            Body("O 82 30 5"),
            BASE_SEAM,
            BAND_SEAM,
        ],
        Role::King => &[
            BASE,
            BAND,
            Body(
                "M 47 7 L 53 7 L 53 14 L 60 14 L 60 20 L 53 20 L 53 30 L 47 30 L 47 20 \
                 L 40 20 L 40 14 L 47 14 Z",
            ),
            Body(
                "M 29 76 C 12 62 16 38 34 40 C 42 41 48 48 50 56 C 52 48 58 41 66 40 \
                 C 84 38 88 62 71 76 Z",
            ),
            Body("M 50 62 C 42 50 41 37 50 29 C 59 37 58 50 50 62 Z"),
            BASE_SEAM,
            BAND_SEAM,
            Detail("M 34 66 C 44 62 56 62 66 66"),
        ],
    }
}

/// Parses the drawings' path notation: `M x y`, `L x y`, `C x1 y1 x2 y2 x y`, `Z`, and the
/// shapes `O cx cy r` (circle), `E cx cy rx ry` (ellipse), `R x y w h r` (rounded rectangle).
fn path(spec: &str) -> Path {
    let mut tokens = spec.split_whitespace();
    let mut pb = PathBuilder::new();
    let num = |tokens: &mut std::str::SplitWhitespace| -> f32 {
        tokens
            .next()
            .and_then(|t| t.parse().ok())
            .expect("a number in a piece drawing")
    };
    while let Some(op) = tokens.next() {
        match op {
            "M" => {
                let (x, y) = (num(&mut tokens), num(&mut tokens));
                pb.move_to(x, y);
            }
            "L" => {
                let (x, y) = (num(&mut tokens), num(&mut tokens));
                pb.line_to(x, y);
            }
            "C" => {
                let c: Vec<f32> = (0..6).map(|_| num(&mut tokens)).collect();
                pb.cubic_to(c[0], c[1], c[2], c[3], c[4], c[5]);
            }
            "Z" => pb.close(),
            "O" => {
                let (x, y, r) = (num(&mut tokens), num(&mut tokens), num(&mut tokens));
                pb.push_circle(x, y, r);
            }
            "E" => {
                let (x, y) = (num(&mut tokens), num(&mut tokens));
                let (rx, ry) = (num(&mut tokens), num(&mut tokens));
                let oval = tiny_skia::Rect::from_xywh(x - rx, y - ry, 2.0 * rx, 2.0 * ry);
                pb.push_oval(oval.expect("an ellipse with a size"));
            }
            "R" => {
                let (x, y) = (num(&mut tokens), num(&mut tokens));
                let (w, h, r) = (num(&mut tokens), num(&mut tokens), num(&mut tokens));
                let k = r * 0.45;
                pb.move_to(x + r, y);
                pb.line_to(x + w - r, y);
                pb.cubic_to(x + w - k, y, x + w, y + k, x + w, y + r);
                pb.line_to(x + w, y + h - r);
                pb.cubic_to(x + w, y + h - k, x + w - k, y + h, x + w - r, y + h);
                pb.line_to(x + r, y + h);
                pb.cubic_to(x + k, y + h, x, y + h - k, x, y + h - r);
                pb.line_to(x, y + r);
                pb.cubic_to(x, y + k, x + k, y, x + r, y);
                pb.close();
            }
            other => panic!("unknown operation {other:?} in a piece drawing"),
        }
    }
    pb.finish().expect("a piece drawing has a shape")
}

fn paint(color: [u8; 3]) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(color[0], color[1], color[2], 255);
    paint.anti_alias = true;
    paint
}

/// Rasterises `role` into a `side` x `side` pixmap.
fn rasterise(role: Role, side: u32, ink: Ink) -> Pixmap {
    let mut pixmap = Pixmap::new(side.max(1), side.max(1)).expect("a non-empty pixmap");
    let scale = side as f32 / 100.0;
    let transform = Transform::from_scale(scale, scale);
    // Lines are a fixed share of the piece, but never thinner than a pixel and a half, so
    // small pieces keep a solid outline.
    let width = |share: f32, least: f32| (share * side as f32).max(least) / scale;
    let edge = Stroke {
        width: width(0.034, 1.5),
        line_join: LineJoin::Round,
        line_cap: LineCap::Round,
        ..Stroke::default()
    };
    let fine = Stroke {
        width: width(0.026, 1.2),
        ..edge.clone()
    };
    for &layer in design(role) {
        match layer {
            Body(spec) => {
                let p = path(spec);
                pixmap.fill_path(&p, &paint(ink.fill), FillRule::Winding, transform, None);
                pixmap.stroke_path(&p, &paint(ink.edge), &edge, transform, None);
            }
            Seam(spec) | Detail(spec) => {
                pixmap.stroke_path(&path(spec), &paint(ink.detail), &fine, transform, None);
            }
            Dot(spec) => {
                let p = path(spec);
                pixmap.fill_path(&p, &paint(ink.detail), FillRule::Winding, transform, None);
            }
        }
    }
    pixmap
}

/// A rasterised piece: premultiplied pixels, and each row's span of inked columns.
struct Art {
    pixmap: Pixmap,
    spans: Vec<(usize, usize)>,
}

impl Art {
    fn new(pixmap: Pixmap) -> Art {
        let w = pixmap.width() as usize;
        let spans = pixmap
            .pixels()
            .chunks_exact(w)
            .map(|row| {
                let first = row.iter().position(|p| p.alpha() > 0).unwrap_or(w);
                let last = row.iter().rposition(|p| p.alpha() > 0).map_or(0, |i| i + 1);
                (first, last.max(first))
            })
            .collect();
        Art { pixmap, spans }
    }
}

fn cached(role: Role, side: u32, ink: Ink) -> Arc<Art> {
    static ART: Memo<(Role, u32, Ink), Art> = OnceLock::new();
    remembered(&ART, (role, side, ink), || {
        Art::new(rasterise(role, side, ink))
    })
}

/// Draws `role` filling the `side` x `side` box whose top-left corner is (`x`, `y`).
pub fn draw_piece(img: &mut RgbImage, role: Role, x: u32, y: u32, side: u32, ink: Ink) {
    let art = cached(role, side, ink);
    let (w, width) = (art.pixmap.width() as usize, img.width() as usize);
    let (x, y) = (x as usize, y as usize);
    let rows = art.pixmap.pixels().chunks_exact(w).zip(&art.spans);
    for (dy, (src_row, &(first, last))) in rows.enumerate() {
        let py = y + dy;
        if py >= img.height() as usize {
            break;
        }
        let last = last.min(width.saturating_sub(x));
        if first >= last {
            continue;
        }
        let start = (py * width + x + first) * 3;
        let dst_row = &mut (**img)[start..start + (last - first) * 3];
        for (dst, px) in dst_row.chunks_exact_mut(3).zip(&src_row[first..last]) {
            let a = px.alpha();
            if a == 255 {
                dst.copy_from_slice(&[px.red(), px.green(), px.blue()]);
                continue;
            }
            if a == 0 {
                continue;
            }
            let keep = 255 - u16::from(a);
            // Premultiplied source over an opaque destination.
            for (d, s) in dst.iter_mut().zip([px.red(), px.green(), px.blue()]) {
                *d = (u16::from(s) + (u16::from(*d) * keep + 127) / 255).min(255) as u8;
            }
        }
    }
}

/// The colours a chess piece of `color` is drawn in.
pub fn ink(color: Color) -> Ink {
    match color {
        Color::White => Ink {
            fill: WHITE_PIECE,
            edge: BLACK_PIECE,
            detail: BLACK_PIECE,
        },
        Color::Black => Ink {
            fill: BLACK_PIECE,
            edge: BLACK_PIECE,
            detail: BLACK_DETAIL,
        },
    }
}

/// Draws a `color` `role` filling the box `r`, less `margin` on each side.
pub fn draw_in_box(img: &mut RgbImage, r: Rect, margin: u32, role: Role, color: Color) {
    let side = r.w.min(r.h) - 2 * margin;
    draw_piece(img, role, r.x + margin, r.y + margin, side, ink(color));
}
