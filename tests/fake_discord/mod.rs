//! A fake Discord on 127.0.0.1 for end-to-end tests: the REST API the bot calls (recorded, and
//! answered with plausible objects, over TLS as discord.com: tls.rs) and a WebSocket gateway
//! (gateway.rs) that delivers the interactions a test pushes (again, when a test redelivers
//! one). It pushes back as Discord does (hostile.rs: rate limits, permissions, closed DMs,
//! deleted messages; gateway.rs: reconnections, duplicated and reordered events). Like Discord, it takes one answer per interaction and
//! refuses a second with 400 "Interaction has already been acknowledged." (code 40060); the
//! answer may be a deferral, after which the bot edits, deletes or follows up its reply through
//! the interaction's webhook (refused with 404 "Unknown Webhook", 10015, before the interaction
//! was answered). [`FakeDiscord::reply_to`] reads a deferred answer as the user sees it.

#![allow(dead_code)]

pub mod bot;
pub mod deadline;
pub mod gateway;
pub mod hostile;
pub mod limits;
pub mod logs;
pub mod spec;
pub mod tls;

use axum::Router;
use axum::body::Body;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use spec::Spec;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

pub const APP_ID: &str = "900000000000000001";
pub const BOT_ID: &str = "900000000000000002";
pub const GUILD_ID: &str = "900000000000000003";

/// One REST call the bot made.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// The JSON body, or a multipart request's payload_json.
    pub json: Value,
    /// Attached files: (field name, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// The HTTP status the fake answered with.
    pub status: u16,
    /// When the request arrived.
    pub at: std::time::Instant,
}

#[derive(Clone)]
struct Shared {
    requests: Arc<Mutex<Vec<Recorded>>>,
    events: Arc<tokio::sync::Mutex<mpsc::UnboundedReceiver<(&'static str, Value)>>>,
    base: String,
    /// The gateway's address (ws://, beside the REST API's TLS).
    gateway_url: String,
    hostile: Arc<hostile::Hostile>,
    gateway: Arc<gateway::Gateway>,
    posts_fail: Arc<AtomicBool>,
    posts_unavailable: Arc<AtomicBool>,
    forbidden_channels: Arc<Mutex<HashSet<String>>>,
    next_id: Arc<AtomicU64>,
    /// Interactions already answered (their callback taken).
    answered: Arc<Mutex<HashSet<String>>>,
    /// Messages posted in channels (by users, and the bot's own posts and public answers),
    /// by channel, oldest first, for `GET /channels/{id}/messages`.
    said: Arc<Mutex<HashMap<String, Vec<Value>>>>,
    /// The channel each interaction was made in, by interaction id.
    interaction_channels: Arc<Mutex<HashMap<String, String>>>,
    /// Requests Discord would refuse, and answers of the fake's that Discord would not give.
    violations: Arc<Mutex<Vec<String>>>,
    limits: Arc<AtomicBool>,
    deadlines: deadline::Deadlines,
    registration_fails: Arc<AtomicBool>,
    spec_checks: Arc<AtomicBool>,
    /// Woken with every request recorded, for those waiting for one ([`FakeDiscord::first_from`]).
    recorded: Arc<tokio::sync::Notify>,
}

impl Shared {
    /// Keeps `request` among those recorded and wakes whoever waits for one.
    fn record(&self, request: Recorded) {
        self.requests.lock().unwrap().push(request);
        self.recorded.notify_waiters();
    }
}

pub struct FakeDiscord {
    /// The REST API's address (https://, answering for discord.com: see tls.rs).
    pub base: String,
    /// What its REST API and gateway serve from (for [`FakeDiscord::beside`]).
    shared: Shared,
    requests: Arc<Mutex<Vec<Recorded>>>,
    events: mpsc::UnboundedSender<(&'static str, Value)>,
    /// Every user's DMs are closed while set: opening a DM channel succeeds, posting in it is
    /// refused (50007), as Discord does.
    pub dm_fails: Arc<AtomicBool>,
    /// Rate limits, server errors, permissions, closed DMs, deleted messages (hostile.rs).
    pub hostile: Arc<hostile::Hostile>,
    /// Reconnections, invalid sessions, drops, duplicated and reordered events (gateway.rs).
    pub gateway: Arc<gateway::Gateway>,
    /// Posting a message in a channel is refused (403 Missing Permissions) while set.
    pub posts_fail: Arc<AtomicBool>,
    /// Posting a message fails with 503 Service Unavailable (a passing outage) while set.
    pub posts_unavailable: Arc<AtomicBool>,
    /// Channels where posting is refused for good (403 Missing Access, 50001).
    pub forbidden_channels: Arc<Mutex<HashSet<String>>>,
    next_id: Arc<AtomicU64>,
    /// Every interaction pushed, by id, to deliver again.
    pushed: Mutex<HashMap<String, Value>>,
    said: Arc<Mutex<HashMap<String, Vec<Value>>>>,
    violations: Arc<Mutex<Vec<String>>>,
    /// Discord's limits on content, components, thread names and autocomplete are enforced
    /// (see limits.rs); on unless a test turns them off.
    pub limits: Arc<AtomicBool>,
    /// Discord's three seconds to answer an interaction and fifteen minutes for follow-ups.
    pub deadlines: deadline::Deadlines,
    /// Registering the commands is refused (403 Missing Access, as for a server the bot is
    /// not in) while set.
    pub registration_fails: Arc<AtomicBool>,
    /// Requests, answers and events are checked against Discord's API description (when the
    /// file is there); on unless a test turns them off (the load test, whose every request the
    /// other tests already check, spares its two cores the cost).
    pub spec_checks: Arc<AtomicBool>,
}

impl Drop for FakeDiscord {
    /// A test passes only if the bot asked nothing of Discord that Discord would refuse.
    fn drop(&mut self) {
        let violations = self.violations.lock().unwrap();
        if !violations.is_empty() && !std::thread::panicking() {
            panic!(
                "requests Discord's API description refuses:\n{}",
                violations.join("\n")
            );
        }
    }
}

/// Callback types: a deferred message ("thinking…") and a deferred update of the pressed
/// message.
pub const DEFERRED_MESSAGE: u64 = 5;
pub const DEFERRED_UPDATE: u64 = 6;

pub fn user(id: &str, name: &str) -> Value {
    json!({"id": id, "username": name, "discriminator": "0", "global_name": name, "avatar": null,
           "bot": false, "public_flags": 0, "flags": 0, "primary_guild": null})
}

fn message(id: u64, channel: &str, content: &str) -> Value {
    json!({
        "id": id.to_string(), "channel_id": channel, "guild_id": GUILD_ID,
        "author": FakeDiscord::bot_user(),
        "content": content, "timestamp": "2026-01-01T00:00:00.000000+00:00",
        "edited_timestamp": null, "tts": false, "mention_everyone": false, "mentions": [],
        "mention_roles": [], "attachments": [], "embeds": [], "pinned": false, "type": 0,
        "components": [], "flags": 0
    })
}

impl FakeDiscord {
    /// The messages `channel` holds, oldest first: what a user scrolling it sees.
    pub fn history(&self, channel: &str) -> Vec<Value> {
        let said = self.said.lock().unwrap();
        said.get(channel).cloned().unwrap_or_default()
    }

