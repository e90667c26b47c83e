//! Chess-à-Tête (in progress): a card game of chess pieces. Each player starts with the King on
//! their board and seven cards in hand, plays up to three actions a turn (piece cards within the
//! board limits, burning cards), and draws back to seven at the end of the turn; a player who
//! cannot draw back to seven loses. Combat, action cards, pawn abilities and the Checkmate card
//! are not yet played. See docs/rules/chessatete.md.

pub mod deck;
mod notation;

use crate::engine::{
    Event, Game, GameRng, Outcome, ParseError, RuleError, Seat, SetupError, ToAct, Viewer,
};
use crate::games::chess::{Color, color_of, seat_of, two_seats};
use deck::{CardKind, PieceKind, catalogue, check_deck, read_list};
use serde::{Deserialize, Serialize};

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
    /// Put a piece card from your hand on your board.
    Play(CardId),
    /// Send a card from your hand to your graveyard and draw one (only at the end of a turn).
    Burn(CardId),
    /// End the turn and draw back to seven.
    End,
}

/// One player's cards. The draw deck's top is its last card.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    hand: Vec<CardId>,
    deck: Vec<CardId>,
    board: Vec<CardId>,
    graveyard: Vec<CardId>,
}

/// What the player to act has done this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    pub actions: u8,
    pub pieces: u8,
    pub burned: u8,
    /// Whether a card has been played (a turn must play at least one when it can).
    pub played: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChessATete {
    sides: [Side; 2],
    turn: Color,
    budget: Budget,
    turns: u32,
    last: Vec<String>,
    outcome: Option<Outcome>,
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
pub fn limit(kind: PieceKind) -> usize {
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
            let list =
                read_list(text).map_err(|e| SetupError::Options(format!("{who}'s deck: {e}")))?;
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

    fn legal(&self, color: Color) -> Vec<Action> {
        if self.outcome.is_some() || color != self.turn {
            return vec![];
        }
        let b = &self.budget;
        let mut hand = self.side(color).hand.clone();
        hand.sort();
        hand.dedup();
        let mut out = Vec::new();
        if b.actions < ACTIONS && b.burned == 0 {
            out.extend(
                hand.iter()
                    .filter(|&&id| b.pieces < ACTIONS && self.fits_board(color, id))
                    .map(|&id| Action::Play(id)),
            );
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

    /// Why `action` is refused: a precise message.
    fn why_illegal(&self, color: Color, action: &Action) -> String {
        let b = &self.budget;
        match *action {
            Action::Play(id) | Action::Burn(id) if !self.side(color).hand.contains(&id) => {
                format!("there is no {} in your hand", card(id).name)
            }
            Action::Play(id) => {
                let c = card(id);
                if piece_kind(id).is_none() {
                    return format!(
                        "{} is not a piece card; combat and action cards are not playable yet",
                        c.name
                    );
                }
                if b.burned > 0 {
                    return "once you burn cards the turn is ending: burn more or end".into();
                }
                if b.actions >= ACTIONS {
                    return "you have used your three actions this turn: end the turn".into();
                }
                let kind = piece_kind(id).expect("a piece");
                format!(
                    "your board already holds {} {}{} (the limit)",
                    limit(kind),
                    kind.name(),
                    if limit(kind) > 1 { "s" } else { "" }
                )
            }
            Action::Burn(_) => {
                if b.actions >= ACTIONS {
                    "you have used your three actions this turn: end the turn".into()
                } else {
                    "play at least one card before burning".into()
                }
            }
            Action::End => "play at least one card this turn".into(),
        }
    }

    /// Draws one card for `color`; false if the deck is empty.
    fn draw(&mut self, color: Color) -> bool {
        let side = self.side_mut(color);
        match side.deck.pop() {
            Some(id) => {
                side.hand.push(id);
                true
            }
            None => false,
        }
    }

    /// Ends `color`'s turn: draw back to seven (losing if the deck cannot), then the other
    /// player's turn.
    fn end_turn(&mut self, color: Color, events: &mut Vec<Event>) {
        let mut drawn = 0;
        while self.side(color).hand.len() < HAND {
            if !self.draw(color) {
                let outcome =
                    Outcome::winner(seat_of(color.other()), 2, "exhausting the opponent's deck");
                events.push(Event::public(format!(
                    "{} cannot draw back to seven cards",
                    color.name()
                )));
                events.push(Event::public(format!(
                    "Game over: {}",
                    crate::games::chess::describe(&outcome)
                )));
                self.outcome = Some(outcome);
                return;
            }
            drawn += 1;
        }
        events.push(Event::public(format!(
            "{} draws {drawn} card{} and ends the turn",
            color.name(),
            if drawn == 1 { "" } else { "s" }
        )));
        self.turn = color.other();
        self.budget = Budget::default();
        self.turns += 1;
    }
}

impl Game for ChessATete {
    type Options = ChessATeteOptions;
    type Action = Action;
    type View = ChessATeteView;

    const NAME: &'static str = "Chess-à-Tête";
    const SEATS: (usize, usize) = (2, 2);

    fn new(
        options: &ChessATeteOptions,
        seats: usize,
        rng: &mut GameRng,
    ) -> Result<Self, SetupError> {
        two_seats(Self::NAME, seats)?;
        let mut sides: [Side; 2] = Default::default();
        for (color, list) in [
            (Color::White, options.white_deck.as_deref()),
            (Color::Black, options.black_deck.as_deref()),
        ] {
            let mut cards = build_deck(list, color)?;
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
            budget: Budget::default(),
            turns: 0,
            last: vec![],
            outcome: None,
        })
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(o) => ToAct::Over(o.clone()),
            None => ToAct::one(seat_of(self.turn)),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        color_of(seat).map_or_else(Vec::new, |c| self.legal(c))
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        _: &mut GameRng,
    ) -> Result<Vec<Event>, RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        let color = match color_of(seat) {
            Some(c) if c == self.turn => c,
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
        let take = |side: &mut Side, id: CardId| {
            let at = side.hand.iter().position(|&h| h == id).expect("in hand");
            side.hand.remove(at);
        };
        match *action {
            Action::Play(id) => {
                let side = self.side_mut(color);
                take(side, id);
                side.board.push(id);
                self.budget.actions += 1;
                self.budget.pieces += 1;
                self.budget.played = true;
                events.push(Event::public(format!("{who} plays {}", card(id).name)));
            }
            Action::Burn(id) => {
                let side = self.side_mut(color);
                take(side, id);
                side.graveyard.push(id);
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
        }
        self.last.extend(
            events
                .iter()
                .filter(|e| !e.text.starts_with("Game over"))
                .map(|e| e.text.clone()),
        );
        Ok(events)
    }

    fn view(&self, viewer: Viewer) -> ChessATeteView {
        let names = |ids: &[CardId]| ids.iter().map(|&id| card(id).name.clone()).collect();
        let sides = [Color::White, Color::Black].map(|color| {
            let side = self.side(color);
            let own = viewer == Viewer::Seat(seat_of(color));
            SideView {
                color,
                board: names(&side.board),
                board_hp: board_hp(&side.board),
                graveyard: names(&side.graveyard),
                hand_size: side.hand.len(),
                deck_size: side.deck.len(),
                hand: own.then(|| {
                    let mut hand: Vec<CardId> = side.hand.clone();
                    hand.sort();
                    names(&hand)
                }),
            }
        });
        ChessATeteView {
            viewer,
            sides: sides.to_vec(),
            to_move: self.turn,
            budget: self.budget.clone(),
            last: self.last.clone(),
            status: match &self.outcome {
                Some(o) => format!("Game over: {}", crate::games::chess::describe(o)),
                None => format!(
                    "{} to play ({} of {ACTIONS} actions used)",
                    self.turn.name(),
                    self.budget.actions
                ),
            },
            outcome: self.outcome.clone(),
        }
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ParseError> {
        notation::parse(self, seat, text)
    }

    fn format_action(&self, action: &Action) -> String {
        notation::format(action)
    }
}

/// The hit points of a board: every piece's, the King's included.
pub fn board_hp(board: &[CardId]) -> u32 {
    board
        .iter()
        .map(|&id| match card(id).kind {
            CardKind::Piece { hp, .. } => u32::from(hp),
            _ => 0,
        })
        .sum()
}

/// One player's cards as a viewer may see them: the hand only for its owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    pub color: Color,
    pub board: Vec<String>,
    pub board_hp: u32,
    pub graveyard: Vec<String>,
    pub hand_size: usize,
    pub deck_size: usize,
    /// The hand, sorted, for its owner only.
    pub hand: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessATeteView {
    pub viewer: Viewer,
    /// White's side, then Black's.
    pub sides: Vec<SideView>,
    pub to_move: Color,
    pub budget: Budget,
    /// What happened in the last turn so far.
    pub last: Vec<String>,
    pub status: String,
    pub outcome: Option<Outcome>,
}

#[cfg(test)]
mod tests;
