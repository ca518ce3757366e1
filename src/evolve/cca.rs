//! Rosin's covering competitive algorithm (CCA) over the roles of a game,
//! as seeds/004 (Reisinger et al.) describes it for `nnrg.hazel`. The
//! bookkeeping is here, apart from any game, so it is tested on small
//! hand-made cases; `cca_generation.rs` plays the games and breeds.
//!
//! Each role keeps a ranked teacher set: the members that once beat every
//! teacher of the other roles, in the order they joined (rank 1 the first,
//! the last the highest). One role is *currently dominated*. Each
//! generation every student (population member) of every role plays the
//! other roles' teachers in rank order, one game each from the initial
//! position, its own role; the first game it does not win (a draw or a
//! loss) ends the series. A student of the dominated role that wins every
//! such game *covers* the others' teachers; the fittest of those (the
//! earlier on a tie) joins its role's teachers, and the next role becomes
//! the dominated one. At most one member joins per generation. Teacher
//! sets have no size cap (the paper names none; they grow by at most one
//! a generation). At the start no role has teachers and the first role is
//! dominated, so the fittest student of the first role joins at
//! generation 0, beating nobody.
//!
//! A role's teacher set is *undominated* in a generation when, after that
//! generation's joining, it is not empty and its role is not the
//! dominated one: the other roles have not yet produced a member that
//! beats all its teachers. The disengagement measure (the paper's figure
//! 6) is, per role, the number of generations its set was undominated.

/// The teacher sets of the roles and the currently dominated role.
#[derive(Debug, Clone, PartialEq)]
pub struct Teachers<T> {
    /// Per role, its teachers in the order they joined.
    pub sets: Vec<Vec<T>>,
    /// The role whose students may join its teachers.
    pub dominated: usize,
}

impl<T> Teachers<T> {
    /// Empty sets for `roles` roles; the first is dominated.
    pub fn new(roles: usize) -> Teachers<T> {
        Teachers { sets: (0..roles).map(|_| Vec::new()).collect(), dominated: 0 }
    }

    pub fn roles(&self) -> usize {
        self.sets.len()
    }

    /// Adds `teacher` to the dominated role's set (its new top rank) and
    /// makes the next role the dominated one.
    pub fn induct(&mut self, teacher: T) {
        let role = self.dominated;
        self.sets[role].push(teacher);
        self.dominated = (role + 1) % self.sets.len();
    }

    /// Per role, whether its teacher set is undominated now.
    pub fn undominated(&self) -> Vec<bool> {
        (0..self.sets.len()).map(|r| r != self.dominated && !self.sets[r].is_empty()).collect()
    }

    /// The teachers a student of `role` plays: those of the other roles,
    /// role by role, each set in rank order (the first to join first).
    pub fn opponents_of(&self, role: usize) -> impl Iterator<Item = (usize, usize, &T)> {
        self.sets
            .iter()
            .enumerate()
            .filter(move |&(r, _)| r != role)
            .flat_map(|(r, set)| set.iter().enumerate().map(move |(k, t)| (r, k, t)))
    }

    /// How many teachers a student of `role` must beat to cover.
    pub fn to_cover(&self, role: usize) -> usize {
        self.opponents_of(role).count()
    }
}

/// How many games of a series in rank order a student won before the
/// first it did not win; `won` is asked game by game and is not asked
/// after that first.
pub fn beaten_in_order(games: usize, mut won: impl FnMut(usize) -> bool) -> usize {
    (0..games).take_while(|&k| won(k)).count()
}

/// The student that joins: among those that cover (`beaten == needed`),
/// the fittest, the earlier on a tie; `None` when none covers.
pub fn inductee(beaten: &[usize], needed: usize, fitness: &[f64]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, (&b, &f)) in beaten.iter().zip(fitness).enumerate() {
        if b == needed && best.is_none_or(|j| f > fitness[j]) {
            best = Some(i);
        }
    }
    best
}

/// The points of the player of `role` from the goal values of a game's end
/// (`goals[r]`, role `r`'s): 1 when its goal is above every other role's, ½
/// when it shares the highest, else 0. With two roles: win, draw, loss.
pub fn points(goals: &[i64], role: usize) -> f64 {
    let mine = goals[role];
    let others = goals.iter().enumerate().filter(|&(r, _)| r != role).map(|(_, &g)| g);
    match others.max() {
        Some(best) if mine > best => 1.0,
        Some(best) if mine == best => 0.5,
        Some(_) => 0.0,
        None => 1.0,
    }
}

/// The paper's F(o) = α·Σ CCA + (1 − α)·Σ bouts: `beaten` teachers (a
/// point each) and `points` from the bouts.
pub fn cca_fitness(alpha: f64, beaten: usize, points: f64) -> f64 {
    alpha * beaten as f64 + (1.0 - alpha) * points
}

