//! Every scenario file under `tests/scenarios/` and `scenarios/` is a test of
//! its own, named after its file (`rules/r5_6_ask_colour_reveal`): load the
//! position, play the choices, check the expectations. Filter as usual:
//! `cargo test --test scenarios r5_6`.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use watergate::rules::Rules;
use watergate::scenario::Scenario;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ron") {
            out.push(p);
        }
    }
}

fn shipped() -> &'static Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES.get_or_init(|| Arc::new(watergate::data::shipped()))
}

fn run(path: &Path) -> Result<(), Failed> {
    let scn = Scenario::from_file(path).map_err(|d| d.to_string())?;
    let own;
    let rules: &Rules = if scn.def.data.is_some() || scn.def.variant.is_some() {
        own = scn.rules().map_err(|d| d.to_string())?;
        &own
    } else {
        shipped()
    };
    let (_, failures) = scn.run(rules).map_err(|d| d.to_string())?;
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.to_string().into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut trials = Vec::new();
    for base in ["tests/scenarios", "scenarios"] {
        let mut paths = Vec::new();
        files(&root.join(base), &mut paths);
        for p in paths {
            let name = p
                .strip_prefix(root.join(base))
                .unwrap_or(&p)
                .with_extension("")
                .display()
                .to_string();
            // Broken scenarios are checked by the loader tests, not run here.
            if name.starts_with("broken") {
                continue;
            }
            trials.push(Trial::test(name, move || run(&p)));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