    /// `user` posts `content` in `channel` (a thread of the test server); `mentions` are the
    /// users it mentions (the bot, for `<@BOT_ID> e4`). Returns the message's id.
    pub fn say(&self, user: &Value, channel: &str, content: &str, mentions: &[&Value]) -> String {
        let id = self.next_id();
        let mut m = message(id.parse().unwrap(), channel, content);
        m["author"] = user.clone();
        m["mentions"] = Value::Array(mentions.iter().map(|u| (*u).clone()).collect());
        self.pushed.lock().unwrap().insert(id.clone(), m.clone());
        self.keep(channel, m.clone());
        self.send_event("MESSAGE_CREATE", m);
        id
    }

    /// [`FakeDiscord::say`] while the bot is not connected: the message is kept (the bot may
    /// read it through `GET /channels/{id}/messages`) but no gateway event carries it.
    pub fn say_offline(&self, user: &Value, channel: &str, content: &str) -> String {
        let id = self.next_id();
        let mut m = message(id.parse().unwrap(), channel, content);
        m["author"] = user.clone();
        // Messages read through the REST API carry no guild_id.
        m.as_object_mut().unwrap().remove("guild_id");
        self.keep(channel, m);
        id
    }

    /// Keeps message `m` in `channel`'s history.
    fn keep(&self, channel: &str, m: Value) {
        let mut said = self.said.lock().unwrap();
        said.entry(channel.to_string()).or_default().push(m);
    }

    /// `user` sends `content` to the bot by direct message, in DM channel `dm`. Returns the
    /// message's id.
    pub fn say_in_dm(&self, user: &Value, dm: &str, content: &str) -> String {
        let id = self.next_id();
        let mut m = message(id.parse().unwrap(), dm, content);
        m["author"] = user.clone();
        m.as_object_mut().unwrap().remove("guild_id");
        self.pushed.lock().unwrap().insert(id.clone(), m.clone());
        self.send_event("MESSAGE_CREATE", m);
        id
    }

    /// The bot user, as a message's mention of it.
    pub fn bot_user() -> Value {
        let mut bot = user(BOT_ID, "deckmate");
        bot["bot"] = json!(true);
        bot["global_name"] = Value::Null;
        bot
    }

    pub async fn start() -> FakeDiscord {
        let hostile = Arc::new(hostile::Hostile::default());
        let shared = Shared {
            requests: Arc::new(Mutex::new(Vec::new())),
            events: Arc::new(tokio::sync::Mutex::new(mpsc::unbounded_channel().1)),
            base: String::new(),
            gateway_url: String::new(),
            hostile,
            gateway: Arc::new(gateway::Gateway::default()),
            posts_fail: Arc::new(AtomicBool::new(false)),
            posts_unavailable: Arc::new(AtomicBool::new(false)),
            forbidden_channels: Arc::new(Mutex::new(HashSet::new())),
            next_id: Arc::new(AtomicU64::new(800_000_000_000_000_000)),
            answered: Arc::new(Mutex::new(HashSet::new())),
            said: Arc::new(Mutex::new(HashMap::new())),
            interaction_channels: Arc::new(Mutex::new(HashMap::new())),
            violations: Arc::new(Mutex::new(Vec::new())),
            limits: Arc::new(AtomicBool::new(true)),
            deadlines: deadline::Deadlines::default(),
            registration_fails: Arc::new(AtomicBool::new(false)),
            spec_checks: Arc::new(AtomicBool::new(true)),
            recorded: Arc::new(tokio::sync::Notify::new()),
        };
        Self::serve(shared).await
    }

