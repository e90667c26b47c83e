use super::*;
use crate::engine::{Game, GameRng, Seat, Viewer};
use crate::games::chess::{Chess, ChessOptions};
use crate::games::enthralling::{Enthralling, EnthrallingOptions};

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
fn a_board_stays_small() {
    let g = chess_after(&[
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ]);
    let png = render(&AnyView::Chess(g.view(Viewer::Spectator)));
    assert!(png.len() < 100 * 1024, "{} bytes", png.len());
}
