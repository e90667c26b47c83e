//! The indexed PNG encoding: few colours stored exactly, rare ones the nearest kept.

use crate::render::draw::indexed::encode;
use image::{Rgb, RgbImage};

fn decode(png: &[u8]) -> RgbImage {
    image::load_from_memory(png).unwrap().to_rgb8()
}

#[test]
fn a_picture_of_few_colours_is_stored_exactly() {
    let mut img = RgbImage::from_pixel(40, 30, Rgb([10, 20, 30]));
    for x in 0..40 {
        img.put_pixel(x, x % 30, Rgb([x as u8 * 6, 200, 7]));
    }
    assert_eq!(decode(&encode(&img)), img);
}

#[test]
fn rare_colours_take_the_nearest_kept_one() {
    // 301 colours: a grey background, 299 reds of two pixels each, one off-grey pixel.
    let mut img = RgbImage::from_pixel(300, 4, Rgb([128, 128, 128]));
    for x in 0..299u32 {
        let c = [(x % 256) as u8, (x / 256) as u8 * 40, 0];
        img.put_pixel(x, 0, Rgb(c));
        img.put_pixel(x, 1, Rgb(c));
    }
    img.put_pixel(299, 0, Rgb([129, 127, 128]));
    let back = decode(&encode(&img));
    // The grey and 255 of the reds (each used twice) are kept; the single off-grey pixel
    // becomes grey.
    assert_eq!(back.get_pixel(299, 0).0, [128, 128, 128]);
    assert_eq!(back.get_pixel(299, 1).0, [128, 128, 128]);
    let exact = (0..300)
        .filter(|&x| back.get_pixel(x, 0) == img.get_pixel(x, 0))
        .count();
    assert!(exact >= 255, "{exact} exact");
    for x in 0..300 {
        let (a, b) = (back.get_pixel(x, 0).0, img.get_pixel(x, 0).0);
        let off: i32 = (0..3)
            .map(|k| (i32::from(a[k]) - i32::from(b[k])).abs())
            .sum();
        // The nearest kept colour is 40 away at most; sharing it across a grid cell adds
        // up to 7 a channel.
        assert!(off <= 40 + 3 * 7, "pixel {x}: {a:?} for {b:?}");
    }
}
