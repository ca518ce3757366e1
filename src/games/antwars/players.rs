//! Ant Wars players named by text, as `tournament` and `play` take them:
//! `random` (a uniform direction each move), `greedy` (a step towards the
//! nearest food in view, else a random one), `c:FILE.c` (a contest
//! player in C, [`super::c_player`]) and `gp:FILE:NAME` (an evolved ant,
//! [`super::gp_ant`]). Each reads only its ant's [`View`].
//!
//! Players are an enum rather than trait objects: a playout calls one per
//! move, and the match on a few variants is cheaper than a virtual call the
//! compiler cannot inline. An evolved ant keeps its memory in its variant.

use std::path::Path;
use std::sync::Arc;

use rand::RngExt;

use super::c_player::{CPlayer, CSource};
use super::c_sandbox::SandboxedC;
use super::domain::bind;
use super::gp_ant::{AntProgram, GpAnt, TREES};
use super::{AntWars, Dir, SIZE, View};
use crate::diagnostic::did_you_mean;
use crate::games::duel::{NamedPlayers, PlayerError};
use crate::lang::{PrimSet, Tree};
use crate::rng::GpRng;

/// The built-in players' names.
pub const BUILT_IN: [&str; 2] = ["random", "greedy"];

/// A parsed player name.
#[derive(Clone, Debug)]
pub enum AntSpec {
    Random,
    Greedy,
    /// A compiled contest player; each thread loads its own copy.
    C(Arc<CSource>),
    /// An evolved ant (`gp:FILE:NAME`), compiled once for every thread.
    Gp(Arc<AntProgram>),
}

/// A player on one thread.
#[derive(Debug)]
pub enum AntPlayer {
    Random,
    Greedy,
    /// A contest player in C loaded into this process (`--trust-c-players`).
    C(CPlayer),
    /// A contest player in C in a sandboxed child process (the default).
    Sandboxed(SandboxedC),
    /// Boxed: its memory (a kilobyte of belief) would make every player that size.
    Gp(Box<GpAnt>),
}

impl AntPlayer {
    /// Forgets everything from the last game (the contest's `Reset`); a
    /// sandboxed player that cannot forfeits the game.
    pub fn reset(&mut self) -> Result<(), PlayerError> {
        match self {
            AntPlayer::C(c) => c.reset(),
            AntPlayer::Sandboxed(c) => return c.reset(),
            AntPlayer::Gp(ant) => ant.reset(),
            AntPlayer::Random | AntPlayer::Greedy => {}
        }
        Ok(())
    }

    /// Whether nothing of one game reaches the next: true of every player
    /// but a C player without `Reset`, whose statics carry over (so it must
    /// see every ply of every game to play as it would in the contest).
    pub fn forgets_between_games(&self) -> bool {
        match self {
            AntPlayer::C(c) => c.resets(),
            AntPlayer::Sandboxed(c) => c.resets(),
            AntPlayer::Random | AntPlayer::Greedy | AntPlayer::Gp(_) => true,
        }
    }

    /// Whether [`AntPlayer::copy`] can copy it: every player but a C
    /// player, whose copies are libraries loaded anew.
    pub fn copies(&self) -> bool {
        !matches!(self, AntPlayer::C(_) | AntPlayer::Sandboxed(_))
    }

    /// A player of the same program for another game played at the same
    /// time: its memory fresh.
    pub fn copy(&self) -> Option<AntPlayer> {
        match self {
            AntPlayer::Random => Some(AntPlayer::Random),
            AntPlayer::Greedy => Some(AntPlayer::Greedy),
            AntPlayer::Gp(ant) => Some(AntPlayer::Gp(Box::new(GpAnt::new(ant.program().clone())))),
            AntPlayer::C(_) | AntPlayer::Sandboxed(_) => None,
        }
    }

    /// The direction the ant moves in, seeing `view`.
    #[inline]
    pub fn choose(&mut self, view: &View, rng: &mut GpRng) -> Result<Dir, PlayerError> {
        match self {
            AntPlayer::Random => Ok(rng.random_range(0..8u8)),
            AntPlayer::Greedy => Ok(greedy(view).unwrap_or_else(|| rng.random_range(0..8u8))),
            AntPlayer::C(c) => c.choose(view),
            AntPlayer::Sandboxed(c) => c.choose(view),
            AntPlayer::Gp(ant) => Ok(ant.choose(view)),
        }
    }
}

/// The step towards the nearest food in view (king distance; the first in
/// board order among the nearest), `None` when no food is in view.
pub fn greedy(view: &View) -> Option<Dir> {
    let (row, col) = (view.row() as i32, view.col() as i32);
    let mut best: Option<(i32, Dir)> = None;
    for cell in super::cells_of(view.food) {
        let cell = cell as i32;
        let dr = signed_offset(cell / SIZE as i32 - row);
        let dc = signed_offset(cell % SIZE as i32 - col);
        let distance = dr.abs().max(dc.abs());
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, direction_towards(dr.signum(), dc.signum())));
        }
    }
    best.map(|(_, dir)| dir)
}

