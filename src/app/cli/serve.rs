//! `watergate serve`: the studio, a local web application on the engine
//! (src/server/). Loads the game first, then binds and prints its URL. A
//! game that does not load exits 2 before any port is opened, except a
//! `--data` folder whose every problem lies in one of its card or script
//! files: the workbench can fix those, so the studio starts, lists them on
//! every page, and deals new games with the shipped game until the folder
//! loads (a designer who saved a broken file can open the studio again to
//! mend it).

use super::{CliError, CliResult};
use crate::app::server::{self, play::Limits, ServeConfig};
use crate::data::GameSource;
use crate::diag::Diagnostics;
use clap::Args;
use std::net::IpAddr;
use std::path::Path;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one (the URL printed names it).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 8470,
        allow_negative_numbers = true
    )]
    pub port: u16,
    /// The address to listen on. Only loopback is safe: the studio has no
    /// accounts, and anyone who reaches it can play its games. On 0.0.0.0
    /// (or ::) it is opened by the machine's IP address; localhost is
    /// 127.0.0.1, and other host names are refused (against DNS rebinding).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1", value_parser = host)]
    pub host: IpAddr,
    /// Games open at once; when full, a new game takes the place of a
    /// finished one (the one looked at longest ago), else it is refused
    /// until one is closed or expires.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_games, value_parser = super::values::count_usize, allow_negative_numbers = true)]
    pub max_games: usize,
    /// Seconds a game may sit untouched before it is forgotten.
    #[arg(long, value_name = "N", default_value_t = Limits::default().idle.as_secs(), value_parser = super::values::count, allow_negative_numbers = true)]
    pub idle_timeout: u64,
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// `--host`: an IP address, or `localhost` (the loopback address, as its
/// help promises). Other names are refused: a name resolved at start could
/// name another machine later (DNS rebinding).
fn host(s: &str) -> Result<IpAddr, String> {
    if s.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::from([127, 0, 0, 1]));
    }
    s.parse::<IpAddr>().map_err(|_| {
        "expected an IP address (127.0.0.1, ::1, 0.0.0.0) or localhost; other host names are refused".to_string()
    })
}

pub fn run(args: &ServeArgs) -> CliResult {
    let source = args.game.source();
    let (rules, stand_in) = match source.rules() {
        Ok(rules) => (rules, false),
        Err(d) if fixable_in_the_workbench(&source, &d) => {
            super::report(&d, source.data.as_deref());
            super::output::errln!(
                "The studio starts anyway, so that its workbench can mend {}; new games use the shipped game until the folder loads.",
                if d.len() == 1 { "the file" } else { "the files" },
            );
            (GameSource::default().rules().map_err(CliError::Data)?, true)
        }
        Err(d) => return Err(CliError::Data(d)),
    };
    let cfg = ServeConfig {
        stand_in,
        source,
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

/// Whether every problem lies in a card or script file of the `--data`
/// folder, one the workbench opens (`cards/…/*.ron`, `scripts/…/*.rhai`):
/// not in a variant, not a missing file or folder, which it cannot fix.
fn fixable_in_the_workbench(source: &GameSource, d: &Diagnostics) -> bool {
    let Some(root) = &source.data else {
        return false;
    };
    let in_folder = |sub: &str, ext: &str, path: &Path| {
        path.is_file()
            && path.extension().is_some_and(|e| e == ext)
            && server::paths::within(&root.join(sub), path)
    };
    !d.is_empty()
        && d.iter().all(|diag| {
            let path = Path::new(&diag.path);
            in_folder("cards", "ron", path) || in_folder("scripts", "rhai", path)
        })
}
