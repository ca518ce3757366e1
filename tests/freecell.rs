//! FreeCell against the published deals (../shared/domains/freecell): the
//! generator equals ms32k.txt for all 32,000 deals; layouts round trip
//! through random games; BFS and iterative deepening solve a nearly finished
//! position and their solutions replay card by card; staged deepening
//! solves deals and its solutions replay from their text, card by card;
//! `games` and `solve` take the game as a user runs them.

mod common;
use common::stratagem;
use stratagem::games::freecell::heuristics::hsdh;
use stratagem::games::freecell::moves::{replay_steps, steps_text};
use stratagem::games::freecell::position::format_cascades_line;
use stratagem::games::freecell::{FreeCell, deal_position, format_layout, parse_layout};
use stratagem::games::{Game, Puzzle};
use stratagem::search::puzzle::{bfs, iterative_deepening, replay};
use stratagem::search::staged::{StagedSettings, staged_deepening};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/domains/freecell");

#[test]
fn the_generator_deals_all_32000_deals_of_ms32k() {
    let text = std::fs::read_to_string(format!("{DATA}/ms32k.txt")).expect("the FreeCell data");
    let mut count = 0;
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let dealt = deal_position(n);
        assert_eq!(format!("{n}: {}", format_cascades_line(&dealt)), line, "deal {n}");
        if n % 100 == 1 {
            let read = FreeCell.parse_instance(line).expect("a deal line").map(|i| i.state);
            assert_eq!(read, Some(dealt), "deal {n} read back");
        }
        count += 1;
    }
    assert_eq!(count, 32_000);
}

#[test]
fn layouts_round_trip_along_random_games() {
    let game = FreeCell;
    let mut seed = 12_345u64;
    let mut moves = Vec::new();
    for deal in [1, 617, 11_982, 31_465] {
        let mut p = deal_position(deal);
        for _ in 0..200 {
            assert_eq!(parse_layout(&format_layout(&p)), Ok(p), "deal {deal}:\n{}", format_layout(&p));
            game.legal_moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            p = game.apply(&p, &mv);
        }
    }
}

/// 14 cards out, mixed so that some go through free cells or empty cascades.
const NEARLY_DONE: &str = "\
Foundations: H-J C-9 D-T S-8
Freecells: - - - -
: KS QH TC
: KC JD 9S
: QD TS
: JS KD
: QS JC
: KH QC
:
:
";

#[test]
fn searches_solve_a_nearly_finished_position_and_replay() {
    let game = FreeCell;
    let start = game.parse_state(NEARLY_DONE).expect("a position");
    let found = bfs(&game, &start, 1_000_000).moves.expect("BFS solves it");
    let deepening = iterative_deepening(&game, &start, 1_000_000).moves.expect("iterative deepening solves it");
    assert_eq!(found.len(), deepening.len(), "both are shortest");
    for solution in [&found, &deepening] {
        let end = replay(&game, &start, solution).expect("the solution replays");
        assert!(game.is_goal(&end) && game.is_over(&end));
        let steps: Vec<String> = solution.iter().flat_map(steps_text).collect();
        let up = steps.iter().filter(|s| s.ends_with('h')).count();
        assert_eq!(up, 14, "each card out goes up once: {steps:?}");
    }
}

