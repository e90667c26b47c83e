//! The En Prise picture: an irregular, growing board of cards.
//!
//! Every square that exists is drawn as a card: face-up (light, with its piece) or face-down (a
//! card back: a vacant square). A faint dotted ring around the board shows where new cards may
//! go. Numbers around the board give each column's x and each row's y; y grows upwards, as
//! players type squares (`x,y`). Above the board: the status and the last action. Below it: one
//! row per player with their colour, state and battleplan (hidden cards as card backs).
//!
//! The pieces of a player put out by the last action are drawn as they stood just before their
//! cards turned over, so the picture shows why: at the end of the game as they were (the mated
//! king framed in red), during the game faded towards the card back they now are.

use crate::board::Sq;
use crate::engine::{Seat, Viewer};
use crate::games::chess::Role;
use crate::games::enprise::{EnPriseView, Fallen, Piece, PlayerView};
use crate::render::draw::palette::{
    BLACK_DETAIL, BLACK_PIECE, CHECK, LABEL, LAST_MOVE, WHITE_PIECE,
};
use crate::render::draw::{
    Ink, PAD, Rect, SQUARE, blend, border, centred, disc, fill, fit, header, header_height, marker,
    pieces, text, text_width, wash, zoom, zoomed,
};
use image::{Rgb, RgbImage};
use std::collections::HashSet;

/// The table: dark green felt.
pub const TABLE: [u8; 3] = [36, 64, 52];
/// A face-up card.
pub const FACE: [u8; 3] = [236, 224, 200];
/// A face-down card (a vacant square), and the lines of its pattern.
pub const BACK: [u8; 3] = [122, 48, 46];
const BACK_LINE: [u8; 3] = [164, 86, 78];
/// The dotted outline of a place where a card may go.
const FRONTIER: [u8; 3] = [150, 184, 164];
/// Secondary text and eliminated players.
pub const DIM: [u8; 3] = [150, 160, 150];
/// How strongly a piece just turned over is faded towards the card back during the game.
pub const FADE: u8 = 120;
/// The band behind the players who must act.
const ACTING: [u8; 3] = [52, 90, 74];

/// The frame around each player's next battleplan card.
pub const NEXT_CARD: [u8; 3] = [230, 190, 60];
/// The board aims to fit in this many pixels across and down.
const BOARD_W: u32 = 760;
const BOARD_H: u32 = 660;
/// The smallest cell: a board wider or taller than the aim makes the picture grow instead,
/// so pieces and coordinates stay readable.
const MIN_CELL: u32 = 40;
const MAX_CELL: u32 = SQUARE;
/// Room under a board with no card yet, for its caption.
const CAPTION: u32 = 26;
/// The player panel: its width and the height of one player's row (its inner padding is the
/// header's [`PAD`]).
const PANEL_W: u32 = 700;
const ROW: u32 = 50;
/// Battleplan cards: where the row starts within the panel, a card's size, and the gap.
const PLAN_X: u32 = 228;
const PLAN_W: u32 = 26;
const PLAN_H: u32 = 36;
const PLAN_GAP: u32 = 4;

/// An army's colours: the piece's fill and its lines.
pub fn army(seat: Seat) -> ([u8; 3], [u8; 3]) {
    match seat.index() % 4 {
        0 => (WHITE_PIECE, BLACK_PIECE),
        1 => (BLACK_PIECE, BLACK_DETAIL),
        2 => ([214, 36, 40], [96, 6, 10]),
        _ => ([40, 96, 220], [10, 26, 96]),
    }
}

/// The colours an army's pieces are drawn in: fill, outline, and the inner lines (light on
/// the black army, so its details show).
fn army_ink(seat: Seat) -> Ink {
    let (fill, edge) = army(seat);
    match seat.index() % 4 {
        1 => Ink {
            fill,
            edge: BLACK_PIECE,
            detail: BLACK_DETAIL,
        },
        _ => Ink {
            fill,
            edge,
            detail: edge,
        },
    }
}

/// Where everything goes: the cells of the shown squares (the board and one ring around it)
/// and the rows of the player panel.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Layout {
    /// Side of one cell, in pixels.
    pub cell: u32,
    /// The x of the leftmost column and the y of the top row.
    pub left: i16,
    pub top: i16,
    pub cols: u32,
    pub rows: u32,
    /// The top-left corner of the top-left cell.
    pub origin: (u32, u32),
    /// Width of the band of row numbers on each side of the board.
    pub side: u32,
    /// Font size of the coordinates.
    pub label: f32,
    pub panel_top: u32,
    pub width: u32,
    pub height: u32,
    /// How much the header, the coordinates and the player panel are scaled: above 1 on a
    /// board wide enough to widen the picture (see [`zoom`]).
    pub zoom: f32,
}

