//! The Enthralling Chess picture: the chess board with a coin on each enthralled piece (ringed on
//! the latest ones), and the last Enthrall's landing square or Liberation's emptied square marked.

use super::chess::draw_board_marked;
use crate::games::chess::Square;
use crate::games::enthralling::{EnthrallingView, Extra};
use image::RgbImage;

/// Draws the picture of an Enthralling Chess view.
pub fn draw(v: &EnthrallingView) -> RgbImage {
    let rings: Vec<Square> = v.latest_enthralled.iter().flatten().copied().collect();
    let extra: Vec<Square> = match v.last_extra {
        Some(Extra::Enthrall { to, .. }) => vec![to],
        Some(Extra::Liberate { at }) => vec![at],
        None => vec![],
    };
    draw_board_marked(&v.board, &rings, &extra)
}

impl super::Picture for EnthrallingView {
    fn draw(&self) -> RgbImage {
        draw(self)
    }
}
