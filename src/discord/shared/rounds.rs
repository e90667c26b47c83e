//! Announcing a league round that started: a line per game in the league's channel, and a
//! thread for each board with its first board.

use crate::discord::Error;
use crate::discord::format::boards::{choice_components, mention, update_text};
use crate::discord::format::{limits, logs, pictures, pings};
use crate::table::TableError;
use crate::table::leagues::{RoundStarted, bye_words};
use poise::serenity_prelude as serenity;

/// Announces a started round in the league's `channel`: each game on a line of its own, and a
/// thread for each match with its first board.
pub(crate) async fn announce(
    http: &serenity::Http,
    table: &crate::table::TableHandle,
    channel: serenity::ChannelId,
    started: RoundStarted,
) -> Result<(), Error> {
    let RoundStarted {
        round,
        pairings,
        matches,
        ..
    } = started;
    let rows = pairings.clone();
    let names = table
        .call(move |t| {
            rows.iter()
                .map(|p| {
                    let ids: Vec<_> = match p.table.is_empty() {
                        true => std::iter::once(p.white).chain(p.black).collect(),
                        false => p.table.iter().map(|s| s.player).collect(),
                    };
                    ids.iter().map(|&id| t.store().player(id)).collect()
                })
                .collect::<Result<Vec<Vec<_>>, crate::store::StoreError>>()
        })
        .await??;
    let mut failed: Option<serenity::Error> = None;
    for (p, seated) in pairings.iter().zip(&names) {
        let everyone: Vec<String> = seated.iter().map(mention).collect();
        let line = match (seated.as_slice(), &p.result) {
            ([alone], result) => format!(
                "Round {round}: {} has {}.",
                mention(alone),
                bye_words(result.as_deref())
            ),
            ([white, black], Some(result)) => format!(
                "Round {round}, board {}: {} vs {}: {result}.",
                p.board,
                mention(white),
                mention(black)
            ),
            ([white, black], None) if p.table.is_empty() => format!(
                "Round {round}, board {}: {} (White) vs {} (Black).",
                p.board,
                mention(white),
                mention(black)
            ),
            _ => format!(
                "Round {round}, table {}, in seat order: {}.",
                p.board,
                everyone.join(", ")
            ),
        };
        let line = serenity::CreateMessage::new()
            .content(line)
            .allowed_mentions(pings::only(seated));
        let posted = channel.send_message(http, line).await?;
        let Some(update) = matches.iter().find(|u| Some(u.match_id) == p.match_id) else {
            continue;
        };
        let who: Vec<&str> = seated.iter().map(|x| x.name.as_str()).collect();
        let title = format!("{} round {round}: {}", update.game.name(), who.join(" vs "));
        let thread = channel
            .create_thread_from_message(
                http,
                posted.id,
                serenity::CreateThread::new(limits::thread_name(&title))
                    .kind(serenity::ChannelType::PublicThread),
            )
            .await;
        // One board whose thread cannot open does not stop the others; the first such
        // failure is returned once every board was tried.
        let thread = match thread {
            Ok(thread) => thread,
            Err(e) => {
                tracing::error!(match_id = update.match_id, error = %logs::chain(&e), "a league board's thread could not be opened");
                failed.get_or_insert(e);
                continue;
            }
        };
        let (match_id, thread_id) = (update.match_id, thread.id.to_string());
        let update = table
            .call(move |t| -> Result<_, TableError> {
                t.store().set_thread(match_id, &thread_id)?;
                t.opened(match_id)
            })
            .await??;
        let message = serenity::CreateMessage::new()
            .content(update_text(&update))
            .add_file(pictures::board_file(&update).await?)
            .components(choice_components(&update))
            .allowed_mentions(pings::of_update(&update));
        if let Err(e) = thread.id.send_message(http, message).await {
            tracing::error!(match_id, error = %logs::chain(&e), "a league board could not be posted");
        }
    }
    match failed {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
