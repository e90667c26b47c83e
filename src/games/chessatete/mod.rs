//! Chess-à-Tête: a card game of chess pieces. Each player starts with the King on their board
//! and seven cards in hand, plays up to three actions a turn (piece cards within the board
//! limits, action cards, one combat card, burning), and draws back to seven at the end of the
//! turn (and as a turn begins, after a discard). An attack waits for the defender's answer (a
//! defence, an out-of-turn card, or taking it), and a successful one either defeats the King or
//! costs the defender pieces of their choosing, worth the damage exactly when they can be. A
//! player wins by defeating the King, by Checkmate, or when the opponent cannot draw back to
//! seven. See docs/rules/chessatete.md.

mod combat;
pub mod deck;
mod effects;
mod knowledge;
mod notation;
mod refusals;
mod turns;
mod view;

pub use view::{AttackView, ChessATeteView, DecisiveView, SideView};

use crate::engine::{
    Event, Game, GameRng, Outcome, ParseError, RuleError, Seat, SetupError, ToAct, Viewer,
};
use crate::games::chess::{Color, color_of, seat_of, two_seats};
use deck::{CardKind, DECK_MOST, Effect, PieceKind, Timing, catalogue, check_deck, read_list};
use serde::{Deserialize, Serialize};

/// Why a defender who played Ambush may do nothing but defend.
const AMBUSHED: &str = "you played Ambush: defend with a combat card";

/// Cards in hand at the start of every turn.
pub const HAND: usize = 7;
/// Actions a turn, and the most of each kind of play.
pub const ACTIONS: u8 = 3;

/// Custom decks, as deck lists (`4 Knight, 4 Bishop, ...`); the classic deck when absent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ChessATeteOptions {
    pub white_deck: Option<String>,
    pub black_deck: Option<String>,
}

/// A card is named by its catalogue index: cards of one name are alike, so any copy will do.
pub type CardId = u16;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Put a piece card on your board, or play an action or checkmate card.
    Play(CardId),
    /// Play a card that takes a target: Medic (a graveyard card to recall), Resurrection (a
    /// graveyard piece to revive), Demolish (an opposing ongoing card).
    PlayOn { card: CardId, target: CardId },
    /// Send a card from your hand to your graveyard and draw one (only at the end of a turn).
    Burn(CardId),
    /// End the turn and draw back to seven.
    End,
    /// Play a combat card, mobilising these pieces of your board (sorted).
    Attack { combat: CardId, pieces: Vec<CardId> },
    /// Answer an attack with a combat card of at least its power.
    Defend { combat: CardId, pieces: Vec<CardId> },
    /// Let an attack through.
    Take,
    /// Absorb the damage of a successful attack with these pieces (sorted).
    Lose(Vec<CardId>),
}

/// An attack waiting for the defender's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub combat: CardId,
    pub pieces: Vec<CardId>,
    pub power: u32,
}

/// What is being decided now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The player whose turn it is plays, burns or ends.
    Main,
    /// The defender answers an attack.
    Defend(Attack),
    /// The defender chooses the pieces that absorb a successful attack.
    Damage { amount: u32 },
}

/// The play that won the game (an attack let through to the King, or Checkmate), kept for the
/// final picture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decisive {
    pub by: Color,
    /// The combat card, or the Checkmate card.
    pub card: CardId,
    /// The attack's power; None for Checkmate.
    pub power: Option<u32>,
    /// The pieces the attack mobilised, or those that met Checkmate's conditions.
    pub pieces: Vec<CardId>,
    /// The defender's board hit points the attack exceeded; None for Checkmate.
    pub against: Option<u32>,
}

/// One player's cards. The draw deck's top is its last card.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    hand: Vec<CardId>,
    deck: Vec<CardId>,
    board: Vec<CardId>,
    graveyard: Vec<CardId>,
    /// Ongoing action cards in play.
    ongoing: Vec<CardId>,
}

