//! What covering coevolution (`cca_generation.rs`) needs of a game: its
//! roles and their names, the players of a population, and games between
//! players. Two players taking turns play by α-β ([`GameFitness`], here);
//! other GDL games by the sampled search (`cca_sampled.rs`).

use super::game_fitness::GameFitness;
use super::genome::Genome;
use crate::games::Player;
use crate::games::domain::GpGame;
use crate::search::alphabeta::SearchParams;
use crate::search::players::PlayerFactory;

/// What covering coevolution needs of a game: its roles and their names,
/// the players of a population, and games between players.
pub(super) trait CcaGame: Sync {
    /// A member's player, shared by the games it plays.
    type Player: Send + Sync;

    fn n_roles(&self) -> usize;

    fn role_name(&self, role: Player) -> String;

    /// The players of `population` (compiled together).
    fn players(&self, population: &[Genome]) -> Vec<Self::Player>;

    /// One game from the start, `seats[r]` playing role `r`; the points of
    /// the player of `role` (see `cca::points`). Each player's streams are
    /// named by `seed` and `tags` with 0 (for the player of `role`) or 1,
    /// 2, … (the others, in role order) appended.
    fn bout(&self, seats: &[&Self::Player], role: Player, seed: u64, tags: &[u64]) -> f64;

    /// One game from the start, `me` playing `role` with a search of
    /// `depth` and every other role the paper's baseline: the same search
    /// with a random evaluation (goal values at terminal states); `me`'s
    /// points.
    fn against_random(&self, me: &Self::Player, role: Player, depth: u32, seed: u64, tags: &[u64]) -> f64;
}

/// Two players taking turns (α-β).
impl<G: GpGame> CcaGame for GameFitness<G> {
    type Player = PlayerFactory<G::State>;

    fn n_roles(&self) -> usize {
        2
    }

    fn role_name(&self, role: Player) -> String {
        self.game.role_name(role).to_owned()
    }

    fn players(&self, population: &[Genome]) -> Vec<Self::Player> {
        GameFitness::players(self, population)
    }

    fn bout(&self, seats: &[&Self::Player], role: Player, seed: u64, tags: &[u64]) -> f64 {
        let r = usize::from(role);
        self.game_from(&self.game.initial_state(), seats[r], seats[1 - r], role, seed, tags)
    }

    fn against_random(&self, me: &Self::Player, role: Player, depth: u32, seed: u64, tags: &[u64]) -> f64 {
        let params = SearchParams { depth, ..self.player };
        let me = match me {
            PlayerFactory::Gp(programs, _) => PlayerFactory::Gp(programs.clone(), params),
            PlayerFactory::Material(_) => PlayerFactory::Material(params),
            PlayerFactory::RandomGuide(_) => PlayerFactory::RandomGuide(params),
            PlayerFactory::Random => PlayerFactory::Random,
            PlayerFactory::Uct(p, t) => PlayerFactory::Uct(*p, *t),
        };
        let baseline = PlayerFactory::RandomGuide(params);
        self.game_from(&self.game.initial_state(), &me, &baseline, role, seed, tags)
    }
}
