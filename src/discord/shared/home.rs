//! Whether a channel can be a match's home, judged from what Discord sends with the
//! interaction (its channel's type, and the bot's permissions there as `app_permissions`),
//! before anything is stored: a match lives in a public thread the bot opens from the
//! challenge, posts boards in (pictures) and talks in.

use poise::serenity_prelude as serenity;
use serenity::{ChannelType, Permissions};

/// What the bot needs in a channel to hold matches there, with each permission's name as
/// Discord's settings show it.
pub const NEEDED: [(Permissions, &str); 5] = [
    (Permissions::VIEW_CHANNEL, "View Channel"),
    (Permissions::SEND_MESSAGES, "Send Messages"),
    (Permissions::CREATE_PUBLIC_THREADS, "Create Public Threads"),
    (
        Permissions::SEND_MESSAGES_IN_THREADS,
        "Send Messages in Threads",
    ),
    (Permissions::ATTACH_FILES, "Attach Files"),
];

/// Why a match cannot start in a channel of type `kind` where the bot has `permissions`
/// (None: Discord did not say, and nothing is assumed).
pub fn problem(kind: Option<ChannelType>, permissions: Option<Permissions>) -> Option<String> {
    let place = match kind {
        None | Some(ChannelType::Text | ChannelType::News) => None,
        Some(ChannelType::Private | ChannelType::GroupDm) => Some("a direct message"),
        Some(ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread) => {
            Some("a thread (a match's thread cannot be opened inside another)")
        }
        Some(ChannelType::Voice) => Some("a voice channel"),
        Some(ChannelType::Stage) => Some("a stage channel"),
        Some(ChannelType::Forum) => Some("a forum channel"),
        Some(_) => Some("a channel that cannot hold threads"),
    };
    if let Some(place) = place {
        return Some(format!(
            "I can't start a match here: this is {place}, and every match is played in a thread \
             of its own. Use /play in one of the server's text channels."
        ));
    }
    let have = permissions?;
    let missing: Vec<&str> = NEEDED
        .iter()
        .filter(|(p, _)| !have.contains(*p))
        .map(|(_, name)| *name)
        .collect();
    match missing.as_slice() {
        [] => None,
        [one] => Some(format!(
            "I can't start a match here: I need {one} in this channel. A server admin can grant \
             it in the channel's permissions."
        )),
        [first @ .., last] => Some(format!(
            "I can't start a match here: I need {} and {last} in this channel. A server admin \
             can grant them in the channel's permissions.",
            first.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests;
