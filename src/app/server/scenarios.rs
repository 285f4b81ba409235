//! The scenario files the studio offers (puzzles under `scenarios/puzzles`,
//! variants under `scenarios/variants`): those of the data folder with
//! `--data DIR`, else the copies shipped in the binary. A file is named by
//! its plain name within one of those folders; an uploaded scenario is read
//! as if it lay in `scenarios/puzzles`, and whatever data or variant it
//! names must lie inside the data folder (or, for the shipped copies, be
//! one of them). No path a page sends is opened outside the data folder.
//!
//! A data folder without `scenarios/` (as `watergate export` writes one)
//! lists the shipped puzzles and variants instead ([`Files::listed`]),
//! played on the folder's data; the pages say so ([`shipped_note`]).

use super::error::ApiError;
use crate::data::variant::Variant;
use crate::data::GameSource;
use crate::diag::Diagnostics;
use crate::formats::scenario::Scenario;
use crate::game::rules::Rules;
use include_dir::{include_dir, Dir};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

static SHIPPED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/scenarios");

pub const PUZZLES: &str = "scenarios/puzzles";
pub const VARIANTS: &str = "scenarios/variants";

/// Where scenario files come from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Files {
    /// The data folder given with `--data`.
    Folder(PathBuf),
    /// The copies shipped in the binary.
    Shipped,
}

/// What a file was as last read, to know whether it changed since: a file
/// of the data folder by its modification time and length (an editor saves
/// it anew, with a new time); a shipped copy never changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stamp {
    Shipped,
    Written { modified: SystemTime, len: u64 },
}

