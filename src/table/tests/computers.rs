//! The computer at the table: which turns it finds, what it decides (resigning, offering and
//! answering draws), that a decision is taken once and only at the version it was made for,
//! and the thinking threads playing through a table handle.

use super::*;
use crate::ai::Level;
use crate::table::computers::PendingDraw;
use crate::table::computers::{
    ComputerTurn, DRAW_EVERY, DRAW_FROM_PLY, Decision, LOOKS_BETWEEN_FULL_READS, RECENT,
    RESIGN_FROM_PLY, Task, Thinking, decide, offer_after, previous_action_end,
};
use crate::table::thinking::{self, ThinkingConfig};
use std::time::{Duration, Instant};

/// A chess match of alice (White) against the computer at `level`; the table, alice, the
/// computer and the match.
fn against_computer(level: Level) -> (Table, Player, Player, MatchId) {
    let place = discord();
    let mut store = scratch();
    let alice = store.local_player("alice").unwrap();
    let cpu = store.computer_player(level, 1).unwrap();
    let mut table = Table::new(store);
    let id = table
        .create(
            GameKind::Chess,
            &[],
            &[alice.clone(), cpu.clone()],
            5,
            &place,
        )
        .unwrap()
        .match_id;
    (table, alice, cpu, id)
}

/// A place on Discord: the computer's loop plays only there.
fn discord() -> Place {
    Place {
        guild_id: Some("1".into()),
        channel_id: Some("2".into()),
        thread_id: Some("3".into()),
    }
}

fn thinking(seats: usize, plies: u64, offered_draw: bool) -> Thinking {
    Thinking {
        live: seats,
        game: GameKind::Enprise
            .start(&[], seats, &mut GameRng::from_seed(1))
            .unwrap(),
        seats,
        plies,
        // One action a turn, in turn: it last acted an action ago.
        previous_action_end: plies.saturating_sub(1),
        pending_draw: None,
        offered_draw,
    }
}

fn turn(task: Task) -> ComputerTurn {
    ComputerTurn {
        match_id: 1,
        version: 3,
        seat: Seat(1),
        player: 2,
        level: Level::Hard,
        task,
        guild: "1".into(),
    }
}

#[test]
fn the_computer_resigns_only_a_hopeless_two_player_game_past_the_opening() {
    let act = turn(Task::Act);
    let play = Some("e5".to_string());
    let late = thinking(2, RESIGN_FROM_PLY, false);
    assert_eq!(
        decide(&act, &late, play.clone(), Some(0.01)),
        Some(Decision::Resign)
    );
    assert_eq!(
        decide(&act, &late, play.clone(), Some(0.2)),
        Some(Decision::Play("e5".into()))
    );
    let early = thinking(2, RESIGN_FROM_PLY - 1, false);
    assert_eq!(
        decide(&act, &early, play.clone(), Some(0.01)),
        Some(Decision::Play("e5".into()))
    );
    let three = thinking(3, 40, false);
    assert_eq!(
        decide(&act, &three, play, Some(0.01)),
        Some(Decision::Play("e5".into()))
    );
    // Nothing to play: nothing decided.
    assert_eq!(decide(&act, &late, None, Some(0.01)), None);
}

#[test]
fn the_computer_offers_a_draw_in_a_long_level_game_once_and_answers_offers_by_its_chances() {
    let act = turn(Task::Act);
    let play = Some("Kg2".to_string());
    let long = thinking(2, DRAW_FROM_PLY, false);
    assert_eq!(
        decide(&act, &long, play.clone(), Some(0.52)),
        Some(Decision::PlayAndOfferDraw("Kg2".into()))
    );
    // Not when ahead (the round's offer waits for the end of its turn), not twice, not before
    // the game is long.
    let playing = Some(Decision::Play("Kg2".into()));
    let waiting = Some(Decision::PlayOfferDue("Kg2".into()));
    assert_eq!(decide(&act, &long, play.clone(), Some(0.8)), waiting);
    let offered = thinking(2, DRAW_FROM_PLY, true);
    assert_eq!(decide(&act, &offered, play.clone(), Some(0.5)), playing);
    assert_eq!(
        decide(&act, &thinking(2, 60, false), play, Some(0.5)),
        playing
    );
    // With no opinion of its chances (a game without an evaluation, a search cut short), it
    // neither offers nor resigns.
    assert_eq!(decide(&act, &long, Some("Kg2".into()), None), waiting);
    let late = thinking(2, RESIGN_FROM_PLY + 1, false);
    assert_eq!(decide(&act, &late, Some("Kg2".into()), None), playing);
    // Offered: it takes the draw only when behind its fair share; a game it cannot judge, it
    // plays on.
    let answer = turn(Task::AnswerDraw);
    let two = thinking(2, 10, false);
    let accept = Some(Decision::AcceptDraw);
    let decline = Some(Decision::DeclineDraw);
    assert_eq!(decide(&answer, &two, None, Some(0.3)), accept);
    assert_eq!(decide(&answer, &two, None, Some(0.5)), decline);
    assert_eq!(decide(&answer, &two, None, Some(0.7)), decline);
    assert_eq!(decide(&answer, &two, None, None), decline);
    let three = thinking(3, 10, false);
    assert_eq!(decide(&answer, &three, None, Some(0.4)), decline);
    assert_eq!(decide(&answer, &three, None, Some(0.2)), accept);
}

