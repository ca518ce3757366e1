//! `stratagem repl [FILE...]`: put a position on the board, type an
//! expression or load a champion, and see what it says.
//!
//! Input is an expression (evaluated on the current position over the game's
//! primset) or a `:command`. An expression continues over lines until its
//! parentheses balance. Errors are the CLI's diagnostics, printed without
//! leaving the session. On a terminal, rustyline gives line editing and a
//! history kept across sessions; otherwise lines are read from standard input,
//! which is how scripted sessions are tested.

mod game;

use std::cell::Cell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Sources, did_you_mean};
use crate::eval::interp::Interp;
use crate::eval::jit::JitProgram;
use crate::games::domain::GpDomain;
use crate::games::registry::{self, GAMES, GameTask};
use crate::lang::check::{TreeEnv, check_tree};
use crate::lang::{FormRef, Loader, Network, Node, PrimSet, PrimSetId, Tree, TypeId, Value};
use crate::syntax::{Atom, Sexp, SexpKind, read};
use game::{ReplGame, Session};

const HELP: &[(&str, &str, &str)] = &[
    (":help", ":help", "list the commands"),
    (":game", ":game morris  or  :game games/ticTacToe.kif", "start a game, or a GDL game (alone: list the games)"),
    (":position", ":position B:W21-32:B1-12", "set the position in the game's text format (alone: print it)"),
    (":moves", ":moves", "list the legal moves, numbered"),
    (
        ":play",
        ":play 11-15  or  :play 3  or  :play (mark 1 1) noop",
        "play a move, by its text or its number; one move per role when all move at once",
    ),
    (":undo", ":undo", "take back the last move"),
    (":board", ":board", "show the board"),
    (":reset", ":reset", "back to the initial position"),
    (":load", ":load programs/champions/lose-checkers-figure-1-2.sg", "load a file of programs"),
    (":list", ":list", "list the primsets, individuals, policies, weights, networks and experiments loaded"),
    (":eval", ":eval figure-1-2", "evaluate an individual, policy or weight vector on the position"),
    (":rank", ":rank figure-1-2", "order the legal moves by an individual's evaluation of the result"),
    (":type", ":type (Plus Mobility 1.0)", "show an expression's type without evaluating it"),
    (":engine", ":engine jit", "choose the evaluation engine: interp or jit (alone: show it)"),
    (":quit", ":quit", "leave (so does Ctrl-D)"),
];

/// The state of a session.
pub struct Repl {
    loader: Loader,
    /// Diagnostics of the loader already shown.
    shown: usize,
    game: Option<Box<dyn ReplGame>>,
    /// The primset expressions are written in: the game's.
    primset: Option<PrimSetId>,
    inputs: usize,
    /// Evaluate with the JIT (else the interpreter).
    jit: bool,
    /// Inputs that failed, for the exit status of a scripted session.
    failures: Cell<usize>,
}

impl Default for Repl {
    fn default() -> Self {
        Repl::new()
    }
}

impl Repl {
    pub fn new() -> Repl {
        Repl {
            loader: Loader::new(),
            shown: 0,
            game: None,
            primset: None,
            inputs: 0,
            jit: false,
            failures: Cell::new(0),
        }
    }

    /// New diagnostics of the loader, rendered.
    fn new_diagnostics(&mut self) -> String {
        let fresh = &self.loader.diags[self.shown..];
        self.shown = self.loader.diags.len();
        if crate::diagnostic::has_errors(fresh) {
            self.failures.set(self.failures.get() + 1);
        }
        if fresh.is_empty() { String::new() } else { self.loader.sources.render_plain(fresh) }
    }

    /// Counts a failed input and passes its message through.
    fn fail(&self, message: String) -> String {
        self.failures.set(self.failures.get() + 1);
        message
    }

    /// How many inputs of the session failed.
    pub fn failures(&self) -> usize {
        self.failures.get()
    }

    pub fn load(&mut self, path: &Path) -> String {
        let before = self.loader.module.forms.len();
        let file = self.loader.load_path(path);
        let mut out = self.new_diagnostics();
        if file.is_some() {
            let added = self.loader.module.forms.len() - before;
            out.push_str(&format!("loaded {}: {added} form(s)\n", path.display()));
        }
        out
    }

