//! The generational loop: evaluate, select, breed. Every random decision comes
//! from a stream named by (seed, generation, purpose, index), and fitness is
//! computed in parallel by tasks with streams of their own, so a run is
//! bit-identical on 1 and on N threads.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::genome::{Genome, Representation, Variation};
use super::init::Builder;
use super::neat::{self, NeatParams, NeatState, SpeciesStats};
use super::select;
use crate::cluster;
use crate::lang::PrimSet;
use crate::rng::{GpRng, stream};

/// How parents are chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Selection {
    /// The best of k drawn at random.
    Tournament(usize),
    /// Roulette wheel over fitness.
    Proportionate,
    /// The winner of a single-elimination tournament of k, decided by matches.
    Fitnessless(usize),
}

#[derive(Debug, Clone)]
pub struct EngineParams {
    pub population: usize,
    pub generations: usize,
    /// Probability that a breeding event is a crossover; else a mutation with
    /// probability `mutation`, else a copy.
    pub crossover: f64,
    pub mutation: f64,
    pub selection: Selection,
    /// How many of the best are copied unchanged into the next generation.
    pub elitism: usize,
    pub seed: u64,
    pub variation: Variation,
    /// Probability that a breeding event is an ERC mutation alone (after
    /// crossover and mutation; the rest are copies).
    pub erc_mutation: f64,
    pub islands: Islands,
}

/// The island model: the population is split into `count` islands of
/// (nearly) equal size that select and breed apart. Every `every`
/// generations each island sends copies of its `migrants` fittest to the
/// next island of the ring, where they replace members drawn at random
/// (never its elites).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Islands {
    pub count: usize,
    pub every: u64,
    pub migrants: usize,
}

impl Default for Islands {
    fn default() -> Islands {
        Islands { count: 1, every: 1, migrants: 0 }
    }
}

impl Islands {
    /// The population index ranges of the islands of a population of `n`:
    /// the first `n % count` islands have one member more.
    pub fn ranges(&self, n: usize) -> Vec<std::ops::Range<usize>> {
        let count = self.count.clamp(1, n.max(1));
        let mut start = 0;
        (0..count)
            .map(|i| {
                let size = n / count + usize::from(i < n % count);
                start += size;
                start - size..start
            })
            .collect()
    }
}

/// Stream purposes, so that no two decisions share a stream.
const INIT: u64 = 1;
const BREED: u64 = 2;
pub const FITNESS: u64 = 3;
const SELECT: u64 = 4;
/// Validation games that choose the champion (see `ChampionRule`).
pub const VALIDATE: u64 = 5;
/// The schedule and games of `(pairings N)` fitness.
pub const PAIRINGS: u64 = 6;
/// The training puzzles a generation of `(solve N)` draws.
pub const PUZZLES: u64 = 7;
/// Breeding by island (with the island's number after the generation).
const ISLAND: u64 = 8;
/// Migration between islands.
const MIGRATE: u64 = 9;
/// NEAT's breeding (after the generation, under `BREED`).
const NEAT: u64 = 10;

/// What evaluates a population. Implementations must be deterministic given
/// `(seed, generation)` and the index of each task, whatever the thread count.
pub trait Fitness: Sync {
    /// Fitness of every member, higher is better. `games` counts the matches played.
    fn evaluate(&self, population: &[Genome], generation: u64, seed: u64) -> Evaluation;

    /// For fitnessless selection: whether member `a` of `population` beats
    /// member `b` in a match whose randomness comes from `rng`. Called after
    /// `evaluate` on the same population.
    fn beats(&self, population: &[Genome], a: usize, b: usize, rng: &mut GpRng) -> bool;

    /// `Some(games per match)` when the fitness scores nothing itself and
    /// members are judged only by the matches of fitnessless selection (Ant
    /// Wars): the engine then counts as a member's fitness the selection
    /// tournaments it won this generation.
    fn fitnessless(&self) -> Option<u64> {
        None
    }
}

#[derive(Debug, Clone, Default)]
pub struct Evaluation {
    pub fitness: Vec<f64>,
    /// Matches (or other evaluations) performed, for the games/s figure.
    pub games: u64,
}