#[test]
fn the_computer_finds_its_turn_and_a_draw_offer_but_not_in_a_held_match() {
    let (mut table, alice, cpu, id) = against_computer(Level::Easy);
    assert!(
        table.computer_turns().unwrap().is_empty(),
        "White moves first"
    );
    // A console's match is its own to play: the loop leaves it alone.
    let console = table
        .create(
            GameKind::Chess,
            &[],
            &[cpu.clone(), alice.clone()],
            6,
            &Place::default(),
        )
        .unwrap()
        .match_id;
    assert!(
        table
            .computer_turns()
            .unwrap()
            .iter()
            .all(|t| t.match_id != console)
    );
    table.act(id, alice.id, None, "e4").unwrap();
    let turns = table.computer_turns().unwrap();
    assert_eq!(turns.len(), 1);
    assert_eq!(
        (
            turns[0].match_id,
            turns[0].version,
            turns[0].seat,
            turns[0].player
        ),
        (id, 1, Seat(1), cpu.id)
    );
    assert_eq!((turns[0].level, turns[0].task), (Level::Easy, Task::Act));
    // Alice offers a draw: the computer answers it first.
    table.offer_draw(id, alice.id, None).unwrap();
    let turns = table.computer_turns().unwrap();
    assert_eq!(turns[0].task, Task::AnswerDraw);
    // Held (its thread is gone): nothing to do until the hold ends.
    table.hold(id, crate::store::HoldReason::Thread).unwrap();
    assert!(table.computer_turns().unwrap().is_empty());
}

#[test]
fn a_decision_is_taken_once_and_only_at_the_version_it_was_made_for() {
    let (mut table, alice, _, id) = against_computer(Level::Medium);
    table.act(id, alice.id, None, "d4").unwrap();
    let turn = table.computer_turns().unwrap().remove(0);
    let position = table
        .computer_position(&turn)
        .unwrap()
        .expect("at its version");
    let (action, _) = position
        .game
        .computer_thought(turn.seat, turn.level, turn.seed(), &|| false)
        .unwrap();
    let decision = Decision::Play(action.clone());
    let first = table.computer_decides(&turn, &decision).unwrap().unwrap();
    // Sent again (a restart that thought again): the same answer, nothing more stored.
    let again = table.computer_decides(&turn, &decision).unwrap().unwrap();
    assert_eq!(again.version, first.version);
    let log = table.history(id).unwrap();
    assert_eq!(log.len(), 2);
    assert_eq!(log[1].2, action);
    // A turn found before the match moved on is out of date: refused, nothing stored.
    table.act(id, alice.id, None, "c4").unwrap();
    let mut old = turn.clone();
    old.version = first.version - 1;
    assert!(table.computer_position(&old).unwrap().is_none());
    old.version = first.version;
    assert!(matches!(
        table.computer_decides(&old, &Decision::Play("e5".into())),
        Err(TableError::Stale(_))
    ));
    assert_eq!(table.history(id).unwrap().len(), 3);
}

#[test]
fn the_computer_resigns_and_answers_draws_through_the_table() {
    let (mut table, alice, _, id) = against_computer(Level::Hard);
    table.act(id, alice.id, None, "e4").unwrap();
    table.offer_draw(id, alice.id, None).unwrap();
    let turn = table.computer_turns().unwrap().remove(0);
    table
        .computer_decides(&turn, &Decision::DeclineDraw)
        .unwrap()
        .unwrap();
    let turn = table.computer_turns().unwrap().remove(0);
    assert_eq!(turn.task, Task::Act, "the offer was withdrawn");
    table
        .computer_decides(&turn, &Decision::Play("e5".into()))
        .unwrap();
    table.act(id, alice.id, None, "Nf3").unwrap();
    // It moves and then offers, so the offer stands while alice is to act.
    let turn = table.computer_turns().unwrap().remove(0);
    let offered = table
        .computer_decides(&turn, &Decision::PlayAndOfferDraw("Nc6".into()))
        .unwrap()
        .unwrap();
    assert_eq!(table.history(id).unwrap().len(), 4);
    assert!(table.computer_turns().unwrap().is_empty());
    table
        .accept_draw(id, alice.id, Some(offered.version))
        .unwrap();
    assert_eq!(
        table.show(id).unwrap().result.as_deref(),
        Some("Draw by agreement")
    );
}

