//! The terminals and natives of the `gdl` primset (programs/primsets/gdl.sg):
//! features any GDL game has, computed from its rules when a primset binds,
//! so one primset evaluates states of every game (seeds/004: evaluators
//! coevolved for games known only by their rules).
//!
//! - goal values: the evaluated role's (`Goal`), the best other role's
//!   (`OpponentGoal`), role `i`'s (`GoalOf i`); 0 where the rules give none;
//! - mobility: legal moves of the evaluated role, the most of any other role,
//!   of role `i` (0 in a terminal state);
//! - `Terminal`, and `Fluents`, the number of true fluents;
//! - counts of true fluents per relation (`FluentCount r`: the fluents whose
//!   name is the `r`-th of the game's fluent names, in name order) and per
//!   argument value (`ArgCount r a v`: those whose argument `a` is the
//!   constant named by the game's `v`-th symbol, in name order); indexes are
//!   taken modulo the number of names, places, symbols, so every program
//!   means something in every game;
//! - `P0` … `P39`, the random projection of nnrg.hazel: each fluent the game
//!   can have is assigned to one of 40 inputs by a hash of its name and
//!   arguments' names ([`projection_input`], seed [`PROJECTION_SEED`]), and
//!   an input counts the true fluents assigned to it. The hash depends on
//!   names only, so a fluent has the same input in every run, on every
//!   machine and with either engine.
//!
//! Values the rules cannot give (the game failed) are 0.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use super::GdlGame;
use crate::diagnostic::FileId;
use crate::games::domain::{Compute, FeatureDef, FeatureGroup, NativeCall, NativeDef};
use crate::games::{Game, Player, Turn};
use crate::gdl::State;
use crate::gdl::description::{self as d, Description, Literal, Pattern};
use crate::gdl::term::{Sym, Symbols, Term, mix};
use crate::lang::{Base, Value};

/// The inputs of the random projection.
pub const PROJECTION_INPUTS: usize = 40;

/// The seed of the projection's hash.
pub const PROJECTION_SEED: u64 = 2006;

/// What the features of one game need: the game (reasoning with a pool of
/// its own), its fluent names and its symbols in name order, each symbol's
/// name hash.
struct Features {
    /// A number no other `Features` of the process has: the key of this
    /// thread's caches (an address could be reused by the next game's).
    id: usize,
    game: GdlGame,
    fluent_names: Vec<Sym>,
    symbols_by_name: Vec<Sym>,
    name_hash: Vec<u64>,
    /// See [`Features::input_of_bit`].
    input_of_bit: OnceLock<Option<(usize, Vec<u8>)>>,
}

/// 64-bit FNV-1a of a name.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// A term's hash from its names (not its symbol numbers).
fn name_hash_of(term: &Term, name_hash: &[u64]) -> u64 {
    match term {
        Term::Const(s) => mix(name_hash[*s as usize], 0),
        Term::Fn(c) => {
            let mut h = mix(name_hash[c.functor as usize], c.args.len() as u64 + 1);
            for a in c.args.iter() {
                h = mix(h, name_hash_of(a, name_hash));
            }
            h
        }
    }
}

/// Each symbol's name hash.
fn name_hashes(symbols: &Symbols) -> Vec<u64> {
    (0..symbols.len() as Sym).map(|s| fnv1a(symbols.name(s))).collect()
}

/// The projection input of a fluent (0–39), given its symbols' name hashes.
fn input_of(fluent: &Term, name_hash: &[u64]) -> usize {
    (mix(name_hash_of(fluent, name_hash), PROJECTION_SEED) % PROJECTION_INPUTS as u64) as usize
}

/// The projection input of a fluent (0–39), given its symbols' names.
pub fn projection_input(fluent: &Term, symbols: &Symbols) -> usize {
    input_of(fluent, &name_hashes(symbols))
}

fn functor(term: &Term) -> Sym {
    match term {
        Term::Const(s) => *s,
        Term::Fn(c) => c.functor,
    }
}

