//! The Snipe Chess picture: the forest of 25 cards, each 2x2 spaces, seen from White's side
//! (rank 1 at the bottom, file a on the left).
//!
//! Each card is a tile with a thick dark frame; a thin line parts its four spaces and a dark
//! gap parts the cards. Open spaces are a light sandy path, trees a dark pine on grass, rotation
//! spaces a tinted space with a circular arrow and their angle (blue 90, plum 180). Flags and
//! feathers are small marks on open spaces; the feather is drawn large and bright when the
//! feather rule is on. Each king carries a badge with its free neighbours, the king and badge
//! red when one or none is left; once the game is won, the winner's king is green and the
//! loser's red, whoever closed it in, and the dot beside the result has the winner's colour.
//! The last turn's squares are washed and framed in olive, its cards framed in gold; during the
//! setup the home row of the player to act is framed and tinted. Files a-j run above and below,
//! ranks 1-10 left and right. Above: the status and the last turn. Below, during the setup: the
//! pieces each side still has to place; with the feather rule: the unused cards.

use crate::board::Sq;
use crate::engine::Viewer;
use crate::games::chess::{Color, seat_of};
use crate::games::snipe::deck::Space;
use crate::games::snipe::{CARDS, CardAt, KingView, Phase, SIZE, SnipeView};
use crate::render::draw::badge;
use crate::render::draw::palette::{FRAME, LABEL, LAST_MOVE, WHITE_PIECE};
use crate::render::draw::{
    Badge, Memo, Rect, blend, border, centred, disc, draw_in_box, fill, fit, header, header_height,
    ink, marker, remembered, text, text_width, wash,
};
use image::{Rgb, RgbImage};
use std::sync::OnceLock;

/// Around and between the cards.
pub const BACKGROUND: [u8; 3] = FRAME;
/// An open space (flags and feathers too): a sandy path.
pub const OPEN: [u8; 3] = [232, 223, 186];
/// The grass under a tree, and the tree.
pub const GRASS: [u8; 3] = [146, 182, 104];
pub const TREE: [u8; 3] = [26, 84, 42];
const TRUNK: [u8; 3] = [104, 70, 38];
/// Rotation spaces: their ground and the ink of their arrow and angle.
pub const TURN_90: [u8; 3] = [200, 219, 240];
pub const TURN_90_INK: [u8; 3] = [36, 90, 176];
pub const TURN_180: [u8; 3] = [238, 208, 228];
pub const TURN_180_INK: [u8; 3] = [156, 42, 116];
/// A shortcut flag: its cloth and pole.
pub const FLAG: [u8; 3] = [228, 112, 26];
const POLE: [u8; 3] = [78, 58, 40];
/// A snipe feather: bright when the feather rule is on, faint when it plays as open.
pub const FEATHER: [u8; 3] = [20, 128, 140];
pub const FEATHER_FAINT: [u8; 3] = [188, 172, 138];
/// A card's frame, and the thin line between the spaces of one card.
pub const CARD_EDGE: [u8; 3] = [86, 62, 40];
pub const SPACE_LINE: [u8; 3] = [172, 160, 124];
/// The frame inside the squares moved between in the last turn (which are also washed with
/// the chess board's last-move colour), and its width.
pub const LAST_FRAME: [u8; 3] = [178, 160, 40];
pub const LAST_FRAME_W: u32 = 3;
/// The frame around the cards turned or replaced in the last turn.
pub const LAST_CARD: [u8; 3] = [236, 196, 70];
/// The frame and tint of the home row where the player to act places a piece.
pub const HOME: [u8; 3] = [236, 196, 70];
/// Secondary text.
const DIM: [u8; 3] = [160, 154, 144];
/// The band behind the side to act in the setup panel.
const ACTING: [u8; 3] = [70, 66, 60];
/// Once the game is won: the winner's king (frame, wash and badge) and the rim of the dot
/// beside the result.
pub use crate::render::draw::badge::WIN;

