//! The sizes every picture follows: the chess board's square and picture size, and how text and
//! margins scale on a picture wider than that.

/// Side of one square, in pixels.
pub const SQUARE: u32 = 88;
/// The frame around a chess board: its margin, and the status band above the board.
pub const MARGIN: u32 = 32;
pub const STATUS: u32 = 40;
/// Width of a chess board picture: 768.
pub const WIDTH: u32 = MARGIN * 2 + SQUARE * 8;
/// Height of a chess board picture: status line, board, file letters.
pub const HEIGHT: u32 = STATUS + SQUARE * 8 + MARGIN;

/// The widest picture whose text and margins are drawn at their base size. A wider one (a
/// sprawling En Prise board) scales them with its width, so that once shrunk to a chat's
/// preview its words read as large as a chess board's.
const READ_WIDTH: f32 = WIDTH as f32;

/// How much a picture `width` pixels wide scales its text and margins: 1 up to [`WIDTH`].
pub fn zoom(width: u32) -> f32 {
    (width as f32 / READ_WIDTH).max(1.0)
}

/// `v` pixels scaled by `zoom`, rounded.
pub fn zoomed(zoom: f32, v: u32) -> u32 {
    (v as f32 * zoom).round() as u32
}
