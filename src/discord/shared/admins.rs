//! Who may rule on a server (Manage Server, Administrator or the referee role), the server's
//! settings, the admin log's pages, and posting a ruling in its match's thread.

use crate::discord::format::notices::{changed_message, channel_of};
use crate::discord::format::plain::plain;
use crate::discord::format::{logs, pages};
use crate::discord::shared::lookups::{ephemeral, player_of};
use crate::discord::shared::{links, outbox};
use crate::discord::{Context, Error};
use crate::store::ServerSettings;
use crate::table::Update;
use crate::table::admin::Admin;
use poise::serenity_prelude as serenity;

/// The most admin actions `/admin log` reads back, newest first, a page at a time.
pub(crate) const LOG_ENTRIES: usize = 100;

/// Page `page` of this server's admin log, with its buttons.
pub(crate) async fn log_text(
    data: &crate::discord::Data,
    guild: String,
    page: usize,
) -> Result<(String, Vec<serenity::CreateActionRow>), Error> {
    let entries = data
        .table
        .call(move |t| t.store().admin_log(&guild, LOG_ENTRIES))
        .await??;
    if entries.is_empty() {
        let text = "No admin action has been taken on this server yet.".to_string();
        return Ok((text, vec![]));
    }
    let lines: Vec<String> = entries
        .iter()
        .map(|e| {
            let on = e
                .match_id
                .map_or(String::new(), |id| format!(" match #{id}:"));
            format!("<t:{}:f>{on} {}", e.at, plain(&e.detail))
        })
        .collect();
    let head = |p: usize, n: usize| match n {
        1 => String::new(),
        n => format!("Admin log, newest first, page {p} of {n}:"),
    };
    Ok(pages::page(head, &lines, page, &pages::Listing::AdminLog))
}

/// A page of the admin log for a press of its buttons: only for a member who may rule.
pub(crate) async fn log_page(
    data: &crate::discord::Data,
    guild: Option<String>,
    permissions: Option<serenity::Permissions>,
    roles: &[String],
    page: usize,
) -> Result<Result<(String, Vec<serenity::CreateActionRow>), String>, Error> {
    let Some(guild) = guild else {
        return Ok(Err(NOT_AN_ADMIN.into()));
    };
    let server = guild.clone();
    let referee = data
        .table
        .call(move |t| t.store().server_settings(&server))
        .await??
        .referee_role;
    if !may_rule(permissions, roles, referee.as_deref()) {
        return Ok(Err(NOT_AN_ADMIN.into()));
    }
    Ok(Ok(log_text(data, guild, page).await?))
}

/// What a member who may not use /admin is told.
pub(crate) const NOT_AN_ADMIN: &str = "Only members with the Manage Server permission (or the server's \
                            referee role) can use /admin.";

/// This server's settings (the defaults outside a server).
pub(crate) async fn server_settings(ctx: Context<'_>) -> Result<ServerSettings, Error> {
    let Some(guild) = ctx.guild_id() else {
        return Ok(ServerSettings::default());
    };
    let guild = guild.to_string();
    Ok(ctx
        .data()
        .table
        .call(move |t| t.store().server_settings(&guild))
        .await??)
}

/// The caller as an admin of this server, or None once they are told they are not one.
pub(crate) async fn admin_of(ctx: Context<'_>) -> Result<Option<Admin>, Error> {
    let member = ctx.author_member().await;
    let permissions = member.as_ref().and_then(|m| m.permissions);
    let roles: Vec<String> = member
        .as_ref()
        .map(|m| m.roles.iter().map(|r| r.to_string()).collect())
        .unwrap_or_default();
    let referee = server_settings(ctx).await?.referee_role;
    let Some(guild) = ctx
        .guild_id()
        .filter(|_| may_rule(permissions, &roles, referee.as_deref()))
    else {
        tracing::info!(user = %ctx.author().id, request = %logs::redact(&ctx.invocation_string(), &[]), "an admin command was refused to a member without Manage Server");
        ephemeral(
            ctx,
            "Only members with the Manage Server permission (or the server's referee role) \
             can use /admin.",
        )
        .await?;
        return Ok(None);
    };
    let player = player_of(ctx.data(), ctx.author()).await?;
    Ok(Some(Admin {
        player: player.id,
        name: player.name,
        guild: Some(guild.to_string()),
    }))
}

/// Whether a member with `permissions` (in the channel, as the interaction gives them) and
/// `roles` may use `/admin`: Manage Server or Administrator, or the server's referee role.
pub(crate) fn may_rule(
    permissions: Option<serenity::Permissions>,
    roles: &[String],
    referee: Option<&str>,
) -> bool {
    permissions.is_some_and(|p| p.manage_guild() || p.administrator())
        || referee.is_some_and(|role| roles.iter().any(|r| r == role))
}

/// Posts a ruling's update in its match's thread; what the admin is told of it.
pub(crate) async fn post_ruling(ctx: Context<'_>, update: &Update) -> String {
    let Some(thread) = channel_of(&update.place).filter(|_| !update.repeated) else {
        return String::new();
    };
    let http = &ctx.serenity_context().http;
    let told = match thread
        .send_message(
            http,
            links::with_finished(
                changed_message(update).await,
                &ctx.data().table,
                ctx.data().public_url.as_deref(),
                update,
            )
            .await,
        )
        .await
    {
        Ok(_) => {
            outbox::delivered(&ctx.data().table, update).await;
            format!(" Announced in <#{thread}>.")
        }
        Err(e) => {
            tracing::error!(match_id = update.match_id, error = %logs::chain(&e), "a ruling could not be posted in its thread");
            outbox::undelivered(&ctx.data().table, update).await;
            " It could not be posted in the match's thread.".to_string()
        }
    };
    // Whoever a substitution seated to act is told by the outbox (see `Table::commit`).
    told
}
