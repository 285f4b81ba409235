//! Ctrl-C for long runs. `watch()` replaces the default SIGINT action (end
//! the process at once) with a flag that the run checks between games; the
//! command then reports what it finished, marked partial, and exits 130.
//! A second Ctrl-C ends the process at once, for a run that is stuck.
//!
//! Only commands that check the flag call `watch()`: elsewhere SIGINT keeps
//! its default action, but for `play`, whose handler (`on_interrupt`) says
//! goodbye and ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

static STOP: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// Installs the handler (once) and returns the flag it sets. If no handler
/// can be installed the flag is never set, and Ctrl-C ends the process.
pub fn watch() -> &'static AtomicBool {
    INSTALLED.get_or_init(|| {
        ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                // The second Ctrl-C: the run did not stop; stop it now.
                std::process::exit(i32::from(super::exit_code::INTERRUPTED));
            }
        })
        .is_ok()
    });
    &STOP
}

/// Installs a handler (once) that calls `goodbye` and ends the process
/// with exit code 130, for a command that cannot check a flag (`play`
/// waits in a read of standard input). `false` if none could be installed:
/// Ctrl-C then ends the process as by default.
pub fn on_interrupt(goodbye: fn()) -> bool {
    *INSTALLED.get_or_init(|| {
        ctrlc::set_handler(move || {
            goodbye();
            std::process::exit(i32::from(super::exit_code::INTERRUPTED));
        })
        .is_ok()
    })
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    STOP.load(Ordering::SeqCst)
}
