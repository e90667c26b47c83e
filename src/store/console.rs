//! What the local console keeps between runs: the simulated time a match reached, and the
//! lines a named session ran (so a script fed again is recognised line by line).

use super::db::{OptionalExtension, params};
use super::{MatchId, Store, StoreError};

/// What a named session's line number held before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionLine {
    /// The line is new to the session (now recorded), or held this very text.
    Same,
    /// The line held another text: the script changed since it ran.
    Different(String),
}

impl Store {
    /// The simulated time match `id` reached on a console, if it was played on one.
    pub fn console_clock(&self, id: MatchId) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT now FROM console_clocks WHERE match_id = ?1",
                [id],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Records that match `id`'s simulated time is `now` (it never goes back).
    pub fn set_console_clock(&self, id: MatchId, now: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO console_clocks (match_id, now) VALUES (?1, ?2)
             ON CONFLICT (match_id) DO UPDATE SET now = CASE
                 WHEN excluded.now > console_clocks.now THEN excluded.now
                 ELSE console_clocks.now END",
            params![id, now],
        )?;
        Ok(())
    }

    /// Checks line `line` of console session `session` on match `id` against what it held
    /// before, recording `text` under it when it is new.
    pub fn session_line(
        &self,
        session: &str,
        id: MatchId,
        line: u64,
        text: &str,
    ) -> Result<SessionLine, StoreError> {
        let line = i64::try_from(line).unwrap_or(i64::MAX);
        self.conn.execute(
            "INSERT INTO console_lines (session, match_id, line, text)
             VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT DO NOTHING",
            params![session, id, line, text],
        )?;
        let held: String = self.conn.query_row(
            "SELECT text FROM console_lines WHERE session = ?1 AND match_id = ?2 AND line = ?3",
            params![session, id, line],
            |r| r.get(0),
        )?;
        Ok(if held == text {
            SessionLine::Same
        } else {
            SessionLine::Different(held)
        })
    }
}
