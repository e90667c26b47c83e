//! The outbox's sender: one task that drains the posts the table owes Discord
//! ([`crate::table::outbox`]). Of each destination only the earliest pending post is sent, and
//! one at a time, so a later post never overtakes an earlier one; destinations are served side
//! by side, each send in its own task (a panic loses no other post and puts its own back for a
//! retry). A post is marked sent only once Discord accepted it; a transient failure (5xx, a
//! timeout, a 429 beyond serenity's own waiting) is tried again after a backoff; a refusal for
//! good (403, 404, closed DMs) is recorded with its reason and handled: a direct message
//! refused goes to the match's thread instead, a thread gone is logged. The sender wakes when
//! the table says something was written, and at start-up sends what is pending.

use crate::discord::format::boards::mention;
use crate::discord::format::notices::{
    changed_message, channel_of, reminder_text, thread_of, time_up_message, vacation_text,
};
use crate::discord::format::{limits, logs, pictures, pings, plain};
use crate::discord::shared::links;
use crate::discord::shared::nonces::Nonces;
use crate::discord::shared::{dm_memory, rounds, threads, turns};
use crate::store::outbox::{Destination, Post, PostState};
use crate::table::outbox::Owed;
use crate::table::{CallError, TableHandle};
use poise::serenity_prelude as serenity;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How many due posts one look at the outbox takes at most.
const BATCH: usize = 50;
/// The longest sleep between two looks (the table's clock may be simulated, and move).
const LONGEST_SLEEP: u64 = 5;

/// Why a post was not sent.
#[derive(Debug)]
enum Failure {
    /// Worth trying again (a 5xx, a timeout, a 429), after `after` seconds at least.
    Later { reason: String, after: Option<i64> },
    /// Refused for good (403, 404, closed DMs, a malformed post): never tried again.
    Refused { reason: String, code: isize },
}

impl Failure {
    fn reason(&self) -> &str {
        match self {
            Failure::Later { reason, .. } | Failure::Refused { reason, .. } => reason,
        }
    }
}

/// How a failed request is taken: a refusal for good or a failure to try again.
fn classify(error: &serenity::Error) -> Failure {
    let reason = logs::chain(error);
    if let serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) = error {
        let status = response.status_code.as_u16();
        let code = response.error.code;
        // 429s serenity did not wait out, request timeouts and 5xx come back.
        if status == 429 || status == 408 || status >= 500 {
            return Failure::Later {
                reason,
                after: None,
            };
        }
        if (400..500).contains(&status) {
            return Failure::Refused { reason, code };
        }
    }
    // serenity refused to send it at all (content over Discord's limits, say): sending it
    // again would be refused again, and would hold back every later post to the channel.
    if matches!(error, serenity::Error::Model(_)) {
        return Failure::Refused { reason, code: 0 };
    }
    Failure::Later {
        reason,
        after: None,
    }
}

/// Starts the sender; it ends when the table stops.
/// `public` is where the web pages are (PUBLIC_URL), for the links under what it posts.
pub fn spawn(table: TableHandle, http: Arc<serenity::Http>, public: Option<Arc<str>>) {
    tokio::spawn(run(table, http, public));
}

