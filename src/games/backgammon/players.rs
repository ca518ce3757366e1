//! Backgammon's players: `random`, `pubeval` and GP-Gammon individuals
//! (`gp:FILE:NAME`, a `contact` and a `race` tree), each choosing at one
//! ply as the papers did, or with `:ply=2` at two.
//!
//! One ply: every play of the roll is scored on the position it reaches,
//! for the side that played it, and the highest score is played (the first
//! generated among equals). The tree (or Pubeval's weight vector) is the
//! race one when the position before the play has no contact, so that all
//! plays of a roll are scored alike.
//!
//! Two plies (`:ply=2`): the eight plays the one-ply scores rank highest
//! are looked at further. For each of the 21 rolls the opponent could
//! throw, it is taken to reply as the same evaluator would at one ply from
//! its side, and the position it leaves is scored for the player; the
//! play's value is that score expected over the rolls (a play that wins
//! outright is taken at once; a reply that wins is the worst).

use std::path::Path;
use std::sync::Arc;

use rand::RngExt;

use super::board::Board;
use super::dice::ROLLS;
use super::movegen::{Play, generate};
use super::{Backgammon, Phase, Position, pubeval};
use crate::eval::interp::Interp;
use crate::eval::jit::{JitCompiler, JitConfig, JitProgram, Mode, PositionFn};
use crate::games::Player;
use crate::games::domain::{Binding, PositionContext};
use crate::games::duel::{PlayerError, read_individual};
use crate::lang::{PrimSet, Tree};
use crate::rng::GpRng;

/// The trees of a GP-Gammon individual, in genome order.
pub const TREES: [&str; 2] = ["contact", "race"];

/// The plays a two-ply player looks at further, best first at one ply.
pub const TWO_PLY_CANDIDATES: usize = 8;

/// The players' names, for help and did-you-mean.
pub const PLAYERS: [&str; 3] = ["random", "pubeval", "gp:FILE:NAME"];

/// What scores a position a play reaches.
#[derive(Clone, Debug)]
pub enum Evaluator {
    Random,
    Pubeval,
    Gp(Arc<GammonProgram>),
}

/// A player: how it scores positions and how deep it looks.
#[derive(Clone, Debug)]
pub struct BgSpec {
    pub evaluator: Evaluator,
    /// 1 or 2.
    pub ply: u8,
}

impl BgSpec {
    /// Reads `random`, `pubeval` or `gp:FILE:NAME`, each optionally with
    /// `:ply=1` or `:ply=2`.
    pub fn parse(text: &str) -> Result<BgSpec, PlayerError> {
        let (base, ply) = match text.rsplit_once(":ply=") {
            Some((base, ply)) => match ply {
                "1" => (base, 1),
                "2" => (base, 2),
                _ => {
                    return Err(PlayerError::new(format!("`{text}`: ply `{ply}` is not 1 or 2"))
                        .with_help("backgammon players search one ply (the papers') or two: `pubeval:ply=2`"));
                }
            },
            None => (text, 1),
        };
        let evaluator = match base {
            "random" => Evaluator::Random,
            "pubeval" => Evaluator::Pubeval,
            _ => match base.strip_prefix("gp:").and_then(|rest| rest.rsplit_once(':')) {
                Some((file, name)) if !file.is_empty() && !name.is_empty() => {
                    Evaluator::Gp(Arc::new(GammonProgram::load(Path::new(file), name)?))
                }
                _ => {
                    let known = format!("players: {}, each with :ply=1 (the default) or :ply=2", PLAYERS.join(", "));
                    let help = match crate::diagnostic::did_you_mean(base, PLAYERS) {
                        Some(s) => format!("did you mean `{s}`? {known}"),
                        None => known,
                    };
                    return Err(PlayerError::new(format!("unknown backgammon player `{text}`")).with_help(help));
                }
            },
        };
        Ok(BgSpec { evaluator, ply })
    }
}

/// One tree of an individual, with what evaluating it needs.
struct GammonTree {
    tree: Tree,
    /// The feature slots it reads.
    used: Vec<u32>,
    uses_natives: bool,
    jit: Option<PositionFn>,
}

/// A GP-Gammon individual bound to backgammon, shared by every thread
/// that plays it.
pub struct GammonProgram {
    name: String,
    ps: PrimSet,
    binding: Binding<Position>,
    /// `contact`, `race`.
    trees: [GammonTree; 2],
}

impl std::fmt::Debug for GammonProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GammonProgram").field("name", &self.name).finish_non_exhaustive()
    }
}

