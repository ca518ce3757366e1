//! Evolved ants as players (seeds/003, section 3): an individual of the
//! `antwars` primset with two trees, `straight` and `diagonal`, and a memory
//! ([`AntMemory`]) kept across the moves of a game.
//!
//! Each move the ant takes in its view, then scores the eight directions:
//! the straight tree at the four quarter turns gives N, E, S, W, the diagonal
//! tree gives NE, SE, SW, NW ([`AntSight`]). The highest value picks the
//! move; ties go to the earlier direction in the contest's order (N, NE, E,
//! SE, S, SW, W, NW: 0–7), which is the order the paper evaluates them in
//! (rotation by rotation, straight before diagonal). A NaN never wins; if
//! every value is NaN the ant goes north.
//!
//! The trees are JIT-compiled like every tree (a tree the JIT cannot compile
//! is interpreted: the same bits, more slowly).

use std::fmt;
use std::path::Path;

use super::domain::bind;
use super::memory::AntMemory;
use super::sight::{AntSight, AreaFn, AreaTable, FOOD_HOPE, Frame, STATE_FEATURES, food_hopes};
use super::{Dir, View};
use crate::eval::interp::Interp;
use crate::eval::jit::{BatchFn, JitCompiler, JitConfig, JitProgram, Mode, PositionFn};
use crate::eval::table::Columns;
use crate::games::domain::{Binding, Compute, PositionContext};
use crate::games::duel::{PlayerError, read_individual};
use crate::lang::{Node, PrimId, PrimKind, PrimSet, Primitive, Tree, Value};

/// The trees of an ant, in the order their values are compared.
pub const TREES: [&str; 2] = ["straight", "diagonal"];

/// One tree, with what evaluating it needs.
struct AntTree {
    tree: Tree,
    /// The feature slots it reads.
    used: Vec<u32>,
    /// The tree compiled, when the JIT could.
    jit: Option<CompiledTree>,
}

/// A tree as the JIT runs it: its native calls of constant arguments (every
/// area function of an evolved ant: areas are `Rect` constants) are computed
/// before the call into slots of their own, past the primset's features,
/// so the code is arithmetic over slots; natives of computed arguments, if
/// any are left, are called back.
struct CompiledTree {
    code: TreeCode,
    /// The primset's features it reads that depend on the direction
    /// scored, with their slots.
    features: Vec<(usize, Compute<AntSight>)>,
    /// Its native calls of constant arguments other than area functions,
    /// with their slots.
    natives: Vec<(usize, u32, Vec<Value>)>,
}

enum TreeCode {
    /// The four quarter turns in one call, as the rows of a table (the
    /// code runs two of them at once in f64x2 lanes).
    Turns(BatchFn),
    /// One call per turn, for a tree that calls natives back.
    Position(PositionFn),
}

/// The rows of a table of turns: one per quarter turn.
const TURNS: usize = 4;

#[derive(Clone)]
enum Call {
    /// An area function of table 2 on a `Rect` constant.
    Area(AreaFn, i64),
    /// Any other native (the humants' planning functions).
    Native { native: u32, args: Vec<Value> },
}

/// An evolved ant's program, shared by every thread that plays it.
pub struct AntProgram {
    name: String,
    ps: PrimSet,
    binding: Binding<AntSight>,
    trees: [AntTree; 2],
    /// Slots a compiled tree reads: the features, then the constant calls.
    n_slots: usize,
    /// The area functions the compiled trees read, for both trees: an area
    /// turns with the sight, whichever direction of the quarter turn is
    /// scored.
    areas: AreaTable,
    /// The features of the ant's state the compiled trees read
    /// ([`STATE_FEATURES`]), with their slots: computed once a move.
    state_features: Vec<(usize, Compute<AntSight>)>,
    /// FoodHope's slot, when a compiled tree reads it: computed for the
    /// eight directions at once.
    food_hope: Option<u32>,
}

impl fmt::Debug for AntProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AntProgram").field("name", &self.name).finish_non_exhaustive()
    }
}

