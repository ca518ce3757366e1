//! Searches on the clock over the prover: a GDL game whose states take the
//! prover seconds (ruleDepthExponential doubles the cost of `legal` with
//! every step) still gets its answer by the deadline (docs/GGP.md, "Time").

use stratagem::games::Game;

/// Compiles `text` as a GDL game for the life of the test process.
fn gdl_rules(text: &str) -> &'static stratagem::games::gdl::GdlRules {
    let mut sources = stratagem::diagnostic::Sources::new();
    let file = sources.add("test.kif", None, text.to_owned());
    match stratagem::games::gdl::GdlRules::compile("test.kif", sources, file) {
        Ok(rules) => Box::leak(Box::new(rules)),
        Err((sources, diags)) => panic!("{}", sources.render_plain(&diags)),
    }
}

#[test]
fn a_search_on_the_clock_gives_up_states_the_prover_is_still_reasoning_about() {
    // Each step doubles what `legal` costs (2^k facts at step k), so from
    // step 17 on a state takes the prover a large part of a second.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl/games/ruleDepthExponential.kif");
    let text = std::fs::read_to_string(path).expect("the corpus game");
    let game = stratagem::games::gdl::GdlGame::new(gdl_rules(&text));
    let late = game.parse_state("((step 17))").expect("a state");
    let mut search = stratagem::search::uct::Uct::new(Default::default(), stratagem::rng::stream(1, &[1]));
    let started = std::time::Instant::now();
    let deadline = started + std::time::Duration::from_millis(100);
    search.search(&game, &late, stratagem::search::uct::Budget::Until(deadline));
    assert!(started.elapsed() < std::time::Duration::from_millis(500), "took {:?}", started.elapsed());
    assert_eq!(game.take_error(), None, "what the clock stopped is not an error of the game");
    // Off the clock the prover reasons on.
    let mut legal = Vec::new();
    game.legal_moves(&late, &mut legal);
    assert_eq!(legal.len(), 2);
}

#[test]
fn an_evaluator_search_on_the_clock_gives_up_slow_states_too() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl/games/ruleDepthExponential.kif");
    let text = std::fs::read_to_string(path).expect("the corpus game");
    let game = stratagem::games::gdl::GdlGame::new(gdl_rules(&text));
    let late = game.parse_state("((step 17))").expect("a state");
    // The player knows its legal moves before it searches.
    let mut legal = Vec::new();
    game.legal_moves(&late, &mut legal);
    let params = stratagem::search::sampled::SampledParams::new(4);
    let mut search = stratagem::search::sampled::SampledSearch::new(params, stratagem::rng::stream(1, &[2]));
    let started = std::time::Instant::now();
    let deadline = started + std::time::Duration::from_millis(100);
    let (choice, _) = search.choose_by(&game, &late, 0, deadline, &mut |_, _| 0.0);
    assert!(started.elapsed() < std::time::Duration::from_millis(500), "took {:?}", started.elapsed());
    assert!(choice.is_some());
    assert_eq!(game.take_error(), None);
}
