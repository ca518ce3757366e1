//! Grounding and the propositional network against the prover: for games of
//! ../shared/gdl, the ground program and the optimised propnet, evaluated
//! state by state, must give the prover's legal moves, terminal test, goals
//! and next states along deterministic random playouts. The optimised
//! propnet must also agree with the ground program on random states and
//! moves, reachable or not (optimisation may not rely on reachability).

use std::path::Path;
use std::time::{Duration, Instant};

use stratagem::diagnostic::Sources;
use stratagem::gdl::description::{GOAL, LEGAL, NEXT, TERMINAL};
use stratagem::gdl::ground::{GroundEvaluator, Grounding, ground};
use stratagem::gdl::propnet::{Propnet, goal_value};
use stratagem::gdl::term::Term;
use stratagem::gdl::trace::{choice, splitmix64};
use stratagem::gdl::{Case, Description, Engine, EngineChoice, Validation};

const GDL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl");

/// Games small enough to ground and replay in a debug build in a few seconds.
const GAMES: &[&str] = &[
    "games/ticTacToe",
    "games/connectFour",
    "games/blocker",
    "games/nim1",
    "games/maze",
    "games/eightPuzzle",
    "games/3pConnectFour",
    "games/roshambo2",
    "games/gt_prisoner",
    "games/hanoi",
    "games/lightsOut",
    "games/knightThrough",
    // Ground recursion: cyclic components in the propnet.
    "games/cubicup_3player",
    "games/atariGoVariant_7x7",
    "tests/test_case_2c",
    "tests/test_case_5e",
    "tests/test_clean_not_distinct",
    "tests/test_distinct_beginning_rule",
];

const SEEDS: u64 = 3;
const MAX_STEPS: usize = 60;

/// A corpus game's file, read into its own sources.
fn read_game(game: &str) -> (Sources, stratagem::diagnostic::FileId, std::sync::Arc<str>) {
    let path = Path::new(GDL).join(format!("{game}.kif"));
    let mut sources = Sources::new();
    let file = sources.load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = sources.get(file).text.clone();
    (sources, file, text)
}

/// A corpus game's ground program.
fn grounded(game: &str, sources: &Sources, file: stratagem::diagnostic::FileId, text: &str) -> Grounding {
    let (forms, _) = stratagem::syntax::read(file, text);
    let (description, _) = Description::read(file, &forms);
    ground(&description).unwrap_or_else(|d| panic!("{game}: {}", sources.render_plain(&d)))
}

fn hash_of(state: &stratagem::gdl::State) -> u64 {
    use std::hash::{BuildHasher, RandomState};
    static HASHER: std::sync::OnceLock<RandomState> = std::sync::OnceLock::new();
    HASHER.get_or_init(RandomState::new).hash_one(state)
}

fn sorted(mut terms: Vec<Term>) -> Vec<Term> {
    terms.sort();
    terms
}

#[test]
fn ground_programs_answer_as_the_prover_does() {
    for game in GAMES {
        let (sources, file, text) = read_game(game);
        replay_ground_program(game, &sources, file, &text);
    }
}

/// A game restricted by demand: `both` and `reach` are grounded only for
/// the arguments some rule asks for, and the program still answers as the
/// prover does: `both` has ground rules for its three calls only.
#[test]
fn demand_grounds_only_what_is_asked_for() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gdl/demand.kif");
    let mut sources = Sources::new();
    let file = sources.load(&path).expect("the test file");
    let text = sources.get(file).text.clone();
    let game = "demand";
    let grounding = grounded(game, &sources, file, &text);
    let (forms, _) = stratagem::syntax::read(file, &text);
    let (description, _) = Description::read(file, &forms);
    let both = description.symbols.get("both").expect("both");
    let mut heads: Vec<String> = grounding
        .rules
        .iter()
        .filter(|r| grounding.atoms[r.head].0 == both)
        .map(|r| grounding.atoms[r.head].1.iter().map(|t| t.text(&description.symbols)).collect::<Vec<_>>().join(" "))
        .collect();
    heads.sort();
    heads.dedup();
    assert_eq!(heads, ["a b off", "a b on", "a c on"]);
    replay_ground_program(game, &sources, file, &text);
}

