//! The Discord adapter: poise slash commands and buttons over the table service. Thin: parse,
//! call the table (on its own thread, through [`TableHandle`]), reply.

pub mod acknowledge;
mod admin;
mod autocomplete;
mod buttons;
mod catch_up;
mod challenges;
pub mod chat;
mod commands;
mod direct;
mod dm_memory;
mod home;
pub mod invite;
mod league;
pub mod limits;
pub mod logs;
mod matches;
pub mod menu;
mod outbox;
pub mod pages;
mod pictures;
pub mod pings;
pub mod plain;
mod rematch;
mod reply;
pub mod rest;
mod rules;
mod scheduler;
mod settings;
mod startup;
mod threads;
mod turns;
mod vacation;
mod world;

pub use commands::commands;
pub use startup::start;

use crate::store::{ChallengeId, Store};
use crate::table::{Table, TableHandle};
pub use chat::ChatMode;
use poise::serenity_prelude as serenity;
use std::path::PathBuf;
use std::sync::Mutex;
use thiserror::Error;

pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What every command can reach. Everything lasting (matches, open challenges) is in the
/// store, behind the table.
pub struct Data {
    pub table: TableHandle,
    /// Which messages in match threads are read as moves.
    pub chat: ChatMode,
    /// A read-only table of its own for autocomplete (None for a store kept in memory).
    pub reader: Option<autocomplete::Reader>,
}

impl Data {
    pub fn new(table: TableHandle, chat: ChatMode) -> Self {
        Data {
            table,
            chat,
            reader: None,
        }
    }
}

/// How the bot is configured: from the environment, or a `.env` file beside it. Its `Debug`
/// never shows the token.
#[derive(Clone, PartialEq, Eq)]
pub struct BotConfig {
    pub token: String,
    pub database_path: PathBuf,
    /// Register commands in this one server only (instant, for development).
    pub dev_guild: Option<u64>,
    /// Read every message in match threads (the Message Content intent, enabled for the bot
    /// in Discord's developer portal); else only messages that mention the bot.
    pub chat: ChatMode,
    /// Another Discord-compatible server's address (a self-hosted Spacebar, a test's fake);
    /// None for Discord's own. The gateway address comes from that server.
    pub api_url: Option<String>,
    /// One more certificate authority to trust (a PEM file), for a server at `api_url` whose
    /// certificate for discord.com it signed (see [`rest`]).
    pub api_ca: Option<PathBuf>,
}

impl std::fmt::Debug for BotConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotConfig")
            .field("token", &logs::REDACTED)
            .field("database_path", &self.database_path)
            .field("dev_guild", &self.dev_guild)
            .field("chat", &self.chat)
            .field("api_url", &self.api_url)
            .field("api_ca", &self.api_ca)
            .finish()
    }
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error(
        "DISCORD_TOKEN is not set. Put your bot's token in the environment or in a .env file \
         (copy .env.example to .env and fill it in; README.md explains how to get a token). \
         To play without Discord, run: deckmate play chess --players alice,bob"
    )]
    MissingToken,
    #[error("DEV_GUILD_ID must be a server id (a number), not {0:?}")]
    BadGuild(String),
    #[error("MESSAGE_CONTENT is on or off, not {0:?}")]
    BadSwitch(String),
    #[error("DISCORD_API_URL must start with http:// or https://, not {0:?}")]
    BadUrl(String),
}

pub const DEFAULT_DATABASE: &str = "deckmate.db";

