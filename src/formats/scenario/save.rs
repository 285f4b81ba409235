//! Game state → scenario file, at any decision point (mid-action
//! included), so any position seen in play can become a puzzle or a bug
//! report. Tokens are written with their ids (`blue#3`) and every zone in
//! order, so loading the file gives back an equal game.

use super::format::*;
use super::load::rng_hex;
use crate::game::engine::notation::{kind_name, pos_name};
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::*;

fn token(r: &Rules, t: TokenId) -> String {
    let k = r.token(t);
    format!("{}#{}", kind_name(k.colours, k.momentum_symbol), t.0)
}

fn cards(r: &Rules, list: &[CardId]) -> Vec<String> {
    list.iter().map(|c| r.card(*c).id.clone()).collect()
}

/// A token a frame refers to: by identity, since it may have left the track.
fn token_ref(r: &Rules, m: Moving) -> String {
    match m {
        Moving::Initiative => "initiative".into(),
        Moving::Momentum => "momentum".into(),
        Moving::Evidence(t) => token(r, t),
    }
}

/// The position of a game, complete.
pub fn position_of(r: &Rules, s: &State) -> PositionDef {
    let per = |f: &dyn Fn(Side) -> Vec<String>| PerSide {
        editor: f(Side::Editor),
        nixon: f(Side::Nixon),
    };
    let stack = s
        .stack
        .iter()
        .map(|f| match f {
            Frame::Setup {
                dealt,
                evidence_left,
            } => FrameDef::Setup {
                dealt: *dealt,
                evidence_left: *evidence_left,
            },
            Frame::Evaluation { step } => FrameDef::Evaluation {
                step: step.number(),
            },
            Frame::Pin { token: t, pinner } => FrameDef::Pin {
                token: token(r, *t),
                pinner: *pinner,
            },
            Frame::Play(p) => FrameDef::Play {
                card: r.card(p.card).id.clone(),
                player: p.player,
                part: p.part,
                stage: match p.stage {
                    PlayStage::ChoosePart => StageDef::ChoosePart,
                    PlayStage::ChooseTarget => StageDef::ChooseTarget,
                    PlayStage::Reveal(c) => StageDef::Reveal(c.name().into()),
                    PlayStage::Locked(c) => StageDef::Locked(c.name().into()),
                    PlayStage::Window => StageDef::Window,
                    PlayStage::Resolve => StageDef::Resolve,
                    PlayStage::Running => StageDef::Running,
                },
                target: p.target.map(|m| token_ref(r, m)),
                cancelled: p.cancelled,
                reacting_to: p.reacting_to,
                dest: p.dest,
            },
            Frame::Run(f) => FrameDef::Run {
                program: match &f.prog {
                    ProgRef::Card(c) => ProgramDef::Card(r.card(*c).id.clone()),
                    ProgRef::Space(side, i) => ProgramDef::Space(*side, *i),
                    ProgRef::Dynamic(p) => ProgramDef::Program((**p).clone()),
                },
                pc: f.pc,
                actor: f.actor,
                card: f.card.map(|c| r.card(c).id.clone()),
                play: f.play,
                done: f.done,
                picked: f
                    .picked
                    .iter()
                    .map(|t| token_ref(r, Moving::Evidence(*t)))
                    .collect(),
                chosen: f.chosen.map(|c| r.card(c).id.clone()),
            },
        })
        .collect();
    PositionDef {
        round: s.round,
        phase: match s.phase {
            Phase::Initial => PhaseDef::Initial,
            Phase::Cards | Phase::Over => PhaseDef::Cards,
            Phase::Evaluation => PhaseDef::Evaluation,
        },
        initiative: s.initiative,
        turn: Some(s.turn),
        turns_played: PerSide {
            editor: s.turns_played[0],
            nixon: s.turns_played[1],
        },
        initiative_token: s
            .initiative_token
            .map(pos_name)
            .unwrap_or_else(|| "gained".into()),
        momentum_token: s
            .momentum_token
            .map(pos_name)
            .unwrap_or_else(|| "off".into()),
        momentum_cards: PerSide {
            editor: s.momentum_cards[0],
            nixon: s.momentum_cards[1],
        },
        momentum_removed: s.momentum_removed,
        momentum_supply: Some(s.momentum_supply),
        track: s
            .track
            .iter()
            .filter_map(|t| {
                let (pos, face_up) = s.on_track(*t)?;
                Some(TrackTokenDef {
                    token: token(r, *t),
                    at: pos_name(pos),
                    face_up,
                })
            })
            .collect(),
        board: s
            .evidence
            .iter()
            .enumerate()
            .filter_map(|(i, l)| match l {
                EvLoc::Board { space, face_up } => Some(BoardTokenDef {
                    space: r.board.spaces[space.index()].id.clone(),
                    token: token(r, TokenId(i as u8)),
                    face_up: *face_up,
                }),
                _ => None,
            })
            .collect(),
        pictures: s
            .pictures
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                PicLoc::Pinned { face_up } => Some(PictureDef {
                    name: r.pictures[i].name.clone(),
                    face_up: *face_up,
                    space: None,
                }),
                PicLoc::Supply => None,
            })
            .collect(),
        hands: per(&|side| cards(r, &s.hands[side.index()])),
        decks: per(&|side| {
            let mut d = cards(r, &s.decks[side.index()]);
            d.reverse();
            d
        }),
        discards: per(&|side| cards(r, &s.discards[side.index()])),
        removed: cards(r, &s.removed),
        unlisted_cards: UnlistedDef::Deck,
        bag: Some(s.bag.iter().rev().map(|t| token(r, *t)).collect()),
        forbidden: s
            .forbidden
            .iter()
            .map(|f| ForbidDef {
                side: f.side,
                part: f.part,
                types: f
                    .types
                    .types()
                    .iter()
                    .map(|t| t.name().to_string())
                    .collect(),
            })
            .collect(),
        stack,
        rng: Some(rng_hex(&s.rng)),
        explicit_chance: s.explicit_chance,
    }
}

/// A scenario file holding the game's current position.
pub fn scenario_of(r: &Rules, s: &State, name: &str, description: &str) -> ScenarioDef {
    ScenarioDef {
        name: name.to_string(),
        description: description.to_string(),
        position: Some(position_of(r, s)),
        ..Default::default()
    }
}

/// The scenario as RON text, ready to write to a file.
pub fn to_text(def: &ScenarioDef) -> String {
    let pretty = ron::ser::PrettyConfig::default()
        .struct_names(true)
        .depth_limit(4)
        .separate_tuple_members(false)
        .enumerate_arrays(false);
    let body = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .to_string_pretty(def, pretty)
        .unwrap_or_else(|e| format!("// could not write the scenario: {e}\n"));
    format!(
        "// Saved by watergate {}: a complete position; load it with `watergate scenario FILE`.\n{body}\n",
        env!("CARGO_PKG_VERSION")
    )
}
