//! What one game changes against another: every card field by field, every
//! script as a unified diff, the board, the tokens, the game's numbers and
//! settings, and the momentum cards. Both data sets must load (`data::load`);
//! values are compared as they stand in the RON files (the stage-one
//! definitions of `raw`), so field names are the files' own.

use crate::data::raw::{BoardDef, GameDef, MomentumCardDef, PlayerCardDef, TokensDef};
use crate::data::validate::{BOARD_FILE, GAME_FILE, MOMENTUM_DIR, TOKENS_FILE};
use crate::data::{parse_file, DataSet};
use crate::diag::Diagnostics;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// One difference between two games.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// A field of something both games have: `thing` names it (`card
    /// nixon.gordon_liddy`, `board`), `field` is the path inside its file
    /// (`value`, `settings.named_colour_locked`, `spaces["e3"].kind`).
    Field {
        thing: String,
        file: String,
        field: String,
        old: Value,
        new: Value,
    },
    /// A list whose length changed: the items only the old game has, and
    /// those only the new game has.
    Items {
        thing: String,
        file: String,
        field: String,
        removed: Vec<Value>,
        added: Vec<Value>,
    },
    /// Something (a card, a momentum card, a script, a file) only the new
    /// game has; a script's whole text with it, since what it does is the
    /// change a reader looks for.
    Added {
        thing: String,
        file: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// Something only the old game has (a script's text with it).
    Removed {
        thing: String,
        file: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A text file (a script) both games have, changed: a unified diff.
    Text {
        thing: String,
        file: String,
        unified: String,
    },
}

/// Every difference from `old` to `new`, in a stable order: game, tokens,
/// board, player cards (by id), momentum cards, scripts, any other file.
pub fn diff(old: &DataSet, new: &DataSet) -> Result<Vec<Change>, Diagnostics> {
    let mut out = Vec::new();
    let mut d = Diagnostics::default();
    let mut seen: BTreeSet<String> = BTreeSet::new();

    fn one<T: serde::de::DeserializeOwned + Serialize>(
        old: &DataSet,
        new: &DataSet,
        rel: &str,
        thing: &str,
        out: &mut Vec<Change>,
        d: &mut Diagnostics,
    ) {
        match (parse_file::<T>(old, rel), parse_file::<T>(new, rel)) {
            (Ok(a), Ok(b)) => fields(thing, rel, &json(&a.def), &json(&b.def), out),
            (a, b) => {
                for e in [a.err(), b.err()].into_iter().flatten() {
                    d.extend(e);
                }
            }
        }
    }
    one::<GameDef>(old, new, GAME_FILE, "game", &mut out, &mut d);
    one::<TokensDef>(old, new, TOKENS_FILE, "tokens", &mut out, &mut d);
    one::<BoardDef>(old, new, BOARD_FILE, "board", &mut out, &mut d);
    seen.extend([GAME_FILE, TOKENS_FILE, BOARD_FILE].map(String::from));

    for (kind, momentum) in [("card", false), ("momentum card", true)] {
        let a = by_id(old, momentum, &mut d, &mut seen);
        let b = by_id(new, momentum, &mut d, &mut seen);
        for (id, (rel_a, va)) in &a {
            let thing = format!("{kind} {id}");
            match b.get(id) {
                None => out.push(Change::Removed {
                    thing,
                    file: rel_a.clone(),
                    text: None,
                }),
                Some((rel_b, vb)) => {
                    if rel_a != rel_b {
                        out.push(Change::Field {
                            thing: thing.clone(),
                            file: rel_b.clone(),
                            field: "(file)".into(),
                            old: Value::String(rel_a.clone()),
                            new: Value::String(rel_b.clone()),
                        });
                    }
                    fields(&thing, rel_b, va, vb, &mut out);
                }
            }
        }
        for (id, (rel_b, _)) in &b {
            if !a.contains_key(id) {
                out.push(Change::Added {
                    thing: format!("{kind} {id}"),
                    file: rel_b.clone(),
                    text: None,
                });
            }
        }
    }
    if !d.is_empty() {
        return Err(d);
    }

    // Scripts first, then any other file, each by path.
    let rest = |ds: &DataSet| -> BTreeSet<String> {
        ds.files
            .keys()
            .filter(|k| !seen.contains(*k))
            .cloned()
            .collect()
    };
    let paths: BTreeSet<String> = rest(old).union(&rest(new)).cloned().collect();
    let (scripts, others): (Vec<&String>, Vec<&String>) =
        paths.iter().partition(|p| p.starts_with("scripts/"));
    for rel in scripts.into_iter().chain(others) {
        let what = if rel.starts_with("scripts/") {
            "script"
        } else {
            "file"
        };
        let thing = format!("{what} {rel}");
        let script_text =
            |bytes: &[u8]| (what == "script").then(|| String::from_utf8_lossy(bytes).into_owned());
        match (old.get(rel), new.get(rel)) {
            (Some(a), None) => out.push(Change::Removed {
                thing,
                file: rel.clone(),
                text: script_text(a),
            }),
            (None, Some(b)) => out.push(Change::Added {
                thing,
                file: rel.clone(),
                text: script_text(b),
            }),
            (Some(a), Some(b)) if a != b => {
                let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
                let unified = similar::TextDiff::from_lines(a.as_ref(), b.as_ref())
                    .unified_diff()
                    .context_radius(3)
                    .header(&format!("a/{rel}"), &format!("b/{rel}"))
                    .to_string();
                out.push(Change::Text {
                    thing,
                    file: rel.clone(),
                    unified,
                });
            }
            _ => {}
        }
    }
    Ok(out)
}

fn json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The player cards (or momentum cards) of `ds` by id: (file, definition).
fn by_id(
    ds: &DataSet,
    momentum: bool,
    d: &mut Diagnostics,
    seen: &mut BTreeSet<String>,
) -> BTreeMap<String, (String, Value)> {
    let mut out = BTreeMap::new();
    for rel in ds.files.keys() {
        let Some(rest) = rel.strip_prefix("cards/") else {
            continue;
        };
        if !rel.ends_with(".ron")
            || !rest.contains('/')
            || rel.starts_with(MOMENTUM_DIR) != momentum
        {
            continue;
        }
        seen.insert(rel.clone());
        let parsed = if momentum {
            parse_file::<MomentumCardDef>(ds, rel).map(|p| (p.def.id.clone(), json(&p.def)))
        } else {
            parse_file::<PlayerCardDef>(ds, rel).map(|p| (p.def.id.clone(), json(&p.def)))
        };
        match parsed {
            Ok((id, v)) => {
                out.insert(id, (rel.clone(), v));
            }
            Err(e) => d.extend(e),
        }
    }
    out
}

/// Compares two values of one thing, field by field, recursively.
fn fields(thing: &str, file: &str, a: &Value, b: &Value, out: &mut Vec<Change>) {
    walk(thing, file, "", a, b, out);
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn walk(thing: &str, file: &str, path: &str, a: &Value, b: &Value, out: &mut Vec<Change>) {
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(ma), Value::Object(mb)) => {
            // Fields in alphabetical order (serde_json's maps are sorted).
            let mut keys: Vec<&String> = ma.keys().collect();
            keys.extend(mb.keys().filter(|k| !ma.contains_key(*k)));
            for k in keys {
                let (va, vb) = (
                    ma.get(k).unwrap_or(&Value::Null),
                    mb.get(k).unwrap_or(&Value::Null),
                );
                walk(thing, file, &join(path, k), va, vb, out);
            }
        }
        (Value::Array(la), Value::Array(lb)) => {
            let id = |v: &Value| v.get("id").and_then(Value::as_str).map(str::to_string);
            if la.iter().chain(lb).all(|v| id(v).is_some()) {
                // Lists of things with ids (board spaces): matched by id.
                let ka: BTreeMap<String, &Value> =
                    la.iter().filter_map(|v| Some((id(v)?, v))).collect();
                let kb: BTreeMap<String, &Value> =
                    lb.iter().filter_map(|v| Some((id(v)?, v))).collect();
                let removed: Vec<Value> = la
                    .iter()
                    .filter(|v| id(v).is_some_and(|i| !kb.contains_key(&i)))
                    .cloned()
                    .collect();
                let added: Vec<Value> = lb
                    .iter()
                    .filter(|v| id(v).is_some_and(|i| !ka.contains_key(&i)))
                    .cloned()
                    .collect();
                for (i, va) in &ka {
                    if let Some(vb) = kb.get(i) {
                        walk(thing, file, &format!("{path}[\"{i}\"]"), va, vb, out);
                    }
                }
                if !removed.is_empty() || !added.is_empty() {
                    out.push(Change::Items {
                        thing: thing.into(),
                        file: file.into(),
                        field: path.into(),
                        removed,
                        added,
                    });
                }
            } else if la.len() == lb.len() {
                for (i, (va, vb)) in la.iter().zip(lb).enumerate() {
                    walk(thing, file, &format!("{path}[{i}]"), va, vb, out);
                }
            } else {
                // A list that grew or shrank: what left and what came, as multisets.
                let mut added: Vec<Value> = lb.clone();
                let mut removed = Vec::new();
                for v in la {
                    match added.iter().position(|w| w == v) {
                        Some(i) => {
                            added.remove(i);
                        }
                        None => removed.push(v.clone()),
                    }
                }
                out.push(Change::Items {
                    thing: thing.into(),
                    file: file.into(),
                    field: path.into(),
                    removed,
                    added,
                });
            }
        }
        _ => out.push(Change::Field {
            thing: thing.into(),
            file: file.into(),
            field: path.into(),
            old: a.clone(),
            new: b.clone(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(edit: impl FnOnce(&mut DataSet)) -> DataSet {
        let mut ds = DataSet::embedded();
        edit(&mut ds);
        ds
    }

    fn replace(ds: &mut DataSet, rel: &str, from: &str, to: &str) {
        let text = String::from_utf8(ds.files[rel].clone()).unwrap();
        assert!(text.contains(from), "{rel} has no `{from}`");
        ds.files
            .insert(rel.into(), text.replacen(from, to, 1).into_bytes());
    }

    #[test]
    fn the_same_game_has_no_differences() {
        assert_eq!(
            diff(&DataSet::embedded(), &DataSet::embedded()).unwrap(),
            vec![]
        );
    }

    #[test]
    fn a_card_value_and_a_setting_are_named_field_by_field() {
        let new = edited(|ds| {
            replace(
                ds,
                "cards/nixon/10_gordon_liddy.ron",
                "value: 3,",
                "value: 4,",
            );
            replace(
                ds,
                GAME_FILE,
                "named_colour_locked: true",
                "named_colour_locked: false",
            );
        });
        let changes = diff(&DataSet::embedded(), &new).unwrap();
        assert_eq!(
            changes,
            vec![
                Change::Field {
                    thing: "game".into(),
                    file: GAME_FILE.into(),
                    field: "settings.named_colour_locked".into(),
                    old: Value::Bool(true),
                    new: Value::Bool(false),
                },
                Change::Field {
                    thing: "card nixon.gordon_liddy".into(),
                    file: "cards/nixon/10_gordon_liddy.ron".into(),
                    field: "value".into(),
                    old: 3.into(),
                    new: 4.into(),
                },
            ]
        );
    }

    #[test]
    fn a_removed_card_and_an_edited_script_show_as_such() {
        let new = edited(|ds| {
            ds.files.remove("cards/nixon/20_gambit.ron");
            let rel = "scripts/nixon/gordon_liddy.rhai";
            let mut text = String::from_utf8(ds.files[rel].clone()).unwrap();
            text.push_str("move_momentum(1);\n");
            ds.files.insert(rel.into(), text.into_bytes());
        });
        let changes = diff(&DataSet::embedded(), &new).unwrap();
        assert!(changes.contains(&Change::Removed {
            thing: "card nixon.gambit".into(),
            file: "cards/nixon/20_gambit.ron".into(),
            text: None,
        }));
        let script = changes
            .iter()
            .find_map(|c| match c {
                Change::Text { file, unified, .. } if file == "scripts/nixon/gordon_liddy.rhai" => {
                    Some(unified)
                }
                _ => None,
            })
            .expect("the script's diff");
        assert!(script.contains("\n+move_momentum(1);\n"), "{script}");
        assert_eq!(changes.len(), 2, "{changes:#?}");
    }
}
