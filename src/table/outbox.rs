//! The table's side of the outbox ([`crate::store::outbox`]): what each change owes Discord
//! ([`Owed`]), written in the same transaction as the change.
//!
//! - A match change made by a call (a move, a button) owes its board: [`Table::commit`] writes
//!   it inside the change's own transaction, due a [`LEASE`] ahead, and the adapter that
//!   answered the interaction with that board marks it sent ([`Table::delivered`]); if its
//!   answer failed, the sender posts it when the lease ends.
//! - What a deadline fires (a clock out, a reminder, an expired challenge, a league round
//!   closing and starting) is fired inside one transaction ([`Table::atomically`]) that also
//!   writes what it owes, due at once. Inside such a transaction `commit` writes no board of its
//!   own: the step writes what it owes from what it returns.

use super::clock::Instant;
use super::scheduler::{Fired, Reminder, TimeUp};
use super::{Table, TableError, Update};
use crate::store::outbox::{Destination, NewPost};
use crate::store::{ChallengeId, MatchId, Player, PlayerId};
use serde::{Deserialize, Serialize};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

/// How long (by the table's clock) an interaction has to show a board before the outbox
/// posts it instead.
pub const LEASE: i64 = 30;

/// A post owed, as stored in the outbox's payload: what the sender needs to compose it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Owed {
    /// A match changed: its public lines, and its board as of `version` (the board as it is
    /// when sent; a match moved on since gets its lines alone, its later board being owed by
    /// the later change). `turns`: the players to act are told by direct message too.
    Board {
        match_id: MatchId,
        version: u64,
        public: Vec<String>,
        turns: bool,
    },
    /// A move came to players who asked to be told by direct message (`/settings me dm:true`):
    /// their turn messages, after the board of `version` (not to `mover`, who just played).
    /// Told only while the match is still at that version: a later move owes its own.
    Turns {
        match_id: MatchId,
        version: u64,
        public: Vec<String>,
        mover: Option<PlayerId>,
    },
    /// A player is reminded of their clock.
    Reminder(Reminder),
    /// A player's time is up: the opponents may claim the win.
    TimeUp(TimeUp),
    /// A finished match's thread is archived.
    Archive { match_id: MatchId },
    /// A challenge expired: its message says so.
    ChallengeExpired { challenge: ChallengeId },
    /// A league round closes soon: the players of an open game are pinged in its thread.
    RoundPing {
        match_id: MatchId,
        round: u32,
        deadline: Instant,
        players: Vec<Player>,
    },
    /// A league's round closed (its lines), and the next one started (its number), its
    /// pairings posted with it. Written by earlier versions; still sent as then. Rounds now
    /// owe [`Owed::Round`] and one [`Owed::Pairing`] per board.
    League {
        league: i64,
        closed: Vec<String>,
        started: Option<u32>,
    },
    /// A league's news in its channel: the lines of a round closed, and a round paired
    /// (`started`: its number and deadline), whose boards follow one post each.
    Round {
        league: i64,
        closed: Vec<String>,
        started: Option<(u32, Instant)>,
    },
    /// One board of a league round, on a line of its own that pings its players (one post a
    /// board, so a retry never pings a board twice).
    /// `match_id`: the board's match when it was owed (a round paired again since has other
    /// matches, owed posts of their own).
    Pairing {
        league: i64,
        round: u32,
        board: u32,
        match_id: Option<MatchId>,
    },
    /// Lines told as they are, pinging nobody: in a match's thread, or a channel.
    Note {
        match_id: Option<MatchId>,
        lines: Vec<String>,
    },
    /// A player's vacation began (`back`: when it ends) or ended: told in one of their
    /// matches, with its clocks as they are when sent.
    Vacation {
        match_id: MatchId,
        line: String,
        back: Option<Instant>,
    },
    /// Player `from` asked the players `waiting` to act in match `match_id`.
    Nudge {
        match_id: MatchId,
        from: Player,
        waiting: Vec<Player>,
    },
    /// A match created for Discord waits for its thread: the sender makes it (from message
    /// `from` of the match's channel, else as a thread of its own there), then the table stores
    /// it, starts the clocks and owes the first board. `challenge`: the challenge it came from;
    /// `round`: the league round of a league board.
    OpenThread {
        match_id: MatchId,
        from: Option<String>,
        challenge: Option<ChallengeId>,
        round: Option<u32>,
    },
    /// Match `match_id`'s thread `thread` was made from the challenge's message `message` (in
    /// the channel the post goes to): the message says where the match is on.
    Opened {
        match_id: MatchId,
        message: String,
        thread: String,
    },
    /// Match `match_id`'s thread could not be made (`reason`, in words): it was called off (a
    /// challenge's match) or is held until a player reopens it with /board (a league board's).
    /// To a user, a direct message; to a channel, the challenge's message says so (else a post
    /// naming `players`).
    NoThread {
        match_id: MatchId,
        challenge: Option<ChallengeId>,
        reason: String,
        called_off: bool,
        players: Vec<Player>,
    },
}

