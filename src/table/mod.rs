//! The service both adapters call: create a match, take an action, resign, draws, abort, lists
//! and history. No transport here: each call returns what to send ([`Update`]).
//!
//! The master loop: load the match (a live game from the cache, or its snapshot and the rest of
//! its log: see [`live`]) -> check the caller holds a seat that must act -> parse and apply ->
//! store the action, the new version, a snapshot and the request's key in one transaction, only
//! if the version is still the one the caller saw and the key is new. A request whose key was
//! seen before is answered with what it did the first time and changes nothing.

use crate::engine::{GameRng, Outcome, Seat, SetupError, Viewer};
use crate::games::{AnyGame, AnyView, GameKind};
use crate::store::{
    Change, MatchId, Place, Player, PlayerId, Status, Store, StoreError, StoredMatch,
};
use std::cell::RefCell;
use std::collections::HashMap;
use thiserror::Error;

pub mod admin;
pub mod computers;
mod decisions;
mod export;
mod handle;
mod holds;
pub mod leagues;
mod listings;
mod live;
mod openings;
pub mod outbox;
pub mod public;
pub mod ratings;
mod reading;
mod replays;
mod requests;
pub mod thinking;
mod time;
mod update;
use crate::store::league_rulings::{BoardLink, NewMatch};
use clock::{Clock, SystemClock};
pub use clocks::Timing;
pub use export::HistoryPage;
pub use handle::{CallError, TableHandle};
pub use holds::{HELD, ServerHold};
pub use listings::Listing;
pub use live::CACHE_CAPACITY;
use live::{Cache, Live};
pub use openings::NoThread;
pub use reading::Reads;
use requests::{Key, Lines, Seen};
pub use scheduler::{Fired, Firing, Reminder, TimeUp};
use std::sync::Arc;
pub use time::{clock, time_control};
use time::{clocks, scheduler, vacations};
use time_control::TimeControl;
pub use update::Update;
use update::{split_events, update};
pub use vacations::Away;

/// The longest action text read; longer text is refused before any game reads it.
pub const ACTION_LIMIT: usize = 300;

/// How a request that changes a match is made, besides what it asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request<'a> {
    /// The version the caller saw (a button's); None means "the current one" (typed text).
    pub expected: Option<u64>,
    /// The adapter's key for this request (a Discord interaction or message id, a console
    /// session and line): a request whose key was applied before changes nothing and is
    /// answered with what it did then.
    pub key: Option<&'a str>,
    /// Plays an action that loses on the spot without asking first.
    pub confirmed: bool,
}

impl From<Option<u64>> for Request<'_> {
    fn from(expected: Option<u64>) -> Self {
        Request {
            expected,
            ..Request::default()
        }
    }
}

