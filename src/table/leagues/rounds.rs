//! A league round's life: paired and stored with its boards, each board's match created and
//! linked in one transaction (so a round interrupted half-way is finished later rather than
//! left with matches that belong to nothing), paired again before its games begin, and closed
//! with its forfeits and drops in one transaction, once per request.

use super::plans::{Plan, berger_plan, pods_plan, swiss_plan};
use super::{DAY, LeagueError, RoundStarted, refused, seed_of, settled};
use crate::league::berger;
use crate::league::dutch;
use crate::store::league_rulings::{BoardLink, Closing};
use crate::store::leagues::{
    Format, League, PairingRow, Registration, RoundRow, Season, SeasonId, SeasonStatus, TableSeat,
};
use crate::store::{MatchId, Place, Player, PlayerId, Status, StoreError};
use crate::table::time_control::TimeControl;
use crate::table::{Table, Update};

impl Table {
    /// Pairs and starts the league's next round (starting the season first if it was open
    /// for registration): a match for every game, byes and forfeits scored at once.
    pub fn start_round(&mut self, league: &League) -> Result<RoundStarted, LeagueError> {
        let (season, round) = self.next_round(league)?;
        let started = self.pair_round(league, &season, round, None)?;
        Ok(started.expect("a round stored under no key is always stored"))
    }

    /// [`Table::start_round`] asked for on Discord: the round's news and each of its boards are
    /// owed to the league's channel in the same transaction.
    pub fn start_round_told(&mut self, league: &League) -> Result<RoundStarted, LeagueError> {
        self.transaction(|t| {
            let started = t.start_round(league)?;
            t.owe_league(league, &[], Some(&started))?;
            Ok(started)
        })
    }

    /// [`Table::close_round_once`] asked for on Discord: what the close decided is owed to the
    /// league's channel in the same transaction.
    pub fn close_round_told(
        &mut self,
        league: &League,
        key: &str,
    ) -> Result<Option<Vec<String>>, LeagueError> {
        self.transaction(|t| {
            let closed = t.close_round_once(league, Some(key))?;
            if let Some(lines) = &closed {
                t.owe_league(league, lines, None)?;
            }
            Ok(closed)
        })
    }

    /// [`Table::repair_round`] asked for on Discord: each called-off match's thread is told why
    /// it stops, and the round's news and boards are owed to the league's channel, all in the
    /// same transaction.
    pub fn repair_round_told(
        &mut self,
        league: &League,
        key: &str,
    ) -> Result<Option<RoundStarted>, LeagueError> {
        self.transaction(|t| {
            let Some(started) = t.repair_round(league, Some(key))? else {
                return Ok(None);
            };
            for (id, _) in &started.called_off {
                let line = format!(
                    "Round {} was paired again: match #{id} is called off.",
                    started.round
                );
                t.owe_note(*id, vec![line])?;
            }
            t.drop_owed_pairings(league.id, started.round)?;
            t.owe_league(league, &[], Some(&started))?;
            Ok(Some(started))
        })
    }

    /// The season to pair a round of (started now if it was open for registration), and the
    /// number of that round.
    fn next_round(&mut self, league: &League) -> Result<(Season, u32), LeagueError> {
        let mut season = self.store.season(league.id)?;
        if season.status == SeasonStatus::Finished {
            return Err(refused(format!("season {} is over", season.number)));
        }
        if season.status == SeasonStatus::Registration {
            let players: Vec<Registration> = self.store.registrations(season.id)?;
            if players.len() < 2 {
                return Err(refused(format!(
                    "a season needs at least 2 players; {} registered",
                    players.len()
                )));
            }
            let numbers: Vec<(PlayerId, u32)> = players
                .iter()
                .enumerate()
                .map(|(i, r)| (r.player, i as u32 + 1))
                .collect();
            let n = players.len() as u32;
            let rounds = match league.new.rounds {
                // No more Swiss rounds than the field allows without rematches.
                Some(rounds) if league.new.format == Format::Swiss => {
                    rounds.min(if n % 2 == 1 { n } else { n - 1 })
                }
                Some(rounds) if league.new.format == Format::Pods => rounds,
                _ => berger::rounds(n, cycles(league)).len() as u32,
            };
            self.store.start_season(season.id, &numbers, rounds)?;
            season = self.store.season(league.id)?;
        }
        let played = self.store.rounds(season.id)?;
        if let Some(last) = played.last().filter(|r| !r.closed) {
            return Err(refused(format!(
                "round {} is still running; close it first",
                last.number
            )));
        }
        let round = played.len() as u32 + 1;
        let total = season.rounds.unwrap_or(0);
        if round > total {
            return Err(refused(format!("all {total} rounds have been played")));
        }
        Ok((season, round))
    }

