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

/// How many numbered names `free_name` tries before it gives up (a folder
/// holding that many files of one name is not one to add to).
const NUMBERED_NAMES: u32 = 10_000;

/// The numbered names of a file written where the user did not name it:
/// `{stem}{ext}`, then `{stem}-2{ext}`, `{stem}-3{ext}`…
fn numbered(dir: &Path, stem: &str, ext: &str) -> impl Iterator<Item = std::path::PathBuf> {
    let dir = dir.to_path_buf();
    let (stem, ext) = (stem.to_string(), ext.to_string());
    (1..=NUMBERED_NAMES).map(move |n| match n {
        1 => dir.join(format!("{stem}{ext}")),
        n => dir.join(format!("{stem}-{n}{ext}")),
    })
}

fn no_free_name(dir: &Path, stem: &str, ext: &str) -> CliError {
    CliError::Message(format!(
        "{}: no free name for {stem}{ext} ({NUMBERED_NAMES} taken); move some away",
        dir.display()
    ))
}

/// The first numbered name (`numbered`) in `dir` that nothing has yet, for
/// a file the command writes by default: it never replaces an earlier one
/// (a game log of the same seed, say). The command says which name it took.
pub fn free_name(dir: &Path, stem: &str, ext: &str) -> Result<std::path::PathBuf, CliError> {
    // `symlink_metadata`: a dangling link is a name taken too.
    numbered(dir, stem, ext)
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .ok_or_else(|| no_free_name(dir, stem, ext))
}

/// Writes `contents` to a new file under the first free numbered name in
/// `dir`, made with `create_new`, so that not even a run beside this one
/// that writes the same name at the same moment is overwritten. Returns
/// the path written.
pub fn write_new(
    dir: &Path,
    stem: &str,
    ext: &str,
    contents: &str,
) -> Result<std::path::PathBuf, CliError> {
    use std::io::Write as _;
    for path in numbered(dir, stem, ext) {
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                return f
                    .write_all(contents.as_bytes())
                    .map(|()| path.clone())
                    .map_err(|e| refuse("cannot write", &path, e));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(refuse("cannot write", &path, e)),
        }
    }
    Err(no_free_name(dir, stem, ext))
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

/// The `--csv` and `--chart` files of `simulate`, `sweep` and `merge`:
/// each writable, and not one file for both (the second written would
/// replace the first).
pub fn report_outputs(csv: Option<&Path>, chart: Option<&Path>) -> Result<(), CliError> {
    if let Some(p) = csv {
        output_file("--csv", p)?;
    }
    if let Some(p) = chart {
        chart_file(p)?;
    }
    let outputs: Vec<(&str, &Path)> = [("--csv", csv), ("--chart", chart)]
        .into_iter()
        .filter_map(|(what, p)| Some((what, p?)))
        .collect();
    distinct(&[], &outputs)
}

/// Refuses a command whose outputs would destroy what it was given: an
/// output (`("--save", path)`) that is one of its inputs
/// (`("the scenario file", path)`) would be replaced by the command's own
/// result, and two outputs naming one file would leave only the second.
/// Names are compared as files, not as text: `./s.ron`, `s.ron`, a
/// symbolic or a hard link to it are one file.
pub fn distinct(inputs: &[(&str, &Path)], outputs: &[(&str, &Path)]) -> Result<(), CliError> {
    for (i, (what, out)) in outputs.iter().enumerate() {
        if let Some((input, _)) = inputs.iter().find(|(_, p)| same_file(p, out)) {
            return Err(refuse(
                what,
                out,
                format!("is {input}, which this command reads; writing there would replace it"),
            ));
        }
        if let Some((other, _)) = outputs[..i].iter().find(|(_, p)| same_file(p, out)) {
            return Err(refuse(
                what,
                out,
                format!("is also the file of {other}; each output needs a file of its own"),
            ));
        }
    }
    Ok(())
}

