//! Matches that wait for their thread. A match created for Discord (a challenge accepted in a
//! channel, a league board whose league has a channel) is created held for
//! [`HoldReason::Opening`], and in the same transaction the outbox is owed its thread
//! ([`Owed::OpenThread`]). The sender makes the thread; then [`Table::thread_opened`] stores
//! it, lets the clocks start from now and owes the first board. A thread that cannot be made
//! ([`Table::opening_failed`]) calls a challenge's match off (no result, unrated, no deadline
//! left) or holds a league board's until a player reopens it with `/board`, and owes each
//! player a word on why.

use super::outbox::Owed;
use super::time_control::TimeControl;
use super::{Table, TableError, Update};
use crate::store::outbox::Destination;
use crate::store::{
    Accepted, ChallengeError, ChallengeId, Change, HoldReason, MatchId, PlayerId, Status, Timing,
};

/// What became of a match whose thread could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoThread {
    /// A challenge's match: called off.
    CalledOff,
    /// A league board's: held until a player reopens it with `/board`.
    Held,
    /// The match was over or opened meanwhile: nothing was done.
    Nothing,
}

impl Table {
    /// `player` accepts challenge `id` now. The last acceptance creates the match, with its
    /// clocks; a challenge made in a channel gets its match held until its thread exists, and
    /// the thread owed to the outbox (made from message `from`, the challenge's), all in the
    /// acceptance's transaction.
    pub fn accept_challenge(
        &mut self,
        id: ChallengeId,
        player: PlayerId,
        from: Option<&str>,
    ) -> Result<Accepted, ChallengeError> {
        let now = self.now();
        let c = self.store.challenge(id)?;
        let time = TimeControl::parse(&c.time_control).map_err(|e| ChallengeError::Corrupt {
            id,
            detail: format!("its time control cannot be read: {e}"),
        })?;
        let players: Vec<_> = c.seats.iter().map(|s| s.player.id).collect();
        let (clocks, deadlines) = self
            .clocks_at_start(c.game, &c.options, c.seats.len(), c.seed, time, &players)
            .map_err(|e| ChallengeError::Corrupt {
                id,
                detail: format!("its game cannot start: {e}"),
            })?;
        let from = from.map(str::to_string);
        self.transaction(|t| {
            let timing = Timing {
                control: &c.time_control,
                clocks: &clocks,
                deadlines: &deadlines,
            };
            let accepted = t.store.accept_challenge(id, player, now, Some(timing))?;
            if let Accepted::Started {
                challenge,
                match_id,
            } = &accepted
                && challenge.channel_id.is_some()
            {
                // The press that accepted answers first (it says the thread opens in a
                // moment), then lets the thread be made (`Table::opening_answered`), so the
                // sender's note of where the match is comes after that answer; if the press
                // never says, the thread is made when the lease ends.
                let due = match from {
                    Some(_) => now + super::outbox::LEASE,
                    None => now,
                };
                t.await_thread(*match_id, from, Some(id), None, due)
                    .map_err(|e| match e {
                        TableError::Storage(e) => ChallengeError::Store(e),
                        other => ChallengeError::Corrupt {
                            id,
                            detail: format!("its match cannot wait for its thread: {other}"),
                        },
                    })?;
            }
            Ok(accepted)
        })
    }

    /// Match `id`, just created for Discord, waits for its thread: held, and the thread owed.
    /// Called inside the transaction that created it.
    pub(super) fn await_thread(
        &mut self,
        id: MatchId,
        from: Option<String>,
        challenge: Option<ChallengeId>,
        round: Option<u32>,
        due: super::clock::Instant,
    ) -> Result<(), TableError> {
        self.hold(id, HoldReason::Opening)?;
        let now = self.now();
        let owed = Owed::OpenThread {
            match_id: id,
            from,
            challenge,
            round,
        };
        self.store
            .owe(&owed.post(Destination::Match(id), due), now)?;
        Ok(())
    }

    /// The press that accepted match `id`'s challenge has answered: its thread is made now
    /// rather than when the lease ends.
    pub fn opening_answered(&mut self, id: MatchId) -> Result<(), TableError> {
        let now = self.now();
        let kind = Owed::OpenThread {
            match_id: id,
            from: None,
            challenge: None,
            round: None,
        }
        .kind();
        self.store.match_posts_due(id, kind, now)?;
        Ok(())
    }

