//! A game state as the machine hands it out: its fluents (what `true`
//! holds), sorted, or the bit set of the compiled game that made it, whose
//! fluents are built only when asked for. Both engines make and read
//! states, so the type sits below both.

use std::sync::Arc;

use super::term::Term;

/// A state: its fluents (what `true` holds), sorted and without repeats.
///
/// A state the compiled engine made is its bit set, and its fluents as terms
/// are built only when asked for: a search that loads states back into the
/// same engine and evaluates them from their bits never builds them.
/// Equality and hashing mean the fluents (two states of one compiled game
/// compare their bits, which stand for the same thing).
#[derive(Clone, Debug)]
pub struct State {
    fluents: std::sync::OnceLock<Arc<[Term]>>,
    bits: Option<Bits>,
}

/// The bit set of a state in the compiled game numbered `game`, whose
/// fluent `i` (`names[i]`) is bit `i`.
#[derive(Clone, Debug)]
struct Bits {
    game: usize,
    words: Arc<[u64]>,
    names: Arc<[Term]>,
}

/// The indices of the bits set in `words` (bit `i` of word `w` is `64w + i`),
/// in increasing order.
pub fn ones(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        std::iter::successors((word != 0).then_some(word), |&rest| {
            let rest = rest & (rest - 1);
            (rest != 0).then_some(rest)
        })
        .map(move |rest| w * 64 + rest.trailing_zeros() as usize)
    })
}

impl PartialEq for State {
    /// Caches keyed by a state mostly meet the very state they hold.
    fn eq(&self, other: &State) -> bool {
        if let (Some(a), Some(b)) = (&self.bits, &other.bits)
            && a.game == b.game
        {
            return Arc::ptr_eq(&a.words, &b.words) || a.words == b.words;
        }
        let (a, b) = (self.fluents_arc(), other.fluents_arc());
        Arc::ptr_eq(a, b) || a == b
    }
}

impl Eq for State {}

impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.fluents().hash(h);
    }
}

impl State {
    /// The state of `fluents`, sorted and without repeats.
    pub fn from_terms(mut fluents: Vec<Term>) -> State {
        fluents.sort_unstable();
        fluents.dedup();
        State { fluents: std::sync::OnceLock::from(Arc::from(fluents)), bits: None }
    }

    /// The state of bit set `words` in the compiled game numbered `game`,
    /// whose fluent `i` is `names[i]` (sorted, so the state's fluents come
    /// out sorted).
    pub(super) fn of_bits(game: usize, words: &[u64], names: &Arc<[Term]>) -> State {
        State {
            fluents: std::sync::OnceLock::new(),
            bits: Some(Bits { game, words: words.into(), names: Arc::clone(names) }),
        }
    }

    pub fn fluents(&self) -> &[Term] {
        self.fluents_arc()
    }

    fn fluents_arc(&self) -> &Arc<[Term]> {
        self.fluents.get_or_init(|| {
            let Some(bits) = &self.bits else { return Arc::from(Vec::new()) };
            let mut fluents = Vec::with_capacity(bits.words.iter().map(|w| w.count_ones() as usize).sum());
            fluents.extend(ones(&bits.words).filter_map(|b| bits.names.get(b)).cloned());
            fluents.into()
        })
    }

    /// Its bits, if the compiled game numbered `game` made it.
    pub(crate) fn bits_in(&self, game: usize) -> Option<&[u64]> {
        self.bits.as_ref().filter(|b| b.game == game).map(|b| &b.words[..])
    }
}
