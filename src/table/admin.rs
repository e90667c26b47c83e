//! A server admin's rulings on a match: cancel it, adjudicate its result, or seat a substitute.
//! Each is a keyed request like a move, allowed only on a match of the admin's own server,
//! recorded in the server's admin log in the same transaction, and announced in the match.

use super::{Key, Live, Request, Table, TableError, Update, seats_of};
use crate::engine::{Outcome, Seat};
use crate::store::{Change, MatchId, Player, PlayerId};

/// Who rules: a server admin, and the server they rule in.
#[derive(Clone, Debug)]
pub struct Admin {
    pub player: PlayerId,
    pub name: String,
    /// The server's id; a ruling on a match of another server is refused. None: the
    /// console's tournament director, who rules on the console's matches (and keeps no
    /// admin log).
    pub guild: Option<String>,
}

/// What an admin decides about a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ruling {
    /// Calls the match off: no result.
    Cancel,
    /// The match ends with this player's win.
    Win(PlayerId),
    Draw,
    /// `into` takes over every seat of `out`.
    Substitute {
        out: PlayerId,
        into: PlayerId,
    },
}

impl Table {
    /// Applies an admin's ruling on match `id`, with their `reason` (shown in the match and
    /// kept in the admin log).
    pub fn rule<'a>(
        &mut self,
        id: MatchId,
        admin: &Admin,
        ruling: Ruling,
        reason: &str,
        request: impl Into<Request<'a>>,
    ) -> Result<Update, TableError> {
        let request = request.into();
        self.keyed(id, &request, |table, key| {
            table.rule_unkeyed(id, admin, &ruling, reason.trim(), request, key)
        })
    }

    fn rule_unkeyed(
        &mut self,
        id: MatchId,
        admin: &Admin,
        ruling: &Ruling,
        reason: &str,
        request: Request,
        key: Key,
    ) -> Result<Update, TableError> {
        let length = reason.chars().count();
        if length > REASON_LIMIT {
            return Err(TableError::Illegal(format!(
                "that reason is {length} characters long; a reason is at most {REASON_LIMIT}"
            )));
        }
        let mut loaded = self.load_active(id, request.expected)?;
        if loaded.stored.place.guild_id != admin.guild {
            return Err(TableError::Illegal(format!(
                "match #{id} is not played in this server; its own server's admins rule on it"
            )));
        }
        let players = loaded.stored.players.clone();
        let store = &self.store;
        // A player the admin named who has no seat here.
        let seated = |player: PlayerId| -> Result<(Vec<Seat>, Player), TableError> {
            match seats_of(&loaded.stored, player, id) {
                Ok(seats) => Ok((seats.clone(), players[seats[0].index()].clone())),
                Err(_) => Err(TableError::Illegal(format!(
                    "{} does not play in match #{id}",
                    store.player(player)?.name
                ))),
            }
        };
        let said = match reason {
            "" => String::new(),
            reason => format!(": {reason}"),
        };
        let role = match admin.guild {
            Some(_) => "server admin",
            None => "tournament director",
        };
        let by = format!("{} ({role})", admin.name);
        let adjudged = format!("adjudication ({by}{said})");
        let (outcome, action, line) = match ruling {
            Ruling::Cancel => (None, "cancel", format!("{by} cancelled the match{said}.")),
            Ruling::Win(winner) => {
                let (seats, winner) = seated(*winner)?;
                let outcome = Outcome::winner(seats[0], players.len(), adjudged);
                let line = format!("{by} adjudicated a win for {}{said}.", winner.name);
                (Some(outcome), "adjudicate", line)
            }
            Ruling::Draw => {
                let outcome = Outcome::draw(players.len(), adjudged);
                (
                    Some(outcome),
                    "adjudicate",
                    format!("{by} adjudicated a draw{said}."),
                )
            }
            Ruling::Substitute { out, into } => {
                let out = seated(*out)?.1;
                if players.iter().any(|p| p.id == *into) {
                    return Err(TableError::Illegal(
                        "the substitute already plays in this match".into(),
                    ));
                }
                let into = self.store.player(*into)?;
                let line = format!("{by} seated {} in place of {}{said}.", into.name, out.name);
                (None, "substitute", line)
            }
        };
        let mut votes = loaded.stored.draw_votes.clone();
        let mut changes: Vec<Change> = match (ruling, &outcome) {
            (Ruling::Cancel, _) => vec![Change::Abort],
            (Ruling::Substitute { out, into }, _) => {
                // The newcomer takes the seat as it is on the board, but not its player's word
                // on a draw; and clocks are held for the newcomer's vacation, not the old one's.
                let seats = seated(*out)?.0;
                let newcomer = self.store.player(*into)?;
                votes.retain(|s| !seats.contains(s));
                for seat in &seats {
                    loaded.stored.players[seat.index()] = newcomer.clone();
                }
                loaded.stored.draw_votes = votes.clone();
                seats
                    .into_iter()
                    .map(|seat| Change::Reseat {
                        seat,
                        player: *into,
                    })
                    .collect()
            }
            (_, Some(outcome)) => vec![Change::Finish(outcome)],
            (_, None) => unreachable!("a win or a draw has its outcome"),
        };
        if matches!(ruling, Ruling::Substitute { .. }) {
            changes.push(Change::DrawVotes(&votes));
        }
        changes.push(Change::Admin {
            admin: admin.player,
            action,
            detail: &line,
        });
        let same = Live {
            game: loaded.game.clone(),
            rng: loaded.rng.clone(),
        };
        self.commit(
            &loaded,
            Some(same),
            0,
            &changes,
            key,
            vec![line.clone()],
            vec![],
        )
    }
}

/// How long an admin's reason may be, in characters.
pub const REASON_LIMIT: usize = 200;
