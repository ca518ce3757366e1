//! Each check of [`validate`] on small descriptions: the code, the severity
//! and where it points.

use super::*;
use crate::diagnostic::FileId;
use crate::syntax::read;

/// A small valid game; tests add rules to it.
const GAME: &str = "(role a) (init p) (<= (legal a go) (true p)) (<= (next q) (does a go)) \
                    (<= terminal (true q)) (goal a 100)\n";

fn check(text: &str) -> Vec<Diagnostic> {
    let (forms, diags) = read(FileId(0), text);
    assert!(diags.is_empty(), "{diags:?}");
    let (desc, diags) = Description::read(FileId(0), &forms);
    assert!(diags.is_empty(), "{diags:?}");
    validate(&desc)
}

/// The diagnostics of the game with `rules` added.
fn with(rules: &str) -> Vec<Diagnostic> {
    check(&format!("{GAME}{rules}"))
}

/// The one diagnostic with `code`, which must be an error if `error`.
fn only<'d>(diags: &'d [Diagnostic], code: &str, error: bool) -> &'d Diagnostic {
    let found: Vec<&Diagnostic> = diags.iter().filter(|d| d.code == code).collect();
    assert_eq!(found.len(), 1, "one {code} expected: {diags:#?}");
    assert_eq!(found[0].is_error(), error, "{:#?}", found[0]);
    found[0]
}

fn errors(diags: &[Diagnostic]) -> Vec<&Diagnostic> {
    diags.iter().filter(|d| d.is_error()).collect()
}

/// The text the primary label of `d` points at, in `rules` added to GAME.
fn pointed<'t>(text: &'t str, d: &Diagnostic) -> &'t str {
    let (span, _) = &d.labels[0];
    &text[span.start..span.end]
}

#[test]
fn a_valid_game_has_no_diagnostics() {
    assert!(check(GAME).is_empty(), "{:#?}", check(GAME));
}

#[test]
fn a_game_needs_roles_moves_goals_and_an_end() {
    let diags = check("(init p)");
    let messages: Vec<&str> = diags.iter().filter(|d| d.code == RESERVED).map(|d| d.message.as_str()).collect();
    assert_eq!(messages.len(), 4, "{diags:#?}");
    assert!(messages.iter().any(|m| m.contains("no roles")));
    assert!(messages.iter().any(|m| m.contains("no legal moves")));
    assert!(messages.iter().any(|m| m.contains("no goals")));
    assert!(messages.iter().any(|m| m.contains("terminal")));
    assert!(diags.iter().all(|d| d.is_error() && d.file == Some(FileId(0))));
}

#[test]
fn keywords_have_fixed_arities() {
    let text = format!("{GAME}(<= (legal a) (true p))");
    let diags = check(&text);
    let d = only(&diags, RESERVED, true);
    assert!(d.message.contains("`legal` takes 2 arguments, not 1"), "{}", d.message);
    assert_eq!(pointed(&text, d), "(legal a)");
    let diags = with("(<= terminal (true p q))");
    assert!(only(&diags, RESERVED, true).message.contains("`true` takes 1 argument, not 2"));
    // `base` and `input` are keywords once a game names them.
    assert!(only(&with("(base p q)"), RESERVED, true).message.contains("`base` takes 1"));
}

#[test]
fn true_and_does_are_never_defined_and_roles_are_facts() {
    assert!(only(&with("(true r)"), RESERVED, true).message.contains("`true` cannot be defined"));
    assert!(only(&with("(<= (does a go) (true p))"), RESERVED, true).message.contains("`does` cannot be defined"));
    let diags = with("(<= (role b) (true p))");
    assert!(only(&diags, RESERVED, true).message.contains("roles must be declared by facts"));
}

#[test]
fn init_and_next_are_only_heads() {
    let text = format!("{GAME}(<= (legal a stay) (init p))");
    let diags = check(&text);
    assert_eq!(pointed(&text, only(&diags, RESERVED, true)), "(init p)");
    // (`next` here depends on `does`, which `legal` must not: a second error.)
    let diags = with("(<= (legal a stay) (next p))");
    assert!(diags.iter().any(|d| d.is_error() && d.message == "`next` can only be the head of a rule or fact"));
}

