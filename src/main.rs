//! The deckmate command line: the Discord bot (the default), a match in the terminal, a
//! league, perft, selfplay and a UCI chess engine.

use clap::{Parser, Subcommand};
use deckmate::console::league::{LeagueAction, parse_option, run_league, run_pair};
use deckmate::console::run_replay;
use deckmate::console::{self, ConsoleConfig};
use deckmate::discord::logs::{self, Redacting};
use deckmate::discord::{self, BotConfig};
use deckmate::games::GameKind;
use deckmate::games::chess::{PERFT_LIMIT, Position, perft};
use deckmate::selfplay::{self, SelfplayConfig};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// mimalloc rather than the system's allocator: the bot allocates and frees a picture's
/// megabytes on several threads for every move (docs/deploy.md, the load test).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "deckmate",
    version,
    about = "Chess-variant card games for Discord and the terminal"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Discord bot (needs DISCORD_TOKEN; see .env.example).
    Bot,
    /// Play a match in the terminal (or from a script on standard input).
    Play {
        /// The game.
        #[arg(value_parser = deckmate::console::GameParser)]
        game: GameKind,
        /// Player names in seat order, separated by commas (2 players; En Prise takes 2 to 4).
        #[arg(long, value_delimiter = ',')]
        players: Vec<String>,
        /// The seed of the match's random deals (default: a random one).
        #[arg(long)]
        seed: Option<u64>,
        /// A game option, KEY=VALUE; may be repeated.
        #[arg(long = "option", value_parser = parse_option)]
        options: Vec<(String, String)>,
        /// Store the match in this SQLite file (default: in memory only).
        #[arg(long)]
        db: Option<std::path::PathBuf>,
        /// Write a PNG of the board to this folder at the start and after every action.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Resume this stored match (needs --db).
        #[arg(long = "match")]
        match_id: Option<i64>,
        /// Print the board as text at the start and after every action (always on a
        /// terminal).
        #[arg(long)]
        board: bool,
        /// Name this run: with the same session, lines already applied are not applied again
        /// (feed a script twice and it changes nothing the second time).
        #[arg(long)]
        session: Option<String>,
        /// The match's time control: none, 3d (per move), 10d+1d (a reserve plus time per
        /// move), 10d+1d max 20d.
        #[arg(long, default_value = "none", value_parser = parse_time)]
        time: deckmate::table::time_control::TimeControl,
        /// The clock: real, or simulated (moved only by `wait 30h` lines). Default: real on a
        /// terminal, simulated when standard input is a script.
        #[arg(long, value_parser = ["real", "simulated"])]
        clock: Option<String>,
    },
    /// Run a league from the command line, on a database file: `deckmate league Autumn create
    /// --game chess --db league.db`, then join, start, close, standings, simulate...
    League {
        /// The league's name.
        name: String,
        /// The SQLite file the league is kept in (the bot's database works too).
        #[arg(long, global = true, default_value = "deckmate.db")]
        db: std::path::PathBuf,
        #[command(subcommand)]
        action: LeagueAction,
    },
    /// Pair the next round of a Swiss tournament given in the FIDE TRF16 format, as the
    /// reference engines do: `deckmate pair --dutch FILE.trf -p OUT`.
    Pair {
        /// The tournament, paired by the FIDE Dutch system.
        #[arg(long)]
        dutch: std::path::PathBuf,
        /// Where to write the pairings (standard output without it).
        #[arg(short = 'p')]
        out: Option<std::path::PathBuf>,
    },
    /// Write a stored match as an animated GIF, from the spectator's view: `deckmate replay
    /// --db deckmate.db --match 12 --out match12.gif`.
    Replay {
        /// The SQLite file the match is stored in.
        #[arg(long, default_value = "deckmate.db")]
        db: std::path::PathBuf,
        #[arg(long = "match")]
        match_id: i64,
        /// Where to write the GIF.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Serve the public web pages of a database alone (a console league, or a copy of the
    /// bot's database): `deckmate web --db league.db --addr 127.0.0.1:8080`.
    Web {
        /// The SQLite file (or postgres:// URL) to serve.
        #[arg(long, default_value = "deckmate.db")]
        db: std::path::PathBuf,
        /// Where to serve: a port (on 127.0.0.1) or an address and port.
        #[arg(long, default_value = "127.0.0.1:8080", value_parser = parse_address)]
        addr: std::net::SocketAddr,
    },
    /// Write sample pictures of every game (start, middle and end of a random game, as a
    /// spectator and as the first seat sees them, and its replay), and of each variant that
    /// changes the picture, into a folder.
    Gallery {
        /// The folder to write into (created if missing).
        dir: std::path::PathBuf,
    },
    /// Count the leaf nodes of the legal move tree of a chess position.
    Perft {
        /// The position, as FEN (quote it).
        fen: String,
        depth: u32,
        /// Also print the count below each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Play contestants against each other (the computer at a level, or random play), seats
    /// rotating, and sum up A's results with a 95% confidence interval and an Elo difference.
    Arena {
        /// The game.
        #[arg(value_parser = deckmate::console::GameParser)]
        game: GameKind,
        /// Contestant A: random, cpu (medium), cpu:easy|medium|hard, or uci:COMMAND (a chess
        /// engine program, for chess).
        #[arg(long, default_value = "cpu:hard")]
        a: deckmate::arena::Contestant,
        /// Contestant B, in every seat A does not hold.
        #[arg(long, default_value = "random")]
        b: deckmate::arena::Contestant,
        /// A UCI option for contestant A's engine, NAME=VALUE; may be repeated.
        #[arg(long = "a-option", value_parser = parse_option)]
        a_options: Vec<(String, String)>,
        /// A UCI option for contestant B's engine, NAME=VALUE; may be repeated.
        #[arg(long = "b-option", value_parser = parse_option)]
        b_options: Vec<(String, String)>,
        /// Milliseconds a UCI engine thinks each move.
        #[arg(long, default_value_t = 100)]
        movetime: u64,
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Number of players (default: the game's smallest table).
        #[arg(long)]
        players: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game option, KEY=VALUE; may be repeated.
        #[arg(long = "option", value_parser = parse_option)]
        options: Vec<(String, String)>,
        /// Keep each game's result in this file as it ends; run the same command again and
        /// the games it holds are not played again.
        #[arg(long)]
        journal: Option<std::path::PathBuf>,
    },
    /// Play plain chess over the UCI protocol on standard input and output (for chess GUIs and
    /// tools).
    Uci,
    /// Play random legal games to the end and summarise them.
    Selfplay {
        /// The game.
        #[arg(value_parser = deckmate::console::GameParser)]
        game: GameKind,
        #[arg(long, default_value_t = 100)]
        games: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of players (default: the game's smallest table).
        #[arg(long)]
        players: Option<usize>,
        /// A game option, KEY=VALUE; may be repeated.
        #[arg(long = "option", value_parser = parse_option)]
        options: Vec<(String, String)>,
    },
}

/// The async runtime the bot and the web pages run on; None (said on standard error) when it
/// cannot start.
fn runtime() -> Option<tokio::runtime::Runtime> {
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => Some(runtime),
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            None
        }
    }
}

fn parse_address(text: &str) -> Result<std::net::SocketAddr, String> {
    deckmate::web::http::address(text)
        .ok_or_else(|| format!("{text:?} is a port (8080) or an address and port (0.0.0.0:8080)"))
}

fn parse_time(text: &str) -> Result<deckmate::table::time_control::TimeControl, String> {
    deckmate::table::time_control::TimeControl::parse(text)
}

/// The log filter when RUST_LOG is not set: warnings from everything (serenity, poise, ...) and
/// deckmate's own lines from info up (failures, refusals, matches created, timers).
const DEFAULT_LOG: &str = "warn,deckmate=info";

/// Sends log lines to standard error with every secret removed (`secrets`: the bot token; and
/// interaction tokens wherever they appear), at the level RUST_LOG asks for, else
/// [`DEFAULT_LOG`].
fn init_logs(secrets: Vec<String>) {
    use tracing_subscriber::EnvFilter;
    let filter = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.trim().is_empty() => EnvFilter::try_new(&spec).unwrap_or_else(|e| {
            eprintln!("warning: RUST_LOG={spec:?} is not a log filter ({e}); using {DEFAULT_LOG}");
            EnvFilter::new(DEFAULT_LOG)
        }),
        _ => EnvFilter::new(DEFAULT_LOG),
    };
    let writer = Redacting::new(std::io::stderr, secrets);
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .init();
}

