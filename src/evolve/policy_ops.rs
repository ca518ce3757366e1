//! Operators on ordered IF-THEN policies (Rush Hour's representation): random
//! policies, rule-level crossover, rule mutation and rule reordering.
//! Conditions are B trees built by [`Builder::conditions`], values and the
//! default are F trees built by the builder itself, so a primset's
//! `condition-only` and `value-only` primitives stay in their part.

use rand::RngExt;

use super::init::{Builder, Method};
use crate::lang::forms::{Policy, Rule};
use crate::lang::{Part, Tree, TypeId};
use crate::rng::GpRng;

/// The rules and default of a policy, without its name and source position.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RuleList {
    pub rules: Vec<Rule>,
    pub default: Tree,
}

impl RuleList {
    pub fn of(policy: &Policy) -> RuleList {
        RuleList { rules: policy.rules.clone(), default: policy.default.clone() }
    }
}

/// A random policy of `n_rules` rules, each tree grown to at most `depth`.
pub fn random_policy(b: &Builder, rng: &mut GpRng, n_rules: usize, depth: usize) -> RuleList {
    let rules = (0..n_rules)
        .map(|_| Rule {
            condition: b.conditions().tree(rng, TypeId::B, Method::Grow, depth),
            value: b.tree(rng, TypeId::F, Method::Grow, depth),
        })
        .collect();
    RuleList { rules, default: b.tree(rng, TypeId::F, Method::Grow, depth) }
}

/// Rule-level crossover: the children exchange the rules after a cut point in
/// each parent, so rules move whole (with their position in the order).
pub fn rule_crossover(rng: &mut GpRng, a: &RuleList, b: &RuleList, max_rules: usize) -> (RuleList, RuleList) {
    let cut_a = rng.random_range(0..=a.rules.len());
    let cut_b = rng.random_range(0..=b.rules.len());
    let join = |head: &[Rule], tail: &[Rule], default: &Tree| {
        let mut rules: Vec<Rule> = head.iter().chain(tail).cloned().collect();
        rules.truncate(max_rules);
        RuleList { rules, default: default.clone() }
    };
    (join(&a.rules[..cut_a], &b.rules[cut_b..], &a.default), join(&b.rules[..cut_b], &a.rules[cut_a..], &b.default))
}

/// Rule mutation: one condition, one value or the default, chosen uniformly,
/// is changed by `mutate_tree(rng, tree, part)` (a condition is a B tree, a
/// value an F tree).
pub fn rule_mutation(
    rng: &mut GpRng,
    p: &RuleList,
    mut mutate_tree: impl FnMut(&mut GpRng, &Tree, Part) -> Tree,
) -> RuleList {
    let mut out = p.clone();
    let pick = rng.random_range(0..=2 * p.rules.len());
    if pick == 2 * p.rules.len() {
        out.default = mutate_tree(rng, &p.default, Part::Value);
    } else if pick % 2 == 0 {
        let r = &mut out.rules[pick / 2];
        r.condition = mutate_tree(rng, &r.condition, Part::Condition);
    } else {
        let r = &mut out.rules[pick / 2];
        r.value = mutate_tree(rng, &r.value, Part::Value);
    }
    out
}

/// The builder and root type of the trees of a policy's `part`.
pub fn in_part<'b, 'a>(b: &'b Builder<'a>, part: Part) -> (&'b Builder<'a>, TypeId) {
    match part {
        Part::Condition => (b.conditions(), TypeId::B),
        Part::Value => (b, TypeId::F),
    }
}

