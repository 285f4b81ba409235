//! The lab's batch studies for Python, and plain data across the boundary:
//! results cross as JSON values and come out as dicts, lists and numbers.

use pyo3::prelude::*;

/// A JSON value as the Python value `json.loads` makes of it.
pub fn to_python(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(v)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// Adds the studies to the module.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
