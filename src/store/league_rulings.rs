//! A league's admin decisions as stored, each in one transaction together with the key of the
//! request that asked for it, so a request delivered twice is carried out once: a substitute
//! seated in a player's place.

use super::leagues::{LeagueId, SeasonId};
use super::{MatchId, PlayerId, Store, StoreError};
use rusqlite::{Transaction, params};

/// A substitute an admin seats in a running season.
#[derive(Clone, Copy, Debug)]
pub struct Substitution {
    pub league: LeagueId,
    pub season: SeasonId,
    pub out: PlayerId,
    pub into: PlayerId,
    /// The match of the running round the substitute takes over, already reseated.
    pub in_match: Option<MatchId>,
}

impl Store {
    /// Seats `s.into` in `s.out`'s place: `out` withdraws (unless already dropped), `into` is
    /// registered with the next start number and whom they replace, and the board of
    /// `s.in_match` names `into`. None when `key` was carried out before; else the
    /// substitute's start number.
    pub fn substitute(
        &mut self,
        s: Substitution,
        key: &str,
        now: i64,
    ) -> Result<Option<u32>, StoreError> {
        let tx = self.conn.transaction()?;
        if !claim_key(&tx, key, s.league, now)? {
            return Ok(None);
        }
        tx.execute(
            "UPDATE registrations SET status = 'withdrawn'
             WHERE season_id = ?1 AND player_id = ?2 AND status = 'active'",
            params![s.season, s.out],
        )?;
        let number: u32 = tx.query_row(
            "SELECT COALESCE(MAX(number), 0) + 1 FROM registrations WHERE season_id = ?1",
            [s.season],
            |r| r.get(0),
        )?;
        tx.execute(
            "INSERT INTO registrations (season_id, player_id, joined_at, number, replaces)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![s.season, s.into, now, number, s.out],
        )?;
        if let Some(id) = s.in_match {
            for column in ["white", "black"] {
                tx.execute(
                    &format!(
                        "UPDATE pairings SET {column} = ?1
                         WHERE season_id = ?2 AND match_id = ?3 AND {column} = ?4"
                    ),
                    params![s.into, s.season, id, s.out],
                )?;
            }
            tx.execute(
                "UPDATE pairing_seats SET player_id = ?1
                 WHERE player_id = ?4 AND (season_id, round, board) IN
                     (SELECT season_id, round, board FROM pairings
                      WHERE season_id = ?2 AND match_id = ?3)",
                params![s.into, s.season, id, s.out],
            )?;
        }
        tx.commit()?;
        Ok(Some(number))
    }
}

/// Records `key` as carried out inside `tx`; false when it was already.
pub(super) fn claim_key(
    tx: &Transaction,
    key: &str,
    league: LeagueId,
    now: i64,
) -> Result<bool, StoreError> {
    let n = tx.execute(
        "INSERT INTO league_requests (key, league_id, created_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (key) DO NOTHING",
        params![key, league, now],
    )?;
    Ok(n == 1)
}
