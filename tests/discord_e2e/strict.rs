//! The fake Discord is as strict as the real one: requests are held to Discord's own OpenAPI
//! description of its API (endpoint, path parameters, body, lengths and item counts), and a
//! request Discord would refuse is refused and fails the test.

use crate::fake_discord::FakeDiscord;
use crate::fake_discord::spec::Spec;
use poise::serenity_prelude as serenity;
use serde_json::{Value, json};

/// A message with one row of `buttons` buttons.
fn message_body(content: &str, buttons: usize) -> Value {
    let button = json!({"type": 2, "style": 1, "label": "e4", "custom_id": "dm:act:1:0:e4"});
    let row = json!({"type": 1, "components": vec![button; buttons]});
    json!({"content": content, "components": [row]})
}

#[test]
fn requests_are_held_to_discords_limits_and_endpoints() {
    let Some(spec) = Spec::get() else {
        eprintln!("skipped: Discord's API description is missing");
        return;
    };
    let post = spec
        .operation("POST", "/channels/700000000000000001/messages")
        .unwrap();
    assert_eq!(post.template, "/channels/{channel_id}/messages");
    let json = "application/json";
    spec.check_body(&post, json, &message_body(&"x".repeat(4000), 5))
        .unwrap();
    // 4,001 characters, six buttons in a row, an empty row, a label of 81 characters.
    let long = spec.check_body(&post, json, &message_body(&"x".repeat(4001), 1));
    assert!(long.unwrap_err().contains("longer than 4000"));
    assert!(spec.check_body(&post, json, &message_body("a", 6)).is_err());
    assert!(spec.check_body(&post, json, &message_body("a", 0)).is_err());
    let mut label = message_body("a", 1);
    label["components"][0]["components"][0]["label"] = json!("y".repeat(81));
    assert!(spec.check_body(&post, json, &label).is_err());

    // An endpoint Discord does not have, a method it does not take, a malformed id.
    let none = spec.operation("POST", "/channels/1/moves").err().unwrap();
    assert_eq!(none, "Discord has no endpoint /channels/1/moves");
    assert!(spec.operation("PUT", "/channels/1/messages").is_err());
    let bad = spec
        .operation("POST", "/channels/thread-1/messages")
        .err()
        .unwrap();
    assert!(bad.starts_with("path parameter channel_id"), "{bad}");
    // The more literal of two templates is the one meant.
    let original = spec
        .operation("PATCH", "/webhooks/1/token-1/messages/@original")
        .unwrap();
    assert!(original.template.ends_with("/messages/@original"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_discord_would_refuse_is_refused_and_recorded() {
    if Spec::get().is_none() {
        eprintln!("skipped: Discord's API description is missing");
        return;
    }
    let fake = FakeDiscord::start().await;
    let http = crate::fake_discord::bot::http(&fake).await;
    let channel = serenity::ChannelId::new(700000000000000001);
    http.send_message(channel, vec![], &message_body("fine", 1))
        .await
        .expect("a message Discord accepts");
    assert!(fake.take_violations().is_empty());
    let refused = http
        .send_message(channel, vec![], &message_body("six buttons in a row", 6))
        .await
        .unwrap_err();
    assert!(
        refused.to_string().contains("Invalid Form Body"),
        "{refused}"
    );
    let violations = fake.take_violations();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert!(
        violations[0].starts_with("POST /api/v10/channels/700000000000000001/messages: "),
        "{}",
        violations[0]
    );
}