    /// Pairs `round` from the rounds before it, stores it (in place of a round of that number
    /// being paired again, under `again`'s key) and opens its matches. None when the key was
    /// carried out before.
    fn pair_round(
        &mut self,
        league: &League,
        season: &Season,
        round: u32,
        again: Option<Option<&str>>,
    ) -> Result<Option<RoundStarted>, LeagueError> {
        let plan = self.plan(league, season, round)?;
        let mut rows = Vec::new();
        for (i, board) in plan.into_iter().enumerate() {
            let mut row = PairingRow {
                round,
                board: i as u32 + 1,
                white: board.seats[0],
                black: board.seats.get(1).copied(),
                match_id: None,
                result: board.result.map(String::from),
                table: vec![],
            };
            if board.table {
                let seat = |player| TableSeat {
                    player,
                    points: None,
                    forfeit: false,
                };
                row.table = board.seats.iter().copied().map(seat).collect();
            }
            if needs_match(&row) {
                // Bad options are refused before anything is stored.
                let seed = seed_of(league.id, season.number, round, row.board);
                let (game, options) = (league.new.game, &league.new.options);
                Table::check_start(game, options, seats(&row).len(), seed)?;
            }
            rows.push(row);
        }
        let now = self.now();
        let deadline = now + league.new.round_days * DAY;
        let row = RoundRow {
            number: round,
            starts_at: now,
            deadline,
            closed: false,
        };
        let key = again.flatten().map(|key| (key, league.id));
        if !self
            .store
            .store_round(season.id, row, &rows, again.is_some(), key)?
        {
            return Ok(None);
        }
        let matches = self.open_boards(league, season, round)?;
        let pairings = self.round_pairings(season.id, round)?;
        Ok(Some(RoundStarted {
            round,
            deadline,
            pairings,
            matches,
            called_off: vec![],
        }))
    }

    /// The boards of `round` by the league's format, from the rounds before it.
    fn plan(&mut self, league: &League, season: &Season, round: u32) -> Result<Plan, LeagueError> {
        let registrations = self.store.registrations(season.id)?;
        let away: Vec<PlayerId> = self
            .store
            .unavailable(season.id)?
            .into_iter()
            .filter(|(_, r)| *r == round)
            .map(|(p, _)| p)
            .collect();
        let stored: Vec<PairingRow> = self
            .store
            .pairings(season.id)?
            .into_iter()
            .filter(|p| p.round < round)
            .collect();
        let total = season.rounds.unwrap_or(0);
        Ok(match league.new.format {
            Format::Swiss => {
                // Forfeits scored for time after both players moved were games all the same.
                let played = self.played_forfeits(&stored)?;
                match swiss_plan(&registrations, &stored, &played, &away, round, total) {
                    Ok(plan) => plan,
                    Err(dutch::DutchError::Impossible { .. }) => {
                        self.store.finish_season(season.id)?;
                        return Err(refused(format!(
                            "no pairing of round {round} is possible without rematches; \
                             season {} ends here",
                            season.number
                        )));
                    }
                    Err(e) => return Err(refused(e.to_string())),
                }
            }
            Format::Pods => pods_plan(&registrations, &stored, &away),
            _ => berger_plan(&registrations, &away, round, cycles(league)),
        })
    }