/// The names of the fluents the rules can make or read: what `init` and
/// `next` produce and `true` reads, by the name of the term.
fn fluent_names(text: &str, case: crate::gdl::Case) -> Vec<Sym> {
    let (forms, _) = crate::syntax::read(FileId(0), text);
    let (desc, _) = Description::read_as(FileId(0), &forms, case);
    let mut names = Vec::new();
    let mut add = |p: &Pattern| match p {
        Pattern::Const(s) | Pattern::Fn(s, _) => names.push(*s),
        Pattern::Var(_) => {}
    };
    fn reads(lit: &Literal, add: &mut dyn FnMut(&Pattern)) {
        match lit {
            Literal::Pos(s) if s.relation == d::TRUE => s.args.iter().take(1).for_each(add),
            Literal::Not(inner, _) => reads(inner, add),
            Literal::Or(ls, _) => ls.iter().for_each(|l| reads(l, add)),
            _ => {}
        }
    }
    for rule in &desc.rules {
        if rule.head.relation == d::INIT || rule.head.relation == d::NEXT {
            rule.head.args.iter().take(1).for_each(&mut add);
        }
        rule.body.iter().for_each(|l| reads(l, &mut add));
    }
    // Symbols are numbered when the text is read, the same way each time.
    let symbols = &desc.symbols;
    names.sort_by(|a, b| symbols.name(*a).cmp(symbols.name(*b)));
    names.dedup();
    names
}

thread_local! {
    /// Each fluent's projection input, for one game: hashing a fluent's
    /// names is most of a projection's cost, and a game's states keep
    /// meeting the same fluents (shared terms: the lookup compares
    /// pointers). Forgotten past [`MEMO_FLUENTS`] fluents.
    static INPUT_MEMO: RefCell<(usize, FxHashMap<Term, u8>)> = RefCell::new((0, FxHashMap::default()));
}

/// The most fluents [`INPUT_MEMO`] keeps.
const MEMO_FLUENTS: usize = 1 << 16;

impl Features {
    fn new(game: &GdlGame) -> Features {
        let rules = game.rules();
        let symbols = &rules.machine.symbols;
        let mut symbols_by_name: Vec<Sym> = (0..symbols.len() as Sym).collect();
        symbols_by_name.sort_by(|a, b| symbols.name(*a).cmp(symbols.name(*b)));
        static NEXT_ID: AtomicUsize = AtomicUsize::new(1);
        Features {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            game: game.sharing_pool(),
            fluent_names: fluent_names(&rules.text, symbols.case()),
            symbols_by_name,
            name_hash: name_hashes(symbols),
            input_of_bit: OnceLock::new(),
        }
    }

    fn goal(&self, state: &State, role: usize) -> f64 {
        let goals = self.game.goals(state).unwrap_or_default();
        f64::from(goals.get(role).copied().flatten().unwrap_or(0).min(100))
    }

    fn best_other_goal(&self, state: &State, me: usize) -> f64 {
        (0..self.game.n_roles()).filter(|&r| r != me).map(|r| self.goal(state, r)).fold(0.0, f64::max)
    }

    fn mobility(&self, state: &State, role: usize) -> f64 {
        self.game.with_facts(state, |f| Ok(f.counts.get(role).copied().unwrap_or(0))).unwrap_or(0) as f64
    }

    fn best_other_mobility(&self, state: &State, me: usize) -> f64 {
        (0..self.game.n_roles()).filter(|&r| r != me).map(|r| self.mobility(state, r)).fold(0.0, f64::max)
    }

    fn fluent_name(&self, index: i64) -> Option<Sym> {
        let n = self.fluent_names.len() as i64;
        (n > 0).then(|| self.fluent_names[index.rem_euclid(n) as usize])
    }

    /// Calls `f` on each of the state's fluents, in order. A state of the
    /// compiled engine lends the engine's terms for its bits: building
    /// the state's own list of terms (which it keeps) cost an evolution
    /// run a twentieth of its time.
    fn each_fluent(&self, state: &State, f: impl FnMut(&Term)) {
        let compiled = self.game.rules().machine.compiled();
        match compiled.and_then(|game| Some((state.bits_in(game.id())?, game.fluents()))) {
            Some((words, names)) => crate::gdl::ones(words).filter_map(|b| names.get(b)).for_each(f),
            None => state.fluents().iter().for_each(f),
        }
    }

    /// How many of the state's fluents pass `keep`.
    fn count_fluents(&self, state: &State, mut keep: impl FnMut(&Term) -> bool) -> f64 {
        let mut n = 0usize;
        self.each_fluent(state, |f| n += usize::from(keep(f)));
        n as f64
    }

    fn fluent_count(&self, state: &State, name: i64) -> f64 {
        let Some(name) = self.fluent_name(name) else { return 0.0 };
        self.count_fluents(state, |f| functor(f) == name)
    }

