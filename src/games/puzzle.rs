//! The puzzle view of the game model: one role, a goal test and step costs;
//! what BFS, iterative deepening, IDA* and staged deepening need, and what
//! files of puzzles, numbered deals and generated puzzles are made of.

use std::ops::RangeInclusive;

use rand::Rng;

use super::model::{Game, ParseError};

/// One role, a goal to reach at least cost: the view IDA*, iterative
/// deepening and staged deepening need.
///
/// Invariant: `n_roles` is 1; a state at the goal is over, with score 100.
pub trait Puzzle: Game {
    fn is_goal(&self, state: &Self::State) -> bool;

    /// The cost of `mv` from `state` (1 per move unless the puzzle counts
    /// otherwise).
    fn step_cost(&self, state: &Self::State, mv: &Self::Move) -> u32 {
        let _ = (state, mv);
        1
    }

    /// The names of the heuristics the puzzle computes (estimates of the
    /// cost from a state to the goal), as `--heuristic` takes them.
    fn heuristic_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// Heuristic `index` of [`Puzzle::heuristic_names`] on `state`.
    fn heuristic(&self, index: usize, state: &Self::State) -> u32 {
        let _ = (index, state);
        0
    }

    /// What a transposition table keys `state` by: states with one key
    /// are the same puzzle up to a renaming (FreeCell: the order of free
    /// cells and cascades). The state itself by default.
    fn transposition_key(&self, state: &Self::State) -> Self::State {
        state.clone()
    }

    /// A 64-bit digest of [`Puzzle::transposition_key`]: what staged
    /// deepening's table holds, 8 bytes a state. Two different keys share a
    /// digest with a chance of about 2^-64 per pair; the search would then
    /// skip a state, never report a wrong solution. SipHash (fixed keys, so
    /// the same for every run) of the key by default.
    fn transposition_digest(&self, state: &Self::State) -> u64
    where
        Self::State: std::hash::Hash,
    {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut hasher = DefaultHasher::new();
        self.transposition_key(state).hash(&mut hasher);
        hasher.finish()
    }

    /// `mv` written out step by step as a solution lists it (FreeCell: the
    /// player's move, then each automatic move). The move's text by default.
    fn move_steps(&self, state: &Self::State, mv: &Self::Move) -> Vec<String> {
        vec![self.format_move(state, mv)]
    }

    /// Replays a solution written as [`Puzzle::move_steps`] writes it from
    /// `start`, checking each step under the rules and that the goal is
    /// reached: the index of the first bad step (the length when the goal is
    /// not reached) and why.
    fn check_steps(&self, start: &Self::State, steps: &[String]) -> Result<(), (usize, String)> {
        let mut state = start.clone();
        for (at, step) in steps.iter().enumerate() {
            let mv = self.parse_move(&state, step).map_err(|e| (at, e.message))?;
            state = self.apply(&state, &mv);
        }
        if self.is_goal(&state) { Ok(()) } else { Err((steps.len(), "the goal is not reached".to_owned())) }
    }

    /// Puts the moves most likely to lead to the goal first (depth-first
    /// searches try them first); a stable reordering, the same every time.
    fn order_moves(&self, state: &Self::State, moves: &mut [Self::Move]) {
        let _ = (state, moves);
    }

    /// The legal moves in [`Puzzle::order_moves`]'s order, each with the
    /// state it leads to, into `out` (cleared first): what a depth-first
    /// search visits. A game whose move generator builds the next states
    /// anyway (FreeCell, for the automatic moves) hands them over instead of
    /// building them again.
    fn successors(&self, state: &Self::State, out: &mut Vec<(Self::Move, Self::State)>) {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        self.order_moves(state, &mut moves);
        out.clear();
        out.extend(moves.into_iter().map(|mv| {
            let next = self.apply(state, &mv);
            (mv, next)
        }));
    }

    /// Reads one line of a file of puzzles: `None` for a blank line or a
    /// `#` comment, else the instance and the cost of its optimal solution
    /// when the line gives it. By default a line is a state.
    fn parse_instance(&self, line: &str) -> Result<Option<Instance<Self::State>>, ParseError> {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return Ok(None);
        }
        let offset = line.len() - line.trim_start().len();
        self.parse_state(trimmed)
            .map(|state| Some(Instance { state, optimal_cost: None }))
            .map_err(|e| ParseError { span: e.span.start + offset..e.span.end + offset, ..e })
    }

    /// Reads a list of instance numbers for `solve --deals` (FreeCell:
    /// Microsoft's deals, `1-100,617,11982`): inclusive ranges, kept as
    /// ranges. `None` when the puzzle has no numbered instances.
    fn parse_numbers(&self, list: &str) -> Option<Result<Vec<RangeInclusive<u32>>, ParseError>> {
        let _ = list;
        None
    }

    /// Instance `number` of [`Puzzle::parse_numbers`]' lists.
    fn numbered_instance(&self, number: u32) -> Option<Self::State> {
        let _ = number;
        None
    }

    /// A start state on one line, for listings of results (the state's
    /// text by default).
    fn format_instance(&self, state: &Self::State) -> String {
        self.format_state(state)
    }

    /// Whether `solve` runs staged deepening unless told otherwise (IDA*
    /// and its kin meet too many states: FreeCell).
    fn prefers_staged_deepening(&self) -> bool {
        false
    }

    /// A puzzle a small change away from `state`, drawn from `rng`, for
    /// coevolving hard puzzles with their solvers (Rush Hour: some vehicles
    /// slid, or one added, removed or moved elsewhere). It may have no
    /// solution: the caller checks. `None` when the puzzle has no such
    /// change, or when this draw made none.
    fn vary_instance<R: Rng + ?Sized>(&self, state: &Self::State, rng: &mut R) -> Option<Self::State> {
        let _ = (state, rng);
        None
    }

    /// A fresh puzzle of the kind of `like` (Rush Hour: its size) whose
    /// optimal solution costs at least `min_cost`, drawn from `rng`; `None`
    /// when the puzzle cannot generate them, or none was found.
    fn random_instance<R: Rng + ?Sized>(&self, like: &Self::State, min_cost: u32, rng: &mut R) -> Option<Self::State> {
        let _ = (like, min_cost, rng);
        None
    }

    /// A hard puzzle for a file of puzzles (`stratagem generate`): a line in
    /// the puzzle's line format whose optimal solution costs at least
    /// `settings.min_cost`, drawn from `rng`; `Ok(None)` when
    /// `settings.attempts` tries found none, `Err` when the puzzle cannot
    /// generate them or not of that size.
    fn generate_line<R: Rng + ?Sized>(&self, settings: &Generate, rng: &mut R) -> Result<Option<String>, String> {
        let _ = (settings, rng);
        Err(format!("`{}` cannot generate puzzles", self.name()))
    }
}

/// What `stratagem generate` asks a puzzle for.
#[derive(Clone, Copy, Debug)]
pub struct Generate {
    /// The board's side, for puzzles of several sizes (the puzzle's default when `None`).
    pub size: Option<u32>,
    /// The fewest steps of an optimal solution.
    pub min_cost: u32,
    /// Tries (climbs, for Rush Hour) before a puzzle is given up.
    pub attempts: usize,
}

/// One puzzle of a file of puzzles.
#[derive(Clone, Debug)]
pub struct Instance<S> {
    pub state: S,
    /// The published cost of an optimal solution, when the file gives it.
    pub optimal_cost: Option<u32>,
}
