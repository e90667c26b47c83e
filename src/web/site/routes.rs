//! The pages' handlers: each reads its address (a server's id, a league's name, a number;
//! anything else is the same 404), says what its page depends on (its stamp) and how to draw
//! it, and leaves keeping and serving it to [`super::respond`].

use super::layout::STYLE;
use super::{Found, Kind, Page, Site, SiteError, game, not_found, player, respond, season, server};
use crate::games::GameKind;
use crate::store::leagues::League;
use crate::store::{MatchId, PlayerId};
use crate::table::Table;
use crate::web::paths::{NAME_LIMIT, Scope};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// What an address said, or a 404 for one that did not parse (a segment that is not UTF-8).
type Segments<T> = Result<Path<T>, PathRejection>;

/// A stamp's answer: None, no such page; Some(None), a page kept only briefly.
type Stamped = Result<Option<Option<String>>, SiteError>;

pub(super) async fn home(State(site): State<Arc<Site>>) -> Response {
    Page::html(server::home_page(site.local)).into_response()
}

pub(super) async fn style() -> Response {
    let mut response = (StatusCode::OK, STYLE).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/css; charset=utf-8"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("max-age=3600"),
    );
    response
}

/// A scope from an address.
fn scope_of(text: &str) -> Option<Scope> {
    Scope::parse(text)
}

/// A number from an address: digits only (no sign, no space), in range.
fn number<N: std::str::FromStr>(text: &str) -> Option<N> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The stamp of the pages that span `scope` ([`crate::store::Store::scope_stamp`]), and the
/// week, which the ratings depend on.
fn scope_stamp(site: &Site, t: &mut Table, scope: &Scope) -> Stamped {
    // Ratings widen period by period without a game (Glicko-2's weeks from Monday).
    let week = crate::table::ratings::period_of(t.now());
    let stamp = site.scope_stamp(t, scope)?;
    Ok(Some(Some(format!("{stamp}/{week}"))))
}

pub(super) async fn server_home(State(site): State<Arc<Site>>, path: Segments<String>) -> Response {
    let Some(scope) = path.ok().and_then(|Path(s)| scope_of(&s)) else {
        return not_found();
    };
    let key = scope.home();
    let (s, d) = (scope.clone(), scope.clone());
    let draw = move |t: &mut Table| -> Found {
        let mut leagues = Vec::new();
        for league in t.store().leagues_in(d.guild())? {
            let seasons = t.store().seasons_of(league.id)?;
            leagues.push((league, seasons));
        }
        let games = match d.guild() {
            Some(guild) => t.store().rated_games(guild)?,
            None => vec![],
        };
        Ok(Some(Page::html(server::server_page(&d, &leagues, &games))))
    };
    let memo = site.clone();
    respond(site, key, scope, move |t| scope_stamp(&memo, t, &s), draw).await
}

/// The league named `name` in `scope`, if there is one.
fn league_of(t: &mut Table, scope: &Scope, name: &str) -> Result<Option<League>, SiteError> {
    if name.chars().count() > NAME_LIMIT {
        return Ok(None);
    }
    Ok(t.store().league_named(scope.guild(), name)?)
}

pub(super) async fn league(
    State(site): State<Arc<Site>>,
    path: Segments<(String, String)>,
) -> Response {
    let Some((scope, name)) = path.ok().and_then(|Path((s, n))| Some((scope_of(&s)?, n))) else {
        return not_found();
    };
    let key = scope.league(&name);
    let (s, d) = (scope.clone(), scope.clone());
    let draw = move |t: &mut Table| -> Found {
        let Some(league) = league_of(t, &d, &name)? else {
            return Ok(None);
        };
        let seasons = t.store().seasons_of(league.id)?;
        Ok(Some(Page::html(season::league_page(&d, &league, &seasons))))
    };
    let memo = site.clone();
    respond(site, key, scope, move |t| scope_stamp(&memo, t, &s), draw).await
}

