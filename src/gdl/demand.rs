//! Demand for the relaxed game: which arguments of a relation every call
//! binds, so that grounding instantiates its rules only for the values some
//! rule can ask for (the magic-sets idea, on the relaxed game).
//!
//! crisscross only asks `(count e3 e4 f3 f4 red ?p)` and merrills only
//! `(count_loop inner ne 0 0 ?w ?b)` (and the recursion from there), but
//! their rules, grounded for every value, make hundreds of thousands of
//! atoms no rule reads. A ground rule whose head no ground rule reads
//! changes no output, so leaving it out keeps the program's meaning: every
//! atom read (positively by a kept instance, or negatively, or an output)
//! still has all its rules.

use rustc_hash::{FxHashMap, FxHashSet};

use super::description::{self as d, Pattern, Sentence, Var};
use super::normal_form::Lit;
use super::term::Sym;

/// A relation, by name and arity.
pub(super) type Key = (Sym, usize);

/// For each relation whose rules may be restricted to demanded values, the
/// argument places every call binds (at least one). Calls bind, left to
/// right, what the head's demanded places and the positive literals before
/// them bind. Outputs, `true`, `does`, static relations (`fixed`) and
/// relations read under negation are never restricted.
pub(super) fn adornments(alternatives: &[(&Sentence, &[Lit])], fixed: &FxHashSet<Key>) -> FxHashMap<Key, Vec<bool>> {
    let reserved = [d::ROLE, d::INIT, d::TRUE, d::NEXT, d::LEGAL, d::DOES, d::GOAL, d::TERMINAL];
    let mut negated: FxHashSet<Key> = FxHashSet::default();
    for (_, body) in alternatives {
        for lit in *body {
            if let Lit::Neg(s) = lit {
                negated.insert(key(s));
            }
        }
    }
    let mut adorn: FxHashMap<Key, Vec<bool>> = FxHashMap::default();
    for (head, _) in alternatives {
        let k = key(head);
        if !reserved.contains(&k.0) && !fixed.contains(&k) && !negated.contains(&k) && k.1 > 0 {
            adorn.insert(k, vec![true; k.1]);
        }
    }
    // Places only shrink, so this ends.
    loop {
        let mut changed = false;
        for (head, body) in alternatives {
            let mut bound: FxHashSet<Var> = FxHashSet::default();
            if let Some(places) = adorn.get(&key(head)) {
                for (arg, &b) in head.args.iter().zip(places) {
                    if b {
                        arg.for_each_var(&mut |v| {
                            bound.insert(v);
                        });
                    }
                }
            }
            for lit in *body {
                let Lit::Pos(s) = lit else { continue };
                if let Some(places) = adorn.get_mut(&key(s)) {
                    for (place, arg) in places.iter_mut().zip(&s.args) {
                        if *place && !all_bound(arg, &bound) {
                            *place = false;
                            changed = true;
                        }
                    }
                }
                for arg in &s.args {
                    arg.for_each_var(&mut |v| {
                        bound.insert(v);
                    });
                }
            }
        }
        if !changed {
            break;
        }
    }
    adorn.retain(|_, places| places.iter().any(|&b| b));
    adorn
}

/// The arguments of `s` at its demanded `places`.
pub(super) fn demanded_args(s: &Sentence, places: &[bool]) -> Vec<Pattern> {
    s.args.iter().zip(places).filter(|(_, b)| **b).map(|(a, _)| a.clone()).collect()
}

fn key(s: &Sentence) -> Key {
    (s.relation, s.args.len())
}

fn all_bound(p: &Pattern, bound: &FxHashSet<Var>) -> bool {
    let mut ok = true;
    p.for_each_var(&mut |v| ok &= bound.contains(&v));
    ok
}
