//! The store's tests, a file a subject: matches, players and leagues on a real SQLite file
//! (`basics`), the outbox (`outbox`) and the two engines' schemas (`schema`). `challenges.rs` and `settings.rs` here are the tests
//! of those two modules, which include them (`#[path]`) to reach their private items.

use super::*;

mod basics;
mod outbox;
mod schema;
