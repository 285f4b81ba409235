//! A folder of a test's own in the temporary folder, removed when the test
//! is done with it (dropped: at its end, also when it fails), so that runs
//! leave nothing behind.

use std::path::PathBuf;

/// `$TMPDIR/NAME-PID`, fresh (emptied if a run before left it).
pub struct TempFolder(PathBuf);

impl TempFolder {
    pub fn new(name: &str) -> TempFolder {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the test's folder is made");
        TempFolder(dir)
    }
}

impl std::ops::Deref for TempFolder {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
