//! The invariants ARCHITECTURE.md states about the layout of the code,
//! checked over the source files so that they stay true.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The code lines of a file (comment lines dropped) before its test module,
/// numbered from 1.
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .map(|(i, line)| (i + 1, line.to_owned()))
        .collect()
}

/// Every line of a file (comments too) before its test module, numbered from 1.
fn lines_before_tests(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .map(|(i, line)| (i + 1, line.to_owned()))
        .collect()
}

fn unix(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// Whether `line` holds `word` as a whole identifier.
fn names(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

/// `line` with the contents of its string literals blanked, so that words in
/// messages (GDL's "unsafe rule") are not taken for code.
fn without_strings(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in line.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => {
                    in_string = false;
                    out.push('"');
                }
                _ => {}
            }
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        out.push(c);
    }
    out
}

#[test]
fn strings_are_blanked_but_code_is_not() {
    assert!(!names(&without_strings(r#"let code = "stratagem::gdl::unsafe";"#), "unsafe"));
    assert!(names(&without_strings(r#"let x = unsafe { f("a\"b") };"#), "unsafe"));
}

#[test]
fn unsafe_code_lives_only_in_the_jit() {
    // The exceptions: Ant Wars contest players are C libraries, loaded and
    // called in src/games/antwars/c_player.rs; foreign programs' children
    // are limited and confined with system calls in src/foreign.
    let mut found = Vec::new();
    for path in rust_files(Path::new("src")) {
        let file = unix(&path);
        if file.starts_with("src/eval/jit/")
            || file.starts_with("src/foreign/")
            || file.starts_with("src/games/antwars/c_")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source");
        for (i, line) in text.lines().enumerate() {
            if !line.trim_start().starts_with("//") && names(&without_strings(line), "unsafe") {
                found.push(format!("{file}:{}: {line}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "`unsafe` outside src/eval/jit, src/foreign and the C player loader:\n{}",
        found.join("\n")
    );
}

#[test]
fn game_engines_are_named_only_in_src_games() {
    // Commands, searches and evolution reach engines through the registry
    // (src/games/registry.rs) and the game model's traits.
    let engines = ["Checkers", "Morris", "GdlGame", "GdlTwoPlayer", "GdlRules"];
    let mut found = Vec::new();
    for path in rust_files(Path::new("src")) {
        let file = unix(&path);
        if file.starts_with("src/games/") {
            continue;
        }
        for (n, line) in code_lines(&path) {
            if engines.iter().any(|e| names(&line, e)) {
                found.push(format!("{file}:{n}: {line}"));
            }
        }
    }
    assert!(found.is_empty(), "game engines named outside src/games (use the registry):\n{}", found.join("\n"));
}

#[test]
fn game_names_are_written_only_by_the_games_and_the_registry() {
    // Outside src/games a name is only passed to `registry::lookup`: a
    // `match` on names elsewhere is how fallthroughs to the wrong engine
    // crept in before. (Shipped primsets share their games' names.)
    let mut found = Vec::new();
    for path in rust_files(Path::new("src")) {
        let file = unix(&path);
        if file.starts_with("src/games/") || file == "src/lang/library.rs" {
            continue;
        }
        for (n, line) in code_lines(&path) {
            if ["\"lose-checkers\"", "\"morris\"", "\"morris-no-flying\""].iter().any(|g| line.contains(g)) {
                found.push(format!("{file}:{n}: {line}"));
            }
        }
    }
    assert!(found.is_empty(), "game names outside the registry:\n{}", found.join("\n"));
}

// ---------------------------------------------------------------------------
// The import graph between files: which file names which through `crate::`,
// `super::` and `self::` paths (in `use` items and in code, before a file's
// inline test module), as ../shared/tools/import_cycles.py counts them.

/// The layers of ARCHITECTURE.md, bottom first: a top-level module may
/// import only the modules before it. A new top-level module must be placed
/// here.
const LAYERS: &[&str] = &[
    "rng",
    "spelling",
    "limits",
    "files",
    "foreign",
    "diagnostic",
    "syntax",
    "lang",
    "codegen",
    "eval",
    "gdl",
    "games",
    "search",
    "players",
    "solve",
    "cluster",
    "evolve",
    "export",
    "ggp",
    "repl",
    "cli",
];

/// A source file as the graph sees it: its path under `src/` (`a/b.rs`) and
/// its text up to its inline test module.
struct Source {
    path: String,
    text: String,
}

/// The text of a file before an inline `#[cfg(test)] mod NAME {`.
fn before_test_module(text: &str) -> &str {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut at = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.trim() == "#[cfg(test)]" {
            let next = lines.get(i + 1).map_or("", |l| l.trim());
            let next = next.strip_prefix("pub(crate) ").or_else(|| next.strip_prefix("pub ")).unwrap_or(next);
            if next.starts_with("mod ") && next.ends_with('{') {
                return &text[..at];
            }
        }
        at += line.len();
    }
    text
}

fn sources_under(dir: &Path) -> Vec<Source> {
    rust_files(dir)
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let path = unix(p.strip_prefix(dir).expect("under dir"));
            Source { text: before_test_module(&text).to_owned(), path }
        })
        .collect()
}

/// The module path of a file: `a/b.rs` and `a/b/mod.rs` are `a::b`; `lib.rs` is the root.
fn module_of(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// Paths (from the crate root) that `text`, the code of the file of module
/// `here`, names.
fn named_paths(text: &str, here: &[String]) -> Vec<Vec<String>> {
    // `self` in a file is its module; `super` its parent module.
    let root = |head: &str| -> Vec<String> {
        let mut base: Vec<String> = here.to_vec();
        match head {
            "crate" => return Vec::new(),
            "self" => {}
            _ => {
                for _ in 0..head.split("::").count() {
                    base.pop();
                }
            }
        }
        base
    };
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let starts_ident = i == 0 || !(ident(bytes[i - 1]) || bytes[i - 1] == b':');
        let head = ["crate::", "super::", "self::"].into_iter().find(|h| rest.starts_with(h));
        let (Some(head), true) = (head, starts_ident) else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        // The head: `crate`, `self`, or `super` repeated.
        let mut head_end = head.len();
        while rest[head_end..].starts_with("super::") && head.starts_with("super") {
            head_end += "super::".len();
        }
        let head_text = rest[..head_end - 2].to_owned();
        let in_use = text[..i].trim_end().ends_with("use");
        let body_end = if in_use { rest.find(';').unwrap_or(rest.len()) } else { rest.len() };
        let body = &rest[head_end..body_end];
        let base = root(&head_text);
        if in_use {
            let body: String = body.chars().filter(|c| !c.is_whitespace()).collect();
            expand_use(&base, &body, &mut out);
            i += body_end;
        } else {
            let path: String = body.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            let mut parts = base.clone();
            parts.extend(path.split("::").filter(|s| !s.is_empty()).map(str::to_owned));
            out.push(parts);
            i += head_end + path.len().max(1);
        }
    }
    out
}

/// The paths a `use` tree names: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let Some(open) = tree.find('{') else {
        for item in tree.split(',').filter(|s| !s.is_empty()) {
            let mut parts = prefix.to_vec();
            let item = item.split(" as ").next().unwrap_or(item);
            parts.extend(item.split("::").filter(|s| !s.is_empty() && *s != "self").map(str::to_owned));
            out.push(parts);
        }
        return;
    };
    let mut base = prefix.to_vec();
    base.extend(tree[..open].split("::").filter(|s| !s.is_empty()).map(str::to_owned));
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand_use(&base, &inner[start..k], out);
                start = k + 1;
            }
            _ => {}
        }
    }
    expand_use(&base, &inner[start..], out);
}

/// The import graph: for each file, the files it names (index into `sources`).
fn import_graph(sources: &[Source]) -> Vec<std::collections::BTreeSet<usize>> {
    let modules: std::collections::HashMap<Vec<String>, usize> =
        sources.iter().enumerate().map(|(i, s)| (module_of(&s.path), i)).collect();
    sources
        .iter()
        .enumerate()
        .map(|(me, s)| {
            let here = module_of(&s.path);
            let mut edges = std::collections::BTreeSet::new();
            for path in named_paths(&s.text, &here) {
                // The file of the longest prefix that is a module.
                let target = (1..=path.len()).rev().find_map(|n| modules.get(&path[..n]));
                if let Some(&t) = target
                    && t != me
                {
                    edges.insert(t);
                }
            }
            edges
        })
        .collect()
}

/// The strongly connected sets of more than one file (Tarjan), each sorted.
fn cycles(graph: &[std::collections::BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct Walk<'g> {
        graph: &'g [std::collections::BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in self.graph[v].iter() {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    set.push(w);
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.found.push(set);
                }
            }
        }
    }
    let n = graph.len();
    let mut walk = Walk {
        graph,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if walk.index[v].is_none() {
            walk.visit(v);
        }
    }
    walk.found
}

