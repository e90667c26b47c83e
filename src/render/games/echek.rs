//! The Echek n°1 picture: pieces floating in a 4x4 window, with no fixed board.
//!
//! The squares drawn are the area: every square some 4x4 window holding all the pieces could
//! still cover; beyond it lies the limit (plain background). Within the area, the box around the
//! pieces is a bright chequered board; the rest, where the window could still shift, is a muted
//! grey chequer. Numbers around the area give each column's x and each row's y (y grows
//! upwards, as players type squares `x,y`). Each king carries a badge with its free neighbours,
//! red when two or fewer remain; once the game is won, the winner's king is green and the
//! loser's red, whoever closed it in. Above: the status (the result at the end) and the last
//! action. Below: one row per player with their colour, state (won or lost at the end) and
//! supply; the winner's row has a green band.

use crate::board::Sq;
use crate::engine::Viewer;
use crate::games::chess::Color;
use crate::games::echek::{EchekView, KingView};
use crate::render::draw::badge;
use crate::render::draw::palette::{DARK, FRAME, LABEL, LAST_MOVE, LIGHT, WHITE_PIECE};
use crate::render::draw::{
    Badge, Rect, SQUARE, border, centred, disc, draw_in_box, fill, fit, header, header_height, ink,
    marker, text, text_width, wash,
};
use image::{Rgb, RgbImage};

/// Beyond the area: the limit.
pub const BACKGROUND: [u8; 3] = FRAME;
/// The squares around the pieces now: the chess board's light and dark squares.
pub const IN_PLAY: [[u8; 3]; 2] = [DARK, LIGHT];
/// The squares the window could still shift over: a muted grey chequer.
pub const SHIFT: [[u8; 3]; 2] = [[104, 101, 95], [128, 124, 116]];
/// The line around the pieces' box.
const EDGE: [u8; 3] = [236, 196, 70];
/// Secondary text.
const DIM: [u8; 3] = [160, 154, 144];
/// The band behind the player to play.
const ACTING: [u8; 3] = [70, 66, 60];
/// Once the game is won: the winner's king (frame, wash and badge) and the rim of the dot
/// beside the result; the band behind the winner's row.
pub use crate::render::draw::badge::WIN;
pub const WIN_BAND: [u8; 3] = [52, 84, 62];

/// Side of one square: the chess sprites' box, so pieces are drawn at full size.
pub const CELL: u32 = SQUARE;
/// A king's badge: its radius, and the centre of a cell's badge (its top-right corner).
pub const BADGE: Badge = Badge { r: 15, inset: 2 };
/// Font size of the coordinates, and the band they take above and below the area.
const LABEL_SIZE: f32 = 18.0;
const BAND: u32 = 28;
/// Lines of the last action the header always has room for: a long action takes two, and the
/// board keeps its place from one picture to the next (and through a replay).
const LAST_LINES: usize = 2;
/// Width of the band of row numbers left and right of the area.
const SIDE: u32 = 44;
/// Room for the caption under the area.
const CAPTION: u32 = 30;
/// The narrowest picture, and the player panel: its width, one row's height, inner padding.
const MIN_WIDTH: u32 = 720;
const PANEL_W: u32 = 688;
const ROW: u32 = 56;
const PAD: u32 = 16;
/// The supply: where its tiles start within a row, a tile's side and the gap between tiles.
const SUPPLY_X: u32 = 420;
const TILE: u32 = 44;
const TILE_GAP: u32 = 5;
/// Room between a supply tile's edge and its piece.
const TILE_MARGIN: u32 = 2;

/// Where everything goes: the area's cells, the caption and the rows of the player panel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The x of the leftmost column and the y of the top row.
    pub left: i16,
    pub top: i16,
    pub cols: u32,
    pub rows: u32,
    /// The top-left corner of the top-left cell.
    pub origin: (u32, u32),
    pub panel_top: u32,
    pub width: u32,
    pub height: u32,
}

impl Layout {
    pub fn new(view: &EchekView) -> Layout {
        let (lo, hi) = view.area;
        let cols = (hi.x - lo.x + 1).max(1) as u32;
        let rows = (hi.y - lo.y + 1).max(1) as u32;
        let board_w = cols * CELL;
        let width = (board_w + 2 * SIDE).max(MIN_WIDTH);
        let last = view.last.as_ref().map(|l| l.text.as_str());
        let origin = (
            (width - board_w) / 2,
            header_height(width, 1.0, &view.status, last, LAST_LINES) + BAND,
        );
        let panel_top = origin.1 + rows * CELL + BAND + CAPTION;
        Layout {
            left: lo.x,
            top: hi.y,
            cols,
            rows,
            origin,
            panel_top,
            width,
            height: panel_top + 2 * ROW + PAD / 2,
        }
    }

    /// The cell of `sq`, or None outside the area.
    pub fn cell(&self, sq: Sq) -> Option<Rect> {
        let col = i32::from(sq.x) - i32::from(self.left);
        let row = i32::from(self.top) - i32::from(sq.y);
        if col < 0 || row < 0 || col as u32 >= self.cols || row as u32 >= self.rows {
            return None;
        }
        Some(Rect {
            x: self.origin.0 + col as u32 * CELL,
            y: self.origin.1 + row as u32 * CELL,
            w: CELL,
            h: CELL,
        })
    }

