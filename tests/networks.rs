//! Networks (`(network ...)`, src/lang/network.rs) as a user meets them:
//! random networks printed and re-read give the same genes and a layout
//! that is a fixed point; exported as C and as Rust they compute the
//! interpreter's bits (the activations' `exp` included, over its whole range
//! and its edges); the C is ANSI C89 without fused multiply-adds; the
//! example network plays the same on both engines and its S-expression
//! export checks. Needs `cc` and `rustc`, as tests/export.rs does.

mod common;

use std::path::Path;

use common::{stratagem, temp};
use rand::RngExt;
use stratagem::eval::interp::{Interp, Slots};
use stratagem::lang::activation::Activation;
use stratagem::lang::network::{Link, NetGenes, NetNode};
use stratagem::lang::{Loader, Network, PrimId, PrimKind, PrimSet, PrimSetId};
use stratagem::rng::stream;
use stratagem::syntax::pretty::print_forms;

const EXAMPLE: &str = "programs/examples/network.sg";

fn arith() -> PrimSet {
    stratagem::lang::library::load_primset("arith").expect("arith")
}

/// A random network over `ps`'s F terminals: nodes read inputs and earlier
/// nodes (disabled links may point back), weights from moderate to large,
/// so that sums reach `exp`'s overflow, underflow and subnormal ranges.
fn random_network(seed: u64, ps: &PrimSet) -> Network {
    let mut rng = stream(seed, &[24, 2]);
    let mut features: Vec<PrimId> =
        (0..ps.prims.len() as u32).map(PrimId).filter(|id| matches!(ps.prim(*id).kind, PrimKind::Feature(_))).collect();
    let inputs: Vec<PrimId> = (0..rng.random_range(1..=features.len()))
        .map(|_| features.swap_remove(rng.random_range(0..features.len())))
        .collect();
    let n_nodes = rng.random_range(1..7);
    let scale = [1.0, 8.0, 60.0, 400.0][seed as usize % 4];
    let nodes = (0..n_nodes)
        .map(|i| NetNode {
            name: format!("h{i}"),
            activation: Activation::ALL[rng.random_range(0..Activation::ALL.len())],
            bias: if rng.random_bool(0.5) { 0.0 } else { rng.random_range(-scale..scale) },
        })
        .collect();
    let n_in = inputs.len();
    let mut links: Vec<Link> = Vec::new();
    for _ in 0..rng.random_range(0..4 * n_nodes + 3) {
        let to = n_in + rng.random_range(0..n_nodes);
        let backwards = rng.random_bool(0.1);
        let from = if backwards { rng.random_range(to..n_in + n_nodes) } else { rng.random_range(0..to) };
        if links.iter().any(|l| l.from == from && l.to == to) {
            continue;
        }
        let innovation = rng.random_bool(0.8).then_some(links.len() as u64 * 3);
        let weight = rng.random_range(-scale..scale);
        links.push(Link { from, to, weight, innovation, enabled: !backwards && rng.random_bool(0.9) });
    }
    let genes = NetGenes { inputs, nodes, output: rng.random_range(0..n_nodes), links };
    Network::new(format!("n{seed}"), PrimSetId(0), ps, genes).expect("well formed")
}

/// Rows of the interesting values: ±0, ±∞, NaN, tiny, huge, and moderate ones.
fn rows(n: usize) -> Vec<Vec<f64>> {
    let specials = [0.0, -0.0, 1.0, -1.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e-10, 1e300, -1e300, 0.5, 3.0];
    common::rows_with_specials(n, &specials, 4, 6, &[24])
}

fn networks_file(dir: &Path, n: u64) -> (std::path::PathBuf, Vec<Network>) {
    let ps = arith();
    let nets: Vec<Network> = (0..n).map(|seed| random_network(seed, &ps)).collect();
    let forms: Vec<_> = nets.iter().map(|n| n.to_sexp(&ps)).collect();
    let file = dir.join("nets.sg");
    std::fs::write(&file, format!("(import arith)\n\n{}", print_forms(&forms))).expect("write");
    (file, nets)
}

