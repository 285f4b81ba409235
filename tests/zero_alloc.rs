//! Issue 16: an engine step and an ISMCTS decision never allocate on the
//! heap with the shipped game — the state's lists hold every card, frame
//! and token the game can put there inline (crates/core/src/game/state.rs), and the
//! search keeps its buffers. Counted exactly, by a global allocator that
//! counts the allocations of the thread that makes them (tests run on
//! threads of their own), so nothing here is timed.

use std::cell::Cell;
use std::ops::ControlFlow;
use watergate::game::engine::{Actor, Choice, Quiet};
use watergate::game::model::{BySide, Side};
use watergate::game::state::State;
use watergate::game::view::View;
use watergate::lab::driver::{play_out, OnDecision};
use watergate::players::agent::{Agent, Budget, IsmctsAgent, RandomAgent};

struct CountingAlloc;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: an allocation while the thread's locals are torn down
    // is not one of ours.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed on unchanged to the system allocator.
unsafe impl std::alloc::GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract for `alloc` is the system's; passed on unchanged.
        unsafe { std::alloc::System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract for `alloc_zeroed` is the system's; passed on unchanged.
        unsafe { std::alloc::System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: the caller's contract for `dealloc` is the system's; passed on unchanged.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's contract for `realloc` is the system's; passed on unchanged.
        unsafe { std::alloc::System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Allocations this thread made while `f` ran.
fn allocations_in<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = ALLOCATIONS.with(Cell::get);
    let r = f();
    (r, ALLOCATIONS.with(Cell::get) - before)
}

fn rules() -> watergate::game::rules::Rules {
    watergate::data::load(&watergate::data::DataSet::embedded()).expect("the shipped game loads")
}

#[test]
fn the_counter_sees_an_allocation() {
    let (_, n) = allocations_in(|| std::hint::black_box(vec![1u8; 10]));
    assert_eq!(n, 1);
}

/// 1,000 seeded random games, the long ones included (more than 24 cards
/// out of the game, six frames on the stack): no step allocates.
#[test]
fn no_engine_step_of_a_random_game_allocates() {
    let r = rules();
    let mut options = Vec::with_capacity(256);
    let (mut steps, mut longest_removed, mut deepest) = (0u64, 0, 0);
    for seed in 0..1000 {
        let mut s = State::new(&r, seed);
        let mut agent = RandomAgent::new(seed);
        let mut next = s.legal(&r, &mut options);
        while next.is_some() {
            let c = options[agent.pick(options.len())];
            let (result, n) = allocations_in(|| s.apply_next(&r, c, &mut options));
            assert_eq!(n, 0, "seed {seed}, step {steps}: {c:?} allocated {n} times");
            steps += 1;
            longest_removed = longest_removed.max(s.removed().len());
            deepest = deepest.max(s.stack().len());
            next = result.unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        }
    }
    // The games reached what used to spill the state's lists.
    assert!(
        longest_removed > 24,
        "longest removed pile {longest_removed}"
    );
    assert!(deepest > 4, "deepest stack {deepest}");
    assert!(steps > 100_000, "{steps} steps");
}

/// 1,000 seeded random games played on by place (`State::play_by_place`,
/// a decision at a time, as a random game in a simulation plays them
/// whole): no decision allocates.
#[test]
fn no_decision_by_place_allocates() {
    let r = rules();
    let mut buf = Vec::with_capacity(256);
    let mut decisions = 0u64;
    for seed in 0..1000 {
        let mut s = State::new(&r, seed);
        let mut agent = RandomAgent::new(seed);
        let mut pick = |_: Actor, n: usize| agent.pick(n);
        while !s.is_over() {
            let (result, n) =
                allocations_in(|| s.play_by_place(&r, 1, &mut pick, &mut buf, &mut Quiet));
            assert_eq!(
                n, 0,
                "seed {seed}, decision {decisions} allocated {n} times"
            );
            decisions += result.unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        }
    }
    assert!(decisions > 100_000, "{decisions} decisions");
}

/// An ISMCTS agent with an iteration budget decides without allocating:
/// every iteration determinizes (clones) the state, walks the tree and
/// plays out, and its first decision finds its buffers ready.
#[test]
fn no_ismcts_decision_allocates() {
    let r = rules();
    // Decision points of random games, every seventh.
    let mut points: Vec<(State, Side, Vec<Choice>)> = Vec::new();
    for seed in 0..4 {
        let mut s = State::new(&r, seed);
        let mut k = 0;
        let mut every_seventh = OnDecision(|s: &State, actor: Actor, options: &[Choice]| {
            if k % 7 == 0 && options.len() > 1 {
                if let Actor::Player(side) = actor {
                    points.push((s.clone(), side, options.to_vec()));
                }
            }
            k += 1;
            ControlFlow::Continue(())
        });
        let (mut e, mut n) = (RandomAgent::new(seed), RandomAgent::new(seed + 1));
        play_out(
            &r,
            &mut s,
            BySide::new(&mut e, &mut n),
            None,
            &mut every_seventh,
        )
        .expect("a random game plays out");
    }
    assert!(points.len() > 20, "{} decision points", points.len());
    let mut agent = IsmctsAgent::new(Budget::Iterations(300), 1);
    for (i, (s, side, options)) in points.iter().enumerate() {
        let view = View::new(&r, s, *side);
        let (_, n) = allocations_in(|| agent.decide(&view, options));
        assert_eq!(
            n,
            0,
            "decision {i} ({} options) allocated {n} times",
            options.len()
        );
    }
}

/// The room that holds all this inline stays within issue 16's budget of
/// 720 bytes (a search copies the state at every iteration).
#[test]
fn the_state_holds_it_in_at_most_720_bytes() {
    assert!(
        std::mem::size_of::<State>() <= 720,
        "{} bytes",
        std::mem::size_of::<State>()
    );
}
