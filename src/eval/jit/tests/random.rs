//! A small seeded generator of well-typed random trees, policies, weight
//! vectors, networks and rows over any primset, for the differential tests. Values are
//! drawn often from the IEEE corner cases (±0, ±inf, NaN, subnormals, huge
//! values, the pdiv threshold) so that every builtin meets them.

use crate::diagnostic::FileId;
use crate::lang::forms::{PrimSetId, Rule};
use crate::lang::{Base, Loader, Network, Node, Policy, PrimId, PrimKind, PrimSet, Tree, TypeId, Value, Weights};
use crate::syntax::Span;

/// splitmix64: tiny, seedable, good enough for test data.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

pub const SPECIAL_F: [f64; 18] = [
    0.0,
    -0.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    5e-324,
    -5e-324,
    f64::MIN_POSITIVE,
    1e308,
    -1e308,
    f64::MAX,
    1e-9,
    -1e-9,
    9.99e-10,
    1.0,
    -1.0,
    0.5,
    2.5,
];

pub const SPECIAL_I: [i64; 7] = [0, 1, -1, 2, i64::MIN, i64::MAX, -7];

pub fn random_value(rng: &mut Rng, base: Base) -> Value {
    match base {
        Base::F => Value::F(match rng.below(4) {
            0 | 1 => SPECIAL_F[rng.below(SPECIAL_F.len())],
            2 => (rng.next() >> 11) as f64 / (1u64 << 52) as f64 * 4.0 - 2.0,
            _ => f64::from_bits(rng.next()),
        }),
        Base::I => Value::I(match rng.below(3) {
            0 => SPECIAL_I[rng.below(SPECIAL_I.len())],
            1 => rng.below(21) as i64 - 10,
            _ => rng.next() as i64,
        }),
        Base::B => Value::B(rng.chance(0.5)),
    }
}

/// A random tree of type `ty` no deeper than `max_depth` ("grow": any
/// primitive at any level, leaves forced at the limit).
pub fn random_tree(rng: &mut Rng, ps: &PrimSet, ty: TypeId, max_depth: usize) -> Tree {
    let mut nodes = Vec::new();
    grow(rng, ps, ty, max_depth, &mut nodes);
    Tree { nodes, spans: Vec::new() }
}

fn grow(rng: &mut Rng, ps: &PrimSet, ty: TypeId, depth_left: usize, nodes: &mut Vec<Node>) {
    let candidates: Vec<PrimId> = (0..ps.prims.len() as u32)
        .map(PrimId)
        .filter(|id| {
            let p = ps.prim(*id);
            p.ret == ty && (depth_left > 1 || p.arity() == 0)
        })
        .collect();
    if candidates.is_empty() || rng.chance(0.12) {
        nodes.push(Node::Const(random_value(rng, ps.base(ty))));
        return;
    }
    let id = candidates[rng.below(candidates.len())];
    nodes.push(Node::Prim(id));
    for arg in ps.prim(id).args.clone() {
        grow(rng, ps, arg, depth_left - 1, nodes);
    }
}

pub fn random_policy(rng: &mut Rng, ps: &PrimSet, max_depth: usize) -> Policy {
    let rules = (0..rng.below(4))
        .map(|_| Rule {
            condition: random_tree(rng, ps, TypeId::B, max_depth),
            value: random_tree(rng, ps, TypeId::F, max_depth),
        })
        .collect();
    Policy {
        name: "p".into(),
        primset: PrimSetId(0),
        rules,
        default: random_tree(rng, ps, TypeId::F, max_depth),
        file: FileId(0),
        span: Span::default(),
    }
}

pub fn random_weights(rng: &mut Rng, ps: &PrimSet) -> Weights {
    let features: Vec<PrimId> =
        (0..ps.prims.len() as u32).map(PrimId).filter(|id| matches!(ps.prim(*id).kind, PrimKind::Feature(_))).collect();
    let terms = (0..rng.below(6))
        .filter_map(|_| {
            let id = *features.get(rng.below(features.len()))?;
            let Value::F(w) = random_value(rng, Base::F) else { return None };
            Some((id, w))
        })
        .collect();
    Weights { name: "w".into(), primset: PrimSetId(0), terms, file: FileId(0), span: Span::default() }
}

