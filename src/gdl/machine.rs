//! The GDL state machine: roles, the initial state, legal moves, the next
//! state of a joint move, terminal states and goal values, answered by the
//! prover.
//!
//! A [`Machine`] is built once per game and shared (it is immutable); each
//! thread reasons through its own [`Reasoner`], whose tables are reused from
//! state to state.

use std::time::Instant;

use super::compiled::{CompiledGame, NetReasoner, Network, ProverGoals};
use super::description::Description;
use super::goals::goal_values;
use super::plan::{Demand, Plan, Query, SAMPLE, Stats};
use super::prover::{FACT_BUDGET, ProverError, Workspace};
use super::state::State;
use super::term::{Sym, Symbols, Term};
use crate::diagnostic::Diagnostic;

/// Which engine a machine should reason with (`--engine` of the GDL
/// commands and `ggp serve`): the one choice of how GDL is reasoned over.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineChoice {
    /// The game grounded into a propositional network and compiled to
    /// native code (or an error saying why the game cannot have it).
    Compiled,
    /// Bottom-up evaluation of the rules, state by state.
    Prover,
    /// Compiled when the game grounds and compiles within the budgets, else the prover.
    Auto,
}

/// The engine a machine reasons with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Prover,
    Compiled,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Prover => "prover",
            Engine::Compiled => "compiled",
        }
    }
}

/// A game, compiled for the prover and, when chosen, to native code.
#[derive(Debug)]
pub struct Machine {
    pub symbols: Symbols,
    plan: Plan,
    base: Workspace,
    roles: Vec<Term>,
    initial: State,
    compiled: Option<CompiledGame>,
    /// What the engine is, or why the compiled engine is not used.
    pub engine_note: String,
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
        // Each candidate gets a budget of twice the best so far, in facts,
        // and of ten times its joins (plus a million, some milliseconds) in
        // work: a rough literal order can join for seconds to derive a few
        // hundred facts (tictactoe_3d_6player under demand: 8 s).
        // Candidates are first tried within a tenth of the fact budget, so
        // that one whose static relations are too large to compute whole
        // (sudoku) is given up early.
        let mut best: Option<(usize, Demand, Plan, Workspace)> = None;
        let mut least_joins: Option<u64> = None;
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
            if let Some(joins) = least_joins {
                ws.set_join_budget(ws.joins + 10 * joins + 1_000_000);
            }
            let static_joins = ws.joins;
            if !sample_initial_state(&candidate, &mut ws) {
                continue;
            }
            let joins = ws.joins - static_joins;
            least_joins = Some(least_joins.map_or(joins, |least| least.min(joins)));
            let cost = ws.total_facts - static_facts + static_facts / 100;
            let better = match &best {
                None => true,
                Some((best_cost, ..)) => 2 * cost < *best_cost,
            };
            if better {
                best = Some((cost, demand, candidate, ws));
            }
        }
        let Some((_, demand, rough, sample)) = best else {
            let e = last_error.unwrap_or_else(|| ProverError("the initial state could not be evaluated".to_owned()));
            return Err(limit(e));
        };
        // The chosen candidate's tables hold the initial state's facts.
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
        Ok(Machine {
            symbols: desc.symbols.clone(),
            plan,
            base,
            roles,
            initial,
            compiled: None,
            engine_note: "prover".to_owned(),
            warnings,
        })
    }

    /// Compiles `desc` for the prover and, unless `choice` is
    /// [`EngineChoice::Prover`], to native code; under
    /// [`EngineChoice::Compiled`] a game that cannot be compiled is an error,
    /// under [`EngineChoice::Auto`] it falls back to the prover and
    /// [`Machine::engine_note`] says why.
    pub fn with_engine(desc: &Description, choice: EngineChoice) -> Result<Machine, Vec<Diagnostic>> {
        Machine::with_engine_until(desc, choice, None)
    }

    /// [`Machine::with_engine`], where under [`EngineChoice::Auto`] the
    /// compiled engine must be ready by `until` (a game server's start
    /// clock): a game that would take longer to ground and compile is
    /// reasoned about by the prover. [`EngineChoice::Compiled`], asked for
    /// by name, is waited for.
    pub fn with_engine_until(
        desc: &Description,
        choice: EngineChoice,
        until: Option<Instant>,
    ) -> Result<Machine, Vec<Diagnostic>> {
        if choice == EngineChoice::Prover {
            return Machine::new(desc);
        }
        let until = until.filter(|_| choice == EngineChoice::Auto);
        // Grounding and optimisation need neither the roles nor the initial
        // state: they run beside the prover's set-up (amazons: 0.4 s).
        let (machine, network) = std::thread::scope(|scope| {
            let network = std::thread::Builder::new()
                .name("ground".to_owned())
                .spawn_scoped(scope, || Network::of_until(desc, until));
            let machine = Machine::new(desc);
            let network = match network {
                Ok(handle) => handle.join().unwrap_or_else(|_| Err("grounding stopped unexpectedly".to_owned())),
                Err(_) => Network::of_until(desc, until),
            };
            (machine, network)
        });
        let mut machine = machine?;
        match network.and_then(|network| network.compile(&machine.roles, &machine.initial, &desc.symbols)) {
            Ok(mut game) => {
                machine.engine_note = game.report.summary();
                if let Some(why) = game.goals_left_out() {
                    machine.engine_note.push_str(&format!("; goals answered by the prover ({why})"));
                    game.answer_goals_by(ProverGoals {
                        plan: machine.plan.clone(),
                        base: machine.base.clone(),
                        roles: machine.roles.clone(),
                        symbols: machine.symbols.clone(),
                    });
                }
                machine.compiled = Some(game);
            }
            Err(why) if choice == EngineChoice::Auto => {
                machine.engine_note = format!("prover: the game is not compiled: {why}");
            }
            Err(why) => {
                return Err(vec![
                    Diagnostic::error("stratagem::gdl::compile", format!("the game cannot be compiled: {why}"))
                        .with_help(
                            "`--engine prover` reasons over the rules as they are; `--engine auto` falls back to it",
                        ),
                ]);
            }
        }
        Ok(machine)
    }

    /// The engine this machine reasons with.
    pub fn engine(&self) -> Engine {
        if self.compiled.is_some() { Engine::Compiled } else { Engine::Prover }
    }

    /// The compiled game, when the machine has one.
    pub fn compiled(&self) -> Option<&CompiledGame> {
        self.compiled.as_ref()
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
        Reasoner {
            machine: self,
            ws: None,
            net: self.compiled.as_ref().map(CompiledGame::reasoner),
            on_net: false,
            loaded: None,
            deadline: None,
        }
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The symbol of `name`, if the game has one.
    pub fn symbol(&self, name: &str) -> Option<Sym> {
        self.symbols.get(name)
    }
}

