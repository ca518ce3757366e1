//! `stratagem export`: the example ant, the shipped champion and random
//! two-tree ants exported as C play exactly as their `gp:` players on 1,000
//! boards (both roles, move by move); so do the three humants and
//! hand-written ants reading every native of the `antwars-humant` primset,
//! whose exported C and Rust also give every direction the `gp:` player's
//! value, bit for bit; the exported Rust compiles; S-expressions re-read and
//! play the same; a non-Ant Wars program exported as C computes the
//! interpreter's bits; errors. Needs `cc` (and `rustc` for the Rust check),
//! as tests/antwars.rs does.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::{flat, stratagem, temp};
use stratagem::eval::interp::{Interp, Slots};
use stratagem::evolve::init::{Builder, Method};
use stratagem::games::antwars::c_player::{CPlayer, CSource};
use stratagem::games::antwars::gp_ant::{AntProgram, GpAnt, best_direction};
use stratagem::games::antwars::memory::AntMemory;
use stratagem::games::antwars::sight::AntSight;
use stratagem::games::antwars::{AntWars, View};
use stratagem::lang::{Node, PrimSet, Tree, TypeId, Value};
use stratagem::rng::stream;

const FORAGER: &str = "programs/examples/antwars-ant.sg";
const CHAMPION: &str = "programs/champions/antwars.sg";
const BRILLIANT: &str = "programs/champions/brilliant.sg";
const HUMANTS: &str = "programs/champions/antwars-humants.sg";
/// Hand-written ants that read every native of the `antwars-humant`
/// primset, most with arguments the humants never use.
const HUMANT_NATIVES: &str = "tests/data/antwars/humant-natives.sg";

/// The humants and the hand-written ants of their primset, as (file, name).
fn humant_ants() -> Vec<(&'static str, &'static str)> {
    let humants = ["smart-humant", "super-humant", "hyper-humant"].map(|n| (HUMANTS, n));
    let natives = [
        "plan-hope-odd",
        "plans",
        "pulls",
        "counts",
        "hunter",
        "computed",
        "keep-nothing",
        "discount-odd",
        "plans-discounted",
        "rival-pulls",
        "tuned-computed",
        "hyper-tuned",
    ]
    .map(|n| (HUMANT_NATIVES, n));
    humants.into_iter().chain(natives).collect()
}

/// Exports `name` of `file` as `format` through the binary, into `out`.
fn export(file: &Path, name: &str, format: &str, out: &Path) -> String {
    let args = ["export", &file.display().to_string(), "--individual", name, "--format", format];
    let (code, _, stderr) = stratagem(&[&args[..], &["--out", &out.display().to_string()]].concat());
    assert_eq!(code, 0, "{stderr}");
    stderr
}

fn antwars() -> PrimSet {
    stratagem::lang::library::load_primset("antwars").expect("the antwars primset")
}

/// Random two-tree ants (grow and full, depth 2–8) whose trees, together,
/// use every primitive of the primset; written to `dir/ants.sg`.
fn random_ants(dir: &Path, ps: &PrimSet) -> (PathBuf, Vec<String>) {
    let builder = Builder::new(ps, &[TypeId::F]).expect("a builder");
    let mut used = vec![false; ps.prims.len()];
    let mut text = String::from("(import antwars)\n");
    let mut names = Vec::new();
    let mut seed = 0u64;
    while names.len() < 4 || used.iter().any(|u| !u) {
        assert!(seed < 200, "200 ants never used every primitive: {used:?}");
        let mut rng = stream(seed, &[8]);
        let method = if seed.is_multiple_of(2) { Method::Grow } else { Method::Full };
        let depth = 2 + (seed as usize % 7);
        let trees: Vec<Tree> = (0..2).map(|_| builder.tree(&mut rng, TypeId::F, method, depth)).collect();
        seed += 1;
        let before = used.clone();
        for t in &trees {
            for n in &t.nodes {
                if let Node::Prim(id) = n {
                    used[id.0 as usize] = true;
                }
            }
        }
        if names.len() >= 4 && used == before {
            continue;
        }
        let name = format!("r{seed}");
        text.push_str(&ant_form(ps, &name, &trees));
        names.push(name);
    }
    // Two large ants: a grow and a full tree pair of depth 8.
    for (k, method) in [Method::Grow, Method::Full].into_iter().enumerate() {
        let mut rng = stream(k as u64, &[8, 8]);
        let trees: Vec<Tree> = (0..2).map(|_| builder.tree(&mut rng, TypeId::F, method, 8)).collect();
        let name = format!("deep{k}");
        text.push_str(&ant_form(ps, &name, &trees));
        names.push(name);
    }
    let file = dir.join("ants.sg");
    std::fs::write(&file, text).expect("write the ants");
    (file, names)
}

