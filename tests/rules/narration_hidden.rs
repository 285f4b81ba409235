//! The narrator hides what a viewer may not know (R4.3): over many random
//! games, each player's sight follows the game from its start, and no line
//! narrated from the Editor's observations names the kind of a face-down
//! token; Nixon's lines always do. (An integration test because it plays with an
//! agent, a layer above the narrator.)

use std::collections::BTreeSet;
use watergate::formats::narrate::narrate;
use watergate::game::engine::notation::kind_name;
use watergate::game::engine::{Event, TokenKind};
use watergate::game::model::*;
use watergate::game::observation::Sight;
use watergate::game::state::State;

/// Over many random games: while a token is face down on the track, no
/// line for the Editor names its kind, nor does the line that draws it
/// face down; Nixon's lines always do.
#[test]
fn face_down_tokens_stay_anonymous_for_the_editor_in_random_games() {
    use watergate::game::view::View;
    use watergate::players::agent::{Agent, RandomAgent};
    let r = watergate::data::shipped();
    let (mut anonymous, mut drawn_down) = (0, 0);
    for seed in 0..100 {
        let mut s = State::new(&r, seed);
        let mut sights = BySide::from_fn(|side| Sight::new(&s, Some(side)));
        let mut agent = RandomAgent::new(seed);
        let mut options = Vec::new();
        while let Some(actor) = s.legal(&r, &mut options) {
            let side = actor.side().unwrap();
            let c = agent.decide(&View::new(&r, &s, side), &options);
            let before = s.clone();
            let mut events = Vec::new();
            s.apply_observed(&r, c, &mut events).unwrap();
            let [editor, nixon] =
                Side::BOTH.map(|side| narrate(&r, Some(side), &sights[side].see_all(&events)));
            // Face down on the track now, by the events seen so far.
            let mut down: BTreeSet<TokenId> = before
                .track()
                .iter()
                .copied()
                .filter(|t| matches!(before.on_track(*t), Some((_, false))))
                .collect();
            for (i, e) in events.iter().enumerate() {
                let named = match e {
                    Event::Moved {
                        token: TokenKind::Evidence(t),
                        ..
                    }
                    | Event::Gained {
                        token: TokenKind::Evidence(t),
                        ..
                    }
                    | Event::ToBag { token: t } => Some(*t),
                    _ => None,
                };
                if let Some(t) = named.filter(|t| down.contains(t)) {
                    let k = r.token(t);
                    let kind = kind_name(k.colours, k.momentum_symbol);
                    assert!(
                        editor[i].to_lowercase().contains("a face-down token")
                            && !editor[i].contains(&kind),
                        "seed {seed}: {}",
                        editor[i]
                    );
                    assert!(nixon[i].contains(&kind), "seed {seed}: {}", nixon[i]);
                    anonymous += 1;
                }
                match e {
                    Event::EvidenceDrawn {
                        token,
                        face_up: false,
                        ..
                    } => {
                        // A token drawn face down in the game (a card's
                        // action, a new round): the Editor hears only that
                        // one was drawn, Nixon its kind.
                        let k = r.token(*token);
                        let kind = kind_name(k.colours, k.momentum_symbol);
                        assert!(
                            editor[i].starts_with("A face-down token is drawn")
                                && !editor[i].contains(&kind),
                            "seed {seed}: {}",
                            editor[i]
                        );
                        assert!(nixon[i].contains(&kind), "seed {seed}: {}", nixon[i]);
                        drawn_down += 1;
                        down.insert(*token);
                    }
                    Event::EvidenceDrawn { token, .. }
                    | Event::Flipped { token }
                    | Event::Revealed { token }
                    | Event::Pinned { token, .. }
                    | Event::Unpinnable { token }
                    | Event::ToBag { token } => {
                        down.remove(token);
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(anonymous > 100, "{anonymous}");
    assert!(drawn_down > 100, "{drawn_down}");
}
