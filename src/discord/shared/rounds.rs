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
    season: Option<String>,
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
    let message = serenity::CreateMessage::new()
        .content(line)
        .allowed_mentions(pings::only(seated));
    match season {
        Some(url) => {
            let url = format!("{url}#round-{round}");
            message.components(vec![crate::discord::shared::links::row(url, "Season page")])
        }
        None => message,
    }
}

/// Announces a started round of `league` in its `channel`, every board at once: the way of
/// outbox posts written by earlier versions ([`crate::table::outbox::Owed::League`]).
pub(crate) async fn announce(
    http: &serenity::Http,
    table: &crate::table::TableHandle,
    channel: serenity::ChannelId,
    (league, public): (i64, Option<&str>),
    started: RoundStarted,
    nonces: &Nonces,
) -> Result<(), Error> {
    let link = season_link(table, league, public).await;
    for p in started.pairings {
        let (round, board, match_id) = (p.round, p.board, p.match_id);
        let found = table
            .call(move |t| t.pairing_to_announce(league, round, board, match_id))
            .await??;
        if let Some((p, seated)) = found {
            channel
                .send_message(
                    http,
                    nonces.stamp(pairing_message(round, &p, &seated, link.clone())),
                )
                .await?;
        }
    }
    Ok(())
}

/// The address of league `league`'s season page, when its server publishes its pages.
pub(crate) async fn season_link(
    table: &crate::table::TableHandle,
    league: i64,
    public: Option<&str>,
) -> Option<String> {
    let public = public?.to_string();
    table
        .call_quietly(move |t| {
            let league = t.store().league_by_id(league).ok()??;
            crate::discord::shared::links::season(t, Some(&public), &league)
        })
        .await
        .ok()
        .flatten()
}
