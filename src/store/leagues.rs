//! Leagues as stored: the league, its seasons, registrations, announced absences, rounds and
//! pairings (migration 0011). The table's league service decides; this keeps it.

use super::db::{Connection, OptionalExtension, Row, params};
use super::{MatchId, PlayerId, Store, StoreError};
use crate::games::GameKind;
use crate::league::standings::Scoring;

pub type LeagueId = i64;
pub type SeasonId = i64;

/// How a league pairs its rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    DoubleRoundRobin,
    /// The FIDE Dutch Swiss system, over the league's number of rounds.
    Swiss,
    /// Swiss pods: tables of three or four grouped by score, over the league's rounds.
    Pods,
}

impl Format {
    pub fn id(self) -> &'static str {
        match self {
            Format::RoundRobin => "round_robin",
            Format::DoubleRoundRobin => "double_round_robin",
            Format::Swiss => "swiss",
            Format::Pods => "pods",
        }
    }

    pub fn parse(text: &str) -> Option<Format> {
        match text.trim().replace('-', "_").as_str() {
            "round_robin" | "rr" => Some(Format::RoundRobin),
            "double_round_robin" | "drr" => Some(Format::DoubleRoundRobin),
            "swiss" => Some(Format::Swiss),
            "pods" | "swiss_pods" => Some(Format::Pods),
            _ => None,
        }
    }
}

/// A league as created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewLeague {
    pub guild_id: Option<String>,
    pub channel_id: Option<String>,
    pub name: String,
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    pub time_control: String,
    pub format: Format,
    pub rated: bool,
    /// Tiebreak names in order (`league::standings::Tiebreak` as stored).
    pub tiebreaks: String,
    pub round_days: i64,
    pub forfeits_to_drop: u32,
    /// A Swiss season's number of rounds (None for a round robin).
    pub rounds: Option<u32>,
    /// What a win, a draw and a loss score (two-player games).
    pub scoring: Scoring,
}

/// A league as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct League {
    pub id: LeagueId,
    pub new: NewLeague,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeasonStatus {
    Registration,
    Running,
    Finished,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Season {
    pub id: SeasonId,
    pub number: u32,
    pub status: SeasonStatus,
    /// Fixed when the season starts.
    pub rounds: Option<u32>,
}

/// A player's registration in a season.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registration {
    pub player: PlayerId,
    /// The start number, once the season started.
    pub number: Option<u32>,
    /// "active", "withdrawn" or "dropped".
    pub status: String,
    /// The player this one was seated in place of (a substitute).
    pub replaces: Option<PlayerId>,
}

/// A game or bye of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRow {
    pub round: u32,
    pub board: u32,
    pub white: PlayerId,
    /// None for a bye.
    pub black: Option<PlayerId>,
    pub match_id: Option<MatchId>,
    /// "1-0", "0-1", "1/2-1/2", "1X-0F", "0F-1X", "0F-0F", "bye", "half-bye", "zero-bye";
    /// None while the game is on, and always for a pods table (its seats keep its result).
    pub result: Option<String>,
    /// A pods table's seats in order (empty for a two-player board).
    pub table: Vec<TableSeat>,
}

/// One seat of a pods table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSeat {
    pub player: PlayerId,
    /// Half points scored, once the table is over.
    pub points: Option<u32>,
    /// Whether this player never began the game.
    pub forfeit: bool,
}

/// A round's dates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRow {
    pub number: u32,
    pub starts_at: i64,
    pub deadline: i64,
    pub closed: bool,
}

type LeagueRow = (LeagueId, NewLeague, String, String, String, String);

