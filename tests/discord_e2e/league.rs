//! End to end, a league: an admin creates it, four players join, round 1 is paired with a
//! thread per game, one game is played out by typed moves and the other never begins (a
//! forfeit at the close), the standings follow, and ratings count the game played.

use super::fake_discord::bot::assert_settled;
use crate::fake_discord::bot::{CHANNEL, boards_since, content, ephemeral, start_bot_on};
use crate::fake_discord::{FakeDiscord, user};
use deckmate::store::Store;
use deckmate::table::{Table, TableHandle};
use serde_json::{Value, json};

const MANAGE_SERVER: &str = "32";

use crate::fake_discord::bot::{league, named, news_since};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_league_round_is_paired_played_forfeited_and_ranked() {
    let fake = FakeDiscord::start().await;
    let (outbox_table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let dave = user("100000000000000004", "dave");
    let players: Vec<Value> = ["alice", "bob", "carol", "erin"]
        .iter()
        .enumerate()
        .map(|(i, n)| user(&format!("10000000000000001{i}"), n))
        .collect();

    let n = fake.requests().len();
    let create = named(json!([{"name": "game", "type": 4, "value": 0}]));
    let id = league(&fake, &dave, "create", create, MANAGE_SERVER);
    let made = content(&fake.reply_to(n, &id).await);
    assert!(
        made.starts_with("League **Autumn** (Chess) is open"),
        "{made}"
    );
    for p in &players {
        let n = fake.requests().len();
        let id = league(&fake, p, "join", named(json!([])), "0");
        let said = content(&fake.reply_to(n, &id).await);
        assert!(said.ends_with("joined the league."), "{said}");
    }
    // Only admins start rounds.
    let n = fake.requests().len();
    let id = league(&fake, &players[0], "start", named(json!([])), "0");
    let refused = fake.reply_to(n, &id).await;
    assert!(ephemeral(&refused) && content(&refused).starts_with("Only members"));

    let n = fake.requests().len();
    let id = league(&fake, &dave, "start", named(json!([])), MANAGE_SERVER);
    let paired = content(&fake.reply_to(n, &id).await);
    assert!(paired.starts_with("Round 1 is paired"), "{paired}");
    // Two games (Berger for four: 1-4, 2-3), each in its own thread with its board.
    let boards = boards_since(&fake, n, 2).await;
    let alice_id = players[0]["id"].as_str().unwrap();
    let first = boards
        .iter()
        .find(|b| content(b).contains(&format!("<@{alice_id}> to play")))
        .expect("alice has White on board 1");
    let thread = first.path.split('/').nth(4).unwrap().to_string();
    for (i, text) in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
        .iter()
        .enumerate()
    {
        let who = if i % 2 == 0 { &players[0] } else { &players[3] };
        let n = fake.requests().len();
        fake.say(who, &thread, text, &[]);
        fake.wait_for(n, "the board after the move", |r| {
            r.method == "POST" && r.path.contains(&thread) && !r.files.is_empty()
        })
        .await;
    }

    let n = fake.requests().len();
    let id = league(&fake, &dave, "close", named(json!([])), MANAGE_SERVER);
    let closed = content(&fake.reply_to(n, &id).await);
    assert_eq!(
        closed,
        format!("Round 1 is closed. Its results are posted in <#{CHANNEL}>.")
    );
    // The outbox posts what the close decided in the league's channel.
    assert_eq!(
        news_since(&fake, n, "Round 1 is closed.").await,
        "Round 1 is closed.\nbob never began match #2: a forfeit."
    );
    let n = fake.requests().len();
    let id = league(&fake, &players[1], "standings", named(json!([])), "0");
    let reply = fake.reply_to(n, &id).await;
    let table = content(&reply);
    // The standings picture comes with the text.
    assert_eq!(reply.files.len(), 1, "{reply:?}");
    assert!(crate::fake_discord::bot::png_size(&reply).1 > 100);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("**Autumn** standings"), "{table}");
    assert!(lines[1].starts_with("1. alice: 1") || lines[1].starts_with("1. carol: 1"));
    assert!(lines[3].starts_with("3. bob: 0") || lines[3].starts_with("3. erin: 0"));
    // A round robin's standings carry the crosstable.
    assert!(table.contains("```\n") && table.contains("X"), "{table}");

    // An admin corrects board 2 (bob never began it) to a draw; a player cannot.
    let set = |who: &Value, perms: &str| {
        let options = named(json!([
            {"name": "round", "type": 4, "value": 1},
            {"name": "board", "type": 4, "value": 2},
            {"name": "result", "type": 3, "value": "1/2-1/2"}
        ]));
        league(&fake, who, "result", options, perms)
    };
    let n = fake.requests().len();
    let id = set(&players[1], "0");
    assert!(content(&fake.reply_to(n, &id).await).starts_with("Only members"));
    let n = fake.requests().len();
    let id = set(&dave, MANAGE_SERVER);
    let said = content(&fake.reply_to(n, &id).await);
    assert_eq!(said, "Round 1, board 2: dave set the result to 1/2-1/2.");
    let n = fake.requests().len();
    let id = league(&fake, &players[1], "pairings", named(json!([])), "0");
    let pairings = content(&fake.reply_to(n, &id).await);
    assert!(
        pairings.contains("Round 1, board 2: bob - carol: 1/2-1/2"),
        "{pairings}"
    );
    let n = fake.requests().len();
    let id = league(&fake, &players[1], "schedule", named(json!([])), "0");
    let schedule = content(&fake.reply_to(n, &id).await);
    assert!(
        schedule.starts_with("**Autumn**, season 1: 3 rounds, 7 days each."),
        "{schedule}"
    );
    assert!(schedule.contains("Round 1: began <t:"), "{schedule}");

    // The game played is rated; the forfeit is not a game.
    let n = fake.requests().len();
    let id = fake.command(
        &players[0],
        CHANNEL,
        "leaderboard",
        json!([{"name": "game", "type": 4, "value": 0}]),
        json!({}),
    );
    let board = content(&fake.reply_to(n, &id).await);
    assert!(
        board.contains("1. alice: ") && board.contains("(1 game)"),
        "{board}"
    );
    // Her rating, with its history: one week played.
    let n = fake.requests().len();
    let id = fake.command(
        &players[0],
        CHANNEL,
        "rating",
        json!([{"name": "game", "type": 4, "value": 0}, {"name": "history", "type": 5, "value": true}]),
        json!({}),
    );
    let rating = content(&fake.reply_to(n, &id).await);
    let lines: Vec<&str> = rating.lines().collect();
    assert!(lines[0].starts_with("alice in Chess: "), "{rating}");
    assert_eq!(lines.len(), 2, "{rating}");
    assert!(
        lines[1].starts_with("<t:") && lines[1].ends_with("after 1 game"),
        "{rating}"
    );
    assert_settled(&fake, &outbox_table).await;
}

