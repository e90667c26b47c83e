use super::*;
use crate::discord::format::boards::action_components;
use crate::discord::format::options::{GameChoice, parse_options};
use crate::discord::shared::autocomplete::filter_actions;
use crate::discord::shared::challenges::challenge_problem;
use poise::serenity_prelude as serenity;
use serde_json::Value;
use std::path::PathBuf;

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    }
}

#[test]
fn a_missing_token_says_what_to_do() {
    let err = BotConfig::from_vars(vars(&[])).unwrap_err();
    assert_eq!(err, ConfigError::MissingToken);
    let text = err.to_string();
    for needle in ["DISCORD_TOKEN", ".env.example", "deckmate play"] {
        assert!(text.contains(needle), "{needle} missing from: {text}");
    }
    assert_eq!(
        BotConfig::from_vars(vars(&[("DISCORD_TOKEN", "  ")])).unwrap_err(),
        ConfigError::MissingToken
    );
}

#[test]
fn a_postgres_url_and_shard_ranges_are_read_and_checked() {
    let with = |pairs: &[(&str, &str)]| {
        let mut all = vec![("DISCORD_TOKEN", "a.b.c")];
        all.extend_from_slice(pairs);
        BotConfig::from_vars(vars(&all))
    };
    let config = with(&[]).unwrap();
    assert_eq!((config.database_url, config.shards), (None, Shards::One));
    let url = "postgres://bot:s3cret@db.internal/deckmate?sslmode=disable";
    let config = with(&[
        ("DATABASE_URL", url),
        ("SHARDS", "4-7"),
        ("SHARD_TOTAL", "16"),
    ])
    .unwrap();
    assert_eq!(config.database_url.as_deref(), Some(url));
    let shown = format!("{config:?}");
    assert!(!shown.contains("s3cret"), "{shown}");
    assert!(
        shown.contains("postgres://bot:***@db.internal/deckmate"),
        "{shown}"
    );
    assert_eq!(
        config.shards,
        Shards::Range {
            first: 4,
            last: 7,
            total: 16
        }
    );
    let one = with(&[("SHARDS", "3"), ("SHARD_TOTAL", "4")]).unwrap();
    assert_eq!(
        one.shards,
        Shards::Range {
            first: 3,
            last: 3,
            total: 4
        }
    );
    assert_eq!(with(&[("SHARDS", "AUTO")]).unwrap().shards, Shards::Auto);
    let refused = |pairs: &[(&str, &str)]| with(pairs).unwrap_err().to_string();
    assert_eq!(
        refused(&[("DATABASE_URL", "/data/d.db")]),
        "DATABASE_URL must be a postgres:// URL (use DATABASE_PATH for an SQLite file)"
    );
    assert_eq!(
        refused(&[("SHARDS", "0-3")]),
        "SHARDS 0-3 needs SHARD_TOTAL, the number of shards of all processes together"
    );
    assert_eq!(
        refused(&[("SHARDS", "2-9"), ("SHARD_TOTAL", "8")]),
        "SHARDS 2-9 does not fit in SHARD_TOTAL 8 (shards are numbered from 0)"
    );
    assert_eq!(
        refused(&[("SHARDS", "3-1"), ("SHARD_TOTAL", "8")]),
        "SHARDS is `auto`, one shard (`3`) or a range (`0-3`), not \"3-1\""
    );
    assert_eq!(
        refused(&[("SHARDS", "all")]),
        "SHARDS is `auto`, one shard (`3`) or a range (`0-3`), not \"all\""
    );
    assert_eq!(
        refused(&[("SHARDS", "0-1"), ("SHARD_TOTAL", "99999999999")]),
        "SHARD_TOTAL must be a whole number from 1 to 100000, not \"99999999999\""
    );
    assert_eq!(
        refused(&[("SHARD_TOTAL", "4")]),
        "SHARD_TOTAL needs SHARDS, the shards this process runs"
    );
}

