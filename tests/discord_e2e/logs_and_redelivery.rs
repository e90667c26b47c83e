//! End to end, the bot's logs and Discord's redeliveries: failures are logged with their match
//! and cause and never a token, and an interaction delivered twice is applied once.

use crate::fake_discord::bot::{assert_settled, assert_settled_but};
use crate::fake_discord::bot::{
    content, custom_ids, ephemeral, start_bot, start_bot_with, two_player_match,
};
use crate::fake_discord::logs::{TempDb, assert_no_secret, runtime_with_logs};
use crate::fake_discord::{FakeDiscord, user};
use deckmate::store::Store;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;

#[test]
fn failures_are_logged_with_their_match_and_cause_and_never_a_token() {
    let (runtime, logs, _guard) = runtime_with_logs("warn,deckmate=debug");
    let db = TempDb::new("failures");
    runtime.block_on(async {
        let fake = FakeDiscord::start().await;
        let table = start_bot_with(&fake, Store::open(&db.0).unwrap()).await;
        let alice = user("100000000000000001", "alice");
        let bob = user("100000000000000002", "bob");
        let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
        let move_cmd = |who: &Value, text: &str| fake.move_command(who, &thread, text);

        // A move out of turn: refused, and logged at info with its match.
        let n = fake.requests().len();
        let id = move_cmd(&bob, "e5");
        let reply = fake.reply_to(n, &id).await;
        assert_eq!(content(&reply), "it is not your turn: waiting for alice");
        let line = logs
            .wait_for(&[
                "a request was refused",
                "match_id=1",
                "request=/move action:e5",
            ])
            .await;
        assert!(
            line.contains("INFO") && line.contains("reason=it is not your turn: waiting for alice"),
            "{line}"
        );

        // A stale menu: refused, logged with its match and the choice made.
        let n = fake.requests().len();
        let id = move_cmd(&alice, "e4");
        fake.reply_to(n, &id).await;
        let n = fake.requests().len();
        let id = fake.select(&bob, &thread, 9000, "dm:choose:1:0", "=e5");
        let reply = fake.reply_to(n, &id).await;
        assert!(content(&reply).contains("has moved on"), "{reply:?}");
        let line = logs
            .wait_for(&["a request was refused", "match_id=1", "dm:choose:1:0"])
            .await;
        assert!(
            line.contains("INFO") && line.contains("has moved on"),
            "{line}"
        );

        // Storage fails (the action log refuses to grow): the player hears it in short, the
        // log has every cause, SQLite's words included.
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        conn.execute_batch(
            "CREATE TRIGGER full BEFORE INSERT ON actions \
             BEGIN SELECT RAISE(ABORT, 'the test disk is full'); END;",
        )
        .unwrap();
        let n = fake.requests().len();
        let id = move_cmd(&bob, "e5");
        let reply = fake.reply_to(n, &id).await;
        assert!(ephemeral(&reply), "{reply:?}");
        assert_eq!(
            content(&reply),
            "Something went wrong on our side: storage failed; the match is unchanged. \
             Please try again."
        );
        let line = logs
            .wait_for(&["a request failed on our side", "match_id=1"])
            .await;
        assert!(
            line.contains("ERROR")
                && line.contains("request=/move action:e5")
                && line.contains(
                    "error=storage failed; the match is unchanged: database error: \
                     SQLite: the test disk is full"
                ),
            "{line}"
        );

        // A command that fails before the table answers (bob, under a new name, cannot have
        // his record written; a known name is only read): logged with the match of the
        // thread it was used in.
        conn.execute_batch(
            "DROP TRIGGER full; CREATE TRIGGER locked BEFORE UPDATE ON players \
             BEGIN SELECT RAISE(ABORT, 'players are locked for the test'); END;",
        )
        .unwrap();
        let renamed = user("100000000000000002", "bobby");
        let n = fake.requests().len();
        let id = fake.command(&renamed, &thread, "view", json!([]), json!({}));
        let reply = fake.reply_to(n, &id).await;
        assert!(ephemeral(&reply), "{reply:?}");
        assert_eq!(
            content(&reply),
            "Something went wrong on our side (storage failed). Please try again."
        );
        let line = logs
            .wait_for(&["a request failed", "match_id=1", "request=/view"])
            .await;
        assert!(
            line.contains("ERROR") && line.contains("players are locked for the test"),
            "{line}"
        );
        conn.execute_batch("DROP TRIGGER locked;").unwrap();

        // A background task: En Prise Memory's time runs out when the bot may no longer post
        // in the thread.
        let (_, first) = two_player_match(
            &fake,
            &alice,
            &bob,
            (2, "En Prise"),
            "variant=memory memory_seconds=1",
            2,
        )
        .await;
        assert!(content(&first).contains("to play"), "{first:?}");
        fake.posts_fail.store(true, Ordering::Relaxed);
        let line = logs
            .wait_for(&["a post was refused for good", "match_id=2"])
            .await;
        assert!(
            line.contains("ERROR") && line.contains("error=Missing Permissions"),
            "{line}"
        );
        assert_no_secret(&logs);
        // The thread refusing the bot's posts (403) was the point of the last part.
        assert_settled_but(&fake, &table, |r| r.status == 403).await;
    });
}

