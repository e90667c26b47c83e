//! Tests of loading at flat cost and exactly-once requests: snapshots agree with replays, an
//! unusable snapshot falls back to the log, matches keep the rules revision they began with,
//! and a request delivered twice is applied once.

use super::*;
use super::{Fixture, fixture, temp_db};
use crate::engine::ToAct;

/// The game state and random source as JSON, to compare states exactly.
fn state(live: &Live) -> String {
    crate::table::live::snapshot(live, 0, 0, 0, None).state
}

/// The state a full replay of the stored log gives.
fn replayed(store: &Store, id: MatchId) -> String {
    let full = store.load(id).unwrap();
    state(&crate::table::live::replay(&full, None, &full.actions).unwrap())
}

fn players(table: &mut Table, count: usize) -> Vec<Player> {
    (0..count)
        .map(|i| table.store().local_player(&format!("p{i}")).unwrap())
        .collect()
}

#[test]
fn snapshots_and_live_games_agree_with_a_replay_of_the_log_in_every_game() {
    for game in GameKind::ALL {
        let path = temp_db(&format!("agree-{game}"));
        let mut table = Table::with_cache(path.open(), 4);
        let seats = game.seats().1;
        let players = players(&mut table, seats);
        let id = table
            .create(game, &[], &players, 7, &Place::default())
            .unwrap()
            .match_id;
        let mut chooser = GameRng::from_seed(3);
        for step in 0..60 {
            let loaded = table.load(id).unwrap();
            let ToAct::Seats(seats) = loaded.game.to_act() else {
                break;
            };
            let seat = seats[0];
            let text = loaded.game.random_action(seat, &mut chooser).unwrap();
            let player = players[seat.index()].id;
            let confirmed = Request {
                confirmed: true,
                ..Request::default()
            };
            table.act(id, player, confirmed, &text).unwrap();
            // The live game (hot), a new table on the same file (snapshot, cold) and a full
            // replay of the log are the same state, random source included.
            let hot = table.load(id).unwrap();
            let hot = state(&Live {
                game: hot.game,
                rng: hot.rng,
            });
            let cold = Table::new(path.open()).load(id).unwrap();
            let cold = state(&Live {
                game: cold.game,
                rng: cold.rng,
            });
            let log = replayed(&table.store, id);
            assert_eq!(hot, log, "{game} step {step}: the live game");
            assert_eq!(cold, log, "{game} step {step}: the snapshot");
            let snapshot = table.store.snapshot(id).unwrap().unwrap();
            assert_eq!(
                snapshot.plies,
                step + 1,
                "{game}: a snapshot with every action"
            );
        }
    }
}

#[test]
fn an_unusable_snapshot_falls_back_to_the_log() {
    let path = temp_db("fallback");
    let mut table = Table::new(path.open());
    let players = players(&mut table, 2);
    let id = table
        .create(GameKind::Chess, &[], &players, 1, &Place::default())
        .unwrap()
        .match_id;
    for (seat, text) in [(0, "e4"), (1, "e5"), (0, "Nf3")] {
        table.act(id, players[seat].id, None, text).unwrap();
    }
    let expected = replayed(&table.store, id);
    for damage in [
        "UPDATE snapshots SET state = 'not json'",
        "UPDATE snapshots SET rules = 99",
        "UPDATE snapshots SET state = replace(state, '\"game\":\"chess\"', '\"game\":\"snipe\"')",
        "DELETE FROM snapshots",
    ] {
        table.store.connection().execute_batch(damage).unwrap();
        let cold = Table::new(path.open());
        let loaded = cold.load(id).unwrap();
        let got = state(&Live {
            game: loaded.game,
            rng: loaded.rng,
        });
        assert_eq!(got, expected, "after {damage}");
        assert_eq!(cold.legal(id, players[1].id).unwrap().len(), 29);
    }
    // Playing on writes a good snapshot again.
    let mut table = Table::new(path.open());
    table.act(id, players[1].id, None, "Nc6").unwrap();
    let snapshot = table.store.snapshot(id).unwrap().unwrap();
    assert_eq!(snapshot.plies, 4);
}

/// Plays random actions in two copies of a Chess-à-Tête game, one under each rules revision,
/// until revision 1 allows an action revision 2 refuses (a loss of pieces short of the
/// damage); returns the seed and the log up to and including that action.
fn a_log_only_the_first_rules_allow() -> (u64, Vec<(Seat, String)>) {
    for seed in 0..400 {
        let mut rng1 = GameRng::from_seed(seed);
        let mut rng2 = GameRng::from_seed(seed);
        let mut old = GameKind::Chessatete
            .start_under(&[], 2, &mut rng1, 1)
            .unwrap();
        let mut new = GameKind::Chessatete.start(&[], 2, &mut rng2).unwrap();
        let mut chooser = GameRng::from_seed(seed + 1);
        let mut log = Vec::new();
        for _ in 0..300 {
            let ToAct::Seats(seats) = old.to_act() else {
                break;
            };
            let seat = seats[0];
            let allowed = new.legal_actions(seat);
            if let Some(text) = old
                .legal_actions(seat)
                .into_iter()
                .find(|t| !allowed.contains(t))
            {
                old.play(seat, &text, &mut rng1).unwrap();
                log.push((seat, text));
                return (seed, log);
            }
            let text = old.random_action(seat, &mut chooser).unwrap();
            old.play(seat, &text, &mut rng1).unwrap();
            new.play(seat, &text, &mut rng2).unwrap();
            log.push((seat, text));
        }
    }
    panic!("no game where the two revisions differ");
}

