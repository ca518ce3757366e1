//! The humants' natives ([`super::humant`]) as C and Rust source for
//! exported ants (`export.rs`): the pieces an ant's trees need, each
//! written with the operations that module performs, in its order.
//!
//! This is the planner and the pulls a second time, as text: the exported
//! players scan the 121 cells where `humant.rs` walks bit sets and tables,
//! so the text is not generated from that code. What ties the two: the
//! constants written into the text are checked against `humant.rs`'s (the
//! tests below), and tests/export.rs compiles the exported C and Rust of
//! the humants and of ants reading every native and compares their values
//! with the `gp:` player's, bit for bit, on 1,000 boards. A change to one
//! is a change to the other.

/// A piece of the humants' code (`humant.rs`) the emitted
/// player needs, in the order it is written: each after what it calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Part {
    /// `Z(a, b)`: the king distance between two cells of the torus.
    Distance,
    /// `E()`: the opponent's cell while it is in view, else −1.
    Enemy,
    /// `ED()`: EnemyDist as an integer (Danger is 1, Kill 0).
    EnemyDist,
    /// `Pw(a, n)`: `a`^n as `f64::powi` computes it (C only).
    Powi,
    /// `S(c, keep)`: the survival of food remembered at cell `c`.
    Survival,
    /// `PL(hope, keep, race)`: PlanFood and PlanHope; `PL(hope, keep,
    /// race, discount)` when PlanHopeDiscount is read too.
    Plan,
    /// `FP(keep, fall)`: FoodPull, and FoodKnown as FoodPull(0.97, 1).
    FoodPull,
    /// `UP(fall)`: UnseenPull.
    UnseenPull,
    /// `UR(fall, factor, spread)`: UnseenPullRival, with the ant's start `O`.
    UnseenPullRival,
    /// `NC()`: NewCells.
    NewCells,
}

impl Part {
    /// What the part calls.
    pub(super) fn needs(self) -> &'static [Part] {
        match self {
            Part::EnemyDist => &[Part::Enemy, Part::Distance],
            Part::Plan => &[Part::Enemy, Part::Distance],
            Part::FoodPull => &[Part::Survival, Part::Powi, Part::Distance],
            Part::UnseenPull | Part::UnseenPullRival => &[Part::Powi, Part::Distance],
            Part::NewCells => &[Part::Distance],
            Part::Distance | Part::Enemy | Part::Powi | Part::Survival => &[],
        }
    }
}

/// The C of a part of the humants' code (`WEIGHT` stands for the planner's
/// weight of a piece of food; `Q_PARAM` for its discount parameter, if any,
/// and `Q_VALUE` for the discount). Every double operation is the one
/// `humant.rs` does, in its order.
pub(super) fn c_part(part: Part) -> &'static str {
    match part {
        Part::Distance => {
            "static int Z(int a,int b){int r=a/11-b/11,c=a%11-b%11;if(r<0)r=-r;if(c<0)c=-c;\
             if(r>5)r=11-r;if(c>5)c=11-c;return r>c?r:c;}\n"
        }
        Part::Enemy => "static int E(void){int i;for(i=0;i<121;i++)if(G[i]==2)return i;return -1;}\n",
        Part::EnemyDist => "static int ED(void){int e=E();return e<0?6:Z(e,Q(-1,D));}\n",
        // compiler-rt's __powidf2, which Rust's powi calls.
        Part::Powi => "static double Pw(double a,int n){double r=1.0;for(;;){if(n&1)r*=a;n/=2;if(!n)return r;a*=a;}}\n",
        Part::Survival => {
            "static double S(int c,double k){double b=B[c];if(b>=1.0)return 1.0;if(b<=0.0||k!=k||k<=0.0)return 0.0;\
             return pow(b,log(k<1.0?k:1.0)/log(0.9));}\n"
        }
        Part::Plan => {
            "static int Tc[16],Tr[16],Tn,Th;static double Tw[16],Tl,Td[5];\n\
             static double Ps(int at,int t,int e){int i,a;double b=0.0,v;for(i=0;i<Tn;i++){a=t+Z(at,Tc[i]);\
             if(e>>i&1||a>Th)continue;v=(a>Tr[i]?Tw[i]*Tl:Tw[i])*Td[a-1]+Ps(Tc[i],a,e|1<<i);if(v>b)b=v;}return b;}\n\
             static double PL(int f,double k,double lQ_PARAM){int c,d,e,a=Q(-1,D),o=E();double w;Th=35-(int)T;if(Th>5)Th=5;\
             if(Th<1)return 0.0;Tl=l;Td[0]=1.0;for(d=1;d<5;d++)Td[d]=Td[d-1]*Q_VALUE;\n\
             for(Tn=d=0;d<Th;d++)for(c=0;c<121;c++)if(F[c]&&Z(a,c)==d&&Tn<16&&(w=WEIGHT)>0.0)\
             {Tc[Tn]=c;Tw[Tn]=w;Tr[Tn++]=o<0?6:Z(o,c);}\n\
             e=Tn&&Tc[0]==a;return(e?(1>Tr[0]?Tw[0]*l:Tw[0]):0.0)+Ps(a,1,e);}\n"
        }
        Part::FoodPull => {
            "static double FP(double k,double f){int c,a=Q(-1,D);double s=0.0;\
             for(c=0;c<121;c++)if(F[c])s+=S(c,k)*Pw(f,Z(a,c));return s;}\n"
        }
        Part::UnseenPull => {
            "static double UP(double f){int c,a=Q(-1,D);double s=0.0;\
             for(c=0;c<121;c++)if(B[c]==0.0)s+=Pw(f,Z(a,c));return s;}\n"
        }
        // O: the ant's start (set by Move); o: the opponent's, or -1.
        Part::UnseenPullRival => {
            "static int O=-1;static double UR(double f,double x,double s){int c,a=Q(-1,D),o=O==57?63:O==63?57:-1;\
             double r=2.0+s*T,u=0.0;for(c=0;c<121;c++)if(B[c]==0.0)u+=Pw(f,Z(a,c))*(o>=0&&Z(o,c)<=r?x:1.0);return u;}\n"
        }
        Part::NewCells => {
            "static double NC(void){int c,a=Q(-1,D),n=0;for(c=0;c<121;c++)n+=B[c]==0.0&&Z(a,c)<3;return n;}\n"
        }
    }
}

