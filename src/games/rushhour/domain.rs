//! Rush Hour as a GP domain: the terminal set of GP-Rush (Hauptman et al.
//! 2009; seeds/000 section 4, table 1-6).
//!
//! A position alone gives the table's upper part, the three hand-crafted
//! heuristics ([`GpDomain::features`]). The lower part describes a node of
//! IDA*'s search ([`SearchNode`]: the board, the board before and the move
//! that reached it, g, the parent's children, the puzzle's difficulty in its
//! set), so the whole table is offered for search nodes
//! ([`GpDomain::node_features`]), which the rush-hour primset binds to.
//! docs/RUSHHOUR.md says how each terminal is computed and where the paper
//! left the choice to us.

use std::cell::Cell;

use super::heuristics::{self, Estimates};
use super::{Board, RushHour, Slide};
use crate::games::Player;
use crate::games::domain::{Compute, FeatureDef, GpDomain, NativeDef, SearchNode};

/// A node of IDA* on a Rush Hour board.
pub type Node = SearchNode<Board, Slide>;

impl GpDomain for RushHour {
    fn features(&self) -> Vec<FeatureDef<Board>> {
        type Terminal = fn(&Board, Player) -> f64;
        let terminals: [(&str, Terminal); 3] = [
            ("BlockersLowerBound", |b, _| f64::from(estimates(b).blockers_lower_bound)),
            ("GoalDistance", |b, _| f64::from(estimates(b).goal_distance)),
            ("Hybrid", |b, _| f64::from(estimates(b).hybrid)),
        ];
        terminals.into_iter().map(|(name, f)| FeatureDef { name: name.to_owned(), compute: Compute::F(f) }).collect()
    }

    fn natives(&self) -> Vec<NativeDef<Board>> {
        Vec::new()
    }

    /// Fewer blockers is better.
    fn material(&self, board: &Board, _: Player) -> f64 {
        -f64::from(estimates(board).blockers_lower_bound)
    }

    fn node_features(&self) -> Vec<FeatureDef<Node>> {
        let f = |name: &str, f: fn(&Node, Player) -> f64| FeatureDef { name: name.to_owned(), compute: Compute::F(f) };
        let b = |name: &str, f: fn(&Node, Player) -> bool| FeatureDef { name: name.to_owned(), compute: Compute::B(f) };
        vec![
            f("BlockersLowerBound", |n, _| f64::from(estimates(&n.state).blockers_lower_bound)),
            f("GoalDistance", |n, _| f64::from(estimates(&n.state).goal_distance)),
            f("Hybrid", |n, _| f64::from(estimates(&n.state).hybrid)),
            b("IsMoveToSecluded", |n, _| n.parent.as_ref().is_some_and(|(_, mv)| is_move_to_secluded(&n.state, mv))),
            b("IsReleasingMove", |n, _| {
                n.parent.as_ref().is_some_and(|(before, mv)| is_releasing_move(before, &n.state, mv))
            }),
            f("g", |n, _| f64::from(n.g)),
            f("PhaseByDistance", |n, _| phase(n.g, estimates(&n.state).goal_distance)),
            f("PhaseByBlockers", |n, _| phase(n.g, estimates(&n.state).blockers_lower_bound)),
            f("NumberOfSiblings", |n, _| f64::from(n.siblings)),
            f("DifficultyLevel", |n, _| n.difficulty),
        ]
    }
}

thread_local! {
    /// The last board's estimates: a program's terminals are computed one by
    /// one, and up to five of them read the same board's.
    static LAST: Cell<Option<(Board, Estimates)>> = const { Cell::new(None) };
}

/// [`heuristics::estimates`], computed once for consecutive calls on one
/// board (boards compare by layout address and positions).
fn estimates(board: &Board) -> Estimates {
    LAST.with(|last| match last.get() {
        Some((known, estimates)) if known == *board => estimates,
        _ => {
            let estimates = heuristics::estimates(board);
            last.set(Some((*board, estimates)));
            estimates
        }
    })
}

/// g ÷ (g + estimate), 0 when both are 0 (the start at the goal).
fn phase(g: u32, estimate: u32) -> f64 {
    let (g, estimate) = (f64::from(g), f64::from(estimate));
    if g + estimate == 0.0 { 0.0 } else { g / (g + estimate) }
}

/// The positions vehicle `v` can slide to on `board` with the cells in
/// `blocked` closed (its own cells never are): the least and the greatest.
fn reach(board: &Board, v: usize, blocked: u64) -> (u8, u8) {
    let layout = board.layout();
    let blocked = blocked & !layout.mask(v, board.pos(v));
    let last = layout.size - layout.vehicles[v].len;
    let free = |p: u8| layout.mask(v, p) & blocked == 0;
    let (mut lo, mut hi) = (board.pos(v), board.pos(v));
    while lo > 0 && free(lo - 1) {
        lo -= 1;
    }
    while hi < last && free(hi + 1) {
        hi += 1;
    }
    (lo, hi)
}

