//! A match's public message: its lines, who is to act (mentioned), the choices under the board
//! (buttons or a menu), the rematch button, a confirmation question and a player's private
//! lines.

use crate::discord::Error;
use crate::discord::format::ids::ButtonAction;
use crate::discord::format::plain::{plain, plain_lines};
use crate::discord::format::{boards, limits, menu, pictures, pings};
use crate::store::{MatchId, Player, PlayerId};
use crate::table::Update;
use poise::CreateReply;
use poise::serenity_prelude as serenity;

pub(crate) fn mention(player: &Player) -> String {
    match &player.discord_id {
        Some(id) => format!("<@{id}>"),
        None => plain(&player.name),
    }
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
    limits::cut(&lines.join("\n"), limits::CONTENT)
}

pub(crate) async fn board_reply(update: &Update) -> Result<CreateReply, Error> {
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
        let again = boards::rematch_button(match_id);
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
pub(crate) fn action_components(
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

/// The private question asked before an action that loses on the spot: the warning and a
/// button that plays it anyway (while the match has not moved on).
pub(crate) fn confirmation(
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

/// The lines of `update` meant for `player` alone (a peek at cards), to show them privately.
pub(crate) fn private_lines(update: &Update, player: PlayerId) -> Option<String> {
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

/// The button under a finished match's board.
pub fn rematch_button(match_id: MatchId) -> serenity::CreateButton {
    serenity::CreateButton::new(ButtonAction::Rematch { match_id }.custom_id())
        .label("Rematch")
        .style(serenity::ButtonStyle::Secondary)
}
