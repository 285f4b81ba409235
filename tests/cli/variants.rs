//! The variant lab: variants change the game with no rebuild, their errors
//! point into the variant file, and simulation results are exact under
//! sharding and independent of the thread count.

use crate::common::temp::TempFolder;
use std::path::{Path, PathBuf};
use std::process::Command;
use watergate::data::variant::Variant;
use watergate::data::DataSet;
use watergate::lab::sim::{simulate, SimConfig, Tally};
use watergate::players::agent::AgentSpec;

fn variants_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/variants")
}

fn temp_dir(name: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-variants-{name}"))
}

/// The rules of the variant `text`, written to a file of its own (as a
/// user would) and loaded over the shipped game.
fn variant_rules(name: &str, text: &str) -> watergate::game::rules::Rules {
    let dir = temp_dir(name);
    let file = dir.join("v.ron");
    std::fs::write(&file, text).unwrap();
    Variant::from_file(&file)
        .unwrap()
        .rules(&DataSet::embedded())
        .unwrap()
}

fn tally(rules: &watergate::game::rules::Rules, games: u64) -> Tally {
    let cfg = SimConfig {
        games,
        seed: 5,
        first_game: 0,
        editor: AgentSpec::Random,
        nixon: AgentSpec::Random,
        threads: 2,
    };
    simulate(rules, &cfg, &|_| {}).unwrap()
}

#[test]
fn every_shipped_variant_loads() {
    let mut n = 0;
    for e in std::fs::read_dir(variants_dir()).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        if p.extension().is_some_and(|x| x == "ron") && text.contains("Variant(") {
            let v = Variant::from_file(&p).unwrap_or_else(|d| panic!("{d}"));
            v.rules(&DataSet::embedded())
                .unwrap_or_else(|d| panic!("{}: {d}", p.display()));
            assert!(
                !v.def.description.is_empty(),
                "{} says what it tests",
                p.display()
            );
            n += 1;
        }
    }
    assert!(n >= 3);
}

#[test]
fn a_variant_changing_a_card_value_changes_the_simulation() {
    let rules = variant_rules(
        "value",
        r#"Variant(name: "Hunt 4", cards: [(id: "nixon.howard_hunt", value: 4)])"#,
    );
    let hunt = rules.card_by_id("nixon.howard_hunt").unwrap();
    assert_eq!(rules.card(hunt).value, 4);
    let base = watergate::data::shipped();
    assert_ne!(tally(&rules, 300), tally(&base, 300));
}

/// The engine asks a card's type, requirement and reaction trigger at every
/// turn from a packed table built with the rules: a variant's change to a
/// card must reach it.
#[test]
fn a_variant_changing_a_card_type_and_requirement_reaches_the_engine() {
    use watergate::game::model::CardType;
    use watergate::game::rules::{CardTraits, QuickRequirement, Rules};
    let rules = variant_rules(
        "traits",
        r#"Variant(name: "Hunt the event", cards: [(id: "nixon.howard_hunt", type: Event, requirement: NotFirstTurnOfRound)])"#,
    );
    let agree = |r: &Rules| {
        for i in 0..r.cards.len() {
            let id = watergate::game::model::CardId(i as u8);
            assert_eq!(
                r.traits(id),
                CardTraits::of(r.card(id)),
                "{}",
                r.card(id).id
            );
        }
    };
    agree(&rules);
    agree(&watergate::data::shipped());
    let hunt = rules.card_by_id("nixon.howard_hunt").unwrap();
    let t = rules.traits(hunt);
    assert_eq!(t.card_type(), CardType::Event);
    assert!(t.has_requirement());
    assert_eq!(t.requirement(), QuickRequirement::NotFirstTurnOfRound);
    assert!(!t.is_reaction());
    // R5.11: a recruit needs its picture in the supply; a requirement of
    // several parts is left to the card (an empty `All` always holds).
    let base = watergate::data::shipped();
    let woods = base.card_by_id("editor.recruit_woods").unwrap();
    let picture = base.picture_by_name("Woods").unwrap();
    assert_eq!(
        base.traits(woods).requirement(),
        QuickRequirement::PictureInSupply(picture)
    );
    let mood = Variant::from_file(&variants_dir().join("brilliant_mood_any_turn.ron"))
        .unwrap()
        .rules(&DataSet::embedded())
        .unwrap();
    let id = mood.card_by_id("nixon.a_brilliant_mood").unwrap();
    assert_eq!(mood.traits(id).requirement(), QuickRequirement::Other);
    let mitchell = rules.card_by_id("nixon.john_mitchell").unwrap();
    assert!(
        rules.traits(mitchell).is_reaction(),
        "R6: John Mitchell is a reaction card"
    );
}

