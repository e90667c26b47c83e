//! Playing the computer on Discord: `/play against:computer`, the bot named as an opponent, the
//! computer's moves posted in the thread like a player's, its answer to a Chess-à-Tête attack,
//! and a restart while it owes a move.

use crate::fake_discord::bot::{
    CHANNEL, assert_settled, content, start_bot, start_bot_pausing, start_stoppable_bot,
};
use crate::fake_discord::{FakeDiscord, GUILD_ID, Recorded, user};
use deckmate::discord::ChatMode;
use deckmate::store::Store;
use deckmate::table::Table;
use deckmate::table::TableHandle;
use serde_json::{Value, json};
use std::time::Duration;

/// `/play` by `who` with these options; returns the reply.
async fn play(fake: &FakeDiscord, who: &Value, options: Value, resolved: Value) -> Recorded {
    let n = fake.requests().len();
    let id = fake.command(who, CHANNEL, "play", options, json!({ "users": resolved }));
    fake.reply_to(n, &id).await
}

/// The thread of the first board posted after request `n`, and that board.
async fn first_board(fake: &FakeDiscord, n: usize) -> (String, Recorded) {
    let first = fake
        .wait_for(n, "the first board", |r| {
            r.method == "POST" && r.path.ends_with("/messages") && !r.files.is_empty()
        })
        .await;
    (first.path.split('/').nth(4).unwrap().to_string(), first)
}

/// Match 1's log as (player, action), read from the table.
async fn log(table: &TableHandle) -> Vec<(String, String)> {
    table
        .call(|t| t.history(1))
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .map(|(_, who, text)| (who, text))
        .collect()
}

