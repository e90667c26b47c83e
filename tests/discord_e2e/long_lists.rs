//! End to end, within every limit: leagues of up to twelve players with long names (escapes
//! double some of them), long league names and long admin reasons, several rounds played
//! out; their pairings, standings, schedule, admin log, forfeit list and round announcements
//! all go through the fake, which refuses what Discord refuses. Long lists come a page at a
//! time, and a page's Next button opens the next.

use crate::fake_discord::bot::assert_settled;
use crate::fake_discord::bot::{CHANNEL, content, custom_ids, start_bot_on};
use crate::fake_discord::{FakeDiscord, GUILD_ID, Recorded, user};
use deckmate::games::GameKind;
use deckmate::league::standings::Scoring;
use deckmate::store::Store;
use deckmate::store::leagues::{Format, NewLeague};
use deckmate::table::Table;
use deckmate::table::admin::{Admin, Ruling};
use deckmate::table::leagues::default_tiebreaks;
use proptest::prelude::*;
use serde_json::{Value, json};

const MANAGE_SERVER: &str = "32";

/// A table with a round robin league `name` among `players` (display names), `rounds` rounds
/// played and closed (their games forfeited), the last round's first `cancelled` games
/// cancelled by an admin for `reason` first.
fn prepared(name: &str, players: &[String], rounds: u32, reason: &str, cancelled: usize) -> Table {
    let mut t = Table::new(Store::open_in_memory().unwrap());
    let new = NewLeague {
        guild_id: Some(GUILD_ID.into()),
        channel_id: Some(CHANNEL.into()),
        name: name.into(),
        game: GameKind::Chess,
        options: vec![],
        time_control: "none".into(),
        format: Format::RoundRobin,
        rated: true,
        tiebreaks: serde_json::to_string(&default_tiebreaks(Format::RoundRobin)).unwrap(),
        round_days: 7,
        forfeits_to_drop: 0,
        rounds: None,
        scoring: Scoring::for_game(GameKind::Chess),
    };
    let league = t.create_league(new).unwrap();
    for (i, p) in players.iter().enumerate() {
        let id = t.store().discord_player(&discord_id(i), p).unwrap().id;
        t.join_league(&league, id).unwrap();
    }
    let admin_id = t
        .store()
        .discord_player("100000000000000099", "referee")
        .unwrap()
        .id;
    let admin = Admin {
        player: admin_id,
        name: "referee".into(),
        guild: Some(GUILD_ID.into()),
    };
    for round in 1..=rounds {
        let started = t.start_round(&league).unwrap();
        if round == rounds {
            for update in started.matches.iter().take(cancelled) {
                let request = deckmate::table::Request::default();
                let ruled = t
                    .rule(update.match_id, &admin, Ruling::Cancel, reason, request)
                    .unwrap();
                // No interaction shows the ruling here: its board is not owed to the thread.
                t.delivered(ruled.match_id, ruled.version).unwrap();
            }
        }
        t.close_round_once(&league, None).unwrap();
    }
    t
}

fn discord_id(i: usize) -> String {
    format!("1000000000000001{i:02}")
}

/// The league subcommand `sub` of league `name`, by `who` with permissions `perms`.
fn league(fake: &FakeDiscord, who: &Value, name: &str, sub: &str, perms: &str) -> String {
    let options = json!([{"name": "name", "type": 3, "value": name}]);
    crate::fake_discord::bot::league(fake, who, sub, options, perms)
}

/// Every request the fake refused for Discord's limits (or its schema) after `after`.
fn refused(fake: &FakeDiscord, after: usize) -> Vec<String> {
    fake.requests()
        .iter()
        .skip(after)
        .filter(|r| r.status == 400)
        .map(|r| format!("{} {} {}", r.method, r.path, r.json))
        .collect()
}

