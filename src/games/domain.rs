//! The binding between games and primitive sets: a game declares, in Rust,
//! the terminals it computes and the native functions it offers; a primset
//! names them (`(domain lose-checkers) (terminal Mobility F) (function
//! IsEmptySquare (X Y) B)`), and [`Binding`] ties each primset slot to its
//! Rust function once, with a diagnostic for every name or type that does not
//! fit.
//!
//! During evaluation a [`PositionContext`] fills only the feature slots an
//! individual reads and answers native calls for the position at hand.

use std::sync::Arc;

use crate::diagnostic::{Diagnostic, suggest_or_list};
use crate::eval::interp::Context;
use crate::lang::{Base, PrimKind, PrimSet, Value};

use super::duel::PlayerError;
use super::{Game, Player, TwoPlayer};
use crate::rng::GpRng;

/// A terminal computed by a closure: the slot's bit pattern.
pub type SharedCompute<S> = Arc<dyn Fn(&S, Player) -> u64 + Send + Sync>;

/// Terminals computed together, for games where one computation yields
/// many (the gdl primset's 40 projection inputs come from one pass over a
/// state's fluents): [`Binding::fill`] runs it once for all the parts a
/// program reads.
pub struct FeatureGroup<S> {
    /// How many terminals it computes, at most [`MAX_GROUP_PARTS`].
    parts: usize,
    /// Writes every part's slot bit pattern into the slice (`parts` long).
    fill: GroupFill<S>,
}

/// What computes a [`FeatureGroup`].
type GroupFill<S> = Box<dyn Fn(&S, Player, &mut [u64]) + Send + Sync>;

/// The most parts a [`FeatureGroup`] has: [`Binding::fill`] keeps them on
/// its stack.
pub const MAX_GROUP_PARTS: usize = 64;

impl<S> FeatureGroup<S> {
    /// A group of `parts` terminals computed by `fill`.
    ///
    /// # Panics
    /// If `parts` exceeds [`MAX_GROUP_PARTS`]: a game's definition, never user input.
    pub fn new(parts: usize, fill: impl Fn(&S, Player, &mut [u64]) + Send + Sync + 'static) -> Arc<FeatureGroup<S>> {
        assert!(parts <= MAX_GROUP_PARTS, "a feature group of {parts} parts");
        Arc::new(FeatureGroup { parts, fill: Box::new(fill) })
    }

    fn fill(&self, state: &S, me: Player, out: &mut [u64; MAX_GROUP_PARTS]) {
        (self.fill)(state, me, &mut out[..self.parts]);
    }
}

/// How a terminal is computed for a player.
pub enum Compute<S> {
    F(fn(&S, Player) -> f64),
    B(fn(&S, Player) -> bool),
    /// A terminal computed with what the game holds besides the state (a
    /// GDL game read at run time reasons with its rules), as a slot's bit
    /// pattern of the given base.
    Shared(Base, SharedCompute<S>),
    /// Part `i` of a group computed together.
    Part(Base, Arc<FeatureGroup<S>>, usize),
}

impl<S> Clone for Compute<S> {
    fn clone(&self) -> Self {
        match self {
            Compute::F(f) => Compute::F(*f),
            Compute::B(f) => Compute::B(*f),
            Compute::Shared(base, f) => Compute::Shared(*base, Arc::clone(f)),
            Compute::Part(base, group, i) => Compute::Part(*base, Arc::clone(group), *i),
        }
    }
}

impl<S> Compute<S> {
    pub fn base(&self) -> Base {
        match self {
            Compute::F(_) => Base::F,
            Compute::B(_) => Base::B,
            Compute::Shared(base, _) | Compute::Part(base, _, _) => *base,
        }
    }

    /// The slot bit pattern of the terminal's value (a part of a group
    /// computes the whole group: [`Binding::fill`] shares it between parts).
    #[inline]
    pub fn slot(&self, state: &S, me: Player) -> u64 {
        match self {
            Compute::F(f) => f(state, me).to_bits(),
            Compute::B(f) => u64::from(f(state, me)),
            Compute::Shared(_, f) => f(state, me),
            Compute::Part(_, group, i) => {
                let mut parts = [0; MAX_GROUP_PARTS];
                group.fill(state, me, &mut parts);
                parts[*i]
            }
        }
    }
}

