//! Simplification of evolved trees into readable champions, without changing
//! what they compute (bit for bit, as the interpreter defines it).
//!
//! - Constant folding: a call whose arguments are all constants (and that reads
//!   no feature and calls no native) is replaced by its value, computed by the
//!   interpreter itself, when that value can be written in the primset (a
//!   finite literal the primset admits, or a zero-argument definition with
//!   exactly that value, such as `One` or `True`).
//! - Dead branches: `(if true a b)` is `a`, `(if c a a)` is `a`, `(and false x)`
//!   is `false`, `(nand x false)` is `true`, and so on.
//! - Idempotence and absorption: `(and x x)` and `(or x x)` are `x`, and so are
//!   `(and x (or y x))` and `(or x (and x y))`, through nested `or`s and `and`s.
//! - Introns: `(first a b)` (the paper's NullFuncJ) is `a`.
//!
//! - Policies: each condition, value and the default are simplified; a rule
//!   whose condition is constantly false is dropped, and one whose condition is
//!   constantly true becomes the default (the rules after it never fire); a
//!   rule with the condition of an earlier rule never fires and is dropped;
//!   a last rule whose value is the default is dropped (the default gives it).
//!
//! All primitives are pure and total, so dropping an argument never changes a result.

use crate::eval::interp::{Context, Interp};
use crate::lang::builtin::Builtin;
use crate::lang::{Node, PrimId, PrimKind, PrimSet, Tree, TypeId, Value};

use super::policy_ops::RuleList;
use super::shape::node_shapes;
use crate::lang::Rule;

/// A simplified copy of `tree` (whose root has type `root`).
pub fn simplify(ps: &PrimSet, tree: &Tree, root: TypeId) -> Tree {
    let types: Vec<TypeId> = node_shapes(ps, tree, root).into_iter().map(|(t, _)| t).collect();
    let mut idx = 0;
    let nodes = Simplifier { ps, tree, types: &types }.node(&mut idx);
    Tree { nodes, spans: Vec::new() }
}

/// A simplified copy of policy `p`: the same value on every position.
pub fn simplify_policy(ps: &PrimSet, p: &RuleList) -> RuleList {
    let mut rules = Vec::new();
    let mut default = simplify(ps, &p.default, TypeId::F);
    for rule in &p.rules {
        let condition = simplify(ps, &rule.condition, TypeId::B);
        let constant = (condition.features_used(ps).is_empty() && !condition.uses_natives(ps))
            .then(|| Interp::new(ps, &mut NoFeatures).eval_tree(&condition).as_bool());
        match constant {
            Some(false) => {}
            Some(true) => {
                default = simplify(ps, &rule.value, TypeId::F);
                break;
            }
            // An earlier rule with this condition fires whenever this one would.
            None if rules.iter().any(|r: &Rule| r.condition.nodes == condition.nodes) => {}
            None => rules.push(Rule { condition, value: simplify(ps, &rule.value, TypeId::F) }),
        }
    }
    while rules.last().is_some_and(|r| r.value.nodes == default.nodes) {
        rules.pop();
    }
    RuleList { rules, default }
}

struct Simplifier<'a> {
    ps: &'a PrimSet,
    tree: &'a Tree,
    types: &'a [TypeId],
}

/// A context with no features: folding only evaluates constant calls.
struct NoFeatures;

impl Context for NoFeatures {
    fn feature(&self, _slot: u32) -> u64 {
        0
    }

    fn native(&mut self, _native: u32, _args: &[Value]) -> Value {
        Value::F(f64::NAN)
    }
}

