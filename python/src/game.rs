//! Loading a game as the CLI does (`--data`, `--variant`), with every
//! problem of the files raised at once, and the loaded games a process
//! keeps so that a pickled state finds its rules again.

use crate::actions::ActionSpace;
use crate::observe::TensorShape;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use watergate_core::data::{DataSet, GameSource};
use watergate_core::diag::{Diagnostic, Diagnostics};
use watergate_core::game::model::Side;
use watergate_core::game::rules::Rules;

// A ValueError, as json's and tomllib's decode errors are: `except
// ValueError` catches every bad input of the package, files included.
pyo3::create_exception!(
    watergate,
    DataError,
    pyo3::exceptions::PyValueError,
    "The game's files do not load: `problems` lists every problem as (path, line, column, message)."
);

/// `DataError.problems` before an error is given its own: an error made
/// by hand (`DataError("...")`) has none, a new empty list at each read
/// (the stub promises the attribute; it raised AttributeError). The
/// engine's errors set `problems` on the error itself, which hides this.
#[pyclass(module = "watergate._engine", frozen)]
pub struct NoProblems;

#[pymethods]
impl NoProblems {
    fn __get__(
        &self,
        _error: Option<&Bound<'_, PyAny>>,
        _class: Option<&Bound<'_, PyAny>>,
    ) -> Vec<(String, usize, usize, String)> {
        Vec::new()
    }
}

/// A loaded game: its files, its rules and how OpenSpiel numbers them.
pub struct Loaded {
    /// Where the files came from, as absolute paths (so that a pickled game
    /// or state names the same files from any working directory); `None`
    /// for files handed over in memory (`load_files`, as a cluster's
    /// workers get them).
    pub source: Option<GameSource>,
    /// The same paths as they were given to `load` (relative ones then
    /// relative to the working directory of the time): what the reports
    /// call the game, as the CLI does with those arguments.
    pub given: Option<GameSource>,
    /// What a simulation's report calls the game (`shipped game`,
    /// `mydata/ + house.ron`), as the CLI's `simulate` does.
    pub label: String,
    /// How the ladder and sweep name the game (`GameSource::label`).
    pub source_label: String,
    pub dataset: DataSet,
    pub rules: Rules,
    pub actions: ActionSpace,
    pub shape: TensorShape,
}

/// The games this process has loaded, newest last: a state restored from
/// its bytes takes the rules of the same files from here.
static LOADED: Mutex<Vec<Arc<Loaded>>> = Mutex::new(Vec::new());

impl Loaded {
    /// Reads and checks the files (every problem at once, as `check` shows
    /// them). Relative paths are taken from the working directory now,
    /// and kept as absolute paths; the reports name the game by the paths
    /// as given.
    pub fn load(given: GameSource) -> Result<Arc<Loaded>, Diagnostics> {
        Loaded::load_as(absolute(&given), given)
    }

    /// Reads the files of `source` (absolute paths) and names the game by
    /// the paths `given`. Files whose bytes a game of this process was
    /// loaded from already (the same paths, the same fingerprint) give that
    /// game: OpenSpiel makes its game again from the game's string at every
    /// `deserialize_game_and_state`, and compiling the scripts again took
    /// 3 ms each time.
    fn load_as(source: GameSource, given: GameSource) -> Result<Arc<Loaded>, Diagnostics> {
        let dataset = source.files()?;
        let fingerprint = dataset.fingerprint();
        if let Some(g) = Loaded::known(Some(&source), Some(&given), fingerprint) {
            return Ok(g);
        }
        let rules = watergate_core::data::load(&dataset)?;
        let label = match &given.variant {
            None => watergate_lab::report::data_label(given.data.as_deref()),
            Some(v) => format!(
                "{} + {}",
                watergate_lab::report::data_label(given.data.as_deref()),
                v.display()
            ),
        };
        let source_label = given.label();
        Ok(Loaded::keep(
            Some((source, given)),
            (label, source_label),
            dataset,
            rules,
        ))
    }

