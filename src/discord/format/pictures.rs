//! Pictures for Discord: every board and hand is drawn on tokio's blocking pool, so drawing
//! (a few milliseconds) holds up neither the async runtime nor the table thread, which
//! serialises every match's actions.

use crate::discord::Error;
use crate::games::AnyView;
use crate::render;
use crate::table::Update;
use poise::serenity_prelude as serenity;

/// The picture of `view`: the public board, or a seat's own view.
pub async fn draw(view: AnyView) -> Result<Vec<u8>, Error> {
    Ok(tokio::task::spawn_blocking(move || render::render(&view)).await?)
}

/// The picture of a seat's private view (its hand, its battleplan).
pub async fn draw_private(view: AnyView) -> Result<Vec<u8>, Error> {
    Ok(tokio::task::spawn_blocking(move || render::private_picture(&view)).await?)
}

/// The public board after `update`, with its band of players (and clocks), as the attachment
/// `board.png`.
pub async fn board_file(update: &Update) -> Result<serenity::CreateAttachment, Error> {
    // Only what the picture needs goes to the blocking thread: not the seats' private views.
    let (view, faces) = (update.public_view.clone(), update.clock_faces());
    let png =
        tokio::task::spawn_blocking(move || render::render_with_clocks(&view, &faces)).await?;
    Ok(serenity::CreateAttachment::bytes(png, "board.png"))
}
