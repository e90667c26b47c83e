//! The Chess-à-Tête picture: Black's board at the top, White's at the bottom, the attack or
//! damage under way between them (or, once the game is won by an attack or Checkmate, the
//! winning play and the result), and, in a player's own view, their hand as full cards.

use crate::engine::Viewer;
use crate::games::chess::{Color, Role};
use crate::games::chessatete::deck::{Card, CardKind, Need, PieceKind, Timing, catalogue};
use crate::games::chessatete::{ChessATeteView, SideView};
use crate::render::draw::palette::{FRAME, LABEL};
use crate::render::draw::{
    Rect, border, centred, fill, fit, header, header_height, pieces, text, text_width, wash, wrap,
};
use image::{Rgb, RgbImage};

/// Eight tiles to a row: narrow enough that the tiles' names read at preview size.
pub const WIDTH: u32 = 2 * PAD + PER_ROW * (TILE.0 + GAP) - GAP;
const PAD: u32 = 16;
/// Between the header and Black's board.
const TOP_GAP: u32 = 2;
/// A piece on a board, and the size of its name.
pub const TILE: (u32, u32) = (92, 96);
const TILE_NAME: f32 = 17.0;
const GAP: u32 = 6;
const PER_ROW: u32 = 8;
const SIDE_LABEL: u32 = 30;
const MIDDLE: u32 = 64;
/// The band between the boards when it shows the play that won: two lines.
const MIDDLE_DECISIVE: u32 = 96;
/// The wash behind the play that won.
const DECISIVE: [u8; 3] = [206, 166, 58];
/// Cards in a row of the hand, under the boards and in the picture of the hand alone.
const HAND_COLUMNS: u32 = 3;
/// A card in the hand: narrow enough that three in a row, the picture of a hand alone, read
/// at preview size.
pub const HAND_CARD: (u32, u32) = (237, 380);
const HAND_LABEL: u32 = 34;
/// The hand's smallest text (a card's rules), sized to stay legible when Discord shows the
/// picture at its preview width.
pub const CARD_TEXT: f32 = 20.0;
const CARD_LINE: u32 = 24;
/// Where a card's rules start below its top.
const BODY_TOP: u32 = 100;
const DIM: [u8; 3] = [170, 164, 154];
/// A card's face (in the hand, and a card in play on a board) and its words.
const CARD_FACE: [u8; 3] = [246, 242, 232];
const CARD_INK: [u8; 3] = [36, 34, 30];
/// Hit points gained from cards in play.
const BONUS: [u8; 3] = [46, 132, 64];
/// The frame of a piece mobilised by the attack under way, or by the winning one.
pub const MOBILISED: [u8; 3] = [226, 72, 52];

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

/// The turn's events as the header's last action: each a sentence of its own.
fn last_text(view: &ChessATeteView) -> Option<String> {
    (!view.last.is_empty()).then(|| view.last.join(". "))
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
        let tiles = |side: &SideView| side.board.len() + side.ongoing.len();
        let band = |side: &SideView| SIDE_LABEL + rows(tiles(side)) * (TILE.1 + GAP) + GAP;
        let black_h = band(&view.sides[1]);
        let white_h = band(&view.sides[0]);
        let last = last_text(view);
        let black = Rect {
            x: PAD,
            // Room for two lines of last actions at least (a turn's events often take two), so
            // the boards keep their place from one picture to the next, as in a replay.
            y: header_height(WIDTH, 1.0, &view.status, last.as_deref(), 2) + TOP_GAP,
            w: WIDTH - 2 * PAD,
            h: black_h,
        };
        let middle = Rect {
            x: PAD,
            y: black.y + black.h,
            w: WIDTH - 2 * PAD,
            h: if view.decisive.is_some() {
                MIDDLE_DECISIVE
            } else {
                MIDDLE
            },
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
            h: hand_height(hand.len()),
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
    #[cfg(test)]
    pub fn hand_card(&self, i: usize) -> Option<Rect> {
        self.hand.map(|area| hand_card(area, i))
    }
}

/// The width of a row of hand cards.
const fn hand_width() -> u32 {
    HAND_COLUMNS * (HAND_CARD.0 + GAP) - GAP
}

/// The height of a hand of `cards` cards with its label.
fn hand_height(cards: usize) -> u32 {
    HAND_LABEL + (cards as u32).div_ceil(HAND_COLUMNS).max(1) * (HAND_CARD.1 + GAP)
}

/// The `i`th card of a hand drawn in `area`.
fn hand_card(area: Rect, i: usize) -> Rect {
    let (row, col) = (i as u32 / HAND_COLUMNS, i as u32 % HAND_COLUMNS);
    Rect {
        x: area.x + col * (HAND_CARD.0 + GAP),
        y: area.y + HAND_LABEL + row * (HAND_CARD.1 + GAP),
        w: HAND_CARD.0,
        h: HAND_CARD.1,
    }
}

fn card_named(name: &str) -> Option<&'static Card> {
    let cat = catalogue();
    cat.find(name).map(|i| &cat.cards[i])
}