#[test]
fn games_lists_freecell_and_solve_reads_deal_files() {
    let (code, text, stderr) = stratagem(&["games"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(text.lines().any(|l| l.starts_with("freecell ") && l.contains("puzzle")), "{text}");
    let dir = std::env::temp_dir().join(format!("stratagem-freecell-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# deals\n1: AC | 2C\n10-5\n").expect("write");
    let (code, _, stderr) = stratagem(&["solve", "freecell", "--puzzles", &bad.display().to_string()]);
    assert_eq!(code, 1);
    assert!(stderr.contains("2 cascades; a deal line has 8"), "{stderr}");
    assert!(stderr.contains("runs backwards"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn staged_deepening_solves_deals_and_survives_emptying_its_table() {
    let game = FreeCell;
    let h = |p: &_, _| f64::from(hsdh(p));
    for (number, settings) in [
        (1, StagedSettings::default()),
        (2, StagedSettings::default()),
        (4, StagedSettings { depth: 2, table_size: 300, reserve: 0 }),
        (4, StagedSettings { depth: 3, table_size: 1_000, reserve: 1_000 }),
    ] {
        let start = deal_position(number);
        let found = staged_deepening(&game, &start, h, settings, 3_000_000);
        let moves = found.moves.unwrap_or_else(|| panic!("deal {number}: unsolved in {} nodes", found.nodes));
        let end = replay(&game, &start, &moves).expect("the solution replays");
        assert!(game.is_goal(&end));
        if settings.table_size < 10_000 {
            assert!(found.nodes > 2 * settings.table_size as u64, "deal {number}: the table was emptied");
        }
        let steps: Vec<String> = moves.iter().flat_map(steps_text).collect();
        assert_eq!(replay_steps(&start, &steps).map(|p| p.is_solved()), Ok(true), "deal {number}, card by card");
    }
}

#[test]
fn card_by_card_replay_refuses_illegal_steps() {
    let start = deal_position(1);
    // Deal 1's tops: 6S 9C 2H 6H 6C 3D 8C TC; its free cells are empty.
    let refused = |steps: &[&str]| {
        let steps: Vec<String> = steps.iter().map(|s| (*s).to_owned()).collect();
        replay_steps(&start, &steps).map(|_| ())
    };
    assert_eq!(refused(&["6a", "7b"]), Ok(()));
    for (steps, at, why) in [
        (&["1h"][..], 0, "not the next of its foundation"),
        (&["a1"][..], 0, "the free cell is empty"),
        (&["12/2"][..], 0, "no sequence of 2 cards"),
        (&["6a", "7a"][..], 1, "empty free cell"),
        (&["13"][..], 0, "does not fit"),
        (&["h1"][..], 0, "never leave the foundations"),
        (&["9x"][..], 0, "not a move"),
        (&["12/1"][..], 0, "not a move"),
    ] {
        let (bad, message) = refused(steps).expect_err(&format!("{steps:?} is illegal"));
        assert_eq!(bad, at, "{steps:?}: {message}");
        assert!(message.contains(why), "{steps:?}: {message}");
    }
}

#[test]
fn canonical_positions_forget_slot_order() {
    let p = deal_position(617);
    let mut cascades: Vec<String> = format_cascades_line(&p).split(" | ").map(str::to_owned).collect();
    cascades.rotate_left(3);
    let layout: String = cascades.iter().map(|c| format!(": {c}\n")).collect();
    let renamed = parse_layout(&layout).expect("the same cards");
    assert_ne!(renamed, p);
    assert_eq!(renamed.canonical(), p.canonical());
    assert_eq!(FreeCell.transposition_key(&renamed), p.canonical());
}

#[test]
fn solve_writes_deals_card_by_card_and_checks_them() {
    let (code, text, stderr) =
        stratagem(&["solve", "freecell", "--deals", "1-3, 617", "--format", "json", "--check", "--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).expect("one JSON object a line")).collect();
    let deals: Vec<u64> = lines.iter().filter_map(|l| l["deal"].as_u64()).collect();
    assert_eq!(deals, [1, 2, 3, 617]);
    for line in &lines {
        assert_eq!(line["solved"], true, "{line}");
        let steps: Vec<String> =
            line["moves"].as_array().expect("moves").iter().filter_map(|m| m.as_str().map(str::to_owned)).collect();
        assert_eq!(line["length"].as_u64(), Some(steps.len() as u64));
        assert!(line["nodes"].as_u64().is_some_and(|n| n > 0) && line["ms"].as_f64().is_some(), "{line}");
        let start = deal_position(line["deal"].as_u64().unwrap_or(0) as u32);
        let end = replay_steps(&start, &steps).expect("the steps replay card by card");
        assert!(end.is_solved(), "{line}");
        let up = steps.iter().filter(|s| s.ends_with('h')).count();
        assert_eq!(up, 52, "every card goes up once, automatic moves written out");
    }
    let (code, text, stderr) =
        stratagem(&["solve", "freecell", "--deals", "1", "--search", "hsd", "--stage-depth", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(text.starts_with("deal     1 length ") && text.contains("solved 1 of 1 puzzles"), "{text}");
}

#[test]
fn several_heuristics_are_tried_in_turn() {
    let champion = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/champions/ga-freecell.sg:ga-freecell");
    let json = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["solve", "freecell", "--deals", "3", "--max-nodes", "4000", "--format", "json"];
        all.extend(args);
        let (code, text, stderr) = stratagem(&all);
        assert_eq!(code, 0, "{stderr}");
        serde_json::from_str(text.trim()).expect("one JSON line")
    };
    // HSDH alone does not solve deal 3 in 4,000 nodes; the champion does in 3,700.
    assert_eq!(json(&["--heuristic", "hsdh"])["solved"], false);
    let alone = json(&["--heuristic", champion]);
    let both = json(&["--heuristic", "hsdh", "--heuristic", champion]);
    assert_eq!((both["solved"].clone(), both["moves"].clone()), (serde_json::json!(true), alone["moves"].clone()));
    assert_eq!(both["nodes"].as_u64(), alone["nodes"].as_u64().map(|n| n + 4_000), "nodes add up");
    // In rounds of 500, 2,000 and 4,000 (the limit) nodes each, the champion
    // solves it in the third, as alone.
    let rounds = json(&["--round-nodes", "500", "--heuristic", "hsdh", "--heuristic", champion]);
    assert_eq!(rounds["moves"], alone["moves"]);
    let rounds_nodes = 500 + 500 + 2_000 + 2_000 + 4_000;
    assert_eq!(rounds["nodes"].as_u64(), alone["nodes"].as_u64().map(|n| n + rounds_nodes), "nodes add up");
}

#[test]
fn a_list_of_stage_depths_is_a_portfolio_of_depths() {
    let champion = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/champions/ga-freecell.sg:ga-freecell");
    let json = |depths: &str| -> serde_json::Value {
        let all = ["solve", "freecell", "--deals", "12", "--max-nodes", "3000", "--format", "json"];
        let (code, text, stderr) = stratagem(&[&all[..], &["--stage-depth", depths, "--heuristic", champion]].concat());
        assert_eq!(code, 0, "{stderr}");
        serde_json::from_str(text.trim()).expect("one JSON line")
    };
    // The champion does not solve deal 12 in 3,000 nodes at k = 2; at k = 3
    // it does, and the list tries k = 3 after k = 2 has spent its nodes.
    assert_eq!(json("2")["solved"], false);
    let three = json("3");
    let both = json("2,3");
    assert_eq!(both["moves"], three["moves"]);
    assert_eq!(both["nodes"].as_u64(), three["nodes"].as_u64().map(|n| n + 3_000));
}

#[test]
fn weight_vectors_trees_and_policies_over_the_primset_guide_staged_deepening() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/examples/freecell-heuristics.sg");
    for name in ["paper-best", "HSDH", "tree-example", "policy-example"] {
        let heuristic = format!("{file}:{name}");
        let (code, text, stderr) =
            stratagem(&["solve", "freecell", "--deals", "1-2", "--check", "--heuristic", &heuristic]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(text.contains("solved 2 of 2 puzzles"), "{name}: {text}");
    }
    // HSDH as a weight vector orders states as HSDH does (normalised by a
    // constant): the same search, node for node.
    let builtin = stratagem(&["solve", "freecell", "--deals", "1-2", "--format", "json"]).1;
    let weighted =
        stratagem(&["solve", "freecell", "--deals", "1-2", "--format", "json", "--heuristic", &format!("{file}:HSDH")])
            .1;
    let strip = |text: &str| -> Vec<(serde_json::Value, serde_json::Value)> {
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
            .map(|v| (v["nodes"].clone(), v["moves"].clone()))
            .collect()
    };
    assert_eq!(strip(&builtin), strip(&weighted));
}

#[test]
fn solve_refuses_bad_deal_lists_and_settings() {
    for (args, code, expected) in [
        (&["--deals", "0"][..], 1, "--deals"),
        (&["--deals", "5-3"][..], 1, "runs backwards"),
        (&["--deals", "1,,2"][..], 1, "an empty item"),
        (&["--deals", "1", "--time-limit=0"][..], 1, "positive number of seconds"),
        (&["--deals", "1", "--stage-depth", "0"][..], 1, "--stage-depth"),
        (&["--deals", "1", "--round-nodes", "0"][..], 1, "--round-nodes"),
        (&["--deals", "1", "--stage-depth", "2,0"][..], 1, "--stage-depth"),
        (&["--deals", "1", "--stage-depth", "2,,3"][..], 1, "--stage-depth"),
        (&["--deals", "1", "--search", "bfs", "--heuristic", "hsdh"][..], 1, "guides IDA* and staged deepening only"),
        (&["--deals", "1", "--heuristic", "hsdx"][..], 1, "did you mean `hsdh`"),
        (&[][..], 1, "--puzzles"),
    ] {
        let mut all = vec!["solve", "freecell"];
        all.extend(args);
        let (got, _, stderr) = stratagem(&all);
        assert_eq!(got, code, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    let (code, _, stderr) = stratagem(&["solve", "rush-hour", "--deals", "1-3"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("rush-hour has no numbered puzzles"), "{stderr}");
}
