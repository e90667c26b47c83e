//! Views as text for the terminal, a file a game, drawn from views (never from game states),
//! so the console shows a player exactly what a picture would. [`text_view`] is the one match
//! over the games.

mod chess;
mod chessatete;
mod echek;
mod enprise;
mod snipe;

use crate::games::AnyView;

/// A view as text for the terminal: one arm a game.
pub fn text_view(view: &AnyView) -> Vec<String> {
    match view {
        AnyView::Chess(v) => chess::text_board(v),
        AnyView::Enthralling(v) => chess::text_enthralling(v),
        AnyView::Enprise(v) => enprise::text_enprise(v),
        AnyView::Echek(v) => echek::text_echek(v),
        AnyView::Snipe(v) => snipe::text_snipe(v),
        AnyView::Chessatete(v) => chessatete::text_chessatete(v),
        #[cfg(test)]
        AnyView::Tictactoe(v) => v.rows.iter().chain([&v.status]).cloned().collect(),
    }
}
