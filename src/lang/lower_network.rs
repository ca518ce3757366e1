//! Lowering of `(network ...)` forms (src/lang/network.rs) with diagnostics
//! that point at the clause at fault: unknown inputs, nodes and activations
//! (with "did you mean"), names given twice, links into inputs, duplicate
//! links and innovation numbers, cycles, and a missing or second output.

use super::activation::Activation;
use super::forms::{PrimSetId, lower_header, weighable_terminals};
use super::network::{Link, NetGenes, NetNode, NetProblem, Network};
use super::primset::{Part, PrimId, PrimSet};
use super::syntax_helpers::Cx;
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::syntax::{Sexp, Span};

const USAGE: &str = "(network NAME (primset P) (inputs TERMINAL...) (node NAME ACTIVATION [(bias B)] [(output)])... \
                     (link FROM TO WEIGHT [(innovation N)] [(disabled)])...)";

/// A link as written, before names are resolved.
struct LinkClause<'s> {
    from: &'s Sexp,
    to: &'s Sexp,
    span: Span,
    weight: f64,
    innovation: Option<u64>,
    enabled: bool,
}

pub fn lower_network(cx: &mut Cx, form: &Sexp, ps: &PrimSet, ps_id: PrimSetId) -> Option<Network> {
    let (name, _, clauses) = lower_header(cx, form, USAGE)?;
    let errors_before = cx.diags.len();
    let mut inputs: Option<Vec<(PrimId, Span)>> = None;
    let mut nodes: Vec<(NetNode, Span)> = Vec::new();
    let mut outputs: Vec<(usize, Span)> = Vec::new();
    let mut links: Vec<LinkClause> = Vec::new();
    let mut bad_node = false;
    // Names whose clause had an error: links naming them are not reported again.
    let mut broken: Vec<&str> = Vec::new();
    for clause in clauses {
        match clause.head() {
            Some("inputs") => {
                let list = lower_inputs(cx, clause, ps, &mut broken);
                if inputs.is_some() {
                    cx.error(
                        "stratagem::lower::duplicate",
                        clause,
                        "a network has one `(inputs ...)` clause",
                        "second clause",
                    );
                } else {
                    inputs = Some(list);
                }
            }
            Some("node") => {
                if let Some((node, is_output)) = lower_node(cx, clause) {
                    if is_output {
                        outputs.push((nodes.len(), clause.span));
                    }
                    nodes.push((node, clause.span));
                } else {
                    bad_node = true;
                    broken.extend(clause.as_list().and_then(|l| l.get(1)).and_then(Sexp::as_symbol));
                }
            }
            Some("link") => links.extend(lower_link(cx, clause)),
            _ => cx.push(
                Diagnostic::error(
                    "stratagem::lower::clause",
                    "a network holds `(inputs ...)`, `(node ...)` and `(link ...)` clauses",
                )
                .at(cx.file, clause.span, format!("found {}", clause.describe()))
                .with_help(format!("usage: {USAGE}")),
            ),
        }
    }
    let inputs = inputs.unwrap_or_else(|| {
        cx.push(
            Diagnostic::error("stratagem::lower::usage", format!("network `{name}` has no `(inputs ...)` clause"))
                .at(cx.file, form.span.first_byte(), "no inputs")
                .with_help("list the F terminals the network reads: `(inputs x0 x1 ...)`, or `(inputs)` for none"),
        );
        Vec::new()
    });
    // Names: inputs, then nodes; each once.
    let mut names: Vec<&str> = inputs.iter().map(|(id, _)| ps.prim(*id).name.as_str()).collect();
    let mut kept_nodes = Vec::new();
    // Index in `kept_nodes` of each node clause (a duplicate, refused, gets the next one).
    let mut kept_index = Vec::new();
    for (node, span) in &nodes {
        kept_index.push(kept_nodes.len());
        if let Some(i) = names.iter().position(|n| *n == node.name) {
            let what = if i < inputs.len() { "an input" } else { "a node" };
            cx.push(
                Diagnostic::error("stratagem::lower::duplicate", format!("`{}` is already {what}", node.name))
                    .at(cx.file, *span, "second definition")
                    .with_help("every input and node of a network has its own name"),
            );
        } else {
            names.push(&node.name);
            kept_nodes.push(node.clone());
        }
    }
    let output = output_node(cx, (name, form), &outputs, bad_node, &kept_index);
    let mut genes =
        NetGenes { inputs: inputs.iter().map(|(id, _)| *id).collect(), nodes: kept_nodes, output, links: Vec::new() };
    let mut link_spans = Vec::new();
    for l in &links {
        let from = resolve(cx, &names, &broken, l.from);
        let to = resolve(cx, &names, &broken, l.to);
        if let (Some(from), Some(to)) = (from, to) {
            genes.links.push(Link { from, to, weight: l.weight, innovation: l.innovation, enabled: l.enabled });
            link_spans.push((l.span, l.from.span, l.to.span));
        }
    }
    // The genes hold what lowered; their own problems (links into inputs,
    // duplicates, cycles) are reported even when other clauses had errors.
    let problems = genes.problems(ps);
    for p in problems {
        report(cx, ps, &genes, &link_spans, form.span, p);
    }
    if cx.diags[errors_before..].iter().any(Diagnostic::is_error) {
        return None;
    }
    match Network::new(name.to_owned(), ps_id, ps, genes) {
        Ok(net) => Some(net.at(cx.file, form.span)),
        Err(_) => None,
    }
}

