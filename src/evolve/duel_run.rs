//! Evolution by duels: games of named players (Ant Wars, seeds/003), where
//! members are judged only by the matches of fitnessless selection. A match
//! is 2k games on k boards (the experiment's `(match-games 2k)`), won by the
//! paper's rule (`games::duel::match_winner`). Each generation the member
//! that won the most selection tournaments is the generation's best; with
//! `(monitor "PLAYER" D)` it plays D double-games against that player, and
//! its win and death rates are logged (the paper's figure 4). With
//! `(champion (round-robin D))` the champion is the member of the final
//! population that wins the most matches of a round robin among all of them,
//! as BrilliAnt was chosen.

use std::sync::{Arc, OnceLock, RwLock};

use rand::RngExt;
use rayon::prelude::*;

use super::engine::{Engine, Evaluation, Fitness, GenerationStats, MonitorStats, State};
use super::experiment::{ChampionRule, Experiment, HillisSpec, Opponent};
use super::generations::run_generations;
use super::genome::Genome;
use super::output::SavedProblems;
use super::prepared::PreparedRun;
use super::run_fitness::RunFitness;
use super::runner::{RunReport, Runner, unsupported};
use crate::cluster;
use crate::diagnostic::Diagnostic;
use crate::games::duel::{NamedPlayers, PlayerError, Tally, double_game, match_winner};
use crate::games::registry::DuelTask;
use crate::lang::{PrimSet, Tree};
use crate::rng::{GpRng, stream};

/// Stream purposes of this module, apart from the engine's.
const MONITOR: u64 = 20;
const ROUND_ROBIN: u64 = 21;
const VERSUS: u64 = 22;

/// Runs experiments on games of named players (the `observed` games).
pub(super) struct DuelRunner;

impl Runner for DuelRunner {
    fn runs(&self, exp: &Experiment) -> bool {
        exp.game.plays_duels()
    }

    fn run(&self, run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>> {
        run.exp.game.run_duel("evolution by duels", OnDuels(run)).map_err(unsupported)?
    }
}

/// The run on the game the registry finds.
struct OnDuels<'a>(&'a PreparedRun);

impl DuelTask for OnDuels<'_> {
    type Output = Result<RunReport, Vec<Diagnostic>>;
    fn run<G: NamedPlayers + Send + 'static>(self, game: G) -> Self::Output {
        run_duels(game, self.0)
    }
}

/// Runs the prepared run on `game`, a game of named players.
fn run_duels<G: NamedPlayers>(game: G, run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>> {
    let exp = &run.exp;
    let ps = run.primset().clone();
    let evolved: Vec<&str> = exp.trees().iter().map(|(n, _)| n.as_str()).collect();
    let order = game
        .evolved_trees()
        .iter()
        .map(|want| evolved.iter().position(|n| n == want))
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| {
            vec![
                Diagnostic::error(
                    "stratagem::experiment::duels",
                    format!(
                        "experiment `{}` evolves the trees {}, but a player of {} has the trees {}",
                        exp.name,
                        evolved.join(", "),
                        game.name(),
                        game.evolved_trees().join(", ")
                    ),
                )
                .at(exp.file, exp.span.first_byte(), "this experiment")
                .with_help("evolve exactly the trees the game's players have, e.g. with (trees ...)"),
            ]
        })?;
    let monitor = match &exp.monitor {
        None => None,
        Some(m) => {
            let spec = game.parse_player(&m.spec).map_err(|e| vec![player_error(exp, &m.opponent, e)])?;
            Some((m.opponent.clone(), spec, m.double_games))
        }
    };
    let mut opponents = Vec::new();
    for o in &exp.opponents {
        let spec = game.parse_player(&o.spec).map_err(|e| vec![player_error(exp, &o.opponent, e)])?;
        opponents.push((spec, o.double_games));
    }
    let round_robin = match exp.champion {
        ChampionRule::RoundRobin { double_games } => Some(double_games),
        _ => None,
    };
    let fitness = DuelFitness {
        game,
        ps,
        order,
        boards: u64::from(exp.match_games / 2).max(1),
        players: RwLock::new(Vec::new()),
        monitor,
        opponents,
        round_robin,
    };
    run_generations(&fitness, run)
}