/// Replays random playouts of a game on its ground program (through
/// `GroundEvaluator`) and on its optimised propnet against the prover.
fn replay_ground_program(game: &str, sources: &Sources, file: stratagem::diagnostic::FileId, text: &str) {
    {
        let (machine, _) =
            stratagem::gdl::compile(file, text, Validation::Lenient, stratagem::gdl::EngineChoice::Prover)
                .unwrap_or_else(|d| panic!("{game}: {}", sources.render_plain(&d)));
        let grounding = grounded(game, sources, file, text);
        let mut oracle = GroundEvaluator::new(&grounding).unwrap_or_else(|e| panic!("{game}: {e}"));
        let net = Propnet::new(&grounding).optimised();
        let mut gates = Vec::new();
        let roles = machine.roles().to_vec();
        let mut reasoner = machine.reasoner();
        for seed in 1..=SEEDS {
            let mut state = machine.initial_state().clone();
            for step in 0..MAX_STEPS {
                reasoner.load(&state);
                oracle.evaluate(state.fluents(), &[]);
                let terminal = reasoner.is_terminal().expect("prover");
                net.evaluate(&net.base_of(state.fluents()), &net.inputs_of(&[]), &mut gates);
                assert_eq!(
                    net.terminal.is_some_and(|t| gates[t]),
                    terminal,
                    "{game} seed {seed} step {step}: propnet terminal"
                );
                assert_eq!(
                    !oracle.holding(TERMINAL, 0).is_empty(),
                    terminal,
                    "{game} seed {seed} step {step}: terminal"
                );
                let goals = reasoner.goals().expect("prover");
                // A program whose goals were left out (over their grounding
                // budget, as a slow debug build may find) answers the rest.
                let goal_roles = if grounding.goals_left_out.is_none() { roles.len() } else { 0 };
                for (r, role) in roles.iter().enumerate().take(goal_roles) {
                    let values: Vec<Vec<Term>> =
                        oracle.holding(GOAL, 2).into_iter().filter(|a| a[0] == *role).collect();
                    let ground_goal = match &values[..] {
                        [one] => machine.symbols.name(one[1].head()).parse::<u32>().ok(),
                        _ => None,
                    };
                    assert_eq!(ground_goal, goals[r], "{game} seed {seed} step {step}: goal of role {r}");
                    let net_values: Vec<&Term> =
                        net.goals.iter().filter(|(who, _, g)| who == role && gates[*g]).map(|(_, v, _)| v).collect();
                    let net_goal = match &net_values[..] {
                        [one] => goal_value(&machine.symbols, one),
                        _ => None,
                    };
                    assert_eq!(net_goal, goals[r], "{game} seed {seed} step {step}: propnet goal of role {r}");
                }
                if terminal {
                    break;
                }
                let legal = reasoner.legal_moves().expect("prover");
                let mut joint = Vec::new();
                for (r, role) in roles.iter().enumerate() {
                    let ground_legal: Vec<Term> =
                        oracle.holding(LEGAL, 2).into_iter().filter(|a| a[0] == *role).map(|a| a[1].clone()).collect();
                    assert_eq!(sorted(ground_legal), sorted(legal[r].clone()), "{game} seed {seed} step {step}: legal");
                    let net_legal: Vec<Term> = net
                        .legal
                        .iter()
                        .filter(|(who, _, g)| who == role && gates[*g])
                        .map(|(_, m, _)| m.clone())
                        .collect();
                    assert_eq!(
                        sorted(net_legal),
                        sorted(legal[r].clone()),
                        "{game} seed {seed} step {step}: propnet legal"
                    );
                    let moves = sorted(legal[r].clone());
                    if moves.is_empty() {
                        break;
                    }
                    joint.push(moves[choice(seed, step as u64, r as u64, moves.len())].clone());
                }
                if joint.len() < roles.len() {
                    break;
                }
                let next = reasoner.next_state(&joint).expect("prover");
                let pairs: Vec<(Term, Term)> = roles.iter().cloned().zip(joint.iter().cloned()).collect();
                oracle.evaluate(state.fluents(), &pairs);
                let ground_next: Vec<Term> = oracle.holding(NEXT, 1).into_iter().map(|a| a[0].clone()).collect();
                let mut ground_next = sorted(ground_next);
                ground_next.dedup();
                assert_eq!(ground_next, next.fluents().to_vec(), "{game} seed {seed} step {step}: next state");
                net.evaluate(&net.base_of(state.fluents()), &net.inputs_of(&pairs), &mut gates);
                let mut net_next: Vec<Term> =
                    net.next.iter().filter(|(_, g)| gates[*g]).map(|(f, _)| f.clone()).collect();
                net_next.sort();
                net_next.dedup();
                assert_eq!(net_next, next.fluents().to_vec(), "{game} seed {seed} step {step}: propnet next state");
                state = next;
            }
        }
        let (before, after) = (grounding.sizes(), grounding.folded_sizes());
        println!(
            "{game}: {} atoms {} rules, folded {} atoms {} rules; optimised propnet {} gates",
            before.atoms,
            before.rules,
            after.atoms,
            after.rules,
            net.size().gates
        );
    }
}

