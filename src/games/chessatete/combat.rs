//! Combat arithmetic: the ways to fill a combat card's requirements from a board, and the ways a
//! defender may absorb damage.

use super::deck::{CardKind, Need, PieceKind};
use super::{CardId, card, piece_kind};
use std::collections::{BTreeMap, BTreeSet};

/// A combat card's printed power (0 for any other card).
pub fn power(id: CardId) -> u32 {
    match card(id).kind {
        CardKind::Combat { power, .. } => u32::from(power),
        _ => 0,
    }
}

/// A piece card's hit points, pawns with `pawn_bonus` more (0 for any other card).
pub fn hp(id: CardId, pawn_bonus: u32) -> u32 {
    match card(id).kind {
        CardKind::Piece {
            hp,
            piece: PieceKind::Pawn,
            ..
        } => u32::from(hp) + pawn_bonus,
        CardKind::Piece { hp, .. } => u32::from(hp),
        _ => 0,
    }
}

fn fills(need: &Need, id: CardId) -> bool {
    match need {
        Need::Kind(kind) => piece_kind(id) == Some(*kind),
        Need::Pawn(name) => piece_kind(id) == Some(PieceKind::Pawn) && card(id).name == *name,
    }
}

/// The pieces of a board that can fight or absorb damage: all but the King.
fn fighters(board: &[CardId]) -> Vec<CardId> {
    board
        .iter()
        .copied()
        .filter(|&id| piece_kind(id) != Some(PieceKind::King))
        .collect()
}

/// Every way to fill `combat`'s requirements from `board`, one piece per line, each way as the
/// sorted pieces it mobilises. Empty when the board cannot.
pub fn mobilisations(combat: CardId, board: &[CardId]) -> Vec<Vec<CardId>> {
    let CardKind::Combat { needs, .. } = &card(combat).kind else {
        return vec![];
    };
    fn fill(
        needs: &[Vec<Need>],
        pool: &mut Vec<CardId>,
        chosen: &mut Vec<CardId>,
        out: &mut BTreeSet<Vec<CardId>>,
    ) {
        let Some((line, rest)) = needs.split_first() else {
            let mut way = chosen.clone();
            way.sort();
            out.insert(way);
            return;
        };
        let mut tried = BTreeSet::new();
        for i in 0..pool.len() {
            let id = pool[i];
            if !tried.insert(id) || !line.iter().any(|need| fills(need, id)) {
                continue;
            }
            pool.remove(i);
            chosen.push(id);
            fill(rest, pool, chosen, out);
            chosen.pop();
            pool.insert(i, id);
        }
    }
    let mut out = BTreeSet::new();
    fill(needs, &mut fighters(board), &mut vec![], &mut out);
    out.into_iter().collect()
}

/// The ways a defender may absorb `amount` damage: sets of pieces (never the King) whose hit
/// points add up to at most `amount`, leaving no other piece the remaining damage could
/// destroy (damage that does not cover a piece's hit points does not touch it). Each set is
/// sorted. Pawns have `pawn_bonus` more hit points.
pub fn absorptions(board: &[CardId], amount: u32, pawn_bonus: u32) -> Vec<Vec<CardId>> {
    let hp = |id| hp(id, pawn_bonus);
    let mut counts: BTreeMap<CardId, usize> = BTreeMap::new();
    for id in fighters(board) {
        *counts.entry(id).or_default() += 1;
    }
    let kinds: Vec<(CardId, usize)> = counts.into_iter().collect();
    fn choose(
        kinds: &[(CardId, usize)],
        hp: &dyn Fn(CardId) -> u32,
        left: u32,
        taken: &mut Vec<(CardId, usize)>,
        out: &mut Vec<Vec<(CardId, usize)>>,
    ) {
        let Some((&(id, count), rest)) = kinds.split_first() else {
            out.push(taken.clone());
            return;
        };
        for n in 0..=count {
            let cost = hp(id) * n as u32;
            if cost > left {
                break;
            }
            taken.push((id, n));
            choose(rest, hp, left - cost, taken, out);
            taken.pop();
        }
    }
    let mut all = Vec::new();
    choose(&kinds, &hp, amount, &mut vec![], &mut all);
    all.into_iter()
        .filter(|taken| {
            let used: u32 = taken.iter().map(|&(id, n)| hp(id) * n as u32).sum();
            let left = amount - used;
            taken
                .iter()
                .zip(&kinds)
                .all(|(&(id, n), &(_, count))| n == count || hp(id) > left)
        })
        .map(|taken| {
            taken
                .into_iter()
                .flat_map(|(id, n)| std::iter::repeat_n(id, n))
                .collect()
        })
        .collect()
}
