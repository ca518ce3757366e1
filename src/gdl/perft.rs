//! Game-tree counts from the initial state (GGP-Base's perft format): per
//! depth, the joint-move sequences (`nodes`), the distinct states among them,
//! and how many are terminal. States reached by several sequences are
//! expanded once and counted with their multiplicity.

use std::time::Instant;

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::machine::Machine;
use super::prover::ProverError;
use super::state::State;
use super::term::Term;

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Depth {
    pub depth: usize,
    pub nodes: u64,
    pub distinct_states: usize,
    pub terminal: u64,
    pub terminal_distinct: usize,
    pub ms: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Perft {
    pub game: String,
    pub source: String,
    pub roles: Vec<String>,
    pub depths: Vec<Depth>,
    pub stop_reason: String,
}

/// Counts depths 0..=`max_depth`, stopping early when every node is
/// terminal or when `max_states` distinct states would be held at one depth.
pub fn perft(machine: &Machine, max_depth: usize, max_states: usize) -> Result<(Vec<Depth>, String), ProverError> {
    let mut reasoner = machine.reasoner();
    let mut level: FxHashMap<State, u64> = FxHashMap::default();
    level.insert(machine.initial_state().clone(), 1);
    let mut depths = Vec::new();
    let mut joint: Vec<Term> = Vec::new();
    for depth in 0..=max_depth {
        let started = Instant::now();
        let mut row = Depth {
            depth,
            nodes: level.values().sum(),
            distinct_states: level.len(),
            terminal: 0,
            terminal_distinct: 0,
            ms: 0,
        };
        let mut next: FxHashMap<State, u64> = FxHashMap::default();
        let expand = depth < max_depth;
        for (state, &count) in &level {
            reasoner.load(state);
            if reasoner.is_terminal()? {
                row.terminal += count;
                row.terminal_distinct += 1;
                continue;
            }
            if !expand {
                continue;
            }
            let moves = reasoner.legal_moves()?;
            if moves.iter().any(Vec::is_empty) {
                continue;
            }
            let mut choice = vec![0usize; moves.len()];
            loop {
                joint.clear();
                joint.extend(choice.iter().zip(&moves).map(|(&i, m)| m[i].clone()));
                let child = reasoner.next_state(&joint)?;
                *next.entry(child).or_insert(0) += count;
                if !advance(&mut choice, &moves) {
                    break;
                }
            }
            if next.len() > max_states {
                row.ms = started.elapsed().as_millis() as u64;
                depths.push(row);
                return Ok((depths, format!("depth {} would hold more than {max_states} distinct states", depth + 1)));
            }
        }
        row.ms = started.elapsed().as_millis() as u64;
        let all_terminal = row.terminal == row.nodes;
        depths.push(row);
        if all_terminal {
            return Ok((depths, "exhausted (all nodes at last depth terminal)".to_owned()));
        }
        level = next;
    }
    Ok((depths, format!("depth {max_depth} reached")))
}

/// Steps `choice` to the next joint move (odometer order, last role fastest).
pub fn advance(choice: &mut [usize], moves: &[Vec<Term>]) -> bool {
    for r in (0..choice.len()).rev() {
        choice[r] += 1;
        if choice[r] < moves[r].len() {
            return true;
        }
        choice[r] = 0;
    }
    false
}
