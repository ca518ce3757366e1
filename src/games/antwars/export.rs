//! Ants of the `antwars` and `antwars-humant` primsets as contest players,
//! Ant Wars' [`PlayerExporter`] (`stratagem export --format c|rust` of an
//! individual of a primset of domain `antwars`, through the registry): one
//! ANSI-C file with `int Move(int grid[11][11], int row, int column)` and
//! `void Reset(void)`, or one Rust file with `pub struct Ant`, each doing
//! what the `gp:FILE:NAME` player does (`gp_ant.rs`), bit for bit:
//!
//! - before each move, the memory update (`memory.rs`): F and B overwritten
//!   inside the 5×5 view (the grid's cells that are not −1), B × 0.9
//!   outside, the ant's cell visited;
//! - the straight tree at quarter turns 0–3, the diagonal tree likewise, in
//!   the contest's order; the highest value wins, ties to the earlier
//!   direction, NaN never (the running best starts at −∞);
//! - tree-frame offsets turned clockwise K times, (dr, dc) → (dc, −dr), as
//!   `AntSight::board_offset`; areas decoded at export time (the genotype →
//!   phenotype mapping of `area.rs`) to their top-left offset and
//!   dimensions, cells summed row by row from +0.0 as the natives sum them;
//! - every double operation rounded on its own: the C turns off the
//!   compiler's contraction into fused multiply-adds ([`C_NO_CONTRACTION`]);
//! - terminals from what the player counts itself: TimeLeft = 35 − the
//!   calls since `Reset`, Points = the moves that stepped onto a cell its
//!   view showed food on (food cannot vanish between the view and the move),
//!   PointsLeft = 15 − Points, FoodHope read from the grid;
//! - the natives of the `antwars-humant` primset from their one
//!   definition, `planning.rs`: the Rust player carries the functions the
//!   trees call (and what they call) as written there, the C player the same
//!   functions translated by [`crate::codegen::c_subset`] (declarations
//!   first, short names, consts folded; <math.h> only when survival's `pow`
//!   and `log` are called); both read their own memory through the senses of
//!   `exported_senses.rs` (the grid's opponent, 2, for `enemy`; the ant's
//!   cell at its first move since `Reset`, kept as C's `O` and Rust's `o`
//!   only when UnseenPullRival reads it; distances computed, not looked up);
//!   PlanHope is PlanHopeDiscount at 0.9, FoodKnown FoodPull(0.97, 1).
//!
//! Only the natives and terminals the trees use are emitted: an ant of the
//! antwars primset's primitives exports as it did before the humants'.
//!
//! What an ant is, and the contest's limits, are checked here: an individual
//! with a `straight` and a `diagonal` tree (else a diagnostic), and a C
//! player over the contest's 5,000 bytes comes with a warning.

use std::collections::BTreeSet;

use super::area::Area;
use super::exported_senses::{self, CSenses};
use super::gp_ant::TREES;
use super::planning::{PLAN_DISCOUNT, SURVIVAL};
use crate::codegen::c_subset::{self, Closure, Subset};
use crate::codegen::expr::{C_NO_CONTRACTION, Emitter, Lang, Leaves, constant};
use crate::codegen::player::{PlayerExporter, PlayerSource, Refusal};
use crate::diagnostic::Diagnostic;
use crate::lang::{Base, Individual, Node, PrimSet, Primitive, Tree, Value};

/// The contest's limit on a player's source ("under 5 kB", read as 5,000
/// bytes), which a C export over it is warned against.
pub const CONTEST_SIZE: usize = 5000;

/// Ant Wars' exporter: ants as contest players ([`to_c`], [`to_rust`]).
pub struct ContestPlayers;