/// The node `(output)` marks, as an index into the nodes kept; a network
/// without one, or with several, is a diagnostic (none when a node clause
/// already had an error).
fn output_node(
    cx: &mut Cx,
    (name, form): (&str, &Sexp),
    outputs: &[(usize, Span)],
    bad_node: bool,
    kept_index: &[usize],
) -> usize {
    let kept = |i: usize| kept_index.get(i).copied().unwrap_or(0);
    match outputs {
        [(i, _)] => kept(*i),
        [] => {
            if !bad_node {
                cx.push(
                    Diagnostic::error(
                        "stratagem::check::network-output",
                        format!("network `{name}` has no output node"),
                    )
                    .at(cx.file, form.span.first_byte(), "no node marked `(output)`")
                    .with_help("mark the node whose value is the network's: `(node out sigmoid (output))`"),
                );
            }
            0
        }
        [(i, _), rest @ ..] => {
            for (_, span) in rest {
                cx.push(
                    Diagnostic::error("stratagem::check::network-output", "a network has exactly one output node")
                        .at(cx.file, *span, "second output")
                        .also(outputs[0].1, "first output")
                        .with_help("the network's value is one number: the output node's"),
                );
            }
            kept(*i)
        }
    }
}

/// The inputs listed; names that are not inputs go to `broken`.
fn lower_inputs<'s>(cx: &mut Cx, clause: &'s Sexp, ps: &PrimSet, broken: &mut Vec<&'s str>) -> Vec<(PrimId, Span)> {
    let Some(items) = clause.as_list() else { return Vec::new() };
    let allowed = weighable_terminals(ps);
    let mut out: Vec<(PrimId, Span)> = Vec::new();
    for item in &items[1..] {
        let Some(term) = cx.expect_symbol(item, "an F terminal of the primset") else {
            continue;
        };
        if !ps.lookup(term).is_some_and(|id| allowed.contains(&id)) {
            broken.push(term);
        }
        match ps.lookup(term).filter(|id| allowed.contains(id)) {
            Some(id) if out.iter().any(|(t, _)| *t == id) => {
                let first = out.iter().find(|(t, _)| *t == id).map_or(item.span, |(_, s)| *s);
                cx.push(
                    Diagnostic::error("stratagem::lower::duplicate", format!("input `{term}` is listed twice"))
                        .at(cx.file, item.span, "duplicate")
                        .also(first, "first listed here"),
                );
            }
            Some(id) => out.push((id, item.span)),
            None if ps.lookup(term).is_some_and(|id| ps.only_in(id) == Some(Part::Condition)) => cx.push(
                Diagnostic::error(
                    "stratagem::check::part",
                    format!("`{term}` may appear only in a policy's conditions, so it cannot be an input"),
                )
                .at(cx.file, item.span, "a condition-only terminal")
                .with_help(format!("primset `{}` marks `{term}` `(condition-only ...)`", ps.name)),
            ),
            None => {
                let mut d = Diagnostic::error(
                    "stratagem::check::network-input",
                    format!("`{term}` is not an F terminal of primset `{}`", ps.name),
                )
                .at(cx.file, item.span, "cannot be an input");
                d = match did_you_mean(term, allowed.iter().map(|id| ps.prim(*id).name.as_str())) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help("a network's inputs are F terminals (feature slots) of its primset"),
                };
                cx.push(d);
            }
        }
    }
    out
}

