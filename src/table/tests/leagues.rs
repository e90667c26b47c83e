//! A whole season through the league service: a round robin of five with byes, a game played
//! out, a draw, an announced absence, a game never begun, a withdrawal and a player dropped
//! for forfeits, and the standings they give.

use super::temp_db;
use super::*;
use crate::league::standings::points;
use crate::store::leagues::League;
use crate::table::leagues::LeagueError;

fn refusal(result: Result<impl std::fmt::Debug, LeagueError>) -> String {
    result.unwrap_err().to_string()
}

#[test]
fn a_season_with_byes_forfeits_an_absence_and_a_withdrawal_gives_the_expected_standings() {
    let mut table = Table::new(temp_db("league-season").open());
    let league: League = table.create_league(new_league("Autumn")).unwrap();
    let p: Vec<Player> = (1..=5)
        .map(|i| table.store().local_player(&format!("p{i}")).unwrap())
        .collect();
    for player in &p {
        table.join_league(&league, player.id).unwrap();
    }
    assert_eq!(
        refusal(table.join_league(&league, p[0].id)),
        "you are already registered"
    );
    assert_eq!(
        refusal(table.create_league(new_league("Autumn"))),
        "a league called Autumn already exists here"
    );

    // Round 1 (Berger for six, 6 the bye): 1 bye, 2-5, 3-4.
    let r1 = table.start_round(&league).unwrap();
    assert_eq!(r1.matches.len(), 2);
    assert_eq!(
        refusal(table.start_round(&league)),
        "round 1 is still running; close it first"
    );
    assert_eq!(
        refusal(table.join_league(&league, p[0].id)),
        "season 1 of Autumn has begun; registration opens with the next season"
    );
    play_out(&mut table, &r1, &p[1], &SCHOLAR); // 2 beats 5
    let drawn = r1.pairings.iter().find(|x| x.white == p[2].id).unwrap();
    let id = drawn.match_id.unwrap();
    table.offer_draw(id, p[2].id, None).unwrap();
    table.offer_draw(id, p[3].id, None).unwrap();
    assert_eq!(table.close_round(&league).unwrap(), ["Round 1 is closed."]);

    // 3 cannot play round 2; an absence for a round under way is refused.
    table.unavailable(&league, p[2].id, 2).unwrap();
    let err = refusal(table.unavailable(&league, p[2].id, 1));
    assert!(err.starts_with("round 1 has already started"), "{err}");
    // Round 2: 6-4 (4 the bye), 5-3 (3 away: 5 wins by forfeit), 1-2 (never begun).
    let r2 = table.start_round(&league).unwrap();
    assert_eq!(r2.matches.len(), 1);
    let lines = table.close_round(&league).unwrap();
    assert_eq!(
        lines,
        ["Round 2 is closed.", "p1 never began match #3: a forfeit."]
    );

    // 5 withdraws. Round 3: 2-6 (2 the bye), 3-1 (1 wins), 4-5 (4 wins by forfeit).
    table.leave_league(&league, p[4].id).unwrap();
    let r3 = table.start_round(&league).unwrap();
    play_out(&mut table, &r3, &p[2], &FOOL);
    table.close_round(&league).unwrap();

    // Round 4: 6-5 (5's bye is worth nothing now), 1-4 (never begun: 1's second forfeit),
    // 2-3 (2 wins).
    let r4 = table.start_round(&league).unwrap();
    play_out(&mut table, &r4, &p[1], &SCHOLAR);
    let lines = table.close_round(&league).unwrap();
    assert!(
        lines.contains(&"p1 is dropped from the league after 2 forfeits.".to_string()),
        "{lines:?}"
    );

    let standings = table.league_standings(&league).unwrap();
    let shown: Vec<(usize, String, String)> = standings
        .iter()
        .map(|(s, player)| (s.rank, player.name.clone(), points(s.halves)))
        .collect();
    let expected = [
        (1, "p2", "4"),
        (2, "p4", "3½"),
        (3, "p1", "2"),
        // Level on a point: Sonneborn-Berger puts 3 (who drew 4) ahead of 5.
        (4, "p3", "1"),
        (5, "p5", "1"),
    ];
    let expected: Vec<(usize, String, String)> = expected
        .iter()
        .map(|(r, n, s)| (*r, n.to_string(), s.to_string()))
        .collect();
    assert_eq!(shown, expected);

    // Round 5 ends the season.
    table.start_round(&league).unwrap();
    let lines = table.close_round(&league).unwrap();
    assert_eq!(lines.last().unwrap(), "Season 1 is over.");
    assert_eq!(refusal(table.start_round(&league)), "season 1 is over");
    // Joining again opens season 2, with its own registrations and no results yet.
    table.join_league(&league, p[0].id).unwrap();
    table.join_league(&league, p[1].id).unwrap();
    let r1 = table.start_round(&league).unwrap();
    assert_eq!((r1.round, r1.pairings.len()), (1, 1));
    let standings = table.league_standings(&league).unwrap();
    assert_eq!(standings.len(), 2);
    assert!(standings.iter().all(|(s, _)| s.halves == 0));
}

#[test]
fn a_league_needs_two_players_a_known_game_and_known_tiebreaks() {
    let mut table = Table::new(temp_db("league-setup").open());
    let mut bad = new_league("X");
    bad.tiebreaks = "[\"coin_toss\"]".into();
    assert!(refusal(table.create_league(bad)).starts_with("unknown tiebreak"));
    let mut bad = new_league("X");
    bad.game = GameKind::Enprise;
    bad.options = vec![("variant".into(), "nonsense".into())];
    assert!(table.create_league(bad).is_err());
    let league = table.create_league(new_league("Solo")).unwrap();
    let ann = table.store().local_player("ann").unwrap();
    table.join_league(&league, ann.id).unwrap();
    assert_eq!(
        refusal(table.start_round(&league)),
        "a season needs at least 2 players; 1 registered"
    );
    table.leave_league(&league, ann.id).unwrap();
    assert_eq!(
        refusal(table.leave_league(&league, ann.id)),
        "you are not playing in this league"
    );
}

