//! The heuristic player: rules of thumb through a static judgement. For
//! each option it plays on its own follow-up decisions (the token to move,
//! the space to pin on…) greedily, in a few states sampled from its view,
//! and takes the option whose result judges best for it: pull the momentum
//! token, connect or block paths, keep reaction cards for their moment
//! (the judgement values holding them).

use super::eval::advantage;
use super::{note_script_error, Agent};
use crate::game::engine::{Actor, Choice, ScriptError};
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The `heuristic` player: each option played on greedily in a few states
/// sampled from its view, and judged by rules of thumb (the module's doc).
pub struct HeuristicAgent {
    rng: Pcg64Mcg,
    samples: usize,
    script_error: Option<ScriptError>,
}

impl HeuristicAgent {
    /// A heuristic player whose samples of the unseen follow from `seed`.
    pub fn new(seed: u64) -> HeuristicAgent {
        HeuristicAgent {
            rng: Pcg64Mcg::seed_from_u64(seed),
            samples: 2,
            script_error: None,
        }
    }
}

/// The best judgement `side` can reach from `s` by its own next decisions
/// (up to `depth` of them), stopping when someone else must decide.
fn best_follow_up(
    r: &Rules,
    s: &State,
    side: Side,
    depth: u32,
    failed: &mut Option<ScriptError>,
) -> f64 {
    let mut options = Vec::new();
    match s.legal(r, &mut options) {
        Some(Actor::Player(p)) if p == side && depth > 0 => options
            .iter()
            .map(|c| {
                let mut next = s.clone();
                match next.apply_unchecked(r, *c) {
                    Ok(()) => best_follow_up(r, &next, side, depth - 1, failed),
                    Err(e) => {
                        note_script_error(failed, e);
                        f64::NEG_INFINITY
                    }
                }
            })
            .fold(f64::NEG_INFINITY, f64::max),
        _ => advantage(r, s, side),
    }
}

impl Agent for HeuristicAgent {
    fn name(&self) -> String {
        "heuristic".into()
    }

    fn decide(&mut self, view: &View, options: &[Choice]) -> Choice {
        let r = view.rules();
        let side = view.side();
        let mut totals = vec![0.0; options.len()];
        for _ in 0..self.samples {
            let s = view.determinize(self.rng.next_u64());
            for (i, c) in options.iter().enumerate() {
                let mut next = s.clone();
                totals[i] += match next.apply_unchecked(r, *c) {
                    Ok(()) => best_follow_up(r, &next, side, 2, &mut self.script_error),
                    Err(e) => {
                        note_script_error(&mut self.script_error, e);
                        f64::NEG_INFINITY
                    }
                };
            }
        }
        // Ties go to the earlier option (deterministic).
        let mut best = 0;
        for i in 1..options.len() {
            if totals[i] > totals[best] + 1e-9 {
                best = i;
            }
        }
        options[best]
    }

    fn take_script_error(&mut self) -> Option<ScriptError> {
        self.script_error.take()
    }
}
