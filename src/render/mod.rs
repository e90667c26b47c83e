//! Board pictures: a game's view -> PNG bytes. Only views are drawn, never game states, so a
//! picture cannot show what its viewer may not see.
//!
//! Rendering is CPU work: the table renders on its own thread (`table::TableHandle`), never on
//! the async runtime.

use crate::games::AnyView;
use crate::games::chess::{BoardView, Color, Role, Square};
use crate::games::enthralling::Extra;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use image::{Rgb, RgbImage};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub use clocks::ClockFace;
use pieces::{Ink, draw_piece};

/// Side of one square, in pixels.
pub const SQUARE: u32 = 88;
const MARGIN: u32 = 32;
const STATUS: u32 = 40;
/// Width of a chess board picture: 768.
pub const WIDTH: u32 = MARGIN * 2 + SQUARE * 8;
/// Height of a chess board picture: status line, board, file letters.
pub const HEIGHT: u32 = STATUS + SQUARE * 8 + MARGIN;

const LIGHT: [u8; 3] = [240, 217, 181];
const DARK: [u8; 3] = [181, 136, 99];
const FRAME: [u8; 3] = [48, 46, 43];
const LABEL: [u8; 3] = [220, 214, 204];
const LAST_MOVE: [u8; 3] = [205, 210, 106];
const CHECK: [u8; 3] = [230, 60, 50];
/// Enthralling Chess: where the last turn's enthralled piece landed, or the square the
/// liberated piece left.
const EXTRA: [u8; 3] = [150, 90, 210];
const COIN: [u8; 3] = [212, 175, 55];
const WHITE_PIECE: [u8; 3] = [255, 255, 255];
const BLACK_PIECE: [u8; 3] = [20, 20, 20];
/// The lines drawn inside black pieces, so their details show.
const BLACK_DETAIL: [u8; 3] = [200, 200, 200];