    /// Handles one complete input (an expression or a command) and returns what to print.
    pub fn handle(&mut self, input: &str) -> String {
        let input = input.trim();
        if input.is_empty() {
            return String::new();
        }
        let Some(command) = input.strip_prefix(':') else { return self.expression(input, true) };
        let (name, arg) = command.split_once(char::is_whitespace).map_or((command, ""), |(n, a)| (n, a.trim()));
        match name {
            "help" => HELP.iter().map(|(c, ex, what)| format!("{c:<10} {what}\n           e.g. {ex}\n")).collect(),
            "game" => self.set_game(arg),
            "position" if arg.is_empty() => self.with_game(|g| Ok(format!("{}\n", g.position()))),
            "position" => self.with_game(|g| match g.set_position(arg) {
                Ok(()) => Ok(g.board()),
                Err(e) => Err(text_error("stratagem::game::position", "position", arg, e)),
            }),
            "moves" => self.with_game(|g| Ok(moves_listing(g))),
            "play" if !arg.is_empty() => self.with_game(|g| match g.play(arg) {
                Ok(mv) => Ok(format!("played {mv}\n{}", g.board())),
                Err(e) => Err(text_error("stratagem::game::move", "move", arg, e)),
            }),
            "undo" => self.with_game(|g| Ok(if g.undo() { g.board() } else { "nothing to undo\n".into() })),
            "board" => self.with_game(|g| Ok(g.board())),
            "reset" => self.with_game(|g| {
                g.reset();
                Ok(g.board())
            }),
            "load" if !arg.is_empty() => self.load(&PathBuf::from(arg)),
            "list" => self.list(),
            "eval" if !arg.is_empty() => self.eval_named(arg),
            "rank" if !arg.is_empty() => self.rank(arg),
            "type" if !arg.is_empty() => self.expression(arg, false),
            "engine" => match arg {
                "interp" | "jit" => {
                    self.jit = arg == "jit";
                    format!("engine: {arg}\n")
                }
                "" => format!("engine: {}\n", if self.jit { "jit" } else { "interp" }),
                _ => self.fail(format!("unknown engine `{arg}`: engines are interp and jit\n")),
            },
            "quit" | "q" | "exit" => String::new(),
            _ => {
                let names: Vec<&str> = HELP.iter().map(|(c, _, _)| &c[1..]).collect();
                let hint = did_you_mean(name, names).map_or_else(String::new, |s| format!(" (did you mean :{s}?)"));
                let usage = HELP
                    .iter()
                    .find(|(c, _, _)| &c[1..] == name)
                    .map_or(String::new(), |(_, ex, _)| format!("; e.g. {ex}"));
                if usage.is_empty() {
                    self.fail(format!("unknown command `:{name}`{hint}; :help lists the commands\n"))
                } else {
                    self.fail(format!("`:{name}` needs an argument{usage}\n"))
                }
            }
        }
    }

    fn set_game(&mut self, name: &str) -> String {
        if name.is_empty() {
            return list_games();
        }
        let entry = match registry::lookup(name) {
            Ok(entry) => entry,
            Err(e) => return self.fail(format!("{}\n", e)),
        };
        let mut out = match entry.warnings() {
            Some((sources, warnings)) if !warnings.is_empty() => sources.render_plain(warnings),
            _ => String::new(),
        };
        let game = entry.run(NewSession);
        // Expressions use the game's primset: one loaded for its domain, else
        // the shipped one; a game without one (a GDL game) reads no terminals,
        // and expressions are evaluated over `arith`, without the position.
        let domain = game.domain();
        self.primset = self.primset_for(&domain, entry.primsets().first().copied());
        let board = game.board();
        let error = game.take_error();
        self.game = Some(game);
        match self.primset {
            Some(id) => out.push_str(&format!("{name}, primset {}\n{board}", self.loader.module.primset(id).name)),
            None => out.push_str(&format!(
                "{name}, {} roles: {}; no primset for domain `{domain}`\n{board}",
                entry.roles.len(),
                entry.roles.join(" ")
            )),
        }
        match error {
            Some(e) => self.fail(format!("{out}error: {e}\n")),
            None => out,
        }
    }

    /// The primset expressions use for `domain`: the last one loaded for it,
    /// else the shipped primset `shipped`, imported now.
    fn primset_for(&mut self, domain: &str, shipped: Option<&str>) -> Option<PrimSetId> {
        let loaded = self.loader.module.primsets.iter().rposition(|p| p.domain.as_deref() == Some(domain));
        if let Some(i) = loaded {
            return Some(PrimSetId(i));
        }
        let shipped = shipped?;
        self.loader.load_text("(repl)", &format!("(import {shipped})"));
        self.shown = self.loader.diags.len();
        self.loader.module.find_primset(shipped)
    }