/// A refusal, in words for the player; internal failures keep their detail for the log.
#[derive(Debug, Error)]
pub enum TableError {
    #[error("there is no match #{0}")]
    NoSuchMatch(MatchId),
    #[error("you are not playing in match #{0}")]
    NotInMatch(MatchId),
    #[error("it is not your turn: waiting for {0}")]
    NotYourTurn(String),
    #[error("{0}")]
    Illegal(String),
    /// A legal action that loses on the spot for its player: the adapter asks for a
    /// confirmation and then sends it again with `confirmed`.
    #[error("{warning}: send it again to confirm")]
    Confirm {
        warning: String,
        action: String,
        version: u64,
    },
    #[error("match #{0} has moved on since you looked; look at the board again and retry")]
    Stale(MatchId),
    #[error("match #{id} is over ({result})")]
    Over { id: MatchId, result: String },
    #[error("match #{0} was aborted")]
    Aborted(MatchId),
    #[error("{0}")]
    Setup(#[from] SetupError),
    #[error("match #{id} cannot be loaded: {detail}")]
    Corrupt { id: MatchId, detail: String },
    #[error("{}; the match is unchanged", .0.short())]
    Storage(#[source] StoreError),
    #[error("that action is {0} characters long; actions are at most {ACTION_LIMIT}")]
    TooLong(usize),
    /// The request was refused before (its key was seen): the refusal as it was given then.
    /// Nothing changed; an adapter that answered the first delivery need not answer again.
    #[error("{0}")]
    Refused(String),
    /// A bug (a panic) stopped the work; it was logged with its detail and nothing it was
    /// doing was stored.
    #[error("an internal error stopped {0}; nothing of it was stored")]
    Internal(String),
    /// The request's key was used for another match: the request is not applied.
    #[error("this request was already used for match #{0}; nothing changed")]
    KeyReused(MatchId),
}

impl TableError {
    /// A refusal that depends on the match as it stands (whose turn it is, what is legal, its
    /// version): recorded under the request's key, so a redelivery after the match has moved
    /// on is refused the same way instead of applying.
    fn depends_on_the_match(&self) -> bool {
        matches!(
            self,
            TableError::NotInMatch(_)
                | TableError::NotYourTurn(_)
                | TableError::Illegal(_)
                | TableError::Confirm { .. }
                | TableError::Stale(_)
                | TableError::Over { .. }
                | TableError::Aborted(_)
        )
    }
}

impl From<StoreError> for TableError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NoSuchMatch(id) => TableError::NoSuchMatch(id),
            StoreError::Stale { id, .. } => TableError::Stale(id),
            StoreError::Corrupt { id, detail } => TableError::Corrupt {
                id,
                detail: format!("it is damaged in storage: {detail}"),
            },
            StoreError::NotActive {
                id,
                status: Status::Aborted,
            } => TableError::Aborted(id),
            StoreError::NotActive { id, .. } => TableError::Over {
                id,
                result: "finished".into(),
            },
            other => TableError::Storage(other),
        }
    }
}

/// One player's choices in a match ([`Table::choices_for`]).
#[derive(Clone, Debug)]
pub struct PlayerChoices {
    /// The match's version: menus made from these choices carry it.
    pub version: u64,
    /// Every action the player may take now; empty when they need not act.
    pub actions: Vec<String>,
    /// The player's own view.
    pub view: AnyView,
    /// The names of the players who must act now.
    pub waiting_for: Vec<String>,
}

/// A match loaded and replayed, with the random source as replay left it (the next action
/// continues it).
struct Loaded {
    /// The match as stored, without its log.
    stored: StoredMatch,
    game: AnyGame,
    rng: GameRng,
}

impl Loaded {
    /// How the match ended outside the game's own rules (resignation, agreement, abort), when
    /// it did: the game still waits for a move, but the match is over.
    fn ended_outside(&self) -> Option<(Outcome, String)> {
        if self.stored.status == Status::Active || self.game.to_act().outcome().is_some() {
            return None;
        }
        let seats = self.stored.players.len();
        Some(match (&self.stored.status, &self.stored.outcome) {
            (Status::Finished, Some(outcome)) => (outcome.clone(), self.game.describe(outcome)),
            _ => (
                Outcome::draw(seats, "abort"),
                "the match was aborted".into(),
            ),
        })
    }

    /// What `viewer` sees: the game's view, showing the match as over when it ended outside
    /// the game's rules.
    fn view(&self, viewer: Viewer) -> AnyView {
        let mut view = self.game.view(viewer);
        if let Some((outcome, result)) = self.ended_outside() {
            view.conclude(&outcome, &result);
        }
        view
    }

    /// The legal actions of `seat`: none once the match is over, however it ended.
    fn legal(&self, seat: Seat) -> Vec<String> {
        if self.stored.status == Status::Active {
            self.game.legal_actions(seat)
        } else {
            Vec::new()
        }
    }
}

pub struct Table {
    store: Store,
    cache: RefCell<Cache>,
    clock: Arc<dyn Clock>,
    /// The computer's seats found with nothing to do, at their match's version
    /// ([`Table::computer_turns`] reads them again only once it changes).
    idle_computers: RefCell<computers::Idle>,
    /// The computer's seats with a draw offer to make when their turn ends
    /// ([`computers::offer_after`]), or that declined one this turn. Kept in memory: a restart
    /// forgets them.
    pending_draws: RefCell<HashMap<(MatchId, Seat), computers::PendingDraw>>,
}

