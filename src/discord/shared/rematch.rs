//! Rematch: under a finished match's last board, a button any of its players may press to
//! challenge the same players to the same game, options and clock, with the seats turned round
//! (each player moves one seat on: in a game of two, the colours swap). The challenge is posted
//! where the match was started, and the presser has accepted it by asking.

use crate::discord::format::notices::channel_of;
use crate::discord::format::{logs, pings, plain};
use crate::discord::shared::challenges;
use crate::discord::shared::challenges::{CHALLENGE_TTL, challenge_buttons, challenge_text};
use crate::discord::shared::lookups::player_of;
use crate::discord::shared::press::Press;
use crate::discord::{Data, Error};
use crate::engine::GameRng;
use crate::store::{ChallengeError, MatchId, NewChallenge, Status};
use crate::table::TableError;
use poise::serenity_prelude as serenity;

#[derive(Debug, thiserror::Error)]
enum RematchError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Challenge(#[from] ChallengeError),
    #[error("match #{0} is still being played; a rematch is offered when it is over")]
    NotOver(MatchId),
}

impl From<crate::store::StoreError> for RematchError {
    fn from(e: crate::store::StoreError) -> Self {
        RematchError::Table(e.into())
    }
}

/// "Rematch" pressed: a new challenge with the seats turned round.
pub(crate) async fn rematch(
    ctx: &serenity::Context,
    press: &Press<'_>,
    data: &Data,
    match_id: MatchId,
) -> Result<(), Error> {
    let player = player_of(data, &press.user).await?.id;
    let seed = GameRng::from_seed(press.id.get()).next_u64();
    let made = data
        .table
        .call(move |t| -> Result<_, RematchError> {
            let stored = t.store().load_head(match_id)?;
            if stored.status == Status::Active {
                return Err(RematchError::NotOver(match_id));
            }
            let Some(old_seat) = stored.players.iter().position(|p| p.id == player) else {
                return Err(TableError::NotInMatch(match_id).into());
            };
            let n = stored.players.len();
            let players: Vec<_> = (0..n).map(|k| stored.players[(k + 1) % n].id).collect();
            // Rated again only while the server still allows rated matches against the
            // computer, when one plays (an admin may have turned it off since).
            let mut rated = t.store().rated(match_id)?;
            for &player in &players {
                if rated && t.store().computer_level(player)?.is_some() {
                    rated = match &stored.place.guild_id {
                        Some(guild) => t.store().server_settings(guild)?.computers_rated,
                        None => false,
                    };
                }
            }
            let new = NewChallenge {
                game: stored.game,
                options: stored.options.clone(),
                time_control: stored.time_control.clone(),
                seed,
                players,
                guild_id: stored.place.guild_id.clone(),
                channel_id: stored.place.channel_id.clone(),
                lasts: CHALLENGE_TTL.as_secs() as i64,
                rated,
            };
            let now = t.now();
            let challenger = (old_seat + n - 1) % n;
            let challenge = t.store().create_challenge_by(&new, challenger, now)?;
            // The computer's seats accept at once, as with /play.
            let (challenge, last) = challenges::computers_accept(t, challenge)?;
            Ok((challenge, last, stored.place))
        })
        .await?;
    let (challenge, last_computer, place) = match made {
        Ok(made) => made,
        Err(RematchError::Challenge(ChallengeError::Store(e))) => return Err(e.into()),
        Err(RematchError::Table(e @ TableError::Storage(_))) => return Err(e.into()),
        Err(RematchError::Challenge(e)) => match challenges::refusal(&e) {
            Some(text) => return press.tell(ctx, text).await,
            None => return Err(e.into()),
        },
        Err(e) => {
            return press.tell(ctx, plain::plain(&format!("{e}."))).await;
        }
    };
    let parent = place
        .channel_id
        .as_deref()
        .and_then(|c| c.parse().ok())
        .map(serenity::ChannelId::new)
        .or_else(|| channel_of(&place));
    let Some(parent) = parent else {
        return press
            .tell(ctx, "This match has no channel to offer a rematch in.")
            .await;
    };
    let message = match last_computer {
        None => serenity::CreateMessage::new()
            .content(format!(
                "Rematch of match #{match_id}, seats turned round. {}",
                challenge_text(&challenge)
            ))
            .components(challenge_buttons(challenge.id))
            .allowed_mentions(pings::only(challenge.waiting())),
        Some(_) => serenity::CreateMessage::new()
            .content(format!(
                "Rematch of match #{match_id}, seats turned round. {}",
                challenges::against_text(&challenge)
            ))
            .allowed_mentions(pings::nobody()),
    };
    let posted = match parent.send_message(&ctx.http, message).await {
        Ok(posted) => posted,
        Err(e) => {
            if let Some(computer) = last_computer {
                challenges::start_alone(data, challenge.id, computer, None).await?;
            }
            return Err(e.into());
        }
    };
    let (id, message) = (challenge.id, posted.id.to_string());
    if let Err(e) = data
        .table
        .call(move |t| t.store().set_challenge_message(id, &message))
        .await?
    {
        tracing::warn!(challenge = id, error = %logs::chain(&e), "a rematch's message was not recorded");
    }
    if let Some(computer) = last_computer {
        challenges::start_alone(data, id, computer, Some(posted.id.to_string())).await?;
        return press
            .tell(ctx, format!("Rematch started in <#{parent}>."))
            .await;
    }
    press
        .tell(ctx, format!("Rematch offered in <#{parent}>."))
        .await
}
