//! Snipe pictures: the forest, the kings' badges, the stock and the setting up.

use super::Rect;
use super::snipe::{
    BACKGROUND, BORDER, CARD, CARD_EDGE, FEATHER, FEATHER_FAINT, FLAG, GAP, GRASS, HOME, LAST_CARD,
    LAST_FRAME, LAST_FRAME_W, LINE, Layout, OPEN, SPACE, SPACE_LINE, TREE, TURN_90, TURN_90_INK,
    TURN_180, TURN_180_INK, WIN, draw, ground, stock_lines,
};
use super::*;
use crate::board::Sq;
use crate::engine::Outcome;
use crate::games::chess::{Role, seat_of};
use crate::games::snipe::deck::Space;
use crate::games::snipe::ending::{BOTH_KINGS, OWN_KING};
use crate::games::snipe::{CardAt, Phase, SnipeView};
use crate::games::{AnyGame, GameKind};

const AUTO: &[(&str, &str)] = &[("auto", "true")];

fn start(options: &[(&str, &str)], rng: &mut GameRng) -> AnyGame {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    GameKind::Snipe.start(&options, 2, rng).unwrap()
}

fn seen(game: &AnyGame) -> SnipeView {
    match game.view(Viewer::Spectator) {
        AnyView::Snipe(v) => v,
        other => panic!("not a Snipe view: {other:?}"),
    }
}

/// A game played at random until `done` holds, trying seeds in turn (a game may end
/// first).
fn play_until(options: &[(&str, &str)], done: impl Fn(&SnipeView) -> bool) -> SnipeView {
    for seed in 0..300 {
        let mut rng = GameRng::from_seed(seed);
        let mut game = start(options, &mut rng);
        for _ in 0..600 {
            let view = seen(&game);
            if done(&view) {
                return view;
            }
            let Some(&seat) = game.to_act().seats().first() else {
                break;
            };
            let action = game.random_action(seat, &mut rng).unwrap();
            game.play(seat, &action, &mut rng).unwrap();
        }
    }
    panic!("no random game reached the wanted position");
}

/// A pixel near a space's top-left corner: clear of pieces, marks and badges.
fn corner_of(img: &RgbImage, r: Rect) -> [u8; 3] {
    img.get_pixel(r.x + 2, r.y + 2).0
}

fn all_squares() -> impl Iterator<Item = Sq> {
    (0..10).flat_map(|y| (0..10).map(move |x| Sq::new(x, y)))
}

fn space(view: &SnipeView, sq: Sq) -> Space {
    view.spaces[sq.y as usize][sq.x as usize]
}

/// A space of `kind` with no piece and no mark of the last turn.
fn bare(view: &SnipeView, kind: Space) -> Option<Sq> {
    all_squares().find(|&s| {
        space(view, s) == kind
            && view.pieces.iter().all(|&(p, _)| p != s)
            && !view.last.as_ref().is_some_and(|l| l.squares.contains(&s))
    })
}

fn brightness(c: [u8; 3]) -> u32 {
    c.iter().map(|&v| u32::from(v)).sum()
}

