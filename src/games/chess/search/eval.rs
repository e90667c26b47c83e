//! The static evaluation: material, piece-square tables tapered from the middlegame to the
//! endgame by the material left, the bishop pair, pawn structure (doubled, isolated and passed
//! pawns), rooks on open files and the pawns sheltering a king. In centipawns, from the side to
//! move's view.
//!
//! The tables are written as rules of thumb rather than 64 numbers each: knights and bishops
//! want the centre, pawns want to advance (the centre pawns first), rooks the seventh rank,
//! the king a corner while queens are about and the centre once they are gone.

use super::{Color, Position, Role, Square};

/// Material in the middlegame and in the endgame: pawn, knight, bishop, rook, queen, king.
const MATERIAL_MG: [i32; 6] = [100, 320, 330, 500, 950, 0];
const MATERIAL_EG: [i32; 6] = [120, 300, 320, 540, 1000, 0];

/// How much each role counts towards the middlegame (24 with all pieces on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const FULL_PHASE: i32 = 24;

/// A passed pawn's bonus by its rank counted from its own side (0: first rank).
const PASSED_MG: [i32; 8] = [0, 5, 10, 15, 25, 40, 60, 0];
const PASSED_EG: [i32; 8] = [0, 10, 20, 35, 60, 90, 130, 0];

const BISHOP_PAIR: i32 = 30;
const DOUBLED: i32 = 15;
const ISOLATED: i32 = 12;
const ROOK_OPEN: i32 = 20;
const ROOK_HALF_OPEN: i32 = 10;
const SHIELD: i32 = 10;
const TEMPO: i32 = 10;

/// The value of a role as the move ordering and the quiescence search's pruning count it.
pub fn value(role: Role) -> i32 {
    MATERIAL_MG[role as usize]
}

/// Centrality of a square, 0 (a corner) to 6 (d4, e4, d5, e5).
const fn centre(file: i32, rank: i32) -> i32 {
    let f = 7 - (2 * file - 7).abs();
    let r = 7 - (2 * rank - 7).abs();
    (f + r) / 2
}

/// The piece-square bonus of `role` on (`file`, `rank`) seen from its own side (rank 0 its back
/// rank), in the middlegame and in the endgame.
const fn square_bonus(role: Role, file: i32, rank: i32) -> (i32, i32) {
    let c = centre(file, rank);
    match role {
        Role::Pawn => {
            let advance = [0, 0, 5, 10, 20, 35, 60, 0][rank as usize];
            let central = match (file, rank) {
                (3 | 4, 3 | 4) => 15,
                (2 | 5, 3 | 4) => 5,
                (3 | 4, 1) => -10,
                _ => 0,
            };
            let eg = [0, 0, 0, 5, 10, 15, 20, 0][rank as usize];
            (advance + central, eg)
        }
        Role::Knight => (c * 8 - 20 - if rank == 0 { 10 } else { 0 }, c * 6 - 15),
        Role::Bishop => (c * 4 - 8 - if rank == 0 { 10 } else { 0 }, c * 4 - 10),
        Role::Rook => {
            let seventh = if rank == 6 { 20 } else { 0 };
            let centre_file = if file == 3 || file == 4 { 5 } else { 0 };
            (seventh + centre_file, if rank == 6 { 15 } else { 0 })
        }
        Role::Queen => (c * 2 - 5, c * 4 - 10),
        Role::King => {
            let mg = match rank {
                0 => [20, 30, 10, 0, 0, 10, 30, 20][file as usize],
                1 => [10, 10, -5, -10, -10, -5, 10, 10][file as usize],
                _ => -20 - 10 * rank,
            };
            (mg, c * 10 - 30)
        }
    }
}

/// The tables, by role and square from White's side: [role][square] = (middlegame, endgame).
const TABLES: [[(i32, i32); 64]; 6] = {
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    let mut tables = [[(0, 0); 64]; 6];
    let mut r = 0;
    while r < 6 {
        let mut sq = 0;
        while sq < 64 {
            tables[r][sq] = square_bonus(roles[r], (sq % 8) as i32, (sq / 8) as i32);
            sq += 1;
        }
        r += 1;
    }
    tables
};

/// The rank of `sq` counted from `color`'s side.
fn relative_rank(sq: Square, color: Color) -> usize {
    match color {
        Color::White => usize::from(sq.rank()),
        Color::Black => usize::from(7 - sq.rank()),
    }
}

