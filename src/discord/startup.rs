//! The framework and the client, and start-up that fails, fails: registering the commands with
//! Discord, or the first look at the table's deadlines before the scheduler starts, failing
//! stops the client, and [`start`] returns why, so the process exits non-zero with the reason
//! instead of staying online answering nothing. Errors no command handled end here
//! ([`on_error`]): logged, and the caller told in short.

use crate::discord::commands::commands;
use crate::discord::config::{BotConfig, ChatMode, Shards};
use crate::discord::events::{buttons, catch_up, chat, world};
use crate::discord::format::logs::{chain, failed, redact};
use crate::discord::format::plain::plain;
use crate::discord::format::{logs, pings};
use crate::discord::shared::lookups::{ephemeral, match_here};
use crate::discord::shared::misread::{self, Misread};
use crate::discord::shared::redelivery::Recent;
use crate::discord::shared::{acknowledge, rest, scheduler};
use crate::discord::{Data, Error};
use crate::store::Store;
use crate::table::thinking::{self, ThinkingConfig};
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
    start_shards(client, Shards::One).await
}

/// Runs `client`'s `shards` until they stop; an error when they stopped because start-up
/// failed.
pub async fn start_shards(client: &mut serenity::Client, shards: Shards) -> Result<(), Error> {
    match shards {
        Shards::One => client.start().await?,
        Shards::Auto => client.start_autosharded().await?,
        // serenity's range is inclusive of its end: `first..last` runs `first` to `last`.
        Shards::Range { first, last, total } => {
            client.start_shard_range(first..last, total).await?
        }
    }
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
    (chat, public_url): (ChatMode, Option<String>),
    (thinking, shards): (ThinkingConfig, Shards),
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
    let public: Option<std::sync::Arc<str>> = public_url.as_deref().map(Into::into);
    scheduler::spawn(table.clone(), ctx.http.clone(), public);
    // The computer takes its turns, those it owed when the bot stopped first.
    // The computer's turns in this process's servers only: another process takes the others.
    let serves: thinking::Serves = std::sync::Arc::new(move |guild| shards.serves(guild));
    thinking::spawn(table.clone(), thinking, serves);
    let mut data = Data::new(table.clone(), chat);
    data.public_url = public_url;
    data.reads = crate::table::Reads::of(table, crate::table::Reads::TWINS).await;
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
    // A reveal timer left waiting for a board the bot stopped before showing runs again.
    match table
        .call_quietly(|t| t.start_timers_waiting_for_boards())
        .await
    {
        Ok(Ok(started)) if !started.is_empty() => {
            tracing::info!(matches = ?started, "game timers that waited for a board shown before a stop run again");
        }
        Ok(Err(e)) => return Err(StartupError::Scheduler(logs::chain(&e))),
        _ => {}
    }
    match table.call_quietly(|t| t.next_deadline()).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(StartupError::Scheduler(logs::chain(&e))),
        Err(e) => Err(StartupError::Scheduler(logs::chain(&e))),
    }
}

/// The bot's framework: poise's, behind a filter that drops an interaction Discord delivered
/// again (see [`crate::discord::shared::redelivery`]) before poise or the button handler sees
/// it, so that nothing answers it a second time.
pub struct Framework {
    poise: poise::Framework<Data, Error>,
    taken: Recent,
}

#[serenity::async_trait]
impl serenity::Framework for Framework {
    async fn init(&mut self, client: &serenity::Client) {
        self.poise.init(client).await;
    }

    async fn dispatch(&self, ctx: serenity::Context, event: serenity::FullEvent) {
        if let serenity::FullEvent::InteractionCreate { interaction } = &event
            && !self.taken.first_time(interaction.id().get())
        {
            tracing::debug!(
                interaction = %interaction.id(),
                kind = ?interaction.kind(),
                "an interaction delivered again was dropped; it was taken already"
            );
            return;
        }
        self.poise.dispatch(ctx, event).await;
    }
}

