//! The random player: every legal option equally likely, from its own
//! seeded generator (never the game's).

use super::Agent;
use crate::game::engine::Choice;
use crate::game::view::View;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The `random` player: every option as likely as the others.
pub struct RandomAgent {
    rng: Pcg64Mcg,
}

impl RandomAgent {
    /// A random player whose picks follow from `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }

    /// A place among `n` options (`n` ≥ 1), each as likely to within
    /// n/2⁶⁴: a multiply-shift of one 64-bit draw, no division.
    pub fn pick(&mut self, n: usize) -> usize {
        (((self.rng.next_u64() as u128) * (n as u128)) >> 64) as usize
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn decide(&mut self, _view: &View, options: &[Choice]) -> Choice {
        options[self.pick(options.len())]
    }

    fn decide_index(&mut self, _view: &View, options: &[Choice]) -> Result<usize, Choice> {
        Ok(self.pick(options.len()))
    }

    fn is_blind(&self) -> bool {
        true
    }

    #[inline]
    fn pick_blind(&mut self, n: usize) -> Option<usize> {
        Some(self.pick(n))
    }
}
