//! Reading one match back, and checking it as it is read: its row, seats, outcome and log must
//! agree (the version with the log's length, the log numbered without gaps from 1, an outcome
//! exactly when the match is finished), or the match is reported damaged with what disagrees.
//! Also finding the match of a Discord thread.

use super::db::{Connection, DbError, OptionalExtension, Row, ToValue};
use super::{MatchId, Place, Player, Status, StoreError, StoredAction, StoredMatch};
use crate::engine::{Outcome, Seat};
use crate::games::GameKind;

/// The five reads of a match: its row, seats, the log's extent, the log from a ply on, and its
/// result. They are sent together (one round trip on PostgreSQL).
const MATCH_ROW: &str = "SELECT game, options, seed, status, version, draw_votes, guild_id,
        channel_id, thread_id, plies, rules, time_control, clocks
     FROM matches WHERE id = ?1";
const SEATS: &str = "SELECT s.seat, p.id, p.name, p.discord_id FROM seats s
     JOIN players p ON p.id = s.player_id WHERE s.match_id = ?1 ORDER BY s.seat";
const LOG_EXTENT: &str = "SELECT COUNT(*), COALESCE(MIN(ply), 1), COALESCE(MAX(ply), 0)
     FROM actions WHERE match_id = ?1";
const LOG_AFTER: &str =
    "SELECT ply, seat, action FROM actions WHERE match_id = ?1 AND ply > ?2 ORDER BY ply";
const RESULT: &str = "SELECT places, reason FROM outcomes WHERE match_id = ?1";

pub(super) fn read_match(
    conn: &Connection,
    id: MatchId,
    first_ply: u64,
) -> Result<StoredMatch, StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt { id, detail };
    let key = || vec![id.to_value()];
    // Past the log's end nothing is read (the extent check below refuses a longer log).
    let after = i64::try_from(first_ply).unwrap_or(i64::MAX);
    let answers = conn.query_many(&[
        (MATCH_ROW, key()),
        (SEATS, key()),
        (LOG_EXTENT, key()),
        (LOG_AFTER, vec![id.to_value(), after.to_value()]),
        (RESULT, key()),
    ])?;
    let [head, seats, extent, log, result]: [Vec<Row>; 5] = answers
        .try_into()
        .unwrap_or_else(|_| unreachable!("five queries, five answers"));
    let r = head.first().ok_or(StoreError::NoSuchMatch(id))?;
    let (game, options, seed, status, version, draw_votes) = (
        r.get::<_, String>(0)?,
        r.get::<_, String>(1)?,
        r.get::<_, i64>(2)?,
        r.get::<_, String>(3)?,
        r.get::<_, i64>(4)?,
        r.get::<_, Option<i64>>(5)?,
    );
    let place = Place {
        guild_id: r.get(6)?,
        channel_id: r.get(7)?,
        thread_id: r.get(8)?,
    };
    let (plies, rules) = (r.get::<_, i64>(9)?, r.get::<_, u32>(10)?);
    let (time_control, clocks) = (r.get::<_, String>(11)?, r.get::<_, String>(12)?);
    let game: GameKind = game.parse().map_err(corrupt)?;
    let options: Vec<(String, String)> = serde_json::from_str(&options)
        .map_err(|e| corrupt(format!("bad options {options:?}: {e}")))?;
    let status = Status::parse(&status).ok_or_else(|| corrupt(format!("bad status {status:?}")))?;

    let mut players = Vec::new();
    for (i, r) in seats.iter().enumerate() {
        let seat = r.get::<_, i64>(0)?;
        if seat != i as i64 {
            return Err(corrupt(format!("seat {} is missing", i + 1)));
        }
        players.push(Player {
            id: r.get(1)?,
            name: r.get(2)?,
            discord_id: r.get(3)?,
        });
    }

    // The log must hold exactly `plies` actions, numbered 1 to `plies`.
    let r = extent.first().ok_or(DbError::NoRows)?;
    let (count, first, last): (i64, i64, i64) = (r.get(0)?, r.get(1)?, r.get(2)?);
    if count != plies || last != plies || first != 1 {
        return Err(corrupt(format!(
            "the log holds {count} actions numbered up to {last}, but the match has taken {plies}"
        )));
    }
    let first_ply = first_ply.min(plies as u64);
    let mut actions = Vec::new();
    for (i, r) in log.iter().enumerate() {
        let (ply, seat, text) = (
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
        );
        if ply != first_ply as i64 + i as i64 + 1 {
            return Err(corrupt(format!(
                "action {} is missing from the log",
                first_ply as i64 + i as i64 + 1
            )));
        }
        let seat = u8::try_from(seat)
            .ok()
            .filter(|&s| usize::from(s) < players.len())
            .ok_or_else(|| corrupt(format!("action {ply} names seat {seat}")))?;
        actions.push(StoredAction {
            seat: Seat(seat),
            text,
        });
    }

    let outcome = match result.first() {
        None => None,
        Some(r) => {
            let (places, reason) = (r.get::<_, String>(0)?, r.get::<_, String>(1)?);
            let places = serde_json::from_str(&places)
                .map_err(|e| corrupt(format!("bad outcome {places:?}: {e}")))?;
            Some(Outcome { places, reason })
        }
    };
    match (status, &outcome) {
        (Status::Finished, None) => {
            return Err(corrupt("it is finished but its result is missing".into()));
        }
        (Status::Active | Status::Aborted, Some(_)) => {
            return Err(corrupt(format!("it is {status} but has a result")));
        }
        _ => {}
    }

    Ok(StoredMatch {
        id,
        game,
        options,
        seed: seed as u64,
        status,
        version: version as u64,
        rules,
        plies: plies as u64,
        players,
        actions,
        first_ply,
        outcome,
        draw_votes: (0..64)
            .filter(|bit| draw_votes.unwrap_or(0) >> bit & 1 == 1)
            .map(|bit| Seat(bit as u8))
            .collect(),
        place,
        time_control,
        clocks,
    })
}

impl super::Store {
    /// The match played in this Discord thread, if any.
    pub fn match_in_thread(&self, thread_id: &str) -> Result<Option<MatchId>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM matches WHERE thread_id = ?1 ORDER BY id DESC LIMIT 1",
                [thread_id],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Active matches played in a Discord thread, with the thread's id.
    pub fn active_in_threads(&self) -> Result<Vec<(MatchId, String)>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, thread_id FROM matches
             WHERE status = 'active' AND thread_id IS NOT NULL ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
