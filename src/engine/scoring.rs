//! How a league scores a game's results: what a win, a draw and a loss are worth. A game
//! declares its default ([`crate::engine::Game::SCORING`]); a league may choose its own.

/// What a win, a draw and a loss are worth, in half points. Results are kept as played (1, ½,
/// 0); points, and the tiebreaks made of points, count them with the league's scoring. A bye
/// or a forfeit won is worth a win, an announced absence half a win, a forfeit lost nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring::STANDARD
    }
}

impl Scoring {
    /// 1, ½, 0.
    pub const STANDARD: Scoring = Scoring {
        win: 2,
        draw: 1,
        loss: 0,
    };

    /// A win alone scores: 1, 0, 0 (a game whose rules count a draw as nothing for
    /// everyone, such as En Prise).
    pub const WINS_ONLY: Scoring = Scoring {
        win: 2,
        draw: 0,
        loss: 0,
    };

    /// Reads "win,draw,loss" in points, halves allowed: "1,0.5,0", "3,1,0", "1,0,0".
    pub fn parse(text: &str) -> Result<Scoring, String> {
        let halves = |part: &str| -> Option<u32> {
            let part = part.trim().replace('½', ".5");
            let value: f64 = part.parse().ok()?;
            let halves = value * 2.0;
            ((0.0..=20.0).contains(&halves) && halves.fract() == 0.0).then_some(halves as u32)
        };
        let parts: Vec<Option<u32>> = text.split(',').map(halves).collect();
        match parts.as_slice() {
            [Some(win), Some(draw), Some(loss)] if win >= draw && draw >= loss => Ok(Scoring {
                win: *win,
                draw: *draw,
                loss: *loss,
            }),
            _ => Err(format!(
                "scoring is win,draw,loss in points, from 0 to 10 by halves and in that order \
                 (like 1,0.5,0), not {text:?}"
            )),
        }
    }

    /// "1,0.5,0".
    pub fn show(&self) -> String {
        let one = |h: u32| match h % 2 {
            0 => (h / 2).to_string(),
            _ => format!("{}.5", h / 2),
        };
        format!("{},{},{}", one(self.win), one(self.draw), one(self.loss))
    }

    /// The points of a round's raw result (2, 1 or 0 half points as played).
    pub(crate) fn of(&self, played: bool, raw: u32) -> u32 {
        match (played, raw) {
            (true, 2) => self.win,
            (true, 1) => self.draw,
            (true, _) => self.loss,
            (false, 2) => self.win,
            (false, 1) => self.win / 2,
            (false, _) => 0,
        }
    }
}