/// Every game of ../shared/gdl/games when `STRATAGEM_GDL_DIFFERENTIAL=full`
/// (best in a release build), else [`GAMES`].
fn differential_games() -> Vec<String> {
    if std::env::var("STRATAGEM_GDL_DIFFERENTIAL").is_ok_and(|v| v == "full") {
        let mut all: Vec<String> = std::fs::read_dir(Path::new(GDL).join("games"))
            .expect("../shared/gdl/games")
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "kif"))
            .filter_map(|p| p.file_stem()?.to_str().map(|s| format!("games/{s}")))
            .collect();
        all.sort();
        all
    } else {
        GAMES.iter().map(|g| (*g).to_owned()).chain(["games/breakthrough".to_owned()]).collect()
    }
}

/// The compiled engine against the prover, state by state, along random
/// playouts: terminal, goals, legal moves (as sets), next states; once
/// through the prover's interface (states as fluents) and once through the
/// compiled game's own (states as bits, as playouts run).
#[test]
fn compiled_engine_answers_as_the_prover_does() {
    let (mut compared, mut not_compiled) = (Vec::new(), Vec::new());
    for game in differential_games() {
        let (_, file, text) = read_game(&game);
        let Ok((prover, _)) =
            stratagem::gdl::compile(file, &text, Validation::Lenient, stratagem::gdl::EngineChoice::Prover)
        else {
            continue; // games the prover rejects are not compared
        };
        let compiled = match stratagem::gdl::compile(file, &text, Validation::Lenient, EngineChoice::Compiled) {
            Ok((machine, _)) => machine,
            Err(d) => {
                let error = d.iter().find(|d| d.is_error()).map_or("", |d| d.message.as_str());
                not_compiled.push(format!("{game}: {error}"));
                continue;
            }
        };
        let game_code = compiled.compiled().expect("a compiled machine has a compiled game");
        let roles = prover.roles().to_vec();
        let mut by_prover = prover.reasoner();
        let mut by_engine = compiled.reasoner();
        let mut net = game_code.reasoner();
        for seed in 1..=SEEDS {
            let mut state = prover.initial_state().clone();
            net.load(game_code.initial_bits());
            for step in 0..MAX_STEPS {
                let at = format!("{game} seed {seed} step {step}");
                // A state made from bits builds its terms only when asked:
                // the same fluents, equal and hashed alike either way.
                let as_bits = game_code.state_of(net.state());
                assert_eq!(as_bits, state, "{at}: state as bits");
                assert_eq!(as_bits.fluents(), state.fluents(), "{at}: fluents of the state as bits");
                assert_eq!(hash_of(&as_bits), hash_of(&state), "{at}: hash of the state as bits");
                by_prover.load(&state);
                by_engine.load(&state);
                let terminal = by_prover.is_terminal().expect("prover");
                assert_eq!(by_engine.is_terminal().expect("compiled"), terminal, "{at}: terminal");
                assert_eq!(net.is_terminal(), terminal, "{at}: terminal on bits");
                let goals = by_prover.goals().expect("prover");
                assert_eq!(by_engine.goals().expect("compiled"), goals, "{at}: goals");
                assert_eq!(net.goals().expect("goals"), goals, "{at}: goals on bits");
                if terminal {
                    break;
                }
                let legal = by_prover.legal_moves().expect("prover");
                let engine_legal = by_engine.legal_moves().expect("compiled");
                let mut joint = Vec::new();
                let mut choices = Vec::new();
                let mut indices = Vec::new();
                for r in 0..roles.len() {
                    let moves = sorted(legal[r].clone());
                    assert_eq!(sorted(engine_legal[r].clone()), moves, "{at}: legal moves of role {r}");
                    net.legal_indices(r, &mut indices);
                    let on_bits: Vec<Term> =
                        indices.iter().map(|&i| game_code.legal_moves_of(r)[i as usize].mv.clone()).collect();
                    assert_eq!(sorted(on_bits), moves, "{at}: legal moves of role {r} on bits");
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[choice(seed, step as u64, r as u64, moves.len())].clone();
                    let index = indices
                        .iter()
                        .find(|&&i| game_code.legal_moves_of(r)[i as usize].mv == mv)
                        .expect("the move is legal on bits");
                    choices.push(*index);
                    joint.push(mv);
                }
                if joint.len() < roles.len() {
                    break;
                }
                let next = by_prover.next_state(&joint).expect("prover");
                let engine_next = by_engine.next_state(&joint).expect("compiled");
                assert_eq!(engine_next, next, "{at}: next state");
                net.play(&choices);
                assert_eq!(game_code.state_of(net.state()), engine_next, "{at}: next state, bits against bits");
                state = next;
            }
        }
        eprintln!("{game}: same answers");
        compared.push(game);
    }
    println!("compared {} games; not compiled: {not_compiled:#?}", compared.len());
    assert!(compared.len() >= GAMES.len().min(10), "too few games compiled: {not_compiled:?}");
}

