//! Write transactions that nest. Each store method that writes opens its own transaction
//! ([`Store::write`]): `BEGIN IMMEDIATE` when none is open, else a savepoint inside the one
//! open. So the table can run several store calls as one transaction
//! ([`Store::begin`] .. [`Store::commit`] / [`Store::rollback`]), e.g. a deadline's effect and
//! the post it owes (the outbox), and each call still commits or rolls back its own part.

use super::{Store, StoreError};
use rusqlite::{Connection, Savepoint, Transaction, TransactionBehavior};
use std::ops::Deref;

/// A store method's own write transaction: the outermost one, or a savepoint in an open one.
pub(super) enum Tx<'a> {
    Top(Transaction<'a>),
    Nested(Savepoint<'a>),
}

impl Deref for Tx<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        match self {
            Tx::Top(tx) => tx,
            Tx::Nested(sp) => sp,
        }
    }
}

impl Tx<'_> {
    /// Commits the transaction, or releases the savepoint into the one around it.
    pub(super) fn commit(self) -> rusqlite::Result<()> {
        match self {
            Tx::Top(tx) => tx.commit(),
            Tx::Nested(sp) => sp.commit(),
        }
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
    pub(super) fn write(&mut self) -> rusqlite::Result<Tx<'_>> {
        match self.conn.is_autocommit() {
            true => Ok(Tx::Top(
                self.conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)?,
            )),
            false => Ok(Tx::Nested(self.conn.savepoint()?)),
        }
    }

    /// Opens a transaction around the store calls that follow, until [`Store::commit`] or
    /// [`Store::rollback`] of the level it returns: the outermost, or a savepoint inside one
    /// already open.
    pub fn begin(&mut self) -> Result<Level, StoreError> {
        let level = match self.conn.is_autocommit() {
            true => Level::Top,
            false => Level::Nested,
        };
        self.conn.execute_batch(match level {
            Level::Top => "BEGIN IMMEDIATE",
            Level::Nested => "SAVEPOINT atomically",
        })?;
        Ok(level)
    }

    /// Commits what [`Store::begin`] opened (a savepoint into the transaction around it).
    pub fn commit(&mut self, level: Level) -> Result<(), StoreError> {
        Ok(self.conn.execute_batch(match level {
            Level::Top => "COMMIT",
            Level::Nested => "RELEASE atomically",
        })?)
    }

    /// Undoes everything since [`Store::begin`] at `level`.
    pub fn rollback(&mut self, level: Level) -> Result<(), StoreError> {
        if self.conn.is_autocommit() {
            return Ok(());
        }
        Ok(self.conn.execute_batch(match level {
            Level::Top => "ROLLBACK",
            Level::Nested => "ROLLBACK TO atomically; RELEASE atomically",
        })?)
    }

    /// A transaction is open ([`Store::begin`]).
    pub fn in_transaction(&self) -> bool {
        !self.conn.is_autocommit()
    }
}
