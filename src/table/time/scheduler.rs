//! The scheduler's side of the table: every deadline is a row ([`crate::store::Deadline`]);
//! [`Table::next_deadline`] says when the earliest falls due, and [`Table::fire_due`] fires
//! those due by the table's clock, each claimed in the same transaction as its effect, so it
//! fires once, also across restarts (a deadline that passed while the bot was down fires at
//! the next call). One loop in each adapter sleeps until the next deadline and calls it.

use crate::engine::Seat;
use crate::games::{GameKind, OnTime, TIME_OUT};
use crate::store::{
    Challenge, ChallengeError, Change, Deadline, DeadlineKind, MatchId, Place, Player, Status,
};
use crate::table::clock::{Instant, MINUTE, span};
use crate::table::clocks::Timing;
use crate::table::time_control::MAX_GIFT;
use crate::table::update::update;
use crate::table::{Key, Live, Table, TableError, Update};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What a deadline did.
#[derive(Clone, Debug)]
pub enum Fired {
    /// A clock ran out, or the game's own timer: the match changed.
    Changed(Box<Update>),
    /// The player to act is reminded of their clock.
    Reminder(Reminder),
    /// A challenge nobody (or not everyone) accepted in time has expired.
    ChallengeExpired(Box<Challenge>),
    /// A player's time is up in a match played with on_time=claim: the opponents may claim
    /// the win ([`Table::claim_win`]), or wait.
    TimeUp(TimeUp),
    /// A day has passed since the match ended: its thread may be archived.
    Archive { match_id: MatchId, place: Place },
    /// A league's round reached its deadline and closed (`closed`, in words), and the next
    /// one started, if there is one.
    League {
        league: Box<crate::store::leagues::League>,
        closed: Vec<String>,
        started: Option<Box<crate::table::leagues::RoundStarted>>,
    },
    /// A league round's deadline is near: the games still open, each with its place and the
    /// players to remind.
    RoundReminder {
        league: Box<crate::store::leagues::League>,
        round: u32,
        deadline: Instant,
        games: Vec<(MatchId, Place, Vec<crate::store::Player>)>,
    },
}

/// What one round of [`Table::fire_due`] did, and the failure that ended it early, if one did.
#[derive(Debug, Default)]
pub struct Firing {
    pub fired: Vec<Fired>,
    pub trouble: Option<TableError>,
}

impl Firing {
    /// What fired, or the failure when the round ended early.
    pub fn into_result(self) -> Result<Vec<Fired>, TableError> {
        match self.trouble {
            Some(e) => Err(e),
            None => Ok(self.fired),
        }
    }
}

/// A player out of time whose opponents may claim the win.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TimeUp {
    pub match_id: MatchId,
    pub player: Player,
    pub opponents: Vec<Player>,
    pub place: Place,
}

/// A challenge's storage failure, as the table reports storage failures.
fn challenge_error(e: ChallengeError) -> TableError {
    match e {
        ChallengeError::Store(e) => TableError::Storage(e),
        other => TableError::Illegal(other.to_string()),
    }
}

/// The least time between two nudges in one match.
const NUDGE_GAP: i64 = 12 * crate::table::clock::HOUR;

/// A change a deadline made, as fired.
fn changed(update: Update) -> Step {
    Step::Fired(Fired::Changed(Box::new(update)))
}

/// What firing one deadline came to.
enum Step {
    Fired(Fired),
    /// Nothing to do any more: the deadline is marked fired.
    Nothing,
    /// Not yet: the deadline was moved later (a reminder waiting for quiet hours to end).
    Later,
}

/// A reminder for the player to act.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reminder {
    pub match_id: MatchId,
    pub game: GameKind,
    pub seat: Seat,
    pub player: Player,
    /// The time the player has left, in seconds, and when their clock runs out.
    pub left: i64,
    pub deadline: Instant,
    pub place: Place,
    /// The player asked for reminders by direct message rather than in the match's thread.
    pub direct: bool,
}

