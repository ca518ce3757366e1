//! Property tests for the printer: parse(print(p)) == p for generated
//! S-expressions and for generated well-typed programs, and the canonical
//! layout is a fixed point.

use proptest::prelude::*;
use stratagem::diagnostic::FileId;
use stratagem::lang::Loader;
use stratagem::syntax::pretty::{format_source, print_forms};
use stratagem::syntax::{Atom, Sexp, Span, lexer::comments, read};

fn atom() -> impl Strategy<Value = Sexp> {
    prop_oneof![
        any::<i64>().prop_map(|i| Sexp::atom(Atom::Int(i), Span::default())),
        any::<f64>().prop_filter("finite", |x| x.is_finite()).prop_map(|x| Sexp::atom(Atom::Float(x), Span::default())),
        "[a-zA-Z_<>=?+*/.:-][a-zA-Z0-9_<>=?+*/.:-]{0,8}"
            .prop_filter("a symbol, not a number", |s| read(FileId(0), s).0.first().and_then(Sexp::as_symbol)
                == Some(s.as_str()))
            .prop_map(|s| Sexp::atom(Atom::Symbol(s), Span::default())),
        "[ -~\n\t]{0,12}".prop_map(|s| Sexp::atom(Atom::Str(s), Span::default())),
    ]
}

fn sexp() -> impl Strategy<Value = Sexp> {
    atom().prop_recursive(5, 80, 8, |inner| {
        prop::collection::vec(inner, 0..8).prop_map(|items| Sexp::list(items, Span::default()))
    })
}

/// A random well-typed arith expression of type F (`want_bool` false) or B.
fn arith_expr(want_bool: bool, depth: u32) -> BoxedStrategy<String> {
    let leaf_f = prop_oneof![(0..10u8).prop_map(|i| format!("x{i}")), (-2.0f64..2.0).prop_map(|x| format!("{x:?}"))];
    if depth == 0 {
        return if want_bool {
            (leaf_f.clone(), leaf_f).prop_map(|(a, b)| format!("(<= {a} {b})")).boxed()
        } else {
            leaf_f.boxed()
        };
    }
    let f = || arith_expr(false, depth - 1);
    let b = || arith_expr(true, depth - 1);
    if want_bool {
        prop_oneof![
            (prop_oneof![Just("<="), Just(">=")], f(), f()).prop_map(|(op, x, y)| format!("({op} {x} {y})")),
            (prop_oneof![Just("and"), Just("or")], b(), b()).prop_map(|(op, x, y)| format!("({op} {x} {y})")),
            b().prop_map(|x| format!("(not {x})")),
        ]
        .boxed()
    } else {
        prop_oneof![
            f(),
            (prop_oneof![Just("+"), Just("-"), Just("*"), Just("pdiv")], f(), f())
                .prop_map(|(op, x, y)| format!("({op} {x} {y})")),
            (b(), f(), f()).prop_map(|(c, x, y)| format!("(if {c} {x} {y})")),
        ]
        .boxed()
    }
}

fn reads(text: &str) -> Vec<Sexp> {
    let (forms, diags) = read(FileId(0), text);
    assert!(diags.is_empty(), "printed text does not read back:\n{text}");
    forms
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn printed_sexps_read_back(forms in prop::collection::vec(sexp(), 0..5)) {
        let printed = print_forms(&forms);
        let again = reads(&printed);
        prop_assert_eq!(&again, &forms);
        // The canonical layout of canonical text is itself.
        prop_assert_eq!(format_source(&printed, &again, &comments(&printed)), printed);
    }

    #[test]
    fn printed_programs_check_to_the_same_trees(exprs in prop::collection::vec(arith_expr(false, 4), 1..4)) {
        let src: String = std::iter::once("(import arith)\n".to_owned())
            .chain(exprs.iter().enumerate().map(|(i, e)| format!("(individual ind{i} (primset arith) (tree eval {e}))\n")))
            .chain(std::iter::once("(policy p (primset arith) (rule (<= x0 x1) x2) (default x3))\n".to_owned()))
            .collect();
        let mut original = Loader::new();
        original.load_text("gen.sg", &src);
        prop_assert!(original.diags.is_empty(), "{}", original.sources.render_plain(&original.diags));

        // Print every program from the IR, reload, and compare the trees.
        let m = &original.module;
        let ps = m.primset(m.individuals[0].primset);
        let mut forms = read(FileId(0), "(import arith)").0;
        for ind in &m.individuals {
            let tree = ind.trees[0].tree.to_sexp(ps, &[]);
            let text = format!("(individual {} (primset arith) (tree eval {}))", ind.name, tree);
            forms.extend(reads(&text));
        }
        let printed = print_forms(&forms);
        let mut reloaded = Loader::new();
        reloaded.load_text("printed.sg", &printed);
        prop_assert!(reloaded.diags.is_empty(), "{}", reloaded.sources.render_plain(&reloaded.diags));
        for (a, b) in m.individuals.iter().zip(&reloaded.module.individuals) {
            prop_assert_eq!(&a.trees[0].tree.nodes, &b.trees[0].tree.nodes);
        }
    }
}
