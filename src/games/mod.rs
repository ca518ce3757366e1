//! Games: the game model ([`model`]) that searches, players and the CLI are
//! generic over, the registry that turns a game's name into its engine
//! ([`registry`]), and the native engines (lose checkers, Nine Men's Morris, Rush Hour, FreeCell, Ant Wars);
//! [`duel`] holds the double-games and matches of games played by named players.
//!
//! A new game implements [`Game`] and the views it supports ([`TwoPlayer`],
//! [`Puzzle`], [`Observe`]); its files go in `src/games/<game>/`, with its GP
//! terminals and natives in `src/games/<game>/domain.rs`, and one entry in
//! the registry makes it reachable from every command.

pub mod antwars;
pub mod checkers;
pub mod domain;
pub mod duel;
pub mod freecell;
pub mod gdl;
pub mod instances;
pub mod model;
pub mod morris;
pub mod playout;
pub mod registry;
pub mod rushhour;
pub mod tournament;

pub use model::{
    DRAW, Game, GameResult, Instance, LOSS, Observe, Outcome, ParseError, Player, Puzzle, Role, Turn, TwoPlayer, WIN,
    alternating_turn, zero_sum_score,
};

/// Iterates the set bits of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u32);

impl Iterator for Bits {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

/// The index of the `n`-th set bit of `b` (from 0, lowest first; `n` below
/// `b`'s count): a binary search by population counts, without branches,
/// where clearing `n` bits one by one mispredicted the loop's end at every
/// random move.
#[inline(always)]
pub fn nth_set_bit(b: u64, mut n: u32) -> u32 {
    let mut at = 0;
    for width in [32, 16, 8, 4, 2, 1] {
        let below = ((b >> at) & ((1u64 << width) - 1)).count_ones();
        let past = n >= below;
        n -= if past { below } else { 0 };
        at += if past { width } else { 0 };
    }
    at
}

/// Counts the leaves of the game tree at exactly `depth` plies from `state`
/// (one ply = one [`Game::Move`], or one joint move in a simultaneous turn);
/// terminal states before that depth count 0.
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    let mut stack: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_rec(game, state, depth, &mut stack)
}

fn perft_rec<G: Game>(game: &G, state: &G::State, depth: u32, stack: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.turn(state) == Turn::Simultaneous {
        return perft_joint(game, state, depth, stack);
    }
    let Some((moves, rest)) = stack.split_first_mut() else {
        return 1;
    };
    game.legal_moves(state, moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for mv in moves.iter() {
        nodes += perft_rec(game, &game.apply(state, mv), depth - 1, rest);
    }
    nodes
}

/// [`perft`] from a simultaneous turn: every joint move is one child.
fn perft_joint<G: Game>(game: &G, state: &G::State, depth: u32, stack: &mut [Vec<G::Move>]) -> u64 {
    let by_role: Vec<Vec<G::Move>> = (0..game.n_roles())
        .map(|r| {
            let mut moves = Vec::new();
            game.legal_moves_of(state, r as Role, &mut moves);
            moves
        })
        .collect();
    let joints: u64 = by_role.iter().map(|m| m.len() as u64).product();
    if depth == 1 || joints == 0 {
        return joints;
    }
    let rest = stack.get_mut(1..).unwrap_or_default();
    let mut choice = vec![0usize; by_role.len()];
    let mut joint = Vec::with_capacity(by_role.len());
    let mut nodes = 0;
    loop {
        joint.clear();
        joint.extend(choice.iter().zip(&by_role).map(|(&i, m)| m[i].clone()));
        nodes += perft_rec(game, &game.apply_joint(state, &joint), depth - 1, rest);
        // The next joint move, the last role's choice turning fastest.
        let Some(r) = (0..choice.len()).rev().find(|&r| choice[r] + 1 < by_role[r].len()) else {
            return nodes;
        };
        choice[r] += 1;
        choice[r + 1..].fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::nth_set_bit;

    #[test]
    fn nth_set_bit_counts_set_bits_from_the_lowest() {
        let words =
            [1u64, 0x00FF_FFFF, 0x0080_0001, 0x00AA_5500, 0x7_FBFD_FEFF, 1 << 34, 0x8000_0000_0000_0001, u64::MAX];
        for b in words {
            let bits: Vec<u32> = (0..64).filter(|i| b & (1 << i) != 0).collect();
            for (n, &bit) in bits.iter().enumerate() {
                assert_eq!(nth_set_bit(b, n as u32), bit, "bit {n} of {b:#x}");
            }
        }
    }
}
