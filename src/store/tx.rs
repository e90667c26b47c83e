//! Write transactions that nest. Each store method that writes opens its own transaction
//! ([`Store::write`]): the outermost one (holding the write lock) when none is open, else a
//! savepoint inside the one open. So the table can run several store calls as one transaction
//! ([`Store::begin`] .. [`Store::commit`] / [`Store::rollback`]), e.g. a deadline's effect and
//! the post it owes (the outbox), and each call still commits or rolls back its own part.

use super::db::{Connection, DbError};
use super::{Store, StoreError};
use std::ops::Deref;

/// A store method's own write transaction: the outermost one, or a savepoint in an open one.
/// Dropped without [`Tx::commit`], it rolls back.
pub(super) struct Tx<'a> {
    conn: &'a Connection,
    level: Level,
    open: bool,
}

impl Deref for Tx<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Tx<'_> {
    /// Commits the transaction, or releases the savepoint into the one around it.
    pub(super) fn commit(mut self) -> Result<(), DbError> {
        self.open = false;
        finish(self.conn, self.level, true)
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open {
            // A rollback that fails leaves nothing to undo: the engine has ended the
            // transaction itself.
            let _ = finish(self.conn, self.level, false);
        }
    }
}

fn start(conn: &Connection) -> Result<Level, DbError> {
    match conn.is_autocommit() {
        true => conn.begin_write().map(|()| Level::Top),
        false => conn.savepoint().map(|()| Level::Nested),
    }
}

fn finish(conn: &Connection, level: Level, commit: bool) -> Result<(), DbError> {
    match level {
        Level::Top => conn.end(commit),
        Level::Nested => conn.end_savepoint(commit),
    }
}

/// What [`Store::begin`] opened: the outermost transaction, or a savepoint inside one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Top,
    Nested,
}

impl Store {
    /// Opens a write transaction for one store method (dropped uncommitted, it rolls back).
    pub(super) fn write(&mut self) -> Result<Tx<'_>, DbError> {
        let level = start(&self.conn)?;
        Ok(Tx {
            conn: &self.conn,
            level,
            open: true,
        })
    }

    /// Opens a transaction around the store calls that follow, until [`Store::commit`] or
    /// [`Store::rollback`] of the level it returns: the outermost, or a savepoint inside one
    /// already open.
    pub fn begin(&mut self) -> Result<Level, StoreError> {
        Ok(start(&self.conn)?)
    }

    /// Commits what [`Store::begin`] opened (a savepoint into the transaction around it).
    pub fn commit(&mut self, level: Level) -> Result<(), StoreError> {
        Ok(finish(&self.conn, level, true)?)
    }

    /// Undoes everything since [`Store::begin`] at `level`.
    pub fn rollback(&mut self, level: Level) -> Result<(), StoreError> {
        if self.conn.is_autocommit() {
            return Ok(());
        }
        Ok(finish(&self.conn, level, false)?)
    }

    /// A transaction is open ([`Store::begin`]).
    pub fn in_transaction(&self) -> bool {
        !self.conn.is_autocommit()
    }
}
