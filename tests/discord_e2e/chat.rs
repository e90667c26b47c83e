//! End to end, moves typed as messages in a match thread: played once each and answered by the
//! board, chat left alone, a refusal told by direct message only, and the mention-only mode.

use crate::fake_discord::bot::{content, start_bot_on, start_bot_reading, two_player_match};
use crate::fake_discord::{FakeDiscord, Recorded, user};
use deckmate::discord::ChatMode;
use deckmate::store::Store;
use deckmate::table::Table;
use std::time::Duration;

/// The bot's reply in `thread` to message `id`, posted after the first `after` requests.
async fn reply_in(fake: &FakeDiscord, after: usize, thread: &str, id: &str) -> Recorded {
    let path = format!("/channels/{thread}/messages");
    fake.wait_for(after, "a reply in the thread", |r| {
        r.method == "POST"
            && r.path.ends_with(&path)
            && r.json["message_reference"]["message_id"].as_str() == Some(id)
    })
    .await
}

/// Lets the bot handle what it was sent, then returns what it asked of Discord meanwhile.
async fn after_a_moment(fake: &FakeDiscord, after: usize) -> Vec<Recorded> {
    tokio::time::sleep(Duration::from_millis(400)).await;
    fake.requests().into_iter().skip(after).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess_match_is_played_by_messages_with_chat_left_alone() {
    let fake = FakeDiscord::start().await;
    start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;

    // Chat, and a move by the player who must not act: left alone.
    let n = fake.requests().len();
    fake.say(&alice, &thread, "good luck, have fun", &[]);
    fake.say(&bob, &thread, "e5", &[]);
    fake.say(&alice, &thread, "I think Nf3 is best here", &[]);
    let quiet = after_a_moment(&fake, n).await;
    assert!(quiet.is_empty(), "chat is not answered: {quiet:?}");

    // Scholar's mate, typed.
    let mut last = None;
    for (who, text) in [
        (&alice, "e4"),
        (&bob, "e5"),
        (&alice, "Bc4"),
        (&bob, "Nc6"),
        (&alice, "Qh5"),
        (&bob, "Nf6"),
    ] {
        let n = fake.requests().len();
        let id = fake.say(who, &thread, text, &[]);
        let reply = reply_in(&fake, n, &thread, &id).await;
        assert!(!reply.files.is_empty(), "the board comes with it");
        last = Some((id, n));
    }
    // Discord delivers bob's last message again: it is not played or answered twice.
    let (nf6, _) = last.unwrap();
    let n = fake.requests().len();
    fake.redeliver(&nf6);
    assert!(after_a_moment(&fake, n).await.is_empty(), "applied once");

    // A move that reads but is illegal: a reaction, and the reason by direct message only.
    let n = fake.requests().len();
    let id = fake.say(&alice, &thread, "Qxf8", &[]);
    let seen = after_a_moment(&fake, n).await;
    assert!(
        seen.iter()
            .any(|r| r.method == "PUT" && r.path.contains(&format!("/messages/{id}/reactions/"))),
        "{seen:?}"
    );
    let told: Vec<&Recorded> = seen.iter().filter(|r| r.method == "POST").collect();
    assert!(
        told.iter().all(|r| !r.path.contains(&thread)),
        "nothing in the thread: {told:?}"
    );
    assert!(
        told.iter()
            .any(|r| content(r).starts_with("Match #1: ") && content(r).contains("f8")),
        "{told:?}"
    );

    let n = fake.requests().len();
    let id = fake.say(&alice, &thread, "Qxf7#", &[]);
    let mate = reply_in(&fake, n, &thread, &id).await;
    assert!(
        content(&mate).contains("Game over: White won by checkmate"),
        "{}",
        content(&mate)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_message_content_only_messages_that_mention_the_bot_are_read() {
    let fake = FakeDiscord::start().await;
    start_bot_reading(
        &fake,
        Table::new(Store::open_in_memory().unwrap()),
        ChatMode::Mentions,
    )
    .await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    let n = fake.requests().len();
    fake.say(&alice, &thread, "e4", &[]);
    assert!(
        after_a_moment(&fake, n).await.is_empty(),
        "not addressed to the bot"
    );
    let n = fake.requests().len();
    let me = FakeDiscord::bot_user();
    let text = format!("<@{}> e4", me["id"].as_str().unwrap());
    let id = fake.say(&alice, &thread, &text, &[&me]);
    let reply = reply_in(&fake, n, &thread, &id).await;
    assert!(content(&reply).contains("White plays e4"), "{reply:?}");
}