/// Per role, the generations its teacher set was undominated, from the
/// per-generation flags.
pub fn undominated_counts(flags: &[Vec<bool>], roles: usize) -> Vec<u64> {
    let mut counts = vec![0u64; roles];
    for row in flags {
        for (c, &f) in counts.iter_mut().zip(row) {
            *c += u64::from(f);
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_won_above_every_other_role_and_drawn_at_a_shared_top() {
        assert_eq!(points(&[100, 0], 0), 1.0);
        assert_eq!(points(&[50, 50], 1), 0.5);
        assert_eq!(points(&[0, 100], 0), 0.0);
        assert_eq!(points(&[60, 80, 20], 1), 1.0);
        assert_eq!(points(&[80, 80, 20], 0), 0.5, "sharing the top with another role");
        assert_eq!(points(&[80, 80, 20], 2), 0.0);
        assert_eq!(points(&[40, 70, 70], 0), 0.0, "second place is no draw");
    }

    #[test]
    fn the_first_role_is_dominated_and_joins_first() {
        let mut t: Teachers<&str> = Teachers::new(2);
        assert_eq!(t.undominated(), [false, false], "no teachers, nothing undominated");
        assert_eq!(t.to_cover(0), 0, "the first student covers an empty set");
        t.induct("w0");
        assert_eq!(t.sets, [vec!["w0"], vec![]]);
        assert_eq!(t.dominated, 1);
        assert_eq!(t.undominated(), [true, false]);
        t.induct("b0");
        assert_eq!(t.dominated, 0);
        assert_eq!(t.undominated(), [false, true]);
        t.induct("w1");
        assert_eq!(t.sets[0], ["w0", "w1"], "ranked in the order they joined");
        let played: Vec<_> = t.opponents_of(1).map(|(r, k, &n)| (r, k, n)).collect();
        assert_eq!(played, [(0, 0, "w0"), (0, 1, "w1")]);
        assert_eq!(t.to_cover(0), 1);
    }

    #[test]
    fn three_roles_take_turns_and_play_every_other_role() {
        let mut t: Teachers<u32> = Teachers::new(3);
        t.induct(10);
        t.induct(20);
        assert_eq!(t.dominated, 2);
        assert_eq!(t.undominated(), [true, true, false]);
        assert_eq!(t.to_cover(2), 2);
        assert_eq!(t.to_cover(0), 1);
        t.induct(30);
        assert_eq!(t.dominated, 0);
        assert_eq!(t.undominated(), [false, true, true]);
    }

    #[test]
    fn a_series_stops_at_the_first_game_not_won() {
        let results = [true, true, false, true];
        let mut asked = Vec::new();
        let beaten = beaten_in_order(4, |k| {
            asked.push(k);
            results[k]
        });
        assert_eq!(beaten, 2);
        assert_eq!(asked, [0, 1, 2], "no game after the first loss");
        assert_eq!(beaten_in_order(0, |_| false), 0);
        assert_eq!(beaten_in_order(3, |_| true), 3);
    }

    #[test]
    fn the_fittest_coverer_joins_the_earlier_on_a_tie() {
        // Students 1 and 3 cover 2 teachers; 0 is fitter but does not cover.
        let beaten = [1, 2, 0, 2];
        let fitness = [9.0, 1.5, 0.0, 1.5];
        assert_eq!(inductee(&beaten, 2, &fitness), Some(1));
        let fitness = [9.0, 1.5, 0.0, 1.6];
        assert_eq!(inductee(&beaten, 2, &fitness), Some(3));
        assert_eq!(inductee(&[0, 1], 2, &[1.0, 2.0]), None);
        assert_eq!(inductee(&[0, 0], 0, &[1.0, 2.0]), Some(1), "an empty set is covered by all");
    }

    #[test]
    fn fitness_weighs_teachers_and_bouts() {
        let a = 10.0 / 11.0;
        assert!((cca_fitness(a, 2, 11.0) - (20.0 / 11.0 + 1.0)).abs() < 1e-12);
        assert_eq!(cca_fitness(1.0, 3, 50.0), 3.0);
        assert_eq!(cca_fitness(0.0, 3, 5.0), 5.0);
    }

    #[test]
    fn disengagement_counts_undominated_generations() {
        let mut t: Teachers<u8> = Teachers::new(2);
        let mut flags = Vec::new();
        // Generation 0: white joins; 1, 2: black covers nobody; 3: black joins.
        t.induct(0);
        flags.push(t.undominated());
        flags.push(t.undominated());
        flags.push(t.undominated());
        t.induct(1);
        flags.push(t.undominated());
        assert_eq!(undominated_counts(&flags, 2), [3, 1]);
    }
}
