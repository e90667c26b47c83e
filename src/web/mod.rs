//! What the bot serves over HTTP beside Discord: `/metrics` for an operator's Prometheus
//! ([`metrics`]). Reads only, on the table's read-only twins; nothing here can change a match.

pub mod metrics;
