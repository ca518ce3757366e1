//! The entry points that fuzzing drives: each takes arbitrary bytes, goes
//! down one path a user's input takes through Stratagem, and must not panic.
//! The cargo-fuzz targets in `fuzz_targets/` call them, and so does the
//! bounded property test `tests/no_panic.rs` (which includes this file as a
//! module), so `cargo test` checks the very code paths the campaigns ran.
//!
//! Beyond "no panic", a few invariants are asserted where the API promises
//! them: a position prints to text that reads back as the same position, a
//! printed move names the same move, and a state has no legal moves exactly
//! when the game is over.

use stratagem::diagnostic::FileId;
use stratagem::eval::Engine;
use stratagem::eval::run::{Program, run_program};
use stratagem::eval::table::{bind, read_csv};
use stratagem::evolve::CcaCheckpoint;
use stratagem::evolve::experiment::lower_experiment;
use stratagem::evolve::output::parse_checkpoint;
use stratagem::games::Puzzle;
use stratagem::games::domain::GpDomain;
use stratagem::games::registry::{GAMES, GameTask, Kind, PuzzleTask};
use stratagem::gdl::{Description, validate::validate};
use stratagem::lang::{Base, FormRef, Loader, Value};
use stratagem::syntax::{lexer::comments, pretty::format_source, read};

/// The most legal moves of a fuzzed position that are printed, read back and
/// played, so one input stays fast.
const MAX_MOVES: usize = 64;

/// The reader, the checker and the formatter, as `stratagem check` and
/// `stratagem fmt` run them on a file; diagnostics are rendered.
pub fn read_check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (forms, diags) = read(FileId(0), &text);
    if diags.is_empty() {
        let _ = format_source(&text, &forms, &comments(&text));
    }
    let mut loader = Loader::new();
    loader.load_text("fuzz.sg", &text);
    let _ = loader.sources.render_plain(&loader.diags);
    for (_, form) in loader.module.forms.clone() {
        let _ = loader.module.summarize(form);
    }
}

/// Lowering of `(experiment ...)` as `stratagem check` and `stratagem evolve`
/// do it. Text that holds no experiment form becomes the clauses of one, after
/// the shipped primsets of every game are imported.
pub fn experiment(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = if text.contains("(experiment") {
        text.into_owned()
    } else {
        format!("(import lose-checkers) (import morris)\n(experiment fuzz\n{text}\n)")
    };
    let mut loader = Loader::new();
    loader.load_text("fuzz.sg", &text);
    for (_, form) in loader.module.forms.clone() {
        if let FormRef::Experiment(i) = form
            && let Err(diags) = lower_experiment(&loader.module, i)
        {
            loader.diags.extend(diags);
        }
    }
    let _ = loader.sources.render_plain(&loader.diags);
}

/// The position text of every game. The first byte picks the game; the rest
/// is a position, optionally followed by a newline and a move. A position
/// that reads is printed and read back, its legal moves are printed, read back
/// and played, and its terminals, natives and material are computed.
pub fn positions(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let (position, mv) = text.split_once('\n').unwrap_or((&text, ""));
    struct Position<'a>(&'a str, &'a str);
    impl GameTask for Position<'_> {
        type Output = ();
        fn run<G: GpDomain + Send + 'static>(self, game: G)
        where
            G::State: Send + Sync + 'static,
            G::Move: Send + Sync + 'static,
        {
            position_of(&game, self.0, self.1);
        }
    }
    // A digit names a game by its value, so that seeds keep their game as
    // games are added; any other byte picks one modulo the number.
    let index = if pick.is_ascii_digit() { usize::from(pick - b'0') } else { usize::from(pick) };
    GAMES[index % GAMES.len()].run(Position(position, mv));
}

