//! What the bot writes to its log, and what it never writes: refused and failed requests (the
//! framework's error handler among them) are logged with their match and every cause, and
//! secrets (the bot token, the interaction tokens Discord puts in callback and webhook URLs)
//! are removed from every line, the libraries' own lines included.

pub use crate::discord::config::REDACTED;
use crate::discord::format::plain::plain;
use crate::store::{MatchId, StoreError};
use crate::table::TableError;
use std::error::Error as StdError;
use std::fmt::Display;
use std::io::{self, Write};
use std::sync::Arc;
use tracing_subscriber::fmt::MakeWriter;

/// Secrets shorter than this are not searched for (they would cut up ordinary words).
const SHORTEST_SECRET: usize = 8;

/// `text` without secrets: the token in a Discord interaction or webhook URL
/// (`/interactions/{id}/{token}/callback`, `/webhooks/{app}/{token}/messages/...`), the value
/// of any `token` or `authorization` field (as Rust's Debug or JSON print them), and every one
/// of `secrets` wherever it appears.
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for secret in secrets {
        if secret.len() >= SHORTEST_SECRET {
            out = out.replace(secret.as_str(), REDACTED);
        }
    }
    for marker in ["interactions/", "webhooks/"] {
        out = redact_after(&out, marker, url_token);
    }
    for key in ["token", "authorization"] {
        out = redact_after(&out, key, field_value);
    }
    out
}

/// Replaces, after each (ASCII case-insensitive) occurrence of `marker`, the range `locate`
/// finds in the text that follows it.
fn redact_after(text: &str, marker: &str, locate: fn(&str) -> Option<(usize, usize)>) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut done = 0;
    let mut from = 0;
    while let Some(found) = lower[from..].find(marker) {
        let after = from + found + marker.len();
        match locate(&text[after..]) {
            Some((start, end)) => {
                out.push_str(&text[done..after + start]);
                out.push_str(REDACTED);
                done = after + end;
                from = done;
            }
            None => from = after,
        }
    }
    out.push_str(&text[done..]);
    out
}

/// Characters that end a token or an unquoted value.
fn ends_value(c: char) -> bool {
    c.is_whitespace() || "/?#&\"'\\)]},;>".contains(c)
}

/// In `{id}/{token}...`: where the token is.
fn url_token(rest: &str) -> Option<(usize, usize)> {
    let slash = rest.find('/')?;
    if slash == 0 || rest[..slash].contains(ends_value) {
        return None;
    }
    let start = slash + 1;
    let len = rest[start..].find(ends_value).unwrap_or(rest.len() - start);
    (len > 0 && !rest[start..].starts_with(REDACTED)).then_some((start, start + len))
}

/// In `": "value"`, ` = value`, `: Some("value")` (what follows a field's name): where the
/// value is. Anything else (the word "token" in a sentence) is left alone.
fn field_value(rest: &str) -> Option<(usize, usize)> {
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() && matches!(bytes[i], b'"' | b'\'' | b'\\') {
        i += 1;
    }
    while i < bytes.len() && bytes[i] == b' ' {
        i += 1;
    }
    if i >= bytes.len() || !matches!(bytes[i], b':' | b'=') {
        return None;
    }
    i += 1;
    while i < bytes.len() && bytes[i] == b' ' {
        i += 1;
    }
    if rest[i..].starts_with("Some(") {
        i += "Some(".len();
    }
    let quoted = i < bytes.len() && matches!(bytes[i], b'"' | b'\'' | b'\\');
    while i < bytes.len() && matches!(bytes[i], b'"' | b'\'' | b'\\') {
        i += 1;
    }
    // A quoted value runs to its closing quote ("Bot abc" is one value); a bare one to the
    // first space or punctuation.
    let end = |c: char| {
        if quoted {
            matches!(c, '"' | '\'' | '\\')
        } else {
            ends_value(c)
        }
    };
    let len = rest[i..].find(end).unwrap_or(rest.len() - i);
    (len > 0 && !rest[i..].starts_with(REDACTED)).then_some((i, i + len))
}

/// An error and each of its causes, joined by ": " (a cause whose words are already in the
/// text is skipped; a full stop before a cause is dropped), without secrets: what the log says about a failure.
pub fn chain(error: &(dyn StdError + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let said = cause.to_string();
        if !said.is_empty() && !text.contains(&said) {
            text.truncate(text.trim_end_matches('.').len());
            text.push_str(": ");
            text.push_str(&said);
        }
        source = cause.source();
    }
    redact(&text, &[])
}

/// Discord's code for an interaction answered before: a second answer to the same interaction
/// (delivered twice) is refused with it.
const ALREADY_ACKNOWLEDGED: isize = 40060;

