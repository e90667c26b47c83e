//! Buttons and menus under the bot's messages: challenges, draw offers, actions, private
//! choices. Each press parses its custom id, calls the table, and answers the presser.

use super::commands::{
    CHALLENGE_TTL, Challenge, action_components, challenge_text, choice_components, confirmation,
    player_of, private_lines, update_text,
};
use super::menu::Pick;
use super::{ButtonAction, Data, Error, logs, pictures};
use crate::engine::GameRng;
use crate::store::{MatchId, Place, PlayerId};
use crate::table::{Request, Table, TableError, Update};
use poise::serenity_prelude as serenity;

/// Buttons and menus. A press that fails is logged with its match and every cause, and the
/// presser is told in short.
pub async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    else {
        return Ok(());
    };
    let Some(action) = ButtonAction::parse(&press.data.custom_id) else {
        return Ok(());
    };
    let match_id = action.match_id();
    if let Err(error) = handle(ctx, press, data, action).await {
        let told = logs::failed(&pressed(press), press.user.id, match_id, &*error);
        if let Some(text) = told
            && let Err(e) = tell(ctx, press, text).await
        {
            tracing::debug!(match_id, error = %logs::chain(&*e), "the failure could not be told");
        }
    }
    Ok(())
}

/// What was pressed, for the log: the button's id, and the choice made in a menu.
fn pressed(press: &serenity::ComponentInteraction) -> String {
    let mut text = press.data.custom_id.clone();
    if let serenity::ComponentInteractionDataKind::StringSelect { values } = &press.data.kind {
        text = format!("{text} {values:?}");
    }
    logs::redact(&text, &[])
}

/// Logs a table call of this press that did not go through; returns what the presser is told.
fn refused(
    press: &serenity::ComponentInteraction,
    match_id: MatchId,
    error: &TableError,
) -> String {
    logs::refused(&pressed(press), press.user.id, Some(match_id), error)
}

/// Refuses a press for a reason of the presser's (a challenge not theirs): logged at debug,
/// told privately.
async fn refuse(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    reason: &str,
) -> Result<(), Error> {
    tracing::debug!(user = %press.user.id, request = %pressed(press), reason, "a press was refused");
    tell(ctx, press, reason).await
}

/// Logs a press the table applied (at debug), or one Discord delivered again, which the table
/// recognised by its key and applied only once (at info).
fn log_applied(press: &serenity::ComponentInteraction, match_id: MatchId, update: &Update) {
    let (user, request) = (press.user.id, pressed(press));
    if update.repeated {
        tracing::info!(
            match_id,
            %user,
            %request,
            "an interaction arrived again; it was applied once"
        );
    } else {
        tracing::debug!(match_id, version = update.version, %user, %request, "a press was applied");
    }
}

async fn handle(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
    action: ButtonAction,
) -> Result<(), Error> {
    match action {
        ButtonAction::AcceptChallenge(id) => accept_challenge(ctx, press, data, id).await,
        ButtonAction::DeclineChallenge(id) => decline_challenge(ctx, press, data, id).await,
        ButtonAction::AcceptDraw { match_id, version } => {
            answer_draw(ctx, press, data, match_id, version, true).await
        }
        ButtonAction::DeclineDraw { match_id, version } => {
            answer_draw(ctx, press, data, match_id, version, false).await
        }
        ButtonAction::Act {
            match_id,
            version,
            text,
        } => act_by_component(ctx, press, data, match_id, version, text, false).await,
        ButtonAction::Confirm {
            match_id,
            version,
            text,
        } => act_by_component(ctx, press, data, match_id, version, text, true).await,
        ButtonAction::Choose { match_id, version } => {
            let serenity::ComponentInteractionDataKind::StringSelect { values } = &press.data.kind
            else {
                return refuse(ctx, press, "That menu is not one of mine.").await;
            };
            match values.first().and_then(|v| Pick::from_value(v)) {
                Some(Pick::Act(text)) => {
                    act_by_component(ctx, press, data, match_id, version, text, false).await
                }
                Some(Pick::More(prefix)) => {
                    narrow(ctx, press, data, match_id, version, prefix).await
                }
                None => refuse(ctx, press, "Choose one of the actions in the menu.").await,
            }
        }
        ButtonAction::Mine { match_id } => show_choices(ctx, press, data, match_id).await,
    }
}

