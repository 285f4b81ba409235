//! Headless Chromium driven over WebDriver (fantoccini → Debian's
//! `/usr/bin/chromedriver` → `/usr/bin/chromium`), against a fresh
//! `watergate serve --port 0`.
//!
//! `run("name", &[serve args], |c, url| async move { … })` starts the
//! server, chromedriver on a free port and a browser with a fresh profile,
//! runs the body, and on failure (an `Err` or a panic) saves a screenshot
//! to `target/browser-failures/<name>.png` before failing the test.
//! Without Chromium the test prints a notice and passes, unless
//! `WATERGATE_REQUIRE_BROWSER=1` is set (CI), where a missing browser fails.

use super::server::Server;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Whether the tests must have a browser (CI sets this).
fn required() -> bool {
    std::env::var("WATERGATE_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

/// `true` when Chromium and chromedriver are installed; otherwise prints
/// why the test is skipped (or fails it when a browser is required).
pub fn available(test: &str) -> bool {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let msg = format!(
        "{test}: {} not installed (apt-get install chromium chromium-driver, or run .ci/install-browser)",
        missing.join(" and ")
    );
    assert!(!required(), "WATERGATE_REQUIRE_BROWSER=1 but {msg}");
    eprintln!("SKIPPED browser test {msg}");
    false
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

struct Driver {
    child: Child,
    port: u16,
    /// The browser's profile, and the temporary folder of chromedriver and
    /// the browser (`TMPDIR`): Chromium leaves `org.chromium.*` folders in
    /// it when it is killed, and they go with it (before, a suite run left
    /// hundreds in the system's temporary folder).
    scratch: tempfile::TempDir,
}

impl Driver {
    fn profile(&self) -> PathBuf {
        self.scratch.path().join("profile")
    }
}

impl Driver {
    /// Starts chromedriver on a free port. The port is free when picked but
    /// another process (a studio of a test running alongside, on `--port
    /// 0`) may take it before chromedriver binds it, and chromedriver then
    /// exits; so the port is asked whether it is chromedriver, and on any
    /// doubt a new port is tried.
    fn start() -> Driver {
        let mut last = String::new();
        for _ in 0..5 {
            match Driver::try_start() {
                Ok(d) => return d,
                Err(why) => last = why,
            }
        }
        panic!("chromedriver did not start: {last}");
    }

    fn try_start() -> Result<Driver, String> {
        let port = free_port();
        let scratch = tempfile::Builder::new()
            .prefix("watergate-chromium-")
            .tempdir()
            .expect("a folder for the browser");
        let tmp = scratch.path().join("tmp");
        std::fs::create_dir_all(&tmp).expect("a temporary folder for the browser");
        let mut child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .env("TMPDIR", &tmp)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        let ready = loop {
            if let Ok(Some(status)) = child.try_wait() {
                break Err(format!("it exited ({status}) on port {port}"));
            }
            if is_chromedriver(port) {
                break Ok(());
            }
            if Instant::now() >= deadline {
                break Err(format!("it did not answer on port {port}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let driver = Driver {
            child,
            port,
            scratch,
        };
        // Dropping the driver on failure stops its chromedriver.
        ready.map(|()| driver)
    }
}

/// Whether chromedriver answers on `port` (its `/status` says it is ready).
fn is_chromedriver(port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let request =
        format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    // Read until the answer says so: chromedriver may keep the connection
    // open after its reply.
    let mut reply = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if String::from_utf8_lossy(&reply).contains("\"ready\":true") {
            return true;
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return false,
            Ok(n) => reply.extend_from_slice(&chunk[..n]),
        }
    }
}

/// Stops chromedriver; its folder goes when `scratch` drops, after this.
impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn connect(d: &Driver, extra_args: &[&str]) -> Client {
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1100",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    args.push(format!("--user-data-dir={}", d.profile().display()));
    args.extend(extra_args.iter().map(|a| a.to_string()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({ "binary": CHROMIUM, "args": args }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", d.port))
        .await
        .expect("a browser session starts")
}

/// Where screenshots of failed browser tests go.
pub fn failure_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-failures")
}

/// Runs a browser test (see the module's description). The body gets the
/// browser and the studio's URL; `Err(message)` or a panic fails the test
/// after a screenshot.
pub fn run<F, Fut>(name: &str, serve_args: &[&str], body: F)
where
    F: FnOnce(Client, String) -> Fut,
    Fut: std::future::Future<Output = Result<(), String>> + Send + 'static,
{
    run_with(name, serve_args, &[], body)
}

/// [`run`] with Chromium started with `browser_args` as well (a
/// `--force-prefers-reduced-motion`, say).
pub fn run_with<F, Fut>(name: &str, serve_args: &[&str], browser_args: &[&str], body: F)
where
    F: FnOnce(Client, String) -> Fut,
    Fut: std::future::Future<Output = Result<(), String>> + Send + 'static,
{
    run_studio(name, serve_args, browser_args, |c, studio| {
        body(c, studio.url.clone())
    })
}

/// The studio a browser test runs against, which the test may stop
/// (`stop`: the server process is killed, as if its terminal were closed).
#[derive(Clone)]
pub struct Studio {
    server: std::sync::Arc<std::sync::Mutex<Option<Server>>>,
    /// `http://127.0.0.1:PORT/`
    pub url: String,
    pub port: u16,
}

impl Studio {
    /// Stops the server (kills it and waits for it); the page stays open.
    pub fn stop(&self) {
        let server = self.server.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(server);
    }
}

/// [`run_with`] whose body gets the [`Studio`], to stop it mid-test.
pub fn run_studio<F, Fut>(name: &str, serve_args: &[&str], browser_args: &[&str], body: F)
where
    F: FnOnce(Client, Studio) -> Fut,
    Fut: std::future::Future<Output = Result<(), String>> + Send + 'static,
{
    if !available(name) {
        return;
    }
    let server = Server::start(serve_args);
    let studio = Studio {
        url: server.url.clone(),
        port: server.port,
        server: std::sync::Arc::new(std::sync::Mutex::new(Some(server))),
    };
    let driver = Driver::start();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let outcome: Result<(), String> = rt.block_on(async {
        let client = connect(&driver, browser_args).await;
        let task = tokio::spawn(body(client.clone(), studio.clone()));
        let result = match task.await {
            Ok(r) => r,
            Err(e) if e.is_panic() => {
                let p = e.into_panic();
                Err(p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "the test panicked".into()))
            }
            Err(e) => Err(format!("the test's task failed: {e}")),
        };
        if result.is_err() {
            let dir = failure_dir();
            let _ = std::fs::create_dir_all(&dir);
            let file = dir.join(format!("{name}.png"));
            match client.screenshot().await {
                Ok(png) => match std::fs::write(&file, png) {
                    Ok(()) => eprintln!("screenshot of the failure: {}", file.display()),
                    Err(e) => eprintln!("cannot save the screenshot {}: {e}", file.display()),
                },
                Err(e) => eprintln!("cannot take a screenshot: {e}"),
            }
        }
        let _ = client.close().await;
        result
    });
    drop(driver);
    studio.stop();
    if let Err(e) = outcome {
        panic!("browser test {name} failed: {e}");
    }
}

/// The page's step counter (`data-step` of the play area), if shown.
pub async fn step(c: &Client) -> Option<String> {
    // One script, not a find and an attribute read: the whole-game tests
    // read it twice a click.
    let v = c
        .execute(
            "const p = document.querySelector('div.play'); \
             return p ? p.getAttribute('data-step') : null;",
            vec![],
        )
        .await
        .ok()?;
    v.as_str().map(str::to_string)
}

/// Waits in the page, up to 20 s (under WebDriver's script timeout of 30),
/// until `ready()` returns something other than `undefined`, then hands
/// it back; `{ waiting: true }` when it did not. Looking from inside the
/// page every 10 ms costs no WebDriver round trip per look (a whole game
/// clicked is 70 to 90 decisions, each waited on twice), and what it reads
/// comes from one moment of the page.
pub fn wait_in_page(ready: &str) -> String {
    format!(
        "const done = arguments[arguments.length - 1]; \
         const ready = () => {{ {ready} }}; \
         const until = performance.now() + 20000; \
         const look = () => {{ \
           let got; \
           try {{ got = ready(); }} catch (x) {{ got = {{ thrown: String(x) }}; }} \
           if (got !== undefined) done(got); \
           else if (performance.now() > until) done({{ waiting: true }}); \
           else setTimeout(look, 10); \
         }}; \
         look();"
    )
}

/// Waits until `check` gives `Some`, asking every 25 ms for up to `secs`
/// seconds: its value, or an error saying what was waited for.
pub async fn until<T, F, Fut>(what: &str, secs: u64, mut check: F) -> Result<T, String>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(t) = check().await {
            return Ok(t);
        }
        if Instant::now() > deadline {
            return Err(format!("timed out after {secs}s waiting for {what}"));
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Waits up to `secs` seconds for an element matching `css` to show some
/// text (`what` names it in the error): that text.
pub async fn shown_text(c: &Client, css: &str, what: &str, secs: u64) -> Result<String, String> {
    until(what, secs, || async {
        let t = c.find(Locator::Css(css)).await.ok()?.text().await.ok()?;
        (!t.is_empty()).then_some(t)
    })
    .await
}

/// Runs `script`, a page check that returns the problems it finds as a
/// list, until it finds none, for up to 5 s (the page refits after a
/// resize within a frame or two): an error saying `what` and the problems
/// last found otherwise.
pub async fn until_none_found(c: &Client, script: &str, what: &str) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let found = c.execute(script, vec![]).await.map_err(|x| x.to_string())?;
        if found.as_array().is_some_and(|a| a.is_empty()) {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{what}: {found}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Runs a [`wait_in_page`] script until it answers, up to 60 s.
pub async fn wait_for(
    c: &Client,
    script: &str,
    args: Vec<Value>,
    what: &str,
) -> Result<Value, String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let got = c
            .execute_async(script, args.clone())
            .await
            .map_err(|x| x.to_string())?;
        if let Some(thrown) = got.get("thrown") {
            return Err(format!("{what}: the page's script threw {thrown}"));
        }
        if got.get("waiting").is_none() {
            return Ok(got);
        }
        if Instant::now() > deadline {
            return Err(format!("{what}: nothing after 60 s"));
        }
    }
}

/// The element a script returned (WebDriver's element reference, keyed by
/// the W3C standard's web element identifier), bound to the browser again;
/// `None` for anything else.
pub fn element(c: &Client, v: &Value) -> Option<fantoccini::elements::Element> {
    let id = v.get("element-6066-11e4-a52e-4f735466cecf")?.as_str()?;
    Some(fantoccini::elements::Element::from_element_id(
        c.clone(),
        id.to_string().into(),
    ))
}

/// After click `clicks`: waits until the page's step counter differs from
/// `before` or `or_shown` matches an element (the game's end, a handover),
/// in one [`wait_in_page`] script; an error the page shows fails it.
pub async fn moved_on(
    c: &Client,
    before: &Option<String>,
    clicks: usize,
    or_shown: &str,
) -> Result<(), String> {
    let script = wait_in_page(
        "const p = document.querySelector('div.play'); \
         const step = p ? p.getAttribute('data-step') : null; \
         if (step !== arguments[0] || document.querySelector(arguments[1])) return 'moved'; \
         const m = document.querySelector('#message.error'); \
         if (m && m.innerText.trim()) return { error: m.innerText };",
    );
    let before = before.clone().map_or(Value::Null, Value::String);
    let got = wait_for(
        c,
        &script,
        vec![before, or_shown.into()],
        &format!("after click {clicks}"),
    )
    .await
    .map_err(|x| format!("the page did not change: {x}"))?;
    match got.get("error") {
        Some(text) => Err(format!(
            "the page shows an error after click {clicks}: {}",
            text.as_str().unwrap_or_default()
        )),
        None => Ok(()),
    }
}

/// Waits until `css` matches an element, up to `secs` seconds.
pub async fn wait_css(
    c: &Client,
    css: &str,
    secs: u64,
) -> Result<fantoccini::elements::Element, String> {
    // Looked for every 20 ms, not fantoccini's default 250 ms: a page that
    // answers in 50 ms was waited on for up to a quarter of a second, which
    // over the mined puzzles' hundreds of waits was 40 s of the suite.
    c.wait()
        .at_most(Duration::from_secs(secs))
        .every(Duration::from_millis(20))
        .for_element(Locator::Css(css))
        .await
        .map_err(|e| format!("no `{css}` after {secs}s: {e}"))
}

/// Saves a screenshot of the page (a PNG) at `path`.
/// With `WATERGATE_PAGE_SHOTS=DIR`, saves the page as `DIR/NAME.png`: the
/// pictures of docs/screenshots/ (shown in the README) are taken so, by the
/// tests that drive those pages; without it, does nothing.
pub async fn shot(c: &Client, name: &str) -> Result<(), String> {
    match std::env::var_os("WATERGATE_PAGE_SHOTS") {
        Some(dir) => {
            // The window from its top: the page bar and what is drawn first.
            c.execute("window.scrollTo(0, 0);", vec![])
                .await
                .map_err(|e| e.to_string())?;
            screenshot(c, &Path::new(&dir).join(format!("{name}.png"))).await
        }
        None => Ok(()),
    }
}

pub async fn screenshot(c: &Client, path: &Path) -> Result<(), String> {
    let png = c.screenshot().await.map_err(|e| e.to_string())?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))
}

/// Play shows each choice's result at once, with no moves played back
/// (assets/studio/motion.js keeps the player's speed in localStorage): the
/// tests that play games click on as soon as the table is drawn. Call on a
/// studio page, before the game starts.
pub async fn moves_off(c: &Client) -> Result<(), String> {
    c.execute("localStorage.setItem('watergate.speed', 'off')", vec![])
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Resizes the window until the page's viewport (`innerWidth` ×
/// `innerHeight`) is exactly `width` × `height`: the window's own frame,
/// if it has one, is added around it. The viewport is read once it has
/// settled (two reads alike): read while the last resize was still under
/// way, on a busy machine, it gave a frame so wrong that the next resize
/// made the window 608 × 636 on the way to 1440 × 900.
pub async fn viewport(c: &Client, width: u32, height: u32) -> Result<(), String> {
    let e = |x: fantoccini::error::CmdError| x.to_string();
    let read = || async {
        let v = c
            .execute("return [innerWidth, innerHeight]", vec![])
            .await
            .map_err(e)?;
        Ok::<_, String>((
            v[0].as_i64().unwrap_or(0) as i32,
            v[1].as_i64().unwrap_or(0) as i32,
        ))
    };
    let mut inner = (0, 0);
    for _ in 0..8 {
        inner = read().await?;
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(25)).await;
            let again = read().await?;
            if again == inner {
                break;
            }
            inner = again;
        }
        if inner == (width as i32, height as i32) {
            return Ok(());
        }
        let (w, h) = c.get_window_size().await.map_err(e)?;
        let grow =
            |outer: u64, want: u32, got: i32| (outer as i32 + want as i32 - got).max(100) as u32;
        c.set_window_size(grow(w, width, inner.0), grow(h, height, inner.1))
            .await
            .map_err(e)?;
    }
    Err(format!(
        "the viewport is {}×{}, not {width}×{height}",
        inner.0, inner.1
    ))
}
