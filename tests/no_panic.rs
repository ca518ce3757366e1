//! Bad input never panics: random bytes, random token soups and mutated valid
//! programs go through the reader, the checker and the formatter; mutated
//! seeds and generated text go through every entry point the fuzz targets
//! drive (fuzz/src/lib.rs, included here): experiment lowering, the position
//! parsers of every game, CSV rows and checkpoints.

use proptest::prelude::*;
use std::path::Path;
use stratagem::diagnostic::FileId;
use stratagem::lang::Loader;
use stratagem::syntax::{lexer::comments, pretty::format_source, read};

#[path = "../fuzz/src/lib.rs"]
mod entry_points;

const VALID: &str = r#"(import arith)
(primset p (type Row I) (terminal a F) (function f (Row F) F) (function + (F F) F (builtin add))
  (erc r Row (int 0 7)) (define twice ((x F)) F (+ x x)) (literals F) (tree eval F))
(individual i (primset p) (tree eval (+ (f 3 a) (twice 1.5))))
(policy q (primset arith) (rule (<= x0 x1) (pdiv x2 x3)) (default 0.5))
(weights w (primset arith) (x0 1) (x1 1) (x2 1) (x3 1) (x4 1) (x5 1) (x6 1) (x7 1) (x8 1) (x9 1))
(network n (primset arith) (inputs x0 x1) (node h sigmoid (bias 0.5)) (node o linear (output))
  (link x0 h 1.5 (innovation 1)) (link x1 o -2 (disabled)) (link h o 0.5))
"#;

const FRAGMENTS: &[&str] = &[
    "(",
    ")",
    "network",
    "inputs",
    "node",
    "link",
    "(output)",
    "(disabled)",
    "innovation",
    "sigmoid",
    "h",
    "o",
    "(",
    ")",
    "primset",
    "individual",
    "policy",
    "weights",
    "import",
    "tree",
    "eval",
    "rule",
    "default",
    "function",
    "terminal",
    "type",
    "erc",
    "define",
    "literals",
    "extends",
    "builtin",
    "add",
    "if",
    "x0",
    "+",
    "-",
    "pdiv",
    "F",
    "I",
    "B",
    "arith",
    "1",
    "-2",
    "1.5",
    "1e400",
    "\"",
    "\"s\"",
    ";",
    "\n",
    "true",
    "?x",
    "<=",
    "uniform",
    "int",
    "choice",
];

fn exercise(text: &str) {
    let (forms, diags) = read(FileId(0), text);
    if diags.is_empty() {
        let _ = format_source(text, &forms, &comments(text));
    }
    let mut loader = Loader::new();
    loader.load_text("fuzz.sg", text);
    let _ = loader.sources.render_plain(&loader.diags);
    for (_, form) in loader.module.forms.clone() {
        let _ = loader.module.summarize(form);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        exercise(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soup(picks in prop::collection::vec(0..FRAGMENTS.len(), 0..60)) {
        let text: Vec<&str> = picks.iter().map(|i| FRAGMENTS[*i]).collect();
        exercise(&text.join(" "));
    }

    #[test]
    fn mutated_programs(edits in prop::collection::vec((0..VALID.len(), 0..FRAGMENTS.len(), any::<bool>()), 1..6)) {
        let mut text = VALID.to_owned();
        for (at, frag, delete) in edits {
            let at = (0..=at.min(text.len())).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
            if delete {
                let end = (at + 3).min(text.len());
                if text.is_char_boundary(end) {
                    text.replace_range(at..end, "");
                }
            } else {
                text.insert_str(at, FRAGMENTS[frag]);
            }
        }
        exercise(&text);
    }
}

#[test]
fn the_valid_program_is_valid() {
    let mut loader = Loader::new();
    loader.load_text("valid.sg", VALID);
    assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
    assert_eq!(loader.module.individuals.len(), 1);
    assert_eq!(loader.module.networks.len(), 1);
}

#[test]
fn deep_nesting_is_a_diagnostic() {
    let mut loader = Loader::new();
    loader.load_text("deep.sg", &"(".repeat(100_000));
    assert!(loader.diags.iter().any(|d| d.code == "stratagem::read::too-deep"));
}

#[test]
fn deep_nesting_rendered() {
    let mut loader = Loader::new();
    loader.load_text("deep.sg", &"(".repeat(100_000));
    let _ = loader.sources.render_plain(&loader.diags);
}

/// Trees nested almost as deep as the reader allows go through every phase
/// on a test thread's small stack.
#[test]
fn deep_trees_check() {
    let text = format!(
        "(import arith) (individual d (primset arith) (tree eval {}x0{}))",
        "(+ x0 ".repeat(MAX),
        ")".repeat(MAX)
    );
    let mut loader = Loader::new();
    loader.load_text("deep.sg", &text);
    assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
    let m = &loader.module;
    let printed = m.individuals[0].trees[0].tree.to_sexp(m.primset(m.individuals[0].primset), &[]);
    let _ = stratagem::syntax::pretty::print_sexp(&printed);
    let slots = [0u64; 10];
    let mut ctx = stratagem::eval::interp::Slots(&slots);
    let ps = m.primset(m.individuals[0].primset);
    let v = stratagem::eval::interp::Interp::new(ps, &mut ctx).eval_tree(&m.individuals[0].trees[0].tree);
    assert_eq!(v, stratagem::lang::Value::F(0.0));
}

const MAX: usize = 250;

/// The seed corpus of a fuzz target (fuzz/seeds/TARGET), sorted by name.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let seeds = inputs("fuzz/seeds", target);
    assert!(!seeds.is_empty(), "fuzz/seeds/{target} holds no seeds");
    seeds
}

/// The files of `dir/target`, sorted by name; none when it does not exist.
fn inputs(dir: &str, target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(target);
    if !dir.exists() {
        return Vec::new();
    }
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a seed").path())
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).expect("a readable seed")).collect()
}

