//! The finalists of a run whose champion is chosen by validation: the best
//! distinct candidates the per-generation validation rounds found.
//!
//! A validation round of a few dozen games, repeated over a hundred
//! generations, favours the lucky: the candidate with the most points is
//! usually one whose games went well, not the strongest. Keeping the best few
//! and letting them play a final round of fresh, longer matches chooses the
//! champion on more evidence. With one finalist and no final round this is
//! the plain rule: the best validated candidate of the run, the later on a tie.

use serde::{Deserialize, Serialize};

/// A validated candidate, kept as program text so the checkpoint holds it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Finalist {
    pub program: String,
    pub generation: u64,
    /// 0 for the fittest of its generation.
    pub rank: usize,
    /// Points in its generation's validation round.
    pub points: f64,
}

/// Adds `candidate` to `finalists` (best first) and keeps the best
/// `capacity`. More points rank higher; on equal points the newcomer ranks
/// higher, so offering a generation's candidates from the least fit up lets
/// the later generation, then the fitter candidate, win ties. A program
/// already among the finalists keeps only its better record.
pub fn offer(finalists: &mut Vec<Finalist>, capacity: usize, candidate: Finalist) {
    if let Some(i) = finalists.iter().position(|f| f.program == candidate.program) {
        if finalists[i].points > candidate.points {
            return;
        }
        finalists.remove(i);
    }
    let at = finalists.iter().position(|f| f.points <= candidate.points).unwrap_or(finalists.len());
    finalists.insert(at, candidate);
    finalists.truncate(capacity);
}

/// The index of the winner of a final round: the most points, the better
/// validated (earlier) finalist on a tie.
pub fn winner(final_points: &[f64]) -> Option<usize> {
    (0..final_points.len()).rev().max_by(|&a, &b| final_points[a].total_cmp(&final_points[b]))
}

/// The final round as written to `<out>/final.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FinalRound {
    /// The opponent, as a player spec.
    pub opponent: String,
    /// Games each finalist played.
    pub games: u32,
    pub finalists: Vec<FinalResult>,
    /// Index into `finalists` of the champion.
    pub champion: usize,
}

/// One finalist's record in the final round.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FinalResult {
    pub generation: u64,
    pub rank: usize,
    pub validation_points: f64,
    pub final_points: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(program: &str, generation: u64, points: f64) -> Finalist {
        Finalist { program: program.into(), generation, rank: 0, points }
    }

    fn programs(fs: &[Finalist]) -> Vec<&str> {
        fs.iter().map(|f| f.program.as_str()).collect()
    }

    #[test]
    fn keeps_the_best_distinct_candidates_newest_first_on_ties() {
        let mut fs = Vec::new();
        offer(&mut fs, 3, cand("a", 0, 5.0));
        offer(&mut fs, 3, cand("b", 0, 7.0));
        offer(&mut fs, 3, cand("c", 1, 5.0));
        assert_eq!(programs(&fs), ["b", "c", "a"]);
        offer(&mut fs, 3, cand("d", 2, 1.0));
        assert_eq!(programs(&fs), ["b", "c", "a"], "full: a worse candidate is not kept");
        offer(&mut fs, 3, cand("e", 2, 6.0));
        assert_eq!(programs(&fs), ["b", "e", "c"]);
        // The same program again: its better record stays, once.
        offer(&mut fs, 3, cand("b", 3, 2.0));
        assert_eq!(programs(&fs), ["b", "e", "c"]);
        assert_eq!(fs[0].generation, 0);
        offer(&mut fs, 3, cand("c", 3, 8.0));
        assert_eq!(programs(&fs), ["c", "b", "e"]);
        assert_eq!(fs[0].generation, 3);
    }

    #[test]
    fn one_finalist_is_the_best_of_the_run_the_later_on_a_tie() {
        let mut fs = Vec::new();
        for (g, p) in [(0, 3.0), (1, 9.0), (2, 4.0), (3, 9.0), (4, 8.5)] {
            offer(&mut fs, 1, cand(&format!("g{g}"), g, p));
        }
        assert_eq!(programs(&fs), ["g3"]);
    }

    #[test]
    fn the_final_round_winner_is_the_better_validated_on_a_tie() {
        assert_eq!(winner(&[3.0, 5.0, 5.0, 1.0]), Some(1));
        assert_eq!(winner(&[2.0]), Some(0));
        assert_eq!(winner(&[]), None);
    }
}
