//! Direct messages, remembering who refused them. A user whose DMs refuse the bot (Discord's
//! 50007 "Cannot send messages to this user", whether at opening the DM channel or at the send)
//! is remembered in the store; what the bot would send them then goes to the match thread
//! instead (where there is something public to say) and their DMs are not tried again on every
//! turn. A direct message that gets through (one they asked for: `/view dm:true`, a change of
//! `/settings me`) forgets it.

use crate::discord::format::logs;
use crate::discord::shared::dm_memory;
use crate::table::TableHandle;
use poise::serenity_prelude as serenity;
use std::fmt;

/// Discord's code for a user whose direct messages refuse the bot.
pub const CLOSED_DMS: isize = 50007;

/// Why a direct message was not sent.
#[derive(Debug)]
pub enum DmFailure {
    /// Their DMs are closed to the bot (known already, or refused just now).
    Closed,
    /// Something else went wrong (Discord, the network, the store).
    Other(String),
}

impl fmt::Display for DmFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DmFailure::Closed => f.write_str("their direct messages are closed to the bot"),
            DmFailure::Other(why) => f.write_str(why),
        }
    }
}

/// The line `/settings me` shows for a user whose DMs are closed.
pub const CLOSED_LINE: &str = "Your DMs are closed to me; I post in the match thread instead.";

/// Whether `e` is Discord refusing a direct message to a user who does not take them.
pub fn is_closed(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
            if r.error.code == CLOSED_DMS
    )
}

/// Whether `user`'s direct messages are remembered as closed (a store failure counts as open:
/// the DM is tried).
pub async fn closed(table: &TableHandle, user: serenity::UserId) -> bool {
    let id = user.to_string();
    matches!(
        table.call(move |t| t.store().dms_closed(&id)).await,
        Ok(Ok(true))
    )
}

/// Sends `message` to `user` by direct message, unless their DMs are remembered as closed.
pub async fn send(
    http: &serenity::Http,
    table: &TableHandle,
    user: serenity::UserId,
    message: serenity::CreateMessage,
) -> Result<(), DmFailure> {
    if closed(table, user).await {
        return Err(DmFailure::Closed);
    }
    try_again(http, table, user, message).await
}

/// Sends `message` to `user` by direct message even when their DMs are remembered as closed
/// (they asked for it): one that gets through forgets it, one refused remembers it.
pub async fn try_again(
    http: &serenity::Http,
    table: &TableHandle,
    user: serenity::UserId,
    message: serenity::CreateMessage,
) -> Result<(), DmFailure> {
    let id = user.to_string();
    match dm_memory::direct(http, user, message).await {
        Ok(()) => {
            let forgot = table.call(move |t| t.store().forget_closed_dms(&id)).await;
            if let Ok(Ok(true)) = forgot {
                tracing::info!(%user, "a direct message got through; the user's DMs are open again");
            }
            Ok(())
        }
        Err(e) if is_closed(&e) => {
            let remembered = table
                .call(move |t| {
                    let now = t.now();
                    t.store().remember_closed_dms(&id, now)
                })
                .await;
            if let Ok(Err(e)) = remembered {
                tracing::error!(%user, error = %logs::chain(&e), "closed DMs could not be remembered");
            }
            tracing::info!(%user, "a user's DMs are closed to the bot; the match thread is used instead");
            Err(DmFailure::Closed)
        }
        Err(e) => Err(DmFailure::Other(logs::chain(&e))),
    }
}

/// Sends `message` to `user` by direct message.
pub(crate) async fn direct(
    http: &serenity::Http,
    user: serenity::UserId,
    message: serenity::CreateMessage,
) -> Result<(), serenity::Error> {
    let dm = user.create_dm_channel(http).await?;
    dm.id.send_message(http, message).await?;
    Ok(())
}