/// What the player to act has done this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    pub actions: u8,
    pub pieces: u8,
    pub burned: u8,
    /// Whether the turn's combat card has been played.
    pub combat: bool,
    /// Power added to the next combat card this turn (Squire).
    pub turn_power: u32,
    /// Whether a card has been played (a turn must play at least one when it can).
    pub played: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChessATete {
    sides: [Side; 2],
    turn: Color,
    phase: Phase,
    budget: Budget,
    /// Power added to the defence in the battle under way (Ambush).
    defend_bonus: u32,
    turns: u32,
    /// Turns in a row that ended with no card played or burned (two end the game in a draw).
    #[serde(default)]
    idle: u8,
    last: Vec<String>,
    outcome: Option<Outcome>,
    /// The play that won, once the game is over by an attack or Checkmate.
    #[serde(default)]
    decisive: Option<Decisive>,
    /// The revision of the rules the match is played under ([`Game::RULES`]): 1 before damage
    /// had to be absorbed exactly.
    #[serde(default = "current_rules")]
    rules: u32,
    /// What each player has learnt of cards it cannot see, by colour (`knowledge.rs`).
    seen: [knowledge::Seen; 2],
}

fn current_rules() -> u32 {
    <ChessATete as Game>::RULES
}

pub fn card(id: CardId) -> &'static deck::Card {
    &catalogue().cards[usize::from(id)]
}

fn piece_kind(id: CardId) -> Option<PieceKind> {
    match card(id).kind {
        CardKind::Piece { piece, .. } => Some(piece),
        _ => None,
    }
}

/// How many pieces of a kind a board may hold.
pub const fn limit(kind: PieceKind) -> usize {
    match kind {
        PieceKind::King | PieceKind::Queen => 1,
        PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook => 2,
        PieceKind::Pawn => 8,
    }
}

/// A deck from an option (a deck list) or the classic deck, as card ids.
fn build_deck(list: Option<&str>, color: Color) -> Result<Vec<CardId>, SetupError> {
    let cat = catalogue();
    let deck = match list {
        None => cat.classic.clone(),
        Some(text) => {
            let who = color.name();
            let list = read_list(text, DECK_MOST)
                .map_err(|e| SetupError::Options(format!("{who}'s deck: {e}")))?;
            check_deck(cat, &list).map_err(|breaches| {
                SetupError::Options(format!("{who}'s deck: {}", breaches.join("; ")))
            })?
        }
    };
    Ok(deck
        .into_iter()
        .flat_map(|(i, n)| std::iter::repeat_n(i as CardId, n))
        .collect())
}

impl ChessATete {
    pub fn side(&self, color: Color) -> &Side {
        &self.sides[color.index()]
    }

    fn side_mut(&mut self, color: Color) -> &mut Side {
        &mut self.sides[color.index()]
    }

    /// Whether `id` could join `color`'s board now (a piece card within the limits).
    fn fits_board(&self, color: Color, id: CardId) -> bool {
        let Some(kind) = piece_kind(id) else {
            return false;
        };
        let on = self
            .side(color)
            .board
            .iter()
            .filter(|&&b| piece_kind(b) == Some(kind))
            .count();
        on < limit(kind)
    }

