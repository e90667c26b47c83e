//! End to end, links to the public web pages: once an admin turns a server's pages on, the
//! league's pairing announcements, `/league standings`, a finished match's last board and
//! `/rating` carry a link button to the page (under PUBLIC_URL); while they are off, none do.

use crate::fake_discord::bot::{
    CHANNEL, assert_settled, content, league, named, rows, start_bot_linking,
};
use crate::fake_discord::{FakeDiscord, GUILD_ID, Recorded, user};
use deckmate::store::Store;
use deckmate::table::Table;
use serde_json::{Value, json};

const MANAGE_SERVER: &str = "32";
const PUBLIC: &str = "https://leagues.example";

/// The addresses of the link buttons of a reply or message.
fn links(r: &Recorded) -> Vec<String> {
    let mut urls = Vec::new();
    for row in rows(r).as_array().into_iter().flatten() {
        for c in row["components"].as_array().into_iter().flatten() {
            if c["style"] == 5 {
                urls.push(c["url"].as_str().unwrap_or_default().to_string());
            }
        }
    }
    urls
}

/// `/admin server web:` on (choice 0) or off (choice 1); the bot's answer.
async fn web(fake: &FakeDiscord, admin: &Value, on: bool) -> String {
    let n = fake.requests().len();
    let options = json!([{"name": "web", "type": 4, "value": if on { 0 } else { 1 }}]);
    let id = fake.command_with(
        admin,
        CHANNEL,
        "admin",
        json!([{"name": "server", "type": 1, "options": options}]),
        json!({}),
        MANAGE_SERVER,
    );
    content(&fake.reply_to(n, &id).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_published_servers_league_links_to_its_pages() {
    let fake = FakeDiscord::start().await;
    let (table, _) =
        start_bot_linking(&fake, Table::new(Store::open_in_memory().unwrap()), PUBLIC).await;
    let dave = user("100000000000000004", "dave");
    let (alice, bob) = (
        user("100000000000000011", "alice"),
        user("100000000000000012", "bob"),
    );
    let season = format!("{PUBLIC}/s/{GUILD_ID}/leagues/Autumn/1");

    // Off by default: standings have no link.
    let n = fake.requests().len();
    let create = named(json!([{"name": "game", "type": 4, "value": 0}]));
    let id = league(&fake, &dave, "create", create, MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    for p in [&alice, &bob] {
        let n = fake.requests().len();
        let id = league(&fake, p, "join", named(json!([])), "0");
        fake.reply_to(n, &id).await;
    }
    let n = fake.requests().len();
    let id = league(&fake, &alice, "standings", named(json!([])), "0");
    assert!(links(&fake.reply_to(n, &id).await).is_empty());

    let said = web(&fake, &dave, true).await;
    assert!(
        said.ends_with(&format!(
            "its leagues, matches and players are on the public web pages. Its pages: {PUBLIC}/s/{GUILD_ID}"
        )),
        "{said}"
    );

    // The round's pairing is announced with the season page, at the round.
    let n = fake.requests().len();
    let id = league(&fake, &dave, "start", named(json!([])), MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    let announced = fake
        .wait_for(n, "the pairing announced", |r| {
            r.method == "POST" && content(r).starts_with("Round 1, board 1:")
        })
        .await;
    assert_eq!(links(&announced), [format!("{season}#round-1")]);
    let board = fake
        .wait_for(n, "the first board", |r| {
            r.method == "POST" && content(r).starts_with("Match #1: Chess") && !r.files.is_empty()
        })
        .await;
    assert!(
        links(&board).is_empty(),
        "a running match's board has its choices, no link"
    );
    let thread = board.path.split('/').nth(4).unwrap().to_string();

    // The game is played out by typed moves: the last board links to the match's page.
    let white = if content(&board).contains("<@100000000000000011> to play") {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    for (i, text) in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
        .iter()
        .enumerate()
    {
        let who = if i % 2 == 0 { white.0 } else { white.1 };
        let n = fake.requests().len();
        fake.say(who, &thread, text, &[]);
        let posted = fake
            .wait_for(n, "the board after the move", |r| {
                r.method == "POST" && r.path.contains(&thread) && !r.files.is_empty()
            })
            .await;
        match *text {
            "Qxf7#" => assert_eq!(links(&posted), [format!("{PUBLIC}/s/{GUILD_ID}/matches/1")]),
            _ => assert!(links(&posted).is_empty(), "{text}"),
        }
    }

    // The standings, and a rating, link to their pages.
    let n = fake.requests().len();
    let id = league(&fake, &alice, "standings", named(json!([])), "0");
    assert_eq!(links(&fake.reply_to(n, &id).await), [season]);
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        CHANNEL,
        "rating",
        json!([{"name": "game", "type": 4, "value": 0}]),
        json!({}),
    );
    assert_eq!(
        links(&fake.reply_to(n, &id).await),
        [format!("{PUBLIC}/s/{GUILD_ID}/leaderboard/chess")]
    );

    // Turned off, the links go.
    let said = web(&fake, &dave, false).await;
    assert!(said.ends_with("no public web pages."), "{said}");
    let n = fake.requests().len();
    let id = league(&fake, &alice, "standings", named(json!([])), "0");
    assert!(links(&fake.reply_to(n, &id).await).is_empty());
    assert_settled(&fake, &table).await;
}