/// Each cycle as its files and the edges between them.
fn cycle_report(sources: &[Source]) -> Vec<String> {
    let graph = import_graph(sources);
    cycles(&graph)
        .into_iter()
        .map(|set| {
            let edges: Vec<String> = set
                .iter()
                .flat_map(|&a| graph[a].iter().filter(|b| set.contains(b)).map(move |&b| (a, b)).collect::<Vec<_>>())
                .map(|(a, b)| format!("  {} -> {}", sources[a].path, sources[b].path))
                .collect();
            format!("{} files:\n{}", set.len(), edges.join("\n"))
        })
        .collect()
}

/// Imports from a top-level module into one above it in `LAYERS`, and
/// top-level modules missing from `LAYERS`.
fn upward_imports(sources: &[Source]) -> Vec<String> {
    let graph = import_graph(sources);
    let layer = |path: &str| -> Option<Result<usize, String>> {
        let top = module_of(path).into_iter().next()?;
        Some(LAYERS.iter().position(|l| *l == top).ok_or(top))
    };
    let mut found = Vec::new();
    for (a, edges) in graph.iter().enumerate() {
        let from = match layer(&sources[a].path) {
            None => continue, // the crate root declares every module
            Some(Err(top)) => {
                found.push(format!("src/{}: top-level module `{top}` is not in LAYERS", sources[a].path));
                continue;
            }
            Some(Ok(l)) => l,
        };
        for &b in edges {
            if let Some(Ok(to)) = layer(&sources[b].path)
                && to > from
            {
                found.push(format!(
                    "src/{} ({}) imports src/{} ({}), a layer above it",
                    sources[a].path, LAYERS[from], sources[b].path, LAYERS[to]
                ));
            }
        }
    }
    found
}