impl AntProgram {
    /// Reads individual `name` from `file`: it must be of a primset of
    /// domain `antwars` and have the trees `straight` and `diagonal`.
    pub fn load(file: &Path, name: &str) -> Result<AntProgram, PlayerError> {
        let what = format!("ant `{name}` of `{}`", file.display());
        let (loader, ind) = read_individual(file, name, "ant")?;
        let ps = loader.module.primset(ind.primset).clone();
        let binding = bind(&ps).map_err(|d| {
            PlayerError::new(format!("{what} is not an Ant Wars program")).with_help(loader.sources.render_plain(&d))
        })?;
        let tree = |slot: &str| {
            ind.trees.iter().find(|t| t.name == slot).map(|t| t.tree.clone()).ok_or_else(|| {
                PlayerError::new(format!("{what} has no `{slot}` tree"))
                    .with_help("an ant has two trees: `straight` (N, E, S, W) and `diagonal` (NE, SE, SW, NW)")
            })
        };
        let trees = [tree(TREES[0])?, tree(TREES[1])?];
        Ok(AntProgram::from_trees(name, ps, binding, trees))
    }

    /// An ant of the trees `[straight, diagonal]` of primset `ps`, bound to
    /// sights by `binding` (from [`bind`]); what evolution plays.
    pub fn from_trees(name: &str, ps: PrimSet, binding: Binding<AntSight>, trees: [Tree; 2]) -> AntProgram {
        let mut hoisted = Hoisted { ps: ps.clone(), calls: Vec::new(), first_slot: binding.features.len() };
        let rewritten = trees.each_ref().map(|t| hoisted.rewrite(&ps, t));
        let mut jits = compile(&hoisted.ps, &rewritten);
        let n_slots = hoisted.first_slot + hoisted.calls.len();
        let (mut areas, mut state_features, mut hoisted_areas) = (AreaTable::default(), Vec::new(), Vec::new());
        let mut food_hope = None;
        let trees = [0, 1].map(|k| {
            let tree = &trees[k];
            let used = tree.features_used(&ps);
            let jit = jits[k].take().map(|code| {
                let mut tree_features = Vec::new();
                let mut natives = Vec::new();
                for slot in rewritten[k].features_used(&hoisted.ps) {
                    let s = slot as usize;
                    if s < hoisted.first_slot {
                        let Some(compute) = &binding.features[s] else { continue };
                        let name = ps.features[s].as_str();
                        if name == FOOD_HOPE {
                            food_hope = Some(slot);
                        } else if !STATE_FEATURES.contains(&name) {
                            tree_features.push((s, compute.clone()));
                        } else if !state_features.iter().any(|&(at, _)| at == s) {
                            state_features.push((s, compute.clone()));
                        }
                        continue;
                    }
                    match &hoisted.calls[s - hoisted.first_slot].2 {
                        Call::Area(f, index) if !hoisted_areas.contains(&s) => {
                            hoisted_areas.push(s);
                            areas.want(*f, *index, s);
                        }
                        Call::Area(..) => {}
                        Call::Native { native, args } => natives.push((s, *native, args.clone())),
                    }
                }
                CompiledTree { code, features: tree_features, natives }
            });
            AntTree { used, tree: tree.clone(), jit }
        });
        AntProgram { name: name.to_owned(), ps, binding, trees, n_slots, areas, state_features, food_hope }
    }

    /// The individual's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value of tree `k` (0 straight, 1 diagonal) on `sight`, by the
    /// interpreter.
    fn interpreted(&self, k: usize, sight: &AntSight) -> f64 {
        let t = &self.trees[k];
        let mut ctx = PositionContext::new(&self.binding, sight, 0, &t.used);
        Interp::new(&self.ps, &mut ctx).eval_tree(&t.tree).as_f64()
    }

    /// The eight directions' values on `sight` (its view and memory), in the
    /// contest's order; `sight`'s orientation is left turned.
    pub fn values(&self, sight: &mut AntSight) -> [f64; 8] {
        self.values_on(sight, false, &mut Scratch::new(self))
    }