/// A random feed-forward network over `ps`'s F features: nodes may read
/// inputs and earlier nodes, so enabled links form no cycle; a few disabled
/// links point backwards (cycles that are not expressed). Weights and
/// biases are finite: moderate ones most often, so that activations leave
/// their flat parts, and IEEE corner cases otherwise.
pub fn random_network(rng: &mut Rng, ps: &PrimSet) -> Network {
    use crate::lang::activation::Activation;
    use crate::lang::network::{Link, NetGenes, NetNode};
    let mut features: Vec<PrimId> = (0..ps.prims.len() as u32)
        .map(PrimId)
        .filter(|id| matches!(ps.prim(*id).kind, PrimKind::Feature(_)) && ps.base(ps.prim(*id).ret) == Base::F)
        .collect();
    let mut inputs = Vec::new();
    for _ in 0..rng.below(features.len() + 1) {
        inputs.push(features.swap_remove(rng.below(features.len())));
    }
    let weight = |rng: &mut Rng| loop {
        let w = match rng.below(3) {
            0 => match random_value(rng, Base::F) {
                Value::F(x) => x,
                _ => 0.0,
            },
            _ => (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 16.0 - 8.0,
        };
        if w.is_finite() {
            break w;
        }
    };
    let n_nodes = 1 + rng.below(6);
    let nodes: Vec<NetNode> = (0..n_nodes)
        .map(|i| NetNode {
            name: format!("n{i}"),
            activation: Activation::ALL[rng.below(Activation::ALL.len())],
            bias: if rng.chance(0.5) { 0.0 } else { weight(rng) },
        })
        .collect();
    let n_in = inputs.len();
    let mut links: Vec<Link> = Vec::new();
    for _ in 0..rng.below(4 * n_nodes + 2) {
        let to = n_in + rng.below(n_nodes);
        let backwards = rng.chance(0.1);
        if !backwards && to == 0 {
            continue;
        }
        let from = if backwards { to + rng.below(n_in + n_nodes - to) } else { rng.below(to) };
        if links.iter().any(|l| l.from == from && l.to == to) {
            continue;
        }
        let innovation = if rng.chance(0.8) { Some(links.len() as u64) } else { None };
        links.push(Link { from, to, weight: weight(rng), innovation, enabled: !backwards && rng.chance(0.9) });
    }
    let genes = NetGenes { inputs, nodes, output: rng.below(n_nodes), links };
    Network::new("net".into(), PrimSetId(0), ps, genes.clone()).unwrap_or_else(|e| panic!("{e:?} {genes:?}"))
}

/// A row of slot bit patterns, each slot drawn as its feature's type.
pub fn random_row(rng: &mut Rng, ps: &PrimSet) -> Vec<u64> {
    let mut row = vec![0u64; ps.features.len()];
    for p in &ps.prims {
        if let PrimKind::Feature(slot) = p.kind {
            row[slot as usize] = random_value(rng, ps.base(p.ret)).to_bits();
        }
    }
    row
}

/// Loads a primset from text; panics (in tests only) on diagnostics.
pub fn load_primset(text: &str, name: &str) -> PrimSet {
    let mut loader = Loader::new();
    loader.load_text("(test)", text);
    assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
    let id = loader.module.find_primset(name).expect("primset defined");
    loader.module.primset(id).clone()
}

/// Every builtin at every type it accepts, definitions (a derived terminal,
/// nested definitions, a definition using a lazy builtin), and natives.
pub const FULL_PRIMSET: &str = r#"
(primset full
  (type Cnt I)
  (terminal x F) (terminal y F) (terminal z F)
  (terminal n Cnt) (terminal m Cnt)
  (terminal p B) (terminal q B)
  (function + (F F) F (builtin add)) (function - (F F) F (builtin sub))
  (function * (F F) F (builtin mul)) (function pdiv (F F) F (builtin pdiv))
  (function neg (F) F (builtin neg)) (function abs (F) F (builtin abs))
  (function min (F F) F (builtin min)) (function max (F F) F (builtin max))
  (function i+ (Cnt Cnt) Cnt (builtin add)) (function i- (Cnt Cnt) Cnt (builtin sub))
  (function i* (Cnt Cnt) Cnt (builtin mul)) (function ineg (Cnt) Cnt (builtin neg))
  (function iabs (Cnt) Cnt (builtin abs))
  (function imin (Cnt Cnt) Cnt (builtin min)) (function imax (Cnt Cnt) Cnt (builtin max))
  (function if (B F F) F (builtin if)) (function iif (B Cnt Cnt) Cnt (builtin if))
  (function bif (B B B) B (builtin if))
  (function < (F F) B (builtin lt)) (function <= (F F) B (builtin le))
  (function > (F F) B (builtin gt)) (function >= (F F) B (builtin ge))
  (function = (F F) B (builtin eq))
  (function i< (Cnt Cnt) B (builtin lt)) (function i<= (Cnt Cnt) B (builtin le))
  (function i> (Cnt Cnt) B (builtin gt)) (function i>= (Cnt Cnt) B (builtin ge))
  (function i= (Cnt Cnt) B (builtin eq))
  (function and (B B) B (builtin and)) (function or (B B) B (builtin or))
  (function not (B) B (builtin not)) (function nand (B B) B (builtin nand))
  (function nor (B B) B (builtin nor)) (function xor (B B) B (builtin xor))
  (function first (F B) F (builtin first)) (function ifirst (Cnt F) Cnt (builtin first))
  (function not-first (B B) B (builtin not-first))
  (function float (Cnt) F (builtin float))
  (define sq ((a F)) F (* a a))
  (define half F (* x 0.5))
  (define sel ((c B) (a F) (b F)) F (if c (sq a) (neg b)))
  (define clamp ((a Cnt)) Cnt (imin (imax a -3) 3))
  (define mix ((a F) (k Cnt)) F (sel (i< k 0) a (float (clamp k))))
  (literals F) (literals Cnt)
  (tree eval F))
"#;

/// `FULL_PRIMSET` plus natives (answered by the test context).
pub const NATIVE_PRIMSET: &str = r#"
(primset nat
  (extends full)
  (domain test)
  (function nf (F Cnt) F)
  (function nb (F) B)
  (function ni (Cnt) Cnt)
  (define twice ((a F)) F (nf (nf a 1) 2)))
"#;
