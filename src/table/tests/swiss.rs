//! A Swiss league through the league service: seven players over four rounds with a bye each
//! round, an announced absence, a game never begun, a draw and a withdrawal; the Dutch pairings
//! never repeat a game or a bye, and the standings add up.

use super::temp_db;
use super::*;
use super::{SCHOLAR, new_league, play_out};
use crate::store::leagues::{Format, League};
use crate::table::leagues::SWISS_TIEBREAKS;
use std::collections::HashSet;

#[test]
fn a_swiss_season_pairs_by_score_without_rematches_or_a_second_bye() {
    let mut table = Table::new(temp_db("league-swiss").open());
    let mut new = new_league("Swiss");
    new.format = Format::Swiss;
    let refused = table.create_league(new.clone()).unwrap_err().to_string();
    assert_eq!(
        refused,
        "a Swiss league needs its number of rounds, 1 to 50"
    );
    new.rounds = Some(4);
    new.tiebreaks = serde_json::to_string(&SWISS_TIEBREAKS).unwrap();
    let league: League = table.create_league(new).unwrap();
    let p: Vec<Player> = (1..=7)
        .map(|i| table.store().local_player(&format!("s{i}")).unwrap())
        .collect();
    for player in &p {
        table.join_league(&league, player.id).unwrap();
    }
    let id_of = |player: PlayerId| p.iter().position(|x| x.id == player).unwrap() + 1;

    // Round 1: the top half meets the bottom half, colours alternating from 1's White; the
    // lowest player has the bye.
    let r1 = table.start_round(&league).unwrap();
    let boards: Vec<(usize, Option<usize>, Option<String>)> = r1
        .pairings
        .iter()
        .map(|x| (id_of(x.white), x.black.map(id_of), x.result.clone()))
        .collect();
    assert_eq!(
        boards,
        [
            (1, Some(4), None),
            (5, Some(2), None),
            (3, Some(6), None),
            (7, None, Some("bye".into()))
        ]
    );
    play_out(&mut table, &r1, &p[0], &SCHOLAR); // 1 beats 4
    play_out(&mut table, &r1, &p[4], &SCHOLAR); // 5 beats 2
    let drawn = r1.pairings.iter().find(|x| x.white == p[2].id).unwrap();
    let id = drawn.match_id.unwrap();
    table.offer_draw(id, p[2].id, None).unwrap();
    table.offer_draw(id, p[5].id, None).unwrap();
    table.close_round(&league).unwrap();

    // Round 2: 3 is away (a half-point bye); every other game is played out by White.
    table.unavailable(&league, p[2].id, 2).unwrap();
    let mut rounds = vec![r1];
    for round in 2..=4 {
        if round == 3 {
            table.leave_league(&league, p[5].id).unwrap(); // 6 withdraws
        }
        let started = table.start_round(&league).unwrap();
        for pairing in &started.pairings {
            let white = p.iter().find(|x| x.id == pairing.white).unwrap().clone();
            // Round 3's first board is never begun: White forfeits it.
            if pairing.match_id.is_some() && !(round == 3 && pairing.board == 1) {
                play_out(&mut table, &started, &white, &SCHOLAR);
            }
        }
        table.close_round(&league).unwrap();
        rounds.push(started);
    }

    let season = table.store().season(league.id).unwrap();
    let stored = table.store().pairings(season.id).unwrap();
    let mut games = HashSet::new();
    let mut byes = HashSet::new();
    for round in 1..=4 {
        let here: Vec<_> = stored.iter().filter(|x| x.round == round).collect();
        let mut seen = HashSet::new();
        for x in &here {
            assert!(seen.insert(x.white), "round {round}: a player twice");
            if let Some(b) = x.black {
                assert!(seen.insert(b), "round {round}: a player twice");
                let played = !x.result.as_deref().unwrap_or("").contains('F');
                let key = (x.white.min(b), x.white.max(b));
                if played {
                    assert!(games.insert(key), "round {round}: a rematch {key:?}");
                }
            } else if x.result.as_deref() == Some("bye") {
                assert!(byes.insert(x.white), "round {round}: a second bye");
            }
        }
        let expected = if round <= 2 { 7 } else { 6 };
        assert_eq!(seen.len(), expected, "round {round}: {here:?}");
    }
    let half = stored
        .iter()
        .find(|x| x.round == 2 && x.white == p[2].id)
        .unwrap();
    assert_eq!(half.result.as_deref(), Some("half-bye"));
    assert!(
        stored
            .iter()
            .any(|x| x.round == 3 && x.result.as_deref() == Some("0F-1X"))
    );
    assert!(
        stored
            .iter()
            .all(|x| x.round < 3 || (x.white != p[5].id && x.black != Some(p[5].id)))
    );

    // The standings add up to the points of the stored results.
    let standings = table.league_standings(&league).unwrap();
    let total: u32 = standings.iter().map(|(s, _)| s.halves).sum();
    let expected: u32 = stored
        .iter()
        .map(|x| match x.result.as_deref() {
            Some("1-0" | "0-1" | "1/2-1/2" | "1X-0F" | "0F-1X" | "bye") => 2,
            Some("half-bye") => 1,
            _ => 0,
        })
        .sum();
    assert_eq!(total, expected);
    assert_eq!(standings.len(), 7);
    assert!(standings.windows(2).all(|w| w[0].0.halves >= w[1].0.halves));
}

