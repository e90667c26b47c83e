//! Enthralling Chess (Jeff Kiska): FIDE chess where, from each player's fourth move on, the move
//! is followed by Enthrall (take an opponent's piece into your own army) or Liberate (remove one
//! of your own pieces that the opponent holds). See docs/rules/enthralling.md for every decision.

use crate::engine::{
    Event, Game, GameRng, GameView, Level, Outcome, ParseError, PgnStyle, RuleError, Seat,
    SetupError, ToAct, Viewer,
};
use crate::games::chess::{
    self, BoardView, Color, LastMove, Move, Piece, Position, Role, Special, Square, color_of,
    describe, fide_ending, seat_of,
};
use serde::{Deserialize, Serialize};

mod search;

/// Moves each player makes before every move must be followed by Enthrall or Liberate.
pub const PLAIN_MOVES: u32 = 3;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EnthrallingOptions {
    /// Promoted pawns may be enthralled (and then count as pieces for the lone-king win).
    pub promoted_enthrallable: bool,
    /// A player who must enthrall or liberate and cannot loses, instead of drawing.
    pub unable_to_enthrall_loses: bool,
}

/// What follows the move on a turn from the player's fourth move on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Extra {
    /// Take the opponent's piece on `from` and put it, now yours, on `to`.
    Enthrall { from: Square, to: Square },
    /// Remove from the game your own original piece that the opponent holds on `at`.
    Liberate { at: Square },
}

/// One action: a move, and from the fourth move on the Enthrall or Liberate that follows it.
/// The move stands alone on the first three moves, when it leaves the opponent a lone king (a
/// win), and when no move at all could be followed by Enthrall or Liberate (the game then ends).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    #[serde(rename = "move")]
    pub mv: Move,
    pub then: Option<Extra>,
}

/// One of the 32 pieces the game started with, identified by its starting square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tracked {
    pub origin: Square,
    /// The side it started on.
    pub owner: Color,
    /// Where it stands; None once captured or liberated.
    pub at: Option<Square>,
    /// Held by the opponent of its owner. A piece is enthralled at most once.
    pub enthralled: bool,
    /// A pawn that has promoted.
    pub promoted: bool,
    /// An enthralled pawn that promoted and has not moved since: safe from Liberation.
    pub fresh_promotion: bool,
}

impl Tracked {
    /// Every piece of `position`, as it starts: where it stands is its origin.
    fn every_piece(position: &Position) -> Vec<Tracked> {
        position
            .pieces()
            .map(|(sq, piece)| Tracked {
                origin: sq,
                owner: piece.color,
                at: Some(sq),
                enthralled: false,
                promoted: false,
                fresh_promotion: false,
            })
            .collect()
    }
}

/// Where `color`'s pieces of `role` start (for an enthralled piece: where it may be put).
fn start_squares(color: Color, role: Role) -> impl Iterator<Item = Square> {
    let files: &'static [u8] = match role {
        Role::Pawn => &[0, 1, 2, 3, 4, 5, 6, 7],
        Role::Knight => &[1, 6],
        Role::Bishop => &[2, 5],
        Role::Rook => &[0, 7],
        Role::Queen | Role::King => &[],
    };
    let rank = if role == Role::Pawn {
        color.pawn_rank()
    } else {
        color.back_rank()
    };
    files.iter().map(move |&f| Square::from_coords(f, rank))
}

/// The position with the history of every piece on it.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Arena {
    position: Position,
    pieces: Vec<Tracked>,
    /// For each side (White, Black), the origin of the piece it enthralled most recently.
    latest: [Option<Square>; 2],
}

impl Arena {
    fn index_at(&self, sq: Square) -> Option<usize> {
        self.pieces.iter().position(|t| t.at == Some(sq))
    }

    fn tracked_at(&self, sq: Square) -> Option<&Tracked> {
        self.index_at(sq).map(|i| &self.pieces[i])
    }

