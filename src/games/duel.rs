//! Double-games and matches between named players, the way the Ant Wars
//! papers judge them (seeds/003): a double-game plays one board twice with
//! the roles swapped, so neither player profits from a lucky board or from
//! moving first; a match is 2×k games on k boards, won by the player who
//! wins k + 1 or more games, else by the higher total score, else at random.
//!
//! [`Duel`] is what a game offers for this: players made once per thread
//! from specs, that play a game from a start state; [`NamedPlayers`] games
//! also read the specs (Ant Wars: built-in names, `c:FILE.c`), while the
//! α-β players of perfect-information games are read by the CLI
//! (`search::duel`). Tournaments (`stratagem tournament`) and, later, fitnessless
//! evolution (single-elimination tournaments of matches) share this module.
//! [`binomial_two_sided`] is the significance test of the paper's table 3.

use std::path::Path;

use super::Player;
use crate::lang::{Individual, Loader, PrimSet, Tree};
use crate::rng::{GpRng, stream};

/// Why a player could not be made or could not move: a message naming the
/// player (a C file that does not compile, a `Move` that returned 9), and
/// optional help (the compiler's output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerError {
    pub message: String,
    pub help: Option<String>,
    /// The player lost the game by it, and the run goes on (a foreign
    /// program that crashed, hung or answered nonsense); else the run stops.
    pub forfeit: bool,
}

impl PlayerError {
    pub fn new(message: impl Into<String>) -> PlayerError {
        PlayerError { message: message.into(), help: None, forfeit: false }
    }

    /// A fault that forfeits the game being played.
    pub fn forfeit(message: impl Into<String>) -> PlayerError {
        PlayerError { forfeit: true, ..PlayerError::new(message) }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> PlayerError {
        self.help = Some(help.into());
        self
    }
}

impl std::fmt::Display for PlayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Reads individual `name` of `file` for a player named `gp:FILE:NAME`
/// (`what` the game calls it: an ant): the loader (its module holds the
/// individual's primset) and the individual; a file that does not read,
/// or has no such individual, is a [`PlayerError`] with the diagnostics or
/// the names it has.
pub fn read_individual(file: &Path, name: &str, what: &str) -> Result<(Loader, Individual), PlayerError> {
    let mut loader = Loader::new();
    loader.load_path(file);
    if loader.diags.iter().any(|d| d.is_error()) {
        return Err(PlayerError::new(format!("cannot read {what} `{name}` of `{}`", file.display()))
            .with_help(loader.sources.render_plain(&loader.diags)));
    }
    let m = &loader.module;
    let Some(ind) = m.find_individual(name).cloned() else {
        let names: Vec<&str> = m.individuals.iter().map(|i| i.name.as_str()).collect();
        let help = match crate::diagnostic::did_you_mean(name, names.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None if names.is_empty() => "it defines no individuals".to_owned(),
            None => format!("it defines: {}", names.join(", ")),
        };
        return Err(PlayerError::new(format!("`{}` defines no individual `{name}`", file.display())).with_help(help));
    };
    Ok((loader, ind))
}

/// How one game ended: each role's points (food eaten) and the winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub points: [u32; 2],
    /// `None` for a draw (Ant Wars has none: a tie goes to Ant 1).
    pub winner: Option<Player>,
    /// The role killed during the game, in games where one can be (Ant Wars).
    pub killed: Option<Player>,
    /// The role that forfeited the game (its program failed); the other won.
    pub forfeit: Option<Player>,
}

/// A two-player game played by players made from specs, on random start
/// states: what double-games, matches and tournaments need.
pub trait Duel: Sync {
    /// A start state (a board).
    type State: Send + Sync;
    /// A player's description: what a thread needs to make its own player
    /// (a compiled C library, not yet loaded; loaded programs).
    type Spec: Send + Sync;
    /// A player ready to play on one thread; it may keep memory between its
    /// moves, and is reset before each game.
    type Player: Send;

    /// The game's name, for reports.
    fn name(&self) -> &str;

