//! Ctrl-C for long runs. `watch()` replaces the default SIGINT action (end
//! the process at once) with a flag that the run checks between games; the
//! command then reports what it finished, marked partial, and exits 130.
//! A second Ctrl-C ends the process at once, for a run that is stuck.
//!
//! SIGTERM is taken as Ctrl-C wherever Ctrl-C is (`terminate_as_interrupt`):
//! it is how Slurm, Kubernetes, `timeout` and `kill` stop a job, and a run
//! stopped so leaves its partial report too, not an empty file.
//!
//! Only commands that check the flag call `watch()`: elsewhere SIGINT keeps
//! its default action, but for `play`, whose handler (`on_interrupt`) says
//! goodbye and ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

static STOP: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<bool> = OnceLock::new();
/// Set when the stop came as SIGTERM, for the report's words.
static TERMINATED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once) and returns the flag it sets. If no handler
/// can be installed the flag is never set, and Ctrl-C ends the process.
pub fn watch() -> &'static AtomicBool {
    INSTALLED.get_or_init(|| {
        let installed = ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                // The second Ctrl-C: the run did not stop; stop it now.
                std::process::exit(i32::from(super::exit_code::INTERRUPTED));
            }
        })
        .is_ok();
        if installed {
            terminate_as_interrupt();
        }
        installed
    });
    &STOP
}

/// Installs a handler (once) that calls `goodbye` and ends the process
/// with exit code 130, for a command that cannot check a flag (`play`
/// waits in a read of standard input). `false` if none could be installed:
/// Ctrl-C then ends the process as by default.
pub fn on_interrupt(goodbye: fn()) -> bool {
    *INSTALLED.get_or_init(|| {
        let installed = ctrlc::set_handler(move || {
            goodbye();
            std::process::exit(i32::from(super::exit_code::INTERRUPTED));
        })
        .is_ok();
        if installed {
            terminate_as_interrupt();
        }
        installed
    })
}

/// Whether Ctrl-C was pressed (or SIGTERM came).
pub fn requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// What stopped the run, as a partial report names it: `Ctrl-C`, or
/// `SIGTERM` for a job stopped by its scheduler.
pub fn cause() -> &'static str {
    if TERMINATED.load(Ordering::SeqCst) {
        "SIGTERM"
    } else {
        "Ctrl-C"
    }
}

/// Makes SIGTERM do what Ctrl-C does, once the SIGINT handler is in place:
/// its handler notes the cause and raises SIGINT, so one handler thread
/// (ctrlc's) acts on both, the second signal of either kind included.
/// ctrlc's `termination` feature would take SIGHUP too, which `nohup`
/// ignores on purpose. A SIGTERM the parent set to be ignored stays so.
/// Best effort: without it SIGTERM ends the process as by default.
#[cfg(unix)]
fn terminate_as_interrupt() {
    use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};

    extern "C" fn forward(_: nix::libc::c_int) {
        // Only async-signal-safe work here: an atomic store and raise(3).
        TERMINATED.store(true, Ordering::SeqCst);
        let _ = nix::sys::signal::raise(Signal::SIGINT);
    }

    let action = SigAction::new(
        SigHandler::Handler(forward),
        SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    // SAFETY: `forward` does only async-signal-safe work (an atomic store
    // and `raise`), and no other code of the process handles SIGTERM.
    if let Ok(old) = unsafe { sigaction(Signal::SIGTERM, &action) } {
        if matches!(old.handler(), SigHandler::SigIgn) {
            // SAFETY: puts back the disposition the process started with.
            let _ = unsafe { sigaction(Signal::SIGTERM, &old) };
        }
    }
}

/// Elsewhere ctrlc takes the console's Ctrl-C and Ctrl-Break.
#[cfg(not(unix))]
fn terminate_as_interrupt() {}