/// The bot on `fake` with league Autumn (chess) of alice, bob, carol and erin, created by
/// dave (an admin), its round 1 started: the bot's table, dave and the players.
async fn league_round_one(fake: &FakeDiscord) -> (TableHandle, Value, Vec<Value>) {
    let (table, _) = start_bot_on(fake, Table::new(Store::open_in_memory().unwrap())).await;
    let dave = user("100000000000000004", "dave");
    let players: Vec<Value> = ["alice", "bob", "carol", "erin"]
        .iter()
        .enumerate()
        .map(|(i, n)| user(&format!("10000000000000001{i}"), n))
        .collect();
    let n = fake.requests().len();
    let create = named(json!([{"name": "game", "type": 4, "value": 0}]));
    let id = league(fake, &dave, "create", create, MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    for p in &players {
        let n = fake.requests().len();
        let id = league(fake, p, "join", named(json!([])), "0");
        fake.reply_to(n, &id).await;
    }
    let n = fake.requests().len();
    let id = league(fake, &dave, "start", named(json!([])), MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    // Each board's thread opens after the answer (later still when Discord rate-limits), and
    // its first board is posted there once the thread is stored.
    boards_since(fake, n, 2).await;
    (table, dave, players)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_seats_a_league_substitute_who_plays_on_in_the_thread() {
    let fake = FakeDiscord::start().await;
    let (table, dave, players) = league_round_one(&fake).await;
    let frank = user("100000000000000025", "frank");
    let swap = |who: &Value, perms: &str| {
        let options = named(json!([
            {"name": "out", "type": 6, "value": players[1]["id"]},
            {"name": "in", "type": 6, "value": frank["id"]}
        ]));
        let users = json!({ "users": {
            players[1]["id"].as_str().unwrap(): players[1],
            frank["id"].as_str().unwrap(): frank,
        }});
        let sub = json!([{"name": "substitute", "type": 1, "options": options}]);
        fake.command_with(who, CHANNEL, "league", sub, users, perms)
    };
    // A player cannot; an admin can, and bob's game (board 2, bob White) passes to frank.
    let n = fake.requests().len();
    let id = swap(&players[0], "0");
    assert!(content(&fake.reply_to(n, &id).await).starts_with("Only members"));
    let n = fake.requests().len();
    let id = swap(&dave, MANAGE_SERVER);
    let said = content(&fake.reply_to(n, &id).await);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines[0], "frank takes bob's place in Autumn (season 1).");
    assert!(
        lines[1].starts_with("frank plays on in match #2 (round 1, board 2). Announced in <#"),
        "{said}"
    );
    let thread: String = lines[1]
        .split("<#")
        .nth(1)
        .and_then(|t| t.split('>').next())
        .unwrap()
        .to_string();
    // Asked again, it is refused by name.
    let n = fake.requests().len();
    let id = swap(&dave, MANAGE_SERVER);
    let again = content(&fake.reply_to(n, &id).await);
    assert_eq!(again, "bob was already replaced by frank.");
    // Frank moves in the thread; bob no longer can.
    let n = fake.requests().len();
    fake.say(&frank, &thread, "d4", &[]);
    fake.wait_for(n, "the board after frank's move", |r| {
        r.method == "POST" && r.path.contains(&thread) && !r.files.is_empty()
    })
    .await;
    let n = fake.requests().len();
    let id = league(&fake, &players[2], "pairings", named(json!([])), "0");
    let pairings = content(&fake.reply_to(n, &id).await);
    assert!(
        pairings.contains("Round 1, board 2: frank - carol: match #2"),
        "{pairings}"
    );
    assert_settled(&fake, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_paired_again_tells_the_old_threads_their_games_are_called_off() {
    let fake = FakeDiscord::start().await;
    let (table, dave, _) = league_round_one(&fake).await;
    let n = fake.requests().len();
    let id = league(&fake, &dave, "repair", named(json!([])), MANAGE_SERVER);
    let said = content(&fake.reply_to(n, &id).await);
    assert!(said.starts_with("Round 1 is paired again"), "{said}");
    for old in [1, 2] {
        let line = format!("Round 1 was paired again: match #{old} is called off.");
        fake.wait_for(n, "the old thread told", |r| {
            r.method == "POST" && content(r) == line
        })
        .await;
    }
    // The new games have threads of their own.
    fake.wait_for(n, "match #4's board", |r| {
        r.method == "POST" && content(r).starts_with("Match #4: Chess")
    })
    .await;
    assert_settled(&fake, &table).await;
}
