//! Chess-à-Tête pictures: the tiles, the ongoing cards, the hands and a player's own hand.

use super::Rect;
use super::chessatete::{
    CARD_TEXT, HAND_CARD, Layout, OWN_HAND_WIDTH, SLOT_EDGE, SLOT_GROUND, TILE, TypeIcon, WIDTH,
    card_face, card_needs, card_room, draw, draw_own_hand, own_hand_card, side_colours,
    type_colour, type_icon,
};
use super::{count_in, text_width};
use crate::engine::{Game, GameRng, Seat, Viewer};
use crate::games::AnyView;
use crate::games::chess::Color;
use crate::games::chessatete::deck::{CardKind, PieceKind, catalogue};
use crate::games::chessatete::{ChessATete, ChessATeteView};
use image::RgbImage;

/// A game after `plies` random actions (fewer if it ends).
fn game(seed: u64, plies: usize) -> ChessATete {
    let mut rng = GameRng::from_seed(seed);
    let mut chooser = GameRng::from_seed(seed + 100);
    let mut g = ChessATete::new(&Default::default(), 2, &mut rng).unwrap();
    for _ in 0..plies {
        let Some(&seat) = g.to_act().seats().first() else {
            break;
        };
        let legal = g.legal_actions(seat);
        let action = legal[chooser.below(legal.len())].clone();
        g.apply(seat, &action, &mut rng).unwrap();
    }
    g
}

#[test]
fn chessatete_boards_are_grouped_and_ongoing_cards_follow_the_pieces() {
    let group = |name: &String| {
        let card = &catalogue().cards[catalogue().find(name).unwrap()];
        match &card.kind {
            CardKind::Piece { piece, .. } => match piece {
                PieceKind::King | PieceKind::Queen => 0,
                PieceKind::Pawn => 2,
                _ => 1,
            },
            _ => panic!("{name} is not a piece"),
        }
    };
    for seed in 1..20 {
        let view = game(seed, 40).view(Viewer::Spectator);
        for side in &view.sides {
            let ranks: Vec<u8> = side.board.iter().map(group).collect();
            assert!(ranks.is_sorted(), "{:?}", side.board);
        }
    }
    let mut view = game(4, 10).view(Viewer::Spectator);
    let fortress = &catalogue().cards[catalogue().find("Fortress").unwrap()];
    view.sides[0].ongoing = vec![fortress.name.clone()];
    let img = draw(&view);
    let layout = Layout::new(&view);
    let r = layout.tile(Color::White, view.sides[0].board.len());
    assert_eq!(
        img.get_pixel(r.x + r.w / 2, r.y + 4).0,
        type_colour(fortress)
    );
    assert!(
        r.y + r.h <= layout.sides[0].y + layout.sides[0].h,
        "inside White's band"
    );
}

#[test]
fn chessatete_the_attacks_pieces_are_framed() {
    let g = game(4, 10);
    let mut view = g.view(Viewer::Spectator);
    assert!(super::chessatete::mobilised(&view).is_none() || view.outcome.is_some());
    let color = Color::White;
    let board = view.sides[color.index()].board.clone();
    assert!(board.len() >= 2, "{board:?}");
    // An attack with the first piece, by White, who holds the turn.
    view.to_move = color;
    view.attack = Some(crate::games::chessatete::AttackView {
        combat: "Royal Command".into(),
        power: 8,
        pieces: vec![board[0].clone()],
    });
    let img = draw(&view);
    let layout = Layout::new(&view);
    let edge = |i: usize| {
        let r = layout.tile(color, i);
        img.get_pixel(r.x, r.y + r.h / 2).0
    };
    let framed = super::chessatete::MOBILISED;
    assert_eq!(edge(0), framed);
    // Only as many tiles as the attack names, even when another bears the same name.
    assert!((1..board.len()).all(|i| edge(i) != framed));
    // Black's board is untouched.
    let black = layout.tile(Color::Black, 0);
    assert_ne!(img.get_pixel(black.x, black.y + black.h / 2).0, framed);
}

fn centre(img: &RgbImage, r: Rect) -> [u8; 3] {
    img.get_pixel(r.x + 6, r.y + 6).0
}

#[test]
fn chessatete_png_decodes_and_the_hand_shows_only_in_its_owners_picture() {
    let g = game(1, 30);
    let png = crate::render::render(&AnyView::Chessatete(g.view(Viewer::Spectator)));
    let decoded = image::load_from_memory(&png).unwrap();
    assert_eq!(decoded.width(), WIDTH);
    let public = draw(&g.view(Viewer::Spectator));
    let mine = draw(&g.view(Viewer::Seat(Seat(0))));
    assert!(
        mine.height() > public.height() + HAND_CARD.1,
        "the hand is drawn below"
    );
    // The picture depends on the view only: a seat's view with the hands taken away is
    // the public picture.
    let mut stripped: ChessATeteView = g.view(Viewer::Seat(Seat(0)));
    stripped.viewer = Viewer::Spectator;
    for side in &mut stripped.sides {
        side.hand = None;
    }
    assert_eq!(draw(&stripped), public);
}