impl GammonProgram {
    /// Reads individual `name` of `file`: of a primset of domain
    /// `backgammon`, with the trees `contact` and `race`.
    pub fn load(file: &Path, name: &str) -> Result<GammonProgram, PlayerError> {
        let what = format!("individual `{name}` of `{}`", file.display());
        let (loader, ind) = read_individual(file, name, "individual")?;
        let ps = loader.module.primset(ind.primset).clone();
        let tree = |slot: &str| {
            ind.trees.iter().find(|t| t.name == slot).map(|t| t.tree.clone()).ok_or_else(|| {
                PlayerError::new(format!("{what} has no `{slot}` tree"))
                    .with_help("a GP-Gammon individual has two trees: `contact` and `race`")
            })
        };
        let trees = [tree(TREES[0])?, tree(TREES[1])?];
        GammonProgram::from_trees(name, ps, &trees).map_err(|e| {
            PlayerError::new(format!("{what} is not a backgammon program")).with_help(loader.sources.render_plain(&e))
        })
    }

    /// The individual of `trees` (`contact`, `race`) over primset `ps`,
    /// JIT-compiled (a tree the JIT cannot compile is interpreted: the same
    /// bits, more slowly); what evolution plays.
    pub fn from_trees(
        name: &str,
        ps: PrimSet,
        trees: &[Tree; 2],
    ) -> Result<GammonProgram, Vec<crate::diagnostic::Diagnostic>> {
        let binding = Binding::new(&Backgammon, &ps)?;
        let mut jits: [Option<PositionFn>; 2] = [None, None];
        if let Ok(mut compiler) = JitCompiler::new(&ps, JitConfig::fast_compile()) {
            let handles = trees.each_ref().map(|t| compiler.add(JitProgram::Tree(t), Mode::Position).ok());
            if let Ok(compiled) = compiler.finish() {
                for (jit, h) in jits.iter_mut().zip(handles) {
                    *jit = h.and_then(|h| compiled.position(h).cloned());
                }
            }
        }
        let [contact, race] = jits;
        let tree = |t: &Tree, jit| GammonTree {
            used: t.features_used(&ps),
            uses_natives: t.uses_natives(&ps),
            tree: t.clone(),
            jit,
        };
        let trees = [tree(&trees[0], contact), tree(&trees[1], race)];
        Ok(GammonProgram { name: name.to_owned(), ps, binding, trees })
    }

    /// Tree `k`'s value of `pos` for `me`; `slots` holds one slot per
    /// feature of the primset.
    fn value(&self, k: usize, pos: &Position, me: Player, slots: &mut [u64]) -> f64 {
        let t = &self.trees[k];
        match &t.jit {
            Some(f) => {
                self.binding.fill(pos, me, &t.used, slots);
                if t.uses_natives {
                    let mut ctx = PositionContext::for_natives(&self.binding, pos, me);
                    f.call(slots, Some(&mut ctx)).0.as_f64()
                } else {
                    f.call(slots, None).0.as_f64()
                }
            }
            None => {
                let mut ctx = PositionContext::new(&self.binding, pos, me, &t.used);
                Interp::new(&self.ps, &mut ctx).eval_tree(&t.tree).as_f64()
            }
        }
    }
}

/// A player on one thread: its spec and its scratch space.
#[derive(Debug)]
pub struct BgPlayer {
    spec: BgSpec,
    slots: Vec<u64>,
    /// One list of plays per ply deep.
    plays: [Vec<Play>; 2],
}

/// A score that beats every other: a play that wins the game.
const WON: f64 = f64::INFINITY;

impl BgPlayer {
    pub fn new(spec: BgSpec) -> BgPlayer {
        let slots = match &spec.evaluator {
            Evaluator::Gp(p) => vec![0; p.binding.features.len()],
            _ => Vec::new(),
        };
        BgPlayer { spec, slots, plays: [Vec::new(), Vec::new()] }
    }

    /// The index in `plays` (the plays of the roll in `pos`, the player on
    /// roll) of the play chosen; `rng` draws a random player's choices.
    pub fn choose(&mut self, pos: &Position, plays: &[Play], rng: &mut GpRng) -> usize {
        if plays.len() <= 1 {
            return 0;
        }
        if matches!(self.spec.evaluator, Evaluator::Random) {
            return rng.random_range(0..plays.len());
        }
        let scores = self.one_ply(&pos.board, pos.on_roll, plays);
        let best_of = |scores: &[(usize, f64)]| {
            scores.iter().fold((0, f64::NEG_INFINITY), |best, &(i, s)| if s > best.1 { (i, s) } else { best }).0
        };
        if self.spec.ply < 2 {
            return best_of(&scores);
        }
        let mut ranked = scores;
        // Stable: equal scores keep the order generated.
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        if ranked[0].1 == WON {
            return ranked[0].0;
        }
        ranked.truncate(TWO_PLY_CANDIDATES);
        let deeper: Vec<(usize, f64)> =
            ranked.iter().map(|&(i, _)| (i, self.two_ply_value(&plays[i].after.swapped(), pos.on_roll ^ 1))).collect();
        best_of(&deeper)
    }