/// Drives the bot through every long list of a prepared league; returns the pairings' first
/// answer.
async fn read_everything(
    fake: &FakeDiscord,
    name: &str,
    players: &[String],
    boards: usize,
) -> Recorded {
    let referee = user("100000000000000099", "referee");
    let player = user(&discord_id(0), &players[0]);
    let mut first = None;
    for sub in ["pairings", "standings", "schedule", "settings"] {
        let n = fake.requests().len();
        let id = league(fake, &player, name, sub, "0");
        let answer = fake.reply_to(n, &id).await;
        assert!(!content(&answer).is_empty(), "{sub}");
        first.get_or_insert(answer);
    }
    let n = fake.requests().len();
    let id = fake.command_with(
        &referee,
        CHANNEL,
        "admin",
        json!([{"name": "log", "type": 1, "options": []}]),
        json!({}),
        MANAGE_SERVER,
    );
    fake.reply_to(n, &id).await;
    // The next round is paired by the bot on its own (the last one is closed): its lines and
    // threads are posted; then it closes, its forfeits told.
    let posted = |r: &Recorded| r.method == "POST" && !r.files.is_empty();
    for _ in 0..500 {
        if fake.requests().iter().filter(|r| posted(r)).count() >= boards {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let n = fake.requests().len();
    let id = league(fake, &referee, name, "close", MANAGE_SERVER);
    fake.reply_to(n, &id).await;
    first.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_twelve_player_round_robin_reads_a_page_at_a_time() {
    let players: Vec<String> = (0..12)
        .map(|i| format!("{i:02}{}", "**`_~|>".repeat(5)))
        .collect();
    let name = "A league whose name is forty characters";
    let reason = "r".repeat(200);
    let table = prepared(name, &players, 4, &reason, 6);
    let fake = FakeDiscord::start().await;
    let (table, _) = start_bot_on(&fake, table).await;
    let pairings = read_everything(&fake, name, &players, 6).await;
    let text = content(&pairings);
    assert!(text.starts_with("Pairings, page 1 of "), "{text}");
    assert!(text.chars().count() <= 2000);
    let ids = custom_ids(&pairings);
    let next = ids
        .iter()
        .find(|i| i.starts_with("dm:page:2:pair:"))
        .unwrap();
    let n = fake.requests().len();
    let id = fake.press(&user(&discord_id(0), &players[0]), CHANNEL, 6000, next);
    let second = fake.reply_to(n, &id).await;
    let text = content(&second);
    assert!(text.starts_with("Pairings, page 2 of "), "{text}");
    assert!(text.contains("Round 3"), "{text}");
    assert_eq!(refused(&fake, 0), Vec::<String>::new());
    assert!(fake.take_violations().is_empty());
    assert_settled(&fake, &table).await;
}

/// A display name of `len` characters drawn from `alphabet`, distinct by its number.
fn long_name(i: usize, len: usize, seed: &str) -> String {
    let mut name = format!("{i:02}");
    name.extend(seed.chars().cycle().take(len.saturating_sub(2)));
    name
}

proptest! {
    // Each case starts a bot against a fake of its own: a few cases, and a failure is
    // reported as found (no shrinking through more bots, no file of failures).
    #![proptest_config(proptest::test_runner::Config {
        cases: 4,
        max_shrink_iters: 0,
        failure_persistence: None,
        ..Default::default()
    })]

    #[test]
    fn fuzz_long_names_many_players_and_long_reasons_are_never_refused(
        count in 4usize..=12,
        len in 20usize..=32,
        seed in "[a-z*_`~|>#@<&:/\\[\\]-]{1,12}",
        league_len in 30usize..=40,
        reason in "[a-z *_`@<>]{150,200}",
        rounds in 1u32..=2,
    ) {
        let players: Vec<String> = (0..count).map(|i| long_name(i, len, &seed)).collect();
        let name: String = long_name(99, league_len, &seed);
        let cancelled = count / 2;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let problems = runtime.block_on(async {
            let table = prepared(&name, &players, rounds, &reason, cancelled);
            let fake = FakeDiscord::start().await;
            start_bot_on(&fake, table).await;
            read_everything(&fake, &name, &players, count / 2).await;
            let mut problems = refused(&fake, 0);
            problems.extend(fake.take_violations());
            problems
        });
        prop_assert!(problems.is_empty(), "{problems:#?}");
    }
}
