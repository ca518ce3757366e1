//! GDL games through the model: turns, moves as spelled, failures.

use super::*;
use crate::games::{GameResult, TwoPlayer};

/// Compiles `text` as a game for the life of the test process.
fn rules(text: &str) -> &'static GdlRules {
    let mut sources = Sources::new();
    let file = sources.add("test.kif", None, text.to_owned());
    match GdlRules::compile("test.kif", sources, file) {
        Ok(rules) => Box::leak(Box::new(rules)),
        Err((sources, diags)) => panic!("{}", sources.render_plain(&diags)),
    }
}

/// Two roles; `a` chooses at step 0, both at step 1, nobody at step 2,
/// then it ends at step 3 with a goal value for `a` and none for `b`.
const STEPS: &str = "(role a) (role b) (init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3)
    (<= (legal a (go ?n)) (true (step 0)) (succ ?n ?m))
    (<= (legal b wait) (true (step 0)))
    (<= (legal ?r left) (role ?r) (true (step 1)))
    (<= (legal ?r right) (role ?r) (true (step 1)))
    (<= (legal ?r last) (role ?r) (true (step 2)))
    (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
    (<= terminal (true (step 3)))
    (<= (goal a 100) (true (step 3)))";

fn moves(game: &GdlGame, state: &State, role: Role) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves_of(state, role, &mut moves);
    moves.iter().map(|m| game.format_move(state, m)).collect()
}

#[test]
fn turns_follow_the_noop_convention() {
    let game = GdlGame::new(rules(STEPS));
    let s0 = game.initial_state();
    assert_eq!(game.turn(&s0), Turn::Role(0));
    assert_eq!(moves(&game, &s0, 1), ["wait"], "the waiting role's forced move is listed");
    let mut legal = Vec::new();
    game.legal_moves(&s0, &mut legal);
    assert_eq!(legal.len(), 3);
    let s1 = game.apply(&s0, &legal[0]);
    assert_eq!(game.format_state(&s1), "((step 1))");
    assert_eq!(game.turn(&s1), Turn::Simultaneous);
    game.legal_moves(&s1, &mut legal);
    assert!(legal.is_empty(), "no single role acts");
    let joint = game.parse_joint_move(&s1, "LEFT right").expect("a joint move");
    let s2 = game.apply_joint(&s1, &joint);
    assert_eq!(game.turn(&s2), Turn::Simultaneous, "nobody has a choice: one joint move");
    let joint = game.parse_joint_move(&s2, "last").expect("the only joint move, named by one move");
    assert_eq!(joint.len(), 2);
    let s3 = game.apply_joint(&s2, &joint);
    assert_eq!(game.turn(&s3), Turn::Over);
    assert_eq!((game.score(&s3, 0), game.score(&s3, 1)), (Some(100), Some(0)), "a missing goal value is 0");
    assert_eq!(game.score(&s2, 0), None);
    assert_eq!(crate::games::perft(&game, &s0, 3), 3 * 4);
    assert_eq!(game.take_error(), None);
}

#[test]
fn moves_are_written_as_the_rules_spell_them_and_read_in_any_case() {
    let game = GdlGame::new(rules(
        "(role ship) (init (t 0)) (legal ship (do thrustThrust))
         (<= (next (t 1)) (does ship (do thrustthrust))) (<= terminal (true (t 1))) (goal ship 100)",
    ));
    let s0 = game.initial_state();
    let mv = game.parse_move(&s0, "(DO THRUSTTHRUST)").expect("any case reads");
    assert_eq!(game.format_move(&s0, &mv), "(do thrustThrust)", "the spelling of its first appearance");
}

/// A game that spells each name one way is the same game read either way:
/// the same states and moves in the same order, so an evaluator evolved on
/// it sees the same features (`ggp serve` reads case and all, evolution
/// does not).
#[test]
fn a_game_spelt_one_way_reads_the_same_in_either_case() {
    let text = "(role Red) (role blue) (init (Cell A 1)) (init (control Red)) (succ 1 2) (succ 2 3) \
                (<= (legal Red (Mark ?x)) (true (control Red)) (succ 1 ?x)) \
                (<= (legal Red (Mark B)) (true (control Red))) (<= (legal blue noop) (true (control Red))) \
                (<= (next (Cell B 2)) (does Red (Mark B))) (<= terminal (true (Cell B 2))) \
                (<= (goal Red 100) (true (Cell B 2))) (<= (goal blue 0) (true (Cell B 2)))";
    let read = |case| {
        let mut sources = Sources::new();
        let file = sources.add("test.kif", None, text.to_owned());
        let rules = GdlRules::compile_with("test.kif", sources, file, crate::gdl::EngineChoice::Prover, case, None)
            .unwrap_or_else(|(sources, diags)| panic!("{}", sources.render_plain(&diags)));
        let game = GdlGame::new(Box::leak(Box::new(rules)));
        let s0 = game.initial_state();
        let mut legal = Vec::new();
        game.legal_moves_of(&s0, 0, &mut legal);
        let end = game.apply(&s0, &game.parse_move(&s0, "(mark b)").expect("a move"));
        let texts: Vec<String> = legal.iter().map(|m| game.format_move(&s0, m)).collect();
        (game.format_state(&s0), texts, game.format_state(&end))
    };
    let insensitive = read(crate::gdl::Case::Insensitive);
    assert_eq!(insensitive.1, ["(Mark 2)", "(Mark B)"], "moves as spelt, in canonical order");
    assert_eq!(insensitive, read(crate::gdl::Case::Sensitive));
}

