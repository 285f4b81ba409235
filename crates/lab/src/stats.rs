//! Honest statistics for simulations: Wilson score intervals for win rates,
//! and paired differences for a variant against its baseline played on the
//! same seeds (common random numbers); and for the bench, the median of
//! repeated timings with their range (`Runs`).

use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// Wilson score interval for `successes` out of `n` (Wilson 1927): well
/// behaved near 0 and 1 and for small `n`, unlike the normal approximation.
pub fn wilson(successes: u64, n: u64, z: f64) -> Interval {
    if n == 0 {
        return Interval {
            estimate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let n_f = n as f64;
    let p = successes as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    Interval {
        estimate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Sums over paired games: d = (variant outcome) − (baseline outcome) for
/// the same seed, each outcome 1 if the Editor won, else 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paired {
    pub n: u64,
    /// Σd (may be negative).
    pub sum: i64,
    /// Σd² (the number of pairs that disagree).
    pub sum_sq: u64,
}

impl Paired {
    pub fn add(&mut self, variant_editor_won: bool, baseline_editor_won: bool) {
        let d = variant_editor_won as i64 - baseline_editor_won as i64;
        self.n += 1;
        self.sum += d;
        self.sum_sq += (d * d) as u64;
    }

    pub fn merge(&mut self, o: &Paired) {
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// The difference in the Editor's win rate (variant − baseline) with a
    /// 95% interval from the paired differences' standard error.
    pub fn difference(&self) -> Interval {
        if self.n < 2 {
            return Interval {
                estimate: 0.0,
                low: -1.0,
                high: 1.0,
            };
        }
        let n = self.n as f64;
        let mean = self.sum as f64 / n;
        let var = (self.sum_sq as f64 - n * mean * mean) / (n - 1.0);
        let se = (var.max(0.0) / n).sqrt();
        Interval {
            estimate: mean,
            low: (mean - Z95 * se).max(-1.0),
            high: (mean + Z95 * se).min(1.0),
        }
    }
}

/// The difference a − b of two proportions from separate samples, with
/// Newcombe's hybrid score interval built from their Wilson intervals
/// (Newcombe 1998, method 10): for per-card rates, whose games differ
/// between the two runs, so they cannot be paired.
pub fn newcombe(a: Interval, b: Interval) -> Interval {
    let d = a.estimate - b.estimate;
    Interval {
        estimate: d,
        low: d - ((a.estimate - a.low).powi(2) + (b.high - b.estimate).powi(2)).sqrt(),
        high: d + ((a.high - a.estimate).powi(2) + (b.estimate - b.low).powi(2)).sqrt(),
    }
}

/// Several timings of one figure. On a shared machine one run drifts by
/// ±10 % from the next, so a figure is the median of a few runs, printed
/// with its lowest and highest run.
#[derive(Clone, Debug)]
pub struct Runs(pub Vec<f64>);

impl Runs {
    pub fn median(&self) -> f64 {
        let mut v = self.0.clone();
        v.sort_by(f64::total_cmp);
        match v.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => v[n / 2],
            n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
        }
    }

    pub fn lowest(&self) -> f64 {
        self.0.iter().copied().fold(f64::INFINITY, f64::min)
    }

    pub fn highest(&self) -> f64 {
        self.0.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }

    /// `median (median of N runs: lowest to highest)`.
    pub fn describe(&self, what: &str) -> String {
        format!(
            "{:.0} (median of {} runs of {what}: {:.0} to {:.0})",
            self.median(),
            self.0.len(),
            self.lowest(),
            self.highest()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 50/100: centre 0.5, half 1.96·sqrt(0.0025 + 0.00009604)/1.038415 = 0.096170
        let i = wilson(50, 100, Z95);
        assert!(close(i.low, 0.403_832) && close(i.high, 0.596_168), "{i:?}");
        // 0/10: [0, z²/(n+z²)] = [0, 3.8415/13.8415]
        let i = wilson(0, 10, Z95);
        assert!(close(i.low, 0.0) && close(i.high, 0.277_533), "{i:?}");
        // 9/10: [0.595_843, 0.982_124]
        let i = wilson(9, 10, Z95);
        assert!(close(i.low, 0.595_843) && close(i.high, 0.982_124), "{i:?}");
    }

    #[test]
    fn paired_difference_matches_hand_computed_values() {
        // 10 pairs: 4 × (1,0), 1 × (0,1), 5 agree. d: +1 ×4, −1 ×1, 0 ×5.
        let mut p = Paired::default();
        for _ in 0..4 {
            p.add(true, false);
        }
        p.add(false, true);
        for _ in 0..3 {
            p.add(true, true);
        }
        for _ in 0..2 {
            p.add(false, false);
        }
        // mean 0.3; var = (5 − 10·0.09)/9 = 0.455556; se = sqrt(0.0455556) = 0.213437
        let i = p.difference();
        assert!(close(i.estimate, 0.3));
        assert!(close(i.low, 0.3 - Z95 * 0.213_437), "{i:?}");
        assert!(close(i.high, 0.3 + Z95 * 0.213_437), "{i:?}");
    }

    #[test]
    fn merging_paired_sums_is_exact() {
        let mut a = Paired::default();
        a.add(true, false);
        let mut b = Paired::default();
        b.add(false, true);
        b.add(true, true);
        a.merge(&b);
        assert_eq!(
            a,
            Paired {
                n: 3,
                sum: 0,
                sum_sq: 2
            }
        );
    }

    #[test]
    fn a_figure_is_the_median_of_its_runs_with_their_range() {
        let odd = Runs(vec![41_000.0, 33_000.0, 44_000.0, 36_000.0, 39_000.0]);
        assert_eq!(odd.median(), 39_000.0);
        assert_eq!(
            odd.describe("8000 games"),
            "39000 (median of 5 runs of 8000 games: 33000 to 44000)"
        );
        let even = Runs(vec![4.0, 1.0, 3.0, 2.0]);
        assert_eq!(even.median(), 2.5);
    }
}
