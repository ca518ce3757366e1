//! Validation of a game description against the GDL specification (Love et
//! al., "General Game Playing: Game Description Language Specification",
//! 2008) and the checks GGP-Base's validator (Griddle's standard
//! configuration) adds, with the same verdicts: an error makes a game
//! unusable, a warning points at something probably unintended.
//!
//! What is checked here, rule by rule: the reserved relations (arities,
//! where they may appear, goal values, roles as facts), negation applied only
//! to sentences, rule safety, one spelling per name, and fixed arities of
//! relations and functions. What needs the dependency graph between
//! relations (stratified negation, the recursion restriction, what `init`,
//! `legal`, `goal` and `terminal` may depend on, relations defined and never
//! used or used and never defined) is in [`graph`].
//!
//! Every check is one pass over the rules (hash maps, no rule × rule loops),
//! and at most [`MAX_DIAGNOSTICS_VALIDATION`] errors and as many warnings are
//! kept, errors first, so a runaway file stays cheap to report on.

mod graph;
#[cfg(test)]
mod tests;

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHashSet};

use super::description::{
    DISTINCT, DOES, Description, GOAL, IMPLIES, INIT, LEGAL, Literal, NEXT, NOT, OR, Pattern, ROLE, Rule, Sentence,
    TERMINAL, TRUE, Var,
};
use super::term::Sym;
use crate::diagnostic::Diagnostic;
use crate::syntax::Span;

/// Validation keeps at most this many errors and as many warnings.
pub const MAX_DIAGNOSTICS_VALIDATION: usize = 1000;

const RESERVED: &str = "stratagem::gdl::reserved";
/// A variable of a rule bound by no positive literal of its body.
pub const UNSAFE: &str = "stratagem::gdl::unsafe";
/// `not` applied to something other than a sentence.
pub const NEGATION: &str = "stratagem::gdl::negation";
/// One name spelled with different capitalizations.
pub const CASE: &str = "stratagem::gdl::case";
const ARITY: &str = "stratagem::gdl::arity";

/// Checks `desc` and returns its errors (the game cannot be played) and
/// warnings (it can, but something looks unintended), errors first.
pub fn validate(desc: &Description) -> Vec<Diagnostic> {
    let mut cx = Cx::new(desc);
    check_required(&mut cx);
    let mut arities = Arities::default();
    for rule in &desc.rules {
        check_rule(&mut cx, rule);
        arities.add_rule(&cx, rule);
    }
    check_case(&mut cx);
    graph::check(&mut cx);
    arities.report(&mut cx);
    cx.finish()
}

/// The description being checked and the diagnostics found so far.
struct Cx<'a> {
    desc: &'a Description,
    /// `base` and `input`, keywords of GDL since 2010 that are not among the
    /// description's reserved symbols: `None` when the game never names them.
    base: Option<Sym>,
    input: Option<Sym>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    dropped_errors: usize,
    dropped_warnings: usize,
}

impl<'a> Cx<'a> {
    fn new(desc: &'a Description) -> Cx<'a> {
        Cx {
            desc,
            base: desc.symbols.get("base"),
            input: desc.symbols.get("input"),
            errors: Vec::new(),
            warnings: Vec::new(),
            dropped_errors: 0,
            dropped_warnings: 0,
        }
    }

    fn push(&mut self, d: Diagnostic) {
        let (list, dropped) = if d.is_error() {
            (&mut self.errors, &mut self.dropped_errors)
        } else {
            (&mut self.warnings, &mut self.dropped_warnings)
        };
        if list.len() < MAX_DIAGNOSTICS_VALIDATION {
            list.push(d);
        } else {
            *dropped += 1;
        }
    }

    fn error(
        &self,
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::error(code, message).at(self.desc.file, span, label)
    }

    fn warning(
        &self,
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::warning(code, message).at(self.desc.file, span, label)
    }

    fn finish(self) -> Vec<Diagnostic> {
        let Cx { desc, mut errors, warnings, dropped_errors, dropped_warnings, .. } = self;
        let dropped = dropped_errors + dropped_warnings;
        errors.extend(warnings);
        if dropped > 0 {
            let message = format!("validation stopped reporting: {dropped} more problems are not shown");
            let span = desc.rules.last().map_or(Span::new(0, 0), |r| r.span.first_byte());
            // An error when errors were dropped, so that a file whose first
            // thousand problems are warnings is not taken for a usable game.
            let d = if dropped_errors > 0 {
                Diagnostic::error("stratagem::gdl::stopped", message)
            } else {
                Diagnostic::warning("stratagem::gdl::stopped", message)
            };
            errors
                .push(d.at(desc.file, span, "and more after this").with_help("fix the problems above and check again"));
        }
        errors
    }

    /// A name as the file first writes it.
    fn name(&self, sym: Sym) -> &'a str {
        let desc: &'a Description = self.desc;
        match desc.spellings.get(&sym).and_then(|s| s.first()) {
            Some((text, _)) => text,
            None => desc.symbols.name(sym),
        }
    }