/// Summary of one generation, as logged.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GenerationStats {
    pub generation: u64,
    pub best: f64,
    pub mean: f64,
    pub worst: f64,
    pub best_index: usize,
    pub mean_size: f64,
    pub max_size: usize,
    pub mean_depth: f64,
    pub max_depth: usize,
    pub games: u64,
    /// Validation games of the fittest individuals, when the experiment
    /// chooses its champion by them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<Validation>,
    /// The problem population, when the run coevolves problems (Hillis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problems: Option<ProblemStats>,
    /// The best member's games against the experiment's monitor (duels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monitor: Option<MonitorStats>,
    /// The species of the generation, when networks evolve by NEAT.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub species: Option<SpeciesStats>,
}

/// The best member of a generation against a fixed player (seeds/003, figure 4).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MonitorStats {
    pub opponent: String,
    /// Games played (two per double-game).
    pub games: u64,
    /// Share of the games the member won.
    pub win_rate: f64,
    /// Share of the games in which the member was killed.
    pub death_rate: f64,
}

/// The problem population of Hillis coevolution in one generation.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ProblemStats {
    /// Share of the solvers' meetings with problems that the solver solved.
    pub solved: f64,
    /// Best and mean points of the problems (a point per solver that failed it).
    pub best: f64,
    pub mean: f64,
    /// Mean length of the problems (plies of an opening).
    pub mean_length: f64,
}

/// Points the fittest individuals of a generation scored in validation games.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Validation {
    /// Population indices, fittest first.
    pub candidates: Vec<usize>,
    /// Each candidate's points (1 per win, ½ per draw).
    pub points: Vec<f64>,
    /// Games each candidate played.
    pub games: u32,
}

/// A population at the start of a generation: all that is needed to go on.
#[derive(Debug, Clone)]
pub struct State {
    pub generation: u64,
    pub population: Vec<Genome>,
    /// Innovation numbers and species, when networks evolve by NEAT.
    pub neat: Option<NeatState>,
}

/// A breeding event of [`Engine::plan`].
#[derive(Debug, Clone, Copy, PartialEq)]
enum Event {
    Crossover,
    Mutation,
    ErcMutation,
    Copy,
}

/// An island's breeding events, the parents they take, and the stream
/// their variation goes on drawing from.
struct Plan {
    kinds: Vec<Event>,
    parents: usize,
    elites: usize,
    rng: GpRng,
}

pub struct Engine<'a> {
    pub params: EngineParams,
    pub rep: Representation,
    pub builder: Builder<'a>,
}

