//! The bot's configuration, from the environment or a `.env` file beside it.

use crate::table::thinking::ThinkingConfig;
use crate::web::http::address;
use std::path::PathBuf;

/// How the bot is configured: from the environment, or a `.env` file beside it. Its `Debug`
/// never shows the token.
#[derive(Clone, PartialEq, Eq)]
pub struct BotConfig {
    pub token: String,
    /// The SQLite file, unless `database_url` names a PostgreSQL server.
    pub database_path: PathBuf,
    /// A `postgres://` URL (DATABASE_URL): the bot runs on that server instead of the file.
    /// It may hold a password, so `Debug` shows it without one.
    pub database_url: Option<String>,
    /// Which of the bot's shards this process runs.
    pub shards: Shards,
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
    /// How the computer player thinks: its threads and the pause before its move.
    pub thinking: ThinkingConfig,
    /// Where to serve `/metrics` (METRICS_ADDR), if anywhere.
    pub metrics: Option<std::net::SocketAddr>,
    /// Where to serve the public web pages (WEB_ADDR), if anywhere.
    pub web: Option<std::net::SocketAddr>,
    /// The pages' address as people reach it (PUBLIC_URL), for the links the bot posts; None:
    /// no links.
    pub public_url: Option<String>,
}

impl std::fmt::Debug for BotConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotConfig")
            .field("token", &REDACTED)
            .field("database_path", &self.database_path)
            .field(
                "database_url",
                &self
                    .database_url
                    .as_deref()
                    .map(crate::store::db::redact_url),
            )
            .field("shards", &self.shards)
            .field("dev_guild", &self.dev_guild)
            .field("chat", &self.chat)
            .field("api_url", &self.api_url)
            .field("api_ca", &self.api_ca)
            .field("thinking", &self.thinking)
            .field("metrics", &self.metrics)
            .field("web", &self.web)
            .field("public_url", &self.public_url)
            .finish()
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
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
    #[error("{0} must be a whole number from {1} to {2}, not {3:?}")]
    BadNumber(&'static str, u64, u64, String),
    #[error("DATABASE_URL must be a postgres:// URL (use DATABASE_PATH for an SQLite file)")]
    BadDatabaseUrl,
    #[error("SHARDS is `auto`, one shard (`3`) or a range (`0-3`), not {0:?}")]
    BadShards(String),
    #[error("SHARDS {0} needs SHARD_TOTAL, the number of shards of all processes together")]
    NoShardTotal(String),
    #[error("SHARDS {shards} does not fit in SHARD_TOTAL {total} (shards are numbered from 0)")]
    ShardsOutside { shards: String, total: u32 },
    #[error("SHARD_TOTAL needs SHARDS, the shards this process runs")]
    TotalWithoutShards,
    #[error(
        "METRICS_ADDR is a port (9187, on 127.0.0.1) or an address and port (127.0.0.1:9187), not {0:?}"
    )]
    BadMetricsAddress(String),
    #[error(
        "WEB_ADDR is a port (8080, on 127.0.0.1) or an address and port (0.0.0.0:8080), not {0:?}"
    )]
    BadWebAddress(String),
    #[error("PUBLIC_URL must start with http:// or https://, not {0:?}")]
    BadPublicUrl(String),
}

/// Which shards one process runs: Discord splits the bot's servers among `total` shards, and
/// every process runs a range of them against the same database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shards {
    /// One shard, 0 of 1: a bot in up to 2,500 servers.
    One,
    /// As many as Discord recommends, all in this process.
    Auto,
    /// Shards `first..=last` of `total`.
    Range { first: u32, last: u32, total: u32 },
}

impl Shards {
    /// Whether this process runs the shard Discord routes server `guild`'s events to (its
    /// id's timestamp part modulo the number of shards, as Discord documents): the process
    /// does that server's background work (the computer's turns) too.
    pub fn serves(self, guild: &str) -> bool {
        match self {
            Shards::One | Shards::Auto => true,
            Shards::Range { first, last, total } => guild
                .parse::<u64>()
                .is_ok_and(|g| (first..=last).contains(&shard_of(g, total))),
        }
    }

