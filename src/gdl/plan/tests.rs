//! Plans of small rule sets: the join orders and delta-led bodies the
//! prover runs.

use super::*;
use crate::diagnostic::FileId;

fn plan(text: &str) -> (Plan, Description) {
    plan_with(text, Demand::Off)
}

fn plan_with(text: &str, demand: Demand) -> (Plan, Description) {
    let (forms, diags) = crate::syntax::read(FileId(0), text);
    assert!(diags.is_empty(), "{diags:?}");
    let (desc, diags) = Description::read(FileId(0), &forms);
    assert!(diags.is_empty(), "{diags:?}");
    let (plan, _) = Plan::new(&desc, None, demand).expect("a plan");
    (plan, desc)
}

/// The relation `(not ...)` reads in the rules for `head`.
fn negated_reads(plan: &Plan, desc: &Description, head: &str) -> Vec<Sym> {
    let head = desc.symbols.get(head);
    plan.rules
        .iter()
        .filter(|r| Some(plan.relations[r.head].name) == head)
        .flat_map(|r| &r.body)
        .filter_map(|step| match step {
            Step::Absent { rel, .. } => Some(plan.relations[*rel].name),
            _ => None,
        })
        .collect()
}

/// `legal` asks whether one square is threatened, as chess does.
const THREATS: &str = "(role r) (init (at 1)) (init (rook 2))
    (square 1) (square 2) (square 3)
    (<= (legal r (go ?x)) (true (at ?y)) (square ?x) (not (threatened ?x)))
    (<= (threatened ?x) (true (rook ?y)) (square ?x) (distinct ?x ?y))
    (<= (next (at ?x)) (does r (go ?x)))
    (<= terminal (true (at 3)))
    (goal r 100)";

#[test]
fn a_negated_call_of_bound_arguments_reads_a_relation_restricted_to_them() {
    let threatened = |desc: &Description| desc.symbols.get("threatened").expect("threatened");
    let (plan, desc) = plan_with(THREATS, Demand::Off);
    assert_eq!(negated_reads(&plan, &desc, "legal"), [threatened(&desc)]);
    let (plan, desc) = plan_with(THREATS, Demand::Dynamic);
    let reads = negated_reads(&plan, &desc, "legal");
    assert_eq!(reads.len(), 1);
    assert_ne!(reads[0], threatened(&desc), "the adorned copy, `threatened^1^b`");
}

#[test]
fn a_negated_call_keeps_its_relation_where_demand_would_close_a_cycle_through_it() {
    // `safe` calls itself through `reach`, so the magic relation of its
    // negated call (fed by `reach`) would depend on `safe`, which negates it.
    let text = "(role r) (init (at 1)) (init (wall 2)) (square 1) (square 2) (square 3)
        (<= (reach ?x) (true (at ?x)))
        (<= (reach ?x) (safe ?x))
        (<= (safe ?x) (reach ?y) (square ?x) (not (blocked ?x)))
        (<= (blocked ?x) (true (wall ?x)))
        (<= (legal r (go ?x)) (safe ?x))
        (<= (next (at ?x)) (does r (go ?x)))
        (<= terminal (true (at 3)))
        (goal r 100)";
    let (plan, desc) = plan_with(text, Demand::Dynamic);
    let blocked = desc.symbols.get("blocked").expect("blocked");
    assert_eq!(negated_reads(&plan, &desc, "safe"), [blocked]);
}

/// The relation each step of `body` scans, by name ("-" for tests).
fn scans(plan: &Plan, desc: &Description, body: &[Step]) -> Vec<String> {
    body.iter()
        .map(|step| match step {
            Step::Scan { rel, .. } => desc.symbols.name(plan.relations[*rel].name).to_owned(),
            _ => "-".to_owned(),
        })
        .collect()
}

const ARITHMETIC: &str = "(role r) (succ 0 1) (succ 1 2) (succ 2 3) (number 0) (number 1) (number 2)
    (<= (lt ?x ?y) (succ ?x ?y))
    (<= (lt ?x ?z) (lt ?x ?y) (succ ?y ?z))
    (<= (above ?z ?x) (number ?y) (lt ?y ?z) (succ ?y ?x))";

#[test]
fn a_recursive_rule_has_a_body_led_by_each_recursive_literal() {
    let (plan, desc) = plan(ARITHMETIC);
    let lt = |r: &&PlannedRule| desc.symbols.name(plan.relations[r.head].name) == "lt";
    let recursive = plan.rules.iter().filter(lt).find(|r| r.body.len() == 2).expect("lt's recursive rule");
    assert_eq!(recursive.deltas.len(), 1);
    assert_eq!(scans(&plan, &desc, &recursive.deltas[0]), ["lt", "succ"]);
    let base = plan.rules.iter().filter(lt).find(|r| r.body.len() == 1).expect("lt's base rule");
    assert!(base.deltas.is_empty(), "no recursive literal");
}

#[test]
fn ties_in_the_join_order_go_to_relations_written_as_facts() {
    let (plan, desc) = plan(ARITHMETIC);
    let above = plan.rules.iter().find(|r| desc.symbols.name(plan.relations[r.head].name) == "above");
    // After `number` binds ?y, `lt` and `succ` each have one bound part:
    // `succ` is written out as facts, `lt` derived.
    assert_eq!(scans(&plan, &desc, &above.expect("a rule for above").body), ["number", "succ", "lt"]);
}