impl Table {
    pub fn new(store: Store) -> Self {
        Self::with_cache(store, CACHE_CAPACITY)
    }

    /// A table whose cache keeps at most `capacity` live games.
    pub fn with_cache(store: Store, capacity: usize) -> Self {
        Table {
            store,
            cache: RefCell::new(Cache::new(capacity)),
            clock: Arc::new(SystemClock),
            idle_computers: RefCell::default(),
            pending_draws: RefCell::default(),
        }
    }

    /// A table whose time comes from `clock` (a simulated one in tests and scripts).
    pub fn with_clock(store: Store, clock: impl Clock + 'static) -> Self {
        Table {
            clock: Arc::new(clock),
            ..Self::new(store)
        }
    }

    /// The time now, by the table's clock.
    pub fn now(&self) -> clock::Instant {
        self.clock.now()
    }

    pub fn store(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Starts a match with no clock; seat order follows `players`.
    pub fn create(
        &mut self,
        game: GameKind,
        options: &[(String, String)],
        players: &[Player],
        seed: u64,
        place: &Place,
    ) -> Result<Update, TableError> {
        self.create_timed(game, options, players, seed, place, TimeControl::None)
    }

    /// Starts a match played under `time`; seat order follows `players`.
    pub fn create_timed(
        &mut self,
        game: GameKind,
        options: &[(String, String)],
        players: &[Player],
        seed: u64,
        place: &Place,
        time: TimeControl,
    ) -> Result<Update, TableError> {
        let made = self.create_linked(game, options, players, seed, place, time, None)?;
        Ok(made.expect("a match linked to no league board is always made"))
    }

    /// [`Table::create_timed`], the match stored in the same transaction as its link to a
    /// league's board; None when the board has its match already.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn create_linked(
        &mut self,
        game: GameKind,
        options: &[(String, String)],
        players: &[Player],
        seed: u64,
        place: &Place,
        time: TimeControl,
        link: Option<BoardLink>,
    ) -> Result<Option<Update>, TableError> {
        let start = Self::checked_start(game, options, players.len(), seed)?;
        let ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
        let moment = clocks::Moment {
            away: self.store.away_until(&ids, self.now())?,
            ..clocks::Moment::at(self.now())
        };
        let (timing, deadlines) = clocks::at_start(time, &start, &moment);
        let (control, clocks) = (time.text(), timing.clocks_json());
        let timing = crate::store::Timing {
            control: &control,
            clocks: &clocks,
            deadlines: &deadlines,
        };
        let made = match link {
            None => Some(self.store.create_timed_match(
                game,
                options,
                seed,
                &ids,
                place,
                game.rules(),
                Some(timing),
            )?),
            Some(link) => {
                let new = NewMatch {
                    game,
                    options,
                    seed,
                    players: &ids,
                    place,
                };
                // A board of a league with a channel waits for its thread (see `openings`):
                // held, and its thread owed, in the transaction that creates it.
                let waits = place.channel_id.is_some() && place.thread_id.is_none();
                let round = link.round;
                self.atomically(|t| {
                    let made = t.store.create_league_match(new, timing, link)?;
                    if let (Some(id), true) = (made, waits) {
                        t.await_thread(id, None, None, Some(round), t.now())?;
                    }
                    Ok(made)
                })?
            }
        };
        made.map(|id| self.opened(id)).transpose()
    }

    /// Sets the game up once, so bad options or seat counts are refused before anything is
    /// stored, and so is a start that is already over (it would be a match nobody can play).
    pub fn check_start(
        game: GameKind,
        options: &[(String, String)],
        seats: usize,
        seed: u64,
    ) -> Result<(), TableError> {
        Self::checked_start(game, options, seats, seed).map(|_| ())
    }

    fn checked_start(
        game: GameKind,
        options: &[(String, String)],
        seats: usize,
        seed: u64,
    ) -> Result<AnyGame, TableError> {
        let (_, options) = clocks::split_options(options)?;
        let start = game.start(&options, seats, &mut GameRng::from_seed(seed))?;
        if let Some(outcome) = start.to_act().outcome() {
            return Err(TableError::Setup(SetupError::Options(format!(
                "this start is already over ({}); nothing to play",
                start.describe(outcome)
            ))));
        }
        Ok(start)
    }

