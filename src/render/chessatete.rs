//! The Chess-à-Tête picture: Black's board at the top, White's at the bottom, the attack or
//! damage under way between them, and, in a player's own view, their hand as full cards.

use super::enprise::{Rect, centred, fit, header, wash};
use super::{FRAME, LABEL, fill, text, text_width};
use crate::engine::Viewer;
use crate::games::chess::Color;
use crate::games::chessatete::deck::{Card, CardKind, PieceKind, Timing, catalogue};
use crate::games::chessatete::{ChessATeteView, SideView};
use image::{Rgb, RgbImage};

pub const WIDTH: u32 = 1000;
const PAD: u32 = 16;
const TOP: u32 = 64;
/// A piece on a board.
pub const TILE: (u32, u32) = (92, 96);
const GAP: u32 = 6;
const PER_ROW: u32 = 10;
const SIDE_LABEL: u32 = 30;
const MIDDLE: u32 = 64;
/// A card in the hand.
pub const HAND_CARD: (u32, u32) = (134, 210);
const HAND_LABEL: u32 = 30;
const DIM: [u8; 3] = [170, 164, 154];
/// Hit points gained from cards in play.
const BONUS: [u8; 3] = [46, 132, 64];

/// A card's type colour.
pub fn type_colour(card: &Card) -> [u8; 3] {
    match card.kind {
        CardKind::Piece { .. } => [214, 200, 170],
        CardKind::Combat { .. } => [186, 78, 66],
        CardKind::Action { .. } => [74, 114, 176],
        CardKind::Checkmate { .. } => [206, 166, 58],
    }
}

/// The colours of a side's piece tiles: (body, ink).
pub fn side_colours(color: Color) -> ([u8; 3], [u8; 3]) {
    match color {
        Color::White => ([238, 232, 218], [40, 38, 34]),
        Color::Black => ([58, 55, 50], [236, 230, 218]),
    }
}

fn rows(count: usize) -> u32 {
    (count as u32).div_ceil(PER_ROW).max(1)
}

/// Where everything goes.
pub struct Layout {
    /// Black's band, then White's.
    pub sides: [Rect; 2],
    pub middle: Rect,
    pub hand: Option<Rect>,
    pub height: u32,
}

impl Layout {
    pub fn new(view: &ChessATeteView) -> Layout {
        let band = |side: &SideView| SIDE_LABEL + rows(side.board.len()) * (TILE.1 + GAP) + GAP;
        let black_h = band(&view.sides[1]);
        let white_h = band(&view.sides[0]);
        let black = Rect {
            x: PAD,
            y: TOP,
            w: WIDTH - 2 * PAD,
            h: black_h,
        };
        let middle = Rect {
            x: PAD,
            y: black.y + black.h,
            w: WIDTH - 2 * PAD,
            h: MIDDLE,
        };
        let white = Rect {
            x: PAD,
            y: middle.y + middle.h,
            w: WIDTH - 2 * PAD,
            h: white_h,
        };
        let own = match view.viewer {
            Viewer::Seat(seat) => view.sides.get(seat.index()).and_then(|s| s.hand.as_ref()),
            Viewer::Spectator => None,
        };
        let hand = own.map(|hand| Rect {
            x: PAD,
            y: white.y + white.h + GAP,
            w: WIDTH - 2 * PAD,
            h: HAND_LABEL + (hand.len() as u32).div_ceil(7).max(1) * (HAND_CARD.1 + GAP),
        });
        let height = hand.map_or(white.y + white.h, |h| h.y + h.h) + PAD;
        Layout {
            sides: [white, black],
            middle,
            hand,
            height,
        }
    }

    /// The tile of the `i`th piece on `color`'s board.
    pub fn tile(&self, color: Color, i: usize) -> Rect {
        let band = self.sides[color.index()];
        let (row, col) = (i as u32 / PER_ROW, i as u32 % PER_ROW);
        Rect {
            x: band.x + col * (TILE.0 + GAP),
            y: band.y + SIDE_LABEL + row * (TILE.1 + GAP),
            w: TILE.0,
            h: TILE.1,
        }
    }