async fn run(table: TableHandle, http: Arc<serenity::Http>, public: Option<Arc<str>>) {
    let owed = table.owed();
    // Destinations with a send under way: their next post waits for it.
    let busy: Arc<Mutex<HashSet<String>>> = Arc::default();
    let done = Arc::new(tokio::sync::Notify::new());
    loop {
        let due = table
            .call_quietly(|t| {
                let now = t.now();
                let due = t.store().take_due_posts(now, BATCH)?;
                // While there are posts to send, the end of each send wakes this loop (and
                // it looks again within a second); when the next post falls due matters only
                // once none is due now. Asking it on every turn took a sixth of PostgreSQL's
                // time under load.
                let next = match due.is_empty() {
                    true => t.store().next_post_due()?,
                    false => Some(now),
                };
                Ok::<_, crate::store::StoreError>((due, next.map(|next| next - now)))
            })
            .await;
        let wait = match due {
            Ok(Ok((due, next))) => {
                let mut skipped = Vec::new();
                for post in due {
                    let fresh = busy
                        .lock()
                        .map(|mut b| b.insert(post.destination.clone()))
                        .unwrap_or(false);
                    if !fresh {
                        skipped.push(post.id);
                        continue;
                    }
                    let (table, http, busy, done, public) = (
                        table.clone(),
                        http.clone(),
                        busy.clone(),
                        done.clone(),
                        public.clone(),
                    );
                    tokio::spawn(async move {
                        let destination = post.destination.clone();
                        send_isolated(&table, &http, post, public).await;
                        if let Ok(mut b) = busy.lock() {
                            b.remove(&destination);
                        }
                        done.notify_one();
                    });
                }
                // Taken but not sent (their destination is busy here): due again at once, not
                // when the lease ends (PostgreSQL).
                if !skipped.is_empty() {
                    let released = table
                        .call_quietly(move |t| {
                            let now = t.now();
                            t.store().release_posts(&skipped, now)
                        })
                        .await;
                    if let Ok(Err(e)) = released {
                        tracing::warn!(error = %logs::chain(&e), "posts taken but not sent could not be released; they wait for their lease");
                    }
                }
                next.map_or(LONGEST_SLEEP, |s| s.clamp(0, LONGEST_SLEEP as i64) as u64)
            }
            Ok(Err(e)) => {
                tracing::error!(error = %logs::chain(&e), "the outbox could not be read; it is read again shortly");
                LONGEST_SLEEP
            }
            Err(CallError::Panicked) => LONGEST_SLEEP,
            Err(CallError::Stopped) => return,
        };
        // A post due now whose destination is busy waits for that send to end.
        let wait = Duration::from_secs(wait.max(1)).min(Duration::from_secs(LONGEST_SLEEP));
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = owed.notified() => {}
            _ = done.notified() => {}
        }
    }
}

/// Sends one post in a task of its own and records what came of it: sent, tried again later,
/// or refused for good (and then handled). A panic puts the post back for a retry.
async fn send_isolated(
    table: &TableHandle,
    http: &Arc<serenity::Http>,
    post: Post,
    public: Option<Arc<str>>,
) {
    let (id, destination) = (post.id, post.destination.clone());
    // The look at the outbox that found this post may have been taken while an earlier send
    // of it was being recorded: a post sent, retried or given up since is not sent again.
    let attempts = post.attempts;
    let current = table.call_quietly(move |t| t.store().post(id)).await;
    let still_due = matches!(
        &current,
        Ok(Ok(Some(now))) if now.state == PostState::Pending && now.attempts == attempts
    );
    if !still_due {
        return;
    }
    let sending = {
        let (table, http, post) = (table.clone(), http.clone(), post.clone());
        tokio::spawn(async move { send(&http, &table, &post, public.as_deref()).await })
    };
    let outcome = match sending.await {
        Ok(outcome) => outcome,
        Err(e) => {
            tracing::error!(post = id, %destination, error = %e, "sending a post panicked; it is tried again later");
            Err(Failure::Later {
                reason: format!("sending panicked: {e}"),
                after: None,
            })
        }
    };
    let failure = outcome.err();
    let given_up = post.clone();
    // One transaction: a post recorded as failed is dealt with (a thread that cannot be made
    // calls its match off) or not recorded at all, whatever stops the bot in between.
    let recorded = table
        .call_quietly(move |t| t.transaction(|t| {
            let now = t.now();
            let state = match &failure {
                None => t.store().post_sent(id, now).map(|_| PostState::Sent),
                Some(Failure::Later { reason, after }) => {
                    t.store().post_retry(id, now, reason, *after)
                }
                Some(Failure::Refused { reason, .. }) => t
                    .store()
                    .post_failed(id, now, reason)
                    .map(|_| PostState::Failed),
            }?;
            // A thread that cannot be made: its match is called off or held, and its players
            // owed a word, in this same call (see threads.rs).
            let state = match (&failure, state) {
                (Some(f), PostState::Failed) => {
                    let code = match f {
                        Failure::Refused { code, .. } => Some(*code),
                        Failure::Later { .. } => None,
                    };
                    match threads::gave_up(t, &given_up, code, f.reason()) {
                        Ok(Some(_)) => PostState::Handled,
                        Ok(None) => PostState::Failed,
                        Err(e) => {
                            tracing::error!(post = id, error = %logs::chain(&e), "a thread that cannot be made could not be dealt with");
                            PostState::Failed
                        }
                    }
                }
                (_, state) => state,
            };
            Ok::<_, crate::store::StoreError>((state, failure))
        }))
        .await;
    match recorded {
        Ok(Ok((PostState::Sent, _))) => {}
        Ok(Ok((PostState::Handled, failure))) => {
            let reason = failure.as_ref().map_or("", |f| f.reason());
            tracing::warn!(post = id, %destination, kind = %post.kind, error = %reason, "a post was refused for good, and that was dealt with");
            table.owed().notify_one();
        }
        Ok(Ok((state, Some(failure)))) => {
            let match_id = post.match_id.unwrap_or_default();
            if state == PostState::Failed {
                tracing::error!(post = id, match_id, %destination, kind = %post.kind, error = %failure.reason(), "a post was refused for good");
            } else {
                tracing::warn!(post = id, match_id, %destination, kind = %post.kind, error = %failure.reason(), "a post was not accepted; it is tried again later");
            }
            if let (PostState::Failed, Failure::Refused { code, .. }) = (state, &failure) {
                refused_for_good(table, &post, *code).await;
            }
        }
        Ok(Ok(_)) => {}
        Ok(Err(e)) => {
            tracing::error!(post = id, error = %logs::chain(&e), "a post's outcome could not be recorded; it may be sent again")
        }
        Err(_) => {}
    }
}

