//! The public pages served over a real socket from a real database (an SQLite file, or a
//! schema on the test server), read back with an HTML parser.
//!
//! The fixtures: a site serving a table, a plain GET, a league driven through the console's
//! own `deckmate league` commands, and a server's pages turned on.

mod pages;
mod safety;

use crate::console::league::{LeagueAction, run_league};
use crate::store::testing::ScratchDb;
use crate::table::{Reads, Table, TableHandle};
use scraper::{Html, Selector};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The server the tests publish.
pub const GUILD: &str = "600000000000000001";

/// A site serving `table`'s database (the console's leagues too when `local`).
pub struct Served {
    pub address: std::net::SocketAddr,
    pub table: TableHandle,
}

pub async fn serve(table: Table, local: bool) -> Served {
    let table = TableHandle::spawn(table);
    let reads = Reads::of(table.clone(), 2).await;
    let site = super::Site::new(reads, local);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(crate::web::http::serve(
        listener,
        super::router(site),
        super::LIMITS,
    ));
    Served { address, table }
}

/// An answer: its status, headers (lower-cased names) and body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("UTF-8")
    }

    /// The body parsed as an HTML document.
    pub fn html(&self) -> Html {
        assert_eq!(
            self.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        Html::parse_document(&self.text())
    }
}

/// GETs `path` (sent as it is, unescaped) from `address`.
pub async fn get(address: std::net::SocketAddr, path: &str) -> Answer {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head and a body");
    let head = String::from_utf8_lossy(&answer[..split]).to_string();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: answer[split + 4..].to_vec(),
    }
}

/// The text of each element `selector` finds, whitespace collapsed.
pub fn texts(html: &Html, selector: &str) -> Vec<String> {
    let selector = Selector::parse(selector).expect("a selector");
    html.select(&selector)
        .map(|e| e.text().collect::<Vec<_>>().join(" "))
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The value of `attribute` on each element `selector` finds.
pub fn attributes(html: &Html, selector: &str, attribute: &str) -> Vec<String> {
    let selector = Selector::parse(selector).expect("a selector");
    html.select(&selector)
        .filter_map(|e| e.value().attr(attribute).map(str::to_string))
        .collect()
}

/// Runs `deckmate league NAME ARGS...` on `db`; what it printed.
pub fn league(db: &ScratchDb, name: &str, args: &[&str]) -> String {
    #[derive(clap::Parser)]
    struct Line {
        #[command(subcommand)]
        action: LeagueAction,
    }
    let parsed = <Line as clap::Parser>::try_parse_from(
        std::iter::once("league").chain(args.iter().copied()),
    )
    .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let mut out = Vec::new();
    run_league(
        std::path::Path::new(db.location()),
        name,
        parsed.action,
        &mut out,
    )
    .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    String::from_utf8(out).unwrap()
}

/// Turns server `guild`'s pages on (or off), as `/admin server web:on` does.
pub fn publish(table: &mut Table, guild: &str, on: bool) {
    let admin = table
        .store()
        .discord_player("100000000000000009", "admin")
        .unwrap()
        .id;
    let key = format!("test:web:{guild}:{on}");
    table
        .store()
        .change_server_settings(guild, &key, admin, 1_000, |s| {
            s.web = on;
            "web pages".into()
        })
        .unwrap();
}