impl Owed {
    /// The outbox's `kind` for this post.
    pub fn kind(&self) -> &'static str {
        match self {
            Owed::Board { .. } => "board",
            Owed::Turns { .. } => "turns",
            Owed::Reminder(_) => "reminder",
            Owed::TimeUp(_) => "time_up",
            Owed::Archive { .. } => "archive",
            Owed::ChallengeExpired { .. } => "challenge_expired",
            Owed::RoundPing { .. } => "round_ping",
            Owed::League { .. } => "league",
            Owed::Round { .. } => "round",
            Owed::Pairing { .. } => "pairing",
            Owed::Note { .. } => "note",
            Owed::Vacation { .. } => "vacation",
            Owed::Nudge { .. } => "nudge",
            Owed::OpenThread { .. } => "open_thread",
            Owed::NoThread { .. } => "no_thread",
            Owed::Opened { .. } => "opened",
        }
    }

    /// The row to write for this post, due at `due`.
    pub fn post(&self, destination: Destination, due: Instant) -> NewPost {
        let (match_id, league_id, version) = match self {
            Owed::Board {
                match_id, version, ..
            } => (Some(*match_id), None, Some(*version)),
            Owed::Turns {
                match_id, version, ..
            } => (Some(*match_id), None, Some(*version)),
            Owed::Reminder(r) => (Some(r.match_id), None, None),
            Owed::TimeUp(t) => (Some(t.match_id), None, None),
            Owed::Archive { match_id }
            | Owed::RoundPing { match_id, .. }
            | Owed::OpenThread { match_id, .. }
            | Owed::NoThread { match_id, .. }
            | Owed::Opened { match_id, .. }
            | Owed::Vacation { match_id, .. }
            | Owed::Nudge { match_id, .. } => (Some(*match_id), None, None),
            Owed::Note { match_id, .. } => (*match_id, None, None),
            Owed::ChallengeExpired { .. } => (None, None, None),
            Owed::League { league, .. }
            | Owed::Round { league, .. }
            | Owed::Pairing { league, .. } => (None, Some(*league), None),
        };
        NewPost {
            match_id,
            league_id,
            destination,
            kind: self.kind().to_string(),
            payload: serde_json::to_string(self).expect("an owed post serialises"),
            version,
            due,
        }
    }

    /// The post a stored payload holds, if it reads.
    pub fn parse(payload: &str) -> Result<Owed, serde_json::Error> {
        serde_json::from_str(payload)
    }
}

/// A match is played on Discord: it has a channel (or a thread).
pub(super) fn on_discord(place: &crate::store::Place) -> bool {
    place.channel_id.is_some() || place.thread_id.is_some()
}

/// The turn messages a move owes, due at once: the sender keeps them behind the move's board
/// (one destination's posts go in order), so they follow it.
pub(super) fn turns_post(
    match_id: MatchId,
    version: u64,
    public: &[String],
    mover: Option<PlayerId>,
    due: Instant,
) -> NewPost {
    Owed::Turns {
        match_id,
        version,
        public: public.to_vec(),
        mover,
    }
    .post(Destination::Match(match_id), due)
}

/// The board post a change owes, written by [`Table::commit`] inside the change.
pub(super) fn board_post(
    match_id: MatchId,
    version: u64,
    public: &[String],
    due: Instant,
) -> NewPost {
    Owed::Board {
        match_id,
        version,
        public: public.to_vec(),
        turns: false,
    }
    .post(Destination::Match(match_id), due)
}

impl Table {
    /// Runs `work` as one transaction: everything it stored is kept if it returns Ok, and
    /// nothing if it fails or panics (the panic goes on after the rollback). Inside another
    /// such transaction it is a savepoint: kept only if the outer one is.
    pub fn atomically<T>(
        &mut self,
        work: impl FnOnce(&mut Table) -> Result<T, TableError>,
    ) -> Result<T, TableError> {
        self.transaction(work)
    }

