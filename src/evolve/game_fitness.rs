//! Fitness from games: points (1 per win, ½ per draw) against cohorts
//! (coevolution), round robins, the random player, the papers' α-β guides with
//! random evaluation, and the material benchmark.
//!
//! Individual i's games draw opponents and randomness from streams named by
//! (seed, generation, i, source, game), so the points are the same whatever
//! the thread count. Each game counts for the individual being evaluated only,
//! except in `(pairings N)`, where the population is paired at random N times
//! and every game scores for both players.

use std::sync::{Arc, Mutex};

use rand::RngExt;
use rand::seq::SliceRandom;

use super::engine::{Evaluation, FITNESS, Fitness, PAIRINGS, VALIDATE};
use super::experiment::{Experiment, FitnessPart, Opponent};
use super::genome::{Genome, Representation};
use crate::cluster;
use crate::diagnostic::Diagnostic;
use crate::eval::Engine;
use crate::games::domain::{Binding, GpGame};
use crate::games::{GameResult, Player};
use crate::lang::{PrimSet, Tree};
use crate::rng::{GpRng, stream};
use crate::search::alphabeta::SearchParams;
use crate::search::players::{GpPrograms, PlayerFactory, play_game};
use crate::search::programs::{GpProgram, Program};

/// What evolves and how its programs read positions.
pub struct EvolvedPrograms<S> {
    pub ps: Arc<PrimSet>,
    pub binding: Arc<Binding<S>>,
    pub rep: Representation,
    /// Index of the `eval` and (if evolved) `order` trees in a tree genome.
    pub eval_slot: usize,
    pub order_slot: Option<usize>,
}

/// How the population is judged by games.
pub struct MatchSettings {
    /// The search every evolved player uses.
    pub player: SearchParams,
    pub parts: Vec<FitnessPart>,
    /// Games per match in fitnessless selection.
    pub match_games: u32,
    pub engine: Engine,
}

/// The players of one generation, shared by the tasks that use them.
pub type Players<S> = Arc<Vec<PlayerFactory<S>>>;

pub struct GameFitness<G: GpGame> {
    pub game: G,
    pub ps: Arc<PrimSet>,
    pub binding: Arc<Binding<G::State>>,
    /// What the genomes are.
    pub rep: Representation,
    /// Index of the `eval` and (if evolved) `order` trees in a tree genome.
    pub eval_slot: usize,
    pub order_slot: Option<usize>,
    pub player: SearchParams,
    pub parts: Vec<FitnessPart>,
    /// Games per match in fitnessless selection.
    pub match_games: u32,
    /// How each generation's population is evaluated.
    pub engine: Engine,
    /// The players of the population last evaluated (for fitnessless matches).
    last: Mutex<Option<Players<G::State>>>,
    /// Trees the JIT could not compile, with the reason (they are interpreted).
    pub fallbacks: Mutex<Vec<String>>,
}

/// Points for `me` from a game result.
pub fn points(result: GameResult, me: Player) -> f64 {
    match result {
        GameResult::Draw => 0.5,
        GameResult::Winner(w) if w == me => 1.0,
        GameResult::Winner(_) => 0.0,
    }
}

