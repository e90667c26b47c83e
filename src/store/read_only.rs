//! A second, read-only connection to the bot's database, for answers that must not wait for
//! the table thread (autocomplete): it can never write, and in WAL mode it reads the latest
//! committed state while the table writes.

use super::db::{Connection, OptionalExtension};
use super::{Player, PlayerId, Store, StoreError};
use rusqlite::OpenFlags;

impl Store {
    /// Opens the database file at `path` for reading only: no migration, no write, ever.
    pub fn open_read_only(path: impl AsRef<std::path::Path>) -> Result<Store, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = rusqlite::Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(std::time::Duration::from_secs(1))?;
        Ok(Store {
            conn: Connection::sqlite(conn),
        })
    }

    /// A read-only connection to this store's database: another connection to the SQLite file
    /// (None for a store kept in memory, which no other connection can see), or another
    /// session on the PostgreSQL server whose transactions are read-only.
    pub fn reader(&self) -> Result<Option<Store>, StoreError> {
        if let Some(conn) = self.conn.read_only_twin()? {
            return Ok(Some(Store { conn }));
        }
        let path = self.conn.as_sqlite().and_then(|c| c.path());
        match path.filter(|p| !p.is_empty()) {
            Some(path) => Ok(Some(Store::open_read_only(path)?)),
            None => Ok(None),
        }
    }

    /// The player with this Discord id as last recorded, if the bot has met them; records
    /// nothing.
    pub fn known_discord_player(&self, discord_id: &str) -> Result<Option<Player>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id, name FROM players WHERE discord_id = ?1",
                [discord_id],
                |r| {
                    Ok(Player {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        discord_id: Some(discord_id.to_string()),
                    })
                },
            )
            .optional()?)
    }

    /// The player with this Discord id, if the bot has met them; records nothing.
    pub fn discord_player_id(&self, discord_id: &str) -> Result<Option<PlayerId>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM players WHERE discord_id = ?1",
                [discord_id],
                |r| r.get(0),
            )
            .optional()?)
    }
}

#[cfg(test)]
mod tests;