fn player_error(exp: &Experiment, name: &str, e: PlayerError) -> Diagnostic {
    let d = Diagnostic::error("stratagem::experiment::monitor", format!("the monitor `{name}`: {}", e.message)).at(
        exp.file,
        exp.span.first_byte(),
        "in this experiment",
    );
    match e.help {
        Some(help) => d.with_help(help),
        None => d,
    }
}

/// A member's two games against a fixed player: games won, games in which
/// it was killed, and the sum over the games of its share of the food eaten.
#[derive(Default)]
struct Against {
    wins: u64,
    deaths: u64,
    food_share: f64,
}

/// A member's player, made when it first plays.
type Lazy<S> = OnceLock<Option<Arc<S>>>;

/// The fitness of evolution by duels: none of its own; matches decide.
struct DuelFitness<G: NamedPlayers> {
    game: G,
    ps: PrimSet,
    /// For each of the game's evolved trees, its place in a genome.
    order: Vec<usize>,
    /// Boards (double-games) a match.
    boards: u64,
    /// The players of the population last evaluated, each made when it
    /// first plays (`None`: one the game could not make, which loses every
    /// match). Made on demand, a rank compiles only the members its matches
    /// draw: under MPI, those of the islands it serves (src/cluster).
    players: RwLock<Vec<Lazy<G::Spec>>>,
    monitor: Option<(String, G::Spec, u32)>,
    /// `(fitness (versus ...))`: the fixed players every member meets, and
    /// the double-games a generation against each. Empty: fitnessless.
    opponents: Vec<(G::Spec, u32)>,
    round_robin: Option<u32>,
}

impl<G: NamedPlayers> DuelFitness<G> {
    fn spec(&self, genome: &Genome, name: &str) -> Option<G::Spec> {
        let Genome::Trees(trees) = genome else { return None };
        let trees: Vec<Tree> = self.order.iter().map(|&i| trees.get(i).cloned().unwrap_or_default()).collect();
        self.game.evolved_player(name, &self.ps, &trees).ok()
    }

    /// A double-game of `me` against the fixed player `them` on the board
    /// of stream (seed, `key`), `me` as Ant 1 then Ant 2, each game's
    /// randomness from (seed, `key`, role, player). Deaths are counted
    /// only if `deaths` (every ply played, not just until the result is
    /// settled).
    fn double_game_against(
        &self,
        (me, them): (&mut G::Player, &mut G::Player),
        seed: u64,
        key: [u64; 3],
        deaths: bool,
    ) -> Option<Against> {
        let start = self.game.random_start(&mut stream(seed, &key));
        let mut tally = Against::default();
        for role in 0..2u64 {
            let mut rngs = [0, 1].map(|r| stream(seed, &[key[0], key[1], key[2], role, r]));
            let [r0, r1] = &mut rngs;
            let players = if role == 0 { [&mut *me, &mut *them] } else { [&mut *them, &mut *me] };
            let end = if deaths {
                self.game.play(&start, players, [r0, r1])
            } else {
                self.game.play_for_result(&start, players, [r0, r1])
            };
            let end = end.ok()?;
            tally.wins += u64::from(end.winner == Some(role as u8));
            tally.deaths += u64::from(end.killed == Some(role as u8));
            let (mine, theirs) = (end.points[role as usize], end.points[1 - role as usize]);
            tally.food_share += if mine + theirs == 0 { 0.5 } else { f64::from(mine) / f64::from(mine + theirs) };
        }
        Some(tally)
    }

