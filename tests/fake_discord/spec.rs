//! Discord's own OpenAPI description of its HTTP API (../shared/discord-api-spec/openapi.json),
//! used to hold the fake Discord to what the real one accepts: every REST request the bot makes
//! must name an operation Discord has (method and path, its path parameters well formed) and
//! carry a body its schema accepts (lengths, item counts, required fields); every object the
//! fake sends back, over REST or the gateway, must match the schema Discord describes for it.
//!
//! The file is not part of the project (`DISCORD_API_SPEC` may name it elsewhere). When it is
//! missing, checking is skipped with a note on standard error.

use jsonschema::{Draft, Registry, Validator};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The address the description is registered under; its `$ref`s resolve within it.
const BASE: &str = "urn:discord-api";

pub struct Spec {
    doc: Value,
    registry: &'static Registry<'static>,
    /// Validators by JSON pointer into the description, built on first use.
    validators: Mutex<HashMap<String, &'static Validator>>,
}

/// An operation found for a request: its path template, as the description writes it.
pub struct Operation {
    pub template: String,
    method: String,
}

impl Spec {
    /// The description, read once; None (and a note) when the file is missing.
    pub fn get() -> Option<&'static Spec> {
        static SPEC: OnceLock<Option<Spec>> = OnceLock::new();
        SPEC.get_or_init(|| {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../shared/discord-api-spec/openapi.json"
            );
            // DISCORD_API_SPEC names the file when it lies elsewhere (a worktree of its own).
            let path = std::env::var("DISCORD_API_SPEC").unwrap_or_else(|_| path.to_string());
            let Ok(text) = std::fs::read_to_string(&path) else {
                eprintln!(
                    "note: {path} is missing; the fake Discord does not check requests against \
                     Discord's API description"
                );
                return None;
            };
            let doc: Value = serde_json::from_str(&text).expect("openapi.json is JSON");
            let registry = Registry::new()
                .add(BASE, doc.clone())
                .expect("the description registers")
                .prepare()
                .expect("the description's references resolve");
            Some(Spec {
                doc,
                registry: Box::leak(Box::new(registry)),
                validators: Mutex::new(HashMap::new()),
            })
        })
        .as_ref()
    }

    /// The operation `method` `path` (below /api/v10) names, or why Discord has none.
    pub fn operation(&self, method: &str, path: &str) -> Result<Operation, String> {
        let method = method.to_lowercase();
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        let mut best: Option<(usize, &str)> = None;
        for template in self.doc["paths"].as_object().expect("paths").keys() {
            let parts: Vec<&str> = template.trim_matches('/').split('/').collect();
            if parts.len() != segments.len() {
                continue;
            }
            let fits = parts
                .iter()
                .zip(&segments)
                .all(|(t, s)| t.starts_with('{') || t == s);
            if !fits {
                continue;
            }
            // The most literal template wins: /messages/@original over /messages/{message_id}.
            let literal = parts.iter().filter(|t| !t.starts_with('{')).count();
            if best.is_none_or(|(l, _)| literal > l) {
                best = Some((literal, template));
            }
        }
        let Some((_, template)) = best else {
            return Err(format!("Discord has no endpoint {path}"));
        };
        if self.doc["paths"][template].get(&method).is_none() {
            return Err(format!(
                "Discord's {template} takes no {}",
                method.to_uppercase()
            ));
        }
        let operation = Operation {
            template: template.to_string(),
            method,
        };
        // Path parameters: snowflakes must be numbers, and so on.
        let parts: Vec<&str> = template.trim_matches('/').split('/').collect();
        for (part, value) in parts.iter().zip(&segments) {
            let Some(name) = part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) else {
                continue;
            };
            if let Some(pointer) = self.parameter(&operation, name) {
                let value = Value::String(percent_decode(value));
                self.check(&pointer, &value)
                    .map_err(|e| format!("path parameter {name} {value}: {e}"))?;
            }
        }
        Ok(operation)
    }

    /// Problems with the body of a request to `operation` sent as `content_type`.
    pub fn check_body(
        &self,
        op: &Operation,
        content_type: &str,
        body: &Value,
    ) -> Result<(), String> {
        let base = format!("{}/requestBody", op.pointer());
        let Some(request) = self.at(&base) else {
            return match body {
                Value::Null => Ok(()),
                _ => Err(format!("{} {} takes no body", op.method, op.template)),
            };
        };
        if body.is_null() {
            return match request["required"].as_bool() {
                Some(true) => Err("a body is required".into()),
                _ => Ok(()),
            };
        }
        let pointer = format!("{base}/content/{}/schema", escape(content_type));
        if self.at(&pointer).is_none() {
            return Err(format!("{content_type} is not accepted here"));
        }
        self.check(&pointer, &self.as_discord_reads(&pointer, body))
    }

    /// `body` as Discord's API reads it, which is more lenient with numbers than its
    /// description: a string of digits where an integer is described is read as that integer
    /// (the documentation gives permission sets such as `default_member_permissions` as
    /// strings, and libraries send them so), and a whole number where a string is described is
    /// read as its digits (ids may be sent as numbers: an upload's attachment `id` is its index).
    fn as_discord_reads(&self, pointer: &str, body: &Value) -> Value {
        let validator = self.validator(pointer);
        let mut body = body.clone();
        // Inside an anyOf (a webhook's body may be one of two shapes) a validator reports only
        // that no shape fits, so uploads' indices are read as ids up front, wherever the
        // attachments sit (an interaction's answer has them under `data`).
        uploads_as_ids(&mut body);
        loop {
            let fix = validator.iter_errors(&body).find_map(|e| {
                let at = e.instance_path().to_string();
                let wanted = e.to_string();
                match body.pointer(&at)? {
                    Value::String(text)
                        if wanted.contains("\"integer\"")
                            && !text.is_empty()
                            && text.bytes().all(|b| b.is_ascii_digit()) =>
                    {
                        Some((at, Value::from(text.parse::<u64>().ok()?)))
                    }
                    Value::Number(n) if wanted.contains("\"string\"") && n.is_u64() => {
                        Some((at, Value::String(n.to_string())))
                    }
                    _ => None,
                }
            });
            match fix {
                Some((at, read)) => *body.pointer_mut(&at).expect("found above") = read,
                None => return body,
            }
        }
    }

    /// Problems with the fake's own answer to `operation` with `status`.
    pub fn check_response(&self, op: &Operation, status: u16, body: &Value) -> Result<(), String> {
        let pointer = format!(
            "{}/responses/{status}/content/application~1json/schema",
            op.pointer()
        );
        match self.at(&pointer) {
            Some(_) => self.check(&pointer, body),
            None if body.is_null() => Ok(()),
            None => Err(format!("Discord answers {status} here with no body")),
        }
    }

    /// Problems with `value` as the schema `name` of the description's components.
    pub fn check_schema(&self, name: &str, value: &Value) -> Result<(), String> {
        self.check(&format!("/components/schemas/{name}"), value)
    }

    fn at(&self, pointer: &str) -> Option<&Value> {
        self.doc.pointer(pointer)
    }

    /// The pointer to the schema of path parameter `name` of `op`, if it is described.
    fn parameter(&self, op: &Operation, name: &str) -> Option<String> {
        let path = format!("/paths/{}", escape(&op.template));
        for at in [op.pointer(), path] {
            let Some(list) = self
                .at(&format!("{at}/parameters"))
                .and_then(Value::as_array)
            else {
                continue;
            };
            if let Some(i) = list.iter().position(|p| p["name"] == name) {
                return Some(format!("{at}/parameters/{i}/schema"));
            }
        }
        None
    }

    /// Validates `value` against the schema at `pointer`; the first few problems in words.
    fn check(&self, pointer: &str, value: &Value) -> Result<(), String> {
        let validator = self.validator(pointer);
        let problems: Vec<String> = validator
            .iter_errors(value)
            .take(3)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        match problems.is_empty() {
            true => Ok(()),
            false => Err(problems.join("; ")),
        }
    }

    fn validator(&self, pointer: &str) -> &'static Validator {
        let mut validators = self.validators.lock().unwrap();
        validators.entry(pointer.to_string()).or_insert_with(|| {
            let fragment = pointer.replace('{', "%7B").replace('}', "%7D");
            let schema = serde_json::json!({ "$ref": format!("{BASE}#{fragment}") });
            let validator = jsonschema::options()
                .with_draft(Draft::Draft202012)
                .with_registry(self.registry)
                .build(&schema)
                .unwrap_or_else(|e| panic!("the schema at {pointer} builds: {e}"));
            Box::leak(Box::new(validator))
        })
    }
}

impl Operation {
    fn pointer(&self) -> String {
        format!("/paths/{}/{}", escape(&self.template), self.method)
    }
}

/// Every `attachments[].id` given as a number, as the string Discord reads it as.
fn uploads_as_ids(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Array(attachments)) = map.get_mut("attachments") {
                for attachment in attachments {
                    if let Some(index) = attachment.get("id").and_then(Value::as_u64) {
                        attachment["id"] = Value::String(index.to_string());
                    }
                }
            }
            map.values_mut().for_each(uploads_as_ids);
        }
        Value::Array(items) => items.iter_mut().for_each(uploads_as_ids),
        _ => {}
    }
}

/// A JSON pointer's escaping of one key.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// `%E2%9D%8C` as the text it stands for.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(byte) = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