/// The stamp of season `number` of the league `name`: None when there is no such season.
fn season_stamp(t: &mut Table, scope: &Scope, name: &str, number: u32) -> Stamped {
    let Some(league) = league_of(t, scope, name)? else {
        return Ok(None);
    };
    let seasons = t.store().seasons_of(league.id)?;
    let Some(season) = seasons.iter().find(|s| s.number == number) else {
        return Ok(None);
    };
    // The page names the league's other seasons and shows its settings too.
    let stamp = t.store().season_stamp(season.id)?;
    Ok(Some(Some(format!("{stamp}/{seasons:?}/{:?}", league.new))))
}

/// A season's address: its scope, league name and number.
fn season_of(path: Segments<(String, String, String)>) -> Option<(Scope, String, u32)> {
    let Path((scope, name, number_text)) = path.ok()?;
    Some((scope_of(&scope)?, name, number(&number_text)?))
}

/// Serves what `draw` makes of a season (its league and number), under the address `key`
/// gives it, kept by the season's stamp.
async fn of_season(
    site: Arc<Site>,
    path: Segments<(String, String, String)>,
    key: impl FnOnce(&Scope, &str, u32) -> String,
    draw: impl FnOnce(&mut Table, &Scope, &League, u32) -> Found + Send + 'static,
) -> Response {
    let Some((scope, name, number)) = season_of(path) else {
        return not_found();
    };
    let key = key(&scope, &name, number);
    let (s, d, n) = (scope.clone(), scope.clone(), name.clone());
    let stamp = move |t: &mut Table| season_stamp(t, &s, &n, number);
    let draw = move |t: &mut Table| -> Found {
        match league_of(t, &d, &name)? {
            Some(league) => draw(t, &d, &league, number),
            None => Ok(None),
        }
    };
    respond(site, key, scope, stamp, draw).await
}

pub(super) async fn season_at(
    State(site): State<Arc<Site>>,
    path: Segments<(String, String, String)>,
) -> Response {
    let key = |s: &Scope, name: &str, number| s.season(name, number);
    of_season(site, path, key, |t, scope, league, number| {
        let Some(view) = t.season_view(league, number)? else {
            return Ok(None);
        };
        Ok(Some(Page::html(season::season_page(scope, &view))))
    })
    .await
}

pub(super) async fn trf(
    State(site): State<Arc<Site>>,
    path: Segments<(String, String, String)>,
) -> Response {
    let key = |s: &Scope, name: &str, number| s.trf(name, number);
    of_season(site, path, key, |t, _, league, number| {
        if !season::has_trf(league) {
            return Ok(None);
        }
        Ok(t.season_trf(league, number)?.map(|text| Page {
            kind: Kind::Download(format!("season-{number}.trf")),
            body: text.into(),
        }))
    })
    .await
}

/// The stamp of match `id` when it is played in `scope`: its version and the names it shows,
/// and, for a page that shows its clocks (`clocked`), the quarter minute while a clock runs,
/// so that the times left follow it. None otherwise.
fn match_stamp(t: &mut Table, scope: &Scope, id: MatchId, clocked: bool) -> Stamped {
    let now = t.now();
    Ok(match t.store().match_stamp(id)? {
        Some(m) if m.guild.as_deref() == scope.guild() => {
            let tick = if clocked && m.ticking {
                now.div_euclid(15)
            } else {
                0
            };
            Some(Some(format!("{}/{tick}/{:?}", m.version, m.names)))
        }
        _ => None,
    })
}

/// A match's address: its scope and number.
fn match_of(path: Segments<(String, String)>) -> Option<(Scope, MatchId)> {
    let Path((scope, id)) = path.ok()?;
    Some((scope_of(&scope)?, number(&id)?))
}

/// Serves what `draw` makes of match `id`, kept under `key` by the match's stamp.
async fn of_match(
    site: Arc<Site>,
    (scope, id): (Scope, MatchId),
    key: String,
    draw: impl FnOnce(&mut Table, &Scope) -> Found + Send + 'static,
) -> Response {
    let (s, d) = (scope.clone(), scope.clone());
    let stamp = move |t: &mut Table| match_stamp(t, &s, id, true);
    respond(site, key, scope, stamp, move |t| draw(t, &d)).await
}

