//! End to end, match threads made through the outbox: a thread refused once with a 5xx opens
//! on the retry (one thread, one first board, the clocks starting then); a challenge whose
//! thread the bot may not make is called off and its players told why (in a post of its own
//! when the challenge's message was deleted); a league board whose
//! thread is refused for good is held for `/board` while the other boards open and play; and
//! four names of 32 characters still give a thread name Discord takes.

use super::fake_discord::bot::{
    CHANNEL, assert_outbox_empty, content, league, named, start_bot, start_bot_on,
};
use super::fake_discord::hostile::bits;
use super::fake_discord::{FakeDiscord, Recorded, user};
use deckmate::engine::Seat;
use deckmate::store::outbox::Destination;
use deckmate::store::{HoldReason, Status, Store};
use deckmate::table::clock::{DAY, SimClock};
use deckmate::table::outbox::Owed;
use deckmate::table::{Table, TableHandle};
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::Duration;

const START: i64 = 1_800_000_000;
const MANAGE_SERVER: &str = "32";

fn is_thread(r: &Recorded) -> bool {
    r.method == "POST" && r.path.ends_with("/threads")
}

fn is_board(r: &Recorded) -> bool {
    r.method == "POST" && r.path.ends_with("/messages") && !r.files.is_empty()
}

fn count(fake: &FakeDiscord, pred: impl Fn(&Recorded) -> bool) -> usize {
    fake.requests().iter().filter(|r| pred(r)).count()
}

/// `players[0]` challenges the others to the game at `game` in /play's list (with `time` on
/// the clock) and each of them accepts; returns the last acceptance's answer.
async fn challenge_accepted(
    fake: &FakeDiscord,
    players: &[Value],
    game: u64,
    time: Option<&str>,
) -> Recorded {
    let mut options = vec![json!({"name": "game", "type": 4, "value": game})];
    let mut users = serde_json::Map::new();
    for (i, o) in players[1..].iter().enumerate() {
        let name = ["opponent", "opponent2", "opponent3"][i];
        options.push(json!({"name": name, "type": 6, "value": o["id"]}));
        users.insert(o["id"].as_str().unwrap().to_string(), o.clone());
    }
    if let Some(time) = time {
        options.push(json!({"name": "time", "type": 3, "value": time}));
    }
    let n = fake.requests().len();
    let id = fake.command(
        &players[0],
        CHANNEL,
        "play",
        Value::Array(options),
        json!({ "users": users }),
    );
    let posted = fake.reply_to(n, &id).await;
    assert!(content(&posted).contains("challenges"), "{posted:?}");
    let mut answer = None;
    for p in &players[1..] {
        let n = fake.requests().len();
        let id = fake.press(p, CHANNEL, 5000, "dm:chal:1:accept");
        answer = Some(fake.reply_to(n, &id).await);
    }
    answer.unwrap()
}

