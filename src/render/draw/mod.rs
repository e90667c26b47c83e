//! The drawing shared by every game's picture: rectangles and painting, text, the header, the
//! king's badge, the pieces, the clocks band and the PNG encoding. A game's own picture is in
//! `render/games/`.

pub mod badge;
pub mod clocks;
pub mod header;
pub mod indexed;
pub mod memo;
pub mod paint;
pub mod palette;
pub mod pieces;
pub mod rect;
pub mod size;
pub mod text;

pub use badge::Badge;
pub use header::{PAD, header, header_height};
pub use memo::{Memo, remembered};
pub use paint::{blend, border, disc, fill, marker, wash};
pub use pieces::{Ink, draw_in_box, draw_piece, ink};
pub use rect::Rect;
pub use size::{HEIGHT, MARGIN, SQUARE, STATUS, WIDTH, zoom, zoomed};
pub use text::{centred, fit, text, text_width, wrap};