    /// A relation GDL gives a meaning to, sentences only.
    fn is_keyword(&self, sym: Sym) -> bool {
        sym <= TERMINAL || Some(sym) == self.base || Some(sym) == self.input
    }

    /// The arity GDL requires of a keyword relation.
    fn keyword_arity(&self, sym: Sym) -> Option<usize> {
        match sym {
            ROLE | INIT | TRUE | NEXT => Some(1),
            LEGAL | DOES | GOAL => Some(2),
            TERMINAL => Some(0),
            _ if Some(sym) == self.base => Some(1),
            _ if Some(sym) == self.input => Some(2),
            _ => None,
        }
    }

    /// A pattern as text, with the rule's variable names.
    fn pattern_text(&self, p: &Pattern, vars: &[String]) -> String {
        match p {
            Pattern::Var(v) => vars.get(*v as usize).cloned().unwrap_or_else(|| format!("?{v}")),
            Pattern::Const(s) => self.name(*s).to_owned(),
            Pattern::Fn(f, args) => {
                let mut text = format!("({}", self.name(*f));
                for a in args {
                    text.push(' ');
                    text.push_str(&self.pattern_text(a, vars));
                }
                text.push(')');
                text
            }
        }
    }
}

/// `distinct`, `not`, `or` and `<=` are syntax, never names.
fn is_connective(sym: Sym) -> bool {
    matches!(sym, DISTINCT | NOT | OR | IMPLIES)
}

/// Calls `f` on every sentence of a body literal, with whether it is negated.
fn for_each_sentence<'r>(lit: &'r Literal, negated: bool, f: &mut impl FnMut(&'r Sentence, bool)) {
    match lit {
        Literal::Pos(s) => f(s, negated),
        Literal::Not(inner, _) => for_each_sentence(inner, true, f),
        Literal::Distinct(..) => {}
        Literal::Or(ls, _) => ls.iter().for_each(|l| for_each_sentence(l, negated, f)),
    }
}

fn is_ground(p: &Pattern) -> bool {
    match p {
        Pattern::Var(_) => false,
        Pattern::Const(_) => true,
        Pattern::Fn(_, args) => args.iter().all(is_ground),
    }
}

/// A pattern compared and hashed by structure, for sets of terms.
#[derive(Clone, Copy, PartialEq, Eq)]
struct PatKey<'r>(&'r Pattern);

impl Hash for PatKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        fn go<H: Hasher>(p: &Pattern, state: &mut H) {
            match p {
                Pattern::Var(v) => (0u8, *v).hash(state),
                Pattern::Const(s) => (1u8, *s).hash(state),
                Pattern::Fn(f, args) => {
                    (2u8, *f, args.len()).hash(state);
                    args.iter().for_each(|a| go(a, state));
                }
            }
        }
        go(self.0, state);
    }
}

/// A game needs roles, legal moves, goals and an end.
fn check_required(cx: &mut Cx) {
    let defined = |sym: Sym| cx.desc.rules.iter().any(|r| r.head.relation == sym);
    let required = [
        (ROLE, "the game declares no roles", "declare each player with a fact such as `(role white)`"),
        (
            LEGAL,
            "the game defines no legal moves",
            "say what each role may do with `legal`, e.g. `(<= (legal white noop) (true (control black)))`",
        ),
        (
            GOAL,
            "the game defines no goals",
            "give each role a score from 0 to 100 with `goal`, e.g. `(<= (goal white 100) win)`",
        ),
        (
            TERMINAL,
            "the game never ends: nothing defines `terminal`",
            "say when the game is over, e.g. `(<= terminal (true (step 50)))`",
        ),
    ];
    let missing: Vec<_> = required.into_iter().filter(|(sym, ..)| !defined(*sym)).collect();
    let span = cx.desc.rules.first().map_or(Span::new(0, 0), |r| r.span.first_byte());
    for (_, message, help) in missing {
        let d = cx.error(RESERVED, message, span, "in this game").with_help(help);
        cx.push(d);
    }
}