/// Rule reordering: two rules swap places (the order decides which fires).
pub fn rule_reorder(rng: &mut GpRng, p: &RuleList) -> RuleList {
    let mut out = p.clone();
    if out.rules.len() >= 2 {
        let i = rng.random_range(0..out.rules.len());
        let j = rng.random_range(0..out.rules.len());
        out.rules.swap(i, j);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::ops::{Limits, point_mutation, subtree_mutation};
    use crate::lang::library::load_primset;
    use crate::rng::stream;

    /// The checker accepts `rules` written as a policy over primset
    /// `primset`, after the forms `prelude` (which define or import it).
    fn assert_checks(ps: &crate::lang::PrimSet, prelude: &str, primset: &str, rules: &RuleList) {
        let text: Vec<String> = rules
            .rules
            .iter()
            .map(|r| format!("(rule {} {})", r.condition.to_sexp(ps, &[]), r.value.to_sexp(ps, &[])))
            .collect();
        let form = format!(
            "{prelude} (policy p (primset {primset}) {} (default {}))",
            text.join(" "),
            rules.default.to_sexp(ps, &[])
        );
        let mut loader = crate::lang::Loader::new();
        loader.load_text("p.sg", &form);
        assert!(loader.diags.is_empty(), "{form}\n{}", loader.sources.render_plain(&loader.diags));
    }

    #[test]
    fn policy_operators_keep_rule_counts_and_types() {
        let ps = load_primset("arith").expect("arith");
        let b = Builder::new(&ps, &[TypeId::F, TypeId::B]).expect("buildable");
        let mut rng = stream(4, &[]);
        let p = random_policy(&b, &mut rng, 5, 4);
        let q = random_policy(&b, &mut rng, 3, 4);
        let (c, d) = rule_crossover(&mut rng, &p, &q, 100);
        assert_eq!(c.rules.len() + d.rules.len(), 8, "rules move whole");
        let (c, d) = (0..20).map(|_| rule_crossover(&mut rng, &p, &q, 5)).last().expect("crossed");
        assert!(c.rules.len() <= 5 && d.rules.len() <= 5);
        let m = rule_mutation(&mut rng, &p, |rng, t, part| {
            let (b, ty) = in_part(&b, part);
            subtree_mutation(b, rng, t, ty, &Limits::default())
        });
        assert_eq!(m.rules.len(), 5);
        let r = rule_reorder(&mut rng, &p);
        assert_eq!(r.rules.len(), 5);
        for rl in [c, d, m, r] {
            assert_checks(&ps, "(import arith)", "arith", &rl);
        }
    }

    /// With a primset that keeps primitives to one part (GP-Rush's split,
    /// seeds/000 table 1-6), random policies and every variation keep
    /// `condition-only` primitives out of values and `value-only` ones out
    /// of conditions, and what they make passes the checker.
    #[test]
    fn random_policies_and_variation_respect_the_parts() {
        let src = "(primset parts (terminal Blockers F) (terminal g F) (terminal Released B)
            (function AND (B B) B (builtin and)) (function OR (B B) B (builtin or))
            (function <= (F F) B (builtin le)) (function * (F F) F (builtin mul))
            (function + (F F) F (builtin add)) (erc Digit F (choice 1.0 2.0 3.0))
            (condition-only g Released) (value-only * +))";
        let mut loader = crate::lang::Loader::new();
        loader.load_text("p.sg", src);
        assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
        let ps = loader.module.primsets[0].clone();
        let b = Builder::new(&ps, &[TypeId::F, TypeId::B]).expect("buildable").with_max_size(Some(40));
        let ok = |t: &Tree, part: Part| {
            t.nodes.iter().all(|n| !matches!(n, crate::lang::Node::Prim(id) if !ps.allowed_in(*id, Some(part))))
        };
        let (g, mul) = (ps.lookup("g").expect("g"), ps.lookup("*").expect("*"));
        let (mut g_in_conditions, mut mul_in_values) = (false, false);
        let mut rng = stream(9, &[]);
        let mut policies: Vec<RuleList> = (0..50).map(|i| random_policy(&b, &mut rng, 1 + i % 5, 2 + i % 4)).collect();
        for i in 0..400 {
            let (p, q) = (&policies[i % 50], &policies[(i * 7 + 3) % 50]);
            let child = match i % 3 {
                0 => rule_crossover(&mut rng, p, q, 5).0,
                1 => rule_reorder(&mut rng, p),
                _ => rule_mutation(&mut rng, p, |rng, t, part| {
                    let (b, ty) = in_part(&b, part);
                    if rng.random_bool(0.5) {
                        point_mutation(b, rng, t, ty)
                    } else {
                        subtree_mutation(b, rng, t, ty, &Limits { max_depth: 5, ..Limits::default() })
                    }
                }),
            };
            policies[i % 50] = child;
        }
        for p in &policies {
            for r in &p.rules {
                assert!(ok(&r.condition, Part::Condition) && ok(&r.value, Part::Value));
                g_in_conditions |= r.condition.nodes.contains(&crate::lang::Node::Prim(g));
                mul_in_values |= r.value.nodes.contains(&crate::lang::Node::Prim(mul));
            }
            assert!(ok(&p.default, Part::Value));
            assert_checks(&ps, src, "parts", p);
        }
        assert!(g_in_conditions && mul_in_values, "each part still draws on its own primitives");
    }
}
