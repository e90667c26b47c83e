//! Start-up that fails, fails: registering the commands with Discord, or the first look at
//! the table's deadlines before the scheduler starts, failing stops the client, and
//! [`start`] returns why, so the process exits non-zero with the reason instead of staying
//! online answering nothing.

use super::{ChatMode, Data, Error, autocomplete, logs, scheduler};
use crate::table::TableHandle;
use poise::serenity_prelude as serenity;

/// Why the bot could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("the commands could not be registered with Discord: {0}")]
    Registration(String),
    #[error("the scheduler could not start: the table could not read its deadlines: {0}")]
    Scheduler(String),
}

/// Where a failed start-up leaves its reason for [`start`] (the client's shared data).
struct Failed;

impl serenity::prelude::TypeMapKey for Failed {
    type Value = String;
}

/// Runs `client` until it stops; an error when it stopped because start-up failed.
pub async fn start(client: &mut serenity::Client) -> Result<(), Error> {
    client.start().await?;
    match client.data.read().await.get::<Failed>() {
        Some(reason) => Err(format!("start-up failed: {reason}").into()),
        None => Ok(()),
    }
}

/// The framework's setup: registers the commands (in `dev_guild` only, when given), checks the
/// table answers and starts the scheduler. On failure, the reason is kept for [`start`] and
/// every shard is stopped.
pub(super) async fn setup(
    ctx: &serenity::Context,
    framework: &poise::Framework<Data, Error>,
    table: TableHandle,
    dev_guild: Option<u64>,
    chat: ChatMode,
) -> Result<Data, Error> {
    match set_up(ctx, framework, &table, dev_guild).await {
        Ok(()) => {}
        Err(e) => {
            let reason = e.to_string();
            tracing::error!(error = %reason, "the bot could not start; it stops");
            ctx.data.write().await.insert::<Failed>(reason);
            // Stopped from a task of its own: this setup runs inside a shard's dispatch.
            let shards = framework.shard_manager().clone();
            tokio::spawn(async move { shards.shutdown_all().await });
            return Err(e.into());
        }
    }
    // Deadlines (clocks, reminders, Memory's reveal) fire from here on, those that fell due
    // while the bot was down first.
    scheduler::spawn(table.clone(), ctx.http.clone());
    let reader = table
        .call_quietly(|t| autocomplete::reader(t.store()))
        .await
        .ok()
        .flatten();
    let mut data = Data::new(table, chat);
    data.reader = reader;
    Ok(data)
}

async fn set_up(
    ctx: &serenity::Context,
    framework: &poise::Framework<Data, Error>,
    table: &TableHandle,
    dev_guild: Option<u64>,
) -> Result<(), StartupError> {
    let commands = &framework.options().commands;
    let registered = match dev_guild {
        Some(guild) => {
            poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(guild)).await
        }
        None => poise::builtins::register_globally(ctx, commands).await,
    };
    registered.map_err(|e| StartupError::Registration(logs::chain(&e)))?;
    match table.call_quietly(|t| t.next_deadline()).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(StartupError::Scheduler(logs::chain(&e))),
        Err(e) => Err(StartupError::Scheduler(logs::chain(&e))),
    }
}
