//! Slash commands and buttons. Each one parses, calls the table, and replies; player mistakes
//! get an ephemeral, precise reply; internal failures are logged and answered generically.

use super::challenges::play;
use super::menu;
use super::pings;
use super::plain::{plain, plain_lines};
use super::reply::{self, answer};
use super::{ButtonAction, Context, Data, Error, logs, pictures};
use crate::games::GameKind;
use crate::store::{MatchId, Player, PlayerId};
use crate::table::{Request, Table, TableError, Update};
use poise::CreateReply;
use poise::serenity_prelude as serenity;

pub use super::rules::rules_summary;

pub fn commands() -> Vec<poise::Command<Data, Error>> {
    vec![
        play(),
        move_(),
        board(),
        view(),
        resign(),
        draw(),
        super::matches::games(),
        super::matches::history(),
        super::matches::export(),
        super::matches::replay(),
        rules(),
        super::settings::time(),
        super::settings::nudge(),
        super::settings::settings(),
        super::vacation::vacation(),
        super::admin::admin(),
        super::league::league(),
        super::league::rating(),
        super::league::leaderboard(),
    ]
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum GameChoice {
    #[name = "Chess"]
    Chess,
    #[name = "Enthralling Chess"]
    Enthralling,
    #[name = "En Prise"]
    Enprise,
    #[name = "Echek n°1"]
    Echek,
    #[name = "Snipe Chess"]
    Snipe,
    #[name = "Chess-à-Tête"]
    Chessatete,
}

impl GameChoice {
    pub fn kind(self) -> GameKind {
        match self {
            GameChoice::Chess => GameKind::Chess,
            GameChoice::Enthralling => GameKind::Enthralling,
            GameChoice::Enprise => GameKind::Enprise,
            GameChoice::Echek => GameKind::Echek,
            GameChoice::Snipe => GameKind::Snipe,
            GameChoice::Chessatete => GameKind::Chessatete,
        }
    }
}

/// Reads "key=value key=value" (commas also separate). A value in quotes may hold spaces and
/// commas: `white_deck="King, Queen, 4 Knight, ..."`.
pub fn parse_options(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' | '“' | '”' => quoted = !quoted,
            c if !quoted && (c.is_whitespace() || c == ',') => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if quoted {
        return Err("a quoted option value is not closed: add the closing \"".into());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
        .iter()
        .map(|pair| {
            pair.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("options are written key=value; \"{pair}\" is not"))
        })
        .collect()
}

pub(super) fn mention(player: &Player) -> String {
    match &player.discord_id {
        Some(id) => format!("<@{id}>"),
        None => plain(&player.name),
    }
}

/// What a player sees for a table error: the error itself, in its short form when it is ours
/// (the log has the whole story, see [`logs::refused`]).
pub(super) fn player_message(error: &TableError) -> String {
    match error {
        TableError::Storage(_) => plain(&format!(
            "Something went wrong on our side: {error}. Please try again."
        )),
        other => plain(&other.to_string()),
    }
}

/// Logs a table call of this command that did not go through; returns what the caller is told.
fn refused(ctx: Context<'_>, match_id: Option<MatchId>, error: &TableError) -> String {
    logs::refused(&ctx.invocation_string(), ctx.author().id, match_id, error)
}

/// Logs a command the table applied (at debug), or one Discord delivered again, which the
/// table recognised by its key and applied only once (at info).
fn log_applied(ctx: Context<'_>, match_id: MatchId, update: &Update) {
    let request = logs::redact(&ctx.invocation_string(), &[]);
    let user = ctx.author().id;
    if update.repeated {
        tracing::info!(
            match_id,
            %user,
            %request,
            "an interaction arrived again; it was applied once"
        );
    } else {
        tracing::debug!(match_id, version = update.version, %user, %request, "a command was applied");
    }
}

/// Refuses a command for a reason of the caller's (a bad option, the wrong channel): logged at
/// debug, told privately.
pub(super) async fn refuse(ctx: Context<'_>, reason: impl Into<String>) -> Result<(), Error> {
    let reason = reason.into();
    tracing::debug!(
        user = %ctx.author().id,
        request = %logs::redact(&ctx.invocation_string(), &[]),
        %reason,
        "a command was refused"
    );
    ephemeral(ctx, reason).await
}

/// The public message after a change: what happened, then who is to act (pinged) or the result.
pub fn update_text(update: &Update) -> String {
    let mut lines = plain_lines(&update.public);
    if update.result.is_none() && !update.to_act.is_empty() {
        let pings: Vec<String> = update.to_act.iter().map(|(_, p)| mention(p)).collect();
        let mut line = format!("{} to play.", pings.join(", "));
        // With a clock: when each player's time runs out, in the reader's own time zone.
        let ends: Vec<String> = update
            .clocks
            .iter()
            .map(
                |(seat, end)| match update.to_act.iter().find(|(s, _)| s == seat) {
                    Some((_, p)) if update.to_act.len() > 1 => {
                        format!("{} <t:{end}:R>", mention(p))
                    }
                    _ => format!("<t:{end}:R>"),
                },
            )
            .collect();
        if !ends.is_empty() {
            line.push_str(&format!(" Time runs out {}.", ends.join(", ")));
        }
        lines.push(line);
    }
    // Within Discord's limit, whatever the lines hold.
    super::limits::cut(&lines.join("\n"), super::limits::CONTENT)
}

async fn board_reply(update: &Update) -> Result<CreateReply, Error> {
    Ok(CreateReply::default()
        .content(update_text(update))
        .attachment(pictures::board_file(update).await?)
        .components(choice_components(update))
        .allowed_mentions(pings::of_update(update)))
}

/// The choices of the players to act, under the board: buttons for a few, a menu (grouped when
/// long) for more, or, when the choices would give away a hand, one button that shows each
/// player their own choices privately.
pub fn choice_components(update: &Update) -> Vec<serenity::CreateActionRow> {
    let (match_id, version) = (update.match_id, update.version);
    if update.result.is_some() {
        let again = super::rematch::rematch_button(match_id);
        vec![serenity::CreateActionRow::Buttons(vec![again])]
    } else if update.to_act.is_empty() {
        vec![]
    } else if update.private_choices {
        let button = serenity::CreateButton::new(ButtonAction::Mine { match_id }.custom_id())
            .label("Choose privately")
            .style(serenity::ButtonStyle::Primary);
        vec![serenity::CreateActionRow::Buttons(vec![button])]
    } else {
        action_components(&update.choices, "", match_id, version)
    }
}

/// Buttons or a menu for the `actions` that start with `prefix`; nothing when they do not fit
/// (then /move with autocomplete offers them).
pub(super) fn action_components(
    actions: &[String],
    prefix: &str,
    match_id: MatchId,
    version: u64,
) -> Vec<serenity::CreateActionRow> {
    if actions.is_empty() {
        return vec![]; // Discord refuses an empty row.
    }
    let buttons: Vec<ButtonAction> = actions
        .iter()
        .map(|text| ButtonAction::Act {
            match_id,
            version,
            text: text.clone(),
        })
        .collect();
    let fits = |b: &ButtonAction| match b {
        ButtonAction::Act { text, .. } => {
            b.custom_id().len() <= menu::TEXT_LIMIT && text.chars().count() <= 80
        }
        _ => false,
    };
    if prefix.is_empty() && buttons.len() <= menu::BUTTON_LIMIT && buttons.iter().all(fits) {
        return vec![serenity::CreateActionRow::Buttons(
            buttons
                .iter()
                .map(|b| {
                    let ButtonAction::Act { text, .. } = b else {
                        unreachable!("only actions are made above")
                    };
                    serenity::CreateButton::new(b.custom_id())
                        .label(text.clone())
                        .style(serenity::ButtonStyle::Primary)
                })
                .collect(),
        )];
    }
    let Some(entries) = menu::entries(actions, prefix) else {
        return vec![];
    };
    let options = entries
        .iter()
        .map(|e| serenity::CreateSelectMenuOption::new(e.label(), e.value()))
        .collect();
    let placeholder = if prefix.is_empty() {
        "Choose your action".to_string()
    } else {
        format!("{prefix} …")
    };
    let menu = serenity::CreateSelectMenu::new(
        ButtonAction::Choose { match_id, version }.custom_id(),
        serenity::CreateSelectMenuKind::String { options },
    )
    .placeholder(
        placeholder
            .chars()
            .take(menu::TEXT_LIMIT)
            .collect::<String>(),
    );
    vec![serenity::CreateActionRow::SelectMenu(menu)]
}

/// Tells the caller `text` privately (also after a public deferral).
pub(super) async fn ephemeral(ctx: Context<'_>, text: impl Into<String>) -> Result<(), Error> {
    reply::private(ctx, CreateReply::default().content(text)).await
}

pub(super) async fn player_of(data: &Data, user: &serenity::User) -> Result<Player, Error> {
    let (id, name) = (user.id.to_string(), user.display_name().to_string());
    Ok(data
        .table
        .call(move |t| t.store().discord_player(&id, &name))
        .await??)
}

/// The match played in this channel (a match thread), or a message saying where to go.
pub(super) async fn match_here(
    data: &Data,
    channel: serenity::ChannelId,
) -> Result<Option<MatchId>, Error> {
    let thread = channel.to_string();
    Ok(data
        .table
        .call(move |t| t.store().match_in_thread(&thread))
        .await??)
}

pub(super) const NOT_A_MATCH: &str =
    "This channel is not a match thread. Use this command in your match's thread (see /games).";

async fn autocomplete_action(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let choices = legal_here(ctx, partial).await.unwrap_or_default();
    serenity::CreateAutocompleteResponse::new().set_choices(autocomplete_choices(choices))
}

/// Autocomplete entries within Discord's limits: at most 25, none longer than 100 characters
/// (an action longer than that cannot be offered whole, so it is left for typing).
pub fn autocomplete_choices(actions: Vec<String>) -> Vec<serenity::AutocompleteChoice> {
    actions
        .into_iter()
        .filter(|a| !a.is_empty() && a.chars().count() <= super::limits::CHOICE_TEXT)
        .take(super::limits::CHOICES)
        .map(serenity::AutocompleteChoice::from)
        .collect()
}

/// The caller's legal actions in this thread that contain `partial`, at most 25; read without
/// waiting for the table and without writing (see [`super::autocomplete`]).
async fn legal_here(ctx: Context<'_>, partial: &str) -> Result<Vec<String>, Error> {
    let legal =
        super::autocomplete::legal_actions(ctx.data(), ctx.channel_id(), ctx.author().id).await;
    Ok(filter_actions(legal, partial))
}

/// Keeps the actions containing `partial` (ignoring case), those starting with it first, at
/// most 25 (Discord's limit).
pub fn filter_actions(legal: Vec<String>, partial: &str) -> Vec<String> {
    let wanted = partial.trim().to_lowercase();
    let (mut starts, mut contains): (Vec<String>, Vec<String>) = legal
        .into_iter()
        .filter(|a| a.to_lowercase().contains(&wanted))
        .partition(|a| a.to_lowercase().starts_with(&wanted));
    starts.append(&mut contains);
    starts.truncate(25);
    starts
}

/// Runs `work` for the caller on this thread's match, then shows everyone the board, or tells
/// the caller privately why not.
pub(super) async fn board_after(
    ctx: Context<'_>,
    work: impl FnOnce(&mut Table, MatchId, PlayerId, Request) -> Result<Update, TableError>
    + Send
    + 'static,
) -> Result<(), Error> {
    reply::defer(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        return refuse(ctx, NOT_A_MATCH).await;
    };
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    // The interaction's id keys the request: Discord delivering it again changes nothing.
    let key = format!("interaction:{}", ctx.id());
    let call = move |t: &mut Table| {
        let request = Request {
            key: Some(&key),
            ..Request::default()
        };
        work(t, id, player, request)
    };
    match ctx.data().table.call(call).await? {
        Ok(update) if update.repeated => {
            // Discord delivered this interaction again: it was applied once. The same answer
            // is given (Discord keeps whichever arrives first and refuses the other), without
            // the private lines and timer that went with the first.
            log_applied(ctx, id, &update);
            answer(ctx, board_reply(&update).await?).await?;
            Ok(())
        }
        Ok(update) => {
            log_applied(ctx, id, &update);
            answer(ctx, board_reply(&update).await?).await?;
            super::outbox::delivered(&ctx.data().table, &update).await;
            if let Some(text) = private_lines(&update, player) {
                ephemeral(ctx, text).await?;
            }
            let http = &ctx.serenity_context().http;
            super::turns::tell_turns(http, &ctx.data().table, &update, Some(player)).await;
            Ok(())
        }
        Err(TableError::Confirm {
            warning,
            action,
            version,
        }) => {
            let (text, buttons) = confirmation(id, version, &warning, &action);
            reply::private(
                ctx,
                CreateReply::default().content(text).components(buttons),
            )
            .await
        }
        Err(e) => ephemeral(ctx, refused(ctx, Some(id), &e)).await,
    }
}

/// The private question asked before an action that loses on the spot: the warning and a
/// button that plays it anyway (while the match has not moved on).
pub(super) fn confirmation(
    match_id: MatchId,
    version: u64,
    warning: &str,
    action: &str,
) -> (String, Vec<serenity::CreateActionRow>) {
    let confirm = ButtonAction::Confirm {
        match_id,
        version,
        text: action.to_string(),
    };
    let id = confirm.custom_id();
    if id.len() > menu::TEXT_LIMIT {
        let text = format!("**{action}**: {warning}. Send it again to confirm.");
        return (text, vec![]);
    }
    let text = format!("**{action}**: {warning}. Play it anyway?");
    let button = serenity::CreateButton::new(id)
        .label("Play it anyway")
        .style(serenity::ButtonStyle::Danger);
    (text, vec![serenity::CreateActionRow::Buttons(vec![button])])
}

/// Play an action in this match (start typing to see the legal ones).
#[poise::command(slash_command, guild_only, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "Your action, for example e4, Nf3 or O-O"]
    #[autocomplete = "autocomplete_action"]
    action: String,
) -> Result<(), Error> {
    board_after(ctx, move |t, id, player, request| {
        t.act(id, player, request, &action)
    })
    .await
}

