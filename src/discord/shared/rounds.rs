//! Announcing a league round that started: a line per game in the league's channel. Each
//! board's thread and first board are owed to the outbox, which makes them
//! ([`crate::discord::shared::threads`]).

use crate::discord::Error;
use crate::discord::format::boards::mention;
use crate::discord::format::pings;
use crate::table::leagues::{RoundStarted, bye_words};
use poise::serenity_prelude as serenity;

/// Announces a started round in the league's `channel`: each game on a line of its own (each
/// match's thread and first board are owed to the outbox, which makes them).
pub(crate) async fn announce(
    http: &serenity::Http,
    table: &crate::table::TableHandle,
    channel: serenity::ChannelId,
    started: RoundStarted,
) -> Result<(), Error> {
    let RoundStarted {
        round, pairings, ..
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
        // Each game's thread is made by the outbox's sender (threads.rs), one post per board.
        channel.send_message(http, line).await?;
    }
    Ok(())
}
