#!/usr/bin/env python3
"""The LLVM reference for `stratagem batch`: every gpbench tree as
straight-line Rust, compiled by rustc and timed as `batch` times its JIT.

Usage (from the repository root):

    python3 benches/llvm_batch.py [--repeat 9] [--trees T.sexp] [--rows R.csv]

It writes one Rust program with a function per tree (one loop over the
rows of the ten columns, the shape an engineer writes by hand and LLVM
optimises and vectorises at will; the same generator as
benches/gen_handwritten.py), compiles it with `rustc -C opt-level=3` (the
default target, as `cargo bench` builds) into a temporary directory, runs
each tree `--repeat` times and prints, per tree, `set size index nodes sum
node_evals_per_s` over its fastest pass: the columns of `stratagem batch`'s
text output, so the two can be joined line by line. `stratagem bench`
runs it next to `stratagem batch --engine jit`.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gen_handwritten import parse, rust  # noqa: E402

SHARED = os.path.join(HERE, "..", "..", "shared", "gpbench")

MAIN = r"""
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rows = std::fs::read_to_string(&args[1]).expect("rows");
    let repeat: usize = args[2].parse().expect("repeat");
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); 10];
    for line in rows.lines().skip(1) {
        for (c, field) in line.split(',').enumerate() {
            cols[c].push(field.trim().parse().expect("number"));
        }
    }
    let refs: [&[f64]; 10] = std::array::from_fn(|c| cols[c].as_slice());
    let mut out = vec![0.0; cols[0].len()];
    for &(set, size, index, nodes, f) in TREES {
        let mut best = f64::INFINITY;
        let mut sum = 0.0;
        for pass in 0..repeat {
            let start = Instant::now();
            f(std::hint::black_box(&refs), &mut out);
            best = best.min(start.elapsed().as_secs_f64());
            std::hint::black_box(&out);
            if pass == 0 {
                for &v in &out {
                    sum += v;
                }
            }
        }
        let rate = nodes as f64 * out.len() as f64 / best;
        println!("{set} {size} {index} {nodes} {sum:?} {rate:.4e}");
    }
}
"""


def count_nodes(e):
    if isinstance(e, str):
        return 1
    return 1 + sum(count_nodes(a) for a in e[1])


def program(trees_path):
    src = ["#![allow(unused_parens, clippy::all)]\n"]
    src.append("#[inline(always)]\nfn pdiv(a: f64, b: f64) -> f64 {\n    if b.abs() < 1e-9 { 1.0 } else { a / b }\n}\n")
    entries = []
    with open(trees_path) as f:
        for line in f:
            s, size, index, sexp = line.split(" ", 3)
            tree = parse(sexp.replace("(", " ( ").replace(")", " ) ").split())
            name = "t_%s_%s_%s" % (s, size, index)
            src.append("#[inline(never)]\nfn %s(c: &[&[f64]; 10], out: &mut [f64]) {\n" % name)
            src.append("    let c: [&[f64]; 10] = c.map(|col| &col[..out.len()]);\n")
            src.append("    for r in 0..out.len() {\n")
            src.append("        let (x0, x1, x2, x3, x4) = (c[0][r], c[1][r], c[2][r], c[3][r], c[4][r]);\n")
            src.append("        let (x5, x6, x7, x8, x9) = (c[5][r], c[6][r], c[7][r], c[8][r], c[9][r]);\n")
            src.append("        let _ = (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9);\n")
            src.append("        out[r] = %s;\n    }\n}\n" % rust(tree))
            entries.append('    ("%s", %s, %s, %d, %s),\n' % (s, size, index, count_nodes(tree), name))
    src.append("const TREES: &[(&str, usize, usize, usize, fn(&[&[f64]; 10], &mut [f64]))] = &[\n")
    src.extend(entries)
    src.append("];\n")
    src.append(MAIN)
    return "".join(src)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=9)
    p.add_argument("--trees", default=os.path.join(SHARED, "trees.sexp"))
    p.add_argument("--rows", default=os.path.join(SHARED, "rows.csv"))
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "llvm_batch.rs")
        exe = os.path.join(tmp, "llvm_batch")
        with open(src, "w") as f:
            f.write(program(a.trees))
        subprocess.run(["rustc", "-C", "opt-level=3", "--edition", "2021", "-o", exe, src], check=True)
        subprocess.run([exe, a.rows, str(a.repeat)], check=True)


main()
