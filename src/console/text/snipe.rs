//! Snipe Chess as text: the forest of cards with its spaces and pieces, then the kings, the
//! pieces to place, the cards left under the feather rule and what happens now.

use crate::games::chess::Color;
use crate::games::snipe::{self, SnipeView};

/// The forest, rank 10 at the top, cards boxed by lines: pieces (upper case White, lower case
/// Black) over the space letters of the deck file; then kings, pieces to place, the unused cards
/// under the feather rule, the last turn and what happens now.
pub(super) fn text_snipe(view: &SnipeView) -> Vec<String> {
    let size = view.spaces.len();
    let files: String = (0..size)
        .map(|x| {
            let sep = if x > 0 && x % 2 == 0 { "   " } else { " " };
            format!("{sep}{}", char::from(b'a' + x as u8))
        })
        .collect();
    let mut lines = vec![format!("    {files}")];
    for y in (0..size).rev() {
        let mut row = format!("{:>3} ", y + 1);
        for x in 0..size {
            if x > 0 && x % 2 == 0 {
                row.push_str(" |");
            }
            let piece = view
                .pieces
                .iter()
                .find(|(s, _)| s.x == x as i16 && s.y == y as i16);
            let c = match piece {
                Some((_, p)) if p.color == Color::White => p.role.letter(),
                Some((_, p)) => p.role.letter().to_ascii_lowercase(),
                None => view.spaces[y][x].letter(),
            };
            row.push(' ');
            row.push(c);
        }
        if y > 0 && y % 2 == 0 {
            // A line between rows of cards, crossing the card borders with +.
            let rule: String = row
                .chars()
                .enumerate()
                .map(|(i, c)| match c {
                    _ if i < 4 => ' ',
                    '|' => '+',
                    _ => '-',
                })
                .collect();
            lines.push(row);
            lines.push(rule);
        } else {
            lines.push(row);
        }
    }
    lines.push(
        "(K P White, k p Black; T tree, R turns a card 90 degrees, U 180, F flag, S feather)"
            .into(),
    );
    for king in &view.kings {
        lines.push(format!(
            "{} king on {}: {} free",
            king.color,
            snipe::square(king.at),
            king.free
        ));
    }
    for (color, left) in [Color::White, Color::Black].iter().zip(&view.to_place) {
        if !left.is_empty() {
            let letters: Vec<String> = left.iter().map(|r| r.letter().to_string()).collect();
            lines.push(format!("{color} to place: {}", letters.join(" ")));
        }
    }
    if view.options.feather {
        lines.push(format!("unused cards: {}", view.stock.join(", ")));
    }
    if let Some(last) = &view.last {
        lines.push(format!("last: {}", last.text));
    }
    lines.push(view.status.clone());
    lines
}