/// IsMoveToSecluded, "did the last move taken position the vehicle at a
/// location that no other vehicle can occupy?": no cell the moved vehicle
/// now covers lies where another vehicle could stand, sliding along its
/// line without crossing a wall (other vehicles are not obstacles here).
/// Those places are the layout's tracks.
fn is_move_to_secluded(board: &Board, mv: &Slide) -> bool {
    let v = usize::from(mv.vehicle);
    board.layout().mask(v, board.pos(v)) & board.layout().others_track(v) == 0
}

/// IsReleasingMove, "did the last move made add new possible moves?":
/// another vehicle can slide somewhere it could not before the move (the
/// cells the moved vehicle left opened its way). Only a vehicle whose line
/// runs through a cell the move vacated can: no other way got longer.
fn is_releasing_move(before: &Board, after: &Board, mv: &Slide) -> bool {
    let layout = after.layout();
    let v = usize::from(mv.vehicle);
    let (left, entered) = (layout.mask(v, before.pos(v)), layout.mask(v, after.pos(v)));
    let mut candidates = layout.lines_through(left & !entered) & !(1 << v);
    if candidates == 0 {
        return false;
    }
    let occupied_before = before.occupied();
    let occupied_after = (occupied_before & !left) | entered;
    while candidates != 0 {
        let w = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let (lo0, hi0) = reach(before, w, occupied_before);
        let (lo1, hi1) = reach(after, w, occupied_after);
        if lo1 < lo0 || hi1 > hi0 {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::parse_board;
    use super::*;

    fn node(before: &str, mv: &str) -> Node {
        use crate::games::Game;
        let game = RushHour;
        let before = parse_board(before).expect("board");
        let mv = game.parse_move(&before, mv).expect("legal move");
        let state = game.apply(&before, &mv);
        SearchNode { state, parent: Some((before, mv)), g: 3, siblings: 7, difficulty: 0.25 }
    }

    fn value(n: &Node, name: &str) -> u64 {
        let features = RushHour.node_features();
        let def = features.iter().find(|f| f.name == name).expect("a terminal");
        def.compute.slot(n, 0)
    }

    #[test]
    fn search_terminals_of_small_boards() {
        // B (column 2, rows 1-2) blocks the red car; B-1 moves it up out of the
        // path, into cells no other vehicle can reach: secluded.
        let n = node("ooooooooBoooAABooooooooooooooooooooo", "B-1");
        assert_eq!(value(&n, "IsMoveToSecluded"), 1);
        // B's lower cell blocked A; now A may slide right: a releasing move.
        assert_eq!(value(&n, "IsReleasingMove"), 1);
        assert_eq!(f64::from_bits(value(&n, "g")), 3.0);
        assert_eq!(f64::from_bits(value(&n, "NumberOfSiblings")), 7.0);
        assert_eq!(f64::from_bits(value(&n, "DifficultyLevel")), 0.25);
        // g = 3, GoalDistance 4 (the red car), BlockersLowerBound 0.
        assert_eq!(f64::from_bits(value(&n, "PhaseByDistance")), 3.0 / 7.0);
        assert_eq!(f64::from_bits(value(&n, "PhaseByBlockers")), 1.0);
        // C (row 4) slides right into column 4, where D (column 4, rows 1-2)
        // could stand: not secluded; and it lets no vehicle slide further.
        let n = node(concat!("oooooo", "ooooDo", "AAooDo", "oooooo", "ooCCoo", "oooooo"), "C+2");
        assert_eq!(value(&n, "IsMoveToSecluded"), 0, "D's column crosses row 5");
        assert_eq!(value(&n, "IsReleasingMove"), 0);
        let start = SearchNode { parent: None, g: 0, ..n };
        assert_eq!((value(&start, "IsMoveToSecluded"), value(&start, "IsReleasingMove")), (0, 0));
        assert_eq!(f64::from_bits(value(&start, "PhaseByBlockers")), 0.0);
    }

    /// The search terminals as first written, each on its own.
    mod original {
        use super::super::*;
        use heuristics::reference;

        fn is_move_to_secluded(board: &Board, mv: &Slide) -> bool {
            let layout = board.layout();
            let v = usize::from(mv.vehicle);
            let cells = layout.mask(v, board.pos(v));
            (0..layout.vehicles.len()).filter(|&w| w != v).all(|w| {
                let (lo, hi) = reach(board, w, layout.walls);
                (lo..=hi).all(|p| layout.mask(w, p) & cells == 0)
            })
        }

        fn is_releasing_move(before: &Board, after: &Board, mv: &Slide) -> bool {
            let v = usize::from(mv.vehicle);
            let walls = after.layout().walls;
            (0..after.layout().vehicles.len()).filter(|&w| w != v).any(|w| {
                let (lo0, hi0) = reach(before, w, before.occupied() | walls);
                let (lo1, hi1) = reach(after, w, after.occupied() | walls);
                lo1 < lo0 || hi1 > hi0
            })
        }

        /// Every search terminal's slot, by name.
        pub fn slots(n: &Node) -> Vec<(&'static str, u64)> {
            let (board, g) = (&n.state, n.g);
            let moved = n.parent.as_ref();
            vec![
                ("BlockersLowerBound", f64::from(reference::blockers_lower_bound(board)).to_bits()),
                ("GoalDistance", f64::from(reference::goal_distance(board)).to_bits()),
                ("Hybrid", f64::from(reference::hybrid(board)).to_bits()),
                ("IsMoveToSecluded", u64::from(moved.is_some_and(|(_, mv)| is_move_to_secluded(board, mv)))),
                ("IsReleasingMove", u64::from(moved.is_some_and(|(b, mv)| is_releasing_move(b, board, mv)))),
                ("g", f64::from(g).to_bits()),
                ("PhaseByDistance", phase(g, reference::goal_distance(board)).to_bits()),
                ("PhaseByBlockers", phase(g, reference::blockers_lower_bound(board)).to_bits()),
                ("NumberOfSiblings", f64::from(n.siblings).to_bits()),
                ("DifficultyLevel", n.difficulty.to_bits()),
            ]
        }
    }

    #[test]
    fn terminals_equal_their_reference_on_random_walks() {
        use crate::games::{Game, Puzzle};
        use rand::RngExt;
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/domains/rushhour");
        let read = |file: &str| std::fs::read_to_string(format!("{data}/{file}")).expect("the Rush Hour data");
        let (cards, database) = (read("cards40.txt"), read("rush_12k.txt"));
        // The cards have no walls; every 25th database board (most have walls).
        let lines = cards.lines().map(|l| (l, 200)).chain(database.lines().step_by(25).map(|l| (l, 40)));
        let features = RushHour.node_features();
        let board_features = RushHour.features();
        let mut rng = crate::rng::stream(5, &[]);
        let (mut moves, mut nodes, mut secluded, mut releasing) = (Vec::new(), 0, 0, 0);
        for (line, steps) in lines {
            let Some(start) = RushHour.parse_instance(line).expect("a puzzle line") else { continue };
            let mut node = SearchNode { state: start.state, parent: None, g: 0, siblings: 0, difficulty: 0.5 };
            for _ in 0..steps {
                for (def, (name, expected)) in features.iter().zip(original::slots(&node)) {
                    assert_eq!(def.name, name);
                    assert_eq!(
                        def.compute.slot(&node, 0),
                        expected,
                        "{name} on {:?} after {:?}",
                        node.state,
                        node.parent
                    );
                }
                // The parent's board in between, so that the cache changes boards.
                let board = node.parent.map_or(node.state, |(before, _)| before);
                let reference = &heuristics::reference::ALL;
                for (k, (def, reference)) in board_features.iter().zip(reference).enumerate() {
                    assert_eq!(def.compute.slot(&board, 0), f64::from(reference(&board)).to_bits(), "{board:?}");
                    assert_eq!(RushHour.heuristic(k, &board), reference(&board), "{board:?}");
                }
                nodes += 1;
                secluded += value(&node, "IsMoveToSecluded");
                releasing += value(&node, "IsReleasingMove");
                RushHour.legal_moves(&node.state, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                let state = RushHour.apply(&node.state, &mv);
                let siblings = moves.len() as u32;
                node = SearchNode { state, parent: Some((node.state, mv)), g: node.g + 1, siblings, ..node };
            }
        }
        assert!(nodes > 20_000 && secluded > 500 && releasing > 5_000, "{nodes} nodes, {secluded}, {releasing}");
    }

    #[test]
    fn the_shipped_primset_binds_to_search_nodes_only() {
        use crate::games::domain::Binding;
        let ps = crate::lang::library::load_primset("rush-hour").expect("rush-hour primset");
        assert!(Binding::for_search(&RushHour, &ps).is_ok());
        assert!(Binding::new(&RushHour, &ps).is_err(), "g and the rest need a search node");
    }
}
