//! League substitutes: an admin seats a player in place of another for the rest of a running
//! season. The substitute takes over the game the player left unfinished in the running round
//! and, in a round robin, the rest of their schedule; points stay with whoever earned them.

use super::admin::{Admin, Ruling};
use super::leagues::{LeagueError, refused, settled};
use super::{Request, Table, Update};
use crate::store::PlayerId;
use crate::store::league_rulings::Substitution;
use crate::store::leagues::{League, SeasonStatus};

/// A substitute seated: what to announce, and the match they took over (to show its players).
#[derive(Clone, Debug)]
pub struct Substituted {
    pub lines: Vec<String>,
    pub update: Option<Update>,
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
        // The game `out` left unfinished in the running round, if any.
        self.sync_results(league)?;
        let rounds = self.store.rounds(season.id)?;
        let running = rounds.iter().rfind(|r| !r.closed).map(|r| r.number);
        let unfinished = self.store.pairings(season.id)?.into_iter().find(|p| {
            Some(p.round) == running
                && !settled(p)
                && p.match_id.is_some()
                && (p.white == out
                    || p.black == Some(out)
                    || p.table.iter().any(|s| s.player == out))
        });
        let mut update = None;
        if let Some(id) = unfinished.as_ref().and_then(|p| p.match_id) {
            let ruling = Ruling::Substitute { out, into };
            let match_key = format!("{key}:match");
            let request = Request {
                key: Some(&match_key),
                ..Request::default()
            };
            update = Some(self.rule(id, admin, ruling, "a league substitute", request)?);
        }
        let substitution = Substitution {
            league: league.id,
            season: season.id,
            out,
            into,
            in_match: update.as_ref().map(|u| u.match_id),
        };
        let now = self.now();
        if self.store.substitute(substitution, key, now)?.is_none() {
            return Ok(None);
        }
        let mut lines = vec![format!(
            "{into_name} takes {out_name}'s place in {} (season {}).",
            league.new.name, season.number
        )];
        if let (Some(p), Some(u)) = (&unfinished, &update) {
            lines.push(format!(
                "{into_name} plays on in match #{} (round {}, board {}).",
                u.match_id, p.round, p.board
            ));
        }
        Ok(Some(Substituted { lines, update }))
    }
}