    /// Member `i`'s fitness against the fixed opponents: its share of games
    /// won, plus a hundredth of its mean share of the food eaten (which
    /// orders members that win equally often, and gives a gradient where
    /// every game is lost). Boards of (seed, generation, opponent,
    /// double-game), the same for every member; 0 for a member the game
    /// cannot make or that fails. The players are made once per opponent
    /// (every game starts with a reset: a sandboxed C opponent is one child
    /// for all the member's games, not one a double-game).
    fn versus_fitness(&self, genome: &Genome, i: usize, generation: u64, seed: u64) -> f64 {
        let Some(me) = self.spec(genome, &format!("g{i}")) else { return 0.0 };
        let mut games = 0u64;
        let mut tally = Against::default();
        for (o, (them, double_games)) in self.opponents.iter().enumerate() {
            let (Ok(mut me), Ok(mut them)) = (self.game.new_player(&me), self.game.new_player(them)) else {
                return 0.0;
            };
            for d in 0..u64::from(*double_games) {
                let key = [VERSUS, generation, (o as u64) << 32 | d];
                let players = (&mut me, &mut them);
                let Some(t) = self.double_game_against(players, seed, key, false) else { return 0.0 };
                games += 2;
                tally.wins += t.wins;
                tally.food_share += t.food_share;
            }
        }
        let games = games.max(1) as f64;
        tally.wins as f64 / games + tally.food_share / games / 100.0
    }

    /// Whether A beats B in a match of `boards` double-games, its boards and
    /// coin drawn from `rng`; a player that fails loses.
    fn play_match(&self, a: &G::Spec, b: &G::Spec, boards: u64, rng: &mut GpRng) -> bool {
        let (Ok(mut pa), Ok(mut pb)) = (self.game.new_player(a), self.game.new_player(b)) else { return false };
        let seed: u64 = rng.random();
        let mut tally = Tally::default();
        for i in 0..boards {
            let start = self.game.random_start(rng);
            match double_game(&self.game, &start, (&mut pa, &mut pb), seed, [0, i]) {
                Ok(t) => tally.add(&t),
                Err(_) => return false,
            }
        }
        match_winner(&tally, boards, rng.random_bool(0.5)) == 0
    }
}

impl<G: NamedPlayers> Fitness for DuelFitness<G> {
    /// Forgets the last population's players (a player is made when it
    /// first plays); every fitness is 0 until the engine counts the
    /// tournaments won.
    fn evaluate(&self, population: &[Genome], generation: u64, seed: u64) -> Evaluation {
        if !self.opponents.is_empty() {
            // Each member's games are a task, spread over the threads and,
            // under MPI, the ranks (src/cluster).
            let fitness = cluster::map(population.len(), |i| self.versus_fitness(&population[i], i, generation, seed));
            let per_member: u64 = self.opponents.iter().map(|(_, d)| 2 * u64::from(*d)).sum();
            return Evaluation { fitness, games: per_member * population.len() as u64 };
        }
        if let Ok(mut players) = self.players.write() {
            *players = (0..population.len()).map(|_| OnceLock::new()).collect();
        }
        Evaluation { fitness: vec![0.0; population.len()], games: 0 }
    }

    fn beats(&self, population: &[Genome], a: usize, b: usize, rng: &mut GpRng) -> bool {
        let Ok(players) = self.players.read() else { return false };
        let player = |i: usize| -> Option<Arc<G::Spec>> {
            let cell = players.get(i)?;
            cell.get_or_init(|| population.get(i).and_then(|g| self.spec(g, &format!("g{i}"))).map(Arc::new)).clone()
        };
        match (player(a), player(b)) {
            (Some(pa), Some(pb)) => {
                drop(players);
                self.play_match(&pa, &pb, self.boards, rng)
            }
            (a, _) => a.is_some(),
        }
    }

    fn fitnessless(&self) -> Option<u64> {
        self.opponents.is_empty().then_some(2 * self.boards)
    }
}

impl<G: NamedPlayers> RunFitness for DuelFitness<G> {
    type Problem = ();

