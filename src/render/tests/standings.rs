//! The league standings picture.

use crate::render::standings::{BACKGROUND, BAND, HEAD, PAD, ROW, standings_png};

#[test]
fn a_row_a_player_under_a_dark_header() {
    let heads: Vec<String> = ["Player", "Points", "Wins"].map(String::from).to_vec();
    let row = |n: &str, p: &str| vec![n.to_string(), p.to_string(), "1".to_string()];
    let png = standings_png("Autumn", &heads, &[row("ann", "2½"), row("ben", "½")]);
    let img = image::load_from_memory(&png).unwrap().to_rgb8();
    assert_eq!(img.height(), ROW * 4 + PAD);
    assert_eq!(img.get_pixel(1, ROW + 1).0, HEAD);
    assert_eq!(
        img.get_pixel(1, 3 * ROW + 1).0,
        BAND,
        "the second row is banded"
    );
    // A longer name makes a wider picture.
    let wider = standings_png("Autumn", &heads, &[row("annabelle-the-great", "2½")]);
    let wider = image::load_from_memory(&wider).unwrap();
    assert!(wider.width() > img.width());
    // Text was drawn in the first row.
    let inked = (0..img.width()).any(|x| img.get_pixel(x, 2 * ROW + 20).0 != BACKGROUND);
    assert!(inked);
}
