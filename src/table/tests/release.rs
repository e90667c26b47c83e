//! A database written by release 0.1 (tests/fixtures/release-0.1, made by
//! examples/release_fixture.rs: one match of every game in the middle of play) opens with
//! this version, migrated, and plays on: each stored snapshot reads back as the very same
//! text, agrees with its log replayed from the start, the same players are to act with the
//! same actions open to them, and each match takes its next action. A game whose saved form
//! changed since (see [`SAVED_FORM_CHANGED`]) refuses the old snapshot instead, and the table
//! replays that match's log.

use super::temp_file;
use super::*;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/release-0.1");

/// What the fixture says each match shows next: (match, game id, version, [(seat, player,
/// legal actions)]).
type Expected = Vec<(MatchId, String, u64, Vec<(u8, String, Vec<String>)>)>;

/// Games whose snapshots from release 0.1 no longer load, so that their matches are replayed
/// from the log, and the fields of their game that changed: Snipe Chess keeps its repetition
/// keys under a new name since they are hashed another way (a key of the old kind must never
/// meet one of the new), and Chess-à-Tête keeps what each player has learnt of hidden cards.
const SAVED_FORM_CHANGED: &[(&str, &[&str])] = &[
    ("snipe", &["history", "position_keys"]),
    ("chessatete", &["seen"]),
];

/// A saved state's JSON without the game's fields named.
fn without(state: &str, fields: &[&str]) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(state).unwrap();
    let game = value["game"].as_object_mut().expect("a game");
    for field in fields {
        game.remove(*field);
    }
    value
}

fn expected() -> Expected {
    let text = std::fs::read_to_string(format!("{FIXTURE}/expected.txt")).unwrap();
    let mut out: Expected = Vec::new();
    for line in text.lines() {
        if let Some(head) = line.strip_prefix("match ") {
            let words: Vec<&str> = head.split(' ').collect();
            let [id, game, "version", version] = words[..] else {
                panic!("a match line that does not read: {line}");
            };
            out.push((
                id.parse().unwrap(),
                game.to_string(),
                version.parse().unwrap(),
                vec![],
            ));
        } else if let Some(seat) = line.strip_prefix("  seat ") {
            let (who, legal) = seat.split_once(": ").unwrap();
            let (seat, name) = who.split_once(' ').unwrap();
            let legal = legal.split(" | ").map(str::to_string).collect();
            let last = out.last_mut().expect("a seat line after its match");
            last.3
                .push((seat.parse().unwrap(), name.to_string(), legal));
        }
    }
    out
}

#[test]
fn a_database_of_release_0_1_loads_as_stored_and_plays_on() {
    let copy = temp_file("release-0.1");
    std::fs::copy(format!("{FIXTURE}/deckmate.db"), &copy).unwrap();
    let mut table = Table::new(Store::open(&copy).unwrap());
    let matches = expected();
    assert_eq!(matches.len(), 9);
    let games: std::collections::BTreeSet<&str> =
        matches.iter().map(|(_, g, _, _)| g.as_str()).collect();
    assert_eq!(games.len(), GameKind::ALL.len(), "every game: {games:?}");
    for (id, game, version, to_act) in &matches {
        let shown = table.show(*id).unwrap();
        assert_eq!(shown.game.id(), game, "match {id}");
        assert_eq!(shown.version, *version, "match {id}");
        // The snapshot reads back as the same text, and is what the log replays to.
        let snapshot = table.store().snapshot(*id).unwrap();
        let changed = SAVED_FORM_CHANGED.iter().find(|(g, _)| g == game);
        if let (Some(snapshot), Some((_, fields))) = (&snapshot, changed) {
            assert_eq!(
                crate::table::live::resaved(&snapshot.state),
                None,
                "match {id}'s old snapshot is not used"
            );
            let replayed = crate::table::live::replayed_state(table.store(), *id).unwrap();
            assert_eq!(
                without(&replayed, fields),
                without(&snapshot.state, fields),
                "match {id}'s log replays to its snapshot but for {fields:?}"
            );
            assert!(replayed.contains(&format!("\"{}\"", fields.last().unwrap())));
        } else if let Some(snapshot) = snapshot {
            assert_eq!(
                crate::table::live::resaved(&snapshot.state).as_deref(),
                Some(snapshot.state.as_str()),
                "match {id}'s snapshot reads back as stored"
            );
            assert_eq!(
                crate::table::live::replayed_state(table.store(), *id).unwrap(),
                snapshot.state,
                "match {id}'s log replays to its snapshot"
            );
        } else {
            assert_eq!(*version, 0, "match {id} has a snapshot once it was played");
        }
        let acting: Vec<(u8, String)> = shown
            .to_act
            .iter()
            .map(|(seat, p)| (seat.0, p.name.clone()))
            .collect();
        let wanted: Vec<(u8, String)> = to_act.iter().map(|(s, n, _)| (*s, n.clone())).collect();
        assert_eq!(acting, wanted, "match {id}");
        for ((_, player), (_, _, legal)) in shown.to_act.iter().zip(to_act) {
            assert_eq!(&table.legal(*id, player.id).unwrap(), legal, "match {id}");
        }
        // And it plays on.
        let (_, player) = &shown.to_act[0];
        let next = table.act(*id, player.id, None, &to_act[0].2[0]).unwrap();
        assert_eq!(next.version, version + 1, "match {id}");
    }
}