    /// Creates the matches of `round`'s boards that have none yet, each stored with its link
    /// to the board: after a round is stored, or to finish one a failure interrupted.
    fn open_boards(
        &mut self,
        league: &League,
        season: &Season,
        round: u32,
    ) -> Result<Vec<Update>, LeagueError> {
        let time = TimeControl::parse(&league.new.time_control).map_err(refused)?;
        let place = Place {
            guild_id: league.new.guild_id.clone(),
            channel_id: league.new.channel_id.clone(),
            thread_id: None,
        };
        let mut opened = Vec::new();
        for row in self.round_pairings(season.id, round)? {
            if !needs_match(&row) {
                continue;
            }
            let players = seats(&row)
                .into_iter()
                .map(|p| self.store.player(p))
                .collect::<Result<Vec<Player>, StoreError>>()?;
            let seed = seed_of(league.id, season.number, round, row.board);
            let link = BoardLink {
                season: season.id,
                round,
                board: row.board,
                rated: league.new.rated,
            };
            let (game, options) = (league.new.game, &league.new.options);
            let made =
                self.create_linked(game, options, &players, seed, &place, time, Some(link))?;
            opened.extend(made);
        }
        Ok(opened)
    }

    /// Finishes opening the running round when a failure left boards of it without their
    /// matches: those boards and their new matches, or None when every board has its match.
    pub fn open_missing_boards(
        &mut self,
        league: &League,
    ) -> Result<Option<RoundStarted>, LeagueError> {
        let season = self.store.season(league.id)?;
        let Some(open) = self
            .store
            .rounds(season.id)?
            .into_iter()
            .rfind(|r| !r.closed)
        else {
            return Ok(None);
        };
        let matches = self.open_boards(league, &season, open.number)?;
        if matches.is_empty() {
            return Ok(None);
        }
        let pairings = self
            .round_pairings(season.id, open.number)?
            .into_iter()
            .filter(|p| matches.iter().any(|u| Some(u.match_id) == p.match_id))
            .collect();
        Ok(Some(RoundStarted {
            round: open.number,
            deadline: open.deadline,
            pairings,
            matches,
            called_off: vec![],
        }))
    }

    fn round_pairings(&self, season: SeasonId, round: u32) -> Result<Vec<PairingRow>, StoreError> {
        let all = self.store.pairings(season)?;
        Ok(all.into_iter().filter(|p| p.round == round).collect())
    }

    /// The season's round under way.
    fn running_round(&self, season: SeasonId) -> Result<RoundRow, LeagueError> {
        let rounds = self.store.rounds(season)?;
        rounds
            .into_iter()
            .rfind(|r| !r.closed)
            .ok_or_else(|| refused("no round is running"))
    }

    /// Pairs the running round again (after a late registration, a withdrawal or an absence
    /// announced late), once under `key`: allowed while none of its games has begun; its
    /// matches are called off and the round paired afresh from the same results. None when
    /// `key` was carried out before.
    pub fn repair_round(
        &mut self,
        league: &League,
        key: Option<&str>,
    ) -> Result<Option<RoundStarted>, LeagueError> {
        if let Some(key) = key
            && self.store.league_request_done(key)?
        {
            return Ok(None);
        }
        let season = self.store.season(league.id)?;
        let open = self.running_round(season.id)?;
        let mut matches = Vec::new();
        for p in self.round_pairings(season.id, open.number)? {
            let Some(id) = p.match_id else { continue };
            let head = self.store.load_head(id)?;
            // A match called off by an attempt interrupted before the round was stored again
            // is no obstacle.
            if head.plies > 0 || head.status == Status::Finished {
                return Err(refused(format!(
                    "match #{id} of round {} has begun; a round is paired again only before \
                     any game starts",
                    open.number
                )));
            }
            matches.push((id, head.version, head.status, head.place));
        }
        let mut called_off: Vec<(MatchId, Place)> = Vec::new();
        for (id, version, status, place) in matches {
            if status == Status::Active {
                self.store
                    .change(id, version, &[crate::store::Change::Abort])?;
            }
            called_off.push((id, place));
        }
        let started = self.pair_round(league, &season, open.number, Some(key))?;
        Ok(started.map(|started| RoundStarted {
            called_off,
            ..started
        }))
    }

    /// Closes the running round: results taken from finished matches, games never begun
    /// forfeited, and players with too many forfeits dropped, all in one transaction. Returns
    /// what happened, in words.
    pub fn close_round(&mut self, league: &League) -> Result<Vec<String>, LeagueError> {
        let closed = self.close_round_once(league, None)?;
        Ok(closed.expect("a close under no key is always carried out"))
    }

