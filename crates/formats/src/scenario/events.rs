//! Events in a one-line notation, for scenario expectations (`events`,
//! `events_include`): the event's name, then its details in the notation of
//! choices and positions. `played nixon.howard_hunt action`,
//! `deck_reshuffled nixon`, `moved momentum 0 N2`, `pinned editor blue e1a up`,
//! `won nixon momentum`. Written text is compared word by word after
//! normalising kinds (`yellow/blue` = `blue/yellow`), positions (`e2` = `E2`)
//! and card ids (`howard_hunt` = `nixon.howard_hunt`), so short forms work.

use super::load::find_card;
use crate::game::engine::event::{Event, TokenKind};
use crate::game::engine::notation::{kind_name, parse_kind, parse_pos, pos_name};
use crate::game::model::*;
use crate::game::rules::Rules;

fn up(face_up: bool) -> &'static str {
    if face_up {
        "up"
    } else {
        "down"
    }
}

fn token(r: &Rules, t: TokenId) -> String {
    let k = r.token(t);
    kind_name(k.colours, k.momentum_symbol)
}

fn moving(r: &Rules, t: &TokenKind) -> String {
    match t {
        TokenKind::Initiative => "initiative".into(),
        TokenKind::Momentum => "momentum".into(),
        TokenKind::Evidence(t) => token(r, *t),
    }
}

/// An event in notation (full information: expectations see everything).
pub fn notation(r: &Rules, e: &Event) -> String {
    let card = |c: &CardId| r.card(*c).id.clone();
    let pic = |p: &PictureId| r.pictures[p.index()].name.to_lowercase().replace(' ', "_");
    match e {
        Event::RoundStarted { round, initiative } => {
            format!("round_started {round} {}", initiative.key())
        }
        Event::CardsDrawn { side, count } => format!("cards_drawn {} {count}", side.key()),
        Event::DeckReshuffled { side } => format!("deck_reshuffled {}", side.key()),
        Event::EvidenceDrawn {
            token: t,
            pos,
            face_up,
        } => format!(
            "evidence_drawn {} {} {}",
            token(r, *t),
            pos_name(*pos),
            up(*face_up)
        ),
        Event::Played {
            card: c,
            part,
            reaction,
            ..
        } => format!(
            "played {} {}{}",
            card(c),
            part.name(),
            if *reaction { " reaction" } else { "" }
        ),
        Event::DrewToPlay { card: c, .. } => format!("drew_to_play {}", card(c)),
        Event::AskedColour { colour, found } => format!(
            "asked {} {}",
            colour.name(),
            if *found { "found" } else { "not_found" }
        ),
        Event::Revealed { token: t } => format!("revealed {}", token(r, *t)),
        Event::Cancelled { card: c } => format!("cancelled {}", card(c)),
        Event::Moved { token: t, from, to } => {
            format!(
                "moved {} {} {}",
                moving(r, t),
                pos_name(*from),
                pos_name(*to)
            )
        }
        Event::Flipped { token: t } => format!("flipped {}", token(r, *t)),
        Event::Gained { side, token: t } => format!("gained {} {}", side.key(), moving(r, t)),
        Event::ToBag { token: t } => format!("to_bag {}", token(r, *t)),
        Event::Pinned {
            side,
            token: t,
            space,
            face_up,
        } => format!(
            "pinned {} {} {} {}",
            side.key(),
            token(r, *t),
            r.board.spaces[space.index()].id,
            up(*face_up)
        ),
        Event::Unpinnable { token: t } => format!("unpinnable {}", token(r, *t)),
        Event::PictureTaken {
            side,
            picture,
            face_up,
        } => format!(
            "picture_taken {} {} {}",
            side.key(),
            pic(picture),
            up(*face_up)
        ),
        Event::PictureReturned { picture } => format!("picture_returned {}", pic(picture)),
        Event::MomentumAwarded { side, space } => {
            format!("momentum_awarded {} {}", side.key(), *space as u16 + 1)
        }
        Event::MomentumReturned => "momentum_returned".into(),
        Event::MomentumRemoved => "momentum_removed".into(),
        Event::NewMomentum => "new_momentum".into(),
        Event::Discarded { card: c, .. } => format!("discarded {}", card(c)),
        Event::RemovedFromGame { card: c } => format!("removed {}", card(c)),
        Event::Forbidden { side } => format!("forbidden {}", side.key()),
        Event::ExtraTurn { side } => format!("extra_turn {}", side.key()),
        Event::CardPhaseEnded => "card_phase_ended".into(),
        Event::Won(o) => format!("won {} {}", o.winner.key(), o.cause.key()),
    }
}

/// A written event normalised for comparison (see the module comment).
pub fn normalise(r: &Rules, text: &str) -> String {
    let mut words = text.split_whitespace();
    let Some(name) = words.next() else {
        return String::new();
    };
    let mut out = vec![name.to_lowercase()];
    for w in words {
        let lw = w.to_lowercase();
        let n = if let Some((c, sym, None)) = parse_kind(&lw) {
            kind_name(c, sym)
        } else if lw.contains(['.', '_']) {
            match find_card(r, &lw) {
                Ok(c) => r.card(c).id.clone(),
                Err(_) => lw,
            }
        } else if lw.chars().next().is_some_and(|c| "en0".contains(c))
            && lw.len() <= 3
            && lw[1..].chars().all(|c| c.is_ascii_digit())
        {
            parse_pos(&lw).map(pos_name).unwrap_or(lw)
        } else {
            lw
        };
        out.push(n);
    }
    out.join(" ")
}
