//! Invariants that hold after every step of every game: nothing created or
//! lost. Used by the conservation tests and the soak command.

use crate::game::model::*;
use crate::game::rules::{Rules, SpaceKind};
use crate::game::state::*;

/// Every evidence token, momentum token, picture and player card is in
/// exactly one place, and the engine's bookkeeping agrees with itself.
pub fn conservation(r: &Rules, s: &State) -> Result<(), String> {
    // Evidence (36 in the shipped data).
    if s.evidence.len() != r.evidence.len() {
        return Err(format!(
            "{} evidence locations for {} tokens",
            s.evidence.len(),
            r.evidence.len()
        ));
    }
    let mut on_track = 0;
    let mut in_bag = 0;
    let mut held = 0;
    let mut board = vec![0u8; r.board.spaces.len()];
    for (i, loc) in s.evidence.iter().enumerate() {
        let t = TokenId(i as u8);
        match *loc {
            EvLoc::Track {
                pos,
                face_up,
                ruled_out,
            } => {
                on_track += 1;
                if pos.abs() >= r.numbers.track_length {
                    return Err(format!(
                        "evidence {i} at {pos}, at or beyond the last space"
                    ));
                }
                // What a vain ask told (R5.6) is true, and only kept face down.
                if (face_up && !ruled_out.is_empty()) || r.token(t).colours.intersects(ruled_out) {
                    return Err(format!(
                        "evidence {i} (face up: {face_up}) said to lack colours {:#b} wrongly",
                        ruled_out.0
                    ));
                }
                if !s.track.contains(&t) {
                    return Err(format!("evidence {i} on the track but in no slot"));
                }
            }
            EvLoc::Bag => {
                in_bag += 1;
                if !s.bag.contains(&t) {
                    return Err(format!("evidence {i} in the bag but not in the bag list"));
                }
            }
            EvLoc::Board { space, .. } => {
                board[space.index()] += 1;
                match r.board.spaces.get(space.index()).map(|sp| sp.kind) {
                    Some(SpaceKind::Evidence(c)) if r.token(t).colours.contains(c) => {}
                    _ => {
                        return Err(format!(
                            "evidence {i} pinned on space {} that does not match",
                            space.0
                        ))
                    }
                }
            }
            EvLoc::Held => held += 1,
            EvLoc::Reserve => {}
        }
    }
    kept_board_sets(s)?;
    kept_track_sets(s)?;
    kept_supply_mask(s)?;
    if s.track.len() != on_track {
        return Err(format!(
            "{} track slots for {on_track} tokens on the track",
            s.track.len()
        ));
    }
    if s.bag.len() != in_bag {
        return Err(format!(
            "{} bag entries for {in_bag} tokens in the bag",
            s.bag.len()
        ));
    }
    if let Some(sp) = board.iter().position(|n| *n > 1) {
        return Err(format!("board space {sp} holds {} tokens", board[sp]));
    }
    let pins = s
        .stack
        .iter()
        .filter(|f| matches!(f, Frame::Pin { .. }))
        .count();
    if held != pins {
        return Err(format!(
            "{held} held evidence tokens but {pins} waiting pins"
        ));
    }
    // Momentum (9).
    let momentum = s.momentum_supply as usize
        + s.momentum_token.is_some() as usize
        + s.momentum_cards.iter().map(|n| *n as usize).sum::<usize>()
        + s.momentum_removed as usize;
    if momentum != r.numbers.momentum_tokens as usize {
        return Err(format!(
            "{momentum} momentum tokens, expected {}",
            r.numbers.momentum_tokens
        ));
    }
    if let Some(p) = s.momentum_token {
        if p.abs() >= r.numbers.track_length {
            return Err(format!("momentum token at {p}"));
        }
    }
    for side in Side::BOTH {
        if s.momentum_cards[side] as usize > r.momentum_cards[side].spaces.len() {
            return Err(format!("more momentum on {side}'s card than spaces"));
        }
    }
    // Pictures (7).
    if s.pictures.len() != r.pictures.len() {
        return Err(format!(
            "{} pictures, expected {}",
            s.pictures.len(),
            r.pictures.len()
        ));
    }
    // Player cards (40): each in exactly one place.
    let mut seen = vec![0u8; r.cards.len()];
    let mut count = |c: &CardId| seen[c.index()] += 1;
    for side in Side::BOTH {
        let i = side;
        s.hands[i].iter().for_each(&mut count);
        s.decks[i].iter().for_each(&mut count);
        s.discards[i].iter().for_each(&mut count);
    }
    s.removed.iter().for_each(&mut count);
    for f in &s.stack {
        if let Frame::Play(p) = f {
            count(&p.card);
        }
    }
    if let Some(c) = seen.iter().position(|n| *n != 1) {
        return Err(format!("card `{}` is in {} places", r.cards[c].id, seen[c]));
    }
    for side in Side::BOTH {
        let i = side;
        for c in s.hands[i].iter().chain(&s.decks[i]).chain(&s.discards[i]) {
            if r.card(*c).side != side {
                return Err(format!(
                    "{side} holds the other side's card `{}`",
                    r.card(*c).id
                ));
            }
        }
    }
    Ok(())
}