/// Side of one space, the line between two spaces of a card, a card's frame and the gap
/// between cards.
pub const SPACE: u32 = 60;
pub const LINE: u32 = 2;
pub const BORDER: u32 = 4;
pub const GAP: u32 = 8;
/// Side of one card, frame included: 130.
pub const CARD: u32 = 2 * BORDER + 2 * SPACE + LINE;
/// From one card to the next.
const PITCH: u32 = CARD + GAP;
/// The bands of file letters above and below the forest, and of rank numbers beside it.
const BAND: u32 = 26;
/// Lines of the last action the header always has room for: a long action takes two, and the
/// board keeps its place from one picture to the next (and through a replay).
const LAST_LINES: usize = 2;
const SIDE: u32 = 36;
const LABEL_SIZE: f32 = 17.0;
/// Inner padding of the picture's panels.
const PAD: u32 = 16;
/// The setup panel: its height, and the tiles of the pieces still to place.
const SETUP_ROW: u32 = 50;
const TILE: u32 = 34;
const TILE_GAP: u32 = 5;
const TILE_MARGIN: u32 = 1;
/// Where the tiles start within a side's half of the setup panel.
const TILES_X: u32 = 146;
/// The unused cards: font size, line height and lines at most.
const STOCK_SIZE: f32 = 15.0;
const STOCK_LINE: u32 = 21;
const STOCK_LINES: usize = 2;
/// Room between a space's edge and its piece.
const PIECE_MARGIN: u32 = 2;
/// A king's badge: its radius, and the centre of a space's badge (its top-right corner).
pub const BADGE: Badge = Badge { r: 14, inset: 1 };

/// Where everything goes: the forest's cards and spaces, and the panels under it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The forest, with half a gap around its outer cards.
    pub board: Rect,
    /// The setup panel (while pieces are being placed).
    pub setup: Option<Rect>,
    /// The list of unused cards (with the feather rule).
    pub stock: Option<Rect>,
    pub width: u32,
    pub height: u32,
}

impl Layout {
    pub fn new(view: &SnipeView) -> Layout {
        let side = PITCH * CARDS as u32;
        let width = side + 2 * SIDE;
        let last = view.last.as_ref().map(|l| l.text.as_str());
        let board = Rect {
            x: SIDE,
            y: header_height(width, 1.0, &view.status, last, LAST_LINES) + BAND,
            w: side,
            h: side,
        };
        let mut y = board.y + board.h + BAND;
        let panel = |y: u32, h: u32| Rect {
            x: PAD,
            y,
            w: width - 2 * PAD,
            h,
        };
        let setup = (view.phase == Phase::Setup).then(|| panel(y, SETUP_ROW));
        if let Some(r) = setup {
            y = r.y + r.h + 6;
        }
        let stock = view
            .options
            .feather
            .then(|| panel(y, STOCK_LINE * STOCK_LINES as u32 + 4));
        if let Some(r) = stock {
            y = r.y + r.h;
        }
        Layout {
            board,
            setup,
            stock,
            width,
            height: y + PAD / 2,
        }
    }

    /// The card at `at`, frame included.
    pub fn card(&self, at: CardAt) -> Rect {
        let row = (CARDS - 1 - at.cy) as u32;
        Rect {
            x: self.board.x + GAP / 2 + at.cx as u32 * PITCH,
            y: self.board.y + GAP / 2 + row * PITCH,
            w: CARD,
            h: CARD,
        }
    }

    /// The space `sq`, on the board (inside its card's frame, clear of the line between
    /// spaces).
    pub fn square(&self, sq: Sq) -> Rect {
        let at = CardAt::of(sq);
        let card = self.card(at);
        let col = (sq.x - 2 * at.cx) as u32;
        let row = 1 - (sq.y - 2 * at.cy) as u32;
        Rect {
            x: card.x + BORDER + col * (SPACE + LINE),
            y: card.y + BORDER + row * (SPACE + LINE),
            w: SPACE,
            h: SPACE,
        }
    }