#[test]
fn chessatete_every_card_reads_whole_at_discords_preview_size() {
    /// The width at which Discord previews a picture in a channel.
    const PREVIEW_WIDTH: u32 = 400;
    // Shrunk to Discord's preview width, the private picture of a hand still draws a
    // card's rules at 10 px or more.
    let preview = CARD_TEXT * PREVIEW_WIDTH as f32 / OWN_HAND_WIDTH as f32;
    assert!(preview >= 10.0, "rules at {preview:.1} px in the preview");
    assert!(
        HAND_CARD.0 * 3 < WIDTH,
        "three cards to a row under the boards"
    );
    for card in &catalogue().cards {
        let (kind, _, lines) = card_face(card);
        assert!(!kind.is_empty(), "{}", card.name);
        assert!(
            lines.len() <= card_room(),
            "{}: {} lines of rules, room for {}",
            card.name,
            lines.len(),
            card_room()
        );
        let widest = lines
            .iter()
            .map(|l| text_width(CARD_TEXT, l))
            .fold(0.0, f32::max);
        assert!(widest <= (HAND_CARD.0 - 14) as f32, "{}", card.name);
    }
}

#[test]
fn chessatete_the_private_picture_is_the_viewers_hand_alone() {
    let g = game(5, 20);
    let seat = Seat(1);
    let view = g.view(Viewer::Seat(seat));
    let hand_len = view.sides[1].hand.as_ref().unwrap().len();
    let img = draw_own_hand(&view).expect("a seat's view holds its hand");
    assert_eq!(img.width(), OWN_HAND_WIDTH);
    let rows = (hand_len as u32).div_ceil(3);
    assert!(
        img.height() >= rows * HAND_CARD.1 && img.height() < (rows + 1) * HAND_CARD.1,
        "{} rows of cards: {} px",
        rows,
        img.height()
    );
    assert!(draw_own_hand(&g.view(Viewer::Spectator)).is_none());
    let png = crate::render::private_picture(&AnyView::Chessatete(view.clone()));
    assert_eq!(png, crate::render::encode_png(&img));
    // Its cards are drawn as under the seat's boards, three to a row.
    let full = draw(&view);
    let layout = Layout::new(&view);
    let crop =
        |img: &RgbImage, r: Rect| image::imageops::crop_imm(img, r.x, r.y, r.w, r.h).to_image();
    for i in 0..hand_len {
        let own = own_hand_card(i);
        assert_eq!(own.x, own_hand_card(i % 3).x, "card {i}: three to a row");
        let under_boards = layout.hand_card(i).unwrap();
        assert!(crop(&img, own) == crop(&full, under_boards), "card {i}");
    }
}

#[test]
fn chessatete_every_hand_card_has_an_icon_on_its_strip() {
    let g = game(5, 0);
    let mut view = g.view(Viewer::Seat(Seat(0)));
    // One card of each type, in catalogue order.
    let mut picked: Vec<&crate::games::chessatete::deck::Card> = Vec::new();
    for card in &catalogue().cards {
        let kind = std::mem::discriminant(&card.kind);
        if !picked
            .iter()
            .any(|c| std::mem::discriminant(&c.kind) == kind)
        {
            picked.push(card);
        }
    }
    assert_eq!(picked.len(), 4, "piece, combat, action and Checkmate cards");
    view.sides[0].hand = Some(picked.iter().map(|c| c.name.clone()).collect());
    let img = draw_own_hand(&view).unwrap();
    for (i, card) in picked.iter().enumerate() {
        let r = own_hand_card(i);
        let corner = Rect {
            x: r.x + 3,
            y: r.y + 3,
            w: 36,
            h: 36,
        };
        let (icon, ink) = match (&card.kind, type_icon(card)) {
            (CardKind::Piece { piece, .. }, TypeIcon::Piece(role)) => {
                assert_eq!(format!("{role:?}").to_lowercase(), piece.name());
                ("piece", super::BLACK_PIECE)
            }
            (CardKind::Checkmate { .. }, TypeIcon::Piece(role)) => {
                assert_eq!(role, crate::games::chess::Role::King);
                ("king", super::BLACK_PIECE)
            }
            (CardKind::Combat { .. } | CardKind::Action { .. }, TypeIcon::Sign(_)) => {
                ("sign", [250, 248, 240])
            }
            (kind, icon) => panic!("{kind:?} shows {icon:?}"),
        };
        assert!(
            count_in(&img, corner, ink) > 25,
            "{}: its {icon} drawn at the strip's left",
            card.name
        );
    }
}

