//! Chess and Enthralling Chess as text: the 8x8 board from the viewer's side, the last move,
//! a check, and (Enthralling) the key to enthralled pieces.

use crate::games::chess::{BoardView, Color};
use crate::games::enthralling::EnthrallingView;

pub(super) fn text_board(view: &BoardView) -> Vec<String> {
    let mut grid = vec![vec![". ".to_string(); 8]; 8];
    for placed in &view.pieces {
        let (f, r) = (placed.square.file() as usize, placed.square.rank() as usize);
        grid[r][f] = format!(
            "{}{}",
            placed.piece.fen_char(),
            if placed.marked { '*' } else { ' ' }
        );
    }
    let white = view.bottom == Color::White;
    let ranks: Vec<usize> = if white {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let files: Vec<usize> = if white {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let mut lines = Vec::new();
    for r in ranks {
        let row: String = files.iter().map(|&f| grid[r][f].as_str()).collect();
        lines.push(format!("{} | {}", r + 1, row.trim_end()));
    }
    let letters: String = files
        .iter()
        .map(|&f| format!("{} ", char::from(b'a' + f as u8)))
        .collect();
    lines.push(format!("    {}", letters.trim_end()));
    if let Some(last) = &view.last_move {
        lines.push(format!("last move: {}", last.san));
    }
    if let Some(sq) = view.check {
        lines.push(format!("check: the king on {sq} is attacked"));
    }
    lines.push(view.status.clone());
    lines
}

/// The board with its enthralled pieces marked; the key goes above the status, which stays the
/// last line as in every game.
pub(super) fn text_enthralling(view: &EnthrallingView) -> Vec<String> {
    let mut lines = text_board(&view.board);
    let at = lines.len() - 1;
    lines.insert(at, "(* marks an enthralled piece)".into());
    lines
}