/// Waits until match 1's log satisfies `done`; returns it.
async fn until_log(
    table: &TableHandle,
    what: &str,
    done: impl Fn(&[(String, String)]) -> bool,
) -> Vec<(String, String)> {
    for _ in 0..300 {
        let seen = log(table).await;
        if done(&seen) {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("timed out waiting for {what}: {:?}", log(table).await);
}

/// What the player with this Discord id may do in match 1 now (nothing when not to act).
async fn legal(table: &TableHandle, discord_id: &'static str) -> Vec<String> {
    table
        .call(move |t| {
            let shown = t.show(1).ok()?;
            let (_, player) = shown
                .to_act
                .iter()
                .find(|(_, p)| p.discord_id.as_deref() == Some(discord_id))?;
            t.legal(1, player.id).ok()
        })
        .await
        .unwrap()
        .unwrap_or_default()
}

const ALICE: &str = "100000000000000001";

/// Alice plays her first legal move in `thread` (the log held `before` actions); the computer
/// answers, and its move is posted in the thread with the board.
async fn alice_moves_and_is_answered(
    fake: &FakeDiscord,
    table: &TableHandle,
    alice: &Value,
    thread: &str,
    before: usize,
) {
    let mine = legal(table, ALICE).await;
    assert!(!mine.is_empty(), "Alice is to move");
    let text = mine[0].clone();
    let n = fake.requests().len();
    fake.say(alice, thread, &text, &[]);
    let seen = until_log(table, "the computer's answer", |log| {
        log.len() == before + 2
    })
    .await;
    assert_eq!(seen[before], ("alice".to_string(), text));
    assert_eq!(seen[before + 1].0, "cpu-easy");
    let answer = seen[before + 1].1.clone();
    let posted = fake
        .wait_for(n, "the computer's move in the thread", |r| {
            r.method == "POST"
                && r.path == format!("/api/v10/channels/{thread}/messages")
                && content(r).contains(&answer)
        })
        .await;
    assert!(
        !posted.files.is_empty(),
        "its move comes with the board: {posted:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn alone_against_the_computer_it_answers_each_move_in_the_thread() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user(ALICE, "alice");
    let n = fake.requests().len();
    // Chess is the first game in /play's list; against:computer, level:easy.
    let reply = play(
        &fake,
        &alice,
        json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "against", "type": 4, "value": 0},
            {"name": "level", "type": 4, "value": 0}
        ]),
        json!({}),
    )
    .await;
    assert_eq!(
        content(&reply),
        format!(
            "<@{ALICE}> plays cpu-easy at Chess. The match starts now; its thread opens in a moment."
        ),
    );
    let (thread, board) = first_board(&fake, n).await;
    assert!(content(&board).contains("alice"), "{board:?}");
    // Alice moves (a legal move whatever the computer answered: its search is seeded with a
    // secret); the computer answers in the thread with its own board.
    for ply in 0..3 {
        alice_moves_and_is_answered(&fake, &table, &alice, &thread, 2 * ply).await;
    }
    // Unrated: the computer's matches count for nobody's rating unless the server allows it.
    let rated = table.call(|t| t.store().rated(1)).await.unwrap().unwrap();
    assert!(!rated);
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_second_against_the_computer_gives_it_white_and_the_first_move() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user(ALICE, "alice");
    let n = fake.requests().len();
    let reply = play(
        &fake,
        &alice,
        json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "against", "type": 4, "value": 0},
            {"name": "level", "type": 4, "value": 0},
            {"name": "seat", "type": 4, "value": 1}
        ]),
        json!({}),
    )
    .await;
    // Alice still challenged; she only sits second.
    assert!(
        content(&reply).starts_with(&format!("<@{ALICE}> plays cpu-easy at Chess.")),
        "{reply:?}"
    );
    let (thread, _) = first_board(&fake, n).await;
    // White is the computer: it moves without being asked, then it is Alice's turn.
    let seen = until_log(&table, "the computer's first move", |log| !log.is_empty()).await;
    assert_eq!(seen[0].0, "cpu-easy", "{seen:?}");
    alice_moves_and_is_answered(&fake, &table, &alice, &thread, 1).await;
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_answers_a_chess_a_tete_attack() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user(ALICE, "alice");
    let n = fake.requests().len();
    // The bot named as the opponent is the computer; Chess-à-Tête is fifth in the list.
    let bot = FakeDiscord::bot_user();
    play(
        &fake,
        &alice,
        json!([
            {"name": "game", "type": 4, "value": 5},
            {"name": "opponent", "type": 6, "value": bot["id"]},
            {"name": "level", "type": 4, "value": 0}
        ]),
        json!({ bot["id"].as_str().unwrap(): bot }),
    )
    .await;
    let (thread, _) = first_board(&fake, n).await;
    // Alice plays pieces (burning cards for more) until she can attack, then attacks; she
    // ends her turns otherwise.
    // Sixty of her actions, however long the computer takes over its own in between.
    let mut attacked = None;
    for _ in 0..60 {
        let mut mine = legal(&table, ALICE).await;
        for _ in 0..300 {
            if !mine.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            mine = legal(&table, ALICE).await;
        }
        assert!(
            !mine.is_empty(),
            "alice's turn never came: {:?}",
            log(&table).await
        );
        let seen = log(&table).await;
        let choice = mine
            .iter()
            .find(|a| a.starts_with("attack"))
            .or_else(|| mine.iter().find(|a| a.starts_with("play")))
            .or_else(|| mine.iter().find(|a| a.starts_with("burn")))
            .or_else(|| mine.iter().find(|a| *a == "end"))
            .or_else(|| mine.first())
            .unwrap()
            .clone();
        fake.say(&alice, &thread, &choice, &[]);
        let before = seen.len();
        until_log(&table, "alice's action taken", |log| log.len() > before).await;
        if choice.starts_with("attack") {
            attacked = Some(before);
            break;
        }
    }
    let Some(at) = attacked else {
        panic!(
            "alice could not attack within 60 actions: {:?}",
            log(&table).await
        );
    };
    // The computer, defending, answers the attack: its action is next in the log.
    let seen = until_log(&table, "the computer's answer to the attack", |log| {
        log.len() > at + 1
    })
    .await;
    assert_eq!(seen[at + 1].0, "cpu-easy", "{seen:?}");
    let answer = &seen[at + 1].1;
    assert!(
        ["defend", "take", "lose"]
            .iter()
            .any(|w| answer.to_lowercase().starts_with(w)),
        "an answer to an attack: {answer}"
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_the_computer_owed_when_the_bot_stopped_is_made_once_after_it_starts() {
    let fake = FakeDiscord::start().await;
    let path = std::env::temp_dir().join(format!("deckmate-computer-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    // The first run pauses a minute before each computer move, so it stops owing one.
    let (table, shards) = start_bot_pausing(
        &fake,
        Table::new(Store::open(&path).unwrap()),
        ChatMode::All,
        60_000,
    )
    .await;
    let alice = user(ALICE, "alice");
    let n = fake.requests().len();
    play(
        &fake,
        &alice,
        json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "against", "type": 4, "value": 0}
        ]),
        json!({}),
    )
    .await;
    let (thread, _) = first_board(&fake, n).await;
    fake.say(&alice, &thread, "d4", &[]);
    until_log(&table, "alice's move", |log| log.len() == 1).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        log(&table).await.len(),
        1,
        "the computer is still in its pause"
    );
    // Stopped before the pause is over: its move was never taken. (That run's thinking thread
    // still sends it when its minute is up: keyed, it changes nothing then.)
    shards.shutdown_all().await;
    drop(table);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (table, _) = start_stoppable_bot(&fake, Store::open(&path).unwrap()).await;
    let seen = until_log(&table, "the computer's move after the restart", |log| {
        log.len() >= 2
    })
    .await;
    assert_eq!(seen[1].0, "cpu-medium");
    // Once: nothing more comes while alice thinks.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(log(&table).await.len(), 2);
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_refuses_what_cannot_be_played_against_the_computer() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user(ALICE, "alice");
    let bob = user("100000000000000002", "bob");
    let mut other_bot = user("100000000000000009", "otherbot");
    other_bot["bot"] = json!(true);
    let cases = [
        (
            json!([{"name": "game", "type": 4, "value": 0}]),
            json!({}),
            "Name an opponent, or play the computer with against:computer.",
        ),
        (
            json!([
                {"name": "game", "type": 4, "value": 0},
                {"name": "opponent", "type": 6, "value": bob["id"]},
                {"name": "against", "type": 4, "value": 0}
            ]),
            json!({ bob["id"].as_str().unwrap(): bob }),
            "against:computer is for playing the computer alone",
        ),
        (
            json!([
                {"name": "game", "type": 4, "value": 0},
                {"name": "opponent", "type": 6, "value": bob["id"]},
                {"name": "level", "type": 4, "value": 2}
            ]),
            json!({ bob["id"].as_str().unwrap(): bob }),
            "level: is for a game against the computer",
        ),
        (
            json!([
                {"name": "game", "type": 4, "value": 0},
                {"name": "against", "type": 4, "value": 0},
                {"name": "rated", "type": 5, "value": true}
            ]),
            json!({}),
            "On this server, matches against the computer are not rated",
        ),
        (
            json!([
                {"name": "game", "type": 4, "value": 0},
                {"name": "against", "type": 4, "value": 0},
                {"name": "seat", "type": 4, "value": 2}
            ]),
            json!({}),
            "This match has 2 seats, so there is no seat 3",
        ),
        (
            // Another bot is refused, whichever seat the author asks for.
            json!([
                {"name": "game", "type": 4, "value": 0},
                {"name": "opponent", "type": 6, "value": other_bot["id"]},
                {"name": "seat", "type": 4, "value": 1}
            ]),
            json!({ other_bot["id"].as_str().unwrap(): other_bot }),
            "Bots cannot play; challenge people.",
        ),
    ];
    for (options, resolved, words) in cases {
        let reply = play(&fake, &alice, options, resolved).await;
        assert!(content(&reply).contains(words), "{words}: {reply:?}");
    }
    // Nothing was stored.
    let challenges = table
        .call(|t| t.store().challenge(1).is_ok())
        .await
        .unwrap();
    assert!(!challenges);
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_takes_a_seat_beside_people_at_an_en_prise_table() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user(ALICE, "alice");
    let bob = user("100000000000000002", "bob");
    let bot = FakeDiscord::bot_user();
    // En Prise is third in /play's list: alice, bob and the computer at hard.
    let reply = play(
        &fake,
        &alice,
        json!([
            {"name": "game", "type": 4, "value": 2},
            {"name": "opponent", "type": 6, "value": bob["id"]},
            {"name": "opponent2", "type": 6, "value": bot["id"]},
            {"name": "level", "type": 4, "value": 2}
        ]),
        json!({ bob["id"].as_str().unwrap(): bob, bot["id"].as_str().unwrap(): bot }),
    )
    .await;
    // The computer has accepted already: only bob is awaited, and only bob is pinged.
    let text = content(&reply);
    assert!(
        text.starts_with(&format!(
            "<@{ALICE}> challenges <@100000000000000002>, cpu-hard to En Prise."
        )),
        "{text}"
    );
    assert!(
        text.contains("Waiting for <@100000000000000002> to accept"),
        "{text}"
    );
    assert_eq!(
        reply.json["data"]["allowed_mentions"]["users"],
        json!(["100000000000000002"]),
        "{reply:?}"
    );
    let n = fake.requests().len();
    fake.press(&bob, CHANNEL, 5000, "dm:chal:1:accept");
    let (thread, board) = first_board(&fake, n).await;
    assert!(
        content(&board).contains("Match #1: En Prise for alice, bob, cpu-hard"),
        "{}",
        content(&board)
    );
    // The people play the first legal action each time it is theirs; the computer plays its
    // own turns, until it has acted twice.
    let people = [(ALICE, &alice), ("100000000000000002", &bob)];
    for _ in 0..600 {
        let seen = log(&table).await;
        if seen.iter().filter(|(who, _)| who == "cpu-hard").count() >= 2 {
            break;
        }
        let mut acted = false;
        for (id, who) in people {
            let mine = legal(&table, id).await;
            if let Some(first) = mine.first() {
                fake.say(who, &thread, first, &[]);
                let before = seen.len();
                until_log(&table, "a person's action", |log| log.len() > before).await;
                acted = true;
                break;
            }
        }
        if !acted {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let seen = log(&table).await;
    assert!(
        seen.iter().filter(|(who, _)| who == "cpu-hard").count() >= 2,
        "{seen:?}"
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_the_computer_starts_at_once_with_the_colours_swapped() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user(ALICE, "alice");
    let n = fake.requests().len();
    play(
        &fake,
        &alice,
        json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "against", "type": 4, "value": 0},
            {"name": "level", "type": 4, "value": 0}
        ]),
        json!({}),
    )
    .await;
    let (thread, _) = first_board(&fake, n).await;
    let n = fake.requests().len();
    let id = fake.command(&alice, &thread, "resign", json!([]), json!({}));
    fake.reply_to(n, &id).await;
    let n = fake.requests().len();
    let id = fake.press(&alice, &thread, 9100, "dm:again:1");
    let told = fake.reply_to(n, &id).await;
    assert!(
        content(&told).starts_with("Rematch started in <#"),
        "{told:?}"
    );
    let offered = fake
        .wait_for(n, "the rematch's message", |r| {
            r.method == "POST" && content(r).starts_with("Rematch of match #1")
        })
        .await;
    assert_eq!(
        content(&offered),
        format!(
            "Rematch of match #1, seats turned round. <@{ALICE}> plays cpu-easy at Chess. The \
             match starts now; its thread opens in a moment."
        )
    );
    // Match 2: the computer is White and moves first, without anyone asking.
    let first = fake
        .wait_for(n, "the rematch's first board", |r| {
            r.method == "POST" && content(r).contains("Match #2: Chess for cpu-easy, alice")
        })
        .await;
    assert!(!first.files.is_empty(), "{first:?}");
    for _ in 0..100 {
        let moved = table
            .call(|t| t.history(2).map(|h| h.len()))
            .await
            .unwrap()
            .unwrap();
        if moved == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let log = table.call(|t| t.history(2)).await.unwrap().unwrap();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0].1, "cpu-easy");
    assert_settled(&fake, &table).await;
}

