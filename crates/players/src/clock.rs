//! Time, for the players that think against a time budget (ISMCTS with
//! `ismcts:200ms`) and the solver's report of how long it took. The rules
//! core reads no clock: a game is a function of its data, seed and choices.
//! Agents take a [`Clock`] so an application (or a test) decides where time
//! comes from; [`WallClock`] is the ordinary one.

use std::sync::Arc;
use std::time::{Duration, Instant};

/// A monotonic clock: time since some fixed origin of the clock's choosing.
pub trait Clock: Send + Sync {
    /// The time since the clock's origin.
    fn now(&self) -> Duration;
}

/// The machine's monotonic clock (`std::time::Instant`).
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    origin: Instant,
}

impl WallClock {
    /// A clock whose origin is now.
    pub fn new() -> WallClock {
        WallClock {
            origin: Instant::now(),
        }
    }

    /// A shared wall clock, for an agent.
    pub fn shared() -> Arc<dyn Clock> {
        Arc::new(WallClock::new())
    }
}

impl Default for WallClock {
    fn default() -> WallClock {
        WallClock::new()
    }
}

impl Clock for WallClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// Measures the time from its start on a [`Clock`].
pub struct Stopwatch<'a> {
    clock: &'a dyn Clock,
    start: Duration,
}

impl<'a> Stopwatch<'a> {
    /// A stopwatch started now on `clock`.
    pub fn start(clock: &'a dyn Clock) -> Stopwatch<'a> {
        Stopwatch {
            clock,
            start: clock.now(),
        }
    }

    /// The time since it was started.
    pub fn elapsed(&self) -> Duration {
        self.clock.now().saturating_sub(self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A clock a test moves by hand.
    struct Manual(AtomicU64);

    impl Clock for Manual {
        fn now(&self) -> Duration {
            Duration::from_millis(self.0.load(Ordering::Relaxed))
        }
    }

    #[test]
    fn a_stopwatch_measures_from_its_start_on_the_clock_it_is_given() {
        let c = Manual(AtomicU64::new(40));
        let w = Stopwatch::start(&c);
        assert_eq!(w.elapsed(), Duration::ZERO);
        c.0.store(65, Ordering::Relaxed);
        assert_eq!(w.elapsed(), Duration::from_millis(25));
    }
}
