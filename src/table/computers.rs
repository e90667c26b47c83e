//! The computer's seats at the table: which of them must act now (or answer a draw offer), the
//! position each thinks about (a copy, so the thinking runs off the table's thread: see
//! [`super::thinking`]), and what it decided, taken like any player's request: keyed by the
//! match, its version and the seat, so it is applied exactly once however often it is sent,
//! and only while the match is still where the computer looked.

use super::{Request, Table, TableError, Update};
use crate::ai::Level;
use crate::engine::Seat;
use crate::games::AnyGame;
use crate::store::{MatchId, PlayerId, Status};
use std::collections::{HashMap, HashSet};

/// What the computer has to do in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Task {
    /// Its seat must act.
    Act,
    /// Another player offered a draw: it accepts or declines.
    AnswerDraw,
}

/// One seat of the computer with something to do, at a version of its match.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComputerTurn {
    pub match_id: MatchId,
    pub version: u64,
    pub seat: Seat,
    pub player: PlayerId,
    pub level: Level,
    pub task: Task,
    /// The server the match is played in: a process thinks only for its own servers'.
    pub guild: String,
}

impl ComputerTurn {
    /// The request's key: one per match, version and seat, so a decision sent twice (a restart
    /// that thought again) is applied once.
    pub fn key(&self) -> String {
        format!(
            "computer:{}:{}:{}",
            self.match_id, self.version, self.seat.0
        )
    }

    /// The seed of the computer's search here: from the match, its version and the seat,
    /// never from the seed that deals the match's cards.
    pub fn seed(&self) -> u64 {
        crate::ai::seed_from(&[self.match_id as u64, self.version, self.seat.0 as u64])
    }
}

/// The position a turn thinks about, copied from the table.
#[derive(Clone)]
pub struct Thinking {
    pub game: AnyGame,
    pub seats: usize,
    /// Actions played so far.
    pub plies: u64,
    /// How many actions had been played just after the computer's seat last acted (0 before
    /// it first acted): the rounds of draw offers begun since are this action's to offer.
    pub previous_action_end: u64,
    /// What the computer keeps in mind about draws in this match: a round's offer waiting
    /// for the end of its turn, or a draw it declined this turn.
    pub pending_draw: Option<PendingDraw>,
    /// The computer's seat has offered a draw that still stands.
    pub offered_draw: bool,
    /// The seats still in the game.
    pub live: usize,
}

/// What the computer decided.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    Play(String),
    /// Plays, then offers a draw while the opponent is to act (an offer lapses with the next
    /// action, so one made before its own move would lapse with it).
    PlayAndOfferDraw(String),
    /// Plays, at a moment a round's draw offer is due but its chances do not call for one now
    /// (not level, or no opinion): if its turn goes on, the offer waits for the turn's end and
    /// is made then if they do.
    PlayOfferDue(String),
    Resign,
    AcceptDraw,
    DeclineDraw,
}

/// The computer's seats found with nothing to do, by match and seat, at the version they were
/// read; and how many looks are left before every seat is read again anyway.
#[derive(Default)]
pub(super) struct Idle {
    versions: HashMap<(MatchId, Seat), u64>,
    looks_left: u32,
}

/// What the computer keeps in mind about draws in a match, between its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PendingDraw {
    /// A round's offer waits for the end of its turn ([`offer_after`]).
    Offer,
    /// It declined a draw: it offers none of its own before its turn is over.
    Declined,
}

/// Every this many looks, [`Table::computer_turns`] reads every seat again, idle or not: a
/// match changed behind the table's back (repaired by hand, restored from a backup) is not
/// left waiting on the computer for good.
pub(super) const LOOKS_BETWEEN_FULL_READS: u32 = 50;

/// Below these chances a two-player position is hopeless and the computer resigns ...
pub const RESIGN_BELOW: f64 = 0.03;
/// ... once this many actions have been played (never in the opening's noise).
pub const RESIGN_FROM_PLY: u64 = 20;
/// The computer offers a draw in a long, level two-player game: from this action on, ...
pub const DRAW_FROM_PLY: u64 = 120;
/// ... once in each round of this many actions, with the first action that ends its turn in
/// the round (or after it), when its chances are within this distance of even.
pub const DRAW_EVERY: u64 = 40;
const _: () = assert!(
    DRAW_FROM_PLY.is_multiple_of(DRAW_EVERY),
    "rounds start at DRAW_FROM_PLY"
);
pub const DRAW_MARGIN: f64 = 0.1;
/// It accepts a draw offered when its chances are below its fair share (one in the seats still
/// playing) by at least this much.
pub const DRAW_BEHIND: f64 = 0.05;

