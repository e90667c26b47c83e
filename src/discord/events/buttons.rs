//! Buttons and menus under the bot's messages: challenges, draw offers, actions, private
//! choices. Each press parses its custom id, defers when its work may take a while, calls the
//! table, and answers the presser.

use crate::discord::format::boards::{
    action_components, choice_components, confirmation, private_lines, update_text,
};
use crate::discord::format::ids::ButtonAction;
use crate::discord::format::menu::Pick;
use crate::discord::format::plain::{plain, plain_lines};
use crate::discord::format::{logs, pages, pictures, pings};
use crate::discord::shared::challenges::{accept_challenge, decline_challenge};
use crate::discord::shared::links;
use crate::discord::shared::lookups::player_of;
use crate::discord::shared::press::{Deferred, Press, pressed, refuse};
use crate::discord::shared::{acting, lists, outbox, rematch};
use crate::discord::{Data, Error};
use crate::store::{MatchId, PlayerId};
use crate::table::{Request, Table, TableError, Update};
use poise::serenity_prelude as serenity;
use std::sync::Mutex;

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
    if let Some(turn) = pages::Turn::parse(&press.data.custom_id) {
        let press = Press {
            it: press,
            deferred: Mutex::new(Deferred::No),
        };
        if let Err(error) = lists::turn(ctx, &press, data, turn).await
            && let Some(text) = logs::failed(&pressed(&press), press.user.id, None, &*error)
        {
            let _ = press.tell(ctx, text).await;
        }
        return Ok(());
    }
    let Some(action) = ButtonAction::parse(&press.data.custom_id) else {
        return Ok(());
    };
    let match_id = action.match_id();
    let press = Press {
        it: press,
        deferred: Mutex::new(Deferred::No),
    };
    if let Err(error) = handle(ctx, &press, data, action).await {
        let told = logs::failed(&pressed(&press), press.user.id, match_id, &*error);
        if let Some(text) = told
            && let Err(e) = press.tell(ctx, text).await
        {
            tracing::debug!(match_id, error = %logs::chain(&*e), "the failure could not be told");
        }
    }
    Ok(())
}