    /// The clocks (JSON) and first deadlines of a match about to start now under `time` (a
    /// challenge being accepted, whose store transaction creates the match).
    pub fn clocks_at_start(
        &self,
        game: GameKind,
        options: &[(String, String)],
        seats: usize,
        seed: u64,
        time: TimeControl,
        players: &[PlayerId],
    ) -> Result<(String, Vec<crate::store::NewDeadline>), TableError> {
        let start = Self::checked_start(game, options, seats, seed)?;
        let moment = clocks::Moment {
            away: self.store.away_until(players, self.now())?,
            ..clocks::Moment::at(self.now())
        };
        let (timing, deadlines) = clocks::at_start(time, &start, &moment);
        Ok((timing.clocks_json(), deadlines))
    }

    /// A match just created (here or by an accepted challenge): its first update, announcing
    /// the game, its players and its clock.
    pub fn opened(&self, id: MatchId) -> Result<Update, TableError> {
        let loaded = self.load(id)?;
        let names: Vec<&str> = loaded
            .stored
            .players
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        let mut line = format!(
            "Match #{id}: {} for {}",
            loaded.stored.game.name(),
            names.join(", ")
        );
        let time = clocks::Timing::of(&loaded.stored)?.control;
        if !time.is_none() {
            line.push_str(&format!(" ({})", time.describe()));
        }
        Ok(update(&loaded, vec![line], vec![], self.now()))
    }

    /// Empties the live-game cache: after a call panicked, no game it may have half-changed in
    /// memory is used again; every match loads from what is stored.
    pub(crate) fn forget_live_games(&self) {
        let capacity = self.cache.borrow().capacity();
        *self.cache.borrow_mut() = Cache::new(capacity);
        // What the computer found idle was read from those games.
        *self.idle_computers.borrow_mut() = Default::default();
    }

    fn load(&self, id: MatchId) -> Result<Loaded, TableError> {
        let (stored, Live { game, rng }) =
            live::load(&self.store, &mut self.cache.borrow_mut(), id)?;
        Ok(Loaded { stored, game, rng })
    }

