//! Decisions taken outside a game's rules: resigning, offering, accepting and declining a draw,
//! and aborting a match before its first move. Each is a keyed request like an action, stored
//! with the version check, and announced as "<name> <verb>.".

use super::{Key, Live, Loaded, Request, Table, TableError, Update, seats_of};
use crate::engine::{Outcome, Seat};
use crate::store::{Change, MatchId, PlayerId};

impl Table {
    /// Resigns: allowed when two players remain; the other one wins.
    pub fn resign<'a>(
        &mut self,
        id: MatchId,
        player: PlayerId,
        request: impl Into<Request<'a>>,
    ) -> Result<Update, TableError> {
        self.decide(id, player, request.into(), |loaded, seat| {
            let outcome = loaded.game.resignation(seat).map_err(TableError::Illegal)?;
            Ok((Decision::Finish(outcome), "resigns"))
        })
    }

    /// Agrees to a draw (offering one if none stands). The game is drawn once every remaining
    /// player agrees; the offer lapses with the next action.
    pub fn offer_draw<'a>(
        &mut self,
        id: MatchId,
        player: PlayerId,
        request: impl Into<Request<'a>>,
    ) -> Result<Update, TableError> {
        self.decide(id, player, request.into(), |loaded, seat| {
            if loaded.stored.draw_votes.contains(&seat) {
                return Err(TableError::Illegal(
                    "you have already agreed to a draw".into(),
                ));
            }
            vote_draw(loaded, seat)
        })
    }

    /// Agrees to the draw offered by another player.
    pub fn accept_draw<'a>(
        &mut self,
        id: MatchId,
        player: PlayerId,
        request: impl Into<Request<'a>>,
    ) -> Result<Update, TableError> {
        self.decide(id, player, request.into(), |loaded, seat| {
            pending_offer_from_other(loaded, seat)?;
            vote_draw(loaded, seat)
        })
    }

    /// Turns down the draw on offer; the offer is withdrawn for everyone.
    pub fn decline_draw<'a>(
        &mut self,
        id: MatchId,
        player: PlayerId,
        request: impl Into<Request<'a>>,
    ) -> Result<Update, TableError> {
        self.decide(id, player, request.into(), |loaded, seat| {
            pending_offer_from_other(loaded, seat)?;
            Ok((Decision::DrawVotes(vec![]), "declines the draw"))
        })
    }

    /// Calls off a match before its first action.
    pub fn abort<'a>(
        &mut self,
        id: MatchId,
        player: PlayerId,
        request: impl Into<Request<'a>>,
    ) -> Result<Update, TableError> {
        self.decide(id, player, request.into(), |loaded, _| {
            if loaded.stored.plies > 0 {
                return Err(TableError::Illegal(
                    "a match can be aborted only before its first move; resign or offer a draw instead".into(),
                ));
            }
            Ok((Decision::Abort, "aborts the match"))
        })
    }

    /// The shape of every decision made outside the game's rules: load the active match, find
    /// the caller's seat, let `rule` decide (or refuse), store the decision with the version
    /// check, and announce it as "<name> <verb>.".
    fn decide(
        &mut self,
        id: MatchId,
        player: PlayerId,
        request: Request,
        rule: impl FnOnce(&Loaded, Seat) -> Result<(Decision, &'static str), TableError>,
    ) -> Result<Update, TableError> {
        self.keyed(id, &request, |table, key| {
            table.decide_unkeyed(id, player, request, key, rule)
        })
    }

    fn decide_unkeyed(
        &mut self,
        id: MatchId,
        player: PlayerId,
        request: Request,
        key: Key,
        rule: impl FnOnce(&Loaded, Seat) -> Result<(Decision, &'static str), TableError>,
    ) -> Result<Update, TableError> {
        let loaded = self.load_active(id, request.expected)?;
        let seat = seats_of(&loaded.stored, player, id)?[0];
        let (decision, verb) = rule(&loaded, seat)?;
        let change = match &decision {
            Decision::Finish(outcome) => Change::Finish(outcome),
            Decision::DrawVotes(seats) => Change::DrawVotes(seats),
            Decision::Abort => Change::Abort,
        };
        let line = format!("{} {verb}.", loaded.stored.players[seat.index()].name);
        let same = Live {
            game: loaded.game.clone(),
            rng: loaded.rng.clone(),
        };
        self.commit(&loaded, Some(same), 0, &[change], key, vec![line], vec![])
    }
}

/// A decision taken outside the game's rules.
enum Decision {
    Finish(Outcome),
    DrawVotes(Vec<Seat>),
    Abort,
}

/// `seat` agrees to a draw: the game is drawn when every remaining player has.
fn vote_draw(loaded: &Loaded, seat: Seat) -> Result<(Decision, &'static str), TableError> {
    let remaining = loaded.game.remaining_seats();
    if !remaining.contains(&seat) {
        return Err(TableError::Illegal(
            "you are out of the game; the remaining players decide on a draw".into(),
        ));
    }
    let mut votes = loaded.stored.draw_votes.clone();
    votes.push(seat);
    votes.sort();
    if remaining.iter().all(|s| votes.contains(s)) {
        let outcome = Outcome::draw(loaded.stored.players.len(), "agreement");
        return Ok((Decision::Finish(outcome), "agrees to the draw"));
    }
    let verb = if loaded.stored.draw_votes.is_empty() {
        "offers a draw"
    } else {
        "agrees to the draw"
    };
    Ok((Decision::DrawVotes(votes), verb))
}

fn pending_offer_from_other(loaded: &Loaded, seat: Seat) -> Result<(), TableError> {
    let votes = &loaded.stored.draw_votes;
    if votes.is_empty() {
        Err(TableError::Illegal(
            "there is no draw offer to answer".into(),
        ))
    } else if votes.contains(&seat) {
        Err(TableError::Illegal(
            "you have already agreed to this draw".into(),
        ))
    } else {
        Ok(())
    }
}