/// One thread's view of a machine: answers queries about one state at a
/// time, with the compiled engine when the machine has one. A state with a
/// fluent the compiled game does not know (one no rule reads or makes, as a
/// hand-written state may have) is answered by the prover.
pub struct Reasoner<'m> {
    machine: &'m Machine,
    /// The prover's tables, made when first needed.
    ws: Option<Workspace>,
    net: Option<NetReasoner<'m>>,
    /// Whether the loaded state is on the compiled engine.
    on_net: bool,
    loaded: Option<State>,
    /// When the prover gives up (the compiled engine answers in
    /// microseconds and has no clock).
    deadline: Option<Instant>,
}

impl<'m> Reasoner<'m> {
    /// Makes the prover give up evaluations still running at `deadline`
    /// (they fail with a message); `None` lifts the limit. A search on the
    /// clock sets it so that one slow state cannot make its answer late.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        if let Some(ws) = &mut self.ws {
            ws.set_deadline(deadline);
        }
    }

    /// Makes `state` the current state (a no-op if it already is).
    pub fn load(&mut self, state: &State) {
        if self.loaded.as_ref() == Some(state) {
            return;
        }
        let compiled = self.machine.compiled.as_ref();
        let known = compiled.and_then(|c| state.bits_in(c.id()));
        let bits = match known {
            Some(bits) => Some(std::borrow::Cow::Borrowed(bits)),
            None => compiled.and_then(|c| c.bits_of(state)).map(std::borrow::Cow::Owned),
        };
        match (&mut self.net, bits) {
            (Some(net), Some(bits)) => {
                net.load(&bits);
                self.on_net = true;
            }
            _ => {
                let plan = &self.machine.plan;
                self.prover().set_state(plan, state.fluents());
                self.on_net = false;
            }
        }
        self.loaded = Some(state.clone());
    }

    /// The compiled engine's reasoner, for loops that keep states as bits
    /// (none when the machine has no compiled game). Loading a state through
    /// it is not seen by [`Reasoner::load`]'s cache, so this forgets it.
    pub fn net(&mut self) -> Option<&mut NetReasoner<'m>> {
        self.loaded = None;
        self.net.as_mut()
    }

    fn prover(&mut self) -> &mut Workspace {
        let deadline = self.deadline;
        self.ws.get_or_insert_with(|| {
            let mut ws = self.machine.base.clone();
            ws.set_deadline(deadline);
            ws
        })
    }

    pub fn is_terminal(&mut self) -> Result<bool, ProverError> {
        if let (true, Some(net)) = (self.on_net, &self.net) {
            return Ok(net.is_terminal());
        }
        let plan = &self.machine.plan;
        let ws = self.prover();
        ws.answer(plan, Query::Terminal)?;
        Ok(!ws.table(plan.terminal).is_empty())
    }

    /// How many legal moves each role has, where the compiled engine can
    /// count them without building the moves as terms: written into
    /// `counts` (cleared first, its allocation kept by a caller reasoning
    /// state after state); `false` on the prover.
    pub fn legal_counts(&mut self, counts: &mut Vec<usize>) -> bool {
        counts.clear();
        let (true, Some(net)) = (self.on_net, &self.net) else { return false };
        counts.extend((0..self.machine.roles.len()).map(|r| net.legal_count(r)));
        true
    }

    /// The legal moves of every role, in the order the engine derived them.
    pub fn legal_moves(&mut self) -> Result<Vec<Vec<Term>>, ProverError> {
        let machine = self.machine;
        if let (true, Some(net), Some(game)) = (self.on_net, &self.net, &machine.compiled) {
            return Ok((0..machine.roles.len())
                .map(|r| {
                    let moves = game.legal_moves_of(r);
                    net.legal(r).map(|i| moves[i].mv.clone()).collect()
                })
                .collect());
        }
        let plan = &machine.plan;
        let ws = self.prover();
        ws.answer(plan, Query::Legal)?;
        let mut moves = vec![Vec::new(); machine.roles.len()];
        for fact in ws.table(plan.legal).facts() {
            if let Some(r) = machine.roles.iter().position(|role| *role == fact[0]) {
                moves[r].push(fact[1].clone());
            }
        }
        Ok(moves)
    }

    /// The legal moves of every role in canonical text order (the order
    /// users see, the same on both engines). The compiled engine keeps its
    /// moves in that order; the prover's answers are sorted.
    pub fn legal_moves_sorted(&mut self) -> Result<Vec<Vec<Term>>, ProverError> {
        let sorted = self.on_net && self.net.is_some() && self.machine.compiled.is_some();
        let mut legal = self.legal_moves()?;
        if !sorted {
            for moves in &mut legal {
                super::term::sort_canonically(moves, &self.machine.symbols);
            }
        }
        Ok(legal)
    }

    /// Each role's goal value: `None` unless exactly one goal value, an
    /// integer, holds for it (GGP-Base's rule).
    pub fn goals(&mut self) -> Result<Vec<Option<u32>>, ProverError> {
        if let (true, Some(net)) = (self.on_net, &mut self.net) {
            return net.goals();
        }
        let machine = self.machine;
        let ws = self.prover();
        goal_values(&machine.plan, ws, &machine.roles, &machine.symbols)
    }

    /// The state after `joint` (one move per role, in role order).
    pub fn next_state(&mut self, joint: &[Term]) -> Result<State, ProverError> {
        let machine = self.machine;
        if let (true, Some(net), Some(game)) = (self.on_net, &mut self.net, &machine.compiled) {
            let inputs = joint.iter().enumerate().map(|(r, m)| game.input_of(r, m));
            return Ok(game.state_of(net.next_by_inputs(inputs)));
        }
        let plan = &machine.plan;
        let does: Vec<(Term, Term)> = machine.roles.iter().cloned().zip(joint.iter().cloned()).collect();
        let ws = self.prover();
        ws.set_moves(plan, &does);
        ws.answer(plan, Query::Next)?;
        Ok(State::from_terms(ws.table(plan.next).facts().map(|f| f[0].clone()).collect()))
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
