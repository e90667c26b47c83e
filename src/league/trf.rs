//! The FIDE tournament report format (TRF16), read as the reference pairing engines read it
//! and checked field by field, and their pairings file written back.
//!
//! A player is a `001` line whose fields sit in fixed columns, counted in characters so that
//! accented names do not shift them: start number 5-8, sex 10, title 11-13, name 15-47, rating
//! 49-52, federation 54-56, FIDE number 58-68, birth date 70-79, points 81-84, rank 86-89; the
//! columns between fields are blank, so a line shifted by one character is refused, not
//! misread. From column 92, ten columns a round (`  OOOO C R`): the opponent's start number
//! (or `0000`), the colour (`w`, `b` or `-`) and the result: `1 = 0` and `W D L` for games
//! played, `+ -` for forfeits, `U` for the pairing-allocated bye (1 point), `F H Z` for full-,
//! half- and zero-point byes (a bye has opponent `0000` and colour `-`).
//!
//! The file must agree with itself: start numbers run from 1 to the number of players, each
//! game is recorded on both players' lines with opposite colours and matching results, a round
//! has at most one `U`, and each player's points are the total of their results in the 1-½-0
//! system the pairing uses (with or without an announced bye of the round to pair), to the
//! precision the file writes. Every refusal names its line (or both lines of a contradiction).
//!
//! `XXR` gives the number of rounds (more than are played); `XXC` the initial colour
//! (`white1` or `black1`); without it the initial colour is inferred from the first round with
//! colours, as bbpPairings does. The round to pair is the one after the last round with a game
//! or an allocated bye; `0000 - H`, `Z` or `F` in that round's columns marks a player who will
//! not play it. Lines may end in LF, CRLF or CR. Lines for what this pairing does not support
//! (accelerations, forbidden pairs, teams, other point systems) are refused, not ignored.

use super::dutch::{Colour, Entrant, Past, Tournament};
use super::{Number, Round};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TrfError {
    /// A line that is wrong by itself.
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    /// Two lines that contradict each other.
    #[error("lines {first} and {second}: {reason}")]
    Lines {
        first: usize,
        second: usize,
        reason: String,
    },
    #[error("no players (lines starting 001)")]
    NoPlayers,
}

/// Results of a game played over the board (`W D L`: played but not rated).
const GAMES: &str = "10=WDL";
/// Results of a game one side did not play.
const FORFEITS: &str = "+-";
/// Results of a round without an opponent.
const BYES: &str = "UFHZ";

/// Columns of a player line between its fields, which must be blank.
const SEPARATORS: [(usize, &str); 11] = [
    (4, "after 001"),
    (9, "after the start number"),
    (14, "before the name"),
    (48, "after the name"),
    (53, "after the rating"),
    (57, "after the federation"),
    (69, "after the FIDE number"),
    (80, "before the points"),
    (85, "after the points"),
    (90, "before round 1"),
    (91, "before round 1"),
];

/// Lines for features this pairing does not have.
const UNSUPPORTED: [(&str, &str); 11] = [
    ("013", "team tournaments"),
    ("310", "team tournaments"),
    ("240", "byes given ahead on 240 lines"),
    ("250", "accelerations"),
    ("XXA", "accelerations"),
    ("260", "forbidden pairs"),
    ("XXP", "forbidden pairs"),
    ("299", "abnormal points"),
    ("162", "point systems other than 1-½-0"),
    ("XXS", "point systems other than 1-½-0"),
    (
        "152",
        "the initial colour on a 152 line (write XXC white1 or XXC black1)",
    ),
];

/// Point-system lines of bbpPairings, accepted when they give the usual value.
const POINT_LINES: [(&str, u64); 6] = [
    ("BBW", 10),
    ("BBD", 5),
    ("BBL", 0),
    ("BBZ", 0),
    ("BBF", 0),
    ("BBU", 10),
];

/// One round's cell of a player line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    /// 0 for none.
    opponent: Number,
    /// None for `-`.
    colour: Option<Colour>,
    result: char,
}

impl Cell {
    /// Whether the round was paired (a game, a forfeit or the allocated bye).
    fn paired(&self) -> bool {
        self.opponent != 0 || self.result == 'U'
    }

