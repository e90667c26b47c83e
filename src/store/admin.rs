//! What a server's admins control: the server's own settings for the bot, and the log of
//! every admin action (matches cancelled, adjudicated or given a substitute, settings changed),
//! written in the same transaction as the change it records.

use super::db::{Connection, OptionalExtension, params};
use super::{MatchId, PlayerId, Store, StoreError};

/// A server's rules for the bot; the default lets `/play` be used anywhere, with no clock,
/// typed moves read and no cooldown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerSettings {
    /// The channels `/play` may be used in (ids); empty: anywhere.
    pub play_channels: Vec<String>,
    /// The time control a challenge gets when it names none, as stored ("none", "3d").
    pub time_control: String,
    /// Whether moves typed in match threads are read.
    pub chat_moves: bool,
    /// Seconds a member waits between two challenges; 0: no wait.
    pub cooldown: i64,
    /// A role (id) whose members may use `/admin` without Manage Server.
    pub referee_role: Option<String>,
    /// Whether matches against the computer may be rated (they never are otherwise).
    pub computers_rated: bool,
    /// Whether the server's leagues, matches and players are on the public web pages.
    pub web: bool,
}

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            play_channels: vec![],
            time_control: "none".into(),
            chat_moves: true,
            cooldown: 0,
            referee_role: None,
            computers_rated: false,
            web: false,
        }
    }
}

/// One line of a server's admin log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdminEntry {
    pub match_id: Option<MatchId>,
    pub admin: PlayerId,
    pub action: String,
    pub detail: String,
    pub at: i64,
}

impl Store {
    /// The settings of the server `guild` (the defaults until its admins change them).
    pub fn server_settings(&self, guild: &str) -> Result<ServerSettings, StoreError> {
        read_settings(&self.conn, guild)
    }

    /// Changes the settings of server `guild` by `change` (which says what it changed, for the
    /// admin log), read, changed, written and logged in one transaction under the request's
    /// `key`. A key seen before changes nothing: the settings as they stand come back, with
    /// `false`.
    pub fn change_server_settings(
        &mut self,
        guild: &str,
        key: &str,
        admin: PlayerId,
        at: i64,
        change: impl FnOnce(&mut ServerSettings) -> String,
    ) -> Result<(ServerSettings, bool), StoreError> {
        let tx = self.write()?;
        let mut settings = read_settings(&tx, guild)?;
        let seen: Option<i64> = tx
            .query_row(
                "SELECT id FROM admin_actions WHERE request_key = ?1",
                [key],
                |r| r.get(0),
            )
            .optional()?;
        if seen.is_some() {
            return Ok((settings, false));
        }
        let detail = change(&mut settings);
        let channels = serde_json::to_string(&settings.play_channels).expect("ids serialise");
        tx.execute(
            "INSERT INTO server_settings
                 (guild_id, play_channels, time_control, chat_moves, cooldown, referee_role,
                  computers_rated, web)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT (guild_id) DO UPDATE SET play_channels = excluded.play_channels,
                 time_control = excluded.time_control, chat_moves = excluded.chat_moves,
                 cooldown = excluded.cooldown, referee_role = excluded.referee_role,
                 computers_rated = excluded.computers_rated, web = excluded.web",
            params![
                guild,
                channels,
                settings.time_control,
                settings.chat_moves,
                settings.cooldown,
                settings.referee_role,
                settings.computers_rated,
                settings.web
            ],
        )?;
        tx.execute(
            "INSERT INTO admin_actions
                 (guild_id, match_id, admin_id, action, detail, created_at, request_key)
             VALUES (?1, NULL, ?2, 'settings', ?3, ?4, ?5)",
            params![guild, admin, detail, at, key],
        )?;
        tx.commit()?;
        Ok((settings, true))
    }

