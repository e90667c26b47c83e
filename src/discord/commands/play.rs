//! `/play`: challenge players to a game in this channel.

use crate::discord::format::logs::player_message;
use crate::discord::format::options::{GameChoice, parse_options};
use crate::discord::format::pings;
use crate::discord::shared::challenges::{
    CHALLENGE_TTL, challenge_buttons, challenge_problem, challenge_text, refusal,
};
use crate::discord::shared::lookups::refuse;
use crate::discord::shared::reply::answer;
use crate::discord::shared::{admins, home, reply};
use crate::discord::{Context, Error};
use crate::engine::GameRng;
use crate::store::{Challenge, ChallengeError, NewChallenge};
use crate::table::Table;
use crate::table::time_control::TimeControl;
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// Challenge players to a game; it starts in a new thread once everyone accepts.
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)] // a slash command's options
pub async fn play(
    ctx: Context<'_>,
    #[description = "The game to play"] game: GameChoice,
    #[description = "Who you challenge"] opponent: serenity::User,
    #[description = "A further player, for games of three or more"] opponent2: Option<
        serenity::User,
    >,
    #[description = "A further player, for games of four"] opponent3: Option<serenity::User>,
    #[description = "Game options as key=value, e.g. unable_to_enthrall_loses=true"]
    options: Option<String>,
    #[description = "A clock: 3d (a move), 10d+1d (a reserve plus a move), none; default: the server's"]
    time: Option<String>,
    #[description = "Whether the match counts for ratings (yes by default)"] rated: Option<bool>,
) -> Result<(), Error> {
    let kind = game.kind();
    // A channel that cannot hold the match's thread, or where the bot may not do its part, is
    // refused now, before anything is stored (Discord says which with the interaction).
    if let poise::Context::Application(actx) = ctx {
        let channel = actx.interaction.channel.as_ref().map(|c| c.kind);
        if let Some(reason) = home::problem(channel, actx.interaction.app_permissions) {
            return refuse(ctx, reason).await;
        }
    }
    let server = admins::server_settings(ctx).await?;
    if !server.play_channels.is_empty()
        && !server.play_channels.contains(&ctx.channel_id().to_string())
    {
        let places: Vec<String> = server
            .play_channels
            .iter()
            .map(|c| format!("<#{c}>"))
            .collect();
        let text = format!("On this server, /play is used in {}.", places.join(", "));
        return refuse(ctx, text).await;
    }
    let time = time.unwrap_or(server.time_control);
    let time = match TimeControl::parse(&time) {
        Ok(time) => time,
        Err(reason) => return refuse(ctx, format!("{reason}.")).await,
    };
    let mut players = vec![ctx.author().clone(), opponent];
    players.extend(opponent2);
    players.extend(opponent3);
    if let Some(reason) = challenge_problem(&players) {
        return refuse(ctx, reason).await;
    }
    let options = match parse_options(options.as_deref().unwrap_or("")) {
        Ok(options) => options,
        Err(reason) => return refuse(ctx, reason).await,
    };
    // The seed is chosen now, and the start it gives checked, so accepting cannot fail on it.
    let seed = GameRng::from_seed(ctx.id()).next_u64();
    if let Err(e) = Table::check_start(kind, &options, players.len(), seed) {
        return refuse(ctx, player_message(&e)).await;
    }
    reply::defer(ctx).await?;
    let new = NewChallenge {
        game: kind,
        options,
        time_control: time.text(),
        seed,
        players: vec![],
        guild_id: ctx.guild_id().map(|g| g.to_string()),
        channel_id: Some(ctx.channel_id().to_string()),
        lasts: CHALLENGE_TTL.as_secs() as i64,
        rated: rated.unwrap_or(true),
    };
    let users: Vec<(String, String)> = players
        .iter()
        .map(|u| (u.id.to_string(), u.display_name().to_string()))
        .collect();
    let challenge = ctx
        .data()
        .table
        .call(move |t| -> Result<Challenge, ChallengeError> {
            let now = t.now();
            let mut new = new;
            for (id, name) in &users {
                new.players.push(t.store().discord_player(id, name)?.id);
            }
            t.store().create_challenge(&new, now)
        })
        .await?;
    let challenge = match challenge {
        Ok(challenge) => challenge,
        Err(e) => match refusal(&e) {
            Some(text) => return refuse(ctx, text).await,
            None => return Err(e.into()),
        },
    };
    let id = challenge.id;
    tracing::debug!(challenge = id, game = kind.name(), "a challenge was made");
    let message = answer(
        ctx,
        CreateReply::default()
            .content(challenge_text(&challenge))
            .components(challenge_buttons(id))
            .allowed_mentions(pings::only(challenge.waiting())),
    )
    .await?;
    if let Some(message) = message {
        let message = message.id.to_string();
        let stored = ctx
            .data()
            .table
            .call(move |t| t.store().set_challenge_message(id, &message))
            .await?;
        if let Err(e) = stored {
            // The challenge stands; only the note of where it was posted is missing.
            tracing::warn!(challenge = id, error = %e, "a challenge's message was not recorded");
        }
    }
    Ok(())
}