fn main() -> ExitCode {
    // With no command: the bot when a token is configured, otherwise a local match of the first
    // game (chess).
    let command = Cli::parse().command.unwrap_or_else(|| {
        if BotConfig::from_env().is_ok() {
            return Command::Bot;
        }
        let game = GameKind::default();
        eprintln!("No DISCORD_TOKEN set: starting a local {} match. (`deckmate bot` explains how to connect to Discord; `deckmate play --help` how to play other games.)", game.name().to_lowercase());
        Command::Play {
            game,
            players: vec!["white".into(), "black".into()],
            seed: None,
            options: vec![],
            db: None,
            out: None,
            match_id: None,
            board: true,
            session: None,
            time: Default::default(),
            clock: None,
        }
    });
    if !matches!(command, Command::Bot) {
        init_logs(vec![]);
    }
    match command {
        Command::Bot => run_bot(),
        Command::League { name, db, action } => {
            let mut out = console::QuietPipe::new(std::io::stdout().lock());
            match run_league(&db, &name, action, &mut out) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Web { db, addr } => {
            let Some(runtime) = runtime() else {
                return ExitCode::FAILURE;
            };
            let said = |at| {
                println!(
                    "Serving the pages of {} at http://{at}/ (Ctrl-C stops).",
                    db.display()
                )
            };
            match runtime.block_on(deckmate::web::alone::serve_database(&db, addr, said)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Gallery { dir } => match deckmate::console::gallery::run_gallery(&dir) {
            Ok(files) => {
                println!("{} pictures written to {}.", files.len(), dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Replay { db, match_id, out } => match run_replay(&db, match_id, &out) {
            Ok(said) => {
                println!("{said}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Pair { dutch, out } => match run_pair(&dutch, out.as_deref()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Play {
            game,
            players,
            seed,
            options,
            db,
            out,
            match_id,
            board,
            session,
            time,
            clock,
        } => {
            if match_id.is_some() && db.is_none() {
                eprintln!("error: --match needs --db, the file the match is stored in");
                return ExitCode::from(2);
            }
            let config = ConsoleConfig {
                game,
                players,
                seed,
                options,
                db,
                out,
                match_id,
                prompt: std::io::stdin().is_terminal(),
                show_board: board || std::io::stdin().is_terminal(),
                session,
                time,
                simulated: match clock.as_deref() {
                    Some(choice) => choice == "simulated",
                    None => !std::io::stdin().is_terminal(),
                },
            };
            let input = match std::io::stdin().is_terminal() {
                true => console::Input::Terminal,
                false => {
                    console::Input::Script(Box::new(std::io::BufReader::new(std::io::stdin())))
                }
            };
            match console::run(
                &config,
                input,
                console::QuietPipe::new(std::io::stdout().lock()),
            ) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Perft { fen, depth, divide } => run_perft(&fen, depth, divide),
        Command::Uci => {
            match deckmate::uci::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Arena {
            game,
            a,
            b,
            a_options,
            b_options,
            movetime,
            games,
            players,
            seed,
            options,
            journal,
        } => {
            let (a, b) = match (
                with_engine_options(a, a_options, "--a-option"),
                with_engine_options(b, b_options, "--b-option"),
            ) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(e), _) | (_, Err(e)) => {
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
            };
            let config = deckmate::arena::ArenaConfig {
                kind: game,
                a,
                b,
                games,
                seats: players.unwrap_or(game.seats().0),
                seed,
                options,
                movetime: Duration::from_millis(movetime),
            };
            if let Some(problem) = config.problem() {
                eprintln!("{problem}");
                return ExitCode::from(2);
            }
            run_arena(config, journal.as_deref())
        }
        Command::Selfplay {
            game,
            games,
            seed,
            players,
            options,
        } => run_selfplay(SelfplayConfig {
            kind: game,
            games,
            seed,
            players: players.unwrap_or(game.seats().0),
            options,
        }),
    }
}

fn run_bot() -> ExitCode {
    let config = match BotConfig::from_env() {
        Ok(config) => config,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // RUST_LOG may come from .env, read just now.
    init_logs(vec![config.token.clone()]);
    let token = config.token.clone();
    let Some(runtime) = runtime() else {
        return ExitCode::FAILURE;
    };
    let bot = async {
        let table = discord::open_table(&config)?;
        if let Some(address) = config.metrics {
            deckmate::web::metrics::start(address, table.clone()).await?;
        }
        if let Some(address) = config.web {
            let _served = deckmate::web::site::start(address, table.clone(), false).await?;
        }
        discord::run(config, table).await
    };
    match runtime.block_on(bot) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let cause = logs::redact(&logs::chain(&*e), &[token]);
            eprintln!("error: the bot stopped: {cause}");
            ExitCode::FAILURE
        }
    }
}

fn run_perft(fen: &str, depth: u32, divide: bool) -> ExitCode {
    if depth > PERFT_LIMIT {
        eprintln!(
            "error: perft goes to depth {PERFT_LIMIT} at most (depth 7 of the start position alone is 3.2 billion positions); got {depth}"
        );
        return ExitCode::from(2);
    }
    let pos = match Position::from_fen(fen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for mv in pos.legal_moves() {
            let count = perft(&pos.play_unchecked(mv), depth - 1);
            println!("{mv}: {count}");
            total += count;
        }
        println!();
        total
    } else {
        perft(&pos, depth)
    };
    eprintln!("perft {depth} in {:.3} s", started.elapsed().as_secs_f64());
    println!("{total}");
    ExitCode::SUCCESS
}

/// Draws a progress bar of games on standard error, when it is a terminal.
fn progress_bar(total: usize) -> impl Fn(usize) + Sync {
    let bar = std::io::stderr().is_terminal() && total > 1;
    let last_draw = std::sync::Mutex::new(Instant::now());
    move |done| {
        let Ok(mut last) = last_draw.lock() else {
            return;
        };
        if bar && (done == total || last.elapsed().as_millis() >= 100) {
            *last = Instant::now();
            let width = 30;
            let filled = done * width / total.max(1);
            eprint!(
                "\r[{}{}] {done}/{total} games",
                "#".repeat(filled),
                "-".repeat(width - filled)
            );
            if done == total {
                eprintln!();
            }
            let _ = std::io::stderr().flush();
        }
    }
}

/// A contestant with its `--a-option`s or `--b-option`s (`flag`), which only a UCI engine
/// takes.
fn with_engine_options(
    contestant: deckmate::arena::Contestant,
    options: Vec<(String, String)>,
    flag: &str,
) -> Result<deckmate::arena::Contestant, String> {
    match contestant {
        deckmate::arena::Contestant::Uci(mut spec) => {
            spec.options.extend(options);
            Ok(deckmate::arena::Contestant::Uci(spec))
        }
        other if options.is_empty() => Ok(other),
        other => Err(format!("{flag} is for a uci: contestant, not {other}")),
    }
}

fn run_arena(config: deckmate::arena::ArenaConfig, journal: Option<&std::path::Path>) -> ExitCode {
    let started = Instant::now();
    let (journal, earlier) = match journal.map(|path| deckmate::arena::Journal::open(path, &config))
    {
        None => (None, Vec::new()),
        Some(Ok((journal, earlier))) => {
            if !earlier.is_empty() {
                eprintln!("{} games already played, from the journal", earlier.len());
            }
            (Some(journal), earlier)
        }
        Some(Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let report = deckmate::arena::run_from(
        &config,
        earlier,
        progress_bar(config.games),
        |game, played| journal.as_ref().map_or(Ok(()), |j| j.record(game, played)),
    );
    print!("{}", report.report(&config));
    eprintln!("{:.1} s", started.elapsed().as_secs_f64());
    if report.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn run_selfplay(config: SelfplayConfig) -> ExitCode {
    let total = config.games;
    let progress = progress_bar(total);
    let summary = selfplay::run(&config, progress);
    println!(
        "{} selfplay, seeds {}..{}",
        config.kind.name(),
        config.seed,
        config.seed + total as u64
    );
    print!("{}", summary.report());
    if summary.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
