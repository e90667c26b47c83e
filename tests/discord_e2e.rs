//! The real serenity client and poise framework, driven end to end against a fake Discord on
//! 127.0.0.1.

#[path = "discord_e2e/acknowledge.rs"]
mod acknowledge;
#[path = "discord_e2e/admin.rs"]
mod admin;
#[path = "discord_e2e/challenges.rs"]
mod challenges;
#[path = "discord_e2e/chat.rs"]
mod chat;
#[path = "discord_e2e/clocks.rs"]
mod clocks;
#[path = "discord_e2e/computer.rs"]
mod computer;
mod fake_discord;
#[path = "discord_e2e/gateway.rs"]
mod gateway;
#[path = "discord_e2e/hostile.rs"]
mod hostile;
#[path = "discord_e2e/league.rs"]
mod league;
#[path = "discord_e2e/load.rs"]
mod load;
#[path = "discord_e2e/long_lists.rs"]
mod long_lists;
#[path = "discord_e2e/mentions.rs"]
mod mentions;
#[path = "discord_e2e/options.rs"]
mod options;
#[path = "discord_e2e/outbox.rs"]
mod outbox;
#[path = "discord_e2e/redelivered.rs"]
mod redelivered;
#[path = "discord_e2e/soak.rs"]
mod soak;
#[path = "discord_e2e/startup.rs"]
mod startup;
#[path = "discord_e2e/strict.rs"]
mod strict;
#[path = "discord_e2e/swiss.rs"]
mod swiss;
#[path = "discord_e2e/threads.rs"]
mod threads;
#[path = "discord_e2e/vacations.rs"]
mod vacations;
#[path = "discord_e2e/world.rs"]
mod world;