impl BotConfig {
    /// Reads DISCORD_TOKEN, DATABASE_PATH (default deckmate.db), DEV_GUILD_ID,
    /// MESSAGE_CONTENT (on: read every message in match threads), DISCORD_API_URL (another
    /// Discord-compatible server) and DISCORD_API_CA (a certificate authority it uses) through
    /// `var`.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<BotConfig, ConfigError> {
        let present = |name: &str| {
            var(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let token = present("DISCORD_TOKEN").ok_or(ConfigError::MissingToken)?;
        let database_path = present("DATABASE_PATH")
            .unwrap_or_else(|| DEFAULT_DATABASE.into())
            .into();
        let dev_guild = match present("DEV_GUILD_ID") {
            None => None,
            Some(text) => Some(text.parse().map_err(|_| ConfigError::BadGuild(text))?),
        };
        let chat = match present("MESSAGE_CONTENT").map(|v| v.to_ascii_lowercase()) {
            None => ChatMode::Mentions,
            Some(v) if ["on", "true", "yes", "1"].contains(&v.as_str()) => ChatMode::All,
            Some(v) if ["off", "false", "no", "0"].contains(&v.as_str()) => ChatMode::Mentions,
            Some(v) => return Err(ConfigError::BadSwitch(v)),
        };
        let api_url = match present("DISCORD_API_URL") {
            None => None,
            Some(url) if url.starts_with("http://") || url.starts_with("https://") => {
                Some(url.trim_end_matches('/').to_string())
            }
            Some(url) => return Err(ConfigError::BadUrl(url)),
        };
        let api_ca = present("DISCORD_API_CA").map(PathBuf::from);
        Ok(BotConfig {
            token,
            database_path,
            dev_guild,
            chat,
            api_url,
            api_ca,
        })
    }

    /// The process environment, after loading `.env` if there is one (never overriding).
    pub fn from_env() -> Result<BotConfig, ConfigError> {
        let _ = dotenvy::dotenv();
        Self::from_vars(|name| std::env::var(name).ok())
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
            on_error: |error| Box::pin(logs::on_error(error)),
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
                let data = startup::setup(ctx, framework, table, dev_guild, chat).await?;
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

/// What a button does, written into its custom id with the match and version it was made for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ButtonAction {
    AcceptChallenge(ChallengeId),
    DeclineChallenge(ChallengeId),
    /// A challenge's button from before challenges were stored (`dm:challenge:…`): its id may
    /// name a newer challenge, so it is never looked up.
    OldChallenge,
    AcceptDraw {
        match_id: i64,
        version: u64,
    },
    DeclineDraw {
        match_id: i64,
        version: u64,
    },
    /// Play this action (a button offering one of a few choices).
    Act {
        match_id: i64,
        version: u64,
        text: String,
    },
    /// Play this action although it loses on the spot (the answer to a warning).
    Confirm {
        match_id: i64,
        version: u64,
        text: String,
    },
    /// Play the action picked in this menu (the choice comes with the interaction), or open the
    /// group picked.
    Choose {
        match_id: i64,
        version: u64,
    },
    /// Show the presser their own choices, privately.
    Mine {
        match_id: i64,
    },
    /// Claim the win over an opponent out of time (a match played with on_time=claim).
    ClaimWin {
        match_id: i64,
    },
    /// Wait for an opponent out of time instead of claiming the win now.
    WaitOnTime {
        match_id: i64,
    },
    /// Challenge the same players to the same game again, the seats turned round.
    Rematch {
        match_id: i64,
    },
}

impl ButtonAction {
    /// The match the button belongs to (none for a challenge, which has no match yet).
    pub fn match_id(&self) -> Option<i64> {
        match self {
            ButtonAction::AcceptChallenge(_)
            | ButtonAction::DeclineChallenge(_)
            | ButtonAction::OldChallenge => None,
            ButtonAction::AcceptDraw { match_id, .. }
            | ButtonAction::DeclineDraw { match_id, .. }
            | ButtonAction::Act { match_id, .. }
            | ButtonAction::Confirm { match_id, .. }
            | ButtonAction::Choose { match_id, .. }
            | ButtonAction::Mine { match_id }
            | ButtonAction::ClaimWin { match_id }
            | ButtonAction::WaitOnTime { match_id }
            | ButtonAction::Rematch { match_id } => Some(*match_id),
        }
    }

    pub fn custom_id(&self) -> String {
        match self {
            ButtonAction::AcceptChallenge(id) => format!("dm:chal:{id}:accept"),
            ButtonAction::DeclineChallenge(id) => format!("dm:chal:{id}:decline"),
            ButtonAction::OldChallenge => "dm:challenge:old".into(),
            ButtonAction::AcceptDraw { match_id, version } => {
                format!("dm:draw:{match_id}:{version}:accept")
            }
            ButtonAction::DeclineDraw { match_id, version } => {
                format!("dm:draw:{match_id}:{version}:decline")
            }
            ButtonAction::Act {
                match_id,
                version,
                text,
            } => format!("dm:act:{match_id}:{version}:{text}"),
            ButtonAction::Confirm {
                match_id,
                version,
                text,
            } => format!("dm:sure:{match_id}:{version}:{text}"),
            ButtonAction::Choose { match_id, version } => {
                format!("dm:choose:{match_id}:{version}")
            }
            ButtonAction::Mine { match_id } => format!("dm:mine:{match_id}"),
            ButtonAction::ClaimWin { match_id } => format!("dm:claim:{match_id}"),
            ButtonAction::WaitOnTime { match_id } => format!("dm:wait:{match_id}"),
            ButtonAction::Rematch { match_id } => format!("dm:again:{match_id}"),
        }
    }

    pub fn parse(custom_id: &str) -> Option<ButtonAction> {
        for (prefix, confirm) in [("dm:act:", false), ("dm:sure:", true)] {
            let Some(rest) = custom_id.strip_prefix(prefix) else {
                continue;
            };
            let mut parts = rest.splitn(3, ':');
            let match_id = parts.next()?.parse().ok()?;
            let version = parts.next()?.parse().ok()?;
            let text = parts.next().filter(|t| !t.is_empty())?.to_string();
            return Some(if confirm {
                ButtonAction::Confirm {
                    match_id,
                    version,
                    text,
                }
            } else {
                ButtonAction::Act {
                    match_id,
                    version,
                    text,
                }
            });
        }
        let parts: Vec<&str> = custom_id.split(':').collect();
        match parts.as_slice() {
            ["dm", "chal", id, "accept"] => Some(ButtonAction::AcceptChallenge(id.parse().ok()?)),
            ["dm", "chal", id, "decline"] => Some(ButtonAction::DeclineChallenge(id.parse().ok()?)),
            ["dm", "challenge", ..] => Some(ButtonAction::OldChallenge),
            ["dm", "mine", m] => Some(ButtonAction::Mine {
                match_id: m.parse().ok()?,
            }),
            ["dm", "claim", m] => Some(ButtonAction::ClaimWin {
                match_id: m.parse().ok()?,
            }),
            ["dm", "wait", m] => Some(ButtonAction::WaitOnTime {
                match_id: m.parse().ok()?,
            }),
            ["dm", "again", m] => Some(ButtonAction::Rematch {
                match_id: m.parse().ok()?,
            }),
            ["dm", "choose", m, v] => Some(ButtonAction::Choose {
                match_id: m.parse().ok()?,
                version: v.parse().ok()?,
            }),
            ["dm", "draw", m, v, answer] => {
                let (match_id, version) = (m.parse().ok()?, v.parse().ok()?);
                match *answer {
                    "accept" => Some(ButtonAction::AcceptDraw { match_id, version }),
                    "decline" => Some(ButtonAction::DeclineDraw { match_id, version }),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