    /// The player whose turn it is (the defender answers a combat inside it); None once the
    /// game is over.
    pub fn turn_owner(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| seat_of(self.turn))
    }

    /// Who must act now: the player whose turn it is, or the defender during a combat.
    fn actor(&self) -> Color {
        match self.phase {
            Phase::Main => self.turn,
            Phase::Defend(_) | Phase::Damage { .. } => self.turn.other(),
        }
    }

    /// The distinct cards of `color`'s hand, sorted.
    fn hand_kinds(&self, color: Color) -> Vec<CardId> {
        let mut hand = self.side(color).hand.clone();
        hand.sort();
        hand.dedup();
        hand
    }

    /// Every way `color` can play a combat card of at least `min` power (bonuses counted).
    fn combats(&self, color: Color, min: u32) -> Vec<(CardId, Vec<CardId>)> {
        self.hand_kinds(color)
            .into_iter()
            .filter(|&id| combat::power(id) > 0)
            .flat_map(|id| {
                combat::mobilisations(id, &self.side(color).board)
                    .into_iter()
                    .map(move |pieces| (id, pieces))
            })
            .filter(|(id, pieces)| self.power(color, *id, pieces) >= min)
            .collect()
    }

    /// Whether an ongoing card with this effect is in `color`'s play.
    fn ongoing(&self, color: Color, wanted: fn(Effect) -> Option<u8>) -> u32 {
        self.side(color)
            .ongoing
            .iter()
            .filter_map(|&id| match card(id).kind {
                CardKind::Action { effect, .. } => wanted(effect),
                _ => None,
            })
            .map(u32::from)
            .sum()
    }

    /// Hit points `color`'s pawns have beyond their printed ones (Fortress).
    fn pawn_bonus(&self, color: Color) -> u32 {
        self.ongoing(color, |e| match e {
            Effect::PawnHp(n) => Some(n),
            _ => None,
        })
    }

    /// The hit points of `color`'s board: every piece's, the King's included.
    fn board_hp(&self, color: Color) -> u32 {
        let bonus = self.pawn_bonus(color);
        self.side(color)
            .board
            .iter()
            .map(|&id| combat::hp(id, bonus))
            .sum()
    }

    /// The power of `combat` played by `color` mobilising `pieces`: printed power, each
    /// mobilised pawn's bonus (Support: +1, +2 while two are on the board), War Banner, and
    /// the turn's bonus (Squire) when attacking or the battle's (Ambush) when defending.
    fn power(&self, color: Color, combat: CardId, pieces: &[CardId]) -> u32 {
        let board = &self.side(color).board;
        let support = pieces
            .iter()
            .filter_map(|&id| match &card(id).kind {
                CardKind::Piece {
                    abilities: Some((first, second)),
                    ..
                } => match (first.effect, second.effect) {
                    (Effect::MobilisedPower(one), Effect::MobilisedPower(two)) => {
                        let pair = board.iter().filter(|&&b| b == id).count() >= 2;
                        Some(u32::from(if pair { two } else { one }))
                    }
                    _ => None,
                },
                _ => None,
            })
            .sum::<u32>();
        let banner = self.ongoing(color, |e| match e {
            Effect::CombatPower(n) => Some(n),
            _ => None,
        });
        let moment = if color == self.turn {
            self.budget.turn_power
        } else {
            self.defend_bonus
        };
        combat::power(combat) + support + banner + moment
    }

    fn legal(&self, color: Color) -> Vec<Action> {
        if self.outcome.is_some() || color != self.actor() {
            return vec![];
        }
        match &self.phase {
            Phase::Main => {}
            Phase::Defend(attack) => {
                // Taking the attack is always offered (until an Ambush commits the defender to
                // a defence), so whether the defender is asked never tells the attacker anything
                // about their hand.
                let mut out = Vec::new();
                if self.defend_bonus == 0 {
                    out.push(Action::Take);
                }
                out.extend(
                    self.combats(color, attack.power)
                        .into_iter()
                        .map(|(combat, pieces)| Action::Defend { combat, pieces }),
                );
                // Out-of-turn cards: Block, Ambush (once a battle, with a defence it can
                // join), Checkmate.
                out.extend(
                    self.hand_kinds(color)
                        .into_iter()
                        .filter(|&id| self.playable_out_of_turn(color, id, attack.power))
                        .map(Action::Play),
                );
                return out;
            }
            Phase::Damage { amount } => {
                return self
                    .absorb(color, *amount)
                    .1
                    .into_iter()
                    .map(Action::Lose)
                    .collect();
            }
        }
        let b = &self.budget;
        let hand = self.hand_kinds(color);
        let mut out = Vec::new();
        if b.actions < ACTIONS && b.burned == 0 {
            for &id in &hand {
                out.extend(self.plays(color, id));
            }
            if !b.combat {
                out.extend(
                    self.combats(color, 0)
                        .into_iter()
                        .map(|(combat, pieces)| Action::Attack { combat, pieces }),
                );
            }
        }
        let can_play = !out.is_empty();
        if b.actions < ACTIONS && (b.played || !can_play) {
            out.extend(hand.iter().map(|&id| Action::Burn(id)));
        }
        if b.played || !can_play {
            out.push(Action::End);
        }
        out
    }

    /// The ways `color` may absorb `amount` damage, and the hit points each loses: exactly
    /// `amount` when some pieces add up to it, otherwise the most below it that some reach.
    fn absorb(&self, color: Color, amount: u32) -> (u32, Vec<Vec<CardId>>) {
        combat::absorptions(
            &self.side(color).board,
            amount,
            self.pawn_bonus(color),
            self.rules < 2,
        )
    }

    /// Whether `color` may play `id` while answering an attack of `power`: Block (unless an
    /// Ambush has committed `color` to a defence); Ambush once a battle, when its bonus lets
    /// some combat card in hand defend; Checkmate whenever its conditions hold.
    fn playable_out_of_turn(&self, color: Color, id: CardId, power: u32) -> bool {
        match card(id).kind {
            CardKind::Action {
                timing: Timing::OutOfTurn,
                effect: Effect::DefendPower(n),
            } => {
                self.defend_bonus == 0
                    && !self
                        .combats(color, power.saturating_sub(u32::from(n)))
                        .is_empty()
            }
            CardKind::Action {
                timing: Timing::OutOfTurn,
                ..
            } => self.defend_bonus == 0,
            CardKind::Checkmate { conditions } => self.checkmate_holds(color, conditions),
            _ => false,
        }
    }

    /// The ways `color` may play `id` from its hand on its own turn (none if it cannot).
    fn plays(&self, color: Color, id: CardId) -> Vec<Action> {
        let with_targets = |targets: Vec<CardId>| -> Vec<Action> {
            let mut targets = targets;
            targets.sort();
            targets.dedup();
            targets
                .into_iter()
                .map(|target| Action::PlayOn { card: id, target })
                .collect()
        };
        match &card(id).kind {
            CardKind::Piece { .. } => {
                if self.budget.pieces >= ACTIONS || !self.fits_board(color, id) {
                    return vec![];
                }
                match self.ability(color, id) {
                    Some(Effect::Recall(what)) => {
                        let targets = self.recallable(color, what);
                        if targets.is_empty() {
                            vec![Action::Play(id)]
                        } else {
                            with_targets(targets)
                        }
                    }
                    _ => vec![Action::Play(id)],
                }
            }
            CardKind::Combat { .. } => vec![],
            CardKind::Checkmate { conditions } => {
                if self.checkmate_holds(color, *conditions) {
                    vec![Action::Play(id)]
                } else {
                    vec![]
                }
            }
            CardKind::Action { timing, effect } => match (timing, effect) {
                (Timing::OutOfTurn, _) => vec![],
                (_, Effect::Revive) => with_targets(
                    self.side(color)
                        .graveyard
                        .iter()
                        .copied()
                        .filter(|&g| self.fits_board(color, g))
                        .collect(),
                ),
                (_, Effect::RemoveOngoing) => {
                    with_targets(self.side(color.other()).ongoing.clone())
                }
                _ => vec![Action::Play(id)],
            },
        }
    }

    /// The ability a pawn card would use if `color` played it now: the second when a pawn of
    /// its name is already on the board.
    fn ability(&self, color: Color, id: CardId) -> Option<Effect> {
        let CardKind::Piece {
            abilities: Some((first, second)),
            ..
        } = &card(id).kind
        else {
            return None;
        };
        Some(if self.side(color).board.contains(&id) {
            second.effect
        } else {
            first.effect
        })
    }

    /// The cards of `color`'s graveyard a Medic may recall.
    fn recallable(&self, color: Color, what: deck::Recall) -> Vec<CardId> {
        self.side(color)
            .graveyard
            .iter()
            .copied()
            .filter(|&g| match what {
                deck::Recall::Pawn => piece_kind(g) == Some(PieceKind::Pawn),
                deck::Recall::Piece => piece_kind(g).is_some(),
            })
            .collect()
    }

    fn checkmate_holds(&self, color: Color, c: deck::Conditions) -> bool {
        self.checkmate_lacks(color, c).is_none()
    }

    /// The first of Checkmate's conditions that does not hold for `color`, in words.
    fn checkmate_lacks(&self, color: Color, c: deck::Conditions) -> Option<String> {
        let queen = |side| {
            self.side(side)
                .board
                .iter()
                .any(|&id| piece_kind(id) == Some(PieceKind::Queen))
        };
        let power = self.checkmate_pieces(color).len() - usize::from(queen(color));
        if c.own_queen && !queen(color) {
            Some("Checkmate needs your Queen on your board".into())
        } else if power < usize::from(c.own_power_pieces) {
            Some(format!(
                "Checkmate needs {} power pieces (knights, bishops, rooks) on your board, and \
                 you have {power}",
                c.own_power_pieces
            ))
        } else if !c.opponent_queen && queen(color.other()) {
            Some(format!(
                "Checkmate needs {} to have no Queen on their board",
                color.other().name()
            ))
        } else {
            None
        }
    }

    /// `color`'s Queen and power pieces: what Checkmate's conditions count.
    fn checkmate_pieces(&self, color: Color) -> Vec<CardId> {
        let mut pieces: Vec<CardId> = self
            .side(color)
            .board
            .iter()
            .copied()
            .filter(|&id| {
                matches!(
                    piece_kind(id),
                    Some(
                        PieceKind::Queen | PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook
                    )
                )
            })
            .collect();
        pieces.sort();
        pieces
    }
}

