//! The outbox end to end: what the table commits is posted once Discord accepts it, across an
//! outage and a restart, and a channel that refuses for good blocks no other.

use super::fake_discord::bot::{
    assert_outbox_empty, assert_settled, assert_settled_but, content, start_bot_on, timed_match,
    two_player_match,
};
use super::fake_discord::{FakeDiscord, GUILD_ID, Recorded, user};
use deckmate::games::GameKind;
use deckmate::store::outbox::PostState;
use deckmate::store::{Place, Store};
use deckmate::table::clock::{DAY, SimClock};
use deckmate::table::{Table, TableHandle};
use serde_json::json;
use std::sync::atomic::Ordering;
use std::time::Duration;

const START: i64 = 1_800_000_000;

/// Posts to `channel` whose text holds `words`, accepted or not.
fn posts(fake: &FakeDiscord, channel: &str, words: &str) -> Vec<Recorded> {
    let path = format!("/channels/{channel}/messages");
    fake.requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.ends_with(&path) && content(r).contains(words))
        .collect()
}

/// Waits until `check` holds of the fake's requests (20 s at most: a loaded machine is slow).
async fn until(fake: &FakeDiscord, what: &str, check: impl Fn(&FakeDiscord) -> bool) {
    for _ in 0..400 {
        if check(fake) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never happened: {what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_run_out_during_an_outage_is_posted_once_when_discord_is_back() {
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(START);
    let table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let (table, _) = start_bot_on(&fake, table).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, Some("1d")).await;

    // Discord is down while alice's day runs out: the post is tried, refused, and kept.
    fake.posts_unavailable.store(true, Ordering::Relaxed);
    clock.advance(DAY + 1);
    table.call(|_| ()).await.unwrap();
    until_answered(&fake, "a refused try", &thread, "ran out of time", 503).await;
    let pending = table
        .call(|t| t.store().unsent_posts().unwrap())
        .await
        .unwrap();
    assert_eq!(pending.len(), 1, "{pending:#?}");
    assert_eq!(pending[0].state, PostState::Pending);
    assert!(pending[0].attempts >= 1, "{pending:#?}");

    // Discord is back: after the backoff the result is posted, once.
    fake.posts_unavailable.store(false, Ordering::Relaxed);
    clock.advance(3600);
    table.call(|_| ()).await.unwrap();
    until_answered(&fake, "the result posted", &thread, "ran out of time", 200).await;
    assert_outbox_empty(&table).await;
    clock.advance(3600);
    table.call(|_| ()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let accepted: Vec<_> = posts(&fake, &thread, "ran out of time")
        .into_iter()
        .filter(|r| r.status == 200)
        .collect();
    assert_eq!(accepted.len(), 1, "posted exactly once: {accepted:#?}");
    assert!(
        content(&accepted[0]).contains("alice ran out of time"),
        "{}",
        content(&accepted[0])
    );
    assert_settled(&fake, &table).await;
}

/// A process that died between Discord accepting a post and recording it sent (SIGKILLed, or
/// its PostgreSQL lease ran out while Discord was slow): the post is sent again, with the same
/// nonce, which Discord enforces; the channel shows it once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_sent_again_after_its_sender_died_is_shown_once() {
    let fake = FakeDiscord::start().await;
    let (_clock, table, [_alice, bob], thread) = timed_chess(&fake).await;
    let words = "is waiting for your move";
    let n = fake.requests().len();
    let id = fake.command(&bob, &thread, "nudge", json!([]), json!({}));
    fake.reply_to(n, &id).await;
    until_answered(&fake, "the nudge posted", &thread, words, 200).await;
    assert_outbox_empty(&table).await;

    // As if its sender had died before recording it: the post is due again.
    table
        .call(|t| {
            let owed_again = "UPDATE outbox SET state = 'pending', next_attempt = 0, done_at = NULL
                 WHERE kind = 'nudge'";
            assert_eq!(t.store().connection().execute(owed_again, []).unwrap(), 1);
        })
        .await
        .unwrap();
    table.tell_all();
    until(&fake, "the post sent again", |f| {
        accepted(posts(f, &thread, words)).len() == 2
    })
    .await;
    assert_outbox_empty(&table).await;
    let sent = accepted(posts(&fake, &thread, words));
    let nonces: Vec<_> = sent.iter().map(|r| r.json["nonce"].clone()).collect();
    assert!(nonces[0].is_string(), "{nonces:?}");
    assert_eq!(nonces[0], nonces[1], "the same nonce both times");
    assert!(
        sent.iter().all(|r| r.json["enforce_nonce"] == true),
        "{sent:#?}"
    );
    // The channel shows the message once.
    let history = fake.history(&thread);
    let shown = history
        .iter()
        .filter(|m| m["content"].as_str().unwrap_or("").contains(words))
        .count();
    assert_eq!(shown, 1, "{history:#?}");
    assert_settled(&fake, &table).await;
}

/// A table on `clock` with a chess match in each of `threads` (alice and bob), each with a
/// move played whose board is owed to its thread and not shown by any interaction.
fn matches_owing_boards(clock: &SimClock, threads: &[&str]) -> Table {
    let mut table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let alice = table
        .store()
        .discord_player("100000000000000001", "alice")
        .unwrap();
    let bob = table
        .store()
        .discord_player("100000000000000002", "bob")
        .unwrap();
    for (seed, thread) in threads.iter().enumerate() {
        let place = Place {
            guild_id: Some(GUILD_ID.to_string()),
            channel_id: Some("700000000000000001".to_string()),
            thread_id: Some(thread.to_string()),
        };
        let players = [alice.clone(), bob.clone()];
        let created = table
            .create(GameKind::Chess, &[], &players, seed as u64, &place)
            .unwrap();
        table.act(created.match_id, alice.id, None, "e4").unwrap();
    }
    // Nobody showed those boards: their lease runs out.
    clock.advance(deckmate::table::outbox::LEASE + 1);
    table
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posts_pending_when_the_bot_stopped_are_sent_when_it_starts() {
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(START);
    let thread = "710000000000000001";
    let table = matches_owing_boards(&clock, &[thread]);
    let (table, _) = start_bot_on(&fake, table).await;
    until(&fake, "the owed board posted", |f| {
        posts(f, thread, "White plays e4")
            .iter()
            .any(|r| r.status == 200 && !r.files.is_empty())
    })
    .await;
    assert_outbox_empty(&table).await;
    assert_eq!(posts(&fake, thread, "White plays e4").len(), 1);
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_refusing_for_good_blocks_no_other() {
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(START);
    let (closed, open) = ("710000000000000001", "710000000000000002");
    fake.forbidden_channels
        .lock()
        .unwrap()
        .insert(closed.to_string());
    let table = matches_owing_boards(&clock, &[closed, open]);
    let (table, _): (TableHandle, _) = start_bot_on(&fake, table).await;
    until_answered(
        &fake,
        "the open thread's board posted",
        open,
        "White plays e4",
        200,
    )
    .await;
    let mut left = Vec::new();
    for _ in 0..100 {
        left = table
            .call(|t| t.store().unsent_posts().unwrap())
            .await
            .unwrap();
        if left.iter().all(|p| p.state == PostState::Failed) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The refused post is recorded as failed for good, with Discord's reason, and tried once.
    assert_eq!(left.len(), 1, "{left:#?}");
    assert_eq!(left[0].state, PostState::Failed);
    assert!(
        left[0]
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("Missing Access")),
        "{left:#?}"
    );
    clock.advance(DAY);
    table.call(|_| ()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        posts(&fake, closed, "White plays e4").len(),
        1,
        "never retried"
    );
    // The closed thread refused for good, on purpose.
    assert_settled_but(&fake, &table, |r| {
        r.status == 403 && r.path.contains(closed)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_move_whose_board_reply_failed_is_announced_without_waiting_out_the_lease() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    // The reply to a typed move meets a passing outage: it is refused 503.
    fake.posts_unavailable.store(true, Ordering::Relaxed);
    fake.say(&alice, &thread, "e4", &[]);
    until_answered(&fake, "the reply refused", &thread, "White plays e4", 503).await;
    fake.posts_unavailable.store(false, Ordering::Relaxed);
    // The outbox posts the board once Discord is back: after its own backoff (5 s), not once
    // the interaction's lease (30 s) is over.
    until_answered(
        &fake,
        "the board posted by the outbox",
        &thread,
        "White plays e4",
        200,
    )
    .await;
    let accepted = posts(&fake, &thread, "White plays e4")
        .into_iter()
        .filter(|r| r.status == 200)
        .count();
    assert_eq!(accepted, 1, "announced once");
    assert_settled(&fake, &table).await;
}

/// A process stopped between Discord accepting its answer and recording that the board was
/// shown (SIGKILLed in the load test): the board is still owed. The outbox finds it in the
/// thread's history, by its picture's name, and does not post it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_an_answer_showed_but_never_recorded_is_not_posted_again() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    let n = fake.request_count();
    let id = fake.move_command(&alice, &thread, "e4");
    let answer = fake.reply_to(n, &id).await;
    assert!(content(&answer).contains("White plays e4"), "{answer:?}");
    assert_outbox_empty(&table).await;
    // As if the answer's record were lost: the board is owed, its lease over.
    let n = fake.request_count();
    table
        .call(|t| {
            let version = t.store().load_head(1).unwrap().version;
            let owed_again = format!(
                "UPDATE outbox SET state = 'pending', next_attempt = 0, done_at = NULL
                 WHERE kind = 'board' AND match_id = 1 AND version = {version}"
            );
            t.store().connection().execute_batch(&owed_again).unwrap()
        })
        .await
        .unwrap();
    table.tell_all();
    assert_outbox_empty(&table).await;
    let history = format!("/channels/{thread}/messages");
    let read = fake.count_from(n, |r| r.method == "GET" && r.path.ends_with(&history));
    assert!(read > 0, "the thread's history was read");
    let again = fake.count_from(n, |r| {
        r.method == "POST" && content(r).contains("White plays e4")
    });
    assert_eq!(again, 0, "the board was not posted again");
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_message_waits_for_its_board_and_follows_it_once_the_outbox_posts_it() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    let n = fake.requests().len();
    let id = fake.command(
        &bob,
        &thread,
        "settings",
        serde_json::json!([{"name": "me", "type": 1, "options": [{"name": "dm", "type": 5, "value": true}]}]),
        serde_json::json!({}),
    );
    fake.reply_to(n, &id).await;
    // The board answering alice's typed move is refused: bob may not be told it is his turn
    // before the board he is to answer is in the thread.
    fake.posts_unavailable.store(true, Ordering::Relaxed);
    fake.say(&alice, &thread, "e4", &[]);
    until_answered(&fake, "the reply refused", &thread, "White plays e4", 503).await;
    let turn = |r: &Recorded| {
        r.method == "POST" && !r.path.contains(&thread) && content(r).starts_with("Your turn")
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !fake.requests().iter().any(turn),
        "no turn message before the board"
    );
    fake.posts_unavailable.store(false, Ordering::Relaxed);
    until(&fake, "bob's turn message", |f| {
        f.requests().iter().any(|r| turn(r) && r.status == 200)
    })
    .await;
    let requests = fake.requests();
    let board = requests
        .iter()
        .position(|r| {
            r.path.ends_with(&format!("/channels/{thread}/messages"))
                && content(r).contains("White plays e4")
                && r.status == 200
        })
        .expect("the board was posted");
    let told: Vec<usize> = (0..requests.len())
        .filter(|&i| turn(&requests[i]) && requests[i].status == 200)
        .collect();
    assert_eq!(told.len(), 1, "told once");
    assert!(told[0] > board, "the turn message follows the board");
    assert!(content(&requests[told[0]]).contains("White plays e4"));
    assert_settled(&fake, &table).await;
}

/// A bot on a simulated clock, and a one-day chess match between alice and bob in its thread.
async fn timed_chess(
    fake: &FakeDiscord,
) -> (SimClock, TableHandle, [serde_json::Value; 2], String) {
    let clock = SimClock::at(START);
    let table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let (table, _) = start_bot_on(fake, table).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = timed_match(fake, &alice, &bob, (0, "Chess"), "", 1, Some("1d")).await;
    (clock, table, [alice, bob], thread)
}

/// Waits until a post to `channel` holding `words` was answered `status` (`what` names it).
async fn until_answered(fake: &FakeDiscord, what: &str, channel: &str, words: &str, status: u16) {
    until(fake, what, |f| {
        posts(f, channel, words).iter().any(|r| r.status == status)
    })
    .await;
}

/// The accepted posts among `posts`.
fn accepted(posts: Vec<Recorded>) -> Vec<Recorded> {
    posts.into_iter().filter(|r| r.status == 200).collect()
}

/// Where request `r` stands among the fake's requests.
fn position(fake: &FakeDiscord, r: &Recorded) -> usize {
    fake.requests()
        .iter()
        .position(|x| x.path == r.path && x.json == r.json && x.status == r.status)
        .expect("a request the fake recorded")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_and_a_nudge_told_during_an_outage_are_posted_once_when_it_ends() {
    let fake = FakeDiscord::start().await;
    let (clock, table, [alice, bob], thread) = timed_chess(&fake).await;
    let outage = format!("POST {thread}");
    fake.hostile
        .channel_outages
        .lock()
        .unwrap()
        .insert(outage, 1);
    let vacation =
        json!([{"name": "start", "type": 1, "options": [{"name": "days", "type": 4, "value": 2}]}]);
    let n = fake.requests().len();
    let id = fake.command(&alice, &thread, "vacation", vacation, json!({}));
    assert!(crate::fake_discord::bot::ephemeral(
        &fake.reply_to(n, &id).await
    ));
    // alice is to move: bob nudges her. The answer is bob's alone; the nudge is owed to the
    // thread, behind the vacation's line.
    let n = fake.requests().len();
    let id = fake.command(&bob, &thread, "nudge", json!([]), json!({}));
    let answer = fake.reply_to(n, &id).await;
    assert!(crate::fake_discord::bot::ephemeral(&answer), "{answer:?}");
    assert_eq!(content(&answer), "Nudged: alice is pinged here.");
    until_answered(
        &fake,
        "the vacation's line refused",
        &thread,
        "on vacation",
        503,
    )
    .await;
    assert!(posts(&fake, &thread, "waiting for your move").is_empty());

    // After the outbox's backoff both are posted, in order, once each.
    clock.advance(60);
    table.call(|_| ()).await.unwrap();
    until(&fake, "the nudge posted", |f| {
        !accepted(posts(f, &thread, "waiting for your move")).is_empty()
    })
    .await;
    assert_outbox_empty(&table).await;
    clock.advance(3600);
    table.call(|_| ()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let away = accepted(posts(&fake, &thread, "on vacation"));
    let nudged = accepted(posts(&fake, &thread, "waiting for your move"));
    assert_eq!((away.len(), nudged.len()), (1, 1), "{away:#?} {nudged:#?}");
    assert!(
        position(&fake, &away[0]) < position(&fake, &nudged[0]),
        "the vacation's line first"
    );
    assert_eq!(
        content(&nudged[0]),
        "<@100000000000000001>: <@100000000000000002> is waiting for your move in match #1."
    );
    assert_eq!(
        nudged[0].json["allowed_mentions"]["users"],
        json!(["100000000000000001"]),
        "alice alone is pinged"
    );
    // A second nudge within 12 hours is refused, and owes nothing.
    let n = fake.requests().len();
    let id = fake.command(&bob, &thread, "nudge", json!([]), json!({}));
    let again = content(&fake.reply_to(n, &id).await);
    assert!(again.contains("nudge again in"), "{again}");
    assert_outbox_empty(&table).await;
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_league_round_started_and_closed_during_an_outage_is_told_once_per_board() {
    use crate::fake_discord::bot::{CHANNEL, league, named};
    const MANAGE_SERVER: &str = "32";
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(START);
    let table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let (table, _) = start_bot_on(&fake, table).await;
    let dave = user("100000000000000009", "dave");
    let n = fake.requests().len();
    let create = named(json!([{"name": "game", "type": 4, "value": 0}]));
    let id = league(&fake, &dave, "create", create, MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    for i in 1..=4 {
        let p = user(&format!("10000000000000000{i}"), &format!("p{i}"));
        let n = fake.requests().len();
        let id = league(&fake, &p, "join", named(json!([])), "0");
        fake.reply_to(n, &id).await;
    }
    // The league's channel refuses its next three posts (news, pairings and threads alike).
    let outage = format!("POST {CHANNEL}");
    fake.hostile
        .channel_outages
        .lock()
        .unwrap()
        .insert(outage, 3);
    let n = fake.requests().len();
    let id = league(&fake, &dave, "start", named(json!([])), MANAGE_SERVER);
    let said = content(&fake.reply_to(n, &id).await);
    assert!(
        said.starts_with("Round 1 is paired; it closes <t:")
            && said.ends_with(&format!("Its pairings are posted in <#{CHANNEL}>.")),
        "{said}"
    );
    until(&fake, "three refusals", |f| {
        f.requests()
            .iter()
            .skip(n)
            .filter(|r| r.status == 503 && r.path.contains(CHANNEL))
            .count()
            >= 3
    })
    .await;
    for _ in 0..3 {
        clock.advance(600);
        table.call(|_| ()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let boards = crate::fake_discord::bot::boards_since(&fake, n, 2).await;
    assert_eq!(boards.len(), 2);
    assert_outbox_empty(&table).await;
    let news = accepted(posts(&fake, CHANNEL, "Round 1 is paired"));
    assert_eq!(news.len(), 1, "{news:#?}");
    for board in 1..=2 {
        let lines = accepted(posts(&fake, CHANNEL, &format!("Round 1, board {board}:")));
        assert_eq!(lines.len(), 1, "board {board}: {lines:#?}");
        assert!(
            position(&fake, &news[0]) < position(&fake, &lines[0]),
            "the round's news first"
        );
        assert_eq!(
            lines[0].json["allowed_mentions"]["users"]
                .as_array()
                .map(Vec::len),
            Some(2),
            "its two players pinged"
        );
    }
    // The close is told in the channel once, after its own refusal.
    fake.hostile
        .channel_outages
        .lock()
        .unwrap()
        .insert(format!("POST {CHANNEL}"), 1);
    let n = fake.requests().len();
    let id = league(&fake, &dave, "close", named(json!([])), MANAGE_SERVER);
    let said = content(&fake.reply_to(n, &id).await);
    assert_eq!(
        said,
        format!("Round 1 is closed. Its results are posted in <#{CHANNEL}>.")
    );
    until_answered(
        &fake,
        "the close refused",
        CHANNEL,
        "Round 1 is closed.",
        503,
    )
    .await;
    clock.advance(600);
    table.call(|_| ()).await.unwrap();
    until(&fake, "the close posted", |f| {
        !accepted(posts(f, CHANNEL, "Round 1 is closed.")).is_empty()
    })
    .await;
    let closed = accepted(posts(&fake, CHANNEL, "Round 1 is closed."));
    assert_eq!(closed.len(), 1, "{closed:#?}");
    assert!(
        content(&closed[0]).contains("never began match #1"),
        "{closed:#?}"
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_message_whose_edit_is_refused_once_still_says_where_the_match_is() {
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(START);
    let table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let (table, _) = start_bot_on(&fake, table).await;
    let outage = format!("PATCH {}", crate::fake_discord::bot::CHANNEL);
    fake.hostile
        .channel_outages
        .lock()
        .unwrap()
        .insert(outage, 1);
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = timed_match(&fake, &alice, &bob, (0, "Chess"), "", 1, Some("1d")).await;
    let edits = |f: &FakeDiscord| -> Vec<Recorded> {
        f.requests()
            .into_iter()
            .filter(|r| r.method == "PATCH" && content(r).contains("is on in"))
            .collect()
    };
    until(&fake, "the edit refused", |f| {
        edits(f).iter().any(|r| r.status == 503)
    })
    .await;
    clock.advance(60);
    table.call(|_| ()).await.unwrap();
    until(&fake, "the edit made", |f| {
        edits(f).iter().any(|r| r.status == 200)
    })
    .await;
    let made = accepted(edits(&fake));
    assert_eq!(made.len(), 1);
    assert_eq!(
        content(&made[0]),
        format!("Challenge accepted: match #1 is on in <#{thread}>.")
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nudge_held_up_by_an_outage_pings_nobody_who_has_moved_since() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    // bob nudges alice while the thread refuses posts: the nudge waits in the outbox.
    fake.posts_unavailable.store(true, Ordering::Relaxed);
    let n = fake.requests().len();
    let id = fake.command(&bob, &thread, "nudge", json!([]), json!({}));
    fake.reply_to(n, &id).await;
    until_answered(
        &fake,
        "the nudge refused",
        &thread,
        "waiting for your move",
        503,
    )
    .await;
    // alice moves before Discord is back: she is no longer the one bob waits for.
    fake.say(&alice, &thread, "e4", &[]);
    until_answered(&fake, "the board refused", &thread, "White plays e4", 503).await;
    fake.posts_unavailable.store(false, Ordering::Relaxed);
    until(&fake, "the board posted", |f| {
        !accepted(posts(f, &thread, "White plays e4")).is_empty()
    })
    .await;
    for nudge in accepted(posts(&fake, &thread, "waiting for your move")) {
        let pinged = &nudge.json["allowed_mentions"]["users"];
        assert!(
            !pinged.to_string().contains("100000000000000001"),
            "alice moved already; the nudge pinged her all the same: {:?}",
            content(&nudge)
        );
    }
    assert_settled(&fake, &table).await;
}