    /// Castling with an enthralled rook is not allowed.
    fn move_allowed(&self, mv: Move) -> Result<(), &'static str> {
        if let Special::Castle { rook_from, .. } = self.position.special(mv)
            && self.tracked_at(rook_from).is_some_and(|t| t.enthralled)
        {
            return Err("a king may not castle with an enthralled rook");
        }
        Ok(())
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut moves = self.position.legal_moves();
        moves.retain(|&mv| self.move_allowed(mv).is_ok());
        moves
    }

    /// The arena after a legal move.
    fn play(&self, mv: Move) -> Arena {
        let mut next = self.clone();
        let pos = &self.position;
        if let Some(captured) = pos.captured_square(mv)
            && let Some(i) = next.index_at(captured)
        {
            next.pieces[i].at = None;
        }
        if let Special::Castle { rook_from, rook_to } = pos.special(mv)
            && let Some(i) = next.index_at(rook_from)
        {
            next.pieces[i].at = Some(rook_to);
        }
        if let Some(i) = next.index_at(mv.from) {
            let piece = &mut next.pieces[i];
            piece.at = Some(mv.to);
            piece.fresh_promotion = mv.promotion.is_some() && piece.enthralled;
            piece.promoted |= mv.promotion.is_some();
        }
        next.position = pos.play_unchecked(mv);
        next
    }

    /// Whether `side`'s pieces besides the king are all ignorable: none, or only its own promoted
    /// pawns while promoted pawns cannot be enthralled. (A promoted pawn it holds enthralled
    /// counts: its owner could liberate it.)
    fn lone_king(&self, side: Color, options: &EnthrallingOptions) -> bool {
        self.position.pieces().all(|(sq, piece)| {
            piece.color != side
                || piece.role == Role::King
                || (!options.promoted_enthrallable
                    && self
                        .tracked_at(sq)
                        .is_some_and(|t| t.promoted && !t.enthralled))
        })
    }

    /// Why `me` may not enthrall the piece on `from`, if it may not.
    fn enthrall_blocker(
        &self,
        me: Color,
        from: Square,
        options: &EnthrallingOptions,
    ) -> Option<String> {
        let Some(piece) = self.position.piece_at(from) else {
            return Some(format!("there is no piece on {from} to enthrall"));
        };
        if piece.color == me {
            return Some(format!(
                "the {} on {from} is already yours",
                piece.role.name()
            ));
        }
        if matches!(piece.role, Role::King | Role::Queen) {
            return Some(format!("a {} cannot be enthralled", piece.role.name()));
        }
        let Some(tracked) = self.tracked_at(from) else {
            return Some(format!(
                "the piece on {from} is not one the game started with"
            ));
        };
        if tracked.enthralled {
            return Some(format!(
                "the {} on {from} has been enthralled before",
                piece.role.name()
            ));
        }
        if tracked.promoted && !options.promoted_enthrallable {
            return Some(format!(
                "the {} on {from} is a promoted pawn, which cannot be enthralled",
                piece.role.name()
            ));
        }
        None
    }

    /// The squares `me` may put an enthralled piece of `role` on: empty squares where one of
    /// `me`'s pieces of that type started (a pawn: any empty square of `me`'s second rank).
    /// `lifted` is the square the piece is taken from, which is empty once it is lifted.
    fn enthrall_squares(&self, me: Color, role: Role, lifted: Square) -> Vec<Square> {
        start_squares(me, role)
            .filter(|&sq| sq == lifted || self.position.piece_at(sq).is_none())
            .collect()
    }

    /// Why `me` may not liberate the piece on `at`, if it may not.
    fn liberate_blocker(&self, me: Color, at: Square) -> Option<String> {
        let them = me.other();
        let Some(piece) = self.position.piece_at(at) else {
            return Some(format!("there is no piece on {at} to liberate"));
        };
        let Some(tracked) = self.tracked_at(at) else {
            return Some(format!(
                "the piece on {at} is not one the game started with"
            ));
        };
        if piece.color == me || !tracked.enthralled || tracked.owner != me {
            return Some(format!(
                "the {} on {at} is not one of your pieces held by {them}",
                piece.role.name()
            ));
        }
        if self.latest[them.index()] == Some(tracked.origin) {
            return Some(format!(
                "the {} on {at} is the piece {them} enthralled most recently",
                piece.role.name()
            ));
        }
        if tracked.fresh_promotion {
            return Some(format!(
                "the {} on {at} has just promoted and is safe until it moves",
                piece.role.name()
            ));
        }
        None
    }

    fn apply_extra(&mut self, me: Color, extra: Extra) {
        match extra {
            Extra::Enthrall { from, to } => {
                let i = self.index_at(from).expect("a tracked piece");
                let role = self.position.piece_at(from).expect("a piece").role;
                self.position.set_piece(from, None);
                self.position.set_piece(to, Some(Piece::new(me, role)));
                let tracked = &mut self.pieces[i];
                tracked.at = Some(to);
                tracked.enthralled = true;
                self.latest[me.index()] = Some(tracked.origin);
            }
            Extra::Liberate { at } => {
                let i = self.index_at(at).expect("a tracked piece");
                self.position.set_piece(at, None);
                self.pieces[i].at = None;
            }
        }
        self.position.reset_halfmoves();
    }

    /// The side to move is checkmated.
    fn mated(&self) -> bool {
        self.position.in_check() && !self.position.has_legal_move()
    }

    fn king_safe(&self, me: Color) -> bool {
        !self
            .position
            .attacked_by(self.position.king(me), me.other())
    }

    /// Whether Enthrall or Liberate `extra` is allowed for `me` (the player who just moved), and
    /// why not.
    fn check_extra(
        &self,
        me: Color,
        extra: Extra,
        options: &EnthrallingOptions,
    ) -> Result<(), String> {
        match extra {
            Extra::Enthrall { from, to } => {
                if let Some(reason) = self.enthrall_blocker(me, from, options) {
                    return Err(reason);
                }
                let role = self.position.piece_at(from).expect("checked").role;
                if !start_squares(me, role).any(|sq| sq == to) {
                    let name = role.name();
                    return Err(format!(
                        "an enthralled {name} goes where one of your {name}s started"
                    ));
                }
                if !self.enthrall_squares(me, role, from).contains(&to) {
                    return Err(format!("{to} is not empty"));
                }
            }
            Extra::Liberate { at } => {
                if let Some(reason) = self.liberate_blocker(me, at) {
                    return Err(reason);
                }
            }
        }
        let mut next = self.clone();
        next.apply_extra(me, extra);
        if !next.king_safe(me) {
            return Err("that would leave your king in check".into());
        }
        Ok(())
    }

    /// Every Enthrall and Liberate `me` may make now, right after moving.
    fn extras(&self, me: Color, options: &EnthrallingOptions) -> Vec<Extra> {
        let mut out = Vec::new();
        for (from, piece) in self.position.pieces() {
            if piece.color == me {
                continue;
            }
            if self.liberate_blocker(me, from).is_none() {
                let mut next = self.clone();
                next.apply_extra(me, Extra::Liberate { at: from });
                if next.king_safe(me) {
                    out.push(Extra::Liberate { at: from });
                }
            }
            if self.enthrall_blocker(me, from, options).is_some() {
                continue;
            }
            // Lifting the piece may open a line to the king; placing one can only close it, so
            // the placements need checking only when lifting exposes the king.
            let mut lifted = self.clone();
            lifted.position.set_piece(from, None);
            let exposed = !lifted.king_safe(me);
            for to in self.enthrall_squares(me, piece.role, from) {
                let extra = Extra::Enthrall { from, to };
                if exposed {
                    let mut next = self.clone();
                    next.apply_extra(me, extra);
                    if !next.king_safe(me) {
                        continue;
                    }
                }
                out.push(extra);
            }
        }
        out
    }
}

