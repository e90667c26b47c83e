//! What the table returns after a call ([`Update`]): the lines to post, the public view (drawn
//! on request by [`Update::board_png`]), each seat's own view, who must act and with what
//! choices, or how the match ended.

use super::Loaded;
use super::clock::Instant;
use super::clocks::Timing;
use super::time_control::TimeControl;
use crate::engine::{Outcome, Seat, ToAct, Viewer};
use crate::games::{AnyView, GameKind};
use crate::store::{MatchId, Place, Player, Status};

/// What to send after a call: public lines and view for the channel, each seat's own view for
/// that seat alone, and who must act next.
#[derive(Clone, Debug)]
pub struct Update {
    pub match_id: MatchId,
    pub game: GameKind,
    /// Where the match is played (server, channel, thread).
    pub place: Place,
    /// The version a follow-up request (a button) must carry.
    pub version: u64,
    /// Lines for everyone ("White plays e4").
    pub public: Vec<String>,
    /// Lines meant for one seat only.
    pub private: Vec<(Seat, String)>,
    /// The view everyone may see; [`Update::board_png`] draws it.
    pub public_view: AnyView,
    /// Each seat's own view, for that seat's player only.
    pub seat_views: Vec<(Seat, Player, AnyView)>,
    /// Seats that must act now, with their players; empty once the match is over.
    pub to_act: Vec<(Seat, Player)>,
    pub outcome: Option<Outcome>,
    /// The outcome in the game's words ("White won by checkmate").
    pub result: Option<String>,
    /// Every action the seats in `to_act` may take, for buttons and menus everyone sees; empty
    /// when `private_choices`.
    pub choices: Vec<String>,
    /// The actions would give away what only their player may see (a hand of cards): ask
    /// [`Table::legal`] for one player at a time, and show the answer to that player alone.
    pub private_choices: bool,
    /// The game's own timer (Memory's reveal), in seconds, if it waits on one; the scheduler
    /// fires it (a deadline stored with the match).
    pub timeout: Option<u32>,
    /// The match's time control, and when each running clock runs out (the seats that must
    /// act, with their deadlines, by the table's clock).
    pub time_control: TimeControl,
    pub clocks: Vec<(Seat, Instant)>,
    /// Every seat's clock as it stood when the update was made: (seat, time left in seconds,
    /// running); empty without a clock or once the match is over.
    pub times: Vec<(Seat, i64, bool)>,
    /// The request was applied before (its key was seen): `public` and `private` are what it
    /// did then, the rest is the match now; nothing changed.
    pub repeated: bool,
}

impl Update {
    /// The public board picture (PNG), drawn from `public_view` now, with a band naming each
    /// player beside their colour (and their clock in a timed match). Drawing takes a few
    /// milliseconds, so the table leaves it to whoever posts the picture, off the thread that
    /// serialises every match's actions; async adapters call it on a blocking thread.
    pub fn board_png(&self) -> Vec<u8> {
        crate::render::render_with_clocks(&self.public_view, &self.clock_faces())
    }

    /// The band of players under the board: each seat's name, its time left in a timed
    /// match, and whether it must act.
    pub fn clock_faces(&self) -> Vec<crate::render::ClockFace> {
        // `seat_views` holds every seat, in seat order.
        self.seat_views
            .iter()
            .map(|(seat, player, _)| {
                let time = self.times.iter().find(|(s, _, _)| s == seat);
                crate::render::ClockFace {
                    seat: *seat,
                    label: player.name.clone(),
                    left: time.map(|&(_, left, _)| match left {
                        ..=0 => super::clock::time_left(left),
                        left => super::clock::span(left),
                    }),
                    running: self.to_act.iter().any(|(s, _)| s == seat),
                }
            })
            .collect()
    }
}

pub(super) fn split_events(events: &[crate::engine::Event]) -> (Vec<String>, Vec<(Seat, String)>) {
    let mut public = Vec::new();
    let mut private = Vec::new();
    for event in events {
        match event.audience {
            crate::engine::Audience::Everyone => public.push(event.text.clone()),
            crate::engine::Audience::Only(seat) => private.push((seat, event.text.clone())),
        }
    }
    (public, private)
}

pub(super) fn update(
    loaded: &Loaded,
    mut public: Vec<String>,
    private: Vec<(Seat, String)>,
    now: Instant,
) -> Update {
    let stored = &loaded.stored;
    let game = &loaded.game;
    let over = stored.status != Status::Active;
    let to_act = if over {
        vec![]
    } else {
        game.to_act()
            .seats()
            .iter()
            .map(|&s| (s, stored.players[s.index()].clone()))
            .collect()
    };
    let outcome = match game.to_act() {
        ToAct::Over(o) => Some(o),
        ToAct::Seats(_) => stored.outcome.clone(),
    };
    let result = match (stored.status, &outcome) {
        (Status::Aborted, _) => Some("aborted".to_string()),
        (_, Some(o)) => Some(game.describe(o)),
        _ => None,
    };
    // A match that ended by resignation, agreement or abort says so; a game that ended by its
    // own rules has already said it in its events.
    if stored.status != Status::Active
        && let Some(result) = &result
        && !public.iter().any(|l| l.starts_with("Game over"))
    {
        public.push(format!("Game over: {result}"));
    }
    let public_view = loaded.view(Viewer::Spectator);
    let private_choices = game.private_choices();
    let mut choices: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (seat, _) in to_act.iter().filter(|_| !private_choices) {
        for text in loaded.legal(*seat) {
            if seen.insert(text.clone()) {
                choices.push(text);
            }
        }
    }
    let timeout = if over {
        None
    } else {
        game.timeout().map(|(seconds, _)| seconds)
    };
    let timing = Timing::of(stored).unwrap_or(Timing {
        control: TimeControl::None,
        clocks: vec![],
    });
    let clocks = (0..stored.players.len())
        .filter_map(|i| {
            let seat = Seat(i as u8);
            // A held clock (its match on hold) runs out at no time to show.
            let end = timing
                .deadline(seat)
                .filter(|&end| end < super::holds::HELD)?;
            Some((seat, end))
        })
        .collect();
    let times = match over {
        true => vec![],
        false => timing
            .clocks
            .iter()
            .enumerate()
            .map(|(i, c)| (Seat(i as u8), c.left(now), c.running_since.is_some()))
            .collect(),
    };
    Update {
        match_id: stored.id,
        times,
        place: stored.place.clone(),
        time_control: timing.control,
        clocks,
        game: stored.game,
        version: stored.version,
        public,
        private,
        public_view,
        seat_views: stored
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let seat = Seat(i as u8);
                (seat, p.clone(), loaded.view(Viewer::Seat(seat)))
            })
            .collect(),
        to_act,
        outcome,
        result,
        choices,
        private_choices,
        timeout,
        repeated: false,
    }
}
