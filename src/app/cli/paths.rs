//! Output paths are checked before any work starts, so a long run never
//! ends in "cannot write": the parent folder must exist, the path must not
//! be a folder when a file is expected (nor a file when a folder is), and
//! it must be writable. Charts are drawn in the format their extension
//! names, and only SVG is supported.

use super::CliError;
use std::fs::OpenOptions;
use std::path::Path;

fn refuse(what: &str, path: &Path, why: impl std::fmt::Display) -> CliError {
    CliError::Message(format!("{what} {}: {why}", path.display()))
}

/// The folder a relative file name without one lives in: the current one.
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A file the command will write (`what` names the option: "--csv").
/// Nothing is left behind: a file created to test writing is removed, and
/// an existing file is opened for appending, which does not change it.
pub fn output_file(what: &str, path: &Path) -> Result<(), CliError> {
    if path.as_os_str().is_empty() {
        return Err(CliError::Message(format!("{what}: expected a file name")));
    }
    if path.is_dir() {
        return Err(refuse(what, path, "is a folder; expected a file name"));
    }
    let parent = parent_of(path);
    if !parent.is_dir() {
        let why = if parent.exists() {
            format!("{} is not a folder", parent.display())
        } else {
            format!("the folder {} does not exist", parent.display())
        };
        return Err(refuse(what, path, why));
    }
    if path.exists() {
        OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| refuse(what, path, format!("cannot be written: {e}")))?;
    } else {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| refuse(what, path, format!("cannot be written: {e}")))?;
        // Only a probe: the command writes the file when it has the content.
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// A folder the command will fill (`export DIR`): an existing folder, or a
/// new one whose parent exists.
pub fn output_folder(what: &str, dir: &Path) -> Result<(), CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(refuse(what, dir, "is a file; expected a folder"));
    }
    if !dir.exists() {
        let parent = parent_of(dir);
        if !parent.is_dir() {
            return Err(refuse(
                what,
                dir,
                format!("the folder {} does not exist", parent.display()),
            ));
        }
    }
    Ok(())
}

/// The chart's format follows its file's extension. Only SVG: plotters'
/// bitmap backend draws text only with a font renderer (its `ttf` feature
/// needs the system's fontconfig and freetype; `ab_glyph` needs a font file
/// shipped with the binary) plus an image encoder, for a chart that a
/// converter makes from the SVG in one line.
pub fn chart_file(path: &Path) -> Result<(), CliError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("svg") => output_file("--chart", path),
        Some("png") => Err(refuse(
            "--chart",
            path,
            "PNG is not supported (it would need a font renderer in the binary); write an .svg and convert it, e.g. `rsvg-convert -o chart.png chart.svg`",
        )),
        Some(other) => Err(refuse(
            "--chart",
            path,
            format!("`.{other}` is not a chart format; the chart is drawn as SVG: name the file *.svg"),
        )),
        None => Err(refuse(
            "--chart",
            path,
            "no extension; the chart is drawn as SVG: name the file *.svg",
        )),
    }
}

/// The `--csv` and `--chart` files of `simulate` and `merge`.
pub fn report_outputs(csv: Option<&Path>, chart: Option<&Path>) -> Result<(), CliError> {
    if let Some(p) = csv {
        output_file("--csv", p)?;
    }
    if let Some(p) = chart {
        chart_file(p)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of the test's own, removed when dropped.
    fn temp(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("watergate-paths-{name}-"))
            .tempdir()
            .unwrap()
    }

    fn message(r: Result<(), CliError>) -> String {
        match r {
            Err(CliError::Message(m)) => m,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_file_path_must_be_a_writable_file_in_an_existing_folder() {
        let dir = temp("file");
        let d = dir.path();
        assert!(output_file("--csv", &d.join("out.csv")).is_ok());
        assert!(
            !d.join("out.csv").exists(),
            "the probe leaves nothing behind"
        );
        std::fs::write(d.join("kept.csv"), "old").unwrap();
        assert!(output_file("--csv", &d.join("kept.csv")).is_ok());
        assert_eq!(std::fs::read_to_string(d.join("kept.csv")).unwrap(), "old");
        assert!(message(output_file("--csv", d)).ends_with("is a folder; expected a file name"));
        assert!(message(output_file("--csv", &d.join("no/out.csv"))).contains("does not exist"));
        assert!(
            message(output_file("--csv", &d.join("kept.csv/out.csv"))).contains("is not a folder")
        );
    }

    #[test]
    fn charts_are_svg_by_their_extension() {
        let dir = temp("chart");
        let d = dir.path();
        assert!(chart_file(&d.join("c.svg")).is_ok());
        assert!(chart_file(&d.join("c.SVG")).is_ok());
        assert!(message(chart_file(&d.join("c.png"))).contains("PNG is not supported"));
        assert!(message(chart_file(&d.join("c.pdf"))).contains("`.pdf` is not a chart format"));
        assert!(message(chart_file(&d.join("chart"))).contains("no extension"));
    }

    #[test]
    fn a_folder_path_must_not_be_a_file() {
        let dir = temp("folder");
        let d = dir.path();
        assert!(output_folder("export", d).is_ok());
        assert!(output_folder("export", &d.join("new")).is_ok());
        std::fs::write(d.join("f"), "").unwrap();
        assert!(message(output_folder("export", &d.join("f")))
            .ends_with("is a file; expected a folder"));
        assert!(message(output_folder("export", &d.join("a/b"))).contains("does not exist"));
    }
}