    /// Runs `f` on the game; an error of the game's engine meanwhile is
    /// reported after what `f` printed.
    fn with_game(&mut self, f: impl FnOnce(&mut dyn ReplGame) -> Result<String, String>) -> String {
        match self.game.as_deref_mut() {
            None => self.fail("no game yet: start one with `:game NAME` (`:game` alone lists the games)\n".into()),
            Some(g) => {
                let result = f(g);
                let error = g.take_error();
                match (result, error) {
                    (Ok(text), None) => text,
                    (Err(text), None) => self.fail(text),
                    (Ok(text) | Err(text), Some(e)) => self.fail(format!("{text}error: {e}\n")),
                }
            }
        }
    }

    fn list(&self) -> String {
        let m = &self.loader.module;
        let mut out = String::new();
        for (_, form) in &m.forms {
            let line = match form {
                FormRef::Experiment(i) => {
                    format!(
                        "experiment {}",
                        m.experiments[*i]
                            .1
                            .as_list()
                            .and_then(|l| l.get(1))
                            .map_or_else(String::new, ToString::to_string)
                    )
                }
                f => m.summarize(*f),
            };
            out.push_str(&line);
            out.push('\n');
        }
        if out.is_empty() { "nothing loaded\n".into() } else { out }
    }

    /// Checks (and, if `evaluate`, evaluates) an expression over the game's
    /// primset, or, before any game, over `arith` (builtins and constants).
    fn expression(&mut self, text: &str, evaluate: bool) -> String {
        let ps_id = match self.primset {
            Some(id) => id,
            None => match self.primset_for("table", Some("arith")) {
                Some(id) => id,
                None => return self.fail("the shipped primset `arith` did not load\n".into()),
            },
        };
        self.inputs += 1;
        let mut sources = Sources::new();
        let file = sources.add(format!("<input {}>", self.inputs), None, text.to_owned());
        let (forms, diags) = read(file, text);
        if !diags.is_empty() {
            return self.fail(sources.render_plain(&diags));
        }
        let [expr] = forms.as_slice() else {
            return self.fail("one expression at a time, please\n".into());
        };
        let ps = self.loader.module.primset(ps_id).clone();
        let Some(ty) = infer(&ps, expr) else {
            let mut diags = Vec::new();
            check_tree(
                &TreeEnv { ps: &ps, file, params: &[], any_literal: true, part: None },
                expr,
                TypeId::F,
                &mut diags,
            );
            return self.fail(sources.render_plain(&diags));
        };
        let mut diags = Vec::new();
        let Some(tree) =
            check_tree(&TreeEnv { ps: &ps, file, params: &[], any_literal: true, part: None }, expr, ty, &mut diags)
        else {
            return self.fail(sources.render_plain(&diags));
        };
        if !evaluate {
            return format!("{}\n", ps.type_name(ty));
        }
        match self.eval_tree(&ps, &tree, None) {
            Ok(v) => format!("{v} : {}\n", ps.type_name(ty)),
            Err(d) => self.fail(self.loader.sources.render_plain(&d)),
        }
    }

    fn eval_tree(&self, ps: &PrimSet, tree: &Tree, child: Option<usize>) -> Result<Value, Vec<Diagnostic>> {
        let used = tree.features_used(ps);
        let compiled = if self.jit { Some(compile(ps, tree)?) } else { None };
        let game = match self.game.as_deref() {
            // Expressions typed over `arith` for a game without a primset
            // read no position.
            Some(game) if self.primset.is_some() || ps.domain.as_deref() == Some(&*game.domain()) => game,
            _ => return evaluate_without_game(ps, tree, &used, compiled.as_ref()),
        };
        let mut value = Value::F(f64::NAN);
        game.with_context(ps, &used, child, &mut |ctx| {
            value = match &compiled {
                Some(f) => {
                    let slots: Vec<u64> = (0..ps.features.len() as u32).map(|i| ctx.feature(i)).collect();
                    f.call(&slots, Some(ctx)).0
                }
                None => Interp::new(ps, ctx).eval_tree(tree),
            }
        })?;
        Ok(value)
    }

