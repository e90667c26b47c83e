//! Discord's limits on what a bot sends, as the fake holds the bot to them: a message's
//! content over 2,000 characters (Discord's limit for bots; the API description says 4,000),
//! too many or too long components, a thread's name over 100 characters, an autocomplete
//! answer with more than 25 choices or a name or value over 100, each refused with 400
//! "Invalid Form Body" (50035), as Discord refuses them. A message whose content holds
//! `@everyone`, `@here` or a role's mention without `allowed_mentions` that keeps them from
//! notifying is not refused (Discord would notify everyone), but recorded as a violation. On
//! by default; [`super::FakeDiscord::limits`] turns the refusals off for a test.

use serde_json::{Value, json};

/// A message's content, for a bot.
pub const CONTENT: usize = 2000;
pub const THREAD_NAME: usize = 100;
pub const ACTION_ROWS: usize = 5;
pub const BUTTONS_A_ROW: usize = 5;
pub const SELECT_OPTIONS: usize = 25;
pub const BUTTON_LABEL: usize = 80;
pub const CUSTOM_ID: usize = 100;
pub const OPTION_TEXT: usize = 100;
pub const PLACEHOLDER: usize = 150;
pub const CHOICES: usize = 25;
pub const CHOICE_TEXT: usize = 100;

/// What the fake makes of one request.
#[derive(Default, Debug)]
pub struct Checked {
    /// Why Discord refuses it (each a field and its error), empty when it does not.
    pub refused: Vec<String>,
    /// Mentions that would notify more than the bot can have meant.
    pub mentions: Vec<String>,
}

/// Discord's answer to a request refused for its limits.
pub fn refusal(problems: &[String]) -> Value {
    json!({"message": "Invalid Form Body", "code": 50035,
           "errors": {"_errors": problems.iter()
               .map(|p| json!({"code": "BASE_TYPE_MAX_LENGTH", "message": p}))
               .collect::<Vec<_>>()}})
}

/// Checks a request (its method, its path after `/api/v10/` split at `/`, its JSON body).
pub fn check(method: &str, parts: &[&str], json: &Value) -> Checked {
    let mut checked = Checked::default();
    match (method, parts) {
        ("POST", ["channels", _, "messages"])
        | ("PATCH", ["channels", _, "messages", _])
        | ("POST", ["webhooks", _, _])
        | ("PATCH", ["webhooks", _, _, "messages", _]) => message(json, &mut checked),
        ("POST", ["interactions", _, _, "callback"]) => match json["type"].as_u64() {
            Some(4 | 7) => message(&json["data"], &mut checked),
            Some(8) => choices(&json["data"]["choices"], &mut checked.refused),
            _ => {}
        },
        ("POST", ["channels", _, "messages", _, "threads"])
        | ("POST", ["channels", _, "threads"])
        | ("PATCH", ["channels", _]) => {
            if let Some(name) = json["name"].as_str() {
                at_most(&mut checked.refused, "name", name, THREAD_NAME);
            }
        }
        _ => {}
    }
    checked
}

fn at_most(refused: &mut Vec<String>, field: &str, text: &str, limit: usize) {
    let length = text.chars().count();
    if length > limit {
        refused.push(format!(
            "{field}: Must be {limit} or fewer in length (it is {length})."
        ));
    }
}

fn message(m: &Value, checked: &mut Checked) {
    let content = m["content"].as_str().unwrap_or("");
    at_most(&mut checked.refused, "content", content, CONTENT);
    components(&m["components"], &mut checked.refused);
    if let Some(embeds) = m["embeds"].as_array() {
        if embeds.len() > 10 {
            checked.refused.push("embeds: at most 10".into());
        }
        for e in embeds {
            at_most(
                &mut checked.refused,
                "embed title",
                e["title"].as_str().unwrap_or(""),
                256,
            );
            let text = e["description"].as_str().unwrap_or("");
            at_most(&mut checked.refused, "embed description", text, 4096);
        }
    }
    checked.mentions = loud_mentions(content, &m["allowed_mentions"]);
}