/// The text of ant `name` with trees `[straight, diagonal]`.
fn ant_form(ps: &PrimSet, name: &str, trees: &[Tree]) -> String {
    format!(
        "(individual {name} (primset antwars) (tree straight {}) (tree diagonal {}))\n",
        trees[0].to_sexp(ps, &[]),
        trees[1].to_sexp(ps, &[])
    )
}

/// An ant as its `gp:` player and its exported C player.
struct Pair {
    name: String,
    gp: GpAnt,
    c: CPlayer,
}

fn pair(file: &Path, name: &str, dir: &Path) -> Pair {
    let program = AntProgram::load(file, name).unwrap_or_else(|e| panic!("{e}: {:?}", e.help));
    let c_file = dir.join(format!("{name}.c"));
    export(file, name, "c", &c_file);
    let c = CSource::compile(&c_file).and_then(|s| s.load()).unwrap_or_else(|e| panic!("{e}: {:?}", e.help));
    Pair { name: name.to_owned(), gp: GpAnt::new(Arc::new(program)), c }
}

/// Plays `boards` games, board i between pairs i and i + 1 (mod n) in the
/// roles of Ant 1 and Ant 2, checking at every move that the C player
/// chooses what the `gp:` player chooses; returns the moves compared.
fn play_identical(pairs: &mut [Pair], boards: u64) -> u64 {
    let n = pairs.len();
    let mut compared = 0;
    for i in 0..boards {
        let mut rng = stream(i, &[23, 8]);
        let mut board = AntWars::random_board(&mut rng);
        let ids = [i as usize % n, (i as usize + 1) % n];
        for &k in &ids {
            pairs[k].gp.reset();
            pairs[k].c.reset();
        }
        while !board.is_over() {
            let role = board.to_move();
            let view = board.view(role);
            let p = &mut pairs[ids[usize::from(role)]];
            let gp = p.gp.choose(&view);
            let c = p.c.choose(&view).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(gp, c, "ant {} on board {i}, ply {}: gp chose {gp}, C chose {c}", p.name, board.ply());
            compared += 1;
            board = board.step(gp);
        }
    }
    compared
}

/// The exported C is ANSI C (`-std=c89 -pedantic`, no warnings), and on
/// x86-64 stays free of fused multiply-adds when the compiler may use them
/// (`-mfma`), which would round differently from Stratagem.
fn ansi_c_without_fma(c: &Path) {
    let out = std::process::Command::new("cc")
        .args(["-std=c89", "-pedantic", "-Wall", "-Werror", "-fsyntax-only"])
        .arg(c)
        .output()
        .expect("run cc");
    assert!(out.status.success(), "{}: {}", c.display(), String::from_utf8_lossy(&out.stderr));
    if cfg!(target_arch = "x86_64") {
        let out =
            std::process::Command::new("cc").args(["-O2", "-mfma", "-S", "-o", "-"]).arg(c).output().expect("run cc");
        assert!(out.status.success(), "{}: {}", c.display(), String::from_utf8_lossy(&out.stderr));
        assert!(!String::from_utf8_lossy(&out.stdout).contains("vfmadd"), "{}: fused multiply-adds", c.display());
    }
}