    fn halves(&self) -> u32 {
        match self.result {
            '1' | 'W' | '+' | 'U' | 'F' => 2,
            '=' | 'D' | 'H' => 1,
            _ => 0,
        }
    }

    fn past(&self) -> Past {
        let halves = self.halves();
        match (self.result, self.colour) {
            ('U', _) => Past::Bye { halves },
            ('F' | 'H' | 'Z', _) => Past::Absent { halves },
            ('+', _) => Past::ForfeitWin { halves },
            ('-', _) => Past::ForfeitLoss { halves },
            (_, Some(colour)) => Past::Played {
                opponent: self.opponent,
                colour,
                halves,
            },
            (_, None) => Past::Absent { halves },
        }
    }

    /// The cell as the file writes it: `0012 w 1`.
    fn text(&self) -> String {
        format!(
            "{:04} {} {}",
            self.opponent,
            colour_letter(self.colour),
            self.result
        )
    }
}

fn colour_letter(colour: Option<Colour>) -> char {
    match colour {
        Some(Colour::White) => 'w',
        Some(Colour::Black) => 'b',
        None => '-',
    }
}

/// A player's points as written: `2.5` is 25 with 1 decimal.
#[derive(Clone, Debug)]
struct Points {
    text: String,
    scaled: u64,
    decimals: u32,
}

impl Points {
    fn parse(text: &str) -> Option<Points> {
        let t = text.trim();
        let (whole, fraction) = t.split_once('.').unwrap_or((t, ""));
        let digits = format!("{whole}{fraction}");
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        Some(Points {
            text: t.to_string(),
            scaled: digits.parse().ok()?,
            decimals: u32::try_from(fraction.len()).ok().filter(|d| *d <= 4)?,
        })
    }

    /// Whether these points are `halves` half points to the precision written: exactly when
    /// a decimal is written (2.5), to the nearest point when none is (2 or 3 for 2½).
    fn matches(&self, halves: u64) -> bool {
        let scale = 10u64.pow(self.decimals);
        self.scaled
            .saturating_mul(2)
            .abs_diff(halves.saturating_mul(scale))
            <= 1
    }
}

/// Half points as the file writes points: 5 is `2.5`.
fn show_halves(halves: u64) -> String {
    format!("{}.{}", halves / 2, if halves % 2 == 1 { 5 } else { 0 })
}

/// A `001` line read.
#[derive(Clone, Debug)]
struct PlayerLine {
    line: usize,
    number: Number,
    points: Points,
    /// One cell a round; None for a blank round (only at the end of the line).
    cells: Vec<Option<Cell>>,
}

/// A line's characters by column, from 1; blank past its end.
struct Columns(Vec<char>);

impl Columns {
    fn at(&self, column: usize) -> char {
        column
            .checked_sub(1)
            .and_then(|i| self.0.get(i))
            .copied()
            .unwrap_or(' ')
    }

    fn text(&self, from: usize, to: usize) -> String {
        (from..=to).map(|c| self.at(c)).collect()
    }
}