/// Logs a table call of this press that did not go through; returns what the presser is told.
fn refused(
    press: &serenity::ComponentInteraction,
    match_id: MatchId,
    error: &TableError,
) -> String {
    logs::refused(&pressed(press), press.user.id, Some(match_id), error)
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

/// Runs the press: a quick refusal in words is answered at once; anything that waits for the
/// table defers first.
async fn handle(
    ctx: &serenity::Context,
    press: &Press<'_>,
    data: &Data,
    action: ButtonAction,
) -> Result<(), Error> {
    let pick = match (&action, &press.data.kind) {
        (
            ButtonAction::Choose { .. },
            serenity::ComponentInteractionDataKind::StringSelect { values },
        ) => values.first().and_then(|v| Pick::from_value(v)),
        _ => None,
    };
    match (&action, &pick) {
        (ButtonAction::OldChallenge, _) => {
            let reason = "This challenge was made before the bot last restarted and is no \
                          longer open. Start a new one with /play.";
            return refuse(ctx, press, reason).await;
        }
        (ButtonAction::Choose { .. }, None) => {
            return refuse(ctx, press, "Choose one of the actions in the menu.").await;
        }
        (ButtonAction::Mine { .. }, _) | (_, Some(Pick::More(_))) => {
            press.defer_private(ctx).await?
        }
        _ => press.defer(ctx).await?,
    }
    match action {
        ButtonAction::OldChallenge => Ok(()),
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
        ButtonAction::Choose { match_id, version } => match pick {
            Some(Pick::Act(text)) => {
                act_by_component(ctx, press, data, match_id, version, text, false).await
            }
            Some(Pick::More(prefix)) => narrow(ctx, press, data, match_id, version, prefix).await,
            None => Ok(()),
        },
        ButtonAction::Mine { match_id } => show_choices(ctx, press, data, match_id).await,
        ButtonAction::ClaimWin { match_id } => claim_win(ctx, press, data, match_id).await,
        ButtonAction::WaitOnTime { match_id } => wait_on_time(ctx, press, data, match_id).await,
        ButtonAction::Rematch { match_id } => rematch::rematch(ctx, press, data, match_id).await,
    }
}

/// "Wait": the presser lets an opponent out of time go on; the message says so and loses its
/// buttons (the win can still be claimed with /time claim).
async fn wait_on_time(
    ctx: &serenity::Context,
    press: &Press<'_>,
    data: &Data,
    match_id: MatchId,
) -> Result<(), Error> {
    let player = player_of(data, &press.user).await?.id;
    let result = data
        .table
        .call(move |t| t.wait_on_time(match_id, player))
        .await?;
    match result {
        Ok(line) => press.settle(ctx, line).await,
        Err(e) => press.tell(ctx, refused(press, match_id, &e)).await,
    }
}

/// "Claim the win": the presser claims it over an opponent out of time.
async fn claim_win(
    ctx: &serenity::Context,
    press: &Press<'_>,
    data: &Data,
    match_id: MatchId,
) -> Result<(), Error> {
    let (_, result) = press_request(data, press, 0, false, move |t, p, r| {
        t.claim_win(match_id, p, r)
    })
    .await?;
    match result {
        Ok(update) => {
            log_applied(press, match_id, &update);
            press.settle(ctx, update_text(&update)).await?;
            outbox::delivered(&data.table, &update).await;
            Ok(())
        }
        Err(e) => press.tell(ctx, refused(press, match_id, &e)).await,
    }
}

/// "Choose privately": the presser's own view (their hand) and their choices, for their eyes.
async fn show_choices(
    ctx: &serenity::Context,
    press: &Press<'_>,
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
        Err(e) => return press.tell(ctx, refused(press, match_id, &e)).await,
    };
    let rows = action_components(&mine.actions, "", match_id, mine.version);
    let content = if mine.actions.is_empty() {
        format!(
            "Nothing for you to do in match #{match_id} now (waiting for {}). Your view:",
            plain_lines(&mine.waiting_for).join(", ")
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
    let view = serenity::CreateAttachment::bytes(
        pictures::draw_private(mine.view.clone()).await?,
        "view.png",
    );
    press.private(ctx, content, rows, Some(view)).await
}

/// A group in a menu ("attack Fork …"): a menu of its actions, for the presser only.
async fn narrow(
    ctx: &serenity::Context,
    press: &Press<'_>,
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
        Err(e) => return press.tell(ctx, refused(press, match_id, &e)).await,
    };
    if mine.actions.is_empty() {
        let waiting = plain_lines(&mine.waiting_for).join(", ");
        return press
            .tell(ctx, format!("It is not your turn: waiting for {waiting}."))
            .await;
    }
    let rows = action_components(&mine.actions, &prefix, match_id, version);
    if rows.is_empty() {
        return press
            .tell(
                ctx,
                format!("None of your actions starts with \"{}\".", plain(&prefix)),
            )
            .await;
    }
    press.private(ctx, format!("{prefix} …"), rows, None).await
}

/// Runs `work` on the table for the presser (their player id is passed in and returned), as a
/// request keyed by this interaction that carries the version the buttons were made at.
async fn press_request<R: Send + 'static>(
    data: &Data,
    press: &Press<'_>,
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
    press: &Press<'_>,
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
            return press.private(ctx, text, buttons, None).await;
        }
        Err(e) => return press.tell(ctx, refused(press, match_id, &e)).await,
    };
    log_applied(press, match_id, &update);
    if press.guild_id.is_none() && !update.repeated {
        // Pressed in a direct message: the board goes to the match's thread, the mover is
        // told here.
        let player = player_of(data, &press.user).await?;
        let told = acting::played_elsewhere(
            &ctx.http,
            (&data.table, data.public_url.as_deref()),
            &update,
            &player,
        )
        .await;
        press.settle(ctx, told).await?;
        return Ok(());
    }
    let board = pictures::board_file(&update).await?;
    press
        .public(
            ctx,
            update_text(&update),
            match links::finished(&data.table, data.public_url.as_deref(), &update).await {
                Some(link) => vec![link],
                None => choice_components(&update),
            },
            board,
            pings::of_update(&update),
        )
        .await?;
    outbox::delivered(&data.table, &update).await;
    // Delivered again: the same answer (Discord keeps one of the two), nothing more.
    if update.repeated {
        return Ok(());
    }
    if let Some(text) = private_lines(&update, player) {
        press.tell(ctx, text).await?;
    }
    Ok(())
}

async fn answer_draw(
    ctx: &serenity::Context,
    press: &Press<'_>,
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
            press.settle(ctx, update_text(&update)).await?;
            outbox::delivered(&data.table, &update).await;
            Ok(())
        }
        Err(e @ TableError::Stale(_)) => {
            refused(press, match_id, &e);
            let reason = "This draw offer is out of date: the match has moved on.";
            press.tell(ctx, reason).await
        }
        Err(e) => press.tell(ctx, refused(press, match_id, &e)).await,
    }
}