#[test]
fn snipe_png_decodes_at_discord_size() {
    let mut rng = GameRng::from_seed(1);
    let view = seen(&start(AUTO, &mut rng));
    assert_eq!(view.phase, Phase::Move);
    let layout = Layout::new(&view);
    let png = render(&AnyView::Snipe(view.clone()));
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let img = image::load_from_memory(&png).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (layout.width, layout.height));
    assert!((720..=900).contains(&img.width()), "{layout:?}");
    assert!(img.height() <= 950, "{layout:?}");
    assert!(layout.setup.is_none() && layout.stock.is_none());
    // a1 at the bottom left, j10 at the top right, the forest inside the picture.
    let (a1, j10) = (layout.square(Sq::new(0, 0)), layout.square(Sq::new(9, 9)));
    assert_eq!(a1.x, layout.board.x + GAP / 2 + BORDER);
    assert_eq!(
        a1.y + a1.h + BORDER + GAP / 2,
        layout.board.y + layout.board.h
    );
    assert_eq!(j10.y, layout.board.y + GAP / 2 + BORDER);
    assert!(j10.x + j10.w < img.width() && a1.y + a1.h < img.height());
    // Spaces of one card are parted by the thin line, cards by two frames and a gap.
    let (b1, c1, a2) = (
        layout.square(Sq::new(1, 0)),
        layout.square(Sq::new(2, 0)),
        layout.square(Sq::new(0, 1)),
    );
    assert_eq!(b1.x - (a1.x + a1.w), LINE);
    assert_eq!(a1.y - (a2.y + a2.h), LINE);
    assert_eq!(c1.x - (b1.x + b1.w), 2 * BORDER + GAP);
    for at in CardAt::all() {
        let card = layout.card(at);
        assert_eq!((card.w, card.h), (CARD, CARD));
        for s in at.squares() {
            let r = layout.square(s);
            assert!(r.x >= card.x + BORDER && r.x + r.w + BORDER <= card.x + card.w);
            assert!(r.y >= card.y + BORDER && r.y + r.h + BORDER <= card.y + card.h);
        }
    }
    // A file letter above and below every column, a rank number beside every row.
    let b = layout.board;
    for i in 0..10 {
        let col = layout.square(Sq::new(i, 0));
        for y in [b.y - 22, b.y + b.h + 2] {
            let band = Rect {
                x: col.x,
                y,
                w: col.w,
                h: 20,
            };
            assert!(count_in(&img, band, BACKGROUND) < (band.w * band.h) as usize);
        }
        let row = layout.square(Sq::new(0, i));
        for x in [b.x - 30, b.x + b.w + 2] {
            let band = Rect {
                x,
                y: row.y,
                w: 28,
                h: row.h,
            };
            assert!(count_in(&img, band, BACKGROUND) < (band.w * band.h) as usize);
        }
    }
}

/// A forest with every kind of space free to look at.
fn varied(options: &[(&str, &str)]) -> SnipeView {
    play_until(options, |v| {
        [
            Space::Open,
            Space::Tree,
            Space::Rotate90,
            Space::Rotate180,
            Space::Flag,
            Space::Feather,
        ]
        .into_iter()
        .all(|k| bare(v, k).is_some())
    })
}

#[test]
fn snipe_trees_open_and_rotation_spaces_differ() {
    let view = varied(AUTO);
    let img = draw(&view);
    let layout = Layout::new(&view);
    let at = |k| layout.square(bare(&view, k).unwrap());
    let (open, tree, r90, r180) = (
        at(Space::Open),
        at(Space::Tree),
        at(Space::Rotate90),
        at(Space::Rotate180),
    );
    assert_eq!(corner_of(&img, open), OPEN);
    assert_eq!(corner_of(&img, tree), GRASS);
    assert_eq!(corner_of(&img, r90), TURN_90);
    assert_eq!(corner_of(&img, r180), TURN_180);
    let grounds = [OPEN, GRASS, TURN_90, TURN_180];
    for (i, a) in grounds.iter().enumerate() {
        for b in &grounds[i + 1..] {
            assert_ne!(a, b);
        }
    }
    // An open space is bare; a tree space holds a large dark tree.
    let area = (SPACE * SPACE) as usize;
    assert_eq!(count_in(&img, open, OPEN), area);
    let trees = count_in(&img, tree, TREE);
    assert!(trees > area / 5, "{trees} tree pixels");
    assert_eq!(count_in(&img, open, TREE), 0);
    // Each rotation space has its arrow and angle in its own ink, not the other's.
    let inks = |r| {
        (
            count_in(&img, r, TURN_90_INK),
            count_in(&img, r, TURN_180_INK),
        )
    };
    let (a, b) = inks(r90);
    assert!(a > 150 && b == 0, "90: {a} {b}");
    let (a, b) = inks(r180);
    assert!(b > 150 && a == 0, "180: {a} {b}");
}

