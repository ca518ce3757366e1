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
pub mod backgammon;
pub mod checkers;
pub mod domain;
pub mod duel;
pub mod freecell;
pub mod gdl;
pub mod instances;
pub mod listing;
pub mod model;
pub mod morris;
pub mod playout;
pub mod puzzle;
pub mod registry;
pub mod rushhour;
pub mod tournament;

pub use model::{
    DRAW, Game, GameResult, LOSS, Observe, Outcome, ParseError, Player, PlayoutEnd, Role, Turn, TwoPlayer, WIN,
    alternating_turn, zero_sum_score,
};
pub use puzzle::{Generate, Instance, Puzzle};

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
/// `b`'s count), without branches: where clearing `n` bits one by one
/// mispredicted the loop's end at every random move. The byte holding the
/// bit is found from the running counts of set bits per byte (all eight
/// compared with `n` at once), the bit within it from a table.
#[inline(always)]
pub fn nth_set_bit(b: u64, n: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let pairs = b - ((b >> 1) & 0x5555_5555_5555_5555);
    let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
    let per_byte = (nibbles + (nibbles >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i: the set bits in bytes 0..=i (at most 64, so no byte overflows).
    let running = per_byte.wrapping_mul(ONES);
    // The high bit of byte i is set when bytes 0..=i hold at most n set
    // bits: n + 128 − running never borrows from the next byte.
    let byte = ((((u64::from(n) * ONES) | HIGHS) - running) & HIGHS).count_ones();
    let below = ((running << 8) >> (8 * byte)) & 0xFF;
    let in_byte = ((b >> (8 * byte)) & 0xFF) as usize;
    8 * byte + u32::from(NTH_IN_BYTE[in_byte][(n - below as u32) as usize & 7])
}

/// `NTH_IN_BYTE[b][k]`: the index of the `k`-th set bit of byte `b`.
static NTH_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

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
    let by_role = moves_by_role(game, state);
    let joints: u64 = by_role.iter().map(|m| m.len() as u64).product();
    if depth == 1 || joints == 0 {
        return joints;
    }
    let rest = stack.get_mut(1..).unwrap_or_default();
    let mut nodes = 0;
    each_joint_move(&by_role, |joint| nodes += perft_rec(game, &game.apply_joint(state, joint), depth - 1, rest));
    nodes
}

/// Each role's legal moves in `state`, in role order: what a joint move
/// picks one of per role.
pub fn moves_by_role<G: Game>(game: &G, state: &G::State) -> Vec<Vec<G::Move>> {
    (0..game.n_roles())
        .map(|r| {
            let mut moves = Vec::new();
            game.legal_moves_of(state, r as Role, &mut moves);
            moves
        })
        .collect()
}

/// Calls `visit` on every joint move of a simultaneous turn whose roles'
/// legal moves are `by_role` (in role order): one move per role, the last
/// role's choice turning fastest; on none when a role has no move.
pub fn each_joint_move<M: Clone>(by_role: &[Vec<M>], mut visit: impl FnMut(&[M])) {
    if by_role.iter().any(Vec::is_empty) {
        return;
    }
    let mut choice = vec![0usize; by_role.len()];
    let mut joint = Vec::with_capacity(by_role.len());
    loop {
        joint.clear();
        joint.extend(choice.iter().zip(by_role).map(|(&i, m)| m[i].clone()));
        visit(&joint);
        let Some(r) = (0..choice.len()).rev().find(|&r| choice[r] + 1 < by_role[r].len()) else {
            return;
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
        let mut words =
            vec![1u64, 0x00FF_FFFF, 0x0080_0001, 0x00AA_5500, 0x7_FBFD_FEFF, 1 << 34, 0x8000_0000_0000_0001, u64::MAX];
        // Morris' boards (24 points), once checked by its own n-th-bit helper.
        words.extend([0x0000_0F00, 0x00F0_000F, 0x0012_3456]);
        // And scrambled words, dense and sparse.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x = x.rotate_left(17).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 7);
            words.push(x);
            words.push(x & (x >> 3) & 0x7_FFFF_FFFF);
        }
        for b in words.into_iter().filter(|&b| b != 0) {
            let bits: Vec<u32> = (0..64).filter(|i| b & (1 << i) != 0).collect();
            for (n, &bit) in bits.iter().enumerate() {
                assert_eq!(nth_set_bit(b, n as u32), bit, "bit {n} of {b:#x}");
            }
        }
    }
}
