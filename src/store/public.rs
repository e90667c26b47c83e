//! What the public web pages read that no other part of the bot needs: a server's leagues and
//! their seasons, a player's recent matches in one server, the games a server has ratings in,
//! and cheap stamps that change whenever a page's content may have (its cache key).

use super::db::{OptionalExtension, params};
use super::leagues::{League, LeagueId, Season, SeasonId, SeasonStatus};
use super::{MatchId, PlayerId, Status, Store, StoreError};
use crate::games::GameKind;
use std::hash::{Hash, Hasher};

/// One of a player's matches as a list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMatch {
    pub id: MatchId,
    pub game: GameKind,
    pub status: Status,
    pub updated_at: i64,
}

fn season_status(text: &str) -> SeasonStatus {
    match text {
        "registration" => SeasonStatus::Registration,
        "running" => SeasonStatus::Running,
        _ => SeasonStatus::Finished,
    }
}

impl Store {
    /// The leagues played in server `guild` (None: the console's), by name.
    pub fn leagues_in(&self, guild: Option<&str>) -> Result<Vec<League>, StoreError> {
        let names: Vec<String> = self.conn.query_all(
            "SELECT name FROM leagues WHERE COALESCE(guild_id, '') = COALESCE(?1, '')
             ORDER BY name",
            params![guild],
            |r| r.get(0),
        )?;
        let mut leagues = Vec::with_capacity(names.len());
        for name in names {
            leagues.extend(self.league_named(guild, &name)?);
        }
        Ok(leagues)
    }

    /// Every season of `league`, newest first.
    pub fn seasons_of(&self, league: LeagueId) -> Result<Vec<Season>, StoreError> {
        Ok(self.conn.query_all(
            "SELECT id, number, status, rounds FROM seasons WHERE league_id = ?1
             ORDER BY number DESC",
            [league],
            |r| {
                Ok(Season {
                    id: r.get(0)?,
                    number: r.get(1)?,
                    status: season_status(&r.get::<_, String>(2)?),
                    rounds: r.get(3)?,
                })
            },
        )?)
    }

    /// `player`'s newest `limit` matches in server `guild` (None: the console's).
    pub fn matches_in(
        &self,
        player: PlayerId,
        guild: Option<&str>,
        limit: usize,
    ) -> Result<Vec<PlayedMatch>, StoreError> {
        let rows: Vec<(i64, String, String, i64)> = self.conn.query_all(
            "SELECT m.id, m.game, m.status, m.updated_at FROM matches m
             JOIN seats s ON s.match_id = m.id
             WHERE s.player_id = ?1 AND COALESCE(m.guild_id, '') = COALESCE(?2, '')
             ORDER BY m.id DESC LIMIT ?3",
            params![player, guild, limit as i64],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        rows.into_iter()
            .map(|(id, game, status, updated_at)| {
                let corrupt = |detail: String| StoreError::Corrupt { id, detail };
                Ok(PlayedMatch {
                    id,
                    game: game.parse().map_err(corrupt)?,
                    status: Status::parse(&status)
                        .ok_or_else(|| corrupt(format!("bad status {status:?}")))?,
                    updated_at,
                })
            })
            .collect()
    }

    /// The leagues of server `guild` (None: the console's) that `player` registered in, with
    /// the season numbers.
    pub fn leagues_of_player(
        &self,
        player: PlayerId,
        guild: Option<&str>,
    ) -> Result<Vec<(String, u32)>, StoreError> {
        Ok(self.conn.query_all(
            "SELECT l.name, s.number FROM registrations r
             JOIN seasons s ON s.id = r.season_id JOIN leagues l ON l.id = s.league_id
             WHERE r.player_id = ?1 AND COALESCE(l.guild_id, '') = COALESCE(?2, '')
             ORDER BY l.name, s.number DESC",
            params![player, guild],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?)
    }

    /// The games with rated results in server `guild`, in the registry's order.
    pub fn rated_games(&self, guild: &str) -> Result<Vec<GameKind>, StoreError> {
        let ids: Vec<String> = self.conn.query_all(
            "SELECT DISTINCT game FROM matches
             WHERE guild_id = ?1 AND rated = 1 AND status = 'finished'",
            [guild],
            |r| r.get(0),
        )?;
        Ok(GameKind::ALL
            .into_iter()
            .filter(|g| ids.iter().any(|id| id == g.id()))
            .collect())
    }

    /// Where match `id` is played (its server, None for the console), its version and
    /// whether a clock runs in it, or None when there is no such match: enough to decide
    /// whether it may be shown and whether a page drawn before is still current.
    pub fn match_stamp(&self, id: MatchId) -> Result<Option<MatchStamp>, StoreError> {
        let found = self
            .conn
            .query_row(
                "SELECT guild_id, version, status, time_control FROM matches WHERE id = ?1",
                [id],
                |r| {
                    let status: String = r.get(2)?;
                    let control: String = r.get(3)?;
                    Ok(MatchStamp {
                        guild: r.get(0)?,
                        version: r.get::<_, i64>(1)? as u64,
                        ticking: status == "active" && !control.is_empty() && control != "none",
                        names: vec![],
                    })
                },
            )
            .optional()?;
        let Some(mut stamp) = found else {
            return Ok(None);
        };
        stamp.names = self.conn.query_all(
            "SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id
             WHERE s.match_id = ?1 ORDER BY s.seat",
            [id],
            |r| r.get(0),
        )?;
        Ok(Some(stamp))
    }

    /// A stamp that changes whenever what a page of season `season` shows may have: the
    /// season's status, its registrations (with their status), absences, rounds and their
    /// deadlines, every board and result, and the moves of its matches. Equal stamps, equal
    /// pages.
    pub fn season_stamp(&self, season: SeasonId) -> Result<u64, StoreError> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let status: Option<String> = self
            .conn
            .query_row("SELECT status FROM seasons WHERE id = ?1", [season], |r| {
                r.get(0)
            })
            .optional()?;
        status.hash(&mut hasher);
        format!("{:?}", self.registrations(season)?).hash(&mut hasher);
        // Everyone the page names, under their names of now.
        let names: Vec<String> = self.conn.query_all(
            "SELECT p.name FROM players p WHERE p.id IN (
                 SELECT r.player_id FROM registrations r WHERE r.season_id = ?1
                 UNION SELECT s.player_id FROM pairing_seats s WHERE s.season_id = ?1
                 UNION SELECT x.white FROM pairings x WHERE x.season_id = ?1
                 UNION SELECT x.black FROM pairings x WHERE x.season_id = ?1)
             ORDER BY p.id",
            [season],
            |r| r.get(0),
        )?;
        names.hash(&mut hasher);
        format!("{:?}", self.unavailable(season)?).hash(&mut hasher);
        format!("{:?}", self.rounds(season)?).hash(&mut hasher);
        format!("{:?}", self.pairings(season)?).hash(&mut hasher);
        let moves: i64 = self.conn.query_row(
            "SELECT CAST(COALESCE(SUM(m.version), 0) AS BIGINT) FROM pairings p
             JOIN matches m ON m.id = p.match_id WHERE p.season_id = ?1",
            [season],
            |r| r.get(0),
        )?;
        moves.hash(&mut hasher);
        Ok(hasher.finish())
    }

