//! `stratagem batch` on ../shared/gpbench reproduces expected.json's sums on
//! both engines (relative error ≤ 1e-12; in practice they are identical).

use std::path::Path;
use std::process::Command;

const GPBENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gpbench");

fn batch(engine: &str) -> serde_json::Value {
    let dir = Path::new(GPBENCH);
    let output = Command::new(env!("CARGO_BIN_EXE_stratagem"))
        .args(["batch", "--engine", engine, "--format", "json", "--trees"])
        .arg(dir.join("trees.sexp"))
        .arg("--rows")
        .arg(dir.join("rows.csv"))
        .output()
        .expect("runs stratagem");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "unexpected notes: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

fn check(engine: &str) {
    let text = std::fs::read_to_string(Path::new(GPBENCH).join("expected.json")).expect("expected.json");
    // Python wrote NaN/Infinity for fields we do not compare; JSON has no such tokens.
    let text = text.replace("-Infinity", "null").replace("Infinity", "null").replace("NaN", "null");
    let expected: serde_json::Value = serde_json::from_str(&text).expect("expected.json parses");
    let got = batch(engine);
    let (exp, got) = (expected["trees"].as_array().expect("trees"), got["trees"].as_array().expect("trees"));
    assert_eq!(exp.len(), 120);
    assert_eq!(got.len(), exp.len());
    for (e, g) in exp.iter().zip(got) {
        for key in ["set", "size", "index", "nodes"] {
            assert_eq!(e[key], g[key], "{key}");
        }
        let (es, gs) = (e["sum"].as_f64().expect("sum"), g["sum"].as_f64().expect("sum"));
        let rel = (es - gs).abs() / es.abs().max(f64::MIN_POSITIVE);
        assert!(rel <= 1e-12, "{engine}: {} {} {}: sum {gs} expected {es}", e["set"], e["size"], e["index"]);
        assert!(g["compile_us"].is_number());
        assert_eq!(g["engine"], if engine == "interp" { "interp" } else { "jit" });
    }
}

#[test]
fn interpreter_reproduces_expected_sums() {
    check("interp");
}

#[test]
fn jit_reproduces_expected_sums() {
    check("jit");
}