    fn eval_named(&mut self, name: &str) -> String {
        if self.game.is_none() {
            return "no game yet: start one with `:game NAME` (`:game` alone lists the games)\n".into();
        }
        let m = &self.loader.module;
        if let Some(ind) = m.individuals.iter().find(|i| i.name == name) {
            let ps = m.primset(ind.primset);
            let mut out = String::new();
            for t in &ind.trees {
                match self.eval_tree(ps, &t.tree, None) {
                    Ok(v) => out.push_str(&format!("{}: {v} : {}\n", t.name, ps.type_name(t.ty))),
                    Err(d) => return self.fail(self.loader.sources.render_plain(&d)),
                }
            }
            return out;
        }
        if let Some(p) = m.policies.iter().find(|p| p.name == name) {
            let ps = m.primset(p.primset);
            for (i, rule) in p.rules.iter().enumerate() {
                match self.eval_tree(ps, &rule.condition, None) {
                    Ok(Value::B(true)) => {
                        return match self.eval_tree(ps, &rule.value, None) {
                            Ok(v) => format!("{v} : F (rule {} fired)\n", i + 1),
                            Err(d) => self.fail(self.loader.sources.render_plain(&d)),
                        };
                    }
                    Ok(_) => {}
                    Err(d) => return self.fail(self.loader.sources.render_plain(&d)),
                }
            }
            return match self.eval_tree(ps, &p.default, None) {
                Ok(v) => format!("{v} : F (no rule fired: the default)\n"),
                Err(d) => self.fail(self.loader.sources.render_plain(&d)),
            };
        }
        if let Some(w) = m.weights.iter().find(|w| w.name == name) {
            let ps = m.primset(w.primset);
            let mut out = String::new();
            let mut sum = 0.0;
            for &(id, weight) in &w.terms {
                let tree = Tree { nodes: vec![Node::Prim(id)], spans: Vec::new() };
                let v = match self.eval_tree(ps, &tree, None) {
                    Ok(v) => v.as_f64(),
                    Err(d) => return self.fail(self.loader.sources.render_plain(&d)),
                };
                sum += weight * v;
                out.push_str(&format!(
                    "  {:<28} {} × {} = {}\n",
                    ps.prim(id).name,
                    Value::F(weight),
                    Value::F(v),
                    Value::F(weight * v)
                ));
            }
            out.push_str(&format!("{} : F\n", Value::F(sum)));
            return out;
        }
        if let Some(net) = m.networks.iter().find(|n| n.name == name) {
            let ps = m.primset(net.primset);
            let (value, nodes) = match (self.eval_network(ps, net, None), self.network_nodes(ps, net)) {
                (Ok(v), Ok(nodes)) => (v, nodes),
                (Err(d), _) | (_, Err(d)) => return self.fail(self.loader.sources.render_plain(&d)),
            };
            let g = net.genes();
            let mut out = String::new();
            for step in &net.plan().steps {
                let node = &g.nodes[step.node - g.inputs.len()];
                let name = format!("{} ({})", node.name, node.activation.name());
                out.push_str(&format!("  {name:<28} {}\n", Value::F(nodes[step.node])));
            }
            out.push_str(&format!("{value} : F\n"));
            return out;
        }
        self.unknown_program(name)
    }

    /// A network's value on the current position (`child = None`) or after
    /// legal move `child`, on the session's engine.
    fn eval_network(&self, ps: &PrimSet, net: &Network, child: Option<usize>) -> Result<Value, Vec<Diagnostic>> {
        let compiled = if self.jit { Some(compile_program(ps, JitProgram::Network(net))?) } else { None };
        let mut value = Value::F(f64::NAN);
        self.network_context(ps, net, child, &mut |ctx| {
            value = match &compiled {
                Some(f) => {
                    let slots: Vec<u64> = (0..ps.features.len() as u32).map(|i| ctx.feature(i)).collect();
                    f.call(&slots, None).0
                }
                None => Interp::new(ps, ctx).eval_network(net),
            }
        })?;
        Ok(value)
    }

    /// The values of a network's nodes on the current position, by the interpreter.
    fn network_nodes(&self, ps: &PrimSet, net: &Network) -> Result<Vec<f64>, Vec<Diagnostic>> {
        let mut nodes = Vec::new();
        self.network_context(ps, net, None, &mut |ctx| nodes = Interp::new(ps, ctx).eval_network_nodes(net))?;
        Ok(nodes)
    }

