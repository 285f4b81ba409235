//! `watergate._engine`: the Rust side of the `watergate` Python package.
//! Python sees loaded games (`Game`), one game in progress as OpenSpiel
//! plays it (`Match`), and the batch studies of the lab (`simulate`,
//! `sweep`, `ladder`). The Python package (python/watergate/) wraps them
//! in plain Python: errors, dicts, and the OpenSpiel game.
//!
//! Nothing here changes the rules: every move goes through the core's
//! `State::apply`, which refuses an illegal choice and leaves the state as
//! it was, so a refused action raises and changes nothing.

mod actions;
mod batch;
mod game;
mod matches;
mod observe;
mod seen;

use pyo3::prelude::*;

/// The module: its classes, its functions and its exception.
#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let data_error = m.py().get_type::<game::DataError>();
    data_error.setattr("problems", game::NoProblems)?;
    m.add("DataError", data_error)?;
    m.add("MAX_SEEDS", matches::MAX_SEEDS)?;
    m.add_class::<game::Game>()?;
    m.add_class::<matches::Match>()?;
    m.add_function(wrap_pyfunction!(game::load, m)?)?;
    m.add_function(wrap_pyfunction!(game::load_files, m)?)?;
    m.add_function(wrap_pyfunction!(game::against, m)?)?;
    m.add_function(wrap_pyfunction!(game::restore_game, m)?)?;
    m.add_function(wrap_pyfunction!(matches::restore_match, m)?)?;
    batch::register(m)?;
    Ok(())
}