/// A whole number alone in its columns (spaces around it), if that is what they hold.
fn whole(text: &str) -> Option<u64> {
    let t = text.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// One word (no space inside) of characters that `ok` allows, or nothing.
fn blank_or(text: &str, ok: impl Fn(char) -> bool) -> bool {
    let t = text.trim();
    t.chars().all(|c| c != ' ' && ok(c))
}

/// Reads a TRF16 file into the tournament whose next round is to be paired.
pub fn read(text: &str) -> Result<Tournament, TrfError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rounds: Option<(usize, u32)> = None;
    let mut initial: Option<(usize, Colour)> = None;
    let mut players: Vec<PlayerLine> = Vec::new();
    for (index, line) in lines(text).enumerate() {
        let at = index + 1;
        let bad = |reason: String| TrfError::Line { line: at, reason };
        if line.starts_with("001") {
            players.push(player(at, line)?);
        } else if let Some(rest) = line.strip_prefix("XXR") {
            if let Some((first, _)) = rounds {
                return Err(twice(first, at, "XXR"));
            }
            rounds = Some((at, number_of_rounds(rest).map_err(bad)?));
        } else if let Some(rest) = line.strip_prefix("XXC") {
            if let Some((first, _)) = initial {
                return Err(twice(first, at, "XXC"));
            }
            initial = Some((at, initial_colour(rest).map_err(bad)?));
        } else if let Some((code, what)) = UNSUPPORTED.iter().find(|(c, _)| line.starts_with(c)) {
            return Err(bad(format!("{code} lines ({what}) are not supported")));
        } else if let Some((code, usual)) = POINT_LINES.iter().find(|(c, _)| line.starts_with(c)) {
            let value = line.get(3..).and_then(Points::parse);
            if !value.is_some_and(|v| v.matches(*usual / 5)) {
                return Err(bad(format!(
                    "{code} must be {} (only the 1-½-0 point system is supported)",
                    show_halves(*usual / 5)
                )));
            }
        }
    }
    if players.is_empty() {
        return Err(TrfError::NoPlayers);
    }
    players.sort_by_key(|p| p.number);
    check_numbers(&players)?;
    check_games(&players)?;
    let done = players
        .iter()
        .filter_map(|p| p.cells.iter().rposition(|c| c.is_some_and(|c| c.paired())))
        .max()
        .map_or(0, |i| i + 1);
    if let Some((at, total)) = rounds {
        check_rounds(&players, done, at, total)?;
    }
    check_points(&players, done)?;
    let initial = initial.map_or_else(|| initial_from_round_one(&players), |(_, c)| c);
    let entrants = players
        .into_iter()
        .map(|p| {
            let history = (0..done)
                .map(|r| {
                    p.cells
                        .get(r)
                        .copied()
                        .flatten()
                        .map_or(Past::Absent { halves: 0 }, |c| c.past())
                })
                .collect();
            let absent = p.cells.get(done).copied().flatten().is_some();
            Entrant {
                number: p.number,
                history,
                present: !absent,
            }
        })
        .collect();
    Ok(Tournament {
        rounds: rounds.map_or(0, |(_, n)| n),
        initial,
        entrants,
        lenient_bye: false,
    })
}

fn twice(first: usize, second: usize, code: &str) -> TrfError {
    TrfError::Lines {
        first,
        second,
        reason: format!("{code} is given twice"),
    }
}

/// The number of an `XXR` line.
fn number_of_rounds(rest: &str) -> Result<u32, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let rounds = match words.as_slice() {
        [n] if n.chars().all(|c| c.is_ascii_digit()) => n.parse().ok().filter(|n| *n > 0),
        _ => None,
    };
    rounds.ok_or_else(|| {
        format!(
            "XXR needs the number of rounds, a whole number above 0, found '{}'",
            rest.trim()
        )
    })
}

/// The colour of an `XXC` line: `white1` or `black1`.
fn initial_colour(rest: &str) -> Result<Colour, String> {
    let mut colour = None;
    for word in rest.split_whitespace() {
        let this = match word {
            "white1" => Colour::White,
            "black1" => Colour::Black,
            "rank" => {
                return Err(
                    "XXC rank (pairing numbers in the order of the lines) is not \
                            supported: give XXC white1 or XXC black1"
                        .into(),
                );
            }
            other => return Err(format!("XXC takes white1 or black1, found '{other}'")),
        };
        if colour.is_some_and(|c| c != this) {
            return Err("XXC gives both white1 and black1".into());
        }
        colour = Some(this);
    }
    colour.ok_or_else(|| "XXC takes white1 or black1, found nothing".into())
}

