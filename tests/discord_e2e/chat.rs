//! End to end, play by chat: moves typed as messages in a match thread (played once each and
//! answered by the board, chat left alone, a refusal told by direct message only, and the
//! mention-only mode), moves sent by direct message, and `/games` from a direct message.

use super::fake_discord::bot::assert_settled;
use crate::fake_discord::bot::{content, start_bot_on, start_bot_reading, two_player_match};
use crate::fake_discord::{FakeDiscord, Recorded, user};
use deckmate::discord::ChatMode;
use deckmate::games::AnyView;
use deckmate::games::chess::pgn;
use deckmate::store::Store;
use deckmate::table::Table;
use serde_json::Value;
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

/// A match of chess between alice and bob, its challenge answered; returns its thread.
async fn chess_match(fake: &FakeDiscord, alice: &Value, bob: &Value, challenge: u64) -> String {
    let (thread, _) = two_player_match(fake, alice, bob, (0, "Chess"), "", challenge).await;
    fake.wait_for(0, "the accepted challenge", |r| {
        content(r).starts_with(&format!("Challenge accepted: match #{challenge}"))
    })
    .await;
    thread
}

/// Lets the bot handle what it was sent, then returns what it asked of Discord meanwhile.
async fn after_a_moment(fake: &FakeDiscord, after: usize) -> Vec<Recorded> {
    tokio::time::sleep(Duration::from_millis(400)).await;
    fake.requests().into_iter().skip(after).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess_match_is_played_by_messages_with_chat_left_alone() {
    let fake = FakeDiscord::start().await;
    let (outbox_table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let thread = chess_match(&fake, &alice, &bob, 1).await;

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
    assert_settled(&fake, &outbox_table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_message_content_only_messages_that_mention_the_bot_are_read() {
    let fake = FakeDiscord::start().await;
    let (outbox_table, _) = start_bot_reading(
        &fake,
        Table::new(Store::open_in_memory().unwrap()),
        ChatMode::Mentions,
    )
    .await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let thread = chess_match(&fake, &alice, &bob, 1).await;
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
    assert_settled(&fake, &outbox_table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_plays_from_direct_messages_and_chooses_between_two_matches() {
    let fake = FakeDiscord::start().await;
    let (outbox_table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let first = chess_match(&fake, &alice, &bob, 1).await;
    const DM: &str = "600000000000000001";
    let in_dm =
        |r: &Recorded| r.method == "POST" && r.path == format!("/api/v10/channels/{DM}/messages");

    // One match where it is alice's turn: played there, the board in its thread.
    let n = fake.requests().len();
    fake.say_in_dm(&alice, DM, "e4");
    let told = fake.wait_for(n, "the answer in the DM", |r| in_dm(r)).await;
    assert_eq!(
        content(&told),
        format!("Match #1: White plays e4 The board is in <#{first}>.")
    );
    assert!(
        fake.requests()
            .iter()
            .skip(n)
            .any(
                |r| r.path.ends_with(&format!("/channels/{first}/messages")) && !r.files.is_empty()
            ),
        "the board in the thread"
    );

    // Not alice's turn anywhere now.
    let n = fake.requests().len();
    fake.say_in_dm(&alice, DM, "d4");
    let told = fake.wait_for(n, "not your turn", |r| in_dm(r)).await;
    assert!(content(&told).contains("not your turn in any"), "{told:?}");

    // A second match, where alice opens e4 too: now bob is to move in both, and e5 fits both.
    let second = chess_match(&fake, &alice, &bob, 2).await;
    let n = fake.requests().len();
    let id = fake.say(&alice, &second, "e4", &[]);
    reply_in(&fake, n, &second, &id).await;
    // A move allowed in neither is refused, naming both.
    let n = fake.requests().len();
    fake.say_in_dm(&bob, DM, "Nf3");
    let told = fake.wait_for(n, "no such move", |r| in_dm(r)).await;
    assert!(
        content(&told).starts_with("\"Nf3\" is not allowed in any of your matches"),
        "{told:?}"
    );
    let n = fake.requests().len();
    fake.say_in_dm(&bob, DM, "e5");
    let asked = fake.wait_for(n, "which match", |r| in_dm(r)).await;
    assert!(
        content(&asked).contains("can be played in 2 matches"),
        "{asked:?}"
    );
    let ids = crate::fake_discord::bot::custom_ids(&asked);
    assert_eq!(ids.len(), 2, "{ids:?}");
    let n = fake.requests().len();
    let choice = ids.iter().find(|i| i.starts_with("dm:act:2:")).unwrap();
    let pressed = fake.press_in_dm(&bob, DM, 9000, choice);
    let answer = fake.reply_to(n, &pressed).await;
    assert!(
        content(&answer).starts_with("Match #2: Black plays e5"),
        "{answer:?}"
    );
    assert!(
        fake.requests().iter().skip(n).any(|r| r
            .path
            .ends_with(&format!("/channels/{second}/messages"))
            && !r.files.is_empty()),
        "the board in match 2's thread"
    );
    // Naming the match plays there at once.
    let n = fake.requests().len();
    fake.say_in_dm(&bob, DM, "#1 e5");
    let told = fake.wait_for(n, "the named match", |r| in_dm(r)).await;
    assert!(
        content(&told).starts_with("Match #1: Black plays e5"),
        "{told:?}"
    );
    assert_settled(&fake, &outbox_table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_from_a_direct_message_lists_matches_of_every_server() {
    let fake = FakeDiscord::start().await;
    let table = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap()))
        .await
        .0;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let here = chess_match(&fake, &alice, &bob, 1).await;
    // A match in another server where bob is to move.
    table
        .call(|t| {
            let a = t
                .store()
                .discord_player("100000000000000001", "alice")
                .unwrap();
            let b = t
                .store()
                .discord_player("100000000000000002", "bob")
                .unwrap();
            let place = deckmate::store::Place {
                guild_id: Some("42".into()),
                channel_id: Some("4201".into()),
                thread_id: Some("4202".into()),
            };
            t.create(deckmate::games::GameKind::Echek, &[], &[b, a], 3, &place)
                .map_err(|e| e.to_string())
        })
        .await
        .unwrap()
        .unwrap();
    let n = fake.requests().len();
    let id = fake.command_in_dm(&alice, "600000000000000002", "games", serde_json::json!([]));
    let listed = content(&fake.reply_to(n, &id).await);
    assert!(
        listed.contains(&format!(
            "#1 Chess in https://discord.com/channels/{}/{here}: alice vs bob — **your turn**",
            crate::fake_discord::GUILD_ID
        )) && listed.contains(
            "#2 Echek n°1 in https://discord.com/channels/42/4202: bob vs alice — waiting for bob"
        ),
        "{listed}"
    );
    let n = fake.requests().len();
    let id = fake.command_in_dm(
        &alice,
        "600000000000000002",
        "games",
        serde_json::json!([{"name": "my_turn", "type": 5, "value": true}]),
    );
    let mine = content(&fake.reply_to(n, &id).await);
    assert!(mine.contains("#1 Chess") && !mine.contains("#2"), "{mine}");
    let n = fake.requests().len();
    let id = fake.command_in_dm(
        &alice,
        "600000000000000002",
        "games",
        serde_json::json!([{"name": "finished", "type": 5, "value": true}]),
    );
    assert_eq!(
        content(&fake.reply_to(n, &id).await),
        "You have no finished matches yet."
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_typed_card_play_reveals_nothing_in_the_thread() {
    let fake = FakeDiscord::start().await;
    let (outbox_table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (5, "Chess-à-Tête"), "", 1).await;
    fake.wait_for(0, "the accepted challenge", |r| {
        content(r).starts_with("Challenge accepted: match #1")
    })
    .await;
    let n = fake.requests().len();
    let id = fake.say(&alice, &thread, "play Bishop", &[]);
    let told = fake
        .wait_for(n, "the reason by direct message", |r| {
            r.method == "POST" && content(r).starts_with("Match #1: ")
        })
        .await;
    assert!(!told.path.contains(&thread), "{told:?}");
    let seen = after_a_moment(&fake, n).await;
    assert!(
        seen.iter()
            .any(|r| r.method == "PUT" && r.path.contains(&format!("/messages/{id}/reactions/"))),
        "{seen:?}"
    );
    // Every request about the thread after the typed action: the reaction only.
    let in_thread: Vec<&Recorded> = seen
        .iter()
        .filter(|r| r.path.contains(&thread) && r.method != "PUT")
        .collect();
    assert!(in_thread.is_empty(), "{in_thread:?}");
    assert!(
        seen.iter()
            .filter(|r| r.path.contains(&thread))
            .all(|r| !content(r).contains("Bishop")),
        "the text is not repeated in the thread"
    );
    assert_settled(&fake, &outbox_table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_and_export_of_a_finished_match_read_back_to_its_final_position() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let thread = chess_match(&fake, &alice, &bob, 1).await;
    for (who, text) in [(&alice, "f3"), (&bob, "e5"), (&alice, "g4"), (&bob, "Qh4#")] {
        let n = fake.requests().len();
        let id = fake.say(who, &thread, text, &[]);
        reply_in(&fake, n, &thread, &id).await;
    }
    let n = fake.requests().len();
    let id = fake.command(
        &bob,
        &thread,
        "history",
        serde_json::json!([]),
        serde_json::json!({}),
    );
    let page = content(&fake.reply_to(n, &id).await);
    assert_eq!(
        page,
        "Match #1, page 1 of 1:\n1. alice: f3\n2. bob: e5\n3. alice: g4\n4. bob: Qh4#"
    );
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        &thread,
        "export",
        serde_json::json!([]),
        serde_json::json!({}),
    );
    let files = fake
        .wait_for(n, "the exported files", |r| {
            r.path.contains(&format!("token-{id}")) && r.files.len() == 2
        })
        .await;
    let text = |i: usize| String::from_utf8(files.files[i].1.clone()).unwrap();
    let (log, pgn) = (text(0), text(1));
    assert!(log.ends_with("alice: g4\nbob: Qh4#\n"), "{log}");
    assert!(pgn.ends_with("1. f3 e5 2. g4 Qh4# 0-1\n"), "{pgn}");
    // The project's own PGN and SAN reader reaches the position the match ended in.
    let read = pgn::read(&pgn).unwrap();
    assert_eq!(read.result, "0-1");
    let reached = pgn::replay(&read).unwrap().fen();
    let played = table
        .call(|t| match t.view_for(1, None) {
            Ok(AnyView::Chess(view)) => view.fen,
            other => panic!("a chess view: {other:?}"),
        })
        .await
        .unwrap();
    assert_eq!(reached, played);
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_offers_a_rematch_with_the_colours_swapped() {
    let fake = FakeDiscord::start().await;
    let (outbox_table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let carol = user("100000000000000003", "carol");
    let thread = chess_match(&fake, &alice, &bob, 1).await;
    let mut last = None;
    for (i, text) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        let n = fake.requests().len();
        let id = fake.say(who, &thread, text, &[]);
        last = Some(reply_in(&fake, n, &thread, &id).await);
    }
    let over = last.unwrap();
    assert!(content(&over).contains("Game over"), "{over:?}");
    assert_eq!(crate::fake_discord::bot::custom_ids(&over), ["dm:again:1"]);
    // Someone who did not play cannot ask for it.
    let n = fake.requests().len();
    let id = fake.press(&carol, &thread, 9100, "dm:again:1");
    let refused = fake.reply_to(n, &id).await;
    assert!(
        content(&refused).contains("not playing in match #1"),
        "{refused:?}"
    );
    // bob asks; the challenge goes to the channel, bob now White and accepted already.
    let n = fake.requests().len();
    let id = fake.press(&bob, &thread, 9100, "dm:again:1");
    let offered = fake
        .wait_for(n, "the rematch challenge", |r| {
            r.method == "POST" && content(r).starts_with("Rematch of match #1")
        })
        .await;
    assert!(
        offered.path.ends_with(&format!(
            "/channels/{}/messages",
            crate::fake_discord::bot::CHANNEL
        )),
        "{offered:?}"
    );
    assert!(
        content(&offered)
            .contains("<@100000000000000002> challenges <@100000000000000001> to Chess")
            && content(&offered).contains("Waiting for <@100000000000000001>"),
        "{}",
        content(&offered)
    );
    let told = fake.reply_to(n, &id).await;
    assert!(
        content(&told).starts_with("Rematch offered in <#"),
        "{told:?}"
    );
    // alice accepts: match #2, bob to play first.
    let n = fake.requests().len();
    fake.press(
        &alice,
        crate::fake_discord::bot::CHANNEL,
        9200,
        "dm:chal:2:accept",
    );
    let first = fake
        .wait_for(n, "the rematch's first board", |r| {
            r.method == "POST" && !r.files.is_empty()
        })
        .await;
    assert!(
        content(&first).contains("Match #2: Chess for bob, alice")
            && content(&first).contains("<@100000000000000002> to play"),
        "{}",
        content(&first)
    );
    assert_settled(&fake, &outbox_table).await;
}
