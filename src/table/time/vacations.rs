//! Vacations in the table: a player on vacation has every running clock of theirs held (it
//! keeps what it had left and runs again when the vacation ends), so no match of theirs is
//! lost on time meanwhile; a clock that starts while they are away waits too. The vacation is
//! announced in each of their active matches, and ends early when they move or end it.

use crate::store::outbox::Destination;
use crate::store::{Change, MatchId, PlayerId, StoredMatch, Vacation, VacationError};
use crate::table::clock::Instant;
use crate::table::clocks::{Moment, Timing, hold, resume};
use crate::table::outbox::Owed;
use crate::table::update::update;
use crate::table::{Table, TableError, Update};

/// A vacation begun or ended, and what it said in each of the player's active matches.
#[derive(Clone, Debug)]
pub struct Away {
    pub vacation: Vacation,
    /// Vacation days used in the vacation's calendar year, and that year.
    pub used: (i64, i64),
    pub matches: Vec<Update>,
}

/// The refusal for a vacation, in plain words for the console and Discord alike (`now` for
/// "in 3 days").
fn vacation_error(e: VacationError, now: Instant) -> TableError {
    match e {
        VacationError::Store(e) => TableError::Storage(e),
        VacationError::AlreadyAway { until } => TableError::Illegal(format!(
            "you are on vacation already, until {}; end it first to declare another",
            crate::table::clock::plain_time(until, now)
        )),
        other => TableError::Illegal(other.to_string()),
    }
}

impl Table {
    /// For each seat of a timed match, when the vacation its player is on ends, if they are
    /// on one (nothing to look up for a match without a clock).
    pub(in crate::table) fn away(
        &self,
        stored: &StoredMatch,
    ) -> Result<Vec<Option<Instant>>, TableError> {
        if stored.time_control.is_empty() || stored.time_control == "none" {
            return Ok(vec![]);
        }
        // A match on hold (its server or thread gone) is held for every seat.
        if !self.store.holds_of(stored.id)?.is_empty() {
            return Ok(vec![Some(crate::table::holds::HELD); stored.players.len()]);
        }
        let ids: Vec<PlayerId> = stored.players.iter().map(|p| p.id).collect();
        Ok(self.store.away_until(&ids, self.now())?)
    }

    /// `player` goes on vacation for `days` whole days from now: their running clocks are
    /// held, and each of their active matches is told (on Discord, through the outbox, in the
    /// same transaction).
    pub fn start_vacation(&mut self, player: PlayerId, days: i64) -> Result<Away, TableError> {
        self.atomically(|t| t.start_vacation_now(player, days))
    }

    fn start_vacation_now(&mut self, player: PlayerId, days: i64) -> Result<Away, TableError> {
        let now = self.now();
        let vacation = self
            .store
            .start_vacation(player, now, days)
            .map_err(|e| vacation_error(e, now))?;
        let name = self.store.player(player)?.name;
        let line = format!(
            "{name} is on vacation for {}: their clock waits until they are back.",
            crate::table::clock::span(vacation.ends_at - vacation.starts_at)
        );
        let matches = self.retime_all(player, &line, |timing, seats, now| {
            // A match without a clock has no clock to hold.
            let mut away = vec![None; timing.clocks.len()];
            for &seat in seats {
                if let Some(slot) = away.get_mut(seat) {
                    *slot = Some(vacation.ends_at);
                }
            }
            hold(timing, &away, now)
        })?;
        self.owe_vacation(&matches, &line, Some(vacation.ends_at), None)?;
        Ok(Away {
            used: self.store.vacation_days_used(player, now)?,
            vacation,
            matches,
        })
    }

    /// `player` ends their vacation now: their held clocks run again, and each of their
    /// active matches is told (on Discord, through the outbox, in the same transaction).
    pub fn end_vacation(&mut self, player: PlayerId) -> Result<Away, TableError> {
        self.atomically(|t| t.end_vacation_now(player, None))
    }

