//! Searches on the clock over the prover: a GDL game whose states take the
//! prover seconds (ruleDepthExponential doubles the cost of `legal` with
//! every step) still gets its answer by the deadline (docs/GGP.md, "Time").

use std::time::{Duration, Instant};

use stratagem::diagnostic::Sources;
use stratagem::games::Game;
use stratagem::games::gdl::{GdlGame, GdlRules};
use stratagem::gdl::State;
use stratagem::rng::stream;
use stratagem::search::sampled::{SampledParams, SampledSearch};
use stratagem::search::uct::{Budget, Uct};

/// ruleDepthExponential at step 17, where each step has doubled what
/// `legal` costs (2^k facts at step k): a state takes the prover a large
/// part of a second.
fn a_late_state() -> (GdlGame, State) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl/games/ruleDepthExponential.kif");
    let text = std::fs::read_to_string(path).expect("the corpus game");
    let mut sources = Sources::new();
    let file = sources.add("ruleDepthExponential.kif", None, text);
    let rules = match GdlRules::compile("ruleDepthExponential.kif", sources, file) {
        Ok(rules) => Box::leak(Box::new(rules)),
        Err((sources, diags)) => panic!("{}", sources.render_plain(&diags)),
    };
    let game = GdlGame::new(rules);
    let late = game.parse_state("((step 17))").expect("a state");
    (game, late)
}

#[test]
fn a_search_on_the_clock_gives_up_states_the_prover_is_still_reasoning_about() {
    let (game, late) = a_late_state();
    let mut search = Uct::new(Default::default(), stream(1, &[1]));
    let started = Instant::now();
    search.search(&game, &late, Budget::Until(started + Duration::from_millis(100)));
    assert!(started.elapsed() < Duration::from_millis(500), "took {:?}", started.elapsed());
    assert_eq!(game.take_error(), None, "what the clock stopped is not an error of the game");
    // Off the clock the prover reasons on.
    let mut legal = Vec::new();
    game.legal_moves(&late, &mut legal);
    assert_eq!(legal.len(), 2);
}

#[test]
fn an_evaluator_search_on_the_clock_gives_up_slow_states_too() {
    let (game, late) = a_late_state();
    // The player knows its legal moves before it searches.
    let mut legal = Vec::new();
    game.legal_moves(&late, &mut legal);
    let mut search = SampledSearch::new(SampledParams::new(4), stream(1, &[2]));
    let started = Instant::now();
    let (choice, _) = search.choose_by(&game, &late, 0, started + Duration::from_millis(100), &mut |_, _| 0.0);
    assert!(started.elapsed() < Duration::from_millis(500), "took {:?}", started.elapsed());
    assert!(choice.is_some());
    assert_eq!(game.take_error(), None);
}