fn position_of<G: GpDomain>(game: &G, text: &str, mv_text: &str) {
    let state = match game.parse_state(text) {
        Ok(state) => state,
        Err(e) => {
            let (sources, d) = e.diagnose("stratagem::position", "position", text);
            let _ = sources.render_plain(&[d]);
            return;
        }
    };
    let printed = game.format_state(&state);
    let back = game.parse_state(&printed).unwrap_or_else(|e| panic!("`{printed}` does not read back: {e}"));
    assert_eq!(game.format_state(&back), printed, "`{text}` prints differently after reading back");
    let _ = game.render(&state);
    let mut moves = Vec::new();
    game.legal_moves(&state, &mut moves);
    assert_eq!(moves.is_empty(), game.is_over(&state), "`{printed}`: no moves iff the game is over");
    for role in 0..game.n_roles() as u8 {
        assert_eq!(game.score(&state, role).is_some(), game.is_over(&state), "`{printed}`: scores iff over");
    }
    for mv in moves.iter().take(MAX_MOVES) {
        let name = game.format_move(&state, mv);
        let read = game.parse_move(&state, &name).unwrap_or_else(|e| panic!("`{name}` in `{printed}`: {e}"));
        assert_eq!(&read, mv, "`{name}` in `{printed}` reads as another move");
        let next = game.apply(&state, mv);
        let _ = game.format_state(&next);
        let _ = game.score(&next, 0);
    }
    if !mv_text.is_empty() {
        match game.parse_move(&state, mv_text) {
            Ok(mv) => {
                let _ = game.render(&game.apply(&state, &mv));
            }
            Err(e) => {
                let (sources, d) = e.diagnose("stratagem::move", "move", mv_text);
                let _ = sources.render_plain(&[d]);
            }
        }
    }
    for me in 0..2 {
        for feature in game.features() {
            let _ = feature.compute.slot(&state, me);
        }
        for native in game.natives() {
            for x in (-1..=8).chain([i64::MIN, i64::MAX]) {
                let args: Vec<Value> = native.args.iter().map(|&base| argument(base, x)).collect();
                let _ = native.call.call(&state, me, &args);
            }
        }
        let _ = game.material(&state, me);
    }
}

/// `x` as a value of `base`, as an evolved tree could pass it to a native.
fn argument(base: Base, x: i64) -> Value {
    match base {
        Base::F => Value::F(x as f64),
        Base::I => Value::I(x),
        Base::B => Value::B(x % 2 == 0),
    }
}

/// The program whose primset the CSV rows bind to: F, I and B terminals and
/// every builtin (the typed eval case of the data-driven tests).
const TYPED: &str = include_str!("../../tests/data/eval/ok/003_typed.sg");

/// A CSV table read, bound to a primset's terminals and evaluated on the
/// interpreter, as `stratagem eval` does; diagnostics are rendered.
pub fn csv_rows(data: &[u8]) {
    let mut loader = Loader::new();
    let program = loader.load_text("typed.sg", TYPED);
    let csv = loader.sources.add("rows.csv", None, String::from_utf8_lossy(data).into_owned());
    let (table, mut diags) = match read_csv(&loader.sources, csv) {
        Ok(read) => read,
        Err(diags) => {
            let _ = loader.sources.render_plain(&diags);
            return;
        }
    };
    let m = &loader.module;
    for ind in &m.individuals {
        let ps = m.primset(ind.primset);
        let mut used: Vec<u32> = ind.trees.iter().flat_map(|t| t.tree.features_used(ps)).collect();
        used.sort_unstable();
        used.dedup();
        match bind(&table, ps, &used, ind.span.first_byte(), program) {
            Ok(rows) => {
                let _ = rows.columns();
                let trees = Program::Trees(ind.trees.iter().map(|t| &t.tree).collect());
                let out = run_program(Engine::Interp, ps, &trees, &rows);
                assert_eq!(out.columns[0].len(), rows.n_rows);
            }
            Err(more) => diags.extend(more),
        }
    }
    let _ = loader.sources.render_plain(&diags);
}

