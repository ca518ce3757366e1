//! Deterministic playouts in the reference trace format: at step t, role r
//! takes, among its legal moves sorted by canonical text, the one at
//! `splitmix64(seed * 1000003 + t * 1009 + r) mod n` (wrapping u64 arithmetic),
//! so traces compare byte for byte with GGP-Base's without its move order.

use std::fmt::Write as _;

use super::machine::Machine;
use super::prover::ProverError;
use super::term::{Term, sort_canonically};

pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The move index role `role` takes among `n` moves at `step` of `seed`.
pub fn choice(seed: u64, step: u64, role: u64, n: usize) -> usize {
    let x = seed.wrapping_mul(1_000_003).wrapping_add(step.wrapping_mul(1009)).wrapping_add(role);
    (splitmix64(x) % n as u64) as usize
}

/// Plays seed `seed` for at most `max_steps` joint moves, writing one JSON
/// line per step and a final line to `out`.
pub fn trace(machine: &Machine, seed: u64, max_steps: usize, out: &mut String) -> Result<(), ProverError> {
    let symbols = &machine.symbols;
    let mut reasoner = machine.reasoner();
    let mut state = machine.initial_state().clone();
    let mut steps = 0;
    let mut terminal = false;
    while steps <= max_steps {
        reasoner.load(&state);
        if reasoner.is_terminal()? {
            terminal = true;
            break;
        }
        if steps == max_steps {
            break;
        }
        let mut legal = reasoner.legal_moves()?;
        let mut legal_texts = Vec::with_capacity(legal.len());
        let mut joint: Vec<Term> = Vec::with_capacity(legal.len());
        let mut joint_texts = Vec::with_capacity(legal.len());
        for (r, moves) in legal.iter_mut().enumerate() {
            let texts = sort_canonically(moves, symbols);
            if moves.is_empty() {
                return Err(ProverError(format!(
                    "role {} has no legal move in a state that is not terminal (seed {seed}, step {steps})",
                    machine.roles()[r].text(symbols)
                )));
            }
            let i = choice(seed, steps as u64, r as u64, moves.len());
            joint.push(moves[i].clone());
            joint_texts.push(texts[i].clone());
            legal_texts.push(texts);
        }
        let _ = write!(out, "{{\"seed\":{seed},\"step\":{steps},\"state\":");
        write_strings(out, &state_texts(machine, state.fluents()));
        out.push_str(",\"legal\":[");
        for (r, texts) in legal_texts.iter().enumerate() {
            if r > 0 {
                out.push(',');
            }
            write_strings(out, texts);
        }
        out.push_str("],\"joint\":");
        write_strings(out, &joint_texts);
        out.push_str("}\n");
        state = reasoner.next_state(&joint)?;
        steps += 1;
    }
    reasoner.load(&state);
    let goals = reasoner.goals()?;
    let _ = write!(out, "{{\"seed\":{seed},\"terminal\":{terminal},\"steps\":{steps},\"state\":");
    write_strings(out, &state_texts(machine, state.fluents()));
    out.push_str(",\"goals\":[");
    for (r, g) in goals.iter().enumerate() {
        if r > 0 {
            out.push(',');
        }
        match g {
            Some(v) => {
                let _ = write!(out, "{v}");
            }
            None => out.push_str("null"),
        }
    }
    out.push_str("]}\n");
    Ok(())
}

fn state_texts(machine: &Machine, fluents: &[Term]) -> Vec<String> {
    let mut terms = fluents.to_vec();
    sort_canonically(&mut terms, &machine.symbols)
}

fn write_strings(out: &mut String, items: &[String]) {
    out.push('[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::Value::String(s.clone()).to_string());
    }
    out.push(']');
}
