//! What each Chess-à-Tête player has learnt of cards it cannot see now: cards it knows are in
//! the other hand (shown by a peek, or taken back from a graveyard in everyone's sight), power
//! pieces taken into that hand without being named, that the other deck holds no power piece,
//! and the cards at the top of its own deck it has looked at. A computer player deals everything else again for its search
//! ([`ChessATete::deal_unseen`]) and keeps these, so it neither forgets what its seat saw nor
//! uses what it did not.

use super::deck::PieceKind;
use super::{CardId, ChessATete, piece_kind};
use crate::engine::{GameRng, Seat};
use crate::games::chess::{Color, color_of};
use serde::{Deserialize, Serialize};

/// One player's knowledge of cards out of its sight. Always saved: a snapshot from before it
/// was kept does not load, so the table replays that match's log and learns it all again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// Cards known to be in the other hand, an entry a copy, in the order they were learnt (a
    /// hand looked at is learnt sorted, as it was shown).
    pub(super) their_hand: Vec<CardId>,
    /// Power pieces known to be in the other hand besides `their_hand`: taken from the other
    /// deck with only their kind told ("a power piece").
    pub(super) their_power: u8,
    /// The cards at the top of its own deck it has looked at, top last, while they are there.
    pub(super) deck_top: Vec<CardId>,
    /// The other deck holds no power piece: a Herald found none there (no card ever goes
    /// back into a deck, so it stays so).
    pub(super) their_deck_unpowered: bool,
}

/// A Knight, Bishop or Rook: what "a power piece" may be.
pub(super) fn is_power(id: CardId) -> bool {
    matches!(
        piece_kind(id),
        Some(PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook)
    )
}

impl ChessATete {
    fn seen_mut(&mut self, knower: Color) -> &mut Seen {
        &mut self.seen[knower.index()]
    }

    /// Takes the first `id` out of `color`'s hand in everyone's sight (played or burned).
    pub(super) fn take_from_hand(&mut self, color: Color, id: CardId) {
        let hand = &mut self.side_mut(color).hand;
        let at = hand.iter().position(|&h| h == id).expect("in hand");
        hand.remove(at);
        self.left_hand(color, id);
    }

    /// One `id` left `color`'s hand in everyone's sight: the other player knows of one copy
    /// fewer there, or, when it knew of none, of one power piece fewer if `id` is one.
    pub(super) fn left_hand(&mut self, color: Color, id: CardId) {
        let seen = self.seen_mut(color.other());
        if let Some(at) = seen.their_hand.iter().position(|&k| k == id) {
            seen.their_hand.remove(at);
        } else if is_power(id) {
            seen.their_power = seen.their_power.saturating_sub(1);
        }
    }

    /// `color` took `id` into its hand in everyone's sight.
    pub(super) fn shown_into_hand(&mut self, color: Color, id: CardId) {
        self.seen_mut(color.other()).their_hand.push(id);
    }

    /// `color` took a power piece into its hand, told only by its kind.
    pub(super) fn power_into_hand(&mut self, color: Color) {
        let seen = self.seen_mut(color.other());
        seen.their_power = seen.their_power.saturating_add(1);
    }

    /// `color` found no power piece in its deck, in everyone's sight.
    pub(super) fn no_power_in_deck(&mut self, color: Color) {
        self.seen_mut(color.other()).their_deck_unpowered = true;
    }

    /// `color` looked at the other hand: it knows it whole, though not in its order.
    pub(super) fn peeked_at_hand(&mut self, color: Color) {
        let mut hand = self.side(color.other()).hand.clone();
        hand.sort_unstable();
        let seen = self.seen_mut(color);
        seen.their_hand = hand;
        seen.their_power = 0;
    }

    /// `color` looked at the top `n` cards of its deck.
    pub(super) fn peeked_at_deck(&mut self, color: Color, n: u8) {
        let deck = &self.side(color).deck;
        let known = usize::from(n).max(self.seen[color.index()].deck_top.len());
        let top = deck[deck.len() - known.min(deck.len())..].to_vec();
        self.seen_mut(color).deck_top = top;
    }

    /// `color` drew the top card of its deck.
    pub(super) fn drew(&mut self, color: Color) {
        self.seen_mut(color).deck_top.pop();
    }

    /// `color`'s deck was shuffled: nobody knows its order.
    pub(super) fn deck_shuffled(&mut self, color: Color) {
        self.seen_mut(color).deck_top.clear();
    }

    /// A state `seat` cannot tell apart from this one with all it has seen: the part of its
    /// own deck it has not looked at in another order, and the other hand and deck dealt
    /// again from their cards, keeping in that hand the cards and power pieces it knows are
    /// there (every power piece left, when the other deck holds none). What it does not know
    /// is sorted before it is shuffled, so the deal depends only on what the seat knows.
    pub(super) fn deal_unseen(&self, seat: Seat, rng: &mut GameRng) -> ChessATete {
        let mut other = self.clone();
        let me = color_of(seat).unwrap_or(Color::Black);
        let seen = &self.seen[me.index()];
        let deck = &mut other.side_mut(me).deck;
        let mut unseen = deck.clone();
        unseen.sort_unstable();
        let mut top = Vec::with_capacity(seen.deck_top.len());
        for id in &seen.deck_top {
            if let Some(at) = unseen.iter().position(|c| c == id) {
                top.push(unseen.remove(at));
            }
        }
        rng.shuffle(&mut unseen);
        unseen.extend(top);
        *deck = unseen;

        let them = other.side_mut(me.other());
        let size = them.hand.len();
        let mut pool: Vec<CardId> = them.hand.iter().chain(&them.deck).copied().collect();
        pool.sort_unstable();
        let mut known = seen.their_hand.clone();
        known.sort_unstable();
        let mut hand = Vec::with_capacity(size);
        for id in known {
            if let Some(at) = pool.iter().position(|&p| p == id) {
                hand.push(pool.remove(at));
            }
        }
        rng.shuffle(&mut pool);
        let mut power = match seen.their_deck_unpowered {
            true => usize::MAX,
            false => usize::from(seen.their_power),
        };
        let mut i = 0;
        while power > 0 && i < pool.len() {
            if is_power(pool[i]) {
                hand.push(pool.remove(i));
                power -= 1;
            } else {
                i += 1;
            }
        }
        while hand.len() > size {
            pool.push(hand.pop().expect("more than none"));
        }
        while hand.len() < size {
            hand.push(pool.pop().expect("the hand's cards are in the pool"));
        }
        them.hand = hand;
        them.deck = pool;
        // What the other player looked at of its deck is the top of the deck as dealt: the
        // seat knows how much, not which cards.
        let looked = self.seen[me.other().index()].deck_top.len();
        let top = them.deck[them.deck.len() - looked.min(them.deck.len())..].to_vec();
        other.seen[me.other().index()].deck_top = top;
        other
    }
}