#[test]
fn moves_are_read_for_the_acting_role_or_as_a_joint_move() {
    let game = GdlGame::new(rules(STEPS));
    let s0 = game.initial_state();
    assert_eq!(game.format_move(&s0, &game.parse_move(&s0, "(go 1)").expect("a's move")), "(go 1)");
    assert_eq!(game.format_move(&s0, &game.parse_move(&s0, "(go 2) wait").expect("joint")), "(go 2)");
    let e = game.parse_move(&s0, "(go 1) (go 2)").expect_err("b only waits");
    assert_eq!((e.message.as_str(), e.span), ("`(go 2)` is not a legal move of b", 7..13));
    assert_eq!(e.help.as_deref(), Some("its legal moves: wait"));
    let e = game.parse_move(&s0, "(go 3)").expect_err("no such move");
    assert!(e.message.contains("not a legal move of a"), "{}", e.message);
    let s1 = game.apply(&s0, &game.parse_move(&s0, "(go 0)").expect("a move"));
    let e = game.parse_move(&s1, "left").expect_err("both choose");
    assert!(e.message.starts_with("every role moves at once"), "{}", e.message);
    let e = game.parse_joint_move(&s1, "left").expect_err("one move for two roles");
    assert!(e.message.starts_with("every role moves at once"), "{}", e.message);
}

#[test]
fn a_broken_state_is_reported_and_ends_play() {
    let game = GdlGame::new(rules(
        "(role a) (init (step 0)) (succ 0 1) (<= (legal a go) (true (step 0)))
         (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y)) (<= terminal (true (step 5))) (goal a 0)",
    ));
    let s0 = game.initial_state();
    let mut legal = Vec::new();
    game.legal_moves(&s0, &mut legal);
    let s1 = game.apply(&s0, &legal[0]);
    assert_eq!(game.turn(&s1), Turn::Over, "a failed game is over");
    assert_eq!(game.turn(&s0), Turn::Over, "every state, until the error is taken");
    assert_eq!(game.score(&s1, 0), Some(0));
    let e = game.take_error().expect("the error");
    assert_eq!(e, "test.kif: role a has no legal move in a state that is not terminal: ((step 1))");
    assert_eq!(game.take_error(), None);
    assert_eq!(game.turn(&s0), Turn::Role(0));
}

#[test]
fn the_two_player_view_needs_alternation_and_goals() {
    let rules = rules(STEPS);
    assert!(rules.is_alternating());
    let game = GdlTwoPlayer::new(rules);
    let p0 = game.initial_state();
    assert_eq!((game.to_move(&p0), game.result(&p0)), (0, None));
    let mut legal = Vec::new();
    game.legal_moves(&p0, &mut legal);
    let p1 = game.apply(&p0, &legal[0]);
    assert_eq!(game.turn(&p1), Turn::Over, "both roles choose at step 1");
    let e = game.take_error().expect("not alternating");
    assert_eq!(e, "test.kif: this is not a two-player alternating game: both roles have a choice in ((step 1))");

    // Alternating, but `b` has no goal value at the end.
    let game = GdlTwoPlayer::new(self::rules(
        "(role a) (role b) (init (control a)) (init (step 0)) (succ 0 1) (succ 1 2)
         (<= (legal ?r (mark ?n)) (true (control ?r)) (succ ?n ?m))
         (<= (legal a noop) (true (control b))) (<= (legal b noop) (true (control a)))
         (<= (next (control a)) (true (control b))) (<= (next (control b)) (true (control a)))
         (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
         (<= terminal (true (step 2))) (goal a 100)",
    ));
    let mut p = game.initial_state();
    for mover in [0, 1] {
        assert_eq!(game.to_move(&p), mover);
        game.legal_moves(&p, &mut legal);
        assert_eq!(legal.len(), 2);
        p = game.apply(&p, &legal[1]);
    }
    assert_eq!((game.to_move(&p), game.turn(&p)), (0, Turn::Over), "the opponent of the last mover");
    assert_eq!(game.result(&p), Some(GameResult::Draw));
    let e = game.take_error().expect("no goal for b");
    assert!(e.starts_with("test.kif: b has no goal value in the terminal state"), "{e}");
}

/// On the prover a playout on the clock cut after `max_plies` is scored by
/// the goal values of the state it reached; one that ends sooner by the
/// game's end.
#[test]
fn a_cut_playout_is_scored_by_the_goals_of_its_state() {
    let text = "(role r) (init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3)
        (legal r tick) (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
        (<= terminal (true (step 3)))
        (<= (goal r 70) (true (step 1))) (<= (goal r 20) (true (step 2))) (<= (goal r 100) (true (step 3)))";
    let mut sources = Sources::new();
    let file = sources.add("test.kif", None, text.to_owned());
    let rules = GdlRules::compile_with(
        "test.kif",
        sources,
        file,
        crate::gdl::EngineChoice::Prover,
        crate::gdl::Case::Insensitive,
        None,
    )
    .unwrap_or_else(|(sources, diags)| panic!("{}", sources.render_plain(&diags)));
    let game = GdlGame::new(Box::leak(Box::new(rules)));
    let s0 = game.initial_state();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut rng = crate::rng::stream(1, &[]);
    let mut scores = Vec::new();
    for (plies, end, score) in [(1, PlayoutEnd::Cut, 70), (2, PlayoutEnd::Cut, 20), (3, PlayoutEnd::Over, 100)] {
        assert_eq!(game.random_playout_scores_until(&s0, &mut rng, &mut scores, deadline, plies), end);
        assert_eq!(scores, [score], "cut after {plies}");
    }
}