#[test]
fn chessatete_combat_cards_show_their_requirements_as_icons() {
    let g = game(5, 0);
    let mut view = g.view(Viewer::Seat(Seat(0)));
    let combat: Vec<_> = catalogue()
        .cards
        .iter()
        .filter(|c| matches!(c.kind, CardKind::Combat { .. }))
        .collect();
    assert!(combat.len() >= 10, "the classic deck's combat cards");
    view.sides[0].hand = Some(combat.iter().map(|c| c.name.clone()).collect());
    let img = draw_own_hand(&view).unwrap();
    for (i, card) in combat.iter().enumerate() {
        let CardKind::Combat { needs, .. } = &card.kind else {
            unreachable!()
        };
        let r = own_hand_card(i);
        let slots = card_needs(r, card);
        assert_eq!(slots.len(), needs.len(), "{}: a box per slot", card.name);
        for (n, slot) in slots.iter().enumerate() {
            let s = slot.rect;
            assert!(
                s.x >= r.x && s.x + s.w <= r.x + r.w && s.y + s.h < r.y + r.h,
                "{}: slot {n} inside the card",
                card.name
            );
            for other in &slots[..n] {
                let o = other.rect;
                let apart = s.x >= o.x + o.w || o.x >= s.x + s.w || s.y >= o.y + o.h;
                assert!(apart, "{}: slots {n} and an earlier one overlap", card.name);
            }
            // Framed, and holding a piece per alternative (the icons' dark outlines).
            assert_eq!(img.get_pixel(s.x, s.y).0, SLOT_EDGE, "{}", card.name);
            assert_eq!(
                img.get_pixel(s.x + 3, s.y + 2).0,
                SLOT_GROUND,
                "{}",
                card.name
            );
            assert_eq!(slot.cells.len(), needs[n].len());
            let mut x = s.x + 3;
            for &(w, _) in &slot.cells {
                let cell = Rect {
                    x,
                    y: s.y,
                    w,
                    h: s.h,
                };
                let ink = super::ink(Color::White).edge;
                assert!(
                    count_in(&img, cell, ink) > 40,
                    "{}: an icon in slot {n}",
                    card.name
                );
                x += w;
            }
        }
    }
    // Only combat cards carry requirements.
    let piece = catalogue()
        .cards
        .iter()
        .find(|c| !matches!(c.kind, CardKind::Combat { .. }));
    assert!(card_needs(own_hand_card(0), piece.unwrap()).is_empty());
}

#[test]
fn chessatete_sides_and_card_types_differ() {
    let g = game(2, 0);
    let view = g.view(Viewer::Seat(Seat(0)));
    let img = draw(&view);
    let layout = Layout::new(&view);
    let white = centre(&img, layout.tile(Color::White, 0));
    let black = centre(&img, layout.tile(Color::Black, 0));
    assert_eq!(white, side_colours(Color::White).0);
    assert_eq!(black, side_colours(Color::Black).0);
    assert_eq!(TILE.0, layout.tile(Color::White, 0).w);
    // Each hand card's top strip has its type's colour.
    let hand = view.sides[0].hand.clone().unwrap();
    let mut colours = std::collections::BTreeSet::new();
    for (i, name) in hand.iter().enumerate() {
        let card = &catalogue().cards[catalogue().find(name).unwrap()];
        let strip = centre(&img, layout.hand_card(i).unwrap());
        assert_eq!(strip, type_colour(card), "{name}");
        colours.insert(strip);
    }
    assert!(colours.len() >= 2, "a deal mixes card types: {hand:?}");
}

#[test]
fn chessatete_an_attack_under_way_is_drawn() {
    // Play until an attack waits for an answer.
    let (mut rng, mut chooser) = (GameRng::from_seed(3), GameRng::from_seed(4));
    let mut g = ChessATete::new(&Default::default(), 2, &mut rng).unwrap();
    for _ in 0..2000 {
        if g.view(Viewer::Spectator).attack.is_some() {
            break;
        }
        let Some(&seat) = g.to_act().seats().first() else {
            g = ChessATete::new(&Default::default(), 2, &mut rng).unwrap();
            continue;
        };
        let legal = g.legal_actions(seat);
        let pick = legal
            .iter()
            .find(|a| matches!(a, crate::games::chessatete::Action::Attack { .. }))
            .cloned()
            .unwrap_or_else(|| legal[chooser.below(legal.len())].clone());
        g.apply(seat, &pick, &mut rng).unwrap();
    }
    let view = g.view(Viewer::Spectator);
    assert!(view.attack.is_some(), "an attack is waiting");
    let mut calm = view.clone();
    calm.attack = None;
    let layout = Layout::new(&view);
    let (a, b) = (draw(&view), draw(&calm));
    assert_ne!(centre(&a, layout.middle), centre(&b, layout.middle));
}