/// A terminal the game computes.
pub struct FeatureDef<S> {
    pub name: String,
    pub compute: Compute<S>,
}

/// The Rust side of a native function: the position, the evaluated player, the arguments.
pub type NativeFn<S> = fn(&S, Player, &[Value]) -> Value;

/// A native function as a closure.
pub type SharedNative<S> = Arc<dyn Fn(&S, Player, &[Value]) -> Value + Send + Sync>;

/// A native function: a plain function, or one computed with what the game
/// holds besides the state (as [`Compute::Shared`]).
pub enum NativeCall<S> {
    Fn(NativeFn<S>),
    Shared(SharedNative<S>),
}

impl<S> Clone for NativeCall<S> {
    fn clone(&self) -> Self {
        match self {
            NativeCall::Fn(f) => NativeCall::Fn(*f),
            NativeCall::Shared(f) => NativeCall::Shared(Arc::clone(f)),
        }
    }
}

impl<S> NativeCall<S> {
    #[inline]
    pub fn call(&self, state: &S, me: Player, args: &[Value]) -> Value {
        match self {
            NativeCall::Fn(f) => f(state, me, args),
            NativeCall::Shared(f) => f(state, me, args),
        }
    }
}

/// A native function the game offers: name, argument and result bases.
pub struct NativeDef<S> {
    pub name: String,
    pub args: Vec<Base>,
    pub ret: Base,
    pub call: NativeCall<S>,
}

/// A node of a puzzle's heuristic search, as a program guiding it sees it
/// (GP-Rush's terminals describe the search as well as the board: seeds/000
/// table 1-6, lower part).
#[derive(Clone, Debug)]
pub struct SearchNode<S, M> {
    pub state: S,
    /// The state before the last move, and that move; none at the start.
    pub parent: Option<(S, M)>,
    /// The cost of the path from the start (the number of moves).
    pub g: u32,
    /// The children the search generated at the parent (0 at the start).
    pub siblings: u32,
    /// The puzzle's difficulty relative to the other puzzles of its set,
    /// from 0 to 1 (see the solver that sets it).
    pub difficulty: f64,
}

/// A game whose positions GP programs can evaluate.
pub trait GpDomain: Game + Sync {
    /// The name primsets declare with `(domain NAME)`: the game's, unless
    /// variants of one game share their terminals.
    fn domain(&self) -> &str {
        self.name()
    }
    /// The terminals primsets of this domain may declare.
    fn features(&self) -> Vec<FeatureDef<Self::State>>;
    /// The native functions primsets of this domain may declare.
    fn natives(&self) -> Vec<NativeDef<Self::State>>;
    /// The benchmark evaluation: material from `me`'s point of view, in the
    /// direction the game rewards (fewer pieces is better in lose checkers).
    fn material(&self, state: &Self::State, me: Player) -> f64;
    /// The terminals primsets of this domain may declare for a search node
    /// (a puzzle's heuristic search): the state's and the search's. None
    /// unless the game is a puzzle that offers them.
    fn node_features(&self) -> Vec<FeatureDef<SearchNode<Self::State, Self::Move>>> {
        Vec::new()
    }
    /// A player the game reads itself from `text`, for games whose players
    /// are more than an evaluation at a depth (backgammon's
    /// `gp:FILE:NAME:ply=2`, a two-tree individual that looks two plies
    /// ahead over the dice): `None` if the game reads no players itself.
    fn own_player(&self, text: &str) -> Option<Result<Arc<dyn OwnPlayer<Self>>, PlayerError>>
    where
        Self: Sized,
    {
        let _ = text;
        None
    }

