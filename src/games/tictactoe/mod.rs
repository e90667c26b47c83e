//! Tic-tac-toe, a game only tests know (it is never offered to players): the proof that a game
//! joins deckmate with one registration line and its own files. Everything it does not need
//! (resignation, time, leagues, PGN, hidden information) it leaves to the contract's defaults.
//!
//! Cells are named a1..c3 like a chess board: files a-c from the left, ranks 1-3 from the
//! bottom. X (seat 1) moves first; three in a row wins; a full board is a draw.

use crate::engine::{
    Event, Game, GameRng, GameView, Outcome, ParseError, RuleError, Seat, SetupError, ToAct, Viewer,
};
use crate::games::chess::two_seats;
use serde::{Deserialize, Serialize};

/// The eight lines of three, as cell indexes (index = rank * 3 + file).
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A game of tic-tac-toe: who holds each cell, and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TicTacToe {
    cells: [Option<Seat>; 9],
    turn: Seat,
    last: Option<usize>,
}

/// Tic-tac-toe takes no options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TicTacToeOptions {}

/// What everyone sees: the whole board (nothing is hidden).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TicTacToeView {
    /// Rank 3 first, as the board is drawn: "X", "O" or "." a cell.
    pub rows: [String; 3],
    pub last: Option<String>,
    pub status: String,
    pub outcome: Option<Outcome>,
}

/// The mark of a seat: X for the first, O for the second.
pub fn mark(seat: Seat) -> &'static str {
    if seat.0 == 0 { "X" } else { "O" }
}

fn cell_name(index: usize) -> String {
    format!("{}{}", (b'a' + (index % 3) as u8) as char, index / 3 + 1)
}

impl TicTacToe {
    fn outcome(&self) -> Option<Outcome> {
        for line in LINES {
            if let [Some(a), Some(b), Some(c)] = line.map(|i| self.cells[i])
                && a == b
                && b == c
            {
                return Some(Outcome::winner(a, 2, "three in a row"));
            }
        }
        self.cells
            .iter()
            .all(Option::is_some)
            .then(|| Outcome::draw(2, "a full board"))
    }
}

impl Game for TicTacToe {
    type Options = TicTacToeOptions;
    type Action = usize;
    type View = TicTacToeView;

    const ID: &'static str = "tictactoe";
    const NAME: &'static str = "Tic-tac-toe";
    const SEATS: (usize, usize) = (2, 2);
    const NOTATION: &'static str = "the cell to mark: a1 to c3 (files a-c, ranks 1-3)";
    const SUMMARY: &'static str = "**Tic-tac-toe**: mark a cell (`b2`); three in a row wins.";
    const OFFERED: bool = false;

    fn new(_: &TicTacToeOptions, seats: usize, _: &mut GameRng) -> Result<Self, SetupError> {
        two_seats(Self::NAME, seats)?;
        Ok(TicTacToe {
            cells: [None; 9],
            turn: Seat(0),
            last: None,
        })
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        match self.outcome() {
            Some(outcome) => ToAct::Over(outcome),
            None => ToAct::one(self.turn),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<usize> {
        if !self.to_act().includes(seat) {
            return vec![];
        }
        (0..9).filter(|&i| self.cells[i].is_none()).collect()
    }

    fn apply(
        &mut self,
        seat: Seat,
        cell: &usize,
        _: &mut GameRng,
    ) -> Result<Vec<Event>, RuleError> {
        if self.outcome().is_some() {
            return Err(RuleError::GameOver);
        }
        if seat != self.turn {
            return Err(RuleError::NotYourTurn);
        }
        match self.cells.get(*cell) {
            Some(None) => {}
            Some(Some(_)) => {
                return Err(RuleError::Illegal(format!("{} is taken", cell_name(*cell))));
            }
            None => return Err(RuleError::Illegal("there is no such cell".into())),
        }
        self.cells[*cell] = Some(seat);
        self.last = Some(*cell);
        self.turn = Seat(1 - seat.0);
        Ok(vec![Event::public(format!(
            "{} marks {}",
            mark(seat),
            cell_name(*cell)
        ))])
    }

    fn view(&self, _: Viewer) -> TicTacToeView {
        let row = |rank: usize| {
            (0..3)
                .map(|file| self.cells[rank * 3 + file].map_or(".", mark))
                .collect::<String>()
        };
        let outcome = self.outcome();
        let status = match &outcome {
            Some(outcome) => self.describe(outcome),
            None => format!("{} to play", mark(self.turn)),
        };
        TicTacToeView {
            rows: [row(2), row(1), row(0)],
            last: self.last.map(cell_name),
            status,
            outcome,
        }
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<usize, ParseError> {
        let bytes = text.trim().to_ascii_lowercase().into_bytes();
        let cell = match bytes.as_slice() {
            [file @ b'a'..=b'c', rank @ b'1'..=b'3'] => {
                usize::from(rank - b'1') * 3 + usize::from(file - b'a')
            }
            _ => return Err(ParseError::new(text, "a cell is a1 to c3")),
        };
        if !self.legal_actions(seat).contains(&cell) {
            let why = match self.clone().apply(seat, &cell, &mut GameRng::from_seed(0)) {
                Err(e) => e.to_string(),
                Ok(_) => "not now".into(),
            };
            return Err(ParseError::refused(text, why));
        }
        Ok(cell)
    }

    fn format_action(&self, cell: &usize) -> String {
        cell_name(*cell)
    }
}

impl GameView for TicTacToeView {
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn conclude(&mut self, outcome: &Outcome, status: String) {
        (self.outcome, self.status) = (Some(outcome.clone()), status);
    }
}

#[cfg(test)]
mod tests;
