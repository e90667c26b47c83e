//! What a player sees across their matches, and what a typed message means: their match list
//! (whose turn, when their time runs out, how finished ones ended), and whether a text sent in
//! chat is meant as their move and would be allowed.

use super::clocks::Timing;
use super::update::update;
use super::{ACTION_LIMIT, MatchId, PlayerId, Table, TableError, clock, seats_of, waiting_for};
use crate::engine::Seat;
use crate::games::GameKind;
use crate::store::{Place, Status};

/// One line of a player's match list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    pub match_id: MatchId,
    pub game: GameKind,
    pub players: Vec<String>,
    pub waiting_for: Vec<String>,
    pub your_turn: bool,
    /// The match's version (what a button made for it now must carry).
    pub version: u64,
    /// Where it is played (server, channel, thread), for links.
    pub place: Place,
    /// When the caller's clock runs out, when it is running.
    pub deadline: Option<clock::Instant>,
    /// How it ended, once it has ("White won by checkmate", "aborted").
    pub result: Option<String>,
}

impl Table {
    /// Whether `text`, typed by `player` in chat, is meant as their action in match `id`: they
    /// must act now and it reads as an action (legal or not). Anything else is ordinary chat.
    pub fn reads_as_action(
        &self,
        id: MatchId,
        player: PlayerId,
        text: &str,
    ) -> Result<bool, TableError> {
        let text = text.trim();
        if text.is_empty() || text.chars().count() > ACTION_LIMIT {
            return Ok(false);
        }
        let loaded = self.load(id)?;
        if loaded.stored.status != Status::Active {
            return Ok(false);
        }
        let to_act = loaded.game.to_act();
        Ok(loaded
            .stored
            .players
            .iter()
            .enumerate()
            .filter(|(i, p)| p.id == player && to_act.includes(Seat(*i as u8)))
            .any(|(i, _)| loaded.game.reads_as_action(Seat(i as u8), text)))
    }

    /// Whether `player` may play `text` in match `id` now (tried on a copy; nothing changes).
    pub fn allows(&self, id: MatchId, player: PlayerId, text: &str) -> Result<bool, TableError> {
        let loaded = self.load(id)?;
        if loaded.stored.status != Status::Active {
            return Ok(false);
        }
        let to_act = loaded.game.to_act();
        let seats = seats_of(&loaded.stored, player, id)?;
        Ok(seats.iter().filter(|s| to_act.includes(**s)).any(|&seat| {
            let (mut game, mut rng) = (loaded.game.clone(), loaded.rng.clone());
            game.play(seat, text.trim(), &mut rng).is_ok()
        }))
    }

    /// The player's active matches and whose turn it is in each.
    pub fn matches_of(&self, player: PlayerId) -> Result<Vec<Listing>, TableError> {
        self.listings(player, false)
    }

    /// The player's matches, newest first: the active ones, or with `finished` those that
    /// ended (finished or aborted).
    pub fn listings(&self, player: PlayerId, finished: bool) -> Result<Vec<Listing>, TableError> {
        let mut out = Vec::new();
        for summary in self.store.matches_of(player, !finished)? {
            if finished == (summary.status == Status::Active) {
                continue;
            }
            let loaded = self.load(summary.id)?;
            let to_act = loaded.game.to_act();
            let (deadline, result) = match finished {
                false => (Timing::of(&loaded.stored)?.deadline(summary.seat), None),
                true => (None, update(&loaded, vec![], vec![], self.now()).result),
            };
            out.push(Listing {
                deadline,
                result,
                match_id: summary.id,
                game: summary.game,
                players: loaded
                    .stored
                    .players
                    .iter()
                    .map(|p| p.name.clone())
                    .collect(),
                waiting_for: waiting_for(&loaded),
                your_turn: to_act.includes(summary.seat),
                version: loaded.stored.version,
                place: loaded.stored.place.clone(),
            });
        }
        Ok(out)
    }
}