/// Refuses an output that would write into a game the command reads
/// (`("the --data game", source)`): into a data folder's `cards/` or
/// `scripts/`, whose every file is part of the game (a CSV there replaces
/// a card, or breaks the next load), or over a file a variant reads
/// (`add_cards`, `files`). The variant file itself is `distinct`'s.
pub fn outside_games(
    games: &[(&str, &crate::data::GameSource)],
    outputs: &[(&str, &Path)],
) -> Result<(), CliError> {
    for (game, source) in games {
        if let Some(data) = &source.data {
            for folder in ["cards", "scripts"] {
                let Ok(root) = data.join(folder).canonicalize() else {
                    continue;
                };
                for (what, out) in outputs {
                    let at = out.canonicalize().ok().or_else(|| resolved(out));
                    if at.is_some_and(|at| at.starts_with(&root)) {
                        return Err(refuse(
                            what,
                            out,
                            format!(
                                "is inside {}, the {folder}/ of {game}: every file there is part of the game, so writing there would change or break it; write it elsewhere",
                                data.join(folder).display()
                            ),
                        ));
                    }
                }
            }
        }
        let variant = source.variant.as_deref();
        let Some(Ok(v)) = variant.map(crate::data::variant::Variant::from_file) else {
            continue;
        };
        for (named, file) in v.files_named() {
            if let Some((what, out)) = outputs.iter().find(|(_, out)| same_file(&file, out)) {
                return Err(refuse(
                    what,
                    out,
                    format!("is `{named}`, a file the variant of {game} reads; writing there would replace it"),
                ));
            }
        }
    }
    Ok(())
}

/// Whether two paths name one file (or folder). Two that exist are the
/// same file when they are one inode (Unix) or resolve to one path; two
/// that do not exist yet, when their folders resolve to one and their
/// names are the same; one that exists and one that does not are two.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(ma), Ok(mb)) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                ma.dev() == mb.dev() && ma.ino() == mb.ino()
            }
            #[cfg(not(unix))]
            {
                let _ = (ma, mb);
                matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
            }
        }
        (Err(_), Err(_)) => match (resolved(a), resolved(b)) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        },
        _ => false,
    }
}

/// A path that does not exist yet as its folder's real path and its name.
fn resolved(path: &Path) -> Option<std::path::PathBuf> {
    let name = path.file_name()?;
    Some(parent_of(path).canonicalize().ok()?.join(name))
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
    fn an_output_may_be_no_input_and_no_other_output_by_any_name() {
        let dir = temp("distinct");
        let d = dir.path();
        std::fs::write(d.join("in.ron"), "").unwrap();
        let input = d.join("in.ron");
        let again = d.join(".").join("in.ron");
        let inputs = [("the scenario file", input.as_path())];
        assert!(message(distinct(&inputs, &[("--save", &again)]))
            .contains("is the scenario file, which this command reads"));
        assert!(distinct(&inputs, &[("--save", &d.join("out.ron"))]).is_ok());
        // Two outputs not written yet, one file.
        let (a, b) = (d.join("x.svg"), d.join(".").join("x.svg"));
        assert!(message(distinct(&[], &[("--csv", &a), ("--chart", &b)]))
            .contains("is also the file of --csv"));
        assert!(distinct(&[], &[("--csv", &d.join("x.csv")), ("--chart", &a)]).is_ok());
    }

    #[test]
    fn a_free_name_is_numbered_past_the_names_taken() {
        let dir = temp("free");
        let d = dir.path();
        let name = |p: std::path::PathBuf| p.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(
            name(free_name(d, "g-4", ".log.ron").unwrap()),
            "g-4.log.ron"
        );
        std::fs::write(d.join("g-4.log.ron"), "first").unwrap();
        assert_eq!(
            name(free_name(d, "g-4", ".log.ron").unwrap()),
            "g-4-2.log.ron"
        );
        let written = write_new(d, "g-4", ".log.ron", "second").unwrap();
        assert_eq!(name(written), "g-4-2.log.ron");
        assert_eq!(
            std::fs::read_to_string(d.join("g-4.log.ron")).unwrap(),
            "first"
        );
        assert_eq!(
            name(write_new(d, "g-4", ".log.ron", "").unwrap()),
            "g-4-3.log.ron"
        );
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
