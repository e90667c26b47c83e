//! A league round's steps carried out once each: a close or a re-pair delivered twice, a
//! re-pair interrupted after calling off some games, and a start interrupted before all its
//! matches existed, finished by the scheduler without a second match for any board.

use super::new_league;
use super::temp_db;
use super::*;
use crate::store::leagues::{Format, League};
use crate::table::leagues::LeagueError;
use crate::table::scheduler::Fired;

fn swiss(table: &mut Table, name: &str, players: u32) -> League {
    let mut new = new_league(name);
    new.format = Format::Swiss;
    new.rounds = Some(3);
    new.guild_id = Some("g".into());
    new.channel_id = Some("c".into());
    let league = table.create_league(new).unwrap();
    for i in 1..=players {
        let player = table.store().local_player(&format!("{name}{i}")).unwrap();
        table.join_league(&league, player.id).unwrap();
    }
    league
}

fn closed_rounds(table: &mut Table, league: &League) -> Vec<bool> {
    let season = table.store().season(league.id).unwrap();
    let rounds = table.store().rounds(season.id).unwrap();
    rounds.iter().map(|r| r.closed).collect()
}

#[test]
fn a_close_delivered_twice_does_not_close_the_next_round() {
    let mut table = Table::new(temp_db("league-once").open());
    let league = swiss(&mut table, "once", 4);
    table.start_round(&league).unwrap();
    let first = table.close_round_once(&league, Some("interaction:9"));
    assert_eq!(first.unwrap().unwrap()[0], "Round 1 is closed.");
    table.start_round(&league).unwrap();
    // The same interaction again: round 2 stays open.
    let again = table.close_round_once(&league, Some("interaction:9"));
    assert!(again.unwrap().is_none());
    assert_eq!(closed_rounds(&mut table, &league), [true, false]);
    // A refused request is not recorded: the same key may try again.
    table.close_round(&league).unwrap();
    table.start_round(&league).unwrap();
    table.close_round(&league).unwrap();
    let refused = table.close_round_once(&league, Some("interaction:10"));
    assert_eq!(refused.unwrap_err().to_string(), "no round is running");
    assert!(!table.store().league_request_done("interaction:10").unwrap());
}

#[test]
fn a_repair_delivered_twice_or_interrupted_pairs_the_round_once() {
    let mut table = Table::new(temp_db("league-repair-once").open());
    let league = swiss(&mut table, "rep", 4);
    let first = table.start_round(&league).unwrap();
    // An attempt that called off one game and stopped there: the next one goes on.
    let (id, version) = (first.matches[0].match_id, first.matches[0].version);
    table
        .store()
        .change(id, version, &[crate::store::Change::Abort])
        .unwrap();
    let again = table.repair_round(&league, Some("i:1")).unwrap().unwrap();
    let called_off: Vec<MatchId> = again.called_off.iter().map(|(id, _)| *id).collect();
    let old: Vec<MatchId> = first.matches.iter().map(|u| u.match_id).collect();
    assert_eq!(called_off, old);
    assert_eq!(again.matches.len(), 2);
    // Delivered again: nothing more is called off or paired.
    assert!(table.repair_round(&league, Some("i:1")).unwrap().is_none());
    let season = table.store().season(league.id).unwrap();
    let pairings = table.store().pairings(season.id).unwrap();
    let now: Vec<Option<MatchId>> = pairings.iter().map(|p| p.match_id).collect();
    let made: Vec<Option<MatchId>> = again.pairings.iter().map(|p| p.match_id).collect();
    assert_eq!(now, made);
    for update in &again.matches {
        let head = table.store().load_head(update.match_id).unwrap();
        assert_eq!(head.status, Status::Active);
    }
}

#[test]
fn a_start_interrupted_before_its_matches_existed_is_finished_by_the_scheduler() {
    let mut table = Table::new(temp_db("league-interrupted").open());
    let league = swiss(&mut table, "int", 4);
    table.start_round(&league).unwrap();
    table.close_round(&league).unwrap();
    // Round 2 is stored, its first match made, and making the second fails (the disk full,
    // say): the start reports the failure.
    let made = table.store().load_head(2).unwrap().id;
    refuse_inserts(
        table.store(),
        "matches",
        &format!("(SELECT MAX(id) FROM matches) > {made}"),
        "the disk is full",
    );
    let err = table.start_round(&league).unwrap_err();
    assert!(
        matches!(err, LeagueError::Table(TableError::Storage(_))),
        "{err:?}"
    );
    let season = table.store().season(league.id).unwrap();
    let linked = |table: &mut Table| -> Vec<Option<MatchId>> {
        let pairings = table.store().pairings(season.id).unwrap();
        pairings
            .iter()
            .filter(|p| p.round == 2)
            .map(|p| p.match_id)
            .collect()
    };
    assert_eq!(linked(&mut table), [Some(made + 1), None]);
    allow_inserts(table.store(), "matches");
    // The scheduler's next tick creates each missing match once, linked to its board.
    let fired = table.fire_due(10).into_result().unwrap();
    let opened: Vec<&Fired> = fired
        .iter()
        .filter(|f| matches!(f, Fired::League { .. }))
        .collect();
    assert_eq!(opened.len(), 1);
    let Fired::League {
        closed, started, ..
    } = opened[0]
    else {
        unreachable!()
    };
    assert!(closed.is_empty());
    let started = started.as_ref().unwrap();
    assert_eq!((started.round, started.matches.len()), (2, 1));
    assert_eq!(started.pairings.len(), 1);
    let second = started.matches[0].match_id;
    assert_eq!(linked(&mut table), [Some(made + 1), Some(second)]);
    let fired = table.fire_due(10).into_result().unwrap();
    assert!(
        !fired.iter().any(|f| matches!(f, Fired::League { .. })),
        "{fired:?}"
    );
    assert_eq!(closed_rounds(&mut table, &league), [true, false]);
}