/// `(node NAME ACTIVATION [(bias B)] [(output)])`: the node, and whether it is the output.
fn lower_node(cx: &mut Cx, clause: &Sexp) -> Option<(NetNode, bool)> {
    const NODE: &str = "(node NAME ACTIVATION [(bias B)] [(output)])";
    let items = clause.as_list()?;
    if items.len() < 3 {
        cx.usage(clause, NODE);
        return None;
    }
    let name = cx.expect_symbol(&items[1], "a node name");
    let activation = cx.expect_symbol(&items[2], "an activation").and_then(|a| {
        let found = Activation::from_name(a);
        if found.is_none() {
            let names = Activation::ALL.map(Activation::name);
            let mut d = Diagnostic::error("stratagem::check::activation", format!("unknown activation `{a}`")).at(
                cx.file,
                items[2].span,
                "not an activation",
            );
            d = match did_you_mean(a, names) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None => d.with_help(format!("activations: {}", names.join(", "))),
            };
            cx.push(d);
        }
        found
    });
    let (mut bias, mut output, mut ok) = (None, false, true);
    for option in &items[3..] {
        match option.head() {
            Some("bias") if bias.is_none() => {
                let b = cx.expect_len(option, 2, "(bias B)").and_then(|o| cx.expect_number(&o[1], "a bias"));
                ok &= b.is_some();
                bias = Some(b.unwrap_or(0.0));
            }
            Some("output") if !output => {
                ok &= cx.expect_len(option, 1, "(output)").is_some();
                output = true;
            }
            Some(h @ ("bias" | "output")) => {
                cx.error("stratagem::lower::duplicate", option, format!("`({h} ...)` is given twice"), "duplicate");
                ok = false;
            }
            _ => {
                cx.usage(option, NODE);
                ok = false;
            }
        }
    }
    let node = NetNode { name: name?.to_owned(), activation: activation?, bias: bias.unwrap_or(0.0) };
    ok.then_some((node, output))
}

/// `(link FROM TO WEIGHT [(innovation N)] [(disabled)])`.
fn lower_link<'s>(cx: &mut Cx, clause: &'s Sexp) -> Option<LinkClause<'s>> {
    const LINK: &str = "(link FROM TO WEIGHT [(innovation N)] [(disabled)])";
    let items = clause.as_list()?;
    if items.len() < 4 {
        cx.usage(clause, LINK);
        return None;
    }
    let from = cx.expect_symbol(&items[1], "a node name").map(|_| &items[1]);
    let to = cx.expect_symbol(&items[2], "a node name").map(|_| &items[2]);
    let weight = cx.expect_number(&items[3], "a weight");
    let (mut innovation, mut enabled, mut ok) = (None, true, true);
    for option in &items[4..] {
        match option.head() {
            Some("innovation") if innovation.is_none() => {
                let n = cx
                    .expect_len(option, 2, "(innovation N)")
                    .and_then(|o| cx.expect_int(&o[1], "an innovation number"));
                match n.map(u64::try_from) {
                    Some(Ok(n)) => innovation = Some(n),
                    Some(Err(_)) => {
                        let at = option.as_list().and_then(|o| o.get(1)).unwrap_or(option);
                        cx.error("stratagem::lower::expected", at, "an innovation number is not negative", "negative");
                        ok = false;
                    }
                    None => ok = false,
                }
            }
            Some("disabled") if enabled => {
                ok &= cx.expect_len(option, 1, "(disabled)").is_some();
                enabled = false;
            }
            Some(h @ ("innovation" | "disabled")) => {
                cx.error("stratagem::lower::duplicate", option, format!("`({h} ...)` is given twice"), "duplicate");
                ok = false;
            }
            _ => {
                cx.usage(option, LINK);
                ok = false;
            }
        }
    }
    let clause = LinkClause { from: from?, to: to?, span: clause.span, weight: weight?, innovation, enabled };
    ok.then_some(clause)
}