impl Table {
    /// When the earliest pending deadline falls due, if any: a match's, or an open
    /// challenge's expiry.
    pub fn next_deadline(&self) -> Result<Option<Instant>, TableError> {
        let matches = self.store.next_deadline()?;
        let challenges = self
            .store
            .next_challenge_expiry()
            .map_err(challenge_error)?;
        let rounds = self
            .store
            .next_round_deadline(crate::table::leagues::ROUND_NOTICE)?;
        Ok(matches.into_iter().chain(challenges).chain(rounds).min())
    }

    /// Fires the deadlines due by the table's clock, at most `limit`, earliest first. A
    /// deadline that can no longer do anything (its match moved on or ended) is marked fired
    /// quietly, and so is one whose match is damaged (logged: it would fail every time). A
    /// storage failure, or a change racing with another process's, leaves the deadline pending
    /// and ends the round: what fired before it is kept in [`Firing::fired`], the failure in
    /// [`Firing::trouble`], and the caller tries again later.
    pub fn fire_due(&mut self, limit: usize) -> Firing {
        let now = self.now();
        let mut firing = Firing::default();
        let due = self.store.due_deadlines(now, limit);
        if let Err(e) = due
            .map_err(TableError::from)
            .and_then(|due| self.fire_deadlines(due, now, &mut firing.fired))
        {
            firing.trouble = Some(e);
            return firing;
        }
        // Challenges and leagues each run apart from the deadlines already fired: a bug (a
        // panic) in one loses none of what fired before it, and is reported as trouble so the
        // caller waits before trying again.
        type Work = fn(&mut Table, Instant, &mut Vec<Fired>) -> Result<(), TableError>;
        let steps: [(&str, Work); 2] = [
            ("expiring challenges", Table::expire_challenges),
            ("advancing league rounds", Table::advance_leagues),
        ];
        for (what, step) in steps {
            let fired = &mut firing.fired;
            let done = catch_unwind(AssertUnwindSafe(|| step(self, now, fired)));
            let failed = match done {
                Ok(result) => result.err(),
                Err(payload) => {
                    tracing::error!(
                        panic = crate::table::handle::panic_text(&*payload),
                        "{what} panicked; it is tried again later"
                    );
                    self.forget_live_games();
                    Some(TableError::Internal(what.to_string()))
                }
            };
            if let Some(e) = failed {
                firing.trouble = Some(e);
                return firing;
            }
        }
        firing
    }

    /// When match `id`'s earliest pending deadline falls due, if it has one.
    pub fn next_deadline_of(&self, id: MatchId) -> Result<Option<Instant>, TableError> {
        Ok(self.store.next_deadline_of(id)?)
    }

    /// [`Table::fire_due`] for match `id` alone: its deadlines due by the table's clock fire,
    /// and nothing else in the database (another match's clock, a challenge, a league round)
    /// does. The console uses it, so that a script run on a shared database decides nobody
    /// else's match.
    pub fn fire_due_of(&mut self, id: MatchId, limit: usize) -> Firing {
        let now = self.now();
        let mut firing = Firing::default();
        let due = self.store.due_deadlines_of(id, now, limit);
        if let Err(e) = due
            .map_err(TableError::from)
            .and_then(|due| self.fire_deadlines(due, now, &mut firing.fired))
        {
            firing.trouble = Some(e);
        }
        firing
    }

