//! Matches on hold: when the bot is removed from a server, every active match there is held
//! (clocks still, so no deadline fires and nothing is lost on time, rated or forfeited) and the
//! server's leagues are suspended (no round closes or starts) until the bot is back; when a
//! match's thread is deleted, that match is held until a player reopens it in a new thread.
//!
//! A held clock is a vacation's held clock that never ends on its own: it keeps what it had
//! left and waits at [`HELD`]; releasing the last hold starts it again from now. The game's
//! own timer (Memory's reveal) is held the same way: it waits at [`HELD`] plus the time it had
//! left, and runs again from the release, or, for a match `/board` reopened, from the moment
//! its players were shown the board again.

use super::clock::Instant;
use super::clocks::{Timing, hold};
use super::update::update;
use super::{Table, TableError, Update};
use crate::store::{DeadlineKind, HoldReason, MatchId, PlayerId, Status};

/// Where a held clock waits: 9999-12-31, a time no deadline reaches.
pub const HELD: Instant = 253_402_300_799;

/// What holding or releasing a server did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerHold {
    /// The matches held (or released).
    pub matches: Vec<MatchId>,
}

impl Table {
    /// The bot was removed from `guild`: its active matches are held and its leagues
    /// suspended. Removed again while removed: nothing more happens.
    pub fn server_removed(&mut self, guild: &str) -> Result<ServerHold, TableError> {
        let now = self.now();
        self.store.guild_removed(guild, now)?;
        let mut matches = Vec::new();
        for id in self.store.active_in_guild(guild)? {
            if self.hold(id, HoldReason::Server)? {
                matches.push(id);
            }
        }
        tracing::info!(
            guild,
            matches = matches.len(),
            "the bot was removed from a server; its matches are held"
        );
        Ok(ServerHold { matches })
    }

    /// The bot is back in `guild`: the matches held for its removal run again (those whose
    /// thread is gone stay held until reopened), and its leagues' running rounds close as
    /// much later as they were suspended. Nothing happens for a server it was never removed
    /// from (every server is announced at each start).
    pub fn server_back(&mut self, guild: &str) -> Result<ServerHold, TableError> {
        let Some(since) = self.store.guild_returned(guild)? else {
            return Ok(ServerHold::default());
        };
        let away = (self.now() - since).max(0);
        self.store.postpone_rounds_of(guild, away)?;
        let mut matches = Vec::new();
        for id in self.store.held_in_guild(guild, HoldReason::Server)? {
            self.release(id, HoldReason::Server)?;
            matches.push(id);
        }
        tracing::info!(
            guild,
            matches = matches.len(),
            "the bot is back in a server; its matches run again"
        );
        Ok(ServerHold { matches })
    }

    /// Channel `channel` was deleted: a match thread, or a channel holding match threads. Each
    /// active match played there is held until reopened; returns each one's state, newly held
    /// (a match already held for its thread is not told twice).
    pub fn thread_deleted(&mut self, channel: &str) -> Result<Vec<Update>, TableError> {
        let mut out = Vec::new();
        for id in self.store.active_in_channel(channel)? {
            if self.hold(id, HoldReason::Thread)? {
                let loaded = self.load(id)?;
                out.push(update(&loaded, vec![], vec![], self.now()));
            }
        }
        Ok(out)
    }

    /// `player`'s active matches in `guild` whose thread was deleted.
    pub fn lost_threads(&self, player: PlayerId, guild: &str) -> Result<Vec<MatchId>, TableError> {
        Ok(self.store.lost_threads_of(player, guild)?)
    }

    /// Match `id`, whose thread was deleted, is played in `thread` of `channel` from now on:
    /// its clocks run again (unless the server is held too). Returns its state, to post.
    pub fn reopened(
        &mut self,
        id: MatchId,
        channel: &str,
        thread: &str,
    ) -> Result<Update, TableError> {
        self.store.move_match(id, channel, thread)?;
        // The game timer runs again only once its players see the board (`board_shown`).
        self.release_then(id, HoldReason::Thread, Timer::WaitsForBoard)?;
        let loaded = self.load(id)?;
        let line = format!("Match #{id} goes on in this thread; its clocks run again.");
        Ok(update(&loaded, vec![line], vec![], self.now()))
    }

    /// Whether match `id` is held (its server or its thread gone).
    pub fn is_held(&self, id: MatchId) -> Result<bool, TableError> {
        Ok(!self.store.holds_of(id)?.is_empty())
    }

