//! A pods league of En Prise through the league service: seven players at a table of four
//! and one of three, a win adjudicated, a table never begun (its first seat forfeits), an
//! absence, and standings in placement points.

use super::new_league;
use super::temp_db;
use super::*;
use crate::league::standings::points;
use crate::store::leagues::{Format, League};
use crate::table::admin::{Admin, Ruling};
use crate::table::leagues::PODS_TIEBREAKS;

#[test]
fn a_pods_season_seats_tables_by_score_and_scores_places() {
    let mut table = Table::new(temp_db("league-pods").open());
    let mut new = new_league("Pods");
    new.format = Format::Pods;
    new.rounds = Some(3);
    new.guild_id = Some("g".into());
    new.forfeits_to_drop = 0;
    new.tiebreaks = serde_json::to_string(&PODS_TIEBREAKS).unwrap();
    let refused = table.create_league(new.clone()).unwrap_err().to_string();
    assert_eq!(
        refused,
        "pods seat three or four at a table; Chess is for two"
    );
    new.game = GameKind::Enprise;
    let league: League = table.create_league(new).unwrap();
    let p: Vec<Player> = (1..=7)
        .map(|i| table.store().local_player(&format!("e{i}")).unwrap())
        .collect();
    for player in &p {
        table.join_league(&league, player.id).unwrap();
    }
    let name = |id: PlayerId| p.iter().find(|x| x.id == id).unwrap().name.clone();

    // Round 1: a table of four and one of three, in rank order.
    let r1 = table.start_round(&league).unwrap();
    let seated: Vec<Vec<String>> = r1
        .pairings
        .iter()
        .map(|x| x.table.iter().map(|s| name(s.player)).collect())
        .collect();
    assert_eq!(
        seated,
        [vec!["e1", "e2", "e3", "e4"], vec!["e5", "e6", "e7"]]
    );
    assert_eq!(r1.matches.len(), 2);
    assert_eq!(
        table
            .store()
            .load(r1.matches[0].match_id)
            .unwrap()
            .players
            .len(),
        4
    );
    let admin = Admin {
        player: p[0].id,
        name: "ref".into(),
        guild: Some("g".into()),
    };
    let first = r1.pairings[0].match_id.unwrap();
    let request = Request {
        key: Some("win"),
        ..Request::default()
    };
    table
        .rule(first, &admin, Ruling::Win(p[1].id), "", request)
        .unwrap();
    let lines = table.close_round(&league).unwrap();
    assert_eq!(
        lines,
        ["Round 1 is closed.", "e5 never began match #2: a forfeit."]
    );
    let after: Vec<(String, String)> = table
        .league_standings(&league)
        .unwrap()
        .iter()
        .map(|(s, player)| (player.name.clone(), points(s.halves)))
        .collect();
    // e2 won a table of four (3 points); e6 and e7 each finished ahead of e5 (1 point).
    assert_eq!(after[0], ("e2".to_string(), "3".to_string()));
    assert_eq!(
        &after[1..3],
        [("e6".into(), "1".into()), ("e7".into(), "1".into())]
    );

    // Round 2: e3 is away (no points); six play at two tables of three.
    table.unavailable(&league, p[2].id, 2).unwrap();
    let r2 = table.start_round(&league).unwrap();
    let sizes: Vec<usize> = r2.pairings.iter().map(|x| x.table.len()).collect();
    assert_eq!(sizes, [3, 3, 0]);
    let away = r2.pairings.last().unwrap();
    assert_eq!(
        (away.white, away.result.as_deref()),
        (p[2].id, Some("zero-bye"))
    );
    // The leader sits with the next best, not with a player they met if that can be helped.
    let top = &r2.pairings[0].table;
    assert_eq!(name(top[0].player).as_str(), "e2");
    table.close_round(&league).unwrap();

    // Round 3: everyone back; a lone table never begun again forfeits its first seat only.
    let r3 = table.start_round(&league).unwrap();
    let sizes: Vec<usize> = r3.pairings.iter().map(|x| x.table.len()).collect();
    assert_eq!(sizes, [4, 3]);
    let lines = table.close_round(&league).unwrap();
    assert!(
        lines.last().unwrap().ends_with("Season 1 is over."),
        "{lines:?}"
    );
    let standings = table.league_standings(&league).unwrap();
    let total: u32 = standings.iter().map(|(s, _)| s.halves).sum();
    // Round 1: 6 + 2 + 2; rounds 2 and 3: every table never begun gives 2 to each other seat.
    assert_eq!(total, 10 + (2 + 2 + 2 + 2) + (3 * 2 + 2 * 2));
    assert_eq!(standings[0].1.name, "e2");
}

#[test]
fn an_en_prise_league_scores_a_draw_as_nothing_for_either_player() {
    let mut table = Table::new(temp_db("league-enprise-draw").open());
    let mut new = new_league("Duel");
    new.game = GameKind::Enprise;
    new.guild_id = Some("g".into());
    new.scoring = crate::league::standings::Scoring::for_game(GameKind::Enprise);
    let league: League = table.create_league(new).unwrap();
    let p: Vec<Player> = (1..=2)
        .map(|i| table.store().local_player(&format!("d{i}")).unwrap())
        .collect();
    for player in &p {
        table.join_league(&league, player.id).unwrap();
    }
    let r1 = table.start_round(&league).unwrap();
    let admin = Admin {
        player: p[0].id,
        name: "ref".into(),
        guild: Some("g".into()),
    };
    let id = r1.pairings[0].match_id.unwrap();
    let request = Request {
        key: Some("draw"),
        ..Request::default()
    };
    table.rule(id, &admin, Ruling::Draw, "", request).unwrap();
    let again = table.league(Some("g"), "Duel").unwrap();
    assert_eq!(again.new.scoring.show(), "1,0,0");
    let standings = table.league_standings(&league).unwrap();
    let halves: Vec<u32> = standings.iter().map(|(s, _)| s.halves).collect();
    assert_eq!(halves, [0, 0]);
    let grid = table.league_crosstable(&league).unwrap().unwrap();
    assert!(
        grid[1].contains("X ½") || grid[1].contains("X  ½"),
        "{grid:?}"
    );
}

#[test]
fn a_memory_table_where_no_one_acted_scores_nothing_for_anyone() {
    let mut table = Table::new(temp_db("league-pods-memory").open());
    let mut new = new_league("Memory");
    new.format = Format::Pods;
    new.rounds = Some(1);
    new.game = GameKind::Enprise;
    new.options = vec![("variant".into(), "memory".into())];
    let league: League = table.create_league(new).unwrap();
    for i in 1..=3 {
        let player = table.store().local_player(&format!("m{i}")).unwrap();
        table.join_league(&league, player.id).unwrap();
    }
    let r1 = table.start_round(&league).unwrap();
    let id = r1.pairings[0].match_id.unwrap();
    let due = table.show(id).unwrap().to_act.len();
    let lines = table.close_round(&league).unwrap();
    let forfeits = lines.iter().filter(|l| l.contains("never began")).count();
    assert_eq!(forfeits, due, "{lines:?}");
    let standings = table.league_standings(&league).unwrap();
    let total: u32 = standings.iter().map(|(s, _)| s.halves).sum();
    // Every seat due to act forfeits; the others each finish ahead of all of them.
    assert_eq!(total, (3 - due as u32) * 2 * due as u32);
    assert_eq!((due, total), (3, 0), "everyone memorises first");
}