    /// Whether match `id` still waits for its thread to be made: active, with no thread.
    pub fn awaits_thread(&self, id: MatchId) -> Result<bool, TableError> {
        let head = self.store.load_head(id)?;
        Ok(head.status == Status::Active && head.place.thread_id.is_none())
    }

    /// Match `id`'s thread was made: stored, the match's clocks start now (unless it is held
    /// for another reason), and its first board is owed, its first players told. None when the
    /// match no longer waits for one (over, or opened already): nothing changed.
    ///
    /// A thread made from a challenge's message `from` owes that message an edit saying where
    /// the match is on, written here so that a restart cannot lose it.
    pub fn thread_opened(
        &mut self,
        id: MatchId,
        thread: &str,
        from: Option<&str>,
    ) -> Result<Option<Update>, TableError> {
        self.atomically(|t| {
            if !t.awaits_thread(id)? {
                return Ok(None);
            }
            t.store.set_thread(id, thread)?;
            let channel = t.store.load_head(id)?.place.channel_id;
            if let (Some(channel), Some(message)) = (channel, from) {
                let now = t.now();
                let owed = Owed::Opened {
                    match_id: id,
                    message: message.to_string(),
                    thread: thread.to_string(),
                };
                t.store
                    .owe(&owed.post(Destination::Channel(channel), now), now)?;
            }
            t.release(id, HoldReason::Opening)?;
            let update = t.opened(id)?;
            let now = t.now();
            let owed = Owed::Board {
                match_id: id,
                version: update.version,
                public: update.public.clone(),
                turns: true,
            };
            t.store.owe(&owed.post(Destination::Match(id), now), now)?;
            Ok(Some(update))
        })
    }

    /// Match `id`'s thread cannot be made (`reason`, in words; the outbox's post `post` gave
    /// up): a challenge's match is called off (no result, unrated, no deadline left), a league
    /// board's held as a match whose thread was deleted is, and each player is owed a word on
    /// why (and the challenge's message, for a challenge). The post is recorded as handled, in
    /// the same transaction.
    pub fn opening_failed(
        &mut self,
        id: MatchId,
        challenge: Option<ChallengeId>,
        post: i64,
        reason: &str,
    ) -> Result<NoThread, TableError> {
        self.atomically(|t| {
            let now = t.now();
            let done = if !t.awaits_thread(id)? {
                NoThread::Nothing
            } else if challenge.is_some() {
                t.call_off(id)?;
                NoThread::CalledOff
            } else {
                // As when its thread is deleted: held until /board reopens it.
                t.hold(id, HoldReason::Thread)?;
                t.store.release_match(id, HoldReason::Opening)?;
                NoThread::Held
            };
            if done != NoThread::Nothing {
                t.owe_no_thread(id, challenge, reason, done == NoThread::CalledOff)?;
            }
            t.store.post_handled(post, now, reason)?;
            Ok(done)
        })
    }

    /// Calls off match `id` before it began: aborted (no result), unrated, its deadlines and
    /// holds gone.
    fn call_off(&mut self, id: MatchId) -> Result<(), TableError> {
        let head = self.store.load_head(id)?;
        self.store
            .change(id, head.version, &[Change::Abort, Change::Deadlines(&[])])?;
        self.store.set_rated(id, false)?;
        for reason in self.store.holds_of(id)? {
            self.store.release_match(id, reason)?;
        }
        self.cache.borrow_mut().forget(id);
        Ok(())
    }

    /// Owes each player of match `id` a direct message on why its thread could not be made,
    /// and the challenge's channel an edit of its message.
    fn owe_no_thread(
        &mut self,
        id: MatchId,
        challenge: Option<ChallengeId>,
        reason: &str,
        called_off: bool,
    ) -> Result<(), TableError> {
        let now = self.now();
        let head = self.store.load_head(id)?;
        let players = head.players.clone();
        let notice = Owed::NoThread {
            match_id: id,
            challenge,
            reason: reason.to_string(),
            called_off,
            players: players.clone(),
        };
        let mut told = std::collections::HashSet::new();
        for player in &players {
            let Some(user) = player.discord_id.clone() else {
                continue;
            };
            if told.insert(user.clone()) {
                self.store
                    .owe(&notice.post(Destination::User(user), now), now)?;
            }
        }
        let channel = match challenge {
            Some(challenge) => self
                .store
                .challenge(challenge)
                .ok()
                .and_then(|c| c.channel_id),
            None => None,
        };
        if let Some(channel) = channel {
            self.store
                .owe(&notice.post(Destination::Channel(channel), now), now)?;
        }
        Ok(())
    }
}
