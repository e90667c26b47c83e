//! The store's tests, a file a subject: matches, players and leagues on a real SQLite file
//! (`basics`) and the outbox (`outbox`).

use super::*;

mod basics;
mod outbox;