    /// Whether `ps` binds to what this game's programs evaluate: its
    /// positions, unless the game evaluates something else (an ant's view
    /// and memory in Ant Wars).
    fn check_primset(&self, ps: &PrimSet) -> Result<(), Vec<Diagnostic>>
    where
        Self: Sized,
    {
        Binding::new(self, ps).map(|_| ())
    }
}

/// A player a game reads itself ([`GpDomain::own_player`]), shared by the
/// threads that play it.
pub trait OwnPlayer<G: Game>: Send + Sync {
    /// Its move in `state`, where it is to move; its random choices come
    /// from `rng`.
    fn choose(&self, game: &G, state: &G::State, rng: &mut GpRng) -> Option<G::Move>;

    /// Its value of each legal move in `state` (in the order of
    /// [`Game::legal_moves`]), where it values moves.
    fn values(&self, game: &G, state: &G::State) -> Option<Vec<f64>> {
        let _ = (game, state);
        None
    }
}

/// A two-player game that GP programs evaluate and play on many threads: the
/// one bound `play`, evolution by games and the REPL share.
pub trait GpGame:
    GpDomain + TwoPlayer<State: Send + Sync + 'static, Move: Send + Sync + 'static> + Send + 'static
{
}

impl<G> GpGame for G where
    G: GpDomain + TwoPlayer<State: Send + Sync + 'static, Move: Send + Sync + 'static> + Send + 'static
{
}

/// Primset slots bound to a game's functions.
pub struct Binding<S> {
    /// Per feature slot of the primset; `None` for slots the domain does not
    /// compute (only possible when the primset was bound leniently).
    pub features: Vec<Option<Compute<S>>>,
    /// Per native index of the primset.
    pub natives: Vec<NativeCall<S>>,
}

impl<S> Binding<S> {
    /// Fills the slots `used` of `values` (the primset's slots) for `state`
    /// as seen by `me`. Programs without natives read their slots only, so
    /// their callers fill a local [`Slots`] rather than make a
    /// [`PositionContext`]: a context returned by value was a 300-byte copy
    /// at every leaf of a search (a tenth of an evolution run's time on
    /// Morris).
    /// A group's parts share one run of the group (a second group read in
    /// between would run the first again).
    #[inline]
    pub fn fill(&self, state: &S, me: Player, used: &[u32], values: &mut [u64]) {
        // The group last computed, and its parts (only games with groups
        // pay for the array).
        let mut computed: Option<(*const FeatureGroup<S>, [u64; MAX_GROUP_PARTS])> = None;
        for &slot in used {
            values[slot as usize] = match &self.features[slot as usize] {
                None => continue,
                Some(Compute::Part(_, group, i)) => {
                    let parts = match &mut computed {
                        Some((last, parts)) if std::ptr::eq(*last, Arc::as_ptr(group)) => parts,
                        _ => {
                            let (_, parts) = computed.insert((Arc::as_ptr(group), [0; MAX_GROUP_PARTS]));
                            group.fill(state, me, parts);
                            parts
                        }
                    };
                    parts[*i]
                }
                Some(compute) => compute.slot(state, me),
            };
        }
    }

    /// Binds `ps` to `game`, reporting every terminal or function the game
    /// does not provide (with suggestions) and every type that does not match.
    pub fn new<G: GpDomain<State = S>>(game: &G, ps: &PrimSet) -> Result<Binding<S>, Vec<Diagnostic>> {
        Binding::bind(ps, game.name(), game.domain(), game.features(), game.natives())
    }

    /// Binds `ps` to terminals and natives over some state `S` of `game`
    /// other than its positions: a game whose players see only part of the
    /// board evaluates what a player sees and remembers, not the board.
    pub fn from_defs(
        ps: &PrimSet,
        game: &str,
        domain: &str,
        feature_defs: Vec<FeatureDef<S>>,
        native_defs: Vec<NativeDef<S>>,
    ) -> Result<Binding<S>, Vec<Diagnostic>> {
        Binding::bind(ps, game, domain, feature_defs, native_defs)
    }