/// A game of Enthralling Chess. Seat 1 plays White, seat 2 Black.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Enthralling {
    options: EnthrallingOptions,
    arena: Arena,
    /// Moves made by White and by Black.
    moves_made: [u32; 2],
    /// Repetition keys since the last irreversible action, the current position's last.
    history: Vec<u64>,
    last_move: Option<LastMove>,
    /// The Enthrall or Liberate that followed the last move, for the picture.
    #[serde(default)]
    last_extra: Option<Extra>,
    outcome: Option<Outcome>,
}

/// A position to start from, for tests and puzzles: a FEN, the squares of enthralled pieces
/// (held by the side whose colour they show), the squares of promoted pawns, and how many moves
/// each side has made.
#[derive(Clone, Debug, Default)]
pub struct Setup<'a> {
    pub fen: &'a str,
    pub enthralled: &'a [&'a str],
    pub promoted: &'a [&'a str],
    /// For each side, the square of the piece it enthralled most recently.
    pub latest: [Option<&'a str>; 2],
    pub moves_made: [u32; 2],
}

impl Enthralling {
    pub fn from_setup(setup: &Setup, options: EnthrallingOptions) -> Result<Self, String> {
        let position = Position::from_stored_fen(setup.fen).map_err(|e| e.to_string())?;
        let square = |s: &str| Square::parse(s).ok_or_else(|| format!("bad square {s}"));
        let mut pieces = Tracked::every_piece(&position);
        for s in setup.enthralled {
            let sq = square(s)?;
            let t = pieces
                .iter_mut()
                .find(|t| t.at == Some(sq))
                .ok_or("no piece")?;
            t.owner = t.owner.other();
            t.enthralled = true;
        }
        for s in setup.promoted {
            let sq = square(s)?;
            pieces
                .iter_mut()
                .find(|t| t.at == Some(sq))
                .ok_or("no piece")?
                .promoted = true;
        }
        let mut latest = [None, None];
        for (i, s) in setup.latest.iter().enumerate() {
            if let Some(s) = s {
                latest[i] = Some(square(s)?);
            }
        }
        let arena = Arena {
            position,
            pieces,
            latest,
        };
        Ok(Self::start(options, arena, setup.moves_made))
    }

