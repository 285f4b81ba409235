//! Card scripts as a designer meets them: editing a script or a card file
//! changes the game with no rebuild, and hostile scripts are stopped by the
//! sandbox with the card's name, the script file and the position, leaving
//! the game as it was.

use watergate::data::{self, DataSet};
use watergate::formats::scenario::Scenario;
use watergate::game::engine::{notation::parse_choice, PlayError};
use watergate::game::rules::Rules;
use watergate::game::state::State;

const LIDDY_POSITION: &str = r#"Scenario(
    position: Some((
        initiative: Nixon,
        hands: (editor: ["editor.recruit_woods"], nixon: ["nixon.gordon_liddy", "nixon.gambit"]),
        track: [(token: "blue", at: "E2", face_up: true), (token: "green", at: "N1", face_up: true)],
    )),
)"#;

fn with_file(rel: &str, text: &str) -> Rules {
    let mut ds = DataSet::embedded();
    ds.files.insert(rel.to_string(), text.as_bytes().to_vec());
    data::load(&ds).unwrap_or_else(|d| panic!("{d}"))
}

fn start(r: &Rules, text: &str) -> State {
    Scenario::from_text("test.ron", text, ".".into())
        .unwrap()
        .start(r)
        .unwrap()
}

fn play(r: &Rules, s: &mut State, choice: &str) -> Result<(), PlayError> {
    let mut options = Vec::new();
    s.legal(r, &mut options);
    let c = parse_choice(r, s, choice, &options).unwrap_or_else(|e| panic!("{e}"));
    s.apply(r, c)
}

#[test]
fn a_replaced_script_changes_the_game_without_rebuilding() {
    // Shipped Gordon Liddy: a face-up evidence token goes back to the bag.
    let shipped = data::shipped();
    let mut s = start(&shipped, LIDDY_POSITION);
    play(&shipped, &mut s, "gordon_liddy action").unwrap();
    assert_eq!(s.momentum_token(), Some(0));
    // A designer's Liddy moves the momentum token 3 steps instead.
    let edited = with_file("scripts/nixon/gordon_liddy.rhai", "move_momentum(3);\n");
    let mut s = start(&edited, LIDDY_POSITION);
    play(&edited, &mut s, "gordon_liddy action").unwrap();
    assert_eq!(s.momentum_token(), Some(-3));
    assert_eq!(s.track().len(), 2, "no evidence returned to the bag");
}

#[test]
fn an_edited_card_value_changes_the_game() {
    let text =
        String::from_utf8(DataSet::embedded().files["cards/nixon/10_gordon_liddy.ron"].clone())
            .unwrap();
    let edited = with_file(
        "cards/nixon/10_gordon_liddy.ron",
        &text.replace("value: 3,", "value: 1,"),
    );
    for (rules, expected) in [(&data::shipped(), -3), (&edited, -1)] {
        let mut s = start(rules, LIDDY_POSITION);
        play(rules, &mut s, "gordon_liddy value").unwrap();
        play(rules, &mut s, "initiative").unwrap();
        assert_eq!(s.initiative_token(), Some(expected));
    }
}

/// A script that reads the game is run at each play; one that misbehaves
/// only then is stopped at play time, and the game is left as it was.
fn hostile_at_play(body: &str) -> (PlayError, State, State) {
    let script = format!("if track_evidence_count() > 0 {{\n{body}\n}}\nmove_momentum(1);\n");
    let r = with_file("scripts/nixon/gordon_liddy.rhai", &script);
    let mut s = start(&r, LIDDY_POSITION);
    let before = s.clone();
    let e = play(&r, &mut s, "gordon_liddy action").unwrap_err();
    (e, before, s)
}

#[test]
fn an_endless_loop_is_stopped_with_the_card_name_and_position() {
    let (e, before, after) = hostile_at_play("    loop { }");
    assert_eq!(before, after, "the game is unchanged");
    let PlayError::Script(e) = e else {
        panic!("{e:?}")
    };
    assert_eq!(e.card, "Gordon Liddy");
    assert_eq!(e.script, "scripts/nixon/gordon_liddy.rhai");
    assert_eq!((e.line, e.col), (2, 10));
    assert!(e.message.contains("operations"), "{}", e.message);
    assert_eq!(
        e.to_string(),
        "scripts/nixon/gordon_liddy.rhai:2:10: card `Gordon Liddy`: stopped by the sandbox: more than 50000 operations (an endless loop?)"
    );
}

#[test]
fn deep_recursion_is_stopped() {
    let r = with_file(
        "scripts/nixon/gordon_liddy.rhai",
        "fn down(n) { down(n + 1) }\nif track_evidence_count() > 0 { down(0); }\n",
    );
    let mut s = start(&r, LIDDY_POSITION);
    let before = s.clone();
    let PlayError::Script(e) = play(&r, &mut s, "gordon_liddy action").unwrap_err() else {
        panic!()
    };
    assert_eq!(s, before);
    assert!(e.message.contains("nested deeper"), "{}", e.message);
}