use fake_discord::bot::{
    CHANNEL, choose, content, custom_ids, ephemeral, offered, offered_text, png_size, start_bot,
    two_player_match,
};
use fake_discord::bot::{assert_settled, assert_settled_but};
use fake_discord::{FakeDiscord, GUILD_ID, Recorded, user};
use serde_json::{Value, json};
use std::sync::atomic::Ordering;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_from_challenge_to_draw_offer() {
    let fake = FakeDiscord::start().await;
    let outbox_table = start_bot(&fake).await;
    let registered = fake
        .wait_for(0, "command registration", |r| {
            r.method == "PUT" && r.path.ends_with("/commands")
        })
        .await;
    assert!(
        registered.path.contains(GUILD_ID),
        "registered in the dev server: {}",
        registered.path
    );
    let names: Vec<&str> = registered
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"move") && names.contains(&"play"),
        "{names:?}"
    );

    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let carol = user("100000000000000003", "carol");

    // /play: a challenge with Accept and Decline buttons.
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        CHANNEL,
        "play",
        json!([{"name": "game", "type": 4, "value": 0}, {"name": "opponent", "type": 6, "value": bob["id"]}]),
        json!({"users": {bob["id"].as_str().unwrap(): bob}}),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("challenges <@100000000000000002> to Chess"),
        "{}",
        content(&reply)
    );
    assert_eq!(
        custom_ids(&reply),
        ["dm:chal:1:accept", "dm:chal:1:decline"]
    );

    // A stranger cannot accept it.
    let n = fake.requests().len();
    let id = fake.press(&carol, CHANNEL, 5000, "dm:chal:1:accept");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("not addressed to you"),
        "{reply:?}"
    );

    // Bob accepts: a thread opens and the first board is posted with a ping.
    let n = fake.requests().len();
    fake.press(&bob, CHANNEL, 5000, "dm:chal:1:accept");
    fake.wait_for(n, "a thread", |r| {
        r.method == "POST" && r.path.ends_with("/messages/5000/threads")
    })
    .await;
    let first = fake
        .wait_for(n, "the first board", |r| {
            r.method == "POST" && r.path.ends_with("/messages") && !r.files.is_empty()
        })
        .await;
    let thread = first.path.split('/').nth(4).unwrap().to_string();
    assert_ne!(thread, CHANNEL);
    // The 768 x 776 board and, under it, a band naming the players.
    assert_eq!(png_size(&first), (768, 818));
    assert!(
        content(&first).contains("<@100000000000000001> to play"),
        "{}",
        content(&first)
    );
    let edited = fake
        .wait_for(n, "the challenge saying where the match is", |r| {
            r.method == "PATCH" && content(r).contains("match #1 is on")
        })
        .await;
    assert!(content(&edited).contains("match #1 is on"), "{edited:?}");

    // Autocomplete offers the caller's legal actions matching what is typed.
    let n = fake.requests().len();
    let id = fake.autocomplete(&alice, &thread, "move", "action", "N");
    let reply = fake.reply_to(n, &id).await;
    assert_eq!(reply.json["type"], 8);
    let choices: Vec<&str> = reply.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(choices.len(), 4, "{choices:?}");
    assert!(choices.iter().all(|c| c.starts_with('N')), "{choices:?}");

    // Moves, each answered with the board.
    let move_cmd = |who: &Value, text: &str| fake.move_command(who, &thread, text);
    let n = fake.requests().len();
    let id = move_cmd(&alice, "e4");
    let reply = fake.reply_to(n, &id).await;
    assert!(!ephemeral(&reply));
    assert!(
        content(&reply).contains("White plays e4")
            && content(&reply).contains("<@100000000000000002> to play"),
        "{}",
        content(&reply)
    );
    assert_eq!(png_size(&reply), (768, 818));

    // Mistakes are answered privately and change nothing.
    for (who, text, expected) in [
        (&carol, "e5", "you are not playing in match #1"),
        (&alice, "d4", "it is not your turn: waiting for bob"),
        (&bob, "e4", "no pawn of yours can reach e4"),
    ] {
        let n = fake.requests().len();
        let id = move_cmd(who, text);
        let reply = fake.reply_to(n, &id).await;
        assert!(
            ephemeral(&reply) && content(&reply).contains(expected),
            "{expected}: {reply:?}"
        );
    }
    let n = fake.requests().len();
    let id = fake.move_command(&alice, CHANNEL, "e4");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("not a match thread"),
        "{reply:?}"
    );

    let n = fake.requests().len();
    let id = move_cmd(&bob, "e5");
    assert!(content(&fake.reply_to(n, &id).await).contains("Black plays e5"));

    // A draw offer carries the match and its version; a stale button is refused.
    let n = fake.requests().len();
    let id = fake.command(&alice, &thread, "draw", json!([]), json!({}));
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("alice offers a draw"),
        "{}",
        content(&reply)
    );
    assert_eq!(
        custom_ids(&reply),
        ["dm:draw:1:3:accept", "dm:draw:1:3:decline"]
    );
    let n = fake.requests().len();
    let id = fake.press(&bob, &thread, 6000, "dm:draw:1:2:accept");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("out of date"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.press(&carol, &thread, 6000, "dm:draw:1:3:accept");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("not playing"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.press(&bob, &thread, 6000, "dm:draw:1:3:decline");
    let reply = fake.reply_to(n, &id).await;
    assert_eq!(
        reply.json["type"], 7,
        "the offer message is updated: {reply:?}"
    );
    assert!(
        content(&reply).contains("bob declines the draw"),
        "{reply:?}"
    );

    // A private view by DM; when the DM fails, privately in the channel with a note.
    fake.dm_fails.store(true, Ordering::Relaxed);
    let n = fake.requests().len();
    let id = fake.command(
        &bob,
        &thread,
        "view",
        json!([{"name": "dm", "type": 5, "value": true}]),
        json!({}),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("could not send you a direct message"),
        "{reply:?}"
    );
    assert_eq!(png_size(&reply), (768, 776));
    fake.dm_fails.store(false, Ordering::Relaxed);
    let n = fake.requests().len();
    let id = fake.command(
        &alice,
        &thread,
        "view",
        json!([{"name": "dm", "type": 5, "value": true}]),
        json!({}),
    );
    let dm = fake
        .wait_for(n, "the DM", |r| {
            r.method == "POST" && r.path.ends_with("/messages") && !r.files.is_empty()
        })
        .await;
    assert_eq!(png_size(&dm), (768, 776));
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("direct message"),
        "{reply:?}"
    );

    // The board again, the player's matches, a rules summary, and resigning.
    let n = fake.requests().len();
    let id = fake.command(&bob, &thread, "board", json!([]), json!({}));
    let reply = fake.reply_to(n, &id).await;
    assert_eq!(png_size(&reply), (768, 818));
    assert!(
        content(&reply).contains("<@100000000000000001> to play"),
        "{}",
        content(&reply)
    );
    let body = match reply.json["data"].is_object() {
        true => &reply.json["data"],
        false => &reply.json,
    };
    assert_eq!(
        body["allowed_mentions"]["parse"],
        json!([]),
        "/board names who must act without pinging: {body:?}"
    );
    assert!(
        body["allowed_mentions"]["users"]
            .as_array()
            .is_none_or(|u| u.is_empty()),
        "{body:?}"
    );
    let n = fake.requests().len();
    let id = fake.command(&alice, CHANNEL, "games", json!([]), json!({}));
    let reply = fake.reply_to(n, &id).await;
    let listed = content(&reply);
    assert!(
        ephemeral(&reply) && listed.contains("#1 Chess") && listed.contains("your turn"),
        "{listed}"
    );
    assert!(listed.contains(&format!("<#{thread}>")), "{listed}");
    let n = fake.requests().len();
    let id = fake.command(
        &carol,
        CHANNEL,
        "rules",
        json!([{"name": "game", "type": 4, "value": 1}]),
        json!({}),
    );
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("Enthralling Chess"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.command(&alice, &thread, "resign", json!([]), json!({}));
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("alice resigns")
            && content(&reply).contains("Black won by resignation"),
        "{}",
        content(&reply)
    );
    let n = fake.requests().len();
    let id = move_cmd(&bob, "Nf6");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("is over (Black won by resignation)"),
        "{reply:?}"
    );
    // The private view sent while bob's DMs were closed was refused on purpose.
    assert_settled_but(&fake, &outbox_table, |r| {
        r.status == 403 && content(r).starts_with("Your view of match #1")
    })
    .await;
}