    /// The row of `color` in the panel (White's first).
    pub fn player_row(&self, color: Color) -> Rect {
        Rect {
            x: (self.width - PANEL_W) / 2,
            y: self.panel_top + color.index() as u32 * ROW,
            w: PANEL_W,
            h: ROW,
        }
    }

    /// The `index`-th tile of `color`'s supply.
    pub fn supply_tile(&self, color: Color, index: usize) -> Rect {
        let row = self.player_row(color);
        Rect {
            x: row.x + SUPPLY_X + index as u32 * (TILE + TILE_GAP),
            y: row.y + (ROW - TILE) / 2,
            w: TILE,
            h: TILE,
        }
    }
}

fn inside(area: (Sq, Sq), sq: Sq) -> bool {
    (area.0.x..=area.1.x).contains(&sq.x) && (area.0.y..=area.1.y).contains(&sq.y)
}

/// The colour a square is painted before any mark: bright within the pieces' box, muted in
/// the rest of the area; None beyond the limit.
pub fn base_colour(view: &EchekView, sq: Sq) -> Option<[u8; 3]> {
    let parity = usize::from((i32::from(sq.x) + i32::from(sq.y)).rem_euclid(2) == 1);
    if inside(view.bounds, sq) {
        Some(IN_PLAY[parity])
    } else if inside(view.area, sq) {
        Some(SHIFT[parity])
    } else {
        None
    }
}

/// Draws the picture of an Echek view.
pub fn draw(view: &EchekView) -> RgbImage {
    let layout = Layout::new(view);
    let mut img = RgbImage::from_pixel(layout.width, layout.height, Rgb(BACKGROUND));
    draw_header(&mut img, view, layout.width);
    draw_area(&mut img, &layout, view);
    draw_coordinates(&mut img, &layout);
    draw_caption(&mut img, &layout, view);
    for color in [Color::White, Color::Black] {
        draw_player(&mut img, &layout, view, color);
    }
    img
}

/// The winner of a finished game, if it was won.
pub fn winner(view: &EchekView) -> Option<Color> {
    badge::winner(view.outcome.as_ref())
}

/// How a king is marked: the colour of its frame, wash and badge, and the wash's strength.
/// Once the game is won, the winner's king is green and the loser's red; otherwise a king with
/// two free squares or fewer is red, deeper with none.
pub fn king_mark(view: &EchekView, king: &KingView) -> Option<([u8; 3], u8)> {
    badge::king_mark(winner(view), king.color, king.free, 2, 190)
}

/// The status line and the last action. Before the status, a dot of the colour to play, or
/// once the game is won, of the winner's colour with a green rim.
fn draw_header(img: &mut RgbImage, view: &EchekView, width: u32) {
    let dot = match (&view.outcome, winner(view)) {
        (None, _) => Some((ink(view.to_move).fill, LABEL)),
        (Some(_), Some(w)) => Some((ink(w).fill, WIN)),
        (Some(_), None) => None,
    };
    let last = view.last.as_ref().map(|l| l.text.as_str());
    header(img, width, 1.0, dot, &view.status, last, DIM);
}

/// The squares of the area, the pieces' box, the marks of the last action and of kings short
/// of room, the pieces and the kings' badges.
fn draw_area(img: &mut RgbImage, layout: &Layout, view: &EchekView) {
    let (lo, hi) = view.area;
    for y in lo.y..=hi.y {
        for x in lo.x..=hi.x {
            let sq = Sq::new(x, y);
            if let (Some(r), Some(c)) = (layout.cell(sq), base_colour(view, sq)) {
                fill(img, r.x, r.y, r.w, r.h, c);
            }
        }
    }
    // A line around the pieces' box, just outside it where the area allows.
    if let (Some(a), Some(b)) = (
        layout.cell(Sq::new(view.bounds.0.x, view.bounds.1.y)),
        layout.cell(Sq::new(view.bounds.1.x, view.bounds.0.y)),
    ) {
        let boxed = Rect {
            x: a.x - 2,
            y: a.y - 2,
            w: b.x + b.w - a.x + 4,
            h: b.y + b.h - a.y + 4,
        };
        border(img, boxed, 2, EDGE);
    }
    if let Some(last) = &view.last {
        for &sq in &last.squares {
            if let Some(r) = layout.cell(sq) {
                wash(img, r, LAST_MOVE, 150);
            }
        }
    }
    for king in &view.kings {
        if let (Some(r), Some((color, alpha))) = (layout.cell(king.at), king_mark(view, king)) {
            wash(img, r, color, alpha);
            border(img, r, 5, color);
        }
    }
    for &(sq, piece) in &view.pieces {
        if let Some(r) = layout.cell(sq) {
            draw_in_box(img, r, 0, piece.role, piece.color);
        }
    }
    for king in &view.kings {
        let Some(r) = layout.cell(king.at) else {
            continue;
        };
        let (face, ink) = match king_mark(view, king) {
            Some((color, _)) => (color, WHITE_PIECE),
            None => (FRAME, LABEL),
        };
        BADGE.draw(img, r, face, ink, king.free);
    }
}

