//! What one viewer may see of an En Prise game, built by allowlist: the board (all public), each
//! player's king and status, and each battleplan with only the cards this viewer may see; and
//! the outcome in the game's words.

use super::{EnPrise, LastAction, Out, Phase, Piece, Variant, colour, names};
use crate::board::Sq;
use crate::engine::{Game, GameView, Outcome, Seat, Viewer};
use crate::games::chess::Role;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquareView {
    pub at: Sq,
    /// None: a vacant square (a card face-down).
    pub piece: Option<Piece>,
}

/// A battleplan as this viewer sees it: the cards in order, None where hidden, and what remains
/// (public: every card that leaves a plan is shown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanView {
    pub cards: Vec<Option<Role>>,
    pub remaining: Vec<(Role, usize)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub colour: String,
    /// Why the player left the game, if they did, in a few words ("checkmated by Black").
    pub out: Option<String>,
    pub king_in_hand: bool,
    /// True when the player must summon the king this turn.
    pub must_summon: bool,
    pub plan: PlanView,
}

/// Where the turn stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseView {
    Memorise { seconds: u32, waiting: Vec<Seat> },
    Turn,
    Choosing { chooser: Seat },
    Placing { card: usize, role: Role },
    Escape,
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnPriseView {
    pub viewer: Viewer,
    pub variant: Variant,
    pub alliance: bool,
    pub squares: Vec<SquareView>,
    pub players: Vec<PlayerView>,
    /// Whose turn it is (for a chooser's pick, the player the card is for).
    pub current: Seat,
    pub phase: PhaseView,
    pub to_act: Vec<Seat>,
    pub last: Option<LastAction>,
    /// Squares of kings in check.
    pub checks: Vec<Sq>,
    pub status: String,
    pub outcome: Option<Outcome>,
}

pub(super) fn build(game: &EnPrise, viewer: Viewer) -> EnPriseView {
    let sides = game.sides();
    let players = Seat::all(game.seats)
        .map(|seat| {
            let plan = &game.plans[seat.index()];
            let cards = (0..plan.len())
                .map(|i| game.card_visible(seat, i, viewer).then_some(plan[i].role))
                .collect();
            let mut remaining: Vec<(Role, usize)> = Vec::new();
            for role in [
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                let n = plan.iter().filter(|c| c.role == role).count();
                if n > 0 {
                    remaining.push((role, n));
                }
            }
            PlayerView {
                seat,
                colour: colour(seat).to_string(),
                out: game
                    .eliminated
                    .iter()
                    .find(|e| e.seat == seat)
                    .map(|e| e.out.short()),
                king_in_hand: game.king_in_hand[seat.index()],
                must_summon: game.alive[seat.index()] && game.must_summon(seat),
                plan: PlanView { cards, remaining },
            }
        })
        .collect();
    let phase = match &game.phase {
        Phase::Memorise { ready } => PhaseView::Memorise {
            seconds: game.options.memory_seconds(),
            waiting: Seat::all(game.seats)
                .filter(|s| !ready[s.index()])
                .collect(),
        },
        Phase::Turn => PhaseView::Turn,
        Phase::Choosing { chooser } => PhaseView::Choosing { chooser: *chooser },
        Phase::Placing { card } => PhaseView::Placing {
            card: *card,
            role: game.plans[game.current.index()][*card].role,
        },
        Phase::Escape => PhaseView::Escape,
        Phase::Over(_) => PhaseView::Over,
    };
    let outcome = match &game.phase {
        Phase::Over(o) => Some(o.clone()),
        _ => None,
    };
    let checks = game
        .live()
        .filter_map(|s| {
            game.board
                .king_of(s)
                .filter(|_| game.board.in_check(s, sides))
        })
        .collect();
    EnPriseView {
        viewer,
        variant: game.options.variant,
        alliance: game.options.alliance,
        squares: game
            .board
            .iter()
            .map(|(at, piece)| SquareView { at, piece })
            .collect(),
        players,
        current: game.current,
        to_act: game.to_act().seats().to_vec(),
        status: status(game, &phase, outcome.as_ref()),
        phase,
        last: game.last.clone(),
        checks,
        outcome,
    }
}

fn status(game: &EnPrise, phase: &PhaseView, outcome: Option<&Outcome>) -> String {
    let who = colour(game.current);
    match phase {
        PhaseView::Over => format!(
            "Game over: {}",
            outcome.map_or(String::new(), |o| describe(game, o))
        ),
        PhaseView::Memorise { seconds, waiting } => {
            let names: Vec<&str> = waiting.iter().map(|&s| colour(s)).collect();
            format!(
                "Memorise the battleplans: they turn face-down after {seconds} s or when everyone is ready (waiting for {})",
                names.join(", ")
            )
        }
        PhaseView::Choosing { chooser } => {
            format!("{} picks which card {who} must place", colour(*chooser))
        }
        PhaseView::Placing { role, .. } => format!("{who} places the revealed {}", role.name()),
        PhaseView::Escape => format!("{who} may add an escape square"),
        PhaseView::Turn if game.must_summon(game.current) => {
            format!("{who} must summon the king")
        }
        PhaseView::Turn if game.board.in_check(game.current, game.sides()) => {
            format!("{who} to play, in check")
        }
        PhaseView::Turn => format!("{who} to play"),
    }
}

/// An outcome in the game's words, naming who went out and how, the decisive one first:
/// "Black won: White was checkmated by Black", "White and Red won: Blue was stalemated;
/// earlier, Black was checkmated by Red, then Red was out by repetition", "Draw: no checkmate
/// is possible any more".
pub fn describe(game: &EnPrise, outcome: &Outcome) -> String {
    let mut outs: Vec<String> = game
        .eliminated
        .iter()
        .map(|e| format!("{} {}", colour(e.seat), e.out.sentence()))
        .collect();
    // A resignation or a loss on time decided outside the game (the table) when two players
    // remained is not among its eliminations.
    for out in [Out::Resignation, Out::Time] {
        if outcome.reason == out.reason() {
            let left = game
                .live()
                .filter(|&s| !outcome.winners().contains(&s))
                .map(|s| format!("{} {}", colour(s), out.sentence()));
            outs.extend(left);
        }
    }
    // In the order they went out; "then" keeps apart the names within one ("by White and Red").
    let earlier = |outs: &[String]| {
        if outs.is_empty() {
            String::new()
        } else {
            format!("; earlier, {}", outs.join(", then "))
        }
    };
    if outcome.is_draw() {
        let how = match outcome.reason.as_str() {
            "agreement" => " by agreement".to_string(),
            reason => format!(": {reason}"),
        };
        if outs.is_empty() {
            return format!("Draw{how}");
        }
        return format!(
            "Draw between {}{how}{}",
            names(&game.live_seats()),
            earlier(&outs)
        );
    }
    let winners = names(outcome.winners());
    match outs.split_last() {
        Some((decisive, before)) => format!("{winners} won: {decisive}{}", earlier(before)),
        None => format!("{winners} won by {}", outcome.reason),
    }
}

impl GameView for EnPriseView {
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn conclude(&mut self, outcome: &Outcome, status: String) {
        (self.outcome, self.status) = (Some(outcome.clone()), status);
        self.to_act.clear();
    }
}
