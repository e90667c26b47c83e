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
mod season;
mod server;

use crate::games::GameKind;
use crate::store::MatchId;
use crate::table::leagues::LeagueError;
use crate::table::{Reads, Table, TableError, TableHandle};
use crate::web::http::Limits;
use crate::web::paths::{NAME_LIMIT, Scope};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use layout::{STYLE, STYLE_PATH};
pub use season::season_page;

/// How long a page is served from memory without asking whether it changed.
pub const FRESH: Duration = Duration::from_secs(1);
/// How many pages are kept in memory; past it the oldest are dropped.
pub const CAPACITY: usize = 2048;

/// The public pages' limits: many readers, each request small and quick.
const LIMITS: Limits = Limits {
    connections: 256,
    head_time: Duration::from_secs(5),
    connection_time: Duration::from_secs(30),
    head_bytes: 16 * 1024,
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
        secure(headers);
        response
    }
}

/// Headers every answer carries: no script, no frame, no guessing of types.
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
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("max-age=5"));
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
}

impl Site {
    /// A site reading through `reads`; `local` serves the console's own leagues too.
    pub fn new(reads: Reads, local: bool) -> Arc<Site> {
        Arc::new(Site {
            reads,
            local,
            kept: Mutex::new(HashMap::new()),
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
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= CAPACITY && !kept.contains_key(&key) {
            // Drop the oldest half at once, so that this is rare.
            let mut ages: Vec<Instant> = kept.values().map(|k| k.checked).collect();
            ages.sort();
            let cut = ages[ages.len() / 2];
            kept.retain(|_, k| k.checked > cut);
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

    /// Whether `scope`'s pages are served.
    fn open(&self, t: &mut Table, scope: &Scope) -> Result<bool, SiteError> {
        match scope {
            Scope::Local => Ok(self.local),
            Scope::Server(guild) => Ok(t.store().server_settings(guild)?.web),
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
    response
}

/// The router of every page.
pub fn router(site: Arc<Site>) -> Router {
    Router::new()
        .route("/", get(home))
        .route(STYLE_PATH, get(style))
        .route("/s/{scope}", get(server_home))
        .route("/s/{scope}/leagues/{league}", get(league))
        .route("/s/{scope}/leagues/{league}/{season}", get(season))
        .route("/s/{scope}/leagues/{league}/{season}/trf", get(trf))
        .route("/s/{scope}/matches/{id}", get(match_page))
        .route("/s/{scope}/matches/{id}/board.png", get(board_png))
        .route("/s/{scope}/matches/{id}/replay.gif", get(replay_gif))
        .route("/s/{scope}/matches/{id}/pgn", get(pgn))
        .route("/s/{scope}/players/{id}", get(player))
        .route("/s/{scope}/leaderboard/{game}", get(leaderboard))
        .fallback(|| async { not_found() })
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

async fn home(State(site): State<Arc<Site>>) -> Response {
    Page::html(server::home_page(site.local)).into_response()
}

async fn style() -> Response {
    let mut response = STYLE.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/css; charset=utf-8"),
    );
    secure(headers);
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("max-age=3600"),
    );
    response
}

/// A scope from an address, or a 404.
macro_rules! scope_or_404 {
    ($text:expr) => {
        match Scope::parse(&$text) {
            Some(scope) => scope,
            None => return not_found(),
        }
    };
}

/// A number from an address (digits only, no sign, in range), or a 404.
macro_rules! number_or_404 {
    ($text:expr) => {
        match $text
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| $text.parse().ok())
            .flatten()
        {
            Some(n) => n,
            None => return not_found(),
        }
    };
}

async fn server_home(State(site): State<Arc<Site>>, Path(scope): Path<String>) -> Response {
    let scope = scope_or_404!(scope);
    let key = scope.home();
    let s = scope.clone();
    respond(site, key, scope.clone(), scope_stamp(scope), move |t| {
        let mut leagues = Vec::new();
        for league in t.store().leagues_in(s.guild())? {
            let seasons = t.store().seasons_of(league.id)?;
            leagues.push((league, seasons));
        }
        let games = match s.guild() {
            Some(guild) => t.store().rated_games(guild)?,
            None => vec![],
        };
        Ok(Some(Page::html(server::server_page(&s, &leagues, &games))))
    })
    .await
}

/// The stamp of the pages that span `scope` (its matches, leagues and seasons, and the
/// leagues' settings): [`crate::store::Store::scope_stamp`].
fn scope_stamp(
    scope: Scope,
) -> impl FnOnce(&mut Table) -> Result<Option<Option<String>>, SiteError> + Send + 'static {
    move |t| {
        let counts = t.store().scope_stamp(scope.guild())?;
        let leagues = t.store().leagues_in(scope.guild())?;
        Ok(Some(Some(format!("{counts}/{leagues:?}"))))
    }
}

/// The league named `name` in `scope`, if there is one.
fn league_of(
    t: &mut Table,
    scope: &Scope,
    name: &str,
) -> Result<Option<crate::store::leagues::League>, SiteError> {
    if name.chars().count() > NAME_LIMIT {
        return Ok(None);
    }
    Ok(t.store().league_named(scope.guild(), name)?)
}

async fn league(
    State(site): State<Arc<Site>>,
    Path((scope, name)): Path<(String, String)>,
) -> Response {
    let scope = scope_or_404!(scope);
    let key = scope.league(&name);
    let s = scope.clone();
    respond(site, key, scope.clone(), scope_stamp(scope), move |t| {
        let Some(league) = league_of(t, &s, &name)? else {
            return Ok(None);
        };
        let seasons = t.store().seasons_of(league.id)?;
        Ok(Some(Page::html(season::league_page(&s, &league, &seasons))))
    })
    .await
}

/// The stamp of season `number` of the league `name`: None when there is no such season.
fn season_stamp(
    t: &mut Table,
    scope: &Scope,
    name: &str,
    number: u32,
) -> Result<Option<Option<String>>, SiteError> {
    let Some(league) = league_of(t, scope, name)? else {
        return Ok(None);
    };
    let seasons = t.store().seasons_of(league.id)?;
    let Some(season) = seasons.iter().find(|s| s.number == number) else {
        return Ok(None);
    };
    let stamp = t.store().season_stamp(season.id)?;
    Ok(Some(Some(format!("{stamp}/{:?}", league.new))))
}

async fn season(
    State(site): State<Arc<Site>>,
    Path((scope, name, number)): Path<(String, String, String)>,
) -> Response {
    let scope = scope_or_404!(scope);
    let number: u32 = number_or_404!(number);
    let key = scope.season(&name, number);
    let (s, n) = (scope.clone(), name.clone());
    let stamp = move |t: &mut Table| season_stamp(t, &s, &n, number);
    let s = scope.clone();
    respond(site, key, scope, stamp, move |t| {
        let Some(league) = league_of(t, &s, &name)? else {
            return Ok(None);
        };
        let Some(view) = t.season_view(&league, number)? else {
            return Ok(None);
        };
        Ok(Some(Page::html(season::season_page(&s, &view))))
    })
    .await
}

async fn trf(
    State(site): State<Arc<Site>>,
    Path((scope, name, number)): Path<(String, String, String)>,
) -> Response {
    let scope = scope_or_404!(scope);
    let number: u32 = number_or_404!(number);
    let key = scope.trf(&name, number);
    let (s, n) = (scope.clone(), name.clone());
    let stamp = move |t: &mut Table| season_stamp(t, &s, &n, number);
    let s = scope.clone();
    respond(site, key, scope, stamp, move |t| {
        let Some(league) = league_of(t, &s, &name)? else {
            return Ok(None);
        };
        if !season::has_trf(&league) {
            return Ok(None);
        }
        let Some(text) = t.season_trf(&league, number)? else {
            return Ok(None);
        };
        Ok(Some(Page {
            kind: Kind::Download(format!("season-{number}.trf")),
            body: text.into(),
        }))
    })
    .await
}

/// The stamp of match `id` when it is played in `scope` (its version): None otherwise.
fn match_stamp(
    t: &mut Table,
    scope: &Scope,
    id: MatchId,
) -> Result<Option<Option<String>>, SiteError> {
    Ok(match t.store().match_stamp(id)? {
        Some((guild, version)) if guild.as_deref() == scope.guild() => {
            Some(Some(version.to_string()))
        }
        _ => None,
    })
}

/// Serves something of match `id` drawn by `draw`, under `key`.
async fn of_match(
    site: Arc<Site>,
    scope: Scope,
    id: MatchId,
    key: String,
    draw: impl FnOnce(&mut Table, &Scope) -> Found + Send + 'static,
) -> Response {
    let s = scope.clone();
    let stamp = move |t: &mut Table| match_stamp(t, &s, id);
    let s = scope.clone();
    respond(site, key, scope, stamp, move |t| draw(t, &s)).await
}

async fn match_page(
    State(site): State<Arc<Site>>,
    Path((scope, id)): Path<(String, String)>,
) -> Response {
    let scope = scope_or_404!(scope);
    let id: MatchId = number_or_404!(id);
    let key = scope.game(id);
    of_match(site, scope, id, key, move |t, s| {
        let view = t.match_view(id)?;
        Ok(Some(Page::html(game::match_page(s, &view))))
    })
    .await
}

async fn board_png(
    State(site): State<Arc<Site>>,
    Path((scope, id)): Path<(String, String)>,
) -> Response {
    let scope = scope_or_404!(scope);
    let id: MatchId = number_or_404!(id);
    let key = format!("{}/board.png", scope.game(id));
    of_match(site, scope, id, key, move |t, _| {
        Ok(Some(Page {
            kind: Kind::Png,
            body: t.show(id)?.board_png().into(),
        }))
    })
    .await
}

async fn replay_gif(
    State(site): State<Arc<Site>>,
    Path((scope, id)): Path<(String, String)>,
) -> Response {
    let scope = scope_or_404!(scope);
    let id: MatchId = number_or_404!(id);
    let key = format!("{}/replay.gif", scope.game(id));
    of_match(site, scope, id, key, move |t, _| {
        let views = t.replay_views(id)?;
        Ok(Some(Page {
            kind: Kind::Gif,
            body: crate::render::render_replay(&views).into(),
        }))
    })
    .await
}

async fn pgn(State(site): State<Arc<Site>>, Path((scope, id)): Path<(String, String)>) -> Response {
    let scope = scope_or_404!(scope);
    let id: MatchId = number_or_404!(id);
    let key = format!("{}/pgn", scope.game(id));
    of_match(site, scope, id, key, move |t, _| {
        if !crate::table::public::log_is_public(&t.show(id)?) {
            return Ok(None);
        }
        Ok(t.export_pgn(id)?.map(|text| Page {
            kind: Kind::Download(format!("match-{id}.pgn")),
            body: text.into(),
        }))
    })
    .await
}

async fn player(
    State(site): State<Arc<Site>>,
    Path((scope, id)): Path<(String, String)>,
) -> Response {
    let scope = scope_or_404!(scope);
    let id: crate::store::PlayerId = number_or_404!(id);
    let key = scope.player(id);
    let s = scope.clone();
    respond(site, key, scope.clone(), scope_stamp(scope), move |t| {
        // A player is shown in a server only if they played or registered there.
        let store = t.store();
        if store.matches_in(id, s.guild(), 1)?.is_empty()
            && store.leagues_of_player(id, s.guild())?.is_empty()
        {
            return Ok(None);
        }
        let view = t.player_view(id, s.guild())?;
        Ok(Some(Page::html(player::player_page(&s, &view))))
    })
    .await
}

async fn leaderboard(
    State(site): State<Arc<Site>>,
    Path((scope, game)): Path<(String, String)>,
) -> Response {
    let scope = scope_or_404!(scope);
    let Some(game) = GameKind::ALL.into_iter().find(|g| g.id() == game) else {
        return not_found();
    };
    let Some(guild) = scope.guild().map(str::to_string) else {
        return not_found();
    };
    let key = scope.leaderboard(game);
    let s = scope.clone();
    respond(site, key, scope.clone(), scope_stamp(scope), move |t| {
        let lines = t.ratings(game, Some(&guild))?;
        Ok(Some(Page::html(player::leaderboard_page(&s, game, &lines))))
    })
    .await
}

#[cfg(test)]
mod tests;