impl Game for ChessATete {
    type Options = ChessATeteOptions;
    type Action = Action;
    type View = ChessATeteView;

    const NAME: &'static str = "Chess-à-Tête";
    const ID: &'static str = "chessatete";
    const SUMMARY: &'static str = "**Chess-à-Tête**: a card game of chess pieces. Your King starts on your board; \
         you hold seven cards. Each turn, up to three actions: put piece cards on your board \
         (`play Knight`; limits: one queen, two each of knights, bishops and rooks, eight \
         pawns; pawns use a stronger second ability when their match is already there), \
         play action cards (`play Spy`, `play Medic on Peasant`), one combat card \
         (`attack Fork with Knight, Knight, Peasant`), and at the end burn cards to draw new \
         ones (`burn Skirmish`), then `end` to draw back to seven. The defender answers an \
         attack with `defend ...`, `play Block` or `take`, and picks the pieces lost \
         (`lose Bishop, Peasant`). Win by an attack stronger than the whole enemy board \
         (the King's 7 hit points included), by the Checkmate card, or when the opponent \
         cannot draw back to seven. /view shows your hand privately.";
    const SEATS: (usize, usize) = (2, 2);
    /// 2: damage is absorbed exactly when some pieces add up to it.
    const RULES: u32 = 2;
    const NOTATION: &'static str =
        "cards by name, any case: play Knight (or just Knight), play Medic on Peasant
  attack Fork with Knight, Knight, Peasant (the with part may go when one set of pieces fits)
  burn Skirmish at the end of the turn, then end
  answering an attack: defend Castle Wall with Rook, Rook, Sentinel, take, or play Block
  absorbing damage: lose Bishop, Peasant, Peasant (or lose 2 Bishop)";

    fn under_rules(mut self, rules: u32) -> Self {
        self.rules = rules;
        self
    }

    fn new(
        options: &ChessATeteOptions,
        seats: usize,
        rng: &mut GameRng,
    ) -> Result<Self, SetupError> {
        two_seats(Self::NAME, seats)?;
        // Both decks are checked before either is refused, so every breach is named at once.
        let decks = match (
            build_deck(options.white_deck.as_deref(), Color::White),
            build_deck(options.black_deck.as_deref(), Color::Black),
        ) {
            (Ok(white), Ok(black)) => [white, black],
            (white, black) => {
                let refused: Vec<String> = [white.err(), black.err()]
                    .into_iter()
                    .flatten()
                    .map(|e| e.to_string())
                    .collect();
                return Err(SetupError::Options(refused.join("; ")));
            }
        };
        let mut sides: [Side; 2] = Default::default();
        for (color, mut cards) in [Color::White, Color::Black].into_iter().zip(decks) {
            let king = cards
                .iter()
                .position(|&id| piece_kind(id) == Some(PieceKind::King))
                .expect("a checked deck has its King");
            let side = &mut sides[color.index()];
            side.board.push(cards.remove(king));
            rng.shuffle(&mut cards);
            side.hand = cards.split_off(cards.len() - HAND);
            side.deck = cards;
        }
        Ok(ChessATete {
            sides,
            turn: Color::White,
            phase: Phase::Main,
            budget: Budget::default(),
            defend_bonus: 0,
            turns: 0,
            idle: 0,
            last: vec![],
            outcome: None,
            decisive: None,
            rules: Self::RULES,
            seen: Default::default(),
        })
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(o) => ToAct::Over(o.clone()),
            None => ToAct::one(seat_of(self.actor())),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        color_of(seat).map_or_else(Vec::new, |c| self.legal(c))
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Event>, RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        let color = match color_of(seat) {
            Some(c) if c == self.actor() => c,
            _ => return Err(RuleError::NotYourTurn),
        };
        if !self.legal(color).contains(action) {
            return Err(RuleError::Illegal(self.why_illegal(color, action)));
        }
        if self.budget == Budget::default() {
            self.last.clear();
        }
        let who = color.name();
        let mut events = Vec::new();
        match *action {
            Action::Play(id) | Action::PlayOn { card: id, .. } => {
                let target = match *action {
                    Action::PlayOn { target, .. } => Some(target),
                    _ => None,
                };
                let own_turn = color == self.turn;
                let ability = self.ability(color, id);
                self.take_from_hand(color, id);
                if own_turn {
                    self.budget.actions += 1;
                    self.budget.played = true;
                }
                let c = card(id);
                match c.kind {
                    CardKind::Piece { .. } => {
                        self.side_mut(color).board.push(id);
                        self.budget.pieces += 1;
                        events.push(Event::public(format!("{who} plays {}", c.name)));
                        if let Some(effect) = ability {
                            self.effect(color, effect, target, rng, &mut events);
                        }
                    }
                    CardKind::Checkmate { .. } => {
                        self.side_mut(color).graveyard.push(id);
                        events.push(Event::public(format!(
                            "{who} plays Checkmate: its conditions hold"
                        )));
                        self.decisive = Some(Decisive {
                            by: color,
                            card: id,
                            power: None,
                            pieces: self.checkmate_pieces(color),
                            against: None,
                        });
                        let outcome = Outcome::winner(seat_of(color), 2, view::CHECKMATE);
                        self.finish(outcome, &mut events);
                    }
                    CardKind::Action { timing, effect } => {
                        if timing == Timing::Ongoing {
                            self.side_mut(color).ongoing.push(id);
                        } else {
                            self.side_mut(color).graveyard.push(id);
                        }
                        events.push(Event::public(format!("{who} plays {}", c.name)));
                        self.effect(color, effect, target, rng, &mut events);
                    }
                    CardKind::Combat { .. } => unreachable!("combat cards attack or defend"),
                }
            }
            Action::Burn(id) => {
                self.take_from_hand(color, id);
                self.side_mut(color).graveyard.push(id);
                self.budget.actions += 1;
                self.budget.burned += 1;
                let drew = self.draw(color);
                events.push(Event::public(format!(
                    "{who} burns {}{}",
                    card(id).name,
                    if drew { " and draws a card" } else { "" }
                )));
            }
            Action::End => self.end_turn(color, &mut events),
            Action::Attack { combat, ref pieces } => {
                self.take_from_hand(color, combat);
                self.budget.actions += 1;
                self.budget.combat = true;
                self.budget.played = true;
                let attack = Attack {
                    combat,
                    pieces: pieces.clone(),
                    power: self.power(color, combat, pieces),
                };
                self.budget.turn_power = 0;
                events.push(Event::public(format!(
                    "{who} attacks with {} (power {}), mobilising {}",
                    card(combat).name,
                    attack.power,
                    names(pieces)
                )));
                self.phase = Phase::Defend(attack);
            }
            Action::Take => {
                let Phase::Defend(attack) = self.phase.clone() else {
                    unreachable!("take answers an attack");
                };
                self.side_mut(self.turn).graveyard.push(attack.combat);
                events.push(Event::public(format!("{who} lets the attack through")));
                self.hit(&attack, &mut events);
            }
            Action::Defend { combat, ref pieces } => {
                let Phase::Defend(attack) = self.phase.clone() else {
                    unreachable!("a defence answers an attack");
                };
                let attacker = self.turn;
                self.take_from_hand(color, combat);
                self.side_mut(color).graveyard.push(combat);
                self.side_mut(attacker).graveyard.push(attack.combat);
                let power = self.power(color, combat, pieces);
                self.defend_bonus = 0;
                events.push(Event::public(format!(
                    "{who} defends with {} (power {power}), mobilising {}",
                    card(combat).name,
                    names(pieces)
                )));
                if power > attack.power {
                    events.push(Event::public(format!(
                        "{} loses the battle",
                        attacker.name()
                    )));
                    self.lose(attacker, &attack.pieces, &mut events);
                } else {
                    events.push(Event::public(
                        "Stalemate (equal power): both sides lose the pieces they mobilised",
                    ));
                    self.lose(attacker, &attack.pieces, &mut events);
                    self.lose(color, pieces, &mut events);
                }
                // A card played out of turn lets its player draw back to seven at once.
                self.draw_back(color, &mut events);
            }
            Action::Lose(ref pieces) => self.lose(color, pieces, &mut events),
        }
        self.last.extend(
            events
                .iter()
                .filter(|e| e.audience == crate::engine::Audience::Everyone)
                .filter(|e| !e.text.starts_with("Game over"))
                .map(|e| e.text.clone()),
        );
        Ok(events)
    }

    fn view(&self, viewer: Viewer) -> ChessATeteView {
        self.build_view(viewer)
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ParseError> {
        notation::parse(self, seat, text)
    }

    fn format_action(&self, action: &Action) -> String {
        notation::format(action)
    }

    /// The cards a player may play or burn are in their hand.
    fn private_choices(&self) -> bool {
        true
    }

    fn describe(&self, outcome: &Outcome) -> String {
        view::describe(outcome)
    }

    /// Attacks and defences by their combat card, so each card's sets of pieces share a line;
    /// the other actions by their kind (play, burn, end, take, lose).
    fn action_group(&self, action: &Action) -> String {
        match action {
            Action::Attack { combat, .. } => format!("attack {}", card(*combat).name),
            Action::Defend { combat, .. } => format!("defend {}", card(*combat).name),
            Action::Play(_) | Action::PlayOn { .. } => "play".into(),
            Action::Burn(_) => "burn".into(),
            Action::End => "end".into(),
            Action::Take => "take".into(),
            Action::Lose(_) => "lose".into(),
        }
    }

    /// Ending the turn with a deck too short to draw back to seven, and taking an attack
    /// stronger than your board, lose on the spot.
    fn warning(&self, seat: Seat, action: &Action) -> Option<String> {
        let color = color_of(seat)?;
        match (&self.phase, action) {
            (Phase::Main, Action::End) => {
                let side = self.side(color);
                let short = HAND.saturating_sub(side.hand.len());
                (short > side.deck.len()).then(|| {
                    format!(
                        "your deck holds {} and you need {} to draw back to seven: ending the \
                         turn loses the game",
                        cards(side.deck.len()),
                        cards(short)
                    )
                })
            }
            (Phase::Defend(attack), Action::Take) => {
                let hp = self.board_hp(color);
                (attack.power > hp).then(|| {
                    format!(
                        "the attack's power of {} exceeds your board's {hp} hit points: taking \
                         it defeats your King and loses the game",
                        attack.power
                    )
                })
            }
            _ => None,
        }
    }

    /// The seat's own deck in another order, and the opponent's hand and deck dealt again
    /// from the same cards: all the seat cannot see, keeping what it has learnt
    /// (`knowledge.rs`).
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        self.deal_unseen(seat, rng)
    }

    fn turn_owner(&self) -> Option<Seat> {
        ChessATete::turn_owner(self)
    }
}

/// A number of cards in words: "no cards", "1 card", "3 cards".
fn cards(n: usize) -> String {
    match n {
        0 => "no cards".into(),
        1 => "1 card".into(),
        _ => format!("{n} cards"),
    }
}

/// Card names joined for messages: "Knight, Knight, Peasant".
fn names(ids: &[CardId]) -> String {
    ids.iter()
        .map(|&id| card(id).name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests;