/// Waits (30 s at most: a passing failure is tried again after the outbox's backoff) until
/// `check` holds.
async fn until(what: &str, check: impl Fn() -> bool) {
    for _ in 0..600 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never happened: {what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_refused_once_with_a_5xx_opens_on_the_retry_and_the_clocks_start_then() {
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(START);
    let table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let (table, _) = start_bot_on(&fake, table).await;
    let players = [
        user("100000000000000001", "alice"),
        user("100000000000000002", "bob"),
    ];
    fake.hostile.threads_unavailable.store(1, Ordering::Relaxed);
    let answer = challenge_accepted(&fake, &players, 0, Some("1d")).await;
    assert_eq!(
        content(&answer),
        "Challenge accepted: match #1 starts; its thread opens in a moment."
    );
    fake.wait_for(0, "a thread refused 503", |r| {
        is_thread(r) && r.status == 503
    })
    .await;
    // Held meanwhile: no clock runs while there is nowhere to play.
    let held = table.call(|t| t.is_held(1).unwrap()).await.unwrap();
    assert!(held, "held while its thread is missing");

    // After the outbox's backoff, the thread is made, at START + 60 by the table's clock.
    clock.advance(60);
    table.call(|_| ()).await.unwrap();
    let board = fake.wait_for(0, "the first board", is_board).await;
    let thread = board.path.split('/').nth(4).unwrap().to_string();
    assert!(
        content(&board).contains("Match #1: Chess for alice, bob")
            && content(&board).contains("<@100000000000000001> to play"),
        "{}",
        content(&board)
    );
    fake.wait_for(0, "the challenge saying where", |r| {
        r.method == "PATCH"
            && content(r) == format!("Challenge accepted: match #1 is on in <#{thread}>.")
    })
    .await;
    assert_outbox_empty(&table).await;
    let shown = table.call(|t| t.show(1).unwrap()).await.unwrap();
    assert_eq!(shown.clocks, vec![(Seat(0), START + 60 + DAY)]);
    assert_eq!(shown.place.thread_id.as_deref(), Some(thread.as_str()));
    // One thread, one first board, however the sender is woken after.
    clock.advance(DAY / 2);
    table.call(|_| ()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(count(&fake, |r| is_thread(r) && r.status < 300), 1);
    assert_eq!(count(&fake, |r| is_thread(r) && r.status == 503), 1);
    let boards: Vec<String> = fake
        .requests()
        .iter()
        .filter(|r| is_board(r))
        .map(|b| format!("{} {} {}", b.status, b.path, content(b)))
        .collect();
    assert_eq!(boards.len(), 1, "{boards:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_whose_thread_the_bot_may_not_make_is_called_off_and_its_players_told() {
    let fake = FakeDiscord::start().await;
    let table: TableHandle = start_bot(&fake).await;
    let players = [
        user("100000000000000001", "alice"),
        user("100000000000000002", "bob"),
    ];
    // The permission is taken away after the challenge was posted.
    let n = fake.requests().len();
    let id = fake.command(
        &players[0],
        CHANNEL,
        "play",
        json!([{"name": "game", "type": 4, "value": 0},
               {"name": "opponent", "type": 6, "value": players[1]["id"]},
               {"name": "time", "type": 3, "value": "1d"}]),
        json!({"users": {players[1]["id"].as_str().unwrap(): players[1]}}),
    );
    fake.reply_to(n, &id).await;
    fake.hostile
        .set_permissions(CHANNEL, bits::NEEDED & !bits::CREATE_PUBLIC_THREADS);
    let n = fake.requests().len();
    let id = fake.press(&players[1], CHANNEL, 5000, "dm:chal:1:accept");
    let answer = fake.reply_to(n, &id).await;
    assert!(
        content(&answer).contains("its thread opens in a moment"),
        "{answer:?}"
    );

    // Each player is told by direct message, naming the permission and the channel.
    let dm = |r: &Recorded| {
        r.method == "POST"
            && r.status < 300
            && content(r).starts_with("Your match #1 (Chess) was called off")
    };
    until("both players told", || count(&fake, dm) == 2).await;
    for told in fake.requests().iter().filter(|r| dm(r)) {
        let text = content(told);
        assert!(
            text.contains(&format!(
                "because the bot lacks Create Public Threads (or Read Message History) in <#{CHANNEL}>"
            )),
            "{text}"
        );
        assert!(!told.path.contains(CHANNEL), "a direct message: {told:?}");
    }
    // The challenge's message says so too, its buttons gone.
    let edited = fake
        .wait_for(n, "the challenge's message edited", |r| {
            r.method == "PATCH" && content(r).contains("was called off")
        })
        .await;
    assert!(
        content(&edited).contains("Create Public Threads"),
        "{edited:?}"
    );
    assert_eq!(edited.json["components"], json!([]), "{edited:?}");
    assert_outbox_empty(&table).await;
    assert_eq!(count(&fake, |r| is_thread(r) && r.status < 300), 0);

    // Called off: no result, no clock, unrated; its button says so.
    let (status, deadline, rated) = table
        .call(|t| {
            let s = t.store();
            (
                s.load_head(1).unwrap().status,
                s.next_deadline_of(1).unwrap(),
                s.rated(1).unwrap(),
            )
        })
        .await
        .unwrap();
    assert_eq!((status, deadline, rated), (Status::Aborted, None, false));
    let n = fake.requests().len();
    let id = fake.press(&players[1], CHANNEL, 5000, "dm:chal:1:accept");
    let again = fake.reply_to(n, &id).await;
    assert_eq!(
        content(&again),
        "This challenge was accepted, but match #1 was called off: its thread could not be \
         made. Start a new one with /play."
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_league_board_whose_thread_is_refused_is_held_while_the_others_open_and_play() {
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let dave = user("100000000000000004", "dave");
    let players: Vec<Value> = ["alice", "bob", "carol", "erin"]
        .iter()
        .enumerate()
        .map(|(i, n)| user(&format!("10000000000000001{i}"), n))
        .collect();

    let n = fake.requests().len();
    let create = named(json!([{"name": "game", "type": 4, "value": 0}]));
    let id = league(&fake, &dave, "create", create, MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    for p in &players {
        let n = fake.requests().len();
        let id = league(&fake, p, "join", named(json!([])), "0");
        fake.reply_to(n, &id).await;
    }
    // A thread named with "erin" is refused for good: board 1 (alice vs erin).
    fake.hostile
        .refused_thread_words
        .lock()
        .unwrap()
        .push("erin".into());
    let n = fake.requests().len();
    let id = league(&fake, &dave, "start", named(json!([])), MANAGE_SERVER);
    let paired = content(&fake.reply_to(n, &id).await);
    assert!(paired.starts_with("Round 1 is paired"), "{paired}");

    // Board 2 opens and is played.
    let board = fake
        .wait_for(n, "board 2's first board", |r| {
            is_board(r) && content(r).contains("Match #2: Chess for bob, carol")
        })
        .await;
    let thread = board.path.split('/').nth(4).unwrap().to_string();
    let m = fake.requests().len();
    fake.say(&players[1], &thread, "e4", &[]);
    fake.wait_for(m, "the board after bob's move", |r| {
        is_board(r) && r.path.contains(&thread) && content(r).contains("e4")
    })
    .await;

    // Board 1's players are told by direct message how to open it.
    let told = |r: &Recorded| {
        r.method == "POST"
            && r.status < 300
            && content(r)
                .starts_with("The thread of your league match #1 (Chess) could not be made")
    };
    for _ in 0..600 {
        if count(&fake, told) == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    if count(&fake, told) != 2 {
        let outbox = table
            .call(|t| {
                let conn = t.store().connection();
                let mut stmt = conn
                    .prepare(
                        "SELECT id, kind, destination, state, attempts, last_error FROM outbox",
                    )
                    .unwrap();
                let rows = stmt
                    .query_map([], |r| {
                        Ok(format!(
                            "{:?}",
                            (
                                r.get::<_, i64>(0)?,
                                r.get::<_, String>(1)?,
                                r.get::<_, String>(2)?,
                                r.get::<_, String>(3)?,
                                r.get::<_, i64>(4)?,
                                r.get::<_, Option<String>>(5)?,
                            )
                        ))
                    })
                    .unwrap();
                rows.map(|r| r.unwrap()).collect::<Vec<_>>()
            })
            .await
            .unwrap();
        let seen: Vec<String> = fake
            .requests()
            .iter()
            .map(|r| format!("{} {} {} {}", r.status, r.method, r.path, content(r)))
            .collect();
        panic!(
            "board 1's players not told:\n{}\n{}",
            outbox.join("\n"),
            seen.join("\n")
        );
    }
    for dm in fake.requests().iter().filter(|r| told(r)) {
        assert!(content(dm).contains("/board"), "{dm:?}");
    }
    let holds = table
        .call(|t| t.store().holds_of(1).unwrap())
        .await
        .unwrap();
    assert_eq!(holds, [HoldReason::Thread]);
    assert_eq!(
        count(&fake, |r| is_thread(r) && r.status < 300),
        1,
        "one thread made"
    );
    assert_outbox_empty(&table).await;

    // Anything owed to board 1 meanwhile (a round's reminder, a board) has nowhere to go: it
    // is never posted in the league's channel, where it would ping and mislead.
    let n = fake.requests().len();
    table
        .call(|t| {
            let now = t.now();
            let owed = Owed::Board {
                match_id: 1,
                version: 1,
                public: vec!["Board 1 owes this line.".into()],
                turns: true,
            };
            t.store()
                .owe(&owed.post(Destination::Match(1), now), now)
                .unwrap();
        })
        .await
        .unwrap();
    assert_outbox_empty(&table).await;
    let posted: Vec<String> = fake.requests()[n..]
        .iter()
        .filter(|r| r.method == "POST" && r.path.contains("/messages"))
        .map(|r| format!("{} {}", r.path, content(r)))
        .collect();
    assert!(posted.is_empty(), "{posted:#?}");

    // Once the name is allowed, /board in the channel opens board 1 there.
    fake.hostile.refused_thread_words.lock().unwrap().clear();
    let n = fake.requests().len();
    let id = fake.command(&players[0], CHANNEL, "board", json!([]), json!({}));
    let reopened = content(&fake.reply_to(n, &id).await);
    assert!(reopened.starts_with("Match #1 goes on in <#"), "{reopened}");
    let holds = table
        .call(|t| t.store().holds_of(1).unwrap())
        .await
        .unwrap();
    assert!(holds.is_empty(), "{holds:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_names_of_32_characters_give_a_thread_name_discord_takes() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let players: Vec<Value> = (0..4)
        .map(|i| {
            let name = format!("{}{i}", "Wilhelmina-Long-Display-Name-".repeat(2))
                .chars()
                .rev()
                .take(32)
                .collect::<String>();
            user(&format!("10000000000000006{i}"), &name)
        })
        .collect();
    challenge_accepted(&fake, &players, 2, None).await;
    let made = fake
        .wait_for(0, "the thread", |r| is_thread(r) && r.status < 300)
        .await;
    let name = made.json["name"].as_str().unwrap();
    assert!(name.chars().count() <= 100, "{name}");
    assert!(name.starts_with("En Prise: "), "{name}");
    fake.wait_for(0, "the first board", |r| {
        is_board(r) && r.status < 300 && content(r).contains("Match #1: En Prise")
    })
    .await;
    assert_eq!(count(&fake, |r| is_thread(r) && r.status >= 400), 0);
    assert_outbox_empty(&table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_whose_message_was_deleted_before_its_thread_is_called_off_in_a_new_post() {
    let fake = FakeDiscord::start().await;
    let table: TableHandle = start_bot(&fake).await;
    let players = [
        user("100000000000000001", "alice"),
        user("100000000000000002", "bob"),
    ];
    let n = fake.requests().len();
    let id = fake.command(
        &players[0],
        CHANNEL,
        "play",
        json!([{"name": "game", "type": 4, "value": 0},
               {"name": "opponent", "type": 6, "value": players[1]["id"]}]),
        json!({"users": {players[1]["id"].as_str().unwrap(): players[1]}}),
    );
    fake.reply_to(n, &id).await;
    let message = table
        .call(|t| t.store().challenge(1).unwrap().message_id.unwrap())
        .await
        .unwrap();
    // The challenge's message is deleted as its last acceptance comes in: the thread cannot
    // be made from it, and it cannot be edited to say so.
    fake.delete_message(CHANNEL, &message);
    let n = fake.requests().len();
    let id = fake.press(
        &players[1],
        CHANNEL,
        message.parse().unwrap(),
        "dm:chal:1:accept",
    );
    fake.reply_to(n, &id).await;
    let dm = |r: &Recorded| {
        r.method == "POST"
            && r.status < 300
            && content(r).starts_with("Your match #1 (Chess) was called off")
    };
    until("both players told", || count(&fake, dm) == 2).await;
    // The channel is told in a post of its own, naming the players.
    let told = fake
        .wait_for(n, "the channel told", |r| {
            r.method == "POST"
                && r.status < 300
                && r.path.contains(CHANNEL)
                && content(r).contains("was called off")
        })
        .await;
    assert!(
        content(&told).contains("<@100000000000000001>") && content(&told).contains("was deleted"),
        "{told:?}"
    );
    assert_outbox_empty(&table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_taken_while_a_match_waits_for_its_thread_is_not_announced_in_the_channel() {
    let fake = FakeDiscord::start().await;
    let clock = SimClock::at(START);
    let table = Table::with_clock(Store::open_in_memory().unwrap(), clock.clone());
    let (table, _) = start_bot_on(&fake, table).await;
    let players = [
        user("100000000000000001", "alice"),
        user("100000000000000002", "bob"),
    ];
    fake.hostile.threads_unavailable.store(1, Ordering::Relaxed);
    challenge_accepted(&fake, &players, 0, Some("1d")).await;
    fake.wait_for(0, "a thread refused 503", |r| {
        is_thread(r) && r.status == 503
    })
    .await;
    let n = fake.requests().len();
    let id = fake.command(
        &players[0],
        CHANNEL,
        "vacation",
        json!([{"name": "start", "type": 1, "options": [{"name": "days", "type": 4, "value": 2}]}]),
        json!({}),
    );
    fake.reply_to(n, &id).await;
    // The thread opens after the outbox's backoff; the vacation's line was never for the
    // channel the match was challenged in.
    clock.advance(60);
    table.call(|_| ()).await.unwrap();
    fake.wait_for(0, "the first board", is_board).await;
    let in_channel: Vec<Recorded> = fake
        .requests()
        .into_iter()
        .filter(|r| {
            r.method == "POST"
                && r.path.ends_with(&format!("/channels/{CHANNEL}/messages"))
                && content(r).contains("vacation")
        })
        .collect();
    assert!(in_channel.is_empty(), "{in_channel:#?}");
    assert_outbox_empty(&table).await;
}