#[test]
fn exported_c_ants_move_exactly_as_their_gp_players_on_1000_boards() {
    let dir = temp("c-ants");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ps = antwars();
    let (file, names) = random_ants(&dir, &ps);
    let mut pairs = vec![
        pair(Path::new(FORAGER), "forager", &dir),
        pair(Path::new(CHAMPION), "antwars-champion", &dir),
        pair(Path::new(BRILLIANT), "brilliant-champion", &dir),
    ];
    let mut sizes = Vec::new();
    for name in &names {
        pairs.push(pair(&file, name, &dir));
        sizes.push(std::fs::metadata(dir.join(format!("{name}.c"))).map_or(0, |m| m.len()));
    }
    for name in std::iter::once("forager").chain(names.iter().map(String::as_str)) {
        ansi_c_without_fma(&dir.join(format!("{name}.c")));
    }
    ansi_c_without_fma(&dir.join("antwars-champion.c"));
    ansi_c_without_fma(&dir.join("brilliant-champion.c"));
    let forager_size = std::fs::metadata(dir.join("forager.c")).map_or(0, |m| m.len());
    assert!(forager_size < 5 * 1024, "forager's C is {forager_size} bytes");
    // The shipped champion and the fitnessless one fit the contest's limit.
    for champion in ["antwars-champion", "brilliant-champion"] {
        let size = std::fs::metadata(dir.join(format!("{champion}.c"))).map_or(0, |m| m.len());
        assert!(size <= 5000, "{champion}'s C is {size} bytes");
    }
    eprintln!("forager.c: {forager_size} bytes; random ants: {sizes:?} bytes");
    let compared = play_identical(&mut pairs, 1000);
    assert!(compared > 1000 * 35, "{compared} moves compared");
    std::fs::remove_dir_all(&dir).ok();
}

