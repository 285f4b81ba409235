//! A `watergate serve --port 0` child process for one test: started from
//! the built binary, its URL read from its first line, killed when dropped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    /// Kept open so the server's later lines never meet a closed pipe.
    _stdout: BufReader<std::process::ChildStdout>,
    /// `http://127.0.0.1:PORT/`
    pub url: String,
    pub port: u16,
}

impl Server {
    /// Starts the studio with extra arguments (`--data DIR`, `--max-games N`…).
    pub fn start(args: &[&str]) -> Server {
        Server::start_in(None, args)
    }

    /// [`Server::start`] with environment variables set (`XDG_DATA_HOME`…).
    pub fn start_with(args: &[&str], env: &[(&str, &std::path::Path)]) -> Server {
        Server::launch(None, args, env)
    }

    /// The studio started in folder `cwd` (the test's own when `None`): an
    /// installed binary run from anywhere.
    pub fn start_in(cwd: Option<&std::path::Path>, args: &[&str]) -> Server {
        Server::launch(cwd, args, &[])
    }

    fn launch(
        cwd: Option<&std::path::Path>,
        args: &[&str],
        env: &[(&str, &std::path::Path)],
    ) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_watergate"));
        if let Some(dir) = cwd {
            command.current_dir(dir);
        }
        let mut child = command
            .args(["serve", "--port", "0"])
            .args(args)
            .envs(env.iter().map(|(k, v)| (*k, *v)))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the watergate binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut first = String::new();
        let mut stdout = BufReader::new(stdout);
        stdout.read_line(&mut first).expect("serve prints its URL");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in serve's first line: {first:?}"))
            .to_string();
        let port = url
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("a port in the URL");
        Server {
            child,
            _stdout: stdout,
            url,
            port,
        }
    }

    /// The CPU time the server process has used so far, all its threads
    /// (user and system), from `/proc`; `None` off Linux.
    pub fn cpu_seconds(&self) -> Option<f64> {
        cpu_seconds_of(&format!("/proc/{}/stat", self.child.id()))
    }

    /// `host:port` as the Host header names this server.
    pub fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// User plus system CPU seconds of the process whose `/proc/…/stat` is at
/// `path` (`/proc/self/stat` for the test itself). The kernel counts them in
/// clock ticks of 1/100 s (`USER_HZ`, 100 on Linux's usual builds).
pub fn cpu_seconds_of(path: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The command name (field 2) may hold spaces: count from its `)`.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after `)`.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}
