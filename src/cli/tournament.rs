//! `stratagem tournament --game G --players SPEC,SPEC,... --games N [--seed
//! S] [--threads T] [--format text|json] [--svg FILE]`: a round robin of N
//! double-games per pair (seeds/003 table 3), with the dominance graph of
//! figure 1 as SVG, played by `players::tournament` (games of named players
//! and two-player games of the model). `play` on a game of named players is
//! a tournament of its two players ([`play`]).

use std::fmt::Write as _;
use std::path::PathBuf;

use super::{Failure, Format, Outcome, PlayArgs, game_entry, out};
use crate::eval::Engine;
use crate::games::tournament::{Settings, Tournament};
use crate::limits::Limit;
use crate::players::tournament::{RoundRobin, round_robin_of};

/// The significance level of a dominance arrow (the paper's 0.01).
const ALPHA: f64 = 0.01;

pub struct TournamentArgs {
    pub game: String,
    pub players: Vec<String>,
    /// How `gp:` players' programs are evaluated.
    pub engine: Engine,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub format: Format,
    pub svg: Option<PathBuf>,
}

pub fn run(args: &TournamentArgs) -> Outcome {
    let entry = game_entry(&args.game)?;
    Limit::Games
        .check(args.games, &format!("`--games {}`", args.games))
        .map_err(|e| Failure::message("stratagem::limit", e))?;
    if args.players.len() < 2 {
        return Err(Failure::message(
            "stratagem::tournament::players",
            format!("a tournament needs 2 or more players, and --players names {}", args.players.len()),
        ));
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let settings = Settings { double_games: args.games, seed: args.seed, threads };
    let RoundRobin { result, game, seconds } = round_robin_of(entry, &args.players, args.engine, settings)?;
    if let Some(path) = &args.svg {
        crate::files::write_atomic(path, dominance_svg(&args.players, &result).as_bytes()).map_err(|e| {
            Failure::message("stratagem::tournament::svg", format!("cannot write {}: {e}", path.display()))
        })?;
    }
    match args.format {
        Format::Json => out(&format!("{}\n", to_json(&args.players, &result))),
        Format::Text => {
            let mut text = to_text(&args.players, &result);
            let double_games = args.games * result.pairs.len() as u64;
            let _ = writeln!(
                text,
                "{} double-games per pair on {}, seed {}, {threads} threads: {double_games} double-games in {seconds:.2} s \
                 ({:.0} double-games/s)",
                args.games,
                game,
                args.seed,
                double_games as f64 / seconds.max(1e-9),
            );
            out(&text);
        }
    }
    Ok(())
}

/// `play` on a game of named players: a tournament of A and B, of
/// ⌈N/2⌉ double-games (each board played with both roles).
pub fn play(args: &PlayArgs) -> Outcome {
    if args.position.is_some() || args.record.is_some() {
        return Err(Failure::message(
            "stratagem::play::observed",
            format!(
                "`play` on `{}` plays random boards and records nothing: leave out --position and --record",
                args.game
            ),
        ));
    }
    let players = match args.players.as_deref() {
        Some([a, b]) => vec![a.clone(), b.clone()],
        Some(specs) => {
            return Err(Failure::message(
                "stratagem::play::players",
                format!("--players gives {} players, and `{}` has 2 roles", specs.len(), args.game),
            ));
        }
        None => vec![args.a.clone(), args.b.clone()],
    };
    run(&TournamentArgs {
        game: args.game.clone(),
        players,
        engine: args.engine,
        games: args.games.div_ceil(2),
        seed: args.seed,
        threads: None,
        format: args.format,
        svg: None,
    })
}

/// Table 3's layout: players, then pairs.
pub fn to_json(names: &[String], t: &Tournament) -> serde_json::Value {
    let players: Vec<_> = names
        .iter()
        .zip(&t.standings)
        .map(|(name, s)| {
            let mut player = serde_json::json!({
                "name": name, "matches_won": s.matches_won, "games_won": s.games_won, "total_score": s.total_score,
            });
            // Only where a program failed: other tournaments read as before.
            if s.forfeits > 0 {
                player["forfeits"] = s.forfeits.into();
            }
            player
        })
        .collect();
    let pairs: Vec<_> = t
        .pairs
        .iter()
        .map(|p| {
            serde_json::json!({
                "a": names[p.a], "b": names[p.b],
                "a_wins": p.tally.wins[0], "b_wins": p.tally.wins[1],
                "a_score": p.tally.points[0], "b_score": p.tally.points[1],
                "p_value": p.p_value,
            })
        })
        .collect();
    serde_json::json!({ "players": players, "pairs": pairs })
}

fn to_text(names: &[String], t: &Tournament) -> String {
    let width = names.iter().map(String::len).max().unwrap_or(0).max(6);
    // The forfeits column only where a program failed.
    let forfeits = t.standings.iter().any(|s| s.forfeits > 0);
    let mut text = format!("{:width$}  {:>11}  {:>11}  {:>11}", "player", "matches won", "games won", "total score");
    text.push_str(if forfeits { "     forfeits\n" } else { "\n" });
    for (name, s) in names.iter().zip(&t.standings) {
        let _ = write!(text, "{name:width$}  {:>11}  {:>11}  {:>11}", s.matches_won, s.games_won, s.total_score);
        if forfeits {
            let _ = write!(text, "  {:>11}", s.forfeits);
        }
        text.push('\n');
    }
    text.push('\n');
    for p in &t.pairs {
        let games = p.tally.games.max(1) as f64;
        let verdict = if p.better(0, ALPHA) {
            format!("{} is better", names[p.a])
        } else if p.better(1, ALPHA) {
            format!("{} is better", names[p.b])
        } else {
            "no significant difference".to_owned()
        };
        let _ = writeln!(
            text,
            "{} vs {}: games {}–{} ({:.2}% for {}), score {}–{}, p = {:.3e}: {verdict}; match to {}",
            names[p.a],
            names[p.b],
            p.tally.wins[0],
            p.tally.wins[1],
            100.0 * p.tally.wins[0] as f64 / games,
            names[p.a],
            p.tally.points[0],
            p.tally.points[1],
            p.p_value,
            names[if p.winner == 0 { p.a } else { p.b }],
        );
    }
    text
}

/// Text safe inside SVG.
fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Figure 1: the players on a circle, an arrow from a to b when a wins more
/// games than b at significance 0.01.
pub fn dominance_svg(names: &[String], t: &Tournament) -> String {
    let (size, ring, node) = (640.0f64, 230.0f64, 46.0f64);
    let centre = size / 2.0;
    let at = |i: usize| {
        let angle = std::f64::consts::TAU * i as f64 / names.len() as f64 - std::f64::consts::FRAC_PI_2;
        (centre + ring * angle.cos(), centre + ring * angle.sin())
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>Dominance graph: an arrow from a to b when a is better (p &lt; {ALPHA})</title>\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" \
         orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#333\"/></marker></defs>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    for p in &t.pairs {
        let (from, to) = if p.better(0, ALPHA) {
            (p.a, p.b)
        } else if p.better(1, ALPHA) {
            (p.b, p.a)
        } else {
            continue;
        };
        let ((x1, y1), (x2, y2)) = (at(from), at(to));
        let len = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt().max(1e-9);
        let (ux, uy) = ((x2 - x1) / len, (y2 - y1) / len);
        let _ = writeln!(
            svg,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#333\" stroke-width=\"1.5\" \
             marker-end=\"url(#arrow)\"><title>{} beats {}: {}–{} games, p = {:.2e}</title></line>",
            x1 + ux * node,
            y1 + uy * node,
            x2 - ux * node,
            y2 - uy * node,
            xml_escape(&names[from]),
            xml_escape(&names[to]),
            p.tally.wins[usize::from(from != p.a)],
            p.tally.wins[usize::from(from == p.a)],
            p.p_value,
        );
    }
    for (i, name) in names.iter().enumerate() {
        let (x, y) = at(i);
        let _ = writeln!(
            svg,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{node}\" fill=\"#eef\" stroke=\"#336\"/>\
             <text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"middle\" dominant-baseline=\"middle\">{}</text>",
            xml_escape(name),
        );
    }
    svg.push_str("</svg>\n");
    svg
}