    /// Stores `changes` to match `id` with the request's key and the lines it produced; the
    /// new state `after` is kept live and saved as the match's snapshot when it took actions.
    /// A key applied meanwhile (the same request delivered twice at once) is answered as a
    /// repeat.
    #[allow(clippy::too_many_arguments)]
    fn commit(
        &mut self,
        loaded: &Loaded,
        after: Option<Live>,
        actions: u64,
        changes: &[Change],
        key: Key,
        public: Vec<String>,
        private: Vec<(Seat, String)>,
    ) -> Result<Update, TableError> {
        let id = loaded.stored.id;
        let plies = loaded.stored.plies + actions;
        let mut changes = changes.to_vec();
        let last = changes.iter().rev().find_map(|change| match change {
            Change::Action { seat, text } => Some((*seat, *text)),
            _ => None,
        });
        let snapshot = after
            .as_ref()
            .filter(|_| actions > 0)
            .zip(last)
            .map(|(live, last)| live::snapshot(live, id, plies, loaded.stored.rules, Some(last)));
        if let Some(snapshot) = &snapshot {
            changes.push(Change::Snapshot(snapshot));
        }
        let lines = serde_json::to_string(&Lines {
            public: public.clone(),
            private: private.clone(),
            refused: None,
            confirm: false,
        })
        .expect("lines serialise");
        let over = changes
            .iter()
            .any(|c| matches!(c, Change::Finish(_) | Change::Abort));
        let game = after.as_ref().map_or(&loaded.game, |live| &live.game);
        let version = loaded.stored.version + 1;
        let moment = clocks::Moment {
            now: self.now(),
            timer_due: match actions {
                0 => self.timer_due(id, game)?,
                _ => None,
            },
            away: self.away(&loaded.stored)?,
            held: self.is_held(id)?,
        };
        let timing = clocks::after_change(loaded, game, over, version, &moment)?;
        let clocks_json = timing.as_ref().map(|(t, _)| t.clocks_json());
        if let Some((timing, deadlines)) = &timing {
            if !timing.control.is_none() {
                changes.push(Change::Clocks(clocks_json.as_deref().unwrap_or("[]")));
            }
            changes.push(Change::Deadlines(deadlines));
        }
        if let Some(request) = key.key {
            changes.push(Change::Request {
                key: request,
                lines: &lines,
                replaces: key.replaces.as_deref(),
            });
        }
        // The board this change owes (see `outbox`): none inside a step that writes its own.
        let owed = (!self.store.in_transaction() && outbox::on_discord(&loaded.stored.place))
            .then(|| outbox::board_post(id, version, &public, self.now() + outbox::LEASE));
        if let Some(owed) = &owed {
            changes.push(Change::Owe(owed));
        }
        // A move owes the turn messages of whoever it came to, after its board; so does a
        // substitution (the newcomer may be the one to act).
        let mover = last.and_then(|(seat, _)| loaded.stored.players.get(usize::from(seat.0)));
        let reseated = changes.iter().any(|c| matches!(c, Change::Reseat { .. }));
        let turns = (owed.is_some() && (actions > 0 || reseated))
            .then(|| outbox::turns_post(id, version, &public, mover.map(|p| p.id), self.now()));
        if let Some(turns) = &turns {
            changes.push(Change::Owe(turns));
        }
        match self.store.change(id, loaded.stored.version, &changes) {
            Ok(version) => {
                if let Some(live) = after {
                    self.cache.borrow_mut().put(id, version, plies, live);
                }
            }
            Err(StoreError::Duplicate(_)) => match self.seen(id, key.key)? {
                Some(Seen::Applied(update)) => return Ok(*update),
                Some(Seen::Refused { refusal, .. }) => return Err(TableError::Refused(refusal)),
                // Not this request's key: a deadline claimed meanwhile by another process.
                None => return Err(TableError::Stale(id)),
            },
            Err(e) => {
                self.cache.borrow_mut().forget(id);
                return Err(e.into());
            }
        }
        let loaded = self.load(id)?;
        Ok(update(&loaded, public, private, self.now()))
    }

    /// When the game's own timer (Memory's reveal) of match `id` falls due, if it is set and
    /// `game` still waits for it.
    fn timer_due(&self, id: MatchId, game: &AnyGame) -> Result<Option<clock::Instant>, TableError> {
        if game.timeout().is_none() {
            return Ok(None);
        }
        Ok(self
            .store
            .deadlines_of(id)?
            .into_iter()
            .find(|d| d.kind == crate::store::DeadlineKind::Expire)
            .map(|d| d.due_at))
    }

    /// The current state of a match, as an update with no new lines.
    pub fn show(&self, id: MatchId) -> Result<Update, TableError> {
        let loaded = self.load(id)?;
        Ok(update(&loaded, vec![], vec![], self.now()))
    }

