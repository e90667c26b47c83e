//! The bot's configuration, from the environment or a `.env` file beside it.

use std::path::PathBuf;

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
            .field("token", &REDACTED)
            .field("database_path", &self.database_path)
            .field("dev_guild", &self.dev_guild)
            .field("chat", &self.chat)
            .field("api_url", &self.api_url)
            .field("api_ca", &self.api_ca)
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
