//! Uniformly random playouts for a while: an engine's speed on a game.

use std::time::{Duration, Instant};

use rand::RngExt;
use serde::Serialize;

pub use super::batch::MAX_PLAYOUT_STEPS;
use super::batch::{Batch, NoLegalMove};
use super::compiled::CompiledGame;
use super::machine::Machine;
use super::prover::ProverError;
use super::term::Term;

#[derive(Clone, Debug, Serialize)]
pub struct Speed {
    pub engine: &'static str,
    /// Games played at once: 64 on the compiled engine's sliced circuit, else 1.
    pub lanes: usize,
    /// Why the games were played one at a time on the compiled engine, if
    /// they were asked for 64 at a time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub playouts: u64,
    pub playouts_per_s: f64,
    /// States expanded (joint moves applied) per second.
    pub expansions_per_s: f64,
    pub mean_length: f64,
    /// Each role's mean goal value over the playouts where it had one.
    pub mean_goals: Vec<Option<f64>>,
}

/// Plays random games from the initial state until `seconds` have passed
/// (at least one game). On the compiled engine, `batched` plays 64 games at
/// once on its sliced circuit (compiled now, before the clock starts).
pub fn playouts(machine: &Machine, seconds: f64, seed: u64, batched: bool) -> Result<Speed, ProverError> {
    if let Some(game) = machine.compiled() {
        if !batched {
            return compiled_playouts(machine, game, seconds, seed);
        }
        return match Batch::new(game) {
            Ok(batch) => batched_playouts(machine, batch, seconds, seed),
            Err(why) => {
                let mut speed = compiled_playouts(machine, game, seconds, seed)?;
                speed.note = Some(format!("no batches of 64 ({why}); one game at a time"));
                Ok(speed)
            }
        };
    }
    let mut reasoner = machine.reasoner();
    let mut rng = crate::rng::stream(seed, &[0x0067_646c]);
    let n_roles = machine.roles().len();
    let (mut playouts, mut expansions) = (0u64, 0u64);
    let mut goal_sums = vec![(0.0, 0u64); n_roles];
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let started = Instant::now();
    let mut joint: Vec<Term> = Vec::with_capacity(n_roles);
    loop {
        let mut state = machine.initial_state().clone();
        for _ in 0..MAX_PLAYOUT_STEPS {
            reasoner.load(&state);
            if reasoner.is_terminal()? {
                break;
            }
            let moves = reasoner.legal_moves()?;
            joint.clear();
            for (r, m) in moves.iter().enumerate() {
                if m.is_empty() {
                    return Err(ProverError(format!(
                        "role {} has no legal move in a state that is not terminal",
                        machine.roles()[r].text(&machine.symbols)
                    )));
                }
                joint.push(m[rng.random_range(0..m.len())].clone());
            }
            state = reasoner.next_state(&joint)?;
            expansions += 1;
        }
        reasoner.load(&state);
        add_goals(&mut goal_sums, reasoner.goals()?);
        playouts += 1;
        if started.elapsed() >= budget {
            break;
        }
    }
    Ok(speed("prover", 1, started, playouts, expansions, &goal_sums))
}

/// Adds a finished playout's goal values to each role's (sum, count).
fn add_goals(sums: &mut [(f64, u64)], goals: impl IntoIterator<Item = Option<u32>>) {
    for (sum, g) in sums.iter_mut().zip(goals) {
        if let Some(v) = g {
            sum.0 += f64::from(v);
            sum.1 += 1;
        }
    }
}

fn speed(
    engine: &'static str,
    lanes: usize,
    started: Instant,
    playouts: u64,
    expansions: u64,
    goal_sums: &[(f64, u64)],
) -> Speed {
    let elapsed = started.elapsed().as_secs_f64().max(1e-9);
    Speed {
        engine,
        lanes,
        note: None,
        playouts,
        playouts_per_s: playouts as f64 / elapsed,
        expansions_per_s: expansions as f64 / elapsed,
        mean_length: expansions as f64 / playouts as f64,
        mean_goals: goal_sums.iter().map(|&(s, n)| (n > 0).then(|| s / n as f64)).collect(),
    }
}

/// The same playouts on the compiled engine, states kept as bits.
fn compiled_playouts(machine: &Machine, game: &CompiledGame, seconds: f64, seed: u64) -> Result<Speed, ProverError> {
    let mut net = game.reasoner();
    let mut rng = crate::rng::stream(seed, &[0x0067_646c]);
    let n_roles = game.n_roles();
    let (mut playouts, mut expansions) = (0u64, 0u64);
    let mut goal_sums = vec![(0.0, 0u64); n_roles];
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let started = Instant::now();
    let mut legal: Vec<u32> = Vec::new();
    let mut choices = vec![0u32; n_roles];
    loop {
        net.load(game.initial_bits());
        for _ in 0..MAX_PLAYOUT_STEPS {
            if net.is_terminal() {
                break;
            }
            for (r, choice) in choices.iter_mut().enumerate() {
                net.legal_indices(r, &mut legal);
                if legal.is_empty() {
                    return Err(ProverError(format!(
                        "role {} has no legal move in a state that is not terminal",
                        machine.roles()[r].text(&machine.symbols)
                    )));
                }
                *choice = legal[rng.random_range(0..legal.len())];
            }
            net.play(&choices);
            expansions += 1;
        }
        add_goals(&mut goal_sums, net.goals()?);
        playouts += 1;
        if started.elapsed() >= budget {
            break;
        }
    }
    Ok(speed("compiled", 1, started, playouts, expansions, &goal_sums))
}

/// The same playouts 64 at a time: games start until `seconds` have passed
/// (at least one), and every game started is played to its end.
fn batched_playouts(machine: &Machine, mut batch: Batch, seconds: f64, seed: u64) -> Result<Speed, ProverError> {
    let game = machine.compiled().ok_or_else(|| ProverError("the game is not compiled".to_owned()))?;
    let mut rng = crate::rng::stream(seed, &[0x0067_646c]);
    let mut goal_sums = vec![(0.0, 0u64); game.n_roles()];
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let started = Instant::now();
    let mut playouts = 0u64;
    let mut begun = 0u64;
    let more = || {
        begun += 1;
        begun == 1 || started.elapsed() < budget
    };
    let expansions = batch
        .playouts(game.initial_bits(), &mut rng, more, |goals, _| {
            add_goals(&mut goal_sums, goals.iter().copied());
            playouts += 1;
        })
        .map_err(|NoLegalMove(r)| {
            ProverError(format!(
                "role {} has no legal move in a state that is not terminal",
                machine.roles()[r].text(&machine.symbols)
            ))
        })?;
    Ok(speed("compiled", crate::eval::jit::circuit::LANES, started, playouts, expansions, &goal_sums))
}
