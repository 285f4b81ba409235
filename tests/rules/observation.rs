//! What each player sees of the events (R4.3): the Editor cannot identify a
//! face-down token on the research track; Nixon and an omniscient reader
//! identify every token. A sight that follows the events knows exactly what
//! a sight built from the position knows, at every decision of many games.

use std::ops::ControlFlow;
use watergate::game::engine::{Actor, Choice, Event, Observer, TokenKind};
use watergate::game::model::*;
use watergate::game::observation::{Seen, Sight};
use watergate::game::state::State;
use watergate::lab::driver::{play_out, Steps};
use watergate::lab::sim::game_seed;
use watergate::players::agent::RandomAgent;

#[test]
fn a_new_game_starts_with_nothing_on_the_track_to_hide() {
    let r = watergate::data::shipped();
    for viewer in [Some(Side::Editor), Some(Side::Nixon), None] {
        assert_eq!(
            Sight::new(&State::setup(&r, 5), viewer),
            Sight::new_game(viewer)
        );
    }
}

/// R4.3: the initial phase draws face down; the Editor sees none of the
/// tokens, Nixon and an omniscient reader see every one.
#[test]
fn the_editor_sees_no_face_down_draw_and_nixon_sees_every_one() {
    let r = watergate::data::shipped();
    let mut events = Vec::new();
    let s = State::new_observed(&r, 3, &mut events);
    let on_track = (0..=u8::MAX).map_while(|slot| s.track_token(slot)).count();
    let drawn = |viewer| {
        Sight::new_game(viewer)
            .see_all(&events)
            .into_iter()
            .filter_map(|o| match o {
                Event::EvidenceDrawn {
                    token,
                    face_up: false,
                    ..
                } => Some(token),
                _ => None,
            })
            .collect::<Vec<Seen>>()
    };
    let editor = drawn(Some(Side::Editor));
    assert_eq!(editor.len(), on_track);
    assert!(editor.iter().all(|t| *t == Seen::FaceDown));
    for viewer in [Some(Side::Nixon), None] {
        let seen = drawn(viewer);
        assert_eq!(seen.len(), on_track);
        assert!(seen.iter().all(|t| matches!(t, Seen::Token(_))));
    }
}

/// Both sides' sights, fed every event of a game and compared with the
/// position before every decision.
struct Follow {
    sights: BySide<Sight>,
    /// Observations the Editor could not identify.
    face_down: usize,
    decisions: usize,
}

impl Observer for Follow {
    fn event(&mut self, e: Event) {
        for sight in &mut self.sights {
            let seen = sight.see(&e);
            let hidden = match seen {
                Event::EvidenceDrawn { token, .. } | Event::ToBag { token } => token,
                Event::Moved {
                    token: TokenKind::Evidence(t),
                    ..
                }
                | Event::Gained {
                    token: TokenKind::Evidence(t),
                    ..
                } => t,
                _ => continue,
            };
            if hidden == Seen::FaceDown {
                assert_eq!(sight.viewer(), Some(Side::Editor), "{e:?}");
                self.face_down += 1;
            }
        }
    }
}

impl Steps for Follow {
    type Error = ();
    fn before(&mut self, s: &State, _: Actor, _: &[Choice]) -> Result<ControlFlow<()>, ()> {
        for sight in &self.sights {
            assert_eq!(*sight, Sight::new(s, sight.viewer()));
        }
        self.decisions += 1;
        Ok(ControlFlow::Continue(()))
    }
}

#[test]
fn following_the_events_knows_what_the_position_shows() {
    let r = watergate::data::shipped();
    let mut follow = Follow {
        sights: BySide::from_fn(|side| Sight::new_game(Some(side))),
        face_down: 0,
        decisions: 0,
    };
    for seed in 0..40 {
        follow.sights = BySide::from_fn(|side| Sight::new_game(Some(side)));
        let mut s = State::new_observed(&r, seed, &mut follow);
        let mut a = RandomAgent::new(game_seed(seed, 1));
        let mut b = RandomAgent::new(game_seed(seed, 2));
        play_out(&r, &mut s, BySide::new(&mut a, &mut b), None, &mut follow)
            .unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        for sight in &follow.sights {
            assert_eq!(*sight, Sight::new(&s, sight.viewer()), "seed {seed}");
        }
    }
    // The games did hide tokens, and stepped through many positions.
    assert!(follow.face_down > 100, "{}", follow.face_down);
    assert!(follow.decisions > 1000, "{}", follow.decisions);
}