    fn bind(
        ps: &PrimSet,
        game: &str,
        domain: &str,
        feature_defs: Vec<FeatureDef<S>>,
        native_defs: Vec<NativeDef<S>>,
    ) -> Result<Binding<S>, Vec<Diagnostic>> {
        let mut diags = Vec::new();
        if ps.domain.as_deref() != Some(domain) {
            let found = ps.domain.as_deref().map_or("no domain".to_owned(), |d| format!("domain `{d}`"));
            diags.push(
                Diagnostic::error("stratagem::domain::mismatch", format!("primset `{}` is not for {game}", ps.name))
                    .at(ps.file, ps.span.first_byte(), format!("declares {found}"))
                    .with_help(format!("a primset for this game declares `(domain {domain})`")),
            );
            return Err(diags);
        }
        let mut features = vec![None; ps.features.len()];
        let mut natives = Vec::with_capacity(ps.natives.len());
        for prim in &ps.prims {
            match prim.kind {
                PrimKind::Feature(slot) => match feature_defs.iter().find(|f| f.name == prim.name) {
                    Some(def) if def.compute.base() == ps.base(prim.ret) => {
                        features[slot as usize] = Some(def.compute.clone())
                    }
                    Some(def) => diags.push(type_mismatch(ps, prim, def.compute.base().name())),
                    None => {
                        diags.push(unknown(ps, prim, game, feature_defs.iter().map(|f| f.name.as_str()), "terminal"))
                    }
                },
                PrimKind::Native(_) => match native_defs.iter().find(|n| n.name == prim.name) {
                    Some(def) => {
                        let bases: Vec<Base> = prim.args.iter().map(|a| ps.base(*a)).collect();
                        if bases == def.args && ps.base(prim.ret) == def.ret {
                            natives.push(def.call.clone());
                        } else {
                            let args: Vec<&str> = def.args.iter().map(|b| b.name()).collect();
                            diags.push(type_mismatch(ps, prim, &format!("({}) {}", args.join(" "), def.ret.name())));
                        }
                    }
                    None => {
                        diags.push(unknown(ps, prim, game, native_defs.iter().map(|n| n.name.as_str()), "function"))
                    }
                },
                _ => {}
            }
        }
        if diags.is_empty() { Ok(Binding { features, natives }) } else { Err(diags) }
    }
}

impl<S, M> Binding<SearchNode<S, M>> {
    /// Binds `ps` to `game`'s search nodes ([`GpDomain::node_features`]).
    pub fn for_search<G: GpDomain<State = S, Move = M>>(game: &G, ps: &PrimSet) -> Result<Self, Vec<Diagnostic>> {
        Binding::bind(ps, game.name(), game.domain(), game.node_features(), Vec::new())
    }
}

fn type_mismatch(ps: &PrimSet, prim: &crate::lang::Primitive, domain_sig: &str) -> Diagnostic {
    Diagnostic::error("stratagem::domain::type", format!("`{}` does not have the type the domain gives it", prim.name))
        .at(prim.file, prim.span, format!("declared here in primset `{}`", ps.name))
        .with_help(format!("the domain computes `{}` as {domain_sig} (over bases F, I, B)", prim.name))
}

fn unknown<'a>(
    ps: &PrimSet,
    prim: &crate::lang::Primitive,
    game: &str,
    names: impl Iterator<Item = &'a str> + Clone,
    what: &str,
) -> Diagnostic {
    Diagnostic::error("stratagem::domain::unknown", format!("{game} has no {what} `{}`", prim.name))
        .at(prim.file, prim.span, format!("declared in primset `{}`", ps.name))
        .with_help(suggest_or_list(&prim.name, names, &format!("{game} offers")))
}

/// Feature slots kept on the stack: a search evaluates millions of leaves,
/// and a heap buffer per leaf cost a sixth of the search time.
const INLINE_SLOTS: usize = 32;

/// The feature slots of one evaluation: inline for primsets of up to
/// [`INLINE_SLOTS`] slots (all shipped ones), on the heap beyond.
#[derive(Clone)]
pub struct Slots {
    inline: [u64; INLINE_SLOTS],
    /// Empty (unallocated) unless the primset has more slots than fit inline.
    heap: Vec<u64>,
}

