//! League substitutes: an admin seats a player in place of another for the rest of a running
//! season. The substitute takes over the games the player left unfinished and, in a round
//! robin, the rest of their schedule; points stay with whoever earned them.

use super::{LeagueError, refused, settled};
use crate::store::league_rulings::Substitution;
use crate::store::leagues::{League, SeasonStatus};
use crate::store::{PlayerId, Status};
use crate::table::admin::{Admin, Ruling};
use crate::table::{Request, Table, Update};

/// A substitute seated: what to announce, and the matches they took over (to show their
/// players).
#[derive(Clone, Debug)]
pub struct Substituted {
    pub lines: Vec<String>,
    pub updates: Vec<Update>,
}

impl Table {
    /// Seats `into` in `out`'s place in the league's running season, by `admin`, once under
    /// `key`; None when `key` was carried out before.
    pub fn substitute_in_league(
        &mut self,
        league: &League,
        out: PlayerId,
        into: PlayerId,
        admin: &Admin,
        key: &str,
    ) -> Result<Option<Substituted>, LeagueError> {
        if self.store.league_request_done(key)? {
            return Ok(None);
        }
        let season = self.store.season(league.id)?;
        let (out_name, into_name) = (self.store.player(out)?.name, self.store.player(into)?.name);
        match season.status {
            SeasonStatus::Registration => {
                return Err(refused(format!(
                    "season {} has not begun: {out_name} can leave and {into_name} join",
                    season.number
                )));
            }
            SeasonStatus::Finished => {
                return Err(refused(format!("season {} is over", season.number)));
            }
            SeasonStatus::Running => {}
        }
        let registrations = self.store.registrations(season.id)?;
        if !registrations.iter().any(|r| r.player == out) {
            return Err(refused(format!(
                "{out_name} does not play in season {}",
                season.number
            )));
        }
        if let Some(r) = registrations.iter().find(|r| r.replaces == Some(out)) {
            let name = self.store.player(r.player)?.name;
            return Err(refused(format!(
                "{out_name} was already replaced by {name}"
            )));
        }
        if registrations.iter().any(|r| r.player == into) {
            return Err(refused(format!(
                "{into_name} is already registered in season {}",
                season.number
            )));
        }
        // The games `out` left unfinished: the running round's, and any still played from a
        // round already closed. A match seating `into` already was handed over by an attempt
        // interrupted before its end.
        self.sync_results(league)?;
        let mut unfinished = Vec::new();
        let mut updates = Vec::new();
        for p in self.store.pairings(season.id)? {
            let Some(id) = p.match_id.filter(|_| !settled(&p)) else {
                continue;
            };
            let named =
                p.white == out || p.black == Some(out) || p.table.iter().any(|s| s.player == out);
            if !named {
                continue;
            }
            let head = self.store.load_head(id)?;
            if head.status != Status::Active {
                continue;
            }
            if head.players.iter().any(|x| x.id == out) {
                let ruling = Ruling::Substitute { out, into };
                let match_key = format!("{key}:match{id}");
                let request = Request {
                    key: Some(&match_key),
                    ..Request::default()
                };
                updates.push(self.rule(id, admin, ruling, "a league substitute", request)?);
            }
            unfinished.push(p);
        }
        let substitution = Substitution {
            league: league.id,
            season: season.id,
            out,
            into,
            in_matches: unfinished.iter().filter_map(|p| p.match_id).collect(),
        };
        let now = self.now();
        if self.store.substitute(&substitution, key, now)?.is_none() {
            return Ok(None);
        }
        let mut lines = vec![format!(
            "{into_name} takes {out_name}'s place in {} (season {}).",
            league.new.name, season.number
        )];
        for p in &unfinished {
            lines.push(format!(
                "{into_name} plays on in match #{} (round {}, board {}).",
                p.match_id.unwrap_or_default(),
                p.round,
                p.board
            ));
        }
        Ok(Some(Substituted { lines, updates }))
    }
}