impl PlayerExporter for ContestPlayers {
    fn export(
        &self,
        ps: &PrimSet,
        individual: Option<&Individual>,
        lang: Lang,
        origin: &str,
        name: &str,
    ) -> Result<PlayerSource, Refusal> {
        let Some(ind) = individual else {
            return Err(Refusal::NotAPlayer(Diagnostic::error(
                "stratagem::export::ant",
                format!("`{name}` of `{origin}` is not an individual: an ant is an individual of two trees"),
            )));
        };
        let [straight, diagonal] = ant_trees(ind, origin).map_err(Refusal::NotAPlayer)?;
        let text = match lang {
            Lang::C => to_c(ps, name, [straight, diagonal]),
            Lang::Rust => to_rust(ps, name, [straight, diagonal]),
        }
        .map_err(Refusal::Untranslatable)?;
        let mut warnings = Vec::new();
        if lang == Lang::C && text.len() > CONTEST_SIZE {
            warnings.push(size_warning(name, text.len()));
        }
        Ok(PlayerSource { text, warnings })
    }
}

/// An ant's trees `[straight, diagonal]` (simplified by the caller), or why
/// it is no ant.
fn ant_trees<'a>(ind: &'a Individual, origin: &str) -> Result<[&'a Tree; 2], Diagnostic> {
    let tree = |slot: &str| {
        ind.trees.iter().find(|t| t.name == slot).map(|t| &t.tree).ok_or_else(|| {
            Diagnostic::error(
                "stratagem::export::ant",
                format!("ant `{}` of `{origin}` has no `{slot}` tree", ind.name),
            )
            .with_help("an ant has two trees: `straight` (N, E, S, W) and `diagonal` (NE, SE, SW, NW)")
        })
    };
    Ok([tree(TREES[0])?, tree(TREES[1])?])
}

/// The warning of a C player of `len` bytes, over the contest's limit.
fn size_warning(name: &str, len: usize) -> Diagnostic {
    Diagnostic::warning(
        "stratagem::export::size",
        format!("the C player of `{name}` is {len} bytes, over the contest's limit of {CONTEST_SIZE} bytes per ant"),
    )
    .with_help(
        "it is written all the same and plays as the ant does; the GECCO 2007 contest accepted \
         only players under 5 kB (smaller trees, or the ant simplified by hand, fit)",
    )
}

/// The area natives, by the kind number the emitted area function uses.
const NATIVES: [&str; 6] = ["IsFood", "IsEnemy", "NFood", "NEmpty", "NVisited", "NUnseen"];

/// What the trees of an ant read, and how it is written in the target.
struct AntLeaves<'a> {
    ps: &'a PrimSet,
    lang: Lang,
    natives: BTreeSet<usize>,
    hope: bool,
    /// The humants' code (`planning.rs`), and the functions of it read.
    planning: &'a Subset<'a>,
    roots: BTreeSet<&'static str>,
}