/// Reads a `001` line, field by field.
fn player(at: usize, line: &str) -> Result<PlayerLine, TrfError> {
    let bad = |reason: String| TrfError::Line { line: at, reason };
    let cols = Columns(line.chars().collect());
    if cols.0.len() < 84 {
        return Err(bad(format!(
            "a player line reaches at least column 84 (points in 81-84); this one ends at {}",
            cols.0.len()
        )));
    }
    for (column, place) in SEPARATORS {
        let c = cols.at(column);
        if c != ' ' {
            return Err(bad(format!(
                "column {column} ({place}) must be blank, found '{c}': are the columns shifted?"
            )));
        }
    }
    let field = |from: usize, to: usize, what: &str, ok: bool, expected: &str| {
        if ok {
            Ok(())
        } else {
            Err(bad(format!(
                "{what} (columns {from}-{to}) must be {expected}, found '{}'",
                cols.text(from, to)
            )))
        }
    };
    let number = whole(&cols.text(5, 8)).filter(|n| (1..=9999).contains(n));
    field(
        5,
        8,
        "the start number",
        number.is_some(),
        "a number from 1 to 9999",
    )?;
    let number = number.and_then(|n| Number::try_from(n).ok()).unwrap_or(0);
    let sex = cols.at(10);
    if !" mwfMWF".contains(sex) {
        return Err(bad(format!(
            "the sex (column 10) must be m, w or blank, found '{sex}'"
        )));
    }
    let text = |from, to| cols.text(from, to);
    let title_ok = blank_or(&text(11, 13), |c| c.is_ascii_alphabetic());
    field(
        11,
        13,
        "the title",
        title_ok,
        "letters (g, m, wg...) or blank",
    )?;
    let rating_ok = text(49, 52).trim().is_empty() || whole(&text(49, 52)).is_some();
    field(49, 52, "the rating", rating_ok, "a number or blank")?;
    let federation_ok = blank_or(&text(54, 56), |c| c.is_ascii_alphabetic());
    field(54, 56, "the federation", federation_ok, "letters or blank")?;
    let id_ok = text(58, 68).trim().is_empty() || whole(&text(58, 68)).is_some();
    field(58, 68, "the FIDE number", id_ok, "a number or blank")?;
    let born_ok = blank_or(&text(70, 79), |c| c.is_ascii_digit() || "/.-".contains(c));
    field(
        70,
        79,
        "the birth date",
        born_ok,
        "a date YYYY/MM/DD or blank",
    )?;
    let points = Points::parse(&text(81, 84));
    field(
        81,
        84,
        "the points",
        points.is_some(),
        "a number such as 2.5",
    )?;
    let rank_ok = text(86, 89).trim().is_empty() || whole(&text(86, 89)).is_some();
    field(86, 89, "the rank", rank_ok, "a number or blank")?;
    let mut cells: Vec<Option<Cell>> = Vec::new();
    let mut start = 92;
    while start <= cols.0.len() {
        let round = cells.len() + 1;
        let in_round = |reason: String| bad(format!("round {round}: {reason}"));
        for column in [start - 2, start - 1, start + 4, start + 6] {
            let c = cols.at(column);
            if c != ' ' {
                return Err(in_round(format!(
                    "column {column} must be blank, found '{c}': are the columns shifted?"
                )));
            }
        }
        if text(start, start + 7).trim().is_empty() {
            cells.push(None);
        } else if let Some(blank) = cells.iter().position(Option::is_none) {
            return Err(in_round(format!(
                "round {} is blank but a later round is filled: a round not played is written \
                 0000 - Z (or H, F)",
                blank + 1
            )));
        } else {
            cells.push(Some(cell(&cols, start, number).map_err(in_round)?));
        }
        start += 10;
    }
    while cells.last() == Some(&None) {
        cells.pop();
    }
    Ok(PlayerLine {
        line: at,
        number,
        points: points.unwrap_or(Points {
            text: String::new(),
            scaled: 0,
            decimals: 0,
        }),
        cells,
    })
}

