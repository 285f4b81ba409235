//! The one parallel runner: `n` indexed jobs on `threads` threads, whose
//! results reach the caller in index order. Jobs are claimed in index order
//! and every claimed job is finished, so whatever the thread count, and
//! however a run is stopped (the stop flag, or the sink asking to stop), the
//! caller has seen exactly jobs `0..k` for some `k`, in that order.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// Results finished out of order, waiting for their turn.
struct Reorder<T, S> {
    next: u64,
    pending: BTreeMap<u64, T>,
    sink: S,
    stopped: bool,
}

impl<T, S: FnMut(u64, T) -> ControlFlow<()>> Reorder<T, S> {
    /// Hands result `k` (whose turn it is) to the sink; a sink that asks
    /// to stop sets `halted`, and the results waiting are dropped.
    fn deliver(&mut self, k: u64, result: T, halted: &AtomicBool) {
        self.next += 1;
        if (self.sink)(k, result).is_break() {
            self.stopped = true;
            self.pending.clear();
            halted.store(true, Ordering::SeqCst);
        }
    }
}

/// Runs `job(0) .. job(n - 1)` on `threads` threads (at least one).
///
/// - `sink` gets `(index, result)` in index order, one call at a time; it
///   returns `ControlFlow::Break` to stop the run (no job is started after
///   that and no further result reaches it).
/// - Once `stop` is set (Ctrl-C), no job is started; the jobs under way are
///   finished and passed to `sink`.
/// - `progress` gets the number of jobs finished so far, from any thread.
///
/// The results wait in a reorder buffer only until the jobs before them
/// finish, so memory does not grow with `n`.
pub fn run_ordered<T, S>(
    n: u64,
    threads: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(u64) + Sync),
    job: impl Fn(u64) -> T + Sync,
    sink: S,
) where
    T: Send,
    S: FnMut(u64, T) -> ControlFlow<()> + Send,
{
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let halted = AtomicBool::new(false);
    let order = Mutex::new(Reorder {
        next: 0,
        pending: BTreeMap::new(),
        sink,
        stopped: false,
    });
    let worker = || loop {
        if stop.load(Ordering::SeqCst) || halted.load(Ordering::SeqCst) {
            break;
        }
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= n {
            break;
        }
        let result = job(i);
        {
            let Ok(mut o) = order.lock() else { break };
            // The job whose turn it is goes straight to the sink (on one
            // thread, every job): the buffer holds only the jobs that
            // finished early.
            if o.next == i && o.pending.is_empty() {
                if !o.stopped {
                    o.deliver(i, result, &halted);
                }
            } else {
                o.pending.insert(i, result);
            }
            while !o.stopped {
                let k = o.next;
                let Some(r) = o.pending.remove(&k) else {
                    break;
                };
                o.deliver(k, r, &halted);
            }
        }
        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
    };
    let threads = threads.max(1);
    if threads == 1 {
        worker();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(worker);
            }
        });
    }
}

/// `run_ordered` that keeps every result: the results of jobs `0..k`, in
/// index order (`k < n` only when `stop` was set).
pub fn run_collect<T: Send>(
    n: u64,
    threads: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(u64) + Sync),
    job: impl Fn(u64) -> T + Sync,
) -> Vec<T> {
    let mut out = Vec::new();
    run_ordered(n, threads, stop, progress, job, |_, r| {
        out.push(r);
        ControlFlow::Continue(())
    });
    out
}

/// How many threads the machine runs at once (1 when it cannot tell): the
/// default number of workers of every parallel command.
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_progress(_: u64) {}

    #[test]
    fn results_come_in_index_order_whatever_the_threads() {
        for threads in [1, 2, 3, 8] {
            // Later jobs finish first, so a thread pool without reordering
            // would hand them over out of order.
            let got = run_collect(40, threads, &AtomicBool::new(false), &no_progress, |i| {
                std::thread::sleep(std::time::Duration::from_micros((40 - i) * 50));
                i * i
            });
            assert_eq!(got, (0..40).map(|i| i * i).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_sink_that_stops_sees_an_exact_prefix_and_nothing_after() {
        for threads in [1, 2, 4] {
            let mut seen = Vec::new();
            run_ordered(
                1000,
                threads,
                &AtomicBool::new(false),
                &no_progress,
                |i| i,
                |k, r| {
                    assert_eq!(k, r);
                    seen.push(r);
                    if r == 17 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            );
            assert_eq!(seen, (0..=17).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_stopped_run_is_exactly_the_first_jobs_and_counts_progress() {
        let stop = AtomicBool::new(false);
        let finished = AtomicU64::new(0);
        let progress = |d: u64| {
            finished.fetch_max(d, Ordering::SeqCst);
        };
        let got = run_collect(10_000, 2, &stop, &progress, |i| {
            if i == 50 {
                stop.store(true, Ordering::SeqCst);
            }
            i
        });
        assert!(got.len() >= 51 && got.len() < 10_000, "{}", got.len());
        assert_eq!(got, (0..got.len() as u64).collect::<Vec<_>>());
        assert_eq!(finished.load(Ordering::SeqCst), got.len() as u64);
    }
}
