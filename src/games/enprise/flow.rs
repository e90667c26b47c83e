//! How an En Prise turn runs: an action performed, the turn passed on, players who cannot play
//! put out (their pieces turned face-down, kept for the last picture), and the end of the game.

use super::{
    Action, Elimination, EnPrise, Fallen, LastAction, Out, Phase, Piece, QUIET_ROUNDS, Variant,
    article, colour, describe, sq_text,
};
use crate::board::Sq;
use crate::engine::{Event, Outcome, Seat};
use crate::games::chess::Role;

impl EnPrise {
    /// Performs a legal action.
    pub(super) fn perform(&mut self, seat: Seat, action: &Action) -> Vec<Event> {
        let mut events = Vec::new();
        let who = self.name(seat);
        match *action {
            Action::Ready => {
                let Phase::Memorise { ready } = &mut self.phase else {
                    unreachable!("checked legal")
                };
                ready[seat.index()] = true;
                if ready.iter().all(|&r| r) {
                    self.end_memorising(&mut events);
                }
            }
            Action::Move { from, to } => {
                let piece = self
                    .board
                    .get(from)
                    .flatten()
                    .expect("legal move has a piece");
                let captured = self.board.get(to).flatten();
                self.board.set(to, Some(piece));
                self.board.set(from, None);
                let text = match captured {
                    Some(c) => format!(
                        "{who}'s {} on {} takes {}'s {} on {}",
                        piece.role.name(),
                        sq_text(from),
                        self.name(c.owner),
                        c.role.name(),
                        sq_text(to)
                    ),
                    None => format!(
                        "{who} moves the {} from {} to {}",
                        piece.role.name(),
                        sq_text(from),
                        sq_text(to)
                    ),
                };
                events.push(Event::public(text.clone()));
                self.last = Some(LastAction {
                    seat,
                    text,
                    squares: vec![from, to],
                    fallen: vec![],
                });
                if push_streak(&mut self.streaks[seat.index()], from, to) {
                    self.eliminate(seat, Out::Repetition, &mut events);
                }
                self.end_turn(&mut events, captured.is_some());
            }
            Action::Place { at, face_down } => {
                let index = match self.phase {
                    Phase::Placing { card } => card,
                    _ => 0,
                };
                let card = self.plans[seat.index()].remove(index);
                let piece = Piece {
                    owner: seat,
                    role: card.role,
                };
                self.board.set(at, (!face_down).then_some(piece));
                let text = if face_down {
                    format!(
                        "{who} places a pawn face-down: a new vacant square at {}",
                        sq_text(at)
                    )
                } else {
                    format!("{who} places {} at {}", article(card.role), sq_text(at))
                };
                events.push(Event::public(text.clone()));
                self.last = Some(LastAction {
                    seat,
                    text,
                    squares: vec![at],
                    fallen: vec![],
                });
                self.streaks[seat.index()].clear();
                self.end_turn(&mut events, true);
            }
            Action::King { at } => {
                self.board.set(
                    at,
                    Some(Piece {
                        owner: seat,
                        role: Role::King,
                    }),
                );
                self.king_in_hand[seat.index()] = false;
                let first = !self.kings_summoned;
                self.kings_summoned = true;
                let text = format!("{who} summons the king to {}", sq_text(at));
                events.push(Event::public(if first {
                    format!("{text}: every opponent must summon their king on their next turn")
                } else {
                    text.clone()
                }));
                self.last = Some(LastAction {
                    seat,
                    text,
                    squares: vec![at],
                    fallen: vec![],
                });
                self.streaks[seat.index()].clear();
                if self.escapes(seat).len() > 1 {
                    self.phase = Phase::Escape;
                } else {
                    self.end_turn(&mut events, true);
                }
            }
            Action::Escape { at, card } => {
                let index = card.map_or(0, |c| c - 1);
                let card = self.plans[seat.index()].remove(index);
                self.board.set(at, None);
                let text = format!(
                    "{who} adds an escape square at {} (giving up {})",
                    sq_text(at),
                    article(card.role)
                );
                events.push(Event::public(text.clone()));
                if let Some(last) = &mut self.last {
                    last.squares.push(at);
                    last.text = format!("{}; {}", last.text, text);
                }
                self.end_turn(&mut events, true);
            }
            Action::NoEscape => {
                events.push(Event::public(format!("{who} adds no escape square")));
                self.end_turn(&mut events, true);
            }
            Action::Draw => match self.options.variant {
                Variant::Casino => {
                    let chooser = self.chooser_for(seat);
                    events.push(Event::public(format!(
                        "{who} will place a card; {} picks which",
                        self.name(chooser)
                    )));
                    self.phase = Phase::Choosing { chooser };
                }
                _ => {
                    self.plans[seat.index()][0].shown = true;
                    let role = self.plans[seat.index()][0].role;
                    events.push(Event::public(format!(
                        "{who} chooses to place: the next card is {}",
                        article(role)
                    )));
                    self.reveal_for_placing(seat, 0, &mut events);
                }
            },
            Action::Pick { card } => {
                let owner = self.current;
                let index = card - 1;
                self.plans[owner.index()][index].shown = true;
                let role = self.plans[owner.index()][index].role;
                events.push(Event::public(format!(
                    "{who} picks card {card} of {}'s battleplan: {}",
                    self.name(owner),
                    article(role)
                )));
                self.reveal_for_placing(owner, index, &mut events);
            }
        }
        events
    }