fn check_rule(cx: &mut Cx, rule: &Rule) {
    check_head(cx, rule);
    check_sentence(cx, &rule.head, true);
    for lit in &rule.body {
        for_each_sentence(lit, false, &mut |s, _| check_sentence(cx, s, false));
        check_negations(cx, lit);
    }
    check_safety(cx, rule);
}

/// What may be the head of a rule or a fact.
fn check_head(cx: &mut Cx, rule: &Rule) {
    let head = &rule.head;
    let d = match head.relation {
        TRUE => Some(
            cx.error(RESERVED, "`true` cannot be defined by a rule or fact", head.span, "`true` defined here").with_help(
                "the state is what `init` gives at the start and `next` gives after each move: write `(init ...)` or `(<= (next ...) ...)`",
            ),
        ),
        DOES => Some(
            cx.error(RESERVED, "`does` cannot be defined by a rule or fact", head.span, "`does` defined here")
                .with_help("the moves are chosen by the players; `legal` says which moves they may choose"),
        ),
        ROLE if !rule.body.is_empty() => Some(
            cx.error(RESERVED, "roles must be declared by facts, not by rules", head.span, "a rule for `role`")
                .with_help("declare each player with a fact such as `(role white)`"),
        ),
        GOAL => goal_value_error(cx, rule),
        sym if is_connective(sym) => Some(
            cx.error(RESERVED, format!("`{}` is a keyword of GDL, not a relation", cx.name(sym)), head.span, "defined here")
                .with_help("`not`, `or` and `distinct` are written in rule bodies; choose another name for this relation"),
        ),
        _ => None,
    };
    if let Some(d) = d {
        cx.push(d);
    }
}

/// Goal values are integers from 0 to 100 (the specification's section on
/// `goal`); a variable is checked when the game runs.
fn goal_value_error(cx: &Cx, rule: &Rule) -> Option<Diagnostic> {
    let value = rule.head.args.get(1)?;
    let valid = match value {
        Pattern::Var(_) => true,
        Pattern::Const(s) => {
            let name = cx.desc.symbols.name(*s);
            name.bytes().all(|b| b.is_ascii_digit()) && name.parse::<u32>().is_ok_and(|n| n <= 100)
        }
        Pattern::Fn(..) => false,
    };
    if valid {
        return None;
    }
    let text = cx.pattern_text(value, &rule.vars);
    Some(
        cx.error(
            RESERVED,
            format!("the goal value `{text}` is not an integer from 0 to 100"),
            rule.head.span,
            "this goal",
        )
        .with_help("GDL scores each role with an integer from 0 (worst) to 100 (best)"),
    )
}

/// Keyword relations with their arities, where they may appear, and
/// keywords that are not relations.
fn check_sentence(cx: &mut Cx, s: &Sentence, is_head: bool) {
    let name = cx.name(s.relation).to_owned();
    if let Some(arity) = cx.keyword_arity(s.relation)
        && s.args.len() != arity
    {
        let args = |n: usize| if n == 1 { "1 argument".to_owned() } else { format!("{n} arguments") };
        let d = cx
            .error(
                RESERVED,
                format!("`{name}` takes {}, not {}", args(arity), s.args.len()),
                s.span,
                format!("{} here", args(s.args.len())),
            )
            .with_help(keyword_usage(s.relation, cx));
        cx.push(d);
    }
    if !is_head {
        let only_in_heads =
            matches!(s.relation, INIT | NEXT) || Some(s.relation) == cx.base || Some(s.relation) == cx.input;
        if only_in_heads {
            let help = if s.relation == NEXT {
                "the next state is read through `true` once the move is made: test `(true X)` instead of `(next X)`"
            } else if s.relation == INIT {
                "the initial state is read through `true` in the first state: test `(true X)` instead of `(init X)`"
            } else {
                "`base` and `input` describe the game to players; rules cannot depend on them"
            };
            let d = cx
                .error(RESERVED, format!("`{name}` can only be the head of a rule or fact"), s.span, "used in a body")
                .with_help(help);
            cx.push(d);
        } else if is_connective(s.relation) {
            let d = cx
                .error(RESERVED, format!("`{name}` is a keyword of GDL, not a relation"), s.span, "used as a sentence")
                .with_help("write `(not X)`, `(or X Y ...)` and `(distinct X Y)` with their arguments in parentheses");
            cx.push(d);
        }
    }
    // Keywords are relation names, never terms: `(cell 1 1 true)` is
    // rejected by GGP-Base, and `(legal r (does r m))` is surely a mistake.
    let mut keyword = None;
    for a in &s.args {
        find_keyword_term(cx, a, &mut keyword);
    }
    if let Some(sym) = keyword {
        let d = cx
            .error(RESERVED, format!("the keyword `{}` is used as a term", cx.name(sym)), s.span, "in this sentence")
            .with_help("GDL keywords name relations only; choose another name for this constant or function");
        cx.push(d);
    }
}