/// What the computer does at `turn`, from what its thinking gave: its action and its chances
/// after it (for [`Task::Act`]), or the game's evaluation of its chances (for
/// [`Task::AnswerDraw`]; None for a game without one). None when it has nothing to do. Pure,
/// so each rule is tested without a table.
pub fn decide(
    turn: &ComputerTurn,
    thinking: &Thinking,
    action: Option<String>,
    chances: Option<f64>,
) -> Option<Decision> {
    let two = thinking.seats == 2;
    match turn.task {
        // It takes a draw when it is behind; a game it cannot judge, it plays on.
        Task::AnswerDraw => {
            let fair = 1.0 / thinking.live.max(1) as f64;
            Some(match chances {
                Some(chances) if chances < fair - DRAW_BEHIND => Decision::AcceptDraw,
                _ => Decision::DeclineDraw,
            })
        }
        Task::Act => {
            let action = action?;
            let due = offer_due(thinking);
            // No opinion of its chances: it neither resigns nor offers.
            let level = match chances {
                Some(chances)
                    if two && chances < RESIGN_BELOW && thinking.plies >= RESIGN_FROM_PLY =>
                {
                    return Some(Decision::Resign);
                }
                Some(chances) => (chances - 0.5).abs() <= DRAW_MARGIN,
                None => false,
            };
            Some(match (due, level) {
                (true, true) => Decision::PlayAndOfferDraw(action),
                (true, false) => Decision::PlayOfferDue(action),
                (false, _) => Decision::Play(action),
            })
        }
    }
}

/// How many of the latest actions the computer reads to find when it last acted.
pub(super) const RECENT: usize = 16;

/// How many actions had been played just after `seat` last acted, from the seats that took
/// the latest actions (`recent`, the latest last) of `plies` in all: 0 before it first acted;
/// when `recent` does not reach back to its last action, the earliest action `recent` holds.
pub fn previous_action_end(recent: &[Seat], seat: Seat, plies: u64) -> u64 {
    let first = plies.saturating_sub(recent.len() as u64);
    match recent.iter().rposition(|&s| s == seat) {
        Some(i) => first + i as u64 + 1,
        None => first,
    }
}

/// Whether a round's draw offer is due with the computer's action in `thinking`: in a
/// two-player game, from the DRAW_FROM_PLY-th action on, when a round began since its last
/// action (each round begins between two of its actions, so is met once), or one is carried
/// from an action that could not make it; never while its own offer stands, nor in a turn in
/// which it declined one (that would read as changing its mind).
pub fn offer_due(thinking: &Thinking) -> bool {
    let after = thinking.plies + 1;
    thinking.seats == 2
        && !thinking.offered_draw
        && thinking.pending_draw != Some(PendingDraw::Declined)
        && after >= DRAW_FROM_PLY
        && (after / DRAW_EVERY > thinking.previous_action_end / DRAW_EVERY
            || thinking.pending_draw == Some(PendingDraw::Offer))
}

/// What becomes of a round's draw offer after the computer acts: whether it offers now, and
/// whether the offer is carried to its next action. An offer stands only when made with an
/// action that ends a turn the computer owned: one made while its own turn goes on would lapse
/// with its own next action, and one made with an answer inside the other player's turn (a
/// Chess-à-Tête defence, a Casino pick) would interrupt that turn. So an offer that is `due`
/// (whether `wanted` now or not) is carried until an action of its own ends its turn; that
/// action offers if it is wanted then, and ends the carry either way.
pub fn offer_after(wanted: bool, due: bool, ends_own_turn: bool) -> (bool, bool) {
    if ends_own_turn {
        (wanted, false)
    } else {
        (false, due)
    }
}

