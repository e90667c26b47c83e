//! Discord's deadlines for interactions, on in the fake as they are in Discord: an interaction
//! must be answered (a reply or a deferral) within three seconds of its creation, else its
//! callback is refused with 404 Unknown Interaction (10062); its webhook (edits, follow-ups,
//! deletions of its answers) lives fifteen minutes, then answers 404 Unknown Webhook (10015).
//! Each deadline can be changed or switched off per test ([`Deadlines::set_acknowledge`],
//! [`Deadlines::set_follow_ups`]): a test shrinks the fifteen minutes to see what the bot does
//! when an answer comes too late.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Discord's time to answer an interaction.
pub const ACKNOWLEDGE: Duration = Duration::from_secs(3);
/// How long an interaction's webhook takes edits and follow-ups.
pub const FOLLOW_UPS: Duration = Duration::from_secs(15 * 60);

struct Inner {
    /// When each interaction was first pushed, by id.
    pushed: HashMap<String, Instant>,
    acknowledge: Option<Duration>,
    follow_ups: Option<Duration>,
}

/// The interactions' clocks, shared by the fake's test side and its server.
#[derive(Clone)]
pub struct Deadlines(Arc<Mutex<Inner>>);

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines(Arc::new(Mutex::new(Inner {
            pushed: HashMap::new(),
            acknowledge: Some(ACKNOWLEDGE),
            follow_ups: Some(FOLLOW_UPS),
        })))
    }
}

impl Deadlines {
    /// The time to answer an interaction; None: no limit.
    pub fn set_acknowledge(&self, limit: Option<Duration>) {
        self.0.lock().unwrap().acknowledge = limit;
    }

    /// The life of an interaction's webhook; None: no limit.
    pub fn set_follow_ups(&self, limit: Option<Duration>) {
        self.0.lock().unwrap().follow_ups = limit;
    }

    /// Interaction `id` was created now (a redelivery keeps the first time: Discord's clock
    /// starts when the user acts).
    pub fn pushed(&self, id: &str) {
        let mut inner = self.0.lock().unwrap();
        inner
            .pushed
            .entry(id.to_string())
            .or_insert_with(Instant::now);
    }

    /// Discord's refusal of a request to an interaction's callback or webhook (`parts`: the
    /// path after /api/v10/) that comes after its deadline; None when it is in time, or is
    /// not such a request.
    pub fn late(&self, parts: &[&str]) -> Option<Response> {
        let inner = self.0.lock().unwrap();
        let (id, limit, message, code) = match parts {
            ["interactions", id, _, "callback"] => {
                (*id, inner.acknowledge?, "Unknown interaction", 10062)
            }
            ["webhooks", _, token, ..] => (
                token.trim_start_matches("token-"),
                inner.follow_ups?,
                "Unknown Webhook",
                10015,
            ),
            _ => return None,
        };
        let since = inner.pushed.get(id)?.elapsed();
        if since <= limit {
            return None;
        }
        eprintln!("the fake refuses {parts:?}: {since:?} after the interaction, over {limit:?}");
        let body = axum::Json(json!({"message": message, "code": code}));
        Some((StatusCode::NOT_FOUND, body).into_response())
    }
}