#[test]
fn the_metrics_address_is_a_port_on_the_loopback_or_an_address() {
    let with = |value: &str| {
        BotConfig::from_vars(vars(&[("DISCORD_TOKEN", "a.b.c"), ("METRICS_ADDR", value)]))
    };
    let none = BotConfig::from_vars(vars(&[("DISCORD_TOKEN", "a.b.c")])).unwrap();
    assert_eq!(none.metrics, None);
    assert_eq!(
        with("9187").unwrap().metrics,
        Some("127.0.0.1:9187".parse().unwrap())
    );
    assert_eq!(
        with("[::1]:9000").unwrap().metrics,
        Some("[::1]:9000".parse().unwrap())
    );
    for bad in ["99999", "localhost:9187", "9187; rm -rf /"] {
        assert_eq!(
            with(bad).unwrap_err().to_string(),
            format!(
                "METRICS_ADDR is a port (9187, on 127.0.0.1) or an address and port (127.0.0.1:9187), not {bad:?}"
            )
        );
    }
}

#[test]
fn configuration_defaults_and_checks() {
    let config = BotConfig::from_vars(vars(&[("DISCORD_TOKEN", "a.b.c")])).unwrap();
    assert_eq!(config.database_path, PathBuf::from("deckmate.db"));
    assert_eq!(config.dev_guild, None);
    let config = BotConfig::from_vars(vars(&[
        ("DISCORD_TOKEN", "a.b.c"),
        ("DATABASE_PATH", "/data/d.db"),
        ("DEV_GUILD_ID", "123"),
    ]))
    .unwrap();
    assert_eq!(
        (config.database_path, config.dev_guild),
        (PathBuf::from("/data/d.db"), Some(123))
    );
    let err = BotConfig::from_vars(vars(&[
        ("DISCORD_TOKEN", "a.b.c"),
        ("DEV_GUILD_ID", "my server"),
    ]))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "DEV_GUILD_ID must be a server id (a number), not \"my server\""
    );
}

#[test]
fn message_reading_and_another_discord_server_are_configured() {
    let config = BotConfig::from_vars(vars(&[("DISCORD_TOKEN", "a.b.c")])).unwrap();
    assert_eq!((config.chat, config.api_url), (ChatMode::Mentions, None));
    assert!(!intents(ChatMode::Mentions).contains(serenity::GatewayIntents::MESSAGE_CONTENT));
    assert!(intents(ChatMode::All).contains(
        serenity::GatewayIntents::MESSAGE_CONTENT | serenity::GatewayIntents::DIRECT_MESSAGES
    ));
    let config = BotConfig::from_vars(vars(&[
        ("DISCORD_TOKEN", "a.b.c"),
        ("MESSAGE_CONTENT", "ON"),
        ("DISCORD_API_URL", "https://chat.example.org/api/"),
        ("DISCORD_API_CA", "/etc/deckmate/ca.pem"),
    ]))
    .unwrap();
    assert_eq!(config.chat, ChatMode::All);
    assert_eq!(
        config.api_ca.as_deref(),
        Some(std::path::Path::new("/etc/deckmate/ca.pem"))
    );
    assert_eq!(
        config.api_url.as_deref(),
        Some("https://chat.example.org/api")
    );
    for (name, value, words) in [
        ("MESSAGE_CONTENT", "maybe", "MESSAGE_CONTENT is on or off"),
        (
            "DISCORD_API_URL",
            "chat.example.org",
            "must start with http",
        ),
        (
            "COMPUTER_THREADS",
            "0",
            "COMPUTER_THREADS must be a whole number from 1 to 64, not \"0\"",
        ),
        (
            "COMPUTER_PAUSE_MS",
            "99999999999999999999",
            "COMPUTER_PAUSE_MS must be a whole number from 0 to 60000",
        ),
    ] {
        let err =
            BotConfig::from_vars(vars(&[("DISCORD_TOKEN", "a.b.c"), (name, value)])).unwrap_err();
        assert!(err.to_string().contains(words), "{err}");
    }
}

#[test]
fn the_computer_s_threads_and_pause_are_read() {
    let config = BotConfig::from_vars(vars(&[
        ("DISCORD_TOKEN", "a.b.c"),
        ("COMPUTER_THREADS", "3"),
        ("COMPUTER_PAUSE_MS", "250"),
    ]))
    .unwrap();
    assert_eq!(config.thinking.threads, 3);
    assert_eq!(config.thinking.pause, std::time::Duration::from_millis(250));
    let config = BotConfig::from_vars(vars(&[("DISCORD_TOKEN", "a.b.c")])).unwrap();
    assert_eq!(
        config.thinking.pause,
        std::time::Duration::from_millis(1500)
    );
    assert!(config.thinking.threads >= 1);
}

