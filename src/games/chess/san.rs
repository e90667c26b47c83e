//! Standard Algebraic Notation out, SAN or UCI in.

use super::position::{Move, Position, Role, Special, Square};
use crate::engine::ParseError;

/// SAN of a legal move: "Nf3", "exd6", "O-O", "e8=Q+", "Qh4#". Piece moves are disambiguated by
/// file, then rank, then both, among the legal moves only.
pub fn san(pos: &Position, mv: Move) -> String {
    san_with(pos, mv, &pos.legal_moves())
}

/// [`san`] for every legal move, generating the move list once.
pub fn san_all(pos: &Position) -> Vec<(Move, String)> {
    let legal = pos.legal_moves();
    legal
        .iter()
        .map(|&mv| (mv, san_with(pos, mv, &legal)))
        .collect()
}

fn san_with(pos: &Position, mv: Move, legal: &[Move]) -> String {
    let mut s = san_body(pos, mv, legal);
    let next = pos.play_unchecked(mv);
    if next.in_check() {
        s.push(if next.has_legal_move() { '+' } else { '#' });
    }
    s
}

fn san_body(pos: &Position, mv: Move, legal: &[Move]) -> String {
    let piece = pos.piece_at(mv.from).expect("a piece moves");
    if let Special::Castle { rook_from, .. } = pos.special(mv) {
        return if rook_from.file() == 7 {
            "O-O"
        } else {
            "O-O-O"
        }
        .into();
    }
    let capture = pos.is_capture(mv);
    let mut s = String::with_capacity(8);
    if piece.role == Role::Pawn {
        if capture {
            s.push(mv.from.file_char());
            s.push('x');
        }
        s.push_str(&mv.to.to_string());
        if let Some(role) = mv.promotion {
            s.push('=');
            s.push(role.letter());
        }
        return s;
    }
    s.push(piece.role.letter());
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|o| {
            o.to == mv.to
                && o.from != mv.from
                && pos.piece_at(o.from).is_some_and(|p| p.role == piece.role)
        })
        .map(|o| o.from)
        .collect();
    if !rivals.is_empty() {
        if rivals.iter().all(|r| r.file() != mv.from.file()) {
            s.push(mv.from.file_char());
        } else if rivals.iter().all(|r| r.rank() != mv.from.rank()) {
            s.push(mv.from.rank_char());
        } else {
            s.push_str(&mv.from.to_string());
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&mv.to.to_string());
    s
}

/// Reads a move typed by a player: SAN ("Nf3", "exd5", "O-O", "e8=Q", with or without "x", "+",
/// "#", "!?" marks, "e.p.", extra disambiguation) or UCI ("g1f3", "e7e8q"). Returns the legal
/// move, or why not: text that is no move cannot be read; a move the rules forbid here is
/// refused with the rule.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ParseError> {
    read_move(pos, text).map_err(|refusal| match refusal {
        Refusal::Unreadable(reason) => ParseError::new(text, reason),
        Refusal::Rule(reason) => ParseError::refused(text, reason),
    })
}

/// Why a typed move was not taken.
enum Refusal {
    Unreadable(String),
    Rule(String),
}

impl From<String> for Refusal {
    fn from(reason: String) -> Self {
        Refusal::Rule(reason)
    }
}