    /// Refused when the experiment is read: duels are not validated.
    fn validate(&self, candidates: &[(u64, &Genome)], _: &Opponent, _: u32, _: u64, _: u64) -> Vec<f64> {
        vec![0.0; candidates.len()]
    }

    /// Refused when the experiment is read: duels do not coevolve problems.
    fn initial_problems(&self, _: &HillisSpec, _: u64) -> Result<Vec<()>, Vec<Diagnostic>> {
        Ok(Vec::new())
    }

    fn coevolve(
        &self,
        _: &Engine,
        _: &State,
        _: &HillisSpec,
        _: &mut Vec<()>,
        _: u64,
    ) -> Option<(State, GenerationStats, Evaluation)> {
        None
    }

    fn save_problems(&self, _: &[()]) -> SavedProblems {
        SavedProblems::Openings(Vec::new())
    }

    fn load_problems(&self, _: &HillisSpec, _: SavedProblems) -> Result<Vec<()>, String> {
        Ok(Vec::new())
    }

    fn problems_file(&self, _: &str, _: u64, _: &[()]) -> Option<String> {
        None
    }

    /// The generation's best against the monitor: its double-games, board i
    /// from the stream (seed, generation, i), the member as Ant 1 then Ant 2.
    fn monitor(&self, best: &Genome, generation: u64, seed: u64) -> Option<MonitorStats> {
        let (name, opponent, double_games) = self.monitor.as_ref()?;
        let me = self.spec(best, "best")?;
        // Each double-game is a task of its own (players forget a game when
        // the next starts), spread over the threads and, under MPI, the ranks.
        let double_game = |i: u64| {
            let (Ok(mut me), Ok(mut them)) = (self.game.new_player(&me), self.game.new_player(opponent)) else {
                return None;
            };
            self.double_game_against((&mut me, &mut them), seed, [MONITOR, generation, i], true)
        };
        let tallies: Vec<Option<(u64, u64)>> =
            cluster::map(*double_games as usize, |i| double_game(i as u64).map(|t| (t.wins, t.deaths)));
        let (mut games, mut wins, mut deaths) = (0u64, 0u64, 0u64);
        for (w, d) in tallies.into_iter().collect::<Option<Vec<_>>>()? {
            games += 2;
            wins += w;
            deaths += d;
        }
        let share = |n: u64| n as f64 / games.max(1) as f64;
        Some(MonitorStats { opponent: name.clone(), games, win_rate: share(wins), death_rate: share(deaths) })
    }

    /// A round robin of `population`: every pair meets once in a match of
    /// D double-games; the most matches won (the earlier on a tie).
    fn final_choice(&self, population: &[Genome], seed: u64) -> Option<(usize, String)> {
        let double_games = self.round_robin?;
        let specs: Vec<Option<G::Spec>> =
            population.par_iter().enumerate().map(|(i, g)| self.spec(g, &format!("g{i}"))).collect();
        let n = population.len();
        // Row a: whether a beats each b > a. Rows are the tasks, spread over
        // the threads and, under MPI, the ranks (src/cluster).
        let rows: Vec<Vec<bool>> = cluster::map(n, |a| {
            (a + 1..n)
                .map(|b| {
                    let mut rng = stream(seed, &[ROUND_ROBIN, a as u64, b as u64]);
                    match (&specs[a], &specs[b]) {
                        (Some(sa), Some(sb)) => self.play_match(sa, sb, u64::from(double_games), &mut rng),
                        (sa, _) => sa.is_some(),
                    }
                })
                .collect()
        });
        let mut won = vec![0u32; n];
        for (a, row) in rows.iter().enumerate() {
            for (b, &a_wins) in (a + 1..n).zip(row) {
                won[if a_wins { a } else { b }] += 1;
            }
        }
        let best = (0..n).max_by_key(|&i| (won[i], std::cmp::Reverse(i)))?;
        let origin = format!(
            "won {} of {} matches ({double_games} double-games each) in a round robin of the final population",
            won[best],
            n.saturating_sub(1)
        );
        Some((best, origin))
    }
}
