//! The top floor's command side: one file per command group, each a set of slash commands
//! that parse, acknowledge, call the table and answer. This list is the one place that names
//! them all (for registration); no other file imports a command group.

mod admin;
mod league;
mod matches;
mod moves;
mod play;
mod rules;
mod settings;
mod vacation;

use crate::discord::{Data, Error};
#[cfg(test)]
pub(crate) use rules::rules_summary;

/// Every slash command the bot registers, in the order Discord lists them.
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    vec![
        play::play(),
        moves::move_(),
        moves::board(),
        moves::view(),
        moves::resign(),
        moves::draw(),
        matches::games(),
        matches::history(),
        matches::export(),
        matches::replay(),
        rules::rules(),
        settings::time(),
        settings::nudge(),
        settings::settings(),
        vacation::vacation(),
        admin::admin(),
        league::league(),
        league::rating(),
        league::leaderboard(),
    ]
}