/// "Choose privately": the presser's own view (their hand) and their choices, for their eyes.
async fn show_choices(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
    match_id: MatchId,
) -> Result<(), Error> {
    let player = player_of(data, &press.user).await?.id;
    let result = data
        .table
        .call(move |t| t.choices_for(match_id, player, None))
        .await?;
    let mine = match result {
        Ok(found) => found,
        Err(e) => return tell(ctx, press, refused(press, match_id, &e)).await,
    };
    let rows = action_components(&mine.actions, "", match_id, mine.version);
    let content = if mine.actions.is_empty() {
        format!(
            "Nothing for you to do in match #{match_id} now (waiting for {}). Your view:",
            mine.waiting_for.join(", ")
        )
    } else if rows.is_empty() {
        format!(
            "You have {} choices in match #{match_id}, too many for a menu: type /move and \
             autocomplete offers them. Your view:",
            mine.actions.len()
        )
    } else {
        format!("Your choices in match #{match_id} (only you see this):")
    };
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(content)
                    .add_file(serenity::CreateAttachment::bytes(
                        pictures::draw_private(mine.view.clone()).await?,
                        "view.png",
                    ))
                    .components(rows)
                    .ephemeral(true),
            ),
        )
        .await?;
    Ok(())
}

/// A group in a menu ("attack Fork …"): a menu of its actions, for the presser only.
async fn narrow(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
    match_id: MatchId,
    version: u64,
    prefix: String,
) -> Result<(), Error> {
    let player = player_of(data, &press.user).await?.id;
    let result = data
        .table
        .call(move |t| t.choices_for(match_id, player, Some(version)))
        .await?;
    let mine = match result {
        Ok(mine) => mine,
        Err(e) => return tell(ctx, press, refused(press, match_id, &e)).await,
    };
    if mine.actions.is_empty() {
        let waiting = mine.waiting_for.join(", ");
        return tell(
            ctx,
            press,
            format!("It is not your turn: waiting for {waiting}."),
        )
        .await;
    }
    let rows = action_components(&mine.actions, &prefix, match_id, version);
    if rows.is_empty() {
        return tell(
            ctx,
            press,
            format!("None of your actions starts with \"{prefix}\"."),
        )
        .await;
    }
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(format!("{prefix} …"))
                    .components(rows)
                    .ephemeral(true),
            ),
        )
        .await?;
    Ok(())
}

/// Runs `work` on the table for the presser (their player id is passed in and returned), as a
/// request keyed by this interaction that carries the version the buttons were made at.
async fn press_request<R: Send + 'static>(
    data: &Data,
    press: &serenity::ComponentInteraction,
    version: u64,
    confirmed: bool,
    work: impl for<'k> FnOnce(&mut Table, PlayerId, Request<'k>) -> R + Send + 'static,
) -> Result<(PlayerId, R), Error> {
    let player = player_of(data, &press.user).await?.id;
    let key = format!("interaction:{}", press.id);
    let result = data
        .table
        .call(move |t| {
            let request = Request {
                expected: Some(version),
                key: Some(&key),
                confirmed,
            };
            work(t, player, request)
        })
        .await?;
    Ok((player, result))
}

