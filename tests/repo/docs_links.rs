//! The repository stands on its own: no tracked file refers to a path
//! outside it (the rule sources the docs were written from, seed files,
//! absolute paths), every relative markdown link and every `docs/….md#anchor`
//! citation resolves, every file of the repository named in prose (a doc's
//! text, a comment: `tests/rules/board_d5.rs`) exists, and every rule number
//! cited (`R5.6`, `Q5`, `D5`) exists in docs/rules.md or
//! docs/open-questions.md.
//!
//! The files are those `git ls-files` lists; without git, the tree is walked
//! (skipping `target/` and `.git/`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// Names that point outside the repository. Built from pieces so that this
/// file does not trip its own check.
fn outside_markers() -> Vec<String> {
    let md = ".md";
    vec![
        format!("..{}shared", "/"),
        format!("shared{}rules", "/"),
        format!("seeds{}", "/"),
        format!("RULES{md}"),
        format!("CARDS{md}"),
        format!("OPEN{md}"),
        format!("{}work{}", "/", "/"),
        format!("{}home{}", "/", "/"),
    ]
}

/// One problem, as `path:line: message`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Problem {
    path: String,
    line: usize,
    message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.path, self.line, self.message)
    }
}

/// The files to check, relative to `root`, with `/` separators.
fn list_files(root: &Path) -> Vec<String> {
    if let Ok(out) = Command::new("git")
        .arg("-C")
        .arg(root)
        .arg("ls-files")
        .output()
    {
        if out.status.success() {
            return String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if p.is_dir() {
            if name != "target" && name != ".git" {
                walk(root, &p, out);
            }
        } else if let Ok(rel) = p.strip_prefix(root) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// A heading's anchor as GitHub makes it: lower case, spaces to dashes,
/// punctuation other than `-` and `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().next().unwrap_or(c))
            } else if c == ' ' {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The anchors a markdown text defines: `id="…"` / `name="…"` attributes and
/// heading slugs (repeated headings get `-1`, `-2`, … as on GitHub).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for attr in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(i) = rest.find(attr) {
                rest = &rest[i + attr.len()..];
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_string());
                    rest = &rest[end..];
                }
            }
        }
        let t = line.trim_start();
        if t.starts_with('#') {
            let s = slug(t.trim_start_matches('#'));
            let n = seen.entry(s.clone()).or_insert(0);
            out.insert(if *n == 0 {
                s.clone()
            } else {
                format!("{s}-{n}")
            });
            *n += 1;
        }
    }
    out
}

