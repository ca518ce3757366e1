//! How exported ants give the humants' code (`planning.rs`) its senses: the
//! C host the translation calls ([`CSenses`]) and the Rust `impl Senses for
//! Ant` ([`rust_senses`]), both over the exported player's own memory (the
//! grid G, F, B, the calls T since `Reset`), as `export.rs` writes it.

use super::memory::DECAY;
use super::{MOVES_PER_ANT, REACH, START};
use crate::codegen::c_subset::{Host, HostCall, Known};

/// The one definition of the humants' natives, translated for exported ants.
pub(super) const PLANNING: &str = include_str!("planning.rs");

/// The consts `planning.rs` imports: name, Rust type, value.
pub(super) fn externs() -> Vec<(&'static str, &'static str, Known)> {
    vec![
        ("DECAY", "f64", Known::Float(DECAY)),
        ("MOVES_PER_ANT", "u8", Known::Int(i64::from(MOVES_PER_ANT))),
        ("REACH", "i32", Known::Int(i64::from(REACH))),
        ("START", "[u8; 2]", Known::Ints(START.iter().map(|&c| i64::from(c)).collect())),
    ]
}

/// The names the exported C uses itself, which the translation leaves alone.
pub(super) const C_NAMES: [&str; 22] = [
    "G", "R", "C", "K", "D", "F", "V", "B", "T", "P", "O", "Q", "A", "H", "X", "Y", "E", "Pw", "Mx", "Mn", "Move",
    "Reset",
];

/// The function of `planning.rs` a senses method calls in the exported
/// players (their distances are computed, not looked up).
pub(super) fn calls(method: &str) -> Option<&'static str> {
    matches!(method, "distance" | "window_cells").then_some("torus_distance")
}

/// `E()`: the opponent's cell while the grid shows it (2), else −1.
pub(super) const C_ENEMY: &str = "static int E(void){int i;for(i=0;i<121;i++)if(G[i]==2)return i;return -1;}\n";

/// The senses in the exported C: `Q(-1,D)` is the cell ahead, `O` the ant's
/// start (kept by `Move` when read), `distance` the translated
/// `torus_distance` (its C name here).
pub(super) struct CSenses {
    pub distance: String,
}

impl Host for CSenses {
    fn method(&self, name: &str, args: &[String]) -> Option<HostCall> {
        Some(HostCall::Text(match (name, args) {
            ("ahead", []) => "Q(-1,D)".to_owned(),
            ("belief", [c]) => format!("B[{c}]"),
            ("enemy", []) => "E()".to_owned(),
            ("moves_left", []) => format!("({MOVES_PER_ANT}-(int)T)"),
            ("start", []) => "O".to_owned(),
            ("distance", [_, _]) => return Some(HostCall::Item("torus_distance")),
            _ => return None,
        }))
    }

    fn cells(&self, name: &str, var: &str, args: &[String]) -> Option<String> {
        let test = match (name, args) {
            ("food_cells", []) => format!("F[{var}]"),
            ("unseen_cells", []) => format!("B[{var}]==0.0"),
            ("window_cells", [c]) => format!("{}({c},{var})<{}", self.distance, REACH + 1),
            _ => return None,
        };
        Some(format!("for({var}=0;{var}<121;{var}++)if({test})"))
    }
}

/// The Rust of `impl Senses for Ant`; `start` says whether the ant keeps its
/// start (field `o`), read by UnseenPullRival.
pub(super) fn rust_senses(start: bool) -> String {
    let start = if start { "self.o.map_or(-1, |c| c as i32)" } else { "-1" };
    format!(
        r#"impl Senses for Ant {{
    fn ahead(&self) -> usize {{
        self.q(-1, self.d)
    }}

    fn belief(&self, cell: usize) -> f64 {{
        self.b[cell]
    }}

    fn enemy(&self) -> i32 {{
        self.g.iter().position(|&x| x == 2).map_or(-1, |c| c as i32)
    }}

    fn moves_left(&self) -> u32 {{
        {MOVES_PER_ANT} - self.t as u32
    }}

    fn start(&self) -> i32 {{
        {start}
    }}

    fn distance(&self, a: usize, b: usize) -> u32 {{
        torus_distance(a, b)
    }}

    fn food_cells(&self) -> impl Iterator<Item = usize> + '_ {{
        (0..121).filter(|&c| self.f[c])
    }}

    fn unseen_cells(&self) -> impl Iterator<Item = usize> + '_ {{
        (0..121).filter(|&c| self.b[c] == 0.0)
    }}

    fn window_cells(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {{
        (0..121).filter(move |&c| torus_distance(cell, c) <= {REACH})
    }}
}}
"#
    )
}