    /// The same Discord seen by a second process running other shards: a REST API of its own
    /// address sharing everything this one records and knows (requests, ids, messages,
    /// answered interactions, rate limits), and a gateway of its own, which delivers only the
    /// events pushed through the returned fake. Discord routes a server's events to the shard
    /// that runs it; a test routes them by choosing the fake it pushes through.
    pub async fn beside(&self) -> FakeDiscord {
        Self::serve(Shared {
            gateway: Arc::new(gateway::Gateway::default()),
            ..self.shared.clone()
        })
        .await
    }

    /// Listens for `shared`'s REST API (TLS) and gateway (plain), each with a new address and
    /// the gateway with a new queue of events.
    async fn serve(mut shared: Shared) -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("https://{}", listener.local_addr().unwrap());
        let plain = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let (tx, rx) = mpsc::unbounded_channel();
        shared.base = base.clone();
        shared.gateway_url = format!("ws://{}/ws", plain.local_addr().unwrap());
        shared.events = Arc::new(tokio::sync::Mutex::new(rx));
        let hostile = shared.hostile.clone();
        let fake = FakeDiscord {
            base,
            shared: shared.clone(),
            requests: shared.requests.clone(),
            events: tx,
            dm_fails: hostile.all_dms_closed.clone(),
            hostile,
            gateway: shared.gateway.clone(),
            posts_fail: shared.posts_fail.clone(),
            posts_unavailable: shared.posts_unavailable.clone(),
            forbidden_channels: shared.forbidden_channels.clone(),
            next_id: shared.next_id.clone(),
            pushed: Mutex::new(HashMap::new()),
            said: shared.said.clone(),
            violations: shared.violations.clone(),
            limits: shared.limits.clone(),
            deadlines: shared.deadlines.clone(),
            registration_fails: shared.registration_fails.clone(),
            spec_checks: shared.spec_checks.clone(),
        };
        let app = Router::new()
            .route("/ws", get(gateway))
            .fallback(rest)
            .with_state(shared);
        let rest = axum::serve(tls::TlsListener::new(listener), app.clone());
        tokio::spawn(async move { rest.await.unwrap() });
        // The gateway's events go out at once (see the TLS listener).
        let plain = axum::serve::ListenerExt::tap_io(plain, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        tokio::spawn(async move { axum::serve(plain, app).await.unwrap() });
        fake
    }

    /// What Discord's API description refused so far; emptied, so the test may go on (for a
    /// test that sends a refused request on purpose).
    pub fn take_violations(&self) -> Vec<String> {
        std::mem::take(&mut *self.violations.lock().unwrap())
    }

    pub fn next_id(&self) -> String {
        self.next_id.fetch_add(1, Ordering::Relaxed).to_string()
    }

    /// Delivers an interaction over the gateway.
    pub fn push(&self, interaction: Value) {
        if let Some(id) = interaction["id"].as_str() {
            self.deadlines.pushed(id);
            if let Some(channel) = interaction["channel_id"].as_str() {
                self.shared
                    .interaction_channels
                    .lock()
                    .unwrap()
                    .insert(id.to_string(), channel.to_string());
            }
            self.pushed
                .lock()
                .unwrap()
                .insert(id.to_string(), interaction.clone());
        }
        self.send_event("INTERACTION_CREATE", interaction);
    }

    /// Sends gateway event `kind` with the payload a test built (GUILD_DELETE, GUILD_CREATE,
    /// THREAD_DELETE, CHANNEL_DELETE, ...), checked as [`FakeDiscord::send_event`] checks.
    pub fn send_raw_event(&self, kind: &'static str, d: Value) {
        self.send_event(kind, d);
    }

    /// Sends a gateway event, once its objects are checked against the schemas Discord
    /// describes for them (a test's own payload that Discord would never send fails at once).
    fn send_event(&self, kind: &'static str, d: Value) {
        if let Some(spec) = Spec::get().filter(|_| self.spec_checks.load(Ordering::Relaxed)) {
            let world = gateway::checks(kind, &d);
            let checks: Vec<(&str, &Value)> = match kind {
                _ if !world.is_empty() => world.iter().map(|(s, v)| (*s, v)).collect(),
                "MESSAGE_CREATE" => vec![("MessageResponse", &d), ("UserResponse", &d["author"])],
                // Discord's world changing (see [`FakeDiscord::send_raw_event`]).
                "GUILD_CREATE" => vec![("GuildResponse", &d)],
                "CHANNEL_DELETE" => vec![("GuildChannelResponse", &d)],
                "GUILD_MEMBER_REMOVE" => vec![("UserResponse", &d["user"])],
                "GUILD_DELETE" | "THREAD_DELETE" => vec![],
                _ => {
                    let mut checks = vec![("InteractionTypes", &d["type"])];
                    for (schema, key) in [
                        ("UserResponse", "user"),
                        ("GuildMemberResponse", "member"),
                        ("MessageResponse", "message"),
                        ("InteractionContextType", "context"),
                    ] {
                        if !d[key].is_null() {
                            checks.push((schema, &d[key]));
                        }
                    }
                    checks
                }
            };
            for (schema, value) in checks {
                if let Err(e) = spec.check_schema(schema, value) {
                    panic!("the fake's {kind} is not a {schema} Discord would send: {e}\n{value}");
                }
            }
        }
        self.events.send((kind, d)).unwrap();
    }