/// `rel` joined to the directory of `from`, normalised; `None` when it
/// climbs out of the repository.
fn join(from: &str, rel: &str) -> Option<String> {
    let base = Path::new(from).parent().unwrap_or(Path::new(""));
    let mut parts: Vec<String> = Vec::new();
    for c in base.join(rel).components() {
        match c {
            Component::Normal(s) => parts.push(s.to_string_lossy().to_string()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.join("/"))
}

struct Checker {
    root: PathBuf,
    files: BTreeSet<String>,
    anchor_cache: std::cell::RefCell<BTreeMap<String, BTreeSet<String>>>,
}

impl Checker {
    fn new(root: &Path) -> Checker {
        Checker {
            root: root.to_path_buf(),
            files: list_files(root).into_iter().collect(),
            anchor_cache: Default::default(),
        }
    }

    fn read(&self, rel: &str) -> Option<String> {
        let bytes = std::fs::read(self.root.join(rel)).ok()?;
        if bytes.contains(&0) {
            return None;
        }
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// A path in the repository: a listed file, or a folder holding one.
    fn exists(&self, rel: &str) -> bool {
        let rel = rel.trim_end_matches('/');
        rel.is_empty()
            || self.files.contains(rel)
            || self
                .files
                .range(format!("{rel}/")..)
                .next()
                .is_some_and(|f| f.starts_with(&format!("{rel}/")))
    }

    fn has_anchor(&self, file: &str, anchor: &str) -> bool {
        let mut cache = self.anchor_cache.borrow_mut();
        let set = cache
            .entry(file.to_string())
            .or_insert_with(|| self.read(file).map(|t| anchors(&t)).unwrap_or_default());
        set.contains(anchor)
    }

    /// Checks that `target` (a path, optionally `#anchor`) seen in `from`
    /// resolves; `rel_to` is the file the path is relative to.
    fn check_target(&self, rel_to: &str, target: &str) -> Result<(), String> {
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target, None),
        };
        let file = if path.is_empty() {
            rel_to.to_string()
        } else {
            join(rel_to, path).ok_or_else(|| format!("`{target}` leaves the repository"))?
        };
        if !self.exists(&file) {
            return Err(format!("`{target}`: no file `{file}` in the repository"));
        }
        if let Some(a) = anchor {
            if file.ends_with(".md") && !self.has_anchor(&file, a) {
                return Err(format!("`{target}`: `{file}` has no anchor `#{a}`"));
            }
        }
        Ok(())
    }

    fn check_all(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        for f in &self.files {
            if let Some(text) = self.read(f) {
                self.check_file(f, &text, &mut out);
            }
        }
        out
    }

    fn check_file(&self, path: &str, text: &str, out: &mut Vec<Problem>) {
        let markers = outside_markers();
        let is_md = path.ends_with(".md");
        let names_files = names_files_in_prose(path);
        let mut fenced = false;
        for (i, line) in text.lines().enumerate() {
            let mut problem = |message: String| {
                out.push(Problem {
                    path: path.to_string(),
                    line: i + 1,
                    message,
                })
            };
            for m in &markers {
                if line.contains(m.as_str()) {
                    problem(format!("refers to `{m}`, outside the repository"));
                }
            }
            for word in seed_file_mentions(line) {
                problem(format!(
                    "refers to the seed file `{word}`, outside the repository"
                ));
            }
            if is_md && line.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            let mut linked = Vec::new();
            if is_md && !fenced {
                for target in markdown_links(line) {
                    linked.push(target.clone());
                    if let Err(e) = self.check_target(path, &target) {
                        problem(format!("broken link: {e}"));
                    }
                }
            }
            for target in docs_citations(line) {
                if linked.contains(&target) {
                    continue; // the text of a link to itself: checked as a link
                }
                if let Err(e) = self.check_target("", &target) {
                    problem(format!("broken citation: {e}"));
                }
            }
            if names_files && (is_md && !fenced || !is_md && is_comment(line)) {
                for named in repository_files(line) {
                    if !join("", &named).is_some_and(|f| self.exists(&f)) {
                        problem(format!(
                            "names `{named}`, which is no file of the repository"
                        ));
                    }
                }
            }
            for (kind, n) in rule_numbers(line) {
                let (doc, anchor) = match kind {
                    'R' => ("docs/rules.md", format!("r{}", n.replace('.', "-"))),
                    _ => (
                        "docs/open-questions.md",
                        format!("{}{n}", kind.to_ascii_lowercase()),
                    ),
                };
                if !self.has_anchor(doc, &anchor) {
                    problem(format!(
                        "cites {kind}{n}, which {doc} does not define (#{anchor})"
                    ));
                }
            }
        }
    }
}

/// Whether the files `path` names in its prose must exist: every doc and
/// source file but the planted mistakes (`tests/broken_*`, the fuzz corpus)
/// and BENCHMARKS.md, a dated log whose entries name the files as they were
/// on that day.
fn names_files_in_prose(path: &str) -> bool {
    let prose = [
        ".md", ".rs", ".js", ".py", ".sh", ".rhai", ".ron", ".toml", ".css", ".html",
    ];
    prose.iter().any(|ext| path.ends_with(ext))
        && !path.starts_with("tests/broken_")
        && !path.starts_with("fuzz/corpus/")
        && path != "BENCHMARKS.md"
}

/// A whole line of comment in a source or data file (`//`, `#`, a block
/// comment's `*`): prose, where a file named is a reference to follow.
/// Code's own strings are not, as tests write made-up paths into temporary
/// folders.
fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    ["//", "#", "*", "/*", "<!--"]
        .iter()
        .any(|c| t.starts_with(c))
}