impl<G> GameFitness<G>
where
    G: GpGame,
{
    pub fn new(game: G, programs: EvolvedPrograms<G::State>, settings: MatchSettings) -> GameFitness<G> {
        let EvolvedPrograms { ps, binding, rep, eval_slot, order_slot } = programs;
        let MatchSettings { player, parts, match_games, engine } = settings;
        GameFitness {
            game,
            ps,
            binding,
            rep,
            eval_slot,
            order_slot,
            player,
            parts,
            match_games,
            engine,
            last: Mutex::new(None),
            fallbacks: Mutex::new(Vec::new()),
        }
    }

    /// The fitness experiment `exp` scores on `game`, its programs over
    /// primset `ps`.
    pub fn for_experiment(game: G, ps: &PrimSet, exp: &Experiment) -> Result<GameFitness<G>, Vec<Diagnostic>> {
        let binding = Arc::new(Binding::new(&game, ps)?);
        let rep = exp.representation.clone();
        let slot = |name: &str| exp.trees().iter().position(|(n, _)| n == name);
        let programs = EvolvedPrograms {
            ps: Arc::new(ps.clone()),
            binding,
            rep,
            eval_slot: slot("eval").unwrap_or(0),
            order_slot: if exp.player.is_selective() { slot("order") } else { None },
        };
        let settings = MatchSettings {
            player: exp.player,
            parts: exp.fitness.clone(),
            match_games: exp.match_games,
            engine: exp.engine,
        };
        Ok(GameFitness::new(game, programs, settings))
    }

    /// What evaluates leaves for genome `g` (see [`Genome::program`]).
    fn program(&self, g: &Genome) -> Program {
        g.program(&self.rep, &self.ps, self.eval_slot)
    }

    /// The evolved players of a population: the programs that evaluate
    /// leaves (and, for trees, the `order` trees that rank siblings),
    /// JIT-compiled as one population when enabled.
    pub fn players(&self, population: &[Genome]) -> Vec<PlayerFactory<G::State>> {
        let mut programs: Vec<Program> = population.iter().map(|g| self.program(g)).collect();
        if let Some(o) = self.order_slot {
            let order = |g: &Genome| match g {
                Genome::Trees(ts) => ts.get(o).cloned().unwrap_or_default(),
                _ => Tree::default(),
            };
            programs.extend(population.iter().map(|g| Program::Tree(order(g))));
        }
        let programs: Vec<Arc<GpProgram<G::State>>> =
            GpProgram::population(&self.ps, &self.binding, programs, self.engine, &self.fallbacks)
                .into_iter()
                .map(Arc::new)
                .collect();
        let n = population.len();
        (0..n)
            .map(|i| {
                let order = self.order_slot.map(|_| programs[n + i].clone());
                PlayerFactory::Gp(GpPrograms { eval: programs[i].clone(), order }, self.player)
            })
            .collect()
    }

    /// Plays one game between `me` (with colour `colour`) and `opponent`; returns `me`'s points.
    fn game(
        &self,
        me: &PlayerFactory<G::State>,
        opponent: &PlayerFactory<G::State>,
        colour: Player,
        seed: u64,
        tags: &[u64],
    ) -> f64 {
        self.game_from(&self.game.initial_state(), me, opponent, colour, seed, tags)
    }

    /// Plays one game from `start` between `me` (moving for `colour`) and
    /// `opponent`; returns `me`'s points. Each player's stream is named by
    /// `seed` and `tags` with 0 (for `me`) or 1 appended.
    pub fn game_from(
        &self,
        start: &G::State,
        me: &PlayerFactory<G::State>,
        opponent: &PlayerFactory<G::State>,
        colour: Player,
        seed: u64,
        tags: &[u64],
    ) -> f64 {
        let mut tags_me = tags.to_vec();
        tags_me.push(0);
        let mut tags_opp = tags.to_vec();
        tags_opp.push(1);
        let mut a = me.make::<G>(seed, &tags_me);
        let mut b = opponent.make::<G>(seed, &tags_opp);
        let record = if colour == 0 {
            play_game(&self.game, start, [a.as_mut(), b.as_mut()])
        } else {
            play_game(&self.game, start, [b.as_mut(), a.as_mut()])
        };
        points(record.result, colour)
    }

    /// Points each of `candidates` scores in `games` games against
    /// `opponent`, alternating colours. Games are named by (seed, round,
    /// candidate id, game), so the points are the same whatever the thread
    /// count; a generation's round is its number and ids are population indices.
    pub fn validate(
        &self,
        candidates: &[(u64, &Genome)],
        opponent: &Opponent,
        games: u32,
        round: u64,
        seed: u64,
    ) -> Vec<f64> {
        let chosen: Vec<Genome> = candidates.iter().map(|&(_, g)| g.clone()).collect();
        let players = self.players(&chosen);
        let opponent = match *opponent {
            Opponent::Random => PlayerFactory::Random,
            Opponent::Material(p) => PlayerFactory::Material(p),
            Opponent::Guide(p) => PlayerFactory::RandomGuide(p),
        };
        let jobs: Vec<(usize, u64)> =
            (0..players.len()).flat_map(|c| (0..u64::from(games)).map(move |j| (c, j))).collect();
        let points: Vec<f64> = cluster::map(jobs.len(), |k| {
            let (c, j) = jobs[k];
            let tags = [VALIDATE, round, candidates[c].0, j];
            self.game(&players[c], &opponent, (j % 2) as Player, seed, &tags)
        });
        points.chunks(games.max(1) as usize).map(|c| c.iter().sum()).collect()
    }

    fn score(&self, i: usize, players: &[PlayerFactory<G::State>], generation: u64, seed: u64) -> (f64, u64) {
        let n = players.len();
        let mut rng = stream(seed, &[FITNESS, generation, i as u64]);
        let (mut total, mut games) = (0.0, 0u64);
        for (p, part) in self.parts.iter().enumerate() {
            let tags = |j: u64| [FITNESS, generation, i as u64, p as u64, j];
            let mut vs = |opponent: &PlayerFactory<G::State>, count: u32| {
                for j in 0..u64::from(count) {
                    total += self.game(&players[i], opponent, (j % 2) as Player, seed, &tags(j));
                    games += 1;
                }
            };
            match *part {
                FitnessPart::Cohort(k) => {
                    for j in 0..u64::from(k) {
                        let mut o = rng.random_range(0..n);
                        if o == i && n > 1 {
                            o = (o + 1 + rng.random_range(0..n - 1)) % n;
                        }
                        total += self.game(&players[i], &players[o], (j % 2) as Player, seed, &tags(j));
                        games += 1;
                    }
                }
                // Scored for the whole population at once in `pairings`.
                FitnessPart::Pairings(_) => {}
                // Scored with the problem population in `openings::Coevolution`;
                // puzzles are refused before any run.
                FitnessPart::Hillis(_) | FitnessPart::Solve(_) => {}
                // Scored per role in `cca_generation.rs`, which runs it alone.
                FitnessPart::Cca(_) => {}
                FitnessPart::RoundRobin => {
                    for o in (0..n).filter(|&o| o != i) {
                        for colour in 0..2u64 {
                            total += self.game(
                                &players[i],
                                &players[o],
                                colour as Player,
                                seed,
                                &tags(2 * o as u64 + colour),
                            );
                            games += 1;
                        }
                    }
                }
                FitnessPart::Random(k) => vs(&PlayerFactory::Random, k),
                FitnessPart::Guide { depth, games: k } => vs(&PlayerFactory::RandomGuide(SearchParams::full(depth)), k),
                FitnessPart::Material { depth, games: k } => vs(&PlayerFactory::Material(SearchParams::full(depth)), k),
            }
        }
        (total, games)
    }

    /// Points of every member from the `(pairings k)` part `p`: k rounds, each
    /// pairing the shuffled population two by two, one game per pair scoring
    /// for both. With an odd population the member left over plays someone
    /// drawn at random, and only its own points count. Returns the points and
    /// the games played.
    fn pairings(
        &self,
        players: &[PlayerFactory<G::State>],
        p: usize,
        k: u32,
        generation: u64,
        seed: u64,
    ) -> (Vec<f64>, u64) {
        let n = players.len();
        let mut rng = stream(seed, &[PAIRINGS, generation, p as u64]);
        // (round, first, second, second scores too)
        let mut games: Vec<(u64, usize, usize, bool)> = Vec::new();
        let mut order: Vec<usize> = (0..n).collect();
        for round in 0..u64::from(k) {
            order.shuffle(&mut rng);
            for pair in order.chunks(2) {
                match *pair {
                    [a, b] => games.push((round, a, b, true)),
                    [a] if n > 1 => {
                        let b = (a + 1 + rng.random_range(0..n - 1)) % n;
                        games.push((round, a, b, false));
                    }
                    _ => {}
                }
            }
        }
        let results: Vec<f64> = cluster::map(games.len(), |g| {
            let (round, a, b, _) = games[g];
            let tags = [PAIRINGS, generation, p as u64, g as u64];
            self.game(&players[a], &players[b], (round % 2) as Player, seed, &tags)
        });
        let mut points = vec![0.0; n];
        for (&(_, a, b, both), r) in games.iter().zip(&results) {
            points[a] += r;
            if both {
                points[b] += 1.0 - r;
            }
        }
        (points, games.len() as u64)
    }
}

