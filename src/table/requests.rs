//! Exactly-once requests: a request's key is stored with the change it made, or with the
//! refusal it was given when that refusal depends on the match; the same key again is answered
//! as it was the first time ([`Table::keyed`]).

use super::update::update;
use super::{Request, Table, TableError, Update};
use crate::engine::Seat;
use crate::store::MatchId;

/// The lines a request produced, as stored with its key.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Lines {
    pub(super) public: Vec<String>,
    pub(super) private: Vec<(Seat, String)>,
    /// The refusal given instead, when the request changed nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) refused: Option<String>,
    /// The refusal asked for a confirmation ([`TableError::Confirm`]): the same request sent
    /// again with `confirmed` is applied.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(super) confirm: bool,
}

/// A request's key as the table stores it with the change it makes.
pub(super) struct Key<'a> {
    pub(super) key: Option<&'a str>,
    /// The stored lines of a refusal under this key that the change supersedes.
    pub(super) replaces: Option<String>,
}

impl<'a> Key<'a> {
    pub(super) fn new(key: Option<&'a str>) -> Self {
        Key {
            key,
            replaces: None,
        }
    }
}

/// A key seen before: what its request did then.
pub(super) enum Seen {
    Applied(Box<Update>),
    /// Refused: `refusal` in words; `confirm` when it only asked for a confirmation.
    Refused {
        lines: String,
        refusal: String,
        confirm: bool,
    },
}

impl Table {
    /// Runs a request for match `id` under its key. A key seen before is answered as it was
    /// then ([`Table::seen`]), except that a request refused only until it was confirmed goes
    /// ahead once confirmed. A refusal that depends on the match is recorded under the key, so
    /// the same request delivered again later is refused again, not applied.
    pub(super) fn keyed(
        &mut self,
        id: MatchId,
        request: &Request,
        run: impl FnOnce(&mut Self, Key) -> Result<Update, TableError>,
    ) -> Result<Update, TableError> {
        let mut key = Key::new(request.key);
        match self.seen(id, request.key)? {
            None => {}
            Some(Seen::Applied(update)) => return Ok(*update),
            Some(Seen::Refused {
                lines,
                confirm: true,
                ..
            }) if request.confirmed => key.replaces = Some(lines),
            Some(Seen::Refused { refusal, .. }) => return Err(TableError::Refused(refusal)),
        }
        let result = run(self, key);
        if let (Some(key), Err(refusal)) = (request.key, &result)
            && refusal.depends_on_the_match()
        {
            let lines = serde_json::to_string(&Lines {
                public: vec![],
                private: vec![],
                refused: Some(refusal.to_string()),
                confirm: matches!(refusal, TableError::Confirm { .. }),
            })
            .expect("lines serialise");
            if let Err(e) = self.store.refusal(id, key, &lines) {
                // The refusal stands; only its record is missing.
                tracing::warn!(match_id = id, error = %e, "a refusal could not be recorded");
            }
        }
        result
    }

    /// What a request whose key was seen before did: an update of the match now with the
    /// lines it gave then, or the refusal it was given. The key must have been used for match
    /// `id`.
    pub(super) fn seen(&self, id: MatchId, key: Option<&str>) -> Result<Option<Seen>, TableError> {
        let Some(applied) = key.map(|k| self.store.request(k)).transpose()?.flatten() else {
            return Ok(None);
        };
        if applied.match_id != id {
            return Err(TableError::KeyReused(applied.match_id));
        }
        let lines: Lines =
            serde_json::from_str(&applied.lines).map_err(|e| TableError::Corrupt {
                id: applied.match_id,
                detail: format!("the lines of a stored request cannot be read: {e}"),
            })?;
        if let Some(refusal) = lines.refused {
            return Ok(Some(Seen::Refused {
                lines: applied.lines,
                refusal,
                confirm: lines.confirm,
            }));
        }
        let loaded = self.load(applied.match_id)?;
        // The lines for single seats stay with the first answer: whoever sends the key again
        // is told what everyone was told.
        let mut update = update(&loaded, lines.public, vec![], self.now());
        update.repeated = true;
        Ok(Some(Seen::Applied(Box::new(update))))
    }
}
