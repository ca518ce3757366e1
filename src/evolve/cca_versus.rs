//! The end of a covering run, measured as seeds/004 measured it: each
//! role's teachers, rank by rank, against the paper's baseline (the same
//! search with a random evaluation, goal values at terminal states), in
//! their own role (figure 4), and the top teacher at search depths 1 to 3
//! (figure 5). `(cca ... (versus-random G))` asks for G games a point.
//!
//! Games are named by (seed, role, rank or depth, game) and spread through
//! `cluster::map`, so the figures are the same at any thread or rank count.

use serde::{Deserialize, Serialize};

use super::cca_game::CcaGame;
use super::cca_plot::{Axes, RoleLine, role_lines};
use super::genome::Genome;
use crate::cluster;
use crate::games::Player;
use crate::games::duel::{binomial_test, binomial_two_sided};

/// The file of the figures' numbers, beside cca.json.
pub const VERSUS_RANDOM: &str = "versus-random.json";
/// Figure 4: score against the baseline by teacher rank, per role.
pub const VERSUS_RANDOM_PLOT: &str = "versus-random.svg";

/// Search depths of figure 5.
pub const DEPTHS: [u32; 3] = [1, 2, 3];

/// The stream tag of these games.
const VERSUS: u64 = 0xcca3;

/// Games of one player against the baseline: wins, draws, losses, the
/// score in percent (a draw half a win) and the two-sided binomial p of
/// wins against losses (draws left out; see [`Tally::of`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score: f64,
    pub p: f64,
}

impl Tally {
    /// The tally of a player's points against the baselines of the other
    /// `roles − 1` roles. A player no better than they wins a decided game
    /// with probability 1 / `roles`: with two roles the sign test, with
    /// more the exact binomial test against 1 / `roles`.
    fn of(points: &[f64], roles: usize) -> Tally {
        let wins = points.iter().filter(|&&p| p == 1.0).count() as u32;
        let draws = points.iter().filter(|&&p| p == 0.5).count() as u32;
        let losses = points.len() as u32 - wins - draws;
        let score = if points.is_empty() { 0.0 } else { 100.0 * points.iter().sum::<f64>() / points.len() as f64 };
        let (w, l) = (u64::from(wins), u64::from(losses));
        let p = if roles <= 2 { binomial_two_sided(w, l) } else { binomial_test(w, w + l, 1.0 / roles as f64) };
        Tally { wins, draws, losses, score, p }
    }
}

/// A teacher's games at the run's depth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankScore {
    /// 1 for the first teacher to join; the last is the top teacher.
    pub rank: usize,
    pub joined: u64,
    #[serde(flatten)]
    pub tally: Tally,
}

/// The top teacher's games at one depth (its opponent searches as deep).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DepthScore {
    pub depth: u32,
    #[serde(flatten)]
    pub tally: Tally,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoleVersus {
    pub role: String,
    pub by_rank: Vec<RankScore>,
    pub top_by_depth: Vec<DepthScore>,
}

/// versus-random.json.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersusRandom {
    /// Games a point, and the run's search depth (figure 4's).
    pub games: u32,
    pub depth: u32,
    pub roles: Vec<RoleVersus>,
}

/// Plays every teacher of every role (`teachers[r]`: genomes and the
/// generations they joined, in rank order) `games` games against the
/// baseline at `depth`, and each top teacher at [`DEPTHS`].
pub(super) fn versus_random<F: CcaGame>(
    fitness: &F,
    teachers: &[Vec<(Genome, u64)>],
    games: u32,
    depth: u32,
    seed: u64,
) -> VersusRandom {
    // Every game of the figures: (role, rank or None for the top teacher
    // at a depth, depth, game).
    let mut jobs: Vec<(usize, Option<usize>, u32, u32)> = Vec::new();
    for (r, set) in teachers.iter().enumerate() {
        for k in 0..set.len() {
            jobs.extend((0..games).map(|g| (r, Some(k), depth, g)));
        }
        if !set.is_empty() {
            for d in DEPTHS {
                jobs.extend((0..games).map(|g| (r, None, d, g)));
            }
        }
    }
    let players: Vec<Vec<F::Player>> = teachers
        .iter()
        .map(|set| {
            let genomes: Vec<Genome> = set.iter().map(|(g, _)| g.clone()).collect();
            if genomes.is_empty() { Vec::new() } else { fitness.players(&genomes) }
        })
        .collect();
    let points = cluster::map(jobs.len(), |j| {
        let (r, rank, d, g) = jobs[j];
        let k = rank.unwrap_or(players[r].len() - 1);
        let tags = [VERSUS, r as u64, rank.map_or(u64::MAX, |k| k as u64), u64::from(d), u64::from(g)];
        fitness.against_random(&players[r][k], r as Player, d, seed, &tags)
    });
    let mut roles = Vec::new();
    for (r, set) in teachers.iter().enumerate() {
        let of = |rank: Option<usize>, d: u32| -> Tally {
            let mine: Vec<f64> = jobs
                .iter()
                .zip(&points)
                .filter(|((jr, jk, jd, _), _)| *jr == r && *jk == rank && *jd == d)
                .map(|(_, &p)| p)
                .collect();
            Tally::of(&mine, fitness.n_roles())
        };
        roles.push(RoleVersus {
            role: fitness.role_name(r as Player),
            by_rank: set
                .iter()
                .enumerate()
                .map(|(k, (_, joined))| RankScore { rank: k + 1, joined: *joined, tally: of(Some(k), depth) })
                .collect(),
            top_by_depth: if set.is_empty() {
                Vec::new()
            } else {
                DEPTHS.iter().map(|&d| DepthScore { depth: d, tally: of(None, d) }).collect()
            },
        });
    }
    VersusRandom { games, depth, roles }
}

/// Figure 4: per role, the score against the baseline by teacher rank.
pub fn versus_random_plot(title: &str, v: &VersusRandom) -> Result<String, String> {
    let ranks = v.roles.iter().map(|r| r.by_rank.len()).max().unwrap_or(1).max(1);
    let lines: Vec<RoleLine> = v
        .roles
        .iter()
        .map(|role| RoleLine {
            name: role.role.clone(),
            points: role.by_rank.iter().map(|s| (s.rank as f64, s.tally.score)).collect(),
            band: Vec::new(),
        })
        .collect();
    let axes = Axes {
        caption: format!("{title}: teachers against random evaluation (depth {}, {} games)", v.depth, v.games),
        x: (0.5, ranks as f64 + 0.5),
        y: (0.0, 100.0),
        x_desc: "teacher rank",
        y_desc: "score (%)",
        dots: true,
        reference: Some(50.0),
    };
    role_lines(&axes, &lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_count_points_and_test_wins_against_losses() {
        let t = Tally::of(&[1.0, 1.0, 1.0, 0.5, 0.0], 2);
        assert_eq!((t.wins, t.draws, t.losses), (3, 1, 1));
        assert!((t.score - 70.0).abs() < 1e-9);
        assert!((t.p - 0.625).abs() < 1e-9, "3 wins, 1 loss: p = 2 · 5/16");
        let sure = Tally::of(&[1.0; 20], 2);
        assert!(sure.p < 1e-5 && sure.score == 100.0);
        assert_eq!(Tally::of(&[], 2).score, 0.0);
        // Three roles: one win in three decided games is what chance gives.
        assert!((Tally::of(&[1.0, 0.0, 0.0], 3).p - 1.0).abs() < 1e-12);
        assert!((Tally::of(&[1.0, 1.0, 1.0], 3).p - 1.0 / 27.0).abs() < 1e-12);
    }
}
