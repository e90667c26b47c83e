//! End to end, options the bot cannot read (a stale registration or a crafted interaction gets
//! past Discord's own checks): the command does not run, and only its caller is told which
//! option and why, their own text shown as plain text; nothing shows in the channel.

use crate::fake_discord::bot::{CHANNEL, assert_settled, content, ephemeral, start_bot};
use crate::fake_discord::{FakeDiscord, Recorded, user};
use serde_json::json;
use std::time::Duration;

/// What the channel saw after the first `after` requests: posts and public answers.
async fn in_public(fake: &FakeDiscord, after: usize) -> Vec<Recorded> {
    tokio::time::sleep(Duration::from_millis(500)).await;
    fake.requests()
        .into_iter()
        .skip(after)
        .filter(|r| r.path.contains("/channels/") && r.method == "POST")
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_option_that_cannot_be_read_is_told_privately_and_nothing_runs() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");

    // A choice Discord never offered, to a command whose answers are public.
    let n = fake.requests().len();
    let options = json!([{"name": "create", "type": 1, "options": [
        {"name": "name", "type": 3, "value": "Autumn"},
        {"name": "game", "type": 4, "value": 99}]}]);
    let id = fake.command_with(&alice, CHANNEL, "league", options, json!({}), "32");
    let reply = fake.reply_to(n, &id).await;
    assert!(ephemeral(&reply), "told privately: {reply:?}");
    assert!(
        content(&reply)
            .starts_with("Could not read option `game`: 99 is none of its choices (Chess, "),
        "{}",
        content(&reply)
    );
    assert!(in_public(&fake, n).await.is_empty());
    let leagues = table
        .call(|t| {
            t.store()
                .league_named(Some(crate::fake_discord::GUILD_ID), "Autumn")
        })
        .await
        .unwrap()
        .unwrap();
    assert!(leagues.is_none(), "no league was created");

    // Text where a subcommand takes a number; the text has a role mention and markdown.
    let n = fake.requests().len();
    let options = json!([{"name": "start", "type": 1, "options": [
        {"name": "days", "type": 3, "value": "<@&700000000000000099> **soon**"}]}]);
    let id = fake.command(&alice, CHANNEL, "vacation", options, json!({}));
    let reply = fake.reply_to(n, &id).await;
    assert!(ephemeral(&reply), "told privately: {reply:?}");
    assert_eq!(
        content(&reply),
        "Could not read option `days`: it takes a whole number, not \"\\<@&700000000000000099\\> \
         \\*\\*soon\\*\\*\". Nothing was done."
    );
    assert!(in_public(&fake, n).await.is_empty());

    // A number out of the range the command declares.
    let n = fake.requests().len();
    let options = json!([{"name": "start", "type": 1, "options": [
        {"name": "days", "type": 4, "value": 99}]}]);
    let id = fake.command(&alice, CHANNEL, "vacation", options, json!({}));
    let reply = fake.reply_to(n, &id).await;
    assert!(ephemeral(&reply), "told privately: {reply:?}");
    assert!(
        content(&reply)
            .starts_with("Could not read option `days`: it must be from 1 to 14, not 99"),
        "{}",
        content(&reply)
    );
    assert_settled(&fake, &table).await;
}