/// Opens a challenge to En Prise with these options and has bob accept it; returns the thread
/// and the first board message.
async fn enprise_match(
    fake: &FakeDiscord,
    alice: &Value,
    bob: &Value,
    options: &str,
    challenge: u64,
) -> (String, Recorded) {
    two_player_match(fake, alice, bob, (2, "En Prise"), options, challenge).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn en_prise_by_buttons_menus_and_the_memory_timer() {
    let fake = FakeDiscord::start().await;
    let outbox_table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let carol = user("100000000000000003", "carol");

    // Memory: the plans are on show; everyone gets a Ready button. Three seconds to memorise:
    // the presses below must come before the time is up, even on a busy machine.
    let (thread, first) =
        enprise_match(&fake, &alice, &bob, "variant=memory memory_seconds=3", 1).await;
    assert_eq!(custom_ids(&first), ["dm:act:1:0:ready"]);
    assert!(
        content(&first).contains("<@100000000000000001>, <@100000000000000002> to play"),
        "{}",
        content(&first)
    );
    let n = fake.requests().len();
    let id = fake.press(&carol, &thread, 6000, "dm:act:1:0:ready");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("you are not playing in match #1"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.press(&bob, &thread, 6000, "dm:act:1:0:ready");
    let reply = fake.reply_to(n, &id).await;
    assert!(!ephemeral(&reply));
    assert!(
        content(&reply).contains("<@100000000000000001> to play"),
        "{}",
        content(&reply)
    );
    assert_eq!(custom_ids(&reply), ["dm:act:1:1:ready"]);

    // Alice does not press Ready: when the time is up the plans turn face-down anyway.
    let timed = fake
        .wait_for(n, "the memorising time running out", |r| {
            r.method == "POST"
                && r.path.ends_with("/messages")
                && content(r).starts_with("Time is up.")
        })
        .await;
    assert!(timed.path.contains(&thread), "posted in the match thread");
    assert!(
        content(&timed).contains("turned face-down"),
        "{}",
        content(&timed)
    );
    assert_eq!(custom_ids(&timed), ["dm:act:1:2:place"]);
    assert!(!timed.files.is_empty(), "with the board");

    // A stale Ready button is refused; Place reveals the card and offers where it goes.
    let n = fake.requests().len();
    let id = fake.press(&alice, &thread, 6000, "dm:act:1:1:ready");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("has moved on"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.press(&alice, &thread, 6000, "dm:act:1:2:place");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("White chooses to place: the next card is a"),
        "{}",
        content(&reply)
    );
    let placements = custom_ids(&reply);
    assert!(
        !placements.is_empty()
            && placements
                .iter()
                .all(|c| c.starts_with("dm:act:1:3:") && c.contains("@0,0")),
        "{placements:?}"
    );

    // Casino: the chooser picks Alice's card from a menu.
    let (thread, _) = enprise_match(&fake, &alice, &bob, "variant=casino", 2).await;
    let n = fake.requests().len();
    let id = fake.press(&alice, &thread, 7000, "dm:act:2:0:place");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("Black picks which"),
        "{}",
        content(&reply)
    );
    assert_eq!(custom_ids(&reply), ["dm:choose:2:1"]);
    let menu = &reply.json["data"]["components"][0]["components"][0];
    assert_eq!(menu["options"].as_array().unwrap().len(), 15);
    let n = fake.requests().len();
    let id = fake.select(&alice, &thread, 7001, "dm:choose:2:1", "=card 2");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("it is not your turn: waiting for bob"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.select(&bob, &thread, 7001, "dm:choose:2:1", "=card 2");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        content(&reply).contains("Black picks card 2 of White's battleplan"),
        "{}",
        content(&reply)
    );
    assert_settled(&fake, &outbox_table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snipe_chess_setup_and_play_by_move_and_autocomplete() {
    let fake = FakeDiscord::start().await;
    let outbox_table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, first) = two_player_match(&fake, &alice, &bob, (4, "Snipe Chess"), "", 1).await;
    assert!(
        content(&first).contains("<@100000000000000001> to play"),
        "{}",
        content(&first)
    );
    assert_eq!(png_size(&first).0, 762, "the forest picture");

    // Autocomplete offers the king's places on White's home row.
    let n = fake.requests().len();
    let id = fake.autocomplete(&alice, &thread, "move", "action", "K@");
    let reply = fake.reply_to(n, &id).await;
    let choices: Vec<String> = reply.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");
    assert!(
        choices
            .iter()
            .all(|c| c.starts_with("K@") && (c.ends_with('1') || c.ends_with('2'))),
        "{choices:?}"
    );

    let move_cmd = |who: &Value, text: &str| fake.move_command(who, &thread, text);
    let n = fake.requests().len();
    let id = move_cmd(&alice, "K@e5");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply)
            && content(&reply).contains("e5 is not on your home row of cards (ranks 1 and 2)"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = move_cmd(&alice, &choices[0]);
    let reply = fake.reply_to(n, &id).await;
    assert!(!ephemeral(&reply), "{reply:?}");
    assert!(
        content(&reply).contains(&format!("White places the king on {}", &choices[0][2..]))
            && content(&reply).contains("<@100000000000000002> to play"),
        "{}",
        content(&reply)
    );
    assert_eq!(png_size(&reply).0, 762);
    let n = fake.requests().len();
    let id = move_cmd(&alice, "P@a1");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("it is not your turn: waiting for bob"),
        "{reply:?}"
    );
    assert_settled(&fake, &outbox_table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess_a_tete_choices_stay_private_and_the_defender_answers() {
    let fake = FakeDiscord::start().await;
    let outbox_table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let carol = user("100000000000000003", "carol");
    // Custom decks that meet the criteria: White attacks with Skirmishes, Black holds Blocks.
    let deck = |actions: &str| {
        format!("\"King, Queen, 14 Skirmish, Checkmate, 10 {actions}, 16 Peasant, 12 Knight\"")
    };
    let options = format!(
        "white_deck={} black_deck={}",
        deck("Reinforcements"),
        deck("Block")
    );
    let (thread, first) =
        two_player_match(&fake, &alice, &bob, (5, "Chess-à-Tête"), &options, 1).await;
    assert_eq!(custom_ids(&first), ["dm:mine:1"], "one private button");
    assert!(
        content(&first).contains("<@100000000000000001> to play"),
        "{}",
        content(&first)
    );

    // A stranger and the player not to act learn so privately; nobody's hand is shown.
    let n = fake.requests().len();
    let id = fake.press(&carol, &thread, 8000, "dm:mine:1");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("you are not playing in match #1"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.press(&bob, &thread, 8000, "dm:mine:1");
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply)
            && content(&reply)
                .contains("Nothing for you to do in match #1 now (waiting for alice)"),
        "{reply:?}"
    );
    assert!(custom_ids(&reply).is_empty());
    assert!(!reply.files.is_empty(), "bob's own view");

    // Play on, each player choosing privately, until White attacks and Black is asked.
    let mut to_act = alice.clone();
    let mut blocked = false;
    for _ in 0..60 {
        let n = fake.requests().len();
        let id = fake.press(&to_act, &thread, 8000, "dm:mine:1");
        let mine = fake.reply_to(n, &id).await;
        assert!(ephemeral(&mine), "{mine:?}");
        assert!(
            !mine.files.is_empty(),
            "their own view comes with the choices"
        );
        let (text, public) = choose(
            &fake,
            &to_act,
            &thread,
            mine,
            &[
                "play Block",
                "attack",
                "play Peasant",
                "play Knight",
                "end",
                "take",
            ],
        )
        .await;
        assert!(!ephemeral(&public), "{public:?}");
        assert!(!public.files.is_empty(), "the new board for everyone");
        assert_eq!(custom_ids(&public), ["dm:mine:1"], "no choice shown to all");
        let said = content(&public);
        if text == "play Block" {
            assert!(said.contains("Black plays Block"), "{said}");
            blocked = true;
            break;
        }
        if said.contains("<@100000000000000002> to play") && text.starts_with("attack") {
            // Black is asked in the middle of White's turn; White hears whom the bot waits for.
            let n = fake.requests().len();
            let id = fake.press(&alice, &thread, 8000, "dm:mine:1");
            let reply = fake.reply_to(n, &id).await;
            assert!(
                ephemeral(&reply) && content(&reply).contains("(waiting for bob)"),
                "{reply:?}"
            );
        }
        to_act = if said.contains("<@100000000000000002> to play") {
            bob.clone()
        } else {
            alice.clone()
        };
    }
    assert!(blocked, "Black answered an attack with Block");
    assert_settled(&fake, &outbox_table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_list_of_moves_comes_as_a_grouped_menu() {
    let fake = FakeDiscord::start().await;
    let outbox_table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, first) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    // Twenty first moves fit in one menu.
    assert_eq!(custom_ids(&first), ["dm:choose:1:0"]);
    assert_eq!(offered(&first).len(), 20);
    let move_cmd = |who: &Value, text: &str| fake.move_command(who, &thread, text);
    let n = fake.requests().len();
    let id = move_cmd(&alice, "e4");
    fake.reply_to(n, &id).await;
    let n = fake.requests().len();
    let id = move_cmd(&bob, "e5");
    let board = fake.reply_to(n, &id).await;

    // White now has more than 25 moves: the menu groups them by their first letter.
    let options = offered(&board);
    assert!(options.len() <= 25, "{options:?}");
    let group = options
        .iter()
        .find(|(_, v)| v.as_deref().is_some_and(|v| v.starts_with('>')))
        .unwrap_or_else(|| panic!("a group: {options:?}"))
        .clone();
    let (menu, value) = (group.0.clone(), group.1.clone().unwrap());
    assert_eq!(menu, "dm:choose:1:2");
    let prefix = value[1..].to_string();

    // Only the player to act may open it; it opens privately with that group's moves.
    let n = fake.requests().len();
    let id = fake.select(&bob, &thread, 9100, &menu, &value);
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("It is not your turn: waiting for alice"),
        "{reply:?}"
    );
    let n = fake.requests().len();
    let id = fake.select(&alice, &thread, 9100, &menu, &value);
    let inner = fake.reply_to(n, &id).await;
    assert!(ephemeral(&inner), "{inner:?}");
    let moves: Vec<String> = offered(&inner).iter().map(offered_text).collect();
    assert!(
        moves.len() > 1 && moves.iter().all(|m| m.starts_with(&prefix)),
        "{prefix}: {moves:?}"
    );
    let (played, reply) = choose(&fake, &alice, &thread, inner, &[]).await;
    assert!(!ephemeral(&reply));
    assert!(
        content(&reply).contains(&format!("White plays {played}")),
        "{}",
        content(&reply)
    );

    // The old menu has moved on.
    let n = fake.requests().len();
    let id = fake.select(&alice, &thread, 9100, &menu, &value);
    let reply = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&reply) && content(&reply).contains("has moved on"),
        "{reply:?}"
    );
    assert_settled(&fake, &outbox_table).await;
}