/// Rated computer matches, allowed by an admin: a rematch of a rated one is rated while they
/// are allowed, unrated once they are not, and stays so when they are allowed again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_the_computer_is_rated_only_while_the_server_allows_it() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user(ALICE, "alice");
    let allow = |table: &TableHandle, on: bool, key: &'static str| {
        let table = table.clone();
        async move {
            table
                .call(move |t| {
                    let admin = t.store().local_player("admin").unwrap().id;
                    t.store()
                        .change_server_settings(GUILD_ID, key, admin, 0, |s| {
                            s.computers_rated = on;
                            "computers_rated".into()
                        })
                        .map(|_| ())
                })
                .await
                .unwrap()
                .unwrap();
        }
    };
    allow(&table, true, "allow-1").await;
    let n = fake.requests().len();
    play(
        &fake,
        &alice,
        json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "against", "type": 4, "value": 0},
            {"name": "rated", "type": 5, "value": true}
        ]),
        json!({}),
    )
    .await;
    let (mut thread, _) = first_board(&fake, n).await;
    let rated = |id: i64| {
        let table = table.clone();
        async move {
            table
                .call(move |t| t.store().rated(id))
                .await
                .unwrap()
                .unwrap()
        }
    };
    assert!(rated(1).await);
    // Each match is resigned and rematched: the second while rated matches are allowed, the
    // third after the admin turned them off, the fourth after they were allowed again.
    for (match_id, on, key) in [
        (1, true, "allow-2"),
        (2, false, "deny"),
        (3, true, "allow-3"),
    ] {
        let n = fake.requests().len();
        let id = fake.command(&alice, &thread, "resign", json!([]), json!({}));
        fake.reply_to(n, &id).await;
        allow(&table, on, key).await;
        let n = fake.requests().len();
        let id = fake.press(
            &alice,
            &thread,
            9100 + match_id,
            &format!("dm:again:{match_id}"),
        );
        let told = fake.reply_to(n, &id).await;
        assert!(
            content(&told).starts_with("Rematch started in <#"),
            "{told:?}"
        );
        fake.wait_for(n, "the rematch's message", |r| {
            r.method == "POST" && content(r).starts_with(&format!("Rematch of match #{match_id}"))
        })
        .await;
        thread = first_board(&fake, n).await.0;
    }
    assert!(rated(2).await, "still allowed");
    assert!(!rated(3).await, "turned off before the rematch");
    // Match 3 was unrated, and so is its rematch: allowing it again rates no match by itself.
    assert!(!rated(4).await);
    assert_settled(&fake, &table).await;
}