#[test]
fn ratings_come_from_finished_matches_per_server_or_everywhere() {
    let mut table = Table::new(temp_db("ratings").open());
    let ann = table.store().local_player("ann").unwrap();
    let ben = table.store().local_player("ben").unwrap();
    let server = crate::store::Place {
        guild_id: Some("10".into()),
        ..Default::default()
    };
    for place in [server.clone(), crate::store::Place::default()] {
        let players = [ann.clone(), ben.clone()];
        let id = table
            .create(GameKind::Chess, &[], &players, 1, &place)
            .unwrap()
            .match_id;
        for (i, text) in SCHOLAR.iter().enumerate() {
            let who = if i % 2 == 0 { ann.id } else { ben.id };
            table.act(id, who, None, text).unwrap();
        }
    }
    let everywhere = table.ratings(GameKind::Chess, None).unwrap();
    assert_eq!(everywhere[0].player.name, "ann");
    assert_eq!((everywhere[0].games, everywhere[1].games), (2, 2));
    assert!(everywhere[0].rating > 1500.0 && everywhere[1].rating < 1500.0);
    assert!(everywhere.iter().all(|l| l.provisional));
    let here = table.ratings(GameKind::Chess, Some("10")).unwrap();
    assert_eq!(here[0].games, 1);
    // A casual match (rated:false at /play) does not count.
    table.store().set_rated(1, false).unwrap();
    let everywhere = table.ratings(GameKind::Chess, None).unwrap();
    assert_eq!(everywhere[0].games, 1);
    assert!(
        table
            .ratings(GameKind::Chess, Some("10"))
            .unwrap()
            .is_empty()
    );
    assert!(table.ratings(GameKind::Echek, None).unwrap().is_empty());
}

#[test]
fn a_server_leagues_rounds_close_at_their_deadline_and_the_next_starts_by_itself() {
    use super::{START, timed_table};
    use crate::table::clock::{DAY, SimClock};
    use crate::table::scheduler::Fired;
    let clock = SimClock::at(START);
    let mut table = timed_table(&temp_db("league-auto"), &clock);
    let mut new = new_league("Auto");
    new.guild_id = Some("10".into());
    new.round_days = 2;
    let league = table.create_league(new).unwrap();
    let console = table.create_league(new_league("ByHand")).unwrap();
    for name in ["a", "b", "c", "d"] {
        let id = table.store().local_player(name).unwrap().id;
        table.join_league(&league, id).unwrap();
        table.join_league(&console, id).unwrap();
    }
    table.start_round(&league).unwrap();
    table.start_round(&console).unwrap();
    let leagues = |fired: Vec<Fired>| -> Vec<(String, Vec<String>, Option<u32>)> {
        fired
            .into_iter()
            .filter_map(|f| match f {
                Fired::League {
                    league,
                    closed,
                    started,
                } => Some((league.new.name.clone(), closed, started.map(|s| s.round))),
                _ => None,
            })
            .collect()
    };
    // A day before the deadline, the players of open games are reminded, once.
    assert_eq!(table.next_deadline().unwrap(), Some(START + DAY));
    clock.set(START + DAY);
    let reminded: Vec<(u32, usize)> = table
        .fire_due(100)
        .into_result()
        .unwrap()
        .into_iter()
        .filter_map(|f| match f {
            Fired::RoundReminder { round, games, .. } => Some((round, games.len())),
            _ => None,
        })
        .collect();
    assert_eq!(reminded, [(1, 2)], "the server's league only");
    assert!(table.fire_due(100).into_result().unwrap().is_empty());
    // Then the scheduler wakes for the deadline itself.
    assert_eq!(table.next_deadline().unwrap(), Some(START + 2 * DAY));
    clock.set(START + 2 * DAY - 1);
    assert!(leagues(table.fire_due(100).into_result().unwrap()).is_empty());
    clock.set(START + 2 * DAY);
    let moved = leagues(table.fire_due(100).into_result().unwrap());
    assert_eq!(
        moved.len(),
        1,
        "only the server's league runs itself: {moved:?}"
    );
    let (name, closed, started) = &moved[0];
    assert_eq!(name, "Auto");
    assert_eq!(closed[0], "Round 1 is closed.");
    assert_eq!(closed.len(), 3, "both games never began: {closed:?}");
    assert_eq!(*started, Some(2));
    // Fired once: the next tick has nothing to do until round 2's deadline.
    assert!(leagues(table.fire_due(100).into_result().unwrap()).is_empty());
    let season = table.store().season(league.id).unwrap();
    assert_eq!(table.store().rounds(season.id).unwrap().len(), 2);
}

#[test]
fn a_round_that_cannot_be_stored_leaves_no_match_behind() {
    let mut table = Table::new(temp_db("league-undo").open());
    let league = table.create_league(new_league("Undo")).unwrap();
    for name in ["a", "b"] {
        let id = table.store().local_player(name).unwrap().id;
        table.join_league(&league, id).unwrap();
    }
    // Storing the round fails (a damaged or read-only table, say).
    refuse_inserts(table.store(), "rounds", "", "rounds are read-only here");
    assert!(table.start_round(&league).is_err());
    // The round is stored before any match is made: none was.
    assert!(matches!(
        table.store().load_head(1),
        Err(crate::store::StoreError::NoSuchMatch(1))
    ));
}