#[test]
fn a_swiss_season_has_no_more_rounds_than_its_field_allows() {
    let mut table = Table::new(temp_db("league-swiss-cap").open());
    let mut new = new_league("Short");
    new.format = Format::Swiss;
    new.rounds = Some(9);
    let league = table.create_league(new).unwrap();
    for i in 1..=4 {
        let player = table.store().local_player(&format!("c{i}")).unwrap();
        table.join_league(&league, player.id).unwrap();
    }
    table.start_round(&league).unwrap();
    // Four players can meet in three rounds without a rematch.
    assert_eq!(table.store().season(league.id).unwrap().rounds, Some(3));
    let season = table.store().season(league.id).unwrap().id;
    let pairings = table.store().pairings(season).unwrap();
    let err = table
        .record_result(&league, 1, 9, "1-0")
        .unwrap_err()
        .to_string();
    assert_eq!(err, "round 1 has no board 9");
    assert_eq!(pairings.len(), 2);
}

#[test]
fn a_late_player_joins_a_swiss_until_half_its_rounds_have_started() {
    let mut table = Table::new(temp_db("league-swiss-late").open());
    let mut new = new_league("Late");
    new.format = Format::Swiss;
    new.rounds = Some(5);
    let league = table.create_league(new).unwrap();
    let p: Vec<Player> = (1..=7)
        .map(|i| table.store().local_player(&format!("l{i}")).unwrap())
        .collect();
    for player in &p[..6] {
        table.join_league(&league, player.id).unwrap();
    }
    table.start_round(&league).unwrap();
    table.close_round(&league).unwrap();
    // After round 1 of 5, l7 joins with the next start number and is paired in round 2.
    table.join_league(&league, p[6].id).unwrap();
    let err = table.join_league(&league, p[6].id).unwrap_err().to_string();
    assert_eq!(err, "you are already registered");
    let season = table.store().season(league.id).unwrap();
    let late = table.store().registrations(season.id).unwrap();
    assert_eq!(
        late.last().map(|r| (r.player, r.number)),
        Some((p[6].id, Some(7)))
    );
    let r2 = table.start_round(&league).unwrap();
    let seated = r2
        .pairings
        .iter()
        .any(|x| x.white == p[6].id || x.black == Some(p[6].id));
    assert!(seated, "{:?}", r2.pairings);
    table.close_round(&league).unwrap();
    table.start_round(&league).unwrap();
    // Three of five rounds started: too late.
    let outsider = table.store().local_player("l8").unwrap();
    let err = table
        .join_league(&league, outsider.id)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "season 1 of Late is past half its rounds; registration opens with the next season"
    );
    // The late player's missed round counts as nothing in the standings.
    let standings = table.league_standings(&league).unwrap();
    assert_eq!(standings.len(), 7);
}