/// The round whose block starts at column `start` of player `own`'s line.
fn cell(cols: &Columns, start: usize, own: Number) -> Result<Cell, String> {
    let opponent_text = cols.text(start, start + 3);
    let opponent = whole(&opponent_text)
        .and_then(|n| Number::try_from(n).ok())
        .ok_or_else(|| {
            format!(
                "the opponent (columns {start}-{}) must be a start number or 0000, found \
                 '{opponent_text}'",
                start + 3
            )
        })?;
    let colour = match cols.at(start + 5) {
        'w' => Some(Colour::White),
        'b' => Some(Colour::Black),
        '-' => None,
        c => return Err(format!("colour must be w, b or -, found '{c}'")),
    };
    let result = cols.at(start + 7);
    if !GAMES.contains(result) && !FORFEITS.contains(result) && !BYES.contains(result) {
        return Err(format!(
            "result must be one of 1 = 0 W D L + - U F H Z, found '{result}'"
        ));
    }
    if opponent == 0 {
        if !BYES.contains(result) {
            return Err(format!(
                "the result '{result}' needs an opponent: 0000 (none) goes with a bye, U, F, H \
                 or Z"
            ));
        }
        if colour.is_some() {
            return Err(format!("a bye has no colour: write 0000 - {result}"));
        }
    } else {
        if opponent == own {
            return Err(format!("player {own} is paired with himself"));
        }
        if BYES.contains(result) {
            return Err(format!(
                "a bye ({result}) has no opponent: write 0000 - {result}, not {opponent}"
            ));
        }
        if GAMES.contains(result) && colour.is_none() {
            return Err(format!(
                "a game played ('{result}') needs colour w or b, found '-'"
            ));
        }
    }
    Ok(Cell {
        opponent,
        colour,
        result,
    })
}

/// Start numbers run from 1 to the number of players, once each (`players` sorted by number).
fn check_numbers(players: &[PlayerLine]) -> Result<(), TrfError> {
    if let Some(w) = players.windows(2).find(|w| w[0].number == w[1].number) {
        return Err(TrfError::Lines {
            first: w[0].line.min(w[1].line),
            second: w[0].line.max(w[1].line),
            reason: format!("start number {} is on both", w[0].number),
        });
    }
    for (expected, p) in (1..).zip(players) {
        if p.number != expected {
            return Err(TrfError::Line {
                line: p.line,
                reason: format!(
                    "start number {}, but no player has start number {expected}: start \
                     numbers run from 1 to the number of players",
                    p.number
                ),
            });
        }
    }
    Ok(())
}

/// Each game is on both players' lines, with opposite colours and matching results; a round
/// has at most one pairing-allocated bye. `players` are sorted and numbered from 1.
fn check_games(players: &[PlayerLine]) -> Result<(), TrfError> {
    let mut allocated_byes: Vec<Option<&PlayerLine>> = Vec::new();
    for a in players {
        for (r, cell) in a.cells.iter().enumerate() {
            let Some(mine) = cell else { continue };
            let round = r + 1;
            if mine.result == 'U' {
                if allocated_byes.len() <= r {
                    allocated_byes.resize(r + 1, None);
                }
                if let Some(Some(other)) = allocated_byes.get(r) {
                    return Err(TrfError::Lines {
                        first: other.line,
                        second: a.line,
                        reason: format!(
                            "round {round}: players {} and {} both have the pairing-allocated \
                             bye (U); a round has one at most",
                            other.number, a.number
                        ),
                    });
                }
                allocated_byes[r] = Some(a);
            }
            if mine.opponent == 0 {
                continue;
            }
            let Some(b) = (mine.opponent as usize)
                .checked_sub(1)
                .and_then(|i| players.get(i))
            else {
                return Err(TrfError::Line {
                    line: a.line,
                    reason: format!(
                        "round {round}: opponent {} is not a player (no 001 line has that \
                         start number)",
                        mine.opponent
                    ),
                });
            };
            let both = |reason: String| TrfError::Lines {
                first: a.line,
                second: b.line,
                reason: format!("round {round}: {reason}"),
            };
            let (x, y) = (a.number, b.number);
            let Some(theirs) = b.cells.get(r).copied().flatten() else {
                return Err(both(format!(
                    "player {x} has opponent {y}, but player {y} has no round {round}"
                )));
            };
            if theirs.opponent != x {
                return Err(both(format!(
                    "player {x} has opponent {y}, but player {y} has {}",
                    match theirs.opponent {
                        0 => "none (0000)".to_string(),
                        n => format!("opponent {n}"),
                    }
                )));
            }
            let colours_agree = match (mine.colour, theirs.colour) {
                (Some(c), Some(d)) => c != d,
                (None, None) => true,
                _ => false,
            };
            if !colours_agree {
                return Err(both(format!(
                    "the colours disagree: player {x} has '{}', player {y} has '{}'",
                    mine.text(),
                    theirs.text()
                )));
            }
            let results_agree = matches!(
                (mine.result, theirs.result),
                ('1', '0')
                    | ('0', '1')
                    | ('=', '=')
                    | ('W', 'L')
                    | ('L', 'W')
                    | ('D', 'D')
                    | ('+', '-')
                    | ('-', '+')
                    | ('-', '-')
            );
            if !results_agree {
                return Err(both(format!(
                    "the results disagree: player {x} has '{}', player {y} has '{}'",
                    mine.text(),
                    theirs.text()
                )));
            }
        }
    }
    Ok(())
}