    /// A start state drawn from `rng` (the one start of a game without
    /// random ones).
    fn random_start(&self, rng: &mut GpRng) -> Self::State;

    /// A player of `spec` for the calling thread.
    fn new_player(&self, spec: &Self::Spec) -> Result<Self::Player, PlayerError>;

    /// Plays one game from `start`, `players[r]` in role `r`, each drawing
    /// its random choices from `rngs[r]`.
    fn play(
        &self,
        start: &Self::State,
        players: [&mut Self::Player; 2],
        rngs: [&mut GpRng; 2],
    ) -> Result<GameEnd, PlayerError>;

    /// [`Duel::play`] as far as the result needs: the same points and
    /// winner, but the game may stop once they can no longer change (Ant
    /// Wars: when no food is left), so `killed` sees only the plies played.
    /// Double-games, matches and tournaments count nothing else.
    fn play_for_result(
        &self,
        start: &Self::State,
        players: [&mut Self::Player; 2],
        rngs: [&mut GpRng; 2],
    ) -> Result<GameEnd, PlayerError> {
        self.play(start, players, rngs)
    }

    /// The double-games of A against B on `starts`, the one of `starts[i]`
    /// keyed `keys[i]`, as [`double_game`] plays them, summed. A game may
    /// play them in any order, or many at once (Ant Wars does, for players
    /// in child processes that answer many moves a round trip), as long as
    /// each game is the one `double_game` would play.
    fn double_games(
        &self,
        starts: &[Self::State],
        keys: &[[u64; 2]],
        (a, b): (&mut Self::Player, &mut Self::Player),
        seed: u64,
    ) -> Result<Tally, PlayerError>
    where
        Self: Sized,
    {
        double_games_in_turn(self, starts, keys, (a, b), seed)
    }
}

/// A [`Duel`] whose players are named by text the game reads itself
/// (Ant Wars: `greedy`, `c:FILE.c`); the registry's `observed` games.
pub trait NamedPlayers: Duel {
    /// Reads a player name; compiles what needs it.
    fn parse_player(&self, text: &str) -> Result<Self::Spec, PlayerError>;

    /// The trees an evolved player has, in order (Ant Wars: `straight`,
    /// `diagonal`), which evolution by duels evolves.
    fn evolved_trees(&self) -> &'static [&'static str];

    /// The player of evolved `trees` (in the order of `evolved_trees`) of
    /// primset `ps`, named `name` in reports.
    fn evolved_player(&self, name: &str, ps: &PrimSet, trees: &[Tree]) -> Result<Self::Spec, PlayerError>;
}

/// Games between A and B, from A's and B's side: games played, games won,
/// points scored. Integers only, so totals do not depend on the order in
/// which parallel work adds them up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    pub wins: [u64; 2],
    pub points: [u64; 2],
    /// Games each side forfeited (counted in the other's wins).
    pub forfeits: [u64; 2],
}

impl Tally {
    pub fn add(&mut self, other: &Tally) {
        self.games += other.games;
        for side in 0..2 {
            self.wins[side] += other.wins[side];
            self.points[side] += other.points[side];
            self.forfeits[side] += other.forfeits[side];
        }
    }

    /// Counts a game in which A played role `a_role`.
    pub fn record(&mut self, end: &GameEnd, a_role: usize) {
        self.games += 1;
        for side in 0..2 {
            let role = side ^ a_role;
            self.points[side] += u64::from(end.points[role]);
            if end.winner == Some(role as Player) {
                self.wins[side] += 1;
            }
            if end.forfeit == Some(role as Player) {
                self.forfeits[side] += 1;
            }
        }
    }
}

