//! `watergate cards --json` keeps the schema documented in
//! docs/formats/cards-json.md: names, not indices or bit masks; requirements
//! and reactions as data; the momentum cards with their spaces.

use serde_json::Value;
use std::process::Command;

fn cards_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .arg("cards")
        .arg("--json")
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cards --json prints JSON")
}

fn card<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no card {id}"))
}

#[test]
fn the_document_names_its_schema_and_version() {
    let doc = cards_json(&[]);
    assert_eq!(doc["schema"], "watergate-cards");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["game"], "Watergate (base game)");
    assert_eq!(doc["cards"].as_array().unwrap().len(), 40);
    let numbers: Vec<u64> = doc["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["number"].as_u64().unwrap())
        .collect();
    let mut sorted = numbers.clone();
    sorted.sort();
    assert_eq!(numbers, sorted, "cards are listed by number");
}

#[test]
fn an_informant_card_names_its_informant_colours_and_requirement() {
    let doc = cards_json(&[]);
    let woods = card(&doc, "editor.recruit_woods");
    assert_eq!(woods["side"], "Editor");
    assert_eq!(woods["type"], "Event");
    assert_eq!(woods["colours"], serde_json::json!(["Yellow"]));
    assert_eq!(woods["informant"], "Woods");
    assert_eq!(woods["steps"], 2);
    // R5.11: the picture must be in the potential informant supply.
    assert_eq!(
        woods["requirement"],
        serde_json::json!({ "kind": "PictureInSupply", "informant": "Woods" })
    );
    assert_eq!(woods["reaction"], Value::Null);
    assert_eq!(woods["file"], "cards/editor/23_recruit_woods.ron");
}

#[test]
fn a_reaction_card_says_what_it_answers() {
    let doc = cards_json(&[]);
    // R6: Follow the money! answers a value play moving evidence, any card type.
    assert_eq!(
        card(&doc, "editor.follow_the_money")["reaction"],
        serde_json::json!({ "part": "Value", "card_types": [], "moves": "Evidence" })
    );
    // John Mitchell answers an event's action.
    assert_eq!(
        card(&doc, "nixon.john_mitchell")["reaction"],
        serde_json::json!({ "part": "Action", "card_types": ["Event"], "moves": null })
    );
    assert_eq!(
        card(&doc, "nixon.a_brilliant_mood")["requirement"],
        serde_json::json!({ "kind": "NotFirstTurnOfRound" })
    );
}

#[test]
fn the_momentum_cards_come_with_their_spaces() {
    let doc = cards_json(&[]);
    let m = doc["momentum_cards"].as_array().unwrap();
    assert_eq!(m.len(), 2);
    let editor = m.iter().find(|c| c["side"] == "Editor").unwrap();
    let spaces = editor["spaces"].as_array().unwrap();
    assert_eq!(spaces.len(), 5);
    // R9.2: the Editor's third space is the Watergate Trial.
    assert_eq!(spaces[2]["space"], 3);
    assert_eq!(spaces[2]["title"], "Watergate Trial");
    assert_eq!(
        spaces[2]["script"],
        "scripts/editor/momentum_3_watergate_trial.rhai"
    );
    assert_eq!(spaces[0]["title"], Value::Null);
}

#[test]
fn a_variant_shows_in_the_json() {
    let v = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/variants/cheap_liddy.ron"
    );
    let doc = cards_json(&["--variant", v]);
    assert_eq!(card(&doc, "nixon.gordon_liddy")["value"], 2);
    assert_eq!(card(&cards_json(&[]), "nixon.gordon_liddy")["value"], 3);
}

/// Every field the JSON has, at every level, is documented (as `field` in a
/// table row of docs/formats/cards-json.md), and every field the document
/// lists for cards exists.
#[test]
fn the_schema_document_lists_every_field() {
    let doc_text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/formats/cards-json.md"
    ))
    .expect("docs/formats/cards-json.md exists");
    let documented = |field: &str| doc_text.contains(&format!("| `{field}` |"));
    let doc = cards_json(&[]);
    let mut missing = Vec::new();
    let mut check = |what: &str, v: &Value| {
        for key in v.as_object().unwrap().keys() {
            if !documented(key) {
                missing.push(format!("{what}.{key}"));
            }
        }
    };
    check("top level", &doc);
    for c in doc["cards"].as_array().unwrap() {
        check("card", c);
        for part in ["requirement", "reaction"] {
            if c[part].is_object() {
                check(part, &c[part]);
            }
        }
    }
    for m in doc["momentum_cards"].as_array().unwrap() {
        check("momentum card", m);
        for s in m["spaces"].as_array().unwrap() {
            check("space", s);
        }
    }
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "undocumented fields: {missing:?}");
    // The top-level table lists exactly the top-level fields.
    let top: Vec<&str> = doc_text
        .split("## Top level")
        .nth(1)
        .and_then(|t| t.split("\n## ").next())
        .unwrap_or("")
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .collect();
    let mut keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    let mut top_sorted = top.clone();
    top_sorted.sort();
    assert_eq!(top_sorted, keys);
}
