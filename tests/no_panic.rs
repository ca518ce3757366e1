//! Bad input never panics: random bytes, random token soups and mutated valid
//! programs go through the reader, the checker and the formatter.

use proptest::prelude::*;
use stratagem::diagnostic::FileId;
use stratagem::lang::Loader;
use stratagem::syntax::{lexer::comments, pretty::format_source, read};

const VALID: &str = r#"(import arith)
(primset p (type Row I) (terminal a F) (function f (Row F) F) (function + (F F) F (builtin add))
  (erc r Row (int 0 7)) (define twice ((x F)) F (+ x x)) (literals F) (tree eval F))
(individual i (primset p) (tree eval (+ (f 3 a) (twice 1.5))))
(policy q (primset arith) (rule (<= x0 x1) (pdiv x2 x3)) (default 0.5))
(weights w (primset arith) (x0 1) (x1 1) (x2 1) (x3 1) (x4 1) (x5 1) (x6 1) (x7 1) (x8 1) (x9 1))
"#;

const FRAGMENTS: &[&str] = &[
    "(",
    ")",
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