/// Whether `error` is Discord refusing an answer because the interaction was answered before.
pub fn already_answered(error: &(dyn StdError + 'static)) -> bool {
    use poise::serenity_prelude as serenity;
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))) =
            e.downcast_ref::<serenity::Error>()
        {
            return response.error.code == ALREADY_ACKNOWLEDGED;
        }
        next = e.source();
    }
    false
}

/// Logs a table call that did not go through and returns what the player is told: a player's
/// mistake (out of turn, an illegal move, a stale button) at info, our own failure (storage, a
/// match that cannot be loaded) at error with every cause. `request` is the command as typed
/// or the button's id.
pub fn refused(
    request: &str,
    user: impl Display,
    match_id: Option<MatchId>,
    error: &TableError,
) -> String {
    match error {
        TableError::Storage(_) | TableError::Corrupt { .. } => tracing::error!(
            match_id,
            %user,
            request = %redact(request, &[]),
            error = %chain(error),
            "a request failed on our side"
        ),
        _ => tracing::info!(
            match_id,
            %user,
            request = %redact(request, &[]),
            reason = %redact(&error.to_string(), &[]),
            "a request was refused"
        ),
    }
    player_message(error)
}

/// Logs a command or button that failed (an error it returned) and returns what its user is
/// told, or None when there is nothing to tell: Discord refused a second answer to an
/// interaction it delivered twice, which is logged at info.
pub fn failed(
    request: &str,
    user: impl Display,
    match_id: Option<MatchId>,
    error: &(dyn StdError + 'static),
) -> Option<String> {
    let request = redact(request, &[]);
    if already_answered(error) {
        tracing::info!(
            match_id,
            %user,
            %request,
            "Discord refused a second answer: this interaction was answered before"
        );
        return None;
    }
    tracing::error!(match_id, %user, %request, error = %chain(error), "a request failed");
    let mut cause = Some(error);
    while let Some(e) = cause {
        if let Some(e) = e.downcast_ref::<TableError>() {
            return Some(player_message(e));
        }
        if let Some(e) = e.downcast_ref::<StoreError>() {
            return Some(format!(
                "Something went wrong on our side ({}). Please try again.",
                e.short()
            ));
        }
        cause = e.source();
    }
    Some("Something went wrong on our side. Please try again.".into())
}

/// A [`MakeWriter`] that removes secrets from every line before it reaches `inner` (stderr in
/// the bot): the last guard, for lines written by libraries (serenity prints request routes,
/// interaction tokens included, at its more detailed levels).
#[derive(Clone)]
pub struct Redacting<M> {
    inner: M,
    secrets: Arc<[String]>,
}

impl<M> Redacting<M> {
    /// Writes to `inner`; also removes each of `secrets` (the bot token) wherever it appears.
    pub fn new(inner: M, secrets: Vec<String>) -> Self {
        Redacting {
            inner,
            secrets: secrets.into(),
        }
    }
}

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Redacting<M> {
    type Writer = RedactingWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter {
            inner: self.inner.make_writer(),
            secrets: self.secrets.clone(),
            pending: Vec::new(),
        }
    }
}

/// Collects what is written line by line and passes each line on without its secrets.
pub struct RedactingWriter<W: Write> {
    inner: W,
    secrets: Arc<[String]>,
    pending: Vec<u8>,
}

impl<W: Write> RedactingWriter<W> {
    fn emit(&mut self, line: &[u8]) -> io::Result<()> {
        let text = String::from_utf8_lossy(line);
        self.inner
            .write_all(redact(&text, &self.secrets).as_bytes())
    }
}