    /// [`Table::atomically`] for work whose errors are of another kind (a challenge's, say).
    pub(crate) fn transaction<T, E: From<crate::store::StoreError>>(
        &mut self,
        work: impl FnOnce(&mut Table) -> Result<T, E>,
    ) -> Result<T, E> {
        let level = self.store.begin()?;
        let done = catch_unwind(AssertUnwindSafe(|| work(self)));
        let kept = match &done {
            Ok(Ok(_)) => self.store.commit(level).map_err(E::from),
            _ => Ok(()),
        };
        if !matches!((&done, &kept), (Ok(Ok(_)), Ok(()))) {
            // Live games cached by the work may hold what was rolled back.
            self.forget_live_games();
            if let Err(e) = self.store.rollback(level) {
                tracing::error!(error = %e, "a transaction could not be rolled back");
            }
        }
        match done {
            Err(payload) => resume_unwind(payload),
            Ok(result) => {
                kept?;
                result
            }
        }
    }

    /// Writes the posts `fired` owes, due now, inside the transaction that fired it.
    pub(super) fn owe_fired(&mut self, fired: &Fired) -> Result<(), TableError> {
        let now = self.now();
        let mut owed: Vec<(Owed, Destination)> = Vec::new();
        match fired {
            // A match played nowhere on Discord (the console's) owes nothing.
            Fired::Changed(update) if !on_discord(&update.place) => {}
            Fired::Reminder(Reminder { place, .. })
            | Fired::TimeUp(TimeUp { place, .. })
            | Fired::Archive { place, .. }
                if !on_discord(place) => {}
            Fired::Changed(update) => owed.push((
                Owed::Board {
                    match_id: update.match_id,
                    version: update.version,
                    public: update.public.clone(),
                    turns: true,
                },
                Destination::Match(update.match_id),
            )),
            Fired::Reminder(r) => {
                let dm = r.player.discord_id.clone().filter(|_| r.direct);
                let to = dm.map_or(Destination::Match(r.match_id), Destination::User);
                owed.push((Owed::Reminder(r.clone()), to));
            }
            Fired::TimeUp(up) => {
                owed.push((Owed::TimeUp(up.clone()), Destination::Match(up.match_id)))
            }
            Fired::Archive { match_id, .. } => owed.push((
                Owed::Archive {
                    match_id: *match_id,
                },
                Destination::Match(*match_id),
            )),
            Fired::ChallengeExpired(c) => {
                if let Some(channel) = &c.channel_id {
                    owed.push((
                        Owed::ChallengeExpired { challenge: c.id },
                        Destination::Channel(channel.clone()),
                    ));
                }
            }
            Fired::RoundReminder {
                round,
                deadline,
                games,
                ..
            } => {
                for (match_id, _, players) in games.iter().filter(|(_, p, _)| on_discord(p)) {
                    owed.push((
                        Owed::RoundPing {
                            match_id: *match_id,
                            round: *round,
                            deadline: *deadline,
                            players: players.clone(),
                        },
                        Destination::Match(*match_id),
                    ));
                }
            }
            Fired::League {
                league,
                closed,
                started,
            } => self.owe_league(league, closed, started.as_deref())?,
        }
        for (owed, to) in owed {
            self.store.owe(&owed.post(to, now), now)?;
        }
        Ok(())
    }

    /// Writes what a league's round owes its channel, due now: the lines of the round
    /// `closed`, then the round `started` and each of its boards on a post of its own. A league
    /// without a channel (the console's) owes nothing.
    pub(super) fn owe_league(
        &mut self,
        league: &crate::store::leagues::League,
        closed: &[String],
        started: Option<&super::leagues::RoundStarted>,
    ) -> Result<(), TableError> {
        let Some(channel) = &league.new.channel_id else {
            return Ok(());
        };
        let now = self.now();
        let to = Destination::Channel(channel.clone());
        let news = Owed::Round {
            league: league.id,
            closed: closed.to_vec(),
            started: started.map(|s| (s.round, s.deadline)),
        };
        self.store.owe(&news.post(to.clone(), now), now)?;
        for p in started.map_or(&[][..], |s| &s.pairings) {
            let board = Owed::Pairing {
                league: league.id,
                round: p.round,
                board: p.board,
                match_id: p.match_id,
            };
            self.store.owe(&board.post(to.clone(), now), now)?;
        }
        Ok(())
    }

