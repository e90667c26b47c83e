//! Typed moves posted while the bot was down. The gateway replays missed events only on a
//! RESUME; after a restart (READY) or an INVALID_SESSION (serenity identifies again, and READY
//! follows) the bot reads each active match thread's messages posted after the last one it saw
//! there ([`crate::store::Store::last_seen`]), oldest first, and handles each as if it had just
//! arrived. A move is keyed by its message's id, so one handled already is never applied or
//! announced twice. A shard reads only the threads of the servers Discord routes to it, so
//! several shards or processes never read the same thread at one start.

use crate::discord::events::chat;
use crate::discord::format::logs;
use crate::discord::{Data, Error};
use crate::store::MatchId;
use poise::serenity_prelude as serenity;
use std::time::Duration;

/// Messages asked for at once (Discord's most).
const PAGE: u8 = 100;
/// The most pages read in one thread at one start (10,000 messages): a thread that busy is
/// read up to there, and the rest is left.
const MOST_PAGES: usize = 100;

/// The shard that became ready: its number and how many there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub id: u32,
    pub total: u32,
}

impl Shard {
    /// The shard a READY is for (the only one, when it does not say).
    pub fn of(ready: &serenity::Ready) -> Shard {
        ready.shard.map_or(Shard { id: 0, total: 1 }, |s| Shard {
            id: s.id.0,
            total: s.total.max(1),
        })
    }

    /// Whether Discord routes server `guild`'s events to this shard.
    pub fn serves(self, guild: u64) -> bool {
        crate::discord::config::shard_of(guild, self.total) == self.id
    }
}

/// Starts reading what was missed in `shard`'s servers, in its own task (the gateway goes on
/// meanwhile).
pub fn spawn(ctx: &serenity::Context, data: &Data, shard: Shard) {
    let ctx = ctx.clone();
    let data = data.clone();
    tokio::spawn(async move {
        if let Err(e) = catch_up(&ctx, &data, shard).await {
            tracing::error!(error = %logs::chain(&*e), "the messages posted while the bot was away could not be read");
        }
    });
}

/// An active match thread to read: the match, its thread, its server, the last message seen.
type ThreadToRead = (MatchId, String, u64, Option<u64>);

/// Reads the missed messages of every active match thread in `shard`'s servers, thread by
/// thread.
pub async fn catch_up(ctx: &serenity::Context, data: &Data, shard: Shard) -> Result<(), Error> {
    let threads = data
        .table
        .call(
            move |t| -> Result<Vec<ThreadToRead>, crate::table::TableError> {
                let mut out = Vec::new();
                for (id, thread) in t.store().active_in_threads()? {
                    // A match whose thread or server is gone has nothing to read.
                    if t.is_held(id)? {
                        continue;
                    }
                    // Another shard's server is that shard's to read.
                    let guild = t.store().load_head(id)?.place.guild_id;
                    let Some(guild) = guild
                        .and_then(|g| g.parse::<u64>().ok())
                        .filter(|&g| g != 0 && shard.serves(g))
                    else {
                        continue;
                    };
                    let seen = t.store().last_seen(&thread)?;
                    out.push((id, thread, guild, seen));
                }
                Ok(out)
            },
        )
        .await??;
    let mut left: Vec<(MatchId, u64, u64, u64)> = Vec::new();
    for (id, thread, guild, seen) in threads {
        let Some(channel) = thread.parse::<u64>().ok().filter(|&c| c != 0) else {
            continue;
        };
        // Never seen anything there (a thread from before this was kept): from its start; a
        // thread's messages all come after it.
        left.push((id, channel, guild, seen.unwrap_or(channel)));
    }
    // Threads whose reading failed in passing (a 5xx, a timeout) are read again after a pause,
    // a few times: a typed move is never lost to one failed request.
    for pass in 0..=RETRIES {
        if pass > 0 {
            if left.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1 << pass)).await;
        }
        let mut again = Vec::new();
        for (id, channel, guild, after) in left {
            let (thread, server) = (
                serenity::ChannelId::new(channel),
                serenity::GuildId::new(guild),
            );
            match read_thread(ctx, data, thread, server, after).await {
                Ok(0) => {}
                Ok(count) => tracing::info!(
                    match_id = id,
                    count,
                    "messages posted while the bot was away were read"
                ),
                Err(e) if pass < RETRIES && passing(&*e) => again.push((id, channel, guild, after)),
                Err(e) => {
                    tracing::warn!(match_id = id, error = %logs::chain(&*e), "a match thread's missed messages could not be read")
                }
            }
        }
        left = again;
    }
    Ok(())
}

/// How many times a thread whose reading failed in passing is read again.
const RETRIES: u32 = 4;

/// Whether `error` may pass: Discord's server errors and failed connections, not a refusal.
fn passing(error: &(dyn std::error::Error + 'static)) -> bool {
    match error.downcast_ref::<serenity::Error>() {
        Some(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))) => {
            r.status_code.is_server_error()
        }
        Some(serenity::Error::Http(serenity::HttpError::Request(_))) => true,
        _ => false,
    }
}

/// Handles `channel`'s messages after message `after`, oldest first; returns how many.
async fn read_thread(
    ctx: &serenity::Context,
    data: &Data,
    channel: serenity::ChannelId,
    guild: serenity::GuildId,
    mut after: u64,
) -> Result<usize, Error> {
    let mut count = 0;
    for _ in 0..MOST_PAGES {
        let ask = serenity::GetMessages::new()
            .after(serenity::MessageId::new(after))
            .limit(PAGE);
        let mut page = channel.messages(&ctx.http, ask).await?;
        // Discord gives the newest first.
        page.sort_by_key(|m| m.id);
        let full = page.len() >= usize::from(PAGE);
        for mut message in page {
            if message.id.get() <= after {
                continue;
            }
            after = message.id.get();
            count += 1;
            // Messages read through the REST API do not say their server.
            message.guild_id = Some(guild);
            chat::on_message(ctx, &message, data).await;
        }
        let thread = channel.to_string();
        data.table
            .call(move |t| t.store().saw_message(&thread, after))
            .await??;
        if !full {
            break;
        }
    }
    Ok(count)
}