#[test]
fn the_configuration_never_shows_its_token() {
    let config = BotConfig::from_vars(vars(&[
        ("DISCORD_TOKEN", "MTAw.secret-part.xyz"),
        ("DEV_GUILD_ID", "123"),
    ]))
    .unwrap();
    assert_eq!(
        format!("{config:?}"),
        format!(
            "BotConfig {{ token: \"[redacted]\", database_path: \"deckmate.db\", database_url: None, shards: One, dev_guild: Some(123), chat: Mentions, api_url: None, api_ca: None, thinking: {:?}, metrics: None, web: None, public_url: None }}",
            crate::table::thinking::ThinkingConfig::default()
        )
    );
    assert!(!format!("{config:#?}").contains("secret-part"));
}

#[test]
fn button_ids_carry_the_match_and_version() {
    for action in [
        ButtonAction::AcceptChallenge(7),
        ButtonAction::DeclineChallenge(7),
        ButtonAction::OldChallenge,
        ButtonAction::AcceptDraw {
            match_id: 3,
            version: 12,
        },
        ButtonAction::DeclineDraw {
            match_id: 3,
            version: 12,
        },
        ButtonAction::Act {
            match_id: 3,
            version: 12,
            text: "escape -1,2 card 3".into(),
        },
        ButtonAction::Choose {
            match_id: 3,
            version: 12,
        },
        ButtonAction::Mine { match_id: 3 },
        ButtonAction::ClaimWin { match_id: 3 },
        ButtonAction::WaitOnTime { match_id: 3 },
        ButtonAction::Rematch { match_id: 3 },
    ] {
        let id = action.custom_id();
        assert!(id.len() <= 100, "Discord's custom id limit");
        assert_eq!(ButtonAction::parse(&id), Some(action));
    }
    for junk in [
        "",
        "dm",
        "dm:draw:x:1:accept",
        "dm:draw:1:1:maybe",
        "dm:act:1:1:",
        "dm:act:x:1:ready",
        "dm:choose:1",
        "dm:mine:x",
        "dm:wait:x",
        "dm:claim:",
        "other:challenge:1:accept",
    ] {
        assert_eq!(ButtonAction::parse(junk), None, "{junk}");
    }
    // Buttons of the challenges kept in memory before: never taken for a stored challenge.
    assert_eq!(
        ButtonAction::parse("dm:challenge:1:accept"),
        Some(ButtonAction::OldChallenge)
    );
}

#[test]
fn options_autocomplete_and_challenges() {
    assert_eq!(
        parse_options("unable_to_enthrall_loses=true, promoted_enthrallable=false").unwrap(),
        vec![
            ("unable_to_enthrall_loses".to_string(), "true".to_string()),
            ("promoted_enthrallable".to_string(), "false".to_string())
        ]
    );
    assert!(parse_options("fast").unwrap_err().contains("key=value"));
    assert_eq!(
        parse_options("white_deck=\"4 Knight, Rook x4\" fast=true").unwrap(),
        vec![
            ("white_deck".to_string(), "4 Knight, Rook x4".to_string()),
            ("fast".to_string(), "true".to_string()),
        ]
    );
    assert_eq!(
        parse_options("black_deck=“King, Queen”").unwrap(),
        vec![("black_deck".to_string(), "King, Queen".to_string())]
    );
    assert!(
        parse_options("white_deck=\"King, Queen")
            .unwrap_err()
            .contains("not closed")
    );
    assert!(parse_options("").unwrap().is_empty());

    let legal: Vec<String> = (0..40)
        .map(|i| format!("a{i}"))
        .chain(["Nf3".into(), "Kf3".into(), "f3".into()])
        .collect();
    assert_eq!(
        filter_actions(legal.clone(), "f3"),
        vec!["f3", "Nf3", "Kf3"],
        "starts-with first"
    );
    assert_eq!(
        filter_actions(legal.clone(), "NF"),
        vec!["Nf3"],
        "case ignored"
    );
    assert_eq!(
        filter_actions(legal, "").len(),
        25,
        "Discord shows at most 25"
    );

    let user = |id: u64, bot: bool| {
        let mut u = serenity::User::default();
        u.id = serenity::UserId::new(id);
        u.name = format!("user{id}");
        u.bot = bot;
        u
    };
    assert_eq!(challenge_problem(&[user(1, false), user(2, false)]), None);
    assert_eq!(
        challenge_problem(&[user(1, false), user(1, false)]).unwrap(),
        "You cannot challenge yourself."
    );
    assert_eq!(
        challenge_problem(&[user(1, false), user(2, true)]).unwrap(),
        "Bots cannot play; challenge people."
    );
    assert_eq!(
        challenge_problem(&[user(1, false), user(2, false), user(2, false)]).unwrap(),
        "user2 is named twice."
    );
}

