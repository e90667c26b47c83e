//! The public pages (WEB_ADDR, or `deckmate web`): a server's leagues, seasons, matches,
//! players and leaderboards, as a spectator sees them, read on the table's read-only twins.
//!
//! - **Who is served.** A Discord server's pages exist only while its admins have them on
//!   (`/admin server web:on`); the console's own leagues only when the operator serves a
//!   database alone (`deckmate web`). Anything else, and any address that does not name
//!   something that exists, is the same 404: the site does not tell which servers exist.
//! - **Cached by version.** Each page is kept with a stamp read cheaply from the database (a
//!   match's version; a season's counts and sums, [`crate::store::Store::season_stamp`]) and
//!   drawn again only when the stamp changed; within [`FRESH`] of the last check it is served
//!   from memory without reading at all, so a round's start under load costs one read a
//!   second a page.
//! - **Bounded.** Requests are served through [`crate::web::http`] (connections, time and head
//!   size limited); only GET routes exist; ids are parsed, never joined into a file path.

mod game;
mod layout;
mod player;
mod routes;
mod season;
mod server;

use crate::games::AnyView;
use crate::table::leagues::LeagueError;
use crate::table::{Reads, Table, TableError, TableHandle};
use crate::web::http::Limits;
use crate::web::paths::Scope;
use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use routes::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use layout::{STYLE, STYLE_PATH};
pub use season::season_page;

/// How long a page is served from memory without asking whether it changed.
pub const FRESH: Duration = Duration::from_secs(1);
/// How many pages are kept in memory, and their bytes at most; past either the oldest are
/// dropped.
pub const CAPACITY: usize = 2048;
pub const BYTES: usize = 64 << 20;
/// Replays drawn at once (a long match's GIF is the costliest thing served); a request for one
/// more while they are drawn is answered 503, to try again in a moment.
pub const REPLAYS_AT_ONCE: usize = 1;

/// The public pages' limits: many readers, each request small and quick.
const LIMITS: Limits = Limits {
    connections: 256,
    head_time: Duration::from_secs(5),
    connection_time: Duration::from_secs(30),
    head_bytes: 16 * 1024,
    // A reverse proxy in front is one address: it should keep its own per-visitor limit.
    per_client: 64,
};

/// What a page is, for its content type and how it is offered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Html,
    Png,
    Gif,
    /// A file to download under this name (PGN, TRF16).
    Download(String),
}

/// A page as served: its kind and bytes.
#[derive(Clone, Debug)]
pub struct Page {
    pub kind: Kind,
    pub body: bytes::Bytes,
}

impl Page {
    fn html(markup: maud::Markup) -> Page {
        Page {
            kind: Kind::Html,
            body: markup.into_string().into(),
        }
    }
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let content_type = match &self.kind {
            Kind::Html => "text/html; charset=utf-8",
            Kind::Png => "image/png",
            Kind::Gif => "image/gif",
            Kind::Download(_) => "text/plain; charset=utf-8",
        };
        let mut response = (StatusCode::OK, self.body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        if let Kind::Download(name) = &self.kind
            && let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        {
            headers.insert(header::CONTENT_DISPOSITION, value);
        }
        response
    }
}

/// Gives every answer, whatever made it (a page, a 404, axum's own 405), the headers of
/// [`secure`].
async fn secured(mut response: Response) -> Response {
    secure(response.headers_mut());
    response
}

/// Headers every answer carries: no script, no frame, no guessing of types; a page may be
/// kept by the browser 5 seconds unless it says otherwise.
fn secure(headers: &mut axum::http::HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'; \
             base-uri 'none'; form-action 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("max-age=5"));
    }
}

/// A page kept in memory.
struct Kept {
    stamp: Option<String>,
    checked: Instant,
    page: Page,
}

/// The site: where it reads, whether the console's leagues are served, its kept pages.
pub struct Site {
    reads: Reads,
    local: bool,
    kept: Mutex<HashMap<String, Kept>>,
    /// Replays being drawn ([`REPLAYS_AT_ONCE`]); a turn is held by the drawing itself, so a
    /// client that goes away does not free it.
    drawing: Arc<tokio::sync::Semaphore>,
    /// Each scope's stamp as last read, for [`FRESH`]: every page of a server shares it.
    scopes: Mutex<HashMap<Scope, (Instant, String)>>,
}

impl Site {
    /// A site reading through `reads`; `local` serves the console's own leagues too.
    pub fn new(reads: Reads, local: bool) -> Arc<Site> {
        Arc::new(Site {
            reads,
            local,
            kept: Mutex::new(HashMap::new()),
            drawing: Arc::new(tokio::sync::Semaphore::new(REPLAYS_AT_ONCE)),
            scopes: Mutex::new(HashMap::new()),
        })
    }

