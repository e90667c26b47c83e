//! The replay GIF: frames store what changed, the delays, the canvas and a smaller picture's place.

use super::{Shown, play_back};
use crate::render::replay::{FRAME_DELAY, LAST_DELAY, STEP_DELAY, animate, changed};
use image::{Rgb, RgbImage};

/// A picture of `size` filled with `colour`, with a square of `mark` at `at`.
fn picture(size: (u32, u32), colour: [u8; 3], mark: Option<((u32, u32), [u8; 3])>) -> RgbImage {
    let mut img = RgbImage::from_pixel(size.0, size.1, Rgb(colour));
    if let Some(((x, y), c)) = mark {
        for dy in 0..4 {
            for dx in 0..4 {
                img.put_pixel(x + dx, y + dy, Rgb(c));
            }
        }
    }
    img
}

/// Each frame's delay and area, and the final picture.
fn play(gif: &[u8]) -> (Vec<Shown>, RgbImage) {
    let frames = play_back(gif);
    let last = frames.last().map(|(_, img)| img.clone()).unwrap();
    (frames.into_iter().map(|(shown, _)| shown).collect(), last)
}

#[test]
fn each_frame_stores_what_changed_and_the_last_one_waits_longest() {
    let (grey, red, blue) = ([90, 90, 90], [200, 30, 30], [30, 30, 200]);
    let pictures = vec![
        picture((32, 24), grey, None),
        picture((32, 24), grey, Some(((4, 4), red))),
        picture((32, 24), grey, Some(((4, 4), red))),
        picture((32, 24), grey, Some(((20, 12), blue))),
    ];
    let gif = animate(&pictures, |p| p.clone());
    let (frames, last) = play(&gif);
    assert_eq!(
        frames,
        [
            (FRAME_DELAY, (0, 0, 32, 24)),
            (FRAME_DELAY, (4, 4, 4, 4)),
            // Nothing changed: one pixel, transparent, holds the turn.
            (FRAME_DELAY, (0, 0, 1, 1)),
            (LAST_DELAY, (4, 4, 20, 12)),
        ]
    );
    // Colours used this much are kept exactly.
    assert_eq!(last, pictures[3]);
}

#[test]
fn changes_far_apart_are_stored_as_separate_frames_of_one_turn() {
    let grey = [90, 90, 90];
    let (top, bottom) = (((2, 2), [200, 30, 30]), ((40, 90), [30, 30, 200]));
    let mut both = picture((64, 100), grey, Some(top));
    both.put_pixel(41, 91, Rgb([30, 30, 200]));
    let pictures = vec![
        picture((64, 100), grey, None),
        both,
        picture((64, 100), grey, Some(bottom)),
    ];
    let gif = animate(&pictures, |p| p.clone());
    let (frames, last) = play(&gif);
    assert_eq!(
        frames,
        [
            (FRAME_DELAY, (0, 0, 64, 100)),
            (STEP_DELAY, (2, 2, 4, 4)),
            (FRAME_DELAY - STEP_DELAY, (41, 91, 1, 1)),
            (STEP_DELAY, (2, 2, 4, 4)),
            (LAST_DELAY - STEP_DELAY, (40, 90, 4, 4)),
        ]
    );
    assert_eq!(last, pictures[2]);
}

#[test]
fn changes_side_by_side_but_far_apart_are_separate_rectangles() {
    let grey = [90, 90, 90];
    let before = picture((100, 20), grey, None);
    let mut after = picture((100, 20), grey, Some(((2, 3), [200, 30, 30])));
    after.put_pixel(90, 10, Rgb([30, 30, 200]));
    assert_eq!(changed(&before, &after), [(2, 3, 4, 4), (90, 10, 1, 1)]);
    assert_eq!(changed(&after, &after), []);
}

#[test]
fn a_picture_larger_than_the_first_and_last_widens_the_canvas() {
    let grey = [90, 90, 90];
    let pictures = vec![
        picture((16, 16), grey, None),
        picture((40, 20), grey, Some(((30, 10), [250, 250, 0]))),
        picture((16, 16), grey, None),
    ];
    let gif = animate(&pictures, |p| p.clone());
    let (frames, last) = play(&gif);
    assert_eq!(frames.len(), 3);
    assert_eq!(last.dimensions(), (40, 20));
    assert_eq!(frames[0].1, (0, 0, 40, 20));
}

#[test]
fn a_smaller_picture_sits_at_the_top_centred_across() {
    let grey = [90, 90, 90];
    let red = [220, 20, 20];
    let pictures = vec![
        picture((16, 16), grey, Some(((1, 1), red))),
        picture((40, 20), grey, None),
    ];
    let gif = animate(&pictures, |p| p.clone());
    let frames = play_back(&gif);
    let first = &frames[0].1;
    assert_eq!(first.dimensions(), (40, 20));
    // (40 - 16) / 2 = 12 columns of background on the left.
    assert_eq!(first.get_pixel(12 + 1, 1).0, red);
    assert_eq!(first.get_pixel(1, 1).0, grey);
}
