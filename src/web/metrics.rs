//! `/metrics` in Prometheus' text format (METRICS_ADDR): the outbox's depth and age, how late
//! the deadlines run, and the active matches, read off the table's thread at each scrape.
//! An operator alerts on a growing outbox (Discord refusing or unreachable) or a growing
//! deadline lag (the scheduler behind or stopped).

use crate::store::Health;
use crate::table::{Reads, TableHandle};
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::fmt::Write;

/// The content type Prometheus expects of the text format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The gauges as Prometheus' text format, at `now` (seconds since 1970).
pub fn text(health: &Health, now: i64) -> String {
    let age = |at: Option<i64>| at.map_or(0, |at| (now - at).max(0));
    let gauges: [(&str, &str, i64); 6] = [
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
    Router::new()
        .route("/metrics", get(scrape))
        .with_state(reads)
}

async fn scrape(State(reads): State<Reads>) -> Response {
    let read = reads
        .read(|t| {
            let now = t.now();
            t.store().health(now).map(|h| (h, now))
        })
        .await;
    match read {
        Ok(Ok((health, now))) => {
            ([(header::CONTENT_TYPE, CONTENT_TYPE)], text(&health, now)).into_response()
        }
        Ok(Err(e)) => {
            tracing::error!(error = %e, "the metrics could not be read");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the database could not be read\n",
            )
                .into_response()
        }
        Err(e) => {
            tracing::error!(error = %e, "the metrics could not be read");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the table is not answering\n",
            )
                .into_response()
        }
    }
}

/// Serves `/metrics` at `address` from now until the process ends, reading on twins of
/// `table`; an error when the address cannot be had (taken, or not this host's).
pub async fn start(address: std::net::SocketAddr, table: TableHandle) -> Result<(), MetricsError> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|source| MetricsError { address, source })?;
    tracing::info!(%address, "serving /metrics");
    tokio::spawn(serve(listener, Reads::of(table).await));
    Ok(())
}

/// Why `/metrics` could not be served.
#[derive(Debug, thiserror::Error)]
#[error("METRICS_ADDR {address} cannot be served: {source}")]
pub struct MetricsError {
    address: std::net::SocketAddr,
    source: std::io::Error,
}

/// Serves `/metrics` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, reads: Reads) {
    if let Err(e) = axum::serve(listener, router(reads)).await {
        tracing::error!(error = %e, "the metrics server stopped");
    }
}

#[cfg(test)]
mod tests;
