//! Snipe Chess's setup: dealing a forest both sides can set up on, and placing the pieces one
//! per home card so that each king keeps a free space beside it.

use super::{Action, CardAt, DEALS, Dealt, PAWNS, Phase, Piece, Snipe, SnipeOptions, home_row};
use super::{CARDS, deck::forest};
use crate::board::{ORTHOGONAL, Sq};
use crate::engine::{GameRng, SetupError};
use crate::games::chess::{Color, Role};
use std::collections::BTreeMap;

impl Snipe {
    /// The pieces `color` still has to place.
    pub(super) fn to_place(&self, color: Color) -> Vec<Role> {
        let mine = |role| {
            self.pieces
                .values()
                .filter(|p| p.color == color && p.role == role)
                .count()
        };
        let mut out = Vec::new();
        if mine(Role::King) == 0 {
            out.push(Role::King);
        }
        out.extend(std::iter::repeat_n(
            Role::Pawn,
            PAWNS.saturating_sub(mine(Role::Pawn)),
        ));
        out
    }

    pub(super) fn card_has_piece(&self, pieces: &BTreeMap<Sq, Piece>, at: CardAt) -> bool {
        at.squares().iter().any(|s| pieces.contains_key(s))
    }

    /// Can `color` still finish its setup with its king keeping a free neighbour? `pieces` is
    /// the placement so far (only the home rows hold pieces during the setup, far apart).
    pub(super) fn setup_possible(&self, color: Color, pieces: &BTreeMap<Sq, Piece>) -> bool {
        let row = home_row(color);
        let cards: Vec<CardAt> = (0..CARDS).map(|cx| CardAt { cx, cy: row }).collect();
        if cards
            .iter()
            .any(|c| !c.squares().iter().any(|&s| self.open(s)))
        {
            return false;
        }
        // A neighbour of the king stays free if nothing will stand on it: it is on the king's
        // own card (one piece per card), off the home row, on a card already holding its
        // piece elsewhere, or on a card with another open space for its piece.
        let breathes = |pieces: &BTreeMap<Sq, Piece>, king: Sq| {
            ORTHOGONAL.iter().any(|&d| {
                let n = king.offset(d);
                if !self.open(n) || pieces.contains_key(&n) {
                    return false;
                }
                let card = CardAt::of(n);
                card == CardAt::of(king)
                    || card.cy != row
                    || self.card_has_piece(pieces, card)
                    || card.squares().iter().filter(|&&s| self.open(s)).count() >= 2
            })
        };
        let king = pieces
            .iter()
            .find(|(_, p)| p.color == color && p.role == Role::King)
            .map(|(&s, _)| s);
        match king {
            Some(k) => breathes(pieces, k),
            None => cards
                .iter()
                .filter(|&&c| !self.card_has_piece(pieces, c))
                .flat_map(|c| c.squares())
                .filter(|&s| self.open(s))
                .any(|s| {
                    let mut with = pieces.clone();
                    with.insert(
                        s,
                        Piece {
                            color,
                            role: Role::King,
                        },
                    );
                    breathes(&with, s)
                }),
        }
    }

    pub(super) fn placements(&self, color: Color) -> Vec<Action> {
        let mut roles = self.to_place(color);
        roles.dedup();
        let mut out = Vec::new();
        for cx in 0..CARDS {
            let card = CardAt {
                cx,
                cy: home_row(color),
            };
            if self.card_has_piece(&self.pieces, card) {
                continue;
            }
            for at in card.squares() {
                if !self.open(at) {
                    continue;
                }
                for &role in &roles {
                    let mut with = self.pieces.clone();
                    with.insert(at, Piece { color, role });
                    if self.setup_possible(color, &with) {
                        out.push(Action::Place { role, at });
                    }
                }
            }
        }
        out.sort_by_key(|a| match a {
            Action::Place { role, at } => (*role != Role::King, at.y, at.x),
            _ => unreachable!("only placements"),
        });
        out
    }

    /// Puts one piece during the setup; the move phase starts after the tenth.
    pub(super) fn place(&mut self, color: Color, role: Role, at: Sq) {
        self.pieces.insert(at, Piece { color, role });
        let done = |c| self.to_place(c).is_empty();
        if done(Color::White) && done(Color::Black) {
            self.phase = Phase::Move;
            self.turn = Color::White;
            self.history.push(self.position_key());
        } else {
            self.turn = color.other();
        }
    }

    /// Deals until both home rows can be set up (every home card with an open space and room
    /// for each king to breathe).
    pub(super) fn deal(options: &SnipeOptions, rng: &mut GameRng) -> Result<Snipe, SetupError> {
        let count = forest().len();
        for _ in 0..DEALS {
            let mut order: Vec<u8> = (0..count as u8).collect();
            rng.shuffle(&mut order);
            let mut cards = order[..25].iter().map(|&c| Dealt::new(c));
            let forest: [[Dealt; 5]; 5] = std::array::from_fn(|_| {
                std::array::from_fn(|_| cards.next().expect("25 cards dealt"))
            });
            let mut stock = order[25..].to_vec();
            stock.sort();
            let game = Snipe {
                options: options.clone(),
                forest,
                stock,
                pieces: BTreeMap::new(),
                turn: Color::White,
                phase: Phase::Setup,
                last_chance_used: [false; 2],
                turns: 0,
                history: vec![],
                last: None,
                last_open: false,
                outcome: None,
            };
            let empty = BTreeMap::new();
            if game.setup_possible(Color::White, &empty)
                && game.setup_possible(Color::Black, &empty)
            {
                return Ok(game);
            }
        }
        Err(SetupError::Options(
            "no forest could be dealt that both players can set up on".into(),
        ))
    }
}