    /// Checks a game's files given in memory (paths under the data root).
    pub fn from_files(
        files: Vec<(String, Vec<u8>)>,
        labels: (String, String),
    ) -> Result<Arc<Loaded>, Diagnostics> {
        let dataset = DataSet {
            root: None,
            files: files.into_iter().collect(),
            unread: Default::default(),
            shown: Default::default(),
        };
        let rules = watergate_core::data::load(&dataset)?;
        Ok(Loaded::keep(None, labels, dataset, rules))
    }

    fn keep(
        source: Option<(GameSource, GameSource)>,
        (label, source_label): (String, String),
        dataset: DataSet,
        rules: Rules,
    ) -> Arc<Loaded> {
        let (source, given) = source.unzip();
        let loaded = Arc::new(Loaded {
            label,
            source_label,
            actions: ActionSpace::of(&rules),
            shape: TensorShape::of(&rules),
            source,
            given,
            dataset,
            rules,
        });
        let mut all = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        all.retain(|g| {
            g.source != loaded.source
                || (g.source.is_none() && g.rules.fingerprint != loaded.rules.fingerprint)
        });
        all.push(loaded.clone());
        loaded
    }

    /// The newest game this process loaded from `source` (`None`: files in
    /// memory) whose files have `fingerprint`, named by the paths `given`
    /// when they are given.
    fn known(
        source: Option<&GameSource>,
        given: Option<&GameSource>,
        fingerprint: u64,
    ) -> Option<Arc<Loaded>> {
        LOADED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .rev()
            .find(|g| {
                g.source.as_ref() == source
                    && g.rules.fingerprint == fingerprint
                    && given.is_none_or(|n| g.given.as_ref() == Some(n))
            })
            .cloned()
    }

    /// The game of `source` whose files have `fingerprint` (and, with
    /// `given`, named by those paths): one loaded already, or the files
    /// read again, refused if they have changed since `what` was saved.
    /// Relative paths (a state saved by an older version) are taken from
    /// the working directory now.
    pub fn find(
        source: Option<GameSource>,
        given: Option<GameSource>,
        fingerprint: u64,
        what: &str,
    ) -> PyResult<Arc<Loaded>> {
        let source = source.map(|s| absolute(&s));
        if let Some(g) = Loaded::known(source.as_ref(), given.as_ref(), fingerprint) {
            return Ok(g);
        }
        let Some(source) = source else {
            return Err(whole_game_error(format!(
                "this {what}'s game was loaded from files in memory (load_files): load them again first"
            )));
        };
        let given = given.unwrap_or_else(|| source.clone());
        let g = Loaded::load_as(source.clone(), given).map_err(data_error)?;
        if g.rules.fingerprint != fingerprint {
            return Err(whole_game_error(format!(
                "the files of {} have changed since this {what} was saved (fingerprint {fingerprint:016x} then, {:016x} now): it cannot be restored with other rules; load the game again",
                source.label(),
                g.rules.fingerprint
            )));
        }
        Ok(g)
    }

    /// The game's files as a study (a sweep, a ladder, `against`) reads them
    /// again: by the paths as given while they still name the same files,
    /// so that the reports and sweep keys are the CLI's for those
    /// arguments; by the absolute paths once the working directory has
    /// changed (or the game was restored elsewhere). `None` for files in
    /// memory.
    pub fn study_source(&self) -> Option<GameSource> {
        let (source, given) = (self.source.as_ref()?, self.given.as_ref()?);
        Some(if absolute(given) == *source {
            given.clone()
        } else {
            source.clone()
        })
    }
}