pub(super) async fn match_page(
    State(site): State<Arc<Site>>,
    path: Segments<(String, String)>,
) -> Response {
    let Some((scope, id)) = match_of(path) else {
        return not_found();
    };
    let key = scope.game(id);
    of_match(site, (scope, id), key, move |t, s| {
        let view = t.match_view(id)?;
        Ok(Some(Page::html(game::match_page(s, &view))))
    })
    .await
}

pub(super) async fn board_png(
    State(site): State<Arc<Site>>,
    path: Segments<(String, String)>,
) -> Response {
    let Some((scope, id)) = match_of(path) else {
        return not_found();
    };
    let key = format!("{}/board.png", scope.game(id));
    of_match(site, (scope, id), key, move |t, _| {
        Ok(Some(Page {
            kind: Kind::Png,
            body: t.show(id)?.board_png().into(),
        }))
    })
    .await
}

pub(super) async fn replay_gif(
    State(site): State<Arc<Site>>,
    path: Segments<(String, String)>,
) -> Response {
    let Some((scope, id)) = match_of(path) else {
        return not_found();
    };
    let key = format!("{}/replay.gif", scope.game(id));
    let s = scope.clone();
    // A replay shows no clock.
    let stamp = move |t: &mut Table| match_stamp(t, &s, id, false);
    super::respond_drawn_apart(site, key, scope, stamp, move |t| Ok(t.public_replay(id)?)).await
}

pub(super) async fn pgn(
    State(site): State<Arc<Site>>,
    path: Segments<(String, String)>,
) -> Response {
    let Some((scope, id)) = match_of(path) else {
        return not_found();
    };
    let key = format!("{}/pgn", scope.game(id));
    of_match(site, (scope, id), key, move |t, _| {
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

pub(super) async fn player_at(
    State(site): State<Arc<Site>>,
    path: Segments<(String, String)>,
) -> Response {
    let Some((scope, id)) = path
        .ok()
        .and_then(|Path((s, id))| Some((scope_of(&s)?, number::<PlayerId>(&id)?)))
    else {
        return not_found();
    };
    let key = scope.player(id);
    let (s, d, memo) = (scope.clone(), scope.clone(), site.clone());
    let stamp = move |t: &mut Table| -> Stamped {
        // A player is shown in a server only if they played or registered there: asked first,
        // so that an address naming no one costs one small read.
        let store = t.store();
        if store.matches_in(id, s.guild(), 1)?.is_empty()
            && store.leagues_of_player(id, s.guild())?.is_empty()
        {
            return Ok(None);
        }
        scope_stamp(&memo, t, &s)
    };
    let draw = move |t: &mut Table| -> Found {
        let view = t.player_view(id, d.guild())?;
        Ok(Some(Page::html(player::player_page(&d, &view))))
    };
    respond(site, key, scope, stamp, draw).await
}

pub(super) async fn leaderboard(
    State(site): State<Arc<Site>>,
    path: Segments<(String, String)>,
) -> Response {
    let Some((scope, game)) = path.ok().and_then(|Path((s, g))| {
        let game = GameKind::ALL.into_iter().find(|k| k.id() == g)?;
        Some((scope_of(&s)?, game))
    }) else {
        return not_found();
    };
    let Some(guild) = scope.guild().map(str::to_string) else {
        return not_found();
    };
    let key = scope.leaderboard(game);
    let (s, d) = (scope.clone(), scope.clone());
    let draw = move |t: &mut Table| -> Found {
        let lines = t.ratings(game, Some(&guild)).map_err(SiteError::from)?;
        Ok(Some(Page::html(player::leaderboard_page(&d, game, &lines))))
    };
    let memo = site.clone();
    respond(site, key, scope, move |t| scope_stamp(&memo, t, &s), draw).await
}
