//! The Discord adapter: poise slash commands, buttons and gateway events over the table
//! service. Thin: parse, call the table (on its own thread, through [`TableHandle`]), answer.

// The adapter in floors. A file uses only its own floor and the floors below it; commands and
// events never use each other, and no file but the list in `commands/mod.rs` names a command
// group (tests.rs checks all three, and that no files use each other in a circle):
//   startup.rs          the framework and the client, on top
//   commands/, events/  one file per command group; one per kind of gateway event
//   shared/             lookups, answers, long lists and the senders of what the bot owes
//   format/             builders of text: messages, mentions, limits, custom ids, pages, logs
//   config.rs, mod.rs   the configuration, and the types every floor uses
mod commands;
mod config;
mod events;
mod format;
mod shared;
mod startup;

pub use commands::commands;
pub use config::{BotConfig, ChatMode, ConfigError, DEFAULT_DATABASE, Shards};
pub use format::ids::ButtonAction;
pub use format::{invite, limits, logs, menu, pages, pings, plain};
pub use shared::{acknowledge, rest};
pub use startup::{Framework, client, framework, intents, open_table, run, start, start_shards};

use crate::table::{Reads, TableHandle};

pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What every command can reach. Everything lasting (matches, open challenges) is in the
/// store, behind the table.
#[derive(Clone)]
pub struct Data {
    pub table: TableHandle,
    /// Which messages in match threads are read as moves.
    pub chat: ChatMode,
    /// Reads off the table's thread, for answers that only read (see [`Reads`]).
    pub reads: Reads,
    /// Where the public web pages are reached (PUBLIC_URL), for the links the bot posts; None
    /// when no pages are served.
    pub public_url: Option<String>,
}

impl Data {
    pub fn new(table: TableHandle, chat: ChatMode) -> Self {
        Data {
            reads: Reads::through(table.clone()),
            table,
            chat,
            public_url: None,
        }
    }
}

#[cfg(test)]
mod tests;