    /// The page kept under `key` if it was checked within [`FRESH`].
    fn fresh(&self, key: &str) -> Option<Page> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let k = kept.get(key)?;
        (k.checked.elapsed() < FRESH).then(|| k.page.clone())
    }

    /// The page kept under `key` if it was drawn at `stamp` (marked checked now).
    fn current(&self, key: &str, stamp: Option<&str>) -> Option<Page> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let k = kept.get_mut(key)?;
        if stamp.is_none() || k.stamp.as_deref() != stamp {
            return None;
        }
        k.checked = Instant::now();
        Some(k.page.clone())
    }

    fn keep(&self, key: String, stamp: Option<String>, page: Page) {
        if page.body.len() > BYTES / 4 {
            return; // served, not kept: one page may not crowd out the others
        }
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.remove(&key);
        let bytes = |kept: &HashMap<String, Kept>| -> usize {
            kept.values().map(|k| k.page.body.len()).sum()
        };
        if kept.len() >= CAPACITY || bytes(&kept) + page.body.len() > BYTES {
            // Drop the oldest half at once, so that this is rare.
            let mut ages: Vec<Instant> = kept.values().map(|k| k.checked).collect();
            ages.sort();
            if let Some(cut) = ages.get(ages.len() / 2).copied() {
                kept.retain(|_, k| k.checked > cut);
            }
        }
        kept.insert(
            key,
            Kept {
                stamp,
                checked: Instant::now(),
                page,
            },
        );
    }

    /// `scope`'s stamp ([`crate::store::Store::scope_stamp`]), read at most once a [`FRESH`]
    /// whatever the number of its pages asked for.
    fn scope_stamp(&self, t: &mut Table, scope: &Scope) -> Result<String, SiteError> {
        if let Some((at, stamp)) = self
            .scopes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(scope)
            && at.elapsed() < FRESH
        {
            return Ok(stamp.clone());
        }
        let stamp = t.store().scope_stamp(scope.guild())?.to_string();
        let mut scopes = self.scopes.lock().unwrap_or_else(|e| e.into_inner());
        if scopes.len() >= CAPACITY {
            scopes.clear();
        }
        scopes.insert(scope.clone(), (Instant::now(), stamp.clone()));
        Ok(stamp)
    }

    /// Whether `scope`'s pages are served: a server's while its admins have them on and the
    /// bot is still in it.
    fn open(&self, t: &mut Table, scope: &Scope) -> Result<bool, SiteError> {
        match scope {
            Scope::Local => Ok(self.local),
            Scope::Server(guild) => {
                Ok(t.store().server_settings(guild)?.web && !t.store().is_guild_removed(guild)?)
            }
        }
    }
}

/// Why a page could not be read.
#[derive(Debug, thiserror::Error)]
enum SiteError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    League(#[from] LeagueError),
}

impl From<crate::store::StoreError> for SiteError {
    fn from(e: crate::store::StoreError) -> Self {
        SiteError::Table(e.into())
    }
}

/// What a page's read found: the page, or nothing there.
type Found = Result<Option<Page>, SiteError>;

/// Serves the page under `key` of `scope`: from memory when fresh or unchanged, else drawn
/// by `draw` on a twin. `stamp` says whether the page exists (None: 404) and its stamp (None:
/// kept only for [`FRESH`]).
async fn respond<S, D>(site: Arc<Site>, key: String, scope: Scope, stamp: S, draw: D) -> Response
where
    S: FnOnce(&mut Table) -> Result<Option<Option<String>>, SiteError> + Send + 'static,
    D: FnOnce(&mut Table) -> Found + Send + 'static,
{
    if let Some(page) = site.fresh(&key) {
        return page.into_response();
    }
    let reader = site.clone();
    let read = site
        .reads
        .read(move |t| -> Found {
            if !reader.open(t, &scope)? {
                return Ok(None);
            }
            let Some(stamp) = stamp(t)? else {
                return Ok(None);
            };
            if let Some(page) = reader.current(&key, stamp.as_deref()) {
                return Ok(Some(page));
            }
            let Some(page) = draw(t)? else {
                return Ok(None);
            };
            reader.keep(key, stamp, page.clone());
            Ok(Some(page))
        })
        .await;
    answer(read)
}

/// A read's answer: the page, a 404, or a 503 (the error logged).
fn answer(read: Result<Found, crate::table::CallError>) -> Response {
    match read {
        Ok(Ok(Some(page))) => page.into_response(),
        Ok(Ok(None)) => not_found(),
        Ok(Err(SiteError::Table(TableError::NoSuchMatch(_)))) => not_found(),
        Ok(Err(e)) => {
            tracing::error!(error = %e, "a web page could not be read");
            unavailable("The database could not be read just now; try again in a moment.")
        }
        Err(e) => {
            tracing::error!(error = %e, "a web page could not be read");
            unavailable("The bot is busy just now; try again in a moment.")
        }
    }
}