/// A checkpoint as `stratagem evolve --resume` reads it; one that parses is
/// written again and read back, and its programs go through the reader.
pub fn checkpoint(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(cp) = parse_checkpoint(&text) else { return };
    let written = serde_json::to_string(&cp).unwrap_or_else(|e| panic!("a parsed checkpoint does not write: {e}"));
    if let Err(e) = parse_checkpoint(&written) {
        panic!("a written checkpoint does not read back: {e}\n{written}");
    }
    let programs = cp.population.iter().chain(&cp.champion).chain(cp.finalists.iter().map(|f| &f.program));
    for program in programs {
        let _ = read(FileId(0), program);
    }
}

/// A covering-coevolution checkpoint as `stratagem evolve --resume` reads
/// it: one that parses is written again and read back, and its programs go
/// through the reader.
pub fn cca_checkpoint(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(cp) = CcaCheckpoint::parse(&text) else { return };
    let written = cp.to_text().unwrap_or_else(|e| panic!("a parsed covering checkpoint does not write: {e}"));
    if let Err(e) = CcaCheckpoint::parse(&written) {
        panic!("a written covering checkpoint does not read back: {e}\n{written}");
    }
    for program in cp.programs() {
        let _ = read(FileId(0), program);
    }
}

/// A GDL description as `stratagem gdl check` and the running `gdl`
/// commands take it: read, validated and compiled, then a short
/// deterministic playout, its trace written.
pub fn gdl(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (forms, diags) = read(FileId(0), &text);
    if !diags.is_empty() {
        return;
    }
    let (description, _) = Description::read(FileId(0), &forms);
    let _ = validate(&description);
    // Lenient: the running commands' compile, which also builds the machine
    // for games whose validation errors GGP-Base's prover runs anyway.
    if let Ok((machine, _)) = stratagem::gdl::compile(
        FileId(0),
        &text,
        stratagem::gdl::Validation::Lenient,
        stratagem::gdl::EngineChoice::Auto,
    ) {
        let mut trace = String::new();
        let _ = stratagem::gdl::trace::trace(&machine, 1, 12, &mut trace);
    }
}

/// A file of puzzles as `solve` and evolution's training sets read it: the
/// first byte picks the puzzle game (Rush Hour, FreeCell), the rest is the
/// file, one instance a line; every instance read prints as a position that
/// reads back as itself.
pub fn puzzle_files(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let puzzles: Vec<_> = GAMES.iter().filter(|e| e.kind == Kind::Puzzle).collect();
    let text = String::from_utf8_lossy(rest);
    struct File<'a>(&'a str);
    impl PuzzleTask for File<'_> {
        type Output = ();
        fn run<
            G: GpDomain
                + Puzzle<State: std::hash::Hash + Eq + Send + Sync + 'static, Move: Send + Sync + 'static>
                + Send
                + 'static,
        >(
            self,
            game: G,
        ) {
            let mut sources = stratagem::diagnostic::Sources::default();
            let file = sources.add("puzzles.txt", None, self.0.to_owned());
            match stratagem::games::instances::parse_instances(&game, file, self.0) {
                Ok(instances) => {
                    for instance in instances.iter().take(MAX_MOVES) {
                        let printed = game.format_state(&instance.state);
                        let back = game
                            .parse_state(&printed)
                            .unwrap_or_else(|e| panic!("`{printed}` of a puzzle line does not read back: {e}"));
                        assert_eq!(game.format_state(&back), printed, "a puzzle prints differently read back");
                    }
                }
                Err(diags) => {
                    let _ = sources.render_plain(&diags);
                }
            }
        }
    }
    if let Some(entry) = puzzles.get(usize::from(pick) % puzzles.len().max(1)) {
        let _ = entry.run_puzzle("fuzzing", File(&text));
    }
}

/// A message from a GGP game server, as `ggp serve` reads a request's body.
pub fn ggp_messages(data: &[u8]) {
    let _ = stratagem::ggp::message::parse(&String::from_utf8_lossy(data));
}
