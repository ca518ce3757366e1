//! UCT on small games: wins taken, losses blocked, seeds that fix the
//! search, trees kept, dead ends and the clock.

use super::*;
use crate::games::ParseError;
use crate::rng::stream;

/// Tic-tac-toe: cells 0–8 hold 0 (empty), 1 (x, role 0) or 2 (o).
struct TicTacToe;

fn line_of(board: &[u8; 9]) -> Option<u8> {
    const LINES: [[usize; 3]; 8] =
        [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
    LINES
        .iter()
        .find(|l| board[l[0]] != 0 && board[l[0]] == board[l[1]] && board[l[1]] == board[l[2]])
        .map(|l| board[l[0]])
}

impl Game for TicTacToe {
    type State = [u8; 9];
    type Move = u8;
    fn name(&self) -> &str {
        "tic-tac-toe"
    }
    fn n_roles(&self) -> usize {
        2
    }
    fn role_name(&self, role: Role) -> &str {
        if role == 0 { "x" } else { "o" }
    }
    fn initial_state(&self) -> [u8; 9] {
        [0; 9]
    }
    fn turn(&self, b: &[u8; 9]) -> Turn {
        if line_of(b).is_some() || b.iter().all(|&c| c != 0) {
            Turn::Over
        } else {
            Turn::Role(u8::from(b.iter().filter(|&&c| c != 0).count() % 2 == 1))
        }
    }
    fn legal_moves(&self, b: &[u8; 9], moves: &mut Vec<u8>) {
        moves.clear();
        if self.turn(b) != Turn::Over {
            moves.extend((0..9).filter(|&i| b[i as usize] == 0));
        }
    }
    fn apply(&self, b: &[u8; 9], mv: &u8) -> [u8; 9] {
        let mut next = *b;
        if let Turn::Role(r) = self.turn(b) {
            next[usize::from(*mv)] = r + 1;
        }
        next
    }
    fn score(&self, b: &[u8; 9], role: Role) -> Option<u8> {
        match (self.turn(b), line_of(b)) {
            (Turn::Over, Some(w)) => Some(if w == role + 1 { 100 } else { 0 }),
            (Turn::Over, None) => Some(50),
            _ => None,
        }
    }
    fn parse_state(&self, text: &str) -> Result<[u8; 9], ParseError> {
        Err(ParseError::new("no text format", 0..text.len()))
    }
    fn format_state(&self, b: &[u8; 9]) -> String {
        format!("{b:?}")
    }
    fn parse_move(&self, _: &[u8; 9], text: &str) -> Result<u8, ParseError> {
        text.parse().map_err(|_| ParseError::new("not a cell", 0..text.len()))
    }
    fn format_move(&self, _: &[u8; 9], mv: &u8) -> String {
        mv.to_string()
    }
}

/// One round, both roles at once: for role 0 move 1 is better whatever
/// role 1 does (as defecting in the prisoner's dilemma); role 1 scores
/// more with move 0 whatever role 0 does. So each role's statistics
/// must be its own.
struct Dilemma;

impl Game for Dilemma {
    type State = Option<(u8, u8)>;
    type Move = u8;
    fn name(&self) -> &str {
        "dilemma"
    }
    fn n_roles(&self) -> usize {
        2
    }
    fn role_name(&self, role: Role) -> &str {
        if role == 0 { "a" } else { "b" }
    }
    fn initial_state(&self) -> Option<(u8, u8)> {
        None
    }
    fn turn(&self, s: &Option<(u8, u8)>) -> Turn {
        if s.is_some() { Turn::Over } else { Turn::Simultaneous }
    }
    fn legal_moves(&self, _: &Option<(u8, u8)>, moves: &mut Vec<u8>) {
        moves.clear();
    }
    fn legal_moves_of(&self, s: &Option<(u8, u8)>, _: Role, moves: &mut Vec<u8>) {
        moves.clear();
        if s.is_none() {
            moves.extend([0, 1]);
        }
    }
    fn apply(&self, s: &Option<(u8, u8)>, _: &u8) -> Option<(u8, u8)> {
        *s
    }
    fn apply_joint(&self, _: &Option<(u8, u8)>, joint: &[u8]) -> Option<(u8, u8)> {
        Some((joint[0], joint[1]))
    }
    fn score(&self, s: &Option<(u8, u8)>, role: Role) -> Option<u8> {
        let (a, b) = (*s)?;
        Some(if role == 0 { [[60, 0], [100, 20]][usize::from(a)][usize::from(b)] } else { [80, 10][usize::from(b)] })
    }
    fn parse_state(&self, text: &str) -> Result<Option<(u8, u8)>, ParseError> {
        Err(ParseError::new("no text format", 0..text.len()))
    }
    fn format_state(&self, s: &Option<(u8, u8)>) -> String {
        format!("{s:?}")
    }
    fn parse_move(&self, _: &Option<(u8, u8)>, text: &str) -> Result<u8, ParseError> {
        Err(ParseError::new("no text format", 0..text.len()))
    }
    fn format_move(&self, _: &Option<(u8, u8)>, mv: &u8) -> String {
        mv.to_string()
    }
}

/// One role chooses once: move 0 ends the game with 60; move 1 leads to
/// a state the engine fails on (it records an error, as a GDL game does
/// where a role has no legal move) though it would score 100 there.
struct Flawed(std::cell::RefCell<Option<String>>);

impl Game for Flawed {
    type State = u8;
    type Move = u8;
    fn name(&self) -> &str {
        "flawed"
    }
    fn n_roles(&self) -> usize {
        1
    }
    fn role_name(&self, _: Role) -> &str {
        "solo"
    }
    fn initial_state(&self) -> u8 {
        0
    }
    fn turn(&self, s: &u8) -> Turn {
        if *s == 10 {
            *self.0.borrow_mut() = Some("no legal move".to_owned());
        }
        if *s == 0 { Turn::Role(0) } else { Turn::Over }
    }
    fn legal_moves(&self, s: &u8, moves: &mut Vec<u8>) {
        moves.clear();
        if *s == 0 {
            moves.extend([0, 1]);
        }
    }
    fn apply(&self, _: &u8, mv: &u8) -> u8 {
        if *mv == 0 { 1 } else { 10 }
    }
    fn score(&self, s: &u8, _: Role) -> Option<u8> {
        Some(if *s == 10 { 100 } else { 60 })
    }
    fn parse_state(&self, text: &str) -> Result<u8, ParseError> {
        Err(ParseError::new("no text format", 0..text.len()))
    }
    fn format_state(&self, s: &u8) -> String {
        s.to_string()
    }
    fn parse_move(&self, _: &u8, text: &str) -> Result<u8, ParseError> {
        Err(ParseError::new("no text format", 0..text.len()))
    }
    fn format_move(&self, _: &u8, mv: &u8) -> String {
        mv.to_string()
    }
    fn take_error(&self) -> Option<String> {
        self.0.borrow_mut().take()
    }
}

fn uct<G: Game>(seed: u64) -> Uct<G> {
    Uct::new(UctParams::default(), stream(seed, &[1]))
}

#[test]
fn takes_the_win_and_blocks_the_loss_at_tic_tac_toe() {
    let game = TicTacToe;
    // x x .      x to move wins at 2.
    // o o .
    // . . .
    let win = [1, 1, 0, 2, 2, 0, 0, 0, 0];
    for seed in 0..5 {
        assert_eq!(uct(seed).choose(&game, &win, 0, Budget::Iterations(2000)), Some(2), "seed {seed}");
    }
    // x x .      o to move must block at 2.
    // o . .
    // . . .
    let block = [1, 1, 0, 2, 0, 0, 0, 0, 0];
    for seed in 0..5 {
        assert_eq!(uct(seed).choose(&game, &block, 1, Budget::Iterations(3000)), Some(2), "seed {seed}");
    }
}

#[test]
fn a_seed_and_a_number_of_iterations_fix_the_search() {
    let game = TicTacToe;
    let start = game.initial_state();
    let run = |seed| {
        let mut search = uct::<TicTacToe>(seed);
        let stats = search.search(&game, &start, Budget::Iterations(500));
        (search.best_move(0), stats.iterations, stats.nodes)
    };
    assert_eq!(run(3), run(3));
    assert_eq!(run(3).1, 500);
}

/// One role moves 0 or 1 a thousand times; each move takes a
/// millisecond, so one playout from the start takes a second.
struct Slow;

impl Game for Slow {
    type State = u16;
    type Move = u8;
    fn name(&self) -> &str {
        "slow"
    }
    fn n_roles(&self) -> usize {
        1
    }
    fn role_name(&self, _: Role) -> &str {
        "solo"
    }
    fn initial_state(&self) -> u16 {
        0
    }
    fn turn(&self, s: &u16) -> Turn {
        if *s < 1000 { Turn::Role(0) } else { Turn::Over }
    }
    fn legal_moves(&self, s: &u16, moves: &mut Vec<u8>) {
        moves.clear();
        if *s < 1000 {
            moves.extend([0, 1]);
        }
    }
    fn apply(&self, s: &u16, _: &u8) -> u16 {
        std::thread::sleep(Duration::from_millis(1));
        s + 1
    }
    fn score(&self, s: &u16, _: Role) -> Option<u8> {
        (*s >= 1000).then_some(50)
    }
    fn parse_state(&self, text: &str) -> Result<u16, ParseError> {
        Err(ParseError::new("no text format", 0..text.len()))
    }
    fn format_state(&self, s: &u16) -> String {
        s.to_string()
    }
    fn parse_move(&self, _: &u16, text: &str) -> Result<u8, ParseError> {
        Err(ParseError::new("no text format", 0..text.len()))
    }
    fn format_move(&self, _: &u16, mv: &u8) -> String {
        mv.to_string()
    }
}

#[test]
fn a_playout_longer_than_the_clock_is_given_up_and_a_move_still_chosen() {
    let game = Slow;
    let mut search = uct::<Slow>(3);
    let started = Instant::now();
    let stats = search.search(&game, &0, Budget::Until(started + Duration::from_millis(50)));
    // A whole playout would take a second; the deadline stops it.
    assert!(started.elapsed() < Duration::from_millis(600), "took {:?}", started.elapsed());
    assert_eq!(stats.iterations, 0, "the playout cut short is not counted");
    assert!(search.choose(&game, &0, 0, Budget::Until(Instant::now())).is_some());
    // Without a clock the playouts run to the end.
    let stats = uct::<Slow>(3).search(&game, &998, Budget::Iterations(3));
    assert_eq!(stats.iterations, 3);
}

/// One role moves 0 or 1 a thousand times, a millisecond a move; only the
/// first move counts (1 scores 100, 0 scores 0), and the engine can score a
/// playout it cuts short, as a GDL game scores a state by its goals.
struct Long;

impl Game for Long {
    /// Plies played and the first move (2 before it).
    type State = (u16, u8);
    type Move = u8;
    fn name(&self) -> &str {
        "long"
    }
    fn n_roles(&self) -> usize {
        1
    }
    fn role_name(&self, _: Role) -> &str {
        "solo"
    }
    fn initial_state(&self) -> (u16, u8) {
        (0, 2)
    }
    fn turn(&self, s: &(u16, u8)) -> Turn {
        if s.0 < 1000 { Turn::Role(0) } else { Turn::Over }
    }
    fn legal_moves(&self, s: &(u16, u8), moves: &mut Vec<u8>) {
        moves.clear();
        if s.0 < 1000 {
            moves.extend([0, 1]);
        }
    }
    fn apply(&self, s: &(u16, u8), mv: &u8) -> (u16, u8) {
        std::thread::sleep(Duration::from_millis(1));
        (s.0 + 1, if s.1 == 2 { *mv } else { s.1 })
    }
    fn score(&self, s: &(u16, u8), _: Role) -> Option<u8> {
        (s.0 >= 1000).then_some(100 * s.1)
    }
    fn random_playout_scores_until<R: rand::Rng>(
        &self,
        state: &(u16, u8),
        rng: &mut R,
        scores: &mut Vec<u8>,
        deadline: Instant,
        max_plies: u32,
    ) -> PlayoutEnd {
        match crate::games::playout::random_joint_playout_within(self, state, rng, Some(deadline), max_plies) {
            Err(plies) => PlayoutEnd::Late(plies),
            Ok(end) => {
                *scores = vec![[0, 100, 50][usize::from(end.state.1)]];
                if end.state.0 >= 1000 { PlayoutEnd::Over } else { PlayoutEnd::Cut }
            }
        }
    }
    fn parse_state(&self, text: &str) -> Result<(u16, u8), ParseError> {
        Err(ParseError::new("no text format", 0..text.len()))
    }
    fn format_state(&self, s: &(u16, u8)) -> String {
        format!("{s:?}")
    }
    fn parse_move(&self, _: &(u16, u8), text: &str) -> Result<u8, ParseError> {
        Err(ParseError::new("no text format", 0..text.len()))
    }
    fn format_move(&self, _: &(u16, u8), mv: &u8) -> String {
        mv.to_string()
    }
}

#[test]
fn playouts_longer_than_the_clock_are_cut_until_the_search_samples() {
    let game = Long;
    let mut search = uct::<Long>(5);
    let root = game.initial_state();
    let clock = || Budget::Until(Instant::now() + Duration::from_millis(100));
    let first = search.search(&game, &root, clock());
    assert_eq!(first.iterations, 0, "a whole playout takes a second");
    assert!(search.playout_plies() < 100, "cut below the plies reached: {}", search.playout_plies());
    let mut last = first;
    for _ in 0..8 {
        last = search.search(&game, &root, clock());
    }
    assert!(last.iterations >= FEW_ITERATIONS, "{last:?}, playouts cut at {}", search.playout_plies());
    assert_eq!(search.best_move(0).map(|(mv, _)| mv), Some(1), "cut playouts are scored by the engine");
}

#[test]
fn a_search_late_before_its_playout_still_halves_the_cap() {
    let mut search = uct::<Long>(5);
    search.playout_plies = 45;
    search.given_up_at = Some(0);
    search.adapt_playout_plies(2);
    assert_eq!(search.playout_plies(), 22, "the deadline passed in the tree");
    search.given_up_at = Some(10);
    search.adapt_playout_plies(1);
    assert_eq!(search.playout_plies(), 5, "below the plies the given-up playout reached");
    search.given_up_at = None;
    search.adapt_playout_plies(FEW_ITERATIONS);
    assert_eq!(search.playout_plies(), 5, "enough iterations keep the cap");
    search.playout_plies = u32::MAX;
    search.adapt_playout_plies(0);
    assert_eq!(search.playout_plies(), u32::MAX, "nothing to halve from");
}

#[test]
fn self_play_at_tic_tac_toe_is_a_draw() {
    let game = TicTacToe;
    let mut state = game.initial_state();
    let mut players = [uct::<TicTacToe>(1), uct::<TicTacToe>(2)];
    while let Turn::Role(r) = game.turn(&state) {
        let mv = players[usize::from(r)].choose(&game, &state, r, Budget::Iterations(4000)).expect("a move");
        let joint = if r == 0 { [mv, 0] } else { [0, mv] };
        for p in &mut players {
            p.advance(&joint);
        }
        state = game.apply(&state, &mv);
    }
    assert_eq!(game.score(&state, 0), Some(50), "perfect play draws: {state:?}");
}

#[test]
fn the_tree_is_kept_for_the_move_played() {
    let game = TicTacToe;
    let start = game.initial_state();
    let mut search = uct::<TicTacToe>(5);
    search.search(&game, &start, Budget::Iterations(2000));
    let (mv, _) = search.best_move(0).expect("x moves");
    assert!(search.advance(&[mv, 0]));
    let next = game.apply(&start, &mv);
    let stats = search.search(&game, &next, Budget::Iterations(10));
    assert!(stats.reused > 100, "the subtree kept {} iterations", stats.reused);
    assert!(search.best_move(1).is_some(), "o chooses at the new root");
    assert!(!search.advance(&[9, 9]), "no such move");
    assert_eq!(search.n_nodes(), 0);
}

#[test]
fn simultaneous_moves_are_chosen_role_by_role() {
    let game = Dilemma;
    for role in [0, 1] {
        let mv = uct::<Dilemma>(7).choose(&game, &None, role, Budget::Iterations(2000));
        assert_eq!(mv, Some(1 - role), "role {role}'s dominant move");
    }
    assert_eq!(uct::<Dilemma>(7).choose(&game, &Some((0, 0)), 0, Budget::Iterations(10)), None, "over");
}

#[test]
fn states_the_engine_fails_on_are_dead_ends() {
    let game = Flawed(std::cell::RefCell::new(None));
    let mut search = uct::<Flawed>(1);
    let stats = search.search(&game, &0, Budget::Iterations(50));
    assert!(stats.dead_ends >= 1, "{stats:?}");
    assert_eq!(search.best_move(0).map(|(mv, _)| mv), Some(0), "the dead end scores 0, not 100");
    assert_eq!(game.take_error(), None, "the search took the error where it met it");
}