/// Each column's x above and below the area, each row's y left and right of it.
fn draw_coordinates(img: &mut RgbImage, layout: &Layout) {
    let size = LABEL_SIZE;
    let (x0, y0) = layout.origin;
    let (w, h) = (layout.cols * CELL, layout.rows * CELL);
    for col in 0..layout.cols {
        let label = (i32::from(layout.left) + col as i32).to_string();
        let cx = (x0 + col * CELL + CELL / 2) as f32;
        centred(img, cx, y0 as f32 - 8.0, size, &label, LABEL);
        centred(img, cx, (y0 + h) as f32 + size + 4.0, size, &label, LABEL);
    }
    for row in 0..layout.rows {
        let label = (i32::from(layout.top) - row as i32).to_string();
        let base = (y0 + row * CELL + CELL / 2) as f32 + size * 0.36;
        let lw = text_width(size, &label);
        text(img, x0 as f32 - 10.0 - lw, base, size, &label, LABEL);
        text(img, (x0 + w) as f32 + 10.0, base, size, &label, LABEL);
    }
}

/// What the shades mean.
fn draw_caption(img: &mut RgbImage, layout: &Layout, view: &EchekView) {
    let caption = if view.area == view.bounds {
        "The pieces fill the 4x4 window: it cannot shift. Beyond it lies the limit."
    } else {
        "The 4x4 window can shift over the grey squares; beyond them lies the limit."
    };
    let y = layout.origin.1 + layout.rows * CELL + BAND + 18;
    let caption = fit(caption, 15.0, (layout.width - 2 * PAD) as f32);
    centred(
        img,
        layout.width as f32 / 2.0,
        y as f32,
        15.0,
        &caption,
        DIM,
    );
}

/// What to say under a player's name: to play (or, at the end, won, lost or draw), the
/// king's room, the rook swap.
pub fn player_state(view: &EchekView, color: Color) -> String {
    let mut words = Vec::new();
    match (&view.outcome, winner(view)) {
        (None, _) if view.to_move == color => words.push("to play".to_string()),
        (None, _) => {}
        (Some(_), Some(w)) => words.push(if w == color { "won" } else { "lost" }.to_string()),
        (Some(_), None) => words.push("draw".to_string()),
    }
    if let Some(king) = view.kings.iter().find(|k| k.color == color) {
        words.push(match king.free {
            0 => "king surrounded".to_string(),
            1 => "king: 1 free square".to_string(),
            n => format!("king: {n} free squares"),
        });
    }
    words.push(
        if view.swap_used[color.index()] {
            "rook swap used"
        } else {
            "rook swap available"
        }
        .to_string(),
    );
    words.join(" · ")
}

/// One player's row: turn marker, colour, name, state and supply.
fn draw_player(img: &mut RgbImage, layout: &Layout, view: &EchekView, color: Color) {
    let row = layout.player_row(color);
    let playing = view.outcome.is_none() && view.to_move == color;
    let won = winner(view) == Some(color);
    if playing {
        wash(img, row.inset(3), ACTING, 255);
    } else if won {
        wash(img, row.inset(3), WIN_BAND, 255);
    }
    // On a coloured band the dim words would fade into it: they take the label's colour.
    let dim = if playing || won { LABEL } else { DIM };
    let cy = row.y + row.h / 2;
    if playing {
        marker(img, row.x + PAD - 6, cy, 1.0);
    }
    let body = ink(color).fill;
    disc(img, row.x + PAD + 20, cy, 9, body, LABEL);
    let mut name = color.name().to_string();
    if view.viewer == Viewer::Seat(crate::games::chess::seat_of(color)) {
        name.push_str(" (you)");
    }
    let name_x = row.x + PAD + 36;
    let room = (SUPPLY_X - 70 - PAD - 36) as f32;
    let name = fit(&name, 18.0, room);
    text(img, name_x as f32, (row.y + 24) as f32, 18.0, &name, LABEL);
    let state = fit(&player_state(view, color), 13.0, room);
    text(img, name_x as f32, (row.y + 44) as f32, 13.0, &state, dim);
    let label_x = (row.x + SUPPLY_X - 60) as f32;
    text(img, label_x, (cy + 5) as f32, 14.0, "supply", dim);
    let supply = &view.supply[color.index()];
    if supply.is_empty() {
        let x = (row.x + SUPPLY_X) as f32;
        text(img, x, (cy + 5) as f32, 14.0, "empty", dim);
    }
    for (i, &role) in supply.iter().enumerate() {
        let r = layout.supply_tile(color, i);
        fill(img, r.x, r.y, r.w, r.h, DARK);
        draw_in_box(img, r, TILE_MARGIN, role, color);
    }
}

impl super::Picture for EchekView {
    fn draw(&self) -> RgbImage {
        draw(self)
    }
}
