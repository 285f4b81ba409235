//! The shipped evidence board meets the revised D5 (docs/open-questions.md#d5): the shortest
//! informant-to-Nixon path crosses 3 evidence spaces, no evidence space
//! touches two informants, every informant has 2 disjoint paths to Nixon,
//! and the three slip colours are about equally common. The board is data,
//! so this test keeps it from drifting; `watergate check` warns the same way.

use std::path::Path;
use watergate::data::variant::Variant;
use watergate::data::DataSet;
use watergate::game::board_shape::measure;
use watergate::game::model::SpaceId;

#[test]
fn the_shipped_board_meets_d5() {
    let r = watergate::data::shipped();
    let shape = measure(&r.board);
    assert_eq!(shape.shortest.len(), 7, "7 informants (R1.6)");
    for (id, d) in &shape.shortest {
        assert_eq!(*d, Some(3), "{id}: shortest path to Nixon");
    }
    assert!(shape.shared.is_empty(), "shared: {:?}", shape.shared);
    for (id, ok) in &shape.two_disjoint {
        assert!(ok, "{id} has 2 disjoint paths");
    }
    let [blue, yellow, green] = shape.colours;
    assert_eq!(blue + yellow + green, 32);
    assert!(shape.colours.iter().max().unwrap() - shape.colours.iter().min().unwrap() <= 1);
    assert_eq!(shape.warnings(), Vec::<String>::new());
}

#[test]
fn the_2025_board_misses_d5_and_is_flagged() {
    let v = Variant::from_file(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/variants/old_board.ron"),
    )
    .unwrap();
    let r = v.rules(&DataSet::embedded()).unwrap();
    let w = measure(&r.board).warnings();
    assert_eq!(w.len(), 2, "{w:#?}");
    assert!(w[0].contains("crosses 2 evidence spaces"), "{}", w[0]);
    assert!(w[1].contains("e2a, e2l touch two informants"), "{}", w[1]);
}

#[test]
fn an_informant_with_one_approach_has_one_path_and_is_flagged() {
    let r = watergate::data::shipped();
    let mut b = r.board.clone();
    let woods = b.informant_spaces[0];
    let cut: SpaceId = b.neighbours[woods.index()][0];
    b.neighbours[woods.index()].retain(|s| *s != cut);
    b.neighbours[cut.index()].retain(|s| *s != woods);
    let w = measure(&b).warnings();
    assert_eq!(w.len(), 1, "{w:#?}");
    assert!(
        w[0].starts_with("informant_woods has fewer than 2 disjoint paths"),
        "{}",
        w[0]
    );
}
