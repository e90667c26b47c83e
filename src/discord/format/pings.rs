//! Who a message may notify. Nobody, by default: the HTTP client and poise are both set to
//! [`nobody`], so a name or a reason that reads `@everyone` or `<@&role>` notifies no one.
//! A post that means to call players (their turn, a reminder, a challenge, a round's games)
//! names them with [`only`]: those users, and no role, no `@everyone`.

use crate::store::Player;
use crate::table::Update;
use poise::serenity_prelude as serenity;

/// Mentions notify nobody.
pub fn nobody() -> serenity::CreateAllowedMentions {
    serenity::CreateAllowedMentions::new()
}

/// Mentions notify these players (those on Discord) and nobody else.
pub fn only<'a>(players: impl IntoIterator<Item = &'a Player>) -> serenity::CreateAllowedMentions {
    let users: Vec<serenity::UserId> = players
        .into_iter()
        .filter_map(|p| p.discord_id.as_deref()?.parse().ok())
        .filter(|&id: &u64| id != 0)
        .map(serenity::UserId::new)
        .collect();
    nobody().users(users)
}

/// The players an update's message calls (those to act, while the match goes on).
pub fn of_update(update: &Update) -> serenity::CreateAllowedMentions {
    match update.result {
        None => only(update.to_act.iter().map(|(_, p)| p)),
        Some(_) => nobody(),
    }
}