impl<'a> Engine<'a> {
    pub fn new(params: EngineParams, rep: Representation, builder: Builder<'a>) -> Engine<'a> {
        Engine { params, rep, builder }
    }

    pub fn primset(&self) -> &PrimSet {
        self.builder.primset()
    }

    /// Generation 0.
    pub fn initial(&self) -> State {
        let mut rng = stream(self.params.seed, &[INIT]);
        let population =
            self.rep.random_population(&self.builder, &mut rng, self.params.population, &self.params.variation);
        let neat = match &self.rep {
            Representation::Network(np) => Some(NeatState::new(np.inputs.len())),
            _ => None,
        };
        State { generation: 0, population, neat }
    }

    /// Generation 0 with `founders` in its first places, the rest drawn as
    /// [`Engine::initial`] draws them (the same stream: without founders
    /// the two are equal).
    pub fn initial_with(&self, founders: &[Genome]) -> State {
        let mut state = self.initial();
        for (member, founder) in state.population.iter_mut().zip(founders) {
            *member = founder.clone();
        }
        state
    }

    /// Evaluates `state` and breeds the next generation.
    pub fn step(&self, state: &State, fitness: &dyn Fitness) -> (State, GenerationStats, Evaluation) {
        let mut eval = fitness.evaluate(&state.population, state.generation, self.params.seed);
        if let Representation::Network(np) = &self.rep {
            return self.step_neat(state, eval, np);
        }
        if self.params.islands.count <= 1 && fitness.fitnessless().is_none() {
            let stats = self.stats(state, &eval);
            let next = self.breed(state, &eval.fitness, fitness);
            return (next, stats, eval);
        }
        let ranges = self.params.islands.ranges(state.population.len());
        let homes = cluster::Homes::place(ranges.len());
        let next = self.breed_islands(state, &mut eval, fitness, &ranges, &homes);
        let stats = self.stats(state, &eval);
        (next, stats, eval)
    }

    /// NEAT's generation (src/evolve/neat/breed.rs): speciation, shared
    /// fitness and NEAT's operators instead of selection and elitism.
    fn step_neat(&self, state: &State, eval: Evaluation, np: &NeatParams) -> (State, GenerationStats, Evaluation) {
        let g = state.generation;
        let mut stats = self.stats(state, &eval);
        let nets: Vec<_> = state
            .population
            .iter()
            .filter_map(|m| match m {
                Genome::Network(net) => Some(net.clone()),
                _ => None,
            })
            .collect();
        let carried = state.neat.clone().unwrap_or_else(|| NeatState::new(np.inputs.len()));
        let mut rng = stream(self.params.seed, &[BREED, g, NEAT]);
        let (next, neat, species) = neat::breed::breed(&mut rng, &nets, &eval.fitness, &carried, g, np);
        stats.species = Some(species);
        let population = next.into_iter().map(Genome::Network).collect();
        (State { generation: g + 1, population, neat: Some(neat) }, stats, eval)
    }

    /// Breeding island by island: each island plans its breeding events
    /// first, so that it selects exactly the parents they use (a fitnessless
    /// selection costs k − 1 matches), selects them among its own members,
    /// and breeds as many children as it has members. Then migration. When
    /// the fitness is fitnessless, `eval`'s fitness becomes the tournaments
    /// each member won, and its games the matches played. Under MPI each
    /// island is selected and bred where `homes` places it, and every rank
    /// receives the whole next population (src/cluster/homes.rs).
    fn breed_islands(
        &self,
        state: &State,
        eval: &mut Evaluation,
        judge: &dyn Fitness,
        ranges: &[std::ops::Range<usize>],
        homes: &cluster::Homes,
    ) -> State {
        let p = &self.params;
        let g = state.generation;
        let plans: Vec<Plan> = ranges.iter().enumerate().map(|(i, r)| self.plan(g, i as u64, r.len())).collect();
        let served: Vec<usize> = (0..ranges.len()).filter(|&i| homes.serves(i)).collect();
        // The selection events of the islands served here: (island, event).
        let events: Vec<(usize, usize)> =
            served.iter().flat_map(|&i| (0..plans[i].parents).map(move |e| (i, e))).collect();
        let fitnessless = judge.fitnessless();
        let pick = |&(i, e): &(usize, usize), fitness: &[f64]| {
            let r = &ranges[i];
            let mut rng = stream(p.seed, &[SELECT, g, ISLAND, i as u64, e as u64]);
            let local = &fitness[r.clone()];
            r.start
                + match p.selection {
                    Selection::Tournament(k) => select::tournament(&mut rng, local, k),
                    Selection::Proportionate => select::proportionate(&mut rng, local),
                    Selection::Fitnessless(k) => {
                        let mut match_rng = stream(p.seed, &[SELECT, g, ISLAND, i as u64, e as u64, 1]);
                        let pop = &state.population;
                        select::single_elimination(&mut rng, r.len(), k, |a, b| {
                            judge.beats(pop, r.start + a, r.start + b, &mut match_rng)
                        })
                    }
                }
        };
        // Fitnessless selection plays matches: the generation's work, spread
        // over the threads and, under MPI, the ranks that serve the island.
        let parents: Vec<usize> = match p.selection {
            Selection::Fitnessless(_) => homes.map(events.len(), |j| pick(&events[j], &eval.fitness)),
            _ => events.iter().map(|ev| pick(ev, &eval.fitness)).collect(),
        };
        if let Some(games_per_match) = fitnessless {
            let mut wins = vec![0.0; state.population.len()];
            for &w in &parents {
                wins[w] += 1.0;
            }
            eval.fitness = wins;
            if let Selection::Fitnessless(k) = p.selection {
                let all_parents: usize = plans.iter().map(|plan| plan.parents).sum();
                let matches = all_parents as u64 * (k as u64).saturating_sub(1);
                eval.games += matches * games_per_match;
            }
        }
        let mut bred: Vec<(usize, Vec<Genome>)> = Vec::new();
        let mut taken = 0;
        for &i in &served {
            let chosen = &parents[taken..taken + plans[i].parents];
            taken += plans[i].parents;
            if homes.breeds(i) {
                bred.push((i, self.breed_island(state, &eval.fitness, &ranges[i], &plans[i], chosen)));
            }
        }
        self.migrate(state, &eval.fitness, ranges, &mut bred, homes);
        // Every island, with the fitness its own ranks found (the
        // tournaments won, when selection is fitnessless).
        let islands: Vec<(Vec<Genome>, Vec<f64>)> = homes.gather(
            bred.into_iter().map(|(i, members)| (i, (members, eval.fitness[ranges[i].clone()].to_vec()))).collect(),
        );
        let mut next = Vec::with_capacity(state.population.len());
        let mut fitness = Vec::with_capacity(state.population.len());
        for (members, f) in islands {
            next.extend(members);
            fitness.extend(f);
        }
        eval.fitness = fitness;
        State { generation: g + 1, population: next, neat: None }
    }

    /// The breeding events of island `island` of `size` members: the kind of
    /// each, drawn in order until they make `size` children beside the elites.
    fn plan(&self, generation: u64, island: u64, size: usize) -> Plan {
        let p = &self.params;
        let elites = p.elitism.min(size);
        let mut rng = stream(p.seed, &[BREED, generation, ISLAND, island]);
        let mut kinds = Vec::new();
        let (mut children, mut parents) = (elites, 0);
        while children < size {
            let roll: f64 = rng.random();
            let kind = if roll < p.crossover {
                Event::Crossover
            } else if roll < p.crossover + p.mutation {
                Event::Mutation
            } else if roll < p.crossover + p.mutation + p.erc_mutation {
                Event::ErcMutation
            } else {
                Event::Copy
            };
            parents += if kind == Event::Crossover { 2 } else { 1 };
            children += if kind == Event::Crossover && !p.variation.one_way { 2 } else { 1 };
            kinds.push(kind);
        }
        Plan { kinds, parents, elites, rng }
    }

    /// The next generation of the island at `range`: its elites, then the
    /// children of `plan`'s events from `parents` (population indices).
    fn breed_island(
        &self,
        state: &State,
        fitness: &[f64],
        range: &std::ops::Range<usize>,
        plan: &Plan,
        parents: &[usize],
    ) -> Vec<Genome> {
        let p = &self.params;
        let pop = &state.population;
        let local = &fitness[range.clone()];
        let mut next: Vec<Genome> =
            select::elite(local, plan.elites).into_iter().map(|i| pop[range.start + i].clone()).collect();
        let mut rng = plan.rng.clone();
        let mut parents = parents.iter().copied();
        let mut take = || parents.next().unwrap_or(range.start);
        for kind in &plan.kinds {
            match kind {
                Event::Crossover => {
                    let (a, b) = (take(), take());
                    let (x, y) = if fitness[a] >= fitness[b] { (a, b) } else { (b, a) };
                    let (c, d) = self.rep.crossover(&self.builder, &mut rng, &pop[x], &pop[y], &p.variation);
                    if p.variation.one_way {
                        next.push(d);
                    } else {
                        next.push(c);
                        next.push(d);
                    }
                }
                Event::Mutation => next.push(self.rep.mutate(&self.builder, &mut rng, &pop[take()], &p.variation)),
                Event::ErcMutation => {
                    next.push(self.rep.mutate_ercs(&self.builder, &mut rng, &pop[take()], &p.variation))
                }
                Event::Copy => next.push(pop[take()].clone()),
            }
        }
        next.truncate(range.len());
        next
    }

    /// Every `islands.every` generations, each island's `migrants` fittest
    /// (of the generation just evaluated) replace members of the next
    /// island drawn at random among those that are not its elites. `bred`
    /// holds the islands this rank breeds; migrants come from the ranks
    /// that breed the islands before them.
    fn migrate(
        &self,
        state: &State,
        fitness: &[f64],
        ranges: &[std::ops::Range<usize>],
        bred: &mut [(usize, Vec<Genome>)],
        homes: &cluster::Homes,
    ) {
        let p = &self.params;
        let isl = p.islands;
        if ranges.len() < 2 || isl.migrants == 0 || !(state.generation + 1).is_multiple_of(isl.every.max(1)) {
            return;
        }
        let routes: Vec<(usize, usize)> = (0..ranges.len()).map(|i| (i, (i + 1) % ranges.len())).collect();
        let elites = |to: usize| p.elitism.min(ranges[to].len());
        let count = |to: usize| isl.migrants.min(ranges[to].len() - elites(to));
        let arrivals: Vec<Option<Vec<Genome>>> = homes.relay(&routes, |k| {
            let (from, to) = routes[k];
            let best = select::elite(&fitness[ranges[from].clone()], count(to));
            best.into_iter().map(|b| state.population[ranges[from].start + b].clone()).collect()
        });
        for (&(from, to), migrants) in routes.iter().zip(arrivals) {
            let (Some(migrants), Some((_, members))) = (migrants, bred.iter_mut().find(|(i, _)| *i == to)) else {
                continue;
            };
            let slots = ranges[to].len() - elites(to);
            let mut rng = stream(p.seed, &[MIGRATE, state.generation, from as u64]);
            let targets = rand::seq::index::sample(&mut rng, slots, count(to));
            for (t, m) in targets.iter().zip(migrants) {
                members[elites(to) + t] = m;
            }
        }
    }

    pub fn stats(&self, state: &State, eval: &Evaluation) -> GenerationStats {
        let f = &eval.fitness;
        let n = f.len().max(1) as f64;
        let best_index = select::elite(f, 1).first().copied().unwrap_or(0);
        let ps = self.primset();
        let sizes: Vec<usize> = state.population.iter().map(Genome::size).collect();
        let depths: Vec<usize> = state.population.iter().map(|g| g.depth(ps)).collect();
        GenerationStats {
            generation: state.generation,
            best: f.get(best_index).copied().unwrap_or(0.0),
            mean: f.iter().sum::<f64>() / n,
            worst: f.iter().copied().fold(f64::INFINITY, f64::min),
            best_index,
            mean_size: sizes.iter().sum::<usize>() as f64 / n,
            max_size: sizes.iter().copied().max().unwrap_or(0),
            mean_depth: depths.iter().sum::<usize>() as f64 / n,
            max_depth: depths.iter().copied().max().unwrap_or(0),
            games: eval.games,
            validation: None,
            problems: None,
            monitor: None,
            species: None,
        }
    }

    /// Parent indices for `count` selection events.
    fn select_parents(&self, state: &State, fitness: &[f64], count: usize, judge: &dyn Fitness) -> Vec<usize> {
        let seed = self.params.seed;
        let g = state.generation;
        let n = state.population.len();
        match self.params.selection {
            Selection::Tournament(k) => {
                let mut rng = stream(seed, &[SELECT, g]);
                (0..count).map(|_| select::tournament(&mut rng, fitness, k)).collect()
            }
            Selection::Proportionate => {
                let mut rng = stream(seed, &[SELECT, g]);
                (0..count).map(|_| select::proportionate(&mut rng, fitness)).collect()
            }
            Selection::Fitnessless(k) => cluster::map(count, |e| {
                let mut rng = stream(seed, &[SELECT, g, e as u64]);
                let mut match_rng = stream(seed, &[SELECT, g, e as u64, 1]);
                let pop = &state.population;
                select::single_elimination(&mut rng, n, k, |a, b| judge.beats(pop, a, b, &mut match_rng))
            }),
        }
    }

    fn breed(&self, state: &State, fitness: &[f64], judge: &dyn Fitness) -> State {
        let p = &self.params;
        let n = p.population;
        let mut next: Vec<Genome> =
            select::elite(fitness, p.elitism.min(n)).into_iter().map(|i| state.population[i].clone()).collect();
        let events = n.saturating_sub(next.len());
        // Two parents per event covers crossover; mutation and copy use the first.
        let parents = self.select_parents(state, fitness, 2 * events, judge);
        let mut rng = stream(p.seed, &[BREED, state.generation]);
        let mut e = 0;
        while next.len() < n {
            let (a, b) = (parents[2 * e], parents[2 * e + 1]);
            e += 1;
            let roll: f64 = rng.random();
            if roll < p.crossover {
                // The fitter parent goes first: it is the donor in one-way crossover.
                let (x, y) = if fitness[a] >= fitness[b] { (a, b) } else { (b, a) };
                let (c, d) = self.rep.crossover(
                    &self.builder,
                    &mut rng,
                    &state.population[x],
                    &state.population[y],
                    &p.variation,
                );
                if p.variation.one_way {
                    // Only the receiver changed; the donor stays as it was.
                    next.push(d);
                } else {
                    next.push(c);
                    if next.len() < n {
                        next.push(d);
                    }
                }
            } else if roll < p.crossover + p.mutation {
                next.push(self.rep.mutate(&self.builder, &mut rng, &state.population[a], &p.variation));
            } else if roll < p.crossover + p.mutation + p.erc_mutation {
                next.push(self.rep.mutate_ercs(&self.builder, &mut rng, &state.population[a], &p.variation));
            } else {
                next.push(state.population[a].clone());
            }
            e %= events.max(1);
        }
        State { generation: state.generation + 1, population: next, neat: None }
    }
}

#[cfg(test)]
mod tests {
    use rayon::prelude::*;

