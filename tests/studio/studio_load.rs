//! A bounded load test of the studio over loopback: many games played to
//! the end at once by HTTP clients (the Editor's seat, choosing by a fixed
//! rule, against the random agent), each mirrored in the library so every
//! response is checked against the game it must be. Requests are bounded
//! (a game ends; 5,000 choices at most) and the run stops by itself.
//!
//! The default suite plays 20 games; the figures of BENCHMARKS.md come from
//! the ignored test: `cargo test --release --test studio studio_load:: -- --ignored --nocapture`.

use crate::common;

use common::http::send_async;
use common::mirror::Mirror;
use common::server::Server;
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
}

async fn post(
    port: u16,
    path: &str,
    seat: Option<&str>,
    body: Value,
) -> Result<(Value, Duration), String> {
    let b = body.to_string();
    let headers: Vec<(&str, &str)> = seat.map(|s| vec![("X-Seat-Token", s)]).unwrap_or_default();
    let t = Instant::now();
    let r = send_async(port, "POST", path, &headers, b.as_bytes())
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
    let (created, t) = post(
        port,
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
    let r = send_async(
        port,
        "GET",
        &format!("/api/games/{id}"),
        &[("X-Seat-Token", &seat)],
        b"",
    )
    .await
    .map_err(|e| e.to_string())?;
    latencies.push(t.elapsed());
    let mut view: Value = serde_json::from_str(&r.body).map_err(|e| format!("{e}: {}", r.body))?;
    let mut m = Mirror::new(seed, Some(Side::Nixon));
    let mut n = 0u64;
    loop {
        let (to_move, options) = m.options();
        // The page and the library agree on the position.
        let hand: Vec<String> = view["hand"]
            .as_array()
            .ok_or("no hand")?
            .iter()
            .map(|c| c["id"].as_str().unwrap_or("").to_string())
            .collect();
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
            let winner = m.state.outcome().map(|o| json!(o.winner));
            if winner.as_ref() != Some(&view["outcome"]["winner"]) {
                return Err(format!(
                    "game {seed}: outcome {} but the game's is {winner:?}",
                    view["outcome"]
                ));
            }
            return Ok(GameResult {
                latencies,
                choices: n,
            });
        }
        let listed = view["decision"]["options"]
            .as_array()
            .ok_or_else(|| format!("game {seed}, choice {n}: no decision offered: {view}"))?;
        if listed.len() != options.len() {
            return Err(format!(
                "game {seed}, choice {n}: {} options offered, the game has {}",
                listed.len(),
                options.len()
            ));
        }
        let i = pick(seed, n, options.len());
        let (v, t) = post(
            port,
            &format!("/api/games/{id}/choose"),
            Some(&seat),
            json!({"option": i, "step": view["step"], "since": 1_000_000}),
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
    let choices: u64 = results.iter().map(|r| r.as_ref().unwrap().choices).sum();
    lat.sort();
    let q = |p: f64| lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)];
    println!(
        "{games} games at once, all to the end: {} requests ({choices} choices) in {:.2} s = {:.0} requests/s, {:.1} games/s; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        lat.len(),
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64(),
        games as f64 / wall.as_secs_f64(),
        q(0.50).as_secs_f64() * 1e3,
        q(0.99).as_secs_f64() * 1e3,
        lat.last().unwrap().as_secs_f64() * 1e3,
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
