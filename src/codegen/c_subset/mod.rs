//! C from a subset of Rust, so that code a game needs in its exported
//! players is written once, as Rust the crate compiles and runs, and the
//! C is generated from it (the Ant Wars humants' planner:
//! `src/games/antwars/planning.rs`).
//!
//! The subset: consts of numbers (or arrays of integers), one trait of the
//! host's [`Host`] methods (the *senses*: what the code reads of the world,
//! which the C host writes its own way), structs of numbers and arrays, and
//! functions generic over the senses, taking numbers, references to structs
//! and arrays, and function pointers. Every `let` has its type; loops are
//! `for` over a range or over cells the senses yield; values are `if`s,
//! arithmetic, comparisons, casts, calls and the float methods `max`, `min`,
//! `powi`, `powf`, `ln` and `is_nan`, each translated to a C computation of
//! the same bits (`powi` as compiler-rt's `__powidf2`, which Rust's calls;
//! `max` and `min` ignoring NaN as Rust's do). Anything else is refused with
//! what it was, which the tests of the code's owner see.
//!
//! The C is ANSI C (declarations first, no `//`), compact (the Ant Wars
//! contest limits a player to 5,000 bytes): names are shortened (functions
//! and structs to their initials, variables and fields to letters), consts
//! folded into literals, each function on one line. The Rust of the same
//! items is their text as written ([`Subset::rust`]). The items live in
//! `items.rs`, the translation of a function in `function.rs`.

mod function;
mod items;

pub use function::{Host, HostCall};
pub use items::{Closure, Known, Subset};

use function::{FnTranslator, Helpers};
use items::item_name;
use syn::Item;

/// The C of a closure, and what it needs from the C library.
#[derive(Debug)]
pub struct CText {
    pub text: String,
    /// Whether it calls `pow` or `log` (<math.h>).
    pub math: bool,
}