    /// Rounds that run themselves: a round past its deadline closes, and the next one starts.
    /// Each step is decided by what is stored, so a step interrupted is taken at the next tick.
    fn advance_leagues(&mut self, now: Instant, fired: &mut Vec<Fired>) -> Result<(), TableError> {
        use crate::table::leagues::LeagueError;
        // A refusal (no round running, the season over) leaves nothing to do.
        fn settle<T>(e: LeagueError) -> Result<Option<T>, TableError> {
            match e {
                LeagueError::Table(e) => Err(e),
                _ => Ok(None),
            }
        }
        // The reminders are marked sent in the same transaction as the posts they owe.
        let reminders = self.atomically(|t| {
            let mut reminders = Vec::new();
            for (id, round) in t
                .store
                .rounds_to_remind(now, crate::table::leagues::ROUND_NOTICE)?
            {
                if let Some(reminder) = t.round_reminder(id, round)? {
                    t.owe_fired(&reminder)?;
                    reminders.push(reminder);
                }
            }
            Ok(reminders)
        })?;
        fired.extend(reminders);
        for id in self.store.leagues_to_advance(now)? {
            // Each league's step and the news it owes are one transaction.
            let step = |t: &mut Table| {
                let Some(league) = t.store.league_by_id(id)? else {
                    return Ok(None);
                };
                // A round whose start was interrupted is finished first.
                let opened = t
                    .open_missing_boards(&league)
                    .map(Some)
                    .or_else(settle)?
                    .flatten();
                let moved = match opened {
                    Some(opened) => Fired::League {
                        league: Box::new(league),
                        closed: vec![],
                        started: Some(Box::new(opened)),
                    },
                    None => {
                        let season = t.store.season(id)?;
                        let due = t
                            .store
                            .rounds(season.id)?
                            .iter()
                            .any(|r| !r.closed && r.deadline <= now);
                        let closed = match due {
                            true => t.close_round(&league).map(Some).or_else(settle)?,
                            false => None,
                        };
                        let started = t.start_round(&league).map(Some).or_else(settle)?;
                        Fired::League {
                            league: Box::new(league),
                            closed: closed.unwrap_or_default(),
                            started: started.map(Box::new),
                        }
                    }
                };
                t.owe_fired(&moved)?;
                Ok(Some(moved))
            };
            if let Some(moved) = self.atomically(step)? {
                fired.push(moved);
            }
        }
        Ok(())
    }

    fn fire_deadlines(
        &mut self,
        due: Vec<Deadline>,
        now: Instant,
        fired: &mut Vec<Fired>,
    ) -> Result<(), TableError> {
        for deadline in due {
            // A deadline whose firing panics (a bug) would panic at every tick: it is logged
            // and dropped like one of a damaged match, and the others still fire.
            // The deadline's effect and the posts it owes are one transaction.
            let step = catch_unwind(AssertUnwindSafe(|| {
                self.atomically(|t| {
                    let step = t.fire(&deadline, now)?;
                    if let Step::Fired(fired) = &step {
                        t.owe_fired(fired)?;
                    }
                    Ok(step)
                })
            }));
            let step = match step {
                Ok(step) => step,
                Err(payload) => {
                    tracing::error!(
                        match_id = deadline.match_id,
                        deadline = deadline.id,
                        panic = crate::table::handle::panic_text(&*payload),
                        "firing a deadline panicked; it is dropped and the match left as stored"
                    );
                    self.forget_live_games();
                    self.store.claim_deadline(deadline.id, now)?;
                    continue;
                }
            };
            match step {
                Ok(Step::Fired(done)) => fired.push(done),
                Ok(Step::Later) => {}
                Ok(Step::Nothing) => {
                    self.store.claim_deadline(deadline.id, now)?;
                }
                Err(e @ (TableError::Storage(_) | TableError::Stale(_))) => return Err(e),
                Err(e @ TableError::Corrupt { .. }) => {
                    tracing::error!(
                        match_id = deadline.match_id,
                        deadline = deadline.id,
                        error = %e,
                        "a deadline could not be applied to a damaged match; it is dropped"
                    );
                    self.store.claim_deadline(deadline.id, now)?;
                }
                Err(e) => {
                    tracing::debug!(
                        match_id = deadline.match_id,
                        deadline = deadline.id,
                        reason = %e,
                        "a deadline fell due after its match moved on"
                    );
                    self.store.claim_deadline(deadline.id, now)?;
                }
            }
        }
        Ok(())
    }

    /// Open challenges whose time is up: each expires once (the status changes only from
    /// open).
    fn expire_challenges(
        &mut self,
        now: Instant,
        fired: &mut Vec<Fired>,
    ) -> Result<(), TableError> {
        for id in self.store.due_challenges(now).map_err(challenge_error)? {
            // The expiry and the post it owes are one transaction.
            let expired = self.atomically(|t| {
                if !t.store.expire_challenge(id, now).map_err(challenge_error)? {
                    return Ok(None);
                }
                let challenge = t.store.challenge(id).map_err(challenge_error)?;
                let expired = Fired::ChallengeExpired(Box::new(challenge));
                t.owe_fired(&expired)?;
                Ok(Some(expired))
            })?;
            fired.extend(expired);
        }
        Ok(())
    }

