//! `deckmate league ...`: a tournament director's command line over the league service, on a
//! database file. Create a league, register players, start and close rounds, record a result
//! by hand, show pairings and standings, or simulate a whole season with random players.

use crate::engine::GameRng;
use crate::games::GameKind;
use crate::league::standings::{Scoring, Tiebreak, parse_tiebreaks, points};
use crate::store::leagues::{Format, League, NewLeague, SeasonStatus};
use crate::store::{PlayerId, Store};
use crate::table::Table;
use crate::table::leagues::{LeagueError, default_tiebreaks};
use std::io::Write;
use std::path::Path;

/// What to do with a league: `deckmate league NAME <action>`.
#[derive(Clone, Debug, PartialEq, Eq, clap::Subcommand)]
pub enum LeagueAction {
    /// Create the league; registration opens.
    Create {
        /// The game (two players, or pods of three or four for a game that takes them).
        #[arg(long, value_parser = crate::console::GameParser)]
        game: GameKind,
        /// round-robin, double-round-robin, swiss (two players) or pods (tables of 3-4).
        #[arg(long, default_value = "round-robin")]
        format: String,
        /// A Swiss season's number of rounds.
        #[arg(long)]
        rounds: Option<u32>,
        /// What a win, a draw and a loss score: 1,0.5,0 (1,0,0 for En Prise, whose draws
        /// score nothing).
        #[arg(long)]
        scoring: Option<String>,
        /// Each game's clock: none, 3d, 10d+1d.
        #[arg(long, default_value = "none")]
        time: String,
        /// A game option, KEY=VALUE; may be repeated.
        #[arg(long = "option", value_parser = crate::console::league::parse_option)]
        options: Vec<(String, String)>,
        /// Tiebreaks in order, separated by commas: buchholz, median-buchholz,
        /// sonneborn-berger, cumulative, direct-encounter, wins.
        #[arg(long, value_delimiter = ',')]
        tiebreaks: Vec<String>,
        /// Days from a round's start to its deadline.
        #[arg(long, default_value_t = 7)]
        round_days: i64,
        /// Forfeits after which a player is dropped (0: never).
        #[arg(long, default_value_t = 2)]
        forfeits_to_drop: u32,
    },
    /// Register players (by name) for the season open for registration.
    Join {
        #[arg(required = true, value_name = "PLAYER")]
        players: Vec<String>,
    },
    /// Withdraw a player.
    Leave { player: String },
    /// A player cannot play a round: half a point instead of the game.
    Unavailable { player: String, round: u32 },
    /// Seat IN in OUT's place for the rest of the running season.
    Substitute {
        out: String,
        #[arg(value_name = "IN")]
        into: String,
    },
    /// Pair and start the next round (the first one starts the season).
    Start,
    /// Close the running round: results in, games never begun forfeited.
    Close,
    /// Pair the running round again, before any of its games has begun.
    Repair,
    /// Show the league's settings, or change them (from the next round).
    Settings {
        #[arg(long)]
        time: Option<String>,
        #[arg(long)]
        round_days: Option<i64>,
        #[arg(long)]
        forfeits_to_drop: Option<u32>,
        /// true or false.
        #[arg(long)]
        rated: Option<bool>,
        /// win,draw,loss points, like 1,0.5,0.
        #[arg(long)]
        scoring: Option<String>,
        #[arg(long, value_delimiter = ',')]
        tiebreaks: Vec<String>,
        /// A Swiss league's rounds a season (between seasons).
        #[arg(long)]
        rounds: Option<u32>,
    },
    /// Set a game's result by hand: 1-0, 0-1, 1/2-1/2, 1X-0F, 0F-1X, 0F-0F or open.
    Record {
        round: u32,
        board: u32,
        result: String,
    },
    /// Every round's pairings and results.
    Pairings,
    /// The standings with the league's tiebreaks.
    Standings,
    /// Register new players and play the whole season with random legal moves.
    Simulate {
        #[arg(long, default_value_t = 8)]
        players: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Reads `KEY=VALUE`.
pub fn parse_option(text: &str) -> Result<(String, String), String> {
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| format!("\"{text}\" is not KEY=VALUE"))?;
    Ok((key.trim().to_string(), value.trim().to_string()))
}

/// Runs `action` on league `name` stored in `db`, writing what happened to `out`.
pub fn run_league(
    db: &Path,
    name: &str,
    action: LeagueAction,
    out: &mut impl Write,
) -> Result<(), String> {
    let store = Store::open(db).map_err(|e| e.to_string())?;
    let mut table = Table::new(store);
    let err = |e: LeagueError| e.to_string();
    let io = |e: std::io::Error| e.to_string();
    if let LeagueAction::Create {
        game,
        format,
        rounds,
        scoring,
        time,
        options,
        tiebreaks,
        round_days,
        forfeits_to_drop,
    } = action
    {
        let format = Format::parse(&format).ok_or_else(|| {
            format!("unknown format {format}: round-robin, double-round-robin, swiss or pods")
        })?;
        let tiebreaks: Vec<Tiebreak> = match tiebreaks.is_empty() {
            true => default_tiebreaks(format),
            false => parse_tiebreaks(&tiebreaks.join(","))?,
        };
        let new = NewLeague {
            guild_id: None,
            channel_id: None,
            name: name.to_string(),
            game,
            options,
            time_control: time,
            format,
            rated: true,
            tiebreaks: serde_json::to_string(&tiebreaks).expect("tiebreaks serialise"),
            round_days,
            forfeits_to_drop,
            rounds,
            scoring: match scoring {
                Some(text) => Scoring::parse(&text)?,
                None => Scoring::for_game(game),
            },
        };
        table.create_league(new).map_err(err)?;
        return writeln!(out, "League {name} created; registration is open.").map_err(io);
    }
    let league = table.league(None, name).map_err(err)?;
    let player = |table: &mut Table, name: &str| -> Result<PlayerId, String> {
        let name = name.trim();
        if let Some(why) = crate::console::bad_name(name, &[]) {
            return Err(why);
        }
        Ok(table
            .store()
            .local_player(name)
            .map_err(|e| e.to_string())?
            .id)
    };
    // A player the command speaks of, who must exist already (nobody is created by a refusal).
    let known = |table: &mut Table, name: &str| -> Result<PlayerId, String> {
        let found = table
            .store()
            .find_local_player(name)
            .map_err(|e| e.to_string())?;
        found
            .map(|p| p.id)
            .ok_or_else(|| format!("there is no player called {}", crate::engine::echo(name)))
    };
    match action {
        LeagueAction::Create { .. } => unreachable!("handled above"),
        LeagueAction::Join { players: names } => {
            // Every name is checked before anyone is registered; then each joins in turn, and
            // a refusal stops at that name (those before it stay registered).
            let names: Vec<String> = names.iter().map(|n| n.trim().to_string()).collect();
            let mut ids = Vec::new();
            for (i, name) in names.iter().enumerate() {
                if let Some(why) = crate::console::bad_name(name, &names[..i]) {
                    return Err(why);
                }
                ids.push(player(&mut table, name)?);
            }
            // One already registered is named before anyone joins, so nothing half happens.
            let season = table.store().season(league.id).map_err(|e| e.to_string())?;
            let registered = table
                .store()
                .registrations(season.id)
                .map_err(|e| e.to_string())?;
            if let Some((name, _)) = names.iter().zip(&ids).find(|(_, id)| {
                registered
                    .iter()
                    .any(|r| r.player == **id && r.status == "active")
            }) {
                return Err(format!(
                    "{name} is already registered in {}",
                    league.new.name
                ));
            }
            for (name, id) in names.iter().zip(ids) {
                table.join_league(&league, id).map_err(err)?;
                writeln!(out, "{name} is registered.").map_err(io)?;
            }
        }
        LeagueAction::Leave { player: name } => {
            let id = known(&mut table, &name)?;
            table.leave_league(&league, id).map_err(err)?;
            writeln!(out, "{name} has withdrawn.").map_err(io)?;
        }
        LeagueAction::Unavailable {
            player: name,
            round,
        } => {
            let id = known(&mut table, &name)?;
            table.unavailable(&league, id, round).map_err(err)?;
            writeln!(out, "{name} will not play round {round}.").map_err(io)?;
        }
        LeagueAction::Substitute { out: leaving, into } => {
            let out_id = known(&mut table, &leaving)?;
            let into_id = player(&mut table, &into)?;
            let director = crate::table::admin::Admin {
                player: player(&mut table, "director")?,
                name: "director".into(),
                guild: None,
            };
            // Each command line is one request of its own.
            let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            let key = format!(
                "console:{}:{}",
                std::process::id(),
                since.unwrap_or_default().as_nanos()
            );
            let done = table
                .substitute_in_league(&league, out_id, into_id, &director, &key)
                .map_err(err)?;
            let lines = done.map(|d| d.lines).unwrap_or_default();
            for line in lines {
                writeln!(out, "{line}").map_err(io)?;
            }
        }
        LeagueAction::Start => {
            let started = table.start_round(&league).map_err(err)?;
            writeln!(out, "Round {} started.", started.round).map_err(io)?;
            write_pairings(&mut table, &league, Some(started.round), out)?;
        }
        LeagueAction::Settings {
            time,
            round_days,
            forfeits_to_drop,
            rated,
            scoring,
            tiebreaks,
            rounds,
        } => {
            let change = crate::table::leagues::LeagueChange {
                time_control: time,
                round_days,
                forfeits_to_drop,
                rated,
                scoring: scoring.as_deref().map(Scoring::parse).transpose()?,
                tiebreaks: match tiebreaks.is_empty() {
                    true => None,
                    false => Some(parse_tiebreaks(&tiebreaks.join(","))?),
                },
                rounds,
            };
            let league = match change == Default::default() {
                true => league,
                false => table.change_league(&league, change).map_err(err)?,
            };
            writeln!(out, "{}", crate::table::leagues::describe(&league)).map_err(io)?;
        }
        LeagueAction::Repair => {
            let started = table.repair_round(&league, None).map_err(err)?;
            let started = started.expect("a re-pair under no key is always carried out");
            writeln!(out, "Round {} paired again.", started.round).map_err(io)?;
            write_pairings(&mut table, &league, Some(started.round), out)?;
        }
        LeagueAction::Close => {
            for line in table.close_round(&league).map_err(err)? {
                writeln!(out, "{line}").map_err(io)?;
            }
        }
        LeagueAction::Record {
            round,
            board,
            result,
        } => {
            table
                .record_result(&league, round, board, &result)
                .map_err(err)?;
            writeln!(out, "Round {round}, board {board}: {result}.").map_err(io)?;
        }
        LeagueAction::Pairings => write_pairings(&mut table, &league, None, out)?,
        LeagueAction::Standings => write_standings(&mut table, &league, out)?,
        LeagueAction::Simulate { players, seed } => {
            simulate(&mut table, &league, players, seed, out)?;
            write_standings(&mut table, &league, out)?;
        }
    }
    Ok(())
}

fn write_pairings(
    table: &mut Table,
    league: &League,
    only: Option<u32>,
    out: &mut impl Write,
) -> Result<(), String> {
    let lines = table
        .pairing_lines(league, only)
        .map_err(|e| e.to_string())?;
    for line in lines {
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn write_standings(table: &mut Table, league: &League, out: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let order: Vec<Tiebreak> = serde_json::from_str(&league.new.tiebreaks).unwrap_or_default();
    let names: Vec<&str> = order.iter().map(|t| t.name()).collect();
    writeln!(out, "rank  player  points  {}", names.join("  ")).map_err(io)?;
    for (s, player) in table.league_standings(league).map_err(|e| e.to_string())? {
        let breaks: Vec<String> = order
            .iter()
            .zip(&s.tiebreaks)
            .map(|(t, v)| t.show(*v))
            .collect();
        writeln!(
            out,
            "{:>4}  {}  {}  {}",
            s.rank,
            player.name,
            points(s.halves),
            breaks.join("  ")
        )
        .map_err(io)?;
    }
    if let Some(grid) = table.league_crosstable(league).map_err(|e| e.to_string())? {
        writeln!(out, "\n{}", grid.join("\n")).map_err(io)?;
    }
    Ok(())
}

/// Registers `players` players and plays the whole season with random legal moves (a game
/// still going after 3,000 actions is agreed drawn). An interrupted run goes on where it
/// stopped: players already registered are not registered again, and a round left running is
/// played out and closed before the next one starts.
fn simulate(
    table: &mut Table,
    league: &League,
    players: u32,
    seed: u64,
    out: &mut impl Write,
) -> Result<(), String> {
    let err = |e: LeagueError| e.to_string();
    let stored = |e: crate::store::StoreError| e.to_string();
    let mut rng = GameRng::from_seed(seed);
    let season = table.store().season(league.id).map_err(stored)?;
    if season.status == SeasonStatus::Registration {
        let registered: Vec<PlayerId> = table
            .store()
            .registrations(season.id)
            .map_err(stored)?
            .iter()
            .map(|r| r.player)
            .collect();
        for i in 1..=players {
            let id = table
                .store()
                .local_player(&format!("player{i}"))
                .map_err(stored)?
                .id;
            if !registered.contains(&id) {
                table.join_league(league, id).map_err(err)?;
            }
        }
    }
    loop {
        let season = table.store().season(league.id).map_err(stored)?;
        let running = table
            .store()
            .rounds(season.id)
            .map_err(stored)?
            .into_iter()
            .find(|r| !r.closed);
        let matches: Vec<crate::store::MatchId> = match running {
            Some(round) => table
                .store()
                .pairings(season.id)
                .map_err(stored)?
                .into_iter()
                .filter(|p| p.round == round.number)
                .filter_map(|p| p.match_id)
                .collect(),
            None => match table.start_round(league) {
                Ok(started) => started.matches.iter().map(|u| u.match_id).collect(),
                Err(LeagueError::Refused(why)) if why.starts_with("season") => break,
                Err(e) => return Err(e.to_string()),
            },
        };
        for id in matches {
            play_randomly(table, id, &mut rng).map_err(|e| e.to_string())?;
        }
        for line in table.close_round(league).map_err(err)? {
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Plays match `id` with random legal actions to its end (a match already over is left as it
/// is); one still going after 3,000 actions is agreed drawn.
pub fn play_randomly(
    table: &mut Table,
    id: crate::store::MatchId,
    rng: &mut GameRng,
) -> Result<(), crate::table::TableError> {
    for _ in 0..3000 {
        let shown = table.show(id)?;
        let Some((_, who)) = shown.to_act.first().cloned() else {
            break;
        };
        if shown.result.is_some() {
            break;
        }
        let legal = table.legal(id, who.id)?;
        if legal.is_empty() {
            break;
        }
        let choice = legal[rng.below(legal.len())].clone();
        let request = crate::table::Request {
            confirmed: true,
            ..Default::default()
        };
        table.act(id, who.id, request, &choice)?;
    }
    let shown = table.show(id)?;
    if shown.result.is_none() {
        for (_, player, _) in &shown.seat_views {
            let _ = table.offer_draw(id, player.id, None);
        }
    }
    Ok(())
}

/// `deckmate pair --dutch FILE -p OUT`: the next round of a TRF16 tournament, paired by the
/// Dutch system and written as the reference engines write it.
pub fn run_pair(file: &Path, out: Option<&Path>) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let tournament =
        crate::league::trf::read(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let round = crate::league::dutch::pair(&tournament).map_err(|e| e.to_string())?;
    let pairs = crate::league::trf::write_pairs(&round);
    match out {
        Some(path) => std::fs::write(path, pairs).map_err(|e| format!("{}: {e}", path.display())),
        None => crate::console::QuietPipe::new(std::io::stdout())
            .write_all(pairs.as_bytes())
            .map_err(|e| e.to_string()),
    }
}