/// Discord's documented limits for chat-input commands: names 1-32 characters of lower-case
/// letters, digits, '-' and '_'; descriptions 1-100; at most 25 options, required ones first;
/// at most 25 choices of at most 100 characters; 4000 characters in all per command.
#[test]
fn command_definitions_fit_discords_limits() {
    let commands = poise::builtins::create_application_commands(&commands());
    assert_eq!(commands.len(), 19);
    let valid_name = |name: &str| {
        (1..=32).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    };
    let mut names = Vec::new();
    for command in &commands {
        let json = serde_json::to_value(command).unwrap();
        let name = json["name"].as_str().unwrap().to_string();
        assert!(valid_name(&name), "command name {name:?}");
        let description = json["description"].as_str().unwrap();
        assert!(
            (1..=100).contains(&description.chars().count()),
            "/{name} description: {description:?}"
        );
        let options = json["options"].as_array().cloned().unwrap_or_default();
        assert!(options.len() <= 25, "/{name} has {} options", options.len());
        let mut total = name.len() + description.len();
        let mut seen_optional = false;
        for option in &options {
            let oname = option["name"].as_str().unwrap();
            let odesc = option["description"].as_str().unwrap();
            assert!(valid_name(oname), "/{name} option {oname:?}");
            assert!(
                (1..=100).contains(&odesc.chars().count()),
                "/{name} {oname}: {odesc:?}"
            );
            let required = option["required"].as_bool().unwrap_or(false);
            assert!(
                !(required && seen_optional),
                "/{name}: required {oname} after an optional option"
            );
            seen_optional |= !required;
            let choices = option["choices"].as_array().cloned().unwrap_or_default();
            assert!(
                choices.len() <= 25,
                "/{name} {oname}: {} choices",
                choices.len()
            );
            for choice in &choices {
                let label = choice["name"].as_str().unwrap();
                assert!(
                    (1..=100).contains(&label.chars().count()),
                    "choice {label:?}"
                );
                total += label.len();
            }
            total += oname.len() + odesc.len();
        }
        assert!(total <= 4000, "/{name} is {total} characters");
        names.push(name);
    }
    names.sort();
    assert_eq!(
        names,
        [
            "admin",
            "board",
            "draw",
            "export",
            "games",
            "history",
            "leaderboard",
            "league",
            "move",
            "nudge",
            "play",
            "rating",
            "replay",
            "resign",
            "rules",
            "settings",
            "time",
            "vacation",
            "view"
        ]
    );
    let play = commands
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .find(|c| c["name"] == "play")
        .unwrap();
    let option_names: Vec<&str> = play["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        option_names,
        [
            "game",
            "opponent",
            "opponent2",
            "opponent3",
            "options",
            "time",
            "rated",
            "against",
            "level",
            "seat"
        ]
    );
    let game_choices: Vec<&Value> = play["options"][0]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(
        game_choices.len(),
        crate::games::GameKind::ALL.len(),
        "every game can be chosen"
    );
    let action = commands
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .find(|c| c["name"] == "move")
        .unwrap();
    assert_eq!(action["options"][0]["autocomplete"], Value::Bool(true));
}

#[test]
fn every_game_can_be_challenged_and_has_a_rules_summary() {
    use poise::ChoiceParameter;
    let offered: Vec<crate::games::GameKind> = (0..GameChoice::list().len())
        .map(|i| GameChoice::from_index(i).unwrap().kind())
        .collect();
    assert_eq!(offered, crate::games::GameKind::ALL);
    for kind in crate::games::GameKind::ALL {
        let summary = crate::discord::commands::rules_summary(kind);
        assert!(summary.contains(kind.name()), "{summary}");
        assert!(summary.len() <= 2000, "Discord's message limit: {kind}");
    }
}

