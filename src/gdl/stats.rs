//! Estimates for literal order: how many facts a literal would match, from
//! sample facts of each relation (the static tables and one evaluation of
//! the initial state).

use rustc_hash::{FxHashMap, FxHashSet};

use super::description::{Pattern, Var};
use super::term::{Path, Sym};

/// Sample facts of every relation, taken from the static tables and from one
/// evaluation of the initial state: the prover orders each rule's literals by
/// how many facts each would match, estimated on them.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Per relation (name, arity): its size and up to [`SAMPLE`] facts.
    samples: FxHashMap<(Sym, usize), (usize, Vec<Fact>)>,
}

/// A fact's arguments.
type Fact = Vec<super::term::Term>;

/// How many facts of a relation the estimates look at.
pub const SAMPLE: usize = 400;

impl Stats {
    pub fn record(&mut self, name: Sym, arity: usize, size: usize, facts: Vec<Vec<super::term::Term>>) {
        self.samples.insert((name, arity), (size, facts));
    }

    /// The expected number of facts of `relation` that match `args` once the
    /// variables in `bound` have values: the facts whose constants and
    /// function names fit, divided by the number of distinct values at each
    /// bound variable's place.
    pub(super) fn estimate(&self, relation: Sym, args: &[Pattern], bound: &FxHashSet<Var>) -> f64 {
        let Some((size, facts)) = self.samples.get(&(relation, args.len())) else { return 1.0 };
        // Facts with the literal's function names; constants and bound
        // variables then divide by the distinct values found at their place
        // (a sample from one state says little about which constants occur).
        let fitting: Vec<&Vec<super::term::Term>> =
            facts.iter().filter(|f| args.iter().zip(f.iter()).all(|(p, t)| fits_shape(p, t))).collect();
        if fitting.is_empty() {
            return (*size as f64 * 0.5).max(1.0);
        }
        let mut estimate = fitting.len() as f64 * (*size as f64 / facts.len() as f64);
        let mut places: Vec<(Option<Var>, Path)> = Vec::new();
        for (i, a) in args.iter().enumerate().take(256) {
            known_places(a, &mut vec![i as u8], &mut places);
        }
        let mut seen: Vec<Var> = Vec::new();
        for (v, path) in places {
            match v {
                Some(v) if !bound.contains(&v) || seen.contains(&v) => continue,
                Some(v) => seen.push(v),
                None => {}
            }
            let mut values: FxHashSet<u64> = FxHashSet::default();
            for f in &fitting {
                if let Some(t) = at_path(f, &path) {
                    values.insert(t.hash64());
                }
            }
            estimate /= values.len().max(1) as f64;
        }
        estimate
    }
}

/// Whether ground `t` has the function names and arities of `p`.
fn fits_shape(p: &Pattern, t: &super::term::Term) -> bool {
    use super::term::Term;
    match (p, t) {
        (Pattern::Var(_) | Pattern::Const(_), _) => true,
        (Pattern::Fn(name, args), Term::Fn(c)) => {
            c.functor == *name
                && c.args.len() == args.len()
                && args.iter().zip(c.args.iter()).all(|(p, t)| fits_shape(p, t))
        }
        _ => false,
    }
}

/// The places of constants (`None`) and variables in `p`.
fn known_places(p: &Pattern, path: &mut Path, out: &mut Vec<(Option<Var>, Path)>) {
    match p {
        Pattern::Var(v) => out.push((Some(*v), path.clone())),
        Pattern::Const(_) => out.push((None, path.clone())),
        Pattern::Fn(_, args) => {
            for (i, a) in args.iter().enumerate().take(256) {
                path.push(i as u8);
                known_places(a, path, out);
                path.pop();
            }
        }
    }
}

fn at_path<'t>(fact: &'t [super::term::Term], path: &[u8]) -> Option<&'t super::term::Term> {
    let mut t = fact.get(usize::from(*path.first()?))?;
    for &step in &path[1..] {
        t = t.args().get(usize::from(step))?;
    }
    Some(t)
}
