//! Programs as C or Rust functions over the feature values: one function
//! per tree, `double NAME_TREE(const double *f)` (Rust: `pub fn
//! name_tree(f: &[f64]) -> f64`), for a policy `NAME(f)` (the first rule
//! whose condition holds, else the default) and for a weight vector
//! `NAME(f)` (Σ weight × feature from 0.0, in the order written), and for a
//! network `NAME(f)` (its nodes in the plan's order, each
//! `activation(((bias + w1 × v1) + w2 × v2) + ...)`, with the activations of
//! [`crate::codegen::activation`]). `f` holds the primset's feature slots in
//! slot order, each as a double: an I feature is converted to an integer
//! (exact up to 2^53), a B feature is true when nonzero. An I result is
//! returned converted to double, a B result as 1.0 or 0.0. Natives cannot be
//! exported: they are the game's code (a game that writes its natives out
//! exports whole players instead, through the registry: see `super`).

use crate::codegen::expr::{Emitter, Lang, Leaves, identifier};
use crate::lang::activation::Activation;
use crate::lang::{Base, Network, Node, PrimKind, PrimSet, Primitive, Tree, TypeId};

struct SlotLeaves {
    lang: Lang,
}

impl Leaves for SlotLeaves {
    fn feature(&mut self, _prim: &Primitive, slot: u32, base: Base) -> Result<String, String> {
        let c = self.lang == Lang::C;
        Ok(match base {
            Base::F => format!("f[{slot}]"),
            Base::I if c => format!("((long long)f[{slot}])"),
            Base::I => format!("(f[{slot}] as i64)"),
            Base::B if c => format!("(f[{slot}]!=0.0)"),
            Base::B => format!("(f[{slot}] != 0.0)"),
        })
    }

    fn native(&mut self, prim: &Primitive, _args: &[&[Node]], _exprs: &[String]) -> Result<String, String> {
        Err(format!("the native `{}`", prim.name))
    }
}