#[test]
fn no_choices_make_no_row_of_buttons() {
    // Discord refuses an action row with nothing in it.
    assert!(action_components(&[], "", 1, 0).is_empty());
    let one = action_components(&["e4".to_string()], "", 1, 0);
    assert_eq!(one.len(), 1);
}

mod fuzz {
    //! Every text a member types into a setting, a league command or a component's id:
    //! accepted, or refused with words; never a panic. Ids that parse read back the same.

    use super::*;
    use crate::discord::format::menu::{Entry, Pick};
    use crate::discord::format::options::{read_channels, read_cooldown};
    use crate::league::standings::{Scoring, parse_tiebreaks};
    use crate::store::Settings;
    use crate::table::time_control::TimeControl;
    use proptest::prelude::*;

    /// Texts built from the pieces these readers look for, and strays.
    fn near(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(pieces).prop_map(str::to_string),
                "[0-9]{1,22}",
                "\\PC{0,3}",
            ],
            0..8,
        )
        .prop_map(|parts| parts.concat())
    }

    const SETTING_PIECES: &[&str] = &[
        ":",
        "-",
        "+",
        " ",
        ",",
        "/",
        "<#",
        ">",
        "UTC",
        "gmt",
        "Europe/Paris",
        "America/New_York",
        "off",
        "anywhere",
        "d",
        "h",
        "m",
        "s",
        "=",
        "\"",
    ];

    const ID_PIECES: &[&str] = &[
        "dm:",
        "act:",
        "sure:",
        "chal:",
        "challenge:",
        "draw:",
        "choose:",
        "mine:",
        "claim:",
        "wait:",
        "again:",
        ":",
        "accept",
        "decline",
        "-",
        "=",
        ">",
    ];

    fn button() -> impl Strategy<Value = ButtonAction> {
        let id = any::<i64>();
        let version = any::<u64>();
        let text = "\\PC{1,40}";
        prop_oneof![
            id.prop_map(ButtonAction::AcceptChallenge),
            id.prop_map(ButtonAction::DeclineChallenge),
            Just(ButtonAction::OldChallenge),
            (id, version)
                .prop_map(|(match_id, version)| ButtonAction::AcceptDraw { match_id, version }),
            (id, version)
                .prop_map(|(match_id, version)| ButtonAction::DeclineDraw { match_id, version }),
            (id, version, text).prop_map(|(match_id, version, text)| ButtonAction::Act {
                match_id,
                version,
                text
            }),
            (id, version, text).prop_map(|(match_id, version, text)| ButtonAction::Confirm {
                match_id,
                version,
                text
            }),
            (id, version)
                .prop_map(|(match_id, version)| ButtonAction::Choose { match_id, version }),
            id.prop_map(|match_id| ButtonAction::Mine { match_id }),
            id.prop_map(|match_id| ButtonAction::ClaimWin { match_id }),
            id.prop_map(|match_id| ButtonAction::WaitOnTime { match_id }),
            id.prop_map(|match_id| ButtonAction::Rematch { match_id }),
        ]
    }

    fn refused_with_words<T>(result: Result<T, String>) -> Result<(), TestCaseError> {
        if let Err(why) = result {
            prop_assert!(!why.trim().is_empty());
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(crate::fuzzing::config(256))]

        #[test]
        fn fuzz_settings_values_are_read_or_refused_with_words(
            text in prop_oneof![near(SETTING_PIECES), "\\PC{0,60}"],
            now in any::<i64>(),
        ) {
            match Settings::read_quiet(&text) {
                Ok((start, end)) => prop_assert!(start < 24 * 60 && end < 24 * 60 && start != end),
                Err(why) => prop_assert!(!why.trim().is_empty()),
            }
            match Settings::read_zone(&text) {
                Ok(zone) => {
                    // A zone read reads back from its own name, and quiet hours in it end
                    // after any moment, or do not hold then.
                    prop_assert_eq!(Settings::read_zone(&zone.to_string()), Ok(zone.clone()));
                    let settings = Settings { quiet: Some((22 * 60, 7 * 60)), zone, ..Settings::default() };
                    if let Some(until) = settings.quiet_until(now) {
                        prop_assert!(until > now && until - now <= 26 * 3600, "{now} -> {until}");
                    }
                }
                Err(why) => prop_assert!(!why.trim().is_empty()),
            }
            refused_with_words(read_channels(&text))?;
            match read_cooldown(&text) {
                Ok(seconds) => prop_assert!((0..=7 * 86_400).contains(&seconds)),
                Err(why) => prop_assert!(!why.trim().is_empty()),
            }
            refused_with_words(TimeControl::parse(&text))?;
        }

        #[test]
        fn fuzz_league_and_play_arguments_are_read_or_refused_with_words(
            text in prop_oneof![
                near(&["1", "0", ".5", "½", ",", " ", "buchholz", "median-buchholz",
                       "sonneborn-berger", "wins", "key", "=", "\"", "“", "3d", "+", "max"]),
                "\\PC{0,60}",
            ],
        ) {
            match Scoring::parse(&text) {
                Ok(scoring) => prop_assert_eq!(Scoring::parse(&scoring.show()), Ok(scoring)),
                Err(why) => prop_assert!(!why.trim().is_empty()),
            }
            refused_with_words(parse_tiebreaks(&text))?;
            refused_with_words(parse_options(&text))?;
        }

        #[test]
        fn fuzz_custom_ids_that_parse_read_back_the_same(
            id in prop_oneof![near(ID_PIECES), "\\PC{0,60}"],
        ) {
            if let Some(action) = ButtonAction::parse(&id) {
                prop_assert_eq!(ButtonAction::parse(&action.custom_id()), Some(action));
            }
            if let Some(pick) = Pick::from_value(&id) {
                let entry = match &pick {
                    Pick::Act(text) => Entry::Act(text.clone()),
                    Pick::More(prefix) => Entry::More { prefix: prefix.clone(), count: 2 },
                };
                prop_assert_eq!(Pick::from_value(&entry.value()), Some(pick));
            }
        }

        #[test]
        fn fuzz_every_button_reads_back_from_its_custom_id(action in button()) {
            prop_assert_eq!(ButtonAction::parse(&action.custom_id()), Some(action));
        }
    }
}