#[test]
fn a_variant_changing_a_card_script_changes_the_simulation() {
    let rules = Variant::from_file(&variants_dir().join("cheap_liddy.ron"))
        .unwrap()
        .rules(&DataSet::embedded())
        .unwrap();
    let liddy = rules.card_by_id("nixon.gordon_liddy").unwrap();
    assert_eq!(
        rules.card(liddy).script,
        "scripts/nixon/gordon_liddy_v2.rhai"
    );
    let base = watergate::data::shipped();
    let (a, b) = (tally(&rules, 300), tally(&base, 300));
    assert_ne!(a, b);
}

#[test]
fn variant_errors_point_into_the_variant_file() {
    let dir = temp_dir("errors");
    let file = dir.join("bad.ron");
    std::fs::write(
        &file,
        "Variant(\n    name: \"bad\",\n    game: (momentum_to_win: 0),\n    cards: [(id: \"nixon.gambitt\", value: 2), (id: \"nixon.gambit\", value: 12)],\n    remove_cards: [\"editor.nobody\"],\n)\n",
    )
    .unwrap();
    let d = Variant::from_file(&file)
        .unwrap()
        .apply(&DataSet::embedded())
        .unwrap_err();
    let shown = d.to_string().replace(&dir.display().to_string(), "DIR");
    assert_eq!(
        shown,
        "DIR/bad.ron:4:18: no card `nixon.gambitt` in the base data; did you mean `nixon.gambit`?\n\
         DIR/bad.ron:5:20: no card `editor.nobody` in the base data: expected a card id like `nixon.gambit` (see `watergate cards`)\n"
    );
    // Once the ids are right, the values are checked, at the entry that set them.
    std::fs::write(
        &file,
        "Variant(\n    name: \"bad\",\n    game: (momentum_to_win: 0),\n    cards: [(id: \"nixon.gambit\", value: 12)],\n)\n",
    )
    .unwrap();
    let d = Variant::from_file(&file)
        .unwrap()
        .apply(&DataSet::embedded())
        .unwrap_err();
    let shown = d.to_string().replace(&dir.display().to_string(), "DIR");
    assert_eq!(
        shown,
        "DIR/bad.ron:3:29: `cards/game.ron` as changed by this variant: momentum_to_win is 0: expected 1 to 20 (R8.1)\n\
         DIR/bad.ron:4:41: `cards/nixon/20_gambit.ron` as changed by this variant: value is 12: expected 1 to 9 (R1.7 prints 1–4)\n"
    );
}

/// `watergate ARGS`'s stdout; the command must succeed.
fn stdout_of(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn watergate(args: &[&str]) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_slice(&stdout_of(args)).unwrap();
    let o = v.as_object_mut().unwrap();
    for timing in ["seconds", "games_per_second", "threads", "shard", "slices"] {
        o.remove(timing);
    }
    v
}

#[test]
fn shards_merged_equal_the_whole_run_and_threads_do_not_matter() {
    let dir = temp_dir("shards");
    let variant = variants_dir().join("four_evidence.ron");
    let common = [
        "simulate",
        "--games",
        "500",
        "--seed",
        "3",
        "--json",
        "--baseline",
        "base",
        "--variant",
    ];
    let mut whole_args: Vec<&str> = common.to_vec();
    let v = variant.to_str().unwrap();
    whole_args.push(v);
    let one_thread = {
        let mut a = whole_args.clone();
        a.extend(["--threads", "1"]);
        watergate(&a)
    };
    let two_threads = {
        let mut a = whole_args.clone();
        a.extend(["--threads", "2"]);
        watergate(&a)
    };
    assert_eq!(one_thread, two_threads);
    let mut files = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let mut a = whole_args.clone();
        a.extend(["--shard", &shard]);
        let out = Command::new(env!("CARGO_BIN_EXE_watergate"))
            .args(&a)
            .output()
            .unwrap();
        assert!(out.status.success());
        let f = dir.join(format!("shard{i}.json"));
        std::fs::write(&f, &out.stdout).unwrap();
        files.push(f.display().to_string());
    }
    let mut merge_args = vec!["merge", "--json"];
    merge_args.extend(files.iter().map(String::as_str));
    let merged = watergate(&merge_args);
    assert_eq!(merged, one_thread);
    // The paired difference is there, with its interval.
    assert!(
        merged["difference_in_editor_win_rate"]["low"]
            .as_f64()
            .unwrap()
            <= merged["difference_in_editor_win_rate"]["high"]
                .as_f64()
                .unwrap()
    );
}

