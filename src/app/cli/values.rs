//! Value parsers for the command line's numbers: each refuses a bad value
//! with a message saying what is expected (clap prints it after
//! "invalid value 'X' for '--flag <N>'"). A number's arguments take
//! negative values (`allow_negative_numbers`), so that `--games -5` reaches
//! these parsers and is told it must be at least 1, rather than read as an
//! unknown flag `-5`.

/// The most worker threads `--threads` takes.
pub const MAX_THREADS: usize = crate::lab::runner::MAX_THREADS;

/// Why `s` is not a whole number in `0..=max`, in words; `least` is the
/// smallest allowed (for the message of a negative number or 0), `unit`
/// what is counted (" thread", "" for a bare count), `like` an example.
fn whole(s: &str, least: u64, max: u64, unit: &str, like: &str) -> Result<u64, String> {
    let s = s.trim();
    let plural = |n: u64| if n == 1 || unit.is_empty() { "" } else { "s" };
    let at_least = format!("must be at least {least}{unit}{}", plural(least));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    match s.parse::<u64>() {
        Ok(n) if n < least => Err(at_least),
        Ok(n) if n > max => Err(format!("too large: at most {max}{unit}{}", plural(max))),
        Ok(n) => Ok(n),
        // A minus sign before digits: a negative number, too small.
        Err(_) if s.strip_prefix('-').is_some_and(digits) => Err(at_least),
        // Digits that do not fit: too large, not too small.
        Err(_) if digits(s.strip_prefix('+').unwrap_or(s)) => {
            Err(format!("too large: at most {max}{unit}{}", plural(max)))
        }
        Err(_) => Err(format!(
            "expected a whole number of at least {least}{unit}{}, like {like}",
            plural(least)
        )),
    }
}

/// A seed: any whole number from 0 to 2^64 − 1.
pub fn seed(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| {
        format!(
            "expected a seed: a whole number from 0 to {}, like 42",
            u64::MAX
        )
    })
}

/// A count that must be at least 1 (games, positions, steps).
pub fn count(s: &str) -> Result<u64, String> {
    whole(s, 1, u64::MAX, "", "1000")
}

/// A count as a `usize` (at least 1).
pub fn count_usize(s: &str) -> Result<usize, String> {
    let max = u64::try_from(usize::MAX).unwrap_or(u64::MAX);
    whole(s, 1, max, "", "1000").map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// A number of worker threads: 1 to [`MAX_THREADS`].
pub fn threads(s: &str) -> Result<usize, String> {
    match whole(s, 1, MAX_THREADS as u64, " thread", "4") {
        Ok(n) => Ok(n as usize),
        Err(e) if e.starts_with("must be") => {
            Err(format!("{e} (leave --threads out to use every core)"))
        }
        Err(e) => Err(e),
    }
}

/// A search depth in decisions: at least 1.
pub fn depth(s: &str) -> Result<u32, String> {
    whole(s, 1, u64::from(u32::MAX), " decision", "6").map(|n| n as u32)
}

/// A half-width of a 95% interval (`--precision`): above 0 and below 0.5.
pub fn half_width(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if p > 0.0 && p < 0.5 => Ok(p),
        Ok(p) if p.is_nan() => Err("expected a half-width between 0 and 0.5, like 0.01".into()),
        Ok(p) if p <= 0.0 => Err("must be more than 0, like 0.01".into()),
        Ok(_) => {
            Err("must be less than 0.5 (a win rate's interval is within 0..1), like 0.01".into())
        }
        Err(_) => Err("expected a half-width between 0 and 0.5, like 0.01".into()),
    }
}

/// One agent (`mine --agents`, `--editor`, `--nixon`): a list, which
/// `ladder --agents` takes, is told where two agents go.
pub fn one_agent(s: &str) -> Result<crate::players::agent::AgentSpec, String> {
    if s.contains(',') {
        return Err(format!(
            "`{s}` is a list; this takes one agent (for two, give --editor AGENT and --nixon AGENT; `ladder --agents` takes a list)"
        ));
    }
    crate::players::agent::AgentSpec::parse(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_say_what_is_expected() {
        assert_eq!(seed("42"), Ok(42));
        assert!(seed("-1").unwrap_err().contains("a whole number from 0"));
        assert_eq!(count("0").unwrap_err(), "must be at least 1");
        assert!(threads("0").unwrap_err().contains("at least 1 thread"));
        assert!(depth("x").unwrap_err().contains("decision"));
        assert_eq!(threads("2"), Ok(2));
    }

    #[test]
    fn a_negative_count_is_too_small_and_a_huge_one_too_large() {
        assert_eq!(count("-5").unwrap_err(), "must be at least 1");
        assert_eq!(
            count("99999999999999999999").unwrap_err(),
            format!("too large: at most {}", u64::MAX)
        );
        assert_eq!(
            threads("100000").unwrap_err(),
            "too large: at most 1024 threads"
        );
        assert_eq!(threads("1024"), Ok(1024));
        assert!(depth("-1")
            .unwrap_err()
            .starts_with("must be at least 1 decision"));
        assert_eq!(
            count("twelve").unwrap_err(),
            "expected a whole number of at least 1, like 1000"
        );
        assert!(half_width("-0.1")
            .unwrap_err()
            .starts_with("must be more than 0"));
        assert_eq!(half_width("0.01"), Ok(0.01));
    }
}