    fn arg_count(&self, state: &State, name: i64, place: i64, value: i64) -> f64 {
        let Some(name) = self.fluent_name(name) else { return 0.0 };
        let n = self.symbols_by_name.len() as i64;
        if n == 0 {
            return 0.0;
        }
        let value = self.symbols_by_name[value.rem_euclid(n) as usize];
        let matches = |f: &Term| match f {
            Term::Fn(c) if c.functor == name && !c.args.is_empty() => {
                c.args[place.rem_euclid(c.args.len() as i64) as usize] == Term::Const(value)
            }
            _ => false,
        };
        self.count_fluents(state, matches)
    }

    /// The compiled engine's number and each of its fluent bits' projection
    /// input, worked out the first time a projection asks.
    fn input_of_bit(&self) -> Option<&(usize, Vec<u8>)> {
        self.input_of_bit
            .get_or_init(|| {
                let game = self.game.rules().machine.compiled()?;
                Some((game.id(), game.fluents().iter().map(|f| input_of(f, &self.name_hash) as u8).collect()))
            })
            .as_ref()
    }

    /// The random projection's inputs: how many of the state's fluents fall
    /// on each.
    fn projection(&self, state: &State) -> [u32; PROJECTION_INPUTS] {
        let mut inputs = [0u32; PROJECTION_INPUTS];
        let on_bits = self.input_of_bit().and_then(|(game, by_bit)| Some((state.bits_in(*game)?, by_bit)));
        if let Some((words, input_of_bit)) = on_bits {
            // A state of the compiled engine: its bits, no terms.
            for input in crate::gdl::ones(words).filter_map(|bit| input_of_bit.get(bit)) {
                inputs[usize::from(*input)] += 1;
            }
            return inputs;
        }
        let id = self.id;
        INPUT_MEMO.with(|memo| {
            let (game, memo) = &mut *memo.borrow_mut();
            if *game != id || memo.len() > MEMO_FLUENTS {
                *game = id;
                memo.clear();
            }
            for f in state.fluents() {
                let input = *memo.entry(f.clone()).or_insert_with(|| input_of(f, &self.name_hash) as u8);
                inputs[usize::from(input)] += 1;
            }
        });
        inputs
    }
}

/// A terminal of [`Features`]: the state and the evaluated role.
type Terminal = Box<dyn Fn(&Features, &State, usize) -> f64 + Send + Sync>;

/// A native of [`Features`]: the state and the arguments.
type Native = Box<dyn Fn(&Features, &State, &[Value]) -> f64 + Send + Sync>;

fn int(args: &[Value], k: usize) -> i64 {
    args.get(k).map_or(0, |v| v.as_i64())
}