    /// The `index`-th tile of the pieces `color` still has to place, in the setup panel.
    pub fn place_tile(&self, color: Color, index: usize) -> Option<Rect> {
        let half = self.setup_half(color)?;
        Some(Rect {
            x: half.x + TILES_X + index as u32 * (TILE + TILE_GAP),
            y: half.y + (half.h - TILE) / 2,
            w: TILE,
            h: TILE,
        })
    }

    /// `color`'s half of the setup panel (White's on the left).
    fn setup_half(&self, color: Color) -> Option<Rect> {
        let panel = self.setup?;
        let w = panel.w / 2;
        Some(Rect {
            x: panel.x + color.index() as u32 * w,
            w,
            ..panel
        })
    }
}

/// The ground a space is painted before any mark.
pub fn ground(space: Space) -> [u8; 3] {
    match space {
        Space::Tree => GRASS,
        Space::Rotate90 => TURN_90,
        Space::Rotate180 => TURN_180,
        Space::Open | Space::Flag | Space::Feather => OPEN,
    }
}

/// The card row where `color` places its pieces.
fn home_row(color: Color) -> i16 {
    match color {
        Color::White => 0,
        Color::Black => CARDS - 1,
    }
}

/// Blends `color` over the pixels of `r` whose area lies inside the shape, sampled 4x4 per
/// pixel so edges are smooth. `inside` takes image coordinates.
fn shape(
    img: &mut RgbImage,
    r: Rect,
    color: [u8; 3],
    key: (&'static str, u16),
    inside: impl Fn(f32, f32) -> bool,
) {
    // A shape's coverage depends on its kind and size only (every caller places it relative
    // to `r`'s corner), so it is worked out once per kind and size, and kept.
    static MASKS: Memo<(&'static str, u16, u32, u32), Vec<u8>> = OnceLock::new();
    let mask = remembered(&MASKS, (key.0, key.1, r.w, r.h), || {
        let mut mask = Vec::with_capacity((r.w * r.h) as usize);
        for y in r.y..r.y + r.h {
            for x in r.x..r.x + r.w {
                let mut hits = 0u32;
                for j in 0..4 {
                    for i in 0..4 {
                        let (px, py) = (
                            x as f32 + (i as f32 + 0.5) / 4.0,
                            y as f32 + (j as f32 + 0.5) / 4.0,
                        );
                        hits += u32::from(inside(px, py));
                    }
                }
                mask.push((hits * 255 / 16) as u8);
            }
        }
        mask
    });
    for (dy, row) in mask.chunks_exact(r.w as usize).enumerate() {
        let y = r.y + dy as u32;
        if y >= img.height() {
            break;
        }
        for (dx, &a) in row.iter().enumerate() {
            let x = r.x + dx as u32;
            if a > 0 && x < img.width() {
                blend(img.get_pixel_mut(x, y), color, a);
            }
        }
    }
}

/// Is (px, py) in the triangle a, b, c (either winding)?
fn in_triangle(p: (f32, f32), a: (f32, f32), b: (f32, f32), c: (f32, f32)) -> bool {
    let side = |u: (f32, f32), v: (f32, f32)| (v.0 - u.0) * (p.1 - u.1) - (v.1 - u.1) * (p.0 - u.0);
    let (d1, d2, d3) = (side(a, b), side(b, c), side(c, a));
    let neg = d1 < 0.0 || d2 < 0.0 || d3 < 0.0;
    let pos = d1 > 0.0 || d2 > 0.0 || d3 > 0.0;
    !(neg && pos)
}

/// Distance from p to the segment a-b.
fn to_segment(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}

/// A pine in three tiers on a trunk, filling the space `r`.
fn tree(img: &mut RgbImage, r: Rect) {
    let (x0, y0, w, h) = (r.x as f32, r.y as f32, r.w as f32, r.h as f32);
    let cx = x0 + w / 2.0;
    shape(img, r, TRUNK, ("trunk", 0), |x, y| {
        (x - cx).abs() <= 0.06 * w && (y0 + 0.7 * h..=y0 + 0.92 * h).contains(&y)
    });
    let tiers = [(0.08, 0.40, 0.22), (0.24, 0.60, 0.31), (0.40, 0.80, 0.40)];
    shape(img, r, TREE, ("tree", 0), |x, y| {
        tiers.iter().any(|&(top, base, half)| {
            let (t, b) = (y0 + top * h, y0 + base * h);
            (t..=b).contains(&y) && (x - cx).abs() <= half * w * (y - t) / (b - t)
        })
    });
}

/// A circular arrow (one arc for 90 degrees, two for 180) around the angle, in the space `r`.
fn turn_mark(img: &mut RgbImage, r: Rect, angle: u16) {
    let ink = if angle == 180 {
        TURN_180_INK
    } else {
        TURN_90_INK
    };
    let (cx, cy) = (r.x as f32 + r.w as f32 / 2.0, r.y as f32 + r.h as f32 / 2.0);
    let radius = r.w as f32 * 0.36;
    let thick = (r.w as f32 * 0.07).max(2.0);
    // Arcs in degrees, growing clockwise on screen; each ends in an arrowhead.
    let arcs: &[(f32, f32)] = if angle == 180 {
        &[(200.0, 330.0), (20.0, 150.0)]
    } else {
        &[(250.0, 520.0)]
    };
    let head = thick * 1.8;
    let heads: Vec<[(f32, f32); 3]> = arcs
        .iter()
        .map(|&(_, end)| {
            let at = |deg: f32, rad: f32| {
                let a = deg.to_radians();
                (cx + rad * a.cos(), cy + rad * a.sin())
            };
            let tip = end + (head * 1.3 / radius).to_degrees();
            [
                at(tip, radius),
                at(end, radius - head),
                at(end, radius + head),
            ]
        })
        .collect();
    shape(img, r, ink, ("turn", angle), |x, y| {
        let (dx, dy) = (x - cx, y - cy);
        let d = (dx * dx + dy * dy).sqrt();
        let deg = dy.atan2(dx).to_degrees();
        let on_ring = (d - radius).abs() <= thick / 2.0
            && arcs
                .iter()
                .any(|&(start, end)| (deg - start).rem_euclid(360.0) <= end - start);
        on_ring || heads.iter().any(|&[a, b, c]| in_triangle((x, y), a, b, c))
    });
    let size = if angle == 180 { 14.0 } else { 16.0 };
    centred(img, cx, cy + size * 0.36, size, &angle.to_string(), ink);
}

/// A pennant on a pole, in the box `r`.
fn flag(img: &mut RgbImage, r: Rect) {
    let (x0, y0, w, h) = (r.x as f32, r.y as f32, r.w as f32, r.h as f32);
    let pole = x0 + 0.3 * w;
    let thick = (w / 18.0).max(1.5);
    shape(img, r, POLE, ("flag pole", 0), |x, y| {
        let staff = (x - pole).abs() <= thick / 2.0 && (y0 + 0.12 * h..=y0 + 0.9 * h).contains(&y);
        let foot = (x - pole).abs() <= 0.14 * w && (y0 + 0.86 * h..=y0 + 0.9 * h).contains(&y);
        staff || foot
    });
    let top = (pole + thick / 2.0, y0 + 0.12 * h);
    let bottom = (pole + thick / 2.0, y0 + 0.52 * h);
    let tip = (x0 + 0.86 * w, y0 + 0.32 * h);
    shape(img, r, FLAG, ("flag", 0), |x, y| {
        in_triangle((x, y), top, bottom, tip)
    });
}

/// A quill: a slanted vane on its shaft, in the box `r`.
fn feather(img: &mut RgbImage, r: Rect, color: [u8; 3]) {
    let (x0, y0, w, h) = (r.x as f32, r.y as f32, r.w as f32, r.h as f32);
    let (cx, cy) = (x0 + 0.54 * w, y0 + 0.44 * h);
    let (a, b) = (0.36 * w, 0.14 * w);
    let s = std::f32::consts::FRAC_1_SQRT_2;
    shape(img, r, color, ("feather", 0), |x, y| {
        // Along the quill (up and to the right) and across it.
        let (dx, dy) = (x - cx, y - cy);
        let (u, v) = ((dx - dy) * s, (dx + dy) * s);
        (u / a).powi(2) + (v / b).powi(2) <= 1.0
    });
    let foot = (x0 + 0.16 * w, y0 + 0.84 * h);
    let head = (x0 + 0.8 * w, y0 + 0.18 * h);
    let thick = (w / 28.0).max(0.8);
    shape(img, r, POLE, ("quill", 0), |x, y| {
        to_segment((x, y), foot, head) <= thick
    });
}

/// Draws the picture of a Snipe Chess view.
pub fn draw(view: &SnipeView) -> RgbImage {
    let layout = Layout::new(view);
    let mut img = RgbImage::from_pixel(layout.width, layout.height, Rgb(BACKGROUND));
    draw_header(&mut img, view, layout.width);
    draw_forest(&mut img, &layout, view);
    draw_coordinates(&mut img, &layout);
    if layout.setup.is_some() {
        for color in [Color::White, Color::Black] {
            draw_to_place(&mut img, &layout, view, color);
        }
    }
    if let Some(r) = layout.stock {
        draw_stock(&mut img, r, &view.stock);
    }
    img
}

/// The winner of a finished game, if it was won.
pub fn winner(view: &SnipeView) -> Option<Color> {
    badge::winner(view.outcome.as_ref())
}

/// How a king is marked: the colour of its frame, wash and badge, and the wash's strength.
/// Once the game is won, the winner's king is green and the loser's red, whoever closed it in
/// (both kings are closed in when one turn traps both); otherwise a king with one free space or
/// none is red, deeper with none.
pub fn king_mark(view: &SnipeView, king: &KingView) -> Option<([u8; 3], u8)> {
    badge::king_mark(winner(view), king.color, king.free, 1, 200)
}

/// The status line and the last turn. Before the status, a dot of the colour to act, or once
/// the game is won, of the winner's colour with a green rim.
fn draw_header(img: &mut RgbImage, view: &SnipeView, width: u32) {
    let dot = match (&view.outcome, winner(view)) {
        (None, _) => Some((ink(view.to_move).fill, LABEL)),
        (Some(_), Some(w)) => Some((ink(w).fill, WIN)),
        (Some(_), None) => None,
    };
    let last = view.last.as_ref().map(|l| l.text.as_str());
    header(img, width, 1.0, dot, &view.status, last, DIM);
}

/// The home row being set up: the side to act while the pieces are placed.
fn setting_up(view: &SnipeView) -> Option<Color> {
    (view.phase == Phase::Setup && view.outcome.is_none()).then_some(view.to_move)
}

/// The cards, their spaces and marks, the pieces and the kings' badges.
fn draw_forest(img: &mut RgbImage, layout: &Layout, view: &SnipeView) {
    let home = setting_up(view).map(home_row);
    // Frames in the gaps: the home row being set up, the cards of the last turn.
    if let Some(row) = home {
        let first = layout.card(CardAt { cx: 0, cy: row });
        let band = Rect {
            w: PITCH * CARDS as u32 - GAP,
            ..first
        };
        border(img, band.outset(GAP / 2), GAP / 2, HOME);
    }
    if let Some(last) = &view.last {
        for &at in &last.cards {
            border(img, layout.card(at).outset(GAP / 2), GAP / 2, LAST_CARD);
        }
    }
    for card in &view.cards {
        let r = layout.card(card.at);
        fill(img, r.x, r.y, r.w, r.h, CARD_EDGE);
        let inner = r.inset(BORDER);
        fill(img, inner.x, inner.y, inner.w, inner.h, SPACE_LINE);
    }
    let last: &[Sq] = view.last.as_ref().map_or(&[], |l| &l.squares);
    let piece_at = |sq: Sq| view.pieces.iter().find(|(s, _)| *s == sq).map(|&(_, p)| p);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let sq = Sq::new(x, y);
            let space = view.spaces[y as usize][x as usize];
            let r = layout.square(sq);
            fill(img, r.x, r.y, r.w, r.h, ground(space));
            if home == Some(CardAt::of(sq).cy) && !space.is_tree() {
                wash(img, r, HOME, 70);
            }
            if last.contains(&sq) {
                wash(img, r, LAST_MOVE, 150);
                border(img, r, LAST_FRAME_W, LAST_FRAME);
            }
            let king = view.kings.iter().find(|k| k.at == sq);
            if let Some((color, alpha)) = king.and_then(|k| king_mark(view, k)) {
                wash(img, r, color, alpha);
                border(img, r, 4, color);
            }
            let empty = piece_at(sq).is_none();
            match space {
                Space::Open => {}
                Space::Tree => tree(img, r),
                Space::Rotate90 if empty => turn_mark(img, r, 90),
                Space::Rotate180 if empty => turn_mark(img, r, 180),
                Space::Flag if empty => flag(img, r.inset(10)),
                Space::Feather if empty && view.options.feather => {
                    feather(img, r.inset(6), FEATHER)
                }
                Space::Feather if empty => feather(img, r.inset(16), FEATHER_FAINT),
                _ => {}
            }
        }
    }
    for &(sq, piece) in &view.pieces {
        let r = layout.square(sq);
        draw_in_box(img, r, PIECE_MARGIN, piece.role, piece.color);
        // What the piece stands on, where it matters: a tag in the lower-left corner.
        match view.spaces[sq.y as usize][sq.x as usize] {
            Space::Rotate90 => tag(img, r, "90", TURN_90_INK),
            Space::Rotate180 => tag(img, r, "180", TURN_180_INK),
            Space::Feather if view.options.feather => {
                let spot = Rect {
                    x: r.x + 2,
                    y: r.y + r.h - 22,
                    w: 20,
                    h: 20,
                };
                fill(img, spot.x, spot.y, spot.w, spot.h, OPEN);
                border(img, spot, 1, FEATHER);
                feather(img, spot.inset(1), FEATHER);
            }
            _ => {}
        }
    }
    for king in &view.kings {
        let r = layout.square(king.at);
        let (face, ink) = match king_mark(view, king) {
            Some((color, _)) => (color, WHITE_PIECE),
            None => (FRAME, LABEL),
        };
        BADGE.draw(img, r, face, ink, king.free);
    }
}

