//! The public web pages in a real browser: a headless Chromium, driven over the Chrome DevTools
//! Protocol, opens the pages `deckmate web` serves for a league the binary simulated, and the
//! test checks what a person sees there (the standings as the console prints them, a match's
//! board picture), that the browser reports no error (console, script, failed load or Content
//! Security Policy violation), and saves screenshots of the pages.
//!
//! The browser: $CHROMIUM if set (a path, or a name looked up in PATH), else the first of
//! `chromium`, `chromium-browser` and `google-chrome` in PATH. Without one the test says it
//! skipped and passes, unless DECKMATE_BROWSER_REQUIRED=1 (CI sets it), when it fails.
//! CHROMIUM=none therefore means "no browser". Screenshots go to $BROWSER_SCREENSHOTS, else
//! to target/browser-screenshots/.
//!
//! Every wait has a generous time limit, only so that a stuck browser fails the test instead
//! of hanging it.

use serde_json::{Value, json};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// The longest one step (start a program, load a page, answer a command) may take.
const STEP: Duration = Duration::from_secs(30);
/// The browser's first start on a busy machine can be slow.
const BROWSER_START: Duration = Duration::from_secs(90);

const LEAGUE: &str = "Spring Club";

#[test]
fn a_visitor_sees_the_console_standings_and_a_board_in_a_real_browser() {
    let Some(browser) = find_browser() else {
        return;
    };
    let scratch = Scratch::new("deckmate-browser");
    let db = scratch.0.join("league.db");
    let db = db.to_str().expect("a UTF-8 temp path");

    // A finished round-robin season, and the standings as the console prints them.
    run_deckmate(&["league", LEAGUE, "create", "--game", "chess", "--db", db]);
    run_deckmate(&[
        "league",
        LEAGUE,
        "simulate",
        "--players",
        "8",
        "--seed",
        "3",
        "--db",
        db,
    ]);
    let standings = run_deckmate(&["league", LEAGUE, "standings", "--db", db]);
    let mut lines = standings.lines();
    let header = lines.next().expect("a header line");
    let console_rows: Vec<&str> = lines.take_while(|line| !line.is_empty()).collect();
    assert_eq!(console_rows.len(), 8, "one line a player:\n{standings}");
    let console_tiebreaks: Vec<&str> = header.split("  ").skip(3).collect();
    assert!(
        header.starts_with("rank  player  points  ") && !console_tiebreaks.is_empty(),
        "{standings}"
    );

    let server = Server::start(&scratch.0, db);
    let mut chromium = Browser::launch(&browser, &scratch.0.join("profile"));
    let mut cdp = Cdp::connect(&chromium.ws_url);
    let session = cdp.open_tab(&mut chromium);

    // The season page.
    let season_url = format!(
        "http://127.0.0.1:{}/s/local/leagues/{}/1",
        server.port,
        percent_encode(LEAGUE)
    );
    cdp.open(&session, &season_url, &mut chromium);
    let table = cdp.evaluate(
        &session,
        &mut chromium,
        r#"(() => {
            const table = document.querySelector("table.standings");
            if (!table) return null;
            const box = table.getBoundingClientRect();
            return {
                visible: box.width > 0 && box.height > 0,
                head: [...table.querySelectorAll("thead th")].map(th => th.innerText.trim()),
                rows: [...table.querySelectorAll("tbody tr")]
                    .map(tr => [...tr.cells].map(td => td.innerText.trim())),
            };
        })()"#,
    );
    assert!(
        table.is_object(),
        "no table.standings on {season_url}: {}",
        cdp.page_text(&session, &mut chromium)
    );
    assert_eq!(table["visible"], true, "the standings table is not shown");
    let head = strings(&table["head"]);
    assert_eq!(
        head.get(3..).unwrap_or_default(),
        console_tiebreaks.as_slice(),
        "the tiebreak columns, in the console's order: {head:?}"
    );
    let page_rows: Vec<String> = table["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            let cells = strings(row);
            assert!(cells.len() >= 3, "a standings row: {cells:?}");
            format!(
                "{:>4}  {}  {}  {}",
                cells[0],
                cells[1],
                cells[2],
                cells[3..].join("  ")
            )
        })
        .collect();
    assert_eq!(
        page_rows, console_rows,
        "the season page's standings, as the console prints them"
    );
    let season_errors = cdp.take_errors(&session, &mut chromium);
    let season_shot = cdp.screenshot(&session, &mut chromium);

    // The first match the season page links to.
    let match_url = cdp.evaluate(
        &session,
        &mut chromium,
        r#"document.querySelector("table.pairings a[href*='/matches/']")?.href ?? null"#,
    );
    let match_url = match_url
        .as_str()
        .unwrap_or_else(|| panic!("no match link in table.pairings on {season_url}"))
        .to_string();
    cdp.open(&session, &match_url, &mut chromium);
    let board = cdp.evaluate(
        &session,
        &mut chromium,
        r#"(() => {
            const img = document.querySelector("img.board");
            if (!img) return null;
            return {
                complete: img.complete,
                width: img.naturalWidth,
                height: img.naturalHeight,
                alt: img.getAttribute("alt"),
                src: img.currentSrc,
            };
        })()"#,
    );
    assert!(
        board.is_object(),
        "no img.board on {match_url}: {}",
        cdp.page_text(&session, &mut chromium)
    );
    assert_eq!(board["complete"], true, "the board did not load: {board}");
    assert!(
        board["width"].as_u64().unwrap_or(0) > 0 && board["height"].as_u64().unwrap_or(0) > 0,
        "the board picture is broken: {board}"
    );
    assert!(
        board["alt"]
            .as_str()
            .is_some_and(|alt| !alt.trim().is_empty()),
        "the board has no alt text: {board}"
    );
    let match_errors = cdp.take_errors(&session, &mut chromium);
    let match_shot = cdp.screenshot(&session, &mut chromium);

    let folder = screenshot_folder();
    for (name, png) in [
        ("season-page.png", &season_shot),
        ("match-page.png", &match_shot),
    ] {
        let path = folder.join(name);
        std::fs::write(&path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("browser screenshot: {}", path.display());
    }

    assert!(
        season_errors.is_empty() && match_errors.is_empty(),
        "the browser reported errors\non {season_url}:\n{}\non {match_url}:\n{}",
        season_errors.join("\n"),
        match_errors.join("\n")
    );

    // The error collection itself works: a picture from elsewhere breaks the pages' Content
    // Security Policy, and the browser says so.
    cdp.evaluate(
        &session,
        &mut chromium,
        r#"(() => {
            const img = document.createElement("img");
            img.src = "http://192.0.2.1/blocked.png";
            document.body.append(img);
            return new Promise(done => {
                img.onerror = img.onload = done;
                setTimeout(done, 5000);
            });
        })()"#,
    );
    let canary = cdp.wait_for_error(&session, &mut chromium);
    println!("the browser reports a blocked picture: {canary}");
    chromium.close(&mut cdp);
    assert!(
        canary.contains("Content Security Policy") || canary.contains("192.0.2.1"),
        "{canary}"
    );
}