#[test]
fn the_computer_resigns_through_the_table() {
    let (mut table, alice, _, id) = against_computer(Level::Hard);
    table.act(id, alice.id, None, "e4").unwrap();
    let turn = table.computer_turns().unwrap().remove(0);
    table
        .computer_decides(&turn, &Decision::Resign)
        .unwrap()
        .unwrap();
    let shown = table.show(id).unwrap();
    assert_eq!(shown.result.as_deref(), Some("White won by resignation"));
    assert!(table.computer_turns().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_thinking_threads_play_the_computer_s_moves_after_their_pause() {
    let (mut table, alice, cpu, id) = against_computer(Level::Easy);
    // A second match, of the computer against itself, plays on meanwhile.
    let cpu2 = table.store().computer_player(Level::Easy, 2).unwrap();
    let both = table
        .create(GameKind::Chess, &[], &[cpu.clone(), cpu2], 9, &discord())
        .unwrap()
        .match_id;
    let handle = TableHandle::spawn(table);
    let pause = Duration::from_millis(300);
    thinking::spawn(
        handle.clone(),
        ThinkingConfig {
            threads: 2,
            pause,
            poll: Duration::from_millis(200),
        },
        thinking::everywhere(),
    );
    let played = Instant::now();
    handle
        .call(move |t| t.act(id, alice.id, None, "e4").map(|_| ()))
        .await
        .unwrap()
        .unwrap();
    let log = loop {
        let log = handle.call(move |t| t.history(id)).await.unwrap().unwrap();
        if log.len() == 2 || played.elapsed() > Duration::from_secs(20) {
            break log;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(played.elapsed() >= pause, "not before its pause");
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(log[1].1, "cpu-easy");
    // It does not move for alice, and the other match goes on by itself.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(
        handle
            .call(move |t| t.history(id))
            .await
            .unwrap()
            .unwrap()
            .len(),
        2
    );
    let theirs = handle
        .call(move |t| t.history(both))
        .await
        .unwrap()
        .unwrap();
    assert!(theirs.len() >= 2, "{theirs:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_thinks_only_for_the_servers_it_serves() {
    let (mut table, alice, cpu, ours) = against_computer(Level::Easy);
    let bob = table.store().local_player("bob").unwrap();
    let elsewhere = Place {
        guild_id: Some("9".into()),
        channel_id: Some("92".into()),
        thread_id: Some("93".into()),
    };
    let theirs = table
        .create(GameKind::Chess, &[], &[bob.clone(), cpu], 6, &elsewhere)
        .unwrap()
        .match_id;
    let handle = TableHandle::spawn(table);
    thinking::spawn(
        handle.clone(),
        ThinkingConfig {
            threads: 1,
            pause: Duration::from_millis(0),
            poll: Duration::from_millis(100),
        },
        std::sync::Arc::new(|guild: &str| guild == "1"),
    );
    for (id, who) in [(ours, alice.id), (theirs, bob.id)] {
        handle
            .call(move |t| t.act(id, who, None, "e4").map(|_| ()))
            .await
            .unwrap()
            .unwrap();
    }
    let plies = |id| {
        let handle = handle.clone();
        async move {
            handle
                .call(move |t| t.history(id))
                .await
                .unwrap()
                .unwrap()
                .len()
        }
    };
    let started = Instant::now();
    while plies(ours).await < 2 && started.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(plies(ours).await, 2, "its own server's turn is taken");
    // A few more looks of the loop: the other server's turn is another process's.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        plies(theirs).await,
        1,
        "another server's turn is left alone"
    );
}

#[test]
fn a_rated_match_against_the_computer_counts_in_its_server_only() {
    let (mut table, alice, cpu, id) = against_computer(Level::Easy);
    table.store().set_rated(id, true).unwrap();
    table.resign(id, alice.id, None).unwrap();
    let here = table.ratings(GameKind::Chess, Some("1")).unwrap();
    assert!(
        here.iter().any(|line| line.player.id == cpu.id),
        "its server allowed it"
    );
    let everywhere = table.ratings(GameKind::Chess, None).unwrap();
    assert!(everywhere.is_empty(), "{everywhere:?}");
}

/// In a game where one seat may take several actions in a row (Snipe's rotation after a move)
/// or answer inside another's turn (a Chess-à-Tête defence, a Casino pick), an offer made with
/// an action that leaves the computer's turn going on would lapse with its own next action,
/// and one made with an answer would interrupt the other player's turn: neither is made, the
/// round's offer waits (whether it was wanted then or only due), and the action that ends a
/// turn the computer owns makes it if it is wanted then. The random stand-in that ends the
/// turn ends the wait too.
#[test]
fn the_computer_offers_a_draw_only_with_an_action_that_ends_its_turn() {
    let casino = vec![("variant".to_string(), "casino".to_string())];
    for (game, options) in [
        ("snipe", vec![]),
        ("chessatete", vec![]),
        ("enprise", casino),
    ] {
        let mut store = scratch();
        let alice = store.local_player("alice").unwrap();
        let cpu = store.computer_player(Level::Easy, 1).unwrap();
        let mut table = Table::new(store);
        let game: GameKind = game.parse().unwrap();
        let mut rng = GameRng::from_seed(7);
        let (mut kept_turn, mut ended_turn, mut defended) = (false, false, false);
        let mut stood_in = false;
        // Snipe has no answers inside a turn; Chess-à-Tête and Casino have no turn of several
        // actions of one seat that an answer does not split.
        let seen_all = |k, e, d, s| k && e && s && (d || game == GameKind::Snipe);
        let confirmed = || Request {
            expected: None,
            key: None,
            confirmed: true,
        };
        for seed in 0..40 {
            if seen_all(kept_turn, ended_turn, defended, stood_in) {
                break;
            }
            let players = [alice.clone(), cpu.clone()];
            let id = table
                .create(game, &options, &players, seed, &discord())
                .unwrap()
                .match_id;
            for _ in 0..300 {
                if table.show(id).unwrap().result.is_some()
                    || seen_all(kept_turn, ended_turn, defended, stood_in)
                {
                    break;
                }
                let Some(turn) = table
                    .computer_turns()
                    .unwrap()
                    .into_iter()
                    .find(|t| t.match_id == id && t.task == Task::Act)
                else {
                    let loaded = table.load(id).unwrap().game;
                    let seat = loaded.to_act().seats()[0];
                    assert_eq!(players[seat.index()].id, alice.id);
                    let text = loaded.random_action(seat, &mut rng).unwrap();
                    table.act(id, alice.id, confirmed(), &text).unwrap();
                    continue;
                };
                let thinking = table.computer_position(&turn).unwrap().unwrap();
                let owned = thinking.game.turn_owner().is_none_or(|o| o == turn.seat);
                let ends_with = |text: &str| {
                    let mut after = thinking.game.clone();
                    after
                        .play(turn.seat, text, &mut GameRng::from_seed(1))
                        .unwrap();
                    owned
                        && !(after.to_act().includes(turn.seat)
                            || after.turn_owner() == Some(turn.seat))
                };
                // While an offer waits, sometimes the random stand-in ends the turn instead.
                let stand_ins = thinking
                    .game
                    .random_action(turn.seat, &mut GameRng::from_seed(turn.seed()))
                    .unwrap();
                let stand_in = thinking.pending_draw == Some(PendingDraw::Offer)
                    && ends_with(&stand_ins)
                    && rng.next_u64().is_multiple_of(2);
                let text = if stand_in {
                    stand_ins
                } else {
                    thinking.game.random_action(turn.seat, &mut rng).unwrap()
                };
                let ends = ends_with(&text);
                // Wanted now, or only due (not level): it waits either way.
                let wanted = !stand_in && rng.next_u64().is_multiple_of(2);
                if stand_in {
                    table.computer_fallback(&turn).unwrap();
                } else if wanted {
                    table
                        .computer_decides(&turn, &Decision::PlayAndOfferDraw(text))
                        .unwrap();
                } else {
                    table
                        .computer_decides(&turn, &Decision::PlayOfferDue(text))
                        .unwrap();
                }
                let head = table.store().load_head(id).unwrap();
                if head.status != crate::store::Status::Active {
                    break;
                }
                let offered = head.draw_votes.contains(&turn.seat);
                assert_eq!(
                    offered,
                    ends && wanted,
                    "an offer stands only once its turn is over, and if wanted then"
                );
                let carried =
                    table.pending_draws.borrow().get(&(id, turn.seat)) == Some(&PendingDraw::Offer);
                assert_eq!(carried, !ends, "an offer not made waits for its turn's end");
                stood_in |= stand_in && ends;
                if offered {
                    ended_turn = true;
                    table.decline_draw(id, alice.id, None).unwrap();
                } else if ends {
                } else if owned {
                    kept_turn = true;
                } else {
                    defended = true;
                }
            }
        }
        assert!(
            seen_all(kept_turn, ended_turn, defended, stood_in),
            "{game}: no action kept the computer's turn ({kept_turn}), ended it ({ended_turn}), defended ({defended}) or stood in at its end ({stood_in})"
        );
    }
}

/// One person may play the computer in only so many active matches at once (each is read
/// whenever the computer looks for its turns); a match with people only is not counted, and a
/// finished one frees its place.
#[test]
fn one_person_plays_the_computer_in_at_most_so_many_matches_at_once() {
    use crate::store::challenges::{ChallengeError, MOST_COMPUTER_MATCHES, NewChallenge};
    let (mut table, alice, cpu, first) = against_computer(Level::Easy);
    let bob = table.store().local_player("bob").unwrap();
    let now = table.now();
    let challenge = |players: Vec<PlayerId>| NewChallenge {
        game: GameKind::Chess,
        options: vec![],
        time_control: "none".into(),
        seed: 1,
        players,
        guild_id: Some("1".into()),
        channel_id: Some("2".into()),
        lasts: 900,
        rated: false,
    };
    for seed in 1..MOST_COMPUTER_MATCHES as u64 {
        let players = [cpu.clone(), alice.clone()];
        table
            .create(GameKind::Chess, &[], &players, seed, &discord())
            .unwrap();
    }
    table
        .create(
            GameKind::Chess,
            &[],
            &[alice.clone(), bob.clone()],
            1,
            &discord(),
        )
        .unwrap();
    let err = table
        .store()
        .create_challenge_by(&challenge(vec![alice.id, cpu.id]), 0, now)
        .unwrap_err();
    assert!(
        matches!(err, ChallengeError::ComputerMatches { most } if most == MOST_COMPUTER_MATCHES),
        "{err}"
    );
    // A person, and someone else against the computer, may still play.
    table
        .store()
        .create_challenge_by(&challenge(vec![alice.id, bob.id]), 0, now)
        .unwrap();
    table
        .store()
        .create_challenge_by(&challenge(vec![bob.id, cpu.id]), 0, now)
        .unwrap();
    table.resign(first, alice.id, None).unwrap();
    table
        .store()
        .create_challenge_by(&challenge(vec![cpu.id, alice.id]), 1, now)
        .unwrap();
    // Open challenges count too: bob, with one open, may open 9 more and no further.
    for _ in 1..MOST_COMPUTER_MATCHES {
        table
            .store()
            .create_challenge_by(&challenge(vec![bob.id, cpu.id]), 0, now)
            .unwrap();
    }
    let err = table
        .store()
        .create_challenge_by(&challenge(vec![bob.id, cpu.id]), 0, now)
        .unwrap_err();
    assert!(
        matches!(err, ChallengeError::ComputerMatches { .. }),
        "{err}"
    );
    // Named in someone else's challenge, alice (9 matches and 1 challenge) may not accept it.
    let carol = table.store().local_player("carol").unwrap();
    let three = NewChallenge {
        game: GameKind::Enprise,
        ..challenge(vec![carol.id, alice.id, cpu.id])
    };
    let theirs = table.store().create_challenge_by(&three, 0, now).unwrap();
    let err = table
        .accept_challenge(theirs.id, alice.id, None)
        .unwrap_err();
    assert!(
        matches!(err, ChallengeError::ComputerMatches { .. }),
        "{err}"
    );
}

/// When its thinking fails (a bug), the computer still answers: a random legal move on its
/// turn, a declined draw when asked; so a match never waits on it for good.
#[test]
fn a_turn_the_thinking_failed_at_still_gets_an_answer() {
    let (mut table, alice, _, id) = against_computer(Level::Hard);
    table.act(id, alice.id, None, "e4").unwrap();
    let turn = table.computer_turns().unwrap().remove(0);
    assert_eq!(turn.task, Task::Act);
    assert!(thinking::unstick(&mut table, &turn));
    let log = table.history(id).unwrap();
    assert_eq!(log.len(), 2);
    assert_eq!(log[1].1, "cpu-hard");
    // Taken again (a second look): the match moved on, so nothing more.
    assert!(!thinking::unstick(&mut table, &turn));
    assert_eq!(table.history(id).unwrap().len(), 2);
    table.act(id, alice.id, None, "d4").unwrap();
    table.offer_draw(id, alice.id, None).unwrap();
    let asked = table.computer_turns().unwrap().remove(0);
    assert_eq!(asked.task, Task::AnswerDraw);
    assert!(thinking::unstick(&mut table, &asked));
    let turn = table.computer_turns().unwrap().remove(0);
    assert_eq!(turn.task, Task::Act, "the offer was declined");
    assert!(table.show(id).unwrap().result.is_none());
}

/// A storage error while reading the computer's position (a busy or failing database) frees
/// the seat to be found again at the next look, rather than giving up on the turn; once the
/// database answers, the computer plays. (A renamed table fails every statement naming it,
/// on either engine.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_to_read_the_computer_s_position_is_tried_again() {
    let (mut table, alice, _cpu, id) = against_computer(Level::Easy);
    table.act(id, alice.id, None, "e4").unwrap();
    let turn = table
        .computer_turns()
        .unwrap()
        .pop()
        .expect("the computer's turn");
    let handle = TableHandle::spawn(table);
    let rename = |from: &'static str, to: &'static str| {
        let sql = format!("ALTER TABLE {from} RENAME TO {to}");
        handle.call(move |t| t.store().connection().execute_batch(&sql))
    };
    let think = |turn: ComputerTurn| {
        let handle = handle.clone();
        tokio::task::spawn_blocking(move || thinking::think(&handle, &turn, 1))
    };
    rename("matches", "matches_away").await.unwrap().unwrap();
    match think(turn.clone()).await.unwrap() {
        Ok(None) => {}
        Ok(Some(decision)) => panic!("decided without reading: {decision:?}"),
        Err(_) => panic!("a passing failure to read gave the turn up"),
    }
    rename("matches_away", "matches").await.unwrap().unwrap();
    match think(turn.clone()).await.unwrap() {
        Ok(Some(Decision::Play(action))) => {
            let decided = Decision::Play(action);
            let taken = handle
                .call(move |t| t.computer_decides(&turn, &decided).map(|u| u.is_some()))
                .await
                .unwrap()
                .unwrap();
            assert!(taken);
        }
        Ok(other) => panic!("{other:?}"),
        Err(_) => panic!("the turn failed once the database answered"),
    }
    let log = handle.call(move |t| t.history(id)).await.unwrap().unwrap();
    assert_eq!(log.len(), 2, "{log:?}");
}

/// A seat found with nothing to do is not read again while its match's version stays the same
/// (a draw vote written behind the table's back goes unseen), and is read again once it moves,
/// or at the latest at the next full read, every LOOKS_BETWEEN_FULL_READS looks.
#[test]
fn a_seat_with_nothing_to_do_is_read_again_only_once_its_match_changes() {
    let (mut table, alice, _cpu, id) = against_computer(Level::Easy);
    assert!(
        table.computer_turns().unwrap().is_empty(),
        "alice is to move"
    );
    let sql = |table: &mut Table, sql: &str| {
        table.store().connection().execute(sql, [id]).unwrap();
    };
    sql(
        &mut table,
        "UPDATE matches SET draw_votes = 1 WHERE id = ?1",
    );
    assert!(table.computer_turns().unwrap().is_empty(), "read again");
    sql(
        &mut table,
        "UPDATE matches SET version = version + 1 WHERE id = ?1",
    );
    let turns = table.computer_turns().unwrap();
    assert_eq!(turns.len(), 1, "{turns:?}");
    assert_eq!(turns[0].task, Task::AnswerDraw);
    // Written behind its back again: found by the next full read, not before.
    sql(
        &mut table,
        "UPDATE matches SET draw_votes = NULL WHERE id = ?1",
    );
    sql(
        &mut table,
        "UPDATE matches SET version = version + 1 WHERE id = ?1",
    );
    assert!(table.computer_turns().unwrap().is_empty());
    sql(
        &mut table,
        "UPDATE matches SET draw_votes = 1 WHERE id = ?1",
    );
    let looks = (1..=LOOKS_BETWEEN_FULL_READS)
        .find(|_| !table.computer_turns().unwrap().is_empty())
        .expect("found by a full read");
    assert!(looks > 1, "found at the first look");
    // Through the table as usual: alice's move is found at once, and found again while it
    // waits (a turn with something to do is never set aside).
    sql(
        &mut table,
        "UPDATE matches SET draw_votes = NULL WHERE id = ?1",
    );
    table.act(id, alice.id, None, "e4").unwrap();
    for _ in 0..2 {
        let turns = table.computer_turns().unwrap();
        assert_eq!(turns.len(), 1, "{turns:?}");
        assert_eq!(turns[0].task, Task::Act);
    }
}

/// When the computer last acted, read from the seats of the latest actions.
#[test]
fn the_computer_finds_when_it_last_acted() {
    let (me, you) = (Seat(1), Seat(0));
    // It has not acted yet.
    assert_eq!(previous_action_end(&[you, you], me, 2), 0);
    assert_eq!(previous_action_end(&[], me, 0), 0);
    assert_eq!(previous_action_end(&[you, me, you], me, 3), 2);
    // In the middle of a turn of its own: just after its last action.
    assert_eq!(previous_action_end(&[me, me, you, you, me], me, 5), 5);
    // The latest 3 of 50 actions.
    assert_eq!(previous_action_end(&[me, you, you], me, 50), 48);
    // Too short a tail to reach its last action: its start, the earliest it can tell.
    assert_eq!(previous_action_end(&[you, you, you], me, 50), 47);
}

/// The same, through the table: a Snipe match (turns of one or two actions) played at random,
/// at each of the computer's turns, against the log the table shows.
#[test]
fn the_table_tells_the_computer_when_it_last_acted() {
    let mut store = scratch();
    let alice = store.local_player("alice").unwrap();
    let cpu = store.computer_player(Level::Easy, 1).unwrap();
    let mut table = Table::new(store);
    let players = [alice.clone(), cpu.clone()];
    let id = table
        .create("snipe".parse().unwrap(), &[], &players, 3, &discord())
        .unwrap()
        .match_id;
    let mut rng = GameRng::from_seed(5);
    let mut checked = 0;
    for _ in 0..60 {
        if table.show(id).unwrap().result.is_some() {
            break;
        }
        let game = table.load(id).unwrap().game;
        let seat = game.to_act().seats()[0];
        let text = game.random_action(seat, &mut rng).unwrap();
        if seat == Seat(1) {
            let turn = table.computer_turns().unwrap().pop().expect("its turn");
            let thinking = table.computer_position(&turn).unwrap().unwrap();
            let log = table.history(id).unwrap();
            let expected = log
                .iter()
                .rposition(|(_, name, _)| *name == cpu.name)
                .map_or(0, |i| i as u64 + 1);
            assert_eq!(thinking.previous_action_end, expected, "{log:?}");
            checked += 1;
        }
        let player = players[seat.index()].id;
        let confirmed = Request {
            expected: None,
            key: None,
            confirmed: true,
        };
        table.act(id, player, confirmed, &text).unwrap();
    }
    assert!(checked >= 20, "{checked}");
}

/// However a turn is made (one action or several, or with the other player answering inside
/// it, as a Chess-à-Tête defence), the computer offers once in each round of DRAW_EVERY
/// actions of a long level game, with the first action that ends a turn of its own in the
/// round or after it: an offer made otherwise would lapse with its own next action or
/// interrupt the other player's turn.
#[test]
fn the_computer_offers_a_draw_once_a_round_whatever_the_turns_hold() {
    let act = turn(Task::Act);
    let me = act.seat;
    let mut made = 0;
    for seed in 0..60 {
        let mut rng = GameRng::from_seed(seed);
        let mut seats: Vec<Seat> = Vec::new();
        let (mut offers, mut turn_ends) = (Vec::new(), Vec::new());
        let mut carried = false;
        let mut owner = Seat((seed % 2) as u8);
        while seats.len() < 600 {
            let actions = 1 + rng.next_u64() % 3;
            for k in 0..actions {
                let last = k + 1 == actions;
                // Before the turn's last action, sometimes an answer by the other seat.
                let answered = !last && rng.next_u64().is_multiple_of(3);
                let mut moves = vec![owner];
                if answered {
                    moves.push(Seat(1 - owner.0));
                }
                for (i, &mover) in moves.iter().enumerate() {
                    if mover == me {
                        let plies = seats.len() as u64;
                        let recent = &seats[seats.len().saturating_sub(RECENT)..];
                        let position = Thinking {
                            previous_action_end: previous_action_end(recent, me, plies),
                            pending_draw: carried.then_some(PendingDraw::Offer),
                            ..thinking(2, plies, false)
                        };
                        // Level, ahead, or no opinion at all.
                        let chances = [Some(0.5), Some(0.8), None][(rng.next_u64() % 3) as usize];
                        let decided = decide(&act, &position, Some("x".into()), chances);
                        let wanted = matches!(decided, Some(Decision::PlayAndOfferDraw(_)));
                        let due = wanted || matches!(decided, Some(Decision::PlayOfferDue(_)));
                        let ends_own_turn = owner == me && last && i == 0;
                        let (offer, carry) = offer_after(wanted, due, ends_own_turn);
                        carried = carry;
                        if ends_own_turn {
                            turn_ends.push((plies + 1, chances == Some(0.5)));
                        }
                        if offer {
                            offers.push(plies + 1);
                        }
                    }
                    seats.push(mover);
                }
            }
            owner = Seat(1 - owner.0);
        }
        // Each round's offer falls to the first end of its own turn in or after the round, and
        // is made if its chances are level then.
        let last = turn_ends.last().expect("the computer had turns").0;
        let mut expected: Vec<(u64, bool)> = (DRAW_FROM_PLY..=last)
            .step_by(DRAW_EVERY as usize)
            .filter_map(|round| turn_ends.iter().copied().find(|&(end, _)| end >= round))
            .collect();
        expected.dedup();
        let expected: Vec<u64> = expected
            .into_iter()
            .filter_map(|(end, level)| level.then_some(end))
            .collect();
        assert_eq!(offers, expected, "seed {seed}");
        made += offers.len();
    }
    assert!(made >= 120, "only {made} offers in 60 games");
}

/// A round's offer is carried while the computer's turn goes on, and made by the action that
/// ends it if its chances are level then; that action ends the carry either way.
#[test]
fn an_offer_waits_for_the_end_of_the_computer_s_turn() {
    // (wanted now, due, the action ends its turn) -> (offer now, carry)
    assert_eq!(offer_after(true, true, true), (true, false));
    assert_eq!(offer_after(true, true, false), (false, true));
    assert_eq!(offer_after(false, true, false), (false, true));
    assert_eq!(offer_after(false, true, true), (false, false));
    assert_eq!(offer_after(false, false, false), (false, false));
    assert_eq!(offer_after(false, false, true), (false, false));
    // Carried, it is due whatever the round: and still only when level.
    let act = turn(Task::Act);
    let carried = Thinking {
        pending_draw: Some(PendingDraw::Offer),
        ..thinking(2, DRAW_FROM_PLY + 7, false)
    };
    assert_eq!(
        decide(&act, &carried, Some("x".into()), Some(0.5)),
        Some(Decision::PlayAndOfferDraw("x".into()))
    );
    assert_eq!(
        decide(&act, &carried, Some("x".into()), Some(0.9)),
        Some(Decision::PlayOfferDue("x".into()))
    );
    // Never before the game is long, carried or not.
    let early = Thinking {
        pending_draw: Some(PendingDraw::Offer),
        ..thinking(2, DRAW_FROM_PLY - 10, false)
    };
    assert_eq!(
        decide(&act, &early, Some("x".into()), Some(0.5)),
        Some(Decision::Play("x".into()))
    );
}

/// Having declined a person's draw, the computer offers none of its own before its turn is
/// over, even when its round falls due then (it would read as changing its mind).
#[test]
fn the_computer_does_not_offer_a_draw_in_the_turn_it_declined_one() {
    let act = turn(Task::Act);
    let declined = Thinking {
        pending_draw: Some(PendingDraw::Declined),
        ..thinking(2, DRAW_FROM_PLY, false)
    };
    assert_eq!(
        decide(&act, &declined, Some("x".into()), Some(0.5)),
        Some(Decision::Play("x".into()))
    );
    // Through the table: declining marks its seat; the action that ends its turn clears it,
    // with no offer even if one is asked for.
    let (mut table, alice, _cpu, id) = against_computer(Level::Easy);
    table.act(id, alice.id, None, "e4").unwrap();
    table.offer_draw(id, alice.id, None).unwrap();
    let answer = table.computer_turns().unwrap().pop().unwrap();
    assert_eq!(answer.task, Task::AnswerDraw);
    table
        .computer_decides(&answer, &Decision::DeclineDraw)
        .unwrap();
    let act = table.computer_turns().unwrap().pop().unwrap();
    assert_eq!(act.task, Task::Act);
    assert_eq!(
        table.computer_position(&act).unwrap().unwrap().pending_draw,
        Some(PendingDraw::Declined)
    );
    table
        .computer_decides(&act, &Decision::PlayAndOfferDraw("e5".into()))
        .unwrap();
    assert!(table.store().load_head(id).unwrap().draw_votes.is_empty());
    assert!(table.pending_draws.borrow().is_empty());
}