/// A small generator for the fuzzed `/play`s below: SplitMix64, so a failure repeats.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzzed_play_options_are_answered_and_a_challenge_keeps_what_they_asked() {
    let fake = FakeDiscord::start().await;
    let table = start_bot(&fake).await;
    let alice = user(ALICE, "alice");
    let bob = user("100000000000000002", "bob");
    let carol = user("100000000000000003", "carol");
    let bot = FakeDiscord::bot_user();
    let mut dice = Dice(33);
    let mut made = 0;
    for case in 0..80 {
        // Each option absent or any of its values, some of them out of range, and the people
        // named: nobody, Bob, Carol, the bot, or Alice herself.
        let game = dice.pick(&[0, 1, 2, 2, 3, 4, 5, 9]);
        let mut options = vec![json!({"name": "game", "type": 4, "value": game})];
        let mut resolved = serde_json::Map::new();
        let mut bots = 0;
        for name in ["opponent", "opponent2", "opponent3"] {
            let who = match name {
                "opponent" => dice.pick(&[None, Some(&bob), Some(&bot), Some(&bot), Some(&alice)]),
                _ => dice.pick(&[None, None, None, Some(&carol), Some(&bot)]),
            };
            if let Some(who) = who {
                let id = who["id"].as_str().unwrap().to_string();
                bots += usize::from(id == bot["id"].as_str().unwrap());
                options.push(json!({"name": name, "type": 6, "value": id}));
                resolved.insert(id, who.clone());
            }
        }
        let against = dice.pick(&[None, None, None, Some(0), Some(0), Some(3)]);
        let level = dice.pick(&[None, Some(0), Some(0), Some(1), Some(2), Some(7)]);
        let seat = dice.pick(&[
            None,
            None,
            Some(0),
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            Some(8),
        ]);
        for (name, value) in [("against", against), ("level", level), ("seat", seat)] {
            if let Some(value) = value {
                options.push(json!({"name": name, "type": 4, "value": value}));
            }
        }
        let reply = play(&fake, &alice, json!(options), Value::Object(resolved)).await;
        let said = content(&reply);
        assert!(
            !said.trim().is_empty(),
            "case {case}: {options:?}: {reply:?}"
        );
        assert!(
            !said.contains("went wrong"),
            "case {case}: {options:?}: {said}"
        );
        // A challenge was made only if the reply says so, and it seats what was asked.
        let next = made + 1;
        let challenge = table
            .call(move |t| t.store().challenge(next).ok())
            .await
            .unwrap();
        let Some(challenge) = challenge else {
            continue;
        };
        made += 1;
        assert!(
            said.contains("challenges") || said.contains("plays"),
            "case {case}: {said}"
        );
        assert_eq!(challenge.challenger().discord_id.as_deref(), Some(ALICE));
        if let Some(index) = seat.filter(|&s| s < 4) {
            assert_eq!(challenge.challenger, index, "case {case}: {options:?}");
        }
        let computers: Vec<&str> = challenge
            .seats
            .iter()
            .filter(|s| s.player.discord_id.is_none())
            .map(|s| s.player.name.as_str())
            .collect();
        assert_eq!(
            computers.len(),
            bots + usize::from(against.is_some()),
            "case {case}: {options:?}"
        );
        let named = ["cpu-easy", "cpu-medium", "cpu-hard"];
        let wanted = level.map_or("cpu-medium", |l| named[l]);
        assert!(
            computers.iter().all(|name| name.starts_with(wanted)),
            "case {case}: {computers:?} for level {level:?}"
        );
    }
    assert!(made >= 5, "only {made} fuzzed /plays made a challenge");
    assert_settled(&fake, &table).await;
}
