//! A picture's header: the dot of whoever is to play, the status and the last action, wrapped,
//! and the height the layout leaves for them.

use super::palette::LABEL;
use super::{disc, text, wrap, zoomed};
use image::RgbImage;

/// Room for the status line and one line of the last action (at zoom 1).
const TOP: u32 = 62;
/// The inner padding at a picture's left edge (at zoom 1): the header's, and En Prise's player
/// panel's.
pub const PAD: u32 = 16;

/// A picture's top lines, scaled by `zoom`: a dot in the colours (fill, lines) of whoever is
/// to play, the status (cut to the width), and below it the last action in `dim`, wrapped: the
/// layout leaves [`header_height`] for them.
pub fn header(
    img: &mut RgbImage,
    width: u32,
    zoom: f32,
    dot: Option<([u8; 3], [u8; 3])>,
    status: &str,
    last: Option<&str>,
    dim: [u8; 3],
) {
    let z = |v: u32| zoomed(zoom, v);
    let x = z(PAD + 26) as f32;
    if let Some((body, lines)) = dot {
        disc(img, z(PAD + 9), z(20), z(9), body, lines);
    }
    let status = status_lines(width, zoom, status);
    for (i, line) in status.iter().enumerate() {
        let y = z(27 + STATUS_LINE * i as u32);
        text(img, x, y as f32, 19.0 * zoom, line, LABEL);
    }
    let below = STATUS_LINE * (status.len() as u32 - 1);
    for (i, line) in last_lines(width, zoom, last).iter().enumerate() {
        let y = z(51 + below + LAST_LINE * i as u32);
        text(img, x, y as f32, 15.0 * zoom, line, dim);
    }
}

/// Height of each further line of the status and of the last action (at zoom 1).
const STATUS_LINE: u32 = 23;
const LAST_LINE: u32 = 18;

/// The status wrapped to the header's width: a long one (a game over with its reasons) is
/// never cut.
fn status_lines(width: u32, zoom: f32, status: &str) -> Vec<String> {
    let room = (width - zoomed(zoom, 2 * PAD + 26)) as f32;
    wrap(status, 19.0 * zoom, room)
}

/// The last action ("Last: ...") wrapped to the header's width.
fn last_lines(width: u32, zoom: f32, last: Option<&str>) -> Vec<String> {
    let room = (width - zoomed(zoom, 2 * PAD + 26)) as f32;
    last.map_or_else(Vec::new, |last| {
        wrap(&format!("Last: {last}"), 15.0 * zoom, room)
    })
}

/// The height of the header of a picture `width` wide at `zoom`: the status and the last
/// action, with room for `reserve` lines of it at least, so the picture below moves down
/// rather than either being cut.
pub fn header_height(
    width: u32,
    zoom: f32,
    status: &str,
    last: Option<&str>,
    reserve: usize,
) -> u32 {
    let status = status_lines(width, zoom, status).len() as u32;
    let last = last_lines(width, zoom, last).len().max(reserve).max(1) as u32;
    zoomed(
        zoom,
        TOP + STATUS_LINE * (status - 1) + LAST_LINE * (last - 1),
    )
}
