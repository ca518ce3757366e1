//! Goal values by GGP-Base's rule: a role has a goal value only when
//! exactly one of its goals holds and that value is an integer. The prover
//! reads them from its tables, the compiled engines from their goal wires.

use super::plan::{Plan, Query};
use super::prover::{ProverError, Workspace};
use super::term::{Symbols, Term};
use crate::eval::jit::circuit::Wire;

/// Each role's goal value in the state `ws` holds: `None` unless exactly
/// one goal value, an integer, holds for it (GGP-Base's rule).
pub(super) fn goal_values(
    plan: &Plan,
    ws: &mut Workspace,
    roles: &[Term],
    symbols: &Symbols,
) -> Result<Vec<Option<u32>>, ProverError> {
    ws.answer(plan, Query::Goal)?;
    let mut values: Vec<Vec<&Term>> = vec![Vec::new(); roles.len()];
    for fact in ws.table(plan.goal).facts() {
        if let Some(r) = roles.iter().position(|role| *role == fact[0]) {
            values[r].push(&fact[1]);
        }
    }
    Ok(values
        .iter()
        .map(|v| match v[..] {
            [Term::Const(s)] => symbols.name(*s).parse::<u32>().ok(),
            _ => None,
        })
        .collect())
}

/// A role's goal value from the goals that hold: `None` unless exactly one
/// holds and it is an integer (GGP-Base's rule, as the prover's).
pub(super) fn single_goal<'a>(mut holding: impl Iterator<Item = &'a (Option<u32>, Wire)>) -> Option<u32> {
    match (holding.next(), holding.next()) {
        (Some((v, _)), None) => *v,
        _ => None,
    }
}