/// One edit of a byte string, as a mutating fuzzer makes them; positions and
/// lengths are taken modulo the current length.
#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    /// Bytes `(from, len)` of another seed (an index modulo their number) inserted at `at`.
    Splice {
        at: usize,
        seed: usize,
        from: usize,
        len: usize,
    },
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0..8u8).prop_map(|(at, bit)| Edit::Flip(at, bit)),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..8)).prop_map(|(at, b)| Edit::Insert(at, b)),
        (any::<usize>(), 1..16usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), any::<usize>(), any::<usize>(), 1..64usize).prop_map(|(at, seed, from, len)| Edit::Splice {
            at,
            seed,
            from,
            len
        }),
    ]
}

fn mutate(seeds: &[Vec<u8>], pick: usize, edits: &[Edit]) -> Vec<u8> {
    let mut bytes = seeds[pick % seeds.len()].clone();
    for e in edits {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
        match e {
            Edit::Flip(i, bit) if !bytes.is_empty() => {
                let i = i % bytes.len();
                bytes[i] ^= 1 << bit;
            }
            Edit::Flip(..) => {}
            Edit::Insert(i, b) => {
                let i = at(*i, bytes.len());
                bytes.splice(i..i, b.iter().copied());
            }
            Edit::Delete(i, n) => {
                let i = at(*i, bytes.len());
                let end = (i + n).min(bytes.len());
                bytes.drain(i..end);
            }
            Edit::Splice { at: i, seed, from, len } => {
                let other = &seeds[seed % seeds.len()];
                let from = at(*from, other.len());
                let piece = other[from..(from + len).min(other.len())].to_vec();
                let i = at(*i, bytes.len());
                bytes.splice(i..i, piece);
            }
        }
    }
    bytes
}

/// Text from an alphabet a target's inputs are written in.
fn text_over(alphabet: &'static [&'static str], max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0..alphabet.len(), 0..max)
        .prop_map(move |picks| picks.iter().flat_map(|&i| alphabet[i].bytes()).collect())
}

