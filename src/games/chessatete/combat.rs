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

/// The ways a defender may absorb `amount` damage, and the hit points each way loses: sets of
/// pieces (never the King) whose hit points add up to exactly `amount` when some set does,
/// otherwise to the largest total below it that some set reaches. Each set is sorted, and the
/// sets come fewest pieces first; pawns have `pawn_bonus` more hit points. A board with nothing
/// to lose gives one empty set.
///
/// Under the first revision of deckmate's rules (`first_rules`, for matches stored before the
/// exact-damage rule), any set of at most `amount` hit points was allowed that left no other
/// piece the remaining damage could destroy; the total returned is then the largest of those.
pub fn absorptions(
    board: &[CardId],
    amount: u32,
    pawn_bonus: u32,
    first_rules: bool,
) -> (u32, Vec<Vec<CardId>>) {
    let hp = |id| hp(id, pawn_bonus);
    let mut counts: BTreeMap<CardId, usize> = BTreeMap::new();
    for id in fighters(board) {
        *counts.entry(id).or_default() += 1;
    }
    let kinds: Vec<(CardId, usize)> = counts.into_iter().collect();
    /// Every choice of how many of each kind to lose, costing at most `left`, with its cost.
    fn choose(
        kinds: &[(CardId, usize)],
        hp: &dyn Fn(CardId) -> u32,
        left: u32,
        taken: &mut Vec<CardId>,
        out: &mut Vec<(u32, Vec<CardId>)>,
        spent: u32,
    ) {
        let Some((&(id, count), rest)) = kinds.split_first() else {
            out.push((spent, taken.clone()));
            return;
        };
        let before = taken.len();
        for n in 0..=count {
            let cost = hp(id) * n as u32;
            if cost > left {
                break;
            }
            taken.truncate(before);
            taken.extend(std::iter::repeat_n(id, n));
            choose(rest, hp, left - cost, taken, out, spent + cost);
        }
        taken.truncate(before);
    }
    let mut all = Vec::new();
    choose(&kinds, &hp, amount, &mut vec![], &mut all, 0);
    let best = if first_rules {
        // Revision 1: any set that leaves no piece the rest of the damage could destroy.
        all.retain(|(total, way)| {
            kinds.iter().all(|&(id, count)| {
                way.iter().filter(|&&w| w == id).count() == count || hp(id) > amount - total
            })
        });
        all.iter().map(|&(total, _)| total).max().unwrap_or(0)
    } else {
        let best = all.iter().map(|&(total, _)| total).max().unwrap_or(0);
        all.retain(|&(total, _)| total == best);
        best
    };
    let mut ways: Vec<Vec<CardId>> = all.into_iter().map(|(_, way)| way).collect();
    // Fewest pieces first.
    ways.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    (best, ways)
}
