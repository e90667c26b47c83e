//! Discord's world changing under the bot, as stored: servers the bot was removed from, match
//! holds (a match whose server or thread is gone keeps its clocks still), the last message read
//! in each match thread, and users whose direct messages are closed to the bot.

use super::db::{OptionalExtension, params};
use super::{MatchId, PlayerId, Store, StoreError};

/// Why a match's clocks are held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HoldReason {
    /// The bot was removed from the match's server.
    Server,
    /// The match's thread (or the channel holding it) was deleted.
    Thread,
    /// The match was created for Discord and its thread is still to open: its clocks start
    /// when the thread exists.
    Opening,
}

impl HoldReason {
    pub fn as_str(self) -> &'static str {
        match self {
            HoldReason::Server => "server",
            HoldReason::Thread => "thread",
            HoldReason::Opening => "opening",
        }
    }

    fn parse(text: &str) -> Option<HoldReason> {
        match text {
            "server" => Some(HoldReason::Server),
            "thread" => Some(HoldReason::Thread),
            "opening" => Some(HoldReason::Opening),
            _ => None,
        }
    }
}

impl Store {
    /// Records that the bot was removed from `guild` at `now`; false if it was already.
    pub fn guild_removed(&mut self, guild: &str, now: i64) -> Result<bool, StoreError> {
        let n = self.conn.execute(
            "INSERT INTO removed_guilds (guild_id, since) VALUES (?1, ?2)
             ON CONFLICT DO NOTHING",
            params![guild, now],
        )?;
        Ok(n == 1)
    }

