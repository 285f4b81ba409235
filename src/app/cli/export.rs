//! `watergate export DIR`: the game's data written out for a designer to
//! edit (then `--data DIR`).

use super::{CliError, CliResult};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `watergate export`'s arguments.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The folder to write cards/ and scripts/ into (created if missing).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Overwrite files in a non-empty directory.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// Writes the game's files to the folder, refusing a non-empty one without `--force`.
pub fn run(a: &ExportArgs) -> CliResult {
    let (dir, game) = (a.dir.as_path(), &a.game);
    super::paths::output_folder("export", dir)?;
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
    writeln!(
        out,
        "wrote {n} files of {} to {}; edit them and run `watergate check --data {}`",
        game.source().label(),
        dir.display(),
        dir.display()
    )?;
    Ok(())
}
