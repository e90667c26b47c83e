//! Matches: created with their seats, changed only by a caller who saw their current version,
//! read back whole or from a ply, and listed per player.

use super::db::Value;
use super::db::{Connection, OptionalExtension, params};
use super::read::read_match;
use super::{
    Applied, Change, MatchId, MatchSummary, Place, PlayerId, Snapshot, Status, Store, StoreError,
    StoredMatch, Timing, now,
};
use crate::engine::Seat;
use crate::games::GameKind;

impl Store {
    /// Stores a new match played under revision `rules` of its game's rules, with no clock.
    pub fn create_match(
        &mut self,
        game: GameKind,
        options: &[(String, String)],
        seed: u64,
        players: &[PlayerId],
        place: &Place,
        rules: u32,
    ) -> Result<MatchId, StoreError> {
        self.create_timed_match(game, options, seed, players, place, rules, None)
    }

    /// [`Store::create_match`] with a clock: the time control, clocks and first deadlines are
    /// stored in the same transaction as the match.
    #[allow(clippy::too_many_arguments)]
    pub fn create_timed_match(
        &mut self,
        game: GameKind,
        options: &[(String, String)],
        seed: u64,
        players: &[PlayerId],
        place: &Place,
        rules: u32,
        timing: Option<Timing>,
    ) -> Result<MatchId, StoreError> {
        let tx = self.write()?;
        let id = insert_match(&tx, game, options, seed, players, place, rules, now())?;
        if let Some(timing) = timing {
            set_timing(&tx, id, &timing)?;
        }
        tx.commit()?;
        Ok(id)
    }

    pub fn set_thread(&mut self, id: MatchId, thread_id: &str) -> Result<(), StoreError> {
        let n = self.conn.execute(
            "UPDATE matches SET thread_id = ?1 WHERE id = ?2",
            params![thread_id, id],
        )?;
        if n == 0 {
            return Err(StoreError::NoSuchMatch(id));
        }
        Ok(())
    }

    /// Applies `changes` to match `id` in one transaction, if it is active and at `expected`
    /// version; returns the new version.
    pub fn change(
        &mut self,
        id: MatchId,
        expected: u64,
        changes: &[Change],
    ) -> Result<u64, StoreError> {
        let tx = self.write()?;
        let t = now();
        // The request's key first: a request delivered twice at once fails here as a
        // duplicate, not as a stale version.
        for change in changes.iter().filter(|c| c.is_precondition()) {
            apply_change(&tx, id, expected + 1, change, t)?;
        }
        let bumped = tx.execute(
            "UPDATE matches SET version = version + 1, updated_at = ?1
             WHERE id = ?2 AND version = ?3 AND status = 'active'",
            params![t, id, expected as i64],
        )?;
        if bumped == 0 {
            return Err(why_not(&tx, id, expected));
        }
        for change in changes.iter().filter(|c| !c.is_precondition()) {
            apply_change(&tx, id, expected + 1, change, t)?;
        }
        tx.commit()?;
        Ok(expected + 1)
    }

    /// Reads a match and its whole log as one consistent snapshot (a read transaction), so a
    /// change committed meanwhile is seen either whole or not at all.
    pub fn load(&self, id: MatchId) -> Result<StoredMatch, StoreError> {
        self.load_from(id, 0)
    }

    /// Reads a match without its log (`actions` is empty), checking the log still agrees
    /// with it.
    pub fn load_head(&self, id: MatchId) -> Result<StoredMatch, StoreError> {
        self.load_from(id, u64::MAX)
    }

    /// Reads a match and its log from action `first_ply + 1` on (nothing past its end).
    pub fn load_from(&self, id: MatchId, first_ply: u64) -> Result<StoredMatch, StoreError> {
        // Inside a transaction already open (see `tx`), its view is the consistent one.
        if !self.conn.is_autocommit() {
            return read_match(&self.conn, id, first_ply);
        }
        self.conn.begin_read()?;
        let found = read_match(&self.conn, id, first_ply);
        self.conn.end(true)?;
        found
    }

