//! What the public web pages read, always as a spectator: a server's leagues, a season in full
//! (standings with their tiebreaks, the crosstable, every round's boards), a match (its board
//! picture, clocks, moves and PGN), a player (ratings with their history, recent matches,
//! leagues) and a server's leaderboard. Nothing here writes: a read-only twin serves it.
//!
//! A card game's log is shown only once it is over, as `/export` does ([`log_is_public`]):
//! the moves of a hand would tell what it held. The board picture is the spectator's view.

use super::ratings::{HistoryPoint, RatingLine};
use super::{Table, TableError, Update};
use crate::games::GameKind;
use crate::league::standings::{Standing, Tiebreak};
use crate::store::leagues::{League, PairingRow, RoundRow, Season};
use crate::store::public::{BoardOf, PlayedMatch};
use crate::store::{MatchId, Player, PlayerId, Status, StoredMatch};
use crate::table::leagues::{LeagueError, tiebreaks_of};
use std::collections::HashMap;

/// Whether a match's moves may be shown to anyone now: always, except while a game whose
/// players hold what others may not see is played.
pub fn log_is_public(shown: &Update) -> bool {
    shown.result.is_some() || !shown.private_choices
}

/// A season as its page shows it.
#[derive(Clone, Debug)]
pub struct SeasonView {
    pub league: League,
    pub season: Season,
    /// Every season's number, newest first.
    pub seasons: Vec<u32>,
    pub tiebreaks: Vec<Tiebreak>,
    pub standings: Vec<(Standing, Player)>,
    /// A round robin's crosstable, rows and columns in standings order.
    pub crosstable: Option<Vec<Vec<String>>>,
    pub rounds: Vec<RoundRow>,
    /// Every board of every round, results of finished matches taken in.
    pub boards: Vec<PairingRow>,
    /// The names of everyone the season mentions.
    pub names: HashMap<PlayerId, String>,
    /// Registered players with their status ("active", "withdrawn", "dropped").
    pub registrations: Vec<(Player, String)>,
    /// Announced absences: (player, round).
    pub absences: Vec<(PlayerId, u32)>,
}

impl SeasonView {
    pub fn name(&self, player: PlayerId) -> &str {
        self.names.get(&player).map_or("?", String::as_str)
    }
}

/// A match as its page shows it.
#[derive(Clone, Debug)]
pub struct MatchView {
    /// The match now, as a spectator sees it.
    pub shown: Update,
    pub players: Vec<Player>,
    pub status: Status,
    /// The time control as stored ("none", "3d").
    pub time_control: String,
    /// The moves (number, player, action), unless they are not public yet.
    pub moves: Option<Vec<(usize, String, String)>>,
    /// PGN, for the games that have it, when the moves are public.
    pub pgn: Option<String>,
    /// The league board it was played for.
    pub board: Option<BoardOf>,
    /// Whether its replay may be seen now ([`Table::public_replay`]).
    pub replay: bool,
}

/// A player's standing in one game.
#[derive(Clone, Debug)]
pub struct GameRating {
    pub game: GameKind,
    pub line: RatingLine,
    pub history: Vec<HistoryPoint>,
}

/// One of a player's matches as their page lists it.
#[derive(Clone, Debug)]
pub struct PlayerMatch {
    pub played: PlayedMatch,
    pub players: Vec<Player>,
    /// "won by ann", "drawn", "being played", "cancelled".
    pub result: String,
}

/// A player as their page in one server shows them.
#[derive(Clone, Debug)]
pub struct PlayerView {
    pub player: Player,
    pub ratings: Vec<GameRating>,
    pub matches: Vec<PlayerMatch>,
    /// (league, season) they registered in.
    pub leagues: Vec<(String, u32)>,
}

/// How many recent matches a player's page lists.
pub const RECENT_MATCHES: usize = 30;

