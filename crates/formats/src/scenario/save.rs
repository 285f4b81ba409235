//! Game state → scenario file, at any decision point (mid-action
//! included), so any position seen in play can become a puzzle or a bug
//! report. Tokens are written with their ids (`blue#3`) and every zone in
//! order, so loading the file gives back an equal game.

use super::format::*;
use super::load::rng_hex;
use super::Scenario;
use crate::data::GameSource;
use crate::game::engine::notation::{kind_name, pos_name};
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::setup::Setup;
use crate::game::state::*;
use std::path::{Path, PathBuf};

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
    position_of_setup(r, &s.to_setup())
}

/// A setup as the scenario format writes it.
pub fn position_of_setup(r: &Rules, s: &Setup) -> PositionDef {
    let per = |f: &dyn Fn(Side) -> Vec<String>| BySide {
        editor: f(Side::Editor),
        nixon: f(Side::Nixon),
    };
    let stack = s
        .stack
        .iter()
        .map(|f| match f {
            Frame::Setup {
                dealt,
                cards_dealt,
                evidence_left,
            } => FrameDef::Setup {
                dealt: *dealt,
                cards_dealt: *cards_dealt,
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
                program: match &f.prog() {
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
        turns_played: s.turns_played,
        initiative_token: s
            .initiative_token
            .map(pos_name)
            .unwrap_or_else(|| "gained".into()),
        momentum_token: s
            .momentum_token
            .map(pos_name)
            .unwrap_or_else(|| "off".into()),
        momentum_cards: s.momentum_cards,
        momentum_removed: s.momentum_removed,
        momentum_supply: Some(s.momentum_supply),
        track: s
            .track
            .iter()
            .map(|t| TrackTokenDef {
                token: token(r, t.token),
                at: pos_name(t.pos),
                face_up: t.face_up,
                ruled_out: t.ruled_out.iter().map(|c| c.name().into()).collect(),
            })
            .collect(),
        board: s
            .board
            .iter()
            .map(|b| BoardTokenDef {
                space: r.board.spaces[b.space.index()].id.clone(),
                token: token(r, b.token),
                face_up: b.face_up,
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
        hands: per(&|side| cards(r, &s.hands[side])),
        decks: per(&|side| {
            let mut d = cards(r, &s.decks[side]);
            d.reverse();
            d
        }),
        discards: per(&|side| cards(r, &s.discards[side])),
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
        explicit_deals: s.explicit_deals,
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

/// Where a game's rules come from, carried into a position saved from it
/// so that the saved file loads with the same rules, not silently with
/// the built-in ones: the data root, the variant files in the order they
/// applied, and a scenario's inline edits.
#[derive(Clone, Debug, Default)]
pub struct RulesOrigin {
    pub(super) data: Option<Source>,
    pub(super) variants: Vec<Source>,
    edits: Option<EditsDef>,
}

/// A data root or a variant file the rules come from; when the scenario
/// named it (not the command line), as its file wrote it, relative to
/// the file's folder (messages about it quote that).
#[derive(Clone, Debug)]
pub(super) struct Source {
    pub(super) path: PathBuf,
    pub(super) in_scenario: Option<String>,
}

impl RulesOrigin {
    /// The rules of `cmdline`, and of `scenario` when the game started from
    /// one, in the order they apply: `--data`, else the scenario's `data`;
    /// then `--variant`, then the scenario's `variant`; then its `edits`.
    /// This is the one statement of that order: `Scenario::rules` builds
    /// the game by it, and a saved position records it.
    pub fn of(cmdline: &GameSource, scenario: Option<&Scenario>) -> RulesOrigin {
        let given = |path: &Option<PathBuf>| {
            path.clone().map(|path| Source {
                path,
                in_scenario: None,
            })
        };
        let own = |s: &Scenario, rel: &Option<String>| {
            rel.as_ref().map(|rel| Source {
                path: beside_or_shipped(&s.dir, rel),
                in_scenario: Some(rel.clone()),
            })
        };
        RulesOrigin {
            data: given(&cmdline.data).or_else(|| scenario.and_then(|s| own(s, &s.def.data))),
            variants: given(&cmdline.variant)
                .into_iter()
                .chain(scenario.and_then(|s| own(s, &s.def.variant)))
                .collect(),
            edits: scenario.and_then(|s| s.def.edits.clone()),
        }
    }

    /// Writes the origin into a game log's `start`, so that the log
    /// replays on the rules it was played with, from any folder: the data
    /// root and the last variant by absolute path (or a shipped file's
    /// name), and the scenario's edits that name no files. What a log
    /// cannot carry is `replay_notes`'.
    pub fn stamp_log(&self, start: &mut ScenarioDef) {
        // A log lives in the user's log folder, and its replay runs from
        // any folder, not only the one the game was played in.
        start.data = self.data.as_ref().map(|d| path_from(None, &d.path));
        start.variant = self.variants.last().map(|v| path_from(None, &v.path));
        start.edits = self.edits.clone().filter(|e| !e.names_files());
    }

    /// What a game log cannot carry of these rules (`stamp_log`), for the
    /// player to hear: it names one variant, and no file in its edits.
    pub fn replay_notes(&self) -> Vec<String> {
        let word = |p: &Path| crate::shell_word(&path_from(None, p));
        let mut notes = Vec::new();
        if let [first, last] = self.variants.as_slice() {
            notes.push(format!(
                "the game played with two variants, {} then {}, and a log names one (the last): join them in one variant file to replay it",
                word(&first.path),
                word(&last.path)
            ));
        }
        if self.edits.as_ref().is_some_and(|e| e.names_files()) {
            notes.push(
                "the scenario's edits name files, which a log does not carry: write them in a variant file and replay with `--variant FILE`".into(),
            );
        }
        notes
    }

    /// Writes the origin into `def`, to be saved at `out`: paths relative
    /// to the file's folder when they are inside it, absolute otherwise
    /// (always absolute without `out`: a download, whose folder is not
    /// known). Returns what a scenario file cannot carry, for the user to
    /// hear (a scenario names one variant; edits that name files stay behind).
    pub fn stamp(&self, def: &mut ScenarioDef, out: Option<&Path>) -> Vec<String> {
        let mut notes = Vec::new();
        let dir = out.map(|out| match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        });
        def.data = self.data.as_ref().map(|d| path_from(dir, &d.path));
        // The last variant goes in the file; earlier ones apply first when
        // given as `--variant` on loading, which is exactly their order.
        def.variant = self.variants.last().map(|v| path_from(dir, &v.path));
        let file = out.map_or("the saved file".to_string(), |o| o.display().to_string());
        if let [first, _] = self.variants.as_slice() {
            notes.push(format!(
                "the game played with two variants; {file} names the last one: load it with `--variant {}` to apply the first one too",
                first.path.display()
            ));
        }
        if let Some(e) = &self.edits {
            if !e.names_files() {
                def.edits = Some(e.clone());
            } else {
                notes.push(format!(
                    "the scenario's edits name files; copy its `edits` into {file} by hand"
                ));
            }
        }
        notes
    }
}

/// The file a scenario in `dir` names `rel`: the one beside it, else, when
/// nothing lies there and `rel` is a shipped file's name
/// (`scenarios/variants/old_board.ron`, as a position saved from a shipped
/// puzzle writes it), the built-in copy.
fn beside_or_shipped(dir: &Path, rel: &str) -> PathBuf {
    let beside = dir.join(rel);
    if beside.exists() || crate::data::source::shipped_file(&beside).is_some() {
        return beside;
    }
    match crate::data::source::shipped_name(Path::new(rel)) {
        Some(shipped) => shipped,
        None => beside,
    }
}

/// `path` as a file in `dir` names it: relative when it is inside `dir`,
/// absolute otherwise (and without a `dir`); a shipped file with no copy on
/// disk by its shipped name, which loads from any folder.
fn path_from(dir: Option<&Path>, path: &Path) -> String {
    if let Some(shipped) = crate::data::source::shipped_name(path) {
        return shipped.display().to_string();
    }
    let abs = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let path = abs(path);
    match dir
        .map(abs)
        .as_deref()
        .and_then(|d| path.strip_prefix(d).ok())
    {
        Some(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => path.display().to_string(),
    }
}