/// The browser to drive, or None (after saying so) when the test is to be skipped.
fn find_browser() -> Option<PathBuf> {
    let required = std::env::var("DECKMATE_BROWSER_REQUIRED").is_ok_and(|v| v == "1");
    let found = match std::env::var_os("CHROMIUM").filter(|v| !v.is_empty()) {
        // A path is taken as it is; a bare name is looked up in PATH.
        Some(name) if Path::new(&name).components().count() > 1 => {
            let path = PathBuf::from(name);
            if path.is_file() {
                Ok(path)
            } else {
                Err(format!("CHROMIUM={} is not a file", path.display()))
            }
        }
        Some(name) => in_path(&name)
            .ok_or_else(|| format!("CHROMIUM={} is not in PATH", name.to_string_lossy())),
        None => ["chromium", "chromium-browser", "google-chrome"]
            .into_iter()
            .find_map(|name| in_path(name.as_ref()))
            .ok_or_else(|| "none of chromium, chromium-browser, google-chrome is in PATH".into()),
    };
    match found {
        Ok(path) => Some(path),
        Err(why) if required => panic!(
            "DECKMATE_BROWSER_REQUIRED=1 but there is no browser to run: {why} \
             (install Debian's chromium, or set CHROMIUM to a Chromium or Chrome binary)"
        ),
        Err(why) => {
            println!(
                "browser test skipped: no browser is installed ({why}); install chromium, or set \
                 CHROMIUM, to run it"
            );
            None
        }
    }
}

fn in_path(name: &std::ffi::OsStr) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