/// A finished (or running) match's result in a few words.
pub fn result_words(stored: &StoredMatch) -> String {
    match (stored.status, &stored.outcome) {
        (Status::Active, _) => "being played".into(),
        (Status::Aborted, _) => "cancelled".into(),
        (Status::Finished, Some(o)) if o.is_draw() => "drawn".into(),
        (Status::Finished, Some(o)) => {
            let names: Vec<&str> = o
                .winners()
                .iter()
                .filter_map(|s| stored.players.get(s.index()).map(|p| p.name.as_str()))
                .collect();
            format!("won by {}", names.join(" and "))
        }
        (Status::Finished, None) => "over".into(),
    }
}

impl Table {
    /// Season `number` of `league` as its page shows it; None when it has no such season.
    pub fn season_view(
        &self,
        league: &League,
        number: u32,
    ) -> Result<Option<SeasonView>, LeagueError> {
        let seasons = self.store.seasons_of(league.id)?;
        let Some(season) = seasons.iter().find(|s| s.number == number).copied() else {
            return Ok(None);
        };
        let standings = self.season_standings(league, &season)?;
        let crosstable = self.season_crosstable(league, &season, &standings)?;
        let boards = self.settled_pairings(season.id)?;
        let mut names: HashMap<PlayerId, String> = HashMap::new();
        let mut registrations = Vec::new();
        for r in self.store.registrations(season.id)? {
            let player = self.store.player(r.player)?;
            names.insert(player.id, player.name.clone());
            registrations.push((player, r.status));
        }
        for b in &boards {
            let seats = b.table.iter().map(|s| s.player);
            for id in [b.white].into_iter().chain(b.black).chain(seats) {
                if let std::collections::hash_map::Entry::Vacant(name) = names.entry(id) {
                    name.insert(self.store.player(id)?.name);
                }
            }
        }
        Ok(Some(SeasonView {
            tiebreaks: tiebreaks_of(league),
            league: league.clone(),
            season,
            seasons: seasons.iter().map(|s| s.number).collect(),
            standings,
            crosstable,
            rounds: self.store.rounds(season.id)?,
            boards,
            names,
            registrations,
            absences: self.store.unavailable(season.id)?,
        }))
    }

    /// Match `id` as its page shows it.
    pub fn match_view(&self, id: MatchId) -> Result<MatchView, TableError> {
        let shown = self.show(id)?;
        let head = self.store.load_head(id)?;
        let public = log_is_public(&shown);
        let (moves, pgn) = match public {
            true => (Some(self.history(id)?), self.export_pgn(id)?),
            false => (None, None),
        };
        Ok(MatchView {
            shown,
            players: head.players,
            status: head.status,
            time_control: head.time_control,
            moves,
            pgn,
            board: self.store.board_of(id)?,
            replay: self.replay_is_public(id)?,
        })
    }

    /// Player `id` as their page in server `guild` (None: the console's) shows them; ratings
    /// are a server's only.
    pub fn player_view(&self, id: PlayerId, guild: Option<&str>) -> Result<PlayerView, TableError> {
        let player = self.store.player(id)?;
        let mut ratings = Vec::new();
        if let Some(guild) = guild {
            for game in self.store.rated_games(guild)? {
                let lines = self.ratings(game, Some(guild))?;
                if let Some(line) = lines.into_iter().find(|l| l.player.id == id) {
                    let history = self.rating_history(game, Some(guild), id)?;
                    ratings.push(GameRating {
                        game,
                        line,
                        history,
                    });
                }
            }
        }
        let mut matches = Vec::new();
        for played in self.store.matches_in(id, guild, RECENT_MATCHES)? {
            let head = self.store.load_head(played.id)?;
            matches.push(PlayerMatch {
                result: result_words(&head),
                players: head.players,
                played,
            });
        }
        Ok(PlayerView {
            player,
            ratings,
            matches,
            leagues: self.store.leagues_of_player(id, guild)?,
        })
    }
}