/// A small tag with `label` in the top-left corner of the space `r`, beside the head of the
/// piece standing there (its base is wider).
fn tag(img: &mut RgbImage, r: Rect, label: &str, color: [u8; 3]) {
    let size = 13.0;
    let w = text_width(size, label).ceil() as u32 + 6;
    let (x, y) = (r.x + 1, r.y + 1);
    fill(img, x, y, w, 16, color);
    text(
        img,
        (x + 3) as f32,
        (y + 13) as f32,
        size,
        label,
        WHITE_PIECE,
    );
}

/// Files a-j above and below the forest, ranks 1-10 left and right of it.
fn draw_coordinates(img: &mut RgbImage, layout: &Layout) {
    let size = LABEL_SIZE;
    let b = layout.board;
    for i in 0..SIZE {
        let file = char::from(b'a' + i as u8).to_string();
        let (cx, _) = layout.square(Sq::new(i, 0)).centre();
        centred(img, cx as f32, b.y as f32 - 7.0, size, &file, LABEL);
        let below = (b.y + b.h) as f32 + size + 3.0;
        centred(img, cx as f32, below, size, &file, LABEL);
        let rank = (i + 1).to_string();
        let (_, cy) = layout.square(Sq::new(0, i)).centre();
        let base = cy as f32 + size * 0.36;
        let w = text_width(size, &rank);
        text(img, b.x as f32 - 6.0 - w, base, size, &rank, LABEL);
        text(img, (b.x + b.w) as f32 + 6.0, base, size, &rank, LABEL);
    }
}