#[test]
fn huge_strings_and_arrays_are_stopped() {
    for body in [
        "    let s = \"ab\"; loop { s += s; }",
        "    let a = [1]; loop { a += a; }",
    ] {
        let (e, before, after) = hostile_at_play(body);
        assert_eq!(before, after);
        let PlayError::Script(e) = e else {
            panic!("{e:?}")
        };
        assert!(e.message.contains("too large"), "{}", e.message);
    }
}

#[test]
fn files_clock_modules_and_eval_are_not_available() {
    for (script, needle) in [
        ("import \"secrets\" as s;\n", "does not compile"),
        ("let t = timestamp();\n", "unknown function `timestamp`"),
        (
            "let f = open_file(\"/etc/passwd\");\n",
            "unknown function `open_file`",
        ),
        ("eval(\"move_momentum(1)\");\n", "does not compile"),
    ] {
        let mut ds = DataSet::embedded();
        ds.files.insert(
            "scripts/nixon/gordon_liddy.rhai".into(),
            script.as_bytes().to_vec(),
        );
        let d = data::load(&ds).unwrap_err();
        let text = d.to_string();
        assert!(
            text.starts_with("scripts/nixon/gordon_liddy.rhai:1:"),
            "{text}"
        );
        assert!(text.contains(needle), "{script}: {text}");
    }
}

#[test]
fn the_documented_api_is_the_printed_reference() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/script-api.md"))
        .unwrap();
    // The page is the command's whole output on the shipped game: this
    // reference, then where the shipped scripts call each function
    // (`tests/cli` compares the two in full).
    assert!(
        doc.starts_with(&watergate::script::api::reference()),
        "regenerate docs/script-api.md with `watergate script-api > docs/script-api.md`"
    );
}

#[test]
fn shipped_scripts_read_no_state_so_programs_are_computed_once() {
    let r = data::shipped();
    for c in &r.cards {
        assert!(
            matches!(c.action, watergate::game::rules::Action::Static(_)),
            "{} is dynamic",
            c.id
        );
    }
}

/// A `choose_card` with nothing to choose chooses nothing, as a skipped
/// one does: a card chosen by an earlier `choose_card` of the same action
/// is not carried past it (here it would be removed from the game).
#[test]
fn a_choice_with_nothing_to_choose_leaves_no_earlier_card_chosen() {
    let edited = with_file(
        "scripts/nixon/gordon_liddy.rhai",
        concat!(
            "choose_card(#{ zone: \"hand\", owner: \"me\" }, || {});\n",
            "choose_card(#{ zone: \"discard\", owner: \"opponent\" }, || {});\n",
            "remove_chosen_card();\n",
        ),
    );
    let mut s = start(&edited, LIDDY_POSITION);
    play(&edited, &mut s, "gordon_liddy action").unwrap();
    let gambit = edited.card_by_id("nixon.gambit").unwrap();
    assert!(
        s.hand(watergate::game::model::Side::Nixon)
            .contains(&gambit),
        "Gambit, chosen first, stays in hand: the second choice had nothing to choose"
    );
    assert!(s.removed().is_empty(), "nothing was removed");
}

/// A script that reads the game runs at every play of its card, in a
/// scope the host keeps for that card between runs (a copy of the `card`
/// map each time cost a fifth of such a run). Every run must still see
/// its own card, unchanged, and nothing an earlier run declared, on every
/// thread.
#[test]
fn a_script_that_reads_the_game_sees_its_own_card_at_every_play() {
    let shipped = data::shipped();
    let mut ds = DataSet::embedded();
    let mut cards_of: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for c in &shipped.cards {
        cards_of.entry(&c.script).or_default().push(&c.id);
    }
    for (file, ids) in &cards_of {
        let ids = ids
            .iter()
            .map(|id| format!("{id:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        let check = format!(
            concat!(
                "if is_def_var(\"declared_by_an_earlier_run\") {{ throw \"a variable of an earlier run is still there\"; }}\n",
                "let declared_by_an_earlier_run = my_momentum();\n",
                "if !([{ids}].contains(card.id)) {{ throw \"saw the card \" + card.id; }}\n",
                "let copy = card; copy.id = \"changed\"; copy.remove(\"name\");\n",
            ),
            ids = ids
        );
        let text = String::from_utf8(ds.files[*file].clone()).unwrap();
        ds.files
            .insert(file.to_string(), format!("{check}{text}").into_bytes());
    }
    let edited = data::load(&ds).unwrap_or_else(|d| panic!("{d}"));
    for c in &edited.cards {
        assert!(
            matches!(c.action, watergate::game::rules::Action::Dynamic { .. }),
            "{} reads the game now, so it runs at every play",
            c.id
        );
    }
    use watergate::lab::sim::{simulate, SimConfig};
    use watergate::players::agent::AgentSpec;
    let cfg = SimConfig {
        games: 600,
        seed: 1,
        first_game: 0,
        editor: AgentSpec::Random,
        nixon: AgentSpec::Random,
        threads: 2,
    };
    let tally = simulate(&edited, &cfg, &|_| {}).unwrap_or_else(|f| panic!("{f}"));
    assert!(tally.decisions > 50_000, "{} decisions", tally.decisions);
}