    /// [`Table::close_round`] once under `key` (a Discord interaction): None when it was
    /// carried out before, so a close delivered twice does not close the next round.
    pub fn close_round_once(
        &mut self,
        league: &League,
        key: Option<&str>,
    ) -> Result<Option<Vec<String>>, LeagueError> {
        if let Some(key) = key
            && self.store.league_request_done(key)?
        {
            return Ok(None);
        }
        let season = self.store.season(league.id)?;
        let open = self.running_round(season.id)?;
        self.sync_results(league)?;
        let mut pairings = self.store.pairings(season.id)?;
        let mut closing = Closing {
            round: open.number,
            finished: Some(open.number) == season.rounds,
            ..Closing::default()
        };
        let mut lines = vec![format!("Round {} is closed.", open.number)];
        for p in pairings.iter_mut() {
            if p.round != open.number || settled(p) {
                continue;
            }
            let Some(id) = p.match_id else { continue };
            let stored = self.store.load_head(id)?;
            // A game held because its thread is gone is not forfeited: its players could
            // not play it.
            if stored.status != Status::Active || stored.plies > 0 || self.is_held(id)? {
                continue;
            }
            let due: Vec<usize> = if p.table.is_empty() {
                // White had to move first.
                p.result = Some("0F-1X".into());
                closing.results.push((p.board, "0F-1X"));
                vec![0]
            } else {
                // The seats due to act never did: everyone else finishes ahead of them (the
                // first seat, or every seat of a game that opens with all acting).
                let due: Vec<usize> = self
                    .show(id)?
                    .to_act
                    .iter()
                    .map(|(seat, _)| usize::from(seat.0))
                    .collect();
                let due = if due.is_empty() { vec![0] } else { due };
                let ahead = 2 * due.len() as u32;
                let points: Vec<u32> = (0..p.table.len())
                    .map(|i| if due.contains(&i) { 0 } else { ahead })
                    .collect();
                for (i, seat) in p.table.iter_mut().enumerate() {
                    seat.points = Some(points[i]);
                    seat.forfeit = due.contains(&i);
                }
                closing.tables.push((p.board, points, due.clone()));
                due
            };
            for i in due {
                let player = if p.table.is_empty() {
                    p.white
                } else {
                    p.table[i].player
                };
                let name = self.store.player(player)?.name;
                lines.push(format!("{name} never began match #{id}: a forfeit."));
            }
        }
        let limit = league.new.forfeits_to_drop;
        if limit > 0 {
            let away = self.store.unavailable(season.id)?;
            for r in self.store.registrations(season.id)? {
                if r.status != "active" {
                    continue;
                }
                let forfeits = pairings
                    .iter()
                    .filter(|p| !away.contains(&(r.player, p.round)))
                    .filter(|p| match p.result.as_deref() {
                        Some("0F-1X") => p.white == r.player,
                        Some("1X-0F") => p.black == Some(r.player),
                        Some("0F-0F") => p.white == r.player || p.black == Some(r.player),
                        _ => p.table.iter().any(|s| s.player == r.player && s.forfeit),
                    })
                    .count() as u32;
                if forfeits >= limit {
                    closing.drops.push(r.player);
                    let name = self.store.player(r.player)?.name;
                    lines.push(format!(
                        "{name} is dropped from the league after {forfeits} forfeits."
                    ));
                }
            }
        }
        if closing.finished {
            lines.push(format!("Season {} is over.", season.number));
        }
        let now = self.now();
        if !self
            .store
            .close_round(league.id, season.id, &closing, key, now)?
        {
            return Ok(None);
        }
        Ok(Some(lines))
    }
}

/// How many times a round robin's players meet: twice in a double round robin.
fn cycles(league: &League) -> u32 {
    match league.new.format {
        Format::DoubleRoundRobin => 2,
        _ => 1,
    }
}

/// Whether a board is a game still to be created: two or more players, no result, no match.
fn needs_match(row: &PairingRow) -> bool {
    row.black.is_some() && row.result.is_none() && row.match_id.is_none()
}

/// A board's players in seat order.
fn seats(row: &PairingRow) -> Vec<PlayerId> {
    match row.table.is_empty() {
        true => std::iter::once(row.white).chain(row.black).collect(),
        false => row.table.iter().map(|s| s.player).collect(),
    }
}
