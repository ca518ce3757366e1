//! Ants of the `antwars` primset as contest players: one ANSI-C file with
//! `int Move(int grid[11][11], int row, int column)` and `void Reset(void)`,
//! or one Rust file with `pub struct Ant`, each doing what the `gp:FILE:NAME`
//! player does (src/games/antwars/gp_ant.rs), bit for bit:
//!
//! - before each move, the memory update (src/games/antwars/memory.rs): F
//!   and B overwritten inside the 5×5 view (the grid's cells that are not
//!   −1), B × 0.9 outside, the ant's cell visited;
//! - the straight tree at quarter turns 0–3, the diagonal tree likewise, in
//!   the contest's order; the highest value wins, ties to the earlier
//!   direction, NaN never (the running best starts at −∞);
//! - tree-frame offsets turned clockwise K times, (dr, dc) → (dc, −dr), as
//!   `AntSight::board_offset`; areas decoded at export time (the genotype →
//!   phenotype mapping of src/games/antwars/area.rs) to their top-left
//!   offset and dimensions, cells summed row by row from +0.0 as the natives
//!   sum them;
//! - every double operation rounded on its own: the C turns off the
//!   compiler's contraction into fused multiply-adds
//!   ([`super::expr::C_NO_CONTRACTION`]);
//! - terminals from what the player counts itself: TimeLeft = 35 − the
//!   calls since `Reset`, Points = the moves that stepped onto a cell its
//!   view showed food on (food cannot vanish between the view and the move),
//!   PointsLeft = 15 − Points, FoodHope read from the grid.
//!
//! Only the natives and terminals the trees use are emitted.

use std::collections::BTreeSet;

use super::expr::{Emitter, Lang, Leaves};
use crate::games::antwars::area::Area;
use crate::lang::{Base, Node, PrimSet, Primitive, Tree, Value};

/// The natives of the primset, by the kind number the emitted code uses.
const NATIVES: [&str; 5] = ["IsFood", "IsEnemy", "NFood", "NEmpty", "NVisited"];

/// What the trees of an ant read, and how it is written in the target.
struct AntLeaves {
    lang: Lang,
    natives: BTreeSet<usize>,
    hope: bool,
}

impl Leaves for AntLeaves {
    fn feature(&mut self, prim: &Primitive, _slot: u32, _base: Base) -> Result<String, String> {
        let c = self.lang == Lang::C;
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

    fn native(&mut self, prim: &Primitive, args: &[&[Node]], _exprs: &[String]) -> Result<String, String> {
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
}

fn translate(ps: &PrimSet, lang: Lang, trees: [&Tree; 2]) -> Result<Translated, Vec<String>> {
    let mut e = Emitter::new(ps, lang, AntLeaves { lang, natives: BTreeSet::new(), hope: false });
    let exprs = trees.map(|t| e.tree(t));
    if !e.problems.is_empty() {
        return Err(e.problems.into_iter().collect());
    }
    let helpers = e.helper_defs();
    Ok(Translated { exprs, natives: e.leaves.natives, hope: e.leaves.hope, helpers })
}

/// The C contest player of ant `name` from trees `[straight, diagonal]`.
pub fn to_c(ps: &PrimSet, name: &str, trees: [&Tree; 2]) -> Result<String, Vec<String>> {
    let t = translate(ps, Lang::C, trees)?;
    let mut s = format!(
        "/* Ant `{name}` exported by Stratagem {} (antwars primset): Move and Reset of the GECCO 2007 Ant Wars contest. */\n",
        env!("CARGO_PKG_VERSION")
    );
    s.push_str(super::expr::C_NO_CONTRACTION);
    if t.helpers.contains("fabs") {
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
                _ => "if(k==4&&V[c])s+=1.0;",
            });
        }
        s.push_str("}return s;}\n");
    }
    if t.hope {
        s.push_str("static double H(void){int i,j,m=0;for(i=-2;i<1;i++)for(j=D-1;j<D+2;j++)");
        s.push_str("if((i||j)&&(i!=-1||j!=D)&&G[Q(i,j)]==1)m=1;return(G[Q(-1,D)]==1)+m;}\n");
    }
    s.push_str(&format!("static double X(void){{return {};}}\n", t.exprs[0]));
    s.push_str(&format!("static double Y(void){{return {};}}\n", t.exprs[1]));
    s.push_str("int Move(int g[11][11],int r,int c){int d,b=0,i;double v,m=-1e308*10.0;G=&g[0][0];R=r;C=c;\n");
    s.push_str("for(i=0;i<121;i++)if(G[i]<0)B[i]*=0.9;else{F[i]=G[i]==1;B[i]=1.0;}\nV[r*11+c]=1;\n");
    s.push_str("for(d=0;d<8;d++){K=d/2;D=d&1;v=D?Y():X();if(v>m){m=v;b=d;}}\n");
    s.push_str("K=b/2;D=b&1;if(G[Q(-1,D)]==1)P++;T++;return b;}\n");
    s.push_str("void Reset(void){int i;for(i=0;i<121;i++){F[i]=V[i]=0;B[i]=0.0;}T=P=0;}\n");
    Ok(s)
}

/// The Rust player of ant `name` from trees `[straight, diagonal]`.
pub fn to_rust(ps: &PrimSet, name: &str, trees: [&Tree; 2]) -> Result<String, Vec<String>> {
    let t = translate(ps, Lang::Rust, trees)?;
    let mut s = format!(
        "// Ant `{name}` exported by Stratagem {} (antwars primset): `Ant::choose` is the contest's Move, \
         `Ant::reset` its Reset.\n\n",
        env!("CARGO_PKG_VERSION")
    );
    s.push_str(RUST_ANT);
    if !t.natives.is_empty() {
        s.push_str(
            "    fn area(&self, k: u8, t: i32, l: i32, h: i32, w: i32) -> f64 {\n        let mut s = 0.0;\n        \
             for i in t..t + h {\n            for j in l..l + w {\n                let c = self.q(i, j);\n",
        );
        for &k in &t.natives {
            s.push_str(match k {
                0 => "                if k == 0 && self.f[c] {\n                    return 1.0;\n                }\n",
                1 => "                if k == 1 && self.g[c] == 2 {\n                    return 1.0;\n                }\n",
                2 => "                if k == 2 && self.f[c] {\n                    s += self.b[c];\n                }\n",
                3 => {
                    "                if k == 3 && !self.f[c] && self.g[c] != 2 {\n                    s += self.b[c];\n                }\n"
                }
                _ => "                if k == 4 && self.v[c] {\n                    s += 1.0;\n                }\n",
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
}

impl Default for Ant {
    fn default() -> Ant {
        Ant::new()
    }
}

#[allow(dead_code, unused_parens)]
impl Ant {
    pub fn new() -> Ant {
        Ant { g: [-1; 121], r: 0, c: 0, k: 0, d: 0, t: 0.0, p: 0.0, f: [false; 121], b: [0.0; 121], v: [false; 121] }
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
