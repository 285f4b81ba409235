//! A bounded load test of the studio over loopback: many games played to
//! the end at once by HTTP clients (the Editor's seat, choosing by a fixed
//! rule, against the random agent), each mirrored in the library so every
//! response is checked against the game it must be. Each game's client keeps
//! one connection open, as the page in a browser tab does (HTTP/1.1
//! keep-alive). Requests are bounded (a game ends; 5,000 choices at most)
//! and the run stops by itself.
//!
//! The default suite plays 20 games; the figures of BENCHMARKS.md come from
//! the ignored test: `cargo test --release --test studio studio_load:: -- --ignored --nocapture`.

use crate::common;

use common::http::KeepAlive;
use common::mirror::Mirror;
use common::server::Server;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use watergate::game::model::Side;

/// The test's choice at step `n` of game `seed`.
fn pick(seed: u64, n: u64, len: usize) -> usize {
    let mut z = (seed << 20 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z ^= z >> 31;
    (z % len as u64) as usize
}

struct GameResult {
    latencies: Vec<Duration>,
    choices: u64,
    /// TCP connections the game's client opened (1: kept alive throughout).
    connections: u32,
}

/// What the test reads of a seat's view (the rest of the answer is passed
/// over unparsed: the clients share the two cores with the server, and a
/// whole `Value` of every answer was most of their time).
#[derive(Deserialize)]
struct Seen {
    step: u64,
    hand: Vec<SeenCard>,
    decision: Option<SeenDecision>,
    outcome: Option<SeenOutcome>,
}

#[derive(Deserialize)]
struct SeenCard {
    id: String,
}

#[derive(Deserialize)]
struct SeenDecision {
    options: Vec<IgnoredAny>,
}

#[derive(Deserialize, Debug)]
struct SeenOutcome {
    winner: Side,
}

async fn post<T: DeserializeOwned>(
    conn: &mut KeepAlive,
    path: &str,
    seat: Option<&str>,
    body: Value,
) -> Result<(T, Duration), String> {
    let b = body.to_string();
    let headers: Vec<(&str, &str)> = seat.map(|s| vec![("X-Seat-Token", s)]).unwrap_or_default();
    let t = Instant::now();
    let r = conn
        .send("POST", path, &headers, b.as_bytes())
        .await
        .map_err(|e| format!("{path}: {e}"))?;
    let took = t.elapsed();
    if r.status >= 300 {
        return Err(format!("{path}: {} {}", r.status, r.body));
    }
    let v = serde_json::from_str(&r.body).map_err(|e| format!("{path}: {e}: {}", r.body))?;
    Ok((v, took))
}

/// One whole game; every answer is compared with the mirrored game.
async fn play(port: u16, seed: u64) -> Result<GameResult, String> {
    let mut latencies = Vec::new();
    let mut conn = KeepAlive::new(port);
    let (created, t): (Value, _) = post(
        &mut conn,
        "/api/games",
        None,
        json!({"mode": "editor", "ai": "random", "seed": seed}),
    )
    .await?;
    latencies.push(t);
    let id = created["game"].as_str().ok_or("no game id")?.to_string();
    let seat = created["seats"]["editor"]
        .as_str()
        .ok_or("no seat")?
        .to_string();
    let t = Instant::now();
    let r = conn
        .send(
            "GET",
            &format!("/api/games/{id}"),
            &[("X-Seat-Token", &seat)],
            b"",
        )
        .await
        .map_err(|e| e.to_string())?;
    latencies.push(t.elapsed());
    let mut view: Seen = serde_json::from_str(&r.body).map_err(|e| format!("{e}: {}", r.body))?;
    let mut m = Mirror::unwatched(seed, Some(Side::Nixon));
    let mut n = 0u64;
    loop {
        let (to_move, options) = m.options();
        // The page and the library agree on the position.
        let hand: Vec<String> = view.hand.iter().map(|c| c.id.clone()).collect();
        let want: Vec<String> = m
            .state
            .hand(Side::Editor)
            .iter()
            .map(|c| m.rules.card(*c).id.clone())
            .collect();
        if hand != want {
            return Err(format!(
                "game {seed}, choice {n}: hand {hand:?}, the game has {want:?}"
            ));
        }
        if to_move.is_none() {
            let winner = m.state.outcome().map(|o| o.winner);
            if winner.is_none() || winner != view.outcome.as_ref().map(|o| o.winner) {
                return Err(format!(
                    "game {seed}: outcome {:?} but the game's is {winner:?}",
                    view.outcome
                ));
            }
            return Ok(GameResult {
                latencies,
                choices: n,
                connections: conn.connections,
            });
        }
        let listed = &view
            .decision
            .as_ref()
            .ok_or_else(|| format!("game {seed}, choice {n}: no decision offered"))?
            .options;
        if listed.len() != options.len() {
            return Err(format!(
                "game {seed}, choice {n}: {} options offered, the game has {}",
                listed.len(),
                options.len()
            ));
        }
        let i = pick(seed, n, options.len());
        let (v, t) = post(
            &mut conn,
            &format!("/api/games/{id}/choose"),
            Some(&seat),
            json!({"option": i, "step": view.step, "since": 1_000_000}),
        )
        .await?;
        latencies.push(t);
        m.choose(i);
        view = v;
        n += 1;
        if n > 5000 {
            return Err(format!("game {seed} does not end"));
        }
    }
}

/// Plays `games` games at once; panics on any error; prints the figures.
fn run(games: u64) {
    let server = Server::start(&["--max-games", &(games + 10).to_string()]);
    let port = server.port;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let server_cpu = server.cpu_seconds();
    let client_cpu = common::server::cpu_seconds_of("/proc/self/stat");
    let start = Instant::now();
    let results: Vec<Result<GameResult, String>> = rt.block_on(async move {
        let tasks: Vec<_> = (0..games)
            .map(|g| tokio::spawn(play(port, 1000 + g)))
            .collect();
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap_or_else(|e| Err(format!("task: {e}"))));
        }
        out
    });
    let wall = start.elapsed();
    // CPU per request, of the server and of this test (the clients and
    // their mirrored games): what the two cores were busy with, whatever
    // else ran on them.
    let cpu_ms = |before: Option<f64>, after: Option<f64>, requests: usize| match (before, after) {
        (Some(b), Some(a)) => format!("{:.3} ms", (a - b) * 1e3 / requests as f64),
        _ => "unknown".to_string(),
    };
    let server_cpu_after = server.cpu_seconds();
    let client_cpu_after = common::server::cpu_seconds_of("/proc/self/stat");
    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(
        errors.is_empty(),
        "{} of {games} games failed; first: {}",
        errors.len(),
        errors[0]
    );
    let mut lat: Vec<Duration> = results
        .iter()
        .flat_map(|r| r.as_ref().unwrap().latencies.clone())
        .collect();
    // The games' first two requests (a new game, its first view) all come
    // at once at the start; apart, to see what the burst costs.
    let mut opening: Vec<Duration> = results
        .iter()
        .flat_map(|r| r.as_ref().unwrap().latencies[..2].to_vec())
        .collect();
    opening.sort();
    eprintln!(
        "the opening burst ({} requests): p50 {:.1} ms, max {:.1} ms",
        opening.len(),
        opening[opening.len() / 2].as_secs_f64() * 1e3,
        opening.last().unwrap().as_secs_f64() * 1e3
    );
    let choices: u64 = results.iter().map(|r| r.as_ref().unwrap().choices).sum();
    let connections: u32 = results
        .iter()
        .map(|r| r.as_ref().unwrap().connections)
        .sum();
    lat.sort();
    let q = |p: f64| lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)];
    println!(
        "{games} games at once, all to the end: {} requests ({choices} choices, {connections} connections) in {:.2} s = {:.0} requests/s, {:.1} games/s; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; CPU per request: server {}, clients {}",
        lat.len(),
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64(),
        games as f64 / wall.as_secs_f64(),
        q(0.50).as_secs_f64() * 1e3,
        q(0.99).as_secs_f64() * 1e3,
        lat.last().unwrap().as_secs_f64() * 1e3,
        cpu_ms(server_cpu, server_cpu_after, lat.len()),
        cpu_ms(client_cpu, client_cpu_after, lat.len()),
    );
}

#[test]
fn twenty_games_at_once_each_stays_consistent_to_the_end() {
    run(20);
}

#[test]
#[ignore = "the load test of BENCHMARKS.md: 200 games at once (about 15 s on 2 cores)"]
fn two_hundred_games_at_once_each_stays_consistent_to_the_end() {
    run(200);
}