/// A button or menu choice: the action is played for whoever pressed it, if that player holds
/// a seat that must act and the match has not moved on since the buttons were made. An action
/// that loses on the spot is first asked about privately, unless `confirmed`.
async fn act_by_component(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
    match_id: MatchId,
    version: u64,
    text: String,
    confirmed: bool,
) -> Result<(), Error> {
    let (player, result) = press_request(data, press, version, confirmed, move |t, p, r| {
        t.act(match_id, p, r, &text)
    })
    .await?;
    let update = match result {
        Ok(update) => update,
        Err(TableError::Confirm {
            warning,
            action,
            version,
        }) => {
            let (text, buttons) = confirmation(match_id, version, &warning, &action);
            let reply = serenity::CreateInteractionResponseMessage::new()
                .content(text)
                .components(buttons)
                .ephemeral(true);
            press
                .create_response(ctx, serenity::CreateInteractionResponse::Message(reply))
                .await?;
            return Ok(());
        }
        Err(e) => return tell(ctx, press, refused(press, match_id, &e)).await,
    };
    log_applied(press, match_id, &update);
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(update_text(&update))
                    .add_file(pictures::board_file(&update).await?)
                    .components(choice_components(&update)),
            ),
        )
        .await?;
    // Delivered again: the same answer (Discord keeps one of the two), nothing more.
    if update.repeated {
        return Ok(());
    }
    if let Some(text) = private_lines(&update, player) {
        press
            .create_followup(
                ctx,
                serenity::CreateInteractionResponseFollowup::new()
                    .content(text)
                    .ephemeral(true),
            )
            .await?;
    }
    Ok(())
}

async fn tell(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    text: impl Into<String>,
) -> Result<(), Error> {
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(text)
                    .ephemeral(true),
            ),
        )
        .await?;
    Ok(())
}

async fn settle(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    text: impl Into<String>,
) -> Result<(), Error> {
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::UpdateMessage(
                serenity::CreateInteractionResponseMessage::new()
                    .content(text)
                    .components(vec![]),
            ),
        )
        .await?;
    Ok(())
}

/// The open challenge `id`, or why there is none (expired ones are removed).
fn open_challenge(data: &Data, id: u64) -> Result<Challenge, &'static str> {
    let mut challenges = data.challenges.lock().expect("not poisoned");
    match challenges.get(&id) {
        None => Err("This challenge is no longer open."),
        Some(c) if c.created.elapsed() > CHALLENGE_TTL => {
            challenges.remove(&id);
            Err("This challenge has expired. Start a new one with /play.")
        }
        Some(c) => Ok(c.clone()),
    }
}

async fn accept_challenge(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
    id: u64,
) -> Result<(), Error> {
    let mut challenge = match open_challenge(data, id) {
        Ok(c) => c,
        Err(reason) => return refuse(ctx, press, reason).await,
    };
    let clicker = press.user.id;
    if !challenge.invited().iter().any(|u| u.id == clicker) {
        return refuse(ctx, press, "This challenge is not addressed to you.").await;
    }
    if !challenge.accepted.contains(&clicker) {
        challenge.accepted.push(clicker);
    }
    if !challenge.waiting().is_empty() {
        data.challenges
            .lock()
            .expect("not poisoned")
            .insert(id, challenge.clone());
        let text = challenge_text(&challenge);
        press
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::UpdateMessage(
                    serenity::CreateInteractionResponseMessage::new().content(text),
                ),
            )
            .await?;
        return Ok(());
    }
    // Everyone is in: acknowledge now (thread and match creation may take a moment).
    data.challenges.lock().expect("not poisoned").remove(&id);
    press.defer(ctx).await?;
    let mut players = Vec::new();
    for user in &challenge.players {
        players.push(player_of(data, user).await?);
    }
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    let thread = press
        .channel_id
        .create_thread_from_message(
            ctx,
            press.message.id,
            serenity::CreateThread::new(format!(
                "{}: {}",
                challenge.game.name(),
                names.join(" vs ")
            ))
            .kind(serenity::ChannelType::PublicThread),
        )
        .await?;
    let place = Place {
        guild_id: challenge.guild.map(|g| g.to_string()),
        channel_id: Some(press.channel_id.to_string()),
        thread_id: Some(thread.id.to_string()),
    };
    let seed = GameRng::from_seed(id ^ press.id.get()).next_u64();
    let (game, options) = (challenge.game, challenge.options.clone());
    let update = data
        .table
        .call(move |t| t.create(game, &options, &players, seed, &place))
        .await??;
    tracing::info!(
        match_id = update.match_id,
        game = game.name(),
        thread = %thread.id,
        "a challenge was accepted and its match created"
    );
    thread
        .id
        .send_message(
            ctx,
            serenity::CreateMessage::new()
                .content(update_text(&update))
                .add_file(pictures::board_file(&update).await?)
                .components(choice_components(&update)),
        )
        .await?;
    press
        .edit_response(
            ctx,
            serenity::EditInteractionResponse::new()
                .content(format!(
                    "Challenge accepted: match #{} is on in <#{}>.",
                    update.match_id, thread.id
                ))
                .components(vec![]),
        )
        .await?;
    Ok(())
}

