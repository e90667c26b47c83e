//! En Prise's evaluation: each seat's chances in a game not yet over, for a computer player's
//! playout cut short (see `Game::evaluate`). A seat's strength counts its material on the board
//! and still in its plan, less what stands attacked, and how free its king is; the chances
//! compare strengths seat against seat and keep the places of those already out.

use super::{EnPrise, Phase};
use crate::engine::Seat;
use crate::games::chess::Role;

/// How much one pawn's worth of strength moves a comparison between two seats: a difference of
/// `SCALE` pawns gives the stronger seat about three chances in four.
const SCALE: f64 = 4.0;

/// A piece's worth in pawns. Pawns never move nor capture: they are walls and squares.
fn worth(role: Role) -> f64 {
    match role {
        Role::Queen => 9.0,
        Role::Rook => 5.0,
        Role::Bishop => 3.2,
        Role::Knight => 3.0,
        Role::Pawn => 0.4,
        Role::King => 0.0,
    }
}

/// Cards still in a plan count for less than pieces already on the board: they take turns to
/// bring in, and the board may have no good square left for them.
const IN_PLAN: f64 = 0.7;

/// Each seat's chances from 0 to 1, on the same scale as the rewards of an ending: finishing
/// first 1, last 0, and a seat already out keeps the place it went out in.
pub fn chances(game: &EnPrise) -> Vec<f64> {
    let n = game.seats;
    if let Phase::Over(outcome) = &game.phase {
        return places(outcome, n);
    }
    let strength: Vec<f64> = Seat::all(n).map(|s| strength(game, s)).collect();
    let mut chances = vec![0.0; n];
    // Those out already: the first out is last.
    for (k, e) in game.eliminated.iter().enumerate() {
        if let Some(c) = chances.get_mut(e.seat.index()) {
            *c = k as f64 / (n - 1).max(1) as f64;
        }
    }
    let sides = game.sides();
    if sides.alliance {
        let team = |t: u8| -> f64 {
            Seat::all(n)
                .filter(|&s| sides.team(s) == t && game.alive[s.index()])
                .map(|s| strength[s.index()])
                .sum()
        };
        let first = logistic(team(0) - team(1));
        // A team's win is worth 5/6 to each partner and its loss 1/6, as `ai::rewards` scores
        // the places [[a, c], [b, d]].
        for s in Seat::all(n) {
            let win = if sides.team(s) == 0 {
                first
            } else {
                1.0 - first
            };
            chances[s.index()] = (1.0 + 4.0 * win) / 6.0;
        }
        return chances;
    }
    let live: Vec<Seat> = game.live().collect();
    let m = live.len();
    for &s in &live {
        let ahead: f64 = live
            .iter()
            .filter(|&&o| o != s)
            .map(|&o| logistic(strength[s.index()] - strength[o.index()]))
            .sum();
        chances[s.index()] = ((n - m) as f64 + ahead) / (n - 1).max(1) as f64;
    }
    chances
}

fn logistic(difference: f64) -> f64 {
    1.0 / (1.0 + (-difference * 3f64.ln() / SCALE).exp())
}

/// The rewards of a finished game: `ai::rewards` spelled again here, since rules code does
/// not depend on the computer player.
fn places(outcome: &crate::engine::Outcome, n: usize) -> Vec<f64> {
    let mut reward = vec![0.5; n];
    let mut behind = n;
    for place in &outcome.places {
        behind = behind.saturating_sub(place.len());
        let tied = place.len().saturating_sub(1);
        for seat in place {
            if let Some(r) = reward.get_mut(seat.index()) {
                *r = (behind as f64 + tied as f64 / 2.0) / (n - 1).max(1) as f64;
            }
        }
    }
    reward
}

/// A seat's strength in pawns: material on the board (a third off a piece that an opponent
/// attacks) and in the plan, and its king's freedom.
fn strength(game: &EnPrise, seat: Seat) -> f64 {
    if !game.alive[seat.index()] {
        return 0.0;
    }
    let sides = game.sides();
    let board = &game.board;
    let mut total: f64 = game.plans[seat.index()]
        .iter()
        .map(|card| IN_PLAN * worth(card.role))
        .sum();
    let mut king = None;
    for (sq, piece) in board.pieces().filter(|(_, p)| p.owner == seat) {
        if piece.role == Role::King {
            king = Some(sq);
            continue;
        }
        let value = worth(piece.role);
        let threatened = piece.role != Role::Pawn && board.attacked(sq, seat, sides);
        total += if threatened { value * 2.0 / 3.0 } else { value };
    }
    if let Some(at) = king {
        let free = crate::board::ALL_DIRECTIONS
            .into_iter()
            .map(|d| at.offset(d))
            .filter(|&to| match board.get(to) {
                Some(None) => true,
                Some(Some(p)) => sides.opposed(p.owner, seat),
                None => false,
            })
            .filter(|&to| !board.attacked(to, seat, sides))
            .count();
        total += 0.5 * free.min(4) as f64;
        if board.attacked(at, seat, sides) {
            total -= if free == 0 { 6.0 } else { 1.0 };
        } else if free == 0 {
            total -= 2.0;
        }
    } else {
        // A king in hand is safe for now; it will come where the owner chooses.
        total += 1.5;
    }
    total
}