/// Sudoku's goals do not ground (each row, column and square is an OR of
/// 9! permutations of its cells' marks), so its network has none and the
/// prover answers them: a grid filled by a valid solution scores 100 on the
/// compiled engine, through states as terms and as bits, and a grid with
/// two cells swapped scores 0.
#[test]
fn goals_that_do_not_ground_are_answered_by_the_prover() {
    let (_, file, text) = read_game("games/sudoku");
    let (compiled, _) = stratagem::gdl::compile(file, &text, Validation::Lenient, EngineChoice::Compiled)
        .unwrap_or_else(|_| panic!("sudoku compiles"));
    let code = compiled.compiled().expect("a compiled game");
    assert!(code.goals_left_out().is_some(), "sudoku's goals should be left to the prover");
    assert!(compiled.engine_note.contains("goals answered by the prover"), "{}", compiled.engine_note);
    let solution = |i: usize, j: usize| ((i - 1) * 3 + (i - 1) / 3 + (j - 1)) % 9 + 1;
    for swapped in [false, true] {
        let mut engine = compiled.reasoner();
        let mut net = code.reasoner();
        net.load(code.initial_bits());
        let mut state = compiled.initial_state().clone();
        for i in 1..=9 {
            for j in 1..=9 {
                let mut m = solution(i, j);
                if swapped && i == 1 && j <= 2 {
                    m = solution(1, 3 - j);
                }
                engine.load(&state);
                let wanted = format!("(play {i} {j} {m})");
                let legal = &engine.legal_moves().expect("legal moves")[0];
                let mv = legal.iter().find(|mv| mv.text(&compiled.symbols) == wanted).expect("the move is legal");
                let index = code.legal_moves_of(0).iter().position(|l| l.mv == *mv).expect("a move of the network");
                state = engine.next_state(std::slice::from_ref(mv)).expect("next state");
                net.play(&[index as u32]);
            }
        }
        let wanted = if swapped { 0 } else { 100 };
        engine.load(&state);
        assert!(engine.is_terminal().expect("terminal") && net.is_terminal());
        assert_eq!(engine.goals().expect("compiled"), [Some(wanted)]);
        assert_eq!(net.goals().expect("on bits"), [Some(wanted)]);
    }
}