fn screenshot_folder() -> PathBuf {
    let folder = match std::env::var_os("BROWSER_SCREENSHOTS").filter(|v| !v.is_empty()) {
        Some(folder) => PathBuf::from(folder),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-screenshots"),
    };
    std::fs::create_dir_all(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    folder
}

/// Runs the binary to the end, in a folder with no .env file; its standard output.
fn run_deckmate(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_deckmate"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .env_remove("DISCORD_TOKEN")
        .env_remove("DEV_GUILD_ID")
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "deckmate {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// A fresh folder of the test's own, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temp folder");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child process killed when the test ends, passed or panicked.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `deckmate web` serving the league's database on a port of its choosing.
struct Server {
    port: u16,
    _child: Killed,
}

impl Server {
    fn start(scratch: &Path, db: &str) -> Self {
        let log = File::create(scratch.join("web.log")).expect("the server's log file");
        let mut child = Killed(
            Command::new(env!("CARGO_BIN_EXE_deckmate"))
                .args(["web", "--db", db, "--addr", "127.0.0.1:0"])
                .current_dir(std::env::temp_dir())
                .stdout(Stdio::piped())
                .stderr(log)
                .spawn()
                .expect("deckmate web starts"),
        );
        let stdout = child.0.stdout.take().expect("its output");
        let line = first_line(stdout).unwrap_or_else(|| {
            panic!(
                "deckmate web said nothing in {STEP:?}: {}",
                std::fs::read_to_string(scratch.join("web.log")).unwrap_or_default()
            )
        });
        // "Serving the pages of FILE at http://127.0.0.1:PORT/ (Ctrl-C stops)."
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("no address in deckmate web's line: {line}"));
        Server {
            port,
            _child: child,
        }
    }
}

/// The first line a program prints, waiting at most STEP; the rest is read and dropped.
fn first_line(stdout: ChildStdout) -> Option<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    rx.recv_timeout(STEP).ok()
}

/// A headless Chromium with remote debugging on a port of its choosing.
struct Browser {
    child: Killed,
    ws_url: String,
    /// Everything the browser printed on its standard error, for failure messages.
    stderr: mpsc::Receiver<String>,
    said: Vec<String>,
}

impl Browser {
    fn launch(binary: &Path, profile: &Path) -> Self {
        let mut command = Command::new(binary);
        command.args([
            "--headless=new",
            "--disable-gpu",
            // Containers give /dev/shm 64 MB; Chromium's shared memory then goes to /tmp.
            "--disable-dev-shm-usage",
            "--remote-debugging-port=0",
            "--no-first-run",
            "--no-default-browser-check",
            // No updates, sync or other calls home in a test (and none reach out of CI).
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-extensions",
            // Screenshots the same size on every machine, without scrollbars.
            "--window-size=1000,1400",
            "--force-device-scale-factor=1",
            "--hide-scrollbars",
        ]);
        command.arg(format!("--user-data-dir={}", profile.display()));
        // Chromium refuses to run as root (CI's containers) with its sandbox on.
        if is_root() {
            command.arg("--no-sandbox");
        }
        command.arg("about:blank");
        let mut child = Killed(
            command
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("{} does not start: {e}", binary.display())),
        );
        let stderr = child.0.stderr.take().expect("its standard error");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut browser = Browser {
            child,
            ws_url: String::new(),
            stderr: rx,
            said: Vec::new(),
        };
        let deadline = Instant::now() + BROWSER_START;
        while browser.ws_url.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            match browser.stderr.recv_timeout(left) {
                Ok(line) => {
                    if let Some(url) = line.strip_prefix("DevTools listening on ") {
                        browser.ws_url = url.trim().to_string();
                    }
                    browser.said.push(line);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => panic!(
                    "{} gave no DevTools address in {BROWSER_START:?}; it said:\n{}",
                    binary.display(),
                    browser.said.join("\n")
                ),
                Err(mpsc::RecvTimeoutError::Disconnected) => panic!(
                    "{} closed its standard error without a DevTools address ({}); it said:\n{}",
                    binary.display(),
                    browser.exit_status(),
                    browser.said.join("\n")
                ),
            }
        }
        browser
    }

    /// Asks the browser to quit, so that it ends its own helper processes, and waits a while
    /// for it (the guard kills it anyway).
    fn close(&mut self, cdp: &mut Cdp) {
        let _ = cdp.ws.send(Message::text(
            json!({"id": 0, "method": "Browser.close"}).to_string(),
        ));
        self.exit_status();
    }

    /// How the browser ended, waiting for it at most STEP.
    fn exit_status(&mut self) -> String {
        let deadline = Instant::now() + STEP;
        while Instant::now() < deadline {
            match self.child.0.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) => std::thread::sleep(Duration::from_millis(50)),
                Err(e) => return e.to_string(),
            }
        }
        format!("still running after {STEP:?}")
    }

    /// Panics, with what the browser said, if it has stopped.
    fn check_alive(&mut self) {
        if let Ok(Some(status)) = self.child.0.try_wait() {
            self.said.extend(self.stderr.try_iter());
            panic!(
                "the browser stopped ({status}); it said:\n{}",
                self.said.join("\n")
            );
        }
    }
}