fn find_keyword_term(cx: &Cx, p: &Pattern, found: &mut Option<Sym>) {
    match p {
        Pattern::Var(_) => {}
        Pattern::Const(s) => {
            if found.is_none() && (cx.is_keyword(*s) || is_connective(*s)) {
                *found = Some(*s);
            }
        }
        Pattern::Fn(f, args) => {
            if found.is_none() && (cx.is_keyword(*f) || is_connective(*f)) {
                *found = Some(*f);
            }
            args.iter().for_each(|a| find_keyword_term(cx, a, found));
        }
    }
}

fn keyword_usage(sym: Sym, cx: &Cx) -> &'static str {
    match sym {
        ROLE => "write `(role NAME)`",
        INIT => "write `(init FLUENT)`, e.g. `(init (cell 1 1 b))`",
        TRUE => "write `(true FLUENT)`, e.g. `(true (cell 1 1 b))`",
        NEXT => "write `(next FLUENT)`, e.g. `(next (cell 1 1 x))`",
        LEGAL => "write `(legal ROLE MOVE)`, e.g. `(legal white (mark 1 1))`",
        DOES => "write `(does ROLE MOVE)`, e.g. `(does white (mark 1 1))`",
        GOAL => "write `(goal ROLE VALUE)`, e.g. `(goal white 100)`",
        TERMINAL => "write `terminal` without parentheses or arguments",
        _ if Some(sym) == cx.base => "write `(base FLUENT)`",
        _ => "write `(input ROLE MOVE)`",
    }
}

/// GDL negates sentences only; GGP-Base rejects `(not (distinct ...))`,
/// `(not (or ...))` and `(not (not ...))`.
fn check_negations(cx: &mut Cx, lit: &Literal) {
    match lit {
        Literal::Pos(_) | Literal::Distinct(..) => {}
        Literal::Or(ls, _) => ls.iter().for_each(|l| check_negations(cx, l)),
        Literal::Not(inner, span) => {
            let help = match **inner {
                Literal::Pos(_) => return,
                Literal::Distinct(..) => {
                    "`(not (distinct X Y))` says X and Y are equal: write the same term in both places instead"
                }
                Literal::Or(..) => {
                    "`(not (or A B))` is `(not A)` and `(not B)`: write them as two literals of the body"
                }
                Literal::Not(..) => "`(not (not A))` is `A`: write the sentence itself",
            };
            let d =
                cx.error(NEGATION, "only sentences can be negated", *span, "negates a non-sentence").with_help(help);
            cx.push(d);
            check_negations(cx, inner);
        }
    }
}

/// Variables bound by a literal: those of a positive sentence, those bound
/// by every branch of an `or`, none for a negation or `distinct`. Sorted,
/// without repeats.
fn bound_vars(lit: &Literal) -> Vec<Var> {
    match lit {
        Literal::Pos(s) => {
            let mut vars = Vec::new();
            s.for_each_var(&mut |v| vars.push(v));
            vars.sort_unstable();
            vars.dedup();
            vars
        }
        Literal::Or(branches, _) => {
            // A variable is bound after the `or` when each branch binds it:
            // count the branches binding each (one pass, not a fold of
            // intersections, so a wide `or` stays linear).
            let mut counts: FxHashMap<Var, usize> = FxHashMap::default();
            for b in branches {
                for v in bound_vars(b) {
                    *counts.entry(v).or_default() += 1;
                }
            }
            let mut vars: Vec<Var> = counts.into_iter().filter(|&(_, n)| n == branches.len()).map(|(v, _)| v).collect();
            vars.sort_unstable();
            vars
        }
        Literal::Not(..) | Literal::Distinct(..) => Vec::new(),
    }
}