/// What is done about a post refused for good: a direct message goes to the match's thread
/// instead; a post to a thread that is gone is logged (its match's clocks are held elsewhere).
async fn refused_for_good(table: &TableHandle, post: &Post, code: isize) {
    let Ok(owed) = Owed::parse(&post.payload) else {
        return;
    };
    match (Destination::parse(&post.destination), owed) {
        (Some(Destination::User(user)), Owed::Reminder(reminder)) => {
            if code == dm_memory::CLOSED_DMS {
                let remembered = table
                    .call(move |t| {
                        let now = t.now();
                        t.store().remember_closed_dms(&user, now)
                    })
                    .await;
                if let Ok(Err(e)) = remembered {
                    tracing::error!(error = %logs::chain(&e), "closed DMs could not be remembered");
                }
            }
            tracing::info!(
                match_id = reminder.match_id,
                code,
                "a reminder could not go by direct message; it goes to the thread"
            );
            let again = Owed::Reminder(reminder.clone());
            let moved = table
                .call(move |t| {
                    let now = t.now();
                    let post = again.post(Destination::Match(reminder.match_id), now);
                    t.store().owe(&post, now)
                })
                .await;
            if let Ok(Err(e)) = moved {
                tracing::error!(error = %logs::chain(&e), "a reminder refused by direct message could not be owed to the thread");
            }
        }
        (
            Some(Destination::User(user)),
            Owed::NoThread {
                match_id,
                challenge,
                reason,
                called_off,
                players,
            },
        ) => {
            // Told elsewhere instead: a challenge's message says it already; a league board's
            // player is named in its channel.
            let closed = code == dm_memory::CLOSED_DMS;
            let id = post.id;
            let handled = table
                .call(move |t| {
                    t.atomically(|t| {
                        let now = t.now();
                        if closed {
                            t.store().remember_closed_dms(&user, now)?;
                        }
                        if challenge.is_none() {
                            let named = players
                                .into_iter()
                                .filter(|p| p.discord_id.as_deref() == Some(user.as_str()))
                                .collect();
                            let instead = Owed::NoThread {
                                match_id,
                                challenge,
                                reason,
                                called_off,
                                players: named,
                            };
                            let post = instead.post(Destination::Match(match_id), now);
                            t.store().owe(&post, now)?;
                        }
                        let why = "not sent by direct message; told in the channel instead";
                        t.store().post_handled(id, now, why)?;
                        Ok(())
                    })
                })
                .await;
            if let Ok(Err(e)) = handled {
                tracing::error!(error = %logs::chain(&e), "a notice refused by direct message could not be told in the channel");
            }
        }
        (destination, _) => tracing::warn!(
            post = post.id,
            destination = ?destination,
            code,
            "a post was refused for good and is dropped"
        ),
    }
}

