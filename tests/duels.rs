//! Evolution by duels (Ant Wars, seeds/003) as a user runs it: fitnessless
//! selection on islands gives the same log and champion on 1 and 2 threads
//! and across an interruption; each generation's best is logged against the
//! monitor (win and death rates, plotted); the champion, chosen by a round
//! robin of the final population, plays as a `gp:` ant; ERC mutation by
//! factors tunes an ant's two trees alike.

use std::path::Path;

mod common;
use common::{read, stratagem, temp};

const TINY_ANTS: &str = "tests/data/evolve/tiny-ants.sg";

fn evolve(out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["evolve", TINY_ANTS, "--out", out.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

fn champion_text(dir: &Path) -> String {
    read(dir, "champions/tiny-ants.sg").replace(dir.to_str().unwrap_or(""), "")
}

#[test]
fn ants_evolve_the_same_on_one_and_two_threads_and_log_the_monitor() {
    let (one, two) = (temp("ants1"), temp("ants2"));
    evolve(&one, &["--threads", "1"]);
    evolve(&two, &["--threads", "2"]);
    assert_eq!(read(&one, "log.jsonl"), read(&two, "log.jsonl"));
    assert_eq!(champion_text(&one), champion_text(&two));
    let log = read(&one, "log.jsonl");
    assert_eq!(log.lines().count(), 3);
    for line in log.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
        // 24 members breed 24 children, one parent each, from tournaments
        // of 4 matches of 2 games: at least 24 tournaments a generation.
        let games = record["games"].as_u64().expect("games");
        assert!(games >= 24 * 4 * 2, "{record}");
        // The best is the member that won the most tournaments.
        let best = record["best"].as_f64().expect("best");
        assert!(best >= 1.0 && record["mean"].as_f64().is_some_and(|m| m >= 1.0), "{record}");
        let monitor = &record["monitor"];
        assert_eq!(monitor["opponent"], "greedy", "{record}");
        assert_eq!(monitor["games"], 20, "{record}");
        for rate in ["win_rate", "death_rate"] {
            assert!(monitor[rate].as_f64().is_some_and(|r| (0.0..=1.0).contains(&r)), "{record}");
        }
    }
    assert!(read(&one, "monitor.svg").contains("win rate"));
    for d in [one, two] {
        std::fs::remove_dir_all(d).ok();
    }
}

#[test]
fn a_resumed_ant_run_is_the_uninterrupted_one() {
    let (whole, parts) = (temp("ants-whole"), temp("ants-parts"));
    evolve(&whole, &[]);
    evolve(&parts, &["--stop-after", "2"]);
    let (code, _, stderr) = stratagem(&["evolve", TINY_ANTS, "--resume", parts.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read(&whole, "log.jsonl"), read(&parts, "log.jsonl"));
    assert_eq!(champion_text(&whole), champion_text(&parts));
    for d in [whole, parts] {
        std::fs::remove_dir_all(d).ok();
    }
}

#[test]
fn the_round_robin_champion_plays_as_an_ant() {
    let dir = temp("ants-champion");
    evolve(&dir, &[]);
    let text = read(&dir, "champions/tiny-ants.sg");
    assert!(text.contains("matches (1 double-games each) in a round robin of the final population"), "{text}");
    assert!(text.contains("(tree straight") && text.contains("(tree diagonal"), "{text}");
    let champ = dir.join("champions/tiny-ants.sg");
    let spec = format!("gp:{}:tiny-ants-champion", champ.display());
    let (code, stdout, stderr) = stratagem(&[
        "tournament",
        "--game",
        "antwars",
        "--players",
        &format!("{spec},random"),
        "--games",
        "50",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(
        json["pairs"][0]["a_wins"].as_u64().unwrap_or(0) + json["pairs"][0]["b_wins"].as_u64().unwrap_or(0),
        100
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_monitor_that_cannot_be_made_is_an_error_before_any_work() {
    let dir = temp("ants-bad-monitor");
    let file = dir.with_extension("sg");
    let text =
        std::fs::read_to_string(TINY_ANTS).expect("tiny-ants").replace("\"greedy\"", "\"gp:no-such-file.sg:ant\"");
    std::fs::write(&file, text).expect("write");
    let (code, _, stderr) =
        stratagem(&["evolve", file.to_str().expect("utf-8"), "--out", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("the monitor `gp:no-such-file.sg:ant`"), "{stderr}");
    assert!(!dir.join("checkpoint.json").exists(), "no run was started");
    std::fs::remove_file(file).ok();
    std::fs::remove_dir_all(dir).ok();
}

/// `(fitness (versus ...))`: every member plays the same double-games
/// against each fixed player; fitness is its share of games won plus a
/// hundredth of its share of the food; the run is the same on 1 and 2
/// threads, and its champion plays as an ant.
#[test]
fn ants_judged_against_fixed_players_evolve_the_same_on_one_and_two_threads() {
    let file = "tests/data/evolve/tiny-expert.sg";
    let (one, two) = (temp("expert1"), temp("expert2"));
    for (dir, threads) in [(&one, "1"), (&two, "2")] {
        let (code, _, stderr) =
            stratagem(&["evolve", file, "--out", dir.to_str().expect("utf-8"), "--threads", threads]);
        assert_eq!(code, 0, "{stderr}");
    }
    assert_eq!(read(&one, "log.jsonl"), read(&two, "log.jsonl"));
    let log = read(&one, "log.jsonl");
    assert_eq!(log.lines().count(), 3);
    for line in log.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
        // 20 members, (3 + 2) double-games each.
        assert_eq!(record["games"], 20 * 5 * 2, "{record}");
        let (best, worst) = (record["best"].as_f64().expect("best"), record["worst"].as_f64().expect("worst"));
        assert!((0.0..=1.01).contains(&worst) && (worst..=1.01).contains(&best), "{record}");
        // Won games count whole, food a hundredth: no fitness is a bare share of food.
        assert!(best >= 0.1, "the best wins some games against random and greedy: {record}");
    }
    let champ = one.join("champions/tiny-expert.sg");
    let spec = format!("gp:{}:tiny-expert-champion", champ.display());
    let (code, _, stderr) =
        stratagem(&["tournament", "--game", "antwars", "--players", &format!("{spec},random"), "--games", "20"]);
    assert_eq!(code, 0, "{stderr}");
    for d in [one, two] {
        std::fs::remove_dir_all(d).ok();
    }
}

/// `(erc-mutation P (scale SD))` through `evolve`: the champion's float
/// weights moved from its seed's, and its two trees, of one shape, kept
/// the same weights.
#[test]
fn scaled_erc_mutation_tunes_both_trees_of_an_ant_alike() {
    let dir = temp("tuned");
    let (code, _, stderr) =
        stratagem(&["evolve", "tests/data/evolve/tiny-tuned.sg", "--out", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    let champion = read(&dir, "champions/tiny-tuned.sg");
    let numbers = |text: &str| -> Vec<f64> {
        text.split(|c: char| c.is_whitespace() || c == '(' || c == ')').filter_map(|w| w.parse().ok()).collect()
    };
    let start = champion.find("(tree straight").expect("a straight tree");
    let (straight, diagonal) = champion[start..].split_once("(tree diagonal").expect("a diagonal tree");
    let weights = numbers(straight);
    assert_eq!(weights.len(), 7, "{champion}");
    assert_eq!(weights, numbers(diagonal), "the trees share their weights: {champion}");
    let seed = [0.97, 0.25, 0.9, 0.02, 0.75, 0.5, 0.01];
    assert!(weights.iter().zip(seed).filter(|(w, s)| **w != *s).count() >= 5, "weights moved: {weights:?}");
    assert!(weights.iter().zip(seed).all(|(w, s)| *w > 0.0 && (w / s).ln().abs() < 3.0), "{weights:?}");
    std::fs::remove_dir_all(dir).ok();
}