#[test]
fn keywords_are_not_terms() {
    let diags = with("(<= (legal a (does a go)) (true p))");
    assert!(only(&diags, RESERVED, true).message.contains("the keyword `does` is used as a term"));
    assert!(only(&with("(init (cell not))"), RESERVED, true).message.contains("`not`"));
}

#[test]
fn connectives_are_not_relations() {
    let diags = with("(<= (legal a stay) (true p) distinct)");
    assert!(only(&diags, RESERVED, true).message.contains("`distinct` is a keyword of GDL"));
    assert!(only(&with("(<= (or p) (true p))"), RESERVED, true).message.contains("`or` is a keyword"));
}

#[test]
fn goal_values_are_integers_from_0_to_100() {
    assert!(only(&with("(goal a 150)"), RESERVED, true).message.contains("`150`"));
    assert!(only(&with("(goal a high)"), RESERVED, true).message.contains("`high`"));
    assert!(only(&with("(goal a (f 1))"), RESERVED, true).message.contains("`(f 1)`"));
    let diags = with("(value 50) (<= (goal a ?v) (value ?v))");
    assert!(errors(&diags).is_empty(), "{diags:#?}");
}

#[test]
fn init_depends_on_neither_state_nor_moves() {
    let text = format!("{GAME}(<= s (true p)) (<= (init r) s)");
    let diags = check(&text);
    let d = only(&diags, RESERVED, true);
    assert!(d.message.contains("`init` must not depend on the state or the moves"), "{}", d.message);
    assert!(d.message.contains("s → true"), "{}", d.message);
    assert_eq!(pointed(&text, d), "s");
    // Nor on `legal`, which the specification lists too.
    assert!(only(&with("(<= (init r) (legal a go))"), RESERVED, true).message.contains("legal"));
    // Facts and relations of facts are fine.
    let diags = with("(dom r) (<= (init ?x) (dom ?x))");
    assert!(errors(&diags).is_empty(), "{diags:#?}");
}

#[test]
fn legal_goal_and_terminal_do_not_depend_on_moves() {
    let diags = with("(<= moved (does a go)) (<= (legal a stay) moved)");
    let d = only(&diags, RESERVED, true);
    assert!(d.message.contains("`legal` must not depend on the moves being made"), "{}", d.message);
    assert!(d.message.contains("moved → does"), "{}", d.message);
    assert_eq!(only(&with("(<= terminal (does a go))"), RESERVED, true).code, RESERVED);
}

#[test]
fn only_sentences_are_negated() {
    for (rule, help) in [
        ("(<= (legal a x) (true p) (not (distinct a b)))", "the same term"),
        ("(<= (legal a x) (true p) (not (or (true q) (true p))))", "two literals"),
        ("(<= (legal a x) (true p) (not (not (true q))))", "the sentence itself"),
    ] {
        let text = format!("{GAME}{rule}");
        let diags = check(&text);
        let d = only(&diags, NEGATION, true);
        assert!(d.help.as_deref().is_some_and(|h| h.contains(help)), "{d:#?}");
        assert!(pointed(&text, d).starts_with("(not ("), "{}", pointed(&text, d));
    }
}

#[test]
fn head_variables_must_be_bound() {
    let text = format!("{GAME}(<= (legal ?r ?m) (true p))");
    let diags = check(&text);
    let d = only(&diags, UNSAFE, true);
    assert!(d.message.contains("?r, ?m in the head"), "{}", d.message);
    assert_eq!(pointed(&text, d), "(legal ?r ?m)");
    assert!(only(&with("(dom ?x)"), UNSAFE, true).message.contains("a fact cannot contain variables (?x)"));
}

#[test]
fn negated_and_distinct_variables_must_be_bound() {
    let text = format!("{GAME}(q b) (<= (legal a go) (true p) (not (q ?y)))");
    let diags = check(&text);
    let d = only(&diags, UNSAFE, true);
    assert!(d.message.contains("?y in a negation"), "{}", d.message);
    assert_eq!(pointed(&text, d), "(not (q ?y))");
    assert_eq!(d.labels.len(), 2, "the literal and the rule's head");
    let diags = with("(<= (legal a go) (true p) (distinct ?y a))");
    assert!(only(&diags, UNSAFE, true).message.contains("?y in a `distinct`"));
    // Bound by a positive literal anywhere in the body, before or after.
    let diags = with("(q b) (<= (legal a ?y) (not (q ?y)) (distinct ?y a) (true (cell ?y)))");
    assert!(errors(&diags).is_empty(), "{diags:#?}");
}

