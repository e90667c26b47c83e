//! End to end, challenges that live in the database: one made before the bot restarts is
//! accepted after it (a second bot on the same file), stale buttons are refused in words, ids
//! are not reused, two acceptances at once both count and make one match, and every command
//! or press that waits for the table is deferred first.

use super::fake_discord::bot::assert_settled;
use crate::fake_discord::bot::{
    CHANNEL, content, custom_ids, ephemeral, start_bot_with, start_stoppable_bot,
};
use crate::fake_discord::logs::TempDb;
use crate::fake_discord::{DEFERRED_MESSAGE, DEFERRED_UPDATE, FakeDiscord, Recorded, user};
use deckmate::store::{ChallengeStatus, Store};
use serde_json::{Value, json};

/// `who` challenges `opponents` to the game at `game` in /play's list; returns the reply.
async fn challenge(fake: &FakeDiscord, who: &Value, opponents: &[&Value], game: u64) -> Recorded {
    let mut options = vec![json!({"name": "game", "type": 4, "value": game})];
    let mut users = serde_json::Map::new();
    for (i, o) in opponents.iter().enumerate() {
        let name = ["opponent", "opponent2", "opponent3"][i];
        options.push(json!({"name": name, "type": 6, "value": o["id"]}));
        users.insert(o["id"].as_str().unwrap().to_string(), (*o).clone());
    }
    let n = fake.requests().len();
    let id = fake.command(
        who,
        CHANNEL,
        "play",
        Value::Array(options),
        json!({ "users": users }),
    );
    let reply = fake.reply_to(n, &id).await;
    let callback = fake.answers(n, &id, 1).await.remove(0);
    assert_eq!(
        callback.json["type"], DEFERRED_MESSAGE,
        "/play is deferred: {callback:?}"
    );
    reply
}

/// The callback type each interaction after request `after` was answered with.
fn callback_type(fake: &FakeDiscord, after: usize, id: &str) -> u64 {
    let path = format!("/api/v10/interactions/{id}/");
    fake.requests()
        .iter()
        .skip(after)
        .find(|r| r.path.starts_with(&path) && r.status < 300)
        .and_then(|r| r.json["type"].as_u64())
        .unwrap_or_else(|| panic!("interaction {id} was not answered"))
}

fn count(fake: &FakeDiscord, after: usize, pred: impl Fn(&Recorded) -> bool) -> usize {
    fake.requests()
        .iter()
        .skip(after)
        .filter(|r| pred(r))
        .count()
}

fn is_thread(r: &Recorded) -> bool {
    r.method == "POST" && r.path.ends_with("/threads")
}