/// One exported function: its name, its body's expression and the base of
/// its result.
pub enum Body<'a> {
    Tree(&'a Tree, TypeId),
    /// Rules (condition, value) and the default.
    Policy(Vec<(&'a Tree, &'a Tree)>, &'a Tree),
    /// (feature slot, weight) in the order written.
    Weights(Vec<(u32, f64)>),
    Network(&'a Network),
}

/// A network as statements: one local per node of its plan, then the output.
fn network_body(lang: Lang, net: &Network, used: &mut Vec<Activation>) -> String {
    let c = lang == Lang::C;
    let plan = net.plan();
    let mut s = String::new();
    if c && !plan.steps.is_empty() {
        let locals: Vec<String> = plan.steps.iter().map(|st| format!("v{}", st.node)).collect();
        s.push_str(&format!("double {};", locals.join(",")));
    }
    for step in &plan.steps {
        let mut sum = crate::codegen::expr::constant(lang, crate::lang::Value::F(step.bias));
        for &(from, w) in &step.incoming {
            let w = crate::codegen::expr::constant(lang, crate::lang::Value::F(w));
            let v = match plan.input_slots.get(from) {
                Some(slot) => format!("f[{slot}]"),
                None => format!("v{from}"),
            };
            // `+` is left-associative in C and Rust: `b+w1*v1+w2*v2` is ((b + w1 v1) + w2 v2).
            sum = format!("{sum}+{w}*{v}");
        }
        let value = match crate::codegen::activation::function(step.activation) {
            Some(f) => {
                if !used.contains(&step.activation) {
                    used.push(step.activation);
                }
                format!("{f}({sum})")
            }
            None => sum,
        };
        s.push_str(&if c {
            format!("v{}={value};", step.node)
        } else {
            format!("    let v{} = {value};\n", step.node)
        });
    }
    s
}

/// The file of functions `funcs` (name, body) over `ps`'s feature slots;
/// the problems (natives) when some cannot be exported.
pub fn to_source(ps: &PrimSet, lang: Lang, what: &str, funcs: &[(String, Body)]) -> Result<String, Vec<String>> {
    let mut e = Emitter::new(ps, lang, SlotLeaves { lang });
    let c = lang == Lang::C;
    let mut defs = String::new();
    let mut activations = Vec::new();
    for (name, body) in funcs {
        if let Body::Network(net) = body {
            let body = network_body(lang, net, &mut activations);
            let out = format!("v{}", net.plan().output);
            let name = identifier(name);
            defs.push_str(&if c {
                format!("double {name}(const double *f){{{body}return {out};}}\n")
            } else {
                format!("#[allow(unused_parens, unused_variables)]\npub fn {name}(f: &[f64]) -> f64 {{\n{body}    {out}\n}}\n")
            });
            continue;
        }
        let (expr, base) = match body {
            Body::Tree(t, ty) => (e.tree(t), ps.base(*ty)),
            Body::Policy(rules, default) => {
                let mut expr = e.tree(default);
                for (cond, value) in rules.iter().rev() {
                    let (cond, value) = (e.tree(cond), e.tree(value));
                    expr = if c {
                        format!("({cond}?{value}:{expr})")
                    } else {
                        format!("(if {cond} {{ {value} }} else {{ {expr} }})")
                    };
                }
                (expr, Base::F)
            }
            Body::Weights(terms) => {
                let mut expr = crate::codegen::expr::constant(lang, crate::lang::Value::F(0.0));
                for &(slot, w) in terms {
                    let w = crate::codegen::expr::constant(lang, crate::lang::Value::F(w));
                    expr = format!("({expr}+{w}*f[{slot}])");
                }
                (expr, Base::F)
            }
            Body::Network(_) => continue,
        };
        let ret = match (base, c) {
            (Base::F, _) => expr,
            (Base::I, true) => format!("(double)({expr})"),
            (Base::I, false) => format!("({expr}) as f64"),
            (Base::B, true) => format!("({expr})?1.0:0.0"),
            (Base::B, false) => format!("if {expr} {{ 1.0 }} else {{ 0.0 }}"),
        };
        let name = identifier(name);
        defs.push_str(&if c {
            format!("double {name}(const double *f){{return {ret};}}\n")
        } else {
            format!("pub fn {name}(f: &[f64]) -> f64 {{\n    {ret}\n}}\n")
        });
    }
    if !e.problems.is_empty() {
        return Err(e.problems.into_iter().collect());
    }
    let comment = if c { " *" } else { "//" };
    let mut s = if c { "/*".to_owned() } else { "//".to_owned() };
    s.push_str(&format!(
        " {what} exported by Stratagem {} (primset {}). f[i] is feature slot i \
         (I: converted to an integer; B: true when nonzero); I results are returned \
         as doubles, B results as 1.0 or 0.0.\n",
        env!("CARGO_PKG_VERSION"),
        ps.name
    ));
    for (slot, name) in ps.features.iter().enumerate() {
        let base = feature_base(ps, slot as u32).map_or("?", base_name);
        s.push_str(&format!("{comment}   f[{slot}] {name} ({base})\n"));
    }
    s.push_str(if c { " */\n" } else { "\n" });
    if c {
        s.push_str(crate::codegen::expr::C_NO_CONTRACTION);
    }
    let exp = activations.iter().any(|a| matches!(a, Activation::Sigmoid | Activation::Tanh));
    if c && (e.helpers.contains(&crate::codegen::expr::Helper::AbsF) || exp) {
        s.push_str("#include <math.h>\n");
    }
    s.push_str(&e.helper_defs());
    s.push_str(&crate::codegen::activation::definitions(lang, &activations));
    s.push_str(&defs);
    Ok(s)
}

fn base_name(b: Base) -> &'static str {
    match b {
        Base::F => "F",
        Base::I => "I",
        Base::B => "B",
    }
}

/// The base of feature slot `slot`'s type.
fn feature_base(ps: &PrimSet, slot: u32) -> Option<Base> {
    ps.prims.iter().find(|p| matches!(p.kind, PrimKind::Feature(s) if s == slot)).map(|p| ps.base(p.ret))
}