    /// The reminder for round `round` of league `id`: its games not finished yet.
    fn round_reminder(&self, id: i64, round: u32) -> Result<Option<Fired>, TableError> {
        let Some(league) = self.store.league_by_id(id)? else {
            return Ok(None);
        };
        let season = self.store.season(id)?;
        let Some(deadline) = self
            .store
            .rounds(season.id)?
            .iter()
            .find(|r| r.number == round)
            .map(|r| r.deadline)
        else {
            return Ok(None);
        };
        let mut games = Vec::new();
        for p in self.store.pairings(season.id)? {
            let (true, None, Some(match_id)) = (p.round == round, &p.result, p.match_id) else {
                continue;
            };
            let stored = self.store.load_head(match_id)?;
            if stored.status == crate::store::Status::Active {
                games.push((match_id, stored.place, stored.players));
            }
        }
        Ok(Some(Fired::RoundReminder {
            league: Box::new(league),
            round,
            deadline,
            games,
        }))
    }

    /// Fires one deadline.
    fn fire(&mut self, deadline: &Deadline, now: Instant) -> Result<Step, TableError> {
        let id = deadline.match_id;
        let changed = |update: Option<Update>| update.map_or(Step::Nothing, changed);
        match deadline.kind {
            DeadlineKind::Expire => {
                // A timer set for an earlier version is out of date: its match moved on.
                if self.load(id)?.stored.version != deadline.payload as u64 {
                    return Ok(Step::Nothing);
                }
                let update = self.expire(id, deadline.payload as u64)?;
                self.store.claim_deadline(deadline.id, now)?;
                Ok(changed((!update.repeated).then_some(update)))
            }
            DeadlineKind::Archive => {
                let stored = self.store.load_head(id)?;
                if stored.status == Status::Active
                    || !self.store.claim_deadline(deadline.id, now)?
                {
                    return Ok(Step::Nothing);
                }
                Ok(Step::Fired(Fired::Archive {
                    match_id: id,
                    place: stored.place,
                }))
            }
            DeadlineKind::Timeout => {
                let Some(seat) = deadline.seat else {
                    return Ok(Step::Nothing);
                };
                Ok(self.time_out(deadline, seat, now)?.unwrap_or(Step::Nothing))
            }
            DeadlineKind::Reminder => {
                let Some(seat) = deadline.seat else {
                    return Ok(Step::Nothing);
                };
                let loaded = self.load(id)?;
                let timing = Timing::of(&loaded.stored)?;
                let stored = &loaded.stored;
                if stored.status != Status::Active || !loaded.game.to_act().includes(seat) {
                    return Ok(Step::Nothing);
                }
                // A reminder that falls due only when the clock has run out (the service was
                // down meanwhile) has nothing left to remind of: the time-out follows.
                let Some(end) = timing.deadline(seat).filter(|&end| end > now) else {
                    return Ok(Step::Nothing);
                };
                // The player's own settings: no reminders at all, or not in their quiet hours
                // (the reminder waits until they end, unless the clock runs out first).
                // After downtime several reminders of one clock may be due at once: only the
                // latest is sent.
                let superseded = self.store.deadlines_of(id)?.iter().any(|d| {
                    d.kind == DeadlineKind::Reminder
                        && d.seat == Some(seat)
                        && d.id != deadline.id
                        && d.due_at <= now
                        && (d.due_at, d.id) > (deadline.due_at, deadline.id)
                });
                if superseded {
                    return Ok(Step::Nothing);
                }
                let player = &stored.players[seat.index()];
                let settings = self.store.settings(player.id)?;
                if !settings.reminders {
                    return Ok(Step::Nothing);
                }
                if let Some(until) = settings.quiet_until(now) {
                    if until >= end {
                        return Ok(Step::Nothing);
                    }
                    self.store.postpone_deadline(deadline.id, until)?;
                    return Ok(Step::Later);
                }
                if !self.store.claim_deadline(deadline.id, now)? {
                    return Ok(Step::Nothing);
                }
                Ok(Step::Fired(Fired::Reminder(Reminder {
                    match_id: id,
                    game: stored.game,
                    seat,
                    player: stored.players[seat.index()].clone(),
                    left: end - now,
                    deadline: end,
                    place: stored.place.clone(),
                    direct: settings.dm_on_turn,
                })))
            }
        }
    }