fn read_move(pos: &Position, text: &str) -> Result<Move, Refusal> {
    let cleaned = clean(text);
    if cleaned.is_empty() {
        return Err(Refusal::Unreadable(
            "type a move such as e4, Nf3, exd5, O-O, e8=Q or e2e4".into(),
        ));
    }
    // UCI is lower case; "B8g7" is a bishop's SAN, not the UCI move b8g7.
    if cleaned.starts_with(|c: char| c.is_ascii_lowercase())
        && let Some(mv) = Move::parse_uci(&cleaned)
    {
        return Ok(parse_uci(pos, mv)?);
    }
    if let Some(king_side) = castle_side(&cleaned) {
        return Ok(parse_castle(pos, king_side)?);
    }
    // SAN is case-sensitive, but n, r, q and k are not file letters, so "nf3" can only mean a
    // knight. A lower-case b always names the b-file.
    let mut chars = cleaned.chars();
    let reading = match chars.next() {
        Some(c) if "nrqk".contains(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        _ => cleaned.clone(),
    };
    match Pattern::read(&reading) {
        Some(pattern) => Ok(pattern.matches(pos)?),
        None => Err(Refusal::Unreadable(
            "that is not a move: try e4, Nf3, exd5, O-O, e8=Q or e2e4".into(),
        )),
    }
}

/// Drops move marks that carry no information: check and mate signs, annotation glyphs, an
/// "e.p." suffix, spaces.
fn clean(text: &str) -> String {
    let mut s: String = text.trim().chars().filter(|c| !c.is_whitespace()).collect();
    for suffix in ["e.p.", "ep"] {
        if s.len() > suffix.len() + 1 && s.to_ascii_lowercase().ends_with(suffix) {
            s.truncate(s.len() - suffix.len());
        }
    }
    s.trim_end_matches(['+', '#', '!', '?']).to_string()
}

fn castle_side(text: &str) -> Option<bool> {
    match text.to_ascii_uppercase().replace('0', "O").as_str() {
        "O-O" | "OO" => Some(true),
        "O-O-O" | "OOO" => Some(false),
        _ => None,
    }
}

fn parse_uci(pos: &Position, mv: Move) -> Result<Move, String> {
    let Some(piece) = pos.piece_at(mv.from) else {
        return Err(format!("there is no piece on {}", mv.from));
    };
    if piece.color != pos.turn() {
        return Err(format!("the piece on {} is not yours", mv.from));
    }
    let legal = pos.legal_moves();
    if legal.contains(&mv) {
        return Ok(mv);
    }
    if piece.role == Role::King && mv.from.file().abs_diff(mv.to.file()) == 2 {
        return parse_castle(pos, mv.to.file() > mv.from.file());
    }
    if mv.promotion.is_none()
        && legal
            .iter()
            .any(|m| m.from == mv.from && m.to == mv.to && m.promotion.is_some())
    {
        return Err(format!(
            "say which piece the pawn becomes: {}q, {}r, {}b or {}n",
            mv.uci(),
            mv.uci(),
            mv.uci(),
            mv.uci()
        ));
    }
    Err(refusal(pos, &[mv], piece.role, mv.to))
}

fn parse_castle(pos: &Position, king_side: bool) -> Result<Move, String> {
    let name = if king_side { "O-O" } else { "O-O-O" };
    let legal = pos.legal_moves();
    if let Some(&mv) = legal.iter().find(|&&mv| {
        matches!(pos.special(mv), Special::Castle { rook_from, .. } if (rook_from.file() == 7) == king_side)
    }) {
        return Ok(mv);
    }
    let reason = pos
        .castling_blocker(pos.turn(), king_side)
        .unwrap_or("the king would end in check");
    Err(format!("cannot castle ({name}): {reason}"))
}

/// A SAN move read into its parts.
struct Pattern {
    role: Role,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<Role>,
}

impl Pattern {
    fn read(text: &str) -> Option<Pattern> {
        let mut chars: Vec<char> = text.chars().filter(|&c| c != 'x' && c != ':').collect();
        let mut role = Role::Pawn;
        if let Some(&c) = chars.first()
            && c.is_ascii_uppercase()
        {
            role = Role::from_letter(c).filter(|&r| r != Role::Pawn)?;
            chars.remove(0);
        }
        let mut promotion = None;
        if let Some(&last) = chars.last()
            && last.is_ascii_alphabetic()
            && role == Role::Pawn
        {
            let promoted = Role::from_letter(last)?;
            if matches!(promoted, Role::Pawn | Role::King) {
                return None;
            }
            promotion = Some(promoted);
            chars.pop();
            if chars.last() == Some(&'=') {
                chars.pop();
            }
        }
        chars.retain(|&c| c != '-');
        if chars.len() < 2 {
            return None;
        }
        let to_text: String = chars[chars.len() - 2..].iter().collect();
        let to = Square::parse(&to_text)?;
        let mut from_file = None;
        let mut from_rank = None;
        for &c in &chars[..chars.len() - 2] {
            match c {
                'a'..='h' if from_file.is_none() => from_file = Some(c as u8 - b'a'),
                '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
                _ => return None,
            }
        }
        Some(Pattern {
            role,
            from_file,
            from_rank,
            to,
            promotion,
        })
    }

    fn fits(&self, pos: &Position, mv: Move) -> bool {
        // A pawn capture names its file ("exd5"; "d5" is a push), and castling is written
        // O-O or O-O-O, never as a two-square king move.
        let pawn_capture = self.role == Role::Pawn && mv.from.file() != mv.to.file();
        if (pawn_capture && self.from_file.is_none())
            || matches!(pos.special(mv), Special::Castle { .. })
        {
            return false;
        }
        pos.piece_at(mv.from).is_some_and(|p| p.role == self.role)
            && mv.to == self.to
            && self.from_file.is_none_or(|f| f == mv.from.file())
            && self.from_rank.is_none_or(|r| r == mv.from.rank())
    }

    fn matches(&self, pos: &Position) -> Result<Move, String> {
        let legal = pos.legal_moves();
        let found: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&mv| self.fits(pos, mv) && mv.promotion == self.promotion)
            .collect();
        match found.as_slice() {
            [mv] => return Ok(*mv),
            [] => {}
            several => {
                let names: Vec<String> = several.iter().map(|&m| san(pos, m)).collect();
                return Err(format!(
                    "{} of your {}s can reach {}: say which, {}",
                    several.len(),
                    self.role.name(),
                    self.to,
                    names.join(" or ")
                ));
            }
        }
        if self.promotion.is_none()
            && legal
                .iter()
                .any(|&mv| self.fits(pos, mv) && mv.promotion.is_some())
        {
            return Err(format!(
                "say which piece the pawn becomes, for example {}=Q",
                self.to
            ));
        }
        if self.promotion.is_some() && self.to.rank() != 0 && self.to.rank() != 7 {
            return Err("only a pawn reaching the last rank promotes".into());
        }
        let mut pseudo = Vec::new();
        pos.pseudo_moves(&mut pseudo);
        let candidates: Vec<Move> = pseudo
            .into_iter()
            .filter(|&mv| self.fits(pos, mv))
            .collect();
        if candidates.is_empty() && self.looks_like_en_passant(pos) {
            return Err("en passant is only possible right after the double step".into());
        }
        Err(refusal(pos, &candidates, self.role, self.to))
    }

    /// A pawn capture onto an empty square beside an enemy pawn that did not just make its
    /// double step: an en passant out of time.
    fn looks_like_en_passant(&self, pos: &Position) -> bool {
        let (Role::Pawn, Some(file)) = (self.role, self.from_file) else {
            return false;
        };
        let me = pos.turn();
        let (capture_rank, from_rank) = if me.index() == 0 { (5, 4) } else { (2, 3) };
        let beside = Square::from_coords(self.to.file(), from_rank);
        let from = Square::from_coords(file, from_rank);
        self.to.rank() == capture_rank
            && file.abs_diff(self.to.file()) == 1
            && pos.piece_at(self.to).is_none()
            && pos
                .piece_at(from)
                .is_some_and(|p| p.role == Role::Pawn && p.color == me)
            && pos
                .piece_at(beside)
                .is_some_and(|p| p.role == Role::Pawn && p.color != me)
    }
}

/// Why no legal move matched: the candidates that follow the piece's pattern would all leave the
/// king in check, or no such piece can go there at all.
fn refusal(pos: &Position, candidates: &[Move], role: Role, to: Square) -> String {
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    if candidates.iter().any(|mv| pseudo.contains(mv)) {
        if pos.in_check() {
            format!(
                "that {} move does not get your king out of check",
                role.name()
            )
        } else {
            format!("that {} move would leave your king in check", role.name())
        }
    } else {
        format!("no {} of yours can reach {to}", role.name())
    }
}