    /// Round `round` of league `league` is paired again: its board posts still owed are
    /// dropped (the new boards owe their own). A bye has no match to tell an old board from a
    /// new one by, so an old post left owed would announce the new bye a second time.
    pub(super) fn drop_owed_pairings(&mut self, league: i64, round: u32) -> Result<(), TableError> {
        let now = self.now();
        for post in self.store.unsent_posts()? {
            let old = post.league_id == Some(league)
                && post.state == crate::store::outbox::PostState::Pending
                && matches!(
                    Owed::parse(&post.payload),
                    Ok(Owed::Pairing { round: r, .. }) if r == round
                );
            if old {
                self.store
                    .post_handled(post.id, now, "the round was paired again")?;
            }
        }
        Ok(())
    }

    /// Writes `lines` owed to match `id`'s thread, due now, if it is played on Discord.
    pub(super) fn owe_note(&mut self, id: MatchId, lines: Vec<String>) -> Result<(), TableError> {
        if !on_discord(&self.store.load_head(id)?.place) {
            return Ok(());
        }
        let now = self.now();
        let note = Owed::Note {
            match_id: Some(id),
            lines,
        };
        self.store
            .owe(&note.post(Destination::Match(id), now), now)?;
        Ok(())
    }

    /// The board an owed post shows: the match as it is now, with the post's lines; and
    /// whether the match is still at the post's version (else only its lines are news).
    pub fn owed_board(
        &self,
        id: MatchId,
        version: u64,
        public: Vec<String>,
    ) -> Result<(Update, bool), TableError> {
        let loaded = self.load(id)?;
        let current = loaded.stored.version == version;
        Ok((
            super::update::update(&loaded, public, vec![], self.now()),
            current,
        ))
    }

    /// An interaction showed the board of match `id` at `version`: its owed post is sent.
    pub fn delivered(&mut self, id: MatchId, version: u64) -> Result<(), TableError> {
        let now = self.now();
        self.store.board_sent(id, version, now)?;
        Ok(())
    }

    /// The adapter's own post of the board of match `id` at `version` failed: the outbox
    /// sends it now rather than when the lease ends.
    pub fn undelivered(&mut self, id: MatchId, version: u64) -> Result<(), TableError> {
        let now = self.now();
        self.store.board_due(id, version, now)?;
        Ok(())
    }
}

impl Table {
    /// Board `board` of round `round` of league `league` as stored now, with its players in
    /// seat order; None when it is gone or no longer the board of match `match_id` (the round
    /// was paired again since).
    pub fn pairing_to_announce(
        &self,
        league: i64,
        round: u32,
        board: u32,
        match_id: Option<MatchId>,
    ) -> Result<Option<(crate::store::leagues::PairingRow, Vec<Player>)>, TableError> {
        let season = self.store.season(league)?;
        let found = self
            .store
            .pairings(season.id)?
            .into_iter()
            .find(|p| p.round == round && p.board == board && p.match_id == match_id);
        let Some(p) = found else {
            return Ok(None);
        };
        let ids: Vec<PlayerId> = match p.table.is_empty() {
            true => std::iter::once(p.white).chain(p.black).collect(),
            false => p.table.iter().map(|s| s.player).collect(),
        };
        let players = ids
            .iter()
            .map(|&id| self.store.player(id))
            .collect::<Result<_, _>>()?;
        Ok(Some((p, players)))
    }

    /// What the sender needs to announce round `round` of league `league` as it is stored
    /// now: the league, and the round's pairings with the matches whose thread is still to
    /// open.
    pub fn round_to_announce(
        &self,
        league: i64,
        round: u32,
    ) -> Result<Option<(crate::store::leagues::League, super::leagues::RoundStarted)>, TableError>
    {
        let Some(found) = self.store.league_by_id(league)? else {
            return Ok(None);
        };
        let season = self.store.season(league)?;
        let Some(row) = self
            .store
            .rounds(season.id)?
            .into_iter()
            .find(|r| r.number == round)
        else {
            return Ok(None);
        };
        let pairings: Vec<_> = self
            .store
            .pairings(season.id)?
            .into_iter()
            .filter(|p| p.round == round)
            .collect();
        let mut matches = Vec::new();
        for id in pairings.iter().filter_map(|p| p.match_id) {
            let head = self.store.load_head(id)?;
            if head.place.thread_id.is_none() && head.status == crate::store::Status::Active {
                matches.push(self.show(id)?);
            }
        }
        Ok(Some((
            found,
            super::leagues::RoundStarted {
                round,
                deadline: row.deadline,
                pairings,
                matches,
                called_off: vec![],
            },
        )))
    }
}