/// Echek deals nothing at random, so the library finds the way to a move that closes in its
/// player's own king, and the match in Discord follows it.
fn echek_path_to_a_losing_move() -> (Vec<(usize, String)>, (usize, String)) {
    use deckmate::engine::{GameRng, ToAct};
    use deckmate::games::GameKind;
    for seed in 0..300 {
        let mut rng = GameRng::from_seed(0);
        let mut chooser = GameRng::from_seed(seed);
        let mut game = GameKind::Echek.start(&[], 2, &mut rng).unwrap();
        let mut path = Vec::new();
        for _ in 0..200 {
            let ToAct::Seats(seats) = game.to_act() else {
                break;
            };
            let seat = seats[0];
            let losing = game
                .legal_actions(seat)
                .into_iter()
                .find(|t| game.warning(seat, t).is_some());
            if let Some(text) = losing {
                return (path, (seat.index(), text));
            }
            let text = game.random_action(seat, &mut chooser).unwrap();
            game.play(seat, &text, &mut rng).unwrap();
            path.push((seat.index(), text));
        }
    }
    panic!("no losing Echek move within 300 random games");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_loses_on_the_spot_is_confirmed_by_its_player_only() {
    let fake = FakeDiscord::start().await;
    let outbox_table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let players = [&alice, &bob];
    let (thread, _) = two_player_match(&fake, &alice, &bob, (3, "Echek n°1"), "", 1).await;
    let move_cmd = |who: &Value, text: &str| fake.move_command(who, &thread, text);
    let (path, (seat, losing)) = echek_path_to_a_losing_move();
    for (seat, text) in &path {
        let n = fake.requests().len();
        let id = move_cmd(players[*seat], text);
        let reply = fake.reply_to(n, &id).await;
        assert!(!ephemeral(&reply), "{text}: {reply:?}");
    }
    // The losing move is not played: its player alone is asked, with a button.
    let n = fake.requests().len();
    let id = move_cmd(players[seat], &losing);
    let asked = fake.reply_to(n, &id).await;
    assert!(ephemeral(&asked), "{asked:?}");
    assert!(
        content(&asked).contains("and loses") && content(&asked).ends_with("Play it anyway?"),
        "{}",
        content(&asked)
    );
    let button = custom_ids(&asked)
        .into_iter()
        .find(|c| c.starts_with("dm:sure:"))
        .expect("a confirmation button");
    // The opponent pressing it plays nothing.
    let n = fake.requests().len();
    let id = fake.press(players[1 - seat], &thread, 9001, &button);
    let refused = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&refused) && content(&refused).contains("it is not your turn"),
        "{refused:?}"
    );
    // Its player pressing it plays it, and loses.
    let n = fake.requests().len();
    let id = fake.press(players[seat], &thread, 9001, &button);
    let played = fake.reply_to(n, &id).await;
    assert!(!ephemeral(&played), "{played:?}");
    let loser = ["White", "Black"][seat];
    assert!(
        content(&played).contains(&format!("Game over: {}", ["Black", "White"][seat]))
            && content(&played).contains(loser),
        "{}",
        content(&played)
    );
    assert_eq!(
        custom_ids(&played),
        ["dm:again:1"],
        "no choices under a finished match: only the rematch"
    );
    // Pressed again: the match is over, nothing changes.
    let n = fake.requests().len();
    let id = fake.press(players[seat], &thread, 9001, &button);
    let again = fake.reply_to(n, &id).await;
    assert!(
        ephemeral(&again) && content(&again).contains("is over"),
        "{again:?}"
    );
    assert_settled(&fake, &outbox_table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_posts_the_match_as_an_animated_gif() {
    let fake = FakeDiscord::start().await;
    let outbox_table = start_bot(&fake).await;
    let alice = user("100000000000000001", "alice");
    let bob = user("100000000000000002", "bob");
    let (thread, _) = two_player_match(&fake, &alice, &bob, (0, "Chess"), "", 1).await;
    let n = fake.requests().len();
    let id = fake.move_command(&alice, &thread, "e4");
    fake.reply_to(n, &id).await;
    let n = fake.requests().len();
    let id = fake.command(&bob, &thread, "replay", json!([]), json!({}));
    let reply = fake.reply_to(n, &id).await;
    assert!(!ephemeral(&reply), "{reply:?}");
    assert_eq!(content(&reply), "Match #1, replayed: 1 action.");
    assert_eq!(reply.files.len(), 1, "{reply:?}");
    assert!(reply.files[0].1.starts_with(b"GIF89a"));
    // Another server's match, or none at all, is refused by name.
    let n = fake.requests().len();
    let id = fake.command(
        &bob,
        CHANNEL,
        "replay",
        json!([{"name": "match", "type": 4, "value": 7}]),
        json!({}),
    );
    let refused = fake.reply_to(n, &id).await;
    assert!(ephemeral(&refused));
    assert!(
        content(&refused).contains("there is no match #7"),
        "{refused:?}"
    );
    assert_settled(&fake, &outbox_table).await;
}
#[path = "discord_e2e/web_links.rs"]
mod web_links;