/// Plays `start` twice, A as role 0 then as role 1. Player `p` of game `g`
/// draws from the stream (seed, key..., g, role), so a double-game's result
/// depends only on its key, not on the thread that plays it.
pub fn double_game<G: Duel>(
    game: &G,
    start: &G::State,
    (a, b): (&mut G::Player, &mut G::Player),
    seed: u64,
    key: [u64; 2],
) -> Result<Tally, PlayerError> {
    let mut tally = Tally::default();
    let rngs = |g: u64| [0, 1].map(|role| stream(seed, &[key[0], key[1], g, role]));
    let [mut r0, mut r1] = rngs(0);
    let end = game.play_for_result(start, [&mut *a, &mut *b], [&mut r0, &mut r1])?;
    tally.record(&end, 0);
    let [mut r0, mut r1] = rngs(1);
    let end = game.play_for_result(start, [b, a], [&mut r0, &mut r1])?;
    tally.record(&end, 1);
    Ok(tally)
}

/// [`Duel::double_games`] one after another.
pub fn double_games_in_turn<G: Duel>(
    game: &G,
    starts: &[G::State],
    keys: &[[u64; 2]],
    (a, b): (&mut G::Player, &mut G::Player),
    seed: u64,
) -> Result<Tally, PlayerError> {
    let mut tally = Tally::default();
    for (start, key) in starts.iter().zip(keys) {
        tally.add(&double_game(game, start, (&mut *a, &mut *b), seed, *key)?);
    }
    Ok(tally)
}

/// The winner (0 for A, 1 for B) of a match of `boards` double-games with
/// `tally`: k + 1 or more games won out of 2k, else the higher total score,
/// else `coin` (the paper's random draw).
pub fn match_winner(tally: &Tally, boards: u64, coin: bool) -> usize {
    if tally.wins[0] > boards {
        0
    } else if tally.wins[1] > boards {
        1
    } else if tally.points[0] != tally.points[1] {
        usize::from(tally.points[1] > tally.points[0])
    } else {
        usize::from(coin)
    }
}

/// The two-sided exact binomial test of `a` wins against `b` wins with
/// p = 1/2 (draws left out): the probability of a split at least this
/// uneven. Computed in logarithms, term by term from the observed count
/// outwards, so that 100,000 games neither overflow a binomial coefficient
/// nor underflow a term before it is summed; the result is 0 only where the
/// true value is below the smallest `f64`.
pub fn binomial_two_sided(a: u64, b: u64) -> f64 {
    let n = a + b;
    let m = a.min(b);
    if n == 0 || 2 * m == n {
        return 1.0;
    }
    // ln C(n, m) - n ln 2: the log probability of exactly m.
    let mut log_term = -(n as f64) * std::f64::consts::LN_2;
    for j in 1..=m {
        log_term += ((n - m + j) as f64).ln() - (j as f64).ln();
    }
    // P(X <= m) = P(X = m) (1 + r_m + r_m r_{m-1} + ...), r_k = k / (n - k + 1).
    let mut sum = 1.0f64;
    let mut ratio = 1.0f64;
    let mut k = m;
    while k > 0 {
        ratio *= k as f64 / (n - k + 1) as f64;
        sum += ratio;
        if ratio < 1e-17 * sum {
            break;
        }
        k -= 1;
    }
    let log_p = std::f64::consts::LN_2 + log_term + sum.ln();
    log_p.min(0.0).exp()
}

