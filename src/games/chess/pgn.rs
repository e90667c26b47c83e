//! PGN, the Portable Game Notation: game records read and written.
//!
//! The reader takes what chess programs write: tag pairs (with `\"` and `\\` escapes), move
//! numbers (`12.`, `12...`, `12.e4`), SAN with its marks (`+`, `#`, `!?`), numeric annotation
//! glyphs (`$1`), comments in braces or after `;`, variations in parentheses (nested; skipped,
//! the main line is read), `%` escape lines, and several games in one text. It keeps each
//! main-line move's SAN with the comment after it, so a variant that writes its extra steps as
//! comments (Enthralling Chess: `4. d3 {enthrall Nc6 g1}`) reads back whole. Reading checks the
//! notation only; [`replay`] plays the moves by the rules of chess.

use super::{Position, START_FEN, parse_move};
use thiserror::Error;

/// One game of a PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in the order given: ("White", "alice").
    pub tags: Vec<(String, String)>,
    /// The main line.
    pub moves: Vec<PgnMove>,
    /// "1-0", "0-1", "1/2-1/2" or "*" (also when the text gives none).
    pub result: String,
}

/// A move of the main line and the comment that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    pub san: String,
    pub comment: Option<String>,
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PgnError {
    #[error("line {line}: {what}")]
    Syntax { line: usize, what: String },
    #[error("move {number} ({san}): {reason}")]
    Move {
        number: usize,
        san: String,
        reason: String,
    },
    #[error("the FEN tag is not a position: {0}")]
    Fen(String),
    #[error("there is no game in this text")]
    Empty,
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

impl PgnGame {
    /// The value of tag `name`, if given.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Each main-line move with the extra step its comment names, for variants that write a
    /// turn's second part as a comment: with `steps` ["enthrall", "liberate"], `d3 {enthrall
    /// Nc6 g1 [%clk 0:10:00]}` reads as the turn "d3 enthrall Nc6 g1". Comment text before the
    /// step word and from a `[` on (another tool's annotations) is left out.
    pub fn turns(&self, steps: &[&str]) -> Vec<String> {
        self.moves
            .iter()
            .map(|mv| {
                let step = mv.comment.as_deref().and_then(|comment| {
                    let at = steps.iter().filter_map(|w| comment.find(w)).min()?;
                    let step = &comment[at..];
                    Some(
                        step[..step.find('[').unwrap_or(step.len())]
                            .trim()
                            .to_string(),
                    )
                });
                match step {
                    Some(step) => format!("{} {step}", mv.san),
                    None => mv.san.clone(),
                }
            })
            .collect()
    }

    /// The game as PGN text: its tags, then its movetext wrapped at 79 columns, numbered from
    /// the FEN tag's move number and side when there is one.
    pub fn write(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        out.push('\n');
        let fen = self.tag("FEN").unwrap_or(START_FEN);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut number: usize = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
        let mut black = fields.get(1) == Some(&"b");
        let mut words: Vec<String> = Vec::new();
        // After a comment, a move of Black's carries its number again ("7... Bd7").
        let mut renumber = black;
        for mv in &self.moves {
            if !black {
                words.push(format!("{number}."));
            } else if renumber {
                words.push(format!("{number}..."));
            }
            words.push(mv.san.clone());
            renumber = false;
            if let Some(comment) = &mv.comment {
                words.push(format!("{{{}}}", comment.replace('}', ")")));
                renumber = true;
            }
            if black {
                number = number.saturating_add(1);
            }
            black = !black;
        }
        words.push(self.result.clone());
        out.push_str(&wrap(&words, 79));
        out.push('\n');
        out
    }
}

/// The first game of a PGN text.
pub fn read(text: &str) -> Result<PgnGame, PgnError> {
    read_all(text)?.into_iter().next().ok_or(PgnError::Empty)
}

/// Every game of a PGN text.
pub fn read_all(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut reader = Reader {
        chars: text.chars().collect(),
        at: 0,
        line: 1,
    };
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut started = false; // movetext seen in `game`
    let mut depth = 0usize; // inside variations
    while let Some(c) = reader.peek() {
        match c {
            '%' if reader.at_line_start() => reader.skip_line(),
            c if c.is_whitespace() => reader.bump(),
            '[' if depth == 0 => {
                if started {
                    games.push(finish(std::mem::take(&mut game)));
                    started = false;
                }
                game.tags.push(reader.tag()?);
            }
            '{' => {
                let comment = reader.braced()?;
                attach(&mut game, depth, comment);
            }
            ';' => {
                let comment = reader.rest_of_line();
                attach(&mut game, depth, comment);
            }
            '(' => {
                reader.bump();
                depth += 1;
                started = true;
            }
            ')' => {
                if depth == 0 {
                    return Err(reader.error("a ')' closes no variation"));
                }
                reader.bump();
                depth -= 1;
            }
            '$' => {
                reader.bump();
                reader.symbol();
            }
            '*' => {
                reader.bump();
                if depth == 0 {
                    game.result = "*".into();
                    games.push(finish(std::mem::take(&mut game)));
                    started = false;
                }
            }
            _ => {
                let word = reader.symbol();
                if word.is_empty() {
                    return Err(reader.error(&format!("unexpected {c:?}")));
                }
                started = true;
                if depth > 0 {
                    continue;
                }
                if RESULTS.contains(&word.as_str()) {
                    game.result = word;
                    games.push(finish(std::mem::take(&mut game)));
                    started = false;
                    continue;
                }
                // A move number, "12." or "12...", perhaps run into its move: "12.e4".
                let san = word
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .trim_start_matches('.');
                // Move numbers, and marks standing apart ("!", "?!", "+-", "=").
                if (san.is_empty() && word.starts_with(|c: char| c.is_ascii_digit()))
                    || word.chars().all(|c| ".!?+-=/".contains(c)) && word != "--"
                {
                    continue;
                }
                let san = if word.starts_with(|c: char| c.is_ascii_digit()) && word.contains('.') {
                    san
                } else {
                    word.as_str()
                };
                game.moves.push(PgnMove {
                    san: san.to_string(),
                    comment: None,
                });
            }
        }
    }
    if depth > 0 {
        return Err(reader.error("a variation is not closed: add the closing ')'"));
    }
    if started || !game.tags.is_empty() {
        games.push(finish(game));
    }
    Ok(games)
}

/// Plays `game`'s main line by the rules of chess from its FEN tag (or the usual start);
/// the position reached, or the first move that is not legal there.
pub fn replay(game: &PgnGame) -> Result<Position, PgnError> {
    let mut position = match game.tag("FEN") {
        Some(fen) => Position::from_fen(fen).map_err(|e| PgnError::Fen(e.to_string()))?,
        None => Position::default(),
    };
    for (i, mv) in game.moves.iter().enumerate() {
        if ["--", "Z0", "0000", "@@@@"].contains(&mv.san.as_str()) {
            return Err(PgnError::Move {
                number: i + 1,
                san: mv.san.clone(),
                reason: "a null move (a pass) is not a move of chess; it cannot be replayed".into(),
            });
        }
        let legal = parse_move(&position, &mv.san).map_err(|e| PgnError::Move {
            number: i + 1,
            san: mv.san.clone(),
            reason: e.reason,
        })?;
        position = position.play_unchecked(legal);
    }
    Ok(position)
}

fn finish(mut game: PgnGame) -> PgnGame {
    if game.result.is_empty() {
        let tag = game.tag("Result").filter(|r| RESULTS.contains(r));
        game.result = tag.unwrap_or("*").to_string();
    }
    game
}

/// A comment of the main line goes with the move before it; others are dropped.
fn attach(game: &mut PgnGame, depth: usize, comment: String) {
    let comment = comment.trim().to_string();
    if depth > 0 || comment.is_empty() {
        return;
    }
    if let Some(last) = game.moves.last_mut() {
        last.comment = Some(match last.comment.take() {
            Some(before) => format!("{before} {comment}"),
            None => comment,
        });
    }
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    line: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) {
        if self.peek() == Some('\n') {
            self.line += 1;
        }
        self.at += 1;
    }

    fn at_line_start(&self) -> bool {
        self.at == 0 || self.chars[self.at - 1] == '\n'
    }

    fn error(&self, what: &str) -> PgnError {
        PgnError::Syntax {
            line: self.line,
            what: what.to_string(),
        }
    }

    fn skip_line(&mut self) {
        self.rest_of_line();
    }

    /// The text up to the end of the line (the newline is left).
    fn rest_of_line(&mut self) -> String {
        let mut text = String::new();
        self.bump(); // ';' or '%'
        while let Some(c) = self.peek().filter(|&c| c != '\n') {
            text.push(c);
            self.bump();
        }
        text
    }

    /// `{...}`, which may span lines.
    fn braced(&mut self) -> Result<String, PgnError> {
        let line = self.line;
        self.bump();
        let mut text = String::new();
        loop {
            match self.peek() {
                None => {
                    return Err(PgnError::Syntax {
                        line,
                        what: "a comment is not closed: add the closing '}'".into(),
                    });
                }
                Some('}') => {
                    self.bump();
                    return Ok(text);
                }
                Some(c) => {
                    text.push(c);
                    self.bump();
                }
            }
        }
    }

    /// `[Name "value"]`.
    fn tag(&mut self) -> Result<(String, String), PgnError> {
        self.bump();
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let name = self.symbol();
        if name.is_empty() {
            return Err(self.error("a tag has no name"));
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some('"') {
            return Err(self.error(&format!("tag {name} has no quoted value")));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => {
                    return Err(self.error(&format!("the value of tag {name} is not closed")));
                }
                Some('\\') => {
                    self.bump();
                    if let Some(c) = self.peek().filter(|&c| c != '\n') {
                        value.push(c);
                        self.bump();
                    }
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some(c) => {
                    value.push(c);
                    self.bump();
                }
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some(']') {
            return Err(self.error(&format!("tag {name} is not closed with ']'")));
        }
        self.bump();
        Ok((name, value))
    }

    /// A run of symbol characters: letters, digits and `_+#=:-/.!?`.
    fn symbol(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_alphanumeric() || "_+#=:-/.!?".contains(*c))
        {
            word.push(c);
            self.bump();
        }
        word
    }
}

/// `words` joined by spaces into lines of at most `width` characters.
fn wrap(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans(game: &PgnGame) -> Vec<&str> {
        game.moves.iter().map(|m| m.san.as_str()).collect()
    }

    #[test]
    fn tags_numbers_comments_glyphs_and_variations_are_read() {
        let text = "% an escape line\n[Event \"Club \\\"open\\\"\"]\n[White \"a\\\\b\"]\n\n\
                    1. e4 {best by test} e5 $1 2.Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6\n\
                    ; a line comment\n3. Bb5!? a6 1-0\n";
        let game = read(text).unwrap();
        assert_eq!(game.tag("Event"), Some("Club \"open\""));
        assert_eq!(game.tag("White"), Some("a\\b"));
        assert_eq!(sans(&game), ["e4", "e5", "Nf3", "Nc6", "Bb5!?", "a6"]);
        assert_eq!(game.moves[0].comment.as_deref(), Some("best by test"));
        assert_eq!(game.moves[3].comment.as_deref(), Some("a line comment"));
        assert_eq!(game.result, "1-0");
        let position = replay(&game).unwrap();
        assert_eq!(
            position.fen(),
            "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
        );
    }

    #[test]
    fn several_games_are_read_in_turn_and_a_missing_result_reads_as_unfinished() {
        let games = read_all("[Event \"1\"]\n\n1. d4 *\n\n[Event \"2\"]\n\n1. c4 c5\n").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            (sans(&games[0]), games[0].result.as_str()),
            (vec!["d4"], "*")
        );
        assert_eq!(
            (sans(&games[1]), games[1].result.as_str()),
            (vec!["c4", "c5"], "*")
        );
        assert_eq!(read(""), Err(PgnError::Empty));
    }

    #[test]
    fn broken_notation_and_illegal_moves_are_named_with_where() {
        let open = read("[Event \"x\"]\n\n1. e4 {never closed\n").unwrap_err();
        assert_eq!(
            open.to_string(),
            "line 3: a comment is not closed: add the closing '}'"
        );
        let tag = read("[Event \"x]\n").unwrap_err();
        assert_eq!(
            tag.to_string(),
            "line 1: the value of tag Event is not closed"
        );
        assert!(read("1. e4 (e5").is_err());
        let illegal = replay(&read("1. e4 e5 2. Ke3 *").unwrap()).unwrap_err();
        assert!(
            illegal.to_string().starts_with("move 3 (Ke3): "),
            "{illegal}"
        );
    }

    #[test]
    fn marks_apart_spaced_tags_null_moves_and_extra_steps() {
        let game = read("[ Event \"x\" ]\n\n1. e4 ! e5 +- 2. -- Nc6 *").unwrap();
        assert_eq!(game.tag("Event"), Some("x"));
        assert_eq!(sans(&game), ["e4", "e5", "--", "Nc6"]);
        let null = replay(&game).unwrap_err();
        assert!(
            null.to_string().starts_with("move 3 (--): a null move"),
            "{null}"
        );
        let game = read("4. d3 {enthrall Nc6 g1 [%clk 0:10:00]} {a fine move} d6 {liberate Bc8} *")
            .unwrap();
        assert_eq!(
            game.turns(&["enthrall", "liberate"]),
            ["d3 enthrall Nc6 g1", "d6 liberate Bc8"]
        );
    }

    #[test]
    fn written_games_read_back_the_same() {
        let game = PgnGame {
            tags: vec![
                ("White".into(), "Ann \"the rook\"".into()),
                ("SetUp".into(), "1".into()),
                ("FEN".into(), "4k3/8/8/8/8/8/8/4K2R b K - 0 12".into()),
            ],
            moves: vec![
                PgnMove {
                    san: "Kd7".into(),
                    comment: Some("a {tricky} one".into()),
                },
                PgnMove {
                    san: "O-O".into(),
                    comment: None,
                },
                PgnMove {
                    san: "Kc6".into(),
                    comment: None,
                },
            ],
            result: "*".into(),
        };
        let text = game.write();
        assert!(
            text.ends_with("12... Kd7 {a {tricky) one} 13. O-O Kc6 *\n"),
            "{text}"
        );
        let back = read(&text).unwrap();
        assert_eq!(back.tags, game.tags);
        assert_eq!(sans(&back), ["Kd7", "O-O", "Kc6"]);
        assert_eq!(back.moves[0].comment.as_deref(), Some("a {tricky) one"));
        replay(&back).unwrap();
    }
}