    fn start(options: EnthrallingOptions, arena: Arena, moves_made: [u32; 2]) -> Self {
        let key = arena.position.repetition_key();
        let mut game = Enthralling {
            options,
            arena,
            moves_made,
            history: vec![key],
            last_move: None,
            last_extra: None,
            outcome: None,
        };
        let pos = game.arena.position;
        let plain = !game.must_enthrall_or_liberate(Color::White)
            && !game.must_enthrall_or_liberate(Color::Black);
        game.outcome = fide_ending(&pos, &game.history, plain).map(|e| e.outcome(&pos));
        game
    }

    pub fn position(&self) -> &Position {
        &self.arena.position
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub fn pieces(&self) -> &[Tracked] {
        &self.arena.pieces
    }

    fn turn(&self) -> Color {
        self.arena.position.turn()
    }

    /// Whether `color`'s next move must be followed by Enthrall or Liberate.
    pub fn must_enthrall_or_liberate(&self, color: Color) -> bool {
        self.moves_made[color.index()] >= PLAIN_MOVES
    }

    fn check_seat(&self, seat: Seat) -> Result<(), RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        if color_of(seat) != Some(self.turn()) {
            return Err(RuleError::NotYourTurn);
        }
        Ok(())
    }

    /// Every complete action for the side to move.
    fn all_turns(&self) -> Vec<Turn> {
        let me = self.turn();
        let moves = self.arena.legal_moves();
        let plain = |mv| Turn { mv, then: None };
        if !self.must_enthrall_or_liberate(me) {
            return moves.into_iter().map(plain).collect();
        }
        let mut turns = Vec::new();
        let mut complete = false;
        let mut plain_moves = Vec::new();
        for mv in moves {
            let after = self.arena.play(mv);
            if after.lone_king(me.other(), &self.options) {
                turns.push(plain(mv));
                continue;
            }
            let extras = after.extras(me, &self.options);
            if extras.is_empty() {
                if after.mated() {
                    turns.push(plain(mv)); // a mate stands even with nothing to follow it
                } else {
                    plain_moves.push(mv);
                }
            }
            for extra in extras {
                complete = true;
                turns.push(Turn {
                    mv,
                    then: Some(extra),
                });
            }
        }
        if !complete {
            // No move can be followed by Enthrall or Liberate: any move, and the game ends.
            turns.extend(plain_moves.into_iter().map(plain));
        }
        turns
    }

    /// Whether some move of the side to move can be followed by Enthrall or Liberate, and an
    /// example, preferring one that starts with `mv`.
    fn example_turn(&self, mv: Move) -> Option<Turn> {
        let me = self.turn();
        let first_for = |mv: Move| {
            let after = self.arena.play(mv);
            after
                .extras(me, &self.options)
                .first()
                .map(|&e| Turn { mv, then: Some(e) })
        };
        first_for(mv).or_else(|| {
            self.arena
                .legal_moves()
                .into_iter()
                .filter(|&m| !self.arena.play(m).lone_king(me.other(), &self.options))
                .find_map(first_for)
        })
    }