/// An offset on the torus as the shortest signed one (−5..=5).
fn signed_offset(delta: i32) -> i32 {
    let n = SIZE as i32;
    let d = delta.rem_euclid(n);
    if d > n / 2 { d - n } else { d }
}

/// The direction of the step (dr, dc), each −1, 0 or 1 (not both 0).
fn direction_towards(dr: i32, dc: i32) -> Dir {
    const BY_SIGNS: [Dir; 9] = [7, 0, 1, 6, 0, 2, 5, 4, 3];
    BY_SIGNS[((dr + 1) * 3 + dc + 1) as usize]
}

impl NamedPlayers for AntWars {
    fn parse_player(&self, text: &str) -> Result<AntSpec, PlayerError> {
        if let Some(file) = text.strip_prefix("c:") {
            return CSource::compile(Path::new(file)).map(|c| AntSpec::C(Arc::new(c)));
        }
        if let Some(rest) = text.strip_prefix("gp:") {
            let Some((file, name)) = rest.rsplit_once(':').filter(|(f, n)| !f.is_empty() && !n.is_empty()) else {
                return Err(PlayerError::new(format!("`{text}` names no individual")).with_help(
                    "an evolved ant is named gp:FILE:NAME, e.g. gp:programs/examples/antwars-ant.sg:forager",
                ));
            };
            return AntProgram::load(Path::new(file), name).map(|p| AntSpec::Gp(Arc::new(p)));
        }
        match text {
            "random" => Ok(AntSpec::Random),
            "greedy" => Ok(AntSpec::Greedy),
            _ => {
                let known = format!(
                    "players: {}, c:FILE.c (a contest player in C), or gp:FILE:NAME (an evolved ant)",
                    BUILT_IN.join(", ")
                );
                let help = match did_you_mean(text, BUILT_IN) {
                    Some(s) => format!("did you mean `{s}`? {known}"),
                    None => known,
                };
                Err(PlayerError::new(format!("unknown Ant Wars player `{text}`")).with_help(help))
            }
        }
    }

    fn evolved_trees(&self) -> &'static [&'static str] {
        &TREES
    }

    fn evolved_player(&self, name: &str, ps: &PrimSet, trees: &[Tree]) -> Result<AntSpec, PlayerError> {
        let [straight, diagonal] = trees else {
            return Err(PlayerError::new(format!("ant `{name}` has {} trees, not 2", trees.len())));
        };
        let binding =
            bind(ps).map_err(|_| PlayerError::new(format!("ant `{name}`'s primset does not bind to ants")))?;
        let trees = [straight.clone(), diagonal.clone()];
        Ok(AntSpec::Gp(Arc::new(AntProgram::from_trees(name, ps.clone(), binding, trees))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::antwars::Board;
    use crate::games::duel::{Tally, double_game};
    use crate::rng::stream;

    fn view_with(food: &[usize], cell: usize) -> View {
        let mut board = Board::with_food(food.iter().fold(0, |f, &c| f | 1u128 << c));
        board.ants[0] = cell as u8;
        board.view(0)
    }

    #[test]
    fn greedy_steps_towards_the_nearest_food_across_the_edge() {
        assert_eq!(greedy(&view_with(&[], 60)), None);
        // From (5, 5): food at (3, 7) (distance 2, north-east) and (6, 4) (1, south-west).
        assert_eq!(greedy(&view_with(&[3 * SIZE + 7, 6 * SIZE + 4], 60)), Some(5));
        // From (0, 0): food at (10, 9), north-west across both edges.
        assert_eq!(greedy(&view_with(&[10 * SIZE + 9], 0)), Some(7));
        assert_eq!(greedy(&view_with(&[2 * SIZE], 0)), Some(4));
    }

    #[test]
    fn greedy_beats_random_over_double_games() {
        let game = AntWars;
        let mut total = Tally::default();
        let (mut g, mut r) = (AntPlayer::Greedy, AntPlayer::Random);
        for i in 0..200 {
            let board = AntWars::random_board(&mut stream(5, &[i]));
            total.add(&double_game(&game, &board, (&mut g, &mut r), 5, [0, i]).expect("built-in players"));
        }
        assert_eq!(total.games, 400);
        assert_eq!(total.wins[0] + total.wins[1], 400, "no draws in Ant Wars");
        assert!(total.wins[0] > 300, "greedy won {} of 400", total.wins[0]);
        assert!(total.points[0] + total.points[1] <= 400 * 15);
    }

    #[test]
    fn unknown_players_get_a_suggestion() {
        let err = AntWars.parse_player("gredy").expect_err("not a player");
        assert_eq!(err.message, "unknown Ant Wars player `gredy`");
        assert!(err.help.as_deref().is_some_and(|h| h.starts_with("did you mean `greedy`?")), "{err:?}");
    }
}
