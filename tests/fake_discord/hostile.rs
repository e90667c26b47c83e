//! Where the fake Discord pushes back as the real one does, each behaviour on by default and
//! switchable per test through [`Hostile`] (`fake.hostile`):
//!
//! - **Rate limits.** Every answer carries Discord's `X-RateLimit-*` headers for its route's
//!   bucket (a window of [`Hostile::bucket_limit`] requests a second per route and major
//!   parameter); a request over it is refused 429. On top of that, every
//!   [`Hostile::limit_every`]th request is refused 429 anyway (Discord's limits are not all
//!   announced), one in four of those as a global limit (`X-RateLimit-Global`, scope `global`;
//!   never on interaction endpoints, which Discord keeps out of the global limit). A 429's
//!   `Retry-After` is short ([`Hostile::retry_after_ms`]) so that tests stay quick; Discord's
//!   header is whole seconds, the fake's a fraction (serenity reads either).
//! - **Server errors** (off by default): every [`Hostile::error_every`]th request answers 502
//!   or 503, a 503 with a `Retry-After` (a 502 comes from a proxy that found no server, and
//!   says nothing). serenity does not retry those; the bot's answer to them depends on its
//!   outbox, so tests switch them on where the bot copes (the soak test does, at about 3%).
//!   Interaction callbacks and their webhooks are spared ([`Hostile::callbacks_spared`]):
//!   Discord gives no second chance to answer an interaction, so a lost answer is the user's
//!   "the application did not respond" whatever the bot does. Off by default: what the bot
//!   owes then waits for the outbox's backoff, which runs on the table's clock, and many
//!   tests simulate that clock and move it only on purpose; a test about time would wait
//!   forever for a post a random 5xx put back. The soak test turns them on, and
//!   [`Hostile::channel_outages`] and [`Hostile::threads_unavailable`] aim 503s at one
//!   channel or at thread creation, for the tests of what the outbox does with them.
//! - **Permissions.** A post, an upload, a thread, an archive or a reaction in a server's
//!   channel is checked against the bot's permissions there (a map per channel, every
//!   permission the bot needs by default; a thread has its parent's unless set), refused 403
//!   "Missing Permissions" (50013). Interactions carry the same bits as `app_permissions`.
//!   Answers to interactions (callbacks, edits, follow-ups) go through the interaction's
//!   webhook, which Discord lets an app use without the channel's permissions.
//! - **Closed DMs** fail at the send: opening the DM channel succeeds, posting in it is refused
//!   403 "Cannot send messages to this user" (50007).
//! - **Deleted messages and channels**: an edit of, a reaction to or a thread from a deleted
//!   message is refused 404 "Unknown Message" (10008); a reply to one 400 "Invalid Form Body"
//!   (50035) unless its `message_reference.fail_if_not_exists` is false (then it is posted
//!   without the reference); anything in a deleted channel or thread 404 "Unknown Channel"
//!   (10003).

use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Permission bits, as Discord numbers them.
pub mod bits {
    pub const ADD_REACTIONS: u64 = 1 << 6;
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    pub const SEND_MESSAGES: u64 = 1 << 11;
    pub const EMBED_LINKS: u64 = 1 << 14;
    pub const ATTACH_FILES: u64 = 1 << 15;
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    pub const MANAGE_THREADS: u64 = 1 << 34;
    pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
    /// Every permission the bot uses.
    pub const NEEDED: u64 = ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | MANAGE_THREADS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS;
}

/// Channel types, as Discord numbers them.
pub mod kinds {
    pub const GUILD_TEXT: u64 = 0;
    pub const DM: u64 = 1;
    pub const GUILD_VOICE: u64 = 2;
    pub const PUBLIC_THREAD: u64 = 11;
}

/// One rate-limit bucket's window.
struct Window {
    started: Instant,
    used: u64,
}

