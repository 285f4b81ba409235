//! Standard output for commands. Every command writes through a locked
//! stdout with `writeln!(out, …)?`: an I/O error becomes a `CliError`, and
//! a closed pipe (`watergate cards | head`) becomes `CliError::Closed`,
//! which ends the command quietly with success — the reader has what it
//! wanted. `println!` would panic there instead.

use super::CliError;
use std::io::{self, Write};

/// The process's stdout, locked for the whole command (and so buffered by
/// line, not by call).
pub fn stdout() -> io::StdoutLock<'static> {
    io::stdout().lock()
}

/// Flushes stdout at the end of a command; a closed pipe is not an error.
pub fn flush() -> Result<(), CliError> {
    io::stdout().flush().map_err(CliError::from)
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::Closed
        } else {
            CliError::Message(format!("cannot write the output: {e}"))
        }
    }
}

/// `eprintln!` that never panics: a message for stderr, dropped if stderr
/// itself is closed (there is nobody left to tell).
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
pub(crate) use errln;