/// Random states and joint moves (each fluent and move independently, so
/// most are unreachable) evaluated by the ground program and by the
/// optimised propnet.
#[test]
fn optimised_propnets_compute_the_ground_program() {
    const SAMPLES: u64 = 40;
    for game in GAMES {
        let (sources, file, text) = read_game(game);
        let grounding = grounded(game, &sources, file, &text);
        let mut oracle = GroundEvaluator::new(&grounding).unwrap_or_else(|e| panic!("{game}: {e}"));
        let net = Propnet::new(&grounding).optimised();
        let mut gates = Vec::new();
        for sample in 0..SAMPLES {
            // Denser or sparser states from sample to sample.
            let density = 1 + sample % 4;
            let bit = |i: usize, salt: u64| splitmix64((sample << 32) ^ ((i as u64) << 2) ^ salt) % 8 < density;
            let base: Vec<bool> = (0..net.base.len()).map(|i| bit(i, 1)).collect();
            let inputs: Vec<bool> = (0..net.inputs.len()).map(|i| bit(i, 2) && bit(i, 3)).collect();
            let fluents: Vec<Term> = net.base.iter().zip(&base).filter(|(_, b)| **b).map(|(f, _)| f.clone()).collect();
            let joint: Vec<(Term, Term)> =
                net.inputs.iter().zip(&inputs).filter(|(_, b)| **b).map(|(i, _)| i.clone()).collect();
            oracle.evaluate(&fluents, &joint);
            net.evaluate(&base, &inputs, &mut gates);
            let holding = |relation, arity| sorted_args(oracle.holding(relation, arity));
            let net_legal =
                sorted_args(net.legal.iter().filter(|l| gates[l.2]).map(|l| vec![l.0.clone(), l.1.clone()]).collect());
            assert_eq!(net_legal, holding(LEGAL, 2), "{game} sample {sample}: legal");
            let net_goals =
                sorted_args(net.goals.iter().filter(|g| gates[g.2]).map(|g| vec![g.0.clone(), g.1.clone()]).collect());
            assert_eq!(net_goals, holding(GOAL, 2), "{game} sample {sample}: goals");
            let net_next = sorted_args(net.next.iter().filter(|n| gates[n.1]).map(|n| vec![n.0.clone()]).collect());
            assert_eq!(net_next, holding(NEXT, 1), "{game} sample {sample}: next");
            let terminal = net.terminal.is_some_and(|t| gates[t]);
            assert_eq!(terminal, !holding(TERMINAL, 0).is_empty(), "{game} sample {sample}: terminal");
        }
    }
}

fn sorted_args(mut args: Vec<Vec<Term>>) -> Vec<Vec<Term>> {
    args.sort();
    args.dedup();
    args
}

