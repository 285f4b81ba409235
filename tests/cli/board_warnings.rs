//! `watergate check` warns of a board outside D5's shape (the shortest
//! informant-to-Nixon path, evidence spaces shared by two informants, two
//! disjoint paths, even slips) at the line and column of the space each
//! warning names first, in the file the designer wrote: the data folder's
//! board, a board file a variant copies in, or a board a variant writes
//! inline. The 2025 board (scenarios/variants/board_2025.ron) misses D5
//! twice: its informants are two evidence spaces from Nixon, and e2a and
//! e2l each touch two informants.

use crate::common::cli::{exported_game, watergate_in};
use std::path::Path;

const OLD_BOARD: &str = "scenarios/variants/board_2025.ron";

/// `path:line:col` of the value `"id"` of space `id` in `text`.
fn space_at(path: &str, text: &str, id: &str) -> String {
    let quoted = format!("(id: \"{id}\"");
    let (n, line) = (text.lines().enumerate())
        .find(|(_, l)| l.contains(&quoted))
        .unwrap_or_else(|| panic!("{id} is in {path}"));
    let col = line.find(&quoted).unwrap() + "(id: ".len() + 1;
    format!("{path}:{}:{col}", n + 1)
}

/// `check`'s stderr, by line; it must pass.
fn warnings(dir: &Path, args: &[&str]) -> Vec<String> {
    let out = watergate_in(dir, args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "check failed:\n{err}");
    err.lines().map(str::to_string).collect()
}

/// Both warnings, each at its space in `path` (whose text is `text`).
fn assert_both_at(lines: &[String], path: &str, text: &str) {
    let w: Vec<&String> = (lines.iter())
        .filter(|l| l.starts_with("warning: "))
        .collect();
    assert_eq!(w.len(), 2, "{w:?}");
    let expected = [
        (
            "informant_woods",
            "the shortest informant-to-Nixon path crosses 2",
        ),
        ("e2a", "evidence spaces e2a, e2l touch two informants"),
    ];
    for (warning, (space, says)) in w.iter().zip(expected) {
        let at = space_at(path, text, space);
        assert!(
            warning.starts_with(&format!("warning: {at}: {says}")),
            "{warning}"
        );
    }
}

#[test]
fn a_data_folders_board_is_warned_of_at_the_space_in_its_file() {
    let dir = exported_game("board-warnings-data");
    let text = std::fs::read_to_string(OLD_BOARD).unwrap();
    std::fs::write(dir.join("mydata/cards/board.ron"), &text).unwrap();
    let w = warnings(&dir, &["check", "--data", "mydata"]);
    assert_both_at(&w, "mydata/cards/board.ron", &text);
    // Under each, its line of the board file, as an error shows it.
    let woods = text
        .lines()
        .position(|l| l.contains("(id: \"informant_woods\""))
        .unwrap();
    assert_eq!(
        w[1],
        format!("    {} | {}", woods + 1, text.lines().nth(woods).unwrap()),
        "{w:?}"
    );
}

#[test]
fn a_board_a_variant_copies_in_is_warned_of_in_the_copied_file() {
    let text = std::fs::read_to_string(OLD_BOARD).unwrap();
    let w = warnings(
        Path::new("."),
        &["check", "--variant", "scenarios/variants/old_board.ron"],
    );
    assert_both_at(&w, OLD_BOARD, &text);
}

#[test]
fn a_board_a_variant_writes_inline_is_warned_of_in_the_variant() {
    let dir = exported_game("board-warnings-inline");
    let board: String = (std::fs::read_to_string(OLD_BOARD).unwrap().lines())
        .filter(|l| !l.starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let text = format!("Variant(\n    name: \"inline board\",\n    board: Some({board}),\n)\n");
    std::fs::write(dir.join("inline.ron"), &text).unwrap();
    let w = warnings(&dir, &["check", "--variant", "inline.ron"]);
    assert_both_at(&w, "inline.ron", &text);
}
