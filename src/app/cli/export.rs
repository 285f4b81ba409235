//! `watergate export DIR`: the game's data written out for a designer to
//! edit (then `--data DIR`).

use super::{CliError, CliResult};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use watergate_core::data::DataSet;

/// `watergate export`'s arguments.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The folder to write cards/ and scripts/ into (created if missing; its parent folder must exist).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Write into a folder that is not empty: its cards/ and scripts/ then
    /// hold the exported game and nothing else (a file there that the game
    /// does not have would be loaded with it, so it is removed and named).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// Writes the game's files to the folder, refusing a non-empty one without `--force`.
pub fn run(a: &ExportArgs) -> CliResult {
    let (dir, game) = (a.dir.as_path(), &a.game);
    super::paths::output_folder("export", dir)?;
    // `export --data d d` (with `--force`) would write the game over the
    // folder it was read from, a variant's changes baked in.
    if let Some(data) = game.data.as_deref() {
        super::paths::distinct(&[("the --data folder", data)], &[("export", dir)])?;
    }
    if dir.exists()
        && std::fs::read_dir(dir)
            .map(|mut e| e.next().is_some())
            .unwrap_or(false)
        && !a.force
    {
        return Err(CliError::Message(format!(
            "{} is not empty; pass --force to overwrite",
            dir.display()
        )));
    }
    // The game as given: the edited copy, with the variant's changes
    // written into the files they change.
    let ds = game.dataset()?;
    let mut out = super::output::stdout();
    let n = ds
        .write_to(dir)
        .map_err(|e| CliError::Message(format!("cannot write {}: {e}", dir.display())))?;
    if a.force {
        for rel in stale_files(dir, &ds) {
            let path = dir.join(&rel);
            std::fs::remove_file(&path)
                .map_err(|e| CliError::Message(format!("cannot remove {}: {e}", path.display())))?;
            writeln!(
                out,
                "removed {}: not a file of {}",
                path.display(),
                game.source().label()
            )?;
        }
    }
    writeln!(
        out,
        "wrote {n} files of {} to {}; edit them and run `watergate check --data {}`",
        game.source().label(),
        dir.display(),
        dir.display()
    )?;
    Ok(())
}

/// The files under `dir`'s data folders that `--data dir` would load but
/// that `ds` (just written there) does not have: an export over an edited
/// copy would otherwise leave its added cards and scripts in the game.
fn stale_files(dir: &Path, ds: &DataSet) -> Vec<String> {
    // Reading the folder back finds exactly what the loader would read
    // (hidden names left out), including files it would refuse.
    let Ok(there) = DataSet::from_dir(dir) else {
        return Vec::new();
    };
    there
        .files
        .keys()
        .chain(there.unread.keys())
        .filter(|rel| !ds.files.contains_key(*rel))
        .cloned()
        .collect()
}
