//! Pictures for Discord: every board, hand, replay and standings table is drawn on tokio's
//! blocking pool, so drawing (a few milliseconds; a long replay, seconds) holds up neither the
//! async runtime nor the table thread, which serialises every match's actions. At most
//! [`drawing_slots`] pictures are drawn at once: a burst of pictures (a league round starting,
//! a flood of `/board`) waits its turn instead of taking every core from the moves.

use crate::discord::Error;
use crate::games::AnyView;
use crate::render;
use crate::store::MatchId;
use crate::table::Update;
use poise::serenity_prelude as serenity;

/// How many pictures may be drawn at once: the cores, less one left to the table and the
/// runtime, and at least two, so one slow replay leaves room for the boards.
pub fn drawing_slots() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().saturating_sub(1).max(2))
}

/// Runs `draw` on the blocking pool once one of the [`drawing_slots`] is free.
pub async fn off_thread<T: Send + 'static>(
    draw: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Error> {
    static SLOTS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    let slots = SLOTS.get_or_init(|| tokio::sync::Semaphore::new(drawing_slots()));
    let _slot = slots.acquire().await?;
    Ok(tokio::task::spawn_blocking(draw).await?)
}

/// The picture of `view`: the public board, or a seat's own view.
pub async fn draw(view: AnyView) -> Result<Vec<u8>, Error> {
    off_thread(move || render::render(&view)).await
}

/// The picture of a seat's private view (its hand, its battleplan).
pub async fn draw_private(view: AnyView) -> Result<Vec<u8>, Error> {
    off_thread(move || render::private_picture(&view)).await
}

/// The file name of the board of match `id` at `version`: a board shown in a channel is
/// recognised in its history by it (see the outbox's sender).
pub fn board_name(id: MatchId, version: u64) -> String {
    format!("match-{id}-{version}.png")
}

/// The public board after `update`, with its band of players (and clocks), as an attachment
/// named by [`board_name`].
pub async fn board_file(update: &Update) -> Result<serenity::CreateAttachment, Error> {
    // Only what the picture needs goes to the blocking thread: not the seats' private views.
    let (view, faces) = (update.public_view.clone(), update.clock_faces());
    let png = off_thread(move || render::render_with_clocks(&view, &faces)).await?;
    let name = board_name(update.match_id, update.version);
    Ok(serenity::CreateAttachment::bytes(png, name))
}