    /// A stamp that changes whenever what server `guild`'s pages that span it (None: the
    /// console's) may show has: its matches (how many, their moves, which are over or rated),
    /// its leagues and their settings, seasons and registrations.
    pub fn scope_stamp(&self, guild: Option<&str>) -> Result<u64, StoreError> {
        // Indexed (migration 0021): one server's rows are read, not every match's.
        let of = match guild {
            Some(_) => "guild_id = ?1",
            None => "guild_id IS NULL AND CAST(?1 AS TEXT) IS NULL",
        };
        let matches: [i64; 4] = self.conn.query_row(
            &format!(
                "SELECT COUNT(*), CAST(COALESCE(SUM(version), 0) AS BIGINT),
                        CAST(COALESCE(SUM(rated), 0) AS BIGINT),
                        CAST(COALESCE(SUM(CASE WHEN status = 'active' THEN 0 ELSE 1 END), 0)
                             AS BIGINT)
                 FROM matches WHERE {of}"
            ),
            params![guild],
            |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?]),
        )?;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        matches.hash(&mut hasher);
        for league in self.leagues_in(guild)? {
            format!("{league:?}").hash(&mut hasher);
            for season in self.seasons_of(league.id)? {
                format!("{season:?}").hash(&mut hasher);
                format!("{:?}", self.registrations(season.id)?).hash(&mut hasher);
            }
        }
        Ok(hasher.finish())
    }
}

/// What decides whether a match's page drawn before is current.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchStamp {
    pub guild: Option<String>,
    pub version: u64,
    /// A clock runs: its page's times change without a move.
    pub ticking: bool,
    /// The players' names in seat order (a player renamed on Discord is renamed here).
    pub names: Vec<String>,
}

/// Where a league's board is: the league, the season, round and board of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardOf {
    pub league: String,
    pub season: u32,
    pub round: u32,
    pub board: u32,
}

impl Store {
    /// The league board match `id` was played for, if any.
    pub fn board_of(&self, id: MatchId) -> Result<Option<BoardOf>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT l.name, s.number, p.round, p.board FROM pairings p
                 JOIN seasons s ON s.id = p.season_id JOIN leagues l ON l.id = s.league_id
                 WHERE p.match_id = ?1",
                [id],
                |r| {
                    Ok(BoardOf {
                        league: r.get(0)?,
                        season: r.get(1)?,
                        round: r.get(2)?,
                        board: r.get(3)?,
                    })
                },
            )
            .optional()?)
    }
}