impl<W: Write> Write for RedactingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.emit(&line)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.emit(&rest)?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for RedactingWriter<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// What a player sees for a table error: the error itself, in its short form when it is ours
/// (the log has the whole story, see [`logs::refused`]).
pub(crate) fn player_message(error: &TableError) -> String {
    match error {
        TableError::Storage(_) => plain(&format!(
            "Something went wrong on our side: {error}. Please try again."
        )),
        other => plain(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use poise::serenity_prelude as serenity;
    use std::sync::Mutex;

    fn clean(text: &str) -> String {
        redact(text, &[])
    }

    #[test]
    fn tokens_in_discord_urls_are_removed() {
        assert_eq!(
            clean(
                "error sending request for url (https://discord.com/api/v10/interactions/\
                 1234/aW50ZXJhY3Rpb246MTIzNDp4eXo.Ab-_9/callback)"
            ),
            "error sending request for url (https://discord.com/api/v10/interactions/\
             1234/[redacted]/callback)"
        );
        assert_eq!(
            clean("PATCH /api/v10/webhooks/900/token-8001/messages/@original failed"),
            "PATCH /api/v10/webhooks/900/[redacted]/messages/@original failed"
        );
        assert_eq!(
            clean("url: \"http://127.0.0.1:1/api/v10/webhooks/9/tok?wait=true\""),
            "url: \"http://127.0.0.1:1/api/v10/webhooks/9/[redacted]?wait=true\""
        );
        // Two in one line, and the token at the very end.
        assert_eq!(
            clean("/interactions/1/a/callback then /webhooks/2/b"),
            "/interactions/1/[redacted]/callback then /webhooks/2/[redacted]"
        );
    }

    #[test]
    fn token_and_authorization_fields_are_removed() {
        assert_eq!(
            clean(r#"InteractionResponse { interaction_id: InteractionId(7), token: "token-7" }"#),
            r#"InteractionResponse { interaction_id: InteractionId(7), token: "[redacted]" }"#
        );
        assert_eq!(
            clean(r#"{"id":"7","token":"token-7","version":1}"#),
            r#"{"id":"7","token":"[redacted]","version":1}"#
        );
        assert_eq!(
            clean(r#"{"authorization": "Bot MTAw.fake.token", "accept": "*/*"}"#),
            r#"{"authorization": "[redacted]", "accept": "*/*"}"#
        );
        assert_eq!(
            clean(r#"payload "{\"token\":\"token-7\"}""#),
            r#"payload "{\"token\":\"[redacted]\"}""#
        );
        assert_eq!(
            clean("token = Some(\"abc.def\") and token=xyz"),
            "token = Some(\"[redacted]\") and token=[redacted]"
        );
    }

    #[test]
    fn known_secrets_go_and_plain_words_stay() {
        let secrets = vec!["MTAw.fake.token".to_string(), "short".to_string()];
        assert_eq!(
            redact("connecting with MTAw.fake.token (short)", &secrets),
            "connecting with [redacted] (short)",
            "a secret too short to search for is left"
        );
        for plain in [
            "DISCORD_TOKEN is not set. Put your bot's token in the environment",
            "match #3: it is not your turn: waiting for bob",
            "interactions/ and webhooks/ with nothing after them",
            "GET /api/v10/webhooks/123",
        ] {
            assert_eq!(clean(plain), plain);
        }
        assert_eq!(
            clean("/interactions/1/[redacted]/callback"),
            "/interactions/1/[redacted]/callback"
        );
    }

    #[tokio::test]
    async fn a_failed_discord_call_is_logged_with_its_cause_and_without_its_token() {
        // Nothing listens on port 1: the answer to an interaction fails before it is sent.
        let http = serenity::HttpBuilder::new("MTAw.fake.token")
            .default_allowed_mentions(serenity::CreateAllowedMentions::new())
            .proxy("http://127.0.0.1:1")
            .ratelimiter_disabled(true)
            .build();
        let answer = serenity::CreateInteractionResponse::Acknowledge;
        let error = http
            .create_interaction_response(
                serenity::InteractionId::new(42),
                "secret-interaction-token",
                &answer,
                vec![],
            )
            .await
            .expect_err("nothing answers on port 1");
        let raw = format!(
            "{error:?} {}",
            error.source().map(|e| e.to_string()).unwrap_or_default()
        );
        assert!(
            raw.contains("secret-interaction-token"),
            "the raw error has it: {raw}"
        );
        let logged = chain(&error);
        assert!(
            logged.starts_with("Error while sending HTTP request: error sending request for url")
                && logged.contains("/interactions/42/[redacted]/callback"),
            "{logged}"
        );
        assert!(!logged.contains("secret-interaction-token"), "{logged}");
        assert!(!already_answered(&error));
    }

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_line_written_through_the_log_writer_loses_its_secrets() {
        let buffer = Buffer::default();
        let sink = buffer.clone();
        let writer = Redacting::new(move || sink.clone(), vec!["MTAw.fake.token".into()]);
        let subscriber = tracing_subscriber::fmt()
            .with_writer(writer)
            .with_max_level(tracing::Level::DEBUG)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!(
                "request",
                route = "InteractionResponse { interaction_id: 1, token: \"token-1\" }"
            );
            let _inside = span.enter();
            tracing::debug!("Unsuccessful response: url: /api/v10/webhooks/9/token-2/messages");
            tracing::warn!(token = "MTAw.fake.token", "starting");
        });
        let written = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
        assert_eq!(written.lines().count(), 2, "{written}");
        for secret in ["token-1", "token-2", "MTAw.fake.token"] {
            assert!(!written.contains(secret), "{secret} in {written}");
        }
        assert!(
            written.contains("webhooks/9/[redacted]/messages"),
            "{written}"
        );
        assert!(written.contains("Unsuccessful response"), "{written}");
    }
}
