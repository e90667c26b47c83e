//! What the bot serves over HTTP beside Discord: `/metrics` for an operator's Prometheus
//! ([`metrics`]) and the public league pages ([`site`]), both through one hardened server
//! ([`http`]). Reads only, on the table's read-only twins; nothing here can change a match.

pub mod alone;
pub mod http;
pub mod metrics;
pub mod paths;
pub mod site;