    /// `seat` ran out of time in the match of `deadline`: it loses (or draws), or, in En Prise
    /// with three or more players left, is put out and play goes on.
    fn time_out(
        &mut self,
        deadline: &Deadline,
        seat: Seat,
        now: Instant,
    ) -> Result<Option<Step>, TableError> {
        let loaded = self.load_active(deadline.match_id, None)?;
        let mut timing = Timing::of(&loaded.stored)?;
        let running_out = timing.deadline(seat).is_some_and(|end| end <= now);
        if !running_out || !loaded.game.to_act().includes(seat) {
            return Ok(None);
        }
        // Never lost on time while on vacation: a clock not held yet is held now.
        let away = self.away(&loaded.stored)?;
        if away.get(seat.index()).copied().flatten().is_some() {
            let mut only = vec![None; away.len()];
            only[seat.index()] = away[seat.index()];
            if crate::table::clocks::hold(&mut timing, &only, now) {
                self.store_clocks(deadline.match_id, &timing)?;
            }
            return Ok(Some(Step::Nothing));
        }
        // The computer answers within seconds, so its clock runs out only while the bot was
        // down or behind: never its loss. The deadline is spent and the computer plays on.
        if (self.store)
            .computer_level(loaded.stored.players[seat.index()].id)?
            .is_some()
        {
            self.store.claim_deadline(deadline.id, now)?;
            return Ok(Some(Step::Nothing));
        }
        let name = loaded.stored.players[seat.index()].name.clone();
        let claim = Change::Claim {
            deadline: deadline.id,
        };
        let (claims, _) = crate::table::clocks::split_options(&loaded.stored.options)?;
        match loaded.game.on_time(seat) {
            // on_time=claim: the opponents are told and may claim the win; play may go on.
            OnTime::Finish(_) if claims => {
                self.store.claim_deadline(deadline.id, now)?;
                let others = (0..loaded.stored.players.len())
                    .filter(|&i| i != seat.index())
                    .map(|i| loaded.stored.players[i].clone())
                    .collect();
                Ok(Some(Step::Fired(Fired::TimeUp(TimeUp {
                    match_id: deadline.match_id,
                    player: loaded.stored.players[seat.index()].clone(),
                    opponents: others,
                    place: loaded.stored.place.clone(),
                }))))
            }
            OnTime::Finish(outcome) => {
                let line = format!("{name} ran out of time.");
                let update = self.commit(
                    &loaded,
                    None,
                    0,
                    &[claim, Change::Finish(&outcome)],
                    Key::new(None),
                    vec![line],
                    vec![],
                )?;
                Ok(Some(changed(update)))
            }
            OnTime::Eliminate => {
                let mut after = Live {
                    game: loaded.game.clone(),
                    rng: loaded.rng.clone(),
                };
                let played = after
                    .game
                    .replay(seat, TIME_OUT, &mut after.rng)
                    .map_err(|e| TableError::Corrupt {
                        id: deadline.match_id,
                        detail: format!("a time-out cannot be applied: {e}"),
                    })?;
                let outcome = after.game.to_act().outcome().cloned();
                let mut changes = vec![
                    claim,
                    Change::Action {
                        seat,
                        text: TIME_OUT,
                    },
                ];
                if let Some(outcome) = &outcome {
                    changes.push(Change::Finish(outcome));
                }
                let (public, private) = crate::table::update::split_events(&played.events);
                let update = self.commit(
                    &loaded,
                    Some(after),
                    1,
                    &changes,
                    Key::new(None),
                    public,
                    private,
                )?;
                Ok(Some(changed(update)))
            }
        }
    }