#[test]
fn a_match_stored_before_a_rule_change_loads_and_plays_on_under_its_own_rules() {
    let (seed, log) = a_log_only_the_first_rules_allow();
    let path = temp_db("old-rules");
    let mut store = path.open();
    let ids = [
        store.local_player("ann").unwrap().id,
        store.local_player("ben").unwrap().id,
    ];
    // Stored as the bot stored it before revisions were kept: rules 1, no snapshot.
    let id = store
        .create_match(GameKind::Chessatete, &[], seed, &ids, &Place::default(), 1)
        .unwrap();
    for (version, (seat, text)) in log.iter().enumerate() {
        store
            .change(id, version as u64, &[Change::Action { seat: *seat, text }])
            .unwrap();
    }
    let mut table = Table::new(store);
    let shown = table.show(id).unwrap();
    assert!(shown.result.is_none());
    // It plays on, and its snapshot keeps its revision.
    let loaded = table.load(id).unwrap();
    let ToAct::Seats(seats) = loaded.game.to_act() else {
        panic!("the game goes on");
    };
    let seat = seats[0];
    let text = loaded.game.legal_actions(seat)[0].clone();
    let confirmed = Request {
        confirmed: true,
        ..Request::default()
    };
    table.act(id, ids[seat.index()], confirmed, &text).unwrap();
    assert_eq!(table.store.snapshot(id).unwrap().unwrap().rules, 1);
    let cold = Table::new(path.open());
    assert!(cold.show(id).is_ok(), "from its snapshot");
    // The same log under today's rules does not replay: the revision is what keeps it.
    cold.store
        .connection()
        .execute_batch("UPDATE matches SET rules = 2; DELETE FROM snapshots;")
        .unwrap();
    let err = Table::new(path.open()).show(id).unwrap_err().to_string();
    assert!(err.contains("cannot be replayed"), "{err}");
}

#[test]
fn a_request_delivered_twice_is_applied_once_and_answered_the_same() {
    let Fixture {
        mut table,
        alice,
        bob,
        id,
    } = fixture(GameKind::Chess);
    let key = |k: &'static str| Request {
        key: Some(k),
        ..Request::default()
    };
    let first = table.act(id, alice.id, key("m1"), "e4").unwrap();
    assert!(!first.repeated);
    let again = table.act(id, alice.id, key("m1"), "e4").unwrap();
    assert!(again.repeated);
    assert_eq!(again.public, first.public, "the same answer");
    assert_eq!(again.version, first.version, "nothing changed");
    assert_eq!(table.history(id).unwrap().len(), 1);
    // Even when it arrives after the match moved on, and whoever sends it.
    table.act(id, bob.id, key("m2"), "e5").unwrap();
    let late = table.act(id, alice.id, key("m1"), "e4").unwrap();
    assert!(late.repeated);
    assert_eq!(table.history(id).unwrap().len(), 2);
    // Draws and resignations too.
    let offer = table.offer_draw(id, alice.id, key("d1")).unwrap();
    let offer_again = table.offer_draw(id, alice.id, key("d1")).unwrap();
    assert!(offer_again.repeated && offer_again.version == offer.version);
    let resigned = table.resign(id, bob.id, key("r1")).unwrap();
    assert!(table.resign(id, bob.id, key("r1")).unwrap().repeated);
    assert_eq!(resigned.result.as_deref(), Some("White won by resignation"));
    // A new key after the end is refused as usual.
    let err = table.act(id, alice.id, key("m3"), "Nf3").unwrap_err();
    assert!(matches!(err, TableError::Over { .. }), "{err}");
}