/// Rule safety (the specification's definition of a safe rule): every
/// variable of the head, of a negation and of a `distinct` occurs in a
/// positive literal of the body. A literal inside an `or` counts when every
/// branch binds the variable, which is exact: a rule with `or` stands for one
/// rule per choice of branches, and each of them must be safe.
fn check_safety(cx: &mut Cx, rule: &Rule) {
    if rule.vars.is_empty() {
        return;
    }
    let mut bound = vec![false; rule.vars.len()];
    for lit in &rule.body {
        for v in bound_vars(lit) {
            bound[v as usize] = true;
        }
    }
    let mut head_vars = Vec::new();
    rule.head.for_each_var(&mut |v| head_vars.push(v));
    let unbound = unbound_names(rule, &bound, head_vars);
    if !unbound.is_empty() {
        let d = if rule.body.is_empty() {
            cx.error(
                UNSAFE,
                format!("a fact cannot contain variables ({unbound})"),
                rule.head.span,
                "a fact with variables",
            )
            .with_help("a fact is ground: write one fact per value, or make it a rule whose body binds the variables")
        } else {
            cx.error(
                UNSAFE,
                format!("unsafe rule: {unbound} in the head must occur in a positive literal of the body"),
                rule.head.span,
                format!("{unbound} not bound by the body"),
            )
            .with_help(SAFETY_HELP)
        };
        cx.push(d);
    }
    for lit in &rule.body {
        check_bound(cx, rule, lit, &bound);
    }
}

const SAFETY_HELP: &str = "every variable of the head, of a `not` and of a `distinct` must also occur in a positive \
     literal of the body, so that the rule has finitely many instances; add one that binds it, such as a domain \
     relation `(index ?x)`";

fn check_bound(cx: &mut Cx, rule: &Rule, lit: &Literal, bound: &[bool]) {
    let (what, span) = match lit {
        Literal::Pos(_) => return,
        Literal::Or(ls, _) => {
            ls.iter().for_each(|l| check_bound(cx, rule, l, bound));
            return;
        }
        Literal::Not(_, span) => ("a negation", *span),
        Literal::Distinct(_, _, span) => ("a `distinct`", *span),
    };
    let mut vars = Vec::new();
    lit.for_each_var(&mut |v| vars.push(v));
    let unbound = unbound_names(rule, bound, vars);
    if unbound.is_empty() {
        return;
    }
    let head = cx.name(rule.head.relation).to_owned();
    let d = cx
        .error(
            UNSAFE,
            format!("unsafe rule: {unbound} in {what} must occur in a positive literal of the body"),
            span,
            format!("{unbound} not bound"),
        )
        .also(rule.head.span, format!("in this rule for `{head}`"))
        .with_help(SAFETY_HELP);
    cx.push(d);
}

/// The names of the variables of `vars` not in `bound`, in order of first
/// appearance, as "?x, ?y"; empty when all are bound.
fn unbound_names(rule: &Rule, bound: &[bool], mut vars: Vec<Var>) -> String {
    let mut seen = FxHashSet::default();
    vars.retain(|v| !bound.get(*v as usize).copied().unwrap_or(false) && seen.insert(*v));
    vars.iter().map(|v| rule.vars.get(*v as usize).map_or("?", String::as_str)).collect::<Vec<_>>().join(", ")
}

/// One spelling per name (GGP-Base's "inconsistent capitalization"): GDL
/// names are case-insensitive, but players that compare them by case would
/// see two names.
fn check_case(cx: &mut Cx) {
    let mut syms: Vec<Sym> = cx.desc.spellings.iter().filter(|(_, s)| s.len() > 1).map(|(sym, _)| *sym).collect();
    syms.sort_unstable();
    for sym in syms {
        let Some(spellings) = cx.desc.spellings.get(&sym) else { continue };
        let [(first, first_span), rest @ ..] = &spellings[..] else { continue };
        let others = rest.iter().map(|(s, _)| format!("`{s}`")).collect::<Vec<_>>().join(", ");
        let mut d = cx.error(
            CASE,
            format!("the name `{first}` is also written {others}"),
            *first_span,
            format!("first written `{first}` here"),
        );
        for (text, span) in rest {
            d = d.also(*span, format!("written `{text}` here"));
        }
        let d = d.with_help(format!(
            "GDL names are case-insensitive, but players that compare names by case would see different names: write `{first}` everywhere"
        ));
        cx.push(d);
    }
}

