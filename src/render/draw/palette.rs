//! The colours shared by the pictures: the chess board's squares and marks, the frame and its
//! labels, and the chess pieces' inks.

pub const LIGHT: [u8; 3] = [240, 217, 181];
pub const DARK: [u8; 3] = [181, 136, 99];
pub const FRAME: [u8; 3] = [48, 46, 43];
pub const LABEL: [u8; 3] = [220, 214, 204];
pub const LAST_MOVE: [u8; 3] = [205, 210, 106];
pub const CHECK: [u8; 3] = [230, 60, 50];
/// Enthralling Chess: where the last turn's enthralled piece landed, or the square the
/// liberated piece left.
pub const EXTRA: [u8; 3] = [150, 90, 210];
pub const COIN: [u8; 3] = [212, 175, 55];
pub const WHITE_PIECE: [u8; 3] = [255, 255, 255];
pub const BLACK_PIECE: [u8; 3] = [20, 20, 20];
/// The lines drawn inside black pieces, so their details show.
pub const BLACK_DETAIL: [u8; 3] = [200, 200, 200];