/// The channel of match `id` as stored now: its thread; with `parent`, else the channel it was
/// started in.
async fn match_channel(
    table: &TableHandle,
    id: crate::store::MatchId,
    parent: bool,
) -> Result<Option<serenity::ChannelId>, Failure> {
    match table.call_quietly(move |t| t.store().load_head(id)).await {
        Ok(Ok(stored)) if parent => Ok(channel_of(&stored.place)),
        Ok(Ok(stored)) => Ok(thread_of(&stored.place)),
        Ok(Err(e)) => Err(Failure::Refused {
            reason: format!("match #{id} cannot be read: {}", logs::chain(&e)),
            code: 0,
        }),
        Err(_) => Err(Failure::Later {
            reason: "the table was busy".into(),
            after: None,
        }),
    }
}

/// Where a post goes: the channel (or a user's direct-message channel), or None when it has
/// none (a match played nowhere on Discord, or one without a thread): nothing to send. A
/// match's posts go to its thread only; the thread to make (`parent`) goes to the channel it
/// is made in.
async fn channel(
    http: &serenity::Http,
    table: &TableHandle,
    post: &Post,
    parent: bool,
) -> Result<Option<serenity::ChannelId>, Failure> {
    let parse = |id: &str| id.parse().ok().filter(|&n: &u64| n != 0);
    match Destination::parse(&post.destination) {
        Some(Destination::Match(id)) => match_channel(table, id, parent).await,
        Some(Destination::Channel(id)) => Ok(parse(&id).map(serenity::ChannelId::new)),
        Some(Destination::User(id)) => {
            let Some(user) = parse(&id) else {
                return Ok(None);
            };
            // A user whose DMs are known to be closed is not asked again: the post goes to
            // the match thread instead (see `refused_for_good`).
            if dm_memory::closed(table, serenity::UserId::new(user)).await {
                return Err(Failure::Refused {
                    reason: "their direct messages are closed to the bot".into(),
                    code: dm_memory::CLOSED_DMS,
                });
            }
            let dm = serenity::UserId::new(user).create_dm_channel(http).await;
            Ok(Some(dm.map_err(|e| classify(&e))?.id))
        }
        None => Err(Failure::Refused {
            reason: format!("an unknown destination {:?}", post.destination),
            code: 0,
        }),
    }
}

fn table_busy(_: CallError) -> Failure {
    Failure::Later {
        reason: "the table could not be called".into(),
        after: None,
    }
}

/// The board of match `match_id` an owed post shows, with `public` as its lines, and whether
/// the match is still at `version` (see [`crate::table::Table::owed_board`]).
async fn owed_board(
    table: &TableHandle,
    match_id: crate::store::MatchId,
    version: u64,
    public: Vec<String>,
) -> Result<(crate::table::Update, bool), Failure> {
    table
        .call_quietly(move |t| t.owed_board(match_id, version, public))
        .await
        .map_err(table_busy)?
        .map_err(|e| Failure::Refused {
            reason: format!("match #{match_id} cannot be shown: {}", logs::chain(&e)),
            code: 0,
        })
}

/// Match `match_id` as it is now, for a post that shows it.
async fn shown(
    table: &TableHandle,
    match_id: crate::store::MatchId,
) -> Result<crate::table::Update, Failure> {
    table
        .call_quietly(move |t| t.show(match_id))
        .await
        .map_err(table_busy)?
        .map_err(|e| Failure::Refused {
            reason: format!("match #{match_id} cannot be shown: {}", logs::chain(&e)),
            code: 0,
        })
}

