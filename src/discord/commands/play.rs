//! `/play`: challenge players to a game in this channel, or play the computer: name the bot as
//! an opponent (any seat), or say `against:computer` alone. The computer's seats accept at once;
//! a challenge with no person left to answer starts there and then.

use crate::ai::Level;
use crate::discord::format::logs::player_message;
use crate::discord::format::options::{
    Against, GameChoice, LevelChoice, SeatChoice, parse_options,
};
use crate::discord::format::pings;
use crate::discord::shared::challenges::{
    CHALLENGE_TTL, against_text, challenge_buttons, challenge_problem, challenge_text,
    computers_accept, refusal, start_alone,
};
use crate::discord::shared::lookups::refuse;
use crate::discord::shared::reply::answer;
use crate::discord::shared::{admins, home, reply};
use crate::discord::{Context, Error};
use crate::engine::GameRng;
use crate::store::PlayerId;
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
    #[description = "Who you challenge (the bot itself: the computer)"] opponent: Option<
        serenity::User,
    >,
    #[description = "A further player, for games of three or more"] opponent2: Option<
        serenity::User,
    >,
    #[description = "A further player, for games of four"] opponent3: Option<serenity::User>,
    #[description = "Game options as key=value, e.g. unable_to_enthrall_loses=true"]
    options: Option<String>,
    #[description = "A clock: 3d (a move), 10d+1d (a reserve plus a move), none; default: the server's"]
    time: Option<String>,
    #[description = "Whether the match counts for ratings (yes by default)"] rated: Option<bool>,
    #[description = "Play the computer, alone"] against: Option<Against>,
    #[description = "How strongly the computer plays (medium by default)"] level: Option<
        LevelChoice,
    >,
    #[description = "Your seat: first (White) by default"] seat: Option<SeatChoice>,
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
    let named: Vec<serenity::User> = [opponent, opponent2, opponent3]
        .into_iter()
        .flatten()
        .collect();
    let level_given = level.is_some();
    let level = level.map_or_else(Level::default, LevelChoice::level);
    let mut seats = match seats_of(
        ctx.author(),
        named,
        ctx.framework().bot_id(),
        against.is_some(),
        level,
    ) {
        Ok(seats) => seats,
        Err(reason) => return refuse(ctx, reason).await,
    };
    let computers = seats.iter().filter(|s| s.is_computer()).count();
    if computers == 0 && level_given {
        return refuse(ctx, "level: is for a game against the computer: name the bot as an opponent, or use against:computer.").await;
    }
    let rated = match (rated, computers > 0) {
        (rated, false) => rated.unwrap_or(true),
        (Some(true), true) if !server.computers_rated => {
            return refuse(ctx, "On this server, matches against the computer are not rated; an admin can allow it with /admin server computers_rated:true.").await;
        }
        (rated, true) => rated.unwrap_or(server.computers_rated),
    };
    let persons: Vec<serenity::User> = seats
        .iter()
        .filter_map(|s| match s {
            PlaySeat::Person(user) => Some(*user.clone()),
            PlaySeat::Computer(_) => None,
        })
        .collect();
    // Checked with the author first, as `seats_of` put them, before `seat:` moves them.
    if let Some(reason) = challenge_problem(&persons) {
        return refuse(ctx, reason).await;
    }
    let mut author_seat = 0;
    if let Some(seat) = seat {
        let mut rng = GameRng::from_seed(ctx.id() ^ SEAT_SALT);
        match sit_author(&mut seats, seat.index(), &mut rng) {
            Ok(index) => author_seat = index,
            Err(reason) => return refuse(ctx, reason).await,
        }
    }
    let options = match parse_options(options.as_deref().unwrap_or("")) {
        Ok(options) => options,
        Err(reason) => return refuse(ctx, reason).await,
    };
    // The seed is chosen now, and the start it gives checked, so accepting cannot fail on it.
    let seed = GameRng::from_seed(ctx.id()).next_u64();
    if let Err(e) = Table::check_start(kind, &options, seats.len(), seed) {
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
        rated,
    };
    let wanted: Vec<Wanted> = seats.iter().map(Wanted::of).collect();
    let challenge = ctx
        .data()
        .table
        .call(
            move |t| -> Result<(Challenge, Option<PlayerId>), ChallengeError> {
                let now = t.now();
                let mut new = new;
                let mut computers = 0;
                for seat in &wanted {
                    let player = match seat {
                        Wanted::Person(id, name) => t.store().discord_player(id, name)?,
                        Wanted::Computer(level) => {
                            computers += 1;
                            t.store().computer_player(*level, computers)?
                        }
                    };
                    new.players.push(player.id);
                }
                let challenge = t.store().create_challenge_by(&new, author_seat, now)?;
                computers_accept(t, challenge)
            },
        )
        .await?;
    let (challenge, last_computer) = match challenge {
        Ok(found) => found,
        Err(e) => match refusal(&e) {
            Some(text) => return refuse(ctx, text).await,
            None => return Err(e.into()),
        },
    };
    let id = challenge.id;
    tracing::debug!(challenge = id, game = kind.name(), "a challenge was made");
    let reply = match last_computer.is_none() {
        true => CreateReply::default()
            .content(challenge_text(&challenge))
            .components(challenge_buttons(id))
            .allowed_mentions(pings::only(challenge.waiting())),
        false => CreateReply::default()
            .content(against_text(&challenge))
            .allowed_mentions(pings::nobody()),
    };
    let message = match answer(ctx, reply).await {
        Ok(message) => message.map(|m| m.id.to_string()),
        Err(e) => {
            // Nobody else can accept: the match starts all the same, its thread on its own.
            if let Some(computer) = last_computer {
                start_alone(ctx.data(), id, computer, None).await?;
            }
            return Err(e);
        }
    };
    if let Some(message) = message.clone() {
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
    if let Some(computer) = last_computer {
        start_alone(ctx.data(), id, computer, message).await?;
    }
    Ok(())
}

