//! The permissions the bot asks for when it is invited to a server, each with what it is for
//! (README.md's invite link and docs/admin.md say the same).

use poise::serenity_prelude as serenity;

/// Each permission the bot uses, and what for.
pub const PERMISSIONS: [(serenity::Permissions, &str); 9] = [
    (
        serenity::Permissions::VIEW_CHANNEL,
        "see the channels it plays in and the messages typed in match threads",
    ),
    (
        serenity::Permissions::SEND_MESSAGES,
        "post challenges, league rounds and answers",
    ),
    (
        serenity::Permissions::CREATE_PUBLIC_THREADS,
        "open a thread for each match",
    ),
    (
        serenity::Permissions::SEND_MESSAGES_IN_THREADS,
        "post boards, turns, reminders and results in match threads",
    ),
    (
        serenity::Permissions::MANAGE_THREADS,
        "archive and lock a match's thread a day after it ends",
    ),
    (
        serenity::Permissions::ATTACH_FILES,
        "attach the board pictures, replays and exported logs",
    ),
    (serenity::Permissions::EMBED_LINKS, "show links to matches"),
    (
        serenity::Permissions::ADD_REACTIONS,
        "mark a typed move it cannot play with ❌",
    ),
    (
        serenity::Permissions::READ_MESSAGE_HISTORY,
        "react to and answer the messages in match threads",
    ),
];

/// The permission integer of the invite link: every permission of [`PERMISSIONS`].
pub const INVITE_PERMISSIONS: u64 = 326_417_632_320;

/// [`INVITE_PERMISSIONS`] computed from the permissions themselves.
pub fn invite_permissions() -> serenity::Permissions {
    PERMISSIONS
        .iter()
        .fold(serenity::Permissions::empty(), |all, (p, _)| all | *p)
}

#[cfg(test)]
mod tests;