/// The `gdl` primset's terminals and natives for `game`'s rules, over a
/// state reached by `state_of` (a GDL state, or a position holding one),
/// reasoning with `game`'s pool.
pub(super) fn definitions<S: 'static>(
    game: &GdlGame,
    state_of: fn(&S) -> &State,
) -> (Vec<FeatureDef<S>>, Vec<NativeDef<S>>) {
    let rules = game.rules();
    let features = Arc::new(Features::new(game));
    let mut terminals: Vec<FeatureDef<S>> = Vec::new();
    let mut real = |name: &str, f: Terminal| {
        let features = Arc::clone(&features);
        let compute = move |s: &S, me: Player| f(&features, state_of(s), usize::from(me)).to_bits();
        terminals.push(FeatureDef { name: name.to_owned(), compute: Compute::Shared(Base::F, Arc::new(compute)) });
    };
    real("Goal", Box::new(|f, s, me| f.goal(s, me)));
    real("OpponentGoal", Box::new(|f, s, me| f.best_other_goal(s, me)));
    real("Mobility", Box::new(|f, s, me| f.mobility(s, me)));
    real("OpponentMobility", Box::new(|f, s, me| f.best_other_mobility(s, me)));
    real("Fluents", Box::new(|f, s, _| f.count_fluents(s, |_| true)));
    {
        // The 40 inputs come from one pass over the state's fluents.
        let features = Arc::clone(&features);
        let projection = FeatureGroup::new(PROJECTION_INPUTS, move |s: &S, _: Player, out: &mut [u64]| {
            for (slot, n) in out.iter_mut().zip(features.projection(state_of(s))) {
                *slot = f64::from(n).to_bits();
            }
        });
        for k in 0..PROJECTION_INPUTS {
            let compute = Compute::Part(Base::F, Arc::clone(&projection), k);
            terminals.push(FeatureDef { name: format!("P{k}"), compute });
        }
    }
    {
        let features = Arc::clone(&features);
        let terminal = move |s: &S, _: Player| u64::from(features.game.turn(state_of(s)) == Turn::Over);
        terminals
            .push(FeatureDef { name: "Terminal".to_owned(), compute: Compute::Shared(Base::B, Arc::new(terminal)) });
    }
    let mut natives: Vec<NativeDef<S>> = Vec::new();
    let mut native = |name: &str, args: usize, f: Native| {
        let features = Arc::clone(&features);
        let call = move |s: &S, _: Player, a: &[Value]| Value::F(f(&features, state_of(s), a));
        natives.push(NativeDef {
            name: name.to_owned(),
            args: vec![Base::I; args],
            ret: Base::F,
            call: NativeCall::Shared(Arc::new(call)),
        });
    };
    let roles = rules.roles.len().max(1) as i64;
    native("GoalOf", 1, Box::new(move |f, s, a| f.goal(s, int(a, 0).rem_euclid(roles) as usize)));
    native("MobilityOf", 1, Box::new(move |f, s, a| f.mobility(s, int(a, 0).rem_euclid(roles) as usize)));
    native("FluentCount", 1, Box::new(|f, s, a| f.fluent_count(s, int(a, 0))));
    native("ArgCount", 3, Box::new(|f, s, a| f.arg_count(s, int(a, 0), int(a, 1), int(a, 2))));
    (terminals, natives)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Sources;
    use crate::games::domain::Binding;
    use crate::games::gdl::{GdlGame, GdlRules};

    fn rules(path: &str) -> &'static GdlRules {
        let mut sources = Sources::new();
        let text = std::fs::read_to_string(path).expect("the corpus game");
        let file = sources.add(path, None, text);
        match GdlRules::compile(path, sources, file) {
            Ok(rules) => Box::leak(Box::new(rules)),
            Err((sources, diags)) => panic!("{}", sources.render_plain(&diags)),
        }
    }

    fn value(defs: &[FeatureDef<State>], name: &str, state: &State, me: Player) -> f64 {
        let def = defs.iter().find(|d| d.name == name).expect("a terminal of the primset");
        f64::from_bits(def.compute.slot(state, me))
    }

    fn call(defs: &[NativeDef<State>], name: &str, state: &State, args: &[i64]) -> f64 {
        let def = defs.iter().find(|d| d.name == name).expect("a native of the primset");
        let args: Vec<Value> = args.iter().map(|&a| Value::I(a)).collect();
        match def.call.call(state, 0, &args) {
            Value::F(v) => v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn tic_tac_toe_features_of_the_initial_state() {
        let rules = rules("../shared/gdl/games/ticTacToe.kif");
        let (terminals, natives) = definitions(&GdlGame::new(rules), |s: &State| s);
        let state = rules.machine.initial_state().clone();
        // Nine blank cells and (control xplayer).
        assert_eq!(value(&terminals, "Fluents", &state, 0), 10.0);
        assert_eq!(value(&terminals, "Mobility", &state, 0), 9.0);
        assert_eq!(value(&terminals, "OpponentMobility", &state, 0), 1.0, "oplayer's noop");
        assert_eq!(value(&terminals, "Mobility", &state, 1), 1.0);
        assert_eq!(call(&natives, "MobilityOf", &state, &[0]), 9.0);
        assert_eq!(call(&natives, "MobilityOf", &state, &[3]), 1.0, "roles modulo their number");
        let terminal = terminals.iter().find(|d| d.name == "Terminal").expect("Terminal");
        assert_eq!(terminal.compute.slot(&state, 0), 0);
        let projected: f64 = (0..PROJECTION_INPUTS).map(|k| value(&terminals, &format!("P{k}"), &state, 0)).sum();
        assert_eq!(projected, 10.0, "every fluent counts on one input");
        // Fluent names in name order: cell, control.
        assert_eq!(call(&natives, "FluentCount", &state, &[0]), 9.0);
        assert_eq!(call(&natives, "FluentCount", &state, &[1]), 1.0);
        assert_eq!(call(&natives, "FluentCount", &state, &[2]), 9.0, "names modulo their number");
        // Cells whose third argument is `b`: all nine.
        let symbols = &rules.machine.symbols;
        let mut by_name: Vec<Sym> = (0..symbols.len() as Sym).collect();
        by_name.sort_by(|a, b| symbols.name(*a).cmp(symbols.name(*b)));
        let b = by_name.iter().position(|&s| symbols.name(s) == "b").expect("symbol b") as i64;
        assert_eq!(call(&natives, "ArgCount", &state, &[0, 2, b]), 9.0);
        assert_eq!(call(&natives, "ArgCount", &state, &[0, 0, b]), 0.0);
    }

    #[test]
    fn goals_are_read_for_the_evaluated_role() {
        let rules = rules("../shared/gdl/games/ticTacToe.kif");
        let game = GdlGame::new(rules);
        let (terminals, _) = definitions(&game, |s: &State| s);
        // xplayer fills the top row while oplayer plays the middle row.
        let mut state = game.initial_state();
        for mv in ["(mark 1 1)", "(mark 2 1)", "(mark 1 2)", "(mark 2 2)", "(mark 1 3)"] {
            let mv = game.parse_move(&state, mv).expect("a legal move");
            state = game.apply(&state, &mv);
        }
        assert_eq!(game.turn(&state), Turn::Over);
        assert_eq!(value(&terminals, "Goal", &state, 0), 100.0);
        assert_eq!(value(&terminals, "OpponentGoal", &state, 0), 0.0);
        assert_eq!(value(&terminals, "Goal", &state, 1), 0.0);
        assert_eq!(value(&terminals, "OpponentGoal", &state, 1), 100.0);
        assert_eq!(value(&terminals, "Mobility", &state, 0), 0.0);
    }

    #[test]
    fn a_fluent_has_its_input_whatever_the_symbols_numbers() {
        let a = "(role r) (init (cell 1 b)) (init (step 0)) (<= (legal r go) (true (step 0))) \
                 (<= (next (step 1)) (does r go)) (<= terminal (true (step 1))) (<= (goal r 100) (true (step 1)))";
        // The same game, symbols met in another order.
        let b = "(role r) (<= (goal r 100) (true (step 1))) (<= terminal (true (step 1))) \
                 (<= (next (step 1)) (does r go)) (<= (legal r go) (true (step 0))) (init (step 0)) (init (cell 1 b))";
        let inputs = |text: &str| {
            let (forms, _) = crate::syntax::read(FileId(0), text);
            let (desc, diags) = Description::read(FileId(0), &forms);
            assert!(diags.is_empty(), "{diags:?}");
            let sym = |name: &str| desc.symbols.get(name).expect("a symbol");
            let cell = Term::compound(sym("cell"), vec![Term::Const(sym("1")), Term::Const(sym("b"))].into());
            let step = Term::compound(sym("step"), vec![Term::Const(sym("0"))].into());
            (projection_input(&cell, &desc.symbols), projection_input(&step, &desc.symbols))
        };
        assert_eq!(inputs(a), inputs(b));
    }

    /// Two games whose fluent is one term (the same symbol numbers) under
    /// different names project it apart, however their evaluations follow
    /// each other on a thread.
    #[test]
    fn each_game_projects_its_own_fluents() {
        let game = |name: &str| {
            format!(
                "(role r) (init ({name} 1)) (<= (legal r go) (true ({name} 1))) (<= (next ({name} 2)) (does r go)) \
                 (<= terminal (true ({name} 2))) (<= (goal r 100) (true ({name} 2)))"
            )
        };
        let load = |text: String| {
            let mut sources = Sources::new();
            let file = sources.add("test.kif", None, text);
            let rules = GdlRules::compile("test.kif", sources, file)
                .unwrap_or_else(|(sources, diags)| panic!("{}", sources.render_plain(&diags)));
            let rules: &'static GdlRules = Box::leak(Box::new(rules));
            let state = rules.machine.initial_state().clone();
            let expected = projection_input(&state.fluents()[0], &rules.machine.symbols);
            (definitions(&GdlGame::new(rules), |s: &State| s).0, state, expected)
        };
        let (a, b) = (load(game("cell")), load(game("spot")));
        assert_eq!(a.1.fluents(), b.1.fluents(), "one term, two names");
        assert_ne!(a.2, b.2, "the names project apart");
        let input = |(defs, state, _): &(Vec<FeatureDef<State>>, State, usize)| {
            (0..PROJECTION_INPUTS).find(|k| value(defs, &format!("P{k}"), state, 0) == 1.0)
        };
        for _ in 0..2 {
            assert_eq!(input(&a), Some(a.2));
            assert_eq!(input(&b), Some(b.2));
        }
    }

    #[test]
    fn the_shipped_primset_binds_to_gdl_games() {
        let ps = crate::lang::library::load_primset("gdl").expect("the gdl primset");
        for path in ["../shared/gdl/games/ticTacToe.kif", "../shared/gdl/games/connectFour.kif"] {
            let game = GdlGame::new(rules(path));
            assert!(Binding::new(&game, &ps).is_ok(), "{path}");
        }
    }
}