impl Simplifier<'_> {
    fn node(&self, idx: &mut usize) -> Vec<Node> {
        let at = *idx;
        let node = self.tree.nodes[at];
        *idx += 1;
        let Node::Prim(id) = node else { return vec![node] };
        let prim = self.ps.prim(id);
        let args: Vec<Vec<Node>> = (0..prim.arity()).map(|_| self.node(idx)).collect();
        if let PrimKind::Builtin(op) = prim.kind
            && let Some(short) = self.shortcut(op, &args, self.types[at])
        {
            return short;
        }
        let mut call = vec![node];
        call.extend(args.iter().flatten().copied());
        if !args.is_empty() && args.iter().all(|a| self.const_value(a).is_some()) && self.foldable(id) {
            let value =
                Interp::new(self.ps, &mut NoFeatures).eval_tree(&Tree { nodes: call.clone(), spans: Vec::new() });
            if let Some(written) = self.written(value, self.types[at]) {
                return written;
            }
        }
        call
    }

    /// Dead branches and introns of lazy builtins.
    fn shortcut(&self, op: Builtin, args: &[Vec<Node>], ty: TypeId) -> Option<Vec<Node>> {
        let a = args.first().and_then(|a| self.const_bool(a));
        let b = args.get(1).and_then(|b| self.const_bool(b));
        match op {
            Builtin::If => match a {
                Some(true) => Some(args[1].clone()),
                Some(false) => Some(args[2].clone()),
                None if args[1] == args[2] => Some(args[1].clone()),
                None => None,
            },
            Builtin::First => Some(args[0].clone()),
            Builtin::NotFirst => a.and_then(|a| self.written(Value::B(!a), ty)),
            Builtin::And => match (a, b) {
                (Some(true), _) => Some(args[1].clone()),
                (_, Some(true)) => Some(args[0].clone()),
                (Some(false), _) | (_, Some(false)) => self.written(Value::B(false), ty),
                _ => self.absorbed(Builtin::Or, &args[0], &args[1]),
            },
            Builtin::Or => match (a, b) {
                (Some(false), _) => Some(args[1].clone()),
                (_, Some(false)) => Some(args[0].clone()),
                (Some(true), _) | (_, Some(true)) => self.written(Value::B(true), ty),
                _ => self.absorbed(Builtin::And, &args[0], &args[1]),
            },
            Builtin::Nand => match (a, b) {
                (Some(false), _) | (_, Some(false)) => self.written(Value::B(true), ty),
                _ => None,
            },
            Builtin::Nor => match (a, b) {
                (Some(true), _) | (_, Some(true)) => self.written(Value::B(false), ty),
                _ => None,
            },
            _ => None,
        }
    }

    /// `(and x y)` (with `inner` = or) or `(or x y)` (with `inner` = and) is
    /// `x` when `y` is `x` or an `inner` of operands one of which is `x`, and
    /// symmetrically.
    fn absorbed(&self, inner: Builtin, x: &[Node], y: &[Node]) -> Option<Vec<Node>> {
        if x == y || self.operands(inner, y).contains(&x) {
            Some(x.to_vec())
        } else if self.operands(inner, x).contains(&y) {
            Some(y.to_vec())
        } else {
            None
        }
    }

    /// The operands of a chain of `op`s (`(or a (or b c))` gives a, b and c;
    /// anything else is its own only operand).
    fn operands<'n>(&self, op: Builtin, nodes: &'n [Node]) -> Vec<&'n [Node]> {
        match nodes.first() {
            Some(&Node::Prim(id)) if matches!(self.ps.prim(id).kind, PrimKind::Builtin(o) if o == op) => {
                let left = Tree::subtree_len(self.ps, &nodes[1..]);
                let mut all = self.operands(op, &nodes[1..1 + left]);
                all.extend(self.operands(op, &nodes[1 + left..]));
                all
            }
            _ => vec![nodes],
        }
    }

    /// The value of a subtree that is a constant: a literal, or a zero-argument
    /// definition whose body is a literal (`True`, `One`).
    fn const_value(&self, nodes: &[Node]) -> Option<Value> {
        match nodes {
            [Node::Const(v)] => Some(*v),
            [Node::Prim(id)] => match &self.ps.prim(*id).kind {
                PrimKind::Derived(d) if d.params.is_empty() => match d.body.nodes.as_slice() {
                    [Node::Const(v)] => Some(*v),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    fn const_bool(&self, nodes: &[Node]) -> Option<bool> {
        match self.const_value(nodes) {
            Some(Value::B(b)) => Some(b),
            _ => None,
        }
    }

    /// Whether a call of `id` on constants can be evaluated now.
    fn foldable(&self, id: PrimId) -> bool {
        match &self.ps.prim(id).kind {
            PrimKind::Builtin(_) => true,
            PrimKind::Derived(d) => d.body.features_used(self.ps).is_empty() && !d.body.uses_natives(self.ps),
            PrimKind::Feature(_) | PrimKind::Native(_) => false,
        }
    }

    /// How `value` of type `ty` can be written in the primset, if at all.
    fn written(&self, value: Value, ty: TypeId) -> Option<Vec<Node>> {
        let finite = !matches!(value, Value::F(x) if !x.is_finite());
        if finite && self.ps.literal_allowed(ty, value) {
            return Some(vec![Node::Const(value)]);
        }
        // A zero-argument definition whose body is exactly this constant.
        self.ps.prims.iter().enumerate().find_map(|(i, p)| match &p.kind {
            PrimKind::Derived(d) if p.arity() == 0 && p.ret == ty && d.body.nodes == [Node::Const(value)] => {
                Some(vec![Node::Prim(PrimId(i as u32))])
            }
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::interp::Slots;
    use crate::evolve::init::{Builder, Method};
    use crate::lang::Loader;
    use crate::rng::stream;
    use rand::RngExt;

    const PS: &str = "(primset s (terminal a F) (terminal b F) (terminal flag B)
        (function + (F F) F (builtin add)) (function * (F F) F (builtin mul)) (function pdiv (F F) F (builtin pdiv))
        (function if (B F F) F (builtin if)) (function <= (F F) B (builtin le))
        (function and (B B) B (builtin and)) (function or (B B) B (builtin or)) (function not (B) B (builtin not))
        (function nand (B B) B (builtin nand)) (function nor (B B) B (builtin nor))
        (function NullFuncJ (F F) F (builtin first)) (function NOTG (B B) B (builtin not-first))
        (erc k F (uniform -2.0 2.0)) (erc bools B (choice true false)) (literals F)
        (define One F 1.0) (define True B true))";

    fn load(extra: &str) -> Loader {
        let mut loader = Loader::new();
        loader.load_text("s.sg", &format!("{PS}\n{extra}"));
        assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
        loader
    }

    fn simplified(expr: &str) -> String {
        let loader = load(&format!("(individual x (primset s) (tree eval {expr}))"));
        let m = &loader.module;
        let ps = m.primset(m.individuals[0].primset);
        simplify(ps, &m.individuals[0].trees[0].tree, TypeId::F).to_sexp(ps, &[]).to_string()
    }

    #[test]
    fn folds_constants_dead_branches_and_introns() {
        assert_eq!(simplified("(+ 1.5 (* 2.0 0.25))"), "2.0");
        assert_eq!(simplified("(if (<= 1.0 2.0) a b)"), "a");
        assert_eq!(simplified("(if flag (+ a 1.0) (+ a 1.0))"), "(+ a 1.0)");
        assert_eq!(simplified("(NullFuncJ a (pdiv b 0.0))"), "a");
        assert_eq!(simplified("(if (and flag false) a b)"), "b");
        assert_eq!(simplified("(if (or True flag) a b)"), "a");
        assert_eq!(simplified("(if (NOTG false flag) a b)"), "a");
        assert_eq!(simplified("(if (nand (<= a b) false) a b)"), "a");
        assert_eq!(simplified("(if (nor true (<= a b)) a b)"), "b");
        assert_eq!(simplified("(+ a (+ One One))"), "(+ a 2.0)");
        assert_eq!(simplified("(if (and flag flag) a b)"), "(if flag a b)");
        assert_eq!(simplified("(if (or (<= a b) (<= a b)) a b)"), "(if (<= a b) a b)");
        let rush_hour_champion = "(if (and (or (or (or (<= a b) flag) flag) flag) (and flag flag)) a b)";
        assert_eq!(simplified(rush_hour_champion), "(if flag a b)");
        assert_eq!(simplified("(if (or (and (<= b a) flag) (<= b a)) a b)"), "(if (<= b a) a b)");
        assert_eq!(
            simplified("(if (and flag (or (<= a b) (<= b a))) a b)"),
            "(if (and flag (or (<= a b) (<= b a))) a b)"
        );
        assert_eq!(simplified("(+ a b)"), "(+ a b)");
    }

    #[test]
    fn policies_lose_rules_that_never_fire() {
        let loader = load(
            "(policy p (primset s) (rule (and flag false) a) (rule (<= a b) (+ b One)) \
             (rule (or True flag) (* a 2.0)) (rule flag b) (default 0.5))
             (policy q (primset s) (rule flag b) (rule (<= a b) (+ a b)) (rule flag a) (rule (<= b a) (+ a b)) \
             (default (+ a b)))",
        );
        let m = &loader.module;
        let ps = m.primset(m.policies[0].primset);
        let p = simplify_policy(ps, &RuleList::of(&m.policies[0]));
        let text: Vec<String> = p.rules.iter().map(|r| r.condition.to_sexp(ps, &[]).to_string()).collect();
        assert_eq!(text, ["(<= a b)"]);
        assert_eq!(p.rules[0].value.to_sexp(ps, &[]).to_string(), "(+ b One)");
        assert_eq!(p.default.to_sexp(ps, &[]).to_string(), "(* a 2.0)");
        // The last rules give what the default gives.
        let q = simplify_policy(ps, &RuleList::of(&m.policies[1]));
        assert_eq!(q.rules.len(), 1);
        assert_eq!(q.rules[0].value.to_sexp(ps, &[]).to_string(), "b");
    }

    #[test]
    fn simplified_policies_give_the_same_values() {
        let loader = load("");
        let ps = &loader.module.primsets[0];
        let builder = Builder::new(ps, &[TypeId::F, TypeId::B]).expect("buildable");
        for seed in 0..200 {
            let mut rng = stream(seed, &[7]);
            let p = crate::evolve::policy_ops::random_policy(&builder, &mut rng, 1 + seed as usize % 5, 4);
            let simple = simplify_policy(ps, &p);
            let as_policy = |rl: &RuleList| crate::lang::Policy {
                name: String::new(),
                primset: crate::lang::PrimSetId(0),
                rules: rl.rules.clone(),
                default: rl.default.clone(),
                file: Default::default(),
                span: Default::default(),
            };
            let (before_p, after_p) = (as_policy(&p), as_policy(&simple));
            for _ in 0..8 {
                let slots = [
                    rng.random_range(-3.0..3.0f64).to_bits(),
                    rng.random_range(-3.0..3.0f64).to_bits(),
                    u64::from(rng.random_bool(0.5)),
                ];
                let before = Interp::new(ps, &mut Slots(&slots)).eval_policy(&before_p).0;
                let after = Interp::new(ps, &mut Slots(&slots)).eval_policy(&after_p).0;
                assert!(before.same_bits(after), "seed {seed}: {before} vs {after}");
            }
        }
    }

    #[test]
    fn simplification_preserves_values_bit_for_bit() {
        let loader = load("");
        let ps = &loader.module.primsets[0];
        let builder = Builder::new(ps, &[TypeId::F]).expect("buildable");
        let specials = [0.0, -0.0, 1.0, -1.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e-10, 5e-324];
        for seed in 0..300 {
            let mut rng = stream(seed, &[]);
            let method = if seed % 2 == 0 { Method::Grow } else { Method::Full };
            let tree = builder.tree(&mut rng, TypeId::F, method, 6);
            let simple = simplify(ps, &tree, TypeId::F);
            assert!(simple.len() <= tree.len());
            for _ in 0..8 {
                let pick = |rng: &mut crate::rng::GpRng| {
                    if rng.random_bool(0.3) {
                        specials[rng.random_range(0..specials.len())]
                    } else {
                        rng.random_range(-3.0..3.0)
                    }
                };
                let slots = [pick(&mut rng).to_bits(), pick(&mut rng).to_bits(), u64::from(rng.random_bool(0.5))];
                let before = Interp::new(ps, &mut Slots(&slots)).eval_tree(&tree);
                let after = Interp::new(ps, &mut Slots(&slots)).eval_tree(&simple);
                assert!(
                    before.same_bits(after),
                    "seed {seed}: {} gave {before}, simplified {} gave {after}",
                    tree.to_sexp(ps, &[]),
                    simple.to_sexp(ps, &[])
                );
            }
        }
    }
}