#[test]
fn snipe_card_frames_are_darker_and_thicker_than_space_lines() {
    let mut rng = GameRng::from_seed(2);
    let view = seen(&start(AUTO, &mut rng));
    assert!(view.last.is_none());
    let img = draw(&view);
    let layout = Layout::new(&view);
    assert!(brightness(CARD_EDGE) + 150 < brightness(SPACE_LINE));
    // How many pixels of `color` run rightwards from (x, y).
    let run = |x: u32, y: u32, color: [u8; 3]| {
        (x..img.width())
            .take_while(|&x| img.get_pixel(x, y).0 == color)
            .count()
    };
    for at in CardAt::all() {
        let card = layout.card(at);
        let mid = card.y + BORDER + SPACE / 2;
        let (frame, line) = (
            run(card.x, mid, CARD_EDGE),
            run(card.x + BORDER + SPACE, mid, SPACE_LINE),
        );
        assert!(frame >= 2 * line && line >= 1, "frame {frame}, line {line}");
        let gap = run(card.x + card.w, mid, BACKGROUND);
        assert!(gap >= (GAP / 2) as usize, "gap {gap}");
        // Frame, then the space, the line between spaces, the other space, the frame.
        for dx in 0..BORDER {
            assert_eq!(img.get_pixel(card.x + dx, mid).0, CARD_EDGE);
            assert_eq!(img.get_pixel(card.x + card.w - 1 - dx, mid).0, CARD_EDGE);
        }
        for dx in 0..LINE {
            let x = card.x + BORDER + SPACE + dx;
            assert_eq!(img.get_pixel(x, card.y + 1).0, CARD_EDGE);
            assert_eq!(img.get_pixel(x, mid).0, SPACE_LINE);
        }
        let corner = at.corner();
        if !view.kings.iter().any(|k| k.at == corner && k.free <= 1) {
            let r = layout.square(corner);
            assert_eq!(
                img.get_pixel(r.x + 1, r.y + 1).0,
                ground(space(&view, corner))
            );
        }
        // The gap between cards.
        assert_eq!(img.get_pixel(card.x - 1, mid).0, BACKGROUND);
        assert_eq!(img.get_pixel(card.x - GAP / 2, mid).0, BACKGROUND);
    }
}

#[test]
fn snipe_flags_and_feathers_are_marked() {
    let on = varied(&[("auto", "true"), ("feather", "true")]);
    assert!(on.options.feather);
    let mut off = on.clone();
    off.options.feather = false;
    let (on_img, off_img) = (draw(&on), draw(&off));
    let layout = Layout::new(&on);
    let flag = layout.square(bare(&on, Space::Flag).unwrap());
    let flags = count_in(&on_img, flag, FLAG);
    assert!(flags > 60, "{flags} flag pixels");
    assert_eq!(corner_of(&on_img, flag), OPEN, "a flag plays as open");
    let feather = layout.square(bare(&on, Space::Feather).unwrap());
    assert_eq!(
        Layout::new(&off).square(bare(&on, Space::Feather).unwrap()),
        feather
    );
    let bright = count_in(&on_img, feather, FEATHER);
    assert!(bright > 120, "{bright} bright feather pixels");
    assert_eq!(count_in(&off_img, feather, FEATHER), 0);
    let faint = count_in(&off_img, feather, FEATHER_FAINT);
    assert!(
        faint > 20 && faint < bright / 2,
        "faint {faint}, bright {bright}"
    );
    let open = (SPACE * SPACE) as usize;
    let marked = |img: &RgbImage| open - count_in(img, feather, OPEN);
    assert!(
        marked(&on_img) > 2 * marked(&off_img),
        "more visible with the rule on"
    );
}