/// Who sits in each seat of a `/play`: a person, or the computer at a level.
#[derive(Clone, Debug)]
enum PlaySeat {
    Person(Box<serenity::User>),
    Computer(Level),
}

impl PlaySeat {
    fn is_computer(&self) -> bool {
        matches!(self, PlaySeat::Computer(_))
    }
}

/// A seat as the table thread needs it.
enum Wanted {
    Person(String, String),
    Computer(Level),
}

impl Wanted {
    fn of(seat: &PlaySeat) -> Wanted {
        match seat {
            PlaySeat::Person(user) => {
                Wanted::Person(user.id.to_string(), user.display_name().to_string())
            }
            PlaySeat::Computer(level) => Wanted::Computer(*level),
        }
    }
}

/// Mixed into the interaction's id for a random `seat:`, so that draw is not the game's seed.
const SEAT_SALT: u64 = 0x5ea7_c401_ce00_0001;

/// Moves the author (first in `seats`) to seat `index`, or to a seat drawn from `rng` when
/// None; the seat taken, or why not, in words.
fn sit_author(
    seats: &mut Vec<PlaySeat>,
    index: Option<usize>,
    rng: &mut GameRng,
) -> Result<usize, String> {
    let index = index.unwrap_or_else(|| rng.below(seats.len()));
    if index >= seats.len() {
        return Err(format!(
            "This match has {} seats, so there is no seat {}.",
            seats.len(),
            index + 1
        ));
    }
    let author = seats.remove(0);
    seats.insert(index, author);
    Ok(index)
}

/// The seats of a `/play` by `author` naming `named` (the bot, `bot`, is the computer at
/// `level`), or `alone` against the computer; why not, in words.
fn seats_of(
    author: &serenity::User,
    named: Vec<serenity::User>,
    bot: serenity::UserId,
    alone: bool,
    level: Level,
) -> Result<Vec<PlaySeat>, String> {
    if alone && !named.is_empty() {
        return Err(
            "against:computer is for playing the computer alone; to mix people and \
                    the computer, name the bot as one of the opponents."
                .into(),
        );
    }
    if !alone && named.is_empty() {
        return Err("Name an opponent, or play the computer with against:computer.".into());
    }
    let mut seats = vec![PlaySeat::Person(Box::new(author.clone()))];
    if alone {
        seats.push(PlaySeat::Computer(level));
    }
    for user in named {
        seats.push(match user.id == bot {
            true => PlaySeat::Computer(level),
            false => PlaySeat::Person(Box::new(user)),
        });
    }
    Ok(seats)
}
