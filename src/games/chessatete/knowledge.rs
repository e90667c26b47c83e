//! What each Chess-à-Tête player has learnt of cards it cannot see now: cards it knows are in
//! the other hand (shown by a peek, or taken back from a graveyard in everyone's sight), power
//! pieces taken into that hand without being named, and how much of the top of its own deck it
//! has looked at. A computer player deals everything else again for its search
//! ([`ChessATete::deal_unseen`]) and keeps these, so it neither forgets what its seat saw nor
//! uses what it did not.

use super::deck::PieceKind;
use super::{CardId, ChessATete, piece_kind};
use crate::engine::{GameRng, Seat};
use crate::games::chess::Color;
use serde::{Deserialize, Serialize};

/// One player's knowledge of cards out of its sight.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// Cards known to be in the other hand, an entry a copy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) their_hand: Vec<CardId>,
    /// Power pieces known to be in the other hand besides `their_hand`: taken from the other
    /// deck with only their kind told ("a power piece").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) their_power: u8,
    /// Cards at the top of its own deck it has looked at (still in the deck's order).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) deck_top: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Whether neither player has learnt anything (the state is then saved without it, as before
/// this was kept).
pub(super) fn nothing_seen(seen: &[Seen; 2]) -> bool {
    seen.iter().all(|s| *s == Seen::default())
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

    /// `color` looked at the other hand: it knows it whole.
    pub(super) fn peeked_at_hand(&mut self, color: Color) {
        let hand = self.side(color.other()).hand.clone();
        let seen = self.seen_mut(color);
        seen.their_hand = hand;
        seen.their_power = 0;
    }

    /// `color` looked at the top `n` cards of its deck.
    pub(super) fn peeked_at_deck(&mut self, color: Color, n: u8) {
        let len = u8::try_from(self.side(color).deck.len()).unwrap_or(u8::MAX);
        let seen = self.seen_mut(color);
        seen.deck_top = seen.deck_top.max(n).min(len);
    }

    /// `color` drew the top card of its deck.
    pub(super) fn drew(&mut self, color: Color) {
        let seen = self.seen_mut(color);
        seen.deck_top = seen.deck_top.saturating_sub(1);
    }

    /// `color`'s deck was shuffled: nobody knows its order.
    pub(super) fn deck_shuffled(&mut self, color: Color) {
        self.seen_mut(color).deck_top = 0;
    }

    /// A state `seat` cannot tell apart from this one with all it has seen: the part of its
    /// own deck it has not looked at in another order, and the other hand and deck dealt
    /// again from their cards, keeping in that hand the cards and power pieces it knows are
    /// there. What it does not know is sorted before it is shuffled, so the deal depends only
    /// on what the seat knows.
    pub(super) fn deal_unseen(&self, seat: Seat, rng: &mut GameRng) -> ChessATete {
        let mut other = self.clone();
        let me = if seat.0 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let seen = &self.seen[me.index()];
        let deck = &mut other.side_mut(me).deck;
        let unseen = deck.len() - usize::from(seen.deck_top).min(deck.len());
        deck[..unseen].sort_unstable();
        rng.shuffle(&mut deck[..unseen]);

        let them = other.side_mut(me.other());
        let size = them.hand.len();
        let mut pool: Vec<CardId> = them.hand.iter().chain(&them.deck).copied().collect();
        pool.sort_unstable();
        let mut hand = Vec::with_capacity(size);
        for &id in &seen.their_hand {
            if let Some(at) = pool.iter().position(|&p| p == id) {
                hand.push(pool.remove(at));
            }
        }
        rng.shuffle(&mut pool);
        let mut power = seen.their_power;
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
        other
    }
}