fn planted(files: &[(&str, &str)]) -> Vec<Source> {
    files.iter().map(|(p, t)| Source { path: (*p).to_owned(), text: before_test_module(t).to_owned() }).collect()
}

#[test]
fn the_import_checks_find_planted_violations() {
    // A cycle through a `use` tree, a parent's `super::` and an inline path;
    // the test module's imports do not count.
    let cyclic = planted(&[
        ("lib.rs", "pub mod games; pub mod lang;"),
        ("lang/mod.rs", "pub mod a; pub mod b;"),
        ("lang/a.rs", "use super::{b::Thing, c};\nfn f() {}"),
        ("lang/b.rs", "fn g() -> crate::lang::a::Other { todo() }"),
        ("lang/c.rs", "#[cfg(test)]\nmod tests {\n    use crate::lang::a::X;\n}\n"),
        ("games/mod.rs", "use crate::lang::c::Y;"),
    ]);
    let report = cycle_report(&cyclic);
    assert_eq!(report.len(), 1, "{report:?}");
    assert!(report[0].contains("lang/a.rs -> lang/b.rs") && report[0].contains("lang/b.rs -> lang/a.rs"), "{report:?}");
    assert!(upward_imports(&cyclic).is_empty(), "{:?}", upward_imports(&cyclic));
    // An import of a higher layer, and a module with no layer.
    let upward = planted(&[
        ("lib.rs", "pub mod lang; pub mod cli; pub mod extra;"),
        ("lang/mod.rs", "use crate::cli::Failure;"),
        ("cli/mod.rs", "pub struct Failure;"),
        ("extra.rs", "use crate::lang;"),
    ]);
    let found = upward_imports(&upward);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("`extra` is not in LAYERS") || found[1].contains("`extra` is not in LAYERS"));
    assert!(found.iter().any(|f| f.contains("src/lang/mod.rs (lang) imports src/cli/mod.rs (cli)")), "{found:?}");
    assert!(cycle_report(&upward).is_empty());
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let sources = sources_under(Path::new("src"));
    assert!(sources.len() > 100, "the source tree was not found");
    let report = cycle_report(&sources);
    assert!(report.is_empty(), "{} import cycles between files of src:\n{}", report.len(), report.join("\n"));
}

#[test]
fn top_level_modules_import_only_the_layers_below_them() {
    let found = upward_imports(&sources_under(Path::new("src")));
    assert!(found.is_empty(), "imports against ARCHITECTURE.md's layers:\n{}", found.join("\n"));
}

