//! Tests of the chess engine: mate-in-two problems checked by an independent brute force
//! (`mates`), and the search's and the levels' behaviour (`play`).

use super::*;
use crate::games::chess::{Color, Position};

mod mates;
mod play;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A search of `pos` to `depth` plies with nothing else stopping it.
fn search_depth(pos: &Position, depth: u32) -> Report {
    let limits = Limits {
        depth: Some(depth),
        nodes: None,
    };
    search(
        pos,
        &[pos.repetition_key()],
        &limits,
        &|| false,
        &mut |_| {},
    )
    .expect("a legal move")
}

/// The side to move is checkmated.
fn mated(pos: &Position) -> bool {
    pos.in_check() && !pos.has_legal_move()
}

/// Whether the side to move forces mate within `moves` of its moves, by trying everything
/// (written apart from the engine: only the move generator is shared).
fn forces_mate(pos: &Position, moves: u32) -> bool {
    moves > 0
        && pos
            .legal_moves()
            .into_iter()
            .any(|mv| mates_after(pos, mv, moves))
}

/// Whether playing `mv` forces mate within `moves` moves (`mv` the first).
fn mates_after(pos: &Position, mv: crate::games::chess::Move, moves: u32) -> bool {
    let next = pos.play_unchecked(mv);
    if mated(&next) {
        return true;
    }
    let replies = next.legal_moves();
    !replies.is_empty()
        && moves > 1
        && replies
            .into_iter()
            .all(|reply| forces_mate(&next.play_unchecked(reply), moves - 1))
}

#[test]
fn the_brute_force_sees_mates_and_their_absence() {
    // Fool's mate, one move before: Black mates in one with Qh4.
    let fools = position("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    assert!(forces_mate(&fools, 1));
    assert!(!forces_mate(&Position::default(), 2));
    let _ = Color::White;
}