impl Slots {
    pub fn zeroed(n: usize) -> Slots {
        Slots { inline: [0; INLINE_SLOTS], heap: if n <= INLINE_SLOTS { Vec::new() } else { vec![0; n] } }
    }

    pub fn as_slice(&self) -> &[u64] {
        if self.heap.is_empty() { &self.inline } else { &self.heap }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        if self.heap.is_empty() { &mut self.inline } else { &mut self.heap }
    }
}

/// Evaluation context for one position, seen by player `me`.
pub struct PositionContext<'a, S> {
    pub binding: &'a Binding<S>,
    pub state: &'a S,
    pub me: Player,
    pub slots: Slots,
}

impl<'a, S> PositionContext<'a, S> {
    /// A context whose slots `used` are filled for `state` as seen by `me`.
    pub fn new(binding: &'a Binding<S>, state: &'a S, me: Player, used: &[u32]) -> PositionContext<'a, S> {
        let mut slots = Slots::zeroed(binding.features.len());
        binding.fill(state, me, used, slots.as_mut_slice());
        PositionContext { binding, state, me, slots }
    }

    /// A context for compiled code, which reads the slots from its own
    /// array and asks the context only for natives: no slots to fill.
    pub fn for_natives(binding: &'a Binding<S>, state: &'a S, me: Player) -> PositionContext<'a, S> {
        PositionContext { binding, state, me, slots: Slots::zeroed(0) }
    }
}

impl<S> Context for PositionContext<'_, S> {
    fn feature(&self, slot: u32) -> u64 {
        self.slots.as_slice()[slot as usize]
    }

    fn native(&mut self, native: u32, args: &[Value]) -> Value {
        self.binding.natives[native as usize].call(self.state, self.me, args)
    }
}

/// A square terminal of a game: the position, the evaluated player, X and Y.
pub type SquareFn<S> = fn(&S, Player, i64, i64) -> bool;

