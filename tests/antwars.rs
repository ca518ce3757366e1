//! Ant Wars through the binary: `tournament` (table 3's JSON, the same at 1
//! and 2 threads, the dominance SVG), contest players in C (compiled, loaded
//! per thread, reset per game; files that do not compile, lack `Move` or
//! return a bad direction are errors naming the file), `play`, `perft` and
//! `games`; evolved ants as `gp:FILE:NAME` players. Tests need a C compiler
//! (`cc`), as .ci/run installs.

mod common;

use common::{flat, stratagem, temp};

const GREEDY_C: &str = "c:tests/data/antwars/greedy.c";
/// Returns 9 whenever a promise of the interface is broken (see the file).
const COUNTER_C: &str = "c:tests/data/antwars/counter.c";

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn tournament(players: &str, games: &str, threads: &str) -> serde_json::Value {
    let args = ["tournament", "--game", "antwars", "--players", players, "--games", games, "--seed", "7"];
    let (code, stdout, stderr) = stratagem(&[&args[..], &["--threads", threads, "--format", "json"]].concat());
    assert_eq!(code, 0, "{stderr}");
    json(&stdout)
}

#[test]
fn tournament_json_has_table_3s_layout_and_does_not_depend_on_threads() {
    // The counter twice: two copies of one library in one game, and on two
    // threads, must not share the count of calls it keeps in a static.
    let players = format!("greedy,random,{GREEDY_C},{COUNTER_C},{COUNTER_C}");
    let one = tournament(&players, "300", "1");
    assert_eq!(one, tournament(&players, "300", "2"), "1 and 2 threads");
    let names: Vec<&str> =
        one["players"].as_array().expect("players").iter().map(|p| p["name"].as_str().expect("name")).collect();
    assert_eq!(names, ["greedy", "random", GREEDY_C, COUNTER_C, COUNTER_C]);
    for p in one["players"].as_array().expect("players") {
        for key in ["matches_won", "games_won", "total_score"] {
            assert!(p[key].is_u64(), "{key} in {p}");
        }
    }
    let pairs = one["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 10);
    for p in pairs {
        let (a, b) = (p["a_wins"].as_u64().expect("a_wins"), p["b_wins"].as_u64().expect("b_wins"));
        assert_eq!(a + b, 600, "300 double-games, no draws: {p}");
        assert!(p["a_score"].is_u64() && p["b_score"].is_u64());
        let pv = p["p_value"].as_f64().expect("p_value");
        assert!((0.0..=1.0).contains(&pv), "{p}");
    }
    // The C greedy finds food only if the grid, the coordinates and the
    // directions mean what the contest says they mean.
    let random_greedy_c = &pairs[4];
    assert_eq!((random_greedy_c["a"].as_str(), random_greedy_c["b"].as_str()), (Some("random"), Some(GREEDY_C)));
    assert!(random_greedy_c["b_wins"].as_u64() > Some(540), "{random_greedy_c}");
    let greedy_random = &pairs[0];
    assert_eq!((greedy_random["a"].as_str(), greedy_random["b"].as_str()), (Some("greedy"), Some("random")));
    assert!(greedy_random["a_wins"].as_u64() > Some(500) && greedy_random["p_value"].as_f64() < Some(1e-10));
    let matches: u64 =
        one["players"].as_array().expect("players").iter().map(|p| p["matches_won"].as_u64().unwrap_or(0)).sum();
    assert_eq!(matches, 10, "one match per pair");
    assert_ne!(one, tournament(&players, "301", "2"), "another number of games");
}

#[test]
fn tournament_text_and_the_dominance_svg() {
    let dir = temp("svg");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("dominance.svg");
    let svg_arg = svg.to_string_lossy().into_owned();
    let args =
        ["tournament", "--game", "antwars", "--players", "greedy,random,greedy", "--games", "500", "--svg", &svg_arg];
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("greedy vs random: games"), "{stdout}");
    assert!(stdout.contains("greedy is better"), "{stdout}");
    assert!(stdout.contains("double-games/s"), "{stdout}");
    let text = std::fs::read_to_string(&svg).expect("the SVG");
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"), "{text}");
    assert_eq!(text.matches("<line").count(), 2, "greedy beats random twice, the greedies tie: {text}");
    assert_eq!(text.matches("<circle").count(), 3);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn c_players_that_do_not_compile_or_lack_move_are_named() {
    let cases = [
        ("broken.c", "the C player `tests/data/antwars/broken.c` does not compile"),
        ("broken.c", "expected expression"),
        ("no_move.c", "the C player `tests/data/antwars/no_move.c` defines no function `Move`"),
        ("missing.c", "cannot read the C player `tests/data/antwars/missing.c`"),
    ];
    for (file, expected) in cases {
        let spec = format!("random,c:tests/data/antwars/{file}");
        let (code, stdout, stderr) =
            stratagem(&["tournament", "--game", "antwars", "--players", &spec, "--games", "3"]);
        assert_eq!(code, 1, "{file}: {stdout}");
        assert!(flat(&stderr).contains(expected), "{file}: {stderr}");
    }
}

/// Contest players that crash, loop, exit, start processes, read and write
/// files, open sockets, or print and answer nonsense: each forfeits every
/// game it plays (sandboxed, the default), the tournament finishes with the
/// tallies, and nothing the players tried to write exists.
#[test]
fn hostile_c_players_forfeit_their_games_and_touch_nothing() {
    let cases = [
        ("crash", "crashed (signal 11, SIGSEGV) during `Move`"),
        ("loop", "did not answer within 300 ms (killed) during `Move`"),
        ("exits", "exited with status 0 during `Move`"),
        ("forks", "was stopped by the sandbox (signal 31, SIGSYS"),
        ("files", "was stopped by the sandbox"),
        ("sockets", "was stopped by the sandbox"),
        ("chatty", "returned 9 from `Move`, not a direction 0–7"),
    ];
    let touched = ["hostile-file-was-here", "hostile-shell-was-here"];
    for (name, what) in cases {
        let spec = format!("c:tests/data/antwars/hostile/{name}.c,greedy");
        let args = ["tournament", "--game", "antwars", "--players", &spec, "--games", "3", "--format", "json"];
        let (code, stdout, stderr) = stratagem(&[&args[..], &["--limit", "foreign-time=300"]].concat());
        assert_eq!(code, 0, "{name}: {stderr}");
        let expected = format!("note: the C player `tests/data/antwars/hostile/{name}.c` {what}");
        assert!(flat(&stderr).contains(&expected), "{name}: {stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
        let (hostile, greedy) = (&json["players"][0], &json["players"][1]);
        assert_eq!((hostile["forfeits"].as_u64(), hostile["games_won"].as_u64()), (Some(6), Some(0)), "{name}: {json}");
        assert_eq!((greedy["games_won"].as_u64(), greedy.get("forfeits")), (Some(6), None), "{name}: {json}");
    }
    for file in touched {
        let exists = std::path::Path::new(file).exists();
        std::fs::remove_file(file).ok();
        assert!(!exists, "a sandboxed player wrote {file}");
    }
}

/// A sandboxed player plays as the same player loaded into the process.
#[test]
fn sandboxed_and_trusted_c_players_play_the_same_games() {
    let run = |trust: &[&str]| {
        let players = format!("{GREEDY_C},greedy,{COUNTER_C}");
        let args = ["tournament", "--game", "antwars", "--players", &players, "--games", "40", "--format", "json"];
        let (code, stdout, stderr) = stratagem(&[&args[..], trust].concat());
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    assert_eq!(run(&[]), run(&["--trust-c-players"]));
}

const FORAGER: &str = "gp:programs/examples/antwars-ant.sg:forager";

#[test]
fn evolved_ants_play_tournaments_as_gp_players() {
    let players = format!("{FORAGER},greedy");
    let one = tournament(&players, "200", "1");
    assert_eq!(one, tournament(&players, "200", "2"), "1 and 2 threads: an ant's memory is its own");
    let pair = &one["pairs"][0];
    assert_eq!((pair["a"].as_str(), pair["b"].as_str()), (Some(FORAGER), Some("greedy")));
    // The example ant beats greedy (61% over 500 double-games at seed 0):
    // it sees food only if its trees read the view in the right frame.
    assert!(pair["a_wins"].as_u64() > pair["b_wins"].as_u64(), "{pair}");
    let (code, stdout, stderr) =
        stratagem(&["play", "--game", "antwars", "--a", FORAGER, "--b", "random", "--games", "4"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("forager"), "{stdout}");
}

#[test]
fn bad_ant_programs_are_named() {
    let cases = [
        ("gp:programs/examples/antwars-ant.sg:foragr", "defines no individual `foragr` help: did you mean `forager`?"),
        ("gp:programs/examples/antwars-ant.sg", "names no individual"),
        ("gp:tests/data/antwars/missing.sg:x", "cannot read ant `x` of `tests/data/antwars/missing.sg`"),
        (
            "gp:programs/champions/lose-checkers-figure-1-2.sg:figure-1-2",
            "ant `figure-1-2` of `programs/champions/lose-checkers-figure-1-2.sg` is not an Ant Wars program",
        ),
    ];
    for (spec, expected) in cases {
        let players = format!("greedy,{spec}");
        let (code, stdout, stderr) =
            stratagem(&["tournament", "--game", "antwars", "--players", &players, "--games", "3"]);
        assert_eq!(code, 1, "{spec}: {stdout}");
        assert!(flat(&stderr).contains(expected), "{spec}: {stderr}");
    }
}

#[test]
fn bad_requests_are_diagnosed() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["tournament", "--game", "antwars", "--players", "greedy,gredy"],
            "unknown Ant Wars player `gredy` help: did you mean `greedy`?",
        ),
        (&["tournament", "--game", "antwars", "--players", "greedy"], "a tournament needs 2 or more players"),
        (
            &["tournament", "--game", "rush-hour", "--players", "random,random"],
            "`tournament` needs a game of two players, and `rush-hour` is a one-player puzzle \
             help: games of two players: lose-checkers, morris, morris-no-flying, antwars",
        ),
        (&["play", "--game", "antwars", "--position", "x"], "leave out --position and --record"),
    ];
    for (args, expected) in cases {
        let (code, _, stderr) = stratagem(args);
        assert_eq!(code, 1, "{args:?}");
        assert!(flat(&stderr).contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn tournaments_of_search_players_on_perfect_information_games() {
    let champion = "gp:programs/champions/morris-policy.sg:morris-policy-champion:alphabeta:1";
    let players = format!("random,alphabeta:1:material,{champion}");
    let run = |threads: &str| {
        let args = ["tournament", "--game", "morris", "--players", &players, "--games", "20", "--threads", threads];
        let (code, stdout, stderr) = stratagem(&[&args[..], &["--format", "json"]].concat());
        assert_eq!(code, 0, "{stderr}");
        json(&stdout)
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let random_material = &one["pairs"][0];
    assert!(random_material["b_wins"].as_u64() > Some(30), "{random_material}");
    let (code, _, stderr) =
        stratagem(&["tournament", "--game", "morris", "--players", "random,gp:nowhere.sg:x:alphabeta:1"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("nowhere.sg"), "{stderr}");
}

#[test]
fn play_perft_and_games_know_antwars() {
    let (code, stdout, stderr) =
        stratagem(&["play", "--game", "antwars", "--a", "greedy", "--b", GREEDY_C, "--games", "40"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("20 double-games per pair on antwars"), "{stdout}");
    let (code, stdout, _) = stratagem(&["perft", "--game", "antwars", "--depth", "3"]);
    assert_eq!(code, 0);
    assert!(stdout.contains(r#""nodes":512"#), "{stdout}");
    let (code, stdout, _) = stratagem(&["games", "--format", "json"]);
    assert_eq!(code, 0);
    let games = json(&stdout);
    let antwars = games.as_array().and_then(|g| g.iter().find(|e| e["name"] == "antwars")).expect("antwars listed");
    assert_eq!(antwars["kind"], "observed");
    assert_eq!(antwars["roles"], serde_json::json!(["ant1", "ant2"]));
}