    use super::*;
    use crate::eval::interp::{Interp, Slots};
    use crate::lang::TypeId;
    use crate::lang::library::load_primset;

    /// Symbolic regression of x0 * x1 * x2 + x3 on fixed points; fitness is minus the
    /// mean absolute error. Evaluated in parallel, one task per individual.
    struct Regression {
        ps: PrimSet,
        rows: Vec<[u64; 10]>,
    }

    impl Regression {
        fn new(ps: PrimSet) -> Regression {
            let mut rng = stream(99, &[]);
            let rows = (0..30)
                .map(|_| {
                    let mut r = [0u64; 10];
                    for cell in r.iter_mut() {
                        *cell = rng.random_range(-2.0f64..2.0).to_bits();
                    }
                    r
                })
                .collect();
            Regression { ps, rows }
        }

        fn target(row: &[u64; 10]) -> f64 {
            let x = |c: usize| f64::from_bits(row[c]);
            x(0) * x(1) * x(2) + x(3)
        }
    }

    impl Fitness for Regression {
        fn evaluate(&self, population: &[Genome], _generation: u64, _seed: u64) -> Evaluation {
            let fitness = population
                .par_iter()
                .map(|g| {
                    let Genome::Trees(ts) = g else { return f64::NEG_INFINITY };
                    let err: f64 = self
                        .rows
                        .iter()
                        .map(|r| {
                            (Interp::new(&self.ps, &mut Slots(r)).eval_tree(&ts[0]).as_f64() - Regression::target(r))
                                .abs()
                        })
                        .sum();
                    let f = -err / self.rows.len() as f64;
                    if f.is_nan() { f64::NEG_INFINITY } else { f }
                })
                .collect();
            Evaluation { fitness, games: population.len() as u64 }
        }

