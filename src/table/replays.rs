//! A match replayed from its stored log for an animated replay: the spectator's view at the
//! start and after every action, the last one as the match ended (a resignation, a timeout or
//! an adjudication drawn on it). Nothing a spectator may not see is in any view.

use super::live::replay;
use super::{Table, TableError};
use crate::engine::Viewer;
use crate::games::AnyView;
use crate::store::MatchId;

impl Table {
    /// The spectator's views of match `id` for a replay anyone may see: None while it is
    /// played, when its game may hide again what a spectator saw
    /// ([`crate::engine::Game::hides_what_it_showed`]).
    pub fn public_replay(&self, id: MatchId) -> Result<Option<Vec<AnyView>>, TableError> {
        match self.replay_is_public(id)? {
            true => self.replay_views(id).map(Some),
            false => Ok(None),
        }
    }

    /// Whether anyone may see match `id`'s replay now ([`Table::public_replay`]).
    pub fn replay_is_public(&self, id: MatchId) -> Result<bool, TableError> {
        let loaded = self.load(id)?;
        let running = loaded.stored.status == crate::store::Status::Active;
        Ok(!(running && loaded.game.hides_what_it_showed()))
    }

    /// The spectator's views of match `id`, from its start to where it stands.
    pub fn replay_views(&self, id: MatchId) -> Result<Vec<AnyView>, TableError> {
        let stored = self.store.load(id)?;
        let mut live = replay(&stored, None, &[])?;
        let mut views = vec![live.game.view(Viewer::Spectator)];
        let actions = stored.actions.len();
        for (i, action) in stored.actions.iter().enumerate() {
            if i + 1 == actions {
                break;
            }
            live = replay(&stored, Some(live), std::slice::from_ref(action))?;
            views.push(live.game.view(Viewer::Spectator));
        }
        if actions > 0 {
            views.push(self.load(id)?.view(Viewer::Spectator));
        }
        Ok(views)
    }
}
