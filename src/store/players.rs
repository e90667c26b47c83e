//! Players: those of the console, found by name, and those of Discord, by their account.

use super::db::{OptionalExtension, params};
use super::{Player, PlayerId, Store, StoreError, now};

impl Store {
    /// The player without a Discord account called `name`, if there is one (creating nobody).
    pub fn find_local_player(&self, name: &str) -> Result<Option<Player>, StoreError> {
        let id: Option<PlayerId> = self
            .conn
            .query_row(
                "SELECT id FROM players WHERE name = ?1 AND discord_id IS NULL",
                [name.trim()],
                |r| r.get(0),
            )
            .optional()?;
        Ok(id.map(|id| Player {
            id,
            name: name.trim().to_string(),
            discord_id: None,
        }))
    }

    /// The console player called `name`, created on first use.
    pub fn local_player(&mut self, name: &str) -> Result<Player, StoreError> {
        let name = name.trim();
        // One statement that creates or finds: two processes naming the same new player at
        // once both end up with the one row.
        self.conn.execute(
            "INSERT INTO players (name, created_at) VALUES (?1, ?2)
             ON CONFLICT (name) WHERE discord_id IS NULL DO NOTHING",
            params![name, now()],
        )?;
        let id = self.conn.query_row(
            "SELECT id FROM players WHERE name = ?1 AND discord_id IS NULL",
            [name],
            |r| r.get(0),
        )?;
        Ok(Player {
            id,
            name: name.to_string(),
            discord_id: None,
        })
    }

    /// The player with this id.
    pub fn player(&self, id: PlayerId) -> Result<Player, StoreError> {
        Ok(self.conn.query_row(
            "SELECT name, discord_id FROM players WHERE id = ?1",
            [id],
            |r| {
                Ok(Player {
                    id,
                    name: r.get(0)?,
                    discord_id: r.get(1)?,
                })
            },
        )?)
    }

    /// The player with this Discord id, created on first use; the name is kept current.
    pub fn discord_player(&mut self, discord_id: &str, name: &str) -> Result<Player, StoreError> {
        self.conn.execute(
            "INSERT INTO players (name, discord_id, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (discord_id) DO UPDATE SET name = excluded.name",
            params![name, discord_id, now()],
        )?;
        let id = self.conn.query_row(
            "SELECT id FROM players WHERE discord_id = ?1",
            [discord_id],
            |r| r.get(0),
        )?;
        Ok(Player {
            id,
            name: name.to_string(),
            discord_id: Some(discord_id.to_string()),
        })
    }
}
