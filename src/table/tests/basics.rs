//! Matches through the table service: scripted games, precise refusals, a request applied once,
//! resignations and draws, aborts, legal actions and views, damaged logs, and each game's
//! particular turns.

use super::*;
use std::sync::{Arc, Barrier};

fn snapshot(table: &Table, id: MatchId) -> (u64, usize) {
    let m = table.store.load(id).unwrap();
    (m.version, m.actions.len())
}

#[test]
fn a_scripted_game_ends_with_the_right_result() {
    let mut f = fixture(GameKind::Chess);
    let created = f.table.show(f.id).unwrap();
    assert_eq!(created.to_act[0].1.name, "alice");
    for (player, text) in [(&f.alice, "f3"), (&f.bob, "e5"), (&f.alice, "g4")] {
        let update = f.table.act(f.id, player.id, None, text).unwrap();
        assert!(update.outcome.is_none());
    }
    let update = f.table.act(f.id, f.bob.id, None, "Qh4").unwrap();
    assert_eq!(
        update.public,
        vec!["Black plays Qh4#", "Game over: Black won by checkmate"]
    );
    assert_eq!(update.result.as_deref(), Some("Black won by checkmate"));
    assert!(update.to_act.is_empty());
    assert_eq!(update.version, 4);
    assert_eq!(update.seat_views.len(), 2);
    let png = image::load_from_memory(&update.board_png()).unwrap();
    assert_eq!(png.width(), crate::render::WIDTH);
    assert!(
        png.height() > crate::render::HEIGHT,
        "a band names the players"
    );
    let stored = f.table.store.load(f.id).unwrap();
    assert_eq!(stored.status, Status::Finished);
    assert_eq!(stored.outcome.unwrap().winners(), &[Seat(1)]);
    let history = f.table.history(f.id).unwrap();
    assert_eq!(history[3], (4, "bob".to_string(), "Qh4#".to_string()));
    let err = f.table.act(f.id, f.alice.id, None, "e4").unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("match #{} is over (Black won by checkmate)", f.id)
    );
}

#[test]
fn refusals_are_precise_and_change_nothing() {
    let mut f = fixture(GameKind::Chess);
    let before = snapshot(&f.table, f.id);
    let err = f.table.act(f.id, f.bob.id, None, "e5").unwrap_err();
    assert_eq!(err.to_string(), "it is not your turn: waiting for alice");
    let err = f.table.act(f.id, f.alice.id, None, "e5").unwrap_err();
    assert_eq!(err.to_string(), "no pawn of yours can reach e5");
    let stranger = f.table.store().local_player("carol").unwrap();
    let err = f.table.act(f.id, stranger.id, None, "e4").unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("you are not playing in match #{}", f.id)
    );
    let err = f.table.act(404, f.alice.id, None, "e4").unwrap_err();
    assert_eq!(err.to_string(), "there is no match #404");
    let err = f.table.act(f.id, f.alice.id, Some(3), "e4").unwrap_err();
    assert!(matches!(err, TableError::Stale(_)), "{err}");
    assert_eq!(snapshot(&f.table, f.id), before);
}