/// The icon at the left of a hand card's strip.
#[derive(Debug, PartialEq, Eq)]
pub enum TypeIcon {
    Piece(Role),
    Sign(&'static str),
}

pub fn type_icon(card: &Card) -> TypeIcon {
    match card.kind {
        CardKind::Piece { piece, .. } => TypeIcon::Piece(role(piece)),
        CardKind::Checkmate { .. } => TypeIcon::Piece(Role::King),
        CardKind::Combat { .. } => TypeIcon::Sign("⚔"),
        CardKind::Action { .. } => TypeIcon::Sign("⚡"),
    }
}

/// The colours of the piece on a tile: Black's black piece is outlined in the tile's light ink,
/// so it shows on the dark tile.
fn tile_ink(color: Color) -> pieces::Ink {
    match color {
        Color::White => pieces::ink(color),
        Color::Black => pieces::Ink {
            edge: side_colours(color).1,
            ..pieces::ink(color)
        },
    }
}

/// The chess piece a piece card shows as its icon.
fn role(piece: PieceKind) -> Role {
    match piece {
        PieceKind::King => Role::King,
        PieceKind::Queen => Role::Queen,
        PieceKind::Knight => Role::Knight,
        PieceKind::Bishop => Role::Bishop,
        PieceKind::Rook => Role::Rook,
        PieceKind::Pawn => Role::Pawn,
    }
}

/// The pieces an attack mobilised, and whose they are: the attack under way (its player holds
/// the turn while the defender answers) or, once the game is over, the play that won it.
pub fn mobilised(view: &ChessATeteView) -> Option<(Color, &[String])> {
    match (&view.attack, &view.decisive) {
        (Some(attack), _) => Some((view.to_move, &attack.pieces)),
        (None, Some(decisive)) => Some((decisive.by, &decisive.pieces)),
        (None, None) => None,
    }
}

/// Frames the tiles of `pieces` on `side`'s board, one tile per name listed.
fn mark_mobilised(img: &mut RgbImage, layout: &Layout, side: &SideView, pieces: &[String]) {
    let mut taken = vec![false; side.board.len()];
    for name in pieces {
        let found = (0..side.board.len()).find(|&i| !taken[i] && side.board[i] == *name);
        if let Some(i) = found {
            taken[i] = true;
            let r = layout.tile(side.color, i);
            border(img, r, 4, MOBILISED);
        }
    }
}

/// A piece on a board: name, kind and hit points (a pawn's with `pawn_bonus` added, marked).
fn draw_tile(img: &mut RgbImage, r: Rect, name: &str, color: Color, pawn_bonus: u32) {
    let (body, ink) = side_colours(color);
    fill(img, r.x, r.y, r.w, r.h, body);
    border(img, r, 2, [120, 112, 100]);
    let cx = (r.x + r.w / 2) as f32;
    let Some(card) = card_named(name) else {
        return;
    };
    if let CardKind::Piece { piece, hp, .. } = &card.kind {
        pieces::draw_piece(img, role(*piece), r.x + 3, r.y + 3, 32, tile_ink(color));
        let bonus = if *piece == PieceKind::Pawn {
            pawn_bonus
        } else {
            0
        };
        centred(
            img,
            cx,
            (r.y + 60) as f32,
            34.0,
            &(u32::from(*hp) + bonus).to_string(),
            ink,
        );
        if bonus > 0 {
            let mark = format!("+{bonus}");
            let w = text_width(17.0, &mark);
            let x = (r.x + r.w - 5) as f32 - w;
            text(img, x, (r.y + 22) as f32, 17.0, &mark, BONUS);
        }
    }
    // The icon gives the kind; the name tells pawns (each with its abilities) apart.
    let label = fit(name, TILE_NAME, (r.w - 6) as f32);
    centred(img, cx, (r.y + 86) as f32, TILE_NAME, &label, ink);
}

/// One side's band: its label line (hit points, counts, cards in play) and its board.
fn draw_side(img: &mut RgbImage, layout: &Layout, side: &SideView, to_move: bool) {
    let band = layout.sides[side.color.index()];
    if to_move {
        wash(img, band, [90, 84, 72], 120);
    }
    let line = format!(
        "{}: {} hit points · hand {} · deck {} · graveyard {}",
        side.color,
        side.board_hp,
        side.hand_size,
        side.deck_size,
        side.graveyard.len()
    );
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
    // The ongoing cards in play follow the pieces.
    for (k, name) in side.ongoing.iter().enumerate() {
        let r = layout.tile(side.color, side.board.len() + k);
        draw_ongoing(img, r, name);
    }
}

/// An ongoing action card in play: its type band, "in play", and its name.
fn draw_ongoing(img: &mut RgbImage, r: Rect, name: &str) {
    fill(img, r.x, r.y, r.w, r.h, CARD_FACE);
    if let Some(card) = card_named(name) {
        fill(img, r.x, r.y, r.w, 20, type_colour(card));
    }
    border(img, r, 2, [120, 112, 100]);
    let cx = (r.x + r.w / 2) as f32;
    let ink = CARD_INK;
    centred(img, cx, (r.y + 15) as f32, 13.0, "in play", [250, 248, 240]);
    for (i, line) in wrap(name, 16.0, (r.w - 6) as f32)
        .iter()
        .take(3)
        .enumerate()
    {
        centred(img, cx, (r.y + 44 + 20 * i as u32) as f32, 16.0, line, ink);
    }
}

fn draw_middle(img: &mut RgbImage, layout: &Layout, view: &ChessATeteView) {
    let m = layout.middle;
    let y = (m.y + 38) as f32;
    let room = (m.w - 16) as f32;
    if let Some(decisive) = &view.decisive {
        wash(img, m, DECISIVE, 110);
        let first = fit(&decisive.text, 19.0, room);
        text(
            img,
            (m.x + 8) as f32,
            (m.y + 36) as f32,
            19.0,
            &first,
            LABEL,
        );
        let result = fit(&decisive.result, 24.0, room);
        text(
            img,
            (m.x + 8) as f32,
            (m.y + 74) as f32,
            24.0,
            &result,
            LABEL,
        );
    } else if let Some(attack) = &view.attack {
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

/// What a hand card says: its kind line, its big number (hit points or power; none for an
/// action or Checkmate), and its rules (requirements or text) as lines that fit the card.
pub fn card_face(card: &Card) -> (String, String, Vec<String>) {
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
            String::new(),
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
    let lines = wrap(&body, CARD_TEXT, (HAND_CARD.0 - 14) as f32);
    (kind, number, lines)
}

/// How many lines of rules fit on a hand card.
pub const fn card_room() -> usize {
    ((HAND_CARD.1 - BODY_TOP - 6) / CARD_LINE) as usize
}

/// A card in the hand: type strip, name, the big number, requirements or text.
fn draw_hand_card(img: &mut RgbImage, r: Rect, name: &str) {
    let Some(card) = card_named(name) else {
        return;
    };
    fill(img, r.x, r.y, r.w, r.h, CARD_FACE);
    fill(img, r.x, r.y, r.w, 42, type_colour(card));
    border(img, r, 2, [110, 104, 94]);
    let ink = CARD_INK;
    let cx = (r.x + r.w / 2) as f32;
    let room = (r.w - 14) as f32;
    // Dark words on the light strips (pieces, Checkmate's gold), light on the others.
    let on_strip = match card.kind {
        CardKind::Piece { .. } | CardKind::Checkmate { .. } => CARD_INK,
        _ => [250, 248, 240],
    };
    // At the strip's left, an icon: a piece card's piece, Checkmate's king, a sign for the
    // others (crossed swords for combat, a bolt for an action).
    match type_icon(card) {
        TypeIcon::Piece(role) => {
            let white = pieces::ink(Color::White);
            pieces::draw_piece(img, role, r.x + 4, r.y + 3, 36, white);
        }
        TypeIcon::Sign(sign) => {
            text(
                img,
                (r.x + 6) as f32,
                (r.y + 33) as f32,
                32.0,
                sign,
                on_strip,
            );
        }
    }
    let icon = 40.0;
    centred(
        img,
        cx + icon / 2.0,
        (r.y + 29) as f32,
        22.0,
        &fit(&card.name, 22.0, room - icon),
        on_strip,
    );
    // The kind on the left, the big number (hit points or power) on the right.
    let (kind, number, lines) = card_face(card);
    let number_w = text_width(40.0, &number);
    let kind_room = room - number_w - 8.0;
    let kind = fit(&kind, CARD_TEXT, kind_room);
    text(
        img,
        (r.x + 7) as f32,
        (r.y + 78) as f32,
        CARD_TEXT,
        &kind,
        [90, 84, 76],
    );
    let right = (r.x + r.w - 8) as f32 - number_w;
    text(img, right, (r.y + 84) as f32, 40.0, &number, ink);
    let mut y = r.y + BODY_TOP;
    let slots = card_needs(r, card);
    if let Some(last) = slots.last() {
        draw_needs(img, &slots);
        y = last.rect.y + last.rect.h + 8;
    }
    for line in lines.iter().take(card_room()) {
        y += CARD_LINE;
        text(img, (r.x + 7) as f32, (y - 5) as f32, CARD_TEXT, line, ink);
    }
}

/// A requirement's icon, and the size of the name a named pawn carries under it.
const NEED_ICON: u32 = 44;
const NEED_NAME: f32 = 14.0;
/// The frame and ground of a requirement's slot.
pub const SLOT_EDGE: [u8; 3] = [150, 142, 128];
pub const SLOT_GROUND: [u8; 3] = [232, 224, 208];

/// One slot of a combat card's requirements: its box, and in it a cell per piece that can
/// fill it (its width, and the need).
pub struct Slot<'a> {
    pub rect: Rect,
    pub cells: Vec<(u32, &'a Need)>,
}

/// Where the requirements of `card`, drawn in `r`, go (none unless it is a combat card): under
/// its kind line, a box per slot, the pieces that can fill it side by side, boxes flowing in
/// rows across the card.
pub fn card_needs(r: Rect, card: &Card) -> Vec<Slot<'_>> {
    let CardKind::Combat { needs, .. } = &card.kind else {
        return Vec::new();
    };
    let top = r.y + BODY_TOP + 4;
    let named = needs.iter().flatten().any(|n| matches!(n, Need::Pawn(_)));
    let h = NEED_ICON + 6 + if named { NEED_NAME as u32 + 4 } else { 0 };
    let (left, right) = (r.x + 7, r.x + r.w - 7);
    let (mut x, mut y) = (left, top);
    let mut slots = Vec::new();
    for slot in needs {
        // A cell is as wide as its icon, or as its pawn's name if that is wider.
        let cells: Vec<(u32, &Need)> = slot
            .iter()
            .map(|need| match need {
                Need::Pawn(name) => {
                    let w = text_width(NEED_NAME, name).ceil() as u32 + 6;
                    (w.max(NEED_ICON), need)
                }
                Need::Kind(_) => (NEED_ICON, need),
            })
            .collect();
        let w = cells.iter().map(|c| c.0).sum::<u32>() + 6;
        if x > left && x + w > right {
            (x, y) = (left, y + h + 4);
        }
        slots.push(Slot {
            rect: Rect { x, y, w, h },
            cells,
        });
        x += w + 4;
    }
    slots
}

/// A combat card's requirements as icons (see [`card_needs`]).
fn draw_needs(img: &mut RgbImage, slots: &[Slot]) {
    for Slot { rect, cells } in slots {
        fill(img, rect.x, rect.y, rect.w, rect.h, SLOT_GROUND);
        border(img, *rect, 2, SLOT_EDGE);
        let mut x = rect.x + 3;
        for &(w, need) in cells {
            let (kind, name) = match need {
                Need::Kind(kind) => (*kind, None),
                Need::Pawn(name) => (PieceKind::Pawn, Some(name)),
            };
            let ink = pieces::ink(Color::White);
            let icon_x = x + (w - NEED_ICON) / 2;
            pieces::draw_piece(img, role(kind), icon_x, rect.y + 3, NEED_ICON, ink);
            if let Some(name) = name {
                let base = (rect.y + 3 + NEED_ICON + NEED_NAME as u32) as f32;
                centred(img, (x + w / 2) as f32, base, NEED_NAME, name, [60, 56, 50]);
            }
            x += w;
        }
    }
}

/// "Your hand" and its cards, drawn in `area`.
fn draw_hand(img: &mut RgbImage, area: Rect, hand: &[String]) {
    text(
        img,
        (area.x + 4) as f32,
        (area.y + 24) as f32,
        19.0,
        "Your hand (only you see this)",
        LABEL,
    );
    for (i, name) in hand.iter().enumerate() {
        draw_hand_card(img, hand_card(area, i), name);
    }
}

/// The width of the picture of a hand alone.
pub const OWN_HAND_WIDTH: u32 = hand_width() + 2 * PAD;

/// Where the cards go in the picture of a hand of `cards` alone.
fn own_hand_area(cards: usize) -> Rect {
    Rect {
        x: PAD,
        y: PAD / 2,
        w: hand_width(),
        h: hand_height(cards),
    }
}

/// The `i`th card of the picture of a hand alone.
#[cfg(test)]
pub fn own_hand_card(i: usize) -> Rect {
    hand_card(own_hand_area(i + 1), i)
}

/// The viewer's hand as a picture of its own (for a private reply), if the view holds it.
pub fn draw_own_hand(view: &ChessATeteView) -> Option<RgbImage> {
    let Viewer::Seat(seat) = view.viewer else {
        return None;
    };
    let hand = view.sides.get(seat.index())?.hand.as_ref()?;
    let area = own_hand_area(hand.len());
    let mut img = RgbImage::from_pixel(OWN_HAND_WIDTH, area.y + area.h + PAD / 2, Rgb(FRAME));
    draw_hand(&mut img, area, hand);
    Some(img)
}

pub fn draw(view: &ChessATeteView) -> RgbImage {
    let layout = Layout::new(view);
    let mut img = RgbImage::from_pixel(WIDTH, layout.height, Rgb(FRAME));
    let dot = Some(side_colours(view.to_move));
    let last = last_text(view);
    header(
        &mut img,
        WIDTH,
        1.0,
        dot,
        &view.status,
        last.as_deref(),
        DIM,
    );
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
    if let Some((color, pieces)) = mobilised(view) {
        mark_mobilised(&mut img, &layout, &view.sides[color.index()], pieces);
    }
    draw_middle(&mut img, &layout, view);
    if let (Some(area), Viewer::Seat(seat)) = (layout.hand, view.viewer)
        && let Some(hand) = &view.sides[seat.index()].hand
    {
        draw_hand(&mut img, area, hand);
    }
    img
}

impl super::Picture for ChessATeteView {
    fn draw(&self) -> RgbImage {
        draw(self)
    }

    fn private_part(&self) -> Option<RgbImage> {
        draw_own_hand(self)
    }
}