/// The static evaluation of `pos` for the side to move, in centipawns. 0 when neither side
/// has the material to mate.
pub fn evaluate(pos: &Position) -> i32 {
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut phase = 0;
    // Bit r of pawns[colour][file] is set when that colour has a pawn on rank r of the file.
    let mut pawns = [[0u8; 8]; 2];
    let mut bishops = [0; 2];
    let mut minors = 0;
    let mut heavy_or_pawn = false;
    let mut rooks: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
    for (sq, piece) in pos.pieces() {
        let side = piece.color.index();
        let role = piece.role as usize;
        let rank = relative_rank(sq, piece.color);
        let (m, e) = TABLES[role][rank * 8 + usize::from(sq.file())];
        mg[side] += MATERIAL_MG[role] + m;
        eg[side] += MATERIAL_EG[role] + e;
        phase += PHASE[role];
        match piece.role {
            Role::Pawn => {
                pawns[side][usize::from(sq.file())] |= 1 << sq.rank();
                heavy_or_pawn = true;
            }
            Role::Bishop => {
                bishops[side] += 1;
                minors += 1;
            }
            Role::Knight => minors += 1,
            Role::Rook => {
                rooks[side].push(sq);
                heavy_or_pawn = true;
            }
            Role::Queen => heavy_or_pawn = true,
            Role::King => {}
        }
    }
    if !heavy_or_pawn && minors <= 1 {
        return 0;
    }
    for color in [Color::White, Color::Black] {
        let side = color.index();
        let (own, theirs) = (&pawns[side], &pawns[1 - side]);
        if bishops[side] >= 2 {
            mg[side] += BISHOP_PAIR;
            eg[side] += BISHOP_PAIR;
        }
        let (mut m, mut e) = (0, 0);
        for file in 0..8 {
            let here = own[file];
            if here == 0 {
                continue;
            }
            let count = here.count_ones() as i32;
            if count > 1 {
                m -= DOUBLED * (count - 1);
                e -= DOUBLED * (count - 1);
            }
            let left = if file > 0 { own[file - 1] } else { 0 };
            let right = if file < 7 { own[file + 1] } else { 0 };
            if left | right == 0 {
                m -= ISOLATED * count;
                e -= ISOLATED * count;
            }
            for rank in 0..8u8 {
                if here & (1 << rank) != 0 && is_passed(theirs, file, rank, color) {
                    let relative = usize::from(if color == Color::White {
                        rank
                    } else {
                        7 - rank
                    });
                    m += PASSED_MG[relative];
                    e += PASSED_EG[relative];
                }
            }
        }
        mg[side] += m;
        eg[side] += e;
        for &rook in &rooks[side] {
            let file = usize::from(rook.file());
            let bonus = match (own[file], theirs[file]) {
                (0, 0) => ROOK_OPEN,
                (0, _) => ROOK_HALF_OPEN,
                _ => 0,
            };
            mg[side] += bonus;
            eg[side] += bonus / 2;
        }
        mg[side] += SHIELD * shelter(pos.king(color), own, color);
    }
    let phase = phase.min(FULL_PHASE);
    let white = ((mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (FULL_PHASE - phase)) / FULL_PHASE;
    let score = match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    };
    score + TEMPO
}

/// Whether a pawn of `color` on (`file`, `rank`) has no enemy pawn ahead of it on its own or a
/// neighbouring file.
fn is_passed(theirs: &[u8; 8], file: usize, rank: u8, color: Color) -> bool {
    let ahead: u8 = match color {
        Color::White => !((2u16 << rank) - 1) as u8,
        Color::Black => ((1u16 << rank) - 1) as u8,
    };
    let lo = file.saturating_sub(1);
    let hi = (file + 1).min(7);
    (lo..=hi).all(|f| theirs[f] & ahead == 0)
}

/// The pawns of `color` on the two ranks in front of its king, on its file and the
/// neighbouring ones (at most 3 count), when the king is on its first two ranks.
fn shelter(king: Square, own: &[u8; 8], color: Color) -> i32 {
    if relative_rank(king, color) > 1 {
        return 0;
    }
    let rank = i32::from(king.rank());
    let ranks: u8 = match color {
        Color::White => (0b11u16 << (rank + 1)) as u8,
        Color::Black => ((0b11u16 << rank) >> 2) as u8,
    };
    let file = usize::from(king.file());
    let lo = file.saturating_sub(1);
    let hi = (file + 1).min(7);
    (lo..=hi).filter(|&f| own[f] & ranks != 0).count() as i32
}