impl AntLeaves<'_> {
    /// A call of function `f` of `planning.rs` with `args`.
    fn call(&mut self, f: &'static str, args: &[String]) -> String {
        self.roots.insert(f);
        match self.lang {
            Lang::C => format!("{}({})", self.planning.c_name(f).unwrap_or(f), args.join(",")),
            Lang::Rust => format!(
                "{f}({})",
                std::iter::once("self".to_owned()).chain(args.iter().cloned()).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    fn constant(&self, x: f64) -> String {
        constant(self.lang, Value::F(x))
    }

    /// A humants' native of F arguments, checked against its declaration.
    fn humant_native(&mut self, prim: &Primitive, exprs: &[String]) -> Option<Result<String, String>> {
        let (arity, f) = match prim.name.as_str() {
            "PlanHope" => (2, "plan_hope"),
            "FoodPull" => (2, "food_pull"),
            "UnseenPull" => (1, "unseen_pull"),
            "PlanHopeDiscount" => (3, "plan_hope"),
            "UnseenPullRival" => (3, "unseen_pull_rival"),
            _ => return None,
        };
        let all_f = prim.args.iter().all(|&t| self.ps.base(t) == Base::F) && self.ps.base(prim.ret) == Base::F;
        if prim.arity() != arity || exprs.len() != arity || !all_f {
            return Some(Err(format!(
                "the native `{}` of other types than Ant Wars computes it with ({}) F",
                prim.name,
                vec!["F"; arity].join(" ")
            )));
        }
        let mut args = exprs.to_vec();
        // PlanHope is PlanHopeDiscount at the 0.9 discount.
        if prim.name == "PlanHope" {
            args.push(self.constant(PLAN_DISCOUNT));
        }
        Some(Ok(self.call(f, &args)))
    }

    /// A humants' terminal, checked against its declared type.
    fn humant_feature(&mut self, prim: &Primitive, base: Base) -> Option<Result<String, String>> {
        let (want, text) = match prim.name.as_str() {
            "PlanFood" => (Base::F, self.call("plan_food", &[])),
            "Danger" | "Kill" | "EnemyDist" => {
                let d = self.call("enemy_distance", &[]);
                match (prim.name.as_str(), self.lang) {
                    ("Danger", Lang::C) => (Base::B, format!("({d}==1)")),
                    ("Danger", Lang::Rust) => (Base::B, format!("({d} == 1)")),
                    ("Kill", Lang::C) => (Base::B, format!("({d}==0)")),
                    ("Kill", Lang::Rust) => (Base::B, format!("({d} == 0)")),
                    (_, Lang::C) => (Base::F, format!("((double){d})")),
                    (_, Lang::Rust) => (Base::F, format!("f64::from({d})")),
                }
            }
            "NewCells" => (Base::F, self.call("new_cells", &[])),
            // Σ survival(0.97) over F is FoodPull(0.97, 1): × 1^d = × 1.0 changes no bit.
            "FoodKnown" => {
                let args = [self.constant(SURVIVAL), self.constant(1.0)];
                (Base::F, self.call("food_pull", &args))
            }
            _ => return None,
        };
        if base != want {
            return Some(Err(format!(
                "the terminal `{}` of type {base:?}, which Ant Wars computes as a {want:?}",
                prim.name
            )));
        }
        Some(Ok(text))
    }
}

impl Leaves for AntLeaves<'_> {
    fn feature(&mut self, prim: &Primitive, _slot: u32, base: Base) -> Result<String, String> {
        let c = self.lang == Lang::C;
        if let Some(humant) = self.humant_feature(prim, base) {
            return humant;
        }
        Ok(match prim.name.as_str() {
            "TimeLeft" if c => "(35-T)".to_owned(),
            "TimeLeft" => "(35.0 - self.t)".to_owned(),
            "Points" if c => "P".to_owned(),
            "Points" => "self.p".to_owned(),
            "PointsLeft" if c => "(15-P)".to_owned(),
            "PointsLeft" => "(15.0 - self.p)".to_owned(),
            "FoodHope" => {
                self.hope = true;
                (if c { "H()" } else { "self.hope()" }).to_owned()
            }
            other => return Err(format!("the terminal `{other}`, which no Ant Wars player computes")),
        })
    }

    fn native(&mut self, prim: &Primitive, args: &[&[Node]], exprs: &[String]) -> Result<String, String> {
        if let Some(humant) = self.humant_native(prim, exprs) {
            return humant;
        }
        let Some(kind) = NATIVES.iter().position(|n| *n == prim.name) else {
            return Err(format!("the native `{}`, which no Ant Wars player computes", prim.name));
        };
        let index = match args {
            [[Node::Const(Value::I(i))]] => *i,
            _ => return Err(format!("`{}` of an area computed at run time (only constant areas export)", prim.name)),
        };
        self.natives.insert(kind);
        let area = Area::decode(index);
        let (top, left) = area.offsets().next().unwrap_or((area.row, area.col));
        let call = if self.lang == Lang::C {
            format!("A({kind},{top},{left},{},{})", area.height, area.width)
        } else {
            format!("self.area({kind}, {top}, {left}, {}, {})", area.height, area.width)
        };
        // IsFood and IsEnemy are B: the area function returns 1.0 or 0.0.
        Ok(if kind < 2 {
            if self.lang == Lang::C { format!("({call}>0)") } else { format!("({call} > 0.0)") }
        } else {
            call
        })
    }
}

/// The trees `[straight, diagonal]` translated, with what they use.
struct Translated {
    exprs: [String; 2],
    natives: BTreeSet<usize>,
    hope: bool,
    helpers: String,
    /// The humants' code the trees read (empty if none).
    planning: Closure,
}

/// The humants' code, parsed (its C names leave the exported player's own).
fn planning_code<'a>(externs: &'a [(&'a str, &'a str, crate::codegen::c_subset::Known)]) -> Subset<'a> {
    Subset::parse(exported_senses::PLANNING, externs, &exported_senses::C_NAMES)
        .expect("planning.rs is Rust (the crate compiles it)")
}