/// A card never played for its action has no win rate "when its action was
/// used" (null, as the text's "—"), not an estimate of 0.0.
#[test]
fn a_card_never_played_for_its_action_has_no_win_rate() {
    let v = watergate(&["simulate", "-n", "1", "--seed", "1", "--json"]);
    let cards = v["cards"].as_object().unwrap();
    let (unused, used): (Vec<_>, Vec<_>) = cards
        .values()
        .partition(|c| c["action_games"].as_u64() == Some(0));
    assert!(!unused.is_empty() && !used.is_empty());
    for c in unused {
        assert!(c["win_rate_when_action_used"].is_null(), "{c}");
    }
    for c in used {
        assert!(c["win_rate_when_action_used"]["estimate"].is_f64(), "{c}");
    }
}

/// A run of 3 games in 4 shards leaves shard 1 empty: its report says so
/// rather than print a table of zeros with 0–100 % intervals, and its JSON
/// merges with the others into the whole run.
#[test]
fn an_empty_shard_says_it_is_empty_and_still_merges() {
    let dir = temp_dir("empty-shard");
    let run = |extra: &[&str]| {
        let mut a = vec!["simulate", "-n", "3", "--seed", "4", "-q"];
        a.extend(extra);
        String::from_utf8(stdout_of(&a)).unwrap()
    };
    let text = run(&["--shard", "1/4"]);
    assert!(
        text.starts_with("0 games, seed 4")
            && text.contains(
                "  no games in this shard: a run of 3 games split into more shards than games \
                 leaves some empty (its --json still merges)\n"
            )
            && !text.contains("CI"),
        "{text}"
    );
    let files: Vec<String> = (1..=4)
        .map(|i| {
            let f = dir.join(format!("shard{i}.json"));
            std::fs::write(&f, run(&["--shard", &format!("{i}/4"), "--json"])).unwrap();
            f.display().to_string()
        })
        .collect();
    let mut merge_args = vec!["merge", "--json"];
    merge_args.extend(files.iter().map(String::as_str));
    let merged = watergate(&merge_args);
    let whole = watergate(&["simulate", "-n", "3", "--seed", "4", "--json"]);
    assert_eq!(merged, whole);
}

#[test]
fn precision_stops_when_the_interval_is_narrow_enough() {
    let v = watergate(&["simulate", "--precision", "0.05", "--seed", "2", "--json"]);
    let games = v["games"].as_u64().unwrap();
    let ci = &v["editor_win_rate"];
    let half = (ci["high"].as_f64().unwrap() - ci["low"].as_f64().unwrap()) / 2.0;
    assert!(half <= 0.05, "{half}");
    assert!((500..=2000).contains(&games), "{games}");
    assert_eq!(v["precision"]["asked"], 0.05);
    assert_eq!(v["precision"]["met"], true);
}

