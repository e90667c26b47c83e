//! Enthralling Chess pictures: the coins on enthralled pieces and the marks of the last
//! Enthrall and Liberation.

use super::*;

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
