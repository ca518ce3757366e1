//! The champion of a finished run: chosen by the experiment's rule (the last
//! fittest, or the best validated finalist after a final round), simplified,
//! checked, and written as a program that `check`, `play` and the REPL accept.

use std::path::{Path, PathBuf};

use super::experiment::{ChampionRule, Experiment, Opponent, PuzzleSource};
use super::finalists::{self, FinalResult, FinalRound, Finalist};
use super::genome::{Genome, Representation};
use super::genome_text::parse_genome;
use super::output::io_error;
use super::output::{self, LogRecord};
use super::prepared::{PreparedRun, PrimsetImport};
use super::run_fitness::RunFitness;
use super::simplify::{simplify, simplify_policy};
use crate::diagnostic::{Diagnostic, has_errors};
use crate::lang::PrimSet;
use crate::search::alphabeta::{Perspective, SearchParams, Ties};
use crate::syntax::pretty::print_forms;

/// How a finished run ended: its log, its last fittest, its validated
/// finalists and the final round among them, if one was already played.
pub(super) struct Ending<'a> {
    pub(super) log: &'a [LogRecord],
    pub(super) fittest: Option<&'a Genome>,
    pub(super) finalists: &'a [Finalist],
    pub(super) final_round: Option<FinalRound>,
    /// Where `fittest` comes from, when not from the last generation's
    /// fitness (a round robin of the final population).
    pub(super) origin: Option<String>,
}

/// Chooses the champion of a finished run by the experiment's rule (the
/// last fittest, or the best validated finalist, after a final round if the
/// experiment asks for one) and writes it; `None` when there is none.
/// `record_round` puts a newly played final round into the checkpoint
/// before final.json and the champion are derived from it.
pub(super) fn write_final_champion<F: RunFitness>(
    run: &PreparedRun,
    fitness: &F,
    ending: Ending,
    record_round: &dyn Fn(&FinalRound) -> Result<(), Vec<Diagnostic>>,
) -> Result<Option<PathBuf>, Vec<Diagnostic>> {
    let (exp, ps, opts) = (&run.exp, run.primset(), &run.opts);
    let rep = &exp.representation;
    let Ending { log, fittest, finalists, mut final_round, origin } = ending;
    Ok(match exp.champion {
        ChampionRule::Last | ChampionRule::RoundRobin { .. } => match fittest {
            Some(g) => {
                let last = log.last();
                let origin = origin.unwrap_or_else(|| {
                    format!(
                        "generation {}, fitness {}",
                        last.map_or(0, |r| r.stats.generation),
                        last.map_or(0.0, |r| r.stats.best)
                    )
                });
                Some(write_champion(g, &origin, exp, run)?)
            }
            None => None,
        },
        ChampionRule::Validate { final_games, .. } => {
            let (chosen, origin) = if final_games > 0 && !finalists.is_empty() {
                // Played once: the checkpoint keeps the round, so a resumed
                // run writes its files without playing it again.
                let round = match final_round.take() {
                    Some(round) => round,
                    None => {
                        let round = play_final_round(fitness, finalists, ps, exp, rep)?;
                        record_round(&round)?;
                        round
                    }
                };
                let path = opts.out.join("final.json");
                let text = serde_json::to_string_pretty(&round).map_err(|e| io_error("write", &path, e))?;
                output::write_output(&path, format!("{text}\n").as_bytes()).map_err(|e| io_error("write", &path, e))?;
                let f = round
                    .finalists
                    .get(round.champion)
                    .ok_or_else(|| io_error("use the checkpoint in", &opts.out, "its final round names no champion"))?;
                let origin = format!(
                    "generation {} (fitness rank {}), chosen by validation against {}: {} of {} points in a final round of the {} best validated ({} of {} in its generation)",
                    f.generation,
                    f.rank + 1,
                    round.opponent,
                    f.final_points,
                    final_games,
                    round.finalists.len(),
                    f.validation_points,
                    validation_games(&exp.champion),
                );
                (round.champion, origin)
            } else {
                let origin = finalists.first().map_or(String::new(), |f| {
                    format!(
                        "generation {} (fitness rank {}), chosen by validation: {} of {} points against {}",
                        f.generation,
                        f.rank + 1,
                        f.points,
                        validation_games(&exp.champion),
                        opponent_name(&exp.champion)
                    )
                });
                (0, origin)
            };
            match finalists.get(chosen) {
                Some(f) => {
                    let g = parse_genome(ps, exp.primset, rep, &f.program).map_err(|e| {
                        io_error("use the checkpoint in", &opts.out, format!("a finalist does not check: {e}"))
                    })?;
                    Some(write_champion(&g, &origin, exp, run)?)
                }
                None => None,
            }
        }
    })
}

