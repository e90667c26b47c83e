//! The framework and the client, and start-up that fails, fails: registering the commands with
//! Discord, or the first look at the table's deadlines before the scheduler starts, failing
//! stops the client, and [`start`] returns why, so the process exits non-zero with the reason
//! instead of staying online answering nothing. Errors no command handled end here
//! ([`on_error`]): logged, and the caller told in short.

use crate::discord::commands::commands;
use crate::discord::config::{BotConfig, ChatMode};
use crate::discord::events::{buttons, catch_up, chat, world};
use crate::discord::format::logs::{chain, failed, redact};
use crate::discord::format::{logs, pings};
use crate::discord::shared::lookups::{ephemeral, match_here};
use crate::discord::shared::{acknowledge, autocomplete, rest, scheduler};
use crate::discord::{Data, Error};
use crate::store::Store;
use crate::table::{Table, TableHandle};
use poise::serenity_prelude as serenity;
use std::sync::Mutex;

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
pub(crate) async fn setup(
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

/// Builds the poise framework with every command and the button handler. `ready` is told once
/// commands are registered and the bot can take interactions.
pub fn framework(
    table: TableHandle,
    dev_guild: Option<u64>,
    chat: ChatMode,
    ready: Option<tokio::sync::oneshot::Sender<()>>,
) -> poise::Framework<Data, Error> {
    let ready = Mutex::new(ready);
    poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands(),
            initialize_owners: false,
            // Nobody is notified unless a message names whom it calls (see pings.rs).
            allowed_mentions: Some(pings::nobody()),
            on_error: |error| Box::pin(on_error(error)),
            pre_command: |ctx| Box::pin(acknowledge::pre_command(ctx)),
            event_handler: |framework, event| {
                Box::pin(async move {
                    let (ctx, data) = (framework.serenity_context, framework.user_data);
                    match event {
                        serenity::FullEvent::Message { new_message } => {
                            chat::on_message(ctx, new_message, data).await;
                            Ok(())
                        }
                        // At start-up, and after an INVALID_SESSION (serenity identifies
                        // again): the typed moves posted meanwhile.
                        serenity::FullEvent::Ready { .. } => {
                            catch_up::spawn(ctx, data);
                            Ok(())
                        }
                        serenity::FullEvent::GuildCreate { .. }
                        | serenity::FullEvent::GuildDelete { .. }
                        | serenity::FullEvent::ThreadDelete { .. }
                        | serenity::FullEvent::ChannelDelete { .. } => {
                            world::on_event(ctx, event, data).await;
                            Ok(())
                        }
                        _ => buttons::on_event(ctx, event, data).await,
                    }
                })
            },
            ..Default::default()
        })
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                let data = setup(ctx, framework, table, dev_guild, chat).await?;
                if let Some(tx) = ready.lock().expect("not poisoned").take() {
                    let _ = tx.send(());
                }
                Ok(data)
            })
        })
        .build()
}

/// The gateway intents the bot asks for: servers, and the messages of servers and DMs (their
/// text only with `ChatMode::All`, which needs the privileged Message Content intent).
pub fn intents(chat: ChatMode) -> serenity::GatewayIntents {
    let base = serenity::GatewayIntents::GUILDS
        | serenity::GatewayIntents::GUILD_MESSAGES
        | serenity::GatewayIntents::DIRECT_MESSAGES;
    match chat {
        ChatMode::All => base | serenity::GatewayIntents::MESSAGE_CONTENT,
        ChatMode::Mentions => base,
    }
}

/// Runs the bot until the process is stopped; an error when it could not start.
pub async fn run(config: BotConfig) -> Result<(), Error> {
    let store = Store::open(&config.database_path)?;
    let table = TableHandle::spawn(Table::new(store));
    let mut client = client(&config, table, None).await?;
    start(&mut client).await
}

/// The Discord client as `config` says, on `table`: its REST calls (and so the gateway
/// address it is given) go to `config.api_url` when set. `ready` is told once the bot can take
/// interactions.
pub async fn client(
    config: &BotConfig,
    table: TableHandle,
    ready: Option<tokio::sync::oneshot::Sender<()>>,
) -> Result<serenity::Client, Error> {
    // serenity's rate limiter is on, for another server too (see rest.rs).
    let http = rest::http(config).await?;
    let framework = framework(table, config.dev_guild, config.chat, ready);
    Ok(
        serenity::ClientBuilder::new_with_http(http, intents(config.chat))
            .framework(framework)
            .await?,
    )
}

/// Logs a failed command with its match (when it runs in a match thread) and every cause, and
/// tells its caller in short; the framework's other errors are logged the same way.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            let match_id = match_here(ctx.data(), ctx.channel_id())
                .await
                .ok()
                .flatten();
            let request = ctx.invocation_string();
            let Some(text) = failed(&request, ctx.author().id, match_id, &*error) else {
                return;
            };
            if let Err(e) = ephemeral(ctx, text).await {
                tracing::debug!(match_id, error = %chain(&*e), "the failure could not be told");
            }
        }
        poise::FrameworkError::Setup { error, .. } => {
            tracing::error!(error = %chain(&*error), "the bot could not start");
        }
        poise::FrameworkError::EventHandler { error, event, .. } => {
            tracing::error!(
                event = event.snake_case_name(),
                error = %chain(&*error),
                "an event could not be handled"
            );
        }
        other => {
            if let poise::FrameworkError::CommandPanic { ctx, .. } = &other {
                // The panic itself was printed by the panic hook; its text may hold anything.
                tracing::error!(
                    user = %ctx.author().id,
                    request = %redact(&ctx.invocation_string(), &[]),
                    "a command panicked"
                );
            }
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %chain(&e), "an error could not be answered");
            }
        }
    }
}