fn resolve(cx: &mut Cx, names: &[&str], broken: &[&str], sexp: &Sexp) -> Option<usize> {
    let name = sexp.as_symbol()?;
    let found = names.iter().position(|n| *n == name);
    if found.is_none() && !broken.contains(&name) {
        let mut d = Diagnostic::error("stratagem::check::network-node", format!("no input or node named `{name}`")).at(
            cx.file,
            sexp.span,
            "unknown node",
        );
        d = match did_you_mean(name, names.iter().copied()) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None => d.with_help("a link joins two names of the network's `(inputs ...)` and `(node ...)` clauses"),
        };
        cx.push(d);
    }
    found
}

/// A problem of the genes as a diagnostic at the link (or form) at fault.
fn report(cx: &mut Cx, ps: &PrimSet, genes: &NetGenes, spans: &[(Span, Span, Span)], form: Span, p: NetProblem) {
    let link = |i: usize| spans.get(i).map_or((form, form, form), |s| *s);
    let d = match p {
        NetProblem::IntoInput(i) => {
            let name = genes.node_name(ps, genes.links[i].to);
            Diagnostic::error("stratagem::check::network-link", format!("a link into input `{name}`"))
                .at(cx.file, link(i).2, "an input")
                .with_help("inputs take their value from the position; links go into hidden or output nodes")
        }
        NetProblem::DuplicateLink { link: i, first } => {
            let (a, b) = (genes.node_name(ps, genes.links[i].from), genes.node_name(ps, genes.links[i].to));
            Diagnostic::error("stratagem::check::network-link", format!("a second link from `{a}` to `{b}`"))
                .at(cx.file, link(i).0, "duplicate")
                .also(link(first).0, "first link")
                .with_help("NEAT gives a connection one gene; add the weights into one link")
        }
        NetProblem::DuplicateInnovation { link: i, first } => Diagnostic::error(
            "stratagem::check::network-link",
            format!("innovation number {} is given twice", genes.links[i].innovation.unwrap_or(0)),
        )
        .at(cx.file, link(i).0, "duplicate")
        .also(link(first).0, "first given here")
        .with_help("an innovation number names one connection gene"),
        NetProblem::Cycle(cycle) => {
            let mut path: Vec<&str> = cycle.iter().map(|&l| genes.node_name(ps, genes.links[l].from)).collect();
            if let Some(first) = path.first().copied() {
                path.push(first);
            }
            let mut d = Diagnostic::error(
                "stratagem::check::network-cycle",
                format!("the enabled links form a cycle: {}", path.join(" -> ")),
            );
            for (k, &l) in cycle.iter().enumerate() {
                d = if k == 0 { d.at(cx.file, link(l).0, "in the cycle") } else { d.also(link(l).0, "in the cycle") };
            }
            d.with_help("networks are feed-forward: remove a link of the cycle or mark it `(disabled)`")
        }
        // Lowering reports these before the genes exist (unknown inputs and
        // nodes are left out of them, the reader refuses infinite numbers).
        NetProblem::NotFinite(_) | NetProblem::BadInput(_) | NetProblem::NoOutput | NetProblem::UnknownNode(_) => {
            return;
        }
    };
    cx.push(d);
}
