//! `/rules`: the short rules summary each game declares.

use crate::discord::format::options::GameChoice;
use crate::discord::shared::lookups::ephemeral;
use crate::discord::{Context, Error};
use crate::games::GameKind;

/// The game's one-paragraph rules ([`crate::engine::Game::SUMMARY`]), or its name alone.
pub fn rules_summary(game: GameKind) -> String {
    match game.summary() {
        "" => format!("**{}**", game.name()),
        summary => summary.to_string(),
    }
}

/// A short summary of a game's rules.
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameChoice,
) -> Result<(), Error> {
    ephemeral(ctx, &rules_summary(game.kind())).await
}