    /// The match's latest snapshot, if one was saved and its row reads. A row that does not
    /// (a damaged file) is as good as none: the log decides, and the detail is logged.
    pub fn snapshot(&self, id: MatchId) -> Result<Option<Snapshot>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT plies, rules, state, digest FROM snapshots WHERE match_id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, Value>(0)?,
                        r.get::<_, Value>(1)?,
                        r.get::<_, Value>(2)?,
                        r.get::<_, Value>(3)?,
                    ))
                },
            )
            .optional()?;
        let Some(row) = row else {
            return Ok(None);
        };
        let snapshot = match row {
            (Value::Int(plies), Value::Int(rules), Value::Text(state), digest)
                if plies >= 0 && u32::try_from(rules).is_ok() =>
            {
                Some(Snapshot {
                    plies: plies as u64,
                    rules: rules as u32,
                    state,
                    digest: match digest {
                        Value::Text(digest) => Some(digest),
                        _ => None,
                    },
                })
            }
            _ => None,
        };
        if snapshot.is_none() {
            tracing::warn!(
                match_id = id,
                "a snapshot row does not read; the log is replayed"
            );
        }
        Ok(snapshot)
    }

    /// Records that the request `key` was refused for match `id` (`lines` says how), so the
    /// same request delivered again is recognised; the match itself is unchanged. A key
    /// recorded already stays as it was.
    pub fn refusal(&mut self, id: MatchId, key: &str, lines: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO requests (key, match_id, version, lines, created_at)
             SELECT ?1, id, version, ?2, ?3 FROM matches WHERE id = ?4
             ON CONFLICT DO NOTHING",
            params![key, lines, now(), id],
        )?;
        Ok(())
    }

    /// What the request with this key did (or how it was refused), if it was seen.
    pub fn request(&self, key: &str) -> Result<Option<Applied>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT match_id, version, lines FROM requests WHERE key = ?1",
                [key],
                |r| {
                    Ok(Applied {
                        match_id: r.get(0)?,
                        version: r.get::<_, i64>(1)? as u64,
                        lines: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    /// The player's matches, newest first; only active ones if `active_only`.
    pub fn matches_of(
        &self,
        player: PlayerId,
        active_only: bool,
    ) -> Result<Vec<MatchSummary>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT m.id, m.game, m.status, m.version, s.seat FROM matches m
             JOIN seats s ON s.match_id = m.id
             WHERE s.player_id = ?1 AND (?2 = 0 OR m.status = 'active')
             ORDER BY m.id DESC",
        )?;
        let rows = stmt.query_map(params![player, active_only as i64], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?;
        rows.map(|row| {
            let (id, game, status, version, seat) = row?;
            let corrupt = |detail: String| StoreError::Corrupt { id, detail };
            Ok(MatchSummary {
                id,
                game: game.parse().map_err(corrupt)?,
                status: Status::parse(&status)
                    .ok_or_else(|| corrupt(format!("bad status {status:?}")))?,
                version: version as u64,
                seat: Seat(seat as u8),
            })
        })
        .collect()
    }

    /// Records a nudge in match `id` at `now`, unless one was recorded after `since`: true
    /// when this one was recorded.
    pub fn nudge(&mut self, id: MatchId, now: i64, since: i64) -> Result<bool, StoreError> {
        let n = self.conn.execute(
            "UPDATE matches SET nudged_at = ?1
             WHERE id = ?2 AND (nudged_at IS NULL OR nudged_at <= ?3)",
            params![now, id, since],
        )?;
        Ok(n == 1)
    }

    /// When match `id` was last nudged, if ever.
    pub fn nudged_at(&self, id: MatchId) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT nudged_at FROM matches WHERE id = ?1", [id], |r| {
                r.get::<_, Option<i64>>(0)
            })
            .optional()?
            .flatten())
    }
}

/// Inserts a new match and its seats inside `tx` (a caller's transaction), created at `t`.
#[allow(clippy::too_many_arguments)]
pub(super) fn insert_match(
    tx: &Connection,
    game: GameKind,
    options: &[(String, String)],
    seed: u64,
    players: &[PlayerId],
    place: &Place,
    rules: u32,
    t: i64,
) -> Result<MatchId, StoreError> {
    let options = serde_json::to_string(options).expect("pairs serialise");
    let id: i64 = tx.query_row(
        "INSERT INTO matches (game, options, seed, status, guild_id, channel_id, thread_id,
                              created_at, updated_at, rules)
         VALUES (?1, ?2, ?3, 'active', ?4, ?5, ?6, ?7, ?7, ?8) RETURNING id",
        params![
            game.id(),
            options,
            seed as i64,
            place.guild_id,
            place.channel_id,
            place.thread_id,
            t,
            rules
        ],
        |r| r.get(0),
    )?;
    for (seat, player) in players.iter().enumerate() {
        tx.execute(
            "INSERT INTO seats (match_id, seat, player_id) VALUES (?1, ?2, ?3)",
            params![id, seat as i64, player],
        )?;
    }
    Ok(id)
}

