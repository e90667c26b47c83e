//! A league's rounds and admin decisions as stored, each step in one transaction (with the key
//! of the request that asked for it, so a request delivered twice is carried out once): a
//! round stored with its boards, each board's match created with its link, a round closed with
//! its forfeits and drops, a round paired again, a substitute seated.

use super::db::{Connection, params};
use super::leagues::{LeagueId, PairingRow, RoundRow, SeasonId, pairing_result, table_result};
use super::{
    GameKind, MatchId, Place, PlayerId, Store, StoreError, Timing, insert_match, now, set_timing,
};

/// A league board a new match is played for, and whether the league is rated.
#[derive(Clone, Copy, Debug)]
pub struct BoardLink {
    pub season: SeasonId,
    pub round: u32,
    pub board: u32,
    pub rated: bool,
}

/// A new match: its game, options, seed, players in seat order, and where it is played.
#[derive(Clone, Copy, Debug)]
pub struct NewMatch<'a> {
    pub game: GameKind,
    pub options: &'a [(String, String)],
    pub seed: u64,
    pub players: &'a [PlayerId],
    pub place: &'a Place,
}

/// What closing a round writes: forfeits scored on its boards, players dropped, and whether
/// the season ends with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Closing {
    pub round: u32,
    /// Two-player boards forfeited, with their result.
    pub results: Vec<(u32, &'static str)>,
    /// Pods tables never begun: the board, each seat's points, the seats that forfeit.
    pub tables: Vec<(u32, Vec<u32>, Vec<usize>)>,
    pub drops: Vec<PlayerId>,
    pub finished: bool,
}

/// A substitute an admin seats in a running season.
#[derive(Clone, Debug)]
pub struct Substitution {
    pub league: LeagueId,
    pub season: SeasonId,
    pub out: PlayerId,
    pub into: PlayerId,
    /// The unfinished matches the substitute takes over, already reseated.
    pub in_matches: Vec<MatchId>,
}

impl Store {
    /// Seats `s.into` in `s.out`'s place: `out` withdraws (unless already dropped), `into` is
    /// registered with the next start number and whom they replace, and the boards of
    /// `s.in_matches` name `into`. None when `key` was carried out before; else the
    /// substitute's start number.
    pub fn substitute(
        &mut self,
        s: &Substitution,
        key: &str,
        now: i64,
    ) -> Result<Option<u32>, StoreError> {
        let tx = self.write()?;
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
            "INSERT INTO registrations (season_id, player_id, joined_at, number, replaces, came)
             VALUES (?1, ?2, ?3, ?4, ?5,
                     (SELECT COALESCE(MAX(came), 0) + 1 FROM registrations WHERE season_id = ?1))",
            params![s.season, s.into, now, number, s.out],
        )?;
        for id in &s.in_matches {
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

impl Store {
    /// Stores round `round` of `season` with its boards (their matches are created after, one
    /// by one, with [`Store::create_league_match`]); with `replacing`, the round stored under
    /// that number before is removed first (a round paired again). False when `key` (with its
    /// league) was carried out before.
    pub fn store_round(
        &mut self,
        season: SeasonId,
        round: RoundRow,
        pairings: &[PairingRow],
        replacing: bool,
        key: Option<(&str, LeagueId)>,
    ) -> Result<bool, StoreError> {
        let tx = self.write()?;
        if let Some((key, league)) = key
            && !claim_key(&tx, key, league, round.starts_at)?
        {
            return Ok(false);
        }
        if replacing {
            for table in ["pairing_seats", "pairings"] {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE season_id = ?1 AND round = ?2"),
                    params![season, round.number],
                )?;
            }
            tx.execute(
                "DELETE FROM rounds WHERE season_id = ?1 AND number = ?2",
                params![season, round.number],
            )?;
        }
        tx.execute(
            "INSERT INTO rounds (season_id, number, starts_at, deadline) VALUES (?1, ?2, ?3, ?4)",
            params![season, round.number, round.starts_at, round.deadline],
        )?;
        for p in pairings {
            tx.execute(
                "INSERT INTO pairings (season_id, round, board, white, black, match_id, result)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    season, p.round, p.board, p.white, p.black, p.match_id, p.result
                ],
            )?;
            for (seat, s) in p.table.iter().enumerate() {
                tx.execute(
                    "INSERT INTO pairing_seats (season_id, round, board, seat, player_id, points,
                                                forfeit) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![
                        season,
                        p.round,
                        p.board,
                        seat as u32,
                        s.player,
                        s.points,
                        s.forfeit
                    ],
                )?;
            }
        }
        tx.commit()?;
        Ok(true)
    }

    /// Creates the match of a league board and links the board to it, in one transaction:
    /// None (nothing stored) when the board has its match or its result already.
    pub fn create_league_match(
        &mut self,
        new: NewMatch,
        timing: Timing,
        link: BoardLink,
    ) -> Result<Option<MatchId>, StoreError> {
        let tx = self.write()?;
        let rules = new.game.rules();
        let id = insert_match(
            &tx,
            new.game,
            new.options,
            new.seed,
            new.players,
            new.place,
            rules,
            now(),
        )?;
        set_timing(&tx, id, &timing)?;
        tx.execute(
            "UPDATE matches SET rated = ?2 WHERE id = ?1",
            params![id, link.rated],
        )?;
        let linked = tx.execute(
            "UPDATE pairings SET match_id = ?4
             WHERE season_id = ?1 AND round = ?2 AND board = ?3
             AND match_id IS NULL AND result IS NULL",
            params![link.season, link.round, link.board, id],
        )?;
        if linked != 1 {
            return Ok(None);
        }
        tx.commit()?;
        Ok(Some(id))
    }

    /// Closes a round with what closing it writes, in one transaction; false when `key` was
    /// carried out before (nothing written).
    pub fn close_round(
        &mut self,
        league: LeagueId,
        season: SeasonId,
        closing: &Closing,
        key: Option<&str>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let tx = self.write()?;
        if let Some(key) = key
            && !claim_key(&tx, key, league, now)?
        {
            return Ok(false);
        }
        let round = closing.round;
        for (board, result) in &closing.results {
            pairing_result(&tx, season, (round, *board), Some(result))?;
        }
        for (board, points, forfeits) in &closing.tables {
            table_result(&tx, season, (round, *board), Some(points), forfeits)?;
        }
        for player in &closing.drops {
            tx.execute(
                "UPDATE registrations SET status = 'dropped'
                 WHERE season_id = ?1 AND player_id = ?2 AND status = 'active'",
                params![season, player],
            )?;
        }
        tx.execute(
            "UPDATE rounds SET status = 'closed' WHERE season_id = ?1 AND number = ?2",
            params![season, round],
        )?;
        if closing.finished {
            tx.execute(
                "UPDATE seasons SET status = 'finished' WHERE id = ?1",
                [season],
            )?;
        }
        tx.commit()?;
        Ok(true)
    }
}

/// Records `key` as carried out inside `tx`; false when it was already.
pub(super) fn claim_key(
    tx: &Connection,
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
