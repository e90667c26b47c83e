//! En Prise as text: the board built so far, square by square, and each battleplan as the
//! viewer may see it.

use crate::games::enprise::{EnPriseView, SquareView};

/// The growing board as a grid (x left to right, y top to bottom from high to low), then each
/// battleplan as the viewer may see it.
pub(super) fn text_enprise(view: &EnPriseView) -> Vec<String> {
    let mut lines = Vec::new();
    let tag = |p: &crate::games::enprise::Piece| {
        let c = ['w', 'b', 'r', 'u'][p.owner.index() % 4];
        format!("{c}{}", p.role.letter())
    };
    let xs = view.squares.iter().map(|s| s.at.x);
    let ys = view.squares.iter().map(|s| s.at.y);
    if let (Some(x0), Some(x1), Some(y0), Some(y1)) =
        (xs.clone().min(), xs.max(), ys.clone().min(), ys.max())
    {
        let (lo, hi) = ((x0, y0), (x1, y1));
        for y in (lo.1..=hi.1).rev() {
            let mut row = format!("{y:>3} |");
            for x in lo.0..=hi.0 {
                let cell = view.squares.iter().find(|s| s.at.x == x && s.at.y == y);
                row.push_str(&match cell {
                    None => "   ".to_string(),
                    Some(SquareView { piece: None, .. }) => " ..".to_string(),
                    Some(SquareView { piece: Some(p), .. }) => format!(" {}", tag(p)),
                });
            }
            lines.push(row.trim_end().to_string());
        }
        let xs: String = (lo.0..=hi.0).map(|x| format!("{x:>3}")).collect();
        lines.push(format!("    x{xs}"));
        lines.push("(.. a vacant square; w b r u = White Black Red Blue)".into());
    } else {
        lines.push("the table is empty: the first card goes at 0,0".into());
    }
    for p in &view.players {
        let plan: Vec<String> = p
            .plan
            .cards
            .iter()
            .map(|c| c.map_or("?".to_string(), |r| r.letter().to_string()))
            .collect();
        let mut line = format!("{}: ", p.colour);
        if let Some(out) = &p.out {
            line.push_str(&format!("out ({out})"));
        } else {
            line.push_str(&format!(
                "plan [{}]{}",
                plan.join(" "),
                if p.king_in_hand { ", king in hand" } else { "" }
            ));
        }
        lines.push(line);
    }
    if let Some(last) = &view.last {
        lines.push(format!("last: {}", last.text));
    }
    lines.push(view.status.clone());
    lines
}