    /// Reads SHARDS (`auto`, `3` or `0-3`) and SHARD_TOTAL.
    fn parse(shards: Option<String>, total: Option<String>) -> Result<Shards, ConfigError> {
        let Some(text) = shards else {
            return match total {
                Some(_) => Err(ConfigError::TotalWithoutShards),
                None => Ok(Shards::One),
            };
        };
        if text.eq_ignore_ascii_case("auto") {
            return Ok(Shards::Auto);
        }
        let bad = || ConfigError::BadShards(text.clone());
        let (first, last) = match text.split_once('-') {
            Some((a, b)) => (a.trim().parse::<u32>(), b.trim().parse::<u32>()),
            None => (text.parse::<u32>(), text.parse::<u32>()),
        };
        let (first, last) = (first.map_err(|_| bad())?, last.map_err(|_| bad())?);
        if first > last {
            return Err(bad());
        }
        let total = total.ok_or_else(|| ConfigError::NoShardTotal(text.clone()))?;
        let total = match total.parse::<u32>() {
            Ok(n) if (1..=100_000).contains(&n) => n,
            _ => return Err(ConfigError::BadNumber("SHARD_TOTAL", 1, 100_000, total)),
        };
        if last >= total {
            return Err(ConfigError::ShardsOutside {
                shards: text.clone(),
                total,
            });
        }
        Ok(Shards::Range { first, last, total })
    }
}

/// The shard of `total` Discord routes server `guild`'s events to: its id's timestamp part
/// modulo the number of shards, as Discord documents.
pub fn shard_of(guild: u64, total: u32) -> u32 {
    ((guild >> 22) % u64::from(total.max(1))) as u32
}

pub const DEFAULT_DATABASE: &str = "deckmate.db";

impl BotConfig {
    /// Reads DISCORD_TOKEN, DATABASE_PATH (default deckmate.db) or DATABASE_URL (a
    /// PostgreSQL server), SHARDS and SHARD_TOTAL (the shards this process runs), DEV_GUILD_ID,
    /// MESSAGE_CONTENT (on: read every message in match threads), DISCORD_API_URL (another
    /// Discord-compatible server), DISCORD_API_CA (a certificate authority it uses),
    /// COMPUTER_THREADS (threads the computer player thinks on; default: one fewer than the
    /// cores), COMPUTER_PAUSE_MS (the least time before its move; default 1500) and
    /// METRICS_ADDR (where to serve `/metrics`), WEB_ADDR (where to serve the public pages)
    /// and PUBLIC_URL (their address for links) through `var`.
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
        let database_url = match present("DATABASE_URL") {
            Some(url) if crate::store::is_postgres_url(&url) => Some(url),
            Some(_) => return Err(ConfigError::BadDatabaseUrl),
            None => None,
        };
        let shards = Shards::parse(present("SHARDS"), present("SHARD_TOTAL"))?;
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
        let number = |name: &'static str, low: u64, high: u64| match present(name) {
            None => Ok(None),
            Some(text) => match text.parse::<u64>() {
                Ok(n) if (low..=high).contains(&n) => Ok(Some(n)),
                _ => Err(ConfigError::BadNumber(name, low, high, text)),
            },
        };
        let mut thinking = ThinkingConfig::default();
        if let Some(threads) = number("COMPUTER_THREADS", 1, 64)? {
            thinking.threads = threads as usize;
        }
        if let Some(pause) = number("COMPUTER_PAUSE_MS", 0, 60_000)? {
            thinking.pause = std::time::Duration::from_millis(pause);
        }
        let metrics = match present("METRICS_ADDR") {
            None => None,
            Some(text) => {
                Some(address(&text).ok_or_else(|| ConfigError::BadMetricsAddress(text.clone()))?)
            }
        };
        let web = match present("WEB_ADDR") {
            None => None,
            Some(text) => {
                Some(address(&text).ok_or_else(|| ConfigError::BadWebAddress(text.clone()))?)
            }
        };
        let public_url = match present("PUBLIC_URL") {
            Some(url) if url.starts_with("http://") || url.starts_with("https://") => {
                Some(url.trim_end_matches('/').to_string())
            }
            Some(url) => return Err(ConfigError::BadPublicUrl(url)),
            // Not WEB_ADDR itself: it is often a loopback address behind a proxy, which
            // nobody on Discord could open.
            None => None,
        };
        Ok(BotConfig {
            metrics,
            web,
            public_url,
            token,
            database_path,
            database_url,
            shards,
            dev_guild,
            chat,
            api_url,
            api_ca,
            thinking,
        })
    }

    /// The process environment, after loading `.env` if there is one (never overriding).
    pub fn from_env() -> Result<BotConfig, ConfigError> {
        let _ = dotenvy::dotenv();
        Self::from_vars(|name| std::env::var(name).ok())
    }
}

/// Which messages in match threads the bot reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChatMode {
    /// Every message (needs the privileged Message Content intent).
    All,
    /// Only messages that mention the bot.
    #[default]
    Mentions,
}

/// What a removed secret is replaced with.
pub const REDACTED: &str = "[redacted]";