/// [`respond`] for a replay: its views are read on a twin, then drawn as a GIF away from it,
/// [`REPLAYS_AT_ONCE`] at a time (a 503 while they are busy), so that no number of requests
/// for replays holds the twins or the cores.
async fn respond_drawn_apart<S, V>(
    site: Arc<Site>,
    key: String,
    scope: Scope,
    stamp: S,
    views: V,
) -> Response
where
    S: FnOnce(&mut Table) -> Result<Option<Option<String>>, SiteError> + Send + 'static,
    V: FnOnce(&mut Table) -> Result<Option<Vec<AnyView>>, SiteError> + Send + 'static,
{
    if let Some(page) = site.fresh(&key) {
        return page.into_response();
    }
    enum Read {
        Kept(Page),
        Busy,
        Views(
            Option<String>,
            Vec<AnyView>,
            tokio::sync::OwnedSemaphorePermit,
        ),
    }
    let reader = site.clone();
    let (k, sc) = (key.clone(), scope.clone());
    let read = site
        .reads
        .read(move |t| -> Result<Option<Read>, SiteError> {
            if !reader.open(t, &sc)? {
                return Ok(None);
            }
            let Some(stamp) = stamp(t)? else {
                return Ok(None);
            };
            if let Some(page) = reader.current(&k, stamp.as_deref()) {
                return Ok(Some(Read::Kept(page)));
            }
            // The turn to draw first: a replay is not even read while another is drawn.
            let Ok(turn) = reader.drawing.clone().try_acquire_owned() else {
                return Ok(Some(Read::Busy));
            };
            Ok(views(t)?.map(|v| Read::Views(stamp, v, turn)))
        })
        .await;
    let (stamp, views, turn) = match read {
        Ok(Ok(Some(Read::Kept(page)))) => return page.into_response(),
        Ok(Ok(Some(Read::Views(stamp, views, turn)))) => (stamp, views, turn),
        Ok(Ok(Some(Read::Busy))) => {
            let mut busy = unavailable("Another replay is being drawn; try again in a moment.");
            busy.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            return busy;
        }
        Ok(Ok(None)) => return not_found(),
        Ok(Err(e)) => return answer(Ok(Err(e))),
        Err(e) => return answer(Err(e)),
    };
    // Drawn and kept by the blocking task itself, which holds the turn: a client that goes
    // away while it draws neither frees the turn nor wastes the drawing.
    let keeper = site.clone();
    let drawn = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        let page = Page {
            kind: Kind::Gif,
            body: crate::render::render_replay(&views).into(),
        };
        keeper.keep(key, stamp, page.clone());
        page
    })
    .await;
    match drawn {
        Ok(page) => page.into_response(),
        Err(e) => {
            tracing::error!(error = %e, "a replay could not be drawn");
            unavailable("The replay could not be drawn.")
        }
    }
}

fn not_found() -> Response {
    let body = layout::frame(
        "Not found",
        None,
        &[],
        None,
        maud::html! { h1 { "Not found" } p { "There is no page here, or its server does not publish its pages." } },
    );
    let mut response = (StatusCode::NOT_FOUND, Page::html(body)).into_response();
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

fn unavailable(text: &'static str) -> Response {
    let mut response = Page::html(maud::html! { p { (text) } }).into_response();
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    // Not to be kept by a proxy: the next try may well succeed.
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The router of every page.
pub fn router(site: Arc<Site>) -> Router {
    Router::new()
        .route("/", get(home))
        .route(STYLE_PATH, get(style))
        .route("/s/{scope}", get(server_home))
        .route("/s/{scope}/leagues/{league}", get(league))
        .route("/s/{scope}/leagues/{league}/{season}", get(season_at))
        .route("/s/{scope}/leagues/{league}/{season}/trf", get(trf))
        .route("/s/{scope}/matches/{id}", get(match_page))
        .route("/s/{scope}/matches/{id}/board.png", get(board_png))
        .route("/s/{scope}/matches/{id}/replay.gif", get(replay_gif))
        .route("/s/{scope}/matches/{id}/pgn", get(pgn))
        .route("/s/{scope}/players/{id}", get(player_at))
        .route("/s/{scope}/leaderboard/{game}", get(leaderboard))
        .fallback(|| async { not_found() })
        .layer(axum::middleware::map_response(secured))
        .with_state(site)
}

/// Serves the pages at `address` from now until the process ends, reading on twins of
/// `table` of their own: the address they are served at (its port chosen when `address` gave
/// 0), or an error when the address cannot be had.
pub async fn start(
    address: std::net::SocketAddr,
    table: TableHandle,
    local: bool,
) -> Result<std::net::SocketAddr, WebError> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|source| WebError { address, source })?;
    let address = listener.local_addr().unwrap_or(address);
    tracing::info!(%address, "serving the public web pages");
    let site = Site::new(Reads::of(table, 2).await, local);
    tokio::spawn(crate::web::http::serve(listener, router(site), LIMITS));
    Ok(address)
}

/// Why the pages could not be served.
#[derive(Debug, thiserror::Error)]
#[error("WEB_ADDR {address} cannot be served: {source}")]
pub struct WebError {
    address: std::net::SocketAddr,
    source: std::io::Error,
}

#[cfg(test)]
mod tests;