/// A game played to its end by an attack through to the King: attacks and taking them
/// whenever possible, any legal action otherwise.
fn won_by_an_attack() -> ChessATete {
    for seed in 0..200 {
        let (mut rng, mut chooser) = (GameRng::from_seed(seed), GameRng::from_seed(seed + 7));
        let mut g = ChessATete::new(&Default::default(), 2, &mut rng).unwrap();
        while let Some(&seat) = g.to_act().seats().first() {
            let legal = g.legal_actions(seat);
            let pick = legal
                .iter()
                .find(|a| {
                    matches!(
                        a,
                        crate::games::chessatete::Action::Attack { .. }
                            | crate::games::chessatete::Action::Take
                    )
                })
                .cloned()
                .unwrap_or_else(|| legal[chooser.below(legal.len())].clone());
            g.apply(seat, &pick, &mut rng).unwrap();
        }
        if g.to_act().outcome().unwrap().reason == "defeating the king" {
            return g;
        }
    }
    panic!("no game below seed 200 ended by defeating the King");
}

#[test]
fn chessatete_the_final_picture_shows_the_winning_attack() {
    let g = won_by_an_attack();
    let view = g.view(Viewer::Spectator);
    let decisive = view.decisive.clone().expect("the winning attack is kept");
    assert!(decisive.power.is_some() && !decisive.pieces.is_empty());
    assert!(decisive.result.contains("won by defeating"), "{decisive:?}");
    let img = draw(&view);
    let layout = Layout::new(&view);
    // The band between the boards is washed and taller, to hold the attack and the result.
    let mut plain = view.clone();
    plain.decisive = None;
    let plain_layout = Layout::new(&plain);
    assert!(layout.middle.h > plain_layout.middle.h);
    assert_eq!(
        img.height(),
        draw(&plain).height() + layout.middle.h - plain_layout.middle.h
    );
    let m = layout.middle;
    assert_ne!(centre(&img, m), super::FRAME, "washed");
    let inked = |img: &RgbImage, r: Rect| {
        let band = image::imageops::crop_imm(img, r.x, r.y, r.w, r.h).to_image();
        let base = band.get_pixel(2, 2).0;
        band.pixels().filter(|p| p.0 != base).count()
    };
    assert!(inked(&img, m) > 2000, "two lines of text are drawn");
    // Still no hand in the picture everyone sees: a player's final view without its hand
    // is the public picture.
    let mut stripped = g.view(Viewer::Seat(Seat(1)));
    stripped.viewer = Viewer::Spectator;
    for side in &mut stripped.sides {
        side.hand = None;
    }
    assert_eq!(draw(&stripped), img);
}

#[test]
fn chessatete_fortress_raises_the_pawns_hit_points_on_their_tiles() {
    let cat = catalogue();
    let is_pawn = |name: &str| {
        matches!(
            cat.cards[cat.find(name).unwrap()].kind,
            CardKind::Piece {
                piece: PieceKind::Pawn,
                ..
            }
        )
    };
    let view = (1..100)
        .map(|seed| game(seed, 40).view(Viewer::Spectator))
        .find(|v| v.sides[0].board.iter().any(|n| is_pawn(n)))
        .expect("White has a pawn on the board in some game");
    let mut fortified = view.clone();
    fortified.sides[0].pawn_bonus = 1;
    let (plain, raised) = (draw(&view), draw(&fortified));
    let layout = Layout::new(&view);
    let tile =
        |img: &RgbImage, r: Rect| image::imageops::crop_imm(img, r.x, r.y, r.w, r.h).to_image();
    for (i, name) in view.sides[0].board.iter().enumerate() {
        let r = layout.tile(Color::White, i);
        assert_eq!(
            tile(&plain, r) != tile(&raised, r),
            is_pawn(name),
            "only pawn tiles change: {name}"
        );
    }
}

#[test]
#[ignore = "writes /tmp/cat-sample-*.png"]
fn chessatete_sample_pictures() {
    let g = game(7, 60);
    draw(&g.view(Viewer::Spectator))
        .save("/tmp/cat-sample-public.png")
        .unwrap();
    let mut fortified = g.view(Viewer::Spectator);
    fortified.sides[0].pawn_bonus = 1;
    draw(&fortified)
        .save("/tmp/cat-sample-fortress.png")
        .unwrap();
    let seat = g.to_act().seats().first().copied().unwrap_or(Seat(0));
    draw(&g.view(Viewer::Seat(seat)))
        .save("/tmp/cat-sample-hand.png")
        .unwrap();
    draw_own_hand(&g.view(Viewer::Seat(seat)))
        .unwrap()
        .save("/tmp/cat-sample-own-hand.png")
        .unwrap();
    draw(&won_by_an_attack().view(Viewer::Spectator))
        .save("/tmp/cat-sample-won.png")
        .unwrap();
}
