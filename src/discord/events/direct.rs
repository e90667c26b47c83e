//! Moves sent by direct message. A player can play any of their matches from a DM with the bot:
//! a bare action goes to the one match where it is their turn and it reads as a move; with
//! several, buttons ask which (or `#12 e4` names the match). The answer comes in the DM; the
//! public board goes to the match's thread.

use crate::discord::format::boards::confirmation;
use crate::discord::format::ids::ButtonAction;
use crate::discord::format::logs;
use crate::discord::format::logs::player_message;
use crate::discord::shared::acting;
use crate::discord::shared::acting::played_elsewhere;
use crate::discord::shared::lookups::player_of;
use crate::discord::{Data, Error};
use crate::store::{MatchId, Player};
use crate::table::TableError;
use poise::serenity_prelude as serenity;

/// `#12 e4` names match 12; anything else is a bare action.
fn named_match(text: &str) -> (Option<MatchId>, &str) {
    let Some(rest) = text.trim().strip_prefix('#') else {
        return (None, text.trim());
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match rest[..digits].parse() {
        Ok(id) => (Some(id), rest[digits..].trim()),
        Err(_) => (None, text.trim()),
    }
}

/// A direct message to the bot: a move in one of the sender's matches, or a word on how to send
/// one. Failures are logged.
pub async fn on_direct_message(ctx: &serenity::Context, msg: &serenity::Message, data: &Data) {
    if let Err(e) = direct_move(ctx, msg, data).await {
        tracing::error!(message = %msg.id, error = %logs::chain(&*e), "a move by direct message could not be handled");
    }
}

async fn direct_move(
    ctx: &serenity::Context,
    msg: &serenity::Message,
    data: &Data,
) -> Result<(), Error> {
    let player = player_of(data, &msg.author).await?;
    let (named, text) = named_match(&msg.content);
    let text = text.to_string();
    let said = text.clone();
    let player_id = player.id;
    // The matches where it is the sender's turn and the text reads as their move.
    let (candidates, waiting, allowed) = data
        .table
        .call(move |t| -> Result<_, TableError> {
            let mut candidates = Vec::new();
            let mut waiting = 0;
            for listing in t.matches_of(player_id)? {
                if named.is_some_and(|id| id != listing.match_id) || !listing.your_turn {
                    continue;
                }
                waiting += 1;
                if t.reads_as_action(listing.match_id, player_id, &said)? {
                    let legal = t.allows(listing.match_id, player_id, &said)?;
                    candidates.push((listing, legal));
                }
            }
            // Where the move is allowed, if anywhere; else where it reads as a move (one
            // such match is played, to say why it is refused).
            let allowed = candidates.iter().any(|c| c.1);
            if allowed {
                candidates.retain(|c| c.1);
            }
            let candidates: Vec<_> = candidates.into_iter().map(|(l, _)| l).collect();
            Ok((candidates, waiting, allowed))
        })
        .await??;
    let answer = |text: String| serenity::CreateMessage::new().content(text);
    match candidates.as_slice() {
        [] => {
            let text = match (named, waiting) {
                (Some(id), 0) => {
                    format!("It is not your turn in match #{id} (or it is not yours).")
                }
                (None, 0) => {
                    "It is not your turn in any of your matches. /games lists them.".into()
                }
                _ => format!(
                    "\"{}\" is not a move in {}. Send a move like e4, or #12 e4 to name the match.",
                    crate::engine::echo(&text),
                    if waiting == 1 {
                        "the match where it is your turn".to_string()
                    } else {
                        format!("any of the {waiting} matches where it is your turn")
                    }
                ),
            };
            msg.channel_id.send_message(&ctx.http, answer(text)).await?;
            Ok(())
        }
        [listing] => play(ctx, msg, data, &player, listing.match_id, text).await,
        several if !allowed => {
            let ids: Vec<String> = several.iter().map(|l| format!("#{}", l.match_id)).collect();
            let text = format!(
                "\"{}\" is not allowed in any of your matches where it is your turn ({}). Send #{} {} to see why.",
                crate::engine::echo(&text),
                ids.join(", "),
                several[0].match_id,
                crate::engine::echo(&text)
            );
            msg.channel_id.send_message(&ctx.http, answer(text)).await?;
            Ok(())
        }
        several => {
            // Which match? One button each, playing the move there.
            let buttons: Vec<serenity::CreateButton> = several
                .iter()
                .take(5)
                .map(|l| {
                    let id = ButtonAction::Act {
                        match_id: l.match_id,
                        version: l.version,
                        text: text.clone(),
                    }
                    .custom_id();
                    let label = format!(
                        "#{} {} ({})",
                        l.match_id,
                        l.game.name(),
                        l.players.join(", ")
                    );
                    serenity::CreateButton::new(id)
                        .label(label.chars().take(80).collect::<String>())
                })
                .collect();
            let question = answer(format!(
                "\"{}\" can be played in {} matches. Which one? (Or send #12 {} to name it.)",
                crate::engine::echo(&text),
                several.len(),
                crate::engine::echo(&text)
            ))
            .components(vec![serenity::CreateActionRow::Buttons(buttons)]);
            msg.channel_id.send_message(&ctx.http, question).await?;
            Ok(())
        }
    }
}

/// Plays `text` in match `id` for the sender; the answer in the DM, the board in the thread.
async fn play(
    ctx: &serenity::Context,
    msg: &serenity::Message,
    data: &Data,
    player: &Player,
    id: MatchId,
    text: String,
) -> Result<(), Error> {
    let result = acting::act_on_message(data, msg, id, player.id, text).await?;
    let reply = match result {
        Ok(update) if update.repeated => return Ok(()),
        Ok(update) => {
            let told = played_elsewhere(
                &ctx.http,
                (&data.table, data.public_url.as_deref()),
                &update,
                player,
            )
            .await;
            serenity::CreateMessage::new().content(told)
        }
        Err(TableError::Refused(_)) => return Ok(()),
        Err(TableError::Confirm {
            warning,
            action,
            version,
        }) => {
            let (text, buttons) = confirmation(id, version, &warning, &action);
            serenity::CreateMessage::new()
                .content(format!("Match #{id}: {text}"))
                .components(buttons)
        }
        Err(e) => {
            serenity::CreateMessage::new().content(format!("Match #{id}: {}", player_message(&e)))
        }
    };
    msg.channel_id.send_message(&ctx.http, reply).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_number_names_the_match() {
        assert_eq!(named_match("#12 e4"), (Some(12), "e4"));
        assert_eq!(named_match(" #3   play Knight "), (Some(3), "play Knight"));
        assert_eq!(named_match("e4"), (None, "e4"));
        assert_eq!(named_match("#x e4"), (None, "#x e4"));
    }
}
