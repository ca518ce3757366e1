//! Innovation numbers: one global counter, and a table of the structural
//! mutations of the current generation, so that the same mutation made by
//! two genomes in one generation gets the same numbers (Stanley and
//! Miikkulainen 2002, section 3.2). Children are bred one after another in
//! a fixed order, so numbers never depend on thread timing.

use std::collections::BTreeMap;

use super::genes::Key;

/// The numbers handed out so far, and this generation's table.
#[derive(Debug, Clone, PartialEq)]
pub struct Innovations {
    /// The next free number (of links and of hidden nodes alike).
    next: u64,
    links: BTreeMap<(Key, Key), u64>,
    /// The link split by add-node → (node number, in-link, out-link).
    splits: BTreeMap<u64, (u64, u64, u64)>,
}

impl Innovations {
    /// A generation's table, numbering on from `next`.
    pub fn new(next: u64) -> Innovations {
        Innovations { next, links: BTreeMap::new(), splits: BTreeMap::new() }
    }

    /// The next free number (what a checkpoint keeps).
    pub fn next(&self) -> u64 {
        self.next
    }

    fn take(&mut self) -> u64 {
        let n = self.next;
        self.next += 1;
        n
    }

    /// The innovation number of a new link `from → to`.
    pub fn link(&mut self, from: &Key, to: &Key) -> u64 {
        if let Some(&n) = self.links.get(&(from.clone(), to.clone())) {
            return n;
        }
        let n = self.take();
        self.links.insert((from.clone(), to.clone()), n);
        n
    }

    /// For splitting the link numbered `link`: the new node's number and
    /// the innovation numbers of the links into and out of it.
    pub fn split(&mut self, link: u64) -> (u64, u64, u64) {
        if let Some(&s) = self.splits.get(&link) {
            return s;
        }
        let s = (self.take(), self.take(), self.take());
        self.splits.insert(link, s);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_mutation_in_a_generation_gets_the_same_numbers() {
        let mut t = Innovations::new(41);
        let (a, b) = (Key::Input(3), Key::Node("h7".into()));
        let first = t.link(&a, &b);
        assert_eq!(first, 41);
        assert_eq!(t.link(&a, &b), first);
        assert_eq!(t.link(&b, &a), 42, "another direction is another link");
        assert_eq!(t.split(5), (43, 44, 45));
        assert_eq!(t.split(5), (43, 44, 45));
        assert_eq!(t.split(6), (46, 47, 48));
        // The next generation's table keeps the counter but not the table.
        let mut next = Innovations::new(t.next());
        assert_eq!(next.link(&a, &b), 49);
    }
}