/// The messages read back to find a board shown already.
const RECENT: u8 = 25;

/// Whether owed board `post` may have been shown already: another sender had it first (an
/// interaction's answer holds its lease) or an attempt of this outbox may have reached Discord
/// without its answer being recorded.
fn may_be_shown(post: &Post) -> bool {
    post.attempts > 0 || post.next_attempt > post.created_at
}

/// Whether one of the last messages in `to` is the bot's showing the board of match `id` at
/// `version` (by its picture's name): the answer to an interaction given by a process that
/// stopped before it could record it. A passing failure to read the history is tried again
/// later; a history the bot may not read counts as not shown (the board is posted: twice at
/// worst, never lost).
async fn shown_already(
    http: &serenity::Http,
    to: serenity::ChannelId,
    id: crate::store::MatchId,
    version: u64,
) -> Result<bool, Failure> {
    let name = pictures::board_name(id, version);
    match to
        .messages(http, serenity::GetMessages::new().limit(RECENT))
        .await
    {
        Ok(recent) => Ok(recent
            .iter()
            .any(|m| m.author.bot && m.attachments.iter().any(|a| a.filename == name))),
        Err(e) => match classify(&e) {
            later @ Failure::Later { .. } => Err(later),
            Failure::Refused { reason, .. } => {
                tracing::info!(match_id = id, %reason, "a thread's history may not be read; the board is posted");
                Ok(false)
            }
        },
    }
}