    /// The `i`th card of the hand.
    pub fn hand_card(&self, i: usize) -> Option<Rect> {
        let hand = self.hand?;
        let (row, col) = (i as u32 / 7, i as u32 % 7);
        Some(Rect {
            x: hand.x + col * (HAND_CARD.0 + GAP),
            y: hand.y + HAND_LABEL + row * (HAND_CARD.1 + GAP),
            w: HAND_CARD.0,
            h: HAND_CARD.1,
        })
    }
}

fn card_named(name: &str) -> Option<&'static Card> {
    let cat = catalogue();
    cat.find(name).map(|i| &cat.cards[i])
}

fn frame(img: &mut RgbImage, r: Rect, color: [u8; 3]) {
    fill(img, r.x, r.y, r.w, 2, color);
    fill(img, r.x, r.y + r.h - 2, r.w, 2, color);
    fill(img, r.x, r.y, 2, r.h, color);
    fill(img, r.x + r.w - 2, r.y, 2, r.h, color);
}

/// Words wrapped into lines no wider than `max` at `size`.
fn wrap(s: &str, size: f32, max: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let tried = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(size, &tried) <= max || line.is_empty() {
            line = tried;
        } else {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A piece on a board: name, kind and hit points (a pawn's with `pawn_bonus` added, marked).
fn draw_tile(img: &mut RgbImage, r: Rect, name: &str, color: Color, pawn_bonus: u32) {
    let (body, ink) = side_colours(color);
    fill(img, r.x, r.y, r.w, r.h, body);
    frame(img, r, [120, 112, 100]);
    let cx = (r.x + r.w / 2) as f32;
    let Some(card) = card_named(name) else {
        return;
    };
    if let CardKind::Piece {
        piece,
        hp,
        abilities,
    } = &card.kind
    {
        let bonus = if *piece == PieceKind::Pawn {
            pawn_bonus
        } else {
            0
        };
        centred(
            img,
            cx,
            (r.y + 50) as f32,
            30.0,
            &(u32::from(*hp) + bonus).to_string(),
            ink,
        );
        if bonus > 0 {
            let mark = format!("+{bonus}");
            text(
                img,
                (r.x + r.w - 26) as f32,
                (r.y + 28) as f32,
                14.0,
                &mark,
                BONUS,
            );
        }
        let kind = if abilities.is_some() {
            "pawn ✦"
        } else {
            piece.name()
        };
        centred(img, cx, (r.y + 68) as f32, 12.0, kind, ink);
    }
    let label = fit(name, 13.0, (r.w - 8) as f32);
    centred(img, cx, (r.y + 88) as f32, 13.0, &label, ink);
}

/// One side's band: its label line (hit points, counts, cards in play) and its board.
fn draw_side(img: &mut RgbImage, layout: &Layout, side: &SideView, to_move: bool) {
    let band = layout.sides[side.color.index()];
    if to_move {
        wash(img, band, [90, 84, 72], 120);
    }
    let mut line = format!(
        "{}: {} hit points · hand {} · deck {} · graveyard {}",
        side.color,
        side.board_hp,
        side.hand_size,
        side.deck_size,
        side.graveyard.len()
    );
    if !side.ongoing.is_empty() {
        line.push_str(&format!(" · in play: {}", side.ongoing.join(", ")));
    }
    let line = fit(&line, 16.0, (band.w - 8) as f32);
    text(
        img,
        (band.x + 4) as f32,
        (band.y + 21) as f32,
        16.0,
        &line,
        LABEL,
    );
    for (i, name) in side.board.iter().enumerate() {
        draw_tile(
            img,
            layout.tile(side.color, i),
            name,
            side.color,
            side.pawn_bonus,
        );
    }
}

fn draw_middle(img: &mut RgbImage, layout: &Layout, view: &ChessATeteView) {
    let m = layout.middle;
    let y = (m.y + 38) as f32;
    let room = (m.w - 16) as f32;
    if let Some(attack) = &view.attack {
        wash(img, m, [186, 78, 66], 90);
        let line = format!(
            "Attack: {} (power {}) with {}",
            attack.combat,
            attack.power,
            attack.pieces.join(", ")
        );
        text(
            img,
            (m.x + 8) as f32,
            y,
            19.0,
            &fit(&line, 19.0, room),
            LABEL,
        );
    } else if let Some(amount) = view.damage {
        wash(img, m, [186, 78, 66], 60);
        let line = format!("{amount} damage to absorb");
        text(img, (m.x + 8) as f32, y, 19.0, &line, LABEL);
    } else {
        fill(img, m.x, m.y + m.h / 2, m.w, 2, [90, 86, 80]);
    }
}

/// A card in the hand: type strip, name, the big number, requirements or text.
fn draw_hand_card(img: &mut RgbImage, r: Rect, name: &str) {
    let Some(card) = card_named(name) else {
        return;
    };
    fill(img, r.x, r.y, r.w, r.h, [246, 242, 232]);
    fill(img, r.x, r.y, r.w, 30, type_colour(card));
    frame(img, r, [110, 104, 94]);
    let ink = [36, 34, 30];
    let cx = (r.x + r.w / 2) as f32;
    let room = (r.w - 10) as f32;
    let on_strip = match card.kind {
        CardKind::Piece { .. } => [36, 34, 30],
        _ => [250, 248, 240],
    };
    centred(
        img,
        cx,
        (r.y + 21) as f32,
        14.0,
        &fit(&card.name, 14.0, room),
        on_strip,
    );
    let (kind, number, body): (String, String, String) = match &card.kind {
        CardKind::Piece { piece, hp, .. } => (
            format!("{} · hit points", piece.name()),
            hp.to_string(),
            card.text.clone(),
        ),
        CardKind::Combat { power, needs } => (
            "combat · power".into(),
            power.to_string(),
            format!(
                "Needs: {}",
                needs
                    .iter()
                    .map(|line| line
                        .iter()
                        .map(|n| n.describe())
                        .collect::<Vec<_>>()
                        .join(" or "))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        CardKind::Checkmate { .. } => (
            "checkmate · out of turn".into(),
            "♚".into(),
            card.text.clone(),
        ),
        CardKind::Action { timing, .. } => (
            match timing {
                Timing::Instant => "action · instant",
                Timing::Ongoing => "action · ongoing",
                Timing::OutOfTurn => "action · out of turn",
            }
            .into(),
            String::new(),
            card.text.clone(),
        ),
    };
    centred(
        img,
        cx,
        (r.y + 48) as f32,
        11.0,
        &fit(&kind, 11.0, room),
        [90, 84, 76],
    );
    let mut y = r.y + 60;
    if !number.is_empty() {
        centred(img, cx, (r.y + 86) as f32, 30.0, &number, ink);
        y = r.y + 104;
    }
    for line in wrap(&body, 11.5, room)
        .into_iter()
        .take(((r.y + r.h - y) / 14) as usize)
    {
        text(img, (r.x + 5) as f32, y as f32, 11.5, &line, ink);
        y += 14;
    }
}

pub fn draw(view: &ChessATeteView) -> RgbImage {
    let layout = Layout::new(view);
    let mut img = RgbImage::from_pixel(WIDTH, layout.height, Rgb(FRAME));
    let dot = Some(side_colours(view.to_move));
    let last = (!view.last.is_empty()).then(|| view.last.join("; "));
    header(&mut img, WIDTH, dot, &view.status, last.as_deref(), DIM);
    let actor = match (&view.attack, view.damage) {
        (None, None) => view.to_move,
        _ => view.to_move.other(),
    };
    for side in &view.sides {
        draw_side(
            &mut img,
            &layout,
            side,
            side.color == actor && view.outcome.is_none(),
        );
    }
    draw_middle(&mut img, &layout, view);
    if let Some(area) = layout.hand {
        let Viewer::Seat(seat) = view.viewer else {
            return img;
        };
        let hand = view.sides[seat.index()].hand.clone().unwrap_or_default();
        text(
            &mut img,
            (area.x + 4) as f32,
            (area.y + 21) as f32,
            16.0,
            "Your hand (only you see this)",
            LABEL,
        );
        for (i, name) in hand.iter().enumerate() {
            if let Some(r) = layout.hand_card(i) {
                draw_hand_card(&mut img, r, name);
            }
        }
    }
    img
}
