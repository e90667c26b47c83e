//! The computer's players: a row for each seat it can take at one table (`cpu-hard`,
//! `cpu-hard-2`), marked with its level, and the seats it holds in active matches.

use super::db::{OptionalExtension, params};
use super::{MatchId, Player, PlayerId, Store, StoreError, now};
use crate::engine::{Level, Seat};

/// A seat the computer plays in an active match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputerSeat {
    pub match_id: MatchId,
    pub seat: usize,
    pub player: PlayerId,
    pub level: Level,
    /// The server the match is played in.
    pub guild: String,
    /// The match's version: the seat has nothing new to do while it stays the same.
    pub version: u64,
}

/// The computer's name for its `n`th seat (from 1) at one table at `level`.
pub fn computer_name(level: Level, n: usize) -> String {
    match n {
        0 | 1 => format!("cpu-{level}"),
        n => format!("cpu-{level}-{n}"),
    }
}

impl Store {
    /// The computer playing at `level` in its `n`th seat at one table (from 1), created on
    /// first use. Console players of the same name are the same player: the console gives
    /// the computer these names and never lets a person take them.
    pub fn computer_player(&mut self, level: Level, n: usize) -> Result<Player, StoreError> {
        let name = computer_name(level, n);
        self.conn.execute(
            "INSERT INTO players (name, computer, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (name) WHERE discord_id IS NULL DO UPDATE SET computer = excluded.computer",
            params![name, level.name(), now()],
        )?;
        let id = self.conn.query_row(
            "SELECT id FROM players WHERE name = ?1 AND discord_id IS NULL",
            [&name],
            |r| r.get(0),
        )?;
        Ok(Player {
            id,
            name,
            discord_id: None,
        })
    }

    /// The level `player` plays at when it is the computer; None for a person.
    pub fn computer_level(&self, player: PlayerId) -> Result<Option<Level>, StoreError> {
        let level: Option<Option<String>> = self
            .conn
            .query_row(
                "SELECT computer FROM players WHERE id = ?1",
                [player],
                |r| r.get(0),
            )
            .optional()?;
        Ok(level.flatten().and_then(|text| text.parse().ok()))
    }

    /// Every seat the computer plays in active matches played on Discord (a console plays its
    /// own) that are not held, by match.
    pub fn computer_seats(&self) -> Result<Vec<ComputerSeat>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT s.match_id, s.seat, p.id, p.computer, m.guild_id, m.version FROM seats s
             JOIN players p ON p.id = s.player_id
             JOIN matches m ON m.id = s.match_id
             WHERE p.computer IS NOT NULL AND m.status = 'active' AND m.guild_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM match_holds h WHERE h.match_id = m.id)
             ORDER BY s.match_id, s.seat",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, MatchId>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, PlayerId>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, i64>(5)?,
            ))
        })?;
        let mut seats = Vec::new();
        for row in rows {
            let (match_id, seat, player, level, guild, version) = row?;
            // The column's CHECK allows only the three levels.
            if let Ok(level) = level.parse() {
                seats.push(ComputerSeat {
                    match_id,
                    seat: seat as usize,
                    player,
                    level,
                    guild,
                    version: version as u64,
                });
            }
        }
        Ok(seats)
    }

    /// The seats that took the last `n` actions of match `id`, the latest last: who has been
    /// acting lately, for the computer's sense of whose turns came when.
    pub fn last_actors(&self, id: MatchId, n: usize) -> Result<Vec<Seat>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT seat FROM actions WHERE match_id = ?1 ORDER BY ply DESC LIMIT ?2")?;
        let rows = stmt.query_map(params![id, n as i64], |r| r.get::<_, i64>(0))?;
        let mut seats = Vec::with_capacity(n);
        for seat in rows {
            let seat = seat?;
            let seat = u8::try_from(seat).map_err(|_| StoreError::Corrupt {
                id,
                detail: format!("an action's seat is {seat}"),
            })?;
            seats.push(Seat(seat));
        }
        seats.reverse();
        Ok(seats)
    }
}