/// Gives a match being created its clock: time control, clocks and first deadlines.
pub(super) fn set_timing(tx: &Connection, id: MatchId, timing: &Timing) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE matches SET time_control = ?1, clocks = ?2 WHERE id = ?3",
        params![timing.control, timing.clocks, id],
    )?;
    super::deadlines::replace(tx, id, timing.deadlines)
}

fn why_not(tx: &Connection, id: MatchId, expected: u64) -> StoreError {
    let row = tx
        .query_row(
            "SELECT status, version FROM matches WHERE id = ?1",
            [id],
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
        )
        .optional();
    match row {
        Err(e) => e.into(),
        Ok(None) => StoreError::NoSuchMatch(id),
        Ok(Some((status, version))) => match Status::parse(&status) {
            Some(Status::Active) => StoreError::Stale {
                id,
                expected,
                actual: version as u64,
            },
            Some(status) => StoreError::NotActive { id, status },
            None => StoreError::Corrupt {
                id,
                detail: format!("bad status {status:?}"),
            },
        },
    }
}

/// Writes one change. Past the version check nothing a change writes can be refused but by a
/// fault of the whole transaction, so those writes go to the server with the COMMIT
/// (`execute_later`); the preconditions (a request's key, a deadline's claim) are answered at
/// once.
fn apply_change(
    tx: &Connection,
    id: MatchId,
    version: u64,
    change: &Change,
    t: i64,
) -> Result<(), StoreError> {
    match change {
        Change::Action { seat, text } => {
            tx.execute_later(
                "UPDATE matches SET plies = plies + 1, draw_votes = NULL WHERE id = ?1",
                [id],
            )?;
            tx.execute_later(
                "INSERT INTO actions (match_id, ply, seat, action, created_at)
                 VALUES (?1, (SELECT plies FROM matches WHERE id = ?1), ?2, ?3, ?4)",
                params![id, seat.0, text, t],
            )?;
        }
        Change::Snapshot(snapshot) => {
            tx.execute_later(
                "INSERT INTO snapshots (match_id, plies, rules, state, digest)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (match_id) DO UPDATE
                 SET plies = excluded.plies, rules = excluded.rules, state = excluded.state,
                     digest = excluded.digest",
                params![
                    id,
                    snapshot.plies as i64,
                    snapshot.rules,
                    snapshot.state,
                    snapshot.digest
                ],
            )?;
        }
        Change::Request {
            key,
            lines,
            replaces,
        } => {
            if let Some(old) = replaces {
                tx.execute(
                    "DELETE FROM requests WHERE key = ?1 AND match_id = ?2 AND lines = ?3",
                    params![key, id, old],
                )?;
            }
            let inserted = tx.execute(
                "INSERT INTO requests (key, match_id, version, lines, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (key) DO NOTHING",
                params![key, id, version as i64, lines, t],
            )?;
            if inserted == 0 {
                return Err(StoreError::Duplicate(key.to_string()));
            }
        }
        Change::DrawVotes(seats) => {
            let bits = seats.iter().fold(0i64, |bits, s| bits | 1 << s.0);
            tx.execute_later(
                "UPDATE matches SET draw_votes = ?1 WHERE id = ?2",
                params![(bits != 0).then_some(bits), id],
            )?;
        }
        Change::Finish(outcome) => {
            let places = serde_json::to_string(&outcome.places).expect("places serialise");
            tx.execute_later(
                "INSERT INTO outcomes (match_id, places, reason, finished_at) VALUES (?1, ?2, ?3, ?4)",
                params![id, places, outcome.reason, t],
            )?;
            tx.execute_later(
                "UPDATE matches SET status = 'finished', draw_votes = NULL WHERE id = ?1",
                [id],
            )?;
        }
        Change::Abort => {
            tx.execute_later(
                "UPDATE matches SET status = 'aborted', draw_votes = NULL WHERE id = ?1",
                [id],
            )?;
        }
        Change::Clocks(clocks) => {
            tx.execute_later(
                "UPDATE matches SET clocks = ?1 WHERE id = ?2",
                params![clocks, id],
            )?;
        }
        Change::Deadlines(deadlines) => super::deadlines::replace(tx, id, deadlines)?,
        Change::Claim { deadline } => super::deadlines::claim(tx, *deadline, t)?,
        Change::Reseat { seat, player } => super::admin::reseat(tx, id, seat.0, *player)?,
        Change::Admin {
            admin,
            action,
            detail,
        } => super::admin::log_match(tx, id, *admin, action, detail, t)?,
        Change::Owe(post) => super::outbox::insert_later(tx, post, t)?,
    }
    Ok(())
}