#[test]
fn a_refused_request_delivered_again_later_is_refused_again_not_applied() {
    let Fixture {
        mut table,
        alice,
        bob,
        id,
    } = fixture(GameKind::Chess);
    let two = [alice.clone(), bob.clone()];
    let other = table
        .create(GameKind::Chess, &[], &two, 2, &Place::default())
        .unwrap()
        .match_id;
    let key = |k: &'static str| Request {
        key: Some(k),
        ..Request::default()
    };
    // Black moves out of turn; White then moves, so the same message would now be legal.
    let early = table.act(id, bob.id, key("b1"), "e5").unwrap_err();
    assert!(matches!(early, TableError::NotYourTurn(_)), "{early}");
    table.act(id, alice.id, key("w1"), "e4").unwrap();
    let again = table.act(id, bob.id, key("b1"), "e5").unwrap_err();
    assert!(matches!(again, TableError::Refused(_)), "{again}");
    assert_eq!(again.to_string(), early.to_string(), "the same answer");
    assert_eq!(table.history(id).unwrap().len(), 1, "nothing applied");
    // An illegal move likewise.
    let bad = table.act(id, bob.id, key("b2"), "e4").unwrap_err();
    assert_eq!(
        table
            .act(id, bob.id, key("b2"), "e4")
            .unwrap_err()
            .to_string(),
        bad.to_string()
    );
    // A key already used for one match applies to no other.
    let reused = table.act(other, alice.id, key("w1"), "e4").unwrap_err();
    assert!(
        matches!(reused, TableError::KeyReused(m) if m == id),
        "{reused}"
    );
    assert_eq!(table.history(other).unwrap().len(), 0, "nothing applied");
    // A fresh key is judged afresh.
    assert!(table.act(id, bob.id, key("b3"), "e5").is_ok());
}

#[test]
fn an_overlong_action_is_refused_before_any_game_reads_it() {
    let Fixture {
        mut table,
        alice,
        id,
        ..
    } = fixture(GameKind::Chess);
    let padded = format!("e4{}", " ".repeat(1 << 20));
    // Trailing spaces are trimmed: a move padded with spaces is still the move.
    assert_eq!(table.act(id, alice.id, None, &padded).unwrap().version, 1);
    let long = "e".repeat(1 << 20);
    let err = table.act(id, alice.id, None, &long).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "that action is {} characters long; actions are at most 300",
            1 << 20
        )
    );
}

/// Match `id` loaded by a table that has never seen it (from its snapshot, if usable).
fn cold_state(path: &std::path::Path, id: MatchId) -> String {
    let cold = Table::new(Store::open(path).unwrap());
    let loaded = cold.load(id).unwrap();
    state(&Live {
        game: loaded.game,
        rng: loaded.rng,
    })
}

#[test]
fn a_snapshot_that_does_not_read_or_does_not_match_its_log_is_not_used() {
    // SQLite's own file: the damage below writes values of the wrong type.
    let path = temp_file("checked-snapshots");
    let mut table = Table::new(Store::open(&path).unwrap());
    let players = players(&mut table, 2);
    let play = |table: &mut Table, moves: [&str; 3]| {
        let id = table
            .create(GameKind::Chess, &[], &players, 1, &Place::default())
            .unwrap()
            .match_id;
        for (i, text) in moves.iter().enumerate() {
            table.act(id, players[i % 2].id, None, text).unwrap();
        }
        id
    };
    let other = play(&mut table, ["d4", "d5", "Nf3"]);
    for damage in [
        // Rows that do not read as a snapshot.
        "UPDATE snapshots SET state = X'00FF' WHERE match_id = {id}",
        "UPDATE snapshots SET plies = 'three' WHERE match_id = {id}",
        "UPDATE snapshots SET plies = -1 WHERE match_id = {id}",
        "UPDATE snapshots SET rules = 99999999999 WHERE match_id = {id}",
        // Another match's position at the same length, with or without its digest.
        "UPDATE snapshots SET state = (SELECT state FROM snapshots WHERE match_id = {other})
         WHERE match_id = {id}",
        "UPDATE snapshots SET (state, digest) =
         (SELECT state, digest FROM snapshots WHERE match_id = {other}) WHERE match_id = {id}",
        // A snapshot that claims more or fewer actions than it took in.
        "UPDATE snapshots SET plies = 2 WHERE match_id = {id}",
        "UPDATE snapshots SET plies = 9 WHERE match_id = {id}",
        // Saved before snapshots were checked.
        "UPDATE snapshots SET digest = NULL WHERE match_id = {id}",
    ] {
        let id = play(&mut table, ["e4", "e5", "Nf3"]);
        let sql = damage
            .replace("{id}", &id.to_string())
            .replace("{other}", &other.to_string());
        table.store.connection().execute_batch(&sql).unwrap();
        let expected = replayed(&table.store, id);
        assert_eq!(cold_state(&path, id), expected, "after {sql}");
    }
    // An untouched snapshot is used as it is: the same state, and it is the one stored.
    let id = play(&mut table, ["e4", "e5", "Nf3"]);
    assert_eq!(cold_state(&path, id), replayed(&table.store, id));
    let snapshot = table.store.snapshot(id).unwrap().unwrap();
    assert_eq!(snapshot.plies, 3);
    assert!(snapshot.digest.is_some_and(|d| d.starts_with("crc32:")));
}