pub struct Hostile {
    /// 429s: the buckets' own, and every `limit_every`th request's (0: none).
    pub rate_limits: AtomicBool,
    pub limit_every: AtomicU64,
    /// Requests a bucket takes a second.
    pub bucket_limit: AtomicU64,
    pub retry_after_ms: AtomicU64,
    /// 502/503 on every `error_every`th request (0: none).
    pub server_errors: AtomicBool,
    /// Interaction callbacks and their webhooks never answer 5xx while set (on by default).
    pub callbacks_spared: AtomicBool,
    pub error_every: AtomicU64,
    /// The next this many thread creations answer 503 (a passing outage on threads alone).
    pub threads_unavailable: AtomicU64,
    /// A passing outage of one channel: the next this many requests of a method on a channel,
    /// keyed "POST <channel id>" (posts, threads) or "PATCH <channel id>" (edits), answer 503.
    pub channel_outages: Mutex<HashMap<String, u64>>,
    /// Words a thread's name may not hold (as in a server listed in Server Discovery): a
    /// thread named with one is refused 400 Invalid Form Body (50035), for good.
    pub refused_thread_words: Mutex<Vec<String>>,
    /// Permission checks (on by default).
    pub check_permissions: AtomicBool,
    /// The bot's permissions by channel (else [`bits::NEEDED`]; a thread: its parent's).
    permissions: Mutex<HashMap<String, u64>>,
    /// Channel types set by a test or learnt (threads the fake made, DM channels it opened).
    kinds: Mutex<HashMap<String, u64>>,
    parents: Mutex<HashMap<String, String>>,
    /// DM channels opened, and whose they are.
    dm_channels: Mutex<HashMap<String, String>>,
    /// Users whose DMs are closed.
    closed_dms: Mutex<HashSet<String>>,
    /// Every user's DMs are closed while set (the fake's `dm_fails`).
    pub all_dms_closed: Arc<AtomicBool>,
    deleted_messages: Mutex<HashSet<String>>,
    deleted_channels: Mutex<HashSet<String>>,
    count: AtomicU64,
    buckets: Mutex<HashMap<String, Window>>,
    /// How many 429s and 5xx were answered.
    pub limited: AtomicU64,
    pub errors: AtomicU64,
    /// The requests answered 429 (not among the fake's `requests()`: the limiter sends them
    /// again).
    pub rate_limited: Mutex<Vec<super::Recorded>>,
}

impl Default for Hostile {
    fn default() -> Self {
        Hostile {
            rate_limits: AtomicBool::new(true),
            limit_every: AtomicU64::new(20),
            bucket_limit: AtomicU64::new(40),
            retry_after_ms: AtomicU64::new(100),
            server_errors: AtomicBool::new(false),
            callbacks_spared: AtomicBool::new(true),
            error_every: AtomicU64::new(23),
            threads_unavailable: AtomicU64::new(0),
            channel_outages: Mutex::default(),
            refused_thread_words: Mutex::default(),
            check_permissions: AtomicBool::new(true),
            permissions: Mutex::default(),
            kinds: Mutex::default(),
            parents: Mutex::default(),
            dm_channels: Mutex::default(),
            closed_dms: Mutex::default(),
            all_dms_closed: Arc::new(AtomicBool::new(false)),
            deleted_messages: Mutex::default(),
            deleted_channels: Mutex::default(),
            count: AtomicU64::new(0),
            buckets: Mutex::default(),
            limited: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            rate_limited: Mutex::default(),
        }
    }
}

fn refusal(status: StatusCode, message: &str, code: u64) -> Response {
    (
        status,
        axum::Json(json!({"message": message, "code": code})),
    )
        .into_response()
}

fn missing_permissions() -> Response {
    refusal(StatusCode::FORBIDDEN, "Missing Permissions", 50013)
}

impl Hostile {
    /// Sets the bot's permissions in `channel` (a bit set of [`bits`]).
    pub fn set_permissions(&self, channel: &str, permissions: u64) {
        self.permissions
            .lock()
            .unwrap()
            .insert(channel.to_string(), permissions);
    }

    /// The bot's permissions in `channel`.
    pub fn permissions(&self, channel: &str) -> u64 {
        let set = self.permissions.lock().unwrap();
        if let Some(p) = set.get(channel) {
            return *p;
        }
        match self.parents.lock().unwrap().get(channel) {
            Some(parent) => set.get(parent).copied().unwrap_or(bits::NEEDED),
            None => bits::NEEDED,
        }
    }

    pub fn set_kind(&self, channel: &str, kind: u64) {
        self.kinds.lock().unwrap().insert(channel.to_string(), kind);
    }

    /// `channel`'s type: as set or learnt, else a server's text channel.
    pub fn kind(&self, channel: &str) -> u64 {
        self.kinds
            .lock()
            .unwrap()
            .get(channel)
            .copied()
            .unwrap_or(kinds::GUILD_TEXT)
    }