mod floors {
    //! The adapter's floors (see `mod.rs`): a file uses only its own floor and those below it,
    //! no file but the command list names a command group, commands and events never use each
    //! other, and no files use each other in a circle.

    use std::collections::{BTreeMap, BTreeSet};
    use std::path::{Path, PathBuf};

    /// A file's floor by where it is: the root's types and configuration, builders, shared
    /// lookups and senders, command groups and event handlers, and start-up on top.
    fn floor(file: &str) -> u8 {
        match file.split('/').next() {
            Some("mod.rs" | "config.rs") => 0,
            Some("format") => 1,
            Some("shared") => 2,
            Some("commands" | "events") => 3,
            _ => 4,
        }
    }

    /// Every `crate::discord::…` path in `code`, braces expanded (`a::{b, c::d}`).
    fn paths(code: &str) -> Vec<String> {
        const START: &str = "crate::discord::";
        let mut out = Vec::new();
        let mut rest = code;
        while let Some(at) = rest.find(START) {
            rest = &rest[at + START.len()..];
            let end = tree_end(rest);
            expand("", &rest[..end], &mut out);
            rest = &rest[end..];
        }
        out
    }

    /// Where the use tree at the start of `text` ends.
    fn tree_end(text: &str) -> usize {
        let mut depth = 0;
        for (i, c) in text.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth > 0 => depth -= 1,
                c if depth == 0 && !(c.is_alphanumeric() || c == '_' || c == ':') => return i,
                _ => {}
            }
        }
        text.len()
    }

    fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
        let tree = tree.trim();
        let Some(open) = tree.find('{') else {
            out.push(format!("{prefix}{tree}"));
            return;
        };
        let prefix = format!("{prefix}{}", &tree[..open]);
        let inner = &tree[open + 1..tree.len() - 1];
        let (mut depth, mut from) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&prefix, &inner[from..i], out);
                    from = i + 1;
                }
                _ => {}
            }
        }
        if !inner[from..].trim().is_empty() {
            expand(&prefix, &inner[from..], out);
        }
    }

    /// The file a path leads to (relative to src/discord), following its modules.
    fn file_of(root: &Path, path: &str) -> String {
        let mut dir = PathBuf::new();
        let mut file = "mod.rs".to_string();
        for segment in path.split("::").filter(|s| !s.is_empty() && *s != "self") {
            let as_file = dir.join(format!("{segment}.rs"));
            let as_dir = dir.join(segment);
            if root.join(&as_file).is_file() {
                file = as_file.to_string_lossy().into_owned();
                dir = as_dir;
            } else if root.join(as_dir.join("mod.rs")).is_file() {
                file = as_dir.join("mod.rs").to_string_lossy().into_owned();
                dir = as_dir;
            } else {
                break;
            }
        }
        // The root's own types are for every floor; anything else it re-exports (the
        // framework, the command list, a module) is reached by its own path, so that its floor
        // shows: through the root it would pass for the lowest.
        let own = ["Data", "Error", "Context"];
        let first = path.split("::").next().unwrap_or_default();
        if file == "mod.rs" && !own.contains(&first) {
            return format!("a re-export in mod.rs ({path})");
        }
        file
    }

    /// A file's code as the floors see it: comment lines and every `#[cfg(test)]` item (a
    /// test module, a re-export for tests) left out, and only those: code after such an item
    /// still counts.
    fn code_of(text: &str) -> String {
        const TEST_ONLY: &str = "#[cfg(test)]";
        let text: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut code = String::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find(TEST_ONLY) {
            code.push_str(&rest[..at]);
            rest = &rest[at + TEST_ONLY.len()..];
            // The item ends at its first `;` outside braces, or where its first block closes.
            let mut depth = 0;
            let mut end = rest.len();
            for (i, c) in rest.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => {
                        depth -= 1;
                        if depth == 0 {
                            end = i + 1;
                            break;
                        }
                    }
                    ';' if depth == 0 => {
                        end = i + 1;
                        break;
                    }
                    _ => {}
                }
            }
            rest = &rest[end..];
        }
        code.push_str(rest);
        code
    }

    #[test]
    fn code_after_a_test_only_item_still_counts() {
        let text = "use crate::discord::format::logs;\n\
                    #[cfg(test)]\n\
                    pub(crate) use crate::discord::events::chat;\n\
                    pub fn f() { crate::discord::commands::play::x(); }\n\
                    #[cfg(test)]\n\
                    mod tests { use crate::discord::startup::run; fn g() { {} } }\n\
                    // crate::discord::events::direct\n\
                    fn h() { crate::discord::shared::home::y(); }\n";
        assert_eq!(
            paths(&code_of(text)),
            ["format::logs", "commands::play::x", "shared::home::y"]
        );
    }

    /// Each source file of the adapter (tests left out) and the files it uses.
    fn uses() -> BTreeMap<String, BTreeSet<String>> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/discord");
        let mut files = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).expect("src/discord reads") {
                let path = entry.expect("an entry reads").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && !path.ends_with("tests.rs")
                    && !path.parent().is_some_and(|p| p.ends_with("tests"))
                {
                    files.push(path);
                }
            }
        }
        let mut graph = BTreeMap::new();
        for path in files {
            let name = path
                .strip_prefix(&root)
                .expect("under src/discord")
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&path).expect("a source file reads");
            let code = code_of(&text);
            let mut used: BTreeSet<String> = paths(&code)
                .iter()
                .map(|p| file_of(&root, p))
                .filter(|f| *f != name)
                .collect();
            // A relative path hides which floor it reaches: every use names its file in full.
            if code.contains("super::") {
                used.insert("a super:: path".to_string());
            }
            graph.insert(name, used);
        }
        graph
    }

    #[test]
    fn the_use_tree_reader_expands_braces_and_finds_files() {
        let found = paths("use crate::discord::format::{logs, plain::{plain, plain_lines}};");
        assert_eq!(
            found,
            [
                "format::logs",
                "format::plain::plain",
                "format::plain::plain_lines"
            ]
        );
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/discord");
        assert_eq!(file_of(&root, "format::plain::plain"), "format/plain.rs");
        assert_eq!(file_of(&root, "Data"), "mod.rs");
        assert_eq!(file_of(&root, "run"), "a re-export in mod.rs (run)");
        assert_eq!(file_of(&root, "commands"), "commands/mod.rs");
    }

    #[test]
    fn every_file_uses_only_its_floor_and_the_floors_below() {
        let graph = uses();
        assert!(graph.len() > 30, "{:?}", graph.keys());
        let mut wrong = Vec::new();
        for (file, used) in &graph {
            if file.ends_with("mod.rs") && floor(file) == 0 {
                continue; // The root declares the tree and re-exports from it.
            }
            for other in used {
                let group = |f: &str| f.starts_with("commands/") && f != "commands/mod.rs";
                let side = |f: &str| f.split('/').next().unwrap_or_default().to_string();
                let across = floor(file) == 3 && floor(other) == 3 && side(file) != side(other);
                if floor(other) > floor(file)
                    || (group(other) && !file.starts_with("commands/mod.rs"))
                    || across
                {
                    wrong.push(format!("{file} uses {other}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn no_files_use_each_other_in_a_circle() {
        let graph = uses();
        // Depth-first search: a file met again while its own search is open closes a circle.
        fn visit<'a>(
            file: &'a str,
            graph: &'a BTreeMap<String, BTreeSet<String>>,
            open: &mut Vec<&'a str>,
            done: &mut BTreeSet<&'a str>,
        ) -> Option<Vec<String>> {
            if let Some(at) = open.iter().position(|f| *f == file) {
                return Some(open[at..].iter().map(|f| f.to_string()).collect());
            }
            if !done.insert(file) {
                return None;
            }
            open.push(file);
            for next in graph.get(file).into_iter().flatten() {
                if let Some(circle) = visit(next, graph, open, done) {
                    return Some(circle);
                }
            }
            open.pop();
            None
        }
        let mut done = BTreeSet::new();
        for file in graph.keys().filter(|f| !f.ends_with("mod.rs")) {
            let circle = visit(file, &graph, &mut Vec::new(), &mut done);
            assert_eq!(circle, None, "these files use each other in a circle");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pictures_are_drawn_a_few_at_a_time_however_many_are_asked_for() {
    use crate::discord::format::pictures::{drawing_slots, off_thread};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let draws: Vec<_> = (0..drawing_slots() * 4)
        .map(|i| {
            let (now, most) = (now.clone(), most.clone());
            tokio::spawn(off_thread(move || {
                let at_once = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(at_once, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(30));
                now.fetch_sub(1, Ordering::SeqCst);
                i
            }))
        })
        .collect();
    for (i, draw) in draws.into_iter().enumerate() {
        assert_eq!(draw.await.unwrap().unwrap(), i);
    }
    assert_eq!(most.load(Ordering::SeqCst), drawing_slots());
}

/// A shard catches up only the servers Discord routes to it: a server's id shifted right by
/// 22 bits, modulo the number of shards (Discord's own example: server 81384788765712384 is
/// on shard 7 of 17).
#[test]
fn a_shard_serves_the_servers_discord_routes_to_it() {
    use crate::discord::events::catch_up::Shard;
    let guild = 81_384_788_765_712_384;
    let on = |id| Shard { id, total: 17 }.serves(guild);
    assert_eq!((0..17).filter(|&id| on(id)).collect::<Vec<_>>(), [7]);
    assert!(Shard { id: 0, total: 1 }.serves(guild));
    // Every server is served by exactly one of the shards.
    for guild in [0, 1 << 22, 900_000_000_000_000_003, u64::MAX] {
        let serving = (0..4)
            .filter(|&id| Shard { id, total: 4 }.serves(guild))
            .count();
        assert_eq!(serving, 1, "server {guild}");
    }
}

#[test]
fn a_nonce_fits_discords_25_characters_and_names_its_post_and_place() {
    use crate::discord::shared::nonces::nonce;
    assert_eq!(nonce(1, 0), "o1.0");
    assert_eq!(nonce(255, 3), "off.3");
    for (post, n) in [(i64::MAX, u32::MAX), (-1, 9_999_999), (i64::MIN, 0)] {
        let made = nonce(post, n);
        assert!(made.len() <= 25, "{made}");
    }
    assert_ne!(nonce(1, 10), nonce(11, 0));
    assert_ne!(nonce(0x1a, 1), nonce(0x1, 0xa1));
}

#[test]
fn a_process_serves_the_servers_of_its_shards() {
    // A server id's shard is its timestamp part (the id shifted right 22 bits) modulo the total.
    let server_on = |shard: u64| (shard << 22).to_string();
    let range = Shards::Range {
        first: 2,
        last: 3,
        total: 4,
    };
    let served: Vec<bool> = (0..8).map(|s| range.serves(&server_on(s))).collect();
    assert_eq!(served, [false, false, true, true, false, false, true, true]);
    assert!(Shards::One.serves(&server_on(5)) && Shards::Auto.serves(&server_on(5)));
    assert!(!range.serves("not a server id"));
}
