//! Perft: the number of leaf nodes of the legal move tree, the standard check of a move
//! generator.

use super::Position;

/// The deepest perft the command line runs: deeper counts take hours (and the recursion is as
/// deep as the count).
pub const PERFT_LIMIT: u32 = 6;

/// Counts leaf nodes of the legal move tree to `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(&pos.play_unchecked(mv), depth - 1))
        .sum()
}