#[test]
fn snipe_white_and_black_pieces_differ() {
    let mut rng = GameRng::from_seed(3);
    let view = seen(&start(AUTO, &mut rng));
    let img = draw(&view);
    let layout = Layout::new(&view);
    let find = |color, role| {
        let &(sq, _) = view
            .pieces
            .iter()
            .find(|(s, p)| {
                p.color == color
                    && p.role == role
                    && !matches!(space(&view, *s), Space::Rotate90 | Space::Rotate180)
            })
            .unwrap();
        layout.square(sq)
    };
    for role in [Role::Pawn, Role::King] {
        let (w, b) = (find(Color::White, role), find(Color::Black, role));
        let whites = (
            count_in(&img, w, WHITE_PIECE),
            count_in(&img, b, WHITE_PIECE),
        );
        let blacks = (
            count_in(&img, w, BLACK_PIECE),
            count_in(&img, b, BLACK_PIECE),
        );
        // White's pieces are white with black lines; Black's solid black with grey lines
        // (only a king's badge has a white rim).
        assert!(
            whites.0 > 250 && whites.1 < whites.0 / 3,
            "{role:?} {whites:?}"
        );
        assert!(blacks.1 > 300, "{role:?} {blacks:?}");
        // The mean brightness of the piece's ink: the pixels off the space's ground.
        let img = &img;
        let mean = |r: Rect| {
            let ground = corner_of(img, r);
            let ink: Vec<u32> = (r.y..r.y + r.h)
                .flat_map(|y| (r.x..r.x + r.w).map(move |x| img.get_pixel(x, y).0))
                .filter(|&p| p != ground)
                .map(brightness)
                .collect();
            ink.iter().sum::<u32>() / ink.len() as u32
        };
        let (mw, mb) = (mean(w), mean(b));
        assert!(mw > mb + 150, "{role:?}: ink brightness {mw} and {mb}");
    }
}

#[test]
fn snipe_the_forest_keeps_its_place_whether_the_last_move_takes_one_line_or_two() {
    let short = play_until(AUTO, |v| v.last.is_some());
    let mut long = short.clone();
    long.last.as_mut().unwrap().text =
        "White moves the pawn from h5 to h3, turning it towards Black's king on a 180 space"
            .repeat(2);
    let board = Layout::new(&short).board;
    assert_eq!(Layout::new(&long).board, board);
    assert_eq!(draw(&long).dimensions(), draw(&short).dimensions());
}

#[test]
fn snipe_last_move_is_highlighted() {
    let view = play_until(AUTO, |v| {
        v.last.as_ref().is_some_and(|l| {
            l.squares.len() == 2
                && l.cards.is_empty()
                && l.squares
                    .iter()
                    .all(|s| !v.kings.iter().any(|k| k.at == *s && k.free <= 1))
        })
    });
    let mut plain = view.clone();
    plain.last = None;
    let (img, plain_img) = (draw(&view), draw(&plain));
    let layout = Layout::new(&view);
    let moved = &view.last.as_ref().unwrap().squares;
    for &sq in moved {
        let r = layout.square(sq);
        let (p, q) = (corner_of(&img, r), corner_of(&plain_img, r));
        assert_eq!(q, ground(space(&view, sq)));
        assert_eq!(p, LAST_FRAME, "{sq} framed");
        // Inside the frame, clear of the piece: the ground washed with the last move's
        // colour.
        let inner = |img: &RgbImage| {
            img.get_pixel(r.x + LAST_FRAME_W + 1, r.y + LAST_FRAME_W + 1)
                .0
        };
        assert_eq!(inner(&plain_img), q);
        let mut expected = Rgb(q);
        blend(&mut expected, LAST_MOVE, 150);
        assert_eq!(
            inner(&img),
            expected.0,
            "{sq} washed with the last move's colour"
        );
    }
    let other = all_squares().find(|s| !moved.contains(s)).unwrap();
    let r = layout.square(other);
    assert_eq!(corner_of(&img, r), corner_of(&plain_img, r));
}

