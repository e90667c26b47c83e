//! A league played through the console's own commands is readable end to end on the web: the
//! standings row for row as `deckmate league NAME standings` prints them, every game and
//! player link opens, the board pictures load, and the TRF download pairs the next round of a
//! Swiss as the league then does.

use super::*;
use crate::league::dutch;
use std::collections::HashMap;

/// The rows of the season page's standings, written as `deckmate league standings` writes
/// them: rank, player, points and each tiebreak, two spaces apart.
fn standings_rows(page: &Html) -> Vec<String> {
    let row = Selector::parse("table.standings tbody tr").unwrap();
    let cell = Selector::parse("td").unwrap();
    page.select(&row)
        .map(|tr| {
            let cells: Vec<String> = tr.select(&cell).map(|td| td.text().collect()).collect();
            format!(
                "{:>4}  {}  {}  {}",
                cells[0],
                cells[1],
                cells[2],
                cells[3..].join("  ")
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_simulated_round_robin_reads_end_to_end_on_the_web() {
    let db = ScratchDb::new("web-round-robin");
    league(&db, "Autumn Cup", &["create", "--game", "chess"]);
    league(
        &db,
        "Autumn Cup",
        &["simulate", "--players", "6", "--seed", "3"],
    );
    let printed = league(&db, "Autumn Cup", &["standings"]);
    let expected: Vec<String> = printed
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    assert_eq!(expected.len(), 6, "{printed}");
    let served = serve(Table::new(db.open()), true).await;
    let at = served.address;

    // From the front page to the season, by the links a person follows.
    let home = get(at, "/").await.html();
    let local = attributes(&home, "main a", "href");
    assert_eq!(local, ["/s/local"]);
    let server = get(at, "/s/local").await.html();
    let seasons = attributes(&server, "main li a", "href");
    assert_eq!(
        seasons,
        [
            "/s/local/leagues/Autumn%20Cup",
            "/s/local/leagues/Autumn%20Cup/1"
        ]
    );
    let league_page = get(at, &seasons[0]).await;
    assert_eq!(league_page.status, 200);
    let season = get(at, &seasons[1]).await;
    assert_eq!(season.status, 200);
    assert_eq!(
        season
            .header("content-security-policy")
            .map(|c| c.starts_with("default-src 'none'")),
        Some(true)
    );
    let page = season.html();
    assert_eq!(texts(&page, "h1"), ["Autumn Cup, season 1"]);
    assert_eq!(standings_rows(&page), expected, "{printed}");
    let header: Vec<String> = printed
        .lines()
        .next()
        .unwrap()
        .split("  ")
        .skip(3)
        .map(str::to_string)
        .collect();
    assert_eq!(
        texts(&page, "table.standings thead th")[3..],
        header[..],
        "{printed}"
    );
    // The crosstable: a row a player, a cell for each of them.
    let cross = texts(&page, "table.cross tbody tr");
    assert_eq!(cross.len(), 6);
    // Five rounds of three games, each with its board and result.
    assert_eq!(texts(&page, "h3[id^=round-]").len(), 5);
    let games = attributes(&page, "table.pairings a[href*='/matches/']", "href");
    assert_eq!(games.len(), 15);
    let results = texts(&page, "table.pairings td.result");
    assert_eq!(results.len(), 15);
    assert!(
        results
            .iter()
            .all(|r| ["1-0", "0-1", "½-½"].contains(&r.as_str())),
        "{results:?}"
    );
    for game in &games {
        let answer = get(at, game).await;
        assert_eq!(answer.status, 200, "{game}");
        let page = answer.html();
        let players = texts(&page, "ul.players li");
        assert_eq!(players.len(), 2, "{game}");
        let moves = texts(&page, "ol.moves li");
        assert!(
            !moves.is_empty(),
            "{game}: the moves of a finished game are shown"
        );
        let board = attributes(&page, "img.board", "src");
        let picture = get(at, &board[0]).await;
        assert_eq!(picture.status, 200, "{}", board[0]);
        assert_eq!(picture.header("content-type"), Some("image/png"));
        assert!(picture.body.starts_with(b"\x89PNG\r\n\x1a\n"));
        // Chess has PGN, and a finished game has no refresh.
        let pgn = attributes(&page, "a[download]", "href");
        let file = get(at, &pgn[0]).await;
        assert!(
            file.text().contains("[Event \"deckmate match #"),
            "{}",
            file.text()
        );
        assert!(attributes(&page, "meta[http-equiv=refresh]", "content").is_empty());
    }
    let players = attributes(&page, "table.standings a", "href");
    for player in &players {
        let answer = get(at, player).await;
        assert_eq!(answer.status, 200, "{player}");
        let page = answer.html();
        assert_eq!(texts(&page, "table.matches tbody tr").len(), 5, "{player}");
        assert_eq!(
            attributes(&page, "main ul li a", "href"),
            ["/s/local/leagues/Autumn%20Cup/1"]
        );
    }
    // The round robin's TRF16 file: its event, rounds, and a line a player.
    let trf = attributes(&page, "a[download]", "href");
    assert_eq!(trf, ["/s/local/leagues/Autumn%20Cup/1/trf"]);
    let file = get(at, &trf[0]).await;
    assert_eq!(file.status, 200);
    assert_eq!(
        file.header("content-disposition"),
        Some("attachment; filename=\"season-1.trf\"")
    );
    let text = file.text();
    assert!(
        text.starts_with("012 Autumn Cup, season 1\nXXR 5\nXXC white1\n"),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("001")).count(),
        6,
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_trf_download_pairs_the_next_round_as_the_league_does() {
    let db = ScratchDb::new("web-swiss-trf");
    league(
        &db,
        "Open",
        &[
            "create", "--game", "chess", "--format", "swiss", "--rounds", "5",
        ],
    );
    let names: Vec<String> = (1..=9).map(|i| format!("p{i}")).collect();
    let mut join = vec!["join"];
    join.extend(names.iter().map(String::as_str));
    league(&db, "Open", &join);
    let mut rng = crate::engine::GameRng::from_seed(11);
    for round in 1..=3 {
        league(&db, "Open", &["start"]);
        let mut table = Table::new(db.open());
        let l = table.league(None, "Open").unwrap();
        let season = table.store().season(l.id).unwrap();
        for p in table.store().pairings(season.id).unwrap() {
            if let (Some(id), true) = (p.match_id, p.round == round) {
                crate::console::league::play_randomly(&mut table, id, &mut rng).unwrap();
            }
        }
        drop(table);
        league(&db, "Open", &["close"]);
    }
    // Round 4: p4 will be away, p7 has withdrawn.
    league(&db, "Open", &["unavailable", "p4", "4"]);
    league(&db, "Open", &["leave", "p7"]);

    let served = serve(Table::new(db.open()), true).await;
    let file = get(served.address, "/s/local/leagues/Open/1/trf").await;
    assert_eq!(file.status, 200);
    let text = file.text();
    let tournament = crate::league::trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(tournament.round(), 4, "{text}");
    assert_eq!(tournament.rounds, 5);
    let absent: Vec<u32> = tournament
        .entrants
        .iter()
        .filter(|e| !e.present)
        .map(|e| e.number)
        .collect();
    assert_eq!(absent, [4, 7], "{text}");
    // `deckmate pair --dutch FILE -p OUT`, as a director would run it on the download.
    let dir = std::env::temp_dir().join(format!("deckmate-web-trf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (file, out) = (dir.join("season-1.trf"), dir.join("pairs.txt"));
    std::fs::write(&file, &text).unwrap();
    crate::console::league::run_pair(&file, Some(&out)).unwrap();
    let paired_by_file = std::fs::read_to_string(&out).unwrap();
    let from_file = dutch::pair(&tournament).unwrap();
    assert_eq!(paired_by_file, crate::league::trf::write_pairs(&from_file));

    league(&db, "Open", &["start"]);
    let mut table = Table::new(db.open());
    let l = table.league(None, "Open").unwrap();
    let season = table.store().season(l.id).unwrap();
    let number: HashMap<_, _> = table
        .store()
        .registrations(season.id)
        .unwrap()
        .iter()
        .map(|r| (r.player, r.number.unwrap()))
        .collect();
    let round4: Vec<_> = table
        .store()
        .pairings(season.id)
        .unwrap()
        .into_iter()
        .filter(|p| p.round == 4)
        .collect();
    let games: Vec<(u32, u32)> = round4
        .iter()
        .filter_map(|p| Some((number[&p.white], number[&p.black?])))
        .collect();
    let bye = round4
        .iter()
        .find(|p| p.result.as_deref() == Some("bye"))
        .map(|p| number[&p.white]);
    let paired: Vec<(u32, u32)> = from_file.games.iter().map(|g| (g.white, g.black)).collect();
    assert_eq!(games, paired, "{text}");
    assert_eq!(bye, from_file.bye, "{text}");
    let league_round = crate::league::Round {
        games: games
            .iter()
            .map(|&(white, black)| crate::league::Pairing { white, black })
            .collect(),
        bye,
    };
    assert_eq!(
        crate::league::trf::write_pairs(&league_round),
        paired_by_file
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_page_is_drawn_again_once_what_it_shows_changes() {
    let db = ScratchDb::new("web-kept");
    let mut table = Table::new(db.open());
    let p: Vec<_> = ["ann", "bob"]
        .iter()
        .map(|n| table.store().local_player(n).unwrap())
        .collect();
    let place = crate::store::Place::default();
    let id = table
        .create(crate::games::GameKind::Chess, &[], &p, 1, &place)
        .unwrap()
        .match_id;
    let served = serve(table, true).await;
    let at = served.address;
    let page = format!("/s/local/matches/{id}");
    let player = format!("/s/local/players/{}", p[0].id);
    let moves = |a: &Answer| texts(&a.html(), "ol.moves li");
    assert!(moves(&get(at, &page).await).is_empty());
    assert_eq!(
        texts(&get(at, &player).await.html(), "table.matches tbody tr").len(),
        1
    );
    // Asked again at once: the same page, from memory.
    assert!(moves(&get(at, &page).await).is_empty());
    let (ann, bob) = (p[0].clone(), p[1].clone());
    served
        .table
        .call(move |t| {
            t.act(id, ann.id, None, "e4").unwrap();
            t.create(crate::games::GameKind::Chess, &[], &[ann, bob], 2, &place)
                .unwrap();
        })
        .await
        .unwrap();
    tokio::time::sleep(super::super::FRESH + std::time::Duration::from_millis(100)).await;
    assert_eq!(moves(&get(at, &page).await), ["ann: e4"]);
    assert_eq!(
        texts(&get(at, &player).await.html(), "table.matches tbody tr").len(),
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directors_change_of_result_shows_on_the_season_page() {
    let db = ScratchDb::new("web-result-change");
    league(&db, "Duel", &["create", "--game", "chess"]);
    league(&db, "Duel", &["join", "ann", "bob"]);
    league(&db, "Duel", &["start"]);
    league(&db, "Duel", &["record", "1", "1", "1-0"]);
    let served = serve(Table::new(db.open()), true).await;
    let path = "/s/local/leagues/Duel/1";
    let results = |a: &Answer| texts(&a.html(), "table.pairings td.result");
    assert_eq!(results(&get(served.address, path).await), ["1-0"]);
    league(&db, "Duel", &["record", "1", "1", "0-1"]);
    tokio::time::sleep(super::super::FRESH + std::time::Duration::from_millis(100)).await;
    assert_eq!(results(&get(served.address, path).await), ["0-1"]);
}
