//! The GDL state machine: roles, the initial state, legal moves, the next
//! state of a joint move, terminal states and goal values, answered by the
//! prover.
//!
//! A [`Machine`] is built once per game and shared (it is immutable); each
//! thread reasons through its own [`Reasoner`], whose tables are reused from
//! state to state.

use std::sync::Arc;

use super::description::Description;
use super::plan::{Plan, Query};
use super::prover::{ProverError, Workspace};
use super::term::{Sym, Symbols, Term};
use crate::diagnostic::Diagnostic;

/// A state: its fluents (what `true` holds), sorted and without repeats.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State(pub Arc<[Term]>);

impl State {
    fn from_terms(mut fluents: Vec<Term>) -> State {
        fluents.sort_unstable();
        fluents.dedup();
        State(fluents.into())
    }

    pub fn fluents(&self) -> &[Term] {
        &self.0
    }
}

/// A game, compiled for the prover.
#[derive(Debug)]
pub struct Machine {
    pub symbols: Symbols,
    plan: Plan,
    base: Workspace,
    roles: Vec<Term>,
    initial: State,
    /// Warnings from compiling the rules (rules the prover leaves out).
    pub warnings: Vec<Diagnostic>,
}

impl Machine {
    /// Compiles `desc` (which should have passed validation).
    pub fn new(desc: &Description) -> Result<Machine, Vec<Diagnostic>> {
        let (plan, warnings) = Plan::new(desc)?;
        let base = Workspace::new(&plan).map_err(|e| vec![Diagnostic::error("stratagem::gdl::limit", e.0)])?;
        let roles: Vec<Term> = desc.roles().into_iter().map(Term::Const).collect();
        if roles.is_empty() {
            return Err(vec![
                Diagnostic::error("stratagem::gdl::roles", "the game declares no roles")
                    .with_help("declare each player with a fact `(role NAME)`"),
            ]);
        }
        let initial = State::from_terms(base.table(plan.init).facts().map(|f| f[0].clone()).collect());
        Ok(Machine { symbols: desc.symbols.clone(), plan, base, roles, initial, warnings })
    }

    pub fn roles(&self) -> &[Term] {
        &self.roles
    }

    pub fn role_names(&self) -> Vec<String> {
        self.roles.iter().map(|r| r.text(&self.symbols)).collect()
    }

    pub fn initial_state(&self) -> &State {
        &self.initial
    }

    pub fn reasoner(&self) -> Reasoner<'_> {
        Reasoner { machine: self, ws: self.base.clone(), loaded: None }
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The symbol of `name`, if the game has one.
    pub fn symbol(&self, name: &str) -> Option<Sym> {
        self.symbols.get(name)
    }
}

/// One thread's view of a machine: answers queries about one state at a time.
pub struct Reasoner<'m> {
    machine: &'m Machine,
    ws: Workspace,
    loaded: Option<State>,
}

impl Reasoner<'_> {
    /// Makes `state` the current state (a no-op if it already is).
    pub fn load(&mut self, state: &State) {
        if self.loaded.as_ref() == Some(state) {
            return;
        }
        self.ws.set_state(&self.machine.plan, state.fluents());
        self.loaded = Some(state.clone());
    }

    pub fn is_terminal(&mut self) -> Result<bool, ProverError> {
        let plan = &self.machine.plan;
        self.ws.answer(plan, Query::Terminal)?;
        Ok(!self.ws.table(plan.terminal).is_empty())
    }

    /// The legal moves of every role, in the order the prover derived them.
    pub fn legal_moves(&mut self) -> Result<Vec<Vec<Term>>, ProverError> {
        let plan = &self.machine.plan;
        self.ws.answer(plan, Query::Legal)?;
        let mut moves = vec![Vec::new(); self.machine.roles.len()];
        for fact in self.ws.table(plan.legal).facts() {
            if let Some(r) = self.machine.roles.iter().position(|role| *role == fact[0]) {
                moves[r].push(fact[1].clone());
            }
        }
        Ok(moves)
    }

    /// Each role's goal value: `None` unless exactly one goal value, an
    /// integer, holds for it (GGP-Base's rule).
    pub fn goals(&mut self) -> Result<Vec<Option<u32>>, ProverError> {
        let plan = &self.machine.plan;
        self.ws.answer(plan, Query::Goal)?;
        let mut values: Vec<Vec<&Term>> = vec![Vec::new(); self.machine.roles.len()];
        for fact in self.ws.table(plan.goal).facts() {
            if let Some(r) = self.machine.roles.iter().position(|role| *role == fact[0]) {
                values[r].push(&fact[1]);
            }
        }
        Ok(values
            .iter()
            .map(|v| match v[..] {
                [Term::Const(s)] => self.machine.symbols.name(*s).parse::<u32>().ok(),
                _ => None,
            })
            .collect())
    }

    /// The state after `joint` (one move per role, in role order).
    pub fn next_state(&mut self, joint: &[Term]) -> Result<State, ProverError> {
        let plan = &self.machine.plan;
        let does: Vec<(Term, Term)> = self.machine.roles.iter().cloned().zip(joint.iter().cloned()).collect();
        self.ws.set_moves(plan, &does);
        self.ws.answer(plan, Query::Next)?;
        Ok(State::from_terms(self.ws.table(plan.next).facts().map(|f| f[0].clone()).collect()))
    }
}