/// One side's half of the setup panel: whose turn, and the pieces still to place.
fn draw_to_place(img: &mut RgbImage, layout: &Layout, view: &SnipeView, color: Color) {
    let Some(half) = layout.setup_half(color) else {
        return;
    };
    let cy = half.y + half.h / 2;
    if setting_up(view) == Some(color) {
        wash(img, half.inset(3), ACTING, 255);
        marker(img, half.x + 8, cy, 1.0);
    }
    let body = ink(color).fill;
    disc(img, half.x + 32, cy, 9, body, LABEL);
    // Who "you" are goes under the name: the name alone fits beside the tiles.
    let name = fit(color.name(), 16.0, (TILES_X - 56) as f32);
    text(
        img,
        (half.x + 48) as f32,
        (cy - 2) as f32,
        16.0,
        &name,
        LABEL,
    );
    let state = if view.viewer == Viewer::Seat(seat_of(color)) {
        "you · to place"
    } else {
        "to place"
    };
    text(
        img,
        (half.x + 48) as f32,
        (cy + 15) as f32,
        13.0,
        state,
        DIM,
    );
    let roles = &view.to_place[color.index()];
    if roles.is_empty() {
        let x = (half.x + TILES_X) as f32;
        text(img, x, (cy + 5) as f32, 14.0, "all placed", DIM);
    }
    for (i, &role) in roles.iter().enumerate() {
        let Some(r) = layout.place_tile(color, i) else {
            continue;
        };
        fill(img, r.x, r.y, r.w, r.h, OPEN);
        draw_in_box(img, r, TILE_MARGIN, role, color);
    }
}