/// `source` with its paths made absolute against the working directory
/// (without resolving links). A path that cannot be (an empty one) is
/// kept as it is, for the load to say what is wrong with it; so is a
/// shipped file's name with no file there on disk
/// (`scenarios/variants/old_board.ron`), which names the built-in copy
/// from any working directory.
fn absolute(source: &GameSource) -> GameSource {
    let abs = |p: &Option<PathBuf>| {
        p.as_ref().map(|p| {
            watergate_core::data::source::shipped_name(p)
                .unwrap_or_else(|| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
        })
    };
    GameSource {
        data: abs(&source.data),
        variant: abs(&source.variant),
    }
}

/// The exception for a game that does not load: the message lists every
/// problem as `path:line:col: message`, and `problems` holds them as tuples.
pub fn data_error(d: Diagnostics) -> PyErr {
    let problems = d
        .iter()
        .map(|p| (p.path.clone(), p.line, p.col, p.message.clone()))
        .collect();
    data_error_with(d.to_string().trim_end().to_string(), problems)
}

/// The exception for an `against` that names no game: a DataError, as a
/// missing variant file is, whose one problem stands at the path given.
pub fn against_error(spec: &str, e: watergate_lab::report::LoadError) -> PyErr {
    match e {
        watergate_lab::report::LoadError::Data(d) => data_error(d),
        watergate_lab::report::LoadError::Message(m) => {
            data_error_with(m.clone(), vec![(spec.to_string(), 0, 0, m)])
        }
    }
}

/// The exception for a problem with the game as a whole (its files have
/// changed since a pickle, they were in memory), which no one file holds:
/// its `problems` is that one message at no path. Every DataError has
/// `problems`, as the class says (these had none, and `e.problems` in an
/// `except DataError` raised AttributeError).
pub fn whole_game_error(message: String) -> PyErr {
    data_error_with(message.clone(), vec![(String::new(), 0, 0, message)])
}

fn data_error_with(message: String, problems: Vec<(String, usize, usize, String)>) -> PyErr {
    Python::attach(|py| {
        let err = DataError::new_err(message);
        if let Err(e) = err.value(py).setattr("problems", problems) {
            return e;
        }
        err
    })
}

/// A game, loaded and checked.
#[pyclass(module = "watergate._engine", frozen)]
pub struct Game {
    pub loaded: Arc<Loaded>,
}

/// Loads the shipped game, a data folder (`data`) and/or a house-rule
/// variant (`variant`), as `watergate check --data DATA --variant VARIANT`.
/// Relative paths are taken from the working directory now; the game
/// keeps them as absolute paths (`Game.data`, `Game.variant`, a pickle).
#[pyfunction]
#[pyo3(signature = (data=None, variant=None))]
pub fn load(py: Python<'_>, data: Option<PathBuf>, variant: Option<PathBuf>) -> PyResult<Game> {
    empty_paths(data.as_deref(), variant.as_deref()).map_err(data_error)?;
    let source = GameSource { data, variant };
    let loaded = py.detach(|| Loaded::load(source)).map_err(data_error)?;
    Ok(Game { loaded })
}

/// Refuses `data=""` or `variant=""` by the argument's name. An empty
/// path names no file, so the load said only `: not a directory` (or `:
/// cannot read`) after a path of nothing; it is most often a setting or a
/// command-line value left blank where `None` meant the shipped game.
fn empty_paths(
    data: Option<&std::path::Path>,
    variant: Option<&std::path::Path>,
) -> Result<(), Diagnostics> {
    let mut d = Diagnostics::default();
    if data.is_some_and(|p| p.as_os_str().is_empty()) {
        d.push(Diagnostic::unread(
            "data",
            "an empty path; give a folder holding `cards/` and `scripts/`, or leave data out (None) for the shipped game",
        ));
    }
    if variant.is_some_and(|p| p.as_os_str().is_empty()) {
        d.push(Diagnostic::unread(
            "variant",
            "an empty path; give a house-rule variant file (.ron), or leave variant out (None) for none",
        ));
    }
    if d.is_empty() {
        Ok(())
    } else {
        Err(d)
    }
}

/// A pickled game (`Game.__reduce__`): the files at `data` and `variant`
/// (absolute paths) whose fingerprint is `fingerprint`, named in reports
/// by the paths first given (`given_data`, `given_variant`). Files that
/// have changed since raise DataError rather than load other rules.
#[pyfunction]
#[pyo3(signature = (data, variant, fingerprint, given_data=None, given_variant=None))]
pub fn restore_game(
    py: Python<'_>,
    data: Option<PathBuf>,
    variant: Option<PathBuf>,
    fingerprint: u64,
    given_data: Option<PathBuf>,
    given_variant: Option<PathBuf>,
) -> PyResult<Game> {
    let source = GameSource { data, variant };
    let given = GameSource {
        data: given_data.or_else(|| source.data.clone()),
        variant: given_variant.or_else(|| source.variant.clone()),
    };
    let loaded = py.detach(|| Loaded::find(Some(source), Some(given), fingerprint, "game"))?;
    Ok(Game { loaded })
}

/// Loads a game from its files given in memory, as `Game.files()` lists
/// them (path under the data root, contents): how a worker that shares no
/// disk with the caller gets the same game. `label` and `source_label`
/// name it in reports (`Game.labels()` of the game the files came from).
#[pyfunction]
#[pyo3(signature = (files, label=None, source_label=None))]
pub fn load_files(
    py: Python<'_>,
    files: Vec<(String, Vec<u8>)>,
    label: Option<String>,
    source_label: Option<String>,
) -> PyResult<Game> {
    let label = label.unwrap_or_else(|| "files in memory".to_string());
    let source_label = source_label.unwrap_or_else(|| label.clone());
    let loaded = py
        .detach(|| Loaded::from_files(files, (label, source_label)))
        .map_err(data_error)?;
    Ok(Game { loaded })
}

/// The game `--against SPEC` names for a run of `game` (`shipped`, `base`,
/// a data folder, or a variant file applied to `game`'s data), as the CLI
/// resolves it; the game being played itself is refused, as there.
#[pyfunction]
pub fn against(py: Python<'_>, game: &Game, spec: &str) -> PyResult<Game> {
    let g = &game.loaded;
    let data = g.study_source().and_then(|s| s.data);
    let source = watergate_lab::report::PlayedGame::against_source(spec, data.as_deref())
        .map_err(|e| against_error(spec, e))?;
    let loaded = py.detach(|| Loaded::load(source)).map_err(data_error)?;
    if loaded.rules.fingerprint == g.rules.fingerprint {
        return Err(pyo3::exceptions::PyValueError::new_err(
            watergate_lab::report::same_game(spec, data.is_some(), &g.label, &loaded.label),
        ));
    }
    Ok(Game { loaded })
}

#[pymethods]
impl Game {
    /// The game's name (its settings file).
    #[getter]
    fn name(&self) -> String {
        self.loaded.rules.name.clone()
    }

    /// The data folder given to `load`, as an absolute path (`None`: the
    /// shipped game).
    #[getter]
    fn data(&self) -> Option<PathBuf> {
        self.loaded.source.as_ref().and_then(|s| s.data.clone())
    }

    /// The variant file given to `load`, as an absolute path; a shipped
    /// variant named with no file there on disk
    /// (`scenarios/variants/old_board.ron` from outside a checkout) keeps
    /// that name, which means the built-in copy from any folder.
    #[getter]
    fn variant(&self) -> Option<PathBuf> {
        self.loaded.source.as_ref().and_then(|s| s.variant.clone())
    }

    /// How reports name the game: (the simulation's label, the ladder's
    /// and sweep's), to give `load_files` for the same names elsewhere.
    fn labels(&self) -> (String, String) {
        (self.loaded.label.clone(), self.loaded.source_label.clone())
    }

    /// `watergate check`'s warnings on the game, as `DataError.problems`
    /// lists problems: (path, line, column, message). Advice only (a board
    /// outside the D5 shape, a card script whose choice shows what the
    /// rules hide): the game loaded.
    #[getter]
    fn warnings(&self) -> Vec<(String, usize, usize, String)> {
        let g = &self.loaded;
        watergate_core::data::warnings(&g.rules, &g.dataset)
            .into_iter()
            .map(|w| (w.path, w.line, w.col, w.message))
            .collect()
    }

    /// A fingerprint of the files the game was made from.
    #[getter]
    fn fingerprint(&self) -> u64 {
        self.loaded.rules.fingerprint
    }

    /// How many distinct player actions OpenSpiel numbers.
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.loaded.actions.size()
    }

    /// The most outcomes one random event has.
    #[getter]
    fn max_chance_outcomes(&self) -> usize {
        self.loaded.actions.max_chance_outcomes()
    }

    /// The length of an observation (and information-state) tensor.
    #[getter]
    fn tensor_size(&self) -> usize {
        self.loaded.shape.len()
    }

    /// The tensor's parts, in order, as (name, length): the README's table
    /// "The observation tensor" says what each holds.
    #[getter]
    fn tensor_layout(&self) -> Vec<(&'static str, usize)> {
        self.loaded.shape.parts().to_vec()
    }

    /// The player cards, as dicts (`id`, `name`, `side`, `value`, `action`).
    fn cards(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let r = &self.loaded.rules;
        let cards: Vec<serde_json::Value> = r
            .cards
            .iter()
            .map(|c| {
                serde_json::json!({
                    "id": c.id,
                    "name": c.name,
                    "side": if c.side == Side::Editor { "editor" } else { "nixon" },
                    "value": c.value,
                    "action": c.action_text,
                })
            })
            .collect();
        crate::batch::to_python(py, &serde_json::Value::Array(cards))
    }

    /// The files of the game, by their path under the data root (the
    /// variant applied): what a worker needs to load the same game.
    fn files(&self) -> Vec<(String, Vec<u8>)> {
        self.loaded
            .dataset
            .files
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// Two games are equal when they have the same rules (the same
    /// fingerprint): the same files loaded twice, a pickled game and the
    /// game it came from, or a copy of the data in another folder. Where
    /// the files came from is not the game.
    /// (Against anything but a Game, pyo3 answers NotImplemented.)
    fn __eq__(&self, other: PyRef<'_, Game>) -> bool {
        other.loaded.rules.fingerprint == self.loaded.rules.fingerprint
    }

    fn __hash__(&self) -> u64 {
        self.loaded.rules.fingerprint
    }

    fn __repr__(&self) -> String {
        let show = |p: Option<&PathBuf>| match p {
            Some(p) => format!("{:?}", p.display().to_string()),
            None => "None".to_string(),
        };
        match &self.loaded.source {
            Some(s) => format!(
                "watergate.Game(name={:?}, data={}, variant={})",
                self.loaded.rules.name,
                show(s.data.as_ref()),
                show(s.variant.as_ref())
            ),
            None => format!(
                "watergate.Game(name={:?}, from {} files in memory)",
                self.loaded.rules.name,
                self.loaded.dataset.files.len()
            ),
        }
    }

    /// Pickled as the call that loads it again: the same files by their
    /// absolute paths (from any working directory), refused if they have
    /// changed since (`restore_game`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let module = py.import("watergate._engine")?;
        match (&self.loaded.source, &self.loaded.given) {
            (Some(s), Some(given)) => (
                module.getattr("restore_game")?,
                (
                    s.data.clone(),
                    s.variant.clone(),
                    self.loaded.rules.fingerprint,
                    given.data.clone(),
                    given.variant.clone(),
                ),
            )
                .into_pyobject(py),
            _ => {
                let (label, source_label) = self.labels();
                (
                    module.getattr("load_files")?,
                    (self.files(), label, source_label),
                )
                    .into_pyobject(py)
            }
        }
    }
}
