//! What a viewer sees of a Chess-à-Tête game (built by allowlist: a hand only for its owner),
//! and the game's endings in its own words.

use super::deck::Group;
use super::{ACTIONS, Budget, CardId, ChessATete, Decisive, Phase, card, names};
use crate::engine::{Game, GameView, Outcome, Viewer, describe_white_black};
use crate::games::chess::{Color, color_of, seat_of};
use serde::{Deserialize, Serialize};

/// Why a game ended, as stored in its outcome.
pub const DEFEAT: &str = "defeating the king";
pub const CHECKMATE: &str = "checkmate";
pub const EXHAUSTION: &str = "exhausting the opponent's deck";
pub const IDLE: &str = "two turns in a row without a card played";

/// The hit points a defender must lose for `amount` damage, in words: "worth exactly 4 hit
/// points", or, when no pieces add up to it, "worth 3 hit points: none add up to 4".
pub fn worth(amount: u32, total: u32) -> String {
    if total == amount {
        format!("pieces worth exactly {amount} hit points")
    } else {
        format!("pieces worth {total} hit points: none add up to {amount}")
    }
}

/// An ending in the game's words, naming who did what.
pub fn describe(outcome: &Outcome) -> String {
    let winner = match outcome.winners() {
        [seat] => color_of(*seat),
        _ => None,
    };
    match (winner, outcome.reason.as_str()) {
        (Some(w), DEFEAT) => format!("{} won by defeating {}'s King", w.name(), w.other().name()),
        (Some(w), CHECKMATE) => format!("{} won by playing Checkmate", w.name()),
        (Some(w), EXHAUSTION) => format!(
            "{} won: {} could not draw back to seven cards",
            w.name(),
            w.other().name()
        ),
        (None, IDLE) if outcome.is_draw() => {
            "Draw: two turns in a row passed without a card played or burned".into()
        }
        _ => describe_white_black(outcome),
    }
}

/// A board's cards by name, grouped as players sort them: royals, then power pieces, then
/// pawns, each group in the order its cards came into play.
fn grouped(ids: &[CardId]) -> Vec<String> {
    let rank = |id: &CardId| match card(*id).group() {
        Group::Royal => 0,
        Group::Power => 1,
        _ => 2,
    };
    let mut ids = ids.to_vec();
    ids.sort_by_key(rank);
    ids.iter().map(|&id| card(id).name.clone()).collect()
}

impl ChessATete {
    pub(super) fn build_view(&self, viewer: Viewer) -> ChessATeteView {
        let list = |ids: &[CardId]| ids.iter().map(|&id| card(id).name.clone()).collect();
        let sides = [Color::White, Color::Black].map(|color| {
            let side = self.side(color);
            let own = viewer == Viewer::Seat(seat_of(color));
            SideView {
                color,
                board: grouped(&side.board),
                board_hp: self.board_hp(color),
                pawn_bonus: self.pawn_bonus(color),
                ongoing: list(&side.ongoing),
                graveyard: list(&side.graveyard),
                hand_size: side.hand.len(),
                deck_size: side.deck.len(),
                hand: own.then(|| {
                    let mut hand: Vec<CardId> = side.hand.clone();
                    hand.sort();
                    list(&hand)
                }),
            }
        });
        ChessATeteView {
            viewer,
            sides: sides.to_vec(),
            to_move: self.turn,
            budget: self.budget.clone(),
            attack: match &self.phase {
                Phase::Defend(a) => Some(AttackView {
                    combat: card(a.combat).name.clone(),
                    power: a.power,
                    pieces: list(&a.pieces),
                }),
                _ => None,
            },
            damage: match self.phase {
                Phase::Damage { amount } => Some(amount),
                _ => None,
            },
            decisive: self.decisive.as_ref().map(|d| self.decisive_view(d)),
            last: self.last.clone(),
            status: match (&self.outcome, &self.phase) {
                (Some(o), _) => format!("Game over: {}", self.describe(o)),
                (None, Phase::Main) => format!(
                    "{} to play ({} of {ACTIONS} actions used)",
                    self.turn.name(),
                    self.budget.actions
                ),
                (None, Phase::Defend(a)) => format!(
                    "{} to answer {} (power {}): {}",
                    self.turn.other().name(),
                    card(a.combat).name,
                    a.power,
                    if self.defend_bonus > 0 {
                        "defend (after Ambush)"
                    } else {
                        "defend or take"
                    }
                ),
                (None, Phase::Damage { amount }) => {
                    let defender = self.turn.other();
                    let (total, _) = self.absorb(defender, *amount);
                    format!(
                        "{} to choose the pieces that absorb {amount} damage ({})",
                        defender.name(),
                        worth(*amount, total)
                    )
                }
            },
            outcome: self.outcome.clone(),
        }
    }

    fn decisive_view(&self, d: &Decisive) -> DecisiveView {
        let name = &card(d.card).name;
        let text = match (d.power, d.against) {
            (Some(power), Some(hp)) => format!(
                "{}'s {name} (power {power}), with {}, exceeded {}'s {hp} hit points",
                d.by.name(),
                names(&d.pieces),
                d.by.other().name()
            ),
            _ => format!(
                "{} played {name} with {} on their board",
                d.by.name(),
                names(&d.pieces)
            ),
        };
        DecisiveView {
            by: d.by,
            card: name.clone(),
            power: d.power,
            pieces: d.pieces.iter().map(|&id| card(id).name.clone()).collect(),
            text,
            result: self.outcome.as_ref().map(describe).unwrap_or_default(),
        }
    }
}

/// One player's cards as a viewer may see them: the hand only for its owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    pub color: Color,
    /// The pieces on the board, grouped: royals, power pieces, then pawns.
    pub board: Vec<String>,
    pub board_hp: u32,
    /// Hit points each pawn on the board gains from cards in play (Fortress).
    pub pawn_bonus: u32,
    /// Ongoing action cards in play.
    pub ongoing: Vec<String>,
    pub graveyard: Vec<String>,
    pub hand_size: usize,
    pub deck_size: usize,
    /// The hand, sorted, for its owner only.
    pub hand: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackView {
    pub combat: String,
    pub power: u32,
    pub pieces: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessATeteView {
    pub viewer: Viewer,
    /// White's side, then Black's.
    pub sides: Vec<SideView>,
    pub to_move: Color,
    pub budget: Budget,
    /// The attack waiting for an answer.
    pub attack: Option<AttackView>,
    /// Damage the defender is distributing.
    pub damage: Option<u32>,
    /// Once the game is over: the play that won it, when it was an attack or Checkmate.
    pub decisive: Option<DecisiveView>,
    /// What happened in the last turn so far.
    pub last: Vec<String>,
    pub status: String,
    pub outcome: Option<Outcome>,
}

/// The play that won the game, for the final picture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisiveView {
    /// Who played it.
    pub by: Color,
    /// The combat card, or Checkmate.
    pub card: String,
    /// The attack's power (none for Checkmate).
    pub power: Option<u32>,
    /// The pieces it mobilised, or the pieces that met Checkmate's conditions.
    pub pieces: Vec<String>,
    /// What it did: "White's Royal Command (power 8), with Queen, Peasant, Peasant, exceeded
    /// Black's 7 hit points".
    pub text: String,
    /// The result: "White won by defeating Black's King".
    pub result: String,
}

impl GameView for ChessATeteView {
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn conclude(&mut self, outcome: &Outcome, status: String) {
        (self.outcome, self.status) = (Some(outcome.clone()), status);
    }
}