        fn beats(&self, population: &[Genome], a: usize, b: usize, _rng: &mut GpRng) -> bool {
            let f = self.evaluate(&[population[a].clone(), population[b].clone()], 0, 0).fitness;
            f[0] >= f[1]
        }
    }

    fn run(threads: usize, selection: Selection, generations: usize) -> (Vec<GenerationStats>, String) {
        run_on(threads, selection, generations, Islands::default())
    }

    fn run_on(
        threads: usize,
        selection: Selection,
        generations: usize,
        islands: Islands,
    ) -> (Vec<GenerationStats>, String) {
        let ps = load_primset("arith").expect("arith");
        let fitness = Regression::new(ps.clone());
        let builder = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let params = EngineParams {
            population: 60,
            generations,
            crossover: 0.8,
            mutation: 0.2,
            selection,
            elitism: 1,
            seed: 42,
            variation: Variation::default(),
            erc_mutation: 0.1,
            islands,
        };
        let rep = Representation::Trees(vec![("eval".into(), TypeId::F)]);
        let engine = Engine::new(params, rep.clone(), builder);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        pool.install(|| {
            let mut state = engine.initial();
            let mut log = Vec::new();
            for _ in 0..engine.params.generations {
                let (next, stats, _) = engine.step(&state, &fitness);
                log.push(stats);
                state = next;
            }
            let text: Vec<String> = state.population.iter().map(|g| g.to_form("x", &ps, &rep).to_string()).collect();
            (log, text.join("\n"))
        })
    }