#[test]
fn snipe_turned_cards_are_framed() {
    let view = play_until(AUTO, |v| {
        v.last.as_ref().is_some_and(|l| !l.cards.is_empty())
    });
    let mut plain = view.clone();
    plain.last = None;
    let (img, plain_img) = (draw(&view), draw(&plain));
    let layout = Layout::new(&view);
    let turned = &view.last.as_ref().unwrap().cards;
    for &at in turned {
        let card = layout.card(at);
        let (x, y) = (card.x + card.w / 2, card.y - 2);
        assert_eq!(img.get_pixel(x, y).0, LAST_CARD);
        assert_eq!(plain_img.get_pixel(x, y).0, BACKGROUND);
        assert_eq!(img.get_pixel(card.x - 2, card.y + card.h / 2).0, LAST_CARD);
    }
    let other = CardAt::all()
        .find(|c| {
            !turned
                .iter()
                .any(|t| (t.cx - c.cx).abs() <= 1 && (t.cy - c.cy).abs() <= 1)
        })
        .unwrap();
    let card = layout.card(other);
    assert_eq!(img.get_pixel(card.x + card.w / 2, card.y - 2).0, BACKGROUND);
}

/// The pixel in a king's badge, left of its number.
fn badge(img: &RgbImage, r: Rect) -> [u8; 3] {
    let (cx, cy) = super::snipe::BADGE.centre(r);
    img.get_pixel(cx - super::snipe::BADGE.r + 4, cy).0
}

#[test]
fn snipe_kings_short_of_room_are_marked_red() {
    let view = play_until(AUTO, |v| {
        v.outcome.is_none() && v.kings.iter().any(|k| k.free == 1)
    });
    let img = draw(&view);
    let layout = Layout::new(&view);
    for king in &view.kings {
        let r = layout.square(king.at);
        let frame = img.get_pixel(r.x + 1, r.y + r.h / 2).0;
        if king.free <= 1 {
            assert_eq!(frame, CHECK, "a red frame on {}", king.at);
            assert_eq!(badge(&img, r), CHECK, "a red badge on {}", king.at);
            let p = img.get_pixel(r.x + 5, r.y + 5).0;
            assert!(p[0] > p[1] + 50, "tinted red: {p:?}");
        } else {
            assert_ne!(frame, CHECK);
            assert_eq!(badge(&img, r), FRAME, "a dark badge on {}", king.at);
        }
    }
}

#[test]
fn snipe_a_trapped_king_is_deep_red() {
    let view = play_until(AUTO, |v| v.kings.iter().any(|k| k.free == 0));
    let loser = view.outcome.as_ref().unwrap().places[1][0];
    let img = draw(&view);
    let layout = Layout::new(&view);
    let king = view
        .kings
        .iter()
        .find(|k| seat_of(k.color) == loser)
        .unwrap();
    let r = layout.square(king.at);
    assert_eq!(img.get_pixel(r.x + 1, r.y + r.h / 2).0, CHECK);
    assert_eq!(badge(&img, r), CHECK);
    let p = img.get_pixel(r.x + 5, r.y + 5).0;
    assert!(p[0] > 180 && p[0] > p[1] + 110, "deep red: {p:?}");
}