const EXPERIMENT_WORDS: &[&str] = &[
    "(",
    ")",
    " ",
    "(primset morris)",
    "(primset lose-checkers)",
    "(game morris)",
    "(game lose-checkers)",
    "(game morris-no-flying)",
    "population",
    "generations",
    "seed",
    "trees",
    "init",
    "max-depth",
    "max-size",
    "mutation-depth",
    "crossover",
    "mutation",
    "local-mutation",
    "selection",
    "match-games",
    "elitism",
    "player",
    "fitness",
    "champion",
    "introns",
    "engine",
    "tournament",
    "fitnessless",
    "proportionate",
    "alphabeta",
    "select",
    "ratio",
    "cohort",
    "random",
    "guide",
    "material",
    "pairings",
    "round-robin",
    "validate",
    "top",
    "final",
    "last",
    "ties",
    "first",
    "on",
    "off",
    "jit",
    "interp",
    "individual",
    "tree",
    "policy",
    "weights",
    "max-rules",
    "reorder",
    "terms",
    "range",
    "gene-rate",
    "step",
    "Mobility",
    "hillis",
    "problems",
    "sample",
    "opening",
    "opponent",
    "goal",
    "win",
    "not-lose",
    "min-length",
    "start",
    "puzzles",
    "generated",
    "solve",
    "eval",
    "0",
    "1",
    "2",
    "-1",
    "0.5",
    "1e9",
    "9223372036854775807",
];
const POSITION_CHARS: &[&str] = &[
    "W", "B", "H", "T", "K", "w", "b", ":", ",", "-", "x", "0", "1", "2", "3", "9", "12", "32", "a", "d", "g", "7",
    " ", "\n", "é", "o", ".", "A", "X", "AA", "oooooo", "+", "+1", "f", "/", "70",
];
const CSV_CHARS: &[&str] = &[
    "a",
    "b",
    "n",
    "flag",
    "x0",
    ",",
    "\n",
    "\r\n",
    "\"",
    " ",
    "1",
    "-0",
    "1.5",
    "e9",
    "NaN",
    "inf",
    "true",
    "0",
    "9223372036854775808",
    "é",
];
const JSON_WORDS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"format\"",
    "\"experiment\"",
    "\"seed\"",
    "\"generation\"",
    "\"population\"",
    "\"log\"",
    "\"champion\"",
    "\"finalists\"",
    "\"program\"",
    "\"rank\"",
    "\"points\"",
    "\"best\"",
    "2",
    "1",
    "-1",
    "1e400",
    "null",
    "\"(x\"",
    "18446744073709551616",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn experiments_mutated(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        entry_points::experiment(&mutate(&seeds("experiment"), pick, &edits));
    }

    #[test]
    fn experiments_generated(clauses in text_over(EXPERIMENT_WORDS, 40)) {
        entry_points::experiment(&clauses);
    }

    #[test]
    fn positions_mutated(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        entry_points::positions(&mutate(&seeds("positions"), pick, &edits));
    }

    #[test]
    fn positions_generated(game in 0..6u8, text in text_over(POSITION_CHARS, 60)) {
        entry_points::positions(&[[game].as_slice(), &text].concat());
    }

    #[test]
    fn csv_rows_mutated(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        entry_points::csv_rows(&mutate(&seeds("csv_rows"), pick, &edits));
    }

    #[test]
    fn csv_rows_generated(text in text_over(CSV_CHARS, 60)) {
        entry_points::csv_rows(&text);
    }

    #[test]
    fn checkpoints_mutated(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        entry_points::checkpoint(&mutate(&seeds("checkpoint"), pick, &edits));
    }

    #[test]
    fn checkpoints_generated(text in text_over(JSON_WORDS, 60)) {
        entry_points::checkpoint(&text);
    }

    #[test]
    fn covering_checkpoints_mutated(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        entry_points::cca_checkpoint(&mutate(&seeds("cca_checkpoint"), pick, &edits));
    }

    #[test]
    fn programs_mutated(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        entry_points::read_check(&mutate(&seeds("read_check"), pick, &edits));
    }

    #[test]
    fn gdl_mutated(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        entry_points::gdl(&mutate(&seeds("gdl"), pick, &edits));
    }

    #[test]
    fn puzzle_files_mutated(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        entry_points::puzzle_files(&mutate(&seeds("puzzle_files"), pick, &edits));
    }

    #[test]
    fn puzzle_files_generated(game in 0..2u8, text in text_over(POSITION_CHARS, 80)) {
        entry_points::puzzle_files(&[[game].as_slice(), &text].concat());
    }

    #[test]
    fn ggp_messages_mutated(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        entry_points::ggp_messages(&mutate(&seeds("ggp_messages"), pick, &edits));
    }
}

/// Every seed goes through its target unchanged, and the seeds that should
/// be accepted are: the corpus exercises more than the error paths.
#[test]
fn seeds_pass_their_targets() {
    for seed in seeds("read_check") {
        entry_points::read_check(&seed);
    }
    for seed in seeds("experiment") {
        entry_points::experiment(&seed);
    }
    for seed in seeds("positions") {
        entry_points::positions(&seed);
    }
    for seed in seeds("csv_rows") {
        entry_points::csv_rows(&seed);
    }
    for seed in seeds("checkpoint") {
        entry_points::checkpoint(&seed);
    }
    for seed in seeds("cca_checkpoint") {
        entry_points::cca_checkpoint(&seed);
    }
    for seed in seeds("gdl") {
        entry_points::gdl(&seed);
    }
    for seed in seeds("puzzle_files") {
        entry_points::puzzle_files(&seed);
    }
    for seed in seeds("ggp_messages") {
        entry_points::ggp_messages(&seed);
    }
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/checkpoint/tiny-morris.json"))
            .expect("the checkpoint seed");
    assert!(stratagem::evolve::output::parse_checkpoint(&text).is_ok());
    for seed in seeds("cca_checkpoint") {
        let text = String::from_utf8_lossy(&seed);
        assert!(stratagem::evolve::CcaCheckpoint::parse(&text).is_ok(), "a covering seed that does not parse");
    }
}

/// What a fuzz target calls.
type EntryPoint = fn(&[u8]);

/// Every crash a campaign found, kept minimised in fuzz/regressions/TARGET,
/// goes through its target without a panic.
#[test]
fn fuzz_regressions_pass_their_targets() {
    let targets: [(&str, EntryPoint); 9] = [
        ("read_check", entry_points::read_check),
        ("experiment", entry_points::experiment),
        ("positions", entry_points::positions),
        ("csv_rows", entry_points::csv_rows),
        ("checkpoint", entry_points::checkpoint),
        ("gdl", entry_points::gdl),
        ("puzzle_files", entry_points::puzzle_files),
        ("ggp_messages", entry_points::ggp_messages),
        ("cca_checkpoint", entry_points::cca_checkpoint),
    ];
    for (target, run) in targets {
        for input in inputs("fuzz/regressions", target) {
            run(&input);
        }
    }
}