    /// Runs `f` on the position a network of `ps` reads: the game's, when the
    /// primset is the game's (or none reads the position).
    fn network_context(
        &self,
        ps: &PrimSet,
        net: &Network,
        child: Option<usize>,
        f: &mut dyn FnMut(&mut dyn crate::eval::interp::Context),
    ) -> Result<(), Vec<Diagnostic>> {
        let used = net.features_used();
        match self.game.as_deref() {
            Some(game) if self.primset.is_some() || ps.domain.as_deref() == Some(&*game.domain()) => {
                game.with_context(ps, &used, child, f)
            }
            _ if used.is_empty() => {
                f(&mut crate::eval::interp::Slots(&vec![0; ps.features.len()]));
                Ok(())
            }
            _ => Err(vec![
                Diagnostic::error(
                    "stratagem::repl::no-game",
                    format!("network `{}` reads positions of primset `{}`, not of this game", net.name, ps.name),
                )
                .with_help("start a game of its domain with `:game NAME`"),
            ]),
        }
    }

    fn unknown_program(&self, name: &str) -> String {
        let names = self.loader.module.program_names();
        let hint =
            did_you_mean(name, names.iter().copied()).map_or_else(String::new, |s| format!(" (did you mean {s}?)"));
        self.fail(format!(
            "no individual, policy, weights or network named `{name}`{hint}; :list shows what is loaded\n"
        ))
    }

    /// The value of program `name` (an individual's `eval` tree, a policy or
    /// a weight vector) on the position after legal move `child`; `None`
    /// when no program has that name.
    fn program_value(&self, name: &str, child: usize) -> Option<Result<Value, Vec<Diagnostic>>> {
        let m = &self.loader.module;
        let child = Some(child);
        if let Some(ind) = m.individuals.iter().find(|i| i.name == name) {
            let ps = m.primset(ind.primset);
            let eval = ind.trees.iter().find(|t| t.name == "eval").or(ind.trees.first())?;
            return Some(self.eval_tree(ps, &eval.tree, child));
        }
        if let Some(p) = m.policies.iter().find(|p| p.name == name) {
            let ps = m.primset(p.primset);
            let value = || {
                for rule in &p.rules {
                    if self.eval_tree(ps, &rule.condition, child)?.as_bool() {
                        return self.eval_tree(ps, &rule.value, child);
                    }
                }
                self.eval_tree(ps, &p.default, child)
            };
            return Some(value());
        }
        if let Some(net) = m.networks.iter().find(|n| n.name == name) {
            return Some(self.eval_network(m.primset(net.primset), net, child));
        }
        let w = m.weights.iter().find(|w| w.name == name)?;
        let ps = m.primset(w.primset);
        let value = || {
            let mut sum = 0.0;
            for &(id, weight) in &w.terms {
                let tree = Tree { nodes: vec![Node::Prim(id)], spans: Vec::new() };
                sum += weight * self.eval_tree(ps, &tree, child)?.as_f64();
            }
            Ok(Value::F(sum))
        };
        Some(value())
    }