/// The repository's files named in a line: a top folder of the repository,
/// then a path ending in a file kind the repository holds
/// (`tests/rules/board_d5.rs`, `scripts/nixon/gambit.rhai`). `docs/` is
/// `docs_citations`' business. A placeholder name of one letter
/// (`scenarios/puzzles/x.ron`) is an example, not a reference.
fn repository_files(line: &str) -> Vec<String> {
    const TOP: [&str; 12] = [
        "tests/",
        "crates/",
        "src/",
        "benches/",
        "scripts/",
        "cards/",
        "scenarios/",
        "python/",
        "balance/",
        "fuzz/",
        "assets/",
        ".ci/",
    ];
    const KINDS: [&str; 14] = [
        "rs", "md", "py", "ron", "rhai", "sh", "toml", "js", "css", "html", "csv", "txt", "json",
        "jsonl",
    ];
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    let mut out = Vec::new();
    for (at, _) in line.char_indices() {
        let Some(top) = TOP.iter().find(|t| line[at..].starts_with(**t)) else {
            continue;
        };
        if line[..at].chars().last().is_some_and(path_char) {
            continue; // inside a longer path: `crates/core/src/…`
        }
        let path: String = line[at..].chars().take_while(|c| path_char(*c)).collect();
        let path = path.trim_end_matches('.');
        let Some((stem, kind)) = path[top.len()..]
            .rsplit('/')
            .next()
            .and_then(|name| name.rsplit_once('.'))
        else {
            continue;
        };
        if KINDS.contains(&kind) && stem.chars().count() > 1 {
            out.push(path.to_string());
        }
    }
    out
}

/// The rule sources' file numbers ("seed" or "seeds", a space, then a number
/// starting with two zeros) and the old short citations ("OPEN" and a
/// question number).
fn seed_file_mentions(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for pre in ["seed 00", "seeds 00", "seed 0/", "OPEN Q", "OPEN D"] {
        let mut rest = line;
        while let Some(i) = rest.find(pre) {
            let before = line[..line.len() - rest.len() + i].chars().last();
            let after = rest[i + pre.len()..].chars().next();
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
                && after.is_some_and(|c| c.is_ascii_digit())
            {
                out.push(format!("{pre}{}", after.unwrap_or(' ')));
            }
            rest = &rest[i + pre.len()..];
        }
    }
    out
}

/// The targets of `[text](target)` links that are neither web addresses nor
/// mail links.
fn markdown_links(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        let target = target.trim_matches(|c| c == '<' || c == '>');
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            out.push(target.to_string());
        }
        rest = &rest[end..];
    }
    out
}

/// `docs/….md` and `docs/….md#anchor` as written anywhere, relative to the
/// repository's root.
fn docs_citations(line: &str) -> Vec<String> {
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    let anchor_char = |c: char| c.is_ascii_alphanumeric() || "_-".contains(c);
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(i) = line[start..].find("docs/") {
        let at = start + i;
        start = at + 5;
        if line[..at]
            .chars()
            .last()
            .is_some_and(|c| path_char(c) || c == '(' && line[..at].ends_with("]("))
        {
            continue;
        }
        let path: String = line[at..].chars().take_while(|c| path_char(*c)).collect();
        let path = path.trim_end_matches('.').to_string();
        if !path.ends_with(".md") {
            continue;
        }
        let after = &line[at + path.len()..];
        let target = match after.strip_prefix('#') {
            Some(a) => {
                let anchor: String = a.chars().take_while(|c| anchor_char(*c)).collect();
                format!("{path}#{anchor}")
            }
            None => path,
        };
        out.push(target);
    }
    out
}

/// Rule numbers cited in a line: `R5.6`, `R7` ('R', "5.6"), `Q5`, `D5`.
/// A number must stand alone: `R5.6` but not `PR5` or `R5a`.
fn rule_numbers(line: &str) -> Vec<(char, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    for i in 0..chars.len() {
        let kind = chars[i];
        if !matches!(kind, 'R' | 'Q' | 'D') {
            continue;
        }
        if i > 0 && (chars[i - 1].is_alphanumeric() || "_.-/#".contains(chars[i - 1])) {
            continue;
        }
        let mut j = i + 1;
        let mut n = String::new();
        while j < chars.len() && chars[j].is_ascii_digit() {
            n.push(chars[j]);
            j += 1;
        }
        if n.is_empty() {
            continue;
        }
        if kind == 'R' && j + 1 < chars.len() && chars[j] == '.' && chars[j + 1].is_ascii_digit() {
            n.push('.');
            j += 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                n.push(chars[j]);
                j += 1;
            }
        }
        if j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
            continue;
        }
        out.push((kind, n));
    }
    out
}

#[test]
fn every_tracked_file_stays_inside_the_repository_and_every_link_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let checker = Checker::new(root);
    assert!(
        checker.files.len() > 100 && checker.exists("docs/rules.md"),
        "the file list looks wrong: {} files",
        checker.files.len()
    );
    let problems = checker.check_all();
    let listing: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        listing.join("\n")
    );
}