fn translate(ps: &PrimSet, lang: Lang, trees: [&Tree; 2], planning: &Subset) -> Result<Translated, Vec<String>> {
    let leaves = AntLeaves { ps, lang, natives: BTreeSet::new(), hope: false, planning, roots: BTreeSet::new() };
    let mut e = Emitter::new(ps, lang, leaves);
    let exprs = trees.map(|t| e.tree(t));
    if !e.problems.is_empty() {
        return Err(e.problems.into_iter().collect());
    }
    let helpers = e.helper_defs();
    let l = e.leaves;
    let mut roots: Vec<&str> = l.roots.iter().copied().collect();
    // The Rust senses compute distances with it.
    if lang == Lang::Rust && !roots.is_empty() {
        roots.push("torus_distance");
    }
    let planning =
        if roots.is_empty() { Closure::default() } else { planning.closure(&roots, &exported_senses::calls) };
    Ok(Translated { exprs, natives: l.natives, hope: l.hope, helpers, planning })
}

/// The C contest player of ant `name` from trees `[straight, diagonal]`.
pub fn to_c(ps: &PrimSet, name: &str, trees: [&Tree; 2]) -> Result<String, Vec<String>> {
    let externs = exported_senses::externs();
    let planning = planning_code(&externs);
    let t = translate(ps, Lang::C, trees, &planning)?;
    let senses = CSenses { distance: planning.c_name("torus_distance").unwrap_or_default().to_owned() };
    let humant = if t.planning.items.is_empty() {
        None
    } else {
        Some(
            c_subset::to_c(&planning, &t.planning, &senses)
                .map_err(|e| vec![format!("the humants' code in C: {e}")])?,
        )
    };
    let mut s = format!(
        "/* Ant `{name}` exported by Stratagem {} ({} primset): Move and Reset of the GECCO 2007 Ant Wars contest. */\n",
        env!("CARGO_PKG_VERSION"),
        ps.name
    );
    s.push_str(C_NO_CONTRACTION);
    if t.helpers.contains("fabs") || humant.as_ref().is_some_and(|h| h.math) {
        s.push_str("#include <math.h>\n");
    }
    s.push_str("static int*G,R,C,K,D;static char F[121],V[121];static double B[121],T,P;\n");
    s.push_str("static int Q(int a,int b){int t,k;for(k=0;k<K;k++){t=a;a=b;b=-t;}return(R+a+22)%11*11+(C+b+22)%11;}\n");
    s.push_str(&t.helpers);
    if !t.natives.is_empty() {
        s.push_str("static double A(int k,int t,int l,int h,int w){int i,j,c;double s=0.0;");
        s.push_str("for(i=t;i<t+h;i++)for(j=l;j<l+w;j++){c=Q(i,j);");
        for &k in &t.natives {
            s.push_str(match k {
                0 => "if(k==0&&F[c])return 1.0;",
                1 => "if(k==1&&G[c]==2)return 1.0;",
                2 => "if(k==2&&F[c])s+=B[c];",
                3 => "if(k==3&&!F[c]&&G[c]!=2)s+=B[c];",
                4 => "if(k==4&&V[c])s+=1.0;",
                _ => "if(k==5&&B[c]==0.0)s+=1.0;",
            });
        }
        s.push_str("}return s;}\n");
    }
    if t.hope {
        s.push_str("static double H(void){int i,j,m=0;for(i=-2;i<1;i++)for(j=D-1;j<D+2;j++)");
        s.push_str("if((i||j)&&(i!=-1||j!=D)&&G[Q(i,j)]==1)m=1;return(G[Q(-1,D)]==1)+m;}\n");
    }
    // UnseenPullRival's start: the ant's cell at its first move since Reset.
    let rival = t.planning.methods.contains("start");
    if let Some(humant) = &humant {
        s.push_str("/* The humants' natives, src/games/antwars/planning.rs in C. */\n");
        if t.planning.methods.contains("enemy") {
            s.push_str(exported_senses::C_ENEMY);
        }
        if rival {
            s.push_str("static int O=-1;\n");
        }
        s.push_str(&humant.text);
    }
    s.push_str(&format!("static double X(void){{return {};}}\n", t.exprs[0]));
    s.push_str(&format!("static double Y(void){{return {};}}\n", t.exprs[1]));
    s.push_str("int Move(int g[11][11],int r,int c){int d,b=0,i;double v,m=-1e308*10.0;G=&g[0][0];R=r;C=c;");
    s.push_str(if rival { "if(!T)O=r*11+c;\n" } else { "\n" });
    s.push_str("for(i=0;i<121;i++)if(G[i]<0)B[i]*=0.9;else{F[i]=G[i]==1;B[i]=1.0;}\nV[r*11+c]=1;\n");
    s.push_str("for(d=0;d<8;d++){K=d/2;D=d&1;v=D?Y():X();if(v>m){m=v;b=d;}}\n");
    s.push_str("K=b/2;D=b&1;if(G[Q(-1,D)]==1)P++;T++;return b;}\n");
    s.push_str("void Reset(void){int i;for(i=0;i<121;i++){F[i]=V[i]=0;B[i]=0.0;}T=P=0;");
    s.push_str(if rival { "O=-1;}\n" } else { "}\n" });
    Ok(s)
}

