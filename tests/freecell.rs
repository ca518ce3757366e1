//! FreeCell against the published deals (../shared/domains/freecell): the
//! generator equals ms32k.txt for all 32,000 deals; layouts round trip
//! through random games; BFS and iterative deepening solve a nearly finished
//! position and their solutions replay card by card; `games` and `solve`
//! take the game as a user runs them.

mod common;
use common::stratagem;
use stratagem::games::freecell::moves::steps_text;
use stratagem::games::freecell::position::format_cascades_line;
use stratagem::games::freecell::{FreeCell, deal_position, format_layout, parse_layout};
use stratagem::games::{Game, Puzzle};
use stratagem::search::puzzle::{bfs, iterative_deepening, replay};

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