    /// The newest `limit` lines of server `guild`'s admin log, newest first.
    pub fn admin_log(&self, guild: &str, limit: usize) -> Result<Vec<AdminEntry>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT match_id, admin_id, action, detail, created_at FROM admin_actions
             WHERE guild_id = ?1 ORDER BY id DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![guild, limit as i64], |r| {
            Ok(AdminEntry {
                match_id: r.get(0)?,
                admin: r.get(1)?,
                action: r.get(2)?,
                detail: r.get(3)?,
                at: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

fn read_settings(conn: &Connection, guild: &str) -> Result<ServerSettings, StoreError> {
    let row = conn
        .query_row(
            "SELECT play_channels, time_control, chat_moves, cooldown, referee_role,
                    computers_rated, web
             FROM server_settings WHERE guild_id = ?1",
            [guild],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, bool>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, bool>(5)?,
                    r.get::<_, bool>(6)?,
                ))
            },
        )
        .optional()?;
    let Some((channels, time_control, chat_moves, cooldown, referee_role, computers_rated, web)) =
        row
    else {
        return Ok(ServerSettings::default());
    };
    let play_channels = serde_json::from_str(&channels).map_err(|e| {
        StoreError::Damaged(format!(
            "the /play channels of server {guild} cannot be read: {e}"
        ))
    })?;
    Ok(ServerSettings {
        play_channels,
        time_control,
        chat_moves,
        cooldown,
        referee_role,
        computers_rated,
        web,
    })
}

/// When `player` may next challenge in server `guild` under its cooldown: None when the server
/// has none or they never challenged there. Reads inside the caller's transaction.
pub(super) fn cooldown_until(
    tx: &Connection,
    guild: &str,
    player: PlayerId,
) -> Result<Option<i64>, StoreError> {
    Ok(tx.query_row(
        "SELECT MAX(c.created_at + st.cooldown) FROM server_settings st
         JOIN challenges c ON c.guild_id = st.guild_id
         JOIN challenge_seats s
             ON s.challenge_id = c.id AND s.seat = c.challenger AND s.player_id = ?2
         WHERE st.guild_id = ?1 AND st.cooldown > 0",
        params![guild, player],
        |r| r.get(0),
    )?)
}

/// Writes a line of the admin log inside `tx`.
pub(super) fn log(
    tx: &Connection,
    guild: &str,
    match_id: Option<MatchId>,
    admin: PlayerId,
    action: &str,
    detail: &str,
    at: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO admin_actions (guild_id, match_id, admin_id, action, detail, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![guild, match_id, admin, action, detail, at],
    )?;
    Ok(())
}

/// Logs an admin action on match `id` inside `tx`, under the match's own server.
pub(super) fn log_match(
    tx: &Connection,
    id: MatchId,
    admin: PlayerId,
    action: &str,
    detail: &str,
    at: i64,
) -> Result<(), StoreError> {
    let guild: Option<String> =
        tx.query_row("SELECT guild_id FROM matches WHERE id = ?1", [id], |r| {
            r.get(0)
        })?;
    // The console's director rules on the console's matches, which have no server's log.
    match guild {
        Some(guild) => log(tx, &guild, Some(id), admin, action, detail, at),
        None => Ok(()),
    }
}

/// Seats `player` in `seat` of match `id` inside `tx` (a substitute).
pub(super) fn reseat(
    tx: &Connection,
    id: MatchId,
    seat: u8,
    player: PlayerId,
) -> Result<(), StoreError> {
    let n = tx.execute(
        "UPDATE seats SET player_id = ?1 WHERE match_id = ?2 AND seat = ?3",
        params![player, id, seat],
    )?;
    if n != 1 {
        return Err(StoreError::Corrupt {
            id,
            detail: format!("there is no seat {seat} to give a substitute"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_settings_default_until_changed_and_each_change_is_logged_once() {
        let mut store = crate::store::testing::scratch();
        let admin = store.discord_player("1", "Ann").unwrap().id;
        assert_eq!(
            store.server_settings("10").unwrap(),
            ServerSettings::default()
        );
        let chosen = ServerSettings {
            play_channels: vec!["20".into(), "21".into()],
            time_control: "3d".into(),
            chat_moves: false,
            cooldown: 600,
            referee_role: Some("30".into()),
            computers_rated: true,
            web: true,
        };
        let (now, applied) = store
            .change_server_settings("10", "i:1", admin, 1_000, |s| {
                *s = chosen.clone();
                "cooldown 10m".into()
            })
            .unwrap();
        assert!(applied);
        assert_eq!(now, chosen);
        assert_eq!(store.server_settings("10").unwrap(), chosen);
        // The same request delivered again, after another admin's change: applied once, and
        // the later change stands.
        store
            .change_server_settings("10", "i:2", admin, 1_001, |s| {
                s.cooldown = 3600;
                "cooldown 1h".into()
            })
            .unwrap();
        let (now, applied) = store
            .change_server_settings("10", "i:1", admin, 1_002, |s| {
                s.cooldown = 600;
                "cooldown 10m".into()
            })
            .unwrap();
        assert!(!applied);
        assert_eq!(now.cooldown, 3600);
        // Another server keeps its defaults.
        assert_eq!(
            store.server_settings("11").unwrap(),
            ServerSettings::default()
        );
        let log = store.admin_log("10", 10).unwrap();
        assert_eq!(log.len(), 2);
        assert_eq!(
            (log[1].action.as_str(), log[1].detail.as_str(), log[1].admin),
            ("settings", "cooldown 10m", admin)
        );
        assert!(store.admin_log("11", 10).unwrap().is_empty());
        // The log cannot be rewritten.
        let err = store
            .connection()
            .execute("DELETE FROM admin_actions", [])
            .unwrap_err();
        assert!(err.to_string().contains("append-only"), "{err}");
    }

    #[test]
    fn a_servers_cooldown_holds_back_a_members_next_challenge_and_only_theirs() {
        use crate::games::GameKind;
        use crate::store::{ChallengeError, NewChallenge};
        let mut store = crate::store::testing::scratch();
        let ann = store.discord_player("1", "Ann").unwrap().id;
        let bob = store.discord_player("2", "Bob").unwrap().id;
        let new = |players: Vec<PlayerId>| NewChallenge {
            game: GameKind::Chess,
            options: vec![],
            time_control: "none".into(),
            seed: 1,
            players,
            guild_id: Some("10".into()),
            channel_id: Some("20".into()),
            lasts: 900,
            rated: true,
        };
        // No cooldown: one challenge after another.
        store.create_challenge(&new(vec![ann, bob]), 1_000).unwrap();
        store.create_challenge(&new(vec![ann, bob]), 1_001).unwrap();
        store
            .change_server_settings("10", "k", ann, 1_002, |s| {
                s.cooldown = 600;
                "cooldown".into()
            })
            .unwrap();
        let err = store
            .create_challenge(&new(vec![ann, bob]), 1_100)
            .unwrap_err();
        assert!(
            matches!(err, ChallengeError::Cooldown { until: 1_601 }),
            "{err}"
        );
        // Bob, challenged but never challenging, may; a rematch asked by Ann from seat 1 may not.
        store.create_challenge(&new(vec![bob, ann]), 1_100).unwrap();
        let err = store
            .create_challenge_by(&new(vec![bob, ann]), 1, 1_200)
            .unwrap_err();
        assert!(matches!(err, ChallengeError::Cooldown { .. }), "{err}");
        // Another server has its own rules; the wait ends on time.
        let mut elsewhere = new(vec![ann, bob]);
        elsewhere.guild_id = Some("11".into());
        store.create_challenge(&elsewhere, 1_200).unwrap();
        store.create_challenge(&new(vec![ann, bob]), 1_601).unwrap();
    }
}