/// Builds the framework with every command and the button handler. `ready` is told once
/// commands are registered and the bot can take interactions.
pub fn framework(
    table: TableHandle,
    dev_guild: Option<u64>,
    chat: (ChatMode, Option<String>),
    thinking: (ThinkingConfig, Shards),
    ready: Option<tokio::sync::oneshot::Sender<()>>,
) -> Framework {
    Framework {
        poise: poise_framework(table, dev_guild, chat, thinking, ready),
        taken: Recent::default(),
    }
}

fn poise_framework(
    table: TableHandle,
    dev_guild: Option<u64>,
    chat: (ChatMode, Option<String>),
    thinking: (ThinkingConfig, Shards),
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
            // Options that cannot be read stop a command before it is acknowledged.
            command_check: Some(|ctx| Box::pin(misread::check(ctx))),
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
                        serenity::FullEvent::Ready { data_about_bot } => {
                            catch_up::spawn(ctx, data, catch_up::Shard::of(data_about_bot));
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
                let data = setup(ctx, framework, table, dev_guild, chat, thinking).await?;
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

/// Opens the store `config` names and starts the table's thread on it.
pub fn open_table(config: &BotConfig) -> Result<TableHandle, Error> {
    let store = match &config.database_url {
        Some(url) => Store::open_postgres(url)?,
        None => Store::open(&config.database_path)?,
    };
    tracing::info!(engine = ?store.engine(), shards = ?config.shards, "the store is open");
    Ok(TableHandle::spawn(Table::new(store)))
}

/// Runs the bot on `table` until the process is stopped; an error when it could not start.
pub async fn run(config: BotConfig, table: TableHandle) -> Result<(), Error> {
    let mut client = client(&config, table, None).await?;
    start_shards(&mut client, config.shards).await
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
    let thinking = (config.thinking, config.shards);
    let answers = (config.chat, config.public_url.clone());
    let framework = framework(table, config.dev_guild, answers, thinking, ready);
    Ok(
        serenity::ClientBuilder::new_with_http(http, intents(config.chat))
            .framework(framework)
            .await?,
    )
}

/// Logs a failed command with its match (when it runs in a match thread) and every cause, and
/// tells its caller in short; the framework's other errors are logged the same way. Whatever
/// stops a command before or while it runs (an option that cannot be read, a check, a
/// permission, the wrong kind of channel) is told to its caller only, with why.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    use poise::FrameworkError as E;
    match error {
        E::Command { error, ctx, .. } => {
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
        E::Setup { error, .. } => {
            tracing::error!(error = %chain(&*error), "the bot could not start");
        }
        E::EventHandler { error, event, .. } => {
            tracing::error!(
                event = event.snake_case_name(),
                error = %chain(&*error),
                "an event could not be handled"
            );
        }
        E::ArgumentParse { ctx, error, .. } => {
            let text = misread::misread(ctx).unwrap_or_else(|| {
                format!(
                    "Could not read the options of /{}: {}. Nothing was done.",
                    ctx.command().qualified_name,
                    plain(&logs::chain(&*error))
                )
            });
            stopped(ctx, "its options could not be read", text).await;
        }
        E::CommandStructureMismatch {
            ctx, description, ..
        } => {
            let ctx = poise::Context::Application(ctx);
            let text = misread::misread(ctx).unwrap_or_else(|| {
                format!(
                    "Could not read the options of /{} ({description}): Discord may still \
                     show an older version of the command; try again in a minute. Nothing was \
                     done.",
                    ctx.command().qualified_name
                )
            });
            stopped(ctx, "its options could not be read", text).await;
        }
        E::CommandCheckFailed { ctx, error, .. } => {
            let text = match &error {
                Some(e) if e.downcast_ref::<Misread>().is_some() => e.to_string(),
                Some(e) => {
                    tracing::error!(error = %chain(&**e), "a command check failed");
                    "This command could not be checked; nothing was done. Try again later."
                        .to_string()
                }
                None => format!("You cannot use /{} here.", ctx.command().qualified_name),
            };
            stopped(ctx, "a check refused it", text).await;
        }
        E::CooldownHit {
            remaining_cooldown,
            ctx,
            ..
        } => {
            let text = format!(
                "Wait {} more second(s) before using /{} again.",
                remaining_cooldown.as_secs().max(1),
                ctx.command().qualified_name
            );
            stopped(ctx, "its cooldown", text).await;
        }
        E::MissingBotPermissions {
            missing_permissions,
            ctx,
            ..
        } => {
            let text = format!(
                "The bot lacks a permission this command needs here: {missing_permissions}. \
                 Ask a server admin to grant it."
            );
            stopped(ctx, "the bot lacks permissions", text).await;
        }
        E::MissingUserPermissions {
            missing_permissions,
            ctx,
            ..
        } => {
            let text = match missing_permissions {
                Some(missing) => format!(
                    "You need the {missing} permission to use /{}.",
                    ctx.command().qualified_name
                ),
                None => format!(
                    "Your permissions could not be checked, so /{} did not run. Try again.",
                    ctx.command().qualified_name
                ),
            };
            stopped(ctx, "the caller lacks permissions", text).await;
        }
        E::PermissionFetchFailed { ctx, .. } => {
            let text = "Discord did not say which permissions apply here, so nothing was done. \
                        Try again.";
            stopped(ctx, "permissions could not be read", text.into()).await;
        }
        E::NotAnOwner { ctx, .. } => {
            let text = format!(
                "Only the bot's owners may use /{}.",
                ctx.command().qualified_name
            );
            stopped(ctx, "not an owner", text).await;
        }
        E::GuildOnly { ctx, .. } => {
            let text = format!(
                "/{} is used in a server's channel, not in direct messages.",
                ctx.command().qualified_name
            );
            stopped(ctx, "a server-only command outside a server", text).await;
        }
        E::DmOnly { ctx, .. } => {
            let text = format!(
                "/{} is used in direct messages with the bot.",
                ctx.command().qualified_name
            );
            stopped(ctx, "a DM-only command outside DMs", text).await;
        }
        E::NsfwOnly { ctx, .. } => {
            let text = format!(
                "/{} is used only in age-restricted channels.",
                ctx.command().qualified_name
            );
            stopped(ctx, "an age-restricted command", text).await;
        }
        E::SubcommandRequired { ctx, .. } => {
            let names: Vec<String> = ctx
                .command()
                .subcommands
                .iter()
                .map(|s| format!("/{} {}", ctx.command().qualified_name, s.name))
                .collect();
            let text = format!("Choose one of: {}.", names.join(", "));
            stopped(ctx, "no subcommand", text).await;
        }
        E::CommandPanic { ctx, .. } => {
            // The panic itself was printed by the panic hook; its text may hold anything.
            tracing::error!(
                user = %ctx.author().id,
                request = %redact(&ctx.invocation_string(), &[]),
                "a command panicked"
            );
            let text = "Something went wrong on the bot's side; nothing more was done. The \
                        error was logged.";
            if let Err(e) = ephemeral(ctx, text).await {
                tracing::debug!(error = %chain(&*e), "the failure could not be told");
            }
        }
        E::UnknownInteraction {
            interaction,
            framework,
            ..
        } => {
            tracing::warn!(
                command = %plain(&interaction.data.name),
                "an unknown command was used; Discord may show commands of an older version"
            );
            let text = "This bot does not know that command (Discord may still show an older \
                        list of commands). Try again in a minute.";
            let answer = serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(text)
                    .ephemeral(true),
            );
            if let Err(e) = interaction
                .create_response(framework.serenity_context, answer)
                .await
            {
                tracing::debug!(error = %chain(&e), "the failure could not be told");
            }
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %chain(&e), "an error could not be answered");
            }
        }
    }
}

/// A command stopped before or while it ran, for `why` (logged at debug): its caller is told
/// `text` privately, also after a public acknowledgement.
async fn stopped(ctx: crate::discord::Context<'_>, why: &str, text: String) {
    tracing::debug!(
        user = %ctx.author().id,
        request = %redact(&ctx.invocation_string(), &[]),
        why,
        "a command was stopped"
    );
    if let Err(e) = ephemeral(ctx, text).await {
        tracing::debug!(error = %chain(&*e), "why a command was stopped could not be told");
    }
}
