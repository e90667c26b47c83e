//! The fake Discord's gateway, as unsteady as Discord's: it says HELLO, takes IDENTIFY (a new
//! session, READY) or RESUME (the events of the session after the given sequence number sent
//! again, then RESUMED; an unknown session is told INVALID_SESSION), acknowledges heartbeats
//! and delivers the events tests push. On a test's word ([`Gateway`]'s methods) it asks the
//! bot to RECONNECT (op 7), invalidates its session (op 9, resumable or not) or drops the
//! connection without a word. On by default, it sends every seventh event twice
//! ([`Gateway::duplicate_every`]), interactions among them, as Discord may around a
//! reconnection (the bot takes an interaction once and drops a second delivery before
//! answering it; [`Gateway::duplicate_interactions`] turns that off); on a test's word it
//! sends two events the wrong way round ([`Gateway::reorder_every`], off by default: within a
//! session Discord keeps its order, and tests that type two lines in a row rely on it). It also sends what Discord sends when the
//! bot's world changes: GUILD_DELETE, CHANNEL_DELETE, THREAD_DELETE, MESSAGE_DELETE, each
//! checked against the schemas Discord's API description has for its parts.

use super::{FakeDiscord, GUILD_ID, Shared};
use axum::extract::ws::{Message, WebSocket};
use serde_json::{Value, json};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;

/// What a test asks of the gateway.
#[derive(Clone, Copy, Debug)]
enum Control {
    Reconnect,
    InvalidSession {
        resumable: bool,
    },
    Drop,
    /// The next event is logged but the connection drops before it is sent: only a RESUME
    /// brings it.
    LoseNext,
}

pub struct Gateway {
    controls: mpsc::UnboundedSender<Control>,
    control_rx: tokio::sync::Mutex<mpsc::UnboundedReceiver<Control>>,
    /// The session's events, with their sequence numbers, for a RESUME.
    log: Mutex<Vec<(u64, &'static str, Value)>>,
    session: Mutex<Option<String>>,
    seq: AtomicU64,
    /// Connections opened with IDENTIFY, and with RESUME.
    pub identified: AtomicU64,
    pub resumed: AtomicU64,
    /// The shard (`[id, total]`) each IDENTIFY asked for, in order.
    pub shards: Mutex<Vec<[u64; 2]>>,
    /// Every `duplicate_every`th event is sent twice (0: never); an interaction only while
    /// `duplicate_interactions` is set (as it is by default).
    pub duplicate_every: AtomicU64,
    pub duplicate_interactions: AtomicBool,
    /// Every `reorder_every`th event is held back and sent after the next one (or after a
    /// moment, when none comes; 0: never).
    pub reorder_every: AtomicU64,
    events_sent: AtomicU64,
}

impl Default for Gateway {
    fn default() -> Self {
        let (controls, control_rx) = mpsc::unbounded_channel();
        Gateway {
            controls,
            control_rx: tokio::sync::Mutex::new(control_rx),
            log: Mutex::default(),
            session: Mutex::default(),
            seq: AtomicU64::new(0),
            identified: AtomicU64::new(0),
            resumed: AtomicU64::new(0),
            shards: Mutex::new(Vec::new()),
            duplicate_every: AtomicU64::new(7),
            duplicate_interactions: AtomicBool::new(true),
            reorder_every: AtomicU64::new(0),
            events_sent: AtomicU64::new(0),
        }
    }
}

impl Gateway {
    /// Op 7: the bot should reconnect and resume.
    pub fn reconnect(&self) {
        let _ = self.controls.send(Control::Reconnect);
    }

    /// Op 9: the session is invalid; `resumable` says whether the bot may resume it.
    pub fn invalid_session(&self, resumable: bool) {
        let _ = self.controls.send(Control::InvalidSession { resumable });
    }

    /// The connection is dropped without a close frame.
    pub fn drop_connection(&self) {
        let _ = self.controls.send(Control::Drop);
    }

    /// The next event is lost with the connection, to come again on RESUME.
    pub fn lose_next_event(&self) {
        let _ = self.controls.send(Control::LoseNext);
    }

