//! League substitutes: seated in the middle of a game they play it on and take over a round
//! robin's schedule; seated between games they enter a Swiss as a late player; either way the
//! points stay with whoever earned them, and a request delivered twice is carried out once.

use super::temp_db;
use super::*;
use super::{SCHOLAR, new_league};
use crate::league::standings::points;
use crate::store::leagues::{Format, League};
use crate::table::admin::Admin;
use crate::table::leagues::{LeagueError, SWISS_TIEBREAKS};

fn director(table: &mut Table) -> Admin {
    let td = table.store().local_player("td").unwrap();
    Admin {
        player: td.id,
        name: td.name,
        guild: None,
    }
}

fn refusal(result: Result<impl std::fmt::Debug, LeagueError>) -> String {
    result.unwrap_err().to_string()
}

fn players(table: &mut Table, names: &[&str]) -> Vec<Player> {
    names
        .iter()
        .map(|name| table.store().local_player(name).unwrap())
        .collect()
}

#[test]
fn a_substitute_plays_on_the_game_left_and_the_rest_of_a_round_robin() {
    let mut table = Table::new(temp_db("league-substitute").open());
    let league: League = table.create_league(new_league("Winter")).unwrap();
    let p = players(&mut table, &["p1", "p2", "p3", "p4", "sub", "stranger"]);
    let td = director(&mut table);
    for player in &p[..4] {
        table.join_league(&league, player.id).unwrap();
    }
    let (p2, sub) = (p[1].id, p[4].id);
    assert_eq!(
        refusal(table.substitute_in_league(&league, p2, sub, &td, "k0")),
        "season 1 has not begun: p2 can leave and sub join"
    );

    // Round 1 (Berger for four): 1-4, 2-3. p2 opens and leaves; sub is seated mid-game.
    let r1 = table.start_round(&league).unwrap();
    let game = r1.pairings.iter().find(|x| x.white == p2).unwrap().clone();
    let id = game.match_id.unwrap();
    table.act(id, p2, None, "e4").unwrap();
    assert_eq!(
        refusal(table.substitute_in_league(&league, p[5].id, sub, &td, "k1")),
        "stranger does not play in season 1"
    );
    assert_eq!(
        refusal(table.substitute_in_league(&league, p2, p[2].id, &td, "k1")),
        "p3 is already registered in season 1"
    );
    let done = table
        .substitute_in_league(&league, p2, sub, &td, "k1")
        .unwrap()
        .unwrap();
    assert_eq!(
        done.lines,
        [
            "sub takes p2's place in Winter (season 1).".to_string(),
            format!("sub plays on in match #{id} (round 1, board 2)."),
        ]
    );
    assert_eq!(done.updates[0].match_id, id);
    // Delivered again: nothing more happens; asked again: refused.
    let before = table.store().registrations(1).unwrap();
    assert!(
        table
            .substitute_in_league(&league, p2, sub, &td, "k1")
            .unwrap()
            .is_none()
    );
    assert_eq!(table.store().registrations(1).unwrap(), before);
    assert_eq!(
        refusal(table.substitute_in_league(&league, p2, p[5].id, &td, "k2")),
        "p2 was already replaced by sub"
    );
    // p2 can no longer move; sub plays on from the position and wins.
    assert!(table.act(id, p2, None, "Bc4").is_err());
    for (i, text) in SCHOLAR.iter().enumerate().skip(1) {
        let who = if i % 2 == 0 { sub } else { p[2].id };
        table.act(id, who, None, text).unwrap();
    }
    let pairing = |table: &mut Table, round: u32, board: u32| {
        let rows = table.store().pairings(1).unwrap();
        rows.into_iter()
            .find(|x| x.round == round && x.board == board)
            .unwrap()
    };
    assert_eq!(pairing(&mut table, 1, 2).white, sub);
    table.close_round(&league).unwrap();
    assert_eq!(pairing(&mut table, 1, 2).result.as_deref(), Some("1-0"));

    // Round 2 (4-3, 1-2): sub holds p2's start number, and the table stays one of four.
    let r2 = table.start_round(&league).unwrap();
    assert_eq!(r2.pairings.len(), 2);
    assert_eq!(r2.matches.len(), 2);
    let board = r2.pairings.iter().find(|x| x.white == p[0].id).unwrap();
    assert_eq!((board.black, board.result.clone()), (Some(sub), None));

    // The win is sub's; p2 keeps what they earned (nothing) and is listed as withdrawn.
    let standings = table.league_standings(&league).unwrap();
    let score = |who: PlayerId| {
        let line = standings.iter().find(|(_, x)| x.id == who).unwrap();
        points(line.0.halves)
    };
    assert_eq!(score(sub), "1");
    assert_eq!(score(p2), "0");
    let mut registration = |who: PlayerId| {
        let rows = table.store().registrations(1).unwrap();
        rows.into_iter().find(|r| r.player == who).unwrap()
    };
    assert_eq!(registration(p2).status, "withdrawn");
    assert_eq!(registration(sub).replaces, Some(p2));
}