/// The arities each relation and function name is used with (warnings, as
/// in GGP-Base, which plays such games).
#[derive(Default)]
struct Arities {
    /// Name → arity and span of its first use.
    relations: FxHashMap<Sym, (usize, Span)>,
    functions: FxHashMap<Sym, (usize, Span)>,
    /// (relation?, name, arity) already reported as differing.
    reported: FxHashSet<(bool, Sym, usize)>,
    /// Differing uses, in order: (relation?, name, arity, span).
    differing: Vec<(bool, Sym, usize, Span)>,
}

impl Arities {
    fn add_rule(&mut self, cx: &Cx, rule: &Rule) {
        self.add_sentence(cx, &rule.head);
        for lit in &rule.body {
            for_each_sentence(lit, false, &mut |s, _| self.add_sentence(cx, s));
            self.add_distinct_terms(cx, lit);
        }
    }

    fn add_sentence(&mut self, cx: &Cx, s: &Sentence) {
        self.add(cx, true, s.relation, s.args.len(), s.span);
        for a in &s.args {
            a.for_each_function(&mut |f, n| self.add(cx, false, f, n, s.span));
        }
    }

    fn add_distinct_terms(&mut self, cx: &Cx, lit: &Literal) {
        match lit {
            Literal::Pos(_) => {}
            Literal::Not(inner, _) => self.add_distinct_terms(cx, inner),
            Literal::Or(ls, _) => ls.iter().for_each(|l| self.add_distinct_terms(cx, l)),
            Literal::Distinct(a, b, span) => {
                for p in [a, b] {
                    p.for_each_function(&mut |f, n| self.add(cx, false, f, n, *span));
                }
            }
        }
    }

    fn add(&mut self, cx: &Cx, relation: bool, sym: Sym, arity: usize, span: Span) {
        // Keywords' arities and uses as terms are errors of their own
        // (`check_sentence`).
        if cx.is_keyword(sym) || is_connective(sym) {
            return;
        }
        let map = if relation { &mut self.relations } else { &mut self.functions };
        let (first, _) = *map.entry(sym).or_insert((arity, span));
        if first != arity && self.reported.insert((relation, sym, arity)) {
            self.differing.push((relation, sym, arity, span));
        }
    }

    fn report(self, cx: &mut Cx) {
        let args = |n: usize| if n == 1 { "1 argument".to_owned() } else { format!("{n} arguments") };
        for &(relation, sym, arity, span) in &self.differing {
            let map = if relation { &self.relations } else { &self.functions };
            let Some(&(first, first_span)) = map.get(&sym) else { continue };
            let kind = if relation { "relation" } else { "function" };
            let name = cx.name(sym).to_owned();
            let d = cx
                .warning(
                    ARITY,
                    format!("the {kind} `{name}` is used with {} and with {}", args(first), args(arity)),
                    span,
                    format!("{} here", args(arity)),
                )
                .also(first_span, format!("{} first", args(first)))
                .with_help(format!(
                    "GDL gives each {kind} one arity; these are two different {kind}s that share a name, which is usually a mistake"
                ));
            cx.push(d);
        }
        // A name that is both a relation and a function is legal but often a
        // forgotten `true`: `(cell 1 1 b)` in a body instead of
        // `(true (cell 1 1 b))`.
        let mut both: Vec<(Span, Span, Sym)> = self
            .relations
            .iter()
            .filter_map(|(sym, &(_, rel_span))| self.functions.get(sym).map(|&(_, fn_span)| (rel_span, fn_span, *sym)))
            .collect();
        both.sort_unstable_by_key(|&(rel_span, _, sym)| (rel_span.start, sym));
        for (rel_span, fn_span, sym) in both {
            let name = cx.name(sym).to_owned();
            let d = cx
                .warning(ARITY, format!("`{name}` is used both as a relation and as a function"), rel_span, "as a relation")
                .also(fn_span, "as a function")
                .with_help(format!(
                    "if `{name}` is part of the state, test it with `(true ({name} ...))`; otherwise give the two different names"
                ));
            cx.push(d);
        }
    }
}