    /// Takes an action for `player`. `expected` is the version the caller saw (a button's);
    /// None means "the current one" (a typed command). An action that loses on the spot for
    /// its player is refused with [`TableError::Confirm`]; see [`Table::act_with`].
    pub fn act<'a>(
        &mut self,
        id: MatchId,
        player: PlayerId,
        request: impl Into<Request<'a>>,
        text: &str,
    ) -> Result<Update, TableError> {
        let request = request.into();
        let text = text.trim();
        let length = text.chars().count();
        if length > ACTION_LIMIT {
            return Err(TableError::TooLong(length));
        }
        let mut done = self.keyed(id, &request, |table, key| {
            table.act_unkeyed(id, player, request, key, text)
        })?;
        if !done.repeated {
            // A player on vacation who moves is back.
            match self.back_if_away(player, id) {
                Ok(Some(line)) => done.public.push(line),
                Ok(None) => {}
                Err(e) => tracing::error!(
                    match_id = id,
                    error = %e,
                    "a player on vacation moved, but the vacation could not be ended"
                ),
            }
        }
        Ok(done)
    }

    fn act_unkeyed(
        &mut self,
        id: MatchId,
        player: PlayerId,
        request: Request,
        key: Key,
        text: &str,
    ) -> Result<Update, TableError> {
        let loaded = self.load_active(id, request.expected)?;
        let seats = seats_of(&loaded.stored, player, id)?;
        let to_act = loaded.game.to_act();
        let Some(&seat) = seats.iter().find(|&&s| to_act.includes(s)) else {
            return Err(TableError::NotYourTurn(waiting_for(&loaded).join(", ")));
        };
        if !request.confirmed
            && let Some((warning, action)) = loaded.game.warning(seat, text)
        {
            return Err(TableError::Confirm {
                warning,
                action,
                version: loaded.stored.version,
            });
        }
        let mut after = Live {
            game: loaded.game.clone(),
            rng: loaded.rng.clone(),
        };
        let played = after
            .game
            .play(seat, text, &mut after.rng)
            .map_err(|e| TableError::Illegal(e.to_string()))?;
        let mut changes = vec![Change::Action {
            seat,
            text: &played.canonical,
        }];
        let outcome = after.game.to_act().outcome().cloned();
        if let Some(outcome) = &outcome {
            changes.push(Change::Finish(outcome));
        }
        let (public, private) = split_events(&played.events);
        self.commit(&loaded, Some(after), 1, &changes, key, public, private)
    }

    /// Applies what the game does when nobody acts in time (the end of the memorising time in
    /// En Prise Memory). `expected` is the version the timer was set for: if the match has
    /// moved on, the timer is out of date and nothing happens.
    pub fn expire(&mut self, id: MatchId, expected: u64) -> Result<Update, TableError> {
        let loaded = self.load_active(id, Some(expected))?;
        let Some((_, actions)) = loaded.game.timeout() else {
            return Err(TableError::Illegal(
                "nothing in this match is waiting for a timer".into(),
            ));
        };
        let mut after = Live {
            game: loaded.game.clone(),
            rng: loaded.rng.clone(),
        };
        let mut texts = Vec::new();
        let mut events = Vec::new();
        for (seat, text) in actions {
            let played =
                after
                    .game
                    .play(seat, &text, &mut after.rng)
                    .map_err(|e| TableError::Corrupt {
                        id,
                        detail: format!("timeout action {text:?} refused: {e}"),
                    })?;
            texts.push((seat, played.canonical));
            events.extend(played.events);
        }
        let outcome = after.game.to_act().outcome().cloned();
        let mut changes: Vec<Change> = texts
            .iter()
            .map(|(seat, text)| Change::Action { seat: *seat, text })
            .collect();
        if let Some(outcome) = &outcome {
            changes.push(Change::Finish(outcome));
        }
        let (mut public, private) = split_events(&events);
        public.insert(0, "Time is up.".into());
        // The timer's own key: a timer fired twice (or by two processes) applies once.
        let key = format!("timer:{id}:{expected}");
        let actions = texts.len() as u64;
        self.commit(
            &loaded,
            Some(after),
            actions,
            &changes,
            Key::new(Some(&key)),
            public,
            private,
        )
    }

    /// The canonical texts of what `player` may do now in match `id`.
    pub fn legal(&self, id: MatchId, player: PlayerId) -> Result<Vec<String>, TableError> {
        let loaded = self.load(id)?;
        let seats = seats_of(&loaded.stored, player, id)?;
        Ok(seats.iter().flat_map(|&s| loaded.legal(s)).collect())
    }

    /// [`Table::legal`] in groups (by piece, card or kind of action), for long lists.
    pub fn legal_groups(
        &self,
        id: MatchId,
        player: PlayerId,
    ) -> Result<Vec<(String, Vec<String>)>, TableError> {
        let loaded = self.load(id)?;
        let seats = seats_of(&loaded.stored, player, id)?;
        if loaded.stored.status != Status::Active {
            return Ok(vec![]);
        }
        Ok(seats
            .iter()
            .flat_map(|&s| loaded.game.legal_groups(s))
            .collect())
    }

    /// Who must act now in match `id` (names), empty once it is over.
    pub fn waiting_for(&self, id: MatchId) -> Result<Vec<String>, TableError> {
        let loaded = self.load(id)?;
        if loaded.stored.status != Status::Active {
            return Ok(vec![]);
        }
        Ok(waiting_for(&loaded))
    }

    /// The computer's action for `player` in active match `id` at `level`, searching until
    /// `stop` says so (the caller's clock: see [`crate::ai::Level::time_limit`]); None when
    /// the player has nothing to do. The search's seed is made from the match's id, its version
    /// and the seat, never from the seed that deals its cards.
    pub fn computer_action(
        &self,
        id: MatchId,
        player: PlayerId,
        level: crate::ai::Level,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<String>, TableError> {
        let loaded = self.load(id)?;
        if loaded.stored.status != Status::Active {
            return Ok(None);
        }
        let Some(seat) = loaded.stored.players.iter().position(|p| p.id == player) else {
            return Ok(None);
        };
        let seed = crate::ai::seed_from(&[id as u64, loaded.stored.version, seat as u64]);
        Ok(loaded
            .game
            .computer_action(Seat(seat as u8), level, seed, stop))
    }

    /// What `player` may do now in active match `id`, to show to them alone. `expected` is the
    /// version the caller saw (a menu's), or None for the current one.
    pub fn choices_for(
        &self,
        id: MatchId,
        player: PlayerId,
        expected: Option<u64>,
    ) -> Result<PlayerChoices, TableError> {
        let loaded = self.load_active(id, expected)?;
        let seats = seats_of(&loaded.stored, player, id)?;
        Ok(PlayerChoices {
            version: loaded.stored.version,
            actions: seats
                .iter()
                .flat_map(|&s| loaded.game.legal_actions(s))
                .collect(),
            view: loaded.view(Viewer::Seat(seats[0])),
            waiting_for: waiting_for(&loaded),
        })
    }

    /// What `player` may see of match `id`: their own seat's view, or a spectator's.
    pub fn view_for(&self, id: MatchId, player: Option<PlayerId>) -> Result<AnyView, TableError> {
        let loaded = self.load(id)?;
        let viewer = player
            .and_then(|p| seats_of(&loaded.stored, p, id).ok())
            .map_or(Viewer::Spectator, |seats| Viewer::Seat(seats[0]));
        Ok(loaded.view(viewer))
    }

    /// The log: (move number from 1, player name, canonical text).
    pub fn history(&self, id: MatchId) -> Result<Vec<(usize, String, String)>, TableError> {
        let stored = self.store.load(id)?;
        Ok(stored
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| {
                (
                    i + 1,
                    stored.players[a.seat.index()].name.clone(),
                    a.text.clone(),
                )
            })
            .collect())
    }

    fn load_active(&self, id: MatchId, expected: Option<u64>) -> Result<Loaded, TableError> {
        let loaded = self.load(id)?;
        match loaded.stored.status {
            Status::Active => {}
            Status::Aborted => return Err(TableError::Aborted(id)),
            Status::Finished => {
                let result = loaded
                    .stored
                    .outcome
                    .as_ref()
                    .map_or("finished".into(), |o| loaded.game.describe(o));
                return Err(TableError::Over { id, result });
            }
        }
        if expected.is_some_and(|v| v != loaded.stored.version) {
            return Err(TableError::Stale(id));
        }
        Ok(loaded)
    }
}

fn seats_of(stored: &StoredMatch, player: PlayerId, id: MatchId) -> Result<Vec<Seat>, TableError> {
    let seats: Vec<Seat> = stored
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.id == player)
        .map(|(i, _)| Seat(i as u8))
        .collect();
    if seats.is_empty() {
        return Err(TableError::NotInMatch(id));
    }
    Ok(seats)
}

fn waiting_for(loaded: &Loaded) -> Vec<String> {
    loaded
        .game
        .to_act()
        .seats()
        .iter()
        .map(|s| loaded.stored.players[s.index()].name.clone())
        .collect()
}

#[cfg(test)]
mod tests;