/// The Rust player of ant `name` from trees `[straight, diagonal]`.
pub fn to_rust(ps: &PrimSet, name: &str, trees: [&Tree; 2]) -> Result<String, Vec<String>> {
    let externs = exported_senses::externs();
    let planning = planning_code(&externs);
    let t = translate(ps, Lang::Rust, trees, &planning)?;
    let mut s = format!(
        "// Ant `{name}` exported by Stratagem {} ({} primset): `Ant::choose` is the contest's Move, \
         `Ant::reset` its Reset.\n\n",
        env!("CARGO_PKG_VERSION"),
        ps.name
    );
    // UnseenPullRival's start: the ant's cell at its first move, kept.
    let rival = t.planning.methods.contains("start");
    let (field, init, keep) = if rival {
        ("    o: Option<usize>,\n", ", o: None", "        self.o.get_or_insert(row * 11 + column);\n")
    } else {
        ("", "", "")
    };
    s.push_str(&RUST_ANT.replace("START_FIELD\n", field).replace("START_INIT", init).replace("START_KEEP\n", keep));
    if !t.natives.is_empty() {
        // Only the sums (kinds 2 and up) add to `s`: IsFood and IsEnemy
        // alone leave it 0.0, and a `mut` rustc would warn about.
        let sums = t.natives.iter().any(|&k| k >= 2);
        s.push_str(&format!(
            "    fn area(&self, k: u8, t: i32, l: i32, h: i32, w: i32) -> f64 {{\n        let {}s = 0.0;\n        \
             for i in t..t + h {{\n            for j in l..l + w {{\n                let c = self.q(i, j);\n",
            if sums { "mut " } else { "" }
        ));
        for &k in &t.natives {
            s.push_str(match k {
                0 => "                if k == 0 && self.f[c] {\n                    return 1.0;\n                }\n",
                1 => "                if k == 1 && self.g[c] == 2 {\n                    return 1.0;\n                }\n",
                2 => "                if k == 2 && self.f[c] {\n                    s += self.b[c];\n                }\n",
                3 => {
                    "                if k == 3 && !self.f[c] && self.g[c] != 2 {\n                    s += self.b[c];\n                }\n"
                }
                4 => "                if k == 4 && self.v[c] {\n                    s += 1.0;\n                }\n",
                _ => "                if k == 5 && self.b[c] == 0.0 {\n                    s += 1.0;\n                }\n",
            });
        }
        s.push_str("            }\n        }\n        s\n    }\n\n");
    }
    if t.hope {
        s.push_str(RUST_HOPE);
    }
    s.push_str(&format!("    fn straight(&self) -> f64 {{\n        {}\n    }}\n\n", t.exprs[0]));
    s.push_str(&format!("    fn diagonal(&self) -> f64 {{\n        {}\n    }}\n}}\n", t.exprs[1]));
    if !t.helpers.is_empty() {
        s.push('\n');
        s.push_str(&t.helpers);
    }
    if !t.planning.items.is_empty() {
        s.push_str("\n// The humants' natives, src/games/antwars/planning.rs as written there.\n\n");
        s.push_str(&planning.rust(&t.planning));
        s.push_str(&exported_senses::rust_senses(rival));
    }
    Ok(s)
}

