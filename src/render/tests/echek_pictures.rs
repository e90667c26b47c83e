//! Echek pictures: the board, the kings' badges, the player rows and the final marks.

use super::Rect;
use super::echek::{
    BACKGROUND, CELL, IN_PLAY, Layout, SHIFT, WIN, WIN_BAND, base_colour, draw, player_state,
};
use super::*;
use crate::board::Sq;
use crate::engine::Outcome;
use crate::games::chess::seat_of;
use crate::games::echek::EchekView;
use crate::games::echek::ending::{BOTH_KINGS, OWN_KING};
use crate::games::{AnyGame, GameKind};

/// The pixel in a king's badge, left of its number.
fn badge_pixel(img: &RgbImage, r: Rect) -> [u8; 3] {
    let (cx, cy) = super::echek::BADGE.centre(r);
    img.get_pixel(cx - super::echek::BADGE.r + 4, cy).0
}

fn start(rng: &mut GameRng) -> AnyGame {
    GameKind::Echek.start(&[], 2, rng).unwrap()
}

fn seen(game: &AnyGame) -> EchekView {
    match game.view(Viewer::Spectator) {
        AnyView::Echek(v) => v,
        other => panic!("not an Echek view: {other:?}"),
    }
}

/// A game played at random until `done` holds, trying seeds in turn (a game may end first).
fn play_until(done: impl Fn(&EchekView) -> bool) -> AnyGame {
    for seed in 0..200 {
        let mut rng = GameRng::from_seed(seed);
        let mut game = start(&mut rng);
        for _ in 0..400 {
            if done(&seen(&game)) {
                return game;
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

/// A pixel near a cell's lower-left corner: clear of the piece, the king's badge and the
/// frame around the pieces' box.
fn corner_of(img: &RgbImage, r: Rect) -> [u8; 3] {
    img.get_pixel(r.x + 9, r.y + r.h - 9).0
}

fn marked(view: &EchekView, sq: Sq) -> bool {
    view.last.as_ref().is_some_and(|l| l.squares.contains(&sq))
        || view.kings.iter().any(|k| k.at == sq && k.free <= 2)
}

#[test]
fn echek_png_decodes_at_discord_size() {
    let mut rng = GameRng::from_seed(1);
    let mut game = start(&mut rng);
    game.play(Seat(0), "N@1,0", &mut rng).unwrap();
    let view = seen(&game);
    let layout = Layout::new(&view);
    let png = render(&AnyView::Echek(view.clone()));
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let img = image::load_from_memory(&png).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (layout.width, layout.height));
    assert!((600..=800).contains(&img.width()), "{layout:?}");
    assert!(img.height() <= 900, "{layout:?}");
    // The area (7 x 6 after White's first piece) with its coordinates around it.
    assert_eq!((view.area.0, view.area.1), (Sq::new(-2, -2), Sq::new(3, 3)));
    assert_eq!((layout.cols, layout.rows), (6, 6));
    let top_left = layout.cell(Sq::new(-2, 3)).unwrap();
    assert_eq!((top_left.x, top_left.y), layout.origin);
    let below = layout.cell(Sq::new(-2, 2)).unwrap();
    assert_eq!(below.y, top_left.y + CELL, "y grows upwards");
    assert!(layout.cell(Sq::new(-3, 0)).is_none());
    assert!(layout.cell(Sq::new(0, 4)).is_none());
    let band = Rect {
        x: top_left.x,
        y: top_left.y - 24,
        w: CELL,
        h: 22,
    };
    assert!(
        count_in(&img, band, BACKGROUND) < (band.w * band.h) as usize,
        "x above"
    );
    let side = Rect {
        x: top_left.x - 40,
        y: top_left.y,
        w: 38,
        h: CELL,
    };
    assert!(
        count_in(&img, side, BACKGROUND) < (side.w * side.h) as usize,
        "y beside"
    );
}

#[test]
fn echek_pieces_box_shift_squares_and_limit_differ() {
    let game = play_until(|v| {
        let (lo, hi) = v.area;
        let unmarked_box = v.pieces.iter().any(|&(s, _)| !marked(v, s));
        unmarked_box && (lo.x < v.bounds.0.x || hi.x > v.bounds.1.x)
    });
    let view = seen(&game);
    let img = draw(&view);
    let layout = Layout::new(&view);
    let in_box = view
        .pieces
        .iter()
        .map(|&(s, _)| s)
        .find(|&s| !marked(&view, s))
        .unwrap();
    let (lo, hi) = view.area;
    let shifted = (lo.x..=hi.x)
        .flat_map(|x| (lo.y..=hi.y).map(move |y| Sq::new(x, y)))
        .find(|&s| !(view.bounds.0.x..=view.bounds.1.x).contains(&s.x) && !marked(&view, s))
        .unwrap();
    let a = corner_of(&img, layout.cell(in_box).unwrap());
    let b = corner_of(&img, layout.cell(shifted).unwrap());
    assert_eq!(Some(a), base_colour(&view, in_box));
    assert_eq!(Some(b), base_colour(&view, shifted));
    assert!(IN_PLAY.contains(&a) && SHIFT.contains(&b), "{a:?} {b:?}");
    for c in IN_PLAY {
        assert!(!SHIFT.contains(&c) && c != BACKGROUND);
    }
    for c in SHIFT {
        assert_ne!(c, BACKGROUND);
    }
    // Just outside the area's corner: the limit, plain background.
    let corner = layout.cell(Sq::new(lo.x, hi.y)).unwrap();
    assert_eq!(img.get_pixel(corner.x - 3, corner.y - 3).0, BACKGROUND);
}

#[test]
fn echek_white_and_black_pieces_differ() {
    let mut rng = GameRng::from_seed(1);
    let game = start(&mut rng);
    let view = seen(&game);
    let img = draw(&view);
    let layout = Layout::new(&view);
    let white = layout.cell(Sq::new(0, 0)).unwrap();
    let black = layout.cell(Sq::new(0, 1)).unwrap();
    let whites = (
        count_in(&img, white, WHITE_PIECE),
        count_in(&img, black, WHITE_PIECE),
    );
    let blacks = (
        count_in(&img, white, BLACK_PIECE),
        count_in(&img, black, BLACK_PIECE),
    );
    // White's king is white with black lines; Black's is solid black (only the badge's
    // white rim shows on it).
    assert!(whites.0 > 600 && whites.1 < 200, "{whites:?}");
    assert!(blacks.1 > 600 && blacks.1 > blacks.0 + 200, "{blacks:?}");
    // Each supply holds five pieces, on tiles of the player's colour.
    for (color, ink) in [(Color::White, WHITE_PIECE), (Color::Black, BLACK_PIECE)] {
        assert_eq!(view.supply[color.index()].len(), 5);
        for i in 0..5 {
            let tile = layout.supply_tile(color, i);
            assert!(count_in(&img, tile, ink) > 25, "{color:?} supply {i}");
        }
    }
}

#[test]
fn echek_the_board_keeps_its_place_whether_the_last_action_takes_one_line_or_two() {
    let mut rng = GameRng::from_seed(1);
    let mut game = start(&mut rng);
    game.play(Seat(0), "N@1,0", &mut rng).unwrap();
    let short = seen(&game);
    let mut long = short.clone();
    long.last.as_mut().unwrap().text =
        "White puts a bishop on -1,0 and sends the white knight on -1,-1 back to its supply"
            .repeat(2);
    let mut none = short.clone();
    none.last = None;
    let origin = Layout::new(&short).origin;
    assert_eq!(Layout::new(&long).origin, origin);
    assert_eq!(Layout::new(&none).origin, origin);
    assert_eq!(draw(&long).dimensions(), draw(&short).dimensions());
}

#[test]
fn echek_last_action_is_marked() {
    let mut rng = GameRng::from_seed(1);
    let mut game = start(&mut rng);
    game.play(Seat(0), "N@1,0", &mut rng).unwrap();
    let view = seen(&game);
    assert_eq!(view.last.as_ref().unwrap().squares, vec![Sq::new(1, 0)]);
    let img = draw(&view);
    let layout = Layout::new(&view);
    let moved = corner_of(&img, layout.cell(Sq::new(1, 0)).unwrap());
    let plain = base_colour(&view, Sq::new(1, 0)).unwrap();
    assert_ne!(moved, plain);
    let mut expected = Rgb(plain);
    blend(&mut expected, LAST_MOVE, 150);
    assert_eq!(moved, expected.0, "tinted with the last move's colour");
    // An unmarked square of the pieces' box keeps its colour.
    let other = Sq::new(1, 1);
    let plain = base_colour(&view, other).unwrap();
    assert!(IN_PLAY.contains(&plain));
    assert_eq!(corner_of(&img, layout.cell(other).unwrap()), plain);
}

#[test]
fn echek_kings_short_of_room_are_marked_red() {
    let game = play_until(|v| v.kings.iter().any(|k| k.free <= 2) && v.outcome.is_none());
    let view = seen(&game);
    let img = draw(&view);
    let layout = Layout::new(&view);
    for king in &view.kings {
        let r = layout.cell(king.at).unwrap();
        let frame = img.get_pixel(r.x + 1, r.y + r.h / 2).0;
        let badge = badge_pixel(&img, r);
        if king.free <= 2 {
            assert_eq!(frame, CHECK, "a red frame on {}", king.at);
            assert_eq!(badge, CHECK, "a red badge on {}", king.at);
            let p = corner_of(&img, r);
            assert!(p[0] > p[1] + 60, "tinted red: {p:?}");
        } else {
            assert_ne!(frame, CHECK);
            assert_eq!(badge, FRAME, "a dark badge on {}", king.at);
        }
    }
}

#[test]
fn echek_a_lost_king_is_clearly_red() {
    let game = play_until(|v| v.kings.iter().any(|k| k.free == 0));
    let view = seen(&game);
    let loser = view.outcome.as_ref().unwrap().places[1][0];
    let img = draw(&view);
    let layout = Layout::new(&view);
    let king = view
        .kings
        .iter()
        .find(|k| seat_of(k.color) == loser)
        .unwrap();
    assert_eq!(king.free, 0);
    let r = layout.cell(king.at).unwrap();
    let p = corner_of(&img, r);
    assert!(p[0] > 180 && p[0] > p[1] + 110, "deep red: {p:?}");
}

/// The picture of a finished game: `view` with both kings closed in (as when one action
/// surrounds both, or after a player closed in their own king beside the other's) and
/// `winner` the winner.
fn finished(view: &EchekView, winner: Seat, reason: &str) -> EchekView {
    let mut view = view.clone();
    for king in &mut view.kings {
        king.free = 0;
    }
    view.outcome = Some(Outcome::winner(winner, 2, reason));
    view
}

#[test]
fn echek_the_final_picture_marks_the_winner_green_and_the_loser_red() {
    let game = play_until(|v| v.outcome.is_some());
    let played = seen(&game);
    for (winner, reason) in [(Seat(0), BOTH_KINGS), (Seat(1), OWN_KING)] {
        let view = finished(&played, winner, reason);
        let img = draw(&view);
        let layout = Layout::new(&view);
        for king in &view.kings {
            let r = layout.cell(king.at).unwrap();
            let frame = img.get_pixel(r.x + 1, r.y + r.h / 2).0;
            let badge = badge_pixel(&img, r);
            let p = corner_of(&img, r);
            let row = layout.player_row(king.color);
            let band = img.get_pixel(row.x + 5, row.y + 5).0;
            let state = player_state(&view, king.color);
            if seat_of(king.color) == winner {
                assert_eq!((frame, badge), (WIN, WIN), "{winner:?} {reason}");
                assert!(p[1] > p[0] + 40, "tinted green: {p:?}");
                assert_eq!(band, WIN_BAND, "the winner's row");
                assert!(state.starts_with("won · "), "{state}");
            } else {
                assert_eq!((frame, badge), (CHECK, CHECK), "{winner:?} {reason}");
                assert!(p[0] > 180 && p[0] > p[1] + 110, "deep red: {p:?}");
                assert_eq!(band, BACKGROUND, "the loser's row");
                assert!(state.starts_with("lost · "), "{state}");
            }
        }
        // The dot before the result: the winner's colour, rimmed green.
        let body = if winner == Seat(0) {
            WHITE_PIECE
        } else {
            BLACK_PIECE
        };
        assert_eq!(img.get_pixel(25, 20).0, body);
        assert_eq!(img.get_pixel(33, 20).0, WIN);
    }
    // A draw: no dot, no winner's marks, both rows say so.
    let mut drawn = played.clone();
    drawn.outcome = Some(Outcome::draw(2, "threefold repetition"));
    let img = draw(&drawn);
    assert_eq!(img.get_pixel(25, 20).0, BACKGROUND);
    assert!(player_state(&drawn, Color::White).starts_with("draw · "));
    assert_eq!(
        count_in(
            &img,
            Rect {
                x: 0,
                y: 0,
                w: img.width(),
                h: img.height()
            },
            WIN
        ),
        0
    );
}

/// Writes the picture of `game` to /tmp/echek-`name`.png.
fn sample(name: &str, game: &AnyGame) {
    std::fs::write(
        format!("/tmp/echek-{name}.png"),
        render(&game.view(Viewer::Spectator)),
    )
    .unwrap();
}

#[test]
#[ignore = "writes /tmp/echek-sample.png and friends"]
fn echek_sample_picture() {
    let busy = play_until(|v| {
        v.pieces.len() >= 8 && v.kings.iter().any(|k| k.free <= 2) && v.outcome.is_none()
    });
    std::fs::write(
        "/tmp/echek-sample.png",
        render(&busy.view(Viewer::Seat(Seat(1)))),
    )
    .unwrap();
    let mut rng = GameRng::from_seed(1);
    let mut first = start(&mut rng);
    sample("start", &first);
    first.play(Seat(0), "N@1,0", &mut rng).unwrap();
    sample("first", &first);
    sample("full", &play_until(|v| v.area == v.bounds));
    sample("lost", &play_until(|v| v.kings.iter().any(|k| k.free == 0)));
    sample(
        "swap",
        &play_until(|v| v.swap_used[1] && v.supply[0].is_empty()),
    );
}
