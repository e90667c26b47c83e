//! `/games`: every match of the caller's, across every server, in a server or a direct
//! message: whose turn it is, when their time runs out, and a link to each thread; with
//! filters for the matches where it is their turn, and for finished ones. `/history` and
//! `/export`: a match's actions a page at a time, and as a file (a log the console replays,
//! and PGN for chess and Enthralling Chess).

use crate::discord::format::logs::player_message;
use crate::discord::shared::lists::{history_page, listing_text, readable};
use crate::discord::shared::lookups::{NOT_A_MATCH, ephemeral, match_here, player_of};
use crate::discord::shared::reply;
use crate::discord::{Context, Error};
use crate::table::TableError;
use poise::CreateReply;
use poise::serenity_prelude as serenity;

/// Your matches in every server: whose turn, time left, and links.
#[poise::command(
    slash_command,
    install_context = "Guild|User",
    interaction_context = "Guild|BotDm|PrivateChannel"
)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Only the matches where it is your turn"] my_turn: Option<bool>,
    #[description = "Finished matches instead of active ones"] finished: Option<bool>,
) -> Result<(), Error> {
    reply::defer_private(ctx).await?;
    let player = player_of(ctx.data(), ctx.author()).await?.id;
    let finished = finished.unwrap_or(false);
    let list = ctx
        .data()
        .reads
        .read(move |t| t.listings(player, finished))
        .await??;
    let here = ctx.guild_id().map(|g| g.to_string());
    ephemeral(
        ctx,
        listing_text(&list, my_turn.unwrap_or(false), finished, here.as_deref()),
    )
    .await
}

/// This match's actions, a page at a time (the latest page unless you name one).
#[poise::command(slash_command, guild_only)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Which page (1 is the start)"]
    #[min = 1]
    page: Option<usize>,
) -> Result<(), Error> {
    reply::defer_private(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        return ephemeral(ctx, NOT_A_MATCH).await;
    };
    let (text, rows) = match history_page(ctx.data(), id, page.unwrap_or(usize::MAX)).await? {
        Ok(shown) => shown,
        Err(text) => (text, vec![]),
    };
    reply::private(ctx, CreateReply::default().content(text).components(rows)).await
}

/// This match as a file: a log the console replays, and PGN for chess and Enthralling Chess.
#[poise::command(slash_command, guild_only)]
pub async fn export(ctx: Context<'_>) -> Result<(), Error> {
    reply::defer_private(ctx).await?;
    let Some(id) = match_here(ctx.data(), ctx.channel_id()).await? else {
        return ephemeral(ctx, NOT_A_MATCH).await;
    };
    let result = ctx
        .data()
        .reads
        .read(move |t| {
            readable(t, id)?;
            Ok::<_, TableError>((t.export_log(id)?, t.export_pgn(id)?))
        })
        .await?;
    let (log, pgn) = match result {
        Ok(files) => files,
        Err(e) => return ephemeral(ctx, player_message(&e)).await,
    };
    let mut reply = CreateReply::default()
        .content(format!(
            "Match #{id}: the log replays with the command in its first lines."
        ))
        .attachment(serenity::CreateAttachment::bytes(
            log.into_bytes(),
            format!("match-{id}.txt"),
        ));
    if let Some(pgn) = pgn {
        reply = reply.attachment(serenity::CreateAttachment::bytes(
            pgn.into_bytes(),
            format!("match-{id}.pgn"),
        ));
    }
    reply::private(ctx, reply).await
}

/// This match (or the one named) as an animated picture, from a spectator's view.
#[poise::command(slash_command, guild_only)]
pub async fn replay(
    ctx: Context<'_>,
    #[description = "The match's number (default: this thread's match)"]
    #[rename = "match"]
    match_id: Option<i64>,
) -> Result<(), Error> {
    let id = match match_id {
        Some(id) => id,
        None => match match_here(ctx.data(), ctx.channel_id()).await? {
            Some(id) => id,
            None => return ephemeral(ctx, NOT_A_MATCH).await,
        },
    };
    let guild = ctx.guild_id().map(|g| g.to_string());
    let views = ctx
        .data()
        .reads
        .read(move |t| {
            // Another server's matches are its own business.
            if t.show(id)?.place.guild_id != guild {
                return Err(TableError::Illegal(format!(
                    "match #{id} is not played in this server"
                )));
            }
            t.public_replay(id)
        })
        .await?;
    let views = match views {
        Ok(Some(views)) => views,
        Ok(None) => {
            let text = format!(
                "Match #{id} shows its players what they must then remember: its replay is \
                 shown once it is over."
            );
            return ephemeral(ctx, text).await;
        }
        Err(e) => return ephemeral(ctx, player_message(&e)).await,
    };
    reply::defer(ctx).await?;
    let actions = views.len() - 1;
    let gif =
        crate::discord::format::pictures::off_thread(move || crate::render::render_replay(&views))
            .await?;
    let reply = CreateReply::default()
        .content(format!(
            "Match #{id}, replayed: {actions} action{}.",
            if actions == 1 { "" } else { "s" }
        ))
        .attachment(serenity::CreateAttachment::bytes(
            gif,
            format!("match-{id}.gif"),
        ));
    reply::answer(ctx, reply).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use crate::discord::shared::lists::listing_text;
    use crate::games::GameKind;
    use crate::store::Place;
    use crate::table::Listing;

    fn listing(id: i64, guild: &str, your_turn: bool, deadline: Option<i64>) -> Listing {
        Listing {
            match_id: id,
            game: GameKind::Chess,
            players: vec!["alice".into(), "bob".into()],
            waiting_for: vec![if your_turn { "alice" } else { "bob" }.into()],
            your_turn,
            version: 1,
            place: Place {
                guild_id: Some(guild.into()),
                channel_id: Some("10".into()),
                thread_id: Some(format!("{id}00")),
            },
            deadline,
            result: None,
        }
    }

    #[test]
    fn the_list_links_threads_of_other_servers_and_filters_my_turn() {
        let list = [
            listing(2, "1", true, Some(500)),
            listing(1, "2", false, None),
        ];
        assert_eq!(
            listing_text(&list, false, false, Some("1")),
            "#2 Chess in <#200>: alice vs bob — **your turn**, time runs out <t:500:R>\n\
             #1 Chess in https://discord.com/channels/2/100: alice vs bob — waiting for bob"
        );
        assert_eq!(listing_text(&list, true, false, None).lines().count(), 1);
        assert_eq!(
            listing_text(&list[1..], true, false, None),
            "It is not your turn in any match."
        );
        let many: Vec<Listing> = (0..100).map(|i| listing(i, "1", false, None)).collect();
        let text = listing_text(&many, false, false, None);
        assert!(text.len() <= 2000 && text.ends_with("more."), "{text}");
    }
}
