//! `watergate serve`: the studio, a local web application on the engine
//! (src/server/). Loads the game first (a broken game exits 2 before any
//! port is opened), then binds and prints its URL.

use super::{CliError, CliResult};
use crate::app::server::{self, play::Limits, ServeConfig};
use clap::Args;
use std::net::IpAddr;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one (the URL printed names it).
    #[arg(long, value_name = "N", default_value_t = 8470)]
    pub port: u16,
    /// The address to listen on. Only loopback is safe: the studio has no
    /// accounts, and anyone who reaches it can play its games. On 0.0.0.0
    /// (or ::) it is opened by the machine's IP address; host names other
    /// than localhost are refused (against DNS rebinding).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Games open at once; more are refused until one ends or expires.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_games, value_parser = super::values::count_usize)]
    pub max_games: usize,
    /// Seconds a game may sit untouched before it is forgotten.
    #[arg(long, value_name = "N", default_value_t = Limits::default().idle.as_secs(), value_parser = super::values::count)]
    pub idle_timeout: u64,
    #[command(flatten)]
    pub game: super::GameArgs,
}

pub fn run(args: &ServeArgs) -> CliResult {
    let rules = args.game.rules()?;
    let cfg = ServeConfig {
        source: args.game.source(),
        host: args.host,
        port: args.port,
        limits: Limits {
            max_games: args.max_games,
            idle: Duration::from_secs(args.idle_timeout),
        },
    };
    let mut out = std::io::stdout();
    server::serve(cfg, rules, &mut out).map_err(CliError::Message)
}