    /// Each play's one-ply score, as the player compares them; none for a
    /// random player.
    pub fn one_ply_scores(&mut self, before: &Board, mover: Player, plays: &[Play]) -> Option<Vec<f64>> {
        if matches!(self.spec.evaluator, Evaluator::Random) {
            return None;
        }
        Some(self.one_ply(before, mover, plays).into_iter().map(|(_, s)| s).collect())
    }

    /// Each play's one-ply score (play index, score), NaN taken as the
    /// worst.
    fn one_ply(&mut self, before: &Board, mover: Player, plays: &[Play]) -> Vec<(usize, f64)> {
        let race = !before.is_contact();
        plays.iter().enumerate().map(|(i, play)| (i, self.score(race, mover, play))).collect()
    }

    /// The one-ply score of `play` for `mover`.
    fn score(&mut self, race: bool, mover: Player, play: &Play) -> f64 {
        self.score_board(race, mover, &play.after)
    }

    /// The score for `side` of `board` (its view, the other side to roll).
    fn score_board(&mut self, race: bool, side: Player, board: &Board) -> f64 {
        if Board::borne_off(&board.me) == super::board::CHECKERS {
            return WON;
        }
        let s = match &self.spec.evaluator {
            Evaluator::Random => 0.0,
            Evaluator::Pubeval => f64::from(pubeval::score(race, board)),
            Evaluator::Gp(program) => {
                let pos = Position { board: board.swapped(), on_roll: side ^ 1, phase: Phase::ToRoll };
                program.value(usize::from(race), &pos, side, &mut self.slots)
            }
        };
        if s.is_nan() { f64::NEG_INFINITY } else { s }
    }

    /// The value, for the side that just played, of `board` (the
    /// opponent's view, `opponent` on roll), expected over the opponent's
    /// 21 rolls: for each, the opponent plays its best one-ply reply, and
    /// the position it leaves is scored for the side that played first.
    /// Both scores are the evaluator's own, each compared only with scores
    /// from the same side (Pubeval's, trained to rank the plays of one
    /// roll, mean nothing across sides).
    fn two_ply_value(&mut self, board: &Board, opponent: Player) -> f64 {
        let race = !board.is_contact();
        let mut replies = std::mem::take(&mut self.plays[1]);
        let mut expected = 0.0;
        for &roll in &ROLLS {
            generate(board, roll, &mut replies);
            let mut best: Option<(f64, Board)> = None;
            for reply in &replies {
                let s = self.score(race, opponent, reply);
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, reply.after));
                }
            }
            let value = match best {
                Some((s, _)) if s == WON => f64::NEG_INFINITY,
                Some((_, after)) => {
                    let mine = after.swapped();
                    self.score_board(!mine.is_contact(), opponent ^ 1, &mine)
                }
                None => 0.0,
            };
            expected += roll.weight() * value;
        }
        self.plays[1] = replies;
        expected / 36.0
    }

    /// The play chosen in `pos` (the side on roll to play its roll), from
    /// the player's own list of plays.
    pub fn play(&mut self, pos: &Position, roll: super::dice::Roll, rng: &mut GpRng) -> Play {
        let mut plays = std::mem::take(&mut self.plays[0]);
        generate(&pos.board, roll, &mut plays);
        let chosen = plays[self.choose(pos, &plays, rng)];
        self.plays[0] = plays;
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::backgammon::dice::Roll;
    use crate::rng::stream;

    #[test]
    fn pubeval_at_one_ply_is_the_reference_choice() {
        let board = Board::initial();
        let mut plays: Vec<Play> = Vec::new();
        generate(&board, Roll(3, 1), &mut plays);
        let mut player = BgPlayer::new(BgSpec::parse("pubeval").expect("a player"));
        let pos = Position { board, on_roll: 0, phase: Phase::ToPlay(Roll(3, 1)) };
        let i = player.choose(&pos, &plays, &mut stream(1, &[]));
        assert_eq!(Some(i), pubeval::best_play(&board, &plays));
    }

    #[test]
    fn two_plies_take_a_winning_play_and_read_their_spec() {
        let mut board = Board { me: [0; 25], them: [0; 25] };
        board.me[0] = 1;
        board.me[1] = 1;
        board.them[5] = 15;
        let mut plays: Vec<Play> = Vec::new();
        generate(&board, Roll(2, 1), &mut plays);
        let mut player = BgPlayer::new(BgSpec::parse("pubeval:ply=2").expect("a player"));
        let pos = Position { board, on_roll: 0, phase: Phase::ToPlay(Roll(2, 1)) };
        let i = player.choose(&pos, &plays, &mut stream(1, &[]));
        assert_eq!(Board::borne_off(&plays[i].after.me), 15);
        for bad in ["pubeval:ply=3", "pubval", "gp:nofile.sg", "random:ply="] {
            assert!(BgSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