    /// Ok if `turn` is legal now; otherwise the reason, in a player's words.
    fn check_turn(&self, turn: &Turn) -> Result<(), String> {
        let pos = &self.arena.position;
        let me = self.turn();
        if !pos.is_legal(turn.mv) {
            return Err(match chess::parse_move(pos, &turn.mv.uci()) {
                Err(e) => e.reason,
                Ok(_) => format!("{} is not legal here", turn.mv),
            });
        }
        self.arena.move_allowed(turn.mv).map_err(str::to_string)?;
        let move_text = self.move_text(turn.mv);
        if !self.must_enthrall_or_liberate(me) {
            if turn.then.is_some() {
                let n = self.moves_made[me.index()] + 1;
                return Err(format!(
                    "Enthrall and Liberate start with your fourth move; this is your move {n}"
                ));
            }
            return Ok(());
        }
        let after = self.arena.play(turn.mv);
        if after.lone_king(me.other(), &self.options) {
            if turn.then.is_some() {
                return Err(format!(
                    "after {move_text} {} has only the king left, which wins: play {move_text} alone",
                    me.other()
                ));
            }
            return Ok(());
        }
        match turn.then {
            Some(extra) => after.check_extra(me, extra, &self.options),
            None if after.mated() && after.extras(me, &self.options).is_empty() => Ok(()),
            None => match self.example_turn(turn.mv) {
                None => Ok(()),
                Some(example) if example.mv == turn.mv => Err(format!(
                    "after moving you must also enthrall or liberate, for example \"{}\"",
                    self.format_action(&example)
                )),
                Some(example) => Err(format!(
                    "after {move_text} you could neither enthrall nor liberate; choose a move that allows it, for example \"{}\"",
                    self.format_action(&example)
                )),
            },
        }
    }

    fn move_text(&self, mv: Move) -> String {
        chess::san(&self.arena.position, mv)
            .trim_end_matches(['+', '#'])
            .to_string()
    }

    /// The arena after a whole turn (assumed legal).
    fn after_turn(&self, turn: &Turn) -> Arena {
        let mut after = self.arena.play(turn.mv);
        if let Some(extra) = turn.then {
            after.apply_extra(self.turn(), extra);
        }
        after
    }

    /// Plays `turn`, assumed legal, whose text is `text` (None: the last move is not kept for
    /// the picture); how the game ended, if it did.
    fn advance(&mut self, turn: &Turn, text: Option<String>) -> Option<Outcome> {
        let me = self.turn();
        let after = self.after_turn(turn);
        if after.position.halfmoves() == 0 {
            self.history.clear();
        }
        self.history.push(after.position.repetition_key());
        // Judged by the rules of the turn just played, before counting it.
        let outcome = self.ending(me, turn, &after, &self.history);
        self.moves_made[me.index()] += 1;
        self.last_move = text.map(|san| LastMove {
            from: turn.mv.from,
            to: turn.mv.to,
            san,
        });
        self.last_extra = turn.then;
        self.arena = after;
        self.outcome.clone_from(&outcome);
        outcome
    }

    /// How the game ends after `turn` by `me`, if it does.
    fn ending(&self, me: Color, turn: &Turn, after: &Arena, history: &[u64]) -> Option<Outcome> {
        let them = me.other();
        let pos = &after.position;
        let must = self.must_enthrall_or_liberate(me);
        if !pos.has_legal_move() && pos.in_check() {
            return Some(Outcome::winner(seat_of(me), 2, "checkmate"));
        }
        if must && turn.then.is_none() {
            if after.lone_king(them, &self.options) {
                return Some(Outcome::winner(
                    seat_of(me),
                    2,
                    "reducing the opponent to a lone king",
                ));
            }
            let reason = format!("{me} being unable to enthrall or liberate");
            return Some(if self.options.unable_to_enthrall_loses {
                Outcome::winner(seat_of(them), 2, reason)
            } else {
                Outcome::draw(2, reason)
            });
        }
        // Material changes every turn once enthralling starts, so a chess dead position is not
        // dead here; before that (three moves each) none can arise.
        let dead_positions = !must && !self.must_enthrall_or_liberate(them);
        fide_ending(pos, history, dead_positions).map(|e| e.outcome(pos))
    }
}

