//! A press of a button or menu: its deferral and its answers (an edit of the message, a
//! private note), shared by every handler of a component.

use crate::discord::Error;
use crate::discord::format::{logs, pings};
use poise::serenity_prelude as serenity;
use std::sync::Mutex;

/// How a press was acknowledged so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Deferred {
    /// Not yet: the first answer is the interaction's response.
    No,
    /// Acknowledged without a visible change: answers edit the pressed message or follow it.
    Update,
    /// Acknowledged with a private "thinking…": the answer edits it.
    Private,
}

/// A press being answered. Its answers go where Discord expects them after the way it was
/// deferred: a private answer is always private, a public one always a new message.
pub(crate) struct Press<'a> {
    pub(crate) it: &'a serenity::ComponentInteraction,
    pub(crate) deferred: Mutex<Deferred>,
}

impl std::ops::Deref for Press<'_> {
    type Target = serenity::ComponentInteraction;
    fn deref(&self) -> &serenity::ComponentInteraction {
        self.it
    }
}

impl Press<'_> {
    fn deferred(&self) -> Deferred {
        *self.deferred.lock().expect("not poisoned")
    }

    fn set(&self, deferred: Deferred) {
        *self.deferred.lock().expect("not poisoned") = deferred;
    }

    /// Acknowledges the press now; the answer edits the pressed message or follows it.
    pub(crate) async fn defer(&self, ctx: &serenity::Context) -> Result<(), Error> {
        self.it.defer(ctx).await?;
        self.set(Deferred::Update);
        Ok(())
    }

    /// Acknowledges the press now with a private "thinking…"; every answer is private.
    pub(crate) async fn defer_private(&self, ctx: &serenity::Context) -> Result<(), Error> {
        self.it.defer_ephemeral(ctx).await?;
        self.set(Deferred::Private);
        Ok(())
    }

    /// Tells the presser `text`, privately.
    pub(crate) async fn tell(
        &self,
        ctx: &serenity::Context,
        text: impl Into<String>,
    ) -> Result<(), Error> {
        self.private(ctx, text.into(), vec![], None).await
    }

    /// Shows the presser alone `text`, with these rows and this picture.
    pub(crate) async fn private(
        &self,
        ctx: &serenity::Context,
        text: String,
        rows: Vec<serenity::CreateActionRow>,
        file: Option<serenity::CreateAttachment>,
    ) -> Result<(), Error> {
        match self.deferred() {
            Deferred::No => {
                let mut reply = serenity::CreateInteractionResponseMessage::new()
                    .content(text)
                    .components(rows)
                    .ephemeral(true);
                if let Some(file) = file {
                    reply = reply.add_file(file);
                }
                let reply = serenity::CreateInteractionResponse::Message(reply);
                self.it.create_response(ctx, reply).await?;
            }
            Deferred::Update => {
                let mut reply = serenity::CreateInteractionResponseFollowup::new()
                    .content(text)
                    .components(rows)
                    .ephemeral(true);
                if let Some(file) = file {
                    reply = reply.add_file(file);
                }
                self.it.create_followup(ctx, reply).await?;
            }
            Deferred::Private => {
                // serenity gives an edit no default allowed_mentions: nobody, here.
                let mut edit = serenity::EditInteractionResponse::new()
                    .allowed_mentions(pings::nobody())
                    .content(text)
                    .components(rows);
                if let Some(file) = file {
                    edit = edit.new_attachment(file);
                }
                self.it.edit_response(ctx, edit).await?;
                // Anything more is a further private message.
                self.set(Deferred::Update);
            }
        }
        Ok(())
    }

    /// Posts `text` for everyone, as a new message under the pressed one, notifying `pings`.
    pub(crate) async fn public(
        &self,
        ctx: &serenity::Context,
        text: String,
        rows: Vec<serenity::CreateActionRow>,
        file: serenity::CreateAttachment,
        pings: serenity::CreateAllowedMentions,
    ) -> Result<(), Error> {
        if self.deferred() == Deferred::No {
            let reply = serenity::CreateInteractionResponseMessage::new()
                .content(text)
                .components(rows)
                .add_file(file)
                .allowed_mentions(pings);
            let reply = serenity::CreateInteractionResponse::Message(reply);
            self.it.create_response(ctx, reply).await?;
        } else {
            let reply = serenity::CreateInteractionResponseFollowup::new()
                .content(text)
                .components(rows)
                .add_file(file)
                .allowed_mentions(pings);
            self.it.create_followup(ctx, reply).await?;
        }
        Ok(())
    }

    /// Changes the pressed message's text; with `rows`, its buttons too.
    pub(crate) async fn edit(
        &self,
        ctx: &serenity::Context,
        text: String,
        rows: Option<Vec<serenity::CreateActionRow>>,
    ) -> Result<(), Error> {
        if self.deferred() == Deferred::No {
            let mut reply = serenity::CreateInteractionResponseMessage::new().content(text);
            if let Some(rows) = rows {
                reply = reply.components(rows);
            }
            let reply = serenity::CreateInteractionResponse::UpdateMessage(reply);
            self.it.create_response(ctx, reply).await?;
        } else {
            let mut edit = serenity::EditInteractionResponse::new()
                .allowed_mentions(pings::nobody())
                .content(text);
            if let Some(rows) = rows {
                edit = edit.components(rows);
            }
            self.it.edit_response(ctx, edit).await?;
        }
        Ok(())
    }

    /// The pressed message becomes `text`, without its buttons: the question is settled.
    pub(crate) async fn settle(
        &self,
        ctx: &serenity::Context,
        text: impl Into<String>,
    ) -> Result<(), Error> {
        self.edit(ctx, text.into(), Some(vec![])).await
    }
}

/// Refuses a press for a reason of the presser's (a challenge not theirs): logged at debug,
/// told privately.
pub(crate) async fn refuse(
    ctx: &serenity::Context,
    press: &Press<'_>,
    reason: &str,
) -> Result<(), Error> {
    tracing::debug!(user = %press.user.id, request = %pressed(press), reason, "a press was refused");
    press.tell(ctx, reason).await
}

/// What was pressed, for the log: the button's id, and the choice made in a menu.
pub(crate) fn pressed(press: &serenity::ComponentInteraction) -> String {
    let mut text = press.data.custom_id.clone();
    if let serenity::ComponentInteractionDataKind::StringSelect { values } = &press.data.kind {
        text = format!("{text} {values:?}");
    }
    logs::redact(&text, &[])
}