    /// The eight values: a compiled tree reads its slots in the four quarter
    /// turns from `scratch`'s table, a row per turn, filled once a move for
    /// what both trees read (areas, the state) and per tree for the rest.
    fn values_on(&self, sight: &mut AntSight, interpret: bool, scratch: &mut Scratch) -> [f64; 8] {
        let mut values = [0.0; 8];
        let mut hopes = [0.0; 8];
        if !interpret {
            if self.food_hope.is_some() {
                hopes = food_hopes(sight);
            }
            let table = &mut scratch.columns.data;
            self.areas.eval_turns(sight, &Frame::of(sight), table);
            for (slot, compute) in &self.state_features {
                table[TURNS * slot..TURNS * slot + TURNS].fill(compute.slot(sight, 0));
            }
        }
        for (k, t) in self.trees.iter().enumerate() {
            sight.diagonal = k == 1;
            let Some(jit) = t.jit.as_ref().filter(|_| !interpret) else {
                for turns in 0..TURNS {
                    sight.turns = turns as u8;
                    values[2 * turns + k] = self.interpreted(k, sight);
                }
                continue;
            };
            let table = &mut scratch.columns.data;
            if let Some(slot) = self.food_hope {
                for turns in 0..TURNS {
                    table[TURNS * slot as usize + turns] = hopes[2 * turns + k].to_bits();
                }
            }
            for turns in 0..TURNS {
                sight.turns = turns as u8;
                for (slot, compute) in &jit.features {
                    table[TURNS * slot + turns] = compute.slot(sight, 0);
                }
                for (slot, native, args) in &jit.natives {
                    table[TURNS * slot + turns] = self.binding.natives[*native as usize].call(sight, 0, args).to_bits();
                }
            }
            match &jit.code {
                TreeCode::Turns(f) => {
                    f.run(&scratch.columns, &mut scratch.out, &mut scratch.aux);
                    for turns in 0..TURNS {
                        values[2 * turns + k] = f64::from_bits(scratch.out[turns]);
                    }
                }
                TreeCode::Position(f) => {
                    for turns in 0..TURNS {
                        sight.turns = turns as u8;
                        for (slot, bits) in scratch.slots.iter_mut().enumerate() {
                            *bits = scratch.columns.data[TURNS * slot + turns];
                        }
                        let mut ctx = PositionContext::new(&self.binding, sight, 0, &[]);
                        values[2 * turns + k] = f.call(&scratch.slots, Some(&mut ctx)).0.as_f64();
                    }
                }
            }
        }
        values
    }
}

/// What evaluating an ant's trees writes to, kept across moves.
#[derive(Debug)]
struct Scratch {
    /// A compiled tree's slots, for one call per turn.
    slots: Vec<u64>,
    /// The slots of the four turns, a row each, for one call per tree.
    columns: Columns,
    out: Vec<u64>,
    aux: Vec<u64>,
}

impl Scratch {
    fn new(program: &AntProgram) -> Scratch {
        let n = program.n_slots;
        Scratch {
            slots: vec![0; n],
            columns: Columns { n_slots: n, n_rows: TURNS, stride: TURNS, data: vec![0; n * TURNS] },
            out: vec![0; TURNS],
            aux: vec![u64::MAX; TURNS],
        }
    }
}

/// The primset extended by one feature per distinct native call of constant
/// arguments in an ant's trees, and those calls.
struct Hoisted {
    ps: PrimSet,
    /// Per hoisted call: the native's index, its arguments, and what
    /// computes it.
    calls: Vec<(u32, Vec<Value>, Call)>,
    /// The slot of the first call.
    first_slot: usize,
}