#[test]
fn a_substitute_between_games_enters_a_swiss_as_a_late_player() {
    let mut table = Table::new(temp_db("league-substitute-swiss").open());
    let mut new = new_league("Swiss");
    new.format = Format::Swiss;
    new.rounds = Some(3);
    new.tiebreaks = serde_json::to_string(&SWISS_TIEBREAKS).unwrap();
    let league = table.create_league(new).unwrap();
    let p = players(&mut table, &["s1", "s2", "s3", "s4", "sub"]);
    let td = director(&mut table);
    for player in &p[..4] {
        table.join_league(&league, player.id).unwrap();
    }
    // Round 1: 1-3, 4-2; s4's game is won by s4 before s4 is replaced.
    let r1 = table.start_round(&league).unwrap();
    let game = r1.pairings.iter().find(|x| x.white == p[3].id).unwrap();
    let id = game.match_id.unwrap();
    for (i, text) in SCHOLAR.iter().enumerate() {
        let who = if i % 2 == 0 { p[3].id } else { p[1].id };
        table.act(id, who, None, text).unwrap();
    }
    let done = table
        .substitute_in_league(&league, p[3].id, p[4].id, &td, "swap")
        .unwrap()
        .unwrap();
    assert_eq!(done.lines, ["sub takes s4's place in Swiss (season 1)."]);
    assert!(done.updates.is_empty());
    table.close_round(&league).unwrap();

    // Round 2 pairs sub (start number 5, no points) and not s4, whose win stays theirs.
    let r2 = table.start_round(&league).unwrap();
    let seated: Vec<PlayerId> = r2
        .pairings
        .iter()
        .flat_map(|x| [Some(x.white), x.black])
        .flatten()
        .collect();
    assert!(seated.contains(&p[4].id));
    assert!(!seated.contains(&p[3].id));
    let standings = table.league_standings(&league).unwrap();
    let s4 = standings.iter().find(|(_, x)| x.id == p[3].id).unwrap();
    assert_eq!(points(s4.0.halves), "1");
}

#[test]
fn a_substitute_takes_a_pods_seat_and_its_placement_points() {
    use crate::table::admin::Ruling;
    use crate::table::leagues::PODS_TIEBREAKS;
    let mut table = Table::new(temp_db("league-substitute-pods").open());
    let mut new = new_league("Pods");
    new.format = Format::Pods;
    new.game = GameKind::Enprise;
    new.rounds = Some(2);
    new.tiebreaks = serde_json::to_string(&PODS_TIEBREAKS).unwrap();
    let league = table.create_league(new).unwrap();
    let p = players(&mut table, &["e1", "e2", "e3", "sub"]);
    let td = director(&mut table);
    for player in &p[..3] {
        table.join_league(&league, player.id).unwrap();
    }
    let r1 = table.start_round(&league).unwrap();
    let id = r1.matches[0].match_id;
    table
        .substitute_in_league(&league, p[1].id, p[3].id, &td, "k")
        .unwrap()
        .unwrap();
    let request = Request {
        key: Some("win"),
        ..Request::default()
    };
    table
        .rule(id, &td, Ruling::Win(p[3].id), "", request)
        .unwrap();
    table.close_round(&league).unwrap();
    let seats: Vec<(PlayerId, Option<u32>)> = table.store().pairings(1).unwrap()[0]
        .table
        .iter()
        .map(|s| (s.player, s.points))
        .collect();
    assert_eq!(seats[1].0, p[3].id);
    assert_eq!(seats[1].1, Some(4), "{seats:?}");
    assert!(seats.iter().all(|(who, _)| *who != p[1].id));
}

#[test]
fn a_game_called_off_or_already_handed_over_does_not_stop_a_substitution() {
    use crate::table::admin::Ruling;
    let mut table = Table::new(temp_db("league-substitute-again").open());
    let league = table.create_league(new_league("Spring")).unwrap();
    let p = players(&mut table, &["p1", "p2", "p3", "p4", "s1", "s2"]);
    let td = director(&mut table);
    for player in &p[..4] {
        table.join_league(&league, player.id).unwrap();
    }
    // Round 1: 1-4, 2-3. The game 1-4 is called off; p4 is replaced all the same.
    let r1 = table.start_round(&league).unwrap();
    let (first, second) = (&r1.matches[0], &r1.matches[1]);
    let off = [crate::store::Change::Abort];
    table
        .store()
        .change(first.match_id, first.version, &off)
        .unwrap();
    let done = table
        .substitute_in_league(&league, p[3].id, p[4].id, &td, "a")
        .unwrap()
        .unwrap();
    assert_eq!(done.lines.len(), 1, "{:?}", done.lines);
    // An attempt that seated s2 in p3's game and stopped there: a new request finishes it.
    let ruling = Ruling::Substitute {
        out: p[2].id,
        into: p[5].id,
    };
    let request = Request {
        key: Some("half"),
        ..Request::default()
    };
    table
        .rule(second.match_id, &td, ruling, "", request)
        .unwrap();
    let done = table
        .substitute_in_league(&league, p[2].id, p[5].id, &td, "b")
        .unwrap()
        .unwrap();
    assert_eq!(
        done.lines[1],
        format!(
            "s2 plays on in match #{} (round 1, board 2).",
            second.match_id
        )
    );
    let board = table.store().pairings(1).unwrap()[1].clone();
    assert_eq!(board.black, Some(p[5].id));
}
