//! End to end, a Swiss league of four over three rounds: round 1 paired top half against
//! bottom half with one game played and one never begun (a forfeit), round 2 with a player
//! away (a half-point bye) and the odd player out given the bye, round 3 paired by score, and
//! the final standings posted with their picture.

use super::fake_discord::bot::assert_settled;
use crate::fake_discord::bot::{CHANNEL, boards_since, content, news_since, start_bot_on};
use crate::fake_discord::{FakeDiscord, Recorded, user};
use deckmate::store::Store;
use deckmate::table::Table;
use serde_json::{Value, json};

const MANAGE_SERVER: &str = "32";
const SCHOLAR: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];

async fn league(fake: &FakeDiscord, who: &Value, sub: &str, extra: Value) -> Recorded {
    let mut options = vec![json!({"name": "name", "type": 3, "value": "Swiss"})];
    if let Value::Array(more) = extra {
        options.extend(more);
    }
    let n = fake.requests().len();
    let id = fake.command_with(
        who,
        CHANNEL,
        "league",
        json!([{"name": sub, "type": 1, "options": options}]),
        json!({}),
        MANAGE_SERVER,
    );
    fake.reply_to(n, &id).await
}

/// Plays the Scholar's mate in the game `white` opens, against `black`.
async fn mate(fake: &FakeDiscord, boards: &[Recorded], white: &Value, black: &Value) {
    let id = white["id"].as_str().unwrap();
    let board = boards
        .iter()
        .find(|b| content(b).contains(&format!("<@{id}> to play")))
        .expect("the game White opens");
    let thread = board.path.split('/').nth(4).unwrap().to_string();
    for (i, text) in SCHOLAR.iter().enumerate() {
        let who = if i % 2 == 0 { white } else { black };
        let n = fake.requests().len();
        fake.say(who, &thread, text, &[]);
        fake.wait_for(n, "the board after the move", |r| {
            r.method == "POST" && r.path.contains(&thread) && !r.files.is_empty()
        })
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_league_runs_three_rounds_with_a_forfeit_and_a_bye() {
    let fake = FakeDiscord::start().await;
    let (outbox_table, _) = start_bot_on(&fake, Table::new(Store::open_in_memory().unwrap())).await;
    let dave = user("100000000000000004", "dave");
    let [alice, bob, carol, erin]: [Value; 4] = ["alice", "bob", "carol", "erin"]
        .iter()
        .enumerate()
        .map(|(i, n)| user(&format!("10000000000000001{i}"), n))
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();

    let create = json!([
        {"name": "game", "type": 4, "value": 0},
        {"name": "format", "type": 4, "value": 2},
        {"name": "rounds", "type": 4, "value": 3}
    ]);
    let made = content(&league(&fake, &dave, "create", create).await);
    assert!(
        made.starts_with("League **Swiss** (Chess) is open"),
        "{made}"
    );
    for p in [&alice, &bob, &carol, &erin] {
        let said = content(&league(&fake, p, "join", json!([])).await);
        assert!(said.ends_with("joined the league."), "{said}");
    }
    let away = json!([{"name": "round", "type": 4, "value": 2}]);
    let said = content(&league(&fake, &erin, "unavailable", away).await);
    assert_eq!(said, "Noted: you will not play round 2.");

    // Round 1: 1-3 and 4-2 (the top half against the bottom half; 2 has Black).
    let n = fake.requests().len();
    let paired = content(&league(&fake, &dave, "start", json!([])).await);
    assert!(paired.starts_with("Round 1 is paired"), "{paired}");
    let boards = boards_since(&fake, n, 2).await;
    mate(&fake, &boards, &alice, &carol).await;
    let n = fake.requests().len();
    let closed = content(&league(&fake, &dave, "close", json!([])).await);
    assert_eq!(
        closed,
        format!("Round 1 is closed. Its results are posted in <#{CHANNEL}>.")
    );
    assert_eq!(
        news_since(&fake, n, "Round 1 is closed.").await,
        "Round 1 is closed.\nerin never began match #2: a forfeit."
    );

    // The round closed, the next one pairs itself. Round 2: erin is away; bob (a forfeit
    // win, so no bye for him) meets alice, and carol, the lowest, has the bye.
    let boards = boards_since(&fake, n, 1).await;
    let said = fake
        .wait_for(n, "round 2's bye", |r| {
            r.method == "POST" && content(r).starts_with("Round 2: ")
        })
        .await;
    let carol_id = carol["id"].as_str().unwrap();
    let erin_id = erin["id"].as_str().unwrap();
    // Both byes, however long the rate limits make the second wait.
    for who in [carol_id, erin_id] {
        fake.wait_for(n, "round 2's byes", |r| {
            content(r).starts_with(&format!("Round 2: <@{who}>"))
        })
        .await;
    }
    let byes: Vec<String> = fake
        .requests()
        .into_iter()
        .skip(n)
        .map(|r| content(&r))
        .filter(|t| t.starts_with("Round 2: "))
        .collect();
    assert!(
        byes.contains(&format!("Round 2: <@{carol_id}> has the bye (one point).")),
        "{said:?} {byes:?}"
    );
    assert!(
        byes.contains(&format!(
            "Round 2: <@{erin_id}> has a half-point bye (away this round)."
        )),
        "{byes:?}"
    );
    mate(&fake, &boards, &bob, &alice).await;
    let pairings = content(&league(&fake, &carol, "pairings", json!([])).await);
    assert!(
        pairings.contains("Round 2, board 2: carol: the bye (one point)"),
        "{pairings}"
    );
    let n = fake.requests().len();
    let closed = content(&league(&fake, &dave, "close", json!([])).await);
    assert!(closed.starts_with("Round 2 is closed. "), "{closed}");
    assert_eq!(
        news_since(&fake, n, "Round 2 is closed.").await,
        "Round 2 is closed."
    );

    // Round 3: everyone plays again, by score: bob (2) meets carol, alice meets erin; neither
    // game begins.
    let boards = boards_since(&fake, n, 2).await;
    let texts: Vec<String> = boards.iter().map(content).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("bob") && t.contains("carol")),
        "{texts:?}"
    );
    let n = fake.requests().len();
    let closed = content(&league(&fake, &dave, "close", json!([])).await);
    assert!(closed.starts_with("Round 3 is closed. "), "{closed}");
    let news = news_since(&fake, n, "Round 3 is closed.").await;
    assert!(news.ends_with("Season 1 is over."), "{news}");

    let standings = league(&fake, &bob, "standings", json!([])).await;
    assert_eq!(standings.files.len(), 1, "the standings picture");
    assert!(crate::fake_discord::bot::png_size(&standings).1 > 100);
    let table = content(&standings);
    let lines: Vec<&str> = table.lines().collect();
    // bob: a forfeit win, a win, and a forfeit win when round 3 was never begun; erin: a
    // half-point bye and a forfeit win; alice beat carol; carol had the bye.
    assert!(lines[1].starts_with("1. bob: 3 "), "{table}");
    assert!(lines[2].starts_with("2. erin: 1½ "), "{table}");
    assert_settled(&fake, &outbox_table).await;
}
