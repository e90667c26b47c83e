//! Enthralling Chess for the computer player: an evaluation, a key for the transposition table,
//! which turns are noisy and in what order to try them, and the alpha-beta limits of each level
//! (the search itself is `ai::alphabeta`, shared by every game that opts in).
//!
//! The evaluation, in centipawns for White:
//! - **material** of each army as it stands on the board, an enthralled piece counting for the
//!   side that holds it, but only four fifths of it while its owner may still liberate it;
//! - **placement**: knights and bishops nearer the centre, pawns further up the board, a king
//!   that leaves its back rank while queens are on the board pays for it;
//! - **the coming extra**: the side to move, once it must enthrall or liberate, is credited half
//!   of the best Enthrall (the piece's value twice: it leaves one army for the other) or
//!   Liberate (the piece's value) it could make now. Every turn takes something, so a position
//!   is judged with the taking that is surely coming;
//! - the **lone-king win** and checkmate are endings, scored by the search itself.
//!
//! [`Game::evaluate`](crate::engine::Game::evaluate) turns the score into chances
//! `1 / (1 + 10^(−cp / 400))`, which the search turns back into the same centipawns.

use super::{Arena, Enthralling, Extra, Turn};
use crate::ai::alphabeta::{self, Limits};
use crate::engine::{Level, Seat};
use crate::games::chess::{Color, Role, Square};

/// A piece's worth in centipawns.
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

/// The alpha-beta limits of each level: `hard` deepens until the caller's clock stops it (or
/// its depth and node caps, so it also ends without a clock), `medium` looks two turns ahead,
/// `easy` one, with a seeded error of up to 1.5 pawns on each turn's score.
pub fn limits(level: Level) -> Limits {
    match level {
        Level::Easy => Limits {
            depth: 1,
            nodes: 20_000,
            quiescence: 0,
            noise: 150,
            table_bits: 10,
        },
        Level::Medium => Limits {
            depth: 2,
            nodes: 60_000,
            quiescence: 1,
            noise: 0,
            table_bits: 14,
        },
        Level::Hard => Limits {
            depth: 6,
            nodes: 250_000,
            quiescence: 2,
            noise: 0,
            table_bits: 16,
        },
    }
}