/// Random depth-8 ants fit the contest's 5,000 bytes; a larger one is
/// exported with a warning.
#[test]
fn depth_8_ants_are_exported_within_5000_bytes_or_warned_about() {
    let dir = temp("deep-ants");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ps = antwars();
    let builder = Builder::new(&ps, &[TypeId::F]).expect("a builder");
    let mut text = String::from("(import antwars)\n");
    let mut names = Vec::new();
    for seed in 0..20u64 {
        let method = if seed.is_multiple_of(2) { Method::Grow } else { Method::Full };
        let mut rng = stream(seed, &[8, 7]);
        let trees: Vec<Tree> = (0..2).map(|_| builder.tree(&mut rng, TypeId::F, method, 8)).collect();
        let name = format!("{}{seed}", if seed.is_multiple_of(2) { "grow" } else { "full" });
        text.push_str(&ant_form(&ps, &name, &trees));
        names.push(name);
    }
    let file = dir.join("deep.sg");
    std::fs::write(&file, text).expect("write the ants");
    let mut sizes = Vec::new();
    for name in &names {
        let c = dir.join(format!("{name}.c"));
        let stderr = export(&file, name, "c", &c);
        let size = std::fs::metadata(&c).map_or(0, |m| m.len());
        let warned = flat(&stderr).contains("over the contest's limit of 5000 bytes");
        assert_eq!(warned, size > 5000, "{name}: {size} bytes, stderr: {stderr}");
        sizes.push((name.clone(), size));
    }
    eprintln!("depth-8 ants' C: {sizes:?}");
    let largest = sizes.iter().map(|(_, s)| *s).max().unwrap_or(0);
    assert!(largest <= 5000, "random depth-8 ants fit the contest's limit: {sizes:?}");
    // An ant far larger than evolution makes (a sum of 150 weighted areas a
    // tree): written all the same, with the warning.
    let term = |k: usize| format!("(Mul {} (NFood {}))", 0.1 + k as f64 / 1000.0, (k * 37) % 4356);
    let sum = (1..150).fold(term(0), |acc, k| format!("(Add {acc} {})", term(k)));
    let file = dir.join("huge.sg");
    std::fs::write(
        &file,
        format!("(import antwars)\n(individual huge (primset antwars) (tree straight {sum}) (tree diagonal {sum}))\n"),
    )
    .expect("write");
    let c = dir.join("huge.c");
    let stderr = export(&file, "huge", "c", &c);
    let size = std::fs::metadata(&c).map_or(0, |m| m.len());
    assert!(size > 5000, "{size}");
    assert!(stderr.contains("stratagem::export::size"), "{stderr}");
    assert!(
        flat(&stderr)
            .contains(&format!("the C player of `huge` is {size} bytes, over the contest's limit of 5000 bytes")),
        "{stderr}"
    );
    ansi_c_without_fma(&c);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn exported_humants_move_exactly_as_their_gp_players_on_1000_boards() {
    let dir = temp("c-humants");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ants = humant_ants();
    let mut pairs: Vec<Pair> = ants.iter().map(|&(file, name)| pair(Path::new(file), name, &dir)).collect();
    let mut sizes = Vec::new();
    for &(_, name) in &ants {
        let c = dir.join(format!("{name}.c"));
        ansi_c_without_fma(&c);
        sizes.push((name, std::fs::metadata(&c).map_or(0, |m| m.len())));
    }
    eprintln!("the humants' C: {sizes:?} bytes");
    // HyperHumant, and HyperHumant with PlanHopeDiscount and UnseenPullRival.
    for hyper in ["hyper-humant", "hyper-tuned"] {
        let size = sizes.iter().find(|(n, _)| *n == hyper).map_or(0, |&(_, s)| s);
        assert!((1..=5000).contains(&size), "{hyper}'s C is {size} bytes, over the contest's limit");
    }
    // Only what a program reads is written: SmartHumant reads the antwars
    // primset's primitives alone, SuperHumant no survival (no libm).
    let text = |name: &str| std::fs::read_to_string(dir.join(format!("{name}.c"))).expect("read the C");
    let smart = text("smart-humant");
    assert!(!smart.contains("humant.rs") && !smart.contains("math.h"), "{smart}");
    let superh = text("super-humant");
    assert!(superh.contains("PF()") && !superh.contains("math.h") && !superh.contains("FP("), "{superh}");
    assert!(text("hyper-humant").contains("#include <math.h>"));
    let compared = play_identical(&mut pairs, 1000);
    assert!(compared > 1000 * 35, "{compared} moves compared");
    std::fs::remove_dir_all(&dir).ok();
}

/// A move of a game as an ant saw it: the ant (an index), whether it is
/// the ant's first move of the game, its view and the values its `gp:`
/// player gave the eight directions.
struct Seen {
    ant: usize,
    first: bool,
    view: View,
    values: [f64; 8],
}

/// The moves of `boards` games, board i between ants i and i + 1 (mod n) in
/// the roles of Ant 1 and Ant 2, each moving as its `gp:` player chooses;
/// a game's moves of Ant 1, then those of Ant 2.
fn gp_games(programs: &[Arc<AntProgram>], boards: u64) -> Vec<Seen> {
    let n = programs.len();
    let mut seen = Vec::new();
    for i in 0..boards {
        let mut board = AntWars::random_board(&mut stream(i, &[23, 10]));
        let ids = [i as usize % n, (i as usize + 1) % n];
        let mut memories = [AntMemory::new(), AntMemory::new()];
        let mut games: [Vec<Seen>; 2] = Default::default();
        while !board.is_over() {
            let role = usize::from(board.to_move());
            let view = board.view(board.to_move());
            memories[role].observe(&view);
            let values = programs[ids[role]].values(&mut AntSight::new(memories[role].clone(), view));
            games[role].push(Seen { ant: ids[role], first: games[role].is_empty(), view, values });
            board = board.step(best_direction(&values));
        }
        seen.extend(games.into_iter().flatten());
    }
    seen
}

/// `seen` as a harness reads it, a move a line: the ant, 1 on its first move
/// of a game, its row and column, and the 121 cells of the contest's grid.
fn harness_input(seen: &[Seen]) -> String {
    let mut text = String::new();
    for s in seen {
        text.push_str(&format!("{} {} {} {}", s.ant, u8::from(s.first), s.view.row(), s.view.col()));
        for cell in s.view.grid().as_flattened() {
            text.push_str(&format!(" {cell}"));
        }
        text.push('\n');
    }
    text
}

/// Runs harness `exe` on `input` (from a file: its output could fill a pipe
/// before its input is written) and checks each line, a move's direction
/// and eight values (hex bits), against the `gp:` player's.
fn check_harness(exe: &Path, input: &Path, seen: &[Seen], names: &[&str], what: &str) {
    let out = std::process::Command::new(exe)
        .stdin(std::fs::File::open(input).expect("the harness's input"))
        .output()
        .expect("run the harness");
    assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), seen.len(), "{what}: one line a move");
    for (k, (s, line)) in seen.iter().zip(&lines).enumerate() {
        let mut words = line.split_whitespace();
        let dir: u8 = words.next().and_then(|w| w.parse().ok()).expect("a direction");
        let got: Vec<f64> = words.map(|h| f64::from_bits(u64::from_str_radix(h, 16).expect("hex bits"))).collect();
        let name = names[s.ant];
        assert_eq!(got.len(), 8, "{what}, {name}, move {k}: {line}");
        for (d, (&g, &w)) in got.iter().zip(&s.values).enumerate() {
            assert!(
                g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                "{what}, {name}, move {k}, direction {d}: {g:e} ({:#x}), gp: {w:e} ({:#x})",
                g.to_bits(),
                w.to_bits()
            );
        }
        assert_eq!(dir, best_direction(&s.values), "{what}, {name}, move {k}");
    }
}