fn is_root() -> bool {
    // The user id without a libc call: /proc/self/status' "Uid:" line (real, effective, ...).
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("Uid:"))?;
            Some(line.split_whitespace().nth(2)? == "0")
        })
        .unwrap_or(false)
}

/// A Chrome DevTools Protocol connection to the browser, with flattened sessions: a tab's
/// commands and events carry its sessionId.
struct Cdp {
    ws: WebSocket<TcpStream>,
    next_id: u64,
    /// Events read while waiting for something else, oldest first.
    events: VecDeque<Value>,
    /// What the pages reported as errors since the last `take_errors`.
    errors: Vec<String>,
}

impl Cdp {
    fn connect(ws_url: &str) -> Self {
        let host = ws_url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("not a ws:// address: {ws_url}"));
        let stream = TcpStream::connect(host).unwrap_or_else(|e| panic!("{host}: {e}"));
        // Reads wake up every second, so that waits can check their deadline and the browser.
        stream
            .set_read_timeout(Some(Duration::from_secs(1)))
            .expect("a read timeout");
        stream
            .set_write_timeout(Some(STEP))
            .expect("a write timeout");
        let (ws, _) = tungstenite::client(ws_url, stream)
            .unwrap_or_else(|e| panic!("the DevTools handshake with {ws_url}: {e}"));
        Cdp {
            ws,
            next_id: 0,
            events: VecDeque::new(),
            errors: Vec::new(),
        }
    }

    /// A new tab, attached, with its page, script and log events on.
    fn open_tab(&mut self, browser: &mut Browser) -> String {
        let target = self.call(
            None,
            "Target.createTarget",
            json!({"url": "about:blank"}),
            browser,
        );
        let target = target["targetId"].as_str().expect("a targetId").to_string();
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
            browser,
        );
        let session = attached["sessionId"]
            .as_str()
            .expect("a sessionId")
            .to_string();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            self.call(Some(&session), domain, json!({}), browser);
        }
        // The page's own size, whatever the headless window's frame takes from the window.
        self.call(
            Some(&session),
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1000, "height": 1400, "deviceScaleFactor": 1, "mobile": false}),
            browser,
        );
        session
    }

    /// Loads a page and waits for its load event (every picture and stylesheet fetched).
    fn open(&mut self, session: &str, url: &str, browser: &mut Browser) {
        self.events.clear();
        let navigated = self.call(Some(session), "Page.navigate", json!({"url": url}), browser);
        if let Some(error) = navigated.get("errorText") {
            panic!("{url} did not load: {error}");
        }
        self.wait_for_event(session, "Page.loadEventFired", browser)
            .unwrap_or_else(|| panic!("{url} did not finish loading in {STEP:?}"));
    }

    /// An expression's value (awaited if a promise); panics if it throws.
    fn evaluate(&mut self, session: &str, browser: &mut Browser, expression: &str) -> Value {
        let result = self.call(
            Some(session),
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            browser,
        );
        if let Some(details) = result.get("exceptionDetails") {
            panic!("{expression} threw: {details}");
        }
        result["result"]["value"].clone()
    }

    /// The page's visible text, for failure messages.
    fn page_text(&mut self, session: &str, browser: &mut Browser) -> String {
        self.evaluate(session, browser, "document.body?.innerText ?? ''")
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The errors the page reported so far. A command's answer comes after the events the
    /// page sent before it, so a last round trip collects whatever loading reported.
    fn take_errors(&mut self, session: &str, browser: &mut Browser) -> Vec<String> {
        self.evaluate(session, browser, "document.readyState");
        std::mem::take(&mut self.errors)
    }

    /// The next error the page reports (panics if none comes in STEP).
    fn wait_for_error(&mut self, session: &str, browser: &mut Browser) -> String {
        let deadline = Instant::now() + STEP;
        while self.errors.is_empty() {
            if Instant::now() > deadline {
                panic!("the page reported no error in {STEP:?}");
            }
            self.evaluate(session, browser, "0");
            if self.errors.is_empty() {
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        self.errors.join("\n")
    }

    /// A PNG picture of the tab's window.
    fn screenshot(&mut self, session: &str, browser: &mut Browser) -> Vec<u8> {
        let shot = self.call(
            Some(session),
            "Page.captureScreenshot",
            json!({"format": "png"}),
            browser,
        );
        let png = base64_decode(shot["data"].as_str().expect("screenshot data"));
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
        png
    }

    /// Sends a command and returns its result; events read meanwhile are kept.
    fn call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
        browser: &mut Browser,
    ) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.ws
            .send(Message::text(message.to_string()))
            .unwrap_or_else(|e| panic!("sending {method}: {e}"));
        let deadline = Instant::now() + STEP;
        loop {
            let Some(message) = self.read(deadline, browser) else {
                panic!("no answer to {method} in {STEP:?}");
            };
            if message["id"] == id {
                if let Some(error) = message.get("error") {
                    panic!("{method} failed: {error}");
                }
                return message["result"].clone();
            }
            self.keep(message);
        }
    }

    /// Waits for an event of the session (or one already read).
    fn wait_for_event(
        &mut self,
        session: &str,
        method: &str,
        browser: &mut Browser,
    ) -> Option<Value> {
        let matches = |event: &Value| event["method"] == method && event["sessionId"] == session;
        if let Some(at) = self.events.iter().position(matches) {
            return self.events.remove(at);
        }
        let deadline = Instant::now() + STEP;
        loop {
            let message = self.read(deadline, browser)?;
            if matches(&message) {
                return Some(message);
            }
            self.keep(message);
        }
    }

    /// Notes an event: an error goes to `errors`, anything else to `events`.
    fn keep(&mut self, event: Value) {
        let params = &event["params"];
        let error = match event["method"].as_str() {
            Some("Runtime.consoleAPICalled") if params["type"] == "error" => Some(format!(
                "console.error: {}",
                params["args"]
                    .as_array()
                    .map(|args| {
                        args.iter()
                            .map(|arg| match &arg["value"] {
                                Value::String(text) => text.clone(),
                                Value::Null => arg["description"].to_string(),
                                value => value.to_string(),
                            })
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .unwrap_or_default()
            )),
            Some("Runtime.exceptionThrown") => {
                let details = &params["exceptionDetails"];
                Some(format!(
                    "exception: {} {}",
                    details["text"].as_str().unwrap_or_default(),
                    details["exception"]["description"]
                        .as_str()
                        .unwrap_or_default()
                ))
            }
            Some("Log.entryAdded") if params["entry"]["level"] == "error" => {
                let entry = &params["entry"];
                Some(format!(
                    "log ({}): {} {}",
                    entry["source"].as_str().unwrap_or_default(),
                    entry["text"].as_str().unwrap_or_default(),
                    entry["url"].as_str().unwrap_or_default()
                ))
            }
            _ => None,
        };
        match error {
            Some(error) => self.errors.push(error),
            None => self.events.push_back(event),
        }
    }

    /// The next message, or None at the deadline; panics if the browser or connection dies.
    fn read(&mut self, deadline: Instant, browser: &mut Browser) -> Option<Value> {
        loop {
            match self.ws.read() {
                Ok(Message::Text(text)) => {
                    return Some(serde_json::from_str(text.as_str()).unwrap_or_else(|e| {
                        panic!("DevTools sent something not JSON ({e}): {}", text.as_str())
                    }));
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    browser.check_alive();
                    if Instant::now() >= deadline {
                        return None;
                    }
                }
                Err(e) => {
                    browser.check_alive();
                    panic!("the DevTools connection: {e}");
                }
            }
        }
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| item.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// A name as a URL path segment: every byte but the unreserved ones as %XX.
fn percent_encode(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Standard base64 (with padding), as DevTools sends screenshots.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {:?}", c as char),
        }
    };
    let text = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |bits, (i, &c)| bits | (value(c) << (18 - 6 * i)));
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

#[test]
fn base64_decodes_what_devtools_sends() {
    assert_eq!(base64_decode("TWFu"), b"Man");
    assert_eq!(base64_decode("TWE="), b"Ma");
    assert_eq!(base64_decode("TQ=="), b"M");
    assert_eq!(base64_decode(""), b"");
    assert_eq!(base64_decode("iVBORw0KGgo="), b"\x89PNG\r\n\x1a\n".to_vec());
}