const RUST_ANT: &str = r#"/// The ant and its memory: food F, belief B, visited V, moves made and points.
#[allow(dead_code)]
pub struct Ant {
    g: [i32; 121],
    r: i32,
    c: i32,
    k: i32,
    d: i32,
    t: f64,
    p: f64,
    f: [bool; 121],
    b: [f64; 121],
    v: [bool; 121],
START_FIELD
}

impl Default for Ant {
    fn default() -> Ant {
        Ant::new()
    }
}

#[allow(dead_code, unused_parens)]
impl Ant {
    pub fn new() -> Ant {
        Ant { g: [-1; 121], r: 0, c: 0, k: 0, d: 0, t: 0.0, p: 0.0, f: [false; 121], b: [0.0; 121], v: [false; 121]START_INIT }
    }

    /// Forgets the last game.
    pub fn reset(&mut self) {
        *self = Ant::new();
    }

    /// The direction 0-7 (N, NE, E, SE, S, SW, W, NW) to move in: `grid` is
    /// -1 outside the 5x5 view, 0 empty, 1 food, 2 the opponent.
    pub fn choose(&mut self, grid: &[[i32; 11]; 11], row: usize, column: usize) -> u8 {
        (self.r, self.c) = (row as i32, column as i32);
        for i in 0..121 {
            self.g[i] = grid[i / 11][i % 11];
            if self.g[i] < 0 {
                self.b[i] *= 0.9;
            } else {
                self.f[i] = self.g[i] == 1;
                self.b[i] = 1.0;
            }
        }
        self.v[row * 11 + column] = true;
START_KEEP
        let (mut best, mut m) = (0, f64::NEG_INFINITY);
        for d in 0..8 {
            (self.k, self.d) = (d / 2, d & 1);
            let v = if self.d == 1 { self.diagonal() } else { self.straight() };
            if v > m {
                (best, m) = (d, v);
            }
        }
        (self.k, self.d) = (best / 2, best & 1);
        if self.g[self.q(-1, self.d)] == 1 {
            self.p += 1.0;
        }
        self.t += 1.0;
        best as u8
    }

    fn q(&self, mut a: i32, mut b: i32) -> usize {
        for _ in 0..self.k {
            (a, b) = (b, -a);
        }
        ((self.r + a + 22) % 11 * 11 + (self.c + b + 22) % 11) as usize
    }

"#;

const RUST_HOPE: &str = r#"    fn hope(&self) -> f64 {
        let mut m = 0;
        for i in -2..1 {
            for j in self.d - 1..self.d + 2 {
                if (i != 0 || j != 0) && (i != -1 || j != self.d) && self.g[self.q(i, j)] == 1 {
                    m = 1;
                }
            }
        }
        f64::from(i32::from(self.g[self.q(-1, self.d)] == 1) + m)
    }

