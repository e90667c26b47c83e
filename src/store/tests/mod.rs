//! The store's tests, a file a subject: matches, players and leagues on a real SQLite file
//! (`basics`) and the outbox (`outbox`). `challenges.rs` and `settings.rs` here are the tests
//! of those two modules, which include them (`#[path]`) to reach their private items.

use super::*;

mod basics;
mod outbox;
