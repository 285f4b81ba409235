//! Words for the engine's structured questions: the one place where an
//! [`Ask`] (what an instruction of a card's action asks for) or a
//! [`ChanceOf`] (what a random event decides) becomes English. The engine
//! hands out data; the terminal, scenario messages and error messages all
//! read their prompts from here.

use crate::game::engine::{Ask, ChanceOf};
use crate::game::program::{Amount, EvidenceFilter, Face, TokenSelector};

/// `n` things in words: "1 card", "3 cards".
pub fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// `text` as a message quotes it: whole if short, else its first 60
/// characters and `…` (a pasted megabyte or a runaway name in a data file
/// would otherwise fill the screen, once per message that names it).
pub fn clipped(text: &str) -> String {
    const MOST: usize = 60;
    match text.char_indices().nth(MOST) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// What a random event decides, in words ("evidence drawn from the bag").
pub fn chance(c: ChanceOf) -> &'static str {
    match c {
        ChanceOf::EvidenceDrawn => "evidence drawn from the bag",
        ChanceOf::CardDiscarded => "a random card discarded",
        ChanceOf::TopOfReshuffledDeck => "the card on top of the reshuffled deck",
        ChanceOf::CardDrawn => "the card drawn from the deck",
    }
}

/// The prompt for a choice inside a card's action, e.g. `move a face-down
/// evidence token 2 steps (1 of 2, or stop)`.
pub fn ask(a: &Ask) -> String {
    match a {
        Ask::Move {
            what,
            steps,
            count,
            up_to,
            done,
        } => {
            let steps = match steps {
                Amount::Fixed(n) => self::count(*n as usize, "step"),
                Amount::TriggerValue => "the answered card's value in steps".to_string(),
            };
            let which = if what.trigger_token {
                "the token the answered play was moving".to_string()
            } else {
                selector(what)
            };
            let more = if *count > 1 {
                format!(
                    " ({} of {count}{})",
                    done + 1,
                    if *up_to { ", or stop" } else { "" }
                )
            } else if *up_to {
                " (or stop)".to_string()
            } else {
                String::new()
            };
            format!("move {which} {steps}{more}")
        }
        Ask::Place { what, space } => format!("put {} on space {space}", selector(what)),
        Ask::TrackToBag { filter } => format!(
            "return {} from the research track to the bag",
            evidence(filter)
        ),
        Ask::PinFromTrack { filter } => format!(
            "take {} off the research track and pin it",
            evidence(filter)
        ),
        Ask::BoardToBag { filter } => format!(
            "return {} from the evidence board to the bag",
            evidence(filter)
        ),
        Ask::BoardToTrack { filter, space } => format!(
            "take {} off the evidence board to space {space} of the research track",
            evidence(filter)
        ),
        Ask::FlipOnBoard => "turn a face-down token on the evidence board face up".to_string(),
        Ask::UnpinPicture => "return a pinned picture to the supply".to_string(),
        Ask::ChooseCard { prompt } => prompt.clone(),
        Ask::Branch { prompt, labels } => format!("{prompt} ({})", labels.join(" / ")),
        Ask::Continue => "continue".to_string(),
    }
}

/// `a face-down green evidence token`.
pub fn evidence(f: &EvidenceFilter) -> String {
    let face = match f.face {
        Face::Any => "",
        Face::Up => "face-up ",
        Face::Down => "face-down ",
    };
    let colour = f.colour.map(|c| format!("{c} ")).unwrap_or_default();
    let article = if face.is_empty() && colour.is_empty() {
        "an"
    } else {
        "a"
    };
    format!("{article} {face}{colour}evidence token")
}

/// `the initiative token or a face-up evidence token`.
pub fn selector(s: &TokenSelector) -> String {
    let mut parts = Vec::new();
    if s.initiative {
        parts.push("the initiative token".to_string());
    }
    if s.momentum {
        parts.push("the momentum token".to_string());
    }
    if let Some(f) = &s.evidence {
        parts.push(evidence(f));
    }
    parts.join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::model::Colour;

    #[test]
    fn any_evidence_token_takes_an() {
        let any = EvidenceFilter {
            face: Face::Any,
            colour: None,
        };
        assert_eq!(evidence(&any), "an evidence token");
        let blue = EvidenceFilter {
            colour: Some(Colour::Blue),
            ..any
        };
        assert_eq!(evidence(&blue), "a blue evidence token");
    }

    #[test]
    fn a_move_of_several_tokens_says_which_one_and_that_the_player_may_stop() {
        let a = Ask::Move {
            what: TokenSelector {
                evidence: Some(EvidenceFilter {
                    face: Face::Down,
                    colour: Some(Colour::Green),
                }),
                ..Default::default()
            },
            steps: Amount::Fixed(2),
            count: 2,
            up_to: true,
            done: 1,
        };
        assert_eq!(
            ask(&a),
            "move a face-down green evidence token 2 steps (2 of 2, or stop)"
        );
    }

    #[test]
    fn one_of_a_thing_is_singular() {
        assert_eq!(count(1, "card"), "1 card");
        assert_eq!(count(0, "card"), "0 cards");
        let a = Ask::Move {
            what: TokenSelector::default(),
            steps: Amount::Fixed(1),
            count: 1,
            up_to: false,
            done: 0,
        };
        assert!(ask(&a).ends_with(" 1 step"), "{}", ask(&a));
    }

    #[test]
    fn a_branch_lists_the_scripts_labels() {
        let a = Ask::Branch {
            prompt: "Choose".into(),
            labels: vec!["move".into(), "draw".into()],
        };
        assert_eq!(ask(&a), "Choose (move / draw)");
    }
}
