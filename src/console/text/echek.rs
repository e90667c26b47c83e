//! Echek n°1 as text: the area a window could still cover with the pieces in it, the
//! supplies, and each king's free neighbours.

use crate::games::chess::Color;
use crate::games::echek::EchekView;

/// The area a window could still cover, pieces in it (upper case White, lower case Black), then
/// the supplies and each king's free neighbours.
pub(super) fn text_echek(view: &EchekView) -> Vec<String> {
    let (lo, hi) = view.area;
    let mut lines = Vec::new();
    for y in (lo.y..=hi.y).rev() {
        let mut row = format!("{y:>3} |");
        for x in lo.x..=hi.x {
            let piece = view.pieces.iter().find(|(s, _)| s.x == x && s.y == y);
            row.push_str(&match piece {
                Some((_, p)) if p.color == Color::White => format!(" {}", p.role.letter()),
                Some((_, p)) => format!(" {}", p.role.letter().to_ascii_lowercase()),
                None => " .".to_string(),
            });
        }
        lines.push(row);
    }
    let xs: String = (lo.x..=hi.x).map(|x| format!("{x:>2}")).collect();
    lines.push(format!("    x{xs}"));
    lines.push("(upper case White, lower case Black; the area shown is where the 4x4 limit can still reach)".into());
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let supply: Vec<String> = view.supply[i]
            .iter()
            .map(|r| r.letter().to_string())
            .collect();
        let king = view.kings.iter().find(|k| k.color == color);
        lines.push(format!(
            "{color}: supply [{}]{}{}",
            supply.join(" "),
            king.map_or(String::new(), |k| format!(
                ", king on {} with {} free",
                k.at.xy(),
                k.free
            )),
            if view.swap_used[i] {
                ", rook swap used"
            } else {
                ""
            }
        ));
    }
    if let Some(last) = &view.last {
        lines.push(format!("last: {}", last.text));
    }
    lines.push(view.status.clone());
    lines
}
