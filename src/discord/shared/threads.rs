//! Match threads made by the outbox's sender ([`crate::table::outbox::Owed::OpenThread`]). A
//! match created for Discord waits, held, for its thread: a challenge's is made from the
//! challenge's message, a league board's as a thread of its own in the league's channel (so a
//! try made again never posts a pairing line twice). Once made, the table stores it, starts
//! the clocks and owes the first board, and the challenge's message is owed an edit saying where the match is.
//! A thread that cannot be made (refused for good, or still failing after the outbox's tries)
//! calls a challenge's match off, or holds a league board's until `/board` reopens it; the
//! players are told why in plain words ([`Owed::NoThread`]).

use crate::discord::format::boards::mention;
use crate::discord::format::{limits, logs, pings};
use crate::discord::shared::nonces::Nonces;
use crate::store::outbox::{Destination, Post};
use crate::store::{ChallengeId, MatchId, Player};
use crate::table::outbox::Owed;
use crate::table::{NoThread, Table, TableError, TableHandle};
use poise::serenity_prelude as serenity;

/// Discord's code for a message that has a thread already.
const THREAD_EXISTS: isize = 160004;
/// Discord's code for a message that does not exist (deleted).
const UNKNOWN_MESSAGE: isize = 10008;

/// Why a thread was not made (or a notice not given).
#[derive(Debug)]
pub enum OpenError {
    /// Discord refused or failed: the outbox classifies it.
    Discord(serenity::Error),
    /// The table could not be asked or could not store it: tried again later.
    Table(String),
}

impl From<serenity::Error> for OpenError {
    fn from(e: serenity::Error) -> Self {
        OpenError::Discord(e)
    }
}

fn table_error(e: impl std::fmt::Display) -> OpenError {
    OpenError::Table(e.to_string())
}