impl Layout {
    pub fn new(view: &EnPriseView) -> Layout {
        let (lo, hi) = shown_bounds(view);
        let cols = (hi.x - lo.x + 1) as u32;
        let rows = (hi.y - lo.y + 1) as u32;
        let cell = (BOARD_W / cols)
            .min(BOARD_H / rows)
            .clamp(MIN_CELL, MAX_CELL);
        let board_w = cols * cell;
        let widest = |label: f32| {
            (lo.y..=hi.y)
                .map(|y| text_width(label, &y.to_string()))
                .fold(0.0, f32::max)
        };
        // The zoom follows the width the board needs with labels at their base size; the
        // labels then grow with it, but never past half a cell.
        let base = (cell as f32 * 0.4).clamp(15.0, 20.0);
        let zoom = zoom(board_w + 2 * (widest(base).ceil() as u32 + 14));
        let label = (base * zoom).min(cell as f32 * 0.5);
        let band = zoomed(zoom, label as u32 + 12);
        let side = widest(label).ceil() as u32 + zoomed(zoom, 14);
        let width = (board_w + 2 * side).max(zoomed(zoom, PANEL_W));
        let last = view.last.as_ref().map(|l| l.text.as_str());
        let origin = (
            (width - board_w) / 2,
            header_height(width, zoom, &view.status, last, 1) + band,
        );
        let caption = if view.squares.is_empty() { CAPTION } else { 0 };
        let panel_top = origin.1 + rows * cell + band + caption + zoomed(zoom, 6);
        Layout {
            cell,
            left: lo.x,
            top: hi.y,
            cols,
            rows,
            origin,
            side,
            label,
            panel_top,
            width,
            height: panel_top + zoomed(zoom, view.players.len() as u32 * ROW + PAD / 2),
            zoom,
        }
    }

    /// `v` base pixels at this picture's zoom.
    fn z(&self, v: u32) -> u32 {
        zoomed(self.zoom, v)
    }

    /// The cell of `sq`, gap included, or None if `sq` is outside the shown area.
    pub fn cell(&self, sq: Sq) -> Option<Rect> {
        let col = i32::from(sq.x) - i32::from(self.left);
        let row = i32::from(self.top) - i32::from(sq.y);
        if col < 0 || row < 0 || col as u32 >= self.cols || row as u32 >= self.rows {
            return None;
        }
        Some(Rect {
            x: self.origin.0 + col as u32 * self.cell,
            y: self.origin.1 + row as u32 * self.cell,
            w: self.cell,
            h: self.cell,
        })
    }

    /// The card drawn on `sq`: its cell less the gap between cards.
    pub fn card(&self, sq: Sq) -> Option<Rect> {
        Some(self.cell(sq)?.inset(self.gap()))
    }

    fn gap(&self) -> u32 {
        (self.cell / 14).max(2)
    }

    fn board_size(&self) -> (u32, u32) {
        (self.cols * self.cell, self.rows * self.cell)
    }

    fn panel_left(&self) -> u32 {
        (self.width - self.z(PANEL_W)) / 2
    }

    /// The row of the `player`-th player in the panel.
    pub fn player_row(&self, player: usize) -> Rect {
        Rect {
            x: self.panel_left(),
            y: self.panel_top + self.z(player as u32 * ROW),
            w: self.z(PANEL_W),
            h: self.z(ROW),
        }
    }

    /// The `index`-th card of the `player`-th player's battleplan.
    pub fn plan_card(&self, player: usize, index: usize) -> Rect {
        let row = self.player_row(player);
        let (w, h) = (self.z(PLAN_W), self.z(PLAN_H));
        Rect {
            x: row.x + self.z(PLAN_X) + index as u32 * (w + self.z(PLAN_GAP)),
            y: row.y + (row.h - h) / 2,
            w,
            h,
        }
    }
}

