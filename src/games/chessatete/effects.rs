//! What Chess-à-Tête's cards do when played: pawn abilities, action cards and the cards played
//! out of turn, and drawing back to seven after a card played out of turn.

use super::deck::{self, Effect, PieceKind};
use super::{CardId, ChessATete, HAND, Phase, card, cards, names, piece_kind};
use crate::engine::{Event, GameRng};
use crate::games::chess::{Color, seat_of};

impl ChessATete {
    /// Draws `color` back to seven after playing out of turn.
    pub(super) fn draw_back(&mut self, color: Color, events: &mut Vec<Event>) {
        let mut drawn = 0;
        while self.side(color).hand.len() < HAND && self.draw(color) {
            drawn += 1;
        }
        if drawn > 0 {
            events.push(Event::public(format!(
                "{} draws {} back toward seven",
                color.name(),
                cards(drawn)
            )));
        }
    }

    /// Carries out a card's effect for `color`.
    pub(super) fn effect(
        &mut self,
        color: Color,
        effect: Effect,
        target: Option<CardId>,
        rng: &mut GameRng,
        events: &mut Vec<Event>,
    ) {
        let who = color.name();
        let them = color.other();
        match effect {
            Effect::Draw(n) => {
                let drawn = (0..n).filter(|_| self.draw(color)).count();
                events.push(Event::public(match drawn {
                    0 => format!("{who}'s deck is empty: no card drawn"),
                    1 => format!("{who} draws a card"),
                    _ => format!("{who} draws {drawn} cards"),
                }));
            }
            Effect::TurnPower(n) if self.budget.combat => {
                events.push(Event::public(format!(
                    "{who} has already attacked this turn: the +{n} power goes unused"
                )));
            }
            Effect::TurnPower(n) => {
                self.budget.turn_power += u32::from(n);
                events.push(Event::public(format!(
                    "{who}'s next combat card this turn has +{} power",
                    self.budget.turn_power
                )));
            }
            Effect::PeekDeck(n) => {
                let deck = &self.side(color).deck;
                let top: Vec<CardId> = deck.iter().rev().take(usize::from(n)).copied().collect();
                self.peeked_at_deck(color, n);
                events.push(Event::private(
                    seat_of(color),
                    if top.is_empty() {
                        "Your deck is empty: there is nothing to look at".to_string()
                    } else {
                        format!("The top of your deck: {}", names(&top))
                    },
                ));
            }
            Effect::PeekHand => {
                let mut hand = self.side(them).hand.clone();
                hand.sort();
                self.peeked_at_hand(color);
                events.push(Event::private(
                    seat_of(color),
                    if hand.is_empty() {
                        format!("{}'s hand is empty", them.name())
                    } else {
                        format!("{}'s hand: {}", them.name(), names(&hand))
                    },
                ));
            }
            Effect::Recall(_) => {
                if let Some(t) = target {
                    let side = self.side_mut(color);
                    let at = side.graveyard.iter().position(|&g| g == t).expect("target");
                    side.graveyard.remove(at);
                    side.hand.push(t);
                    self.shown_into_hand(color, t);
                    events.push(Event::public(format!(
                        "{who} takes {} back from the graveyard into their hand",
                        card(t).name
                    )));
                }
            }
            Effect::DiscardRandom(n) => {
                let mut gone = Vec::new();
                for _ in 0..n {
                    let hand = &mut self.side_mut(them).hand;
                    if hand.is_empty() {
                        break;
                    }
                    let id = hand.remove(rng.below(hand.len()));
                    self.left_hand(them, id);
                    gone.push(id);
                }
                self.side_mut(them).graveyard.extend(&gone);
                events.push(Event::public(if gone.is_empty() {
                    format!("{} has no card to discard", them.name())
                } else {
                    format!("{} discards {} at random", them.name(), names(&gone))
                }));
            }
            Effect::FetchPower(to) => {
                let deck = &self.side(color).deck;
                let found = deck.iter().rposition(|&d| {
                    matches!(
                        piece_kind(d),
                        Some(PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook)
                    )
                });
                match found {
                    None => {
                        self.no_power_in_deck(color);
                        events.push(Event::public(format!(
                            "{who} finds no power piece in their deck"
                        )));
                    }
                    Some(i) => {
                        let id = self.side_mut(color).deck.remove(i);
                        if to == deck::FetchTo::Board && self.fits_board(color, id) {
                            self.side_mut(color).board.push(id);
                            events.push(Event::public(format!(
                                "{who} puts a {} from their deck on their board",
                                card(id).name
                            )));
                        } else {
                            self.side_mut(color).hand.push(id);
                            self.power_into_hand(color);
                            events.push(Event::public(format!(
                                "{who} takes a power piece from their deck into their hand"
                            )));
                            events.push(Event::private(
                                seat_of(color),
                                format!("You take a {}", card(id).name),
                            ));
                        }
                    }
                }
                rng.shuffle(&mut self.side_mut(color).deck);
                self.deck_shuffled(color);
            }
            Effect::Revive => {
                if let Some(t) = target {
                    let side = self.side_mut(color);
                    let at = side.graveyard.iter().position(|&g| g == t).expect("target");
                    side.graveyard.remove(at);
                    side.board.push(t);
                    events.push(Event::public(format!(
                        "{who} brings {} back onto their board",
                        card(t).name
                    )));
                }
            }
            Effect::RemoveOngoing => {
                if let Some(t) = target {
                    let side = self.side_mut(them);
                    let at = side.ongoing.iter().position(|&g| g == t).expect("target");
                    side.ongoing.remove(at);
                    side.graveyard.push(t);
                    events.push(Event::public(format!(
                        "{}'s {} goes to the graveyard",
                        them.name(),
                        card(t).name
                    )));
                }
            }
            Effect::DefendPower(n) => {
                self.defend_bonus += u32::from(n);
                events.push(Event::public(format!(
                    "{who}'s defence has +{} power in this battle",
                    self.defend_bonus
                )));
                self.draw_back(color, events);
            }
            Effect::CancelAttack => {
                let Phase::Defend(attack) = self.phase.clone() else {
                    return;
                };
                self.side_mut(self.turn).graveyard.push(attack.combat);
                events.push(Event::public(
                    "The attack is cancelled: no piece is lost".to_string(),
                ));
                self.defend_bonus = 0;
                self.phase = Phase::Main;
                self.draw_back(color, events);
            }
            Effect::MobilisedPower(_) | Effect::PawnHp(_) | Effect::CombatPower(_) => {}
        }
    }
}