impl Hoisted {
    /// `tree` (of `ps`) with each native call of constant arguments replaced
    /// by the feature of its hoisted call.
    fn rewrite(&mut self, ps: &PrimSet, tree: &Tree) -> Tree {
        let mut nodes = Vec::with_capacity(tree.nodes.len());
        let mut i = 0;
        while i < tree.nodes.len() {
            let node = tree.nodes[i];
            if let Node::Prim(id) = node
                && let PrimKind::Native(native) = ps.prim(id).kind
            {
                let arity = ps.prim(id).arity();
                let args = &tree.nodes[i + 1..(i + 1 + arity).min(tree.nodes.len())];
                let consts: Vec<Value> = args
                    .iter()
                    .filter_map(|n| match n {
                        Node::Const(v) => Some(*v),
                        _ => None,
                    })
                    .collect();
                if consts.len() == arity {
                    nodes.push(Node::Prim(self.feature_of(ps, id, native, consts)));
                    i += 1 + arity;
                    continue;
                }
            }
            nodes.push(node);
            i += 1;
        }
        Tree { nodes, spans: Vec::new() }
    }

    /// The feature primitive of the call of primitive `id`, native
    /// `native`, on `args`, added on first use.
    fn feature_of(&mut self, ps: &PrimSet, id: PrimId, native: u32, args: Vec<Value>) -> PrimId {
        let k = match self.calls.iter().position(|(n, a, _)| *n == native && *a == args) {
            Some(k) => k,
            None => {
                let prim = ps.prim(id);
                // The primset's natives are bound by name (`bind`), so a
                // native named as an area function is that function.
                let what = match (AreaFn::named(&prim.name), args.as_slice()) {
                    (Some(f), [Value::I(a)]) => Call::Area(f, *a),
                    _ => Call::Native { native, args: args.clone() },
                };
                self.calls.push((native, args, what));
                self.ps.prims.push(Primitive {
                    name: format!("{}#{}", prim.name, self.calls.len() - 1),
                    args: Vec::new(),
                    ret: prim.ret,
                    kind: PrimKind::Feature((self.first_slot + self.calls.len() - 1) as u32),
                    file: prim.file,
                    span: prim.span,
                });
                self.calls.len() - 1
            }
        };
        PrimId((ps.prims.len() + k) as u32)
    }
}

/// Both trees JIT-compiled, or `None` for a tree the JIT cannot compile: a
/// tree that calls no native back runs the four turns in one call.
fn compile(ps: &PrimSet, trees: &[Tree; 2]) -> [Option<TreeCode>; 2] {
    let Ok(mut compiler) = JitCompiler::new(ps, JitConfig::default()) else { return [None, None] };
    let handles = trees.each_ref().map(|t| {
        let mode = if t.uses_natives(ps) { Mode::Position } else { Mode::Batch };
        compiler.add(JitProgram::Tree(t), mode).ok().map(|h| (h, mode))
    });
    let Ok(compiled) = compiler.finish() else { return [None, None] };
    handles.map(|h| match h? {
        (h, Mode::Batch) => compiled.batch(h).cloned().map(TreeCode::Turns),
        (h, Mode::Position) => compiled.position(h).cloned().map(TreeCode::Position),
    })
}

/// The highest value's direction, ties to the earlier; NaN never wins.
pub fn best_direction(values: &[f64; 8]) -> Dir {
    let mut best: (f64, Dir) = (f64::NEG_INFINITY, 0);
    for (d, &v) in values.iter().enumerate() {
        if v > best.0 {
            best = (v, d as Dir);
        }
    }
    best.1
}

/// An evolved ant on one thread: its program and its memory.
#[derive(Debug)]
pub struct GpAnt {
    program: std::sync::Arc<AntProgram>,
    sight: AntSight,
    scratch: Scratch,
}

impl GpAnt {
    pub fn new(program: std::sync::Arc<AntProgram>) -> GpAnt {
        let view = View { cell: 0, food: 0, enemy: None, score: 0, moves_left: 0 };
        GpAnt { scratch: Scratch::new(&program), program, sight: AntSight::new(AntMemory::new(), view) }
    }

    /// The program it runs.
    pub fn program(&self) -> &std::sync::Arc<AntProgram> {
        &self.program
    }

    /// Forgets the last game.
    pub fn reset(&mut self) {
        self.sight.memory.reset();
    }