#[test]
fn a_round_is_paired_again_only_before_any_game_begins() {
    let mut table = Table::new(temp_db("league-swiss-repair").open());
    let mut new = new_league("Again");
    new.format = Format::Swiss;
    new.rounds = Some(3);
    let league = table.create_league(new).unwrap();
    let p: Vec<Player> = (1..=5)
        .map(|i| table.store().local_player(&format!("a{i}")).unwrap())
        .collect();
    for player in &p[..4] {
        table.join_league(&league, player.id).unwrap();
    }
    let first = table.start_round(&league).unwrap();
    // A fifth player joins late; the round is paired again with them (and a bye).
    table.join_league(&league, p[4].id).unwrap();
    let again = table.repair_round(&league, None).unwrap().unwrap();
    assert_eq!(again.round, 1);
    assert_eq!(again.pairings.len(), 3);
    assert!(again.pairings.iter().any(|x| x.black.is_none()));
    for old in &first.matches {
        let status = table.store().load_head(old.match_id).unwrap().status;
        assert_ne!(status, Status::Active, "match #{} called off", old.match_id);
    }
    // Once a game has begun, no more.
    let game = again
        .pairings
        .iter()
        .find(|x| x.match_id.is_some())
        .unwrap();
    table
        .act(game.match_id.unwrap(), game.white, None, "e4")
        .unwrap();
    let err = table.repair_round(&league, None).unwrap_err().to_string();
    assert!(
        err.ends_with("a round is paired again only before any game starts"),
        "{err}"
    );
    let season = table.store().season(league.id).unwrap();
    assert_eq!(table.store().rounds(season.id).unwrap().len(), 1);
}

#[test]
fn an_admin_changes_settings_from_the_next_round_and_rounds_only_between_seasons() {
    use crate::league::standings::{Scoring, parse_tiebreaks};
    use crate::table::leagues::{LeagueChange, describe};
    let mut table = Table::new(temp_db("league-settings").open());
    let mut new = new_league("Set");
    new.format = Format::Swiss;
    new.rounds = Some(3);
    let league = table.create_league(new).unwrap();
    let change = LeagueChange {
        time_control: Some("3d".into()),
        round_days: Some(4),
        scoring: Some(Scoring::parse("3,1,0").unwrap()),
        tiebreaks: Some(parse_tiebreaks("wins, Median-Buchholz").unwrap()),
        rounds: Some(5),
        ..LeagueChange::default()
    };
    let changed = table.change_league(&league, change).unwrap();
    let stored = table.league(None, "Set").unwrap();
    assert_eq!(stored, changed);
    assert_eq!(
        describe(&stored),
        "Set (Chess): Swiss, 5 rounds; clock 3d; 4 days a round; dropped after 2 forfeits; \
         rated; scoring 3,1,0 (win, draw, loss); tiebreaks: Wins, Median Buchholz."
    );
    // Bad values are refused and nothing changes.
    let mut bad = |change: LeagueChange| {
        let league = table.league(None, "Set").unwrap();
        table
            .change_league(&league, change)
            .unwrap_err()
            .to_string()
    };
    let days = LeagueChange {
        round_days: Some(0),
        ..LeagueChange::default()
    };
    assert_eq!(bad(days), "a round lasts 1 to 60 days");
    let clock = LeagueChange {
        time_control: Some("soon".into()),
        ..LeagueChange::default()
    };
    assert!(!bad(clock).is_empty());
    assert_eq!(table.league(None, "Set").unwrap(), stored);
    assert!(parse_tiebreaks("wins, luck").is_err());
    // Once the season runs, its rounds are fixed.
    for i in 1..=2 {
        let player = table.store().local_player(&format!("s{i}")).unwrap();
        table.join_league(&stored, player.id).unwrap();
    }
    table.start_round(&stored).unwrap();
    let rounds = LeagueChange {
        rounds: Some(2),
        ..LeagueChange::default()
    };
    let err = table
        .change_league(&stored, rounds)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "a season's rounds are fixed once it starts; change them between seasons"
    );
}
