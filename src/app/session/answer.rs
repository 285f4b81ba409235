//! Reading a player's answer to a decision: an option by its number, or a
//! choice in notation. The terminal, the studio's Play and the puzzles (at
//! the terminal and in the studio) all read answers here, so a number out
//! of range or a card that may not be played now is refused with the same
//! reason wherever the player typed or clicked it.

use crate::game::engine::notation::parse_choice;
use crate::game::engine::{Choice, PlayError};
use crate::game::model::{Part, Side};
use crate::game::rules::Rules;
use crate::game::state::State;

/// What a player answered: an option by its number, or a choice in
/// notation.
#[derive(Clone, Copy, Debug)]
pub enum Answer<'a> {
    /// The option's number as typed or sent, of any sign and size (the
    /// refusal repeats it as it came).
    Number(i128),
    Notation(&'a str),
}

impl<'a> Answer<'a> {
    /// A typed line: a whole number is an option's number, anything else
    /// notation.
    pub fn typed(text: &'a str) -> Answer<'a> {
        match text.parse::<i64>() {
            Ok(n) => Answer::Number(n.into()),
            Err(_) => Answer::Notation(text),
        }
    }
}

/// How a front end numbers the options, and who may be told why a card is
/// refused.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    /// The first option's number: 1 at the terminal, 0 in the studio's API
    /// (a page sends the option's index).
    pub first: usize,
    /// The deciding player, whose own hand may explain a refused card ("not
    /// now", with the engine's reason); only their own cards, so a refusal
    /// tells nothing of the opponent's hand. `None`: the notation's own
    /// message alone (a puzzle).
    pub explain: Option<Side>,
}

/// Why an answer names no option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A number out of the options' range.
    NoOption {
        number: i128,
        first: usize,
        last: usize,
    },
    /// A card of the player's own hand that may not be played so now: the
    /// engine's reason.
    NotNow(String),
    /// The notation's own message: no such option, or an ambiguous one.
    Notation(String),
}

impl std::fmt::Display for Refused {
    /// The reason in the words of a clause, as the studio's errors give it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NoOption {
                number,
                first,
                last,
            } => write!(
                f,
                "there is no option {number}: the options are numbered {first} to {last}"
            ),
            Refused::NotNow(reason) => write!(f, "not now: {reason}"),
            Refused::Notation(message) => f.write_str(message),
        }
    }
}

impl Refused {
    /// The reason as a sentence, as the terminal prints it (the
    /// notation's message is one already).
    pub fn sentence(&self) -> String {
        match self {
            Refused::Notation(message) => message.clone(),
            clause => super::sentence(&clause.to_string()),
        }
    }
}

/// The option `answer` names among `options` (those of the decision in
/// `s`), or why none.
pub fn choice(
    r: &Rules,
    s: &State,
    answer: Answer,
    options: &[Choice],
    reading: Reading,
) -> Result<Choice, Refused> {
    let text = match answer {
        Answer::Number(number) => {
            let first = reading.first;
            let place = usize::try_from(number)
                .ok()
                .and_then(|n| n.checked_sub(first))
                .filter(|i| *i < options.len());
            return match place {
                Some(i) => Ok(options[i]),
                None => Err(Refused::NoOption {
                    number,
                    first,
                    last: (first + options.len()).saturating_sub(1),
                }),
            };
        }
        Answer::Notation(text) => text,
    };
    parse_choice(r, s, text, options).map_err(|e| {
        let Some(side) = reading.explain else {
            return Refused::Notation(e);
        };
        // A card of the player's own hand that may not be played so now:
        // the engine says why.
        let own: Vec<Choice> = s
            .hand(side)
            .iter()
            .flat_map(|c| [Part::Value, Part::Action].map(|part| Choice::Play { card: *c, part }))
            .collect();
        match parse_choice(r, s, text, &own) {
            Ok(c) => match s.clone().apply(r, c) {
                Err(PlayError::Illegal(reason)) => Refused::NotNow(reason.to_string()),
                _ => Refused::Notation(e),
            },
            Err(_) => Refused::Notation(e),
        }
    })
}

#[cfg(all(test, feature = "shipped-data"))]
mod tests {
    use super::*;

    #[test]
    fn a_number_is_read_from_the_front_ends_first_option() {
        let r = crate::data::shipped();
        let s = State::new(&r, 7);
        let d = s.decision(&r).expect("a decision");
        let at = |first, number| {
            let reading = Reading {
                first,
                explain: None,
            };
            choice(&r, &s, Answer::Number(number), &d.options, reading)
        };
        assert_eq!(at(1, 1), Ok(d.options[0]));
        assert_eq!(at(0, 0), Ok(d.options[0]));
        let n = d.options.len();
        let refused = at(1, 0).unwrap_err();
        assert_eq!(
            refused.sentence(),
            format!("There is no option 0: the options are numbered 1 to {n}.")
        );
        assert_eq!(
            at(0, -3).unwrap_err().to_string(),
            format!(
                "there is no option -3: the options are numbered 0 to {}",
                n - 1
            )
        );
        assert!(matches!(Answer::typed("2"), Answer::Number(2)));
        assert!(matches!(Answer::typed("pass"), Answer::Notation("pass")));
    }
}