    /// `player` claims the win on time: allowed while an opponent who must act has run out of
    /// time (a match played with on_time=claim; with the default the game ended already).
    pub fn claim_win<'a>(
        &mut self,
        id: MatchId,
        player: crate::store::PlayerId,
        request: impl Into<crate::table::Request<'a>>,
    ) -> Result<Update, TableError> {
        let request = request.into();
        self.keyed(id, &request, |table, key| {
            let loaded = table.load_active(id, None)?;
            let mine = crate::table::seats_of(&loaded.stored, player, id)?;
            let (late, outcome) = table.late_opponent(&loaded, &mine)?;
            let line = format!(
                "{} ran out of time; {} claims the win.",
                loaded.stored.players[late.index()].name,
                loaded.stored.players[mine[0].index()].name
            );
            table.commit(
                &loaded,
                None,
                0,
                &[Change::Finish(&outcome)],
                key,
                vec![line],
                vec![],
            )
        })
    }

    /// The opponent of `mine` who must act and is out of time, and the outcome claiming the
    /// win over them gives; or why there is none.
    fn late_opponent(
        &self,
        loaded: &crate::table::Loaded,
        mine: &[Seat],
    ) -> Result<(Seat, crate::engine::Outcome), TableError> {
        let timing = Timing::of(&loaded.stored)?;
        let now = self.now();
        // A player on vacation is not out of time (their clock is held), nor is the computer
        // ever (see `time_out`).
        let away = self.away(&loaded.stored)?;
        let mut late = None;
        for &s in loaded.game.to_act().seats() {
            if !mine.contains(&s)
                && timing.left(s, now).is_some_and(|left| left <= 0)
                && away.get(s.index()).copied().flatten().is_none()
                && (self.store)
                    .computer_level(loaded.stored.players[s.index()].id)?
                    .is_none()
            {
                late = Some(s);
                break;
            }
        }
        let Some(late) = late else {
            return Err(TableError::Illegal(
                "no opponent of yours is out of time; the win can be claimed only then".into(),
            ));
        };
        match loaded.game.on_time(late) {
            OnTime::Finish(outcome) => Ok((late, outcome)),
            OnTime::Eliminate => Err(TableError::Illegal(
                "here a player out of time is put out, not beaten; nothing to claim".into(),
            )),
        }
    }

    /// `player` chooses to wait for an opponent out of time rather than claim the win now
    /// (on_time=claim); nothing changes, and the win can still be claimed later. Returns the
    /// line that says so.
    pub fn wait_on_time(
        &self,
        id: MatchId,
        player: crate::store::PlayerId,
    ) -> Result<String, TableError> {
        let loaded = self.load_active(id, None)?;
        let mine = crate::table::seats_of(&loaded.stored, player, id)?;
        let (late, _) = self.late_opponent(&loaded, &mine)?;
        let players = &loaded.stored.players;
        Ok(format!(
            "{} waits for {}'s move; the win can still be claimed (/time claim) while {} is out of time.",
            players[mine[0].index()].name,
            players[late.index()].name,
            players[late.index()].name
        ))
    }

    /// `player` nudges the players who must act in match `id` (not themselves): at most once
    /// per 12 hours per match. Returns those to nudge; on Discord, the nudge is owed to the
    /// match's thread in the same transaction.
    pub fn nudge(
        &mut self,
        id: MatchId,
        player: crate::store::PlayerId,
    ) -> Result<Vec<Player>, TableError> {
        self.atomically(|t| {
            let waiting = t.nudge_now(id, player)?;
            let place = t.store.load_head(id)?.place;
            if crate::table::outbox::on_discord(&place) {
                let now = t.now();
                let owed = crate::table::outbox::Owed::Nudge {
                    match_id: id,
                    from: t.store.player(player)?,
                    waiting: waiting.clone(),
                };
                let to = crate::store::outbox::Destination::Match(id);
                t.store.owe(&owed.post(to, now), now)?;
            }
            Ok(waiting)
        })
    }

    fn nudge_now(
        &mut self,
        id: MatchId,
        player: crate::store::PlayerId,
    ) -> Result<Vec<Player>, TableError> {
        let loaded = self.load_active(id, None)?;
        let seats = crate::table::seats_of(&loaded.stored, player, id)?;
        let waiting: Vec<Player> = loaded
            .game
            .to_act()
            .seats()
            .iter()
            .filter(|s| !seats.contains(s))
            .map(|s| loaded.stored.players[s.index()].clone())
            .collect();
        if waiting.is_empty() {
            return Err(TableError::Illegal(
                "nobody else must act now; it is your move".into(),
            ));
        }
        let now = self.now();
        if !self.store.nudge(id, now, now - NUDGE_GAP)? {
            let last = self.store.nudged_at(id)?.unwrap_or(now);
            let ago = match now - last {
                gap if gap < MINUTE => "just now".to_string(),
                gap => format!("{} ago", span(gap)),
            };
            return Err(TableError::Illegal(format!(
                "match #{id} was nudged {ago}; nudge again in {}",
                span(last + NUDGE_GAP - now)
            )));
        }
        Ok(waiting)
    }

    /// Gives the opponent who must act `seconds` more on their clock, at the request of
    /// `player`.
    pub fn give_time<'a>(
        &mut self,
        id: MatchId,
        player: crate::store::PlayerId,
        request: impl Into<crate::table::Request<'a>>,
        seconds: i64,
    ) -> Result<Update, TableError> {
        let request = request.into();
        self.keyed(id, &request, |table, key| {
            table.give_time_unkeyed(id, player, key, seconds)
        })
    }

    fn give_time_unkeyed(
        &mut self,
        id: MatchId,
        player: crate::store::PlayerId,
        key: Key,
        seconds: i64,
    ) -> Result<Update, TableError> {
        let loaded = self.load_active(id, None)?;
        let mut timing = Timing::of(&loaded.stored)?;
        crate::table::clocks::check_give(id, &timing.control)?;
        let giver = crate::table::seats_of(&loaded.stored, player, id)?[0];
        let to_act = loaded.game.to_act();
        let Some(&seat) = to_act.seats().iter().find(|&&s| s != giver) else {
            return Err(TableError::Illegal(
                "time can be given only to an opponent who must act now".into(),
            ));
        };
        if !(MINUTE..=MAX_GIFT).contains(&seconds) {
            return Err(TableError::Illegal(format!(
                "give between 1 minute and {}",
                span(MAX_GIFT)
            )));
        }
        // Time given to a player already out of time counts from now.
        let now = self.now();
        let clock = &mut timing.clocks[seat.index()];
        clock.remaining += seconds + (-clock.left(now)).max(0);
        let giver_name = &loaded.stored.players[giver.index()].name;
        let taker = &loaded.stored.players[seat.index()].name;
        let line = format!("{giver_name} gives {taker} {} more.", span(seconds));
        let moment = crate::table::clocks::Moment {
            timer_due: self.timer_due(id, &loaded.game)?,
            ..crate::table::clocks::Moment::at(now)
        };
        // The clock's end moved: its reminders are new, and those already past are not sent.
        let mut deadlines = crate::table::clocks::pending(
            &timing,
            &loaded.game,
            loaded.stored.version + 1,
            &moment,
        );
        deadlines.retain(|d| d.kind != DeadlineKind::Reminder || d.due_at > now);
        let clocks = timing.clocks_json();
        let lines = serde_json::to_string(&crate::table::Lines {
            public: vec![line.clone()],
            private: vec![],
            refused: None,
            confirm: false,
        })
        .expect("lines serialise");
        let mut changes = vec![Change::Clocks(&clocks), Change::Deadlines(&deadlines)];
        if let Some(request) = key.key {
            changes.push(Change::Request {
                key: request,
                lines: &lines,
                replaces: key.replaces.as_deref(),
            });
        }
        self.store.change(id, loaded.stored.version, &changes)?;
        let loaded = self.load(id)?;
        Ok(update(&loaded, vec![line], vec![], self.now()))
    }
}