/// Every problem as one message, `path:line:col: message` per line.
pub fn problems(d: &Diagnostics) -> String {
    d.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

fn unprocessable(d: Diagnostics) -> ApiError {
    ApiError::unprocessable(problems(&d))
}

impl Files {
    pub fn of(source: &GameSource) -> Files {
        match &source.data {
            Some(d) => Files::Folder(d.clone()),
            None => Files::Shipped,
        }
    }

    /// Where the listed puzzles and variants come from: the data folder's
    /// `scenarios/`, or the shipped ones when it has none (their games play
    /// on the folder's data all the same: `Files::rules`' shipped branch
    /// builds on `source.base()`).
    pub fn listed(source: &GameSource) -> Files {
        match &source.data {
            Some(d) if d.join("scenarios").is_dir() => Files::Folder(d.clone()),
            _ => Files::Shipped,
        }
    }

    /// The `.ron` files of `folder` (`scenarios/puzzles`), by name.
    pub fn list(&self, folder: &str) -> Vec<String> {
        let mut names: Vec<String> = match self {
            Files::Folder(root) => std::fs::read_dir(root.join(folder))
                .map(|it| {
                    it.flatten()
                        .filter(|e| e.path().is_file())
                        .filter_map(|e| e.file_name().into_string().ok())
                        .collect()
                })
                .unwrap_or_default(),
            Files::Shipped => SHIPPED
                .get_dir(folder.trim_start_matches("scenarios/"))
                .map(|d| {
                    d.files()
                        .filter_map(|f| f.path().file_name()?.to_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
        };
        names.retain(|n| n.ends_with(".ron"));
        names.sort();
        names
    }

    /// The variant files of `scenarios/variants`, by name: the `.ron` files
    /// there that open as a `Variant` (the board, card and script files the
    /// variants name lie beside them and are not offered).
    pub fn variants(&self) -> Vec<String> {
        let mut names = self.list(VARIANTS);
        names.retain(|n| {
            self.read(VARIANTS, n)
                .is_ok_and(|(_, text)| crate::data::ron_head(&text) == Some("Variant"))
        });
        names
    }

    /// The [`Stamp`] of file `name` of `folder` (a name [`Files::list`]
    /// gave), or `None` when it cannot be told (gone, or a file system that
    /// keeps no modification time): read it again.
    pub fn stamp(&self, folder: &str, name: &str) -> Option<Stamp> {
        match self {
            Files::Folder(root) => {
                let meta = std::fs::metadata(root.join(folder).join(name)).ok()?;
                Some(Stamp::Written {
                    modified: meta.modified().ok()?,
                    len: meta.len(),
                })
            }
            Files::Shipped => Some(Stamp::Shipped),
        }
    }

    /// The text of file `name` in `folder`, with the path to show.
    pub fn read(&self, folder: &str, name: &str) -> Result<(String, String), ApiError> {
        match self {
            Files::Folder(root) => {
                let path = super::paths::file_in(&root.join(folder), name, "the data folder")?;
                let text = crate::data::user_file::read_user_text(&path)
                    .map_err(|e| ApiError::not_found(format!("`{name}`: {e}")))?;
                Ok((path.display().to_string(), text))
            }
            Files::Shipped => {
                if name.contains(['/', '\\']) {
                    return Err(ApiError::forbidden(format!(
                        "`{name}` is not a plain file name: pick a file from the list"
                    )));
                }
                let rel = format!("{}/{name}", folder.trim_start_matches("scenarios/"));
                let f = SHIPPED.get_file(&rel).ok_or_else(|| {
                    ApiError::not_found(format!("there is no `{name}` in {folder}"))
                })?;
                let text = f.contents_utf8().ok_or_else(|| {
                    ApiError::unprocessable(format!("{folder}/{name} is not UTF-8"))
                })?;
                Ok((format!("{folder}/{name}"), text.to_string()))
            }
        }
    }

    /// A scenario from its text, read as if it lay in `folder`.
    pub fn scenario(&self, folder: &str, display: &str, text: &str) -> Result<Scenario, ApiError> {
        let dir = match self {
            Files::Folder(root) => root.join(folder),
            Files::Shipped => PathBuf::from(folder),
        };
        Scenario::from_text(display, text, dir).map_err(unprocessable)
    }

    /// A variant file of the data folder (or a shipped one), by name.
    pub fn variant(&self, name: &str) -> Result<Variant, ApiError> {
        let (display, text) = self.read(VARIANTS, name)?;
        let dir = match self {
            Files::Folder(root) => root.join(VARIANTS),
            Files::Shipped => PathBuf::from(VARIANTS),
        };
        let variant = Variant::from_text(&display, &text, dir).map_err(unprocessable)?;
        // The files it names in turn stay inside the folder too (the lab
        // applies a variant of the folder by its name).
        if let Files::Folder(root) = self {
            variant
                .files_named()
                .into_iter()
                .try_for_each(|file| inside_folder(root, &display, file))?;
        }
        Ok(variant)
    }

    /// The rules scenario `scn` plays with, by the same rule as
    /// `Scenario::rules` — after checking that the data and variant it
    /// names lie inside the data folder (or are shipped files).
    ///
    /// A position saved by this studio names its rules by absolute path
    /// (`RulesOrigin::stamp`): the data folder, which is the studio's own,
    /// and the studio's `--variant`, which the studio applies already (so
    /// it is not applied twice).
    pub fn rules(&self, scn: &Scenario, source: &GameSource) -> Result<Rules, ApiError> {
        let own;
        let scn = match (&scn.def.variant, &source.variant) {
            (Some(v), Some(given)) if same_file(&scn.dir.join(v), given) => {
                let mut s = scn.clone();
                s.def.variant = None;
                own = s;
                &own
            }
            _ => scn,
        };
        match self {
            Files::Folder(root) => {
                let inside = |file| inside_folder(root, &scn.display, file);
                files_named(scn).into_iter().try_for_each(inside)?;
                // The variant is inside the folder now: what it names in turn.
                variant_files(scn).into_iter().try_for_each(inside)?;
                scn.rules(source).map_err(unprocessable)
            }
            Files::Shipped => {
                if let Some(d) = &scn.def.data {
                    return Err(ApiError::forbidden(format!(
                        "{}: it plays on the data folder `{d}`, and this studio runs on the shipped game; start the studio on that folder (`watergate serve --data FOLDER`) to open it here, or play it in the terminal with `watergate play --scenario FILE`",
                        scn.display
                    )));
                }
                if let Some((named, _)) = edits_files(scn).into_iter().next() {
                    return Err(ApiError::forbidden(format!(
                        "{}: `edits` naming a file (`{named}`) can be opened only when the studio runs with --data, and only a file inside its folder",
                        scn.display
                    )));
                }
                let base = source.base().map_err(unprocessable)?;
                let mut ds = match source.variant().map_err(unprocessable)? {
                    None => base,
                    Some(v) => v.apply(&base).map_err(unprocessable)?,
                };
                if let Some(v) = &scn.def.variant {
                    let rel = crate::data::source::normalise(&scn.dir.join(v))
                        .and_then(|p| p.strip_prefix("scenarios/variants/").map(str::to_string))
                        .filter(|n| !n.contains('/'))
                        .ok_or_else(|| {
                            ApiError::forbidden(format!(
                                "{}: variant `{v}` is not one of the shipped variants (scenarios/variants)",
                                scn.display
                            ))
                        })?;
                    ds = self.variant(&rel)?.apply(&ds).map_err(unprocessable)?;
                }
                scn.rules_with_edits(&ds).map_err(unprocessable)
            }
        }
    }
}

/// The files the `edits` of `scn` would read (`add_cards`, `files`), each
/// as the scenario names it and joined to the scenario's folder.
fn edits_files(scn: &Scenario) -> Vec<(String, PathBuf)> {
    scn.edits_variant()
        .map(|v| v.files_named())
        .unwrap_or_default()
}

/// The files `scn` names itself, each as it names it and joined to its
/// folder: its `data` folder and `variant`, and the files its `edits` read.
fn files_named(scn: &Scenario) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = [&scn.def.data, &scn.def.variant]
        .into_iter()
        .flatten()
        .map(|named| (named.clone(), scn.dir.join(named)))
        .collect();
    out.extend(edits_files(scn));
    out
}

/// The files the variant `scn` names would read in turn (a variant file
/// inside the folder may name a file outside it). Read only once the
/// variant is known to lie inside; one that does not parse names none
/// (loading it reports why).
fn variant_files(scn: &Scenario) -> Vec<(String, PathBuf)> {
    let Some(v) = &scn.def.variant else {
        return Vec::new();
    };
    match Variant::from_file(&scn.dir.join(v)) {
        Ok(variant) => variant.files_named(),
        Err(_) => Vec::new(),
    }
}

/// What the pages say when the data folder has no `scenarios/` and the
/// shipped puzzles and variants stand in ([`Files::listed`]).
pub fn shipped_note(source: &GameSource) -> Option<String> {
    let d = source.data.as_ref()?;
    (!d.join("scenarios").is_dir()).then(|| {
        "this data folder has no scenarios/ folder (`watergate export` writes none): these are the shipped puzzles and variants, played on the folder's data".to_string()
    })
}

/// Whether `a` and `b` name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// Refuses a file `named` in `display` (joined to its folder as `path`)
/// unless it resolves inside `root` (an absolute name too: a position
/// saved by the studio names its data folder so), saying what to do.
fn inside_folder(
    root: &Path,
    display: &str,
    (named, path): (String, PathBuf),
) -> Result<(), ApiError> {
    if !super::paths::within(root, &path) {
        return Err(ApiError::forbidden(format!(
            "{display}: `{named}` lies outside the data folder (or does not exist); the studio reads files inside it only: start the studio on the folder the file plays on (`watergate serve --data FOLDER`), or play it in the terminal with `watergate play --scenario FILE`"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_puzzles_are_listed_and_load() {
        let f = Files::Shipped;
        let names = f.list(PUZZLES);
        assert!(names.len() >= 10, "{names:?}");
        let (display, text) = f.read(PUZZLES, &names[0]).unwrap();
        let scn = f.scenario(PUZZLES, &display, &text).unwrap();
        assert!(scn.def.puzzle.is_some());
        f.rules(&scn, &GameSource::shipped()).unwrap();
    }

    #[test]
    fn a_shipped_scenario_cannot_climb_out_of_the_variants() {
        let f = Files::Shipped;
        let scn = f
            .scenario(
                PUZZLES,
                "upload",
                "Scenario(variant: \"../../../etc/passwd\", seed: 1)",
            )
            .unwrap();
        let e = f.rules(&scn, &GameSource::shipped()).unwrap_err();
        assert_eq!(e.status.as_u16(), 403, "{}", e.message);
        let e = f.read(PUZZLES, "../variants/old_board.ron").unwrap_err();
        assert_eq!(e.status.as_u16(), 403);
    }

    #[test]
    fn a_folder_scenario_naming_a_file_outside_is_refused() {
        let tmp = tempfile::Builder::new()
            .prefix("wg-scn-")
            .tempdir()
            .unwrap();
        let base = tmp.path().to_path_buf();
        let data = base.join("data");
        std::fs::create_dir_all(data.join(PUZZLES)).unwrap();
        std::fs::write(base.join("outside.ron"), "Variant(name: \"x\")").unwrap();
        let f = Files::Folder(data.clone());
        for named in [
            "../../../outside.ron",
            &base.join("outside.ron").display().to_string(),
        ] {
            let text = format!("Scenario(variant: {named:?}, seed: 1)");
            let scn = f.scenario(PUZZLES, "upload", &text).unwrap();
            let e = f
                .rules(
                    &scn,
                    &GameSource {
                        data: Some(data.clone()),
                        variant: None,
                    },
                )
                .unwrap_err();
            assert_eq!(e.status.as_u16(), 403, "{named}: {}", e.message);
            assert!(e.message.contains("outside the data folder"));
        }
    }

    /// Problem left by the studio: a position saved by a studio started
    /// with `--data` names that folder by its absolute path, and the same
    /// studio refused to open it ("outside the data folder"). It opens,
    /// with the folder's rules; a folder elsewhere is still refused, with
    /// what to do instead.
    #[test]
    fn a_position_saved_with_data_names_its_folder_and_opens_there() {
        let tmp = tempfile::Builder::new()
            .prefix("wg-scn-saved-")
            .tempdir()
            .unwrap();
        let data = tmp.path().join("data");
        crate::data::DataSet::embedded().write_to(&data).unwrap();
        let other = tmp.path().join("other");
        crate::data::DataSet::embedded().write_to(&other).unwrap();
        let source = GameSource {
            data: Some(data.clone()),
            variant: None,
        };
        let f = Files::Folder(data.clone());
        let r = crate::data::shipped();
        let s = crate::game::state::State::new(&r, 4);
        let mut def = crate::formats::scenario::save::scenario_of(&r, &s, "saved game", "");
        crate::formats::scenario::save::RulesOrigin::of(&source, None).stamp(&mut def, None);
        let text = crate::formats::scenario::save::to_text(&def);
        assert!(text.contains(&data.display().to_string()), "{text}");
        let scn = f.scenario(PUZZLES, "saved.ron", &text).unwrap();
        f.rules(&scn, &source).unwrap();
        // The same file in a studio on another folder: refused, saying how.
        let elsewhere = Files::Folder(other.clone());
        let scn = elsewhere.scenario(PUZZLES, "saved.ron", &text).unwrap();
        let e = elsewhere
            .rules(
                &scn,
                &GameSource {
                    data: Some(other),
                    variant: None,
                },
            )
            .unwrap_err();
        assert_eq!(e.status.as_u16(), 403, "{}", e.message);
        assert!(
            e.message.contains("watergate serve --data"),
            "{}",
            e.message
        );
        // And in a studio on the shipped game.
        let scn = Files::Shipped
            .scenario(PUZZLES, "saved.ron", &text)
            .unwrap();
        let e = Files::Shipped
            .rules(&scn, &GameSource::shipped())
            .unwrap_err();
        assert!(
            e.message.contains("watergate serve --data"),
            "{}",
            e.message
        );
    }

    /// An uploaded scenario's `edits` and the variant it names may name
    /// files too: none outside the data folder is read (the 422 would show
    /// its first line), and without --data none at all.
    #[test]
    fn files_named_by_edits_or_by_a_variant_stay_inside_the_data_folder() {
        let tmp = tempfile::Builder::new()
            .prefix("wg-scn-edits-")
            .tempdir()
            .unwrap();
        let base = tmp.path().to_path_buf();
        let data = base.join("data");
        std::fs::create_dir_all(data.join(PUZZLES)).unwrap();
        std::fs::create_dir_all(data.join(VARIANTS)).unwrap();
        let secret = base.join("secret.rhai");
        std::fs::write(&secret, "SECRET_API_KEY").unwrap();
        let secret = secret.display().to_string();
        std::fs::write(
            data.join(VARIANTS).join("leaky.ron"),
            "Variant(name: \"leaky\", files: [(\"scripts/nixon/gordon_liddy.rhai\", \"../../../secret.rhai\")])",
        )
        .unwrap();
        let source = GameSource {
            data: Some(data.clone()),
            variant: None,
        };
        let uploads = [
            format!("Scenario(seed: 1, edits: Some((files: [(\"scripts/nixon/gordon_liddy.rhai\", {secret:?})])))"),
            "Scenario(seed: 1, edits: Some((files: [(\"scripts/nixon/gordon_liddy.rhai\", \"../../../secret.rhai\")])))".to_string(),
            format!("Scenario(seed: 1, edits: Some((add_cards: [{secret:?}])))"),
            "Scenario(seed: 1, variant: \"../variants/leaky.ron\")".to_string(),
        ];
        for text in &uploads {
            let f = Files::Folder(data.clone());
            let scn = f.scenario(PUZZLES, "upload", text).unwrap();
            let e = f.rules(&scn, &source).unwrap_err();
            assert_eq!(e.status.as_u16(), 403, "{text}: {}", e.message);
            assert!(!e.message.contains("SECRET"), "{text}: {}", e.message);
            if !text.contains("leaky") {
                let f = Files::Shipped;
                let scn = f.scenario(PUZZLES, "upload", text).unwrap();
                let e = f.rules(&scn, &GameSource::shipped()).unwrap_err();
                assert_eq!(e.status.as_u16(), 403, "{text}: {}", e.message);
                assert!(!e.message.contains("SECRET"), "{text}: {}", e.message);
            }
        }
        // The lab applies a variant of the folder by its name: the same.
        let e = Files::Folder(data.clone())
            .variant("leaky.ron")
            .unwrap_err();
        assert_eq!(e.status.as_u16(), 403, "{}", e.message);
        // A file inside the folder is read as the scenario asks.
        std::fs::write(data.join(PUZZLES).join("liddy.rhai"), "move_momentum(1);\n").unwrap();
        let f = Files::Folder(data.clone());
        let scn = f
            .scenario(
                PUZZLES,
                "upload",
                "Scenario(seed: 1, edits: Some((files: [(\"scripts/nixon/gordon_liddy.rhai\", \"liddy.rhai\")])))",
            )
            .unwrap();
        f.rules(&scn, &GameSource::shipped()).unwrap();
    }
}