impl<G> Fitness for GameFitness<G>
where
    G: GpGame,
{
    fn evaluate(&self, population: &[Genome], generation: u64, seed: u64) -> Evaluation {
        let players = Arc::new(self.players(population));
        let evaluation = self.evaluate_players(&players, generation, seed);
        self.remember(players);
        evaluation
    }

    fn beats(&self, population: &[Genome], a: usize, b: usize, rng: &mut GpRng) -> bool {
        self.match_won(population, a, b, rng)
    }
}

impl<G> GameFitness<G>
where
    G: GpGame,
{
    /// The points of a population's `players` from every fitness source.
    pub fn evaluate_players(&self, players: &[PlayerFactory<G::State>], generation: u64, seed: u64) -> Evaluation {
        let population_len = players.len();
        // The games are the generation's work, spread over the threads and,
        // under MPI, the ranks (src/cluster).
        let scored: Vec<(f64, u64)> = cluster::map(population_len, |i| self.score(i, players, generation, seed));
        let mut fitness: Vec<f64> = scored.iter().map(|s| s.0).collect();
        let mut games: u64 = scored.iter().map(|s| s.1).sum();
        for (p, part) in self.parts.iter().enumerate() {
            if let FitnessPart::Pairings(k) = *part {
                let (points, played) = self.pairings(players, p, k, generation, seed);
                fitness.iter_mut().zip(points).for_each(|(f, x)| *f += x);
                games += played;
            }
        }
        Evaluation { fitness, games }
    }

    /// Keeps the players of the population just evaluated for fitnessless matches.
    pub fn remember(&self, players: Players<G::State>) {
        if let Ok(mut last) = self.last.lock() {
            *last = Some(players);
        }
    }

    /// Whether member `a` of `population` beats member `b` in a match of
    /// `match_games` games (fitnessless selection).
    pub fn match_won(&self, population: &[Genome], a: usize, b: usize, rng: &mut GpRng) -> bool {
        let cached = self.last.lock().ok().and_then(|l| l.clone()).filter(|p| p.len() == population.len());
        let players = cached.unwrap_or_else(|| Arc::new(self.players(population)));
        let (pa, pb) = (&players[a], &players[b]);
        let match_seed: u64 = rng.random();
        let mut total = 0.0;
        for j in 0..u64::from(self.match_games) {
            total += self.game(pa, pb, (j % 2) as Player, match_seed, &[j]);
        }
        let half = f64::from(self.match_games) / 2.0;
        if total == half { rng.random_bool(0.5) } else { total > half }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::init::{Builder, Method};
    use crate::games::morris::Morris;
    use crate::lang::TypeId;
    use crate::lang::library::load_primset;

    /// Fitness of random depth-1 Morris players from `parts`.
    fn fitness_of(n: usize, parts: Vec<FitnessPart>) -> Evaluation {
        let ps = Arc::new(load_primset("morris").expect("shipped primset"));
        let binding = Arc::new(Binding::new(&Morris::standard(), &ps).expect("binds"));
        let builder = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let mut rng = stream(3, &[]);
        let population: Vec<Genome> =
            (0..n).map(|_| Genome::Trees(vec![builder.tree(&mut rng, TypeId::F, Method::Grow, 4)])).collect();
        let rep = Representation::Trees(vec![("eval".into(), TypeId::F)]);
        let programs = EvolvedPrograms { ps, binding, rep, eval_slot: 0, order_slot: None };
        let settings = MatchSettings { player: SearchParams::full(1), parts, match_games: 2, engine: Engine::Interp };
        let fitness = GameFitness::new(Morris::standard(), programs, settings);
        fitness.evaluate(&population, 0, 9)
    }

    #[test]
    fn pairings_score_every_game_for_both_players() {
        let even = fitness_of(6, vec![FitnessPart::Pairings(3)]);
        assert_eq!(even.games, 9, "3 rounds of 3 pairs");
        assert_eq!(even.fitness.iter().sum::<f64>(), 9.0, "each game hands out one point in all");
        assert!(even.fitness.iter().all(|&f| (0.0..=3.0).contains(&f)));
        // The member left over in an odd population plays too, for itself only.
        let odd = fitness_of(5, vec![FitnessPart::Pairings(2)]);
        assert_eq!(odd.games, 6, "2 rounds of 2 pairs and one extra game");
        let total: f64 = odd.fitness.iter().sum();
        assert!((4.0..=5.0).contains(&total), "{total}");
    }

    #[test]
    fn pairings_add_to_the_other_sources() {
        let alone = fitness_of(6, vec![FitnessPart::Random(2)]);
        let both = fitness_of(6, vec![FitnessPart::Random(2), FitnessPart::Pairings(1)]);
        assert_eq!(both.games, alone.games + 3);
        let paired: Vec<f64> = both.fitness.iter().zip(&alone.fitness).map(|(b, a)| b - a).collect();
        assert!(paired.iter().all(|&p| (0.0..=1.0).contains(&p)), "one paired game each: {paired:?}");
        assert_eq!(paired.iter().sum::<f64>(), 3.0);
    }
}