fn league_row(r: &Row) -> super::db::Result<LeagueRow> {
    Ok((
        r.get(0)?,
        NewLeague {
            guild_id: r.get(1)?,
            channel_id: r.get(2)?,
            name: r.get(3)?,
            game: GameKind::default(), // replaced below, once its name is checked
            options: vec![],
            time_control: r.get(6)?,
            format: Format::RoundRobin,
            rated: r.get(8)?,
            tiebreaks: r.get(9)?,
            round_days: r.get(10)?,
            forfeits_to_drop: r.get(11)?,
            rounds: r.get(12)?,
            scoring: Scoring::STANDARD, // replaced below, once it is read
        },
        r.get(4)?,
        r.get(5)?,
        r.get(7)?,
        r.get(13)?,
    ))
}

const LEAGUE_COLUMNS: &str = "id, guild_id, channel_id, name, game, options, time_control, \
                              format, rated, tiebreaks, round_days, forfeits_to_drop, rounds, scoring";

impl Store {
    /// Creates a league and its first season (open for registration).
    pub fn create_league(&mut self, new: &NewLeague, now: i64) -> Result<League, StoreError> {
        let tx = self.write()?;
        let id: i64 = tx.query_row(
            "INSERT INTO leagues (guild_id, channel_id, name, game, options, time_control, format,
                                  rated, tiebreaks, round_days, forfeits_to_drop, created_at,
                                  rounds, scoring)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) RETURNING id",
            params![
                new.guild_id,
                new.channel_id,
                new.name,
                new.game.id(),
                serde_json::to_string(&new.options).expect("pairs serialise"),
                new.time_control,
                new.format.id(),
                new.rated,
                new.tiebreaks,
                new.round_days,
                new.forfeits_to_drop,
                now,
                new.rounds,
                new.scoring.show()
            ],
            |r| r.get(0),
        )?;
        tx.execute(
            "INSERT INTO seasons (league_id, number, created_at) VALUES (?1, 1, ?2)",
            params![id, now],
        )?;
        tx.commit()?;
        Ok(League {
            id,
            new: new.clone(),
        })
    }

    /// Stores a league's changed settings (its name, place, game and format stay).
    pub fn update_league(&mut self, id: LeagueId, new: &NewLeague) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE leagues SET time_control = ?2, rated = ?3, tiebreaks = ?4, round_days = ?5,
                                forfeits_to_drop = ?6, rounds = ?7, scoring = ?8
             WHERE id = ?1",
            params![
                id,
                new.time_control,
                new.rated,
                new.tiebreaks,
                new.round_days,
                new.forfeits_to_drop,
                new.rounds,
                new.scoring.show()
            ],
        )?;
        Ok(())
    }

    /// The league called `name` where it runs (`guild`; None for the console).
    pub fn league_named(
        &self,
        guild: Option<&str>,
        name: &str,
    ) -> Result<Option<League>, StoreError> {
        let row = self
            .conn
            .query_row(
                &format!(
                    "SELECT {LEAGUE_COLUMNS} FROM leagues
                     WHERE COALESCE(guild_id, '') = COALESCE(?1, '') AND name = ?2"
                ),
                params![guild, name],
                league_row,
            )
            .optional()?;
        row.map(|(id, mut new, game, options, format, scoring)| {
            let bad = |detail: String| StoreError::Damaged(format!("league {id}: {detail}"));
            new.game = game.parse().map_err(bad)?;
            new.options = serde_json::from_str(&options).map_err(|e| bad(e.to_string()))?;
            new.format = Format::parse(&format).ok_or_else(|| bad(format!("format {format}")))?;
            new.scoring = Scoring::parse(&scoring).map_err(bad)?;
            Ok(League { id, new })
        })
        .transpose()
    }

    /// The league's newest season.
    pub fn season(&self, league: LeagueId) -> Result<Season, StoreError> {
        Ok(self.conn.query_row(
            "SELECT id, number, status, rounds FROM seasons WHERE league_id = ?1
             ORDER BY number DESC LIMIT 1",
            [league],
            |r| {
                let status: String = r.get(2)?;
                Ok(Season {
                    id: r.get(0)?,
                    number: r.get(1)?,
                    status: match status.as_str() {
                        "registration" => SeasonStatus::Registration,
                        "running" => SeasonStatus::Running,
                        _ => SeasonStatus::Finished,
                    },
                    rounds: r.get(3)?,
                })
            },
        )?)
    }

    /// Opens the league's next season for registration.
    pub fn new_season(&mut self, league: LeagueId, now: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO seasons (league_id, number, created_at)
             SELECT ?1, MAX(number) + 1, ?2 FROM seasons WHERE league_id = ?1",
            params![league, now],
        )?;
        Ok(())
    }

    /// Registers `player` (again, after a withdrawal); true if they were not registered.
    pub fn register(
        &mut self,
        season: SeasonId,
        player: PlayerId,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.conn.execute(
            "INSERT INTO registrations (season_id, player_id, joined_at, came)
             VALUES (?1, ?2, ?3,
                     (SELECT COALESCE(MAX(came), 0) + 1 FROM registrations WHERE season_id = ?1))
             ON CONFLICT (season_id, player_id) DO UPDATE SET status = 'active'
             WHERE registrations.status = 'withdrawn' AND registrations.number IS NULL",
            params![season, player, now],
        )?;
        Ok(n == 1)
    }

    /// Registers `player` in a running season with the next start number; None when they
    /// are registered already.
    pub fn register_late(
        &mut self,
        season: SeasonId,
        player: PlayerId,
        now: i64,
    ) -> Result<Option<u32>, StoreError> {
        let tx = self.write()?;
        let number: u32 = tx.query_row(
            "SELECT COALESCE(MAX(number), 0) + 1 FROM registrations WHERE season_id = ?1",
            [season],
            |r| r.get(0),
        )?;
        let added = tx.execute(
            "INSERT INTO registrations (season_id, player_id, joined_at, number, came)
             VALUES (?1, ?2, ?3, ?4,
                     (SELECT COALESCE(MAX(came), 0) + 1 FROM registrations WHERE season_id = ?1))
             ON CONFLICT (season_id, player_id) DO NOTHING",
            params![season, player, now, number],
        )?;
        tx.commit()?;
        Ok((added == 1).then_some(number))
    }

    /// Sets a registration's status ("withdrawn", "dropped"); before the season starts a
    /// withdrawal removes the registration.
    pub fn set_registration(
        &mut self,
        season: SeasonId,
        player: PlayerId,
        status: &str,
    ) -> Result<bool, StoreError> {
        let removed = self.conn.execute(
            "DELETE FROM registrations WHERE season_id = ?1 AND player_id = ?2
             AND number IS NULL AND ?3 = 'withdrawn'",
            params![season, player, status],
        )?;
        if removed == 1 {
            return Ok(true);
        }
        let n = self.conn.execute(
            "UPDATE registrations SET status = ?3
             WHERE season_id = ?1 AND player_id = ?2 AND status = 'active'",
            params![season, player, status],
        )?;
        Ok(n == 1)
    }

    /// A season's registrations, in the order they came.
    pub fn registrations(&self, season: SeasonId) -> Result<Vec<Registration>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT player_id, number, status, replaces FROM registrations WHERE season_id = ?1
             ORDER BY COALESCE(number, 1000000), joined_at, came",
        )?;
        let rows = stmt.query_map([season], |r| {
            Ok(Registration {
                player: r.get(0)?,
                number: r.get(1)?,
                status: r.get(2)?,
                replaces: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records that `player` cannot play `round`.
    pub fn set_unavailable(
        &mut self,
        season: SeasonId,
        player: PlayerId,
        round: u32,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO unavailable (season_id, player_id, round) VALUES (?1, ?2, ?3)
             ON CONFLICT DO NOTHING",
            params![season, player, round],
        )?;
        Ok(())
    }

    /// Who said they cannot play, round by round: (player, round).
    pub fn unavailable(&self, season: SeasonId) -> Result<Vec<(PlayerId, u32)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT player_id, round FROM unavailable WHERE season_id = ?1")?;
        let rows = stmt.query_map([season], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Starts a season: start numbers as given, and its number of rounds.
    pub fn start_season(
        &mut self,
        season: SeasonId,
        numbers: &[(PlayerId, u32)],
        rounds: u32,
    ) -> Result<(), StoreError> {
        let tx = self.write()?;
        for (player, number) in numbers {
            tx.execute(
                "UPDATE registrations SET number = ?3 WHERE season_id = ?1 AND player_id = ?2",
                params![season, player, number],
            )?;
        }
        tx.execute(
            "UPDATE seasons SET status = 'running', rounds = ?2 WHERE id = ?1",
            params![season, rounds],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// A season's rounds so far.
    pub fn rounds(&self, season: SeasonId) -> Result<Vec<RoundRow>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT number, starts_at, deadline, status FROM rounds WHERE season_id = ?1
             ORDER BY number",
        )?;
        let rows = stmt.query_map([season], |r| {
            Ok(RoundRow {
                number: r.get(0)?,
                starts_at: r.get(1)?,
                deadline: r.get(2)?,
                closed: r.get::<_, String>(3)? == "closed",
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A season's pairings, round by round and board by board.
    pub fn pairings(&self, season: SeasonId) -> Result<Vec<PairingRow>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT round, board, white, black, match_id, result FROM pairings
             WHERE season_id = ?1 ORDER BY round, board",
        )?;
        let rows = stmt.query_map([season], |r| {
            Ok(PairingRow {
                round: r.get(0)?,
                board: r.get(1)?,
                white: r.get(2)?,
                black: r.get(3)?,
                match_id: r.get(4)?,
                result: r.get(5)?,
                table: vec![],
            })
        })?;
        let mut pairings: Vec<PairingRow> = rows.collect::<Result<_, _>>()?;
        let mut stmt = self.conn.prepare(
            "SELECT round, board, player_id, points, forfeit FROM pairing_seats
             WHERE season_id = ?1 ORDER BY round, board, seat",
        )?;
        let seats = stmt.query_map([season], |r| {
            let seat = TableSeat {
                player: r.get(2)?,
                points: r.get(3)?,
                forfeit: r.get(4)?,
            };
            Ok((r.get::<_, u32>(0)?, r.get::<_, u32>(1)?, seat))
        })?;
        let at: std::collections::HashMap<(u32, u32), usize> = pairings
            .iter()
            .enumerate()
            .map(|(i, p)| ((p.round, p.board), i))
            .collect();
        for seat in seats {
            let (round, board, seat) = seat?;
            if let Some(&i) = at.get(&(round, board)) {
                pairings[i].table.push(seat);
            }
        }
        Ok(pairings)
    }

    /// Sets a pods table's points (half points, in seat order) and the seats that never began
    /// it; None opens it again.
    pub fn set_table_result(
        &mut self,
        season: SeasonId,
        round: u32,
        board: u32,
        points: Option<&[u32]>,
        forfeits: &[usize],
    ) -> Result<(), StoreError> {
        let tx = self.write()?;
        table_result(&tx, season, (round, board), points, forfeits)?;
        tx.commit()?;
        Ok(())
    }

    /// Sets a pairing's result (None: open again).
    pub fn set_pairing_result(
        &mut self,
        season: SeasonId,
        round: u32,
        board: u32,
        result: Option<&str>,
    ) -> Result<(), StoreError> {
        pairing_result(&self.conn, season, (round, board), result)
    }

    /// Whether the league request under `key` was carried out already.
    pub fn league_request_done(&self, key: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM league_requests WHERE key = ?1",
                [key],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Ends a season early (no round can be paired any more).
    pub fn finish_season(&mut self, season: SeasonId) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE seasons SET status = 'finished' WHERE id = ?1",
            [season],
        )?;
        Ok(())
    }
}

/// Sets the result of board `at` (round, board) of `season` (None: open again).
pub(super) fn pairing_result(
    conn: &Connection,
    season: SeasonId,
    (round, board): (u32, u32),
    result: Option<&str>,
) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE pairings SET result = ?4 WHERE season_id = ?1 AND round = ?2 AND board = ?3",
        params![season, round, board, result],
    )?;
    Ok(())
}

/// Sets the points of the pods table at `at` (round, board) of `season` and the seats that
/// never began it; None opens it again.
pub(super) fn table_result(
    conn: &Connection,
    season: SeasonId,
    (round, board): (u32, u32),
    points: Option<&[u32]>,
    forfeits: &[usize],
) -> Result<(), StoreError> {
    let seats: u32 = conn.query_row(
        "SELECT COUNT(*) FROM pairing_seats WHERE season_id = ?1 AND round = ?2 AND board = ?3",
        params![season, round, board],
        |r| r.get(0),
    )?;
    for seat in 0..seats {
        conn.execute(
            "UPDATE pairing_seats SET points = ?5, forfeit = ?6
             WHERE season_id = ?1 AND round = ?2 AND board = ?3 AND seat = ?4",
            params![
                season,
                round,
                board,
                seat,
                points.and_then(|p| p.get(seat as usize)),
                forfeits.contains(&(seat as usize))
            ],
        )?;
    }
    Ok(())
}

/// A finished match as ratings read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedResult {
    pub match_id: MatchId,
    pub finished_at: i64,
    /// Seat order.
    pub players: Vec<PlayerId>,
    /// Best first, each a list of seat indices.
    pub places: Vec<Vec<usize>>,
}

impl Store {
    /// Whether match `id` counts for ratings.
    pub fn rated(&self, id: MatchId) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT rated FROM matches WHERE id = ?1", [id], |r| {
                r.get(0)
            })?)
    }

    /// Makes match `id` count for ratings, or not.
    pub fn set_rated(&mut self, id: MatchId, rated: bool) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE matches SET rated = ?2 WHERE id = ?1",
            params![id, rated],
        )?;
        Ok(())
    }

    /// Every rated finished match of `game` (in server `guild`, or everywhere), in the order they
    /// finished. Matches against the computer count only in their own server's ratings (where
    /// its admins allowed them), never everywhere.
    pub fn rated_results(
        &self,
        game: GameKind,
        guild: Option<&str>,
    ) -> Result<Vec<RatedResult>, StoreError> {
        // One row a seat, in seat order: the rows of a match are grouped below.
        let rows = self.conn.query_all(
            "SELECT m.id, o.finished_at, o.places, s.player_id
             FROM matches m JOIN outcomes o ON o.match_id = m.id
             JOIN seats s ON s.match_id = m.id
             WHERE m.game = ?1 AND m.status = 'finished' AND m.rated = 1
               AND (CAST(?2 AS TEXT) IS NULL OR m.guild_id = ?2)
               AND (CAST(?2 AS TEXT) IS NOT NULL OR NOT EXISTS (
                   SELECT 1 FROM seats s JOIN players p ON p.id = s.player_id
                   WHERE s.match_id = m.id AND p.computer IS NOT NULL))
             ORDER BY o.finished_at, m.id, s.seat",
            params![game.id(), guild],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, PlayerId>(3)?,
                ))
            },
        )?;
        let mut results: Vec<RatedResult> = Vec::new();
        for (id, finished_at, places, player) in rows {
            if let Some(last) = results.last_mut().filter(|r| r.match_id == id) {
                last.players.push(player);
                continue;
            }
            let places: Vec<Vec<crate::engine::Seat>> =
                serde_json::from_str(&places).map_err(|e| StoreError::Corrupt {
                    id,
                    detail: e.to_string(),
                })?;
            results.push(RatedResult {
                match_id: id,
                finished_at,
                players: vec![player],
                places: places
                    .iter()
                    .map(|p| p.iter().map(|s| s.index()).collect())
                    .collect(),
            });
        }
        Ok(results)
    }
}

