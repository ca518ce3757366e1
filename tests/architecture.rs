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
    // The one exception: Ant Wars contest players are C libraries, loaded
    // and called in src/games/antwars/c_player.rs.
    let mut found = Vec::new();
    for path in rust_files(Path::new("src")) {
        let file = unix(&path);
        if file.starts_with("src/eval/jit/") || file == "src/games/antwars/c_player.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source");
        for (i, line) in text.lines().enumerate() {
            if !line.trim_start().starts_with("//") && names(&without_strings(line), "unsafe") {
                found.push(format!("{file}:{}: {line}", i + 1));
            }
        }
    }
    assert!(found.is_empty(), "`unsafe` outside src/eval/jit and the C player loader:\n{}", found.join("\n"));
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

#[test]
fn phases_import_only_the_phases_before_them() {
    let rules: [(&str, &[&str]); 3] = [
        ("src/syntax/", &["crate::lang", "crate::eval", "crate::cli", "crate::games", "crate::evolve"]),
        ("src/lang/", &["crate::eval", "crate::cli", "crate::games", "crate::evolve", "crate::search"]),
        ("src/games/", &["crate::evolve", "crate::search", "crate::cli", "crate::repl"]),
    ];
    let mut found = Vec::new();
    for path in rust_files(Path::new("src")) {
        let file = unix(&path);
        for (dir, banned) in rules {
            if !file.starts_with(dir) {
                continue;
            }
            for (n, line) in code_lines(&path) {
                if banned.iter().any(|b| line.contains(b)) {
                    found.push(format!("{file}:{n}: {line}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "imports against the pipeline's order:\n{}", found.join("\n"));
}
