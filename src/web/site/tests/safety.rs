//! What the pages never do: serve a server whose admins have not turned them on, run what a
//! user typed as markup, answer an address that names nothing with anything but a 404, or show
//! a card a spectator may not see.

use super::*;
use crate::games::GameKind;
use crate::store::{Place, Player};
use std::time::Duration;

fn place(guild: &str) -> Place {
    Place {
        guild_id: Some(guild.into()),
        channel_id: Some("700000000000000001".into()),
        thread_id: None,
    }
}

fn players(table: &mut Table, names: [&str; 2]) -> Vec<Player> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            table
                .store()
                .discord_player(&format!("10000000000000000{i}"), name)
                .unwrap()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_is_served_only_while_its_pages_are_on() {
    let db = ScratchDb::new("web-opt-in");
    let mut table = Table::new(db.open());
    let p = players(&mut table, ["ann", "bob"]);
    let here = table
        .create(GameKind::Chess, &[], &p, 1, &place(GUILD))
        .unwrap()
        .match_id;
    let elsewhere = "600000000000000002";
    let there = table
        .create(GameKind::Chess, &[], &p, 2, &place(elsewhere))
        .unwrap()
        .match_id;
    let served = serve(table, false).await;
    let at = served.address;
    let pages = [
        format!("/s/{GUILD}"),
        format!("/s/{GUILD}/matches/{here}"),
        format!("/s/{GUILD}/matches/{here}/board.png"),
        format!("/s/{GUILD}/players/{}", p[0].id),
    ];
    for page in &pages {
        assert_eq!(
            get(at, page).await.status,
            404,
            "{page} before the pages are on"
        );
    }
    served
        .table
        .call(|t| publish(t, GUILD, true))
        .await
        .unwrap();
    for page in &pages {
        assert_eq!(get(at, page).await.status, 200, "{page} once they are on");
    }
    // Another server's match is not this server's page, and that server did not opt in.
    assert_eq!(
        get(at, &format!("/s/{GUILD}/matches/{there}")).await.status,
        404
    );
    assert_eq!(
        get(at, &format!("/s/{elsewhere}/matches/{there}"))
            .await
            .status,
        404
    );
    assert_eq!(get(at, &format!("/s/{elsewhere}")).await.status, 404);
    // The console's leagues are served only by `deckmate web`.
    assert_eq!(get(at, "/s/local").await.status, 404);
    // Turned off, the pages go within the time a page is kept.
    served
        .table
        .call(|t| publish(t, GUILD, false))
        .await
        .unwrap();
    tokio::time::sleep(super::super::FRESH + Duration::from_millis(100)).await;
    for page in &pages {
        assert_eq!(get(at, page).await.status, 404, "{page} once they are off");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_shown_as_text_never_as_markup() {
    let db = ScratchDb::new("web-escaping");
    let mut table = Table::new(db.open());
    let evil = "<script>alert(1)</script>";
    let p = players(&mut table, [evil, "<img src=x onerror=alert(2)>&amp;"]);
    let id = table
        .create(GameKind::Chess, &[], &p, 1, &place(GUILD))
        .unwrap()
        .match_id;
    table.act(id, p[0].id, None, "e4").unwrap();
    publish(&mut table, GUILD, true);
    let served = serve(table, false).await;
    for path in [
        format!("/s/{GUILD}/matches/{id}"),
        format!("/s/{GUILD}/players/{}", p[0].id),
    ] {
        let answer = get(served.address, &path).await;
        assert_eq!(answer.status, 200, "{path}");
        let page = answer.html();
        assert!(
            texts(&page, "script").is_empty(),
            "{path}: {}",
            answer.text()
        );
        assert!(attributes(&page, "img", "onerror").is_empty(), "{path}");
        let shown = texts(&page, "main").join(" ");
        assert!(shown.contains(evil), "{path}: {shown}");
        assert!(
            !answer.text().contains(evil),
            "{path}: the name is escaped in the source"
        );
    }
    let moves = texts(
        &get(served.address, &format!("/s/{GUILD}/matches/{id}"))
            .await
            .html(),
        "ol.moves li",
    );
    assert_eq!(moves, [format!("{evil}: e4")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn addresses_that_name_nothing_are_not_found() {
    let db = ScratchDb::new("web-not-found");
    let mut table = Table::new(db.open());
    let p = players(&mut table, ["ann", "bob"]);
    let id = table
        .create(GameKind::Chess, &[], &p, 1, &place(GUILD))
        .unwrap()
        .match_id;
    publish(&mut table, GUILD, true);
    let served = serve(table, true).await;
    let at = served.address;
    assert_eq!(
        get(at, &format!("/s/{GUILD}/matches/{id}")).await.status,
        200
    );
    let missing = [
        "/s/abc".to_string(),
        "/s/123456789012345678901".into(),
        "/s/-1".into(),
        format!("/s/{GUILD}/matches/abc"),
        format!("/s/{GUILD}/matches/-1"),
        format!("/s/{GUILD}/matches/+{id}"),
        format!("/s/{GUILD}/matches/99999999999999999999999"),
        format!("/s/{GUILD}/matches/{}", id + 1),
        format!("/s/{GUILD}/matches/%2e%2e"),
        format!("/s/{GUILD}/matches/{id}/board.gif"),
        format!("/s/{GUILD}/leagues/nothing"),
        format!("/s/{GUILD}/leagues/nothing/1"),
        format!("/s/{GUILD}/leagues/{}/1", "x".repeat(500)),
        format!("/s/{GUILD}/leaderboard/checkers"),
        "/s/local/leaderboard/chess".into(),
        format!("/s/{GUILD}/players/0"),
        format!("/s/{GUILD}/players/{}", u64::MAX),
        "/s/local/../../Cargo.toml".into(),
        "/style.css/../../Cargo.toml".into(),
        "/assets/web/style.css".into(),
        "/robots.txt".into(),
    ];
    for path in &missing {
        let answer = get(at, path).await;
        assert_eq!(answer.status, 404, "{path}");
        assert!(!answer.text().contains("[package]"), "{path}");
    }
    // The one file served is the style sheet, from the program itself.
    let style = get(at, "/style.css").await;
    assert_eq!(style.status, 200);
    assert_eq!(
        style.header("content-type"),
        Some("text/css; charset=utf-8")
    );
    // A head past the limit is refused, and the next request is served.
    let mut stream = tokio::net::TcpStream::connect(at).await.unwrap();
    let huge = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(64 * 1024)
    );
    let _ = stream.write_all(huge.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let head = String::from_utf8_lossy(&answer);
    assert!(
        answer.is_empty() || head.starts_with("HTTP/1.1 431"),
        "{head}"
    );
    assert_eq!(get(at, "/").await.status, 200);
    // Pages are read, not written: anything but GET is refused.
    let mut stream = tokio::net::TcpStream::connect(at).await.unwrap();
    let post = format!(
        "POST /s/{GUILD}/matches/{id} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(post.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 405"));
}

/// Two matches of `game` dealt from different seeds, played alike for as long as an action is
/// legal in both: their pages and pictures are the same bytes, though what the players hold
/// differs. Returns how many actions were played alike.
async fn same_pages_from_different_deals(game: GameKind, options: &[(&str, &str)]) -> usize {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let label = format!("{} {options:?}", game.id());
    let dbs = [
        ScratchDb::new(&format!("web-hidden-a-{}", game.id())),
        ScratchDb::new(&format!("web-hidden-b-{}", game.id())),
    ];
    let mut tables: Vec<Table> = dbs.iter().map(|db| Table::new(db.open())).collect();
    let mut ids = Vec::new();
    let mut seats = Vec::new();
    for (table, seed) in tables.iter_mut().zip([5, 6]) {
        let p = players(table, ["ann", "bob"]);
        ids.push(
            table
                .create(game, &options, &p, seed, &place(GUILD))
                .unwrap()
                .match_id,
        );
        publish(table, GUILD, true);
        seats.push(p);
    }
    assert_eq!(ids[0], ids[1]);
    let id = ids[0];
    let mut rng = crate::engine::GameRng::from_seed(1);
    let mut played = 0;
    for _ in 0..40 {
        let shown = tables[0].show(id).unwrap();
        let Some((seat, _)) = shown.to_act.first().cloned() else {
            break;
        };
        // An action both deals allow (a move of the board, a card both hands hold).
        let allowed = tables[1].legal(id, seats[1][seat.index()].id).unwrap();
        let both: Vec<String> = tables[0]
            .legal(id, seats[0][seat.index()].id)
            .unwrap()
            .into_iter()
            .filter(|a| allowed.contains(a))
            .collect();
        if both.is_empty() {
            break;
        }
        let choice = both[rng.below(both.len())].clone();
        let confirmed = crate::table::Request {
            confirmed: true,
            ..Default::default()
        };
        let a = tables[0]
            .act(id, seats[0][seat.index()].id, confirmed, &choice)
            .unwrap();
        let b = tables[1]
            .act(id, seats[1][seat.index()].id, confirmed, &choice)
            .unwrap();
        if a.result.is_some() || b.result.is_some() {
            break;
        }
        played += 1;
    }
    let hidden: Vec<Vec<u8>> = tables
        .iter()
        .map(|t| crate::render::render(&t.show(id).unwrap().seat_views[0].2))
        .collect();
    assert_ne!(hidden[0], hidden[1], "{label}: the seeds dealt differently");
    let mut answers = Vec::new();
    for table in tables {
        let served = serve(table, false).await;
        let mut bodies = Vec::new();
        for path in ["", "/board.png", "/replay.gif", "/pgn"] {
            let answer = get(served.address, &format!("/s/{GUILD}/matches/{id}{path}")).await;
            bodies.push((path, answer.status, answer.body));
        }
        answers.push(bodies);
    }
    assert!(
        answers[0] == answers[1],
        "{label}: after {played} actions alike, the pages differ"
    );
    let page = Html::parse_document(std::str::from_utf8(&answers[0][0].2).unwrap());
    assert!(
        texts(&page, "ol.moves li").is_empty(),
        "{label}: a running match's hidden moves stay hidden"
    );
    assert_eq!(answers[0][3].1, 404, "{label}: and so does any PGN");
    played
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_shows_nothing_a_spectator_may_not_see() {
    let played = same_pages_from_different_deals(GameKind::Chessatete, &[]).await;
    assert!(
        played >= 4,
        "Chess-à-Tête: only {played} actions were legal in both deals"
    );
    let played = same_pages_from_different_deals(GameKind::Enprise, &[("variant", "blind")]).await;
    // A battleplan card differs between the deals from the first one on.
    assert!(
        played >= 1,
        "En Prise Blind: only {played} actions were legal in both deals"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_memory_matchs_replay_waits_for_its_end() {
    let db = ScratchDb::new("web-memory-replay");
    let mut table = Table::new(db.open());
    let p = players(&mut table, ["ann", "bob"]);
    let memory = [("variant".to_string(), "memory".to_string())];
    let id = table
        .create(GameKind::Enprise, &memory, &p, 1, &place(GUILD))
        .unwrap()
        .match_id;
    // Both ready: the plans were shown to be memorised, and are face down now.
    for player in &p {
        table.act(id, player.id, None, "ready").unwrap();
    }
    publish(&mut table, GUILD, true);
    let served = serve(table, false).await;
    let page = format!("/s/{GUILD}/matches/{id}");
    let html = get(served.address, &page).await.html();
    assert!(attributes(&html, "a[href*='replay.gif']", "href").is_empty());
    let replay = format!("{page}/replay.gif");
    assert_eq!(
        get(served.address, &replay).await.status,
        404,
        "its first frames show the plans"
    );
    let ann = p[0].id;
    served
        .table
        .call(move |t| t.resign(id, ann, None).map(|_| ()))
        .await
        .unwrap()
        .unwrap();
    tokio::time::sleep(super::super::FRESH + Duration::from_millis(100)).await;
    let html = get(served.address, &page).await.html();
    let link = attributes(&html, "a[href*='replay.gif']", "href");
    assert_eq!(link.len(), 1);
    let gif = get(served.address, &link[0]).await;
    assert_eq!(gif.status, 200);
    assert!(gif.body.starts_with(b"GIF89a"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_security_headers_and_bad_segments_are_not_found() {
    let served = serve(Table::new(ScratchDb::new("web-headers").open()), true).await;
    let at = served.address;
    for path in [
        "/s/local/leagues/%FF",
        "/s/local/matches/%FF",
        "/s/local/leagues/%FF/1/trf",
        "/s/%FF",
    ] {
        let answer = get(at, path).await;
        assert_eq!(answer.status, 404, "{path}");
        assert_eq!(
            answer.header("content-type"),
            Some("text/html; charset=utf-8"),
            "{path}"
        );
    }
    let mut stream = tokio::net::TcpStream::connect(at).await.unwrap();
    let post = "DELETE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    stream.write_all(post.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let head = String::from_utf8_lossy(&answer).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 405"), "{head}");
    assert!(
        head.contains("content-security-policy: default-src 'none'"),
        "{head}"
    );
    for path in ["/", "/nothing", "/style.css", "/s/local"] {
        let answer = get(at, path).await;
        let csp = answer.header("content-security-policy").unwrap_or_default();
        assert!(csp.starts_with("default-src 'none'"), "{path}: {csp:?}");
        assert_eq!(
            answer.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
    }
}
