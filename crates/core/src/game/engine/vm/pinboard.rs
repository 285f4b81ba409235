//! Instructions on the evidence board: a token returned to the bag, taken
//! to the track or turned face up, and pictures pinned or unpinned (R5.13,
//! docs/open-questions.md#q10).

use super::{At, Effect, Pick};
use crate::game::engine::choice::*;
use crate::game::engine::event::{Event, Observer};
use crate::game::engine::{Ctx, PlayError};
use crate::game::model::*;
use crate::game::program::*;
use crate::game::rules::{Rules, SpaceKind};
use crate::game::state::*;

impl Pick for BoardToBag {
    fn candidates(&self, s: &State, r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) {
        s.board_candidates(r, &self.filter, out);
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        _at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let Choice::Space(sp) = choice else {
            return Err(super::not_for(self, choice));
        };
        cx.next();
        if let Some((tok, _)) = cx.s.board_token(sp) {
            cx.return_to_bag(tok);
        }
        Ok(())
    }

    fn ask(&self, _f: &RunFrame) -> Ask {
        Ask::BoardToBag {
            filter: self.filter,
        }
    }
}

impl Pick for BoardToTrack {
    fn candidates(&self, s: &State, r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) {
        s.board_candidates(r, &self.filter, out);
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let Choice::Space(sp) = choice else {
            return Err(super::not_for(self, choice));
        };
        cx.next();
        if let Some((tok, _)) = cx.s.board_token(sp) {
            cx.arrive_on_track(tok, self.space, self.face_up, at.actor);
        }
        Ok(())
    }

    fn ask(&self, _f: &RunFrame) -> Ask {
        Ask::BoardToTrack {
            filter: self.filter,
            space: self.space,
        }
    }
}

impl Pick for FlipOnBoard {
    fn candidates(&self, s: &State, r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) {
        s.board_candidates(r, &self.filter, out);
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        _at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let Choice::Space(sp) = choice else {
            return Err(super::not_for(self, choice));
        };
        cx.next();
        if let Some((tok, false)) = cx.s.board_token(sp) {
            cx.s.set_evidence(
                tok,
                EvLoc::Board {
                    space: sp,
                    face_up: true,
                },
            );
            cx.o.event(Event::Flipped { token: tok });
            cx.check_connection();
        }
        Ok(())
    }

    fn ask(&self, _f: &RunFrame) -> Ask {
        Ask::FlipOnBoard
    }
}

impl Effect for PinPicture {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError> {
        let pic = match self.picture {
            PictureRef::Named(p) => Some(p),
            PictureRef::ThisCard => at.card.and_then(|c| cx.r.card(c).informant),
        };
        cx.next();
        if let Some(p) = pic {
            if cx.s.pictures[p.index()] == PicLoc::Supply {
                let face_up = at.actor == Side::Editor;
                cx.s.set_picture(p, PicLoc::Pinned { face_up });
                cx.o.event(Event::PictureTaken {
                    side: at.actor,
                    picture: p,
                    face_up,
                });
                if face_up {
                    cx.check_connection();
                }
            }
        }
        Ok(())
    }
}

impl Pick for UnpinPicture {
    fn candidates(&self, s: &State, _r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) {
        out.extend(s.pinned_pictures(self.face_up).map(Choice::Picture));
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        _at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let Choice::Picture(p) = choice else {
            return Err(super::not_for(self, choice));
        };
        cx.next();
        cx.s.set_picture(p, PicLoc::Supply);
        cx.o.event(Event::PictureReturned { picture: p });
        Ok(())
    }

    fn ask(&self, _f: &RunFrame) -> Ask {
        Ask::UnpinPicture
    }
}

impl State {
    /// Board spaces holding a token the filter admits, in space order.
    pub(crate) fn board_candidates(
        &self,
        r: &Rules,
        filter: &EvidenceFilter,
        out: &mut Vec<Choice>,
    ) {
        // Without a colour, the board's kept sets say it all.
        let by_face = match filter.face {
            Face::Any => self.board_taken,
            Face::Up => self.board_face_up,
            Face::Down => self.board_taken.minus(self.board_face_up),
        };
        if filter.colour.is_none() {
            let spaces = by_face.intersection(r.board.evidence_spaces);
            crate::game::engine::push_spaces(spaces, out);
            return;
        }
        // One pass over the tokens (a space holds at most one), then the
        // spaces in order.
        let mut spaces = SpaceSet::EMPTY;
        for (i, loc) in self.evidence.iter().enumerate() {
            let EvLoc::Board { space, face_up } = *loc else {
                continue;
            };
            if matches!(r.board.spaces[space.index()].kind, SpaceKind::Evidence(_))
                && filter.face.admits(face_up)
                && filter
                    .colour
                    .is_none_or(|c| r.token(TokenId(i as u8)).colours.contains(c))
            {
                spaces.insert(space);
            }
        }
        crate::game::engine::push_spaces(spaces, out);
    }

    fn pinned_pictures(&self, face_up: Option<bool>) -> impl Iterator<Item = PictureId> + '_ {
        self.pictures
            .iter()
            .enumerate()
            .filter_map(move |(i, p)| match p {
                PicLoc::Pinned { face_up: f } if face_up.is_none_or(|want| want == *f) => {
                    Some(PictureId(i as u8))
                }
                _ => None,
            })
    }
}
