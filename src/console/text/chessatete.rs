//! Chess-à-Tête as text: each side's board, hit points, ongoing cards and counts, the
//! viewer's own hand, the attack or damage under way, and the last turn.

use crate::games::chessatete::ChessATeteView;

/// Both sides (Black first): board with its hit points, ongoing cards, counts, and the hand
/// for its owner; then the attack or damage under way, the last turn and what happens now.
pub(super) fn text_chessatete(view: &ChessATeteView) -> Vec<String> {
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