/// Makes match `match_id`'s thread in `channel` (from message `from` there, else a thread of
/// its own), then has the table store it, start the clocks and owe the first board; a
/// challenge's message then says where the match is on. Nothing is done for a match that no
/// longer waits for its thread (over, or opened already).
pub async fn open(
    http: &serenity::Http,
    table: &TableHandle,
    channel: serenity::ChannelId,
    match_id: MatchId,
    from: Option<&str>,
    round: Option<u32>,
) -> Result<(), OpenError> {
    let waiting = table
        .call_quietly(move |t| -> Result<_, TableError> {
            match t.awaits_thread(match_id)? {
                true => t.show(match_id).map(Some),
                false => Ok(None),
            }
        })
        .await
        .map_err(table_error)?
        .map_err(table_error)?;
    let Some(show) = waiting else {
        tracing::debug!(match_id, "a match no longer waits for its thread");
        return Ok(());
    };
    let names: Vec<&str> = show
        .seat_views
        .iter()
        .map(|(_, p, _)| p.name.as_str())
        .collect();
    let title = match round {
        Some(round) => format!("{} round {round}: {}", show.game.name(), names.join(" vs ")),
        None => format!("{}: {}", show.game.name(), names.join(" vs ")),
    };
    let builder = serenity::CreateThread::new(limits::thread_name(&title))
        .kind(serenity::ChannelType::PublicThread);
    let message = from
        .and_then(|id| id.parse::<u64>().ok())
        .filter(|&id| id != 0)
        .map(serenity::MessageId::new);
    let made = match message {
        Some(message) => {
            match channel
                .create_thread_from_message(http, message, builder)
                .await
            {
                Ok(thread) => thread.id,
                // Made by an earlier try whose outcome was not stored: that thread is used.
                Err(e) if code_of(&e) == Some(THREAD_EXISTS) => {
                    let found = channel.message(http, message).await?;
                    match found.thread {
                        Some(thread) => thread.id,
                        None => return Err(e.into()),
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
        None => channel.create_thread(http, builder).await?.id,
    };
    let thread = made.to_string();
    let message_id = message.map(|m| m.to_string());
    let opened = table
        .call(move |t| t.thread_opened(match_id, &thread, message_id.as_deref()))
        .await
        .map_err(table_error)?;
    match opened {
        Ok(Some(_)) => {
            tracing::info!(match_id, thread = %made, "a match's thread was made; its clocks run");
        }
        Ok(None) => {
            tracing::warn!(match_id, thread = %made, "a thread was made for a match that no longer waits for one");
            return Ok(());
        }
        Err(e) => {
            // Not stored: the next try finds the thread of a challenge's message (above); a
            // league board's would get a second thread, better than none.
            tracing::error!(match_id, thread = %made, error = %logs::chain(&e), "a match's new thread could not be stored");
            return Err(table_error(e));
        }
    }
    Ok(())
}

/// Edits a challenge's `message` in `channel` to say that match `match_id` is on in `thread`
/// (nothing to do if the message was deleted).
pub async fn tell_opened(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    match_id: MatchId,
    message: &str,
    thread: &str,
) -> Result<(), serenity::Error> {
    let Some(message) = message.parse::<u64>().ok().filter(|&id| id != 0) else {
        return Ok(());
    };
    let edit = serenity::EditMessage::new()
        .content(format!(
            "Challenge accepted: match #{match_id} is on in <#{thread}>."
        ))
        .components(vec![])
        .allowed_mentions(pings::nobody());
    match channel
        .edit_message(http, serenity::MessageId::new(message), edit)
        .await
    {
        // The challenge's message was deleted: the thread is there all the same.
        Err(e) if code_of(&e) == Some(UNKNOWN_MESSAGE) => Ok(()),
        done => done.map(|_| ()),
    }
}

/// Discord's JSON error code of a refused request, if it is one.
fn code_of(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// Why a thread in `channel` could not be made, in plain words for players: from Discord's
/// error `code` when it refused for good, else (`None`: still failing after every try) from
/// the last failure's `detail`.
pub fn why(code: Option<isize>, detail: &str, channel: Option<&str>, from_message: bool) -> String {
    let place = channel.map_or_else(|| "its channel".to_string(), |c| format!("<#{c}>"));
    // Discord's own words, shown as plain text.
    let detail = crate::discord::format::plain::plain(&limits::cut(detail, 200));
    match code {
        Some(50013) if from_message => {
            format!("the bot lacks Create Public Threads (or Read Message History) in {place}")
        }
        Some(50013) => format!("the bot lacks Create Public Threads in {place}"),
        Some(50001) => format!("the bot cannot see {place} (it lacks View Channel there)"),
        Some(10003) => format!("{place} no longer exists"),
        Some(10008) => format!("the challenge's message in {place} was deleted"),
        Some(50024) => format!("threads cannot be made in {place}"),
        Some(_) => format!("Discord refused to make it in {place} ({detail})"),
        None => format!("Discord kept failing to make it in {place} ({detail})"),
    }
}

/// The outbox gave up on the thread of post `post` (an [`Owed::OpenThread`]): Discord refused
/// it for good (`code`) or kept failing (`detail`). In the table's call that recorded it: the
/// match is called off or held and its players owed a word (see [`Table::opening_failed`]).
pub fn gave_up(
    t: &mut Table,
    post: &Post,
    code: Option<isize>,
    detail: &str,
) -> Result<Option<NoThread>, TableError> {
    let Ok(Owed::OpenThread {
        match_id,
        from,
        challenge,
        ..
    }) = Owed::parse(&post.payload)
    else {
        return Ok(None);
    };
    let channel = t.store().load_head(match_id)?.place.channel_id;
    let reason = why(code, detail, channel.as_deref(), from.is_some());
    let done = t.opening_failed(match_id, challenge, post.id, &reason)?;
    tracing::warn!(match_id, ?done, %reason, "a match's thread could not be made");
    Ok(Some(done))
}

/// Tells of match `match_id`'s thread that could not be made: a user by direct message
/// (`to` is their DM channel), a challenge's channel by editing the challenge's message, another
/// channel with a post naming the players.
#[allow(clippy::too_many_arguments)] // the fields of the post
pub async fn tell(
    http: &serenity::Http,
    table: &TableHandle,
    to: serenity::ChannelId,
    nonces: &Nonces,
    destination: Option<Destination>,
    match_id: MatchId,
    challenge: Option<ChallengeId>,
    reason: &str,
    called_off: bool,
    players: &[Player],
) -> Result<(), OpenError> {
    let found = table
        .call_quietly(move |t| {
            let head = t.store().load_head(match_id)?;
            let message = match challenge {
                Some(c) => t.store().challenge(c).ok().and_then(|c| c.message_id),
                None => None,
            };
            Ok::<_, crate::store::StoreError>((head.game, message))
        })
        .await
        .map_err(table_error)?
        .map_err(table_error)?;
    let (game, message) = found;
    let game = game.name();
    let text = notice(match_id, game, reason, called_off, false);
    match destination {
        Some(Destination::User(_)) => {
            let text = notice(match_id, game, reason, called_off, true);
            let dm = serenity::CreateMessage::new()
                .content(limits::cut(&text, limits::CONTENT))
                .allowed_mentions(pings::nobody());
            to.send_message(http, nonces.stamp(dm)).await?;
        }
        _ => {
            let edit = message
                .as_deref()
                .and_then(|m| m.parse::<u64>().ok())
                .filter(|&m| m != 0);
            if let Some(m) = edit {
                let edit = serenity::EditMessage::new()
                    .content(limits::cut(&text, limits::CONTENT))
                    .components(vec![])
                    .allowed_mentions(pings::nobody());
                match to
                    .edit_message(http, serenity::MessageId::new(m), edit)
                    .await
                {
                    Ok(_) => return Ok(()),
                    // The challenge's message was deleted: the channel is told in a post.
                    Err(e) if code_of(&e) == Some(UNKNOWN_MESSAGE) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            let named: Vec<String> = players.iter().map(mention).collect();
            let text = format!("{}: {text}", named.join(", "));
            let post = serenity::CreateMessage::new()
                .content(limits::cut(&text, limits::CONTENT))
                .allowed_mentions(pings::only(players));
            to.send_message(http, nonces.stamp(post)).await?;
        }
    }
    Ok(())
}

/// What players are told of match `match_id`'s thread that could not be made (`yours`: by
/// direct message, to one of them).
fn notice(match_id: MatchId, game: &str, reason: &str, called_off: bool, yours: bool) -> String {
    let whose = if yours { "your " } else { "" };
    match called_off {
        true => format!(
            "{} match #{match_id} ({game}) was called off before it began: its thread could not \
             be made, because {reason}. Nothing was recorded or rated; once that is fixed, \
             challenge again with /play.",
            if yours { "Your" } else { "The" }
        ),
        false => format!(
            "The thread of {whose}league match #{match_id} ({game}) could not be made, because \
             {reason}. Its clocks are held: use /board in any channel of the server to open it \
             there."
        ),
    }
}