impl Store {
    /// Leagues played in a server whose running round is past its deadline or has boards
    /// still without their match (a start interrupted), or whose season runs with its last
    /// round closed and rounds still to play: the scheduler moves them on.
    pub fn leagues_to_advance(&self, now: i64) -> Result<Vec<LeagueId>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT DISTINCT s.league_id FROM seasons s JOIN leagues l ON l.id = s.league_id
             WHERE s.status = 'running' AND l.guild_id IS NOT NULL
             AND l.guild_id NOT IN (SELECT guild_id FROM removed_guilds) AND (
                 EXISTS (SELECT 1 FROM rounds r WHERE r.season_id = s.id
                         AND r.status = 'running' AND r.deadline <= ?1)
                 OR EXISTS (SELECT 1 FROM rounds r JOIN pairings p
                            ON p.season_id = r.season_id AND p.round = r.number
                            WHERE r.season_id = s.id AND r.status = 'running'
                            AND p.black IS NOT NULL AND p.result IS NULL
                            AND p.match_id IS NULL)
                 OR (NOT EXISTS (SELECT 1 FROM rounds r WHERE r.season_id = s.id
                                 AND r.status = 'running')
                     AND (SELECT COUNT(*) FROM rounds r WHERE r.season_id = s.id) < s.rounds))
             ORDER BY s.league_id",
        )?;
        let rows = stmt.query_map([now], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// When the next running round of a server's league reaches its deadline, or the time to
    /// remind its players (`notice` seconds before), if one runs.
    pub fn next_round_deadline(&self, notice: i64) -> Result<Option<i64>, StoreError> {
        Ok(self.conn.query_row(
            "SELECT MIN(CASE WHEN r.reminded = 0 THEN r.deadline - ?1 ELSE r.deadline END)
             FROM rounds r JOIN seasons s ON s.id = r.season_id
             JOIN leagues l ON l.id = s.league_id
             WHERE r.status = 'running' AND l.guild_id IS NOT NULL
             AND l.guild_id NOT IN (SELECT guild_id FROM removed_guilds)",
            [notice],
            |r| r.get(0),
        )?)
    }

    /// Running rounds of servers' leagues within `notice` seconds of their deadline whose
    /// players were not reminded yet, marked reminded now: (league, round).
    pub fn rounds_to_remind(
        &mut self,
        now: i64,
        notice: i64,
    ) -> Result<Vec<(LeagueId, u32)>, StoreError> {
        let tx = self.write()?;
        let due: Vec<(LeagueId, SeasonId, u32)> = {
            let mut stmt = tx.prepare(
                "SELECT s.league_id, r.season_id, r.number FROM rounds r
                 JOIN seasons s ON s.id = r.season_id JOIN leagues l ON l.id = s.league_id
                 WHERE r.status = 'running' AND r.reminded = 0 AND l.guild_id IS NOT NULL
             AND l.guild_id NOT IN (SELECT guild_id FROM removed_guilds)
                   AND r.deadline - ?2 <= ?1 AND r.deadline > ?1",
            )?;
            let rows = stmt.query_map(params![now, notice], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?;
            rows.collect::<Result<_, _>>()?
        };
        for (_, season, round) in &due {
            tx.execute(
                "UPDATE rounds SET reminded = 1 WHERE season_id = ?1 AND number = ?2",
                params![season, round],
            )?;
        }
        tx.commit()?;
        Ok(due.into_iter().map(|(l, _, r)| (l, r)).collect())
    }

    /// The league with this id.
    pub fn league_by_id(&self, id: LeagueId) -> Result<Option<League>, StoreError> {
        let found: Option<(Option<String>, String)> = self
            .conn
            .query_row(
                "SELECT guild_id, name FROM leagues WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        match found {
            Some((guild, name)) => self.league_named(guild.as_deref(), &name),
            None => Ok(None),
        }
    }
}