/// Stopped by --games before the interval is that narrow, the report says
/// the precision asked was not reached, in JSON and in words.
#[test]
fn precision_not_reached_within_the_games_allowed_is_said() {
    let v = watergate(&["simulate", "--precision", "0.02", "--games", "50", "--json"]);
    assert_eq!(v["games"], 50);
    assert_eq!(v["precision"]["met"], false);
    assert!(v["precision"]["half_width"].as_f64().unwrap() > 0.02);
    let out = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(["-q", "simulate", "--precision", "0.02", "--games", "50"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  precision ±0.02 (2.0 points) not reached: ±0.")
            && text.contains(" after 50 games, the most allowed (--games)\n"),
        "{text}"
    );
}

#[test]
fn csv_and_chart_are_written() {
    let dir = temp_dir("outputs");
    let csv = dir.join("r.csv");
    let svg = dir.join("r.svg");
    watergate(&[
        "simulate",
        "--games",
        "200",
        "--json",
        "--baseline",
        "base",
        "--variant",
        variants_dir().join("no_gambit.ron").to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--chart",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("run,section,key,value,low,high\n"));
    // Rows carry each run's label; the paired difference has its own row.
    assert!(text.contains("difference,editor_win_rate,paired,"));
    assert!(text.contains("\nshipped game,win_rate,editor,"), "{text}");
    assert!(text.contains("no_gambit.ron,win_rate,editor,"), "{text}");
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(
        chart.starts_with("<svg") && chart.contains("Game length") && chart.contains("Win rate")
    );
}

/// `watergate export` into a fresh folder, then `edit` on its files: the
/// folder (removed when dropped) and the exported data in it.
fn exported(name: &str, edit: impl FnOnce(&Path)) -> (TempFolder, PathBuf) {
    let dir = temp_dir(name);
    let data = dir.join("mydata");
    let out = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(["export", data.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    edit(&data);
    (dir, data)
}

fn run_raw(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn an_edited_copy_against_the_shipped_game_shows_the_stronger_side() {
    // R8.1 with 4 momentum tokens instead of 5: Nixon wins sooner, so the
    // Editor's win rate must drop, significantly, on the same seeds.
    let (_dir, data) = exported("stronger", |d| {
        let f = d.join("cards/game.ron");
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(text.contains("momentum_to_win: 5,"));
        std::fs::write(
            &f,
            text.replace("momentum_to_win: 5,", "momentum_to_win: 4,"),
        )
        .unwrap();
    });
    let d = data.to_str().unwrap();
    let v = watergate(&[
        "simulate",
        "--data",
        d,
        "--against",
        "shipped",
        "--games",
        "400",
        "--seed",
        "4",
        "--json",
    ]);
    let diff = &v["difference_in_editor_win_rate"];
    assert!(diff["high"].as_f64().unwrap() < 0.0, "{diff}");
    assert_eq!(v["label"], format!("{d}/"));
    assert_eq!(v["against"]["label"], "shipped game");
    assert_eq!(v["run"]["against"], "shipped game");
    // Both games were played in full, with the per-card differences.
    assert_eq!(v["against"]["games"], 400);
    assert!(
        v["card_differences"]["nixon.gambit"]["win_rate_when_action_used"]["estimate"].is_f64()
    );
    // The text report names both games by what they are, never "base game".
    let out = run_raw(&[
        "simulate",
        "--data",
        d,
        "--against",
        "shipped",
        "--games",
        "200",
        "--seed",
        "4",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("{d}/ against shipped game, on the same seeds")),
        "{text}"
    );
    assert!(
        text.contains(&format!("({d}/ − shipped game, paired on the same seeds)")),
        "{text}"
    );
    assert!(text.contains("difference in mean game length"), "{text}");
    assert!(!text.contains("base game"), "{text}");
    // The same comparison the other way round has the opposite sign.
    let back = watergate(&[
        "simulate",
        "--against",
        d,
        "--variant",
        variants_dir().join("no_gambit.ron").to_str().unwrap(),
        // On the D5 board the gap is about 2.5 points: 2,000 paired games
        // tell it from zero.
        "--games",
        "2000",
        "--seed",
        "4",
        "--json",
    ]);
    assert!(
        back["difference_in_editor_win_rate"]["low"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert_eq!(back["against"]["label"], format!("{d}/"));
    assert!(back["label"]
        .as_str()
        .unwrap()
        .starts_with("shipped game + "));
}

#[test]
fn comparing_a_game_with_itself_is_refused() {
    // No --data and no --variant: the shipped game against itself.
    let out = run_raw(&["simulate", "--against", "shipped", "--games", "10"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("with itself"), "{err}");
    // An unedited copy is the same game too.
    let (_dir, data) = exported("same", |_| {});
    let out = run_raw(&[
        "simulate",
        "--data",
        data.to_str().unwrap(),
        "--baseline",
        "shipped",
        "--games",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("are the same game"));
    // So is `base` when no variant is given.
    let out = run_raw(&["simulate", "--against", "base", "--games", "10"]);
    assert_eq!(out.status.code(), Some(2));
    // `--baseline base` with an edited copy once compared it with itself
    // without a word; now it is refused, pointing at `--against shipped`.
    let out = run_raw(&[
        "simulate",
        "--data",
        data.to_str().unwrap(),
        "--baseline",
        "base",
        "--games",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use --against shipped"));
}

#[test]
fn precision_works_against_the_shipped_game() {
    let (_dir, data) = exported("precision", |d| {
        let f = d.join("cards/game.ron");
        let text = std::fs::read_to_string(&f).unwrap();
        std::fs::write(
            &f,
            text.replace("momentum_to_win: 5,", "momentum_to_win: 4,"),
        )
        .unwrap();
    });
    let v = watergate(&[
        "simulate",
        "--data",
        data.to_str().unwrap(),
        "--against",
        "shipped",
        "--precision",
        "0.05",
        "--games",
        "5000",
        "--json",
    ]);
    // It stops on the paired difference's interval, not the win rate's.
    let d = &v["difference_in_editor_win_rate"];
    let half = (d["high"].as_f64().unwrap() - d["low"].as_f64().unwrap()) / 2.0;
    assert!(half <= 0.05, "{half}");
    let games = v["games"].as_u64().unwrap();
    assert!(
        games < 5000 && games == v["against"]["games"].as_u64().unwrap(),
        "{games}"
    );
}

/// `merge` refuses what it cannot combine in words: another run's shard
/// (which field differs), a sweep's results (which `sweep --merge` takes),
/// and a file that is no `simulate --json` result.
#[test]
fn merge_says_why_it_refuses_a_file() {
    let dir = temp_dir("merge-refusals");
    let run = |args: &[&str], file: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_watergate"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        let f = dir.join(file);
        std::fs::write(&f, &out.stdout).unwrap();
        f.display().to_string()
    };
    let seed8 = run(
        &[
            "simulate", "-n", "10", "--seed", "8", "--shard", "1/2", "--json",
        ],
        "seed8.json",
    );
    let seed9 = run(
        &[
            "simulate", "-n", "10", "--seed", "9", "--shard", "2/2", "--json",
        ],
        "seed9.json",
    );
    let sweep = run(
        &[
            "sweep",
            "--param",
            "card.gordon_liddy.value=1,2",
            "--games",
            "2",
            "--json",
        ],
        "sweep.json",
    );
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "{}").unwrap();
    let empty = empty.display().to_string();
    for (files, says) in [
        (
            [&seed8, &seed9],
            "seed9.json is from another run: seed 9 here, 8 in the first shard",
        ),
        (
            [&sweep, &seed8],
            "sweep.json: a `sweep --json` result: combine sweep shards with `watergate sweep --merge FILE...`",
        ),
        (
            [&empty, &seed8],
            "empty.json: not a `simulate --json` result (it has no `run`)",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_watergate"))
            .args(["merge", files[0], files[1]])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn check_warns_of_variant_entries_that_change_nothing() {
    // A designer audit: `requirement: None` (meant to drop the
    // requirement), a card's value set to what it is, and a card removed
    // twice were all taken without a word, and the variant played the base
    // game.
    let dir = temp_dir("no-change");
    let file = dir.join("r.ron");
    std::fs::write(
        &file,
        "Variant(\n    name: \"r\",\n    cards: [\n        (id: \"nixon.a_brilliant_mood\", requirement: None),\n        (id: \"nixon.gordon_liddy\", value: 3),\n        (id: \"nixon.howard_hunt\", value: 3),\n    ],\n    remove_cards: [\"nixon.gambit\", \"nixon.gambit\"],\n)\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(["check", "--variant"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    let f = file.display();
    assert_eq!(
        warnings,
        [
            format!("warning: {f}:4:53: `requirement: None` changes nothing: in a variant, None means \"keep the card's\"; to drop the requirement, write `requirement: All([])` (an empty All always holds)"),
            format!("warning: {f}:5:9: this entry changes nothing: `nixon.gordon_liddy` has these values already"),
            format!("warning: {f}:8:36: `nixon.gambit` is removed already, by remove_cards[0]"),
        ],
        "{err}"
    );
}