#[test]
fn a_disjunction_binds_what_every_branch_binds() {
    let safe = with("(q b) (r b) (<= (legal a ?x) (or (q ?x) (r ?x)))");
    assert!(errors(&safe).is_empty(), "{safe:#?}");
    let diags = with("(q b) (r b) (<= (legal a ?x) (or (q ?x) (r b)))");
    assert!(only(&diags, UNSAFE, true).message.contains("?x in the head"));
    // A negation inside an `or` is not bound by the branch beside it.
    let diags = with("(q b) (s b) (<= (legal a go) (or (q ?y) (not (s ?y))))");
    assert!(only(&diags, UNSAFE, true).message.contains("?y in a negation"));
}

#[test]
fn negation_is_stratified() {
    let text = format!("{GAME}(dom 1) (<= (w ?y) (dom ?y) (not (u ?y))) (<= (u ?y) (w ?y)) (<= (legal a go) (w 1))");
    let diags = check(&text);
    let d = only(&diags, "stratagem::gdl::stratify", true);
    assert_eq!(d.message, "`w` depends on its own negation: w → not u → w");
    assert_eq!(pointed(&text, d), "(u ?y)");
    let diags = with("(<= (legal a x) u) (<= u (true p) (not u))");
    let d = only(&diags, "stratagem::gdl::stratify", true);
    assert_eq!(d.message, "`u` depends on its own negation");
    let fine = with("(<= (legal a x) (true p) (not u)) (<= u (true q))");
    assert!(errors(&fine).is_empty(), "{fine:#?}");
}

#[test]
fn negation_is_stratified_by_constant_arguments() {
    // GGP-Base plays games written this way: each goal value is a part of
    // `goal` of its own, and the parts do not depend on each other in a cycle.
    let fine = with("(<= (goal a 0) (true p) (not (goal a 100)))");
    assert!(errors(&fine).is_empty(), "{fine:#?}");
    let fine = with("(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))");
    assert!(errors(&fine).is_empty(), "{fine:#?}");
    // But two parts that negate each other are a cycle.
    let diags = with("(<= (goal a 0) (true p) (not (goal a 50))) (<= (goal a 50) (true p) (not (goal a 0)))");
    let found: Vec<_> = diags.iter().filter(|d| d.code == "stratagem::gdl::stratify").collect();
    assert_eq!(found.len(), 2, "{diags:#?}");
    assert!(found[0].message.contains("(goal a 0) → not (goal a 50) → (goal a 0)"), "{}", found[0].message);
    // And a negated literal with a variable where the key has a constant
    // stands for every part.
    let diags = with("(val 0) (<= (goal ?r 0) (role ?r) (val ?v) (not (goal ?r ?v)))");
    assert!(only(&diags, "stratagem::gdl::stratify", true).message.contains("(goal _ 0)"));
}

#[test]
fn recursion_is_restricted() {
    let text = format!("{GAME}(num z) (<= (num (s ?x)) (num ?x)) (<= (legal a ?x) (num ?x))");
    let diags = check(&text);
    let d = only(&diags, "stratagem::gdl::recursion", true);
    assert!(d.message.contains("`?x`"), "{}", d.message);
    assert_eq!(pointed(&text, d), "(num ?x)");
    // An argument bound outside the cycle, or passed from the head, is fine.
    let fine = with(
        "(succ 1 2) (succ 2 3) (reach 1) (<= (reach ?y) (reach ?x) (succ ?x ?y)) \
         (<= (path ?x ?y) (succ ?x ?y)) (<= (path ?x ?z) (succ ?x ?y) (path ?y ?z)) \
         (<= (legal a ?x) (reach ?x) (path 1 ?x))",
    );
    assert!(errors(&fine).is_empty(), "{fine:#?}");
}

