//! Plans of small rule sets: the join orders and delta-led bodies the
//! prover runs.

use super::*;
use crate::diagnostic::FileId;

fn plan(text: &str) -> (Plan, Description) {
    let (forms, diags) = crate::syntax::read(FileId(0), text);
    assert!(diags.is_empty(), "{diags:?}");
    let (desc, diags) = Description::read(FileId(0), &forms);
    assert!(diags.is_empty(), "{diags:?}");
    let (plan, _) = Plan::new(&desc, None, Demand::Off).expect("a plan");
    (plan, desc)
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
