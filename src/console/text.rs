//! Views as text for the terminal: one function per game, drawn from views (never from game
//! states), so the console shows a player exactly what a picture would.

use crate::games::AnyView;
use crate::games::chess::{BoardView, Color};
use crate::games::chessatete::ChessATeteView;
use crate::games::echek::EchekView;
use crate::games::enprise::{EnPriseView, SquareView};
use crate::games::snipe::{self, SnipeView};

/// A view as text for the terminal.
pub fn text_view(view: &AnyView) -> Vec<String> {
    match view {
        AnyView::Chess(board) => text_board(board),
        AnyView::Enthralling(v) => {
            // The key goes above the status, which stays the last line as in every game.
            let mut lines = text_board(&v.board);
            let at = lines.len() - 1;
            lines.insert(at, "(* marks an enthralled piece)".into());
            lines
        }
        AnyView::Enprise(v) => text_enprise(v),
        AnyView::Echek(v) => text_echek(v),
        AnyView::Snipe(v) => text_snipe(v),
        AnyView::Chessatete(v) => text_chessatete(v),
        #[cfg(test)]
        AnyView::Tictactoe(v) => v.rows.iter().chain([&v.status]).cloned().collect(),
    }
}

/// Both sides (Black first): board with its hit points, ongoing cards, counts, and the hand
/// for its owner; then the attack or damage under way, the last turn and what happens now.
fn text_chessatete(view: &ChessATeteView) -> Vec<String> {
    let mut lines = Vec::new();
    for side in view.sides.iter().rev() {
        lines.push(format!(
            "{} board ({} hit points): {}",
            side.color,
            side.board_hp,
            side.board.join(", ")
        ));
        if !side.ongoing.is_empty() {
            lines.push(format!("  in play: {}", side.ongoing.join(", ")));
        }
        lines.push(format!(
            "  hand {}, deck {}, graveyard {}{}",
            side.hand_size,
            side.deck_size,
            side.graveyard.len(),
            side.graveyard
                .last()
                .map_or(String::new(), |top| format!(" (top: {top})"))
        ));
        if let Some(hand) = &side.hand {
            lines.push(format!("  your hand: {}", hand.join(", ")));
        }
    }
    if let Some(attack) = &view.attack {
        lines.push(format!(
            "attack: {} (power {}) with {}",
            attack.combat,
            attack.power,
            attack.pieces.join(", ")
        ));
    }
    if !view.last.is_empty() {
        lines.push(format!("last: {}", view.last.join("; ")));
    }
    if let Some(decisive) = &view.decisive {
        lines.push(format!("the play that won: {}", decisive.text));
    }
    lines.push(view.status.clone());
    lines
}

/// The forest, rank 10 at the top, cards boxed by lines: pieces (upper case White, lower case
/// Black) over the space letters of the deck file; then kings, pieces to place, the unused cards
/// under the feather rule, the last turn and what happens now.
fn text_snipe(view: &SnipeView) -> Vec<String> {
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

/// The area a window could still cover, pieces in it (upper case White, lower case Black), then
/// the supplies and each king's free neighbours.
fn text_echek(view: &EchekView) -> Vec<String> {
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

/// The growing board as a grid (x left to right, y top to bottom from high to low), then each
/// battleplan as the viewer may see it.
fn text_enprise(view: &EnPriseView) -> Vec<String> {
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

fn text_board(view: &BoardView) -> Vec<String> {
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