/// Show this match's board again (outside a thread: reopen a match whose thread was deleted).
#[poise::command(slash_command, guild_only)]
pub async fn board(ctx: Context<'_>) -> Result<(), Error> {
    reply::defer(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        // A match of the caller's whose thread was deleted reopens here.
        if super::world::reopen_here(ctx).await?.is_some() {
            return Ok(());
        }
        return refuse(ctx, NOT_A_MATCH).await;
    };
    match ctx.data().table.call(move |t| t.show(id)).await? {
        Ok(update) => {
            // A read: it names who must act, and pings nobody.
            reply::answer_quietly(ctx, board_reply(&update).await?).await
        }
        Err(e) => ephemeral(ctx, refused(ctx, Some(id), &e)).await,
    }
}

/// See your own view of this match, privately (or by direct message).
#[poise::command(slash_command, guild_only)]
pub async fn view(
    ctx: Context<'_>,
    #[description = "Send it to you by direct message"] dm: Option<bool>,
) -> Result<(), Error> {
    reply::defer_private(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        return refuse(ctx, NOT_A_MATCH).await;
    };
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let view = match ctx
        .data()
        .table
        .call(move |t| t.view_for(id, Some(player)))
        .await?
    {
        Ok(view) => view,
        Err(e) => return ephemeral(ctx, refused(ctx, Some(id), &e)).await,
    };
    let png = pictures::draw(view).await?;
    let file = || serenity::CreateAttachment::bytes(png.clone(), "view.png");
    let mut note = format!("Your view of match #{id}.");
    if dm.unwrap_or(false) {
        let message = serenity::CreateMessage::new()
            .content(note.clone())
            .add_file(file());
        let (table, user) = (&ctx.data().table, ctx.author().id);
        match super::dm_memory::try_again(ctx.http(), table, user, message).await {
            Ok(()) => return ephemeral(ctx, "Sent to you by direct message.").await,
            Err(e) => {
                tracing::info!(
                    match_id = id,
                    user = %ctx.author().id,
                    error = %e,
                    "a view could not be sent by direct message; shown privately instead"
                );
                note = format!(
                    "I could not send you a direct message (your DMs may be closed), so here it is privately. {note}"
                );
            }
        }
    }
    reply::private(ctx, CreateReply::default().content(note).attachment(file())).await
}