/// The sliced circuit (64 states at once, as batches of playouts use it)
/// answers as the packed one, lane by lane: terminal, legal moves, goals
/// and the next state of a random joint move, on states of random playouts
/// of every differential game.
#[test]
fn sliced_lanes_answer_as_the_packed_engine_does() {
    use stratagem::gdl::batch::{Batch, LaneAnswer};
    let mut compared = 0;
    for game in differential_games() {
        let (_, file, text) = read_game(&game);
        let Ok((machine, _)) = stratagem::gdl::compile(file, &text, Validation::Lenient, EngineChoice::Compiled) else {
            continue;
        };
        let code = machine.compiled().expect("a compiled machine has a compiled game");
        let mut batch = Batch::new(code).unwrap_or_else(|e| panic!("{game}: sliced circuit: {e}"));
        let mut net = code.reasoner();
        // (state, joint move, what the packed engine answers)
        let mut cases: Vec<(Vec<u64>, Option<Vec<u32>>, LaneAnswer)> = Vec::new();
        for seed in 1..=SEEDS * 8 {
            net.load(code.initial_bits());
            for step in 0..MAX_STEPS {
                let state = net.state().to_vec();
                let terminal = net.is_terminal();
                let mut legal = Vec::new();
                let mut joint = Vec::new();
                for r in 0..code.n_roles() {
                    let mut indices = Vec::new();
                    net.legal_indices(r, &mut indices);
                    if !indices.is_empty() {
                        joint.push(indices[choice(seed, step as u64, r as u64, indices.len())]);
                    }
                    legal.push(indices);
                }
                let goals = net.goals().expect("goals");
                let playable = !terminal && joint.len() == code.n_roles();
                let next = playable.then(|| net.next_by_index(&joint).to_vec());
                let answer = LaneAnswer { terminal, legal, goals, next };
                cases.push((state, playable.then(|| joint.clone()), answer));
                if !playable {
                    break;
                }
                net.play(&joint);
            }
        }
        for (k, chunk) in cases.chunks(64).enumerate() {
            let states: Vec<&[u64]> = chunk.iter().map(|c| c.0.as_slice()).collect();
            let joints: Vec<Option<&[u32]>> = chunk.iter().map(|c| c.1.as_deref()).collect();
            let answers = batch.expand(&states, &joints);
            for (l, (case, answer)) in chunk.iter().zip(&answers).enumerate() {
                assert_eq!(answer, &case.2, "{game}: batch {k} lane {l}");
            }
        }
        // Playouts through the batch end with goals each game can have.
        let mut played = 0;
        let mut wanted = 100;
        let mut rng = stratagem::rng::stream(7, &[1]);
        let ended = batch
            .playouts(
                code.initial_bits(),
                &mut rng,
                || {
                    wanted -= 1;
                    wanted >= 0
                },
                |goals, length| {
                    assert_eq!(goals.len(), code.n_roles(), "{game}");
                    assert!(length as usize <= stratagem::gdl::playouts::MAX_PLAYOUT_STEPS, "{game}");
                    played += 1;
                },
            )
            .map(|_| assert_eq!(played, 100, "{game}: every playout started is finished"));
        if let Err(e) = ended {
            // Some corpus games (3pffa) reach states where a role has no
            // legal move; every engine says so. None of the default games.
            assert!(!GAMES.iter().any(|g| *g == game), "{game}: {e:?}");
            eprintln!("{game}: a playout reached a state where role {} has no legal move", e.0);
        }
        compared += 1;
    }
    assert!(compared >= GAMES.len().min(10), "too few games compared: {compared}");
}

/// A game server's start clock bounds the wait for the compiled engine:
/// with no time left, `auto` plays on the prover and says why, while
/// `compiled`, asked for by name, is waited for; with time, `auto` compiles
/// the game as ever.
#[test]
fn the_compiled_engine_is_waited_for_only_until_its_deadline() {
    let (_, file, text) = read_game("games/ticTacToe");
    let compile =
        |engine, until| stratagem::gdl::compile_as(file, &text, Validation::Lenient, engine, Case::Insensitive, until);
    let past = Some(Instant::now());
    let (late, _) = compile(EngineChoice::Auto, past).unwrap_or_else(|_| panic!("tic-tac-toe loads"));
    assert_eq!(late.engine(), Engine::Prover);
    assert!(late.engine_note.contains("time left to load"), "{}", late.engine_note);
    let (named, _) = compile(EngineChoice::Compiled, past).unwrap_or_else(|_| panic!("tic-tac-toe compiles"));
    assert_eq!(named.engine(), Engine::Compiled);
    let later = Some(Instant::now() + Duration::from_secs(60));
    let (compiled, _) = compile(EngineChoice::Auto, later).unwrap_or_else(|_| panic!("tic-tac-toe loads"));
    assert_eq!(compiled.engine(), Engine::Compiled, "{}", compiled.engine_note);
}