/// Composes and sends one post.
async fn send(
    http: &serenity::Http,
    table: &TableHandle,
    post: &Post,
    pages: Option<&str>,
) -> Result<(), Failure> {
    let owed = Owed::parse(&post.payload).map_err(|e| Failure::Refused {
        reason: format!("an unreadable payload: {e}"),
        code: 0,
    })?;
    let parent = matches!(owed, Owed::OpenThread { .. });
    let Some(to) = channel(http, table, post, parent).await? else {
        tracing::debug!(post = post.id, "a post has nowhere to go; it is dropped");
        return Ok(());
    };
    let poster = Poster::new(http, to, post.id);
    // A failure of threads.rs, as the outbox takes it.
    let opening_failure = |e: threads::OpenError| match e {
        threads::OpenError::Discord(e) => classify(&e),
        threads::OpenError::Table(reason) => Failure::Later {
            reason,
            after: None,
        },
    };
    match owed {
        Owed::Board {
            match_id,
            version,
            public,
            turns,
        } => {
            let (update, current) = owed_board(table, match_id, version, public).await?;
            if may_be_shown(post) && shown_already(http, to, match_id, version).await? {
                tracing::info!(
                    match_id,
                    version,
                    "a board owed was found shown already; it is not posted again"
                );
            } else if !current {
                // The match moved on: its lines are news, its board is owed by a later post.
                if update.public.is_empty() {
                    return Ok(());
                }
                let lines = plain::plain_lines(&update.public);
                let text = format!("Match #{match_id}: {}", lines.join("\n"));
                let text = limits::cut(&text, limits::CONTENT);
                return poster.say(text).await;
            } else {
                let message = changed_message(&update).await;
                let message = links::with_finished(message, table, pages, &update).await;
                poster.send(message).await?;
            }
            if turns && current {
                turns::tell_turns(http, table, &update, None, &poster.nonces).await;
            }
            Ok(())
        }
        Owed::Turns {
            match_id,
            version,
            public,
            mover,
        } => {
            let (update, current) = owed_board(table, match_id, version, public).await?;
            if current {
                turns::tell_turns(http, table, &update, mover, &poster.nonces).await;
            }
            Ok(())
        }
        Owed::Reminder(reminder) => {
            let message = serenity::CreateMessage::new()
                .content(reminder_text(&reminder))
                .allowed_mentions(pings::only([&reminder.player]));
            poster.send(message).await
        }
        Owed::TimeUp(up) => poster.send(time_up_message(&up)).await,
        Owed::RoundPing {
            round,
            deadline,
            players,
            ..
        } => {
            let pings: Vec<String> = players.iter().map(mention).collect();
            let text = format!(
                "{}: round {round} closes <t:{deadline}:R>. A game not begun by then is forfeited.",
                pings.join(", ")
            );
            let message = serenity::CreateMessage::new()
                .content(text)
                .allowed_mentions(pings::only(&players));
            poster.send(message).await
        }
        Owed::Archive { match_id } => {
            let thread = table
                .call_quietly(move |t| t.store().load_head(match_id).map(|m| m.place.thread_id))
                .await
                .map_err(table_busy)?;
            // Only a thread is archived; a match played in its channel has none.
            if !matches!(thread, Ok(Some(_))) {
                return Ok(());
            }
            let edit = serenity::EditThread::new().archived(true).locked(true);
            to.edit_thread(http, edit)
                .await
                .map(|_| ())
                .map_err(|e| classify(&e))
        }
        Owed::ChallengeExpired { challenge } => {
            let found = table
                .call_quietly(move |t| t.store().challenge(challenge))
                .await
                .map_err(table_busy)?;
            let Ok(c) = found else {
                return Ok(());
            };
            let Some(message) = c.message_id.as_deref().and_then(|id| id.parse().ok()) else {
                return Ok(());
            };
            let edit = serenity::EditMessage::new()
                .content(format!(
                    "This challenge to {} expired <t:{}:R>: not everyone accepted in time. Start a new one with /play.",
                    c.game.name(),
                    c.expires_at
                ))
                .components(vec![]);
            to.edit_message(http, serenity::MessageId::new(message), edit)
                .await
                .map(|_| ())
                .map_err(|e| classify(&e))
        }
        Owed::League {
            league,
            closed,
            started,
        } => {
            let mut lines = plain::plain_lines(&closed);
            let round = match started {
                Some(round) => table
                    .call_quietly(move |t| t.round_to_announce(league, round))
                    .await
                    .map_err(table_busy)?
                    .map_err(|e| Failure::Later {
                        reason: logs::chain(&e),
                        after: None,
                    })?,
                None => None,
            };
            if let Some((_, started)) = &round {
                lines.push(format!(
                    "Round {} is paired; it closes <t:{}:R>.",
                    started.round, started.deadline
                ));
            }
            for text in limits::chunks(&lines, limits::CONTENT) {
                poster.say(text).await?;
            }
            if let Some((_, started)) = round {
                rounds::announce(http, table, to, (league, pages), started, &poster.nonces)
                    .await
                    .map_err(|e| match e.downcast_ref::<serenity::Error>() {
                        // Discord refused (a missing permission): trying again would post
                        // and ping every pairing line again, to be refused again.
                        Some(e) => classify(e),
                        None => Failure::Later {
                            reason: logs::chain(&*e),
                            after: None,
                        },
                    })?;
            }
            Ok(())
        }
        Owed::Round {
            closed, started, ..
        } => {
            let mut lines = plain::plain_lines(&closed);
            if let Some((round, deadline)) = started {
                lines.push(format!(
                    "Round {round} is paired; it closes <t:{deadline}:R>."
                ));
            }
            for text in limits::chunks(&lines, limits::CONTENT) {
                poster.say(text).await?;
            }
            Ok(())
        }
        Owed::Pairing {
            league,
            round,
            board,
            match_id,
        } => {
            let found = table
                .call_quietly(move |t| t.pairing_to_announce(league, round, board, match_id))
                .await
                .map_err(table_busy)?
                .map_err(|e| Failure::Later {
                    reason: logs::chain(&e),
                    after: None,
                })?;
            match found {
                Some((p, seated)) => {
                    let link = rounds::season_link(table, league, pages).await;
                    poster
                        .send(rounds::pairing_message(round, &p, &seated, link))
                        .await
                }
                // Paired again since: the new boards are owed posts of their own.
                None => Ok(()),
            }
        }
        Owed::Note { lines, .. } => {
            let lines = plain::plain_lines(&lines);
            for text in limits::chunks(&lines, limits::CONTENT) {
                poster.send(quiet(text)).await?;
            }
            Ok(())
        }
        Owed::Vacation {
            match_id,
            line,
            back,
        } => {
            let update = shown(table, match_id).await?;
            let text = vacation_text(&update, &line, back);
            poster.send(quiet(text)).await
        }
        Owed::Nudge {
            match_id,
            from,
            waiting,
        } => {
            // Sent late (an outage, a restart): only those still to act are pinged; a match
            // over, or moved on by everyone nudged, is not nudged at all.
            let now = shown(table, match_id).await?;
            let waiting: Vec<_> = waiting
                .into_iter()
                .filter(|w| now.to_act.iter().any(|(_, p)| p.id == w.id))
                .collect();
            if now.result.is_some() || waiting.is_empty() {
                return Ok(());
            }
            let pings: Vec<String> = waiting.iter().map(mention).collect();
            let text = format!(
                "{}: {} is waiting for your move in match #{match_id}.",
                pings.join(", "),
                mention(&from)
            );
            let message = serenity::CreateMessage::new()
                .content(limits::cut(&text, limits::CONTENT))
                .allowed_mentions(pings::only(&waiting));
            poster.send(message).await
        }
        Owed::OpenThread {
            match_id,
            from,
            round,
            ..
        } => threads::open(http, table, to, match_id, from.as_deref(), round)
            .await
            .map_err(opening_failure),
        Owed::Opened {
            match_id,
            message,
            thread,
        } => threads::tell_opened(http, to, match_id, &message, &thread)
            .await
            .map_err(|e| classify(&e)),
        Owed::NoThread {
            match_id,
            challenge,
            reason,
            called_off,
            players,
        } => {
            let destination = Destination::parse(&post.destination);
            threads::tell(
                http,
                table,
                to,
                &poster.nonces,
                destination,
                match_id,
                challenge,
                &reason,
                called_off,
                &players,
            )
            .await
            .map_err(opening_failure)
        }
    }
}