/// The Rust of a part of the humants' code: the methods of `Ant`, written
/// with the calls `humant.rs` makes (`powi`, `powf`, `ln`,
/// `f64::max`; `Q_PARAM` and `Q_VALUE` as in [`c_part`]).
pub(super) fn rust_part(part: Part) -> &'static str {
    match part {
        Part::Distance => RUST_DISTANCE,
        Part::Enemy => RUST_ENEMY,
        Part::EnemyDist => RUST_ENEMY_DIST,
        Part::Powi => "",
        Part::Survival => RUST_SURVIVAL,
        Part::Plan => RUST_PLAN,
        Part::FoodPull => RUST_FOOD_PULL,
        Part::UnseenPull => RUST_UNSEEN_PULL,
        Part::UnseenPullRival => RUST_UNSEEN_PULL_RIVAL,
        Part::NewCells => RUST_NEW_CELLS,
    }
}

const RUST_DISTANCE: &str = r#"    fn dist(a: usize, b: usize) -> i32 {
        let gap = |x: usize, y: usize| x.abs_diff(y).min(11 - x.abs_diff(y));
        gap(a / 11, b / 11).max(gap(a % 11, b % 11)) as i32
    }

"#;

const RUST_ENEMY: &str = r#"    fn enemy(&self) -> Option<usize> {
        self.g.iter().position(|&x| x == 2)
    }

"#;

const RUST_ENEMY_DIST: &str = r#"    fn enemy_dist(&self) -> i32 {
        self.enemy().map_or(6, |e| Ant::dist(e, self.q(-1, self.d)))
    }

"#;

const RUST_SURVIVAL: &str = r#"    fn survival(&self, c: usize, keep: f64) -> f64 {
        let b = self.b[c];
        if b >= 1.0 {
            1.0
        } else if b <= 0.0 || keep.is_nan() || keep <= 0.0 {
            0.0
        } else {
            b.powf(keep.min(1.0).ln() / 0.9f64.ln())
        }
    }

"#;

const RUST_PLAN: &str = r#"    fn plan(&self, hope: bool, keep: f64, race: f64Q_PARAM) -> f64 {
        let (a, enemy) = (self.q(-1, self.d), self.enemy());
        let h = (35.0 - self.t).min(5.0) as i32;
        if h < 1 {
            return 0.0;
        }
        let mut targets: Vec<(usize, f64, i32)> = Vec::new();
        for d in 0..h {
            for c in 0..121 {
                if self.f[c] && Ant::dist(a, c) == d && targets.len() < 16 {
                    let w = if hope { self.survival(c, keep) } else { self.b[c] };
                    if w > 0.0 {
                        targets.push((c, w, enemy.map_or(6, |e| Ant::dist(e, c))));
                    }
                }
            }
        }
        let mut discount = [1.0f64; 5];
        for t in 1..5 {
            discount[t] = discount[t - 1] * Q_VALUE;
        }
        let first = targets.first().filter(|x| x.0 == a);
        let start = first.map_or(0.0, |x| if 1 > x.2 { x.1 * race } else { x.1 });
        start + Ant::search(&targets, (&discount, h, race), a, 1, u32::from(first.is_some()))
    }

    fn search(targets: &[(usize, f64, i32)], plan: (&[f64; 5], i32, f64), at: usize, t: i32, eaten: u32) -> f64 {
        let (discount, h, race) = plan;
        let mut best = 0.0f64;
        for (i, &(c, w, r)) in targets.iter().enumerate() {
            let arrive = t + Ant::dist(at, c);
            if (eaten >> i) & 1 == 1 || arrive > h {
                continue;
            }
            let worth = if arrive > r { w * race } else { w };
            let rest = Ant::search(targets, plan, c, arrive, eaten | 1 << i);
            best = best.max(worth * discount[(arrive - 1) as usize] + rest);
        }
        best
    }

