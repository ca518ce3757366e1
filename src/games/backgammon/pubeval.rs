//! Tesauro's Pubeval (1993, public domain): a linear evaluation of the
//! position a play reaches, with one weight vector for contact positions
//! and one for races; the benchmark player of backgammon programs.
//!
//! The input encoding, from the mover's side: for each point from its
//! 24-point down to its 1-point, five inputs: an opposing blot there; one
//! checker of the mover; two or more; exactly three; and, from four on,
//! (n − 3) / 2. Then the opposing checkers on the bar over 2 (as a
//! negative count, weighted as published) and the mover's checkers off
//! over 15. A play that bears the last checker off scores 99999999.
//!
//! The arithmetic is GNU Backgammon's (`pub_eval.c`), so that choices are
//! the same bit for bit: single-precision sums in input order, with the
//! halving and the fifteenth folded into the weights (rounded once to
//! single precision) and the inputs kept as whole counts. Whether a play
//! is scored as a race is decided on the position before it, as Tesauro's
//! interface asks.

use super::board::{BAR, Board, CHECKERS};
use super::movegen::Play;

/// What a play that bears off the last checker scores.
pub const ALL_OFF: f32 = 99_999_999.0;

const INPUTS: usize = 122;

/// The contact weights (Tesauro's `WT.cntc`), five per point from the 24-point down, then the opponent's bar and the checkers off.
#[rustfmt::skip]
const CONTACT: [f64; 122] = [
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398,
    -0.16092, -1.11725, -1.06654, -0.92830, -1.99558,
    -1.10388, -0.80802, 0.09856, -0.62086, -1.27999,
    -0.59220, -0.73667, 0.89032, -0.38933, -1.59847,
    -1.50197, -0.60966, 1.56166, -0.47389, -1.80390,
    -0.83425, -0.97741, -1.41371, 0.24500, 0.10970,
    -1.36476, -1.05572, 1.15420, 0.11069, -0.38319,
    -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786,
    -1.18435, -0.43363, 1.06169, -0.21329, 0.04798,
    -0.94373, -0.22982, 1.22737, -0.13099, -0.06295,
    -0.75882, -0.13658, 1.78389, 0.30416, 0.36797,
    -0.69851, 0.13003, 1.23070, 0.40868, -0.21081,
    -0.64073, 0.31061, 1.59554, 0.65718, 0.25429,
    -0.80789, 0.08240, 1.78964, 0.54304, 0.41174,
    -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777,
    -0.83711, -0.33248, 2.64983, 0.52698, 0.82132,
    -0.58897, -1.18223, 3.35809, 0.62017, 0.57353,
    -0.07276, -0.36214, 4.37655, 0.45481, 0.21746,
    0.10504, -0.61977, 3.54001, 0.04612, -0.18108,
    0.63211, -0.87046, 2.47673, -0.48016, -1.27157,
    0.86505, -1.11342, 1.24612, -0.82385, -2.77082,
    1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
];

/// The race weights (Tesauro's `WT.race`), laid out as [`CONTACT`].
#[rustfmt::skip]
const RACE: [f64; 122] = [
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471,
    0.00000, -1.40375, -1.05121, 0.07217, -0.01351,
    0.00000, -1.29506, -2.16183, 0.13246, -1.03508,
    0.00000, -2.29847, -2.34631, 0.17253, 0.08302,
    0.00000, -1.27266, -2.87401, -0.07456, -0.34240,
    0.00000, -1.34640, -2.46556, -0.13022, -0.01591,
    0.00000, 0.27448, 0.60015, 0.48302, 0.25236,
    0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685,
    0.00000, 0.17405, 0.00430, 0.74427, 0.00576,
    0.00000, 0.12392, 0.31202, -0.91035, -0.16270,
    0.00000, 0.01418, -0.10839, -0.02781, -0.88035,
    0.00000, 1.07274, 2.00366, 1.16242, 0.22520,
    0.00000, 0.85631, 1.06349, 1.49549, 0.18966,
    0.00000, 0.37183, -0.50352, -0.14818, 0.12039,
    0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728,
    0.00000, -0.13597, -0.19412, -0.09308, -1.26062,
    0.00000, 3.05454, 5.16874, 1.50680, 5.35000,
    0.00000, 2.19605, 3.85390, 0.88296, 2.30052,
    0.00000, 0.92321, 1.08744, -0.11696, -0.78560,
    0.00000, -0.09795, -0.83050, -1.09167, -4.94251,
    0.00000, -1.00316, -3.66465, -2.56906, -9.67677,
    0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
];
/// The weights as gnubg multiplies them: the fifth input of each point and
/// the bar input halved, the checkers-off input over 15.
fn scaled(weights: &[f64; INPUTS]) -> [f32; INPUTS] {
    let mut out = [0f32; INPUTS];
    for (i, (o, &w)) in out.iter_mut().zip(weights).enumerate() {
        *o = match i {
            121 => (w / 15.0) as f32,
            120 => (w / 2.0) as f32,
            i if i % 5 == 4 => (w / 2.0) as f32,
            _ => w as f32,
        };
    }
    out
}

static WEIGHTS: std::sync::LazyLock<[[f32; INPUTS]; 2]> =
    std::sync::LazyLock::new(|| [scaled(&CONTACT), scaled(&RACE)]);

/// Pubeval's score of `after` (the board a play leaves, from the mover's
/// side), with the race weights if `race`.
pub fn score(race: bool, after: &Board) -> f32 {
    if Board::borne_off(&after.me) == CHECKERS {
        return ALL_OFF;
    }
    let mut x = [0f32; INPUTS];
    for k in 0..24 {
        let point = 24 - k; // the mover's point, 24 first
        let mine = after.me[point - 1];
        let theirs = after.them[24 - point];
        let inputs = &mut x[5 * k..5 * k + 5];
        if theirs == 1 {
            inputs[0] = 1.0;
        }
        if mine == 1 {
            inputs[1] = 1.0;
        }
        if mine >= 2 {
            inputs[2] = 1.0;
        }
        if mine == 3 {
            inputs[3] = 1.0;
        }
        if mine >= 4 {
            inputs[4] = f32::from(mine - 3);
        }
    }
    x[120] = f32::from(after.them[BAR]);
    x[121] = f32::from(Board::borne_off(&after.me));
    let weights = &WEIGHTS[usize::from(race)];
    let mut total = 0f32;
    for (w, v) in weights.iter().zip(&x) {
        total += w * v;
    }
    total
}

/// The index of the play Pubeval prefers among `plays` from `before`: the
/// highest score, the first of equals (gnubg keeps the first best it
/// meets).
pub fn best_play(before: &Board, plays: &[Play]) -> Option<usize> {
    let race = !before.is_contact();
    let mut best: Option<(usize, f32)> = None;
    for (i, play) in plays.iter().enumerate() {
        let s = score(race, &play.after);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((i, s));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_position_scores_as_gnubg_scores_it() {
        // gnubg-nn's pub_eval_score of the starting position.
        let s = score(false, &Board::initial());
        assert!((s - 6.840_55).abs() < 1e-4, "{s}");
    }
}