/// The unused cards' names, wrapped over at most [`STOCK_LINES`] lines of `room` pixels; what
/// does not fit is counted ("+3 more").
pub fn stock_lines(stock: &[String], size: f32, room: f32) -> Vec<String> {
    if stock.is_empty() {
        return vec!["Unused cards: none".into()];
    }
    let mut lines = vec![format!("Unused cards ({}):", stock.len())];
    for (i, name) in stock.iter().enumerate() {
        let left = stock.len() - i - 1;
        // On the last line, leave room to count the names that would still follow.
        let reserve = |on_last_line: bool| {
            if on_last_line && left > 0 {
                text_width(size, &format!(", +{left} more"))
            } else {
                0.0
            }
        };
        let last_line = lines.len() == STOCK_LINES;
        let next_is_last = lines.len() + 1 == STOCK_LINES;
        let current = lines.last_mut().expect("a line");
        let joined = if current.ends_with(':') {
            format!("{current} {name}")
        } else {
            format!("{current}, {name}")
        };
        if text_width(size, &joined) + reserve(last_line) <= room {
            *current = joined;
        } else if !last_line {
            current.push(',');
            lines.push(fit(name, size, room - reserve(next_is_last)));
        } else {
            current.push_str(&format!(", +{} more", left + 1));
            break;
        }
    }
    lines
}

fn draw_stock(img: &mut RgbImage, r: Rect, stock: &[String]) {
    let room = (r.w - 2 * PAD) as f32;
    for (i, line) in stock_lines(stock, STOCK_SIZE, room).iter().enumerate() {
        let y = (r.y + 15 + i as u32 * STOCK_LINE) as f32;
        let mut x = (r.x + PAD) as f32;
        // The heading dim, the names bright.
        let names = match line.split_once(':') {
            Some((head, names)) if i == 0 => {
                x += text(img, x, y, STOCK_SIZE, &format!("{head}:"), DIM);
                names
            }
            _ => line.as_str(),
        };
        text(img, x, y, STOCK_SIZE, names, LABEL);
    }
}

impl super::Picture for SnipeView {
    fn draw(&self) -> RgbImage {
        draw(self)
    }
}
