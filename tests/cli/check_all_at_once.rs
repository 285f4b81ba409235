//! `check` reports every problem of every file in one run (issue 39), as
//! rustc does: parse errors (two in one file), values, ids and script
//! names, each at its real `path:line:col`. Where the parser cannot go on
//! inside a file, it says so and the other files are still checked.

use crate::common::cli::watergate_in;
use crate::common::temp::TempFolder;
use std::path::Path;
use std::process::Output;

fn temp_dir(name: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-check-all-{name}"))
}

/// The shipped data exported to `dir/d`.
fn copy(dir: &Path) {
    let out = watergate_in(dir, &["export", "d"]);
    assert!(out.status.success(), "export: {out:?}");
}

/// Replaces the first `from` in `rel` by `to`; returns the line and column
/// (1-based, in chars) where `to` starts.
fn plant(dir: &Path, rel: &str, from: &str, to: &str) -> (usize, usize) {
    let path = dir.join("d").join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("no `{from}` in {rel}"));
    let edited = format!("{}{to}{}", &text[..at], &text[at + from.len()..]);
    std::fs::write(&path, edited).unwrap();
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    (line, col)
}

/// The diagnostic lines of a `check` run's stderr.
fn problems(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.starts_with("d/"))
        .map(str::to_string)
        .collect()
}

fn at(lines: &[String], path: &str, (line, col): (usize, usize), says: &str) {
    let head = format!("{path}:{line}:{col}: ");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&head) && l.contains(says)),
        "no `{head}…{says}…` in:\n{}",
        lines.join("\n")
    );
}

#[test]
fn one_run_reports_parse_value_id_and_script_name_problems() {
    let dir = temp_dir("four");
    copy(&dir);
    let woods = "cards/editor/23_recruit_woods.ron";
    let sloan = "cards/editor/25_recruit_sloan.ron";
    let liddy = "scripts/nixon/gordon_liddy.rhai";
    // Two parse errors in one card file (the second after the first).
    let side = plant(&dir, woods, "side: Editor,", "side: Nixxon,");
    let value = plant(&dir, woods, "value: 2,", "valeu: 2,");
    // Another card's colour.
    let colour = plant(&dir, sloan, "[Blue]", "[Bleu]");
    // A function the script API does not have.
    let call = plant(
        &dir,
        liddy,
        "return_track_evidence_to_bag(",
        "return_track_evidence_to_bagg(",
    );
    // A value out of range and a duplicate id in cards that parse.
    let dean = "cards/editor/27_recruit_dean.ron";
    let too_high = plant(&dir, dean, "value: ", "value: 12, // ");
    let baldwin = "cards/editor/28_recruit_baldwin.ron";
    let id = plant(
        &dir,
        baldwin,
        "id: \"editor.recruit_baldwin\"",
        "id: \"editor.recruit_dean\"",
    );

    let dean_id = plant(&dir, dean, "id: \"", "id: \"");

    let out = watergate_in(&dir, &["check", "--data", "d"]);
    assert_eq!(out.status.code(), Some(2));
    let lines = problems(&out);
    at(
        &lines,
        &format!("d/{woods}"),
        (side.0, side.1 + 6),
        "`Nixxon`",
    );
    at(&lines, &format!("d/{woods}"), value, "`valeu`");
    at(
        &lines,
        &format!("d/{sloan}"),
        (colour.0, colour.1 + 1),
        "`Bleu`",
    );
    at(
        &lines,
        &format!("d/{liddy}"),
        call,
        "`return_track_evidence_to_bagg`",
    );
    at(
        &lines,
        &format!("d/{dean}"),
        (too_high.0, too_high.1 + 7),
        "value is 12",
    );
    at(
        &lines,
        &format!("d/{baldwin}"),
        (id.0, id.1 + 4),
        "duplicate card id",
    );
    // The duplicate is also reported where the id was first written.
    at(
        &lines,
        &format!("d/{dean}"),
        (dean_id.0, dean_id.1 + 4),
        &format!("duplicate card id `editor.recruit_dean`: also used by d/{baldwin}"),
    );
    // Each misspelt name is met with the name it was meant to be.
    at(
        &lines,
        &format!("d/{woods}"),
        value,
        "did you mean `value`?",
    );
    // Nothing else, and every problem could be gone past.
    assert_eq!(lines.len(), 7, "{}", lines.join("\n"));
    assert!(
        lines.iter().all(|l| !l.contains("cannot go on")),
        "{lines:?}"
    );
}

