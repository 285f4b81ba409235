//! Every scenario file under `tests/scenarios/` and `scenarios/` is a test of
//! its own, named after its file (`rules/r5_6_ask_colour_reveal`): load the
//! position, play the choices, check the expectations. Filter as usual:
//! `cargo test --test scenarios r5_6`.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use watergate::formats::scenario::Scenario;
use watergate::game::rules::Rules;

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
    let rules: &Rules = if scn.has_own_rules() {
        own = scn
            .rules(&watergate::data::GameSource::shipped())
            .map_err(|d| d.to_string())?;
        &own
    } else {
        shipped()
    };
    let (_, failures) = scn.run(rules).map_err(|d| d.to_string())?;
    if !failures.is_empty() {
        return Err(failures.to_string().into());
    }
    if let Some(p) = &scn.def.puzzle {
        check_puzzle(&scn, rules, p)?;
        check_header(path)?;
    }
    Ok(())
}

/// A puzzle's claim is confirmed by the solver, and its recorded solution
/// is a legal line that ends in the claimed win.
fn check_puzzle(
    scn: &Scenario,
    r: &Rules,
    p: &watergate::formats::scenario::format::PuzzleDef,
) -> Result<(), Failed> {
    use watergate::players::solve::{solve, SolveConfig, Verdict};
    let mut s = scn.start(r).map_err(|d| d.to_string())?;
    scn.play(r, &mut s).map_err(|d| d.to_string())?;
    let result = solve(
        r,
        &s,
        &SolveConfig {
            side: p.side,
            max_plies: p.depth,
            counts: p.depth_counts,
            node_limit: 50_000_000,
        },
    );
    let found = match result.verdict {
        Verdict::Wins => true,
        Verdict::Cannot => false,
        Verdict::Unknown => return Err("the solver ran out of nodes".into()),
    };
    if found != p.wins {
        return Err(format!(
            "the puzzle claims {} {} force a win; the solver says the opposite (line: {:?})",
            p.side,
            if p.wins { "can" } else { "cannot" },
            result.line
        )
        .into());
    }
    if p.solution.is_empty() {
        return Err("a puzzle must record its solution line".into());
    }
    let mut line = s.clone();
    line.set_explicit_chance(true);
    let mut options = Vec::new();
    for (i, text) in p.solution.iter().enumerate() {
        if line.legal(r, &mut options).is_none() {
            return Err(format!("solution move {i} `{text}`: the game is already over").into());
        }
        let c = watergate::game::engine::notation::parse_choice(r, &line, text, &options)
            .map_err(|e| format!("solution move {i}: {e}"))?;
        line.apply(r, c)
            .map_err(|e| format!("solution move {i} `{text}`: {e}"))?;
    }
    if p.wins && line.outcome().map(|o| o.winner) != Some(p.side) {
        return Err(format!("the recorded solution does not end in a win for {}", p.side).into());
    }
    Ok(())
}

/// A puzzle's header comments state the goal and nothing of the answer:
/// the solution and its explanation live in fields an attempt keeps hidden.
fn check_header(path: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let header = text.split("Scenario(").next().unwrap_or("");
    if !header.contains("Goal:") {
        return Err("a puzzle's header comments must state its goal (`Goal:`)".into());
    }
    for giveaway in ["Solution", "Key:", "Answer", "Position:"] {
        if header.contains(giveaway) {
            return Err(format!(
                "the header comments say `{giveaway}`: keep the answer in `puzzle.explanation`"
            )
            .into());
        }
    }
    Ok(())
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
            // Broken scenarios are checked by their own test; variant files
            // (scenarios/variants) are not scenarios.
            if name.starts_with("broken") || name.starts_with("variants") {
                continue;
            }
            trials.push(Trial::test(name, move || run(&p)));
        }
    }
    // A folder moved or renamed must not leave a harness that passes with
    // nothing run (there are more than 300 files; the count only grows).
    assert!(
        trials.len() >= 300,
        "only {} scenario files found under tests/scenarios and scenarios",
        trials.len()
    );
    libtest_mimic::run(&args, trials).exit();
}
