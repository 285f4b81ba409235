//! Value parsers for the command line's numbers: each refuses a bad value
//! with a message saying what is expected (clap prints it after
//! "invalid value 'X' for '--flag <N>'").

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
    match s.trim().parse::<u64>() {
        Ok(0) => Err("expected at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err("expected a whole number of at least 1, like 1000".into()),
    }
}

/// A number of worker threads: at least 1.
pub fn threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("expected at least 1 thread (leave --threads out to use every core)".into()),
        Ok(n) => Ok(n),
        Err(_) => Err("expected a number of threads of at least 1, like 4".into()),
    }
}

/// A search depth in decisions: at least 1.
pub fn depth(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(0) => Err("expected at least 1 decision".into()),
        Ok(n) => Ok(n),
        Err(_) => Err("expected a whole number of decisions of at least 1, like 6".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_say_what_is_expected() {
        assert_eq!(seed("42"), Ok(42));
        assert!(seed("-1").unwrap_err().contains("a whole number from 0"));
        assert!(count("0").unwrap_err().contains("at least 1"));
        assert!(threads("0").unwrap_err().contains("at least 1 thread"));
        assert!(depth("x").unwrap_err().contains("decisions"));
        assert_eq!(threads("2"), Ok(2));
    }
}