/// The mentions in `content` that would notify a crowd (everyone, those online, a role) under
/// `allowed`: all of them when it is missing (Discord then notifies whatever is written).
pub fn loud_mentions(content: &str, allowed: &Value) -> Vec<String> {
    let parse: Vec<&str> = allowed["parse"]
        .as_array()
        .map(|p| p.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let missing = allowed.is_null();
    let mut loud = Vec::new();
    for crowd in ["@everyone", "@here"] {
        if content.contains(crowd) && (missing || parse.contains(&"everyone")) {
            loud.push(format!("{crowd} would notify"));
        }
    }
    for role in role_mentions(content) {
        let listed = allowed["roles"]
            .as_array()
            .is_some_and(|r| r.iter().any(|id| id.as_str() == Some(role.as_str())));
        if missing || parse.contains(&"roles") || listed {
            loud.push(format!("<@&{role}> would notify"));
        }
    }
    loud
}

/// The role ids mentioned (`<@&123>`) in `content`.
fn role_mentions(content: &str) -> Vec<String> {
    content
        .split("<@&")
        .skip(1)
        .filter_map(|rest| {
            let (id, _) = rest.split_once('>')?;
            (!id.is_empty() && id.chars().all(|c| c.is_ascii_digit())).then(|| id.to_string())
        })
        .collect()
}

fn components(rows: &Value, refused: &mut Vec<String>) {
    let Some(rows) = rows.as_array() else {
        return;
    };
    if rows.len() > ACTION_ROWS {
        refused.push(format!(
            "components: at most {ACTION_ROWS} rows, not {}",
            rows.len()
        ));
    }
    for row in rows {
        let inner = row["components"].as_array().cloned().unwrap_or_default();
        if inner.is_empty() {
            refused.push("components: an action row holds at least one component".into());
        }
        let selects = inner.iter().filter(|c| c["type"] != 2).count();
        if inner.len() > BUTTONS_A_ROW || (selects > 0 && inner.len() > 1) {
            refused.push(format!(
                "components: a row holds 5 buttons or one menu, not {} components",
                inner.len()
            ));
        }
        for c in &inner {
            let text = |key: &str| c[key].as_str().unwrap_or("").to_string();
            at_most(refused, "custom_id", &text("custom_id"), CUSTOM_ID);
            at_most(refused, "label", &text("label"), BUTTON_LABEL);
            at_most(refused, "placeholder", &text("placeholder"), PLACEHOLDER);
            let options = c["options"].as_array().cloned().unwrap_or_default();
            if options.len() > SELECT_OPTIONS {
                refused.push(format!(
                    "options: at most {SELECT_OPTIONS}, not {}",
                    options.len()
                ));
            }
            for o in &options {
                for key in ["label", "value", "description"] {
                    let text = o[key].as_str().unwrap_or("");
                    at_most(refused, &format!("option {key}"), text, OPTION_TEXT);
                }
            }
        }
    }
}

fn choices(choices: &Value, refused: &mut Vec<String>) {
    let list = choices.as_array().cloned().unwrap_or_default();
    if list.len() > CHOICES {
        refused.push(format!("choices: at most {CHOICES}, not {}", list.len()));
    }
    for c in &list {
        let name = c["name"].as_str().unwrap_or("");
        if name.is_empty() {
            refused.push("choice name: Must be 1 or more in length.".into());
        }
        at_most(refused, "choice name", name, CHOICE_TEXT);
        if let Some(value) = c["value"].as_str() {
            at_most(refused, "choice value", value, CHOICE_TEXT);
        }
    }
}

/// Checks a request for the fake's `rest`: loud mentions are recorded as violations; a request
/// over a limit is recorded too and, while `on`, answered with Discord's refusal.
pub fn enforce(
    on: &std::sync::atomic::AtomicBool,
    violations: &std::sync::Mutex<Vec<String>>,
    method: &axum::http::Method,
    parts: &[&str],
    json: &Value,
) -> Option<axum::response::Response> {
    use axum::response::IntoResponse;
    let checked = check(method.as_str(), parts, json);
    let route = parts.join("/");
    let mut recorded = violations.lock().unwrap();
    for loud in &checked.mentions {
        recorded.push(format!("{method} {route}: {loud}\n  body: {json}"));
    }
    if checked.refused.is_empty() || !on.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    recorded.push(format!(
        "{method} {route} refused by Discord's limits: {}\n  body: {json}",
        checked.refused.join("; ")
    ));
    let answer = axum::Json(refusal(&checked.refused));
    Some((axum::http::StatusCode::BAD_REQUEST, answer).into_response())
}