/// The C of a closure's structs and functions, in the file's order.
pub fn to_c(subset: &Subset, closure: &Closure, host: &dyn Host) -> Result<CText, String> {
    let mut helpers = Helpers::default();
    let mut body = String::new();
    for item in subset.items() {
        let Some(name) = item_name(item).filter(|n| closure.items.contains(n)) else { continue };
        match item {
            Item::Struct(_) => body.push_str(&subset.c_struct(&name)?),
            Item::Fn(f) => {
                let mut t = FnTranslator::new(subset, host, &mut helpers);
                body.push_str(&t.function(f)?);
            }
            _ => {}
        }
    }
    let mut text = String::new();
    if helpers.powi {
        // compiler-rt's __powidf2, which Rust's powi calls.
        text.push_str(
            "static double Pw(double a,int n){double r=1.0;int m=n<0;for(;;){if(n&1)r*=a;n/=2;if(!n)break;a*=a;}\
             return m?1.0/r:r;}\n",
        );
    }
    if helpers.max {
        text.push_str("static double Mx(double a,double b){return a!=a||b>a?b:a;}\n");
    }
    if helpers.min {
        text.push_str("static double Mn(double a,double b){return a!=a||b<a?b:a;}\n");
    }
    text.push_str(&body);
    Ok(CText { text, math: helpers.math })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Senses of one method and one kind of cells.
    struct Grid;

    impl Host for Grid {
        fn method(&self, name: &str, args: &[String]) -> Option<HostCall> {
            match (name, args) {
                ("at", [c]) => Some(HostCall::Text(format!("W[{c}]"))),
                ("twice", [_]) => Some(HostCall::Item("double_it")),
                _ => None,
            }
        }

        fn cells(&self, name: &str, var: &str, _: &[String]) -> Option<String> {
            (name == "full").then(|| format!("for({var}=0;{var}<9;{var}++)if(W[{var}])"))
        }
    }

    const CODE: &str = r#"
use super::LIMIT;

/// The fall of a step.
pub const FALL: f64 = 0.5;

pub trait Look {
    fn at(&self, cell: usize) -> f64;
    fn twice(&self, x: u32) -> u32;
    fn full(&self) -> impl Iterator<Item = usize> + '_;
}

/// Doubles.
pub fn double_it(x: u32) -> u32 {
    x * 2
}

pub struct Pair {
    sum: f64,
    seen: [u32; LIMIT],
}

fn bit<L: Look>(look: &L, set: u32, i: u32) -> bool {
    (set >> i) & 1 == 1 && look.twice(i) > 0
}

pub fn total<L: Look>(look: &L, k: f64) -> f64 {
    let mut pair: Pair = Pair { sum: 0.0, seen: [0; LIMIT] };
    for c in look.full() {
        if bit(look, 5, c as u32) {
            pair.sum += look.at(c) * FALL - -k;
        } else if c > 3 {
            pair.seen[0] = c as u32;
        }
    }
    let m: f64 = pair.sum.max(k.min(1.0));
    if m.is_nan() { 0.0 } else { m * LIMIT as f64 }
}
"#;

    const EXTERNS: [(&str, &str, Known); 1] = [("LIMIT", "usize", Known::Int(4))];

    fn c_of(roots: &[&str]) -> CText {
        let subset = Subset::parse(CODE, &EXTERNS, &["W"]).expect("parses");
        let closure = subset.closure(roots, &|m| (m == "twice").then_some("double_it"));
        to_c(&subset, &closure, &Grid).expect("translates")
    }

    #[test]
    fn c_keeps_rusts_precedence_and_folds_consts() {
        let c = c_of(&["total"]).text;
        // `==` binds looser than `&` in Rust, tighter in C.
        assert!(c.contains("return (a>>b&1)==1&&DI(b)>0;"), "{c}");
        assert!(c.contains("b.a+=W[c]*0.5- -a;"), "{c}");
        assert!(c.contains("struct P{double a;int b[4];};") && c.contains("struct P b={0};"), "{c}");
        assert!(c.contains("for(c=0;c<9;c++)if(W[c]){if(Bi(5,c))"), "{c}");
        assert!(c.contains("else if(c>3)b.b[0]=c;"), "{c}");
        assert!(c.contains("d=Mx(b.a,Mn(a,1.0));return d!=d?0.0:d*4.0;"), "{c}");
        // Items in the file's order, each after what it calls.
        let (d, b, t) = (
            c.find("static int DI(").unwrap(),
            c.find("static int Bi(").unwrap(),
            c.find("static double To(").unwrap(),
        );
        assert!(d < b && b < t, "{c}");
        assert!(!c_of(&["double_it"]).text.contains("Mx("), "helpers only when called");
    }

    #[test]
    fn rust_is_the_items_as_written_with_the_imported_consts() {
        let subset = Subset::parse(CODE, &EXTERNS, &[]).expect("parses");
        let closure = subset.closure(&["total"], &|m| (m == "twice").then_some("double_it"));
        let rust = subset.rust(&closure);
        assert!(
            rust.starts_with("const LIMIT: usize = 4;\n\n/// The fall of a step.\npub const FALL: f64 = 0.5;\n"),
            "{rust}"
        );
        assert!(rust.contains("/// Doubles.\npub fn double_it(x: u32) -> u32 {\n    x * 2\n}\n"), "{rust}");
        assert!(rust.contains("pub trait Look {") && !rust.contains("use super"), "{rust}");
    }

    #[test]
    fn code_outside_the_subset_is_refused_with_where() {
        for (code, why) in [
            ("fn f(x: f64) -> f64 { let g = x; g }", "without its type"),
            ("fn f(x: f64) -> f64 { let v: Vec<f64> = vec![x]; x }", "outside the subset"),
            ("fn f(x: f64) -> f64 { x.sqrt() }", "a method outside the subset"),
            ("fn f(x: u32) -> u32 { let mut s: u32 = 0; for i in 0..=x { s += i; } s }", "an inclusive range"),
            ("fn f(x: f64) -> f64 { let a: [f64; 2] = [1.0; 2]; a[0] * x }", "other than zeros"),
        ] {
            let subset = Subset::parse(code, &[], &[]).expect("parses");
            let closure = subset.closure(&["f"], &|_| None);
            let err = to_c(&subset, &closure, &Grid).map(|c| c.text).expect_err(code);
            assert!(err.contains(why) && err.contains("line 1"), "{code}: {err}");
        }
        assert!(Subset::parse("fn (", &[], &[]).is_err());
    }
}