#[test]
fn snipe_the_final_picture_marks_the_winner_green_and_the_loser_red() {
    let played = play_until(AUTO, |v| v.turns >= 6);
    // Both kings closed in: the mover won (both at once), or the other player did (the
    // mover closed in their own king while the other's was already shut).
    for (winner, reason) in [(Seat(0), BOTH_KINGS), (Seat(1), OWN_KING)] {
        let mut view = played.clone();
        for king in &mut view.kings {
            king.free = 0;
        }
        view.outcome = Some(Outcome::winner(winner, 2, reason));
        let img = draw(&view);
        let layout = Layout::new(&view);
        for king in &view.kings {
            let r = layout.square(king.at);
            let frame = img.get_pixel(r.x + 1, r.y + r.h / 2).0;
            let p = img.get_pixel(r.x + 5, r.y + 5).0;
            if seat_of(king.color) == winner {
                assert_eq!((frame, badge(&img, r)), (WIN, WIN), "{winner:?} {reason}");
                assert!(p[1] > p[0] + 40, "tinted green: {p:?}");
            } else {
                assert_eq!((frame, badge(&img, r)), (CHECK, CHECK));
                assert!(p[0] > 180 && p[0] > p[1] + 110, "deep red: {p:?}");
            }
        }
        let body = if winner == Seat(0) {
            WHITE_PIECE
        } else {
            BLACK_PIECE
        };
        assert_eq!(img.get_pixel(25, 20).0, body, "the winner's dot");
        assert_eq!(img.get_pixel(33, 20).0, WIN, "rimmed green");
    }
    let mut drawn = played.clone();
    drawn.outcome = Some(Outcome::draw(2, "threefold repetition"));
    let img = draw(&drawn);
    assert_eq!(img.get_pixel(25, 20).0, BACKGROUND, "no dot after a draw");
    let whole = Rect {
        x: 0,
        y: 0,
        w: img.width(),
        h: img.height(),
    };
    assert_eq!(count_in(&img, whole, WIN), 0, "no winner's marks");
}

#[test]
fn snipe_setup_shows_the_home_row_and_the_pieces_to_place() {
    let mut rng = GameRng::from_seed(4);
    let mut game = start(&[], &mut rng);
    let view = seen(&game);
    assert_eq!(
        (view.phase.clone(), view.to_move),
        (Phase::Setup, Color::White)
    );
    let layout = Layout::new(&view);
    assert!(layout.setup.is_some());
    let img = draw(&view);
    let open_in = |v: &SnipeView, cy: i16| {
        all_squares()
            .find(|&s| CardAt::of(s).cy == cy && space(v, s) == Space::Open)
            .unwrap()
    };
    let tinted = {
        let mut p = Rgb(OPEN);
        blend(&mut p, HOME, 70);
        p.0
    };
    let below = |img: &RgbImage, cy: i16| {
        let card = layout.card(CardAt { cx: 2, cy });
        img.get_pixel(card.x + 10, card.y + card.h + 2).0
    };
    assert_eq!(corner_of(&img, layout.square(open_in(&view, 0))), tinted);
    assert_eq!(corner_of(&img, layout.square(open_in(&view, 4))), OPEN);
    assert_eq!(below(&img, 0), HOME, "White's home row framed");
    assert_eq!(below(&img, 4), BACKGROUND);
    // Both sides still have a king and four pawns to place, in their colours.
    for color in [Color::White, Color::Black] {
        assert_eq!(view.to_place[color.index()].len(), 5);
        for i in 0..5 {
            let tile = layout.place_tile(color, i).unwrap();
            assert_eq!(img.get_pixel(tile.x + 1, tile.y + 1).0, OPEN);
            let ink = match color {
                Color::White => count_in(&img, tile, WHITE_PIECE),
                Color::Black => count_in(&img, tile, BLACK_PIECE),
            };
            assert!(ink > 80, "{color:?} tile {i}: {ink}");
        }
        let sixth = layout.place_tile(color, 5).unwrap();
        assert_eq!(count_in(&img, sixth, OPEN), 0);
    }
    // White places a piece: Black's row is now the one marked, White has four to place.
    let action = game.random_action(Seat(0), &mut rng).unwrap();
    game.play(Seat(0), &action, &mut rng).unwrap();
    let next = seen(&game);
    assert_eq!(next.to_move, Color::Black);
    let img = draw(&next);
    assert_eq!(corner_of(&img, layout.square(open_in(&next, 4))), tinted);
    assert_eq!(below(&img, 4), HOME, "Black's home row framed");
    assert_eq!(below(&img, 0), BACKGROUND);
    let gone = layout.place_tile(Color::White, 4).unwrap();
    assert_eq!(count_in(&img, gone, OPEN), 0, "one tile fewer");
    let last = next.last.as_ref().unwrap().squares[0];
    assert_ne!(
        corner_of(&img, layout.square(last)),
        tinted,
        "the placed piece's square"
    );
    // After the setup the panel goes and the picture is shorter.
    let after = Layout::new(&seen(&start(AUTO, &mut rng)));
    assert!(after.setup.is_none() && after.height < layout.height);
}