/// The colours a chess piece of `color` is drawn in.
pub(super) fn ink(color: Color) -> Ink {
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

fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(include_bytes!("../../assets/fonts/DejaVuSans.ttf"))
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

/// The widest picture whose text and margins are drawn at their base size. A wider one (a
/// sprawling En Prise board) scales them with its width, so that once shrunk to a chat's
/// preview its words read as large as a chess board's.
const READ_WIDTH: f32 = WIDTH as f32;

/// How much a picture `width` pixels wide scales its text and margins: 1 up to [`WIDTH`].
fn zoom(width: u32) -> f32 {
    (width as f32 / READ_WIDTH).max(1.0)
}

/// `v` pixels scaled by `zoom`, rounded.
fn zoomed(zoom: f32, v: u32) -> u32 {
    (v as f32 * zoom).round() as u32
}

fn blend(px: &mut Rgb<u8>, color: [u8; 3], alpha: u8) {
    let a = u16::from(alpha);
    for (c, &new) in px.0.iter_mut().zip(&color) {
        *c = ((u16::from(*c) * (255 - a) + u16::from(new) * a) / 255) as u8;
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

fn fill(img: &mut RgbImage, x0: u32, y0: u32, w: u32, h: u32, color: [u8; 3]) {
    for_each_pixel(img, x0, y0, w, h, |px| px.copy_from_slice(&color));
}

fn tint(img: &mut RgbImage, x: u32, y: u32, color: [u8; 3], alpha: u8) {
    let square = enprise::Rect {
        x,
        y,
        w: SQUARE,
        h: SQUARE,
    };
    enprise::wash(img, square, color, alpha);
}

/// Applies `paint` to each pixel (3 bytes) of the rectangle, clipped to the picture.
fn for_each_pixel(
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

/// Things drawn once and kept for every later picture (glyphs, pieces, shapes), by key.
type Memo<K, V> = OnceLock<Mutex<HashMap<K, Arc<V>>>>;

/// The value kept in `memo` under `key`, made by `make` the first time. The lock is not held
/// while making, so two threads may both make a value once; either copy serves.
fn remembered<K: Eq + std::hash::Hash, V>(
    memo: &Memo<K, V>,
    key: K,
    make: impl FnOnce() -> V,
) -> Arc<V> {
    let memo = memo.get_or_init(Default::default);
    if let Some(hit) = memo.lock().expect("a picture cache").get(&key) {
        return Arc::clone(hit);
    }
    let made = Arc::new(make());
    memo.lock()
        .expect("a picture cache")
        .insert(key, Arc::clone(&made));
    made
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
fn text(img: &mut RgbImage, x: f32, y: f32, size: f32, text: &str, color: [u8; 3]) -> f32 {
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

fn text_width(size: f32, text: &str) -> f32 {
    let scaled = font().as_scaled(PxScale::from(size));
    text.chars()
        .map(|c| scaled.h_advance(font().glyph_id(c)))
        .sum()
}

/// The top-left pixel of `sq` as seen with `bottom` nearest the viewer.
fn corner(sq: Square, bottom: Color) -> (u32, u32) {
    let (col, row) = match bottom {
        Color::White => (u32::from(sq.file()), 7 - u32::from(sq.rank())),
        Color::Black => (7 - u32::from(sq.file()), u32::from(sq.rank())),
    };
    (MARGIN + col * SQUARE, STATUS + row * SQUARE)
}

/// Draws an 8x8 board view. `marked` pieces get a coin; `rings` get a coin with a dark ring
/// (Enthralling Chess: the latest enthralled pieces, immune to Liberation).
pub fn draw_board(view: &BoardView, rings: &[Square]) -> RgbImage {
    draw_board_marked(view, rings, &[])
}

/// [`draw_board`], with `extra` squares washed in violet (the last Enthrall's landing square
/// or the square a Liberation emptied).
fn draw_board_marked(view: &BoardView, rings: &[Square], extra: &[Square]) -> RgbImage {
    let bottom = view.bottom;
    let mut img = empty_board(bottom).clone();
    if let Some(last) = &view.last_move {
        for sq in [last.from, last.to] {
            let (x, y) = corner(sq, bottom);
            tint(&mut img, x, y, LAST_MOVE, 140);
        }
    }
    for &sq in extra {
        let (x, y) = corner(sq, bottom);
        tint(&mut img, x, y, EXTRA, 150);
    }
    if let Some(sq) = view.check {
        let (x, y) = corner(sq, bottom);
        tint(&mut img, x, y, CHECK, 150);
    }
    for placed in &view.pieces {
        let (x, y) = corner(placed.square, bottom);
        draw_piece(
            &mut img,
            placed.piece.role,
            x,
            y,
            SQUARE,
            ink(placed.piece.color),
        );
        if placed.marked {
            coin(&mut img, x, y, rings.contains(&placed.square));
        }
    }
    // Status line: a dot of the colour to move, then the game's status text.
    let dot = if view.outcome.is_some() {
        LABEL
    } else if view.to_move == Color::White {
        WHITE_PIECE
    } else {
        BLACK_PIECE
    };
    disc(&mut img, MARGIN + 8, STATUS / 2, 8, dot, LABEL);
    let status_end = text(
        &mut img,
        (MARGIN + 24) as f32,
        27.0,
        20.0,
        &view.status,
        LABEL,
    ) + (MARGIN + 24) as f32;
    // The last move in words at the right, when the status leaves room for it.
    if let Some(last) = &view.last_move {
        let words = format!("Last: {}", last.san);
        let x = (WIDTH - MARGIN) as f32 - text_width(LAST_SIZE, &words);
        if x > status_end + 24.0 {
            text(&mut img, x, 27.0, LAST_SIZE, &words, LAST_WORDS);
        }
    }
    img
}

/// The last move's words in the status band: size and colour.
const LAST_SIZE: f32 = 18.0;
const LAST_WORDS: [u8; 3] = [176, 170, 160];

/// The board with no piece or highlight, seen with `bottom` nearest the viewer: squares and
/// coordinates, drawn once per side and copied for each picture.
fn empty_board(bottom: Color) -> &'static RgbImage {
    static BOARDS: OnceLock<[RgbImage; 2]> = OnceLock::new();
    let boards = BOARDS.get_or_init(|| {
        [Color::White, Color::Black].map(|bottom| {
            let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, Rgb(FRAME));
            for sq in Square::all() {
                let (x, y) = corner(sq, bottom);
                let colour = if sq.is_light() { LIGHT } else { DARK };
                fill(&mut img, x, y, SQUARE, SQUARE, colour);
            }
            // Coordinates: rank numbers on the left, file letters below.
            for i in 0..8u8 {
                let file = if bottom == Color::White { i } else { 7 - i };
                let rank = if bottom == Color::White { 7 - i } else { i };
                let letter = char::from(b'a' + file).to_string();
                let digit = char::from(b'1' + rank).to_string();
                let cx = MARGIN + u32::from(i) * SQUARE + SQUARE / 2;
                let w = text_width(20.0, &letter);
                text(
                    &mut img,
                    cx as f32 - w / 2.0,
                    (STATUS + 8 * SQUARE + 23) as f32,
                    20.0,
                    &letter,
                    LABEL,
                );
                let cy = STATUS + u32::from(i) * SQUARE + SQUARE / 2;
                let w = text_width(20.0, &digit);
                text(
                    &mut img,
                    (MARGIN as f32 - w) / 2.0,
                    cy as f32 + 7.0,
                    20.0,
                    &digit,
                    LABEL,
                );
            }
            img
        })
    });
    &boards[usize::from(bottom == Color::Black)]
}

/// Draws a `color` `role` filling the box `r`, less `margin` on each side.
fn draw_in_box(img: &mut RgbImage, r: enprise::Rect, margin: u32, role: Role, color: Color) {
    let side = r.w.min(r.h) - 2 * margin;
    draw_piece(img, role, r.x + margin, r.y + margin, side, ink(color));
}

/// A gold coin in the square's lower right corner; `ring` adds a dark ring.
fn coin(img: &mut RgbImage, x0: u32, y0: u32, ring: bool) {
    let (cx, cy, r) = (x0 + SQUARE - 16, y0 + SQUARE - 16, 11);
    disc(img, cx, cy, r, COIN, BLACK_PIECE);
    if ring {
        disc(img, cx, cy, 5, BLACK_PIECE, BLACK_PIECE);
    }
}

/// A filled disc with a 2 px border, anti-aliased at the edge.
fn disc(img: &mut RgbImage, cx: u32, cy: u32, r: u32, color: [u8; 3], border: [u8; 3]) {
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

/// A king's badge: its number of free neighbours on a disc of radius `r` with a white rim, in
/// the top-right corner of the king's square, `inset` pixels in from its edges. The number is
/// drawn large, to read at preview size.
pub(super) struct Badge {
    pub r: u32,
    pub inset: u32,
}

impl Badge {
    /// The badge's centre on the square `cell`.
    pub fn centre(&self, cell: enprise::Rect) -> (u32, u32) {
        let at = self.r + self.inset;
        (cell.x + cell.w - at, cell.y + at)
    }

    /// Draws the number `n` in `ink` on a disc of `face` on the square `cell`.
    pub fn draw(
        &self,
        img: &mut RgbImage,
        cell: enprise::Rect,
        face: [u8; 3],
        ink: [u8; 3],
        n: usize,
    ) {
        let (cx, cy) = self.centre(cell);
        disc(img, cx, cy, self.r, face, WHITE_PIECE);
        let size = self.r as f32 * 1.4;
        enprise::centred(
            img,
            cx as f32,
            cy as f32 + size * 0.36,
            size,
            &n.to_string(),
            ink,
        );
    }
}

/// Encodes as PNG with a palette, favouring speed (see `indexed.rs`).
pub fn encode_png(img: &RgbImage) -> Vec<u8> {
    indexed::encode(img)
}

/// The picture of any game's view, as PNG bytes.
pub fn render(view: &AnyView) -> Vec<u8> {
    encode_png(&draw(view))
}

/// A match's spectator views, from its start, as an animated GIF (see `replay.rs`).
pub fn render_replay(views: &[AnyView]) -> Vec<u8> {
    replay::animate(views, draw)
}

/// [`render`] with the match's players (and clocks) in a band under the board.
pub fn render_with_clocks(view: &AnyView, clocks: &[ClockFace]) -> Vec<u8> {
    encode_png(&clocks::with_clocks(draw(view), clocks, |seat| {
        seat_colours(view, seat)
    }))
}

/// The colours (fill, outline) of a seat's pieces.
fn seat_colours(view: &AnyView, seat: crate::engine::Seat) -> ([u8; 3], [u8; 3]) {
    match view {
        AnyView::Enprise(_) => enprise::army(seat),
        _ if seat.0 == 0 => (WHITE_PIECE, BLACK_PIECE),
        _ => (BLACK_PIECE, LABEL),
    }
}

fn draw(view: &AnyView) -> RgbImage {
    match view {
        AnyView::Chess(board) => draw_board(board, &[]),
        AnyView::Enthralling(v) => {
            let rings: Vec<Square> = v.latest_enthralled.iter().flatten().copied().collect();
            let extra: Vec<Square> = match v.last_extra {
                Some(Extra::Enthrall { to, .. }) => vec![to],
                Some(Extra::Liberate { at }) => vec![at],
                None => vec![],
            };
            draw_board_marked(&v.board, &rings, &extra)
        }
        AnyView::Enprise(v) => enprise::draw(v),
        AnyView::Echek(v) => echek::draw(v),
        AnyView::Snipe(v) => snipe::draw(v),
        AnyView::Chessatete(v) => chessatete::draw(v),
    }
}

/// What a player's private reply shows: the part of their own view only they may see, as a
/// picture sized to read at Discord's preview size (a Chess-à-Tête hand); for other games,
/// their whole view ([`render`]).
pub fn private_picture(view: &AnyView) -> Vec<u8> {
    match view {
        AnyView::Chessatete(v) => match chessatete::draw_own_hand(v) {
            Some(img) => encode_png(&img),
            None => render(view),
        },
        _ => render(view),
    }
}

mod chessatete;
mod clocks;
mod echek;
mod enprise;
mod indexed;
mod pieces;
pub mod replay;
mod snipe;
pub mod standings;

#[cfg(test)]
mod tests;