/// The squares shown: the board's bounds, with one ring around them while a card may still
/// come (see [`frontier`]), or the origin alone on an empty table.
fn shown_bounds(view: &EnPriseView) -> (Sq, Sq) {
    let mut squares = view.squares.iter().map(|s| s.at);
    let Some(first) = squares.next() else {
        return (Sq::new(0, 0), Sq::new(0, 0));
    };
    let (lo, hi) = squares.fold((first, first), |(lo, hi), sq| {
        (
            Sq::new(lo.x.min(sq.x), lo.y.min(sq.y)),
            Sq::new(hi.x.max(sq.x), hi.y.max(sq.y)),
        )
    });
    let ring = i16::from(placing(view));
    (
        Sq::new(lo.x - ring, lo.y - ring),
        Sq::new(hi.x + ring, hi.y + ring),
    )
}

/// May a card still come onto the table: is the game on, with a player still in who holds
/// battleplan cards or their king?
fn placing(view: &EnPriseView) -> bool {
    view.outcome.is_none()
        && view
            .players
            .iter()
            .any(|p| p.out.is_none() && (p.king_in_hand || !p.plan.cards.is_empty()))
}

/// Squares where a new card may go: touching a card by a side or a corner; on an empty table,
/// the origin; none once no card can come any more.
pub fn frontier(view: &EnPriseView) -> Vec<Sq> {
    if view.squares.is_empty() {
        return vec![Sq::new(0, 0)];
    }
    if !placing(view) {
        return Vec::new();
    }
    let board: HashSet<Sq> = view.squares.iter().map(|s| s.at).collect();
    let mut out: Vec<Sq> = board
        .iter()
        .flat_map(|sq| {
            (-1..=1).flat_map(move |dx| (-1..=1).map(move |dy| Sq::new(sq.x + dx, sq.y + dy)))
        })
        .filter(|sq| !board.contains(sq))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Pieces drawn in their army's colours, filling a box of one size.
struct Glyphs {
    side: u32,
}

impl Glyphs {
    fn new(side: u32) -> Glyphs {
        Glyphs { side: side.max(1) }
    }

    /// Draws `piece` in its army's colours in the box at (`x`, `y`).
    fn draw(&self, img: &mut RgbImage, x: u32, y: u32, piece: Piece) {
        let ink = army_ink(piece.owner);
        pieces::draw_piece(img, piece.role, x, y, self.side, ink);
    }
}

/// Paints `r` with corners rounded by `radius`.
fn rounded(img: &mut RgbImage, r: Rect, radius: u32, color: [u8; 3]) {
    let rad = radius as i32;
    for y in r.y..(r.y + r.h).min(img.height()) {
        for x in r.x..(r.x + r.w).min(img.width()) {
            // Distance into the corner zone on each axis (0 outside it).
            let dx = (rad - (x - r.x) as i32).max(rad - (r.x + r.w - 1 - x) as i32);
            let dy = (rad - (y - r.y) as i32).max(rad - (r.y + r.h - 1 - y) as i32);
            if dx > 0 && dy > 0 && dx * dx + dy * dy > rad * rad {
                continue;
            }
            img.put_pixel(x, y, Rgb(color));
        }
    }
}

fn corner_radius(card: Rect) -> u32 {
    (card.w / 10).max(2)
}

/// A face-up card, blank.
fn card_face(img: &mut RgbImage, r: Rect) {
    rounded(img, r, corner_radius(r), FACE);
}

/// A face-down card: a dark back with an inner frame and a diagonal lattice.
fn card_back(img: &mut RgbImage, r: Rect) {
    rounded(img, r, corner_radius(r), BACK);
    let frame = r.inset((r.w / 9).max(2));
    border(img, frame, 1, BACK_LINE);
    let inner = frame.inset(2);
    let step = (r.w / 5).max(5);
    for y in inner.y..inner.y + inner.h {
        for x in inner.x..inner.x + inner.w {
            let (u, v) = (x - inner.x, y - inner.y);
            if (u + v).is_multiple_of(step) || (u + step * inner.h - v).is_multiple_of(step) {
                img.put_pixel(x, y, Rgb(BACK_LINE));
            }
        }
    }
}

/// A faint dashed outline: where a card may go.
fn dotted(img: &mut RgbImage, r: Rect) {
    let on = |i: u32| i % 6 < 3;
    for i in (0..r.w).filter(|&i| on(i)) {
        blend(img.get_pixel_mut(r.x + i, r.y), FRONTIER, 110);
        blend(img.get_pixel_mut(r.x + i, r.y + r.h - 1), FRONTIER, 110);
    }
    for i in (0..r.h).filter(|&i| on(i)) {
        blend(img.get_pixel_mut(r.x, r.y + i), FRONTIER, 110);
        blend(img.get_pixel_mut(r.x + r.w - 1, r.y + i), FRONTIER, 110);
    }
}

/// Draws the picture of an En Prise view.
pub fn draw(view: &EnPriseView) -> RgbImage {
    let layout = Layout::new(view);
    let mut img = RgbImage::from_pixel(layout.width, layout.height, Rgb(TABLE));
    draw_header(&mut img, view, &layout);
    draw_board(&mut img, &layout, view);
    draw_coordinates(&mut img, &layout);
    let plan = Glyphs::new(layout.z(PLAN_W));
    for (i, player) in view.players.iter().enumerate() {
        draw_player(&mut img, &layout, &plan, view, i, player);
    }
    img
}

/// The status line (after a dot of the current player's colour) and the last action.
fn draw_header(img: &mut RgbImage, view: &EnPriseView, layout: &Layout) {
    let dot = view.outcome.is_none().then(|| army(view.current));
    let last = view.last.as_ref().map(|l| l.text.as_str());
    header(img, layout.width, layout.zoom, dot, &view.status, last, DIM);
}

/// The cards on the table, the frontier ring, and the marks of the last action and of checks.
fn draw_board(img: &mut RgbImage, layout: &Layout, view: &EnPriseView) {
    for sq in frontier(view) {
        if let Some(card) = layout.card(sq) {
            dotted(img, card);
        }
    }
    if view.squares.is_empty() {
        let (_, h) = layout.board_size();
        let y = layout.origin.1 + h + layout.label as u32 + 30;
        let cx = layout.width as f32 / 2.0;
        centred(img, cx, y as f32, 16.0, "the first card goes at 0,0", DIM);
    }
    let last: &[Sq] = view.last.as_ref().map_or(&[], |l| &l.squares);
    let fallen: &[Fallen] = view.last.as_ref().map_or(&[], |l| &l.fallen);
    let glyphs = Glyphs::new(layout.cell - 2 * layout.gap());
    for square in &view.squares {
        let (Some(cell), Some(card)) = (layout.cell(square.at), layout.card(square.at)) else {
            continue;
        };
        // A piece turned over by the last action is shown as it stood.
        let fell = fallen
            .iter()
            .find(|f| f.at == square.at && square.piece.is_none());
        let piece = square.piece.or(fell.map(|f| f.piece));
        let check = view.checks.contains(&square.at) || fell.is_some_and(|f| f.check);
        let moved = last.contains(&square.at);
        // A frame in the gap around the card, then the card washed with the same colour.
        let mark = if check {
            Some((CHECK, 150))
        } else if moved {
            Some((LAST_MOVE, 110))
        } else {
            None
        };
        if let Some((color, _)) = mark {
            rounded(img, cell, corner_radius(cell), color);
        }
        match piece {
            Some(piece) => {
                card_face(img, card);
                if let Some((color, alpha)) = mark {
                    wash(img, card, color, alpha);
                }
                glyphs.draw(img, card.x, card.y, piece);
                if fell.is_some() && view.outcome.is_none() {
                    wash(img, card, BACK, FADE);
                }
            }
            None => {
                card_back(img, card);
                if let Some((color, alpha)) = mark {
                    wash(img, card, color, alpha / 2);
                }
            }
        }
    }
}

/// Each column's x above and below the board, each row's y left and right of it.
fn draw_coordinates(img: &mut RgbImage, layout: &Layout) {
    let size = layout.label;
    let (w, h) = layout.board_size();
    let (x0, y0) = layout.origin;
    let (gap, under) = (layout.z(8) as f32, layout.z(5) as f32);
    for col in 0..layout.cols {
        let label = (i32::from(layout.left) + col as i32).to_string();
        let cx = (x0 + col * layout.cell + layout.cell / 2) as f32;
        centred(img, cx, y0 as f32 - gap, size, &label, LABEL);
        centred(img, cx, (y0 + h) as f32 + size + under, size, &label, LABEL);
    }
    for row in 0..layout.rows {
        let label = (i32::from(layout.top) - row as i32).to_string();
        let base = (y0 + row * layout.cell + layout.cell / 2) as f32 + size * 0.36;
        let lw = text_width(size, &label);
        text(img, x0 as f32 - gap - lw, base, size, &label, LABEL);
        text(img, (x0 + w) as f32 + gap, base, size, &label, LABEL);
    }
}

/// What to say under a player's name: out, to act, in check, the king in hand.
pub fn player_state(view: &EnPriseView, player: &PlayerView) -> String {
    if let Some(reason) = &player.out {
        return format!("out: {reason}");
    }
    // Most telling first, as a narrow row cuts the end: "to play" comes last, since the gold
    // marker and the band say it too.
    let mut words = Vec::new();
    let in_check = view.squares.iter().any(|s| {
        view.checks.contains(&s.at)
            && s.piece
                .is_some_and(|p| p.owner == player.seat && p.role == Role::King)
    });
    if in_check {
        words.push("in check");
    }
    if player.must_summon {
        words.push("must summon the king");
    } else if player.king_in_hand {
        words.push("king in hand");
    }
    // An alliance: the partner, so the teams read at a glance.
    let partner = view
        .players
        .iter()
        .find(|p| view.alliance && p.seat != player.seat && p.seat.0 % 2 == player.seat.0 % 2);
    let with = partner.map(|p| format!("with {}", p.colour));
    if let Some(with) = &with {
        words.push(with.as_str());
    }
    if view.to_act.contains(&player.seat) {
        words.push(if player.seat == view.current {
            "to play"
        } else {
            "to act"
        });
    }
    words.join(" · ")
}

/// One player's row: turn marker, colour, name, state and battleplan.
fn draw_player(
    img: &mut RgbImage,
    layout: &Layout,
    glyphs: &Glyphs,
    view: &EnPriseView,
    index: usize,
    player: &PlayerView,
) {
    let row = layout.player_row(index);
    let (z, zoom) = (|v: u32| layout.z(v), layout.zoom);
    let playing = view.outcome.is_none() && player.out.is_none();
    if playing && view.to_act.contains(&player.seat) {
        wash(img, row.inset(z(3)), ACTING, 255);
    }
    let (_, cy) = row.centre();
    if playing && player.seat == view.current {
        marker(img, row.x + z(PAD - 6), cy, zoom);
    }
    let (body, lines) = army(player.seat);
    disc(img, row.x + z(PAD + 20), cy, z(9), body, lines);
    let mut name = player.colour.clone();
    if view.viewer == Viewer::Seat(player.seat) {
        name.push_str(" (you)");
    }
    let name_x = row.x + z(PAD + 36);
    let room = z(PLAN_X - PAD - 36 - 8) as f32;
    let name = fit(&name, 18.0 * zoom, room);
    let name_w = text(
        img,
        name_x as f32,
        (row.y + z(23)) as f32,
        18.0 * zoom,
        &name,
        LABEL,
    );
    let state = fit(&player_state(view, player), 13.0 * zoom, room);
    text(
        img,
        name_x as f32,
        (row.y + z(41)) as f32,
        13.0 * zoom,
        &state,
        DIM,
    );
    let cards = &player.plan.cards;
    if cards.is_empty() {
        let x = (row.x + z(PLAN_X)) as f32;
        text(
            img,
            x,
            (cy + z(5)) as f32,
            14.0 * zoom,
            "no cards left",
            DIM,
        );
    }
    for (i, card) in cards.iter().enumerate() {
        let r = layout.plan_card(index, i);
        match card {
            Some(role) => {
                card_face(img, r);
                let piece = Piece {
                    owner: player.seat,
                    role: *role,
                };
                glyphs.draw(img, r.x, r.y + (r.h - r.w) / 2, piece);
            }
            None => card_back(img, r),
        }
    }
    // The next card to come off the plan, framed in gold.
    if !cards.is_empty() && player.out.is_none() && view.outcome.is_none() {
        let r = layout.plan_card(index, 0);
        border(img, r.outset(2), 2, NEXT_CARD);
    }
    // A player who is out: the disc and name faded and struck through; why stays legible.
    if player.out.is_some() {
        let disc = Rect {
            w: name_x - row.x,
            ..row
        };
        let name = Rect {
            x: name_x,
            w: name_w as u32,
            h: z(28),
            ..row
        };
        wash(img, disc, TABLE, 150);
        wash(img, name, TABLE, 150);
        fill(img, name_x, row.y + z(17), name_w as u32, z(2), DIM);
    }
}

impl super::Picture for EnPriseView {
    fn draw(&self) -> RgbImage {
        draw(self)
    }

    fn seat_colours(&self, seat: Seat) -> ([u8; 3], [u8; 3]) {
        army(seat)
    }
}