/// The board's sets the engine keeps (`State::set_evidence`) agree with
/// the tokens on the board.
fn kept_board_sets(s: &State) -> Result<(), String> {
    if (s.board_taken, s.board_face_up) != State::board_sets(&s.evidence) {
        return Err(format!(
            "the board's kept sets (taken {:?}, face up {:?}) disagree with the evidence on it",
            s.board_taken, s.board_face_up
        ));
    }
    Ok(())
}

/// The track's mask the engine keeps (`State::set_evidence`) agrees with
/// the tokens on the track.
fn kept_track_sets(s: &State) -> Result<(), String> {
    if s.track_face_down != State::track_face_down_of(&s.evidence) {
        return Err(format!(
            "the track's kept mask of face-down tokens ({:#x}) disagrees with the evidence on it",
            s.track_face_down
        ));
    }
    Ok(())
}

/// The mask of pictures in the supply the engine keeps
/// (`State::set_picture`) agrees with the pictures.
fn kept_supply_mask(s: &State) -> Result<(), String> {
    let mask = State::supply_mask(&s.pictures);
    if s.pictures_in_supply != mask {
        return Err(format!(
            "the kept mask of pictures in the supply ({:#b}) disagrees with the pictures ({mask:#b})",
            s.pictures_in_supply
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept mask follows a picture pinned and returned, and a mask
    /// left out of step is caught.
    #[test]
    fn the_kept_supply_mask_follows_the_pictures_and_a_stale_one_is_caught() {
        let mut s = State::bare(4);
        s.pictures = (0..3).map(|_| PicLoc::Supply).collect();
        s.pictures_in_supply = State::supply_mask(&s.pictures);
        assert_eq!(s.pictures_in_supply, 0b111);
        kept_supply_mask(&s).unwrap();
        s.set_picture(PictureId(1), PicLoc::Pinned { face_up: true });
        assert_eq!(s.pictures_in_supply, 0b101);
        kept_supply_mask(&s).unwrap();
        let mut stale = s.clone();
        stale.pictures_in_supply = 0b111;
        assert!(kept_supply_mask(&stale).unwrap_err().contains("kept mask"));
        s.set_picture(PictureId(1), PicLoc::Supply);
        assert_eq!(s.pictures_in_supply, 0b111);
        kept_supply_mask(&s).unwrap();
    }

    /// The kept sets follow a pin, a flip and an unpin, and a set left
    /// out of step is caught.
    #[test]
    fn the_kept_board_sets_follow_the_tokens_and_a_stale_one_is_caught() {
        let mut s = State::bare(4);
        let (t, space) = (TokenId(2), SpaceId(9));
        s.set_evidence(
            t,
            EvLoc::Board {
                space,
                face_up: false,
            },
        );
        assert!(s.board_taken.contains(space) && !s.board_face_up.contains(space));
        kept_board_sets(&s).unwrap();
        s.set_evidence(
            t,
            EvLoc::Board {
                space,
                face_up: true,
            },
        );
        assert!(s.board_face_up.contains(space));
        kept_board_sets(&s).unwrap();
        let mut stale = s.clone();
        stale.board_face_up = SpaceSet::EMPTY;
        assert!(kept_board_sets(&stale).unwrap_err().contains("kept sets"));
        s.set_evidence(t, EvLoc::Bag);
        assert!(s.board_taken.is_empty() && s.board_face_up.is_empty());
        kept_board_sets(&s).unwrap();
    }
}
