//! The one reader of files a user names or hands over: data files under
//! `--data`, scenarios, variants and the files they name, game logs, sweep
//! and simulation results to merge. It refuses what is not a regular file
//! (a device, a FIFO, a folder: `/dev/zero` would be read forever, a FIFO
//! would block the loader) and anything larger than [`MAX_FILE_BYTES`],
//! before reading a byte, and never reads more than that limit even from a
//! file that grows while it is read.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest file any loader reads: 4 MiB. The largest shipped file (the
/// board) is a few kilobytes and a long game's log some tens; a file past
/// this is a mistake (a device, a binary, a runaway generator), refused
/// with its size rather than read into memory.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file: a device, a FIFO, a socket or a folder.
    NotRegular(PathBuf),
    /// Larger than [`MAX_FILE_BYTES`] (`size` as stated, or as far as it was
    /// read when it grew past the limit).
    TooLarge(PathBuf, u64),
    /// The operating system's error (missing, no permission…).
    Io(PathBuf, std::io::Error),
}

impl ReadError {
    /// The reason without the path, for a diagnostic that already names it.
    pub fn reason(&self) -> String {
        match self {
            ReadError::NotRegular(_) => {
                "not a regular file (a device, FIFO or folder): refused".to_string()
            }
            ReadError::TooLarge(_, n) => format!(
                "{}: larger than the {} MiB a file may hold: refused",
                size_words(*n),
                MAX_FILE_BYTES >> 20
            ),
            ReadError::Io(_, e) => format!("cannot read: {e}"),
        }
    }

    /// The file the problem is with.
    pub fn path(&self) -> &Path {
        match self {
            ReadError::NotRegular(p) | ReadError::TooLarge(p, _) | ReadError::Io(p, _) => p,
        }
    }
}

fn size_words(n: u64) -> String {
    if n > MAX_FILE_BYTES {
        format!("{n} bytes")
    } else {
        // Grew past the limit while being read.
        format!("more than {MAX_FILE_BYTES} bytes")
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            other => write!(f, "{} is {}", other.path().display(), other.reason()),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads a file a user names, refusing what is not a regular file and
/// anything over [`MAX_FILE_BYTES`]. The file's kind is asked first
/// (`metadata` follows symbolic links), so a FIFO is never opened (opening
/// one blocks until a writer comes).
pub fn read_user_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(|e| ReadError::Io(path.to_path_buf(), e))?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(path.to_path_buf()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(path.to_path_buf(), meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| ReadError::Io(path.to_path_buf(), e))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io(path.to_path_buf(), e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(path.to_path_buf(), bytes.len() as u64));
    }
    Ok(bytes)
}

/// [`read_user_file`] as UTF-8 text; `what` names the kind of file expected
/// ("a `simulate --json` result") for the message on other bytes.
pub fn read_user_string(path: &Path, what: &str) -> Result<String, String> {
    let bytes = read_user_file(path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes)
        .map(super::strip_bom)
        .map_err(|_| format!("{}: not valid UTF-8 text: expected {what}", path.display()))
}

/// [`read_user_file`] as UTF-8 text, the error without the path (for a
/// message that names the file its own way, as the studio's do: by the
/// name the page sent rather than the server's path).
pub fn read_user_text(path: &Path) -> Result<String, String> {
    let bytes = read_user_file(path).map_err(|e| e.reason())?;
    String::from_utf8(bytes)
        .map(super::strip_bom)
        .map_err(|_| "not valid UTF-8 text".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of the test's own, removed when dropped.
    fn temp(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("wg-user-file-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn a_regular_file_is_read_whole() {
        let dir = temp("regular");
        let d = dir.path();
        std::fs::write(d.join("a.ron"), "Game()").unwrap();
        assert_eq!(read_user_file(&d.join("a.ron")).unwrap(), b"Game()");
    }

    #[test]
    fn a_folder_and_a_device_are_refused_by_name() {
        let dir = temp("folder");
        let d = dir.path();
        let e = read_user_file(d).unwrap_err();
        assert!(matches!(e, ReadError::NotRegular(_)), "{e}");
        assert_eq!(
            e.to_string(),
            format!(
                "{} is not a regular file (a device, FIFO or folder): refused",
                d.display()
            )
        );
        if Path::new("/dev/zero").exists() {
            let e = read_user_file(Path::new("/dev/zero")).unwrap_err();
            assert!(matches!(e, ReadError::NotRegular(_)), "{e}");
        }
    }

    #[test]
    fn a_file_over_the_limit_is_refused_with_its_size() {
        let dir = temp("large");
        let d = dir.path();
        let f = std::fs::File::create(d.join("big.ron")).unwrap();
        f.set_len(MAX_FILE_BYTES + 1).unwrap();
        let e = read_user_file(&d.join("big.ron")).unwrap_err();
        assert_eq!(
            e.reason(),
            format!(
                "{} bytes: larger than the 4 MiB a file may hold: refused",
                MAX_FILE_BYTES + 1
            )
        );
        // Exactly at the limit is still read.
        f.set_len(MAX_FILE_BYTES).unwrap();
        assert_eq!(
            read_user_file(&d.join("big.ron")).unwrap().len() as u64,
            MAX_FILE_BYTES
        );
    }

    #[test]
    fn a_missing_file_says_so() {
        let dir = temp("missing");
        let d = dir.path();
        let e = read_user_file(&d.join("nope.ron")).unwrap_err();
        assert!(e.to_string().starts_with("cannot read "), "{e}");
        assert!(e.reason().starts_with("cannot read: "), "{e}");
    }
}
