//! Turn messages by direct message, for the players who asked for them (`/settings me
//! dm:true`): when a match comes to them, they are told where and how long they have; with
//! `view:true`, their own view of the match (their hand, their battleplan) comes with it, so a
//! card game can be played wholly from direct messages.

use crate::discord::format::notices::channel_of;
use crate::discord::format::{logs, pictures};
use crate::discord::shared::dm_memory;
use crate::discord::shared::nonces::Nonces;
use crate::store::Player;
use crate::table::Update;
use poise::serenity_prelude as serenity;

/// Sends each player who must act now, and asked for it (`/settings me dm:true`), a direct
/// message saying it is their turn, with a link to the match thread; not the player who just
/// acted. A message that cannot be sent is logged and skipped. The messages carry the nonces
/// of the owed post that tells them.
pub(crate) async fn tell_turns(
    http: &serenity::Http,
    table: &crate::table::TableHandle,
    update: &Update,
    mover: Option<crate::store::PlayerId>,
    nonces: &Nonces,
) {
    if update.repeated || update.outcome.is_some() {
        return;
    }
    let players: Vec<Player> = update
        .to_act
        .iter()
        .map(|(_, p)| p.clone())
        .filter(|p| Some(p.id) != mover && p.discord_id.is_some())
        .collect();
    if players.is_empty() {
        return;
    }
    let ids: Vec<_> = players.iter().map(|p| p.id).collect();
    let wanted = table
        .call(move |t| {
            ids.iter()
                .map(|&id| t.store().settings(id))
                .collect::<Result<Vec<_>, _>>()
        })
        .await;
    let wanted = match wanted {
        Ok(Ok(wanted)) => wanted,
        Ok(Err(e)) => {
            tracing::error!(match_id = update.match_id, error = %logs::chain(&e), "turn messages: settings unreadable");
            return;
        }
        Err(_) => return,
    };
    for (player, settings) in players.iter().zip(wanted) {
        if !settings.dm_on_turn && !settings.view_by_dm {
            continue;
        }
        let Some(user) = player.discord_id.as_deref().and_then(|id| id.parse().ok()) else {
            continue;
        };
        let mut message = serenity::CreateMessage::new().content(turn_text(update, player));
        let own = update
            .seat_views
            .iter()
            .find(|(seat, p, _)| p.id == player.id && update.to_act.iter().any(|(s, _)| s == seat));
        if let (true, Some((_, _, view))) = (settings.view_by_dm, own) {
            match pictures::draw_private(view.clone()).await {
                Ok(png) => {
                    message =
                        message.add_file(serenity::CreateAttachment::bytes(png, "your-view.png"));
                }
                Err(e) => {
                    tracing::error!(match_id = update.match_id, error = %logs::chain(e.as_ref()), "a private view could not be drawn")
                }
            }
        }
        // DMs closed: the board in the thread pings them already, and their own view is
        // theirs alone, so nothing goes to the thread instead.
        let message = nonces.stamp(message);
        if let Err(e) = dm_memory::send(http, table, serenity::UserId::new(user), message).await {
            tracing::info!(
                match_id = update.match_id,
                error = %e,
                "a turn message could not go by direct message"
            );
        }
    }
}

/// "Your turn in match #3 (Chess) in <#thread>: bob plays e5. Time runs out <t:…:R>."
pub fn turn_text(update: &Update, player: &Player) -> String {
    let mut text = format!(
        "Your turn in match #{} ({})",
        update.match_id,
        update.game.name()
    );
    if let Some(channel) = channel_of(&update.place) {
        text.push_str(&format!(" in <#{channel}>"));
    }
    text.push(':');
    match update.public.last() {
        Some(last) => {
            text.push_str(&format!(" {last}"));
            if !last.ends_with(['.', '!', '?']) {
                text.push('.');
            }
        }
        None => text.push_str(" it is your move."),
    }
    let seat = update.to_act.iter().find(|(_, p)| p.id == player.id);
    if let Some(at) = seat.and_then(|(s, _)| update.clocks.iter().find(|(c, _)| c == s)) {
        text.push_str(&format!(" Time runs out <t:{}:R>.", at.1));
    }
    text
}
