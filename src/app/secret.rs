//! Secrets from the operating system's randomness: game ids and seat
//! tokens of the studio, and the seeds of games nobody chose a seed for
//! (a seed derives every hidden card, so it must not be guessable from
//! the clock or a small range: issue 40).

/// A seed nobody chose: 53 bits, as many as a browser's numbers hold
/// exactly (the seed is shown at the end of the game, to be typed back),
/// and too many to find by dealing every seed and comparing with what a
/// seat sees.
pub fn random_seed() -> Result<u64, getrandom::Error> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b)?;
    Ok(u64::from_le_bytes(b) >> 11)
}

/// A random 128-bit secret in hex: session ids and seat tokens.
pub fn token() -> Result<String, getrandom::Error> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b)?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_fit_a_browser_number_and_tokens_are_128_bits() {
        let seeds: Vec<u64> = (0..64).map(|_| random_seed().unwrap()).collect();
        assert!(seeds.iter().all(|s| *s < 1 << 53));
        // 64 draws of 53 bits: all different, and not all small.
        let mut d = seeds.clone();
        d.sort_unstable();
        d.dedup();
        assert_eq!(d.len(), seeds.len());
        assert!(seeds.iter().any(|s| *s > 1 << 40));
        let t = token().unwrap();
        assert_eq!(t.len(), 32);
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
