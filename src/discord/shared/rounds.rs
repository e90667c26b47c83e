//! Announcing a league round that started: a line per game in the league's channel, each a
//! post of its own owed to the outbox. Each board's thread and first board are owed too, and
//! made by the outbox's sender ([`crate::discord::shared::threads`]).

use crate::discord::Error;
use crate::discord::format::boards::mention;
use crate::discord::format::pings;
use crate::discord::shared::nonces::Nonces;
use crate::store::Player;
use crate::store::leagues::PairingRow;
use crate::table::leagues::{RoundStarted, bye_words};
use poise::serenity_prelude as serenity;

/// The line announcing board `p` of `round`, with its players `seated` in seat order, pinging
/// them.
pub(crate) fn pairing_message(
    round: u32,
    p: &PairingRow,
    seated: &[Player],
) -> serenity::CreateMessage {
    let everyone: Vec<String> = seated.iter().map(mention).collect();
    let line = match (seated, &p.result) {
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
    serenity::CreateMessage::new()
        .content(line)
        .allowed_mentions(pings::only(seated))
}

/// Announces a started round of `league` in its `channel`, every board at once: the way of
/// outbox posts written by earlier versions ([`crate::table::outbox::Owed::League`]).
pub(crate) async fn announce(
    http: &serenity::Http,
    table: &crate::table::TableHandle,
    channel: serenity::ChannelId,
    league: i64,
    started: RoundStarted,
    nonces: &Nonces,
) -> Result<(), Error> {
    for p in started.pairings {
        let (round, board, match_id) = (p.round, p.board, p.match_id);
        let found = table
            .call(move |t| t.pairing_to_announce(league, round, board, match_id))
            .await??;
        if let Some((p, seated)) = found {
            channel
                .send_message(http, nonces.stamp(pairing_message(round, &p, &seated)))
                .await?;
        }
    }
    Ok(())
}
