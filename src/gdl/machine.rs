//! The GDL state machine: roles, the initial state, legal moves, the next
//! state of a joint move, terminal states and goal values, answered by the
//! prover.
//!
//! A [`Machine`] is built once per game and shared (it is immutable); each
//! thread reasons through its own [`Reasoner`], whose tables are reused from
//! state to state.

use std::sync::Arc;

use super::description::Description;
use super::plan::{Demand, Plan, Query, SAMPLE, Stats};
use super::prover::{FACT_BUDGET, ProverError, Workspace};
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
        let limit = |e: ProverError| vec![Diagnostic::error("stratagem::gdl::limit", e.0)];
        // A first plan with rough literal orders evaluates the initial state;
        // its facts are the statistics the final plan orders literals by.
        // The rules as written, or rewritten for demand (magic sets), whichever
        // derives fewer facts on the initial state: demand saves whole
        // relations in some games and costs a third of the time in others.
        // Each candidate gets a budget of twice the best so far.
        // Candidates are first tried within a tenth of the fact budget, so
        // that one whose static relations are too large to compute whole
        // (sudoku) is given up early.
        let mut best: Option<(usize, Demand, Plan)> = None;
        let mut last_error = None;
        let attempts = [Demand::Off, Demand::Dynamic, Demand::All].map(|d| (d, FACT_BUDGET / 10));
        let retries = [Demand::Off, Demand::Dynamic, Demand::All].map(|d| (d, FACT_BUDGET));
        for (demand, cap) in attempts.into_iter().chain(retries) {
            if best.is_some() && cap == FACT_BUDGET {
                break;
            }
            let Ok((candidate, _)) = Plan::new(desc, None, demand) else { continue };
            let budget = best.as_ref().map_or(cap, |(cost, ..)| (2 * cost + 10_000).min(cap));
            let mut ws = match Workspace::with_budget(&candidate, budget) {
                Ok(ws) => ws,
                Err(e) => {
                    last_error = Some(e);
                    continue;
                }
            };
            let static_facts = ws.total_facts;
            if !sample_initial_state(&candidate, &mut ws) {
                continue;
            }
            let cost = ws.total_facts - static_facts + static_facts / 100;
            let better = match &best {
                None => true,
                Some((best_cost, ..)) => 2 * cost < *best_cost,
            };
            if better {
                best = Some((cost, demand, candidate));
            }
        }
        let Some((_, demand, rough)) = best else {
            let e = last_error.unwrap_or_else(|| ProverError("the initial state could not be evaluated".to_owned()));
            return Err(limit(e));
        };
        let mut sample = Workspace::new(&rough).map_err(limit)?;
        sample_initial_state(&rough, &mut sample);
        let stats = statistics(&rough, &sample);
        let (plan, warnings) = Plan::new(desc, Some(&stats), demand)?;
        let base = Workspace::new(&plan).map_err(limit)?;
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

/// Evaluates every query on the initial state, with the first legal move of
/// each role as the joint move; false if the workspace's budget ran out (it
/// keeps what it got).
fn sample_initial_state(plan: &Plan, ws: &mut Workspace) -> bool {
    let initial: Vec<Term> = ws.table(plan.init).facts().map(|f| f[0].clone()).collect();
    ws.set_state(plan, &initial);
    for query in [Query::Legal, Query::Terminal, Query::Goal] {
        if ws.answer(plan, query).is_err() {
            return false;
        }
    }
    let roles: Vec<Term> = ws
        .table(
            plan.relations.iter().position(|r| r.name == super::description::ROLE && r.arity == 1).unwrap_or(plan.init),
        )
        .facts()
        .map(|f| f[0].clone())
        .collect();
    let mut joint = Vec::new();
    for role in roles {
        if let Some(f) = ws.table(plan.legal).facts().find(|f| f[0] == role) {
            joint.push((role, f[1].clone()));
        }
    }
    ws.set_moves(plan, &joint);
    ws.answer(plan, Query::Next).is_ok()
}

/// Sample facts of the rules as written, from the initial state (the literal
/// orders of grounding's relaxed game come from them).
pub(super) fn initial_statistics(desc: &Description) -> Option<Stats> {
    let (plan, _) = Plan::new(desc, None, Demand::Off).ok()?;
    let mut ws = Workspace::with_budget(&plan, FACT_BUDGET / 10).ok()?;
    sample_initial_state(&plan, &mut ws);
    Some(statistics(&plan, &ws))
}

/// Up to [`SAMPLE`] facts of every relation, spread over its table.
fn statistics(plan: &Plan, ws: &Workspace) -> Stats {
    let mut stats = Stats::default();
    for (rel, r) in plan.relations.iter().enumerate() {
        let table = ws.table(rel);
        let step = table.len().div_ceil(SAMPLE).max(1);
        let facts = (0..table.len()).step_by(step).map(|i| table.fact(i).to_vec()).collect();
        stats.record(r.name, r.arity, table.len(), facts);
    }
    stats
}