async fn decline_challenge(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
    id: u64,
) -> Result<(), Error> {
    let challenge = match open_challenge(data, id) {
        Ok(c) => c,
        Err(reason) => return refuse(ctx, press, reason).await,
    };
    if !challenge.players.iter().any(|u| u.id == press.user.id) {
        return refuse(ctx, press, "This challenge is not addressed to you.").await;
    }
    data.challenges.lock().expect("not poisoned").remove(&id);
    let verb = if press.user.id == challenge.players[0].id {
        "withdrew"
    } else {
        "declined"
    };
    settle(
        ctx,
        press,
        format!(
            "<@{}> {verb} the challenge to {}.",
            press.user.id,
            challenge.game.name()
        ),
    )
    .await
}

async fn answer_draw(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
    match_id: MatchId,
    version: u64,
    accept: bool,
) -> Result<(), Error> {
    let (_, result) = press_request(data, press, version, false, move |t, p, r| {
        if accept {
            t.accept_draw(match_id, p, r)
        } else {
            t.decline_draw(match_id, p, r)
        }
    })
    .await?;
    match result {
        Ok(update) => {
            log_applied(press, match_id, &update);
            settle(ctx, press, update_text(&update)).await
        }
        Err(e @ TableError::Stale(_)) => {
            refused(press, match_id, &e);
            let reason = "This draw offer is out of date: the match has moved on.";
            tell(ctx, press, reason).await
        }
        Err(e) => tell(ctx, press, refused(press, match_id, &e)).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::store::Store;
    use crate::table::Table;
    use std::time::{Duration, Instant};

    fn data_with(challenge: Challenge) -> Data {
        let data = Data::new(crate::table::TableHandle::spawn(Table::new(
            Store::open_in_memory().unwrap(),
        )));
        data.challenges.lock().unwrap().insert(1, challenge);
        data
    }

    fn challenge(age: Duration) -> Challenge {
        let mut a = serenity::User::default();
        a.id = serenity::UserId::new(1);
        let mut b = serenity::User::default();
        b.id = serenity::UserId::new(2);
        Challenge {
            game: GameKind::Chess,
            options: vec![],
            players: vec![a, b],
            accepted: vec![],
            guild: None,
            created: Instant::now() - age,
        }
    }

    #[test]
    fn challenges_expire_and_are_removed() {
        let fresh = data_with(challenge(Duration::from_secs(60)));
        assert!(open_challenge(&fresh, 1).is_ok());
        assert_eq!(
            open_challenge(&fresh, 2).unwrap_err(),
            "This challenge is no longer open."
        );
        let old = data_with(challenge(CHALLENGE_TTL + Duration::from_secs(1)));
        assert!(open_challenge(&old, 1).unwrap_err().contains("expired"));
        assert!(
            old.challenges.lock().unwrap().is_empty(),
            "an expired challenge is dropped"
        );
    }

    #[test]
    fn challenge_text_names_who_is_still_awaited() {
        let mut c = challenge(Duration::ZERO);
        c.options = vec![("fen".into(), "x".into())];
        let text = challenge_text(&c);
        assert!(
            text.starts_with("<@1> challenges <@2> to Chess. Options: fen=x."),
            "{text}"
        );
        assert!(
            text.contains("Waiting for <@2> to accept (within 15 minutes)."),
            "{text}"
        );
    }
}
