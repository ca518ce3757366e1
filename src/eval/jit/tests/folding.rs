//! Folding when compiling: constant subtrees, logic over constants and
//! `if`s decided by a constant leave no per-row code, and the folded values
//! are the interpreter's bit for bit (the differential tests' random trees
//! fold special values such as NaN and infinities too).

use super::differential::{canonical_bits, columns};
use super::random;
use crate::eval::interp::{Interp, Slots};
use crate::eval::jit::translate::Lanes;
use crate::eval::jit::{JitCompiler, JitConfig, JitProgram, Mode};
use crate::lang::{Loader, Tree};

/// A tree of the `full` primset of the differential tests, from its text.
fn tree(text: &str) -> (crate::lang::PrimSet, Tree) {
    let source = format!("{}(individual t (primset full) (tree eval {text}))", random::FULL_PRIMSET);
    let mut loader = Loader::new();
    loader.load_text("(test)", &source);
    assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
    let ind = loader.module.find_individual("t").expect("individual defined");
    let ps = loader.module.primset(ind.primset).clone();
    (ps, ind.trees[0].tree.clone())
}

/// How many times `opcode` appears in the IR of the tree's row loop.
fn count(text: &str, opcode: &str, lanes: Lanes) -> usize {
    let (ps, t) = tree(text);
    let mut c = JitCompiler::new(&ps, JitConfig::default()).expect("compiler");
    let ir = c.ir_text(JitProgram::Tree(&t), Mode::Batch, lanes).expect("translated");
    ir.lines().filter(|l| l.split_whitespace().any(|w| w == opcode || w.starts_with(&format!("{opcode}.")))).count()
}

#[test]
fn constant_subtrees_leave_no_code() {
    for lanes in [Lanes::X2, Lanes::Scalar] {
        // One division by a variable, the constant one folded.
        assert_eq!(count("(+ (pdiv x y) (pdiv 1.906 -0.355))", "fdiv", lanes), 1);
        assert_eq!(count("(* (pdiv (- 2.5 0.5) (+ 1.0 3.0)) x)", "fdiv", lanes), 0);
        // A constant condition picks its branch: the other one's division goes.
        assert_eq!(count("(if (not (>= -1.584 -1.825)) (pdiv x y) z)", "fdiv", lanes), 0);
        assert_eq!(count("(if (and p (> 0.5 0.25)) (pdiv x y) z)", "fdiv", lanes), 1);
        assert_eq!(count("(if (or (>= 0.929 0.266) p) x (pdiv x y))", "fdiv", lanes), 0);
        // Both branches the same value: no select.
        assert_eq!(count("(if (< x y) z z)", "fcmp", lanes), 0);
        assert_eq!(count("(if (< x y) z (pdiv x y))", "fdiv", lanes), 1);
    }
}

#[test]
fn folded_values_are_the_interpreters() {
    let special = [0.0, -0.0, 1e-10, 1e308, -1e308, 0.5];
    for text in [
        "(+ (pdiv 0.0 0.0) (pdiv 1e308 1e-10))",
        "(- (* 1e308 1e308) (* 1e308 1e308))",
        "(min (- (* 1e308 10.0) (* 1e308 10.0)) 2.0)",
        "(max 2.0 (- (* 1e308 10.0) (* 1e308 10.0)))",
        "(if (= (- (* 1e308 10.0) (* 1e308 10.0)) 0.0) 1.0 x)",
        "(if (nand (< -0.0 0.0) (xor p (> 1.0 0.5))) (abs -0.0) (neg 0.0))",
        "(if (nor (< x 0.0) (>= 0.0 -0.0)) y (pdiv x 1e-10))",
    ] {
        let (ps, t) = tree(text);
        // Slots: x, y, z (floats), n, m (counts), p, q (truth values).
        let rows: Vec<Vec<u64>> = special
            .iter()
            .map(|&x| {
                let f = |k: f64| (x * k).to_bits();
                vec![f(1.0), f(-2.0), f(3.0), 1, 2, u64::from(x > 0.1), u64::from(x < 0.0)]
            })
            .collect();
        let expected: Vec<u64> =
            rows.iter().map(|r| canonical_bits(Interp::new(&ps, &mut Slots(r)).eval_tree(&t).to_bits())).collect();
        let mut c = JitCompiler::new(&ps, JitConfig::default()).expect("compiler");
        let h = c.add(JitProgram::Tree(&t), Mode::Batch).expect("compiled");
        let compiled = c.finish().expect("finished");
        let f = compiled.batch(h).expect("batch fn");
        let (mut out, mut aux) = (Vec::new(), Vec::new());
        f.run(&columns(&ps, &rows), &mut out, &mut aux);
        let got: Vec<u64> = out[..rows.len()].iter().map(|&b| canonical_bits(b)).collect();
        assert_eq!(got, expected, "{text}");
    }
}
