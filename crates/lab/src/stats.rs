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
    // With no successes (or no failures) the bound is exactly 0 (or 1):
    // `centre` and `half` are then equal in exact arithmetic, and their
    // difference in floating point was a bound of 5.55e-17 in reports.
    Interval {
        estimate: p,
        low: if successes == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        high: if successes == n {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

/// Sums over paired games: d = (variant outcome) − (baseline outcome) for
/// the same seed, each outcome 1 if the Editor won, else 0; and the same
/// for the games' lengths in rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paired {
    pub n: u64,
    /// Σd (may be negative).
    pub sum: i64,
    /// Σd² (the number of pairs that disagree).
    pub sum_sq: u64,
    /// Σ(variant rounds − baseline rounds) over the pairs. `None` in a
    /// report written before lengths were paired: a merge with it has no
    /// interval for the length (its pairs' spread is not known).
    #[serde(default)]
    pub rounds_sum: Option<i64>,
    /// Σ of the squares of those differences.
    #[serde(default)]
    pub rounds_sum_sq: Option<u64>,
}

impl Paired {
    /// One pair of games on the same seed: who won each, and their lengths.
    pub fn add(
        &mut self,
        (variant_editor_won, variant_rounds): (bool, u16),
        (baseline_editor_won, baseline_rounds): (bool, u16),
    ) {
        let d = variant_editor_won as i64 - baseline_editor_won as i64;
        let r = i64::from(variant_rounds) - i64::from(baseline_rounds);
        // A run's first pair starts the length sums; an old report's
        // (`None`, pairs already counted) stays without them.
        let fresh = self.n == 0;
        self.n += 1;
        self.sum += d;
        self.sum_sq += (d * d) as u64;
        if fresh {
            self.rounds_sum = Some(0);
            self.rounds_sum_sq = Some(0);
        }
        self.rounds_sum = self.rounds_sum.map(|s| s + r);
        self.rounds_sum_sq = self.rounds_sum_sq.map(|s| s + r.unsigned_abs().pow(2));
    }

    pub fn merge(&mut self, o: &Paired) {
        // Sums over no pair are 0, whether kept or not.
        let either = |a: Option<i64>, an: u64, b: Option<i64>, bn: u64| match (an, bn) {
            (0, _) => b,
            (_, 0) => a,
            _ => a.zip(b).map(|(a, b)| a + b),
        };
        self.rounds_sum = either(self.rounds_sum, self.n, o.rounds_sum, o.n);
        self.rounds_sum_sq = either(
            self.rounds_sum_sq.map(|s| s as i64),
            self.n,
            o.rounds_sum_sq.map(|s| s as i64),
            o.n,
        )
        .map(|s| s as u64);
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// The difference in mean game length in rounds (variant − baseline)
    /// with its 95% interval: the mean of the paired differences ± z times
    /// their standard error (lengths are many small counts, so the mean is
    /// near normal). `None` with fewer than two pairs, whose spread is
    /// unknown, or when the report did not keep the lengths' sums.
    pub fn rounds_difference(&self) -> Option<Interval> {
        let (sum, sum_sq) = (self.rounds_sum?, self.rounds_sum_sq?);
        if self.n < 2 {
            return None;
        }
        let n = self.n as f64;
        let mean = sum as f64 / n;
        let var = ((sum_sq as f64 - n * mean * mean) / (n - 1.0)).max(0.0);
        let half = Z95 * (var / n).sqrt();
        Some(Interval {
            estimate: mean,
            low: mean - half,
            high: mean + half,
        })
    }

    /// The difference in the Editor's win rate (variant − baseline) with
    /// its 95% interval: Tango's score interval for paired proportions
    /// (Tango 1998). It needs only the pairs that disagree and their
    /// number, is valid for small runs (three pairs that all disagree the
    /// same way do not make it leave out 0; the standard error's interval
    /// did), stays wider than a point when no pair disagrees, and leaves
    /// out 0 exactly when McNemar's score test rejects "no difference" at
    /// 5%.
    pub fn difference(&self) -> Interval {
        if self.n == 0 {
            return Interval {
                estimate: 0.0,
                low: -1.0,
                high: 1.0,
            };
        }
        let n = self.n as f64;
        // Pairs the variant won and the baseline lost, and the reverse.
        let gained = (self.sum_sq as i64 + self.sum) as f64 / 2.0;
        let lost = (self.sum_sq as i64 - self.sum) as f64 / 2.0;
        let estimate = (gained - lost) / n;
        // The score statistic at a difference `d`, which falls as `d`
        // grows: (gained − lost − n·d) over its standard error under `d`,
        // with the chance of a lost pair at its restricted maximum
        // likelihood (Tango's closed form).
        let score = |d: f64| {
            let a = 2.0 * n;
            let b = -gained - lost + (2.0 * n - gained + lost) * d;
            let c = -lost * d * (1.0 - d);
            let q = ((b * b - 4.0 * a * c).max(0.0).sqrt() - b) / (2.0 * a);
            let top = gained - lost - n * d;
            let var = n * (2.0 * q + d - d * d);
            if var > 0.0 {
                top / var.sqrt()
            } else if top == 0.0 {
                0.0
            } else {
                top.signum() * f64::INFINITY
            }
        };
        // Each bound where the score crosses ±z, by bisection between the
        // estimate and the end of the range.
        let bound = |from: f64, to: f64, z: f64| {
            if (score(to) - z) * (score(from) - z) > 0.0 {
                return to;
            }
            let (mut inside, mut outside) = (from, to);
            for _ in 0..100 {
                let mid = (inside + outside) / 2.0;
                if (score(mid) - z) * (score(inside) - z) > 0.0 {
                    inside = mid;
                } else {
                    outside = mid;
                }
            }
            (inside + outside) / 2.0
        };
        Interval {
            estimate,
            low: bound(estimate, -1.0, Z95),
            high: bound(estimate, 1.0, -Z95),
        }
    }
}

/// The z that a two-sided test at level `alpha` compares with: the
/// chance that a standard normal lies farther than z from 0 is `alpha`
/// (1.96 for 0.05). Found by bisection on the normal tail.
pub fn z_two_sided(alpha: f64) -> f64 {
    let tail = |z: f64| erfc(z / std::f64::consts::SQRT_2);
    let (mut low, mut high) = (0.0, 40.0);
    for _ in 0..100 {
        let mid = (low + high) / 2.0;
        if tail(mid) > alpha {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}

/// The complementary error function, to a relative error under 1.2e-7
/// (the Chebyshev fit of Numerical Recipes' `erfcc`): std has none.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * (-z * z + poly).exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
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
        // No successes, or no failures: the bound is exactly 0, or 1 (not
        // 5.55e-17 from a floating-point difference), for every n.
        for n in 1..200 {
            assert_eq!(wilson(0, n, Z95).low, 0.0, "0/{n}");
            assert_eq!(wilson(n, n, Z95).high, 1.0, "{n}/{n}");
        }
    }

    fn pairs(gained: u64, lost: u64, agree: u64) -> Paired {
        let mut p = Paired::default();
        for _ in 0..gained {
            p.add((true, 5), (false, 5));
        }
        for _ in 0..lost {
            p.add((false, 5), (true, 5));
        }
        for k in 0..agree {
            p.add((k % 2 == 0, 5), (k % 2 == 0, 5));
        }
        p
    }

    #[test]
    fn paired_difference_is_tango_s_score_interval() {
        // Values from a separate grid search over the score statistic
        // (steps of 0.00001).
        let near = |a: f64, b: f64| (a - b).abs() < 2e-5;
        // 10 pairs: 4 gained, 1 lost, 5 agree.
        let i = pairs(4, 1, 5).difference();
        assert!(close(i.estimate, 0.3));
        assert!(near(i.low, -0.15292) && near(i.high, 0.63978), "{i:?}");
        // 4000 pairs, 40 gained, 60 lost: as the standard error's interval,
        // nearly, and it leaves out 0.
        let i = pairs(40, 60, 3900).difference();
        assert!(near(i.low, -0.01006) && near(i.high, -0.00011), "{i:?}");
    }

    #[test]
    fn a_small_run_is_not_called_a_difference() {
        // Three pairs that all disagree the same way: McNemar's exact p is
        // 0.25; the interval keeps 0 (the standard error's was a point).
        let i = pairs(0, 3, 0).difference();
        assert!(close(i.estimate, -1.0) && close(i.low, -1.0), "{i:?}");
        assert!(i.high > 0.0 && (i.high - 0.12299).abs() < 2e-5, "{i:?}");
        // No pair disagrees: the interval is z²/(n + z²) either side of 0,
        // not the point 0.
        let i = pairs(0, 0, 500).difference();
        let w = Z95 * Z95 / (500.0 + Z95 * Z95);
        assert!(
            close(i.estimate, 0.0) && close(i.low, -w) && close(i.high, w),
            "{i:?}"
        );
        // One pair: its difference, not 0.
        let i = pairs(1, 0, 0).difference();
        assert!(
            close(i.estimate, 1.0) && close(i.high, 1.0) && i.low < 0.0,
            "{i:?}"
        );
    }

    #[test]
    fn z_for_a_level_is_the_normal_s() {
        assert!((z_two_sided(0.05) - Z95).abs() < 1e-5);
        // 0.05 over 40 tests (Bonferroni): 3.227218 (Python's
        // `statistics.NormalDist().inv_cdf(1 - 0.025 / 40)`).
        assert!((z_two_sided(0.05 / 40.0) - 3.227_218).abs() < 1e-5);
    }

    #[test]
    fn merging_paired_sums_is_exact() {
        let mut a = Paired::default();
        a.add((true, 6), (false, 4));
        let mut b = Paired::default();
        b.add((false, 3), (true, 5));
        b.add((true, 5), (true, 4));
        a.merge(&b);
        assert_eq!(
            a,
            Paired {
                n: 3,
                sum: 0,
                sum_sq: 2,
                rounds_sum: Some(1),
                rounds_sum_sq: Some(9),
            }
        );
        // A shard from before lengths were paired: no length interval.
        let mut old = Paired {
            n: 2,
            sum: 1,
            sum_sq: 1,
            rounds_sum: None,
            rounds_sum_sq: None,
        };
        old.merge(&a);
        assert_eq!(old.rounds_difference(), None);
    }

    #[test]
    fn the_difference_in_game_length_has_an_interval() {
        // Variant games one round longer in 3 of 4 pairs, one round
        // shorter in the fourth: mean +0.5, the differences' sd 1.
        let mut p = Paired::default();
        for (a, b) in [(6, 5), (6, 5), (6, 5), (4, 5)] {
            p.add((true, a), (true, b));
        }
        let i = p.rounds_difference().expect("two pairs or more");
        assert!(close(i.estimate, 0.5), "{i:?}");
        assert!(close(i.half_width(), Z95 * 1.0 / 2.0), "{i:?}");
        // One pair tells no spread.
        let mut one = Paired::default();
        one.add((true, 6), (true, 5));
        assert_eq!(one.rounds_difference(), None);
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