/// The words that name a registered game in code, in any spelling a file
/// would use: the registry's names (`rush-hour`), as identifiers
/// (`rush_hour`, `rushhour`) and the game modules' paths (`games::rushhour`).
fn game_words() -> Vec<String> {
    let mut words = Vec::new();
    for entry in stratagem::games::registry::GAMES.iter() {
        let name = entry.name.to_lowercase();
        words.push(name.clone());
        words.push(name.replace('-', "_"));
        words.push(name.replace('-', ""));
    }
    for dir in std::fs::read_dir("src/games").expect("src/games").flatten() {
        if dir.path().is_dir() {
            words.push(format!("games::{}", dir.file_name().to_string_lossy()));
        }
    }
    words.sort();
    words.dedup();
    words
}

/// Lines of `files` (code, strings and comments) that name a game.
fn lines_naming_games(files: &[(String, Vec<(usize, String)>)], words: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for (file, lines) in files {
        for (n, line) in lines {
            let code = line.to_lowercase();
            if let Some(word) = words.iter().find(|w| {
                code.match_indices(w.as_str()).any(|(at, _)| {
                    let before = code[..at].chars().next_back();
                    let after = code[at + w.len()..].chars().next();
                    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
                    !part(before) && !part(after)
                })
            }) {
                found.push(format!("{file}:{n}: `{word}`: {}", line.trim()));
            }
        }
    }
    found
}

#[test]
fn commands_servers_and_exporters_name_no_game() {
    // What is about one game lives with the game and is reached through the
    // registry; src/cli, src/export and src/ggp see games only as entries.
    let words = game_words();
    assert!(words.iter().any(|w| w == "rush-hour") && words.iter().any(|w| w == "games::antwars"), "{words:?}");
    let planted = vec![
        ("planted.rs".to_owned(), vec![(1, "let g = lookup(\"rush-hour\")?;".to_owned())]),
        ("planted.rs".to_owned(), vec![(2, "use crate::games::antwars::Board;".to_owned())]),
        ("planted.rs".to_owned(), vec![(3, "/// as FreeCell does".to_owned())]),
        ("planted.rs".to_owned(), vec![(4, "let rush_hours = 2; // a crush-hour".to_owned())]),
    ];
    assert_eq!(lines_naming_games(&planted, &words).len(), 3, "the check must see planted names");
    let files: Vec<(String, Vec<(usize, String)>)> = ["src/cli", "src/export", "src/ggp"]
        .iter()
        .flat_map(|dir| rust_files(Path::new(dir)))
        .map(|p| (unix(&p), lines_before_tests(&p)))
        .collect();
    assert!(files.len() > 10, "the source tree was not found");
    let found = lines_naming_games(&files, &words);
    assert!(found.is_empty(), "games named outside src/games (reach them through the registry):\n{}", found.join("\n"));
}

/// Calls that read a file; every read goes through `files::read_limited`
/// (directly or by `Sources::load`), which bounds its size.
const FILE_READS: [&str; 4] = ["fs::read(", "fs::read_to_string(", "File::open(", "fs::read_link("];

/// A test module in a file of its own (`tests.rs`, or under `tests/`).
fn is_test_file(path: &str) -> bool {
    path.ends_with("/tests.rs") || path.contains("/tests/")
}

fn lines_reading_files(files: &[(String, Vec<(usize, String)>)]) -> Vec<String> {
    let mut found = Vec::new();
    for (file, lines) in files {
        for (n, line) in lines {
            let code = without_strings(line);
            if FILE_READS.iter().any(|r| code.contains(r)) {
                found.push(format!("{file}:{n}: {}", line.trim()));
            }
        }
    }
    found
}

#[test]
fn files_are_read_only_through_files_rs() {
    let planted = vec![("planted.rs".to_owned(), vec![(7, "let t = std::fs::read_to_string(&path)?;".to_owned())])];
    assert_eq!(lines_reading_files(&planted).len(), 1, "the check must see a planted read");
    let files: Vec<(String, Vec<(usize, String)>)> = rust_files(Path::new("src"))
        .into_iter()
        .filter(|p| unix(p) != "src/files.rs" && !is_test_file(&unix(p)))
        .map(|p| (unix(&p), code_lines(&p)))
        .collect();
    let found = lines_reading_files(&files);
    assert!(found.is_empty(), "files read outside src/files.rs (use files::read_limited):\n{}", found.join("\n"));
}