#[test]
fn recursion_restriction_compares_whole_terms() {
    // `(s ?x)` in the recursive literal is an argument of the head: fine.
    let fine = with("(num z) (<= (num (s ?x)) (num (s ?x)) (dom ?x)) (dom z) (<= (legal a ?x) (num ?x))");
    assert!(errors(&fine).is_empty(), "{fine:#?}");
    // `?x` occurs inside the head's argument `(s ?x)` but is not one itself.
    let diags = with("(num z) (<= (num (s ?x)) (num ?x) (num (s ?x))) (<= (legal a ?x) (num ?x))");
    assert_eq!(only(&diags, "stratagem::gdl::recursion", true).code, "stratagem::gdl::recursion");
    // A term every branch of an `or` outside the cycle has counts.
    let fine =
        with("(n 1) (m 1) (reach 1) (<= (reach (s ?x)) (reach ?x) (or (n ?x) (m ?x))) (<= (legal a ?x) (reach ?x))");
    assert!(errors(&fine).is_empty(), "{fine:#?}");
    let diags =
        with("(n 1) (m 1) (reach 1) (<= (reach (s ?x)) (reach ?x) (or (n ?x) (m b))) (<= (legal a ?x) (reach ?x))");
    assert_eq!(only(&diags, "stratagem::gdl::recursion", true).code, "stratagem::gdl::recursion");
}

#[test]
fn names_are_capitalised_one_way() {
    let text = format!("{GAME}(<= (legal a stay) (true P))");
    let diags = check(&text);
    let d = only(&diags, CASE, true);
    assert_eq!(d.message, "the name `p` is also written `P`");
    assert_eq!(d.labels.len(), 2);
    assert_eq!(pointed(&text, d), "p");
}

#[test]
fn arities_differing_are_warnings() {
    let diags = with("(dom 1) (dom 1 2) (<= (legal a go) (dom ?x) (dom ?x ?y))");
    let d = only(&diags, ARITY, false);
    assert!(d.message.contains("the relation `dom` is used with 1 argument and with 2 arguments"), "{}", d.message);
    let diags = with("(<= (legal a (m 1)) (true p)) (<= (legal a (m 1 2)) (true p))");
    assert!(only(&diags, ARITY, false).message.contains("the function `m`"));
    assert!(errors(&diags).is_empty());
}

#[test]
fn a_name_both_relation_and_function_is_a_warning() {
    let diags = with("(init (cell 1)) (<= (legal a go) (cell 1))");
    let d = only(&diags, ARITY, false);
    assert!(d.message.contains("`cell` is used both as a relation and as a function"), "{}", d.message);
    assert!(d.help.as_deref().is_some_and(|h| h.contains("(true (cell ...))")));
}

#[test]
fn unused_and_undefined_relations_are_warnings() {
    let d = with("(index 1)");
    assert!(only(&d, "stratagem::gdl::unused", false).message.contains("`index` is defined but never used"));
    let d = with("(index 1) (<= (legal a ?x) (indx ?x))");
    let u = only(&d, "stratagem::gdl::undefined", false);
    assert!(u.message.contains("`indx` is used but never defined"), "{}", u.message);
    assert_eq!(u.help.as_deref(), Some("did you mean `index`?"));
    assert!(errors(&d).is_empty());
}

#[test]
fn diagnostics_are_capped() {
    let mut text = GAME.to_owned();
    for i in 0..1500 {
        text.push_str(&format!("(f{i} ?x)\n"));
    }
    let diags = check(&text);
    let unsafe_facts = diags.iter().filter(|d| d.code == UNSAFE).count();
    assert_eq!(unsafe_facts, MAX_DIAGNOSTICS_VALIDATION);
    let stopped = only(&diags, "stratagem::gdl::stopped", true);
    // 500 unsafe facts and 1500 unused relations beyond the caps.
    assert!(stopped.message.contains("1000 more"), "{}", stopped.message);
}

#[test]
fn long_chains_of_rules_are_checked_without_recursion() {
    let mut text = GAME.to_owned();
    text.push_str("(<= r0 (true p))\n");
    for i in 1..20_000 {
        text.push_str(&format!("(<= r{i} r{})\n", i - 1));
    }
    text.push_str("(<= (legal a stay) r19999 (not r0))\n");
    let diags = check(&text);
    assert!(diags.is_empty(), "{:#?}", &diags[..diags.len().min(3)]);
}
