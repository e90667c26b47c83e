//! `/metrics` in Prometheus' text format (METRICS_ADDR): the outbox's depth and age, how late
//! the deadlines run, and the active matches, read off the table's thread at each scrape.
//! An operator alerts on a growing outbox (Discord refusing or unreachable) or a growing
//! deadline lag (the scheduler behind or stopped).

use super::http::Limits;
use crate::store::Health;
use crate::table::{Reads, TableHandle};
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::fmt::Write;
use std::sync::Arc;
use std::time::Duration;

/// The content type Prometheus expects of the text format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The gauges as Prometheus' text format, at `now` (seconds since 1970).
pub fn text(health: &Health, now: i64) -> String {
    let age = |at: Option<i64>| at.map_or(0, |at| (now - at).max(0));
    let gauges: [(&str, &str, i64); 7] = [
        (
            "deckmate_outbox_pending",
            "Posts owed to Discord and not yet sent, retries included.",
            health.posts_pending as i64,
        ),
        (
            "deckmate_outbox_due",
            "Pending posts whose time to be sent has come.",
            health.posts_due as i64,
        ),
        (
            "deckmate_outbox_oldest_seconds",
            "Age of the oldest pending post (0 when none).",
            age(health.oldest_post),
        ),
        (
            "deckmate_outbox_failed",
            "Posts Discord refused for good (a missing permission, a deleted channel), ever.",
            health.posts_failed as i64,
        ),
        (
            "deckmate_deadlines_due",
            "Deadlines (clocks, reminders, expiries) due and not yet fired.",
            health.deadlines_due as i64,
        ),
        (
            "deckmate_deadline_lag_seconds",
            "How long the earliest due deadline has waited to fire (0 when none).",
            age(health.earliest_due),
        ),
        (
            "deckmate_matches_active",
            "Matches being played.",
            health.matches_active as i64,
        ),
    ];
    let mut out = String::new();
    for (name, help, value) in gauges {
        let _ = writeln!(
            out,
            "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}"
        );
    }
    out
}

/// The router: `/metrics`, and nothing else.
pub fn router(reads: Reads) -> Router {
    let scraper = Arc::new(Scraper {
        reads,
        last: tokio::sync::Mutex::new(None),
    });
    Router::new()
        .route("/metrics", get(scrape))
        .with_state(scraper)
}

/// The gauges' source, and the text of the last scrape: scrapes within [`FRESH`] of it get the
/// same text, and scrapes that come together wait for one read, so no number of requests makes
/// more than one read a second.
struct Scraper {
    reads: Reads,
    last: tokio::sync::Mutex<Option<(std::time::Instant, String)>>,
}

/// How long a scrape's text is served again.
const FRESH: Duration = Duration::from_secs(1);

async fn scrape(State(scraper): State<Arc<Scraper>>) -> Response {
    let mut last = scraper.last.lock().await;
    if let Some((at, body)) = last.as_ref()
        && at.elapsed() < FRESH
    {
        return ([(header::CONTENT_TYPE, CONTENT_TYPE)], body.clone()).into_response();
    }
    let read = scraper
        .reads
        .read(|t| {
            let now = t.now();
            t.store().health(now).map(|h| (h, now))
        })
        .await;
    let unavailable = |why: &'static str| (StatusCode::SERVICE_UNAVAILABLE, why).into_response();
    match read {
        Ok(Ok((health, now))) => {
            let body = text(&health, now);
            *last = Some((std::time::Instant::now(), body.clone()));
            ([(header::CONTENT_TYPE, CONTENT_TYPE)], body).into_response()
        }
        Ok(Err(e)) => {
            tracing::error!(error = %e, "the metrics could not be read");
            unavailable("the database could not be read\n")
        }
        Err(e) => {
            tracing::error!(error = %e, "the metrics could not be read");
            unavailable("the table is not answering\n")
        }
    }
}

/// Serves `/metrics` at `address` from now until the process ends, reading on a twin of
/// `table` of its own; an error when the address cannot be had (taken, or not this host's).
pub async fn start(address: std::net::SocketAddr, table: TableHandle) -> Result<(), MetricsError> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|source| MetricsError { address, source })?;
    tracing::info!(%address, "serving /metrics");
    tokio::spawn(serve(listener, Reads::of(table, 1).await));
    Ok(())
}

/// Why `/metrics` could not be served.
#[derive(Debug, thiserror::Error)]
#[error("METRICS_ADDR {address} cannot be served: {source}")]
pub struct MetricsError {
    address: std::net::SocketAddr,
    source: std::io::Error,
}

/// A scraper is a program on a trusted network, but nothing it (or anyone reaching the port)
/// does may hurt the bot.
const LIMITS: Limits = Limits {
    connections: 16,
    head_time: Duration::from_secs(5),
    connection_time: Duration::from_secs(15),
    head_bytes: 8192,
    per_client: 4,
};

/// Serves `/metrics` on `listener` until the process ends (see [`LIMITS`]).
pub async fn serve(listener: tokio::net::TcpListener, reads: Reads) {
    super::http::serve(listener, router(reads), LIMITS).await
}

#[cfg(test)]
mod tests;