    /// Remembers `view` and picks the best-valued direction.
    pub fn choose(&mut self, view: &View) -> Dir {
        self.sight.memory.observe(view);
        self.sight.view = *view;
        best_direction(&self.program.values_on(&mut self.sight, false, &mut self.scratch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::antwars::AntWars;
    use crate::rng::stream;

    fn load(file: &str, name: &str) -> AntProgram {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        AntProgram::load(&file, name).unwrap_or_else(|e| panic!("{e}: {:?}", e.help))
    }

    /// The hand-written example, the evolved champion (areas of every
    /// function, inside and outside the view), a humant (natives of
    /// constant arguments), all through the table of turns; and an ant
    /// whose natives take computed arguments (one call per turn).
    #[test]
    fn compiled_and_interpreted_trees_give_the_same_bits_through_games() {
        // Natives of computed arguments, called back from compiled code.
        let calling_back = std::env::temp_dir().join(format!("stratagem-calls-back-{}.sg", std::process::id()));
        let text = "(import antwars-humant) (individual calls-back (primset antwars-humant)
            (tree straight (Add (UnseenPull (Add TimeLeft 1.0)) (NEmpty 292)))
            (tree diagonal (Sub (PlanHope FoodHope (Mul Points 0.5)) (NFood 3924))))";
        std::fs::write(&calling_back, text).expect("a temporary file");
        let calling_back = calling_back.to_string_lossy().into_owned();
        for (file, name, calls_back) in [
            ("programs/examples/antwars-ant.sg", "forager", false),
            ("programs/champions/brilliant.sg", "brilliant-champion", false),
            ("programs/champions/antwars.sg", "antwars-champion", false),
            ("programs/champions/antwars-humants.sg", "hyper-humant", false),
            (calling_back.as_str(), "calls-back", true),
        ] {
            let program = load(file, name);
            let position = program.trees.iter().map(|t| match t.jit.as_ref().map(|j| &j.code) {
                Some(TreeCode::Position(_)) => Some(true),
                Some(TreeCode::Turns(_)) => Some(false),
                None => None,
            });
            assert!(position.clone().all(|p| p.is_some()), "both trees of {name} compile");
            assert_eq!(position.clone().any(|p| p == Some(true)), calls_back, "{name}'s trees call natives back");
            same_bits_through_games(std::sync::Arc::new(program));
        }
        std::fs::remove_file(&calling_back).ok();
    }

    fn same_bits_through_games(program: std::sync::Arc<AntProgram>) {
        let mut compared = 0;
        for seed in 0..20u64 {
            let mut rng = stream(seed, &[23]);
            let mut board = AntWars::random_board(&mut rng);
            let mut ants = [GpAnt::new(program.clone()), GpAnt::new(program.clone())];
            while !board.is_over() {
                let role = board.to_move();
                let ant = &mut ants[usize::from(role)];
                let view = board.view(role);
                ant.sight.memory.observe(&view);
                ant.sight.view = view;
                let jit = program.values_on(&mut ant.sight, false, &mut ant.scratch);
                let interp = program.values_on(&mut ant.sight, true, &mut ant.scratch);
                let ply = board.ply();
                assert_eq!(jit.map(f64::to_bits), interp.map(f64::to_bits), "{}: seed {seed}, ply {ply}", program.name);
                compared += 1;
                board = board.step(best_direction(&jit));
            }
        }
        // Fewer than 70 plies a game when an ant is killed.
        assert!(compared > 20 * 35, "{compared} positions");
    }

    #[test]
    fn the_highest_value_wins_and_ties_go_to_the_earlier_direction() {
        assert_eq!(best_direction(&[0.0, 1.0, 3.0, 3.0, -1.0, 0.0, 0.0, 0.0]), 2);
        assert_eq!(best_direction(&[f64::NAN, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0]), 1);
        assert_eq!(best_direction(&[f64::NAN; 8]), 0);
        assert_eq!(best_direction(&[-2.0; 8]), 0);
    }
}
