//! Seeds and counts in the JSON API. A seed is any `u64`, and JavaScript's
//! numbers hold whole numbers exactly only up to 2^53: so the studio sends
//! seeds as decimal strings (`"18446744073709551615"`) and takes them as
//! strings or, for older pages and scripts, as JSON numbers. A seed or a
//! count that is not a whole number in range is refused (400) in words
//! that say what is allowed, not serde's "invalid type: floating point".
//!
//! Used as `#[serde(with = "numbers::seed")]`, `numbers::seed_opt`
//! (an optional seed, `null` when absent), and
//! `#[serde(deserialize_with = "numbers::count")]` for a number of games.

use serde::de::{self, Deserializer, Visitor};
use serde::Serializer;
use std::fmt;

/// What a seed may be, for messages.
pub const SEED_WORDS: &str =
    "a seed is a whole number from 0 to 18446744073709551615, best sent as a decimal string (\"12345\")";

/// A whole number read from a JSON number or a decimal string; `what`
/// says what is allowed, in the refusal.
struct Whole {
    what: &'static str,
}

impl Whole {
    fn refuse<E: de::Error>(&self, got: impl fmt::Display) -> E {
        E::custom(format!("{got} — {}", self.what))
    }
}

impl<'de> Visitor<'de> for Whole {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.what)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        Ok(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        u64::try_from(v).map_err(|_| self.refuse(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
        Err(self.refuse(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
        let t = v.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.refuse(format!("{v:?}")));
        }
        t.parse()
            .map_err(|_| self.refuse(format!("{v:?} is too large")))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<u64, E> {
        Err(self.refuse(v))
    }
}

/// A seed, sent as a decimal string, taken as a string or a number.
pub mod seed {
    use super::*;

    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(seed)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        d.deserialize_any(Whole { what: SEED_WORDS })
    }
}

/// An optional seed: `null` (or absent, with `#[serde(default)]`) is none.
pub mod seed_opt {
    use super::*;

    pub fn serialize<S: Serializer>(seed: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match seed {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        struct Opt;
        impl<'de> Visitor<'de> for Opt {
            type Value = Option<u64>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(SEED_WORDS)
            }
            fn visit_none<E: de::Error>(self) -> Result<Option<u64>, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Option<u64>, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<u64>, D::Error> {
                super::seed::deserialize(d).map(Some)
            }
        }
        d.deserialize_option(Opt)
    }
}

/// A number of games: a whole number (its range is checked where the
/// bounds are known, in words).
pub fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    d.deserialize_any(Whole {
        what: "games is a whole number of games, such as 200",
    })
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Deserialize, Serialize, Debug)]
    struct S {
        #[serde(with = "super::seed")]
        seed: u64,
        #[serde(default, with = "super::seed_opt")]
        maybe: Option<u64>,
        #[serde(default, deserialize_with = "super::count", skip_serializing)]
        games: u64,
    }

    fn read(json: &str) -> Result<S, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn seeds_go_as_strings_and_come_as_strings_or_numbers() {
        let big = u64::MAX;
        let s = read(&format!(
            r#"{{ "seed": "{big}", "maybe": "9007199254740993" }}"#
        ))
        .unwrap();
        assert_eq!((s.seed, s.maybe), (big, Some(9_007_199_254_740_993)));
        // Above 2^53 a JavaScript number would have lost the last digit;
        // the string keeps it, both ways.
        let out = serde_json::to_string(&s).unwrap();
        assert_eq!(
            out,
            format!(r#"{{"seed":"{big}","maybe":"9007199254740993"}}"#)
        );
        let s = read(r#"{ "seed": 7, "maybe": null, "games": "20" }"#).unwrap();
        assert_eq!((s.seed, s.maybe, s.games), (7, None, 20));
        assert_eq!(read(r#"{ "seed": 7 }"#).unwrap().maybe, None);
    }

    #[test]
    fn a_bad_seed_or_count_is_refused_saying_what_is_allowed() {
        for bad in [
            r#"{ "seed": -1 }"#,
            r#"{ "seed": 1.5 }"#,
            r#"{ "seed": "abc" }"#,
            r#"{ "seed": "" }"#,
            r#"{ "seed": "-3" }"#,
            r#"{ "seed": "18446744073709551616" }"#,
            r#"{ "seed": 1e30 }"#,
            r#"{ "seed": true }"#,
            r#"{ "seed": 1, "maybe": "x" }"#,
        ] {
            let e = read(bad).unwrap_err();
            assert!(
                e.contains("a seed is a whole number from 0 to"),
                "{bad}: {e}"
            );
        }
        let e = read(r#"{ "seed": 1, "games": 2.5 }"#).unwrap_err();
        assert!(e.contains("games is a whole number"), "{e}");
    }
}