/// Resign this match.
#[poise::command(slash_command, guild_only)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    board_after(ctx, |t, id, player, request| t.resign(id, player, request)).await
}

/// Offer a draw (or accept the one on the table).
#[poise::command(slash_command, guild_only)]
pub async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    reply::defer(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        return refuse(ctx, NOT_A_MATCH).await;
    };
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let key = format!("interaction:{}", ctx.id());
    let update = match ctx
        .data()
        .table
        .call(move |t| {
            let request = Request {
                key: Some(&key),
                ..Request::default()
            };
            t.offer_draw(id, player, request)
        })
        .await?
    {
        Ok(update) => update,
        Err(e) => return ephemeral(ctx, refused(ctx, Some(id), &e)).await,
    };
    log_applied(ctx, id, &update);
    if update.result.is_some() {
        answer(ctx, board_reply(&update).await?).await?;
        super::outbox::delivered(&ctx.data().table, &update).await;
        return Ok(());
    }
    let version = update.version;
    let others: Vec<&Player> = update
        .seat_views
        .iter()
        .filter(|(_, p, _)| p.id != player)
        .map(|(_, p, _)| p)
        .collect();
    let called: Vec<String> = others.iter().map(|p| mention(p)).collect();
    answer(
        ctx,
        CreateReply::default()
            .content(format!(
                "{}\n{}: accept or decline?",
                plain_lines(&update.public).join("\n"),
                called.join(", ")
            ))
            .allowed_mentions(pings::only(others.iter().copied()))
            .components(vec![serenity::CreateActionRow::Buttons(vec![
                serenity::CreateButton::new(
                    ButtonAction::AcceptDraw {
                        match_id: id,
                        version,
                    }
                    .custom_id(),
                )
                .label("Accept draw")
                .style(serenity::ButtonStyle::Success),
                serenity::CreateButton::new(
                    ButtonAction::DeclineDraw {
                        match_id: id,
                        version,
                    }
                    .custom_id(),
                )
                .label("Decline")
                .style(serenity::ButtonStyle::Secondary),
            ])]),
    )
    .await?;
    super::outbox::delivered(&ctx.data().table, &update).await;
    Ok(())
}

/// A short summary of a game's rules.
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameChoice,
) -> Result<(), Error> {
    ephemeral(ctx, rules_summary(game.kind())).await
}

/// The lines of `update` meant for `player` alone (a peek at cards), to show them privately.
pub(super) fn private_lines(update: &Update, player: PlayerId) -> Option<String> {
    let lines: Vec<String> = update
        .private
        .iter()
        .filter(|(seat, _)| {
            update
                .seat_views
                .iter()
                .any(|(s, p, _)| s == seat && p.id == player)
        })
        .map(|(_, text)| plain(text))
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}