    /// Delivers interaction `id` again: the very same payload, same id and token (as Discord
    /// may, replaying events after a reconnection).
    pub fn redeliver(&self, id: &str) {
        let payload = self.pushed.lock().unwrap()[id].clone();
        let kind = if payload["content"].is_string() {
            "MESSAGE_CREATE"
        } else {
            "INTERACTION_CREATE"
        };
        self.send_event(kind, payload);
    }

    /// Every answer (callback) given to interaction `id` after the first `after` requests, in
    /// order, as soon as there are `count` of them.
    pub async fn answers(&self, after: usize, id: &str, count: usize) -> Vec<Recorded> {
        let path = format!("/api/v10/interactions/{id}/");
        let answers = || -> Vec<Recorded> {
            self.requests()
                .into_iter()
                .skip(after)
                .filter(|r| r.path.starts_with(&path))
                .collect()
        };
        for _ in 0..1000 {
            if answers().len() >= count {
                return answers();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!(
            "{count} answers to interaction {id} expected; saw {:?}",
            answers()
        );
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }

    /// How many requests were recorded (without copying them).
    pub fn request_count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    /// The first request after the first `after` that matches `pred`, copying only that one
    /// (a long test's requests carry many pictures).
    pub fn find_from(&self, after: usize, pred: impl Fn(&Recorded) -> bool) -> Option<Recorded> {
        let requests = self.requests.lock().unwrap();
        requests.iter().skip(after).find(|r| pred(r)).cloned()
    }

    /// Waits up to `limit` for a request after the first `after` that matches `pred`. Each new
    /// request wakes it (no polling, so a waiting user is as quick as the bot) and is looked
    /// at once. None when none came.
    pub async fn first_from(
        &self,
        after: usize,
        limit: Duration,
        pred: impl Fn(&Recorded) -> bool,
    ) -> Option<Recorded> {
        let deadline = tokio::time::Instant::now() + limit;
        let mut from = after;
        loop {
            // Listening before looking, so that a request recorded in between still wakes it.
            let recorded = self.shared.recorded.notified();
            tokio::pin!(recorded);
            recorded.as_mut().enable();
            {
                let requests = self.requests.lock().unwrap();
                if let Some(r) = requests.iter().skip(from).find(|r| pred(r)) {
                    return Some(r.clone());
                }
                from = requests.len().max(from);
            }
            tokio::time::timeout_at(deadline, recorded).await.ok()?;
        }
    }

    /// How many requests after the first `after` match `pred`.
    pub fn count_from(&self, after: usize, pred: impl Fn(&Recorded) -> bool) -> usize {
        let requests = self.requests.lock().unwrap();
        requests.iter().skip(after).filter(|r| pred(r)).count()
    }

    /// Waits (up to 10 s) for a request matching `pred` that arrived after the first `after`.
    pub async fn wait_for(
        &self,
        after: usize,
        what: &str,
        pred: impl Fn(&Recorded) -> bool,
    ) -> Recorded {
        for _ in 0..1000 {
            if let Some(r) = self.find_from(after, &pred) {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let seen: Vec<String> = self
            .requests()
            .iter()
            .skip(after)
            .map(|r| format!("{} {} {}", r.method, r.path, r.json))
            .collect();
        panic!(
            "no request for {what}; saw after #{after}:\n{}",
            seen.join("\n")
        );
    }

    /// Waits for the answer to interaction `id`, as the user sees it: its callback when that
    /// carried the answer; after a deferral, the edit or follow-up that answered it, shaped as
    /// a callback (`type` 4 for a message, 7 for the pressed message updated; `data` with the
    /// flags Discord applies: a follow-up taking the place of a deferred "thinking…" keeps the
    /// deferral's privacy, whatever it asks for).
    pub async fn reply_to(&self, after: usize, id: &str) -> Recorded {
        for _ in 0..1000 {
            if let Some(answer) = self.answer_of(after, id) {
                return answer;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let seen: Vec<String> = self
            .requests()
            .iter()
            .skip(after)
            .map(|r| format!("{} {} {} {}", r.method, r.path, r.status, r.json))
            .collect();
        panic!(
            "no answer to interaction {id}; saw after #{after}:\n{}",
            seen.join("\n")
        );
    }

    fn answer_of(&self, after: usize, id: &str) -> Option<Recorded> {
        let requests: Vec<Recorded> = self.requests().into_iter().skip(after).collect();
        let callback = format!("/api/v10/interactions/{id}/");
        let callback = requests
            .iter()
            .find(|r| r.path.starts_with(&callback) && r.status < 300)?;
        let kind = callback.json["type"].as_u64().unwrap_or(0);
        if kind != DEFERRED_MESSAGE && kind != DEFERRED_UPDATE {
            return Some(callback.clone());
        }
        let hook = format!("/api/v10/webhooks/{APP_ID}/token-{id}");
        let mut thinking = kind == DEFERRED_MESSAGE;
        let shaped = |r: &Recorded, kind: u64, flags: &Value| {
            let mut data = r.json.clone();
            data["flags"] = flags.clone();
            Recorded {
                json: json!({"type": kind, "data": data}),
                ..r.clone()
            }
        };
        for r in requests
            .iter()
            .filter(|r| r.path == hook || r.path.starts_with(&format!("{hook}/")))
            .filter(|r| r.status < 300)
        {
            let original = r.path.ends_with("/messages/@original");
            match (r.method.as_str(), original) {
                ("DELETE", true) => thinking = false,
                ("PATCH", true) if kind == DEFERRED_UPDATE => {
                    return Some(shaped(r, 7, &json!(0)));
                }
                ("PATCH", true) => return Some(shaped(r, 4, &callback.json["data"]["flags"])),
                ("POST", false) if thinking => {
                    return Some(shaped(r, 4, &callback.json["data"]["flags"]));
                }
                ("POST", false) => return Some(shaped(r, 4, &r.json["flags"])),
                _ => {}
            }
        }
        None
    }

    fn interaction(
        &self,
        kind: u8,
        user: &Value,
        channel: &str,
        data: Value,
        extra: Value,
    ) -> (String, Value) {
        let id = self.next_id();
        let mut d = json!({
            "id": id, "application_id": APP_ID, "type": kind, "data": data,
            "guild_id": GUILD_ID, "channel_id": channel,
            "member": {"user": user, "roles": [], "joined_at": "2024-01-01T00:00:00.000000+00:00",
                       "deaf": false, "mute": false, "flags": 0, "pending": false, "permissions": "0",
                       "avatar": null, "banner": null, "communication_disabled_until": null,
                       "nick": null, "premium_since": null},
            "token": format!("token-{id}"), "version": 1, "locale": "en-US",
            "guild_locale": "en-US", "entitlements": [], "attachment_size_limit": 26214400,
            "app_permissions": self.hostile.permissions(channel).to_string(),
            "channel": {"id": channel, "type": self.hostile.kind(channel), "name": "a channel",
                        "parent_id": self.hostile.parent(channel)},
            "authorizing_integration_owners": {}, "context": 0
        });
        if let (Some(d), Some(extra)) = (d.as_object_mut(), extra.as_object()) {
            for (k, v) in extra {
                d.insert(k.clone(), v.clone());
            }
        }
        (id, d)
    }

    /// A slash command; `options` as Discord sends them; `resolved` users for user options.
    pub fn command(
        &self,
        user: &Value,
        channel: &str,
        name: &str,
        options: Value,
        resolved: Value,
    ) -> String {
        self.command_with(user, channel, name, options, resolved, "0")
    }

    /// [`FakeDiscord::command`] from a member whose permissions in the channel are
    /// `permissions` (a bit set in decimal, as Discord sends it: "32" is Manage Server).
    pub fn command_with(
        &self,
        user: &Value,
        channel: &str,
        name: &str,
        options: Value,
        resolved: Value,
        permissions: &str,
    ) -> String {
        let data = json!({"id": self.next_id(), "name": name, "type": 1, "options": options,
                          "guild_id": GUILD_ID, "resolved": resolved});
        let (id, mut d) = self.interaction(2, user, channel, data, json!({}));
        d["member"]["permissions"] = json!(permissions);
        self.push(d);
        id
    }

    /// `/move action:<text>` in `channel`.
    pub fn move_command(&self, user: &Value, channel: &str, text: &str) -> String {
        self.command(
            user,
            channel,
            "move",
            json!([{"name": "action", "type": 3, "value": text}]),
            json!({}),
        )
    }

    pub fn autocomplete(
        &self,
        user: &Value,
        channel: &str,
        name: &str,
        option: &str,
        partial: &str,
    ) -> String {
        let data = json!({"id": self.next_id(), "name": name, "type": 1, "guild_id": GUILD_ID,
                          "options": [{"name": option, "type": 3, "value": partial, "focused": true}]});
        let (id, d) = self.interaction(4, user, channel, data, json!({}));
        self.push(d);
        id
    }

    /// A choice in a string select menu on message `message_id` in `channel`.
    pub fn select(
        &self,
        user: &Value,
        channel: &str,
        message_id: u64,
        custom_id: &str,
        value: &str,
    ) -> String {
        let data = json!({"custom_id": custom_id, "component_type": 3, "values": [value]});
        let extra = json!({"message": message(message_id, channel, "a message with a menu")});
        let (id, d) = self.interaction(3, user, channel, data, extra);
        self.push(d);
        id
    }

    /// A button press on message `message_id` in `channel`.
    pub fn press(&self, user: &Value, channel: &str, message_id: u64, custom_id: &str) -> String {
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let extra = json!({"message": message(message_id, channel, "a message with buttons")});
        let (id, d) = self.interaction(3, user, channel, data, extra);
        self.push(d);
        id
    }

    /// A slash command sent from the DM channel `dm` (the bot installed to the user).
    pub fn command_in_dm(&self, user: &Value, dm: &str, name: &str, options: Value) -> String {
        let data = json!({"id": self.next_id(), "name": name, "type": 1, "options": options});
        let (id, mut d) = self.interaction(2, user, dm, data, json!({}));
        let o = d.as_object_mut().unwrap();
        for key in ["guild_id", "member", "guild_locale"] {
            o.remove(key);
        }
        o.insert("user".into(), user.clone());
        o.insert("context".into(), json!(1));
        o.insert(
            "channel".into(),
            json!({"id": dm, "type": hostile::kinds::DM}),
        );
        self.push(d);
        id
    }

    /// [`FakeDiscord::press`] on a message in the DM channel `dm`: no server, no member, the
    /// user as Discord gives it in a DM.
    pub fn press_in_dm(&self, user: &Value, dm: &str, message_id: u64, custom_id: &str) -> String {
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let mut shown = message(message_id, dm, "a message with buttons");
        shown.as_object_mut().unwrap().remove("guild_id");
        let (id, mut d) = self.interaction(3, user, dm, data, json!({"message": shown}));
        let o = d.as_object_mut().unwrap();
        for key in ["guild_id", "member", "guild_locale"] {
            o.remove(key);
        }
        o.insert("user".into(), user.clone());
        o.insert("context".into(), json!(1));
        o.insert(
            "channel".into(),
            json!({"id": dm, "type": hostile::kinds::DM}),
        );
        self.push(d);
        id
    }
}

async fn gateway(ws: WebSocketUpgrade, State(shared): State<Shared>) -> Response {
    ws.on_upgrade(move |socket| gateway::session(socket, shared))
}

async fn rest(State(shared): State<Shared>, request: Request) -> Response {
    let at = std::time::Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let query = request.uri().query().map(str::to_string);
    let multipart = request
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("multipart/"));
    let mut json = Value::Null;
    let mut files = Vec::new();
    if multipart {
        if let Ok(mut form) = Multipart::from_request(request, &()).await {
            while let Ok(Some(field)) = form.next_field().await {
                let name = field.name().unwrap_or_default().to_string();
                let bytes = field.bytes().await.unwrap_or_default().to_vec();
                if name == "payload_json" {
                    json = serde_json::from_slice(&bytes).unwrap_or_default();
                } else {
                    files.push((name, bytes));
                }
            }
        }
    } else {
        let bytes = axum::body::to_bytes(request.into_body(), 64 << 20)
            .await
            .unwrap_or_default();
        json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    }
    let id = shared.next_id.fetch_add(1, Ordering::Relaxed);
    // Held to Discord's API description: a request Discord would refuse is refused as Discord
    // refuses it, and fails the test.
    let content_type = match multipart {
        true => "multipart/form-data",
        false => "application/json",
    };
    let checked = shared.spec_checks.load(Ordering::Relaxed);
    let operation = Spec::get().filter(|_| checked).map(|spec| {
        let op = spec.operation(method.as_str(), path.trim_start_matches("/api/v10"))?;
        spec.check_body(&op, content_type, &json)?;
        Ok::<_, String>((spec, op))
    });
    if let Some(Err(problem)) = &operation {
        eprintln!("Discord would refuse {method} {path}: {problem}");
        shared
            .violations
            .lock()
            .unwrap()
            .push(format!("{method} {path}: {problem}\n  body: {json}"));
        let response = (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"message": "Invalid Form Body", "code": 50035})),
        )
            .into_response();
        shared.record(Recorded {
            method: method.to_string(),
            path,
            json,
            files,
            status: 400,
            at,
        });
        return response;
    }
    let parts: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    let refused = shared
        .hostile
        .pushback(&method, &parts, &mut json, files.len())
        .or_else(|| limits::enforce(&shared.limits, &shared.violations, &method, &parts, &json));
    if let Some(refused) = refused {
        let status = refused.status().as_u16();
        let recorded = Recorded {
            method: method.to_string(),
            path,
            json,
            files,
            status,
            at,
        };
        // A 429 is waited out and the request sent again by serenity's limiter: it is kept
        // apart, so that a test sees each request the bot made once, with its final answer.
        match status {
            429 => shared.hostile.rate_limited.lock().unwrap().push(recorded),
            _ => shared.record(recorded),
        }
        return refused;
    }
    let ok = |v: Value| (StatusCode::OK, axum::Json(v)).into_response();
    let created = |v: Value| (StatusCode::CREATED, axum::Json(v)).into_response();
    let refuse = |status: StatusCode, message: &str, code: u64| {
        (
            status,
            axum::Json(json!({"message": message, "code": code})),
        )
            .into_response()
    };
    if let Some(late) = shared.deadlines.late(&parts) {
        shared.record(Recorded {
            method: method.to_string(),
            path,
            json,
            files,
            status: late.status().as_u16(),
            at,
        });
        return late;
    }
    let mut repeated = false;
    let mut earlier = match (&method, parts.as_slice()) {
        (&Method::POST, ["channels", channel, "messages"]) => {
            enforced_nonce(&shared, channel, &json)
        }
        _ => None,
    };
    let response = match (method.clone(), parts.as_slice()) {
        (Method::GET, ["gateway"]) => ok(json!({"url": shared.gateway_url})),
        (Method::GET, ["gateway", "bot"]) => ok(json!({"url": shared.gateway_url, "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})),
        // The application, as poise asks for it at start-up (its owners).
        (Method::GET, ["oauth2", "applications", "@me"]) => ok(json!({
            "id": APP_ID, "name": "deckmate", "icon": null, "description": "", "type": null,
            "bot_public": true, "bot_require_code_grant": false, "verify_key": "00",
            "flags": 0, "flags_new": "0", "redirect_uris": [], "interactions_endpoint_url": null,
            "role_connections_verification_url": null, "owner": user("100000000000000099", "owner"),
            "approximate_guild_count": 1, "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0, "explicit_content_filter": 0,
            "team": null, "eligible_oauth2_scopes": []})),
        (Method::PUT, ["applications", _, "guilds", _, "commands"])
        | (Method::PUT, ["applications", _, "commands"])
            if shared.registration_fails.load(Ordering::Relaxed) =>
        {
            refuse(StatusCode::FORBIDDEN, "Missing Access", 50001)
        }
        (Method::PUT, ["applications", _, "guilds", _, "commands"])
        | (Method::PUT, ["applications", _, "commands"]) => ok(json!([])),
        (Method::POST, ["interactions", _, _, "callback"])
            if !matches!(json["type"].as_u64(), Some(4..=9)) =>
        {
            refuse(
                StatusCode::BAD_REQUEST,
                "Invalid interaction response type",
                50035,
            )
        }
        (Method::POST, ["interactions", interaction, _, "callback"]) => {
            if shared
                .answered
                .lock()
                .unwrap()
                .insert(interaction.to_string())
            {
                StatusCode::NO_CONTENT.into_response()
            } else {
                refuse(
                    StatusCode::BAD_REQUEST,
                    "Interaction has already been acknowledged.",
                    40060,
                )
            }
        }
        // An interaction's webhook exists once the interaction was answered.
        (_, ["webhooks", _, token, ..])
            if !shared
                .answered
                .lock()
                .unwrap()
                .contains(token.trim_start_matches("token-")) =>
        {
            refuse(StatusCode::NOT_FOUND, "Unknown Webhook", 10015)
        }
        (Method::DELETE, ["webhooks", _, _, "messages", _]) => {
            StatusCode::NO_CONTENT.into_response()
        }
        (_, ["webhooks", _, _, "messages", _]) | (Method::POST, ["webhooks", _, _]) => {
            // A real channel id: serenity refuses 0 for one.
            ok(message(id, "1", json["content"].as_str().unwrap_or("")))
        }
        (Method::POST, ["channels", channel, "messages", _, "threads"])
        | (Method::POST, ["channels", channel, "threads"]) => {
            shared.hostile.thread_made(&id.to_string(), channel);
            created(json!({
            "id": id.to_string(), "type": 11, "guild_id": GUILD_ID, "parent_id": channel,
            "name": json["name"], "position": 0, "permission_overwrites": [], "nsfw": false, "flags": 0,
            "owner_id": BOT_ID, "message_count": 0, "member_count": 1, "total_message_sent": 0,
            "thread_metadata": {"archived": false, "auto_archive_duration": 1440,
                                 "archive_timestamp": "2026-01-01T00:00:00.000000+00:00", "locked": false}}))
        }
        (Method::PATCH, ["channels", thread]) => ok(json!({
            "id": thread, "type": 11, "guild_id": GUILD_ID,
            "parent_id": shared.hostile.parent(thread).unwrap_or("700000000000000001".into()),
            "name": "a match", "position": 0, "permission_overwrites": [], "nsfw": false, "flags": 0,
            "owner_id": BOT_ID, "message_count": 0, "member_count": 1, "total_message_sent": 0,
            "thread_metadata": {"archived": json["archived"].as_bool().unwrap_or(false),
                                 "auto_archive_duration": 1440,
                                 "archive_timestamp": "2026-01-01T00:00:00.000000+00:00",
                                 "locked": json["locked"].as_bool().unwrap_or(false)}})),
        (Method::POST, ["channels", _, "messages"])
            if shared.posts_unavailable.load(Ordering::Relaxed) =>
        {
            refuse(StatusCode::SERVICE_UNAVAILABLE, "Service Unavailable", 0)
        }
        (Method::POST, ["channels", channel, "messages"])
            if shared.forbidden_channels.lock().unwrap().contains(*channel) =>
        {
            refuse(StatusCode::FORBIDDEN, "Missing Access", 50001)
        }
        (Method::POST, ["channels", _, "messages"])
            if shared.posts_fail.load(Ordering::Relaxed) =>
        {
            refuse(StatusCode::FORBIDDEN, "Missing Permissions", 50013)
        }
        // A nonce Discord is asked to enforce, already used in this channel: the message
        // it named is returned, and none is created.
        (Method::POST, ["channels", _, "messages"]) if earlier.is_some() => {
            repeated = true;
            ok(earlier.take().unwrap_or_default())
        }
        (Method::POST, ["channels", channel, "messages"]) => {
            ok(message(id, channel, json["content"].as_str().unwrap_or("")))
        }
        // A channel's messages after `after` (the first `limit` of them), or without it its
        // last `limit` (50 unless said), newest first as Discord gives them.
        (Method::GET, ["channels", channel, "messages"]) => {
            let query: HashMap<String, String> = query
                .as_deref()
                .map(|q| {
                    q.split('&')
                        .filter_map(|kv| kv.split_once('='))
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect()
                })
                .unwrap_or_default();
            let after: Option<u64> = query.get("after").and_then(|a| a.parse().ok());
            let limit: usize = query
                .get("limit")
                .and_then(|l| l.parse().ok())
                .unwrap_or(50);
            let said = shared.said.lock().unwrap();
            let all = said.get(*channel).map_or(&[][..], Vec::as_slice);
            let id_of = |m: &Value| m["id"].as_str().and_then(|i| i.parse::<u64>().ok());
            let chosen: Vec<&Value> = match after {
                Some(after) => all
                    .iter()
                    .filter(|m| id_of(m) > Some(after))
                    .take(limit)
                    .collect(),
                None => all[all.len().saturating_sub(limit)..].iter().collect(),
            };
            let found: Vec<Value> = chosen
                .into_iter()
                .rev()
                .map(|m| {
                    let mut m = m.clone();
                    m.as_object_mut().unwrap().remove("guild_id");
                    m
                })
                .collect();
            ok(Value::Array(found))
        }
        (Method::PUT, ["channels", _, "messages", _, "reactions", _, "@me"]) => {
            StatusCode::NO_CONTENT.into_response()
        }
        (Method::PATCH, ["channels", channel, "messages", edited]) => ok(message(
            edited.parse().unwrap_or(id),
            channel,
            json["content"].as_str().unwrap_or(""),
        )),
        // Opening a DM channel succeeds even when the user's DMs are closed: the post fails.
        (Method::POST, ["users", "@me", "channels"]) => {
            let recipient = json["recipient_id"].as_str().unwrap_or("1");
            shared.hostile.dm_opened(&id.to_string(), recipient);
            ok(
                json!({"id": id.to_string(), "type": 1, "last_message_id": null, "flags": 0,
                      "recipients": [user(recipient, "someone")]}),
            )
        }
        _ => Response::builder()
            .status(404)
            .body(Body::from("{\"message\": \"unknown route\", \"code\": 0}"))
            .unwrap(),
    };
    let mut response = response;
    shared.hostile.add_headers(&method, &parts, &mut response);
    let status = response.status().as_u16();
    // The fake's own answer must be one Discord could give.
    let response = match operation {
        Some(Ok((spec, op))) if (200..300).contains(&status) => {
            let (head, body) = response.into_parts();
            let bytes = axum::body::to_bytes(body, 64 << 20)
                .await
                .unwrap_or_default();
            let answer: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            if let Err(problem) = spec.check_response(&op, status, &answer) {
                shared.violations.lock().unwrap().push(format!(
                    "the fake's answer to {method} {path} is not what Discord answers: {problem}\n  answer: {answer}"
                ));
            }
            Response::from_parts(head, Body::from(bytes))
        }
        _ => response,
    };
    if status < 300 && !repeated {
        remember_message(&shared, &method, &parts, &json, id);
    }
    shared.record(Recorded {
        method: method.to_string(),
        path,
        json,
        files,
        status,
        at,
    });
    response
}

/// The message already in `channel` with the nonce of the post `json`, when the post asks
/// Discord to enforce it (`enforce_nonce`). Discord looks back a few minutes; a test's run is
/// shorter, so the fake looks at the whole channel.
fn enforced_nonce(shared: &Shared, channel: &str, json: &Value) -> Option<Value> {
    if json["enforce_nonce"] != json!(true) || json["nonce"].is_null() {
        return None;
    }
    let said = shared.said.lock().unwrap();
    said.get(channel)?
        .iter()
        .find(|m| m["nonce"] == json["nonce"])
        .cloned()
}

/// Keeps a message the bot's accepted request left in a channel, for its history (`GET
/// /channels/{id}/messages`): a post, or a public answer to an interaction (a reply, a
/// follow-up, an edit of the original answer), with its attachments' names.
fn remember_message(shared: &Shared, method: &Method, parts: &[&str], json: &Value, id: u64) {
    let of_interaction = |i: &str| {
        let i = i.trim_start_matches("token-");
        shared.interaction_channels.lock().unwrap().get(i).cloned()
    };
    let (channel, data) = match (method, parts) {
        (&Method::POST, ["channels", channel, "messages"]) => (Some(channel.to_string()), json),
        (&Method::POST, ["interactions", i, _, "callback"]) if json["type"] == 4 => {
            (of_interaction(i), &json["data"])
        }
        (&Method::POST, ["webhooks", _, token])
        | (&Method::PATCH, ["webhooks", _, token, "messages", "@original"]) => {
            (of_interaction(token), json)
        }
        _ => return,
    };
    let Some(channel) = channel else { return };
    if data["flags"].as_u64().unwrap_or(0) & 64 != 0 {
        return;
    }
    let mut m = message(id, &channel, data["content"].as_str().unwrap_or(""));
    let attachments: Vec<Value> = data["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(n, a)| {
            let name = a["filename"].as_str().unwrap_or("file");
            let url = format!("https://cdn.discordapp.com/attachments/{channel}/{id}/{name}");
            json!({"id": (id + n as u64).to_string(), "filename": name, "size": 1,
                   "url": url, "proxy_url": url})
        })
        .collect();
    m["attachments"] = Value::Array(attachments);
    if !data["nonce"].is_null() {
        m["nonce"] = data["nonce"].clone();
    }
    let mut said = shared.said.lock().unwrap();
    said.entry(channel).or_default().push(m);
}
