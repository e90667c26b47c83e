//! How a Chess-à-Tête turn and an attack end: pieces lost to damage or a lost battle, the King
//! defeated, drawing back to seven (or losing when the deck cannot), and the turn passing on.

use super::view::{self, DEFEAT, EXHAUSTION, IDLE};
use super::{Attack, Budget, CardId, ChessATete, Decisive, HAND, Phase, cards, names};
use crate::engine::{Event, Game, Outcome};
use crate::games::chess::{Color, seat_of};

impl ChessATete {
    /// Moves one copy of each of `pieces` from `color`'s board to its graveyard.
    pub(super) fn bury(&mut self, color: Color, pieces: &[CardId]) {
        let side = self.side_mut(color);
        for &id in pieces {
            let at = side
                .board
                .iter()
                .position(|&b| b == id)
                .expect("on the board");
            side.board.remove(at);
            side.graveyard.push(id);
        }
    }

    pub(super) fn lose(&mut self, color: Color, pieces: &[CardId], events: &mut Vec<Event>) {
        self.bury(color, pieces);
        events.push(Event::public(format!(
            "{} loses {}",
            color.name(),
            names(pieces)
        )));
        self.phase = Phase::Main;
    }

    /// An attack let through: it defeats the King when its power exceeds the board's hit
    /// points; otherwise the defender absorbs the damage (at once when there is one way).
    pub(super) fn hit(&mut self, attack: &Attack, events: &mut Vec<Event>) {
        let defender = self.turn.other();
        let hp = self.board_hp(defender);
        if attack.power > hp {
            events.push(Event::public(format!(
                "The attack's power of {} exceeds {}'s {hp} hit points",
                attack.power,
                defender.name()
            )));
            self.decisive = Some(Decisive {
                by: self.turn,
                card: attack.combat,
                power: Some(attack.power),
                pieces: attack.pieces.clone(),
                against: Some(hp),
            });
            self.finish(Outcome::winner(seat_of(self.turn), 2, DEFEAT), events);
            return;
        }
        let (total, mut ways) = self.absorb(defender, attack.power);
        if ways.len() > 1 {
            events.push(Event::public(format!(
                "{} chooses which pieces absorb {} damage ({})",
                defender.name(),
                attack.power,
                view::worth(attack.power, total)
            )));
            self.phase = Phase::Damage {
                amount: attack.power,
            };
            return;
        }
        let lost = ways.pop().unwrap_or_default();
        if !lost.is_empty() {
            self.lose(defender, &lost, events);
            return;
        }
        let only_king = self.side(defender).board.len() == 1;
        events.push(Event::public(if only_king {
            format!(
                "{} loses no piece: the King stands alone, and it is never lost to damage",
                defender.name()
            )
        } else {
            format!(
                "{} loses no piece: each of their pieces is worth more than {} hit points",
                defender.name(),
                attack.power
            )
        }));
        self.phase = Phase::Main;
    }

    pub(super) fn finish(&mut self, outcome: Outcome, events: &mut Vec<Event>) {
        events.push(Event::public(format!(
            "Game over: {}",
            self.describe(&outcome)
        )));
        self.outcome = Some(outcome);
        self.phase = Phase::Main;
        self.defend_bonus = 0;
    }

    /// Draws one card for `color`; false if the deck is empty.
    pub(super) fn draw(&mut self, color: Color) -> bool {
        let side = self.side_mut(color);
        match side.deck.pop() {
            Some(id) => {
                side.hand.push(id);
                self.drew(color);
                true
            }
            None => false,
        }
    }

    /// Draws `color` back to seven cards; when the deck runs out first, `color` loses by
    /// exhaustion (the game is then over and this returns None). Returns the cards drawn.
    pub(super) fn refill(&mut self, color: Color, events: &mut Vec<Event>) -> Option<usize> {
        let mut drawn = 0;
        while self.side(color).hand.len() < HAND {
            if !self.draw(color) {
                let outcome = Outcome::winner(seat_of(color.other()), 2, EXHAUSTION);
                events.push(Event::public(format!(
                    "{} cannot draw back to seven cards",
                    color.name()
                )));
                self.finish(outcome, events);
                return None;
            }
            drawn += 1;
        }
        Some(drawn)
    }

    /// Ends `color`'s turn: draw back to seven (losing if the deck cannot), then the other
    /// player's turn, which also begins with seven cards in hand (a random discard on `color`'s
    /// turn is made good from the deck, or loses if the deck cannot). Two turns in a row with
    /// no card played or burned draw the game: neither player can or will play.
    pub(super) fn end_turn(&mut self, color: Color, events: &mut Vec<Event>) {
        let Some(drawn) = self.refill(color, events) else {
            return;
        };
        events.push(Event::public(format!(
            "{} draws {} and ends the turn",
            color.name(),
            cards(drawn)
        )));
        let idle = !self.budget.played && self.budget.burned == 0;
        self.idle = if idle { self.idle + 1 } else { 0 };
        if self.idle >= 2 {
            events.push(Event::public(
                "Two turns in a row without a card played or burned",
            ));
            self.finish(Outcome::draw(2, IDLE), events);
            return;
        }
        let next = color.other();
        self.turn = next;
        self.budget = Budget::default();
        self.turns += 1;
        match self.refill(next, events) {
            Some(0) | None => {}
            Some(n) => events.push(Event::public(format!(
                "{} begins the turn by drawing {} back to seven",
                next.name(),
                cards(n)
            ))),
        }
    }
}