/// Writes the simplified champion as a program `stratagem check` and
/// `stratagem play` (or, for a puzzle, `stratagem solve`) accept. The program is checked before it is written
/// (nothing is written if it does not check) and read back after. `exp`
/// is the run's experiment, or under covering coevolution the same named
/// for a role.
pub(super) fn write_champion(
    g: &Genome,
    origin: &str,
    exp: &Experiment,
    run: &PreparedRun,
) -> Result<PathBuf, Vec<Diagnostic>> {
    let (ps, rep, primset_import, opts) = (run.primset(), &exp.representation, &run.primset_import, &run.opts);
    let (simple, how) = match (g, rep) {
        (Genome::Trees(ts), Representation::Trees(slots)) => (
            Genome::Trees(ts.iter().zip(slots).map(|(t, (_, ty))| simplify(ps, t, *ty)).collect()),
            "Simplified: constants folded, dead branches and introns removed.",
        ),
        (Genome::Policy(p), _) => (
            Genome::Policy(simplify_policy(ps, p)),
            "Simplified: constants folded, dead branches, introns and rules that never fire removed.",
        ),
        (Genome::Network(_), _) => {
            (g.clone(), "As evolved: disabled links and innovation numbers are NEAT's genes and change no value.")
        }
        _ => (g.clone(), "Terminals the run did not evolve have the weight 0.0."),
    };
    let dir = opts.out.join("champions");
    std::fs::create_dir_all(&dir).map_err(|e| io_error("create", &dir, e))?;
    let path = dir.join(format!("{}.sg", exp.name));
    let import_of = |file: &Path| format!("(import {:?})", file.display().to_string());
    let (import, probe_import) = match primset_import {
        PrimsetImport::Library => (format!("(import {})", ps.name), format!("(import {})", ps.name)),
        PrimsetImport::File(file) => (import_of(&relative_to(&dir, file)), import_of(&absolute(file))),
    };
    let name = format!("{}-champion", exp.name);
    let usage = match &exp.puzzles {
        // Numbered puzzles are solved with the puzzle's preferred search,
        // which their fitness uses too.
        Some(source @ PuzzleSource { numbered: Some(n), .. }) => format!(
            "stratagem solve {} --deals {}-{} --max-nodes {} --heuristic {}:{name}",
            exp.game.name,
            n.first,
            n.last,
            source.max_nodes,
            path.display()
        ),
        Some(source) => format!(
            "stratagem solve {} --puzzles PUZZLES --search ida --max-nodes {} --heuristic {}:{name}",
            exp.game.name,
            source.max_nodes,
            path.display()
        ),
        // A game of named players: the champion plays as it is.
        None if exp.game.plays_duels() => format!(
            "stratagem tournament --game {} --players gp:{}:{name},{} --games 1000",
            exp.game.name,
            path.display(),
            exp.game.benchmark_players()
        ),
        None => format!(
            "stratagem play --game {} --a gp:{}:{name}:{} --b random --games 200",
            exp.game.name,
            path.display(),
            player_spec(&exp.player)
        ),
    };
    let header = format!(
        "; Champion of experiment `{}` (seed {}), {origin}.\n; {how}\n;   {usage}\n\n{import}\n\n",
        exp.name, exp.seed,
    );
    let body = print_forms(&[simple.to_form(&name, ps, rep)]);
    let text = format!("{header}{body}");
    let not_checked = |mut diags: Vec<Diagnostic>| {
        diags.retain(Diagnostic::is_error);
        diags.insert(
            0,
            Diagnostic::error(
                "stratagem::evolve::champion",
                format!("the champion program for `{}` does not check (a bug); it is not written", path.display()),
            ),
        );
        diags
    };
    // The same program with the primset imported by absolute path, checked
    // before anything is written.
    let mut probe = crate::lang::Loader::new();
    probe.load_text(&path.display().to_string(), &format!("{probe_import}\n\n{body}"));
    if has_errors(&probe.diags) {
        return Err(not_checked(probe.diags));
    }
    output::write_output(&path, text.as_bytes()).map_err(|e| io_error("write", &path, e))?;
    // And as written, with its relative import: a file that does not check
    // is removed. (Under MPI, by rank 0, which wrote it.)
    if !crate::cluster::writes() {
        return Ok(path);
    }
    let mut check = crate::lang::Loader::new();
    check.load_path(&path);
    if has_errors(&check.diags) {
        let _ = std::fs::remove_file(&path);
        return Err(not_checked(check.diags));
    }
    Ok(path)
}