/// "enthralls Black's knight from b8 to g1", in the arena after the move.
fn describe_extra(arena: &Arena, me: Color, extra: Extra) -> String {
    let them = me.other();
    let role = |sq: Square| {
        arena
            .position
            .piece_at(sq)
            .map_or("piece", |p| p.role.name())
    };
    match extra {
        Extra::Enthrall { from, to } => {
            format!("enthralls {them}'s {} from {from} to {to}", role(from))
        }
        Extra::Liberate { at } => {
            format!(
                "liberates {me}'s {} on {at}, removing it from the game",
                role(at)
            )
        }
    }
}

impl Game for Enthralling {
    type Options = EnthrallingOptions;
    type Action = Turn;
    type View = EnthrallingView;
    const NAME: &'static str = "Enthralling Chess";
    const ID: &'static str = "enthralling";
    const SUMMARY: &'static str = "**Enthralling Chess**: chess where, from your fourth move on, every move is followed \
         by **Enthrall** (take an opponent's piece other than king or queen onto an empty \
         starting square of that type on your side: `Nf3 enthrall Nc6 g1`) or **Liberate** \
         (remove one of your own pieces the opponent holds, except the one they enthralled \
         most recently: `Qd2 liberate Bc8`). Leave the opponent a lone king after your move \
         to win; if you can neither enthrall nor liberate, the game is drawn.";
    const SEATS: (usize, usize) = (2, 2);
    /// A turn's Enthrall or Liberate is written as a comment after its chess move.
    const PGN: Option<PgnStyle> = Some(PgnStyle {
        variant: Some(Self::NAME),
        extra_steps: &["enthrall", "liberate"],
    });
    const NOTATION: &'static str =
        "a chess move (e4, Nf3, O-O, e2e4); from your fourth move on, followed by
  enthrall PIECE SQUARE   take their piece and put it, now yours, there: d3 enthrall Nc6 g1
  liberate PIECE          remove your own piece they hold: Qd2 liberate Bc8
  the keywords may be shortened: en, lib; commas, to and -> are allowed: d3, en c6 to g1";
    fn new(
        options: &EnthrallingOptions,
        seats: usize,
        _rng: &mut GameRng,
    ) -> Result<Self, SetupError> {
        chess::two_seats(Self::NAME, seats)?;
        let position = Position::default();
        let arena = Arena {
            position,
            pieces: Tracked::every_piece(&position),
            latest: [None, None],
        };
        Ok(Self::start(options.clone(), arena, [0, 0]))
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(seat_of(self.turn())),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Turn> {
        match self.check_seat(seat) {
            Ok(()) => self.all_turns(),
            Err(_) => Vec::new(),
        }
    }

    fn apply(
        &mut self,
        seat: Seat,
        turn: &Turn,
        _rng: &mut GameRng,
    ) -> Result<Vec<Event>, RuleError> {
        self.check_seat(seat)?;
        self.check_turn(turn).map_err(RuleError::Illegal)?;
        let me = self.turn();
        let text = self.format_action(turn);
        let mut events = vec![Event::public(match turn.then {
            None => format!("{me} plays {}", self.move_text(turn.mv)),
            Some(extra) => format!(
                "{me} plays {} and {}",
                self.move_text(turn.mv),
                describe_extra(&self.arena.play(turn.mv), me, extra)
            ),
        })];
        if let Some(outcome) = self.advance(turn, Some(text)) {
            events.push(Event::public(format!("Game over: {}", describe(&outcome))));
        }
        Ok(events)
    }

    /// The turn without the checks and the words, which a search reads neither of; the last
    /// move is not kept for the picture.
    fn apply_searched(
        &mut self,
        seat: Seat,
        turn: &Turn,
        _rng: &mut GameRng,
    ) -> Result<(), RuleError> {
        self.check_seat(seat)?;
        self.advance(turn, None);
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> EnthrallingView {
        let mut board = BoardView::new(viewer, &self.arena.position, self.last_move.clone());
        for placed in &mut board.pieces {
            placed.marked = self
                .arena
                .tracked_at(placed.square)
                .is_some_and(|t| t.enthralled);
        }
        board.outcome = self.outcome.clone();
        let me = self.turn();
        board.status = match &self.outcome {
            Some(outcome) => format!("Game over: {}", describe(outcome)),
            None if self.must_enthrall_or_liberate(me) => {
                let any_move = self.arena.legal_moves().first().copied();
                if any_move.and_then(|mv| self.example_turn(mv)).is_some() {
                    format!("{me} to move, then enthrall or liberate")
                } else {
                    format!(
                        "{me} to move; no move allows an enthrall or liberate, so this one ends the game"
                    )
                }
            }
            None => {
                let left = PLAIN_MOVES - self.moves_made[me.index()];
                format!(
                    "{me} to move ({left} plain move{} left)",
                    if left == 1 { "" } else { "s" }
                )
            }
        };
        let latest = [Color::White, Color::Black].map(|color| {
            self.arena.latest[color.index()].and_then(|origin| {
                self.arena
                    .pieces
                    .iter()
                    .find(|t| t.origin == origin)
                    .and_then(|t| t.at)
            })
        });
        EnthrallingView {
            board,
            must_enthrall_or_liberate: self.outcome.is_none() && self.must_enthrall_or_liberate(me),
            latest_enthralled: latest,
            last_extra: self.last_extra,
            options: self.options.clone(),
        }
    }

    /// Material, placement and the coming Enthrall or Liberate (see `search.rs`).
    fn evaluate(&self) -> Option<Vec<f64>> {
        Some(search::chances(self))
    }

    fn search_key(&self) -> Option<u64> {
        Some(search::key(self))
    }

    fn is_noisy(&self, turn: &Turn) -> bool {
        search::is_noisy(self, turn)
    }

    fn order_hint(&self, turn: &Turn) -> i32 {
        search::order_hint(self, turn)
    }

    /// Alpha-beta (`ai::alphabeta`) at the limits of `search::limits`.
    fn own_search(
        &self,
        seat: Seat,
        level: Level,
        seed: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<Turn> {
        search::choose(self, seat, level, seed, stop)
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Turn, ParseError> {
        self.check_seat(seat)
            .map_err(|e| ParseError::refused(text, e.to_string()))?;
        let turn = self.read_turn(text)?;
        self.check_turn(&turn)
            .map_err(|reason| ParseError::refused(text, reason))?;
        Ok(turn)
    }

    /// By the piece that moves, and then by what follows the move: "knight", "knight, then
    /// enthrall".
    fn action_group(&self, turn: &Turn) -> String {
        let piece = self
            .arena
            .position
            .piece_at(turn.mv.from)
            .map_or("piece", |p| p.role.name());
        // From the fourth move on every move comes with a choice of extras (hundreds of
        // actions): one group per move, the move named.
        let mv = || {
            if self.arena.position.is_legal(turn.mv) {
                self.move_text(turn.mv)
            } else {
                turn.mv.uci()
            }
        };
        match turn.then {
            None => piece.to_string(),
            Some(Extra::Enthrall { .. }) => format!("{} then enthrall", mv()),
            Some(Extra::Liberate { .. }) => format!("{} then liberate", mv()),
        }
    }

    fn format_action(&self, turn: &Turn) -> String {
        let pos = &self.arena.position;
        if !pos.is_legal(turn.mv) {
            return turn.mv.uci();
        }
        let mut text = self.move_text(turn.mv);
        let after_move = self.arena.play(turn.mv);
        let me = self.turn();
        // The whole turn's result, from the move already played; none for an invalid extra.
        let after = match turn.then {
            None => Some(after_move.clone()),
            Some(extra) => after_move
                .check_extra(me, extra, &self.options)
                .is_ok()
                .then(|| {
                    let mut after = after_move.clone();
                    after.apply_extra(me, extra);
                    after
                }),
        };
        if let Some(after) = after
            && after.position.in_check()
        {
            text.push(if after.position.has_legal_move() {
                '+'
            } else {
                '#'
            });
        }
        let letter = |sq: Square| {
            after_move
                .position
                .piece_at(sq)
                .map_or(' ', |p| p.role.letter())
        };
        match turn.then {
            None => {}
            Some(Extra::Enthrall { from, to }) => {
                text.push_str(&format!(" enthrall {}{from} {to}", letter(from)));
            }
            Some(Extra::Liberate { at }) => {
                text.push_str(&format!(" liberate {}{at}", letter(at)));
            }
        }
        text
    }
}

impl Enthralling {
    /// Reads "MOVE", "MOVE enthrall [P]SQ [to] SQ" or "MOVE liberate [P]SQ" (keywords as in
    /// `keyword_kind`; commas, "to", "on" and arrows are ignored).
    fn read_turn(&self, text: &str) -> Result<Turn, ParseError> {
        let unreadable = |reason: String| ParseError::new(text, reason);
        let refused = |reason: String| ParseError::refused(text, reason);
        let spaced = text.replace("->", " ").replace('→', " ");
        let tokens: Vec<String> = spaced
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect();
        let keyword = tokens.iter().position(|t| keyword_kind(t).is_some());
        let (move_tokens, rest) = match keyword {
            Some(k) => (&tokens[..k], &tokens[k..]),
            None => (&tokens[..], &tokens[..0]),
        };
        let move_text = move_tokens.concat();
        if move_text.is_empty() {
            return Err(unreadable(
                "start with your move, for example \"Nf3\" or \"Nf3 enthrall Nb8 g1\"".into(),
            ));
        }
        let pos = &self.arena.position;
        let mv = chess::parse_move(pos, &move_text)?;
        self.arena
            .move_allowed(mv)
            .map_err(|r| refused(r.to_string()))?;
        let Some((keyword, args)) = rest.split_first() else {
            return Ok(Turn { mv, then: None });
        };
        let args: Vec<&String> = args
            .iter()
            .filter(|a| !matches!(a.to_ascii_lowercase().as_str(), "to" | "-" | "on"))
            .collect();
        let square = |token: &str| -> Result<Square, ParseError> {
            let t = token.trim_end_matches(['+', '#']);
            Square::parse(t).ok_or_else(|| unreadable(format!("\"{token}\" is not a square")))
        };
        // The piece: a square, with an optional letter that must name what stands there.
        let after_move = self.arena.play(mv);
        let piece_square = |token: &str| -> Result<Square, ParseError> {
            let mut chars = token.chars();
            let letter = chars.next().and_then(Role::from_letter);
            let rest = chars.as_str();
            let (role, sq) = match letter {
                Some(role) if Square::parse(rest.trim_end_matches(['+', '#'])).is_some() => {
                    (Some(role), square(rest)?)
                }
                _ => (None, square(token)?),
            };
            if let (Some(role), Some(piece)) = (role, after_move.position.piece_at(sq))
                && piece.role != role
            {
                return Err(refused(format!(
                    "the piece on {sq} is a {}, not a {}",
                    piece.role.name(),
                    role.name()
                )));
            }
            Ok(sq)
        };
        let then = if keyword_kind(keyword) == Some(true) {
            let [from, to] = args.as_slice() else {
                return Err(unreadable("enthrall takes two squares: the piece, and where it goes (\"enthrall Nb8 g1\")".into()));
            };
            Extra::Enthrall {
                from: piece_square(from)?,
                to: square(to)?,
            }
        } else {
            let [at] = args.as_slice() else {
                return Err(unreadable(
                    "liberate takes one square: the piece to remove (\"liberate Bc8\")".into(),
                ));
            };
            Extra::Liberate {
                at: piece_square(at)?,
            }
        };
        Ok(Turn {
            mv,
            then: Some(then),
        })
    }
}

/// Some(true) for an Enthrall keyword, Some(false) for Liberate.
fn keyword_kind(token: &str) -> Option<bool> {
    match token.to_ascii_lowercase().as_str() {
        "enthrall" | "enthral" | "ent" | "en" => Some(true),
        "liberate" | "lib" | "li" => Some(false),
        _ => None,
    }
}

/// What a viewer sees of Enthralling Chess.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnthrallingView {
    /// The board; enthralled pieces are `marked`.
    pub board: BoardView,
    /// The player to move must follow the move with Enthrall or Liberate.
    pub must_enthrall_or_liberate: bool,
    /// Where the piece White and the piece Black enthralled most recently stand (immune to
    /// Liberation).
    pub latest_enthralled: [Option<Square>; 2],
    /// The Enthrall or Liberate of the last turn: the picture marks where the enthralled piece
    /// landed, or the square the liberated piece left.
    pub last_extra: Option<Extra>,
    pub options: EnthrallingOptions,
}

#[cfg(test)]
mod tests;

impl GameView for EnthrallingView {
    fn outcome(&self) -> Option<&Outcome> {
        self.board.outcome.as_ref()
    }

    fn conclude(&mut self, outcome: &Outcome, status: String) {
        (self.board.outcome, self.board.status) = (Some(outcome.clone()), status);
        self.must_enthrall_or_liberate = false;
    }
}