    fn rank(&mut self, name: &str) -> String {
        let Some(game) = self.game.as_deref() else {
            return "no game yet: start one with `:game NAME` (`:game` alone lists the games)\n".into();
        };
        let moves = game.moves();
        let mut scored = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            match self.program_value(name, i) {
                None => return self.unknown_program(name),
                Some(Ok(v)) => scored.push((v.as_f64(), i, mv.clone())),
                Some(Err(d)) => return self.fail(self.loader.sources.render_plain(&d)),
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut out =
            format!("moves for {} ranked by `{name}` (value of the position after the move):\n", game.to_move());
        for (v, i, mv) in scored {
            out.push_str(&format!("{:>3}. {mv:<12} {}\n", i + 1, Value::F(v)));
        }
        out
    }
}

/// Builds a REPL session for any registered game.
struct NewSession;

impl GameTask for NewSession {
    type Output = Box<dyn ReplGame>;
    fn run<G: GpDomain + Send + 'static>(self, game: G) -> Box<dyn ReplGame>
    where
        G::State: Send + Sync + 'static,
        G::Move: Send + Sync + 'static,
    {
        Box::new(Session::new(game))
    }
}

/// What `:moves` prints: the numbered moves of the role to move (with, in
/// a GDL game, the other roles' forced moves), every role's moves in a
/// simultaneous turn, or the result.
fn moves_listing(g: &dyn ReplGame) -> String {
    let moves = g.moves();
    let others = g.other_moves();
    let numbered = |moves: &[String]| -> String {
        moves.iter().enumerate().map(|(i, m)| format!("{:>3}. {m}\n", i + 1)).collect()
    };
    if moves.is_empty() && others.is_empty() {
        return format!("no legal moves: {}\n", g.result().unwrap_or_else(|| "the game is over".into()));
    }
    if moves.is_empty() {
        let mut out = "every role moves at once: `:play` takes one move per role, in role order\n".to_owned();
        for (role, moves) in &others {
            out.push_str(&format!("{role}:\n{}", numbered(moves)));
        }
        return out;
    }
    if others.is_empty() {
        return numbered(&moves);
    }
    let mut out = format!("{} to move:\n{}", g.to_move(), numbered(&moves));
    for (role, moves) in &others {
        out.push_str(&format!("{role}: {} (no choice)\n", moves.join(" ")));
    }
    out
}

/// `:game` alone: every registered game.
fn list_games() -> String {
    let mut out = String::new();
    for e in &GAMES {
        out.push_str(&format!(
            "{:<18} {}, roles {}\n{:<18} {}\n",
            e.name,
            e.kind.name(),
            e.roles.join(" "),
            "",
            e.summary
        ));
    }
    out.push_str("start one with `:game NAME`, or a GDL game with `:game path/to/GAME.kif`\n");
    out
}

/// Evaluates a tree that reads no position: builtins, constants and
/// definitions. A terminal or native needs a game to read.
fn evaluate_without_game(
    ps: &PrimSet,
    tree: &Tree,
    used: &[u32],
    compiled: Option<&crate::eval::jit::PositionFn>,
) -> Result<Value, Vec<Diagnostic>> {
    /// Feature slots of zeros; notes any native call.
    struct NoPosition {
        slots: Vec<u64>,
        native_called: bool,
    }
    impl crate::eval::interp::Context for NoPosition {
        fn feature(&self, slot: u32) -> u64 {
            self.slots.get(slot as usize).copied().unwrap_or(0)
        }
        fn native(&mut self, _: u32, _: &[Value]) -> Value {
            self.native_called = true;
            Value::F(0.0)
        }
    }
    let no_game = || {
        vec![
            Diagnostic::error("stratagem::repl::no-game", "this expression reads a position, and there is no game yet")
                .with_help("start one with `:game NAME` (`:game` alone lists the games)"),
        ]
    };
    if !used.is_empty() {
        return Err(no_game());
    }
    let mut ctx = NoPosition { slots: vec![0; ps.features.len()], native_called: false };
    let value = match compiled {
        Some(f) => {
            let slots = ctx.slots.clone();
            f.call(&slots, Some(&mut ctx)).0
        }
        None => Interp::new(ps, &mut ctx).eval_tree(tree),
    };
    if ctx.native_called { Err(no_game()) } else { Ok(value) }
}

/// Compiles one tree for per-position calls; a JIT error is a diagnostic.
fn compile(ps: &PrimSet, tree: &Tree) -> Result<crate::eval::jit::PositionFn, Vec<Diagnostic>> {
    compile_program(ps, JitProgram::Tree(tree))
}

/// Compiles one program for per-position calls; a JIT error is a diagnostic.
fn compile_program(ps: &PrimSet, program: JitProgram) -> Result<crate::eval::jit::PositionFn, Vec<Diagnostic>> {
    use crate::eval::jit::{JitCompiler, JitConfig, Mode};
    let fail = |e: crate::eval::jit::JitError| {
        vec![
            Diagnostic::error("stratagem::jit", format!("the JIT cannot compile this: {e}"))
                .with_help("`:engine interp` evaluates it"),
        ]
    };
    let mut compiler = JitCompiler::new(ps, JitConfig::default()).map_err(fail)?;
    let handle = compiler.add(program, Mode::Position).map_err(fail)?;
    let compiled = compiler.finish().map_err(fail)?;
    compiled
        .position(handle)
        .cloned()
        .ok_or_else(|| vec![Diagnostic::error("stratagem::jit", "the JIT produced no function")])
}

/// The type of an expression, from its head: a primitive's result type, or a
/// literal's base type. `None` when the head is unknown (checking reports it).
fn infer(ps: &PrimSet, expr: &Sexp) -> Option<TypeId> {
    match &expr.kind {
        SexpKind::Atom(Atom::Float(_)) => Some(TypeId::F),
        SexpKind::Atom(Atom::Int(_)) => Some(TypeId::I),
        SexpKind::Atom(Atom::Symbol(s)) if s == "true" || s == "false" => Some(TypeId::B),
        SexpKind::Atom(Atom::Symbol(s)) => ps.lookup(s).map(|id| ps.prim(id).ret),
        SexpKind::List(items) => items.first()?.as_symbol().and_then(|s| ps.lookup(s)).map(|id| ps.prim(id).ret),
        SexpKind::Atom(Atom::Str(_)) => None,
    }
}

/// A diagnostic about text typed after a command, rendered.
fn text_error(code: &'static str, what: &str, text: &str, e: crate::games::ParseError) -> String {
    let (sources, d) = e.diagnose(code, what, text);
    sources.render_plain(&[d])
}

/// Whether the parentheses of `text` balance (ignoring strings and comments).
fn balanced(text: &str) -> bool {
    let mut depth: i64 = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    depth <= 0
}

/// Runs a session: loads `files`, then reads inputs until `:quit` or end of input.
pub fn run(files: &[PathBuf]) -> std::process::ExitCode {
    let mut repl = Repl::new();
    let mut stdout = std::io::stdout();
    for f in files {
        let _ = stdout.write_all(repl.load(f).as_bytes());
    }
    let interactive = std::io::stdin().is_terminal();
    let mut editor = if interactive { rustyline::DefaultEditor::new().ok() } else { None };
    let history = std::env::var_os("STRATAGEM_HISTORY")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".stratagem_history")));
    if let (Some(ed), Some(h)) = (editor.as_mut(), history.as_ref()) {
        let _ = ed.load_history(h);
    }
    if interactive {
        let _ = stdout.write_all(b"Stratagem REPL: :help lists the commands, Ctrl-D leaves.\n");
    }
    let mut stdin = std::io::stdin().lock();
    let mut pending = String::new();
    loop {
        let prompt = if pending.is_empty() { "stratagem> " } else { "       ... " };
        let line = match editor.as_mut() {
            Some(ed) => match ed.readline(prompt) {
                Ok(line) => line,
                // Ctrl-C cancels the input being typed.
                Err(rustyline::error::ReadlineError::Interrupted) => {
                    pending.clear();
                    continue;
                }
                Err(rustyline::error::ReadlineError::Eof) => break,
                Err(e) => {
                    let _ = stdout.write_all(repl.fail(format!("cannot read the input: {e}\n")).as_bytes());
                    break;
                }
            },
            None => {
                let mut bytes = Vec::new();
                match stdin.read_until(b'\n', &mut bytes) {
                    Ok(0) => {
                        // An unfinished expression at the end of input is
                        // still reported (as an unclosed list).
                        if !pending.trim().is_empty() {
                            let _ = stdout.write_all(repl.handle(pending.trim()).as_bytes());
                        }
                        break;
                    }
                    Ok(_) => match String::from_utf8(bytes) {
                        Ok(line) => line,
                        Err(e) => {
                            let at = e.utf8_error().valid_up_to();
                            let message = format!(
                                "a line of input is not UTF-8 text (byte {:#04x} at column {}); it was skipped\n",
                                e.as_bytes()[at],
                                at + 1
                            );
                            let _ = stdout.write_all(repl.fail(message).as_bytes());
                            continue;
                        }
                    },
                    Err(e) => {
                        let _ = stdout.write_all(repl.fail(format!("cannot read the input: {e}\n")).as_bytes());
                        break;
                    }
                }
            }
        };
        pending.push_str(&line);
        pending.push('\n');
        if !pending.trim_start().starts_with(':') && !balanced(&pending) {
            continue;
        }
        let input = std::mem::take(&mut pending);
        if let Some(ed) = editor.as_mut() {
            let _ = ed.add_history_entry(input.trim());
        }
        let trimmed = input.trim();
        if matches!(trimmed, ":quit" | ":q" | ":exit") {
            break;
        }
        let out = repl.handle(trimmed);
        let _ = stdout.write_all(out.as_bytes());
        let _ = stdout.flush();
    }
    if let (Some(ed), Some(h)) = (editor.as_mut(), history.as_ref()) {
        let _ = ed.save_history(h);
    }
    // A script (input that is not a terminal) fails if any of its inputs did.
    if !interactive && repl.failures() > 0 { std::process::ExitCode::from(1) } else { std::process::ExitCode::SUCCESS }
}