    /// [`Table::end_vacation`], telling every match but `told` (whose own news says it).
    fn end_vacation_now(
        &mut self,
        player: PlayerId,
        told: Option<MatchId>,
    ) -> Result<Away, TableError> {
        let now = self.now();
        let vacation = self
            .store
            .end_vacation(player, now)
            .map_err(|e| vacation_error(e, now))?;
        let name = self.store.player(player)?.name;
        let line = format!("{name} is back from vacation: their clock runs again.");
        let matches = self.retime_all(player, &line, resume)?;
        self.owe_vacation(&matches, &line, None, told)?;
        Ok(Away {
            used: self.store.vacation_days_used(player, vacation.starts_at)?,
            vacation,
            matches,
        })
    }

    /// After `player` acted in match `id`: a player on vacation who moves is back, and says
    /// so. Returns the line to add to what their action did (their other matches are told
    /// through the outbox).
    pub(in crate::table) fn back_if_away(
        &mut self,
        player: PlayerId,
        id: MatchId,
    ) -> Result<Option<String>, TableError> {
        if self.store.vacation(player, self.now())?.is_none() {
            return Ok(None);
        }
        let away = self.atomically(|t| t.end_vacation_now(player, Some(id)))?;
        let name = self.store.player(player)?.name;
        tracing::info!(
            player = %name,
            matches = away.matches.len(),
            "a player on vacation moved; the vacation ends"
        );
        Ok(Some(format!(
            "{name} is back from vacation: their clocks run again."
        )))
    }

    /// Applies `change` to the clocks of `player`'s seats in each of their active matches, and
    /// returns each match's update with `line`.
    fn retime_all(
        &mut self,
        player: PlayerId,
        line: &str,
        change: impl Fn(&mut Timing, &[usize], Instant) -> bool,
    ) -> Result<Vec<Update>, TableError> {
        let mut out = Vec::new();
        for summary in self.store.matches_of(player, true)? {
            let loaded = self.load(summary.id)?;
            let seats: Vec<usize> = (0..loaded.stored.players.len())
                .filter(|&i| loaded.stored.players[i].id == player)
                .collect();
            if seats.first() != Some(&summary.seat.index()) {
                continue; // One update per match, also for a player in two seats.
            }
            let mut timing = Timing::of(&loaded.stored)?;
            if change(&mut timing, &seats, self.now()) {
                self.store_clocks(summary.id, &timing)?;
            }
            let loaded = self.load(summary.id)?;
            out.push(update(&loaded, vec![line.to_string()], vec![], self.now()));
        }
        Ok(out)
    }

    /// Owes `line` to each of `matches` played on Discord but `told`, with `back` (when the
    /// vacation ends, if it began).
    fn owe_vacation(
        &mut self,
        matches: &[Update],
        line: &str,
        back: Option<Instant>,
        told: Option<MatchId>,
    ) -> Result<(), TableError> {
        let now = self.now();
        for update in matches {
            if Some(update.match_id) == told || !crate::table::outbox::on_discord(&update.place) {
                continue;
            }
            let owed = Owed::Vacation {
                match_id: update.match_id,
                line: line.to_string(),
                back,
            };
            let post = owed.post(Destination::Match(update.match_id), now);
            self.store.owe(&post, now)?;
        }
        Ok(())
    }

    /// Stores match `id`'s clocks as `timing` says, and its deadlines to match.
    pub(in crate::table) fn store_clocks(
        &mut self,
        id: MatchId,
        timing: &Timing,
    ) -> Result<(), TableError> {
        let loaded = self.load(id)?;
        let now = self.now();
        let moment = Moment {
            timer_due: self.timer_due(id, &loaded.game)?,
            ..Moment::at(now)
        };
        let deadlines =
            crate::table::clocks::pending(timing, &loaded.game, loaded.stored.version + 1, &moment);
        let clocks = timing.clocks_json();
        self.store.change(
            id,
            loaded.stored.version,
            &[Change::Clocks(&clocks), Change::Deadlines(&deadlines)],
        )?;
        Ok(())
    }
}
