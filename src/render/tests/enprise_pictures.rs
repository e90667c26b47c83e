//! En Prise pictures, from views of games played with random legal actions.

use super::enprise::{BACK, FACE, FADE, Layout, TABLE, army, draw};
use super::*;
use crate::games::enprise::EnPriseView;
use crate::games::{AnyGame, GameKind};

fn start(seats: usize, options: &[(&str, &str)], rng: &mut GameRng) -> AnyGame {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    GameKind::Enprise.start(&options, seats, rng).unwrap()
}

fn seen_by(game: &AnyGame, viewer: Viewer) -> EnPriseView {
    match game.view(viewer) {
        AnyView::Enprise(v) => v,
        other => panic!("not an En Prise view: {other:?}"),
    }
}

/// A game played at random until `done` holds for the spectator's view, trying seeds in
/// turn (a game may end first).
fn play_until(
    seats: usize,
    options: &[(&str, &str)],
    done: impl Fn(&EnPriseView) -> bool,
) -> AnyGame {
    for seed in 0..40 {
        let mut rng = GameRng::from_seed(seed);
        let mut game = start(seats, options, &mut rng);
        for _ in 0..3000 {
            if done(&seen_by(&game, Viewer::Spectator)) {
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

/// A pixel inside a card's top edge, clear of its rounded corner and of any piece.
fn edge_pixel(img: &RgbImage, card: Rect) -> [u8; 3] {
    img.get_pixel(card.x + card.w / 2, card.y + 1).0
}

/// Squares neither highlighted as the last action nor in check.
fn unmarked(view: &EnPriseView, sq: crate::board::Sq) -> bool {
    !view.checks.contains(&sq) && !view.last.as_ref().is_some_and(|l| l.squares.contains(&sq))
}

#[test]
fn enprise_png_decodes_and_grows_with_the_board() {
    let mut sizes = Vec::new();
    for n in [0, 3, 12, 30] {
        let game = play_until(3, &[], |v| v.squares.len() >= n);
        let view = seen_by(&game, Viewer::Spectator);
        let layout = Layout::new(&view);
        let png = render(&AnyView::Enprise(view.clone()));
        let img = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (layout.width, layout.height));
        assert!(layout.width <= 1000 && layout.height <= 1000, "{layout:?}");
        assert!((28..=88).contains(&layout.cell));
        // Every square is inside the picture, with room for its coordinates around it.
        for s in &view.squares {
            let cell = layout.cell(s.at).unwrap();
            assert!(cell.x >= layout.side && cell.x + cell.w + layout.side <= img.width());
            assert!(cell.y + cell.h < layout.panel_top);
        }
        // Each column has its number above the board: some ink in the band over its cell.
        for col in 0..layout.cols as i16 {
            let sq = crate::board::Sq::new(layout.left + col, layout.top);
            let cell = layout.cell(sq).unwrap();
            let band = Rect {
                x: cell.x,
                y: cell.y - 20,
                w: cell.w,
                h: 18,
            };
            assert!(count_in(&img, band, TABLE) < (band.w * band.h) as usize);
        }
        sizes.push((
            layout.cols * layout.cell,
            layout.rows * layout.cell,
            img.height(),
        ));
    }
    // The board's extent in pixels grows with the board, and so does the picture at first
    // (later the cells shrink so that large boards keep a bounded size).
    assert!(
        sizes.windows(2).all(|w| w[0].0 < w[1].0 || w[0].1 < w[1].1),
        "{sizes:?}"
    );
    assert!(sizes[0].2 < sizes[1].2, "{sizes:?}");
}

#[test]
fn enprise_face_down_and_face_up_cards_and_the_table_differ() {
    let game = play_until(2, &[], |v| {
        let free = |vacant: bool| {
            v.squares
                .iter()
                .any(|s| s.piece.is_none() == vacant && unmarked(v, s.at))
        };
        free(true) && free(false)
    });
    let view = seen_by(&game, Viewer::Spectator);
    let img = draw(&view);
    let layout = Layout::new(&view);
    let find = |vacant: bool| {
        let s = view.squares.iter();
        let mut s = s.filter(|s| s.piece.is_none() == vacant && unmarked(&view, s.at));
        layout.card(s.next().unwrap().at).unwrap()
    };
    assert_eq!(edge_pixel(&img, find(true)), BACK);
    assert_eq!(edge_pixel(&img, find(false)), FACE);
    // The top-left cell is in the ring around the board: no card there, only the table.
    let corner = crate::board::Sq::new(layout.left, layout.top);
    let (cx, cy) = layout.cell(corner).unwrap().centre();
    assert_eq!(img.get_pixel(cx, cy).0, TABLE);
}

#[test]
fn enprise_armies_have_their_own_colours() {
    fn shown(v: &EnPriseView, seat: Seat) -> Option<&crate::games::enprise::SquareView> {
        v.squares
            .iter()
            .find(|s| s.piece.is_some_and(|p| p.owner == seat) && unmarked(v, s.at))
    }
    let game = play_until(4, &[], |v| {
        Seat::all(4).all(|seat| shown(v, seat).is_some())
    });
    let view = seen_by(&game, Viewer::Spectator);
    let img = draw(&view);
    let layout = Layout::new(&view);
    for seat in Seat::all(4) {
        let card = layout.card(shown(&view, seat).unwrap().at).unwrap();
        let own = count_in(&img, card, army(seat).0);
        assert!(own > 40, "{seat}: {own} pixels of its colour");
        // No other army's fill shows, except Black's: the lines of White's pieces.
        for other in Seat::all(4).filter(|&o| o != seat) {
            let theirs = count_in(&img, card, army(other).0);
            if !(seat == Seat(0) && other == Seat(1)) {
                assert!(
                    theirs < 5,
                    "{seat}'s piece: {theirs} pixels of {other}'s colour"
                );
            }
        }
    }
    let fills: Vec<[u8; 3]> = Seat::all(4).map(|s| army(s).0).collect();
    for (i, a) in fills.iter().enumerate() {
        for b in &fills[i + 1..] {
            let distance: u32 = a
                .iter()
                .zip(b)
                .map(|(x, y)| u32::from(x.abs_diff(*y)))
                .sum();
            assert!(distance > 150, "{a:?} and {b:?} look alike");
        }
        let on_card: u32 = a
            .iter()
            .zip(FACE)
            .map(|(x, y)| u32::from(x.abs_diff(y)))
            .sum();
        assert!(on_card > 90, "{a:?} fades into the card");
    }
}

#[test]
fn enprise_check_and_the_last_action_are_marked() {
    let game = play_until(2, &[], |v| {
        let last = v.last.as_ref().map_or(0, |l| l.squares.len());
        !v.checks.is_empty() && last > 0
    });
    let view = seen_by(&game, Viewer::Spectator);
    let img = draw(&view);
    let layout = Layout::new(&view);
    for &sq in &view.checks {
        let p = edge_pixel(&img, layout.card(sq).unwrap());
        assert!(
            p[0] > 200 && p[0] > p[1] + 80,
            "king in check tinted red: {p:?}"
        );
        let cell = layout.cell(sq).unwrap();
        assert_eq!(
            img.get_pixel(cell.x, cell.y + cell.h / 2).0,
            CHECK,
            "a red frame"
        );
    }
    for &sq in &view.last.as_ref().unwrap().squares {
        if view.checks.contains(&sq) {
            continue;
        }
        let p = edge_pixel(&img, layout.card(sq).unwrap());
        assert!(p != FACE && p != BACK, "{sq} highlighted: {p:?}");
        let cell = layout.cell(sq).unwrap();
        assert_eq!(img.get_pixel(cell.x, cell.y + cell.h / 2).0, LAST_MOVE);
    }
}

#[test]
fn enprise_a_long_last_action_is_wrapped_and_the_board_moves_down() {
    let game = play_until(3, &[], |v| v.last.is_some());
    let short = seen_by(&game, Viewer::Spectator);
    let mut long = short.clone();
    let words = "Red's queen on 12,-3 takes Blue's bishop on 13,-4 and gives check";
    long.last.as_mut().unwrap().text = format!("{words}; {words}; {words}");
    let (before, after) = (Layout::new(&short), Layout::new(&long));
    assert_eq!(after.width, before.width);
    assert!(after.origin.1 >= before.origin.1 + 2 * 18, "two more lines");
    let img = draw(&long);
    assert_eq!(img.height(), after.height);
    // Every line fits: nothing is cut with an ellipsis.
    let lines = super::wrap(
        &format!("Last: {}", long.last.unwrap().text),
        15.0,
        (img.width() - 58) as f32,
    );
    assert!(lines.len() >= 3, "{lines:?}");
    assert!(lines.iter().all(|l| !l.ends_with('…')));
    assert!(
        lines
            .concat()
            .replace(' ', "")
            .contains(&words.replace(' ', ""))
    );
}

#[test]
fn enprise_a_long_status_is_wrapped_and_the_board_moves_down() {
    let game = play_until(3, &[], |v| v.last.is_some());
    let short = seen_by(&game, Viewer::Spectator);
    let mut long = short.clone();
    long.status = "Game over: Black won: White was out by repetition; earlier, Red was \
                   checkmated by Black, and Blue resigned"
        .into();
    let (before, after) = (Layout::new(&short), Layout::new(&long));
    assert!(after.origin.1 >= before.origin.1 + 23, "a second line");
    assert_eq!(draw(&long).height(), after.height);
}

#[test]
fn enprise_a_player_who_is_out_keeps_the_reason_legible() {
    let game = play_until(3, &[], |v| v.last.is_some());
    let mut view = seen_by(&game, Viewer::Spectator);
    view.players[2].out = Some("checkmated by Black".into());
    let layout = Layout::new(&view);
    let img = draw(&view);
    let row = layout.player_row(2);
    // The reason, under the name, in the secondary colour at full strength.
    let reason = Rect {
        y: row.y + row.h * 3 / 5,
        h: row.h * 2 / 5,
        w: layout.plan_card(2, 0).x - row.x,
        ..row
    };
    assert!(count_in(&img, reason, super::enprise::DIM) > 20);
    // The name and disc are faded: Red's disc no longer shows its pure colour.
    let disc = Rect {
        w: 60,
        h: row.h,
        ..row
    };
    assert_eq!(count_in(&img, disc, army(Seat(2)).0), 0);
}

#[test]
fn enprise_the_next_plan_card_is_framed_and_allies_are_named() {
    let mut rng = GameRng::from_seed(5);
    let game = start(4, &[("alliance", "true")], &mut rng);
    let view = seen_by(&game, Viewer::Spectator);
    let img = draw(&view);
    let layout = Layout::new(&view);
    for i in 0..4 {
        let (next, later) = (layout.plan_card(i, 0), layout.plan_card(i, 1));
        let mid = next.y + next.h / 2;
        assert_eq!(img.get_pixel(next.x - 2, mid).0, super::enprise::NEXT_CARD);
        assert_ne!(img.get_pixel(later.x - 2, mid).0, super::enprise::NEXT_CARD);
    }
    let states: Vec<String> = view
        .players
        .iter()
        .map(|p| super::enprise::player_state(&view, p))
        .collect();
    assert!(states[0].contains("with Red"), "{states:?}");
    assert!(states[1].contains("with Blue"), "{states:?}");
    // Whose turn it is comes last: a narrow row may cut it, and the marker says it too.
    assert!(states[0].ends_with("· to play"), "{states:?}");
    let alone = seen_by(&start(4, &[], &mut rng), Viewer::Spectator);
    assert!(!super::enprise::player_state(&alone, &alone.players[0]).contains("with"));
}

/// Plays an animated replay back: the picture on screen once each action's frames are
/// shown (a frame that only begins an action's change shows for a moment, 2).
fn played_back(gif: &[u8]) -> Vec<RgbImage> {
    super::play_back(gif)
        .into_iter()
        .filter(|((delay, _), _)| *delay != 2)
        .map(|(_, img)| img)
        .collect()
}

#[test]
fn enprise_replay_frames_keep_blind_plans_face_down() {
    let mut rng = GameRng::from_seed(11);
    let mut game = start(2, &[("variant", "blind")], &mut rng);
    let mut views = vec![game.view(Viewer::Spectator)];
    for _ in 0..16 {
        let Some(&seat) = game.to_act().seats().first() else {
            break;
        };
        let action = game.random_action(seat, &mut rng).unwrap();
        game.play(seat, &action, &mut rng).unwrap();
        views.push(game.view(Viewer::Spectator));
    }
    let shown = played_back(&crate::render::render_replay(&views));
    assert_eq!(shown.len(), views.len(), "one picture per action");
    for (i, (img, view)) in shown.iter().zip(&views).enumerate() {
        let AnyView::Enprise(view) = view else {
            panic!("an En Prise view");
        };
        let layout = Layout::new(view);
        // The picture sits at the top of the canvas, centred across.
        let left = (img.width() - layout.width) / 2;
        for (p, player) in view.players.iter().enumerate() {
            for c in 0..player.plan.cards.len() {
                let card = layout.plan_card(p, c);
                let card = Rect {
                    x: card.x + left,
                    ..card
                };
                assert_eq!(edge_pixel(img, card), BACK, "frame {i}, seat {p}, card {c}");
            }
        }
        // Beyond the plans, the frame is the spectator's picture (up to the palette).
        let drawn = draw(view);
        let off = drawn
            .enumerate_pixels()
            .filter(|(x, y, a)| {
                let b = img.get_pixel(*x + left, *y).0;
                a.0.iter().zip(b).any(|(p, q)| p.abs_diff(q) > 40)
            })
            .count();
        assert!(off < 200, "frame {i}: {off} pixels differ");
    }
}

#[test]
fn enprise_hidden_plan_cards_are_card_backs() {
    let mut rng = GameRng::from_seed(3);
    let game = start(2, &[("variant", "blind")], &mut rng);
    let spectator = seen_by(&game, Viewer::Spectator);
    let white = seen_by(&game, Viewer::Seat(Seat(0)));
    assert!(
        spectator
            .players
            .iter()
            .all(|p| p.plan.cards.iter().all(Option::is_none))
    );
    assert!(white.players[0].plan.cards.iter().all(Option::is_some));
    assert!(white.players[1].plan.cards.iter().all(Option::is_none));
    let (spectator_img, white_img) = (draw(&spectator), draw(&white));
    let layout = Layout::new(&white);
    assert_eq!(layout, Layout::new(&spectator));
    for i in 0..white.players[0].plan.cards.len() {
        let card = layout.plan_card(0, i);
        assert_eq!(
            edge_pixel(&spectator_img, card),
            BACK,
            "hidden from spectators"
        );
        assert_eq!(edge_pixel(&white_img, card), FACE, "shown to its owner");
        let role = white.players[0].plan.cards[i].unwrap();
        let ink = count_in(&white_img, card, BLACK_PIECE);
        assert!(ink > 10, "card {i} ({role:?}) shows its piece");
    }
    for i in 0..white.players[1].plan.cards.len() {
        let card = layout.plan_card(1, i);
        assert_eq!(
            edge_pixel(&white_img, card),
            BACK,
            "the opponent's plan is hidden"
        );
    }
}

#[test]
fn enprise_empty_table_shows_where_the_first_card_goes() {
    let mut rng = GameRng::from_seed(0);
    let game = start(2, &[], &mut rng);
    let view = seen_by(&game, Viewer::Spectator);
    assert!(view.squares.is_empty());
    let layout = Layout::new(&view);
    assert_eq!(
        (layout.cols, layout.rows, layout.left, layout.top),
        (1, 1, 0, 0)
    );
    let img = draw(&view);
    let card = layout.card(crate::board::Sq::new(0, 0)).unwrap();
    let (cx, cy) = card.centre();
    assert_eq!(img.get_pixel(cx, cy).0, TABLE, "no card yet");
    let dots = (card.x..card.x + card.w)
        .filter(|&x| img.get_pixel(x, card.y).0 != TABLE)
        .count();
    assert!(
        dots > 10 && dots < card.w as usize,
        "a dotted outline: {dots}"
    );
    let caption = Rect {
        x: 0,
        y: card.y + card.h,
        w: img.width(),
        h: layout.panel_top - card.y - card.h,
    };
    assert!(count_in(&img, caption, TABLE) < (caption.w * caption.h) as usize);
}

#[test]
fn enprise_pieces_put_out_by_the_last_action_show_as_they_stood() {
    use crate::engine::Outcome;
    use crate::games::chess::Role;
    use crate::games::enprise::{Fallen, Piece};
    let free = |v: &EnPriseView| -> Vec<crate::board::Sq> {
        v.squares
            .iter()
            .filter(|s| s.piece.is_none() && unmarked(v, s.at))
            .map(|s| s.at)
            .collect()
    };
    let game = play_until(2, &[], |v| free(v).len() >= 2);
    let mut view = seen_by(&game, Viewer::Spectator);
    let (king_at, pawn_at) = (free(&view)[0], free(&view)[1]);
    let white = |role| Piece {
        owner: Seat(0),
        role,
    };
    view.last.as_mut().unwrap().fallen = vec![
        Fallen {
            at: king_at,
            piece: white(Role::King),
            check: true,
        },
        Fallen {
            at: pawn_at,
            piece: white(Role::Pawn),
            check: false,
        },
    ];
    let layout = Layout::new(&view);
    let pawn = layout.card(pawn_at).unwrap();
    let area = (pawn.w * pawn.h) as usize;
    // During the game: faded towards the card back they now are, the piece still drawn.
    let img = draw(&view);
    let mut faded = image::Rgb(FACE);
    blend(&mut faded, BACK, FADE);
    assert_eq!(edge_pixel(&img, pawn), faded.0);
    assert!(
        count_in(&img, pawn, faded.0) < area * 9 / 10,
        "the pawn is drawn"
    );
    // At the end: as they stood, the mated king framed and tinted red.
    // (Over, the game shows no ring of places for cards: the board shifts.)
    view.outcome = Some(Outcome::winner(Seat(1), 2, "checkmate"));
    let layout = Layout::new(&view);
    let pawn = layout.card(pawn_at).unwrap();
    let img = draw(&view);
    assert_eq!(edge_pixel(&img, pawn), FACE);
    assert!(count_in(&img, pawn, BLACK_PIECE) > 10, "the pawn's lines");
    let king = layout.card(king_at).unwrap();
    let p = edge_pixel(&img, king);
    assert!(
        p[0] > 200 && p[0] > p[1] + 80,
        "the mated king tinted red: {p:?}"
    );
    let cell = layout.cell(king_at).unwrap();
    assert_eq!(img.get_pixel(cell.x, cell.y + cell.h / 2).0, CHECK);
    assert!(count_in(&img, king, BLACK_PIECE) > 10, "the king's lines");
    // Without the record they are the card backs they became.
    view.last.as_mut().unwrap().fallen.clear();
    let img = draw(&view);
    assert_eq!(edge_pixel(&img, pawn), BACK);
    assert_eq!(edge_pixel(&img, king), BACK);
}

#[test]
fn enprise_ring_of_places_only_while_a_card_may_come() {
    let game = play_until(2, &[], |v| v.squares.len() >= 6);
    let mut view = seen_by(&game, Viewer::Spectator);
    let with_ring = Layout::new(&view);
    assert!(!enprise::frontier(&view).is_empty());
    // A player with only a king in hand may still bring a card.
    view.players[1].plan.cards.clear();
    view.players[0].plan.cards.clear();
    view.players[0].king_in_hand = true;
    assert!(!enprise::frontier(&view).is_empty());
    assert_eq!(Layout::new(&view).cols, with_ring.cols);
    // Nothing left to place: the ring is gone, from the picture and from the board's bounds.
    for player in &mut view.players {
        player.king_in_hand = false;
    }
    assert_eq!(enprise::frontier(&view), vec![]);
    let bare = Layout::new(&view);
    assert_eq!(
        (bare.cols, bare.rows),
        (with_ring.cols - 2, with_ring.rows - 2)
    );
    let img = draw(&view);
    let corner = bare
        .cell(crate::board::Sq::new(bare.left, bare.top))
        .unwrap();
    let occupied = view.squares.iter().any(|s| s.at.x == bare.left);
    assert!(occupied, "the leftmost column shown holds a card");
    assert_eq!(img.get_pixel(corner.x, corner.y).0, TABLE);
}

/// The rows where the header's status line has ink, from its first to its last.
fn status_height(img: &image::RgbImage, zoom: f32) -> u32 {
    let inked: Vec<u32> = (0..(34.0 * zoom) as u32)
        .filter(|&y| (60..img.width() / 2).any(|x| img.get_pixel(x, y).0 != TABLE))
        .collect();
    inked.last().unwrap() - inked.first().unwrap() + 1
}

#[test]
fn a_wide_enprise_board_scales_its_words_with_the_picture() {
    let game = play_until(2, &[], |v| v.squares.len() >= 6);
    let mut view = seen_by(&game, Viewer::Spectator);
    view.last = None;
    let before = view.clone();
    let narrow = Layout::new(&view);
    assert_eq!(narrow.zoom, 1.0);
    // A long line of vacant squares: 31 columns at least, wider than a chess board.
    let y = view.squares[0].at.y;
    for x in -15..=15 {
        if !view
            .squares
            .iter()
            .any(|s| s.at == crate::board::Sq::new(x, y))
        {
            view.squares.push(crate::games::enprise::SquareView {
                at: crate::board::Sq::new(x, y),
                piece: None,
            });
        }
    }
    let wide = Layout::new(&view);
    assert!(wide.width > 1200 && wide.zoom > 1.5, "{wide:?}");
    assert!(
        wide.cell >= narrow.cell.min(40),
        "cells never shrink below readable"
    );
    let ratio = |a: u32, b: u32| a as f32 / b as f32;
    let rows = ratio(wide.player_row(0).h, narrow.player_row(0).h);
    assert!((rows - wide.zoom).abs() < 0.05, "{rows} vs {}", wide.zoom);
    // The words are as large against the picture's width as on a narrow picture.
    let text = ratio(
        status_height(&draw(&view), wide.zoom),
        status_height(&draw(&before), 1.0),
    );
    assert!((text - wide.zoom).abs() < 0.2, "{text} vs {}", wide.zoom);
}

/// Writes the spectator's picture of a game played until `done` to /tmp/enprise-`name`.png.
fn sample(name: &str, seats: usize, options: &[(&str, &str)], done: fn(&EnPriseView) -> bool) {
    let game = play_until(seats, options, done);
    let png = render(&game.view(Viewer::Spectator));
    std::fs::write(format!("/tmp/enprise-{name}.png"), png).unwrap();
}

#[test]
#[ignore = "writes /tmp/enprise-sample.png and prints the render time"]
fn enprise_sample_picture() {
    let game = play_until(4, &[], |v| v.squares.len() >= 40);
    let view = seen_by(&game, Viewer::Seat(Seat(2)));
    let start = std::time::Instant::now();
    let png = render(&AnyView::Enprise(view.clone()));
    println!("first render + encode: {:?}", start.elapsed());
    let start = std::time::Instant::now();
    for _ in 0..20 {
        draw(&view);
    }
    println!("draw: {:?} each", start.elapsed() / 20);
    let layout = Layout::new(&view);
    println!(
        "{} x {} cells of {} px",
        layout.cols, layout.rows, layout.cell
    );
    std::fs::write("/tmp/enprise-sample.png", png).unwrap();
    sample("empty", 2, &[], |v| v.squares.is_empty());
    sample("small", 3, &[("variant", "blind")], |v| {
        v.squares.len() >= 3
    });
    sample("check", 2, &[], |v| !v.checks.is_empty());
    let out = |v: &EnPriseView| v.players.iter().any(|p| p.out.is_some());
    sample("out", 4, &[("variant", "casino")], out);
    // The largest boards: the same cards spread over 20 x 20 squares.
    let mut wide = view.clone();
    for (i, s) in wide.squares.iter_mut().enumerate() {
        let i = i as i16;
        s.at = crate::board::Sq::new(i % 20 - 10, (i * 7) % 20 - 12);
    }
    std::fs::write("/tmp/enprise-wide.png", render(&AnyView::Enprise(wide))).unwrap();
}