"#;

const RUST_FOOD_PULL: &str = r#"    fn food_pull(&self, keep: f64, fall: f64) -> f64 {
        let a = self.q(-1, self.d);
        (0..121).filter(|&c| self.f[c]).map(|c| self.survival(c, keep) * fall.powi(Ant::dist(a, c))).fold(0.0, |x, y| x + y)
    }

"#;

const RUST_UNSEEN_PULL: &str = r#"    fn unseen_pull(&self, fall: f64) -> f64 {
        let a = self.q(-1, self.d);
        (0..121).filter(|&c| self.b[c] == 0.0).map(|c| fall.powi(Ant::dist(a, c))).fold(0.0, |x, y| x + y)
    }

"#;

const RUST_UNSEEN_PULL_RIVAL: &str = r#"    fn unseen_pull_rival(&self, fall: f64, factor: f64, spread: f64) -> f64 {
        let a = self.q(-1, self.d);
        let radius = 2.0 + spread * self.t;
        let rival = match self.o {
            Some(57) => Some(63),
            Some(63) => Some(57),
            _ => None,
        };
        let worth = |c: usize| match rival {
            Some(r) if f64::from(Ant::dist(r, c)) <= radius => factor,
            _ => 1.0,
        };
        (0..121).filter(|&c| self.b[c] == 0.0).map(|c| fall.powi(Ant::dist(a, c)) * worth(c)).fold(0.0, |x, y| x + y)
    }

"#;

const RUST_NEW_CELLS: &str = r#"    fn new_cells(&self) -> f64 {
        let a = self.q(-1, self.d);
        (0..121).filter(|&c| self.b[c] == 0.0 && Ant::dist(a, c) < 3).count() as f64
    }

"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::antwars::humant::{FAR, HORIZON, MAX_PLANNED};
    use crate::games::antwars::memory::DECAY;
    use crate::games::antwars::{CELLS, MOVES_PER_ANT, REACH, START};

    /// Every piece's C and Rust, in the order they are written.
    fn all(code: fn(Part) -> &'static str) -> String {
        use Part::*;
        [Distance, Enemy, EnemyDist, Powi, Survival, Plan, FoodPull, UnseenPull, UnseenPullRival, NewCells]
            .map(code)
            .concat()
    }

    #[test]
    fn the_constants_written_out_are_the_planners() {
        // The constants the text has as literals, as humant.rs, memory.rs
        // and the rules define them (the bits of the whole computation are
        // tests/export.rs's).
        let (c, rust) = (all(c_part), all(rust_part));
        let (moves, [one, two]) = (MOVES_PER_ANT, START);
        for piece in [
            format!("Tc[{MAX_PLANNED}],Tr[{MAX_PLANNED}]"),
            format!("Tw[{MAX_PLANNED}],Tl,Td[{HORIZON}]"),
            format!("Th={moves}-(int)T;if(Th>{HORIZON})Th={HORIZON};"),
            format!("for(d=1;d<{HORIZON};d++)"),
            format!("Tn<{MAX_PLANNED}&&"),
            format!("Tr[Tn++]=o<0?{FAR}:Z(o,c)"),
            format!("return e<0?{FAR}:"),
            format!("log({DECAY:?})"),
            format!("O=={one}?{two}:O=={two}?{one}:-1"),
            format!("r={REACH}.0+s*T"),
            format!("Z(a,c)<{}", REACH + 1),
            format!("for(c=0;c<{CELLS};c++)"),
        ] {
            assert!(c.contains(&piece), "the C lacks {piece}");
        }
        for piece in [
            format!("({moves}.0 - self.t).min({HORIZON}.0)"),
            format!("targets.len() < {MAX_PLANNED}"),
            format!("enemy.map_or({FAR}, |e|"),
            format!("self.enemy().map_or({FAR}, |e|"),
            format!("[1.0f64; {HORIZON}]"),
            format!("for t in 1..{HORIZON}"),
            format!("{DECAY:?}f64.ln()"),
            format!("Some({one}) => Some({two}),\n            Some({two}) => Some({one}),"),
            format!("{REACH}.0 + spread * self.t"),
            format!("Ant::dist(a, c) < {}", REACH + 1),
            format!("(0..{CELLS})"),
        ] {
            assert!(rust.contains(&piece), "the Rust lacks {piece}");
        }
    }

    #[test]
    fn each_part_is_written_after_what_it_calls() {
        use Part::*;
        for part in [Distance, Enemy, EnemyDist, Powi, Survival, Plan, FoodPull, UnseenPull, UnseenPullRival, NewCells]
        {
            assert!(part.needs().iter().all(|&n| n < part), "{part:?}");
        }
    }
}