/// The checker itself, on a small tree with one planted problem of each
/// kind (the tree is no git checkout, so this also runs the tree walk). The
/// planted names are built from pieces so that this file passes the check.
#[test]
fn the_checker_finds_planted_problems() {
    let made = tempfile::Builder::new()
        .prefix("watergate_docs_links_")
        .tempdir()
        .unwrap();
    let dir = made.path();
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
    let d = "docs";
    let up = format!("..{}", "/");
    let shared = format!("{up}shared");
    let rules_dir = format!("shared{}rules", "/");
    let seeds = format!("seeds {}0", "00");
    let gone = "gone";
    write(
        "docs/rules.md",
        "# Rules\n<a id=\"r5-6\"></a>**R5.6** Ask.\n<a id=\"r7\"></a>\n## R7 Evaluation\n",
    );
    write(
        "docs/open-questions.md",
        "<a id=\"q5\"></a><a id=\"d5\"></a>\n",
    );
    write(
        "README.md",
        &format!(
            "Good: [rules]({d}/rules.md#r5-6), [Q5]({d}/open-questions.md#q5), [top](#readme-title).\n\
             # Readme title\n\
             Bad: [gone]({d}/missing.md) and [anchor]({d}/rules.md#r9-9) and [up]({up}x.md).\n\
             See {shared}/rules/RULES{}.\n",
            ".md"
        ),
    );
    write(
        "notes.rs",
        &format!(
            "// R5.6 and R7 are fine, see {d}/rules.md#r5-6.\n\
             // {d}/rules.md#r5-7 is not, nor R5.7, nor Q6; D5 is.\n\
             // (from {seeds} and 004)\n\
             // tests/rules/main.rs is here; tests/{gone}.rs is not, scripts/x.rhai an example.\n"
        ),
    );
    std::fs::create_dir_all(dir.join("tests/rules")).unwrap();
    write("tests/rules/main.rs", "");
    let checker = Checker::new(dir);
    let found: Vec<String> = checker.check_all().iter().map(|p| p.to_string()).collect();
    let expected = [
        format!("README.md:3: broken link: `{d}/missing.md`"),
        format!("README.md:3: broken link: `{d}/rules.md#r9-9`"),
        format!("README.md:3: broken link: `{up}x.md` leaves the repository"),
        format!("README.md:4: refers to `{shared}`"),
        format!("README.md:4: refers to `{rules_dir}`"),
        format!("README.md:4: refers to `RULES{}`", ".md"),
        format!("notes.rs:2: broken citation: `{d}/rules.md#r5-7`"),
        "notes.rs:2: cites R5.7".to_string(),
        "notes.rs:2: cites Q6".to_string(),
        format!("notes.rs:3: refers to the seed file `{seeds}`"),
        format!("notes.rs:4: names `tests/{gone}.rs`, which is no file"),
    ];
    for e in &expected {
        assert!(
            found.iter().any(|f| f.starts_with(e.as_str())),
            "not found: {e}\nfound:\n{}",
            found.join("\n")
        );
    }
    assert_eq!(found.len(), expected.len(), "found:\n{}", found.join("\n"));
}

#[test]
fn files_named_in_prose_are_found_whole() {
    assert_eq!(
        repository_files(
            "see tests/rules/board_d5.rs, `crates/core/src/game/engine/vm/mod.rs` (`PerformChosen`). \
             Not src/ alone, scenarios/puzzles/x.ron, nor src/app (a folder)."
        ),
        vec![
            "tests/rules/board_d5.rs".to_string(),
            "crates/core/src/game/engine/vm/mod.rs".to_string(),
        ]
    );
}

#[test]
fn rule_numbers_stand_alone() {
    assert_eq!(
        rule_numbers("R5.6, (R10.2) R7. PR5 R5a x_D1 Q12: D7"),
        vec![
            ('R', "5.6".to_string()),
            ('R', "10.2".to_string()),
            ('R', "7".to_string()),
            ('Q', "12".to_string()),
            ('D', "7".to_string()),
        ]
    );
}

#[test]
fn heading_slugs_follow_github() {
    let a = anchors("# The cards\n## R5 Card phase\n### Q5 A brilliant mood: the first turn (revised)\n## R5 Card phase\n");
    for s in [
        "the-cards",
        "r5-card-phase",
        "q5-a-brilliant-mood-the-first-turn-revised",
        "r5-card-phase-1",
    ] {
        assert!(a.contains(s), "{s} not in {a:?}");
    }
}