#[test]
fn a_card_given_a_later_cards_number_is_reported_in_the_file_edited() {
    // The designer edits card 27 to number 28, which card 28 already has:
    // the files are read in order, so the duplicate is met in card 28's
    // file, but the report also stands in card 27's, where the edit is.
    let dir = temp_dir("duplicate-number");
    copy(&dir);
    let dean = "cards/editor/27_recruit_dean.ron";
    let baldwin = "cards/editor/28_recruit_baldwin.ron";
    let edited = plant(&dir, dean, "number: 27,", "number: 28,");
    let untouched = plant(&dir, baldwin, "number: 28,", "number: 28,");

    let out = watergate_in(&dir, &["check", "--data", "d"]);
    assert_eq!(out.status.code(), Some(2));
    let lines = problems(&out);
    at(
        &lines,
        &format!("d/{dean}"),
        (edited.0, edited.1 + 8),
        &format!("duplicate card number 28: also used by d/{baldwin}"),
    );
    at(
        &lines,
        &format!("d/{baldwin}"),
        (untouched.0, untouched.1 + 8),
        &format!("duplicate card number 28: also used by d/{dean}"),
    );
    assert_eq!(lines.len(), 2, "{}", lines.join("\n"));
}

#[test]
fn where_the_parser_cannot_go_on_it_says_so_and_checks_the_other_files() {
    let dir = temp_dir("stuck");
    copy(&dir);
    // A syntax error in tokens.ron: the pictures are unknown, and nothing
    // that names them is reported as wrong (it is not checked).
    let tokens = "cards/tokens.ron";
    let stuck = plant(&dir, tokens, "name: \"Woods\"", "name \"Woods\"");
    // A syntax error in the card naming Liddy's script, and that script
    // naming an unknown function: it is still compiled.
    let card = std::fs::read_dir(dir.join("d/cards/nixon"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .contains("scripts/nixon/gordon_liddy.rhai")
        })
        .unwrap();
    let card = format!(
        "cards/nixon/{}",
        card.file_name().unwrap().to_string_lossy()
    );
    let broken = plant(&dir, &card, "    type: ", "    type ");
    let liddy = "scripts/nixon/gordon_liddy.rhai";
    let call = plant(
        &dir,
        liddy,
        "return_track_evidence_to_bag(",
        "return_track_evidence_to_bagg(",
    );
    let sloan = "cards/editor/25_recruit_sloan.ron";
    let colour = plant(&dir, sloan, "[Blue]", "[Bleu]");

    let out = watergate_in(&dir, &["check", "--data", "d"]);
    assert_eq!(out.status.code(), Some(2));
    let lines = problems(&out);
    at(
        &lines,
        &format!("d/{tokens}"),
        (stuck.0, stuck.1 + 4),
        "expected a colon here (`name: value`); cannot go on inside this file",
    );
    at(
        &lines,
        &format!("d/{card}"),
        (broken.0, broken.1 + 8),
        "cannot go on inside this file",
    );
    at(
        &lines,
        &format!("d/{liddy}"),
        call,
        "`return_track_evidence_to_bagg`",
    );
    at(
        &lines,
        &format!("d/{sloan}"),
        (colour.0, colour.1 + 1),
        "`Bleu`",
    );
    assert!(
        lines.iter().all(|l| !l.contains("no picture named")),
        "{}",
        lines.join("\n")
    );
    assert_eq!(lines.len(), 4, "{}", lines.join("\n"));
}