#[test]
fn two_submissions_with_the_same_version_apply_exactly_once() {
    let path = temp_db("race");
    let mut store = path.open();
    let alice = store.local_player("alice").unwrap();
    let bob = store.local_player("bob").unwrap();
    let mut table = Table::new(store);
    let id = table
        .create(
            GameKind::Chess,
            &[],
            &[alice.clone(), bob],
            1,
            &Place::default(),
        )
        .unwrap()
        .match_id;

    // Sequential: a doubled click.
    assert_eq!(table.act(id, alice.id, Some(0), "e4").unwrap().version, 1);
    let err = table.act(id, alice.id, Some(0), "e4").unwrap_err();
    assert!(matches!(err, TableError::Stale(_)), "{err}");

    // Concurrent: two connections, two different moves, the same version seen; repeated so the
    // threads interleave in many ways.
    for round in 0..100 {
        let id = if round == 0 {
            id
        } else {
            let players = [alice.clone(), table.store().local_player("bob").unwrap()];
            let id = table
                .create(GameKind::Chess, &[], &players, 1, &Place::default())
                .unwrap()
                .match_id;
            table.act(id, alice.id, Some(0), "e4").unwrap();
            id
        };
        let barrier = Arc::new(Barrier::new(2));
        let handles: Vec<_> = ["d5", "e5"]
            .into_iter()
            .map(|text| {
                let barrier = barrier.clone();
                let path = path.clone();
                std::thread::spawn(move || {
                    let mut table = Table::new(path.open());
                    let bob = table.store().local_player("bob").unwrap();
                    barrier.wait();
                    table.act(id, bob.id, Some(1), text).map(|u| u.version)
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let applied = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(applied, 1, "round {round}: {results:?}");
        for r in &results {
            if let Err(e) = r {
                assert!(matches!(e, TableError::Stale(_)), "round {round}: {e}");
            }
        }
        let m = table.store.load(id).unwrap();
        assert_eq!((m.version, m.actions.len()), (2, 2));
    }
}

#[test]
fn resign_and_draws() {
    let mut f = fixture(GameKind::Chess);
    f.table.act(f.id, f.alice.id, None, "e4").unwrap();
    let offer = f.table.offer_draw(f.id, f.alice.id, None).unwrap();
    assert_eq!(offer.public, vec!["alice offers a draw."]);
    let err = f.table.accept_draw(f.id, f.alice.id, None).unwrap_err();
    assert_eq!(err.to_string(), "you have already agreed to this draw");
    let err = f.table.offer_draw(f.id, f.alice.id, None).unwrap_err();
    assert_eq!(err.to_string(), "you have already agreed to a draw");
    // A stale button: the offer was made at version 2.
    let err = f.table.decline_draw(f.id, f.bob.id, Some(1)).unwrap_err();
    assert!(matches!(err, TableError::Stale(_)));
    f.table
        .decline_draw(f.id, f.bob.id, Some(offer.version))
        .unwrap();
    let err = f.table.accept_draw(f.id, f.bob.id, None).unwrap_err();
    assert_eq!(err.to_string(), "there is no draw offer to answer");

    f.table.offer_draw(f.id, f.bob.id, None).unwrap();
    let accepted = f.table.accept_draw(f.id, f.alice.id, None).unwrap();
    assert_eq!(accepted.result.as_deref(), Some("Draw by agreement"));
    assert!(
        accepted
            .public
            .contains(&"Game over: Draw by agreement".to_string())
    );

    let mut f = fixture(GameKind::Enthralling);
    f.table.act(f.id, f.alice.id, None, "e4").unwrap();
    let resigned = f.table.resign(f.id, f.alice.id, None).unwrap();
    assert_eq!(resigned.result.as_deref(), Some("Black won by resignation"));
    let err = f.table.resign(f.id, f.bob.id, None).unwrap_err();
    assert!(err.to_string().contains("is over"), "{err}");
}

/// Every way a match ends outside the game's rules leaves it looking over everywhere: the
/// update, every view (and so the text view and the picture), the legal actions and the
/// choices under the board; and the game's own next move is refused.
#[test]
fn matches_ended_outside_the_rules_look_finished_in_every_game() {
    type End = fn(&mut Fixture) -> Result<Update, TableError>;
    let endings: [(&str, End, &str); 3] = [
        (
            "resignation",
            |f| f.table.resign(f.id, f.alice.id, None),
            "resign",
        ),
        (
            "agreed draw",
            |f| {
                f.table.offer_draw(f.id, f.bob.id, None)?;
                f.table.accept_draw(f.id, f.alice.id, None)
            },
            "agreement",
        ),
        (
            "abort",
            |f| f.table.abort(f.id, f.alice.id, None),
            "the match was aborted",
        ),
    ];
    for game in GameKind::ALL {
        for (name, end, words) in endings {
            let mut f = fixture(game);
            let first = f.table.show(f.id).unwrap();
            assert!(!first.choices.is_empty() || first.private_choices, "{game}");
            let update = end(&mut f).unwrap_or_else(|e| panic!("{game} {name}: {e}"));
            let at = format!("{game} after {name}");
            assert!(update.to_act.is_empty(), "{at}");
            assert!(update.choices.is_empty(), "{at}: no buttons");
            assert!(update.public_view.is_over(), "{at}");
            let status = crate::console::text_view(&update.public_view)
                .last()
                .cloned()
                .unwrap();
            assert!(
                status.starts_with("Game over: ") && status.contains(words),
                "{at}: {status}"
            );
            for (seat, _, view) in &update.seat_views {
                assert!(view.is_over(), "{at}: {seat}'s view");
            }
            assert_ne!(
                update.board_png(),
                first.board_png(),
                "{at}: the picture changed"
            );
            for player in [&f.alice, &f.bob] {
                assert_eq!(
                    f.table.legal(f.id, player.id).unwrap(),
                    Vec::<String>::new()
                );
                assert!(f.table.legal_groups(f.id, player.id).unwrap().is_empty());
                assert!(f.table.view_for(f.id, Some(player.id)).unwrap().is_over());
            }
            assert!(f.table.waiting_for(f.id).unwrap().is_empty(), "{at}");
            let shown = f.table.show(f.id).unwrap();
            assert!(
                shown.public_view.is_over() && shown.to_act.is_empty(),
                "{at}"
            );
            let first_action = first.choices.first().cloned().unwrap_or("e4".into());
            let refused = f.table.act(f.id, f.alice.id, None, &first_action);
            assert!(
                matches!(
                    refused,
                    Err(TableError::Over { .. } | TableError::Aborted(_))
                ),
                "{at}: {refused:?}"
            );
        }
    }
}

#[test]
fn a_start_that_is_already_over_is_refused_and_stores_nothing() {
    let mut f = fixture(GameKind::Chess);
    let before = f.table.store.matches_of(f.alice.id, false).unwrap().len();
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let err = f
        .table
        .create(
            GameKind::Chess,
            &[("fen".into(), mate.into())],
            &[f.alice.clone(), f.bob.clone()],
            1,
            &Place::default(),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the fen position is already over (Black won by checkmate); give one with a move to play"
    );
    let after = f.table.store.matches_of(f.alice.id, false).unwrap().len();
    assert_eq!(before, after);
}

#[test]
fn abort_only_before_the_first_action() {
    let mut f = fixture(GameKind::Chess);
    let aborted = f.table.abort(f.id, f.bob.id, None).unwrap();
    assert_eq!(aborted.result.as_deref(), Some("aborted"));
    let err = f.table.act(f.id, f.alice.id, None, "e4").unwrap_err();
    assert_eq!(err.to_string(), format!("match #{} was aborted", f.id));

    let mut f = fixture(GameKind::Chess);
    f.table.act(f.id, f.alice.id, None, "e4").unwrap();
    let err = f.table.abort(f.id, f.alice.id, None).unwrap_err();
    assert!(
        err.to_string().contains("only before its first move"),
        "{err}"
    );
}

#[test]
fn lists_legal_actions_and_views() {
    let mut f = fixture(GameKind::Chess);
    let other = f
        .table
        .create(
            GameKind::Enthralling,
            &[],
            &[f.bob.clone(), f.alice.clone()],
            9,
            &Place::default(),
        )
        .unwrap();
    let list = f.table.matches_of(f.alice.id).unwrap();
    assert_eq!(list.len(), 2);
    let chess = list.iter().find(|l| l.match_id == f.id).unwrap();
    assert!(chess.your_turn);
    let enthralling = list.iter().find(|l| l.match_id == other.match_id).unwrap();
    assert_eq!(
        (enthralling.your_turn, enthralling.waiting_for.clone()),
        (false, vec!["bob".to_string()])
    );
    assert_eq!(f.table.legal(f.id, f.alice.id).unwrap().len(), 20);
    assert!(f.table.legal(f.id, f.bob.id).unwrap().is_empty());
    match f.table.view_for(f.id, Some(f.bob.id)).unwrap() {
        AnyView::Chess(view) => assert_eq!(view.viewer, Viewer::Seat(Seat(1))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_options_and_seat_counts_store_nothing() {
    let mut f = fixture(GameKind::Chess);
    let err = f
        .table
        .create(
            GameKind::Chess,
            &[("colour".into(), "red".into())],
            &[f.alice.clone(), f.bob.clone()],
            1,
            &Place::default(),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown option colour for Chess; options: fen"
    );
    let err = f
        .table
        .create(
            GameKind::Chess,
            &[],
            &[f.alice.clone()],
            1,
            &Place::default(),
        )
        .unwrap_err();
    assert_eq!(err.to_string(), "Chess is played by 2 players, not 1");
    assert_eq!(
        f.table.store.matches_of(f.alice.id, false).unwrap().len(),
        1
    );
}

#[test]
fn a_damaged_log_is_reported_on_load() {
    let mut f = fixture(GameKind::Chess);
    f.table.act(f.id, f.alice.id, None, "e4").unwrap();
    f.table
        .store
        .connection()
        .execute(
            "INSERT INTO actions (match_id, ply, seat, action, created_at) VALUES (?1, 2, 1, 'Qxh9', 0)",
            [f.id],
        )
        .unwrap();
    f.table
        .store
        .connection()
        .execute("UPDATE matches SET plies = 2 WHERE id = ?1", [f.id])
        .unwrap();
    let err = f.table.show(f.id).unwrap_err().to_string();
    assert!(
        err.contains("cannot be loaded")
            && err.contains("stored action 2 (\"Qxh9\") cannot be replayed"),
        "{err}"
    );
}

/// A table with players alice, bob, carol (and dave) in a game of En Prise.
fn enprise(options: &[(&str, &str)], seats: usize) -> (Table, Vec<Player>, MatchId) {
    let mut store = scratch();
    let players: Vec<Player> = ["alice", "bob", "carol", "dave"][..seats]
        .iter()
        .map(|n| store.local_player(n).unwrap())
        .collect();
    let mut table = Table::new(store);
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let id = table
        .create(GameKind::Enprise, &options, &players, 5, &Place::default())
        .unwrap()
        .match_id;
    (table, players, id)
}

#[test]
fn a_draw_needs_every_remaining_player_and_resigning_two_remaining() {
    let (mut table, p, id) = enprise(&[], 3);
    let err = table.resign(id, p[0].id, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "resigning is possible only when two players remain; 3 are still playing"
    );
    let offer = table.offer_draw(id, p[0].id, None).unwrap();
    assert_eq!(offer.public, vec!["alice offers a draw."]);
    let second = table.accept_draw(id, p[1].id, None).unwrap();
    assert_eq!(second.public, vec!["bob agrees to the draw."]);
    assert!(second.result.is_none(), "carol has not agreed yet");
    assert_eq!(
        table.store.load(id).unwrap().draw_votes,
        vec![Seat(0), Seat(1)]
    );
    // Any action withdraws the offer.
    let first = table.legal(id, p[0].id).unwrap()[0].clone();
    table.act(id, p[0].id, None, &first).unwrap();
    assert!(table.store.load(id).unwrap().draw_votes.is_empty());
    table.offer_draw(id, p[1].id, None).unwrap();
    table.offer_draw(id, p[2].id, None).unwrap();
    let done = table.accept_draw(id, p[0].id, None).unwrap();
    assert_eq!(done.result.as_deref(), Some("Draw by agreement"));
    assert_eq!(done.outcome, Some(Outcome::draw(3, "agreement")));
}

#[test]
fn memory_plans_hide_when_everyone_is_ready_or_the_timer_expires() {
    let (mut table, p, id) = enprise(&[("variant", "memory"), ("memory_seconds", "45")], 3);
    let shown = table.show(id).unwrap();
    assert_eq!(shown.timeout, Some(45));
    assert_eq!(shown.choices, vec!["ready"]);
    assert_eq!(shown.to_act.len(), 3);
    let ready = table.act(id, p[1].id, None, "ready").unwrap();
    assert_eq!(ready.timeout, Some(45));
    // A timer set for an older version does nothing.
    assert!(matches!(
        table.expire(id, shown.version),
        Err(TableError::Stale(_))
    ));
    let expired = table.expire(id, ready.version).unwrap();
    assert_eq!(expired.public[0], "Time is up.");
    assert!(
        expired
            .public
            .iter()
            .any(|l| l.contains("turned face-down"))
    );
    assert_eq!(expired.timeout, None);
    assert_eq!(expired.to_act[0].1.name, "alice");
    assert_eq!(expired.choices, vec!["place"]);
    let log = table.history(id).unwrap();
    let names: Vec<&str> = log.iter().map(|(_, who, _)| who.as_str()).collect();
    assert_eq!(
        names,
        vec!["bob", "alice", "carol"],
        "stored as each seat's own action"
    );
    let err = table.expire(id, expired.version).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nothing in this match is waiting for a timer"
    );
    // Replaying the stored log gives the same state.
    let again = table.show(id).unwrap();
    assert_eq!(again.version, expired.version);
    assert_eq!(again.choices, vec!["place"]);
}

#[test]
fn casino_the_chooser_is_asked_and_offered_the_positions() {
    let (mut table, p, id) = enprise(&[("variant", "casino")], 2);
    let asked = table.act(id, p[0].id, None, "place").unwrap();
    assert_eq!(asked.to_act[0].1.name, "bob");
    assert_eq!(asked.choices.len(), 15);
    assert_eq!(asked.choices[0], "card 1");
    let err = table.act(id, p[0].id, None, "card 1").unwrap_err();
    assert_eq!(err.to_string(), "it is not your turn: waiting for bob");
    let picked = table.act(id, p[1].id, None, "card 4").unwrap();
    assert_eq!(picked.to_act[0].1.name, "alice");
    assert!(picked.public[0].starts_with("Black picks card 4 of White's battleplan"));
}

#[test]
fn chess_a_tete_asks_the_defender_in_the_middle_of_the_attackers_turn() {
    let Fixture {
        mut table,
        alice,
        bob,
        id,
    } = fixture(GameKind::Chessatete);
    let players = [alice, bob];
    for _ in 0..600 {
        let (me, other) = match table.legal(id, players[0].id).unwrap().is_empty() {
            false => (&players[0], &players[1]),
            true => (&players[1], &players[0]),
        };
        let legal = table.legal(id, me.id).unwrap();
        let pick = legal
            .iter()
            .find(|a| a.starts_with("attack "))
            .or_else(|| legal.iter().find(|a| a.starts_with("play ")))
            .or_else(|| legal.iter().find(|a| *a == "end"))
            .unwrap_or(&legal[0])
            .clone();
        let update = table.act(id, me.id, None, &pick).unwrap();
        if !pick.starts_with("attack ")
            || update.to_act.first().map(|(_, p)| p.id) != Some(other.id)
        {
            assert!(update.result.is_none() || update.to_act.is_empty());
            if update.result.is_some() {
                break;
            }
            continue;
        }
        // The attacker's turn is not over, yet the defender is the one asked.
        assert!(table.legal(id, me.id).unwrap().is_empty());
        let answers = table.legal(id, other.id).unwrap();
        assert!(answers.contains(&"take".to_string()), "{answers:?}");
        // A hand is private: the answers are offered to the defender alone.
        assert!(update.private_choices && update.choices.is_empty());
        let mine = table
            .choices_for(id, other.id, Some(update.version))
            .unwrap();
        assert_eq!(mine.actions, answers);
        assert_eq!(mine.waiting_for, vec![other.name.clone()]);
        assert!(
            table
                .choices_for(id, me.id, Some(update.version))
                .unwrap()
                .actions
                .is_empty()
        );
        let stale = table.choices_for(id, other.id, Some(update.version - 1));
        assert!(
            matches!(stale, Err(TableError::Stale(_))),
            "{:?}",
            stale.map(|c| c.actions)
        );
        let err = table.act(id, me.id, None, "end").unwrap_err();
        assert!(err.to_string().contains("not your turn"), "{err}");
        let update = table.act(id, other.id, None, "take").unwrap();
        assert!(
            update
                .public
                .iter()
                .any(|l| l.ends_with("lets the attack through")),
            "{:?}",
            update.public
        );
        return;
    }
    panic!("no attack was answered in 600 actions");
}