    /// The bot is back in `guild`: returns since when it had been removed, if it had been.
    pub fn guild_returned(&mut self, guild: &str) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "DELETE FROM removed_guilds WHERE guild_id = ?1 RETURNING since",
                [guild],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Whether the bot was removed from `guild` (and has not come back).
    pub fn is_guild_removed(&self, guild: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM removed_guilds WHERE guild_id = ?1",
                [guild],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Moves the deadline of every running round of `guild`'s leagues `by` seconds later (the
    /// time the leagues were suspended); returns how many moved.
    pub fn postpone_rounds_of(&mut self, guild: &str, by: i64) -> Result<usize, StoreError> {
        Ok(self.conn.execute(
            "UPDATE rounds SET deadline = deadline + ?2
             WHERE status = 'running' AND season_id IN (
                SELECT s.id FROM seasons s JOIN leagues l ON l.id = s.league_id
                WHERE l.guild_id = ?1)",
            params![guild, by],
        )?)
    }

    /// The active matches played in `guild`.
    pub fn active_in_guild(&self, guild: &str) -> Result<Vec<MatchId>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT id FROM matches WHERE status = 'active' AND guild_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([guild], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The active matches played in channel `channel`: in that thread, or in a thread of that
    /// channel.
    pub fn active_in_channel(&self, channel: &str) -> Result<Vec<MatchId>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT id FROM matches WHERE status = 'active'
             AND (thread_id = ?1 OR channel_id = ?1) ORDER BY id",
        )?;
        let rows = stmt.query_map([channel], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Holds match `id` for `reason` from `now`; false if it was held for it already.
    pub fn hold_match(
        &mut self,
        id: MatchId,
        reason: HoldReason,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.conn.execute(
            "INSERT INTO match_holds (match_id, reason, since) VALUES (?1, ?2, ?3)
             ON CONFLICT DO NOTHING",
            params![id, reason.as_str(), now],
        )?;
        Ok(n == 1)
    }

    /// Ends match `id`'s hold for `reason`; false if it was not held for it.
    pub fn release_match(&mut self, id: MatchId, reason: HoldReason) -> Result<bool, StoreError> {
        let n = self.conn.execute(
            "DELETE FROM match_holds WHERE match_id = ?1 AND reason = ?2",
            params![id, reason.as_str()],
        )?;
        Ok(n == 1)
    }

    /// Why match `id` is held, if it is.
    pub fn holds_of(&self, id: MatchId) -> Result<Vec<HoldReason>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT reason FROM match_holds WHERE match_id = ?1 ORDER BY reason")?;
        let rows = stmt.query_map([id], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for reason in rows {
            let reason = reason?;
            out.push(
                HoldReason::parse(&reason).ok_or_else(|| StoreError::Corrupt {
                    id,
                    detail: format!("a hold for {reason:?}"),
                })?,
            );
        }
        Ok(out)
    }

    /// The matches held for `reason` in `guild` (None: everywhere).
    pub fn held_in_guild(
        &self,
        guild: &str,
        reason: HoldReason,
    ) -> Result<Vec<MatchId>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT m.id FROM matches m JOIN match_holds h ON h.match_id = m.id
             WHERE m.guild_id = ?1 AND h.reason = ?2 ORDER BY m.id",
        )?;
        let rows = stmt.query_map(params![guild, reason.as_str()], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// `player`'s active matches in `guild` whose thread was deleted.
    pub fn lost_threads_of(
        &self,
        player: PlayerId,
        guild: &str,
    ) -> Result<Vec<MatchId>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT DISTINCT m.id FROM matches m
             JOIN match_holds h ON h.match_id = m.id AND h.reason = 'thread'
             JOIN seats s ON s.match_id = m.id
             WHERE s.player_id = ?1 AND m.guild_id = ?2 AND m.status = 'active' ORDER BY m.id",
        )?;
        let rows = stmt.query_map(params![player, guild], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Match `id` is played in `thread` of `channel` from now on.
    pub fn move_match(
        &mut self,
        id: MatchId,
        channel: &str,
        thread: &str,
    ) -> Result<(), StoreError> {
        let n = self.conn.execute(
            "UPDATE matches SET channel_id = ?1, thread_id = ?2 WHERE id = ?3",
            params![channel, thread, id],
        )?;
        if n == 0 {
            return Err(StoreError::NoSuchMatch(id));
        }
        Ok(())
    }

    /// The id of the last message read in `channel`, if one was recorded.
    pub fn last_seen(&self, channel: &str) -> Result<Option<u64>, StoreError> {
        let seen: Option<i64> = self
            .conn
            .query_row(
                "SELECT message_id FROM last_seen WHERE channel_id = ?1",
                [channel],
                |r| r.get(0),
            )
            .optional()?;
        Ok(seen.map(|id| id as u64))
    }

    /// Records that message `message` of `channel` was read; a later message's record is kept
    /// (ids only grow).
    pub fn saw_message(&mut self, channel: &str, message: u64) -> Result<(), StoreError> {
        // Snowflakes stay below 2^63 until long after this code.
        let message = i64::try_from(message).unwrap_or(i64::MAX);
        self.conn.execute(
            "INSERT INTO last_seen (channel_id, message_id) VALUES (?1, ?2)
             ON CONFLICT (channel_id) DO UPDATE SET message_id = CASE
                 WHEN excluded.message_id > last_seen.message_id THEN excluded.message_id
                 ELSE last_seen.message_id END",
            params![channel, message],
        )?;
        Ok(())
    }

    /// Whether the Discord user `discord_id`'s direct messages are known to be closed.
    pub fn dms_closed(&self, discord_id: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM closed_dms WHERE discord_id = ?1",
                [discord_id],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Remembers that `discord_id`'s direct messages refused the bot at `now`.
    pub fn remember_closed_dms(&mut self, discord_id: &str, now: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO closed_dms (discord_id, since) VALUES (?1, ?2)
             ON CONFLICT DO NOTHING",
            params![discord_id, now],
        )?;
        Ok(())
    }

    /// A direct message to `discord_id` got through: forgets that their DMs were closed.
    /// Returns whether they were remembered as closed.
    pub fn forget_closed_dms(&mut self, discord_id: &str) -> Result<bool, StoreError> {
        let n = self
            .conn
            .execute("DELETE FROM closed_dms WHERE discord_id = ?1", [discord_id])?;
        Ok(n == 1)
    }
}
