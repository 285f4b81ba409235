//! A folder of a test's own in the temporary folder, removed when the test
//! is done with it (dropped: at its end, also when it fails), so that runs
//! leave nothing behind. Made by `tempfile`, so its name is unique to the
//! test (a random tail after the given name): tests running at once never
//! share one.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// `$TMPDIR/NAME-XXXXXX`, made and empty; or, from [`TempFolder::unmade`],
/// a path inside one with nothing there yet.
pub struct TempFolder {
    path: PathBuf,
    /// Removes the folder when dropped.
    _made: tempfile::TempDir,
}

impl TempFolder {
    /// The folder, made and empty.
    pub fn new(name: &str) -> TempFolder {
        let made = tempfile::Builder::new()
            .prefix(&format!("{name}-"))
            .tempdir()
            .expect("the test's folder is made");
        TempFolder {
            path: made.path().to_path_buf(),
            _made: made,
        }
    }

    /// A path with nothing there yet, in a folder of the test's own: for a
    /// command under test that makes the folder itself (`export`, say,
    /// which refuses one that is there).
    pub fn unmade(name: &str) -> TempFolder {
        let made = TempFolder::new(name);
        TempFolder {
            path: made.path.join(name),
            _made: made._made,
        }
    }
}

impl std::ops::Deref for TempFolder {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.path
    }
}

impl AsRef<Path> for TempFolder {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<OsStr> for TempFolder {
    fn as_ref(&self) -> &OsStr {
        self.path.as_os_str()
    }
}