/// The natives `(NAME (X Y) B)` of a game's square terminals; `calls[k]`
/// calls the terminal `table[k]` (a native is a plain function pointer).
pub fn square_natives<S, const N: usize>(
    table: &[(&'static str, SquareFn<S>); N],
    calls: [NativeFn<S>; N],
) -> Vec<NativeDef<S>> {
    table
        .iter()
        .zip(calls)
        .map(|(&(name, _), call)| NativeDef {
            name: name.to_owned(),
            args: vec![Base::I, Base::I],
            ret: Base::B,
            call: NativeCall::Fn(call),
        })
        .collect()
}

/// The (X, Y) arguments of a square terminal; a missing one is off the board.
pub fn square_args(args: &[Value]) -> (i64, i64) {
    (args.first().map_or(-1, |v| v.as_i64()), args.get(1).map_or(-1, |v| v.as_i64()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::interp::Interp;
    use crate::games::checkers::Checkers;
    use crate::games::morris::Morris;
    use crate::lang::Loader;
    use crate::lang::library::load_primset;

    #[test]
    fn shipped_primsets_bind_to_their_games() {
        let lc = load_primset("lose-checkers").expect("lose-checkers primset");
        assert!(Binding::new(&Checkers::lose(), &lc).is_ok());
        let mm = load_primset("morris").expect("morris primset");
        assert!(Binding::new(&Morris::standard(), &mm).is_ok());
        assert!(Binding::new(&Morris::standard(), &lc).is_err(), "a lose-checkers primset is not for morris");
    }

    #[test]
    fn a_group_is_computed_once_for_the_parts_a_fill_reads() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let runs = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&runs);
        let group = FeatureGroup::new(3, move |s: &f64, me: Player, out: &mut [u64]| {
            counter.fetch_add(1, Ordering::Relaxed);
            for (k, slot) in out.iter_mut().enumerate() {
                *slot = (s * k as f64 + f64::from(me)).to_bits();
            }
        });
        let part = |k| Some(Compute::Part(Base::F, Arc::clone(&group), k));
        let single = Some(Compute::F(|s: &f64, _| s + 100.0));
        let binding = Binding { features: vec![part(2), single, part(0), part(1)], natives: Vec::new() };
        let mut values = [0u64; 4];
        binding.fill(&2.0, 1, &[2, 3, 0], &mut values);
        assert_eq!(values.map(f64::from_bits), [5.0, 0.0, 1.0, 3.0]);
        assert_eq!(runs.load(Ordering::Relaxed), 1, "the parts a fill reads share a run");
        binding.fill(&2.0, 0, &[0, 1, 2], &mut values);
        assert_eq!(values.map(f64::from_bits), [4.0, 102.0, 0.0, 3.0], "slot 3 not read, so kept");
        assert_eq!(runs.load(Ordering::Relaxed), 2, "one run a fill, whatever is read between the parts");
        assert_eq!(f64::from_bits(part(2).map_or(0, |c| c.slot(&3.0, 0))), 6.0);
    }

    #[test]
    fn unknown_terminals_and_wrong_types_are_reported() {
        let mut loader = Loader::new();
        loader.load_text(
            "p.sg",
            "(primset p (domain morris) (terminal FriendlyMilCount F) (terminal FirstPhaseCheck F) (function Probe (F) F))",
        );
        let ps = &loader.module.primsets[0];
        let Err(diags) = Binding::new(&Morris::standard(), ps) else { panic!("binding must fail") };
        let text = loader.sources.render_plain(&diags);
        assert!(text.contains("did you mean `FriendlyMillCount`?"), "{text}");
        assert!(text.contains("computes `FirstPhaseCheck` as B"), "{text}");
        assert!(text.contains("morris has no function `Probe`"), "{text}");
    }

    #[test]
    fn natives_and_features_evaluate_on_positions() {
        let mut loader = Loader::new();
        loader.load_text(
            "t.sg",
            "(import lose-checkers) (individual t (primset lose-checkers)
               (tree eval (IFT (IsFriendlyPiece 0 0) (Plus FriendlyPieceCount Mobility) Zero)))",
        );
        assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
        let ind = &loader.module.individuals[0];
        let ps = loader.module.primset(ind.primset);
        let game = Checkers::lose();
        let binding = Binding::new(&game, ps).expect("binds");
        let state = game.initial_state();
        let tree = &ind.trees[0].tree;
        let mut ctx = PositionContext::new(&binding, &state, 0, &tree.features_used(ps));
        assert_eq!(Interp::new(ps, &mut ctx).eval_tree(tree), Value::F(12.0 + 7.0));
    }

    #[test]
    fn morris_square_natives_read_the_3x8_board() {
        let mut loader = Loader::new();
        loader.load_text(
            "t.sg",
            "(primset p (domain morris) (type X I) (type Y I) (erc x X (int 0 2)) (erc y Y (int 0 7))
               (terminal Mobility F)
               (function IsEmptySquare (X Y) B) (function IsFriendlyPiece (X Y) B)
               (function IFT (B F F) F (builtin if)) (function AND (B B) B (builtin and)) (define Zero F 0.0))
             (individual t (primset p)
               (tree eval (IFT (AND (IsFriendlyPiece 1 3) (IsEmptySquare 0 0)) Mobility Zero)))",
        );
        assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
        let ind = &loader.module.individuals[0];
        let ps = loader.module.primset(ind.primset);
        let binding = Binding::new(&Morris::standard(), ps).expect("binds");
        let tree = &ind.trees[0].tree;
        // White on f4 (ring 1, position 3), a7 (ring 0, position 0) empty; Black to move.
        let state = Morris::standard().parse_state("B:Wf4:Bd2:H8,8").expect("valid position");
        let value = |me| {
            let mut ctx = PositionContext::new(&binding, &state, me, &tree.features_used(ps));
            Interp::new(ps, &mut ctx).eval_tree(tree)
        };
        assert_eq!(value(0), Value::F(22.0), "White: 22 empty points to place on");
        assert_eq!(value(1), Value::F(0.0), "f4 is not Black's");
    }
}