/// The turn the computer plays for `seat` at `level`; None when it is not the seat's turn.
pub fn choose(
    game: &Enthralling,
    seat: Seat,
    level: Level,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<Turn> {
    alphabeta::search(game, seat, &limits(level), seed, stop).map(|found| found.action)
}

/// The position's score for White, in centipawns (see the module's comment).
pub fn centipawns(game: &Enthralling) -> i32 {
    let arena = &game.arena;
    let queens = arena
        .position
        .pieces()
        .any(|(_, piece)| piece.role == Role::Queen);
    let mut score = 0;
    for (sq, piece) in arena.position.pieces() {
        let mut worth = value(piece.role) + placement(piece.role, piece.color, sq, queens);
        if let Some(tracked) = arena.tracked_at(sq)
            && tracked.enthralled
            && arena.latest[piece.color.index()] != Some(tracked.origin)
            && !tracked.fresh_promotion
        {
            worth -= value(piece.role) / 5;
        }
        score += if piece.color == Color::White {
            worth
        } else {
            -worth
        };
    }
    let mover = arena.position.turn();
    if game.must_enthrall_or_liberate(mover) {
        let coming = best_extra(arena, mover, game.options.promoted_enthrallable) / 2;
        score += if mover == Color::White {
            coming
        } else {
            -coming
        };
    }
    score
}

/// A small bonus for where a piece stands.
fn placement(role: Role, color: Color, sq: Square, queens: bool) -> i32 {
    let file = i32::from(sq.file());
    let rank = i32::from(sq.rank());
    // Ranks counted from the piece's own side.
    let advanced = if color == Color::White {
        rank
    } else {
        7 - rank
    };
    let centre = 6 - ((2 * file - 7).abs() + (2 * rank - 7).abs()) / 2;
    match role {
        Role::Knight => 6 * centre - 10,
        Role::Bishop => 3 * centre,
        Role::Pawn => {
            4 * (advanced - 1)
                + if (2..=5).contains(&file) {
                    2 * advanced
                } else {
                    0
                }
        }
        Role::King if queens => -15 * advanced,
        _ => 0,
    }
}

/// What the best Enthrall or Liberate `me` could make now is worth, ignoring whether it would
/// expose `me`'s king.
fn best_extra(arena: &Arena, me: Color, promoted_enthrallable: bool) -> i32 {
    let mut best = 0;
    for (sq, piece) in arena.position.pieces() {
        if piece.color == me || matches!(piece.role, Role::King | Role::Queen) {
            continue;
        }
        let Some(tracked) = arena.tracked_at(sq) else {
            continue;
        };
        let gain = if tracked.enthralled {
            let may_liberate = tracked.owner == me
                && arena.latest[piece.color.index()] != Some(tracked.origin)
                && !tracked.fresh_promotion;
            if may_liberate { value(piece.role) } else { 0 }
        } else if (promoted_enthrallable || !tracked.promoted)
            && !arena.enthrall_squares(me, piece.role, sq).is_empty()
        {
            2 * value(piece.role)
        } else {
            0
        };
        best = best.max(gain);
    }
    best
}

/// White's chances and Black's from the score.
pub fn chances(game: &Enthralling) -> Vec<f64> {
    let white = 1.0 / (1.0 + 10f64.powf(-f64::from(centipawns(game)) / 400.0));
    vec![white, 1.0 - white]
}

/// SplitMix64's finaliser: spreads `x` over all 64 bits.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Everything that decides how the game goes on: the position (pieces, side to move, castling,
/// a usable en passant), each tracked piece's square and history, each side's latest enthralled
/// piece, and whether each side must enthrall or liberate yet. The fifty-move count and the
/// repetition history are left out.
pub fn key(game: &Enthralling) -> u64 {
    let arena = &game.arena;
    let mut key = arena.position.repetition_key();
    let mut fold = |x: u64| key = mix(key ^ x);
    for (i, tracked) in arena.pieces.iter().enumerate() {
        let at = tracked.at.map_or(64, |sq| sq.index() as u64);
        let flags = u64::from(tracked.enthralled)
            | u64::from(tracked.promoted) << 1
            | u64::from(tracked.fresh_promotion) << 2;
        fold((i as u64) << 16 | at << 8 | flags);
    }
    for (side, latest) in arena.latest.iter().enumerate() {
        fold(0x1_0000_0000 | (side as u64) << 8 | latest.map_or(64, |sq| sq.index() as u64));
    }
    let plain = |made: u32| u64::from(made.min(super::PLAIN_MOVES));
    fold(0x2_0000_0000 | plain(game.moves_made[0]) << 4 | plain(game.moves_made[1]));
    fold(0x3_0000_0000 | u64::from(game.outcome.is_some()));
    key
}

/// A capture or a promotion.
pub fn is_noisy(game: &Enthralling, turn: &Turn) -> bool {
    turn.mv.promotion.is_some() || game.arena.position.is_capture(turn.mv)
}

/// What the turn takes at once: the piece it captures (the more so with a cheap piece), what
/// it promotes to, and what its Enthrall or Liberate is worth.
pub fn order_hint(game: &Enthralling, turn: &Turn) -> i32 {
    let pos = &game.arena.position;
    let worth = |sq: Square| pos.piece_at(sq).map_or(0, |piece| value(piece.role));
    let mut hint = 0;
    if let Some(captured) = pos.captured_square(turn.mv) {
        hint += 4 * worth(captured) - worth(turn.mv.from) / 10;
    }
    if let Some(role) = turn.mv.promotion {
        hint += value(role);
    }
    hint += match turn.then {
        Some(Extra::Enthrall { from, .. }) => 2 * worth(from),
        Some(Extra::Liberate { at }) => worth(at),
        None => 0,
    };
    hint
}

#[cfg(test)]
mod tests;