fn is_board(r: &Recorded) -> bool {
    r.method == "POST" && r.path.ends_with("/messages") && !r.files.is_empty()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_accepted_after_the_bot_restarted() {
    let db = TempDb::new("challenge-restart");
    let fake = FakeDiscord::start().await;
    let (_, shards) = start_stoppable_bot(&fake, Store::open(&db.0).unwrap()).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let carol = user("100000000000000003", "carol");

    let reply = challenge(&fake, &alice, &[&bob], 0).await;
    assert!(!ephemeral(&reply), "{reply:?}");
    assert!(content(&reply).contains("to Chess"), "{reply:?}");
    assert_eq!(
        custom_ids(&reply),
        ["dm:chal:1:accept", "dm:chal:1:decline"]
    );

    // The bot stops and a new one starts on the same file.
    shards.shutdown_all().await;
    let table = start_bot_with(&fake, Store::open(&db.0).unwrap()).await;

    // A stranger still cannot accept it; bob can, and the match starts.
    let n = fake.requests().len();
    let id = fake.press(&carol, CHANNEL, 5000, "dm:chal:1:accept");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("not addressed to you"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.press(&bob, CHANNEL, 5000, "dm:chal:1:accept");
    let settled = fake.reply_to(n, &id).await;
    assert_eq!(
        callback_type(&fake, n, &id),
        DEFERRED_UPDATE,
        "the press is deferred"
    );
    assert_eq!(
        settled.json["type"], 7,
        "the challenge message: {settled:?}"
    );
    assert_eq!(
        content(&settled),
        "Challenge accepted: match #1 starts; its thread opens in a moment.",
        "{settled:?}"
    );
    assert!(custom_ids(&settled).is_empty(), "no buttons left");
    let board = fake.wait_for(n, "the first board", is_board).await;
    // Once its thread exists, the challenge's message says where the match is on.
    let edited = fake
        .wait_for(n, "the challenge saying where", |r| {
            r.method == "PATCH" && content(r).contains("match #1 is on in <#")
        })
        .await;
    assert!(custom_ids(&edited).is_empty(), "{edited:?}");
    assert!(
        content(&board).contains("Match #1: Chess for alice, bob")
            && content(&board).contains("<@100000000000000001> to play"),
        "{}",
        content(&board)
    );
    let thread = board.path.split('/').nth(4).unwrap().to_string();
    let stored = table
        .call(|t| t.store().challenge(1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (stored.status, stored.match_id),
        (ChallengeStatus::Accepted, Some(1))
    );
    assert!(stored.message_id.is_some(), "where it was posted is kept");
    let played = table.call(|t| t.store().load(1)).await.unwrap().unwrap();
    assert_eq!(played.place.thread_id.as_deref(), Some(thread.as_str()));

    // Its button again: refused, saying where the match is.
    let n = fake.requests().len();
    let id = fake.press(&bob, CHANNEL, 5000, "dm:chal:1:accept");
    let reply = fake.reply_to(n, &id).await;
    assert!(ephemeral(&reply), "{reply:?}");
    assert_eq!(
        content(&reply),
        format!("This challenge was already accepted: match #1 is on in <#{thread}>.")
    );

    // A button of the challenges once kept in memory: refused without being looked up.
    let n = fake.requests().len();
    let id = fake.press(&bob, CHANNEL, 4000, "dm:challenge:2:accept");
    let reply = fake.reply_to(n, &id).await;
    assert_eq!(
        callback_type(&fake, n, &id),
        4,
        "a refusal in words is immediate"
    );
    assert!(
        ephemeral(&reply) && content(&reply).contains("made before the bot last restarted"),
        "{reply:?}"
    );

    // The next challenge has a new id; once its time is up, it is refused with the time.
    let reply = challenge(&fake, &alice, &[&bob], 0).await;
    assert_eq!(
        custom_ids(&reply),
        ["dm:chal:2:accept", "dm:chal:2:decline"]
    );
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    conn.execute("UPDATE challenges SET expires_at = 1000 WHERE id = 2", [])
        .unwrap();
    let n = fake.requests().len();
    let id = fake.press(&bob, CHANNEL, 5001, "dm:chal:2:accept");
    let reply = fake.reply_to(n, &id).await;
    assert!(ephemeral(&reply), "{reply:?}");
    assert_eq!(
        content(&reply),
        "This challenge expired on <t:1000:f>. Start a new one with /play."
    );
    assert_eq!(count(&fake, n, is_thread), 0);

    // A third one, declined by bob: the message says so, and accepting it is refused.
    let reply = challenge(&fake, &alice, &[&bob], 0).await;
    assert_eq!(custom_ids(&reply)[1], "dm:chal:3:decline");
    let n = fake.requests().len();
    let id = fake.press(&bob, CHANNEL, 5002, "dm:chal:3:decline");
    let settled = fake.reply_to(n, &id).await;
    assert_eq!(settled.json["type"], 7, "{settled:?}");
    assert!(
        content(&settled).contains("<@100000000000000002> declined the challenge to Chess"),
        "{settled:?}"
    );
    let n = fake.requests().len();
    let id = fake.press(&bob, CHANNEL, 5002, "dm:chal:3:accept");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("was declined"),
        "{reply:?}"
    );

    // In the match, every command that waits for the table is deferred; a refusal after a
    // public deferral still reaches its player alone.
    for (who, name, options, public) in [
        (
            &alice,
            "move",
            json!([{"name": "action", "type": 3, "value": "e4"}]),
            true,
        ),
        (
            &alice,
            "move",
            json!([{"name": "action", "type": 3, "value": "e5"}]),
            false,
        ),
        (&bob, "board", json!([]), true),
        (&bob, "view", json!([]), false),
        (&bob, "games", json!([]), false),
        (&bob, "draw", json!([]), true),
    ] {
        let n = fake.requests().len();
        let id = fake.command(who, &thread, name, options, json!({}));
        let reply = fake.reply_to(n, &id).await;
        assert_eq!(
            callback_type(&fake, n, &id),
            DEFERRED_MESSAGE,
            "/{name} is deferred"
        );
        assert_eq!(ephemeral(&reply), !public, "/{name}: {reply:?}");
    }
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_acceptances_at_once_make_one_match() {
    let fake = FakeDiscord::start().await;
    let table = start_bot_with(&fake, Store::open_in_memory().unwrap()).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let carol = user("100000000000000003", "carol");

    // Three-player En Prise: bob and carol accept at the same moment.
    let reply = challenge(&fake, &alice, &[&bob, &carol], 2).await;
    assert!(
        content(&reply).contains("Waiting for <@100000000000000002>, <@100000000000000003>"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let by_bob = fake.press(&bob, CHANNEL, 5000, "dm:chal:1:accept");
    let by_carol = fake.press(&carol, CHANNEL, 5000, "dm:chal:1:accept");
    let answers = [
        fake.reply_to(n, &by_bob).await,
        fake.reply_to(n, &by_carol).await,
    ];
    let texts: Vec<String> = answers.iter().map(content).collect();
    assert!(
        answers.iter().all(|a| a.json["type"] == 7 && !ephemeral(a)),
        "both edit the challenge: {answers:?}"
    );
    assert_eq!(
        texts
            .iter()
            .filter(|t| t.contains("Challenge accepted: match #1 starts"))
            .count(),
        1,
        "{texts:?}"
    );
    assert_eq!(
        texts
            .iter()
            .filter(|t| t.contains("Waiting for <@1000000000000000"))
            .count(),
        1,
        "{texts:?}"
    );
    let board = fake.wait_for(n, "the first board", is_board).await;
    assert_eq!(count(&fake, n, is_thread), 1);
    assert!(
        content(&board).contains("Match #1: En Prise for alice, bob, carol"),
        "{}",
        content(&board)
    );
    assert_eq!(count(&fake, n, is_board), 1);
    let stored = table
        .call(|t| t.store().challenge(1))
        .await
        .unwrap()
        .unwrap();
    assert!(stored.waiting().is_empty(), "both acceptances recorded");

    // A final Accept pressed twice at once: one match, and the other press is told where.
    challenge(&fake, &alice, &[&bob], 0).await;
    let n = fake.requests().len();
    let first = fake.press(&bob, CHANNEL, 5001, "dm:chal:2:accept");
    let second = fake.press(&bob, CHANNEL, 5001, "dm:chal:2:accept");
    let answers = [
        fake.reply_to(n, &first).await,
        fake.reply_to(n, &second).await,
    ];
    let started: Vec<&Recorded> = answers.iter().filter(|a| !ephemeral(a)).collect();
    let refused: Vec<&Recorded> = answers.iter().filter(|a| ephemeral(a)).collect();
    assert_eq!((started.len(), refused.len()), (1, 1), "{answers:?}");
    assert!(
        content(started[0]).contains("Challenge accepted: match #2 starts"),
        "{started:?}"
    );
    assert!(
        content(refused[0]).contains("This challenge was already accepted: match #2"),
        "{refused:?}"
    );
    fake.wait_for(n, "match #2's first board", |r| {
        is_board(r) && content(r).contains("Match #2:")
    })
    .await;
    assert_eq!(count(&fake, n, is_thread), 1);
    let matches: i64 = table
        .call(|t| {
            t.store()
                .connection()
                .query_row("SELECT COUNT(*) FROM matches", [], |r| r.get(0))
        })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(matches, 2);
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenger_who_asks_for_the_second_seat_is_named_first_and_plays_black() {
    let fake = FakeDiscord::start().await;
    let table = start_bot_with(&fake, Store::open_in_memory().unwrap()).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        CHANNEL,
        "play",
        json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "opponent", "type": 6, "value": bob["id"]},
            {"name": "seat", "type": 4, "value": 1}
        ]),
        json!({ "users": { bob["id"].as_str().unwrap(): bob } }),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).starts_with(
            "<@100000000000000001> challenges <@100000000000000002> to Chess. Seats in order: \
             <@100000000000000002>, <@100000000000000001>."
        ),
        "{reply:?}"
    );
    // Only Bob is awaited, and only he may accept: Alice accepted by challenging.
    assert!(
        content(&reply).contains("Waiting for <@100000000000000002> to accept"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.press(&alice, CHANNEL, 5000, "dm:chal:1:accept");
    let refused = fake.reply_to(n, &id).await;
    assert!(ephemeral(&refused), "{refused:?}");
    assert_eq!(
        content(&refused),
        "You have already accepted this challenge; waiting for the others."
    );
    let n = fake.requests().len();
    fake.press(&bob, CHANNEL, 5000, "dm:chal:1:accept");
    fake.wait_for(n, "the match's first board", is_board).await;
    // Bob is White, seat 1; Alice Black.
    let played = table.call(|t| t.store().load(1)).await.unwrap().unwrap();
    let names: Vec<&str> = played.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["bob", "alice"]);
    assert_settled(&fake, &table).await;
}