/// `XXR total` (on line `at`) leaves a round to pair and no player has rounds beyond it.
fn check_rounds(
    players: &[PlayerLine],
    done: usize,
    at: usize,
    total: u32,
) -> Result<(), TrfError> {
    let total_rounds = total as usize;
    if done >= total_rounds {
        let reason = if done > total_rounds {
            format!("XXR {total} is fewer than the {done} rounds already played")
        } else {
            format!("XXR {total}: all {total} rounds are played, none is left to pair")
        };
        return Err(TrfError::Line { line: at, reason });
    }
    if let Some(p) = players.iter().find(|p| p.cells.len() > total_rounds) {
        return Err(TrfError::Lines {
            first: at,
            second: p.line,
            reason: format!(
                "XXR gives {total} rounds but player {} has {}",
                p.number,
                p.cells.len()
            ),
        });
    }
    Ok(())
}

/// Each player's points are the total of the rounds played, with or without the points of an
/// announced bye in the round to pair.
fn check_points(players: &[PlayerLine], done: usize) -> Result<(), TrfError> {
    for p in players {
        let halves = |c: &Option<Cell>| u64::from(c.map_or(0, |c| c.halves()));
        let played: u64 = p.cells.iter().take(done).map(halves).sum();
        let ahead = p.cells.get(done).map_or(0, halves);
        let agrees = p.points.matches(played) || (ahead > 0 && p.points.matches(played + ahead));
        if !agrees {
            return Err(TrfError::Line {
                line: p.line,
                reason: format!(
                    "the points (columns 81-84) are {}, but the results add up to {} (1 for \
                     1 W + U F, ½ for = D H)",
                    p.points.text,
                    show_halves(played)
                ),
            });
        }
    }
    Ok(())
}

/// The lines of a file ending in LF, CRLF or CR alone.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .flat_map(|line| line.strip_suffix('\r').unwrap_or(line).split('\r'))
}

/// The initial colour, as the first round with a colour shows it (as bbpPairings infers it):
/// counting, in start number order, the players who were paired in that round or before, the
/// first of them with a colour in that round had the initial colour if counted at an odd
/// place (1st, 3rd...), the other one if at an even place. `players` are sorted by number.
fn initial_from_round_one(players: &[PlayerLine]) -> Colour {
    let coloured = |c: &Option<Cell>| c.is_some_and(|c| c.colour.is_some());
    let Some(first) = players
        .iter()
        .filter_map(|p| p.cells.iter().position(coloured))
        .min()
    else {
        return Colour::White;
    };
    let mut place = 0;
    for p in players {
        let paired = p
            .cells
            .iter()
            .take(first + 1)
            .any(|c| c.is_some_and(|c| c.paired()));
        if !paired {
            continue;
        }
        if let Some(colour) = p.cells.get(first).copied().flatten().and_then(|c| c.colour) {
            return if place % 2 == 0 {
                colour
            } else {
                colour.other()
            };
        }
        place += 1;
    }
    Colour::White
}

/// The pairings file the reference engines write: the number of pairs, then `white black`
/// start numbers a line, the bye as `player 0`.
pub fn write_pairs(round: &Round) -> String {
    let mut out = format!("{}\n", round.games.len() + usize::from(round.bye.is_some()));
    for game in &round.games {
        out.push_str(&format!("{} {}\n", game.white, game.black));
    }
    if let Some(bye) = round.bye {
        out.push_str(&format!("{bye} 0\n"));
    }
    out
}