/// The `play` spec of an evolved player searching as `p` does.
fn player_spec(p: &SearchParams) -> String {
    let mut spec = match (p.selective_ratio, p.max_branching) {
        (None, None) => format!("alphabeta:{}", p.depth),
        _ => {
            let mut s = format!("select:{}", p.depth);
            if let Some(r) = p.selective_ratio {
                s.push_str(&format!(":ratio={r}"));
            }
            if let Some(m) = p.max_branching {
                s.push_str(&format!(":maxbranch={m}"));
            }
            if p.full_search_depth > 0 {
                s.push_str(&format!(":full={}", p.full_search_depth));
            }
            s
        }
    };
    if p.perspective == Perspective::Root {
        spec.push_str(":perspective=root");
    }
    spec
}

/// The round tag of the final round's games, apart from every generation's.
const FINAL_ROUND: u64 = u64::MAX;

/// Plays the final round of the experiment's champion rule: each finalist
/// plays fresh games against the validation opponent.
fn play_final_round<F: RunFitness>(
    fitness: &F,
    finalists: &[Finalist],
    ps: &PrimSet,
    exp: &Experiment,
    rep: &Representation,
) -> Result<FinalRound, Vec<Diagnostic>> {
    let (opponent, games) = match exp.champion {
        ChampionRule::Validate { opponent, final_games, .. } => (opponent, final_games),
        ChampionRule::Last | ChampionRule::RoundRobin { .. } => (Opponent::Random, 0),
    };
    let genomes = finalists
        .iter()
        .map(|f| parse_genome(ps, exp.primset, rep, &f.program))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            vec![Diagnostic::error("stratagem::evolve::finalist", format!("a finalist does not check (a bug): {e}"))]
        })?;
    let candidates: Vec<(u64, &Genome)> = genomes.iter().enumerate().map(|(i, g)| (i as u64, g)).collect();
    let points = fitness.validate(&candidates, &opponent, games, FINAL_ROUND, exp.seed);
    let round = FinalRound {
        opponent: opponent_name(&exp.champion),
        games,
        finalists: finalists
            .iter()
            .zip(&points)
            .map(|(f, &p)| FinalResult {
                generation: f.generation,
                rank: f.rank,
                validation_points: f.points,
                final_points: p,
            })
            .collect(),
        champion: finalists::winner(&points).unwrap_or(0),
    };
    Ok(round)
}

/// Games each candidate plays in a generation's validation round.
fn validation_games(rule: &ChampionRule) -> u32 {
    match rule {
        ChampionRule::Last | ChampionRule::RoundRobin { .. } => 0,
        ChampionRule::Validate { games, .. } => *games,
    }
}

/// The validation opponent as a player spec, for the champion's header.
fn opponent_name(rule: &ChampionRule) -> String {
    let search = |kind: &str, p: &SearchParams| {
        let ties = if p.ties == Ties::First { ":ties=first" } else { "" };
        format!("alphabeta:{}:{kind}{ties}", p.depth)
    };
    match rule {
        ChampionRule::Last | ChampionRule::RoundRobin { .. } => String::new(),
        ChampionRule::Validate { opponent: Opponent::Random, .. } => "random".into(),
        ChampionRule::Validate { opponent: Opponent::Material(p), .. } => search("material", p),
        ChampionRule::Validate { opponent: Opponent::Guide(p), .. } => search("random", p),
    }
}

/// `p` made absolute (symlinks resolved where it exists).
fn absolute(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| std::env::current_dir().unwrap_or_default().join(p))
}

/// `target` as a path relative to directory `from` (both made absolute).
fn relative_to(from: &Path, target: &Path) -> PathBuf {
    let (from, target) = (absolute(from), absolute(target));
    let common = from.components().zip(target.components()).take_while(|(a, b)| a == b).count();
    let mut rel = PathBuf::new();
    for _ in from.components().skip(common) {
        rel.push("..");
    }
    for c in target.components().skip(common) {
        rel.push(c);
    }
    rel
}
