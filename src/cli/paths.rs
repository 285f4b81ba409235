//! Output paths are checked before any work starts.
