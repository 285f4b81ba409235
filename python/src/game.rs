//! Loading a game as the CLI does (`--data`, `--variant`), with every
//! problem of the files raised at once, and the loaded games a process
//! keeps so that a pickled state finds its rules again.

use crate::actions::ActionSpace;
use crate::observe::TensorShape;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use watergate_core::data::{DataSet, GameSource};
use watergate_core::diag::Diagnostics;
use watergate_core::game::model::Side;
use watergate_core::game::rules::Rules;

pyo3::create_exception!(
    watergate,
    DataError,
    PyException,
    "The game's files do not load: `problems` lists every problem as (path, line, column, message)."
);

/// A loaded game: its files, its rules and how OpenSpiel numbers them.
pub struct Loaded {
    pub source: GameSource,
    pub dataset: DataSet,
    pub rules: Rules,
    pub actions: ActionSpace,
    pub shape: TensorShape,
}

/// The games this process has loaded, newest last: a state restored from
/// its bytes takes the rules of the same files from here.
static LOADED: Mutex<Vec<Arc<Loaded>>> = Mutex::new(Vec::new());

impl Loaded {
    /// Reads and checks the files (every problem at once, as `check` shows them).
    pub fn load(source: GameSource) -> Result<Arc<Loaded>, Diagnostics> {
        let (dataset, rules) = source.load()?;
        let loaded = Arc::new(Loaded {
            actions: ActionSpace::of(&rules),
            shape: TensorShape::of(&rules),
            source,
            dataset,
            rules,
        });
        let mut all = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        all.retain(|g| g.source != loaded.source);
        all.push(loaded.clone());
        Ok(loaded)
    }

    /// The game of `source` whose files have `fingerprint`: one loaded
    /// already, or the files read again (refused if they have changed).
    pub fn find(source: GameSource, fingerprint: u64) -> PyResult<Arc<Loaded>> {
        let known = LOADED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|g| g.source == source && g.rules.fingerprint == fingerprint)
            .cloned();
        if let Some(g) = known {
            return Ok(g);
        }
        let g = Loaded::load(source).map_err(data_error)?;
        if g.rules.fingerprint != fingerprint {
            return Err(DataError::new_err(
                "the game's files have changed since this state was saved: it cannot be restored",
            ));
        }
        Ok(g)
    }
}

/// The exception for a game that does not load: the message lists every
/// problem as `path:line:col: message`, and `problems` holds them as tuples.
pub fn data_error(d: Diagnostics) -> PyErr {
    Python::attach(|py| {
        let problems: Vec<(String, usize, usize, String)> = d
            .iter()
            .map(|p| (p.path.clone(), p.line, p.col, p.message.clone()))
            .collect();
        let err = DataError::new_err(d.to_string().trim_end().to_string());
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
#[pyfunction]
#[pyo3(signature = (data=None, variant=None))]
pub fn load(py: Python<'_>, data: Option<PathBuf>, variant: Option<PathBuf>) -> PyResult<Game> {
    let source = GameSource { data, variant };
    let loaded = py.detach(|| Loaded::load(source)).map_err(data_error)?;
    Ok(Game { loaded })
}

#[pymethods]
impl Game {
    /// The game's name (its settings file).
    #[getter]
    fn name(&self) -> String {
        self.loaded.rules.name.clone()
    }

    /// The data folder given to `load` (`None`: the shipped game).
    #[getter]
    fn data(&self) -> Option<PathBuf> {
        self.loaded.source.data.clone()
    }

    /// The variant file given to `load`.
    #[getter]
    fn variant(&self) -> Option<PathBuf> {
        self.loaded.source.variant.clone()
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

    fn __repr__(&self) -> String {
        let s = &self.loaded.source;
        let show = |p: &Option<PathBuf>| match p {
            Some(p) => format!("{:?}", p.display().to_string()),
            None => "None".to_string(),
        };
        format!(
            "watergate.Game(name={:?}, data={}, variant={})",
            self.loaded.rules.name,
            show(&s.data),
            show(&s.variant)
        )
    }

    /// Pickled as the call that loads it again.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let load = py.import("watergate._engine")?.getattr("load")?;
        let s = &self.loaded.source;
        (load, (s.data.clone(), s.variant.clone())).into_pyobject(py)
    }
}