    /// Waits (up to 20 s) until `counter` reaches `at_least`.
    pub async fn wait(&self, counter: &AtomicU64, at_least: u64, what: &str) {
        for _ in 0..2000 {
            if counter.load(Ordering::Relaxed) >= at_least {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the bot never {what}");
    }

    fn frame(&self, kind: &'static str, d: Value) -> (u64, Value) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed) + 1;
        self.log.lock().unwrap().push((seq, kind, d.clone()));
        (seq, json!({"op": 0, "s": seq, "t": kind, "d": d}))
    }

    fn new_session(&self) -> String {
        let n = self.identified.fetch_add(1, Ordering::Relaxed) + 1;
        let id = format!("session-{n}");
        *self.session.lock().unwrap() = Some(id.clone());
        self.log.lock().unwrap().clear();
        self.seq.store(0, Ordering::Relaxed);
        id
    }
}

fn text(v: &Value) -> Message {
    Message::Text(v.to_string().into())
}

/// One connection to the gateway.
pub(super) async fn session(mut socket: WebSocket, shared: Shared) {
    let gw = shared.gateway.clone();
    if socket
        .send(text(&json!({"op": 10, "d": {"heartbeat_interval": 45000}})))
        .await
        .is_err()
    {
        return;
    }
    // IDENTIFY (a new session) or RESUME (this one, again).
    loop {
        let Some(Ok(msg)) = socket.recv().await else {
            return;
        };
        let Message::Text(body) = msg else { continue };
        let v: Value = serde_json::from_str(&body).unwrap_or_default();
        match v["op"].as_u64() {
            Some(1) => {
                let _ = socket.send(text(&json!({"op": 11}))).await;
            }
            Some(2) => {
                let shard = [
                    v["d"]["shard"][0].as_u64().unwrap_or(0),
                    v["d"]["shard"][1].as_u64().unwrap_or(1),
                ];
                gw.shards.lock().unwrap().push(shard);
                let session_id = gw.new_session();
                let (_, ready) = gw.frame(
                    "READY",
                    json!({"v": 10, "user": FakeDiscord::bot_user(), "guilds": [],
                           "session_id": session_id, "resume_gateway_url": shared.gateway_url,
                           "shard": shard, "application": {"id": super::APP_ID, "flags": 0}}),
                );
                if socket.send(text(&ready)).await.is_err() {
                    return;
                }
                break;
            }
            Some(6) => {
                let known = gw.session.lock().unwrap().clone();
                if known.is_none() || v["d"]["session_id"].as_str() != known.as_deref() {
                    let _ = socket.send(text(&json!({"op": 9, "d": false}))).await;
                    continue;
                }
                gw.resumed.fetch_add(1, Ordering::Relaxed);
                let after = v["d"]["seq"].as_u64().unwrap_or(0);
                let missed: Vec<Value> = gw
                    .log
                    .lock()
                    .unwrap()
                    .iter()
                    .filter(|(s, _, _)| *s > after)
                    .map(|(s, t, d)| json!({"op": 0, "s": s, "t": t, "d": d}))
                    .collect();
                for frame in missed {
                    if socket.send(text(&frame)).await.is_err() {
                        return;
                    }
                }
                let (_, resumed) = gw.frame("RESUMED", json!({}));
                if socket.send(text(&resumed)).await.is_err() {
                    return;
                }
                break;
            }
            _ => {}
        }
    }
    let mut events = shared.events.lock().await;
    let mut controls = gw.control_rx.lock().await;
    let mut held: Option<Value> = None;
    let mut lose_next = false;
    loop {
        tokio::select! {
            event = events.recv() => {
                let Some((kind, d)) = event else { return };
                let (_, frame) = gw.frame(kind, d);
                if lose_next {
                    return;
                }
                let n = gw.events_sent.fetch_add(1, Ordering::Relaxed) + 1;
                let every = |c: &AtomicU64| match c.load(Ordering::Relaxed) {
                    0 => false,
                    k => n.is_multiple_of(k),
                };
                if held.is_none() && every(&gw.reorder_every) {
                    held = Some(frame);
                    continue;
                }
                if socket.send(text(&frame)).await.is_err() { return; }
                if let Some(first) = held.take()
                    && socket.send(text(&first)).await.is_err() { return; }
                let twice = every(&gw.duplicate_every)
                    && (kind != "INTERACTION_CREATE"
                        || gw.duplicate_interactions.load(Ordering::Relaxed));
                if twice && socket.send(text(&frame)).await.is_err() {
                    return;
                }
            }
            _ = tokio::time::sleep(Duration::from_millis(50)), if held.is_some() => {
                if let Some(first) = held.take()
                    && socket.send(text(&first)).await.is_err() { return; }
            }
            control = controls.recv() => {
                if let Some(first) = held.take()
                    && socket.send(text(&first)).await.is_err() { return; }
                match control {
                    Some(Control::Reconnect) => {
                        let _ = socket.send(text(&json!({"op": 7, "d": null}))).await;
                    }
                    Some(Control::InvalidSession { resumable }) => {
                        if !resumable {
                            *gw.session.lock().unwrap() = None;
                        }
                        let _ = socket.send(text(&json!({"op": 9, "d": resumable}))).await;
                    }
                    Some(Control::LoseNext) => lose_next = true,
                    Some(Control::Drop) | None => return,
                }
            }
            msg = socket.recv() => {
                match msg {
                    Some(Ok(Message::Text(body))) => {
                        let v: Value = serde_json::from_str(&body).unwrap_or_default();
                        if v["op"] == 1 {
                            let _ = socket.send(text(&json!({"op": 11}))).await;
                        }
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => {}
                }
            }
        }
    }
}

/// The schemas a world-changing event's parts are checked against.
pub(super) fn checks(kind: &str, d: &Value) -> Vec<(&'static str, Value)> {
    let ids = |keys: &[&str]| -> Vec<(&'static str, Value)> {
        keys.iter()
            .filter(|k| !d[**k].is_null())
            .map(|k| ("SnowflakeType", d[*k].clone()))
            .collect()
    };
    match kind {
        "CHANNEL_DELETE" => vec![("GuildChannelResponse", d.clone())],
        "THREAD_DELETE" => {
            let mut c = ids(&["id", "guild_id", "parent_id"]);
            c.push(("ChannelTypes", d["type"].clone()));
            c
        }
        "GUILD_DELETE" => ids(&["id"]),
        "MESSAGE_DELETE" => ids(&["id", "channel_id", "guild_id"]),
        _ => vec![],
    }
}

impl FakeDiscord {
    /// The bot is removed from the server `guild` (or, `unavailable`, the server is out of
    /// reach for a while): GUILD_DELETE.
    pub fn remove_from_guild(&self, guild: &str, unavailable: bool) {
        let mut d = json!({"id": guild});
        if unavailable {
            d["unavailable"] = json!(true);
        }
        self.send_event("GUILD_DELETE", d);
    }

    /// Deletes channel or thread `id`: requests to it are refused 404 Unknown Channel from
    /// now, and the bot is told (THREAD_DELETE for a thread the fake made, else
    /// CHANNEL_DELETE).
    pub fn delete_channel(&self, id: &str) {
        self.hostile.delete_channel(id);
        match self.hostile.parent(id) {
            Some(parent) => self.send_event(
                "THREAD_DELETE",
                json!({"id": id, "guild_id": GUILD_ID, "parent_id": parent, "type": 11}),
            ),
            None => self.send_event(
                "CHANNEL_DELETE",
                json!({"id": id, "type": 0, "guild_id": GUILD_ID, "name": "a channel",
                       "position": 0, "permission_overwrites": [], "nsfw": false, "flags": 0,
                       "parent_id": null, "last_message_id": null, "topic": null,
                       "rate_limit_per_user": 0}),
            ),
        }
    }

    /// `user` posts `content` in `channel` and deletes it at once, before the bot answers
    /// (MESSAGE_CREATE, then MESSAGE_DELETE). Returns the message's id.
    pub fn say_and_delete(&self, user: &Value, channel: &str, content: &str) -> String {
        let id = self.next_id();
        self.hostile.delete_message(&id);
        let mut m = super::message(id.parse().unwrap(), channel, content);
        m["author"] = user.clone();
        self.send_event("MESSAGE_CREATE", m);
        self.send_event(
            "MESSAGE_DELETE",
            json!({"id": id, "channel_id": channel, "guild_id": GUILD_ID}),
        );
        id
    }

    /// Deletes message `id` in `channel`: replies to it, edits and reactions are refused from
    /// now (hostile.rs), and the bot is told (MESSAGE_DELETE).
    pub fn delete_message(&self, channel: &str, id: &str) {
        self.hostile.delete_message(id);
        self.send_event(
            "MESSAGE_DELETE",
            json!({"id": id, "channel_id": channel, "guild_id": GUILD_ID}),
        );
    }
}