    pub(super) fn name(&self, seat: Seat) -> &'static str {
        colour(seat)
    }

    /// Ends the current player's turn and starts the next live player's, eliminating those
    /// who cannot play, until someone can or the game is over.
    pub(super) fn end_turn(&mut self, events: &mut Vec<Event>, eventful: bool) {
        self.turns += 1;
        if eventful {
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        for (owner, _) in self.opposing_kings(self.current) {
            if self.board.in_check(owner, self.sides()) {
                events.push(Event::public(format!("{} is in check", self.name(owner))));
            }
        }
        let next = self.next_live(self.current);
        self.begin_turn(next, events);
    }

    fn begin_turn(&mut self, mut seat: Seat, events: &mut Vec<Event>) {
        loop {
            if self.check_end(events) {
                return;
            }
            if !self.alive[seat.index()] {
                seat = self.next_live(seat);
                continue;
            }
            self.current = seat;
            if self.can_complete_turn(seat) {
                self.phase = Phase::Turn;
                return;
            }
            let out = if self.must_summon(seat) {
                Out::NoSafeSquare
            } else if let Some(king) = self.board.king_of(seat)
                && self.board.in_check(seat, self.sides())
            {
                Out::Checkmate {
                    by: self.checkers(seat, king),
                }
            } else {
                Out::Stalemate
            };
            self.eliminate(seat, out, events);
            seat = self.next_live(seat);
        }
    }

    /// The players whose pieces attack `seat`'s king on `king`, in turn order.
    fn checkers(&self, seat: Seat, king: Sq) -> Vec<Seat> {
        let sides = self.sides();
        self.live()
            .filter(|&s| sides.opposed(s, seat))
            .filter(|&s| self.board.attacked_by(king, sides, |owner| owner == s))
            .collect()
    }

    /// Puts `seat` out of the game: their pieces turn face-down (kept, as they stood, with the
    /// last action for its picture) and their battleplan is discarded.
    pub(super) fn eliminate(&mut self, seat: Seat, out: Out, events: &mut Vec<Event>) {
        let in_check = self.board.in_check(seat, self.sides());
        let cleared = self.board.clear(seat);
        if let Some(last) = &mut self.last {
            last.fallen
                .extend(cleared.into_iter().map(|(at, piece)| Fallen {
                    at,
                    piece,
                    check: in_check && piece.role == Role::King,
                }));
        }
        self.alive[seat.index()] = false;
        self.plans[seat.index()].clear();
        self.king_in_hand[seat.index()] = false;
        self.streaks[seat.index()].clear();
        self.quiet = 0;
        events.push(Event::public(format!(
            "{} is out of the game ({}); their pieces turn face-down",
            self.name(seat),
            out.short()
        )));
        self.eliminated.push(Elimination { seat, out });
    }

    /// Ends the game when one player (or one team) is left, or when it is drawn.
    pub(super) fn check_end(&mut self, events: &mut Vec<Event>) -> bool {
        if matches!(self.phase, Phase::Over(_)) {
            return true;
        }
        let sides = self.sides();
        let live: Vec<Seat> = self.live().collect();
        let teams: std::collections::BTreeSet<u8> = live.iter().map(|&s| sides.team(s)).collect();
        let outcome = if teams.len() <= 1 {
            let reason = self.eliminated.last().map_or("default", |e| e.out.reason());
            Some(self.win_outcome(&live, reason))
        } else if !self.mate_possible() {
            Some(Outcome::draw(
                self.seats,
                "no checkmate is possible any more",
            ))
        } else if self.quiet >= QUIET_ROUNDS * live.len() as u32 {
            Some(Outcome::draw(
                self.seats,
                "fifty rounds without a card placed, a capture or an elimination",
            ))
        } else {
            None
        };
        let Some(outcome) = outcome else {
            return false;
        };
        events.push(Event::public(format!(
            "Game over: {}",
            describe(self, &outcome)
        )));
        self.phase = Phase::Over(outcome);
        true
    }

    /// Places best first: the winners, then the eliminated, last out first.
    fn win_outcome(&self, winners: &[Seat], reason: &str) -> Outcome {
        if self.options.alliance {
            let team = self.sides().team(winners[0]);
            let (won, lost): (Vec<Seat>, Vec<Seat>) =
                Seat::all(self.seats).partition(|&s| self.sides().team(s) == team);
            return Outcome::team_win(won, lost, reason);
        }
        let mut places = vec![winners.to_vec()];
        places.extend(self.eliminated.iter().rev().map(|e| vec![e.seat]));
        Outcome::ranking(places, reason)
    }

    /// A checkmate stays possible while some live player has a piece that can give check (on the
    /// board or still in the battleplan). Kings alone never mate; pawns never check.
    fn mate_possible(&self) -> bool {
        let checker = |r: Role| !matches!(r, Role::King | Role::Pawn);
        self.live().any(|s| {
            self.plans[s.index()].iter().any(|c| checker(c.role))
                || self
                    .board
                    .pieces()
                    .any(|(_, p)| p.owner == s && checker(p.role))
        })
    }

    /// The resignation of `seat`: allowed only when two players remain.
    pub fn resignation(&self, seat: Seat) -> Result<Outcome, String> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err("the game is over".into());
        }
        if !self.alive[seat.index()] {
            return Err("you are already out of the game".into());
        }
        let live: Vec<Seat> = self.live().collect();
        if live.len() != 2 {
            return Err(format!(
                "resigning is possible only when two players remain; {} are still playing",
                live.len()
            ));
        }
        Ok(self.leaving(seat, Out::Resignation))
    }

    /// The outcome when `seat`, one of the last two, leaves the game for `out`.
    fn leaving(&self, seat: Seat, out: Out) -> Outcome {
        let reason = out.reason();
        let mut copy = self.clone();
        copy.alive[seat.index()] = false;
        copy.eliminated.push(Elimination { seat, out });
        let winner: Vec<Seat> = copy.live().collect();
        copy.win_outcome(&winner, reason)
    }

    /// The outcome when `seat` runs out of time with two players left. None with more: the
    /// seat is put out as if checkmated and play goes on ([`EnPrise::time_out`]).
    pub fn on_time(&self, seat: Seat) -> Option<Outcome> {
        (self.alive[seat.index()] && self.live().count() <= 2)
            .then(|| self.leaving(seat, Out::Time))
    }

    /// Puts `seat` out of the game for running out of time (three or more players left): their
    /// pieces turn face-down, and the turn passes on if it was theirs.
    pub fn time_out(&mut self, seat: Seat) -> Vec<Event> {
        let mut events = Vec::new();
        if matches!(self.phase, Phase::Over(_)) || !self.alive[seat.index()] {
            return events;
        }
        events.push(Event::public(format!(
            "{} ran out of time",
            self.name(seat)
        )));
        self.eliminate(seat, Out::Time, &mut events);
        let was_acting = match &mut self.phase {
            Phase::Memorise { ready } => {
                ready[seat.index()] = true;
                if ready.iter().all(|&r| r) {
                    self.end_memorising(&mut events);
                } else {
                    self.check_end(&mut events);
                }
                return events;
            }
            Phase::Choosing { chooser } if *chooser == seat => {
                let chooser = self.chooser_for(self.current);
                self.phase = Phase::Choosing { chooser };
                false
            }
            Phase::Choosing { .. } | Phase::Over(_) => false,
            Phase::Turn | Phase::Placing { .. } | Phase::Escape => self.current == seat,
        };
        if was_acting {
            let next = self.next_live(seat);
            self.begin_turn(next, &mut events);
        } else {
            self.check_end(&mut events);
        }
        events
    }

    /// Memory: everyone is ready, the battleplans turn face-down and the first live player in
    /// turn order begins (one put out on time while memorising is passed over).
    fn end_memorising(&mut self, events: &mut Vec<Event>) {
        let first = self.current;
        self.phase = Phase::Turn;
        self.begin_turn(first, events);
        if !matches!(self.phase, Phase::Over(_)) {
            events.push(Event::public(format!(
                "The battleplans are turned face-down. {} to play.",
                self.name(self.current)
            )));
        }
    }

    /// Memory: after the memorising time, everyone still looking is made ready.
    pub fn timeout(&self) -> Option<(u32, Vec<(Seat, Action)>)> {
        let Phase::Memorise { ready } = &self.phase else {
            return None;
        };
        let acts = Seat::all(self.seats)
            .filter(|s| !ready[s.index()])
            .map(|s| (s, Action::Ready))
            .collect();
        Some((self.options.memory_seconds(), acts))
    }

    /// A card has been revealed for placing: place it next, or, when it cannot be placed, it
    /// stays face-up and the turn goes on without it.
    pub(super) fn reveal_for_placing(&mut self, seat: Seat, index: usize, events: &mut Vec<Event>) {
        let role = self.plans[seat.index()][index].role;
        if self.can_place(seat, role) {
            self.phase = Phase::Placing { card: index };
            return;
        }
        match self.options.variant {
            Variant::Casino => {
                let chooser = self.chooser_for(seat);
                events.push(Event::public(format!(
                    "The {} cannot be placed and stays face-up; {} picks again",
                    role.name(),
                    self.name(chooser)
                )));
                self.phase = Phase::Choosing { chooser };
            }
            _ => {
                events.push(Event::public(format!(
                    "The {} cannot be placed and stays face-up; {} must move or summon the king instead",
                    role.name(),
                    self.name(seat)
                )));
                self.phase = Phase::Turn;
            }
        }
    }
}

/// Records a move (from, to) in a player's streak of moves for the repetition rule (the last
/// six); true when one piece has now gone back and forth between two squares six own moves in
/// a row.
pub(super) fn push_streak(streak: &mut Vec<(Sq, Sq)>, from: Sq, to: Sq) -> bool {
    streak.push((from, to));
    if streak.len() > 6 {
        streak.remove(0);
    }
    let (a, b) = streak[0];
    streak.len() == 6
        && streak
            .iter()
            .enumerate()
            .all(|(i, &m)| m == if i % 2 == 0 { (a, b) } else { (b, a) })
}
