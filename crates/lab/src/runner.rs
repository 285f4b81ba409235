//! The one parallel runner: `n` indexed jobs on `threads` threads, whose
//! results reach the caller in index order. Jobs are claimed in index order
//! and every claimed job is finished, so whatever the thread count, and
//! however a run is stopped (the stop flag, or the sink asking to stop), the
//! caller has seen exactly jobs `0..k` for some `k`, in that order.
//!
//! Threads are started before any job: a run whose threads the system
//! refuses (a memory limit, a thread limit) plays nothing and says so,
//! rather than panicking or playing a part of its jobs.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};

/// The most worker threads a run may be asked for (`--threads`): far more
/// than any machine's cores, so that a typo (`-j 100000`) is refused rather
/// than tried, and few enough that the threads' stacks fit in memory.
pub const MAX_THREADS: usize = 1024;

/// The system would not start the worker threads a run asked for; no job
/// was run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadsRefused {
    /// The threads the run needed (its own included).
    pub asked: usize,
    /// The threads that had started when one was refused (its own included).
    pub started: usize,
    /// The system's reason.
    pub reason: String,
}

impl std::fmt::Display for ThreadsRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot start {} worker threads: the system refused one after {} had started ({}); no game was played: ask for fewer threads",
            self.asked, self.started, self.reason
        )
    }
}

impl std::error::Error for ThreadsRefused {}

/// Whether the workers may go: `None` while threads are being started,
/// then `Some(true)` (all started) or `Some(false)` (one was refused: the
/// started ones leave without claiming a job).
struct Gate {
    open: Mutex<Option<bool>>,
    changed: Condvar,
}

impl Gate {
    fn set(&self, go: bool) {
        if let Ok(mut g) = self.open.lock() {
            *g = Some(go);
        }
        self.changed.notify_all();
    }

    /// Waits for the decision; a poisoned lock counts as "stop".
    fn wait(&self) -> bool {
        let Ok(mut g) = self.open.lock() else {
            return false;
        };
        loop {
            match *g {
                Some(go) => return go,
                None => match self.changed.wait(g) {
                    Ok(next) => g = next,
                    Err(_) => return false,
                },
            }
        }
    }
}

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

/// Runs `job(0) .. job(n - 1)` on `threads` threads (at least one, and
/// never more than `n`: a thread with no job to claim is not started). The
/// calling thread is one of them.
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
///
/// `Err` when the system refuses to start a thread: then no job has run.
pub fn run_ordered<T, S>(
    n: u64,
    threads: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(u64) + Sync),
    job: impl Fn(u64) -> T + Sync,
    sink: S,
) -> Result<(), ThreadsRefused>
where
    T: Send,
    S: FnMut(u64, T) -> ControlFlow<()> + Send,
{
    run_with_stack(None, n, threads, stop, progress, job, sink)
}

/// `run_ordered` whose threads get `stack` bytes each (`None`: the
/// default): the tests ask for more than any system gives, to see a
/// refusal.
fn run_with_stack<T, S>(
    stack: Option<usize>,
    n: u64,
    threads: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(u64) + Sync),
    job: impl Fn(u64) -> T + Sync,
    sink: S,
) -> Result<(), ThreadsRefused>
where
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
    let threads = workers(threads, n);
    if threads == 1 {
        worker();
        return Ok(());
    }
    let gate = Gate {
        open: Mutex::new(None),
        changed: Condvar::new(),
    };
    std::thread::scope(|scope| {
        // `Builder::spawn_scoped` reports a refusal where `scope.spawn`
        // panics; the gate holds every started thread back until all are
        // started, so that a refusal leaves every job unplayed.
        for started in 1..threads {
            let builder = match stack {
                Some(bytes) => std::thread::Builder::new().stack_size(bytes),
                None => std::thread::Builder::new(),
            };
            let spawned = builder.spawn_scoped(scope, || {
                if gate.wait() {
                    worker();
                }
            });
            if let Err(e) = spawned {
                gate.set(false);
                return Err(ThreadsRefused {
                    asked: threads,
                    started,
                    reason: e.to_string(),
                });
            }
        }
        gate.set(true);
        worker();
        Ok(())
    })
}

/// The threads a run of `n` jobs on `threads` threads starts: at least one,
/// and never more than its jobs (more would only wait for nothing). A
/// report says this number, not the one asked for.
pub fn workers(threads: usize, n: u64) -> usize {
    threads
        .max(1)
        .min(usize::try_from(n).unwrap_or(usize::MAX).max(1))
}

/// `run_ordered` that keeps every result: the results of jobs `0..k`, in
/// index order (`k < n` only when `stop` was set); `Err` as `run_ordered`.
pub fn run_collect<T: Send>(
    n: u64,
    threads: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(u64) + Sync),
    job: impl Fn(u64) -> T + Sync,
) -> Result<Vec<T>, ThreadsRefused> {
    let mut out = Vec::new();
    run_ordered(n, threads, stop, progress, job, |_, r| {
        out.push(r);
        ControlFlow::Continue(())
    })?;
    Ok(out)
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
            })
            .unwrap();
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
            )
            .unwrap();
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
        })
        .unwrap();
        assert!(got.len() >= 51 && got.len() < 10_000, "{}", got.len());
        assert_eq!(got, (0..got.len() as u64).collect::<Vec<_>>());
        assert_eq!(finished.load(Ordering::SeqCst), got.len() as u64);
    }

    #[test]
    fn threads_the_system_refuses_leave_every_job_unplayed_and_say_so() {
        // A stack larger than any address space: the system refuses the
        // first thread asked of it.
        let played = AtomicU64::new(0);
        let refused = run_with_stack(
            Some(1 << 60),
            100,
            4,
            &AtomicBool::new(false),
            &no_progress,
            |_| played.fetch_add(1, Ordering::SeqCst),
            |_, _| ControlFlow::Continue(()),
        )
        .unwrap_err();
        assert_eq!(played.load(Ordering::SeqCst), 0);
        assert_eq!((refused.asked, refused.started), (4, 1));
        assert!(refused
            .to_string()
            .contains("cannot start 4 worker threads"));
    }

    #[test]
    fn a_run_starts_no_more_threads_than_jobs() {
        // One job and a thousand threads asked, with a stack no system
        // gives: the run plays its job on the calling thread, starting none.
        let got = run_collect_with_stack(1, 1000);
        assert_eq!(got, Ok(vec![0]));
        // Two jobs: one thread is started beside the caller's, and refused.
        let refused = run_collect_with_stack(2, 1000).unwrap_err();
        assert_eq!(refused.asked, 2);
    }

    fn run_collect_with_stack(n: u64, threads: usize) -> Result<Vec<u64>, ThreadsRefused> {
        let mut out = Vec::new();
        run_with_stack(
            Some(1 << 60),
            n,
            threads,
            &AtomicBool::new(false),
            &no_progress,
            |i| i,
            |_, r| {
                out.push(r);
                ControlFlow::Continue(())
            },
        )?;
        Ok(out)
    }
}