#[test]
fn snipe_feather_rule_lists_the_unused_cards() {
    let mut rng = GameRng::from_seed(5);
    let view = seen(&start(&[("auto", "true"), ("feather", "true")], &mut rng));
    assert_eq!(view.stock.len(), 8);
    let layout = Layout::new(&view);
    let panel = layout.stock.unwrap();
    let img = draw(&view);
    let lit = count_in(&img, panel, LABEL);
    assert!(lit > 200, "{lit} pixels of text");
    let mut plain = view.clone();
    plain.options.feather = false;
    assert!(Layout::new(&plain).stock.is_none());
    // Long lists wrap onto two lines and count what does not fit.
    let names: Vec<String> = (0..20).map(|i| format!("Card {i:02}")).collect();
    for (stock, room) in [
        (&view.stock[..], 700.0),
        (&names[..], 700.0),
        (&names[..3], 700.0),
    ] {
        let lines = stock_lines(stock, 15.0, room);
        assert!(lines.len() <= 2, "{lines:?}");
        assert!(lines[0].starts_with(&format!("Unused cards ({}):", stock.len())));
        for line in &lines {
            assert!(text_width(15.0, line) <= room, "{line}");
        }
        let all = lines.join(" ");
        let shown = stock.iter().filter(|n| all.contains(n.as_str())).count();
        let more: usize = all
            .rsplit_once(", +")
            .map_or(0, |(_, m)| m.trim_end_matches(" more").parse().unwrap());
        assert_eq!(shown + more, stock.len(), "{lines:?}");
    }
    assert_eq!(stock_lines(&[], 15.0, 700.0), ["Unused cards: none"]);
}

#[test]
#[ignore = "writes /tmp/snipe-sample.png and friends, and prints the render time"]
fn snipe_sample_picture() {
    let view = play_until(&[("auto", "true"), ("feather", "true")], |v| {
        v.turns >= 12 && v.last.as_ref().is_some_and(|l| !l.cards.is_empty())
    });
    let any = AnyView::Snipe(view.clone());
    let png = render(&any);
    let t = std::time::Instant::now();
    for _ in 0..20 {
        render(&any);
    }
    println!("render (draw + encode): {:?} each", t.elapsed() / 20);
    std::fs::write("/tmp/snipe-sample.png", png).unwrap();
    let write = |name: &str, v: &SnipeView| {
        let png = render(&AnyView::Snipe(v.clone()));
        std::fs::write(format!("/tmp/snipe-{name}.png"), png).unwrap();
    };
    let mut rng = GameRng::from_seed(4);
    let mut game = start(&[], &mut rng);
    for _ in 0..3 {
        let seat = game.to_act().seats()[0];
        let action = game.random_action(seat, &mut rng).unwrap();
        game.play(seat, &action, &mut rng).unwrap();
    }
    write("setup", &seen(&game));
    write(
        "trapped",
        &play_until(AUTO, |v| v.kings.iter().any(|k| k.free == 0)),
    );
    write("varied", &varied(&[("auto", "true"), ("feather", "true")]));
    write("plain", &varied(AUTO));
}
