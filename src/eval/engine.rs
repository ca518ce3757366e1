//! How programs run, one choice for every command (`--engine`): the
//! reference interpreter, Cranelift-compiled code (the same bits), or
//! `auto`, which compiles when the work repays the compile time.

/// How programs are evaluated.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// The reference tree-walking interpreter.
    Interp,
    /// Cranelift-compiled code (programs it cannot compile fall back to the
    /// interpreter, with a note on stderr).
    Jit,
    /// The JIT when the work repays its compile time: always for programs
    /// that evaluate game positions (players, heuristics, fitness), and over
    /// a table when nodes × rows is above the break-even point.
    #[default]
    Auto,
}

impl Engine {
    /// Whether programs that evaluate many positions of a game (players,
    /// search heuristics, evolution's fitness) are compiled.
    pub fn compiles_for_games(self) -> bool {
        self != Engine::Interp
    }

    /// Whether `n_nodes` nodes evaluated over `n_rows` rows of a table are compiled.
    pub fn compiles(self, n_nodes: usize, n_rows: usize) -> bool {
        match self {
            Engine::Interp => false,
            Engine::Jit => true,
            Engine::Auto => auto_uses_jit(n_nodes, n_rows),
        }
    }
}

/// Measured on gpbench with a release build (docs/PERFORMANCE.md):
/// compiling costs about `JIT_FIXED_NS` per process and population (module
/// set-up, Cranelift's first-use initialisation, one finalisation) plus
/// `JIT_COMPILE_NS_PER_NODE` per node, and each node evaluation the JIT does
/// instead of the interpreter saves about `SAVED_NS_PER_NODE_EVAL` (the
/// interpreter runs ~1e8 node-evals/s, the JIT 4e9-2e10). The break-even
/// point is where both engines take the same time:
/// nodes × rows × saved = fixed + nodes × per-node; for the 120 gpbench
/// trees together (26,760 nodes) it is about 320 rows, which matches the
/// measured crossover of `stratagem batch` between 100 and 1,000 rows.
pub const JIT_FIXED_NS: f64 = 800_000.0;
pub const JIT_COMPILE_NS_PER_NODE: f64 = 3_000.0;
pub const SAVED_NS_PER_NODE_EVAL: f64 = 9.5;

/// Whether `Engine::Auto` picks the JIT for `n_nodes` nodes over `n_rows` rows:
/// when `n_nodes × n_rows` is at least the break-even point for that size.
pub fn auto_uses_jit(n_nodes: usize, n_rows: usize) -> bool {
    let work = n_nodes as f64 * n_rows as f64;
    work >= break_even_node_evals(n_nodes)
}

/// The number of node evaluations (nodes × rows) above which compiling a
/// program of `n_nodes` nodes pays off.
pub fn break_even_node_evals(n_nodes: usize) -> f64 {
    (JIT_FIXED_NS + n_nodes as f64 * JIT_COMPILE_NS_PER_NODE) / SAVED_NS_PER_NODE_EVAL
}