/// The two-sided exact binomial test of `successes` in `n` trials against
/// a success probability `p0` in (0, 1): the probability of every outcome
/// no likelier than the one observed. [`binomial_two_sided`] is the case
/// `p0 = ½`.
pub fn binomial_test(successes: u64, n: u64, p0: f64) -> f64 {
    if n == 0 || successes > n || !(p0 > 0.0 && p0 < 1.0) {
        return 1.0;
    }
    // Log probabilities by the recurrence P(k + 1) / P(k) = (n − k) p / ((k + 1)(1 − p)).
    let odds = (p0 / (1.0 - p0)).ln();
    let mut log_p = Vec::with_capacity(n as usize + 1);
    let mut current = n as f64 * (1.0 - p0).ln();
    for k in 0..=n {
        log_p.push(current);
        current += ((n - k) as f64).ln() - ((k + 1) as f64).ln() + odds;
    }
    let observed = log_p[successes as usize];
    // Outcomes as likely as the observed one up to rounding count too.
    let total: f64 = log_p.iter().filter(|&&l| l <= observed + 1e-9).map(|&l| l.exp()).sum();
    total.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binomial_test_is_the_sign_test_at_one_half_and_exact_elsewhere() {
        for (a, b) in [(2, 8), (8, 2), (5, 5), (0, 1), (37, 63), (0, 20)] {
            let p = binomial_test(a, a + b, 0.5);
            assert!((p - binomial_two_sided(a, b)).abs() < 1e-9, "{a} {b}: {p}");
        }
        // 3 trials at p0 = 1/3: 0, 1, 2, 3 successes have probabilities
        // 8, 12, 6 and 1 in 27.
        assert!((binomial_test(3, 3, 1.0 / 3.0) - 1.0 / 27.0).abs() < 1e-12);
        assert!((binomial_test(1, 3, 1.0 / 3.0) - 1.0).abs() < 1e-12);
        assert!((binomial_test(0, 3, 1.0 / 3.0) - 15.0 / 27.0).abs() < 1e-12);
        assert!((binomial_test(2, 3, 1.0 / 3.0) - 7.0 / 27.0).abs() < 1e-12);
    }

    #[test]
    fn the_binomial_test_matches_exact_values() {
        // 2 * P(X <= 2), X ~ B(10, 1/2) = 2 * 56 / 1024.
        assert!((binomial_two_sided(2, 8) - 112.0 / 1024.0).abs() < 1e-12);
        assert!((binomial_two_sided(8, 2) - 112.0 / 1024.0).abs() < 1e-12);
        assert_eq!(binomial_two_sided(5, 5), 1.0);
        assert_eq!(binomial_two_sided(0, 0), 1.0);
        assert!((binomial_two_sided(0, 1) - 1.0).abs() < 1e-12);
        // 2 * 2^-20.
        assert!((binomial_two_sided(0, 20) - 2.0f64.powi(-19)).abs() < 1e-18);
        // The paper's scale: 52.02% of 200,000 games is far beyond 0.01, and
        // 50.1% is not; neither underflows nor overflows.
        let p = binomial_two_sided(104_040, 95_960);
        assert!(p > 0.0 && p < 1e-60, "{p}");
        let p = binomial_two_sided(100_200, 99_800);
        assert!(p > 0.05 && p < 1.0, "{p}");
        assert_eq!(binomial_two_sided(0, 200_000), 0.0, "below the smallest f64");
    }

    #[test]
    fn the_match_rule_is_games_then_score_then_chance() {
        let t = |wins: [u64; 2], points: [u64; 2]| Tally { games: 12, wins, points, forfeits: [0; 2] };
        assert_eq!(match_winner(&t([7, 5], [10, 90]), 6, true), 0, "k + 1 games win the match");
        assert_eq!(match_winner(&t([5, 7], [90, 10]), 6, false), 1);
        assert_eq!(match_winner(&t([6, 6], [40, 41]), 6, false), 1, "6 of 12 is not enough: score decides");
        assert_eq!(match_winner(&t([6, 6], [41, 40]), 6, true), 0);
        assert_eq!(match_winner(&t([6, 6], [40, 40]), 6, true), 1, "then the coin");
        assert_eq!(match_winner(&t([6, 6], [40, 40]), 6, false), 0);
    }

    #[test]
    fn a_tally_counts_each_side_in_either_role() {
        let mut t = Tally::default();
        t.record(&GameEnd { points: [3, 5], winner: Some(1), killed: None, forfeit: None }, 0);
        t.record(&GameEnd { points: [3, 5], winner: Some(1), killed: None, forfeit: Some(0) }, 1);
        assert_eq!(t, Tally { games: 2, wins: [1, 1], points: [8, 8], forfeits: [0, 1] });
        let mut sum = Tally::default();
        sum.add(&t);
        sum.add(&t);
        assert_eq!(sum.wins, [2, 2]);
    }
}