#[test]
fn networks_round_trip_through_their_text() {
    let dir = temp("round-trip");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (file, nets) = networks_file(&dir, 200);
    let mut loader = Loader::new();
    loader.load_path(&file);
    assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
    let ps = loader.module.primset(loader.module.find_primset("arith").expect("arith")).clone();
    assert_eq!(loader.module.networks.len(), nets.len());
    for (a, b) in nets.iter().zip(&loader.module.networks) {
        assert_eq!(a.genes(), b.genes(), "{}", a.name);
        // Bits too (-0.0 == 0.0 for PartialEq): the printed forms are equal.
        assert_eq!(a.to_sexp(&ps).to_string(), b.to_sexp(&ps).to_string());
        assert_eq!(a.plan(), b.plan());
    }
    // The layout is canonical: `fmt --check` accepts it.
    let (code, _, stderr) = stratagem(&["fmt", "--check", &file.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

fn export(file: &Path, name: &str, format: &str, out: &Path) {
    let args = ["export", &file.display().to_string(), "--individual", name, "--format", format];
    let (code, _, stderr) = stratagem(&[&args[..], &["--out", &out.display().to_string()]].concat());
    assert_eq!(code, 0, "{stderr}");
}

/// Runs `exe` on `rows` (hex bits in, one line of hex bits per row out).
fn run_harness(exe: &Path, rows: &[Vec<f64>]) -> Vec<Vec<u64>> {
    use std::io::Write;
    let input: String =
        rows.iter().map(|r| r.iter().map(|x| format!("{:x} ", x.to_bits())).collect::<String>() + "\n").collect();
    let mut child = std::process::Command::new(exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run the harness");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("feed");
    let output = child.wait_with_output().expect("wait");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.split_whitespace().map(|h| u64::from_str_radix(h, 16).expect("hex")).collect())
        .collect()
}

fn assert_interpreters_bits(what: &str, ps: &PrimSet, nets: &[Network], rows: &[Vec<f64>], got: &[Vec<u64>]) {
    assert_eq!(got.len(), rows.len(), "{what}: one line per row");
    for (row, line) in rows.iter().zip(got) {
        let bits: Vec<u64> = row.iter().map(|x| x.to_bits()).collect();
        for (net, &g) in nets.iter().zip(line) {
            let want = Interp::new(ps, &mut Slots(&bits)).eval_network(net).as_f64();
            let g = f64::from_bits(g);
            assert!(
                g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
                "{what}: {} on {row:?}: {g} vs the interpreter's {want}",
                net.name
            );
        }
    }
}

#[test]
fn exported_networks_compute_the_interpreters_bits_in_c_and_rust() {
    let dir = temp("export");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (file, nets) = networks_file(&dir, 24);
    let ps = arith();
    let rows = rows(400);

    // C: one translation unit per network (its helpers are static).
    let mut main = String::from("#include <stdio.h>\n#include <string.h>\n");
    let mut units = vec![dir.join("main.c")];
    for net in &nets {
        let c = dir.join(format!("{}.c", net.name));
        export(&file, &net.name, "c", &c);
        main.push_str(&format!("double {}(const double *f);\n", net.name));
        units.push(c);
    }
    main.push_str("int main(void){double f[10];unsigned long long b;double v;int i;\n");
    main.push_str("while(1){for(i=0;i<10;i++){if(scanf(\"%llx\",&b)!=1)return 0;memcpy(&f[i],&b,8);}\n");
    for net in &nets {
        main.push_str(&format!("v={}(f);memcpy(&b,&v,8);printf(\"%llx \",b);\n", net.name));
    }
    main.push_str("printf(\"\\n\");}}\n");
    std::fs::write(dir.join("main.c"), &main).expect("write main");
    for unit in &units[1..4] {
        let out = std::process::Command::new("cc")
            .args(["-std=c89", "-pedantic", "-Wall", "-Werror", "-fsyntax-only"])
            .arg(unit)
            .output()
            .expect("run cc");
        assert!(out.status.success(), "{}: {}", unit.display(), String::from_utf8_lossy(&out.stderr));
        if cfg!(target_arch = "x86_64") {
            let out = std::process::Command::new("cc")
                .args(["-O2", "-mfma", "-S", "-o", "-"])
                .arg(unit)
                .output()
                .expect("run cc");
            assert!(
                !String::from_utf8_lossy(&out.stdout).contains("vfmadd"),
                "{}: fused multiply-adds",
                unit.display()
            );
        }
    }
    let exe = dir.join("eval-c");
    common::cc_program(&exe, &units);
    assert_interpreters_bits("C", &ps, &nets, &rows, &run_harness(&exe, &rows));

    // Rust: each export in a module of its own, compiled with warnings denied.
    let mut main = String::new();
    for net in &nets {
        let rs = dir.join(format!("{}.rs", net.name));
        export(&file, &net.name, "rust", &rs);
        main.push_str(&format!("mod {} {{ include!({:?}); }}\n", net.name, rs.display().to_string()));
    }
    main.push_str("use std::io::BufRead;\nfn main() {\n    let stdin = std::io::stdin();\n");
    main.push_str("    for line in stdin.lock().lines() {\n        let line = line.unwrap();\n");
    main.push_str("        let f: Vec<f64> = line.split_whitespace().map(|h| f64::from_bits(u64::from_str_radix(h, 16).unwrap())).collect();\n");
    main.push_str("        let mut out = String::new();\n");
    for net in &nets {
        main.push_str(&format!("        out.push_str(&format!(\"{{:x}} \", {0}::{0}(&f).to_bits()));\n", net.name));
    }
    main.push_str("        println!(\"{out}\");\n    }\n}\n");
    let main_rs = dir.join("main.rs");
    std::fs::write(&main_rs, &main).expect("write main.rs");
    let exe = dir.join("eval-rust");
    let out = std::process::Command::new("rustc")
        .args(["--edition", "2021", "-O", "-D", "warnings", "-o"])
        .arg(&exe)
        .arg(&main_rs)
        .output()
        .expect("run rustc");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_interpreters_bits("Rust", &ps, &nets, &rows, &run_harness(&exe, &rows));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_example_network_plays_the_same_on_both_engines() {
    let spec = format!("gp:{EXAMPLE}:mills:alphabeta:2");
    let run = |engine: &str| {
        let args = [
            "play",
            "--game",
            "morris",
            "--a",
            &spec,
            "--b",
            "alphabeta:2:material",
            "--games",
            "6",
            "--engine",
            engine,
        ];
        let (code, stdout, stderr) = stratagem(&args);
        assert_eq!(code, 0, "{stderr}");
        // Everything but the speed.
        stdout.lines().filter(|l| !l.starts_with("games/s")).collect::<Vec<_>>().join("\n")
    };
    let interp = run("interp");
    assert!(interp.contains("wins"), "{interp}");
    assert_eq!(interp, run("jit"));
}

#[test]
fn the_example_network_exports_as_a_file_that_checks() {
    let dir = temp("sexp");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("mills.sg");
    export(Path::new(EXAMPLE), "mills", "sexp", &out);
    let (code, stdout, stderr) = stratagem(&["check", &out.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("network mills trees=1 nodes=10 depth=3 inputs=7 hidden=2 links=10 enabled=9"), "{stdout}");
    let (code, _, stderr) = stratagem(&["fmt", "--check", EXAMPLE]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unknown_networks_are_diagnosed() {
    let (code, _, stderr) = stratagem(&["export", EXAMPLE, "--individual", "mils", "--format", "c"]);
    assert_eq!(code, 1);
    assert!(common::flat(&stderr).contains("did you mean `mills`?"), "{stderr}");
    let spec = format!("gp:{EXAMPLE}:mils:alphabeta:1");
    let (code, _, stderr) = stratagem(&["play", "--game", "morris", "--a", &spec, "--games", "1"]);
    assert_eq!(code, 1);
    assert!(common::flat(&stderr).contains("did you mean `mills`?"), "{stderr}");
}
