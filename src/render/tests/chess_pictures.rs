//! Chess board pictures: the size, squares and orientation, the last move and check, the
//! status line, and the size of the PNG.

use super::*;

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
    let band = Rect {
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
fn a_board_stays_small() {
    let g = chess_after(&[
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ]);
    let png = render(&AnyView::Chess(g.view(Viewer::Spectator)));
    assert!(png.len() < 100 * 1024, "{} bytes", png.len());
}
