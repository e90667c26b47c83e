//! serenity's REST client (`Http`) with its rate limiter on, for Discord itself or for another
//! server that speaks Discord's API (`DISCORD_API_URL`, such as the tests' fake Discord).
//!
//! serenity 0.12's rate limiter builds every request from Discord's own address
//! (`https://discord.com/api/v10/…`): it ignores `HttpBuilder::proxy`, which only the unlimited
//! path honours. With the limiter on, a proxied address was never used and every request went
//! to discord.com (unreachable from a test, so every request failed). So instead of a proxy, the
//! client resolves discord.com to the other server's address: requests keep Discord's URL and
//! TLS, and land on that server, which must present a certificate valid for discord.com that
//! the bot trusts (`DISCORD_API_CA` names a PEM file of one more certificate authority to
//! trust, as the tests do for their fake's own). The limiter then reads that server's
//! `X-RateLimit-*` headers and waits out its 429s as it does Discord's.

use crate::discord::config::BotConfig;
use crate::discord::format::pings;
use poise::serenity_prelude as serenity;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Discord's API host, as serenity writes it into every request.
pub const DISCORD_HOST: &str = "discord.com";

#[derive(Debug, Error)]
pub enum RestError {
    #[error("DISCORD_API_URL {0:?} names no host")]
    NoHost(String),
    #[error("DISCORD_API_URL {url:?} is not an address: {reason}")]
    BadUrl { url: String, reason: String },
    #[error("the host of DISCORD_API_URL {url:?} could not be resolved: {source}")]
    Resolve { url: String, source: std::io::Error },
    #[error("DISCORD_API_CA {path:?} could not be read: {source}")]
    ReadCa {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("DISCORD_API_CA {path:?} is not a PEM certificate: {source}")]
    BadCa {
        path: PathBuf,
        source: reqwest::Error,
    },
    #[error("the HTTP client could not be built: {0}")]
    Client(#[from] reqwest::Error),
}

/// The REST client `config` asks for, serenity's rate limiter on.
pub async fn http(config: &BotConfig) -> Result<serenity::Http, RestError> {
    let mut builder =
        serenity::HttpBuilder::new(&config.token).default_allowed_mentions(pings::nobody());
    if let Some(url) = &config.api_url {
        builder = builder.client(client_for(url, config.api_ca.as_deref()).await?);
    }
    Ok(builder.build())
}

/// A client whose requests to discord.com go to the server at `url`, trusting `ca` too.
async fn client_for(url: &str, ca: Option<&Path>) -> Result<reqwest::Client, RestError> {
    let parsed = reqwest::Url::parse(url).map_err(|e| RestError::BadUrl {
        url: url.to_string(),
        reason: e.to_string(),
    })?;
    let host = parsed
        .host_str()
        .ok_or_else(|| RestError::NoHost(url.to_string()))?;
    let port = parsed.port_or_known_default().unwrap_or(443);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(|source| RestError::Resolve {
            url: url.to_string(),
            source,
        })?
        .collect();
    let mut client = reqwest::Client::builder()
        .use_rustls_tls()
        .resolve_to_addrs(DISCORD_HOST, &addrs);
    if let Some(path) = ca {
        let pem = std::fs::read(path).map_err(|source| RestError::ReadCa {
            path: path.to_path_buf(),
            source,
        })?;
        let cert = reqwest::Certificate::from_pem(&pem).map_err(|source| RestError::BadCa {
            path: path.to_path_buf(),
            source,
        })?;
        client = client.add_root_certificate(cert);
    }
    Ok(client.build()?)
}