/// The humants and the hand-written ants of their primset, exported as C
/// and as Rust, give each of the eight directions the value their `gp:`
/// player gives it, bit for bit, at every move of 300 games (both roles):
/// each ant's file is compiled into a harness beside a function that makes
/// the move and then recomputes the eight values from the same state.
#[test]
fn exported_humants_compute_the_gp_values_bit_for_bit() {
    let dir = temp("humant-values");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ants = humant_ants();
    let names: Vec<&str> = ants.iter().map(|&(_, n)| n).collect();
    let programs: Vec<Arc<AntProgram>> = ants
        .iter()
        .map(|&(file, name)| {
            Arc::new(AntProgram::load(Path::new(file), name).unwrap_or_else(|e| panic!("{e}: {:?}", e.help)))
        })
        .collect();
    let seen = gp_games(&programs, 300);
    let input = dir.join("moves.txt");
    std::fs::write(&input, harness_input(&seen)).expect("write the moves");

    // C: each ant in a unit of its own, Move and Reset renamed.
    let mut main = String::from("#include <stdio.h>\n#include <string.h>\n");
    let mut units = vec![dir.join("main.c")];
    let mut cases = String::new();
    for (k, &(file, name)) in ants.iter().enumerate() {
        export(Path::new(file), name, "c", &dir.join(format!("{name}.c")));
        let wrapper = format!(
            "#define Move Move{k}\n#define Reset Reset{k}\n#include \"{name}.c\"\n\
             void Values{k}(int g[11][11],int r,int c,int reset,double*o,int*mv){{double t,p,t2,p2;int d;\
             if(reset)Reset();t=T;p=P;*mv=Move(g,r,c);t2=T;p2=P;T=t;P=p;\
             for(d=0;d<8;d++){{K=d/2;D=d&1;o[d]=D?Y():X();}}T=t2;P=p2;}}\n"
        );
        std::fs::write(dir.join(format!("w{k}.c")), wrapper).expect("write a wrapper");
        units.push(dir.join(format!("w{k}.c")));
        main.push_str(&format!("void Values{k}(int g[11][11],int r,int c,int reset,double*o,int*mv);\n"));
        cases.push_str(&format!("case {k}:Values{k}(g,r,c,f,o,&mv);break;\n"));
    }
    main.push_str("int main(void){int g[11][11],k,f,r,c,i,mv=0;double o[8];unsigned long long b;\n");
    main.push_str(
        "while(scanf(\"%d %d %d %d\",&k,&f,&r,&c)==4){for(i=0;i<121;i++)if(scanf(\"%d\",&g[i/11][i%11])!=1)return 1;\n",
    );
    main.push_str(&format!("switch(k){{\n{cases}default:return 2;}}\n"));
    main.push_str(
        "printf(\"%d\",mv);for(i=0;i<8;i++){memcpy(&b,&o[i],8);printf(\" %llx\",b);}printf(\"\\n\");}return 0;}\n",
    );
    std::fs::write(dir.join("main.c"), &main).expect("write main");
    let exe = dir.join("values-c");
    common::cc_program(&exe, &units);
    check_harness(&exe, &input, &seen, &names, "C");

    // Rust: each ant in a module of its own.
    let mut main = String::from("use std::io::{BufRead, Write};\n");
    let mut cases = String::new();
    let mut states = String::new();
    for (k, &(file, name)) in ants.iter().enumerate() {
        export(Path::new(file), name, "rust", &dir.join(format!("{name}.rs")));
        main.push_str(&format!(
            "mod a{k} {{\n    include!(\"{name}.rs\");\n\
             pub fn values(ant: &mut Ant, g: &[[i32; 11]; 11], r: usize, c: usize) -> (u8, [f64; 8]) {{\n\
             let (t, p) = (ant.t, ant.p);\n    let mv = ant.choose(g, r, c);\n    let (t2, p2) = (ant.t, ant.p);\n\
             (ant.t, ant.p) = (t, p);\n    let mut o = [0.0; 8];\n\
             for (d, o) in o.iter_mut().enumerate() {{\n        (ant.k, ant.d) = (d as i32 / 2, d as i32 & 1);\n\
             *o = if ant.d == 1 {{ ant.diagonal() }} else {{ ant.straight() }};\n    }}\n\
             (ant.t, ant.p) = (t2, p2);\n    (mv, o)\n}}\n}}\n"
        ));
        states.push_str(&format!("    let mut s{k} = a{k}::Ant::new();\n"));
        cases.push_str(&format!(
            "            {k} => {{\n                if n[1] == 1 {{\n                    s{k}.reset();\n                }}\n\
                             a{k}::values(&mut s{k}, &g, r, c)\n            }}\n"
        ));
    }
    main.push_str("fn main() {\n");
    main.push_str(&states);
    main.push_str(
        "    let mut out = std::io::BufWriter::new(std::io::stdout());\n    \
         for line in std::io::stdin().lock().lines() {\n        \
         let n: Vec<i64> = line.unwrap().split_whitespace().map(|x| x.parse().unwrap()).collect();\n        \
         let mut g = [[0i32; 11]; 11];\n        \
         for i in 0..121 {\n            g[i / 11][i % 11] = n[4 + i] as i32;\n        }\n        \
         let (r, c) = (n[2] as usize, n[3] as usize);\n        \
         let (mv, o) = match n[0] {\n",
    );
    main.push_str(&cases);
    main.push_str(
        "            _ => std::process::exit(2),\n        };\n        \
         write!(out, \"{mv}\").unwrap();\n        \
         for v in o {\n            write!(out, \" {:x}\", v.to_bits()).unwrap();\n        }\n        \
         writeln!(out).unwrap();\n    }\n}\n",
    );
    std::fs::write(dir.join("main.rs"), &main).expect("write main");
    let exe = dir.join("values-rust");
    let out = std::process::Command::new("rustc")
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&exe)
        .arg(dir.join("main.rs"))
        .output()
        .expect("run rustc");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    check_harness(&exe, &input, &seen, &names, "Rust");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn exported_rust_compiles() {
    let dir = temp("rust-ants");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ps = antwars();
    let (file, names) = random_ants(&dir, &ps);
    let mut ants = vec![(Path::new(FORAGER), "forager"), (file.as_path(), names[0].as_str())];
    ants.extend(humant_ants().into_iter().map(|(f, n)| (Path::new(f), n)));
    for (file, name) in ants {
        let rs = dir.join(format!("{name}.rs"));
        export(file, name, "rust", &rs);
        let out = std::process::Command::new("rustc")
            .args(["--edition", "2021", "--crate-type", "lib", "-D", "warnings", "--out-dir"])
            .arg(&dir)
            .arg(&rs)
            .output()
            .expect("run rustc");
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn exported_sexp_rereads_and_plays_the_same() {
    let dir = temp("sexp");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ps = antwars();
    let (file, names) = random_ants(&dir, &ps);
    for (file, name) in [(Path::new(FORAGER), "forager"), (file.as_path(), names[1].as_str())] {
        let out = dir.join(format!("{name}.sg"));
        export(file, name, "sexp", &out);
        let (code, _, stderr) = stratagem(&["check", &out.display().to_string()]);
        assert_eq!(code, 0, "{stderr}");
        let original = Arc::new(AntProgram::load(file, name).expect("original"));
        let exported = Arc::new(AntProgram::load(&out, name).expect("exported"));
        for i in 0..50u64 {
            let mut board = AntWars::random_board(&mut stream(i, &[23, 9]));
            let mut a = [GpAnt::new(original.clone()), GpAnt::new(original.clone())];
            let mut b = [GpAnt::new(exported.clone()), GpAnt::new(exported.clone())];
            while !board.is_over() {
                let role = usize::from(board.to_move());
                let view = board.view(board.to_move());
                let (x, y) = (a[role].choose(&view), b[role].choose(&view));
                assert_eq!(x, y, "{name}, board {i}, ply {}", board.ply());
                board = board.step(x);
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Feature vectors rich in the values where semantics differ: ±0, ±∞,
/// NaN, tiny and huge values, the pdiv threshold.
fn special_rows(n: usize) -> Vec<Vec<f64>> {
    let specials = [0.0, -0.0, 1.0, -1.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e-10, -1e-9, 1e300, 0.5, 3.0];
    common::rows_with_specials(n, &specials, 3, 5, &[8])
}

#[test]
fn exported_c_functions_compute_the_interpreters_bits() {
    let dir = temp("c-functions");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ps = stratagem::lang::library::load_primset("arith").expect("arith");
    let builder = Builder::new(&ps, &[TypeId::F]).expect("a builder");
    let mut text = String::from("(import arith)\n");
    let mut trees = Vec::new();
    for seed in 0..30u64 {
        let t = builder.tree(&mut stream(seed, &[8, 1]), TypeId::F, Method::Grow, 2 + seed as usize % 7);
        text.push_str(&format!("(individual p{seed} (primset arith) (tree eval {}))\n", t.to_sexp(&ps, &[])));
        trees.push(t);
    }
    let file = dir.join("progs.sg");
    std::fs::write(&file, text).expect("write");
    let rows = special_rows(300);
    let mut main = String::from("#include <stdio.h>\n#include <string.h>\n");
    let mut units = vec![dir.join("main.c")];
    for seed in 0..trees.len() {
        let c = dir.join(format!("p{seed}.c"));
        export(&file, &format!("p{seed}"), "c", &c);
        main.push_str(&format!("double p{seed}_eval(const double *f);\n"));
        units.push(c);
    }
    main.push_str("int main(void){double f[10];unsigned long long b;double v;int i;\n");
    main.push_str("while(1){for(i=0;i<10;i++){if(scanf(\"%llx\",&b)!=1)return 0;memcpy(&f[i],&b,8);}\n");
    for seed in 0..trees.len() {
        main.push_str(&format!("v=p{seed}_eval(f);memcpy(&b,&v,8);printf(\"%llx \",b);\n"));
    }
    main.push_str("printf(\"\\n\");}}\n");
    // Each export is a translation unit of its own (its helpers are static).
    let exe = dir.join("eval");
    std::fs::write(dir.join("main.c"), &main).expect("write main");
    let out = std::process::Command::new("cc").args(["-O2", "-o"]).arg(&exe).args(&units).output().expect("run cc");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let input: String =
        rows.iter().map(|r| r.iter().map(|x| format!("{:x} ", x.to_bits())).collect::<String>() + "\n").collect();
    let mut child = std::process::Command::new(&exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run the harness");
    use std::io::Write;
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("feed");
    let output = child.wait_with_output().expect("wait");
    let lines: Vec<String> = String::from_utf8_lossy(&output.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), rows.len());
    for (row, line) in rows.iter().zip(&lines) {
        let bits: Vec<u64> = row.iter().map(|x| x.to_bits()).collect();
        let got: Vec<u64> = line.split_whitespace().map(|h| u64::from_str_radix(h, 16).expect("hex")).collect();
        for (k, t) in trees.iter().enumerate() {
            let want = Interp::new(&ps, &mut Slots(&bits)).eval_tree(t);
            let Value::F(want) = want else { panic!("an F tree") };
            let got = f64::from_bits(got[k]);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "p{k} on {row:?}: C {got}, interpreter {want}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_requests_are_diagnosed() {
    let (code, _, stderr) = stratagem(&["export", FORAGER, "--individual", "forger", "--format", "c"]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("did you mean `forager`?"), "{stderr}");
    assert!(stderr.contains("stratagem::export::unknown"), "{stderr}");
    let (code, _, stderr) = stratagem(&["export", FORAGER, "--individual", "zzzzzz", "--format", "c"]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("defines no individual, policy, weights or network `zzzzzz`"), "{stderr}");
    assert!(flat(&stderr).contains("it defines: forager"), "{stderr}");
    let (code, stdout, stderr) = stratagem(&["export", FORAGER, "--individual", "forager", "--format", "java"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(stderr.contains("stratagem::export::format"), "{stderr}");
    assert!(flat(&stderr).contains("unknown export format `java`"), "{stderr}");
    assert!(flat(&stderr).contains("the formats are sexp (simplified S-expressions), c and rust"), "{stderr}");
    let (code, _, stderr) = stratagem(&["export", FORAGER, "--individual", "forager", "--format", "C"]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("did you mean `c`?"), "{stderr}");
    let (code, _, stderr) = stratagem(&["export", "no/such.sg", "--individual", "x", "--format", "sexp"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("stratagem::io"), "{stderr}");
    assert!(flat(&stderr).contains("cannot read `no/such.sg`"), "{stderr}");
    let dir = temp("errors");
    std::fs::create_dir_all(&dir).expect("temp dir");
    // Natives outside Ant Wars are the game's code: not exported.
    let file = dir.join("checkers.sg");
    std::fs::write(
        &file,
        "(import lose-checkers)\n(individual k (primset lose-checkers) (tree eval (IFT (IsEmptySquare 1 2) 1.0 0.0)))\n",
    )
    .expect("write");
    let (code, _, stderr) = stratagem(&["export", &file.display().to_string(), "--individual", "k", "--format", "c"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(flat(&stderr).contains("the native `IsEmptySquare`"), "{stderr}");
    // ... but its S-expressions are.
    let (code, stdout, stderr) =
        stratagem(&["export", &file.display().to_string(), "--individual", "k", "--format", "sexp"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("(import lose-checkers)"), "{stdout}");
    // An ant without its diagonal tree.
    let file = dir.join("one.sg");
    std::fs::write(&file, "(import antwars)\n(individual one (primset antwars) (tree straight 1.0))\n").expect("write");
    let (code, _, stderr) = stratagem(&["export", &file.display().to_string(), "--individual", "one", "--format", "c"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(flat(&stderr).contains("has no `diagonal` tree"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