    /// A thread the fake made in `parent`.
    pub fn thread_made(&self, thread: &str, parent: &str) {
        self.set_kind(thread, kinds::PUBLIC_THREAD);
        self.parents
            .lock()
            .unwrap()
            .insert(thread.to_string(), parent.to_string());
    }

    pub fn parent(&self, thread: &str) -> Option<String> {
        self.parents.lock().unwrap().get(thread).cloned()
    }

    /// A DM channel the fake opened to `user`.
    pub fn dm_opened(&self, channel: &str, user: &str) {
        self.set_kind(channel, kinds::DM);
        self.dm_channels
            .lock()
            .unwrap()
            .insert(channel.to_string(), user.to_string());
    }

    /// `user` closes (or opens again) their DMs to the bot.
    pub fn close_dms(&self, user: &str, closed: bool) {
        let mut set = self.closed_dms.lock().unwrap();
        match closed {
            true => set.insert(user.to_string()),
            false => set.remove(user),
        };
    }

    pub fn delete_message(&self, id: &str) {
        self.deleted_messages.lock().unwrap().insert(id.to_string());
    }

    pub fn delete_channel(&self, id: &str) {
        self.deleted_channels.lock().unwrap().insert(id.to_string());
    }

    fn message_deleted(&self, id: &str) -> bool {
        self.deleted_messages.lock().unwrap().contains(id)
    }

