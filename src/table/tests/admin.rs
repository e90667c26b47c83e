//! Admin rulings: cancel, adjudicate and substitute, each once per key, logged, announced, and
//! refused for a match of another server.

use super::temp_db;
use super::*;
use crate::store::Place;
use crate::table::admin::{Admin, REASON_LIMIT, Ruling};

/// A chess match in server "10" between two Discord players, and its server's admin.
fn server_match(table: &mut Table) -> (MatchId, Vec<Player>, Admin) {
    let store = table.store();
    let players = vec![
        store.discord_player("1", "Ann").unwrap(),
        store.discord_player("2", "Bob").unwrap(),
    ];
    let admin = store.discord_player("9", "Ada").unwrap();
    let place = Place {
        guild_id: Some("10".into()),
        channel_id: Some("20".into()),
        thread_id: Some("30".into()),
    };
    let created = table
        .create(GameKind::Chess, &[], &players, 1, &place)
        .unwrap();
    let admin = Admin {
        player: admin.id,
        name: admin.name,
        guild: Some("10".into()),
    };
    (created.match_id, players, admin)
}

fn keyed(key: &str) -> Request<'_> {
    Request {
        key: Some(key),
        ..Request::default()
    }
}

#[test]
fn an_adjudicated_win_finishes_the_match_once_with_the_reason() {
    let mut table = Table::new(temp_db("admin-win").open());
    let (id, players, admin) = server_match(&mut table);
    table.act(id, players[0].id, None, "e4").unwrap();
    let ruled = table
        .rule(
            id,
            &admin,
            Ruling::Win(players[1].id),
            "Ann left the server",
            keyed("i:1"),
        )
        .unwrap();
    assert_eq!(
        ruled.public[0],
        "Ada (server admin) adjudicated a win for Bob: Ann left the server."
    );
    assert_eq!(
        ruled.result.as_deref(),
        Some("Black won by adjudication (Ada (server admin): Ann left the server)")
    );
    // Delivered again: the same answer, applied once.
    let again = table
        .rule(
            id,
            &admin,
            Ruling::Win(players[1].id),
            "Ann left the server",
            keyed("i:1"),
        )
        .unwrap();
    assert!(again.repeated);
    assert_eq!(again.version, ruled.version);
    let log = table.store().admin_log("10", 10).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].match_id, Some(id));
    assert_eq!(log[0].action, "adjudicate");
    assert_eq!(log[0].detail, ruled.public[0]);
    // A finished match takes no further ruling.
    let err = table
        .rule(id, &admin, Ruling::Draw, "", keyed("i:2"))
        .unwrap_err();
    assert!(matches!(err, TableError::Over { .. }), "{err}");
}

#[test]
fn a_draw_and_a_cancel_after_moves_end_the_match() {
    let mut table = Table::new(temp_db("admin-draw").open());
    let (drawn, players, admin) = server_match(&mut table);
    table.act(drawn, players[0].id, None, "d4").unwrap();
    let ruled = table
        .rule(
            drawn,
            &admin,
            Ruling::Draw,
            "agreed in voice chat",
            keyed("a"),
        )
        .unwrap();
    assert_eq!(
        ruled.result.as_deref(),
        Some("Draw by adjudication (Ada (server admin): agreed in voice chat)")
    );
    let (cancelled, players, admin) = server_match(&mut table);
    table.act(cancelled, players[0].id, None, "e4").unwrap();
    // A player may abort only before the first move; an admin may cancel at any time.
    assert!(table.abort(cancelled, players[1].id, None).is_err());
    let ruled = table
        .rule(
            cancelled,
            &admin,
            Ruling::Cancel,
            "duplicate match",
            keyed("b"),
        )
        .unwrap();
    assert_eq!(
        ruled.public,
        vec![
            "Ada (server admin) cancelled the match: duplicate match.",
            "Game over: aborted"
        ]
    );
    assert_eq!(ruled.result.as_deref(), Some("aborted"));
    let err = table.act(cancelled, players[1].id, None, "e5").unwrap_err();
    assert!(matches!(err, TableError::Aborted(_)), "{err}");
    let actions: Vec<String> = table
        .store()
        .admin_log("10", 10)
        .unwrap()
        .into_iter()
        .map(|e| e.action)
        .collect();
    assert_eq!(actions, ["cancel", "adjudicate"]);
}

#[test]
fn a_substitute_takes_the_seat_and_plays_on() {
    let mut table = Table::new(temp_db("admin-sub").open());
    let (id, players, admin) = server_match(&mut table);
    table.act(id, players[0].id, None, "e4").unwrap();
    // Bob offers a draw and leaves: his word does not pass to his substitute.
    table.offer_draw(id, players[1].id, None).unwrap();
    let cy = table.store().discord_player("3", "Cy").unwrap();
    let ruled = table
        .rule(
            id,
            &admin,
            Ruling::Substitute {
                out: players[1].id,
                into: cy.id,
            },
            "",
            keyed("s"),
        )
        .unwrap();
    assert_eq!(
        ruled.public,
        vec!["Ada (server admin) seated Cy in place of Bob."]
    );
    assert_eq!(ruled.to_act[0].1.name, "Cy");
    let err = table.accept_draw(id, players[0].id, None).unwrap_err();
    assert_eq!(err.to_string(), "there is no draw offer to answer");
    // Bob no longer plays; Cy does, from the position reached.
    let err = table.act(id, players[1].id, None, "e5").unwrap_err();
    assert!(matches!(err, TableError::NotInMatch(_)), "{err}");
    table.act(id, cy.id, None, "e5").unwrap();
    assert_eq!(table.history(id).unwrap().len(), 2);
    // Someone already seated cannot be a substitute; a stranger cannot be replaced.
    let twice = Ruling::Substitute {
        out: cy.id,
        into: players[0].id,
    };
    let err = table.rule(id, &admin, twice, "", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the substitute already plays in this match"
    );
    let stranger = Ruling::Substitute {
        out: players[1].id,
        into: players[1].id,
    };
    let err = table.rule(id, &admin, stranger, "", None).unwrap_err();
    assert_eq!(err.to_string(), format!("Bob does not play in match #{id}"));
}

#[test]
fn an_admin_of_another_server_or_an_overlong_reason_changes_nothing() {
    let mut table = Table::new(temp_db("admin-other").open());
    let (id, _, mut admin) = server_match(&mut table);
    let before = table.show(id).unwrap().version;
    admin.guild = Some("11".into());
    let err = table
        .rule(id, &admin, Ruling::Cancel, "", keyed("x"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("match #{id} is not played in this server; its own server's admins rule on it")
    );
    admin.guild = Some("10".into());
    let long = "x".repeat(REASON_LIMIT + 1);
    let err = table
        .rule(id, &admin, Ruling::Cancel, &long, None)
        .unwrap_err();
    assert!(err.to_string().contains("at most 200"), "{err}");
    assert_eq!(table.show(id).unwrap().version, before);
    assert!(table.store().admin_log("10", 10).unwrap().is_empty());
    assert!(table.store().admin_log("11", 10).unwrap().is_empty());
}
