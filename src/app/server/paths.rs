//! Paths a page names: never a file outside the folder it belongs to. A
//! name from a client is joined to the folder, resolved with every `..`
//! and symbolic link (`canonicalize`), and must still lie inside the
//! folder's own resolved path; an absolute name, a `..` that climbs out or
//! a link that points out is refused with a 4xx that says why.

use super::error::ApiError;
use std::path::{Path, PathBuf};

/// `rel` inside `folder`, resolved; it must exist. `called` names the
/// folder in messages ("the data folder", "the log folder").
pub fn inside(folder: &Path, rel: &str, called: &str) -> Result<PathBuf, ApiError> {
    if rel.is_empty() {
        return Err(ApiError::bad_request("an empty path names no file"));
    }
    if Path::new(rel).is_absolute() {
        return Err(ApiError::forbidden(format!(
            "`{rel}` is an absolute path: name a file relative to {called}"
        )));
    }
    let root = folder.canonicalize().map_err(|e| {
        ApiError::not_found(format!(
            "the folder `{}` cannot be read: {e}",
            folder.display()
        ))
    })?;
    let path = root
        .join(rel)
        .canonicalize()
        .map_err(|_| ApiError::not_found(format!("there is no file `{rel}` in {called}")))?;
    if !path.starts_with(&root) {
        return Err(ApiError::forbidden(format!(
            "`{rel}` lies outside {called}; the studio opens files inside it only"
        )));
    }
    Ok(path)
}

/// A plain file name (no folder part) inside `folder`, resolved.
pub fn file_in(folder: &Path, name: &str, called: &str) -> Result<PathBuf, ApiError> {
    if name.contains(['/', '\\']) || name == ".." || name == "." {
        return Err(ApiError::forbidden(format!(
            "`{name}` is not a plain file name: pick a file from the list"
        )));
    }
    let path = inside(folder, name, called)?;
    if !path.is_file() {
        return Err(ApiError::not_found(format!("`{name}` is not a file")));
    }
    Ok(path)
}

/// Whether `path` (as a file names it, already joined to its folder)
/// resolves inside `root`.
pub fn within(root: &Path, path: &Path) -> bool {
    match (root.canonicalize(), path.canonicalize()) {
        (Ok(root), Ok(p)) => p.starts_with(root),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of the test's own (removed when dropped) holding a secret
    /// and `data/`: the folder and `data/`.
    fn tree() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::Builder::new()
            .prefix("wg-paths-")
            .tempdir()
            .unwrap();
        let base = tmp.path();
        let data = base.join("data");
        std::fs::create_dir_all(data.join("logs")).unwrap();
        std::fs::write(data.join("logs/a.ron"), "x").unwrap();
        std::fs::write(base.join("secret.txt"), "secret").unwrap();
        (tmp, data)
    }

    #[test]
    fn a_file_inside_the_folder_opens() {
        let (_tmp, data) = tree();
        assert!(inside(&data, "logs/a.ron", "the data folder")
            .unwrap()
            .ends_with("logs/a.ron"));
        assert!(file_in(&data.join("logs"), "a.ron", "the log folder").is_ok());
        // A missing log is missing from the log folder, not the data folder.
        let e = file_in(&data.join("logs"), "nope.ron", "the log folder").unwrap_err();
        assert_eq!(e.message, "there is no file `nope.ron` in the log folder");
    }

    #[test]
    fn dot_dot_and_absolute_paths_are_refused() {
        let (tmp, data) = tree();
        let base = tmp.path();
        let e = inside(&data, "../secret.txt", "the data folder").unwrap_err();
        assert_eq!(e.status.as_u16(), 403, "{}", e.message);
        assert!(e.message.contains("outside the data folder"));
        let e = inside(&data, "logs/../../secret.txt", "the data folder").unwrap_err();
        assert_eq!(e.status.as_u16(), 403);
        let abs = base.join("secret.txt").display().to_string();
        let e = inside(&data, &abs, "the data folder").unwrap_err();
        assert_eq!(e.status.as_u16(), 403);
        assert!(e.message.contains("absolute"));
        let e = file_in(&data.join("logs"), "../../secret.txt", "the log folder").unwrap_err();
        assert_eq!(e.status.as_u16(), 403);
        assert!(!within(&data, &base.join("secret.txt")));
        assert!(within(&data, &data.join("logs/a.ron")));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_pointing_out_is_refused() {
        let (tmp, data) = tree();
        let base = tmp.path();
        let link = data.join("out.txt");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(base.join("secret.txt"), &link).unwrap();
        let e = inside(&data, "out.txt", "the data folder").unwrap_err();
        assert_eq!(e.status.as_u16(), 403);
    }
}
