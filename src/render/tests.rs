use super::*;
use crate::engine::{Game, GameRng, Seat, Viewer};
use crate::games::chess::{Chess, ChessOptions};
use crate::games::enthralling::{Enthralling, EnthrallingOptions};

/// Pixels of `r` within a few levels of `color`.
fn count_in(img: &RgbImage, r: enprise::Rect, color: [u8; 3]) -> usize {
    let mut n = 0;
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            let p = img.get_pixel(x, y).0;
            if p.iter().zip(color).all(|(&a, b)| a.abs_diff(b) < 16) {
                n += 1;
            }
        }
    }
    n
}

fn chess_after(moves: &[&str]) -> Chess {
    let mut g = Chess::new(&ChessOptions::default(), 2, &mut GameRng::from_seed(0)).unwrap();
    for (i, m) in moves.iter().enumerate() {
        let seat = Seat((i % 2) as u8);
        let mv = g.parse_action(seat, m).unwrap();
        g.apply(seat, &mv, &mut GameRng::from_seed(0)).unwrap();
    }
    g
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// The pixel just inside a square's top-left corner, where no piece ink falls.
fn corner_pixel(img: &RgbImage, s: &str, bottom: Color) -> [u8; 3] {
    let (x, y) = corner(sq(s), bottom);
    img.get_pixel(x + 2, y + 2).0
}

/// How many pixels of the square are nearly `color`.
fn count_near(img: &RgbImage, s: &str, bottom: Color, color: [u8; 3]) -> usize {
    let (x0, y0) = corner(sq(s), bottom);
    let mut n = 0;
    for y in y0..y0 + SQUARE {
        for x in x0..x0 + SQUARE {
            let p = img.get_pixel(x, y).0;
            if p.iter().zip(color).all(|(&a, b)| a.abs_diff(b) < 16) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn a_png_of_the_documented_size_that_decodes() {
    let g = chess_after(&[]);
    let png = render(&AnyView::Chess(g.view(Viewer::Spectator)));
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let decoded = image::load_from_memory(&png).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (WIDTH, HEIGHT));
    assert_eq!((WIDTH, HEIGHT), (768, 776));
}

#[test]
fn squares_pieces_and_orientation() {
    let g = chess_after(&[]);
    let white = draw_board(&g.view(Viewer::Seat(Seat(0))), &[]);
    let black = draw_board(&g.view(Viewer::Seat(Seat(1))), &[]);
    assert_eq!(corner_pixel(&white, "a1", Color::White), DARK);
    assert_eq!(corner_pixel(&white, "h1", Color::White), LIGHT);
    // a1 is drawn bottom-left for White and top-right for Black.
    assert_eq!(
        corner(sq("a1"), Color::White),
        (MARGIN, STATUS + 7 * SQUARE)
    );
    assert_eq!(
        corner(sq("a1"), Color::Black),
        (MARGIN + 7 * SQUARE, STATUS)
    );
    // White pieces are white with black outlines; black pieces solid; empty squares bare.
    assert!(count_near(&white, "e1", Color::White, WHITE_PIECE) > 300);
    assert!(count_near(&white, "e1", Color::White, BLACK_PIECE) > 100);
    assert!(count_near(&white, "e8", Color::White, BLACK_PIECE) > 600);
    assert_eq!(count_near(&white, "e8", Color::White, WHITE_PIECE), 0);
    assert_eq!(count_near(&white, "e4", Color::White, BLACK_PIECE), 0);
    assert_eq!(
        count_near(&black, "e1", Color::Black, WHITE_PIECE),
        count_near(&white, "e1", Color::White, WHITE_PIECE),
        "the same king, seen from the other side"
    );
}

#[test]
fn last_move_and_check_are_marked() {
    let g = chess_after(&["e4", "f5", "Qh5"]);
    let img = draw_board(&g.view(Viewer::Spectator), &[]);
    for s in ["d1", "h5"] {
        let p = corner_pixel(&img, s, Color::White);
        assert!(p != LIGHT && p != DARK, "{s} highlighted: {p:?}");
    }
    assert_eq!(
        corner_pixel(&img, "e2", Color::White),
        LIGHT,
        "only the last move"
    );
    let king = corner_pixel(&img, "e8", Color::White);
    assert!(
        king[0] > 200 && king[0] > king[1] + 80,
        "king in check tinted red: {king:?}"
    );
}

#[test]
fn the_last_move_is_written_at_the_right_of_the_status() {
    let band = enprise::Rect {
        x: WIDTH / 2,
        y: 0,
        w: WIDTH / 2,
        h: STATUS,
    };
    let status = |moves: &[&str]| {
        let g = chess_after(moves);
        let img = draw_board(&g.view(Viewer::Spectator), &[]);
        image::imageops::crop_imm(&img, band.x, band.y, band.w, band.h).to_image()
    };
    let inked = |img: &RgbImage| img.pixels().filter(|p| p.0 == LAST_WORDS).count();
    assert_eq!(inked(&status(&[])), 0, "no move yet");
    let e4 = status(&["e4", "e5"]);
    assert!(inked(&e4) > 10, "the words drawn");
    assert!(e4 != status(&["e4", "e5", "Nf3"]), "each move its words");
}

#[test]
fn enthralled_pieces_carry_a_coin() {
    let mut g = Enthralling::new(
        &EnthrallingOptions::default(),
        2,
        &mut GameRng::from_seed(0),
    )
    .unwrap();
    for (i, text) in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3 enthrall Nc6 g1"]
        .iter()
        .enumerate()
    {
        let seat = Seat((i % 2) as u8);
        let turn = g.parse_action(seat, text).unwrap();
        g.apply(seat, &turn, &mut GameRng::from_seed(0)).unwrap();
    }
    let view = g.view(Viewer::Spectator);
    let img = draw_board(&view.board, &[]);
    assert!(count_near(&img, "g1", Color::White, COIN) > 100);
    assert_eq!(
        count_near(&img, "b1", Color::White, COIN),
        0,
        "the original knight has none"
    );
    let png = render(&AnyView::Enthralling(view));
    assert!(image::load_from_memory(&png).is_ok());
}

#[test]
fn the_last_enthrall_and_liberation_mark_their_squares() {
    let mut g = Enthralling::new(
        &EnthrallingOptions::default(),
        2,
        &mut GameRng::from_seed(0),
    )
    .unwrap();
    let play = |g: &mut Enthralling, seat: u8, text: &str| {
        let turn = g.parse_action(Seat(seat), text).unwrap();
        g.apply(Seat(seat), &turn, &mut GameRng::from_seed(0))
            .unwrap();
    };
    for (i, text) in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"].iter().enumerate() {
        play(&mut g, (i % 2) as u8, text);
    }
    let board = |g: &Enthralling| {
        let view = AnyView::Enthralling(g.view(Viewer::Spectator));
        image::load_from_memory(&render(&view)).unwrap().to_rgb8()
    };
    let violet = |img: &RgbImage, s: &str| {
        let p = corner_pixel(img, s, Color::White);
        u16::from(p[2]) > u16::from(p[1]) + 40 && p[0] > p[1]
    };
    assert!(!violet(&board(&g), "g1"), "no Enthrall yet");
    // The knight taken from c6 lands on g1: the landing square is marked, not where it came from.
    play(&mut g, 0, "d3 enthrall Nc6 g1");
    let img = board(&g);
    assert!(violet(&img, "g1"));
    assert!(!violet(&img, "c6"));
    // Black liberates its bishop held on f1: the square it left is marked.
    let mut held = Enthralling::from_setup(
        &crate::games::enthralling::Setup {
            fen: "rn2k3/7p/8/8/8/8/P7/4KBN1 b - - 0 30",
            enthralled: &["f1", "g1", "a8", "b8"],
            latest: [Some("g1"), Some("a8")],
            moves_made: [20, 20],
            ..Default::default()
        },
        EnthrallingOptions::default(),
    )
    .unwrap();
    play(&mut held, 1, "h6 liberate Bf1");
    let img = board(&held);
    assert!(violet(&img, "f1"));
    assert!(!violet(&img, "g1"));
    // The next turn's Enthrall moves the mark.
    play(&mut g, 1, "Nf6 enthrall Pe4 e7");
    let img = board(&g);
    assert!(violet(&img, "e7"));
    assert!(!violet(&img, "g1"));
}

#[test]
fn a_board_stays_small() {
    let g = chess_after(&[
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ]);
    let png = render(&AnyView::Chess(g.view(Viewer::Spectator)));
    assert!(png.len() < 100 * 1024, "{} bytes", png.len());
}

/// En Prise pictures, from views of games played with random legal actions.
mod enprise_pictures {
    use super::enprise::{BACK, FACE, FADE, Layout, Rect, TABLE, army, draw};
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
        let lines = super::enprise::wrap(
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
        crate::render::replay::tests::play_back(gif)
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
}

mod echek_pictures {
    use super::echek::{
        BACKGROUND, CELL, IN_PLAY, Layout, SHIFT, WIN, WIN_BAND, base_colour, draw, player_state,
    };
    use super::enprise::Rect;
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
}

mod snipe_pictures {
    use super::enprise::Rect;
    use super::snipe::{
        BACKGROUND, BORDER, CARD, CARD_EDGE, FEATHER, FEATHER_FAINT, FLAG, GAP, GRASS, HOME,
        LAST_CARD, LAST_FRAME, LAST_FRAME_W, LINE, Layout, OPEN, SPACE, SPACE_LINE, TREE, TURN_90,
        TURN_90_INK, TURN_180, TURN_180_INK, WIN, draw, ground, stock_lines,
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
}

mod chessatete_pictures {
    use super::chessatete::{
        CARD_TEXT, HAND_CARD, Layout, OWN_HAND_WIDTH, SLOT_EDGE, SLOT_GROUND, TILE, TypeIcon,
        WIDTH, card_face, card_needs, card_room, draw, draw_own_hand, own_hand_card, side_colours,
        type_colour, type_icon,
    };
    use super::enprise::Rect;
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
}