impl Table {
    /// Every seat the computer plays that has something to do now, in active matches that are
    /// not held: a draw offered by another player to answer first, else a turn to act.
    /// Only matches played on Discord are the loop's: a console plays its own computer seats.
    ///
    /// A seat found with nothing to do is not read again until its match's version changes:
    /// every change to a match (an action, a draw vote, a new player in the seat) goes through
    /// [`crate::store::Store::change`], which moves the version on, so one query tells which
    /// matches need a look.
    pub fn computer_turns(&self) -> Result<Vec<ComputerTurn>, TableError> {
        let seats = self.store.computer_seats().map_err(TableError::Storage)?;
        let mut idle = self.idle_computers.borrow_mut();
        let mut still_idle = HashMap::with_capacity(idle.versions.len());
        if idle.looks_left == 0 {
            idle.versions.clear();
            idle.looks_left = LOOKS_BETWEEN_FULL_READS;
            // Offers carried in matches no longer played (ended, held, reseated) go too.
            let playing: HashSet<(MatchId, Seat)> = seats
                .iter()
                .map(|s| (s.match_id, Seat(s.seat as u8)))
                .collect();
            self.pending_draws
                .borrow_mut()
                .retain(|at, _| playing.contains(at));
        }
        idle.looks_left -= 1;
        let mut turns = Vec::new();
        for seat in seats {
            let me = Seat(seat.seat as u8);
            let at = (seat.match_id, me);
            if idle.versions.get(&at) == Some(&seat.version) {
                still_idle.insert(at, seat.version);
                continue;
            }
            let loaded = match self.load(seat.match_id) {
                Ok(loaded) => loaded,
                // A damaged match is refused to everyone; the computer leaves it alone (and
                // says so once a version).
                Err(e @ TableError::Corrupt { .. }) => {
                    tracing::warn!(match_id = seat.match_id, error = %e, "the computer skips a match that cannot be loaded");
                    still_idle.insert(at, seat.version);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let version = loaded.stored.version;
            let votes = &loaded.stored.draw_votes;
            let live = loaded.game.live_seats().contains(&me);
            let task = if loaded.stored.status != Status::Active {
                None
            } else if !votes.is_empty() && !votes.contains(&me) && live {
                Some(Task::AnswerDraw)
            } else if loaded.game.to_act().includes(me) {
                Some(Task::Act)
            } else {
                None
            };
            let Some(task) = task else {
                still_idle.insert(at, version);
                continue;
            };
            turns.push(ComputerTurn {
                match_id: seat.match_id,
                version,
                seat: me,
                player: seat.player,
                level: seat.level,
                task,
                guild: seat.guild,
            });
        }
        idle.versions = still_idle;
        Ok(turns)
    }

    /// A copy of the position `turn` thinks about; None when its match has moved on (or
    /// ended) since the turn was found.
    pub fn computer_position(&self, turn: &ComputerTurn) -> Result<Option<Thinking>, TableError> {
        let loaded = self.load(turn.match_id)?;
        if loaded.stored.status != Status::Active || loaded.stored.version != turn.version {
            return Ok(None);
        }
        let seats = loaded.stored.players.len();
        let pending = self
            .pending_draws
            .borrow()
            .get(&(turn.match_id, turn.seat))
            .copied();
        // Only a two-player game's actions may come with a draw offer.
        let recent = if turn.task == Task::Act && seats == 2 {
            self.store.last_actors(turn.match_id, RECENT)?
        } else {
            Vec::new()
        };
        Ok(Some(Thinking {
            seats,
            plies: loaded.stored.plies,
            previous_action_end: previous_action_end(&recent, turn.seat, loaded.stored.plies),
            pending_draw: pending,
            offered_draw: loaded.stored.draw_votes.contains(&turn.seat),
            live: loaded.game.live_seats().len(),
            game: loaded.game,
        }))
    }

    /// Takes the computer's `decision` at `turn`: a keyed request at the turn's version, so it
    /// is applied once and only if nothing changed meanwhile. None when the match is held (it
    /// is taken again once the hold ends). Its board is owed at once, as no interaction shows
    /// it.
    pub fn computer_decides(
        &mut self,
        turn: &ComputerTurn,
        decision: &Decision,
    ) -> Result<Option<Update>, TableError> {
        let id = turn.match_id;
        if self.is_held(id)? {
            return Ok(None);
        }
        let key = turn.key();
        let request = Request {
            expected: Some(turn.version),
            key: Some(&key),
            confirmed: true,
        };
        let player = turn.player;
        let update = match decision {
            Decision::Play(action)
            | Decision::PlayAndOfferDraw(action)
            | Decision::PlayOfferDue(action) => {
                let wanted = matches!(decision, Decision::PlayAndOfferDraw(_));
                let due = wanted || matches!(decision, Decision::PlayOfferDue(_));
                let before = self.turn_of_two(id);
                let played = self.act(id, player, request, action)?;
                // Settled before anything else can fail: the next turn is at a new version.
                let offer =
                    !played.repeated && self.settle_offer(turn, before, &played, wanted, due);
                self.undelivered(id, played.version)?;
                if !offer {
                    return Ok(Some(played));
                }
                // In the same call, so nobody acts between the move and the offer.
                let key = format!("{key}:draw");
                let offer = Request {
                    expected: Some(played.version),
                    key: Some(&key),
                    confirmed: true,
                };
                self.offer_draw(id, player, offer)?
            }
            Decision::Resign => self.resign(id, player, request)?,
            Decision::AcceptDraw => self.accept_draw(id, player, request)?,
            Decision::DeclineDraw => {
                let declined = self.decline_draw(id, player, request)?;
                if !declined.repeated {
                    self.pending_draws
                        .borrow_mut()
                        .insert((id, turn.seat), PendingDraw::Declined);
                }
                declined
            }
        };
        self.undelivered(id, update.version)?;
        Ok(Some(update))
    }

    /// Before the computer acts in match `id`: when it has two players (the only games it
    /// offers draws in), whose turn it is ([`crate::engine::Game::turn_owner`], None where
    /// whoever acts owns it). None when the match has more seats or cannot be read now: no
    /// offer is then made, and a waiting one is left as it was.
    fn turn_of_two(&self, id: MatchId) -> Option<Option<Seat>> {
        let loaded = self.load(id).ok()?;
        (loaded.stored.players.len() == 2).then(|| loaded.game.turn_owner())
    }

    /// After the computer's action `played` at `turn` (`before`: [`Table::turn_of_two`] just
    /// before it), what becomes of a round's draw offer ([`offer_after`]): whether to make it
    /// now; a carried one is kept or dropped. An action that ended the game ends the carry.
    fn settle_offer(
        &self,
        turn: &ComputerTurn,
        before: Option<Option<Seat>>,
        played: &Update,
        wanted: bool,
        due: bool,
    ) -> bool {
        let at = (turn.match_id, turn.seat);
        let Some(owner) = before else {
            return false;
        };
        let ends_own_turn = if played.result.is_some() {
            true
        } else {
            let Ok(after) = self.load(turn.match_id) else {
                return false;
            };
            let goes_on = after.game.to_act().includes(turn.seat)
                || after.game.turn_owner() == Some(turn.seat);
            owner.is_none_or(|o| o == turn.seat) && !goes_on
        };
        let mut pending = self.pending_draws.borrow_mut();
        let was = pending.get(&at).copied();
        if was == Some(PendingDraw::Declined) {
            // No offer of its own in the turn it declined one; the turn's end clears that.
            if ends_own_turn {
                pending.remove(&at);
            }
            return false;
        }
        let due = due || was == Some(PendingDraw::Offer);
        let (offer, carry) = offer_after(wanted, due, ends_own_turn);
        if carry {
            pending.insert(at, PendingDraw::Offer);
        } else {
            pending.remove(&at);
        }
        offer && played.result.is_none()
    }

    /// A random legal action for `turn`, when the computer's own decision was refused (a bug,
    /// logged by the caller): keyed apart from the decision, so the match never waits on it.
    pub fn computer_fallback(&mut self, turn: &ComputerTurn) -> Result<Option<Update>, TableError> {
        let Some(thinking) = self.computer_position(turn)? else {
            return Ok(None);
        };
        if self.is_held(turn.match_id)? {
            return Ok(None);
        }
        let mut rng = crate::engine::GameRng::from_seed(turn.seed());
        let Some(action) = thinking.game.random_action(turn.seat, &mut rng) else {
            return Ok(None);
        };
        let key = format!("{}:random", turn.key());
        let request = Request {
            expected: Some(turn.version),
            key: Some(&key),
            confirmed: true,
        };
        let before = self.turn_of_two(turn.match_id);
        let due = offer_due(&thinking);
        let update = self.act(turn.match_id, turn.player, request, &action)?;
        if !update.repeated {
            // It offers nothing, but a round's offer waits or ends as after any action.
            self.settle_offer(turn, before, &update, false, due);
        }
        self.undelivered(turn.match_id, update.version)?;
        Ok(Some(update))
    }
}