    /// Holds match `id` for `reason`: its running clocks stop where they are, and so does the
    /// game's own timer (Memory's reveal). False when it was held for that already.
    pub(super) fn hold(&mut self, id: MatchId, reason: HoldReason) -> Result<bool, TableError> {
        let loaded = self.load(id)?;
        if loaded.stored.status != Status::Active
            || !self.store.hold_match(id, reason, self.now())?
        {
            return Ok(false);
        }
        let now = self.now();
        // First the timer, which the clocks' deadlines below are stored with.
        self.move_timer(id, |due| (due < HELD).then(|| HELD + (due - now).max(0)))?;
        let mut timing = Timing::of(&loaded.stored)?;
        let held = vec![Some(HELD); timing.clocks.len()];
        if hold(&mut timing, &held, now) {
            self.store_clocks(id, &timing)?;
        }
        Ok(true)
    }

    /// Ends match `id`'s hold for `reason`; with no hold left its clocks and its game timer
    /// run again from now (a player on vacation's clock stays held until they are back).
    pub(super) fn release(&mut self, id: MatchId, reason: HoldReason) -> Result<(), TableError> {
        self.release_then(id, reason, Timer::Runs)
    }

    /// [`Table::release`], the game timer run again as `timer` says.
    fn release_then(
        &mut self,
        id: MatchId,
        reason: HoldReason,
        timer: Timer,
    ) -> Result<(), TableError> {
        self.store.release_match(id, reason)?;
        let loaded = self.load(id)?;
        if loaded.stored.status != Status::Active || !self.store.holds_of(id)?.is_empty() {
            return Ok(());
        }
        let now = self.now();
        if timer == Timer::Runs {
            self.move_timer(id, |due| (due >= HELD).then(|| due - HELD + now))?;
        }
        let mut timing = Timing::of(&loaded.stored)?;
        let mut changed = false;
        for clock in &mut timing.clocks {
            if clock.running_since.is_some_and(|since| since >= HELD) {
                clock.running_since = Some(now);
                changed = true;
            }
        }
        changed |= hold(&mut timing, &self.away(&loaded.stored)?, now);
        if changed {
            self.store_clocks(id, &timing)?;
        }
        Ok(())
    }

    /// The players were shown the board of match `id` again after its hold (`/board` reopened
    /// it): its game timer, which waited for that, runs again from now with the time it had
    /// left. Nothing happens for a match still held or whose timer runs.
    pub fn board_shown(&mut self, id: MatchId) -> Result<(), TableError> {
        if self.load(id)?.stored.status != Status::Active || self.is_held(id)? {
            return Ok(());
        }
        let now = self.now();
        self.move_timer(id, |due| (due >= HELD).then(|| due - HELD + now))
    }

    /// At start-up: a match reopened just before the bot stopped may not have been told that
    /// its board was shown ([`Table::board_shown`]), and its game timer would wait for good;
    /// every such timer runs again from now with the time it had left. Returns those matches.
    pub fn start_timers_waiting_for_boards(&mut self) -> Result<Vec<MatchId>, TableError> {
        let mut started = Vec::new();
        for (id, _) in self.store.active_in_threads()? {
            let waits = self
                .store
                .deadlines_of(id)?
                .iter()
                .any(|d| d.kind == DeadlineKind::Expire && d.due_at >= HELD);
            if waits && !self.is_held(id)? {
                self.board_shown(id)?;
                started.push(id);
            }
        }
        Ok(started)
    }

    /// Moves match `id`'s pending game timer (Memory's reveal), if it has one, to where `to`
    /// says from where it is due (nowhere for None). The match's version stays: the buttons
    /// shown with its board still hold.
    fn move_timer(
        &mut self,
        id: MatchId,
        to: impl Fn(Instant) -> Option<Instant>,
    ) -> Result<(), TableError> {
        for deadline in self.store.deadlines_of(id)? {
            if deadline.kind == DeadlineKind::Expire
                && let Some(due) = to(deadline.due_at)
            {
                self.store.postpone_deadline(deadline.id, due)?;
            }
        }
        Ok(())
    }
}

/// How a released game timer runs again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    /// From the release.
    Runs,
    /// Once the players were shown the board again ([`Table::board_shown`]).
    WaitsForBoard,
}