/// Sends the messages of one post to `to`, each stamped with its nonce (see
/// [`crate::discord::shared::nonces`]).
struct Poster<'a> {
    http: &'a serenity::Http,
    to: serenity::ChannelId,
    nonces: Nonces,
}

impl<'a> Poster<'a> {
    fn new(http: &'a serenity::Http, to: serenity::ChannelId, post: i64) -> Self {
        Self {
            http,
            to,
            nonces: Nonces::new(post),
        }
    }

    /// Sends the post's next message.
    async fn send(&self, message: serenity::CreateMessage) -> Result<(), Failure> {
        self.to
            .send_message(self.http, self.nonces.stamp(message))
            .await
            .map(|_| ())
            .map_err(|e| classify(&e))
    }

    /// Sends `text` as the post's next message (mentions as serenity allows by default).
    async fn say(&self, text: String) -> Result<(), Failure> {
        self.send(serenity::CreateMessage::new().content(text))
            .await
    }
}

/// A message of `text` that pings nobody.
fn quiet(text: String) -> serenity::CreateMessage {
    serenity::CreateMessage::new()
        .content(text)
        .allowed_mentions(pings::nobody())
}

/// An interaction showed `update`'s board: the post it owed is marked sent, so the outbox does
/// not post it again. A failure is logged: the board is then posted once more when the lease
/// ends, which is better than never.
pub(crate) async fn delivered(table: &TableHandle, update: &crate::table::Update) {
    if update.repeated {
        return;
    }
    let (id, version) = (update.match_id, update.version);
    match table.call(move |t| t.delivered(id, version)).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            tracing::error!(match_id = id, error = %logs::chain(&e), "a board shown could not be marked sent")
        }
        Err(_) => {}
    }
}

/// Posting `update`'s board failed: the post it owed is sent by the outbox at once (with its
/// retries), not when the lease ends.
pub(crate) async fn undelivered(table: &TableHandle, update: &crate::table::Update) {
    if update.repeated {
        return;
    }
    let (id, version) = (update.match_id, update.version);
    if let Ok(Err(e)) = table.call(move |t| t.undelivered(id, version)).await {
        tracing::error!(match_id = id, error = %logs::chain(&e), "a board not shown could not be owed at once");
    }
}
