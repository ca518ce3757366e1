//! Game-tree search over any [`Game`](crate::games::Game): α-β (negamax) with
//! the forward pruning of Benbassat and Sipper, and the players built on it;
//! searches for a puzzle's goal (BFS, iterative deepening, IDA*); UCT (Monte
//! Carlo tree search) for games of any number of roles.

pub mod alphabeta;
pub mod duel;
pub mod evaluators;
pub mod guided;
pub mod players;
pub mod programs;
pub mod puzzle;
pub mod sampled;
pub mod staged;
pub mod uct;