    #[test]
    fn same_seed_same_run_on_any_thread_count() {
        for selection in [Selection::Tournament(2), Selection::Fitnessless(4)] {
            let one = run(1, selection, 6);
            let four = run(4, selection, 6);
            assert_eq!(one.0, four.0);
            assert_eq!(one.1, four.1);
        }
    }

    #[test]
    fn islands_evolve_the_same_on_any_thread_count() {
        let islands = Islands { count: 3, every: 2, migrants: 2 };
        for selection in [Selection::Tournament(2), Selection::Proportionate, Selection::Fitnessless(4)] {
            let one = run_on(1, selection, 5, islands);
            let four = run_on(4, selection, 5, islands);
            assert_eq!(one.0, four.0);
            assert_eq!(one.1, four.1);
        }
    }

    #[test]
    fn islands_split_the_population_and_migrants_copy_the_fittest() {
        assert_eq!(Islands { count: 3, every: 1, migrants: 0 }.ranges(10), vec![0..4, 4..7, 7..10]);
        assert_eq!(Islands::default().ranges(5), vec![0..5]);
        let ps = load_primset("arith").expect("arith");
        let builder = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let params = EngineParams {
            population: 8,
            generations: 1,
            crossover: 0.0,
            mutation: 0.0,
            selection: Selection::Tournament(2),
            elitism: 0,
            seed: 3,
            variation: Variation::default(),
            erc_mutation: 0.0,
            islands: Islands { count: 2, every: 1, migrants: 1 },
        };
        let rep = Representation::Trees(vec![("eval".into(), TypeId::F)]);
        let engine = Engine::new(params, rep.clone(), builder);
        let state = engine.initial();
        let text = |g: &Genome| g.to_form("x", &ps, &rep).to_string();
        // Island 0's fittest is member 1, island 1's member 6.
        let fitness = [0.0, 9.0, 1.0, 2.0, 0.0, 1.0, 8.0, 2.0];
        let mut bred: Vec<(usize, Vec<Genome>)> = (0..2).map(|i| (i, vec![Genome::Weights(Vec::new()); 4])).collect();
        let homes = cluster::Homes::place(2);
        engine.migrate(&state, &fitness, &Islands { count: 2, every: 1, migrants: 1 }.ranges(8), &mut bred, &homes);
        let next: Vec<Genome> = bred.into_iter().flat_map(|(_, members)| members).collect();
        let arrived: Vec<String> = next.iter().filter(|g| matches!(g, Genome::Trees(_))).map(text).collect();
        assert_eq!(arrived.len(), 2, "one migrant each way");
        assert!(next[4..].iter().any(|g| matches!(g, Genome::Trees(_)) && text(g) == text(&state.population[1])));
        assert!(next[..4].iter().any(|g| matches!(g, Genome::Trees(_)) && text(g) == text(&state.population[6])));
    }

    #[test]
    fn evolution_improves_fitness() {
        let (log, _) = run(2, Selection::Tournament(3), 25);
        let first = log.first().expect("stats").best;
        let last = log.last().expect("stats").best;
        assert!(last > first, "best fitness went from {first} to {last}: {log:#?}");
        assert!(log.windows(2).all(|w| w[1].best >= w[0].best), "elitism keeps the best: {log:?}");
    }
}