"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// The primset and trees `[straight, diagonal]` of the individual `a`
    /// of `text`.
    fn ant(text: &str) -> (PrimSet, [Tree; 2]) {
        let mut loader = crate::lang::Loader::new();
        loader.load_text("t.sg", text);
        assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
        let ind = loader.module.individuals.iter().find(|i| i.name == "a").expect("individual a");
        let tree = |name: &str| ind.trees.iter().find(|t| t.name == name).expect("the tree").tree.clone();
        (loader.module.primset(ind.primset).clone(), [tree("straight"), tree("diagonal")])
    }

    fn humant(straight: &str, diagonal: &str) -> (PrimSet, [Tree; 2]) {
        ant(&format!(
            "(import antwars-humant) (individual a (primset antwars-humant) (tree straight {straight}) \
             (tree diagonal {diagonal}))"
        ))
    }

    fn humant_c(straight: &str, diagonal: &str) -> String {
        let (ps, trees) = humant(straight, diagonal);
        to_c(&ps, "a", [&trees[0], &trees[1]]).expect("exports")
    }

    fn humant_rust(straight: &str, diagonal: &str) -> String {
        let (ps, trees) = humant(straight, diagonal);
        to_rust(&ps, "a", [&trees[0], &trees[1]]).expect("exports")
    }

    #[test]
    fn only_the_humant_code_a_program_reads_is_written() {
        // The antwars primset's primitives alone: none of the humants' code.
        let c = humant_c("(NFood 49)", "FoodHope");
        assert!(!c.contains("planning.rs") && !c.contains("math.h"), "{c}");
        // The opponent: its cell and distances, nothing else.
        let c = humant_c("(If Danger 1.0 (If Kill 2.0 0.0))", "EnemyDist");
        assert!(c.contains("static int ED(void)") && c.contains("(ED()==1)") && c.contains("(ED()==0)"), "{c}");
        assert!(c.contains("static int E(void)") && c.contains("static int TD(int a,int b)"), "{c}");
        assert!(!c.contains("math.h") && !c.contains("BP(") && !c.contains("Su("), "{c}");
        // PlanFood weighs food by B: no survival, no libm.
        let c = humant_c("PlanFood", "NewCells");
        assert!(c.contains("return BP(BW,0.0,1.0,0.9);") && c.contains("PF()") && c.contains("NC()"), "{c}");
        assert!(!c.contains("math.h") && !c.contains("Su("), "{c}");
        // PlanHope weighs by survival, which needs libm; it is
        // PlanHopeDiscount at 0.9.
        let c = humant_c("PlanFood", "(PlanHope 0.5 0.0)");
        assert!(c.contains("return BP(Su,a,b,c);") && c.contains("PH(0.5,0.0,0.9)"), "{c}");
        assert!(c.contains("#include <math.h>") && c.contains("pow(") && c.contains("log(0.9)"), "{c}");
        let c = humant_c("PlanFood", "(PlanHopeDiscount 0.97 0.25 0.6)");
        assert!(c.contains("PH(0.97,0.25,0.6)"), "{c}");
        // FoodKnown is FoodPull(0.97, 1.0); UnseenPull needs no survival.
        let c = humant_c("FoodKnown", "(UnseenPull 0.6)");
        assert!(c.contains("FP(0.97,1.0)") && c.contains("UP(0.6)"), "{c}");
        let c = humant_c("(UnseenPull 0.6)", "0.0");
        assert!(c.contains("static void Fa(") && !c.contains("Su(") && !c.contains("math.h"), "{c}");
        // NUnseen is an area function, of kind 5.
        let c = humant_c("(NUnseen 1732)", "(NFood 1734)");
        assert!(c.contains("if(k==5&&B[c]==0.0)s+=1.0;") && c.contains("A(5,-3,-1,3,3)"), "{c}");
        // No start is kept unless UnseenPullRival is read.
        assert!(!humant_c("PlanFood", "(PlanHope 0.5 0.0)").contains("O="));
        let rust = humant_rust("PlanFood", "(PlanHopeDiscount 0.97 0.25 -0.6)");
        assert!(rust.contains("plan_food(self)") && rust.contains("plan_hope(self, 0.97f64, 0.25f64, (-0.6f64))"));
        assert!(rust.contains("pub fn plan_hope<S: Senses>(senses: &S, keep: f64, race: f64, per_move: f64) -> f64 {"));
        assert!(rust.contains("impl Senses for Ant {") && rust.contains("const DECAY: f64 = 0.9;"), "{rust}");
        assert!(!rust.contains("o: Option<usize>") && !rust.contains("fn unseen_pull_rival"), "{rust}");
        // UnseenPullRival keeps the ant's start from its first move; Reset
        // clears it.
        let c = humant_c("(UnseenPullRival 0.75 0.3 0.0)", "0.0");
        assert!(c.contains("static int O=-1;") && c.contains("UPR(0.75,0.3,0.0)"), "{c}");
        assert!(c.contains("if(!T)O=r*11+c;") && c.contains("T=P=0;O=-1;}"), "{c}");
        assert!(!c.contains("math.h") && !c.contains("BP("), "{c}");
        let rust = humant_rust("0.0", "(UnseenPullRival 0.75 0.3 0.0)");
        assert!(rust.contains("    o: Option<usize>,\n}") && rust.contains("v: [false; 121], o: None }"), "{rust}");
        assert!(rust.contains("self.o.get_or_insert(row * 11 + column);"), "{rust}");
        assert!(rust.contains("unseen_pull_rival(self, 0.75f64, 0.3f64, 0.0f64)"), "{rust}");
        assert!(rust.contains("self.o.map_or(-1, |c| c as i32)"), "{rust}");
    }

    /// Every function of the humants' code translates to C (the exports
    /// above reach each of them; this names a failure at its source).
    #[test]
    fn all_of_planning_rs_translates_to_c() {
        let externs = exported_senses::externs();
        let planning = planning_code(&externs);
        let roots =
            ["plan_food", "plan_hope", "enemy_distance", "food_pull", "unseen_pull", "unseen_pull_rival", "new_cells"];
        let closure = planning.closure(&roots, &exported_senses::calls);
        let senses = CSenses { distance: "TD".to_owned() };
        let c = crate::codegen::c_subset::to_c(&planning, &closure, &senses).expect("planning.rs is in the subset");
        assert!(c.math && c.text.lines().count() >= 14, "{}", c.text);
    }

    #[test]
    fn humant_natives_declared_otherwise_are_refused() {
        let (ps, trees) =
            ant("(primset odd (domain antwars) (literals F) (terminal Danger F) (function PlanHope (F) F) \
               (function FoodPull (F F) B) (function If (B F F) F (builtin if)) \
               (function PlanHopeDiscount (F F) F) (function UnseenPullRival (F F F) B) \
               (function Add (F F) F (builtin add)) (tree straight F) (tree diagonal F)) \
             (individual a (primset odd) (tree straight (Add (PlanHope Danger) (PlanHopeDiscount 1.0 0.5))) \
               (tree diagonal (If (FoodPull 1.0 2.0) 1.0 (If (UnseenPullRival 1.0 0.5 0.0) 0.0 Danger))))");
        for problems in [to_c(&ps, "a", [&trees[0], &trees[1]]), to_rust(&ps, "a", [&trees[0], &trees[1]])] {
            let problems = problems.expect_err("refused").join("; ");
            assert!(problems.contains("the native `PlanHope` of other types than Ant Wars computes it with (F F) F"));
            assert!(problems.contains("the native `FoodPull` of other types"), "{problems}");
            assert!(
                problems
                    .contains("the native `PlanHopeDiscount` of other types than Ant Wars computes it with (F F F) F"),
                "{problems}"
            );
            assert!(
                problems
                    .contains("the native `UnseenPullRival` of other types than Ant Wars computes it with (F F F) F"),
                "{problems}"
            );
            assert!(problems.contains("the terminal `Danger` of type F, which Ant Wars computes as a B"), "{problems}");
        }
    }
}