#[test]
fn an_interaction_delivered_twice_is_applied_once() {
    let (runtime, logs, _guard) = runtime_with_logs("warn,deckmate=debug");
    runtime.block_on(async {
        let fake = FakeDiscord::start().await;
        let table = start_bot(&fake).await;
        let alice = user("100000000000000001", "alice");
        let bob = user("100000000000000002", "bob");
        let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;

        // A menu choice, delivered again once it was answered: the bot knows it took it, and
        // drops it before answering (Discord would refuse a second answer): e4 is shown once.
        let n = fake.requests().len();
        let id = fake.select(&alice, &thread, 9000, "dm:choose:1:0", "=e4");
        let first = fake.reply_to(n, &id).await;
        assert!(content(&first).contains("White plays e4"), "{first:?}");
        fake.redeliver(&id);
        tokio::time::sleep(std::time::Duration::from_millis(600)).await;
        let answers = fake.answers(n, &id, 1).await;
        let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
        assert_eq!(statuses, [204], "{answers:?}");

        // A /move delivered twice at once: one delivery is taken, and its board shown.
        let n = fake.requests().len();
        let id = fake.move_command(&bob, &thread, "e5");
        fake.redeliver(&id);
        let shown = fake.reply_to(n, &id).await;
        assert!(content(&shown).contains("Black plays e5"), "{shown:?}");
        tokio::time::sleep(std::time::Duration::from_millis(600)).await;
        let answers = fake.answers(n, &id, 1).await;
        let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
        assert_eq!(statuses, [204], "{answers:?}");

        // Each was applied once: two actions in the match's log, version 2 on the board.
        let stored = table.call(|t| t.store().load(1)).await.unwrap().unwrap();
        let played: Vec<&str> = stored.actions.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(played, ["e4", "e5"]);
        let n = fake.requests().len();
        let id = fake.command(&alice, &thread, "board", json!([]), json!({}));
        assert_eq!(custom_ids(&fake.reply_to(n, &id).await), ["dm:choose:1:2"]);

        // The log says so at debug; nothing is logged as an error.
        let dropped = logs
            .wait_for_lines(&["an interaction delivered again was dropped"], 2)
            .await;
        assert!(dropped.iter().all(|l| l.contains("DEBUG")), "{dropped:?}");
        let errors = logs.with(&["ERROR"]);
        assert!(errors.is_empty(), "{errors:?}");
        assert_no_secret(&logs);
        // No second answer was even tried (Discord would refuse it with 40060).
        assert_settled(&fake, &table).await;
    });
}