    /// A 502 or 503 (alternately, by the request's number `n`). A 503 says when to come back
    /// (`Retry-After`, in seconds, as HTTP has it for a service down for a while; the fake's a
    /// fraction, [`Hostile::retry_after_ms`]); a 502, a proxy that found no server behind it,
    /// says nothing.
    fn server_error(&self, n: u64) -> Response {
        if n.is_multiple_of(2) {
            return refusal(StatusCode::BAD_GATEWAY, "502: Bad Gateway", 0);
        }
        let retry = self.retry_after_ms.load(Ordering::Relaxed) as f64 / 1000.0;
        let mut r = refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "503: Service Unavailable",
            0,
        );
        r.headers_mut().insert("retry-after", value(retry));
        r
    }

    /// The refusal Discord would give `method` `parts` (the path below /api/v10, split) with
    /// `json` and `files`, if any. May change `json` as Discord reads it (a reply to a deleted
    /// message with `fail_if_not_exists: false` loses its reference).
    pub fn pushback(
        &self,
        method: &Method,
        parts: &[&str],
        json: &mut Value,
        files: usize,
    ) -> Option<Response> {
        let n = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        let interaction = matches!(parts.first(), Some(&"interactions" | &"webhooks"));
        if self.rate_limits.load(Ordering::Relaxed)
            && let Some(limited) = self.over_limit(method, parts, n, interaction)
        {
            self.limited.fetch_add(1, Ordering::Relaxed);
            return Some(limited);
        }
        // The gateway's address is spared: when asking it fails, serenity falls back to
        // Discord's well-known address, which only the real Discord answers.
        let gateway = parts.first() == Some(&"gateway");
        if self.server_errors.load(Ordering::Relaxed)
            && !(interaction && self.callbacks_spared.load(Ordering::Relaxed))
            && !gateway
            && every(n, &self.error_every)
        {
            self.errors.fetch_add(1, Ordering::Relaxed);
            return Some(self.server_error(n));
        }
        let ["channels", channel, rest @ ..] = parts else {
            return None;
        };
        if let Some(left) = self
            .channel_outages
            .lock()
            .unwrap()
            .get_mut(&format!("{method} {channel}"))
            && *left > 0
        {
            *left -= 1;
            self.errors.fetch_add(1, Ordering::Relaxed);
            return Some(refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                "503: Service Unavailable",
                0,
            ));
        }
        let thread = matches!(rest, ["messages", _, "threads"] | ["threads"]);
        if thread
            && method == Method::POST
            && self
                .threads_unavailable
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok()
        {
            self.errors.fetch_add(1, Ordering::Relaxed);
            return Some(refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                "503: Service Unavailable",
                0,
            ));
        }
        let name = json["name"].as_str().unwrap_or_default().to_lowercase();
        if thread
            && method == Method::POST
            && self
                .refused_thread_words
                .lock()
                .unwrap()
                .iter()
                .any(|w| name.contains(&w.to_lowercase()))
        {
            return Some(
                (
                    StatusCode::BAD_REQUEST,
                    axum::Json(json!({"message": "Invalid Form Body", "code": 50035,
                        "errors": {"name": {"_errors": [{"code": "BASE_TYPE_BAD_WORD",
                            "message": "Contains words not allowed for servers in Server Discovery."}]}}})),
                )
                    .into_response(),
            );
        }
        if self.deleted_channels.lock().unwrap().contains(*channel) {
            return Some(refusal(StatusCode::NOT_FOUND, "Unknown Channel", 10003));
        }
        // A message the route names (edits, reactions, threads from it).
        if let ["messages", message, ..] = rest
            && self.message_deleted(message)
        {
            return Some(refusal(StatusCode::NOT_FOUND, "Unknown Message", 10008));
        }
        if let (&Method::POST, ["messages"]) = (method, rest) {
            let reference = &json["message_reference"];
            if let Some(replied) = reference["message_id"].as_str()
                && self.message_deleted(replied)
            {
                if reference["fail_if_not_exists"] == json!(false) {
                    if let Some(o) = json.as_object_mut() {
                        o.remove("message_reference");
                    }
                } else {
                    return Some(
                        (
                            StatusCode::BAD_REQUEST,
                            axum::Json(json!({"message": "Invalid Form Body", "code": 50035,
                                "errors": {"message_reference": {"_errors": [
                                    {"code": "REPLIES_UNKNOWN_MESSAGE", "message": "Unknown message"}]}}})),
                        )
                            .into_response(),
                    );
                }
            }
        }
        let dm_owner = self.dm_channels.lock().unwrap().get(*channel).cloned();
        if let Some(owner) = dm_owner {
            let closed = self.all_dms_closed.load(Ordering::Relaxed)
                || self.closed_dms.lock().unwrap().contains(&owner);
            if closed && matches!((method, rest), (&Method::POST, ["messages"])) {
                return Some(refusal(
                    StatusCode::FORBIDDEN,
                    "Cannot send messages to this user",
                    50007,
                ));
            }
            return None;
        }
        if !self.check_permissions.load(Ordering::Relaxed) {
            return None;
        }
        let have = self.permissions(channel);
        let in_thread = self.kind(channel) == kinds::PUBLIC_THREAD;
        let mut need = bits::VIEW_CHANNEL;
        match (method, rest) {
            (&Method::POST, ["messages"]) => {
                need |= match in_thread {
                    true => bits::SEND_MESSAGES_IN_THREADS,
                    false => bits::SEND_MESSAGES,
                };
                if files > 0 {
                    need |= bits::ATTACH_FILES;
                }
                if json["embeds"].as_array().is_some_and(|e| !e.is_empty()) {
                    need |= bits::EMBED_LINKS;
                }
                if !json["message_reference"].is_null() {
                    need |= bits::READ_MESSAGE_HISTORY;
                }
            }
            (&Method::PATCH, ["messages", _]) if files > 0 => need |= bits::ATTACH_FILES,
            (&Method::POST, ["messages", _, "threads"]) | (&Method::POST, ["threads"]) => {
                need |= bits::CREATE_PUBLIC_THREADS | bits::READ_MESSAGE_HISTORY;
            }
            (&Method::PUT, ["messages", _, "reactions", ..]) => {
                need |= bits::ADD_REACTIONS | bits::READ_MESSAGE_HISTORY;
            }
            (&Method::PATCH, []) if in_thread => {
                let closing = json["archived"] == json!(true) || json["locked"] == json!(true);
                need |= match closing {
                    true => bits::MANAGE_THREADS,
                    false => bits::SEND_MESSAGES_IN_THREADS,
                };
            }
            _ => {}
        }
        (have & need != need).then(missing_permissions)
    }

    /// The bucket `method` `parts` falls in: its route, with the major parameter (channel,
    /// guild, webhook or interaction id) kept and other ids left out.
    fn bucket(method: &Method, parts: &[&str]) -> String {
        let major = matches!(
            parts.first(),
            Some(&"channels" | &"guilds" | &"webhooks" | &"interactions")
        );
        let route: Vec<&str> = parts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let id = p.bytes().all(|b| b.is_ascii_digit()) || p.starts_with("token-");
                match (i, id) {
                    (1, _) if major => p,
                    // A webhook's token is part of its major parameter: each interaction's
                    // answers have a bucket of their own.
                    (2, _) if parts.first() == Some(&"webhooks") => p,
                    (_, true) => ":id",
                    _ => p,
                }
            })
            .collect();
        format!("{method} {}", route.join("/"))
    }

    /// A 429 for this request, if it is over its bucket's limit or is one the fake limits
    /// anyway.
    fn over_limit(
        &self,
        method: &Method,
        parts: &[&str],
        n: u64,
        interaction: bool,
    ) -> Option<Response> {
        let retry = self.retry_after_ms.load(Ordering::Relaxed) as f64 / 1000.0;
        let forced = every(n, &self.limit_every);
        let k = self.limit_every.load(Ordering::Relaxed).max(1);
        if forced && !interaction && (n / k).is_multiple_of(4) {
            let mut r = (
                StatusCode::TOO_MANY_REQUESTS,
                axum::Json(json!({"message": "You are being rate limited.",
                                  "retry_after": retry, "global": true})),
            )
                .into_response();
            let h = r.headers_mut();
            h.insert("retry-after", value(retry));
            h.insert("x-ratelimit-global", HeaderValue::from_static("true"));
            h.insert("x-ratelimit-scope", HeaderValue::from_static("global"));
            return Some(r);
        }
        let key = Self::bucket(method, parts);
        let limit = self.bucket_limit.load(Ordering::Relaxed).max(1);
        let (used, left) = {
            let mut buckets = self.buckets.lock().unwrap();
            let w = buckets.entry(key.clone()).or_insert(Window {
                started: Instant::now(),
                used: 0,
            });
            if w.started.elapsed() >= Duration::from_secs(1) {
                *w = Window {
                    started: Instant::now(),
                    used: 0,
                };
            }
            w.used += 1;
            let left = Duration::from_secs(1).saturating_sub(w.started.elapsed());
            (w.used, left.as_secs_f64())
        };
        if used > limit || forced {
            let wait = if used > limit { left.max(retry) } else { retry };
            let mut r = (
                StatusCode::TOO_MANY_REQUESTS,
                axum::Json(json!({"message": "You are being rate limited.",
                                  "retry_after": wait, "global": false})),
            )
                .into_response();
            self.bucket_headers(&mut r, &key, limit, 0, wait);
            r.headers_mut().insert("retry-after", value(wait));
            r.headers_mut()
                .insert("x-ratelimit-scope", HeaderValue::from_static("user"));
            return Some(r);
        }
        None
    }

    /// Adds the rate-limit headers of `method` `parts`'s bucket to an ordinary answer.
    pub fn add_headers(&self, method: &Method, parts: &[&str], response: &mut Response) {
        if !self.rate_limits.load(Ordering::Relaxed) {
            return;
        }
        let key = Self::bucket(method, parts);
        let limit = self.bucket_limit.load(Ordering::Relaxed).max(1);
        let (used, left) = match self.buckets.lock().unwrap().get(&key) {
            Some(w) => (
                w.used,
                Duration::from_secs(1)
                    .saturating_sub(w.started.elapsed())
                    .as_secs_f64(),
            ),
            None => (0, 1.0),
        };
        self.bucket_headers(response, &key, limit, limit.saturating_sub(used), left);
    }

    fn bucket_headers(&self, r: &mut Response, key: &str, limit: u64, remaining: u64, after: f64) {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs_f64();
        let h = r.headers_mut();
        h.insert("x-ratelimit-limit", value(limit as f64));
        h.insert("x-ratelimit-remaining", value(remaining as f64));
        h.insert(
            "x-ratelimit-reset",
            value(((now + after) * 1000.0).round() / 1000.0),
        );
        h.insert(
            "x-ratelimit-reset-after",
            value((after * 1000.0).round() / 1000.0),
        );
        // Discord's bucket ids are opaque hashes; the fake's is the route's, in hex.
        let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        });
        if let Ok(v) = HeaderValue::from_str(&format!("{hash:016x}")) {
            h.insert("x-ratelimit-bucket", v);
        }
    }
}

/// Whether request `n` is one of every `k`th (k = 0: none).
fn every(n: u64, k: &AtomicU64) -> bool {
    match k.load(Ordering::Relaxed) {
        0 => false,
        k => n.is_multiple_of(k),
    }
}

fn value(number: f64) -> HeaderValue {
    HeaderValue::from_str(&format!("{number}")).unwrap_or(HeaderValue::from_static("0"))
}
